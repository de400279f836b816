package org.iolab.cli;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * Headless Chromium driven over the DevTools protocol (plain {@link HttpClient} and {@link WebSocket},
 * no browser-automation library): opens a page, collects console errors, uncaught exceptions and failed
 * loads, measures the charts and takes a screenshot of the page's top.
 */
final class Chromium implements AutoCloseable {
    static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    static final Duration NAVIGATION_TIMEOUT = Duration.ofSeconds(30);
    static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(30);
    /** Set to true to skip (instead of fail) browser tests on machines without Chromium. */
    static final String OPTIONAL_PROPERTY = "iolab.browser.optional";
    static final String INSTALL_HINT = "install Chromium (Debian/Ubuntu: apt-get install -y chromium), or point"
            + " $CHROMIUM at a Chromium/Chrome binary; -D" + OPTIONAL_PROPERTY + "=true skips browser tests instead";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern LISTENING = Pattern.compile("DevTools listening on (ws://[^\\s]+)");
    private static final int WIDTH = 1280;
    private static final int HEIGHT = 1600;
    private static final int SHOT_HEIGHT = 900;

    /** Every chart-like element: svg and img inside .chart, else every top-level inline svg. */
    private static final String CHARTS_JS = """
            new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => {
              const holders = [...document.querySelectorAll('.chart')];
              let els;
              if (holders.length > 0) {
                els = holders.flatMap(h => [...(h.matches('svg, img') ? [h] : []), ...h.querySelectorAll('svg, img')])
                    .filter(e => !e.ownerSVGElement);
                els = [...new Set(els)];
              } else {
                els = [...document.querySelectorAll('svg')].filter(e => !e.ownerSVGElement);
              }
              done(els.map(e => {
                const r = e.getBoundingClientRect();
                const holder = e.closest('.chart');
                const caption = holder && holder.querySelector('figcaption, h2, h3, h4');
                const label = e.getAttribute('aria-label') || (caption ? caption.textContent : '') || e.id || '';
                return {tag: e.tagName.toLowerCase(), label: label.trim().replace(/\\s+/g, ' ').slice(0, 100),
                        width: r.width, height: r.height,
                        broken: e.tagName === 'IMG' && !(e.complete && e.naturalWidth > 0)};
              }));
            })))
            """;

    /** One chart as laid out in the page, in CSS pixels. */
    record Chart(String tag, String label, double width, double height, boolean broken) {
        @Override
        public String toString() {
            return "%s '%s' %.0fx%.0f%s".formatted(tag, label, width, height, broken ? " (image not loaded)" : "");
        }
    }

    /** What one page load showed: problems (console errors, exceptions, failed loads), charts, screenshot. */
    record Page(List<String> problems, List<Chart> charts, String title, Path screenshot) {
    }

    private final Process process;
    private final Path profile;
    private final Deque<String> stderrTail = new ArrayDeque<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    private final List<Consumer<JsonNode>> listeners = new CopyOnWriteArrayList<>();
    private final AtomicInteger ids = new AtomicInteger();
    private WebSocket socket;

    private Chromium(Process process, Path profile) {
        this.process = process;
        this.profile = profile;
    }

    /**
     * The browser binary: $CHROMIUM if set (and nothing else then), else /usr/bin/chromium, else chromium,
     * chromium-browser, google-chrome or google-chrome-stable on PATH.
     */
    static Optional<Path> find() {
        List<Path> candidates = new ArrayList<>();
        String env = System.getenv("CHROMIUM");
        if (env != null && !env.isBlank()) {
            // asked for by name: that one or none
            Path p = Path.of(env);
            return Files.isRegularFile(p) && Files.isExecutable(p) ? Optional.of(p) : Optional.empty();
        }
        candidates.add(Path.of("/usr/bin/chromium"));
        String path = System.getenv("PATH");
        for (String name : List.of("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")) {
            if (path != null) {
                for (String dir : path.split(java.io.File.pathSeparator)) {
                    if (!dir.isEmpty()) {
                        candidates.add(Path.of(dir, name));
                    }
                }
            }
        }
        return candidates.stream().filter(p -> Files.isRegularFile(p) && Files.isExecutable(p)).findFirst();
    }

