#!/usr/bin/env bash
# The native yardstick for `./iolab bench`: dd with 1 MiB blocks on the same file size and cache state.
# Usage: scripts/dd-baseline.sh [SIZE_MIB=1024] [RUNS=5] [DIR=.]
# Prints median, min and max GB/s for: write (conv=fdatasync), warm read, cold read (echo 3 >
# drop_caches when root, else a note). Creates one file in DIR and removes it.
set -euo pipefail
size_mib=${1:-1024}
runs=${2:-5}
dir=${3:-.}
f=$(mktemp -p "$dir" dd-baseline.XXXXXX)
trap 'rm -f "$f"' EXIT INT TERM

gbps() { # bytes seconds -> GB/s
  awk -v b="$1" -v s="$2" 'BEGIN { printf "%.3f", b / s / 1e9 }'
}
run_dd() { # dd args... -> seconds (from dd's own summary line)
  LC_ALL=C dd "$@" 2>&1 | awk '/copied/ { for (i = 1; i <= NF; i++) if ($i == "s,") print $(i-1) }'
}
stats() { # label values... -> "label median min max (n runs)"
  local label=$1; shift
  printf '%s\n' "$@" | sort -g | awk -v l="$label" '{ v[NR] = $1 } END {
    m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
    printf "%-28s median %6.2f GB/s   min %6.2f   max %6.2f   (%d runs)\n", l, m, v[1], v[NR], NR }'
}

bytes=$((size_mib * 1024 * 1024))
w=(); rw=(); rc=()
for _ in $(seq "$runs"); do
  s=$(run_dd if=/dev/zero of="$f" bs=1M count="$size_mib" conv=fdatasync)
  w+=("$(gbps "$bytes" "$s")")
done
# the content does not matter to dd; reads below use this file
cat "$f" >/dev/null
for _ in $(seq "$runs"); do
  s=$(run_dd if="$f" of=/dev/null bs=1M)
  rw+=("$(gbps "$bytes" "$s")")
done
if [ -w /proc/sys/vm/drop_caches ]; then
  for _ in $(seq "$runs"); do
    sync; echo 3 > /proc/sys/vm/drop_caches
    s=$(run_dd if="$f" of=/dev/null bs=1M)
    rc+=("$(gbps "$bytes" "$s")")
  done
fi
echo "dd, bs=1M, ${size_mib} MiB file in $(cd "$dir" && pwd) ($(findmnt -no FSTYPE -T "$dir"))"
stats "write conv=fdatasync" "${w[@]}"
stats "read warm" "${rw[@]}"
if [ ${#rc[@]} -gt 0 ]; then stats "read cold (drop_caches)" "${rc[@]}"; else echo "read cold: skipped (needs root for drop_caches)"; fi
