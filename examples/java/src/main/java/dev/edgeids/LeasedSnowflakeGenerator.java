package dev.edgeids;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;

/**
 * Snowflake IDs made in this JVM on a worker ID leased from edge-ids: up to the
 * layout's limit (4,096 IDs per ms), no request per ID, never an ID another holder
 * of that worker ID could make. Thread-safe. It keeps every rule of docs/LEASES.md
 * as the TypeScript holder (src/ids/leases/holder/lease-holder.ts) and the Python one
 * keep them:
 *
 * <ul>
 * <li>it issues {@code (w, t, s)} only with {@code t} in a span it was granted, from
 *     {@code max(from, last tick + 1)} on a new lease, so IDs strictly increase across
 *     leases and worker IDs;
 * <li>its clock is the service's ({@code serverNowMs} plus {@link System#nanoTime}),
 *     never the wall clock; a renewal in time more than a span behind re-anchors it down,
 *     and calls wait (or fail {@code overloaded}) until it passes the last tick issued;
 * <li>a tick leads the clock by at most 5 ms; a span that starts later is waited for;
 * <li>renewals run on a background thread a third of a span after each grant, each
 *     bounded by a tenth of the span ({@link LeaseRenewals}), keeping the largest {@code to};
 * <li>at {@code to} a call waits for a renewal, at most {@code maxWait} from its own start
 *     (time spent queued on the lock included), then fails {@code lease_expired};
 * <li>an acquire refused with {@code Retry-After} is not sent again before it runs out:
 *     calls meanwhile fail at once with the refusal's code and the seconds left;
 * <li>on {@code lease_lost} it acquires again on the next call, above its last ID;
 * <li>the lease ID travels in request bodies only; {@link #close} releases the lease.
 * </ul>
 *
 * <pre>{@code
 * try (LeasedSnowflakeGenerator gen = LeasedSnowflakeGenerator.builder(ids).holder("orders-7").build()) {
 *     long orderId = gen.nextId();
 * }
 * }</pre>
 *
 * Failures are {@link EdgeIdsException}s: the acquire's refusal ({@code no_free_worker_id},
 * {@code leases_disabled}, ...), {@code lease_expired}, {@code overloaded}, {@code aborted}
 * (closed). A JVM does not fork, so the lease has one holder; do not snapshot a running
 * generator (CRaC, Lambda SnapStart): close it before the checkpoint.
 */
public final class LeasedSnowflakeGenerator implements AutoCloseable {
    /** How long a call waits at a span's end for a renewal, or for a span to start. */
    public static final Duration DEFAULT_MAX_WAIT = Duration.ofSeconds(2);
    /** How far an issued tick may lead the service's clock (its MAX_BORROW_MS). */
    static final long BORROW_NANOS = 5_000_000L;
    /** Waits this short spin (as Leaf's tilNextMillis does); longer ones park. */
    private static final long SPIN_NANOS = 2_000_000L;

    private final Object lock = new Object();
    private final EdgeIds ids;
    private final String holder;
    private final Integer wantedWorkerId;
    private final long maxWaitNanos;
    private final Consumer<LeaseGrant> onGrant;
    private final ServerClock clock = new ServerClock();
    private final LeaseRenewals renewals;
    private SnowflakeLayout layout;
    private HeldLease lease; // the current or last lease
    private long lastTick = -1; // the last tick issued, under any lease
    private int lastWorker = -1;
    private int sequence;
    private boolean closed;
    private EdgeIdsException refused; // a refused acquire, until its Retry-After ends
    private long refusedUntilNanos;
    private long acquires;
    private long leasesLost;
    private long releases;

    /** A generator on any free worker ID of {@code ids}, with the defaults. */
    public LeasedSnowflakeGenerator(EdgeIds ids) {
        this(builder(ids));
    }

    private LeasedSnowflakeGenerator(Builder builder) {
        this.ids = builder.ids;
        this.holder = builder.holder;
        this.wantedWorkerId = builder.workerId;
        this.maxWaitNanos = builder.maxWait.toNanos();
        this.onGrant = builder.onGrant;
        this.renewals = new LeaseRenewals(lock, ids, new RenewalHost());
    }

    public static Builder builder(EdgeIds ids) {
        return new Builder(ids);
    }

    /** Settings of a {@link LeasedSnowflakeGenerator}. */
    public static final class Builder {
        private final EdgeIds ids;
        private String holder;
        private Integer workerId;
        private Duration maxWait = DEFAULT_MAX_WAIT;
        private Consumer<LeaseGrant> onGrant;

