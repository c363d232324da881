package dev.edgeids;

import java.time.Duration;

/**
 * A {@link SequenceBuffer} against a scripted reserve route, for
 * test/client/java-sequence-buffer.test.ts:
 *
 * <pre>
 *   java -cp CLASSES dev.edgeids.BufferDriver URL NAME CALLS MAX_WAIT_MS
 * </pre>
 *
 * makes {@code CALLS} calls of {@code next()} one after another, printing one JSON line
 * each ({@code n}, or the refusal's {@code code}, and {@code ms}), then closes the
 * buffer and prints {@code {"threads": …}}: the client's threads still alive (none may be).
 */
public final class BufferDriver {
    public static void main(String[] args) {
        EdgeIds ids = EdgeIds.builder(args[0]).build();
        SequenceBuffer buffer = SequenceBuffer.builder(ids, args[1]).minStep(5).maxWait(Duration.ofMillis(Long.parseLong(args[3]))).build();
        int calls = Integer.parseInt(args[2]);
        for (int i = 0; i < calls; i++) {
            long start = System.nanoTime();
            String outcome;
            try {
                outcome = "\"n\":\"" + buffer.next() + "\"";
            } catch (EdgeIdsException e) {
                outcome = "\"code\":" + Json.quote(e.code());
            }
            System.out.println("{" + outcome + ",\"ms\":" + (System.nanoTime() - start) / 1_000_000 + "}");
        }
        long start = System.nanoTime();
        buffer.close();
        System.out.println("{\"threads\":" + HolderDriver.edgeIdsThreads() + ",\"closeMs\":"
                + (System.nanoTime() - start) / 1_000_000 + ",\"fetches\":" + buffer.stats().fetches()
                + ",\"droppedRanges\":" + buffer.stats().droppedRanges() + "}");
        System.exit(0);
    }
}
