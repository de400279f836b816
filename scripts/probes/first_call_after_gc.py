# What a collection costs compiled code (docs/RESULTS.md, session of 2026-11-25 15:51): a class of N small static
# methods, each compiled on its own (-XX:-Inline), all called once per round; the round is timed twice, right after
# a System.gc() (with "gc") and again at once. Prints the last rounds, microseconds.
#   python3 scripts/probes/first_call_after_gc.py [N] [gc]     (a JDK 25 java on PATH)
import os
import subprocess
import sys
import tempfile

n = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 1000
gc = "gc" in sys.argv[1:]
methods = "\n".join(f"    static int m{i}(int x) {{ return x * {i + 3} + {i}; }}" for i in range(n))
calls = "\n".join(f"        s += m{i}(s);" for i in range(n))
source = f"""
public class FirstCall {{
{methods}
    static int all(int s) {{
{calls}
        return s;
    }}
    public static void main(String[] a) throws Exception {{
        int s = 0;
        for (int r = 0; r < 30000; r++) s = all(s); // every method compiled
        Thread.sleep(1000);
        for (int r = 0; r < 12; r++) {{
            if (a.length > 0) System.gc();
            long t = System.nanoTime();
            s = all(s);
            long t1 = System.nanoTime();
            s = all(s);
            long t2 = System.nanoTime();
            if (r >= 7) System.out.printf("first %.1f us, second %.1f us%n", (t1 - t) / 1e3, (t2 - t1) / 1e3);
        }}
        if (s == 42) System.out.println(s);
    }}
}}
"""
with tempfile.TemporaryDirectory() as d:
    with open(os.path.join(d, "FirstCall.java"), "w") as f:
        f.write(source)
    subprocess.run(["javac", "-d", d, os.path.join(d, "FirstCall.java")], check=True)
    subprocess.run(["java", "-XX:-Inline", "-cp", d, "FirstCall"] + (["gc"] if gc else []), check=True)