        private Builder(EdgeIds ids) {
            if (ids == null) throw new IllegalArgumentException("ids is required");
            this.ids = ids;
        }

        /** A label the service shows for the lease (a pod name); at most 128 printable characters. */
        public Builder holder(String holder) {
            this.holder = holder;
            return this;
        }

        /** Lease this worker ID only (default: any free one of LEASE_WORKER_IDS). */
        public Builder workerId(int workerId) {
            this.workerId = workerId;
            return this;
        }

        /** A call's longest wait for a renewal at a span's end, or for a span to start (default 2 s). */
        public Builder maxWait(Duration maxWait) {
            if (maxWait == null || maxWait.isNegative()) throw new IllegalArgumentException("maxWait must be >= 0");
            this.maxWait = maxWait;
            return this;
        }

        /** Called with each grant applied (an acquire, a renewal that moved {@code to}), the lock held: keep it short. */
        public Builder onGrant(Consumer<LeaseGrant> onGrant) {
            this.onGrant = onGrant;
            return this;
        }

        public LeasedSnowflakeGenerator build() {
            return new LeasedSnowflakeGenerator(this);
        }
    }

    /** What a generator has done since it was made. */
    public record Stats(long acquires, long renewals, long renewalsGranted, long renewalsFailed,
                        long leasesLost, long releases) {}

    /** Acquires the first lease now (else the first call does); throws the service's refusal. */
    public LeasedSnowflakeGenerator start() {
        synchronized (lock) {
            current();
        }
        return this;
    }

    /** One ID, above every ID this generator issued before. */
    public long nextId() {
        long started = System.nanoTime();
        synchronized (lock) {
            return takeOne(started);
        }
    }

    /** {@code count} IDs, strictly increasing, above every ID this generator issued before. */
    public long[] next(int count) {
        if (count < 1) throw new EdgeIdsException("invalid_count", "count must be at least 1; got " + count, 0, 0);
        long started = System.nanoTime();
        long[] out = new long[count];
        synchronized (lock) {
            for (int i = 0; i < count; i++) out[i] = takeOne(started);
        }
        return out;
    }

    /** The worker ID of the current (or last) lease; null before the first. */
    public Integer workerId() {
        synchronized (lock) {
            return lease == null ? null : lease.workerId;
        }
    }

    /** The layout of the grants; null before the first. */
    public SnowflakeLayout layout() {
        synchronized (lock) {
            return layout;
        }
    }

    /** The service's clock as this generator reads it (Unix ms). */
    public long now() {
        return clock.nowMs();
    }

    public Stats stats() {
        synchronized (lock) {
            return new Stats(acquires, renewals.renewals, renewals.renewalsGranted, renewals.renewalsFailed,
                    leasesLost, releases);
        }
    }

    /** Stops issuing and renewing (its thread ended), then releases the lease: the worker ID is free at once. */
    @Override
    public void close() {
        HeldLease last;
        synchronized (lock) {
            if (closed) return;
            closed = true;
            last = lease;
            lock.notifyAll();
        }
        renewals.stop();
        if (last == null || last.lost) return;
        synchronized (lock) {
            releases++;
        }
        try {
            ids.releaseLease(last.workerId, last.leaseId);
        } catch (EdgeIdsException e) {
            // released or replaced already, or no answer: it lapses after its span and the grace
        }
    }

    /** One ID inside a span this generator holds (the lock held). */
    private long takeOne(long started) {
        while (true) {
            HeldLease held = current();
            SnowflakeLayout lay = held.layout;
            long nowNanos = clock.nowNanos();
            long tick = Math.max(lay.tickOf(Math.floorDiv(nowNanos, 1_000_000L)), Math.max(held.floor, lastTick));
            boolean same = tick == lastTick && lastWorker == held.workerId;
            if (same && sequence >= lay.maxSequence()) {
                tick++; // the tick is full: the next one
                same = false;
            } else if (tick == lastTick && !same) {
                tick++; // a new lease starts above the last tick; kept safe anyway
            }
            long leadNanos = lay.msOf(tick) * 1_000_000L - nowNanos - BORROW_NANOS;
            if (leadNanos > 0) { // ahead of the clock: a fresh span, a full tick, a clock stepped back
                await(leadNanos, started, "overloaded", held, tick);
                continue;
            }
            if (tick >= held.to) { // past the span: the renewal due comes, or the call fails
                renewals.soon();
                await(-1, started, "lease_expired", held, tick);
                continue;
            }
            int seq = same ? sequence + 1 : ThreadLocalRandom.current().nextInt(1 << (lay.sequenceBits() / 2));
            lastTick = tick;
            lastWorker = held.workerId;
            sequence = seq;
            return lay.compose(tick, held.workerId, seq);
        }
    }

