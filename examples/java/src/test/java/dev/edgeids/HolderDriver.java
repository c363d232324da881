package dev.edgeids;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs a {@link LeasedSnowflakeGenerator} for test/client/java-holder.test.ts, as
 * test/client/python-holder-driver.py runs the Python one:
 *
 * <pre>
 *   java -cp CLASSES dev.edgeids.HolderDriver '{"url":"http://127.0.0.1:4711","seconds":1,"threads":1}'
 * </pre>
 *
 * makes one call (the acquire), then calls {@code nextId()} (or {@code next(count)}) every {@code interval} s from {@code threads}
 * threads for {@code seconds}, then closes; prints one JSON line per call ({@code t}: ms since
 * the start; {@code ids} as strings, or the refusal's {@code code}, {@code message},
 * {@code retryAfter}; {@code ms}: how long it took), then {@code {"stats": ...}}.
 * {@code grantThrowsOnce}: the grant listener throws once on the renewal thread.
 */
public final class HolderDriver {
    /** When the calls began: after the first one (the acquire), so the JVM's start counts for nothing. */
    private static volatile long begun = System.nanoTime();

    public static void main(String[] argv) throws Exception {
        Map<?, ?> config = (Map<?, ?>) Json.parse(argv[0]);
        double seconds = number(config, "seconds", 1);
        double interval = number(config, "interval", 0.02);
        int threads = (int) number(config, "threads", 1);
        int count = (int) number(config, "count", 1);
        boolean throwsOnce = Boolean.TRUE.equals(config.get("grantThrowsOnce"));
        AtomicBoolean thrown = new AtomicBoolean();
        EdgeIds ids = EdgeIds.builder((String) config.get("url")).build();
        LeasedSnowflakeGenerator gen = LeasedSnowflakeGenerator.builder(ids)
                .holder("driver")
                .maxWait(Duration.ofMillis((long) (number(config, "maxWait", 0.1) * 1000)))
                .onGrant(grant -> {
                    boolean renewal = Thread.currentThread().getName().equals("edge-ids-lease-renewal");
                    if (throwsOnce && renewal && thrown.compareAndSet(false, true)) {
                        throw new IllegalStateException("a listener that fails");
                    }
                })
                .build();
        call(gen, count);
        begun = System.nanoTime();
        List<Thread> running = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Thread thread = new Thread(() -> {
                while (System.nanoTime() - begun < seconds * 1e9) {
                    call(gen, count);
                    try {
                        Thread.sleep((long) (interval * 1000));
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            thread.start();
            running.add(thread);
        }
        for (Thread thread : running) thread.join();
        gen.close();
        LeasedSnowflakeGenerator.Stats s = gen.stats();
        say("{\"stats\":{\"acquires\":" + s.acquires() + ",\"renewals\":" + s.renewals() + ",\"renewals_granted\":"
                + s.renewalsGranted() + ",\"renewals_failed\":" + s.renewalsFailed() + ",\"leases_lost\":"
                + s.leasesLost() + ",\"releases\":" + s.releases() + ",\"threads\":" + edgeIdsThreads() + "}}");
    }

    /** Threads of the client still alive after close(): none may be. */
    static long edgeIdsThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("edge-ids-")).count();
    }

    private static void call(LeasedSnowflakeGenerator gen, int count) {
        long start = System.nanoTime();
        StringBuilder line = new StringBuilder("{\"t\":").append((start - begun) / 1_000_000);
        try {
            long[] got = count == 1 ? new long[] {gen.nextId()} : gen.next(count);
            line.append(",\"ids\":[");
            for (int i = 0; i < got.length; i++) line.append(i > 0 ? ",\"" : "\"").append(got[i]).append('"');
            line.append(']');
        } catch (EdgeIdsException e) {
            line.append(",\"code\":").append(Json.quote(e.code())).append(",\"message\":")
                    .append(Json.quote(e.getMessage())).append(",\"retryAfter\":").append(e.retryAfterSeconds());
        }
        say(line.append(",\"ms\":").append((System.nanoTime() - start) / 1_000_000).append('}').toString());
    }

    private static synchronized void say(String line) {
        System.out.println(line);
        System.out.flush();
    }

    private static double number(Map<?, ?> config, String key, double otherwise) {
        Object value = config.get(key);
        return value instanceof Number ? ((Number) value).doubleValue() : otherwise;
    }
}
