package dev.edgeids.bench;

import java.util.Random;

/**
 * The bench's yardstick for the leased generator: a Snowflake generator as Leaf's
 * {@code SnowflakeIDGenImpl} works (written for the bench from its published design,
 * not copied): one synchronized method, the wall clock in ms, 41/10/12 bits from
 * 1288834974657, a random first sequence below 100 each ms, a spin to the next ms when
 * a ms is full, and a short wait when the clock went back up to 5 ms.
 */
final class LeafStyleSnowflake {
    private static final long EPOCH = 1288834974657L;
    private static final long SEQUENCE_MASK = 4095;
    private static final Random RANDOM = new Random();

    private final long workerId;
    private long sequence;
    private long lastMs = -1;

    LeafStyleSnowflake(long workerId) {
        this.workerId = workerId;
    }

    synchronized long get() {
        long ms = System.currentTimeMillis();
        if (ms < lastMs) {
            long back = lastMs - ms;
            if (back > 5) throw new IllegalStateException("clock went back " + back + " ms");
            try {
                wait(back << 1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            ms = System.currentTimeMillis();
            if (ms < lastMs) throw new IllegalStateException("clock still behind");
        }
        if (ms == lastMs) {
            sequence = (sequence + 1) & SEQUENCE_MASK;
            if (sequence == 0) {
                sequence = RANDOM.nextInt(100);
                while (ms <= lastMs) ms = System.currentTimeMillis();
            }
        } else {
            sequence = RANDOM.nextInt(100);
        }
        lastMs = ms;
        return ((ms - EPOCH) << 22) | (workerId << 12) | sequence;
    }
}
