package org.iolab.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.sun.jdi.Bootstrap;
import com.sun.jdi.Location;
import com.sun.jdi.ReferenceType;
import com.sun.jdi.VirtualMachine;
import com.sun.jdi.connect.Connector;
import com.sun.jdi.connect.LaunchingConnector;
import com.sun.jdi.event.BreakpointEvent;
import com.sun.jdi.event.ClassPrepareEvent;
import com.sun.jdi.event.Event;
import com.sun.jdi.event.EventSet;
import com.sun.jdi.event.VMDeathEvent;
import com.sun.jdi.event.VMDisconnectEvent;
import com.sun.jdi.request.BreakpointRequest;
import com.sun.jdi.request.ClassPrepareRequest;
import com.sun.jdi.request.EventRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tailer.poll's contract: null "at once when the journal was closed (before or while waiting) and every record it had
 * was returned". A record appended and acknowledged just before the close, after the tailer's cursor last looked at
 * the tip, must still be returned. The child JVM is stopped (by a debugger breakpoint) in poll right after
 * {@code cursor.advance()} returned false, which is where a descheduled tailer thread can be in production; the main
 * thread then appends one record and closes the journal; the tailer resumes.
 */
@Timeout(120)
class JournalTailerCloseRaceTest {
    @TempDir
    Path tmp;

    @Test
    void aRecordAppendedJustBeforeCloseIsReturnedByAPollThatRacesTheClose() throws Exception {
        LaunchingConnector launcher = Bootstrap.virtualMachineManager().defaultConnector();
        Map<String, Connector.Argument> args = launcher.defaultArguments();
        args.get("home").setValue(System.getProperty("java.home"));
        args.get("options").setValue("--enable-native-access=ALL-UNNAMED -cp "
                + System.getProperty("java.class.path"));
        args.get("main").setValue(TailerCloseRaceChild.class.getName() + " " + tmp);
        VirtualMachine vm = launcher.launch(args);
        try {
            raceInChild(vm, tmp);
        } finally {
            // whatever failed (no breakpoint, a timeout), no child is left behind
            if (vm.process().isAlive()) {
                vm.process().destroyForcibly();
            }
        }
    }

    private static void raceInChild(VirtualMachine vm, Path tmp) throws Exception {
        StringBuilder stdout = new StringBuilder();
        Thread drain = new Thread(() -> {
            try {
                stdout.append(new String(vm.process().getInputStream().readAllBytes(), StandardCharsets.UTF_8));
                vm.process().getErrorStream().transferTo(System.err);
            } catch (java.io.IOException e) {
                stdout.append(e);
            }
        });
        drain.start();
        ClassPrepareRequest prepare = vm.eventRequestManager().createClassPrepareRequest();
        prepare.addClassFilter("org.iolab.journal.Journal$TailerImpl");
        prepare.enable();
        boolean hit = false;
        vm.resume();
        loop:
        for (;;) {
            EventSet set = vm.eventQueue().remove();
            for (Event e : set) {
                if (e instanceof ClassPrepareEvent cp) {
                    ReferenceType type = cp.referenceType();
                    // the statement after "if (cursor.advance()) { return record(cursor); }" in poll
                    Location after = type.methodsByName("poll").getFirst().allLineLocations().stream()
                            .filter(l -> sourceLine(l).contains("long left = deadline - System.nanoTime()"))
                            .findFirst().orElseThrow();
                    BreakpointRequest bp = vm.eventRequestManager().createBreakpointRequest(after);
                    bp.setSuspendPolicy(EventRequest.SUSPEND_EVENT_THREAD);
                    bp.enable();
                } else if (e instanceof BreakpointEvent bp && !hit) {
                    hit = true;
                    bp.request().disable();
                    // the tailer found no record and is about to check whether the journal is closed: now the main
                    // thread appends and closes
                    Files.createFile(tmp.resolve("go"));
                    long deadline = System.nanoTime() + 60_000_000_000L;
                    while (!Files.exists(tmp.resolve("closed")) && System.nanoTime() < deadline) {
                        Thread.sleep(5);
                    }
                } else if (e instanceof VMDeathEvent || e instanceof VMDisconnectEvent) {
                    break loop;
                }
            }
            set.resume();
        }
        drain.join();
        String result = stdout.toString().strip();
        assertFalse(!hit, "the breakpoint was never hit: " + result);
        assertEquals("appended 0, poll returned record 0", result,
                "a record appended before the close was never returned by the tailer");
    }

    private static List<String> source;

    private static String sourceLine(Location l) {
        try {
            if (source == null) {
                // the module's folder (Maven sets basedir; an IDE may run from elsewhere)
                source = Files.readAllLines(Path.of(System.getProperty("basedir", "."))
                        .resolve("src/main/java/org/iolab/journal/Journal.java"));
            }
            return source.get(l.lineNumber() - 1);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
