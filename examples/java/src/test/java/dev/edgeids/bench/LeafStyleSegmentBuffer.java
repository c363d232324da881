package dev.edgeids.bench;

import dev.edgeids.EdgeIds;
import dev.edgeids.NumberRange;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The bench's yardstick for {@link dev.edgeids.SequenceBuffer}: a segment double buffer
 * as Leaf's {@code SegmentIDGenImpl} works (written for the bench from its published
 * design, not copied): two segments, a read lock around each take, the next segment
 * loaded on a pool thread once 10 % of the current one is used, a write lock to switch,
 * the step doubled on each load up to {@code maxStep}. Its segments come from the same
 * service and route as the SequenceBuffer's ({@code reserve}), so only the hand-out differs.
 */
final class LeafStyleSegmentBuffer implements AutoCloseable {
    private static final class Segment {
        final AtomicLong value = new AtomicLong();
        volatile long max;
        volatile int step;
    }

    private final EdgeIds ids;
    private final String name;
    private final int maxStep;
    private final Segment[] segments = {new Segment(), new Segment()};
    private volatile int currentPos;
    private volatile boolean nextReady;
    private final AtomicBoolean loading = new AtomicBoolean();
    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    private final ExecutorService loader = Executors.newSingleThreadExecutor(r -> {
        Thread thread = new Thread(r, "leaf-style-loader");
        thread.setDaemon(true);
        return thread;
    });
    private int step;

    LeafStyleSegmentBuffer(EdgeIds ids, String name, int firstStep, int maxStep) {
        this.ids = ids;
        this.name = name;
        this.maxStep = maxStep;
        this.step = firstStep;
        load(segments[0]);
    }

    long get() {
        while (true) {
            lock.readLock().lock();
            try {
                Segment segment = segments[currentPos];
                if (!nextReady && segment.max - segment.value.get() < 0.9 * segment.step
                        && loading.compareAndSet(false, true)) {
                    Segment next = segments[1 - currentPos];
                    loader.execute(() -> {
                        try {
                            load(next);
                            nextReady = true;
                        } finally {
                            loading.set(false);
                        }
                    });
                }
                long value = segment.value.getAndIncrement();
                if (value < segment.max) return value;
            } finally {
                lock.readLock().unlock();
            }
            for (int spins = 0; loading.get(); spins++) {
                if (spins > 10_000) {
                    try {
                        Thread.sleep(10);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    break;
                }
            }
            lock.writeLock().lock();
            try {
                Segment segment = segments[currentPos];
                long value = segment.value.getAndIncrement();
                if (value < segment.max) return value;
                if (nextReady) {
                    currentPos = 1 - currentPos;
                    nextReady = false;
                } else if (!loading.get()) {
                    throw new IllegalStateException("both segments are empty");
                }
            } finally {
                lock.writeLock().unlock();
            }
        }
    }

    private void load(Segment segment) {
        NumberRange range = ids.reserveInSequence(name, step);
        segment.value.set(range.first());
        segment.max = range.last() + 1;
        segment.step = step;
        step = Math.min(maxStep, step * 2);
    }

    @Override
    public void close() {
        loader.shutdownNow();
    }
}