    /**
     * The browser binary, or the test ends: skipped when -Diolab.browser.optional=true, otherwise failed,
     * so a machine without Chromium never passes the browser tests silently.
     */
    static Path required() {
        Optional<Path> binary = find();
        if (binary.isEmpty()) {
            String env = System.getenv("CHROMIUM");
            String message = (env != null && !env.isBlank() ? "$CHROMIUM=" + env + " is not an executable file"
                    : "no Chromium found (/usr/bin/chromium, chromium, chromium-browser, google-chrome on PATH)")
                    + ": " + INSTALL_HINT;
            if (Boolean.getBoolean(OPTIONAL_PROPERTY)) {
                Assumptions.assumeTrue(false, message);
            }
            fail(message);
        }
        return binary.get();
    }

    /** Starts headless Chromium on about:blank with a fresh profile and connects to its page. */
    static Chromium start(Path binary) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory("iolab-chromium");
        // without the background-networking flags Chromium's own connections are refused on closed networks
        List<String> cmd = List.of(binary.toString(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-extensions", "--hide-scrollbars",
                "--user-data-dir=" + profile, "--remote-debugging-port=0", "--window-size=" + WIDTH + "," + HEIGHT,
                "about:blank");
        Process process;
        try {
            process = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            deleteTree(profile);
            throw e;
        }
        Chromium chromium = new Chromium(process, profile);
        boolean ok = false;
        try {
            chromium.connect();
            ok = true;
            return chromium;
        } finally {
            if (!ok) {
                chromium.close();
            }
        }
    }

