package dev.edgeids.bench;

import dev.edgeids.EdgeIds;
import dev.edgeids.LeasedSnowflakeGenerator;
import dev.edgeids.SequenceBuffer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * The Java client against Leaf-style yardsticks in one JVM, for scripts/bench/java.ts
 * ({@code npm run bench:java}): {@code LeasedSnowflakeGenerator.nextId()} against
 * {@link LeafStyleSnowflake}, {@code SequenceBuffer.next()} against
 * {@link LeafStyleSegmentBuffer} over the same service and sequence (and the buffer
 * without its age bound, {@code noMaxAge()}, as Leaf has none), each on 1 and 8
 * threads, in alternating rounds so a busy machine weighs on both alike. Prints one
 * JSON line per round: {@code {"case":"snowflake","threads":1,"variant":"edge-ids","perSecond":…,
 * "perCpuSecond":…}}, the second counting only the time the threads were on a core (what
 * a machine shared with other work cannot take away).
 *
 * <pre>
 *   java -cp CLASSES dev.edgeids.bench.JavaBench URL SEQUENCE ROUNDS SECONDS
 * </pre>
 */
public final class JavaBench {
    public static void main(String[] args) throws Exception {
        EdgeIds ids = EdgeIds.builder(args[0]).build();
        String sequence = args[1];
        int rounds = Integer.parseInt(args[2]);
        double seconds = Double.parseDouble(args[3]);
        try (LeasedSnowflakeGenerator leased = LeasedSnowflakeGenerator.builder(ids).holder("bench").build();
                SequenceBuffer buffer = SequenceBuffer.builder(ids, sequence).build();
                SequenceBuffer unaged = SequenceBuffer.builder(ids, sequence).noMaxAge().build();
                LeafStyleSegmentBuffer segments = new LeafStyleSegmentBuffer(ids, sequence, 1000, 100_000)) {
            LeafStyleSnowflake leaf = new LeafStyleSnowflake(5);
            leased.start();
            for (int threads : new int[] {1, 8}) {
                measure("snowflake", threads, "warm-up", leased::nextId, 0.5);
                measure("snowflake", threads, "warm-up", leaf::get, 0.5);
                measure("sequence", threads, "warm-up", buffer::next, 0.5);
                measure("sequence", threads, "warm-up", segments::get, 0.5);
                measure("sequence", threads, "warm-up", unaged::next, 0.5);
                for (int round = 0; round < rounds; round++) {
                    // Alternating the order each round: neither always runs first.
                    boolean ours = round % 2 == 0;
                    for (int i = 0; i < 2; i++, ours = !ours) {
                        if (ours) measure("snowflake", threads, "edge-ids", leased::nextId, seconds);
                        else measure("snowflake", threads, "leaf-style", leaf::get, seconds);
                    }
                    for (int i = 0; i < 2; i++, ours = !ours) {
                        if (ours) measure("sequence", threads, "edge-ids", buffer::next, seconds);
                        else measure("sequence", threads, "leaf-style", segments::get, seconds);
                    }
                    measure("sequence", threads, "edge-ids-unaged", unaged::next, seconds);
                }
            }
        }
        System.exit(0);
    }

    /** Calls {@code next} from {@code threads} threads for {@code seconds}; each thread checks its values increase. */
    private static void measure(String what, int threads, String variant, LongSupplier next, double seconds)
            throws InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        long[] counts = new long[threads];
        long[] cpuNanos = new long[threads];
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        boolean[] disorder = new boolean[threads];
        List<Thread> running = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int slot = t;
            Thread thread = new Thread(() -> {
                long cpuStart = cpu.getCurrentThreadCpuTime();
                long last = Long.MIN_VALUE;
                long n = 0;
                while (!stop.get()) {
                    for (int i = 0; i < 256; i++) {
                        long value = next.getAsLong();
                        if (value <= last) disorder[slot] = true;
                        last = value;
                    }
                    n += 256;
                }
                counts[slot] = n;
                cpuNanos[slot] = cpu.getCurrentThreadCpuTime() - cpuStart;
            });
            running.add(thread);
        }
        long start = System.nanoTime();
        for (Thread thread : running) thread.start();
        Thread.sleep((long) (seconds * 1000));
        stop.set(true);
        for (Thread thread : running) thread.join();
        double elapsed = (System.nanoTime() - start) / 1e9;
        long total = 0;
        long onCpu = 0;
        boolean ordered = true;
        for (int t = 0; t < threads; t++) {
            total += counts[t];
            onCpu += cpuNanos[t];
            ordered &= !disorder[t];
        }
        if (!ordered) throw new IllegalStateException(variant + " " + what + ": a thread's values did not increase");
        if (variant.equals("warm-up")) return;
        System.out.println("{\"case\":\"" + what + "\",\"threads\":" + threads + ",\"variant\":\"" + variant
                + "\",\"perSecond\":" + Math.round(total / elapsed) + ",\"perCpuSecond\":"
                + Math.round(total / (onCpu / 1e9)) + "}");
    }
}