    /** Waits {@code nanos} (or, at -1, for a change), within {@code maxWait} of {@code started}; else throws {@code code}. */
    private void await(long nanos, long started, String code, HeldLease held, long tick) {
        long left = maxWaitNanos - (System.nanoTime() - started);
        if (left <= 0 || nanos > left) {
            if (code.equals("lease_expired")) {
                throw new EdgeIdsException(code, "worker ID " + held.workerId + "'s span ended at " + held.endMs()
                        + " and no renewal came within " + maxWaitNanos / 1_000_000 + " ms", 0, 1);
            }
            double seconds = Math.max(nanos, 1) / 1e9;
            throw new EdgeIdsException(code, "tick " + tick + " starts " + Math.round(seconds * 1000)
                    + " ms ahead of the service's clock, more than the call's wait of "
                    + maxWaitNanos / 1_000_000 + " ms", 0, Math.min(Math.ceil(seconds), 60));
        }
        if (nanos >= 0 && nanos <= SPIN_NANOS) {
            long until = System.nanoTime() + nanos;
            while (System.nanoTime() - until < 0) Thread.onSpinWait();
            return;
        }
        long waitNanos = nanos < 0 ? left : Math.min(nanos, left);
        try {
            lock.wait(Math.max(1, (waitNanos + 999_999) / 1_000_000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EdgeIdsException("aborted", "interrupted while waiting for the lease", 0, 0, e);
        }
    }

    /** The lease to issue in: acquired when there is none or it was lost (the lock held). */
    private HeldLease current() {
        if (closed) throw new EdgeIdsException("aborted", "the leased generator was closed; it issues no more IDs", 0, 0);
        HeldLease held = lease;
        if (held != null && !held.lost) return held;
        if (refused != null) { // the last acquire's Retry-After: nothing is sent before it ends
            long left = refusedUntilNanos - System.nanoTime();
            if (left > 0) {
                throw new EdgeIdsException(refused.code(), refused.getMessage() + "; the next acquire goes in "
                        + String.format("%.1f", left / 1e9) + " s, as the service's Retry-After asked",
                        refused.status(), left / 1e9);
            }
            refused = null;
        }
        acquires++;
        LeaseGrant grant;
        try {
            grant = ids.acquireLease(holder, wantedWorkerId);
        } catch (EdgeIdsException e) {
            if (e.retryAfterSeconds() > 0) {
                refused = e;
                refusedUntilNanos = System.nanoTime() + (long) (e.retryAfterSeconds() * 1e9);
            }
            throw e;
        }
        if (layout != null && !layout.equals(grant.layout())) {
            try {
                ids.releaseLease(grant.workerId(), grant.leaseId());
            } catch (EdgeIdsException e) {
                // it lapses
            }
            throw new EdgeIdsException("layout_mismatch", "the service's layout changed from " + layout + " to "
                    + grant.layout() + "; make a new generator", 0, 0);
        }
        layout = grant.layout();
        clock.anchor(grant.serverNowMs(), Double.POSITIVE_INFINITY);
        lease = new HeldLease(grant, Math.max(grant.from(), lastTick + 1));
        renewals.follow();
        lock.notifyAll(); // the renewal thread schedules the new lease
        if (onGrant != null) onGrant.accept(grant);
        return lease;
    }

    /** The renewals' view of this generator (each call with the lock held). */
    private final class RenewalHost implements LeaseRenewals.Host {
        @Override
        public HeldLease renewable() {
            HeldLease held = lease;
            return closed || held == null || held.lost ? null : held;
        }

        @Override
        public void granted(HeldLease held, LeaseGrant grant) {
            if (grant.workerId() != held.workerId || !grant.leaseId().equals(held.leaseId)
                    || !grant.layout().equals(held.layout)) {
                throw new EdgeIdsException("internal", "a renewal answered another lease's grant", 0, 0);
            }
            // Within its deadline (a tenth of the span): more than a span behind is a clock that stepped back.
            clock.anchor(grant.serverNowMs(), held.spanMs);
            if (held.extend(grant) && onGrant != null) onGrant.accept(grant);
        }

        @Override
        public void ended(HeldLease held) {
            if (held.lost) return;
            held.lost = true;
            leasesLost++;
        }
    }
}