    private void connect() throws IOException, InterruptedException {
        CompletableFuture<String> browserUrl = new CompletableFuture<>();
        Thread.ofVirtual().name("chromium-stderr").start(() -> {
            try (BufferedReader r = new BufferedReader(
                    new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    synchronized (stderrTail) {
                        stderrTail.addLast(line);
                        if (stderrTail.size() > 40) {
                            stderrTail.removeFirst();
                        }
                    }
                    Matcher m = LISTENING.matcher(line);
                    if (m.find()) {
                        browserUrl.complete(m.group(1));
                    }
                }
            } catch (IOException e) {
                // the browser went away; whoever waits times out or sees it exit
            }
            browserUrl.completeExceptionally(new IOException("Chromium exited before DevTools was listening"));
        });
        URI ws;
        try {
            ws = URI.create(browserUrl.get(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS));
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException("Chromium did not start its DevTools server within " + START_TIMEOUT.toSeconds()
                    + " s (" + describeExit() + "); stderr:\n" + stderrTail(), e);
        }
        URI list = URI.create("http://" + ws.getHost() + ":" + ws.getPort() + "/json/list");
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        String pageUrl = null;
        while (pageUrl == null) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(list).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
            for (JsonNode t : JSON.readTree(r.body())) {
                if ("page".equals(t.path("type").asText()) && t.hasNonNull("webSocketDebuggerUrl")) {
                    pageUrl = t.get("webSocketDebuggerUrl").asText();
                    break;
                }
            }
            if (pageUrl == null) {
                if (System.nanoTime() > deadline) {
                    throw new IOException("no page target in " + list + ": " + r.body());
                }
                Thread.sleep(100);
            }
        }
        try {
            socket = http.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10))
                    .buildAsync(URI.create(pageUrl), new Listener()).get(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException("cannot connect to " + pageUrl, e);
        }
        for (String domain : List.of("Runtime", "Log", "Page", "Network")) {
            send(domain + ".enable", JSON.createObjectNode());
        }
    }

    /**
     * Loads the file, waits for its load event, and reports what the console and network showed, the
     * charts and a screenshot of the page's top 1280x900 CSS pixels written to {@code screenshot}.
     */
    Page open(Path html, Path screenshot) throws IOException, InterruptedException {
        List<String> problems = new CopyOnWriteArrayList<>();
        Map<String, String> urls = new ConcurrentHashMap<>();
        CompletableFuture<Void> loaded = new CompletableFuture<>();
        Consumer<JsonNode> listener = event -> {
            String method = event.path("method").asText();
            JsonNode p = event.path("params");
            switch (method) {
                case "Page.loadEventFired" -> loaded.complete(null);
                case "Runtime.consoleAPICalled" -> {
                    String type = p.path("type").asText();
                    if (type.equals("error") || type.equals("assert")) {
                        List<String> args = new ArrayList<>();
                        for (JsonNode a : p.path("args")) {
                            args.add(a.has("value") ? a.get("value").asText() : a.path("description").asText(
                                    a.path("type").asText()));
                        }
                        problems.add("console." + type + ": " + String.join(" ", args) + where(p.path("stackTrace")));
                    }
                }
                case "Runtime.exceptionThrown" -> {
                    JsonNode d = p.path("exceptionDetails");
                    String text = d.path("exception").path("description").asText(d.path("text").asText());
                    String at = d.path("url").asText() + ":" + (d.path("lineNumber").asInt() + 1);
                    problems.add("uncaught exception: " + text + (text.contains(at) ? "" : " at " + at));
                }
                case "Log.entryAdded" -> {
                    JsonNode e = p.path("entry");
                    if (e.path("level").asText().equals("error")) {
                        problems.add("log error (" + e.path("source").asText() + "): " + e.path("text").asText()
                                + (e.hasNonNull("url") ? " " + e.get("url").asText() : ""));
                    }
                }
                case "Network.requestWillBeSent" ->
                    urls.put(p.path("requestId").asText(), p.path("request").path("url").asText());
                case "Network.responseReceived" -> {
                    int status = p.path("response").path("status").asInt();
                    if (status >= 400) {
                        problems.add("failed load: HTTP " + status + " " + p.path("response").path("url").asText());
                    }
                }
                case "Network.loadingFailed" -> problems.add("failed load: " + p.path("errorText").asText()
                        + (p.path("canceled").asBoolean() ? " (canceled)" : "") + " "
                        + urls.getOrDefault(p.path("requestId").asText(), "request " + p.path("requestId").asText()));
                default -> {
                }
            }
        };
        listeners.add(listener);
        try {
            String url = html.toAbsolutePath().toUri().toString();
            JsonNode nav = send("Page.navigate", JSON.createObjectNode().put("url", url));
            if (nav.hasNonNull("errorText")) {
                problems.add("navigation to " + url + " failed: " + nav.get("errorText").asText());
            } else {
                try {
                    loaded.get(NAVIGATION_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                } catch (ExecutionException | TimeoutException e) {
                    throw new IOException("no load event within " + NAVIGATION_TIMEOUT.toSeconds() + " s for " + url);
                }
            }
            ObjectNode eval = JSON.createObjectNode().put("expression", CHARTS_JS).put("returnByValue", true)
                    .put("awaitPromise", true);
            JsonNode result = send("Runtime.evaluate", eval);
            if (result.has("exceptionDetails")) {
                throw new IOException("measuring the charts failed: " + result.get("exceptionDetails"));
            }
            List<Chart> charts = new ArrayList<>();
            for (JsonNode c : result.path("result").path("value")) {
                charts.add(new Chart(c.path("tag").asText(), c.path("label").asText(), c.path("width").asDouble(),
                        c.path("height").asDouble(), c.path("broken").asBoolean()));
            }
            String title = send("Runtime.evaluate", JSON.createObjectNode().put("expression", "document.title")
                    .put("returnByValue", true)).path("result").path("value").asText();
            ObjectNode shot = JSON.createObjectNode().put("format", "png").put("captureBeyondViewport", false);
            shot.putObject("clip").put("x", 0).put("y", 0).put("width", WIDTH).put("height", SHOT_HEIGHT)
                    .put("scale", 1);
            byte[] png = Base64.getDecoder().decode(send("Page.captureScreenshot", shot).path("data").asText());
            Path parent = screenshot.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.write(screenshot, png);
            return new Page(List.copyOf(problems), List.copyOf(charts), title, screenshot);
        } finally {
            listeners.remove(listener);
        }
    }

    private static String where(JsonNode stackTrace) {
        JsonNode f = stackTrace.path("callFrames").path(0);
        return f.isMissingNode() ? "" : " at " + f.path("url").asText() + ":" + (f.path("lineNumber").asInt() + 1);
    }

    /** Sends one DevTools command and waits for its result; a protocol error becomes an IOException. */
    JsonNode send(String method, ObjectNode params) throws IOException, InterruptedException {
        int id = ids.incrementAndGet();
        CompletableFuture<JsonNode> reply = new CompletableFuture<>();
        pending.put(id, reply);
        ObjectNode msg = JSON.createObjectNode().put("id", id).put("method", method);
        msg.set("params", params);
        try {
            synchronized (this) {
                socket.sendText(JSON.writeValueAsString(msg), true).get(COMMAND_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            }
            JsonNode r = reply.get(COMMAND_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            if (r.has("error")) {
                throw new IOException(method + ": " + r.get("error"));
            }
            return r.path("result");
        } catch (ExecutionException e) {
            throw new IOException(method + " failed", e.getCause());
        } catch (TimeoutException e) {
            throw new IOException(method + ": no answer within " + COMMAND_TIMEOUT.toSeconds() + " s", e);
        } finally {
            pending.remove(id);
        }
    }

    private final class Listener implements WebSocket.Listener {
        private final StringBuilder text = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            text.append(data);
            if (last) {
                String message = text.toString();
                text.setLength(0);
                dispatch(message);
            }
            ws.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket ws, int statusCode, String reason) {
            failPending(new IOException("DevTools connection closed: " + statusCode + " " + reason));
            return null;
        }

        @Override
        public void onError(WebSocket ws, Throwable error) {
            failPending(error);
        }
    }

    private void dispatch(String message) {
        JsonNode m;
        try {
            m = JSON.readTree(message);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (m.has("id")) {
            CompletableFuture<JsonNode> f = pending.get(m.get("id").asInt());
            if (f != null) {
                f.complete(m);
            }
        } else {
            for (Consumer<JsonNode> l : listeners) {
                l.accept(m);
            }
        }
    }

    private void failPending(Throwable error) {
        pending.values().forEach(f -> f.completeExceptionally(error));
    }

    private String describeExit() {
        return process.isAlive() ? "still running" : "exited with " + process.exitValue();
    }

    String stderrTail() {
        synchronized (stderrTail) {
            return String.join("\n", stderrTail);
        }
    }

    /** Ends the browser (politely, then by force, with all its child processes) and deletes its profile. */
    @Override
    public void close() {
        try {
            if (socket != null) {
                try {
                    socket.sendText("{\"id\":0,\"method\":\"Browser.close\"}", true).get(2, TimeUnit.SECONDS);
                    process.waitFor(5, TimeUnit.SECONDS);
                } catch (Exception e) {
                    // the process is ended below in any case
                }
                socket.abort();
            }
        } finally {
            List<ProcessHandle> children = process.descendants().toList();
            process.destroy();
            children.forEach(ProcessHandle::destroy);
            try {
                if (!process.waitFor(5, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    process.waitFor(5, TimeUnit.SECONDS);
                }
                for (ProcessHandle c : children) {
                    c.onExit().get(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException e) {
                // ended by force below
            } finally {
                children.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                http.close();
                deleteTree(profile);
            }
        }
    }

    private static void deleteTree(Path dir) {
        for (int attempt = 0; attempt < 3 && Files.exists(dir); attempt++) {
            try (Stream<Path> s = Files.walk(dir)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> {
                    try {
                        Files.deleteIfExists(p);
                    } catch (IOException e) {
                        // retried below: a late writer may still be finishing
                    }
                });
            } catch (IOException | UncheckedIOException e) {
                // retried
            }
        }
    }
}
