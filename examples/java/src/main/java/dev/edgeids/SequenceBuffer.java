package dev.edgeids;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Leaf's double buffer in this JVM: numbers of a named sequence handed out from a
 * range reserved for this buffer alone ({@code POST /sequences/:name/reserve}), the next
 * range reserved on a background thread once the current one has less than half a
 * step left. As src/ids/sequences/range-buffer.ts, with what Leaf leaves open bounded:
 *
 * <ul>
 * <li>one reserve in flight; a {@link #next} that finds nothing waits for it at most
 *     {@code maxWait} (then {@code overloaded}, retryable), and a reserve older than that
 *     is given up (cancelled), so a hung one never blocks the buffer;
 * <li>a range is used for at most {@code maxAge} after its reserve began: a number
 *     handed out that long after another one is from a range reserved later (one clock
 *     read per number; {@code noMaxAge()} drops the bound and the read, as Leaf has none);
 * <li>a range that arrives at or below what the buffer already held is dropped;
 * <li>the step follows the measured rate: {@code rate × targetRefill}, in [minStep, maxStep];
 * <li>{@link #close} drops what is held, cancels the reserve in flight and waits for its
 *     thread: no thread is left behind.
 * </ul>
 *
 * <pre>{@code
 * try (SequenceBuffer orders = SequenceBuffer.builder(ids, "orders").build()) {
 *     long orderNo = orders.next();   // unique; increasing within each thread
 * }
 * }</pre>
 *
 * Thread-safe: the common path is one atomic increment. Numbers are unique (each range
 * is this buffer's alone); each thread sees them increase (per period, for a sequence
 * with a reset); numbers a range loses when it ages out or the buffer closes are
 * counted in {@link Stats#wasted}.
 */
public final class SequenceBuffer implements AutoCloseable {
    /** Numbers {@code first..last}, handed out from {@code next} up. */
    private static final class HeldRange {
        final long first;
        final long last;
        final String period;
        final long fetchedFromNanos;
        /** The number whose hand-out starts the next reserve. */
        final long refillAt;
        final AtomicLong next;

        HeldRange(NumberRange range, long fetchedFromNanos, long refillAt) {
            this.first = range.first();
            this.last = range.last();
            this.period = range.period();
            this.fetchedFromNanos = fetchedFromNanos;
            this.refillAt = refillAt;
            this.next = new AtomicLong(first);
        }

        long handed() {
            return Math.min(next.get(), last + 1) - first;
        }
    }

    /** Reserves started, failed, given up; ranges dropped; numbers wasted; the next reserve's size. */
    public record Stats(long fetches, long failedFetches, long lateFetches, long droppedRanges, long wasted, int step) {}

    private final Object lock = new Object();
    private final EdgeIds ids;
    private final String name;
    private final int minStep;
    private final int maxStep;
    private final long targetRefillMs;
    private final long maxAgeNanos;
    private final boolean aged; // false: no age bound, no clock read per number
    private final long maxWaitNanos;
    private final double refillBelow;
    private volatile HeldRange current;
    private HeldRange spare;
    private volatile boolean closed;
    private Thread flight; // the reserve in flight
    private long flightStartedNanos;
    private long flights; // reserves started: each one's number
    private long failedFlight = -1;
    private EdgeIdsException failure; // the last reserve's failure, for the calls that waited for it
    // Every reserve thread that may still run: close() joins them all. A thread never removes
    // itself (it would still be alive for a moment after); ended ones are dropped at the next start.
    private final Set<Thread> threads = new HashSet<>();
    private boolean hasTop;
    private long topLast;
    private String topPeriod;
    private int step;
    private long lastFetchAtNanos;
    private long handedAtLastFetch;
    private long retiredHanded;
    private long failedFetches;
    private long lateFetches;
    private long droppedRanges;
    private long wasted;

    private SequenceBuffer(Builder b) {
        if (b.minStep < 1 || b.maxStep < b.minStep) {
            throw new IllegalArgumentException("steps must satisfy 1 <= minStep <= maxStep; got " + b.minStep + ", " + b.maxStep);
        }
        long maxAgeMs = b.maxAge != null ? b.maxAge.toMillis() : Long.MAX_VALUE;
        long targetRefill = b.targetRefill != null ? b.targetRefill.toMillis() : Math.min(10_000, maxAgeMs);
        if (targetRefill < 1 || targetRefill > maxAgeMs) {
            throw new IllegalArgumentException("targetRefill must be in [1 ms, maxAge]; got " + targetRefill + " ms");
        }
        if (!(b.refillBelow > 0 && b.refillBelow <= 1)) {
            throw new IllegalArgumentException("refillBelow must be in (0, 1]; got " + b.refillBelow);
        }
        this.ids = b.ids;
        this.name = b.name;
        this.minStep = b.minStep;
        this.maxStep = b.maxStep;
        this.targetRefillMs = targetRefill;
        this.aged = b.maxAge != null;
        this.maxAgeNanos = aged ? b.maxAge.toNanos() : Long.MAX_VALUE;
        this.maxWaitNanos = b.maxWait.toNanos();
        this.refillBelow = b.refillBelow;
        this.step = minStep;
    }

    /** A buffer over sequence {@code name} (created beforehand: {@code PUT /sequences/:name}). */
    public static Builder builder(EdgeIds ids, String name) {
        return new Builder(ids, name);
    }

    /** Settings of a {@link SequenceBuffer}; the defaults are the TypeScript buffer's. */
    public static final class Builder {
        private final EdgeIds ids;
        private final String name;
        private int minStep = 10;
        private int maxStep = 100_000;
        private Duration targetRefill;
        private Duration maxAge = Duration.ofSeconds(60);
        private Duration maxWait = Duration.ofSeconds(5);
        private double refillBelow = 0.5;

        private Builder(EdgeIds ids, String name) {
            if (ids == null || name == null) throw new IllegalArgumentException("ids and name are required");
            this.ids = ids;
            this.name = name;
        }

        /** The smallest range reserved, and the first (default 10). */
        public Builder minStep(int minStep) { this.minStep = minStep; return this; }
        /** The largest range reserved: bounds what a JVM loses when it ends (default 100,000). */
        public Builder maxStep(int maxStep) { this.maxStep = maxStep; return this; }
        /** How long a range should last at the measured rate (default min(10 s, maxAge)). */
        public Builder targetRefill(Duration targetRefill) { this.targetRefill = targetRefill; return this; }
        /** A range is used for at most this long after its reserve began (default 60 s). */
        public Builder maxAge(Duration maxAge) {
            if (maxAge == null || maxAge.isNegative() || maxAge.isZero()) {
                throw new IllegalArgumentException("maxAge must be a positive duration; got " + maxAge);
            }
            this.maxAge = maxAge;
            return this;
        }
        /** No age bound: a range is used until it runs out, as Leaf's segments are (no clock read per number). */
        public Builder noMaxAge() { this.maxAge = null; return this; }
        /** Longest a {@code next()} waits for a range, and the age at which a reserve is given up (default 5 s). */
        public Builder maxWait(Duration maxWait) { this.maxWait = maxWait; return this; }
        /** Reserve the next range once less than this fraction of a step is left (default 0.5). */
        public Builder refillBelow(double refillBelow) { this.refillBelow = refillBelow; return this; }

        public SequenceBuffer build() {
            return new SequenceBuffer(this);
        }
    }

    public String name() {
        return name;
    }

    /**
     * The next number. Throws {@code overloaded} (no range within {@code maxWait};
     * retryable), {@code aborted} after {@link #close}, or the reserve's own refusal
     * ({@code unknown_sequence}, {@code unavailable}, ...).
     */
    public long next() {
        HeldRange range = current;
        if (range != null) {
            long n = range.next.getAndIncrement();
            if (n <= range.last && (!aged || System.nanoTime() - range.fetchedFromNanos < maxAgeNanos)) {
                if (n == range.refillAt) refillAhead();
                return n;
            }
        }
        return nextWaiting(System.nanoTime());
    }

    public Stats stats() {
        synchronized (lock) {
            return new Stats(flights, failedFetches, lateFetches, droppedRanges, wasted, step);
        }
    }

    /** Drops what is held, cancels the reserve in flight and waits for its thread; later calls throw {@code aborted}. */
    @Override
    public void close() {
        Set<Thread> running;
        synchronized (lock) {
            if (!closed) {
                closed = true;
                retire(current);
                retire(spare);
                current = null;
                spare = null;
                flight = null;
                lock.notifyAll();
            }
            running = new HashSet<>(threads);
        }
        for (Thread thread : running) thread.interrupt();
        for (Thread thread : running) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** The slow path: the spare, or a wait for the reserve in flight, at most {@code maxWait} from {@code began}. */
    private long nextWaiting(long began) {
        synchronized (lock) {
            while (true) {
                if (closed) throw new EdgeIdsException("aborted", "this sequence buffer was closed; make a new one", 0, 0);
                long now = System.nanoTime();
                HeldRange range = current;
                if (range != null) {
                    long n = range.next.getAndIncrement();
                    if (n <= range.last && now - range.fetchedFromNanos < maxAgeNanos) {
                        if (n >= range.refillAt) refillAhead();
                        return n;
                    }
                    retire(range);
                    current = null;
                }
                if (spare != null) {
                    current = spare;
                    spare = null;
                    continue;
                }
                long left = maxWaitNanos - (now - began);
                if (left <= 0) {
                    throw new EdgeIdsException("overloaded", "no range of " + name + " arrived within "
                            + maxWaitNanos / 1_000_000 + " ms; retry shortly", 0, 1);
                }
                if (inFlight(now) == null) startFetch(now);
                long waitingFor = flights;
                try {
                    lock.wait(Math.max(1, (left + 999_999) / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new EdgeIdsException("aborted", "interrupted while waiting for a range", 0, 0, e);
                }
                // Past its wait, a call is overloaded, whatever the reserve it waited for did meanwhile.
                if (System.nanoTime() - began >= maxWaitNanos) continue;
                if (failedFlight == waitingFor && current == null && spare == null && failure != null) throw failure;
            }
        }
    }

    /** Starts the next reserve unless a spare is held or one is in flight. */
    private void refillAhead() {
        synchronized (lock) {
            if (!closed && spare == null && inFlight(System.nanoTime()) == null) startFetch(System.nanoTime());
        }
    }

    /** The reserve in flight, unless it began {@code maxWait} ago or more (then it is given up). */
    private Thread inFlight(long now) {
        if (flight != null && now - flightStartedNanos >= maxWaitNanos) {
            flight.interrupt();
            flight = null;
            lateFetches++;
        }
        return flight;
    }

    private void startFetch(long now) {
        long handed = retiredHanded + (current != null ? current.handed() : 0) + (spare != null ? spare.handed() : 0);
        if (flights > 0) {
            double perSecond = (handed - handedAtLastFetch) * 1e9 / Math.max(1_000_000L, now - lastFetchAtNanos);
            double wanted = Math.ceil(perSecond * targetRefillMs / 1000);
            step = wanted > minStep ? (int) Math.min(maxStep, wanted) : minStep;
        }
        lastFetchAtNanos = now;
        handedAtLastFetch = handed;
        long number = ++flights;
        int size = step;
        Thread thread = new Thread(() -> fetchInto(number, size, now), "edge-ids-sequence-" + name);
        thread.setDaemon(true);
        flight = thread;
        flightStartedNanos = now;
        threads.removeIf(t -> !t.isAlive());
        threads.add(thread);
        thread.start();
    }

    /** One reserve, on its own thread; its range held (or dropped), or its failure kept for the waiting calls. */
    private void fetchInto(long number, int size, long startedNanos) {
        NumberRange range = null;
        EdgeIdsException failed = null;
        try {
            // Its own bound is past the buffer's: a hung reserve is given up at maxWait (overloaded), not timed out.
            range = ids.reserve(name, size, Duration.ofNanos(2 * maxWaitNanos));
        } catch (EdgeIdsException e) {
            failed = e;
        } catch (RuntimeException e) {
            failed = new EdgeIdsException("internal", "reserving a range: " + e, 0, 0, e);
        }
        synchronized (lock) {
            boolean givenUp = flight != Thread.currentThread();
            if (!givenUp) flight = null;
            if (failed != null) {
                failedFetches++;
                if (!givenUp) { // a reserve given up failed by its cancellation: no answer of the service's
                    failure = failed;
                    failedFlight = number;
                }
            } else {
                accept(range, startedNanos);
            }
            lock.notifyAll();
        }
    }

    /** A range that arrived: held if it lies above everything held before, else dropped. */
    private void accept(NumberRange range, long fetchedFromNanos) {
        int order = hasTop ? comparePeriods(range.period(), topPeriod) : 1;
        boolean above = order > 0 || (order == 0 && range.first() > topLast);
        if (closed || !above || (current != null && spare != null)) {
            droppedRanges++;
            wasted += range.count();
            return;
        }
        hasTop = true;
        topLast = range.last();
        topPeriod = range.period();
        long refillAt = Math.max(range.first(), range.last() - (long) Math.ceil(refillBelow * step) + 1);
        HeldRange held = new HeldRange(range, fetchedFromNanos, refillAt);
        if (current != null) spare = held;
        else current = held;
    }

    private void retire(HeldRange range) {
        if (range == null) return;
        long handed = range.handed();
        retiredHanded += handed;
        wasted += range.last - range.first + 1 - handed;
    }

    /** Periods in order (ISO dates and months sort as text); none before any. */
    private static int comparePeriods(String a, String b) {
        if (a == null || b == null) return a == null ? (b == null ? 0 : -1) : 1;
        return Integer.signum(a.compareTo(b));
    }
}
