package dev.edgeids;

import java.time.Duration;
import java.util.Set;

/**
 * A leased generator's background renewals, on one daemon thread
 * ({@code edge-ids-lease-renewal}) that {@link #stop} ends: the current lease is
 * renewed a third of its span after its last grant (every 10 s under a 30 s span).
 * Each attempt has a deadline of its own, a tenth of the span (3 s): one that fails
 * or outlives it (the request is cancelled) counts as failed, and the next starts at
 * once, but never sooner than a thirtieth of the span after the last one started. So
 * a hung call never stops renewing, and no state renews faster than that. A call
 * waiting at the span's end asks for a renewal now ({@link #soon}). As
 * src/ids/leases/holder/renewals.ts; state is guarded by the generator's lock.
 */
final class LeaseRenewals implements Runnable {
    /** Renewal refusals no retry can turn into a grant: the holder moves to a new lease. */
    static final Set<String> ENDS_A_LEASE =
            Set.of("lease_lost", "invalid_worker_id", "invalid_lease_id", "leases_disabled");

    /** What the renewals ask of their generator, each call with its lock held. */
    interface Host {
        /** The lease to renew now, or null (none, lost, or closed). */
        HeldLease renewable();

        /** A renewal's grant of {@code lease} arrived within its deadline. */
        void granted(HeldLease lease, LeaseGrant grant);

        /** The service will not renew {@code lease} again. */
        void ended(HeldLease lease);
    }

    private final Object lock;
    private final EdgeIds ids;
    private final Host host;
    private Thread thread;
    private boolean stopped;
    private boolean soon;
    long renewals;
    long renewalsGranted;
    long renewalsFailed;

    LeaseRenewals(Object lock, EdgeIds ids, Host host) {
        this.lock = lock;
        this.ids = ids;
        this.host = host;
    }

    /** Starts the thread if it is not running (the lock held). */
    void follow() {
        if (stopped || (thread != null && thread.isAlive())) return;
        thread = new Thread(this, "edge-ids-lease-renewal");
        thread.setDaemon(true);
        thread.start();
    }

    /** A call waits at the span's end: renew now, unless an attempt went out less than the gap ago (the lock held). */
    void soon() {
        soon = true;
        follow(); // a thread that died anyway runs again
        lock.notifyAll();
    }

    /** Ends the thread (an attempt in flight is cancelled) and waits for it. */
    void stop() {
        Thread running;
        synchronized (lock) {
            stopped = true;
            running = thread;
            lock.notifyAll();
        }
        if (running == null || running == Thread.currentThread()) return;
        running.interrupt();
        try {
            running.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void run() {
        long lastStart = System.nanoTime() - (1L << 50);
        HeldLease failed = null; // the lease whose last attempt failed: the next goes at once
        while (true) {
            HeldLease lease;
            try {
                synchronized (lock) {
                    if (stopped) return;
                    lease = host.renewable();
                    if (lease == null) {
                        lock.wait();
                        continue;
                    }
                    long now = System.nanoTime();
                    long due = lease == failed || soon ? now : lease.grantedAtNanos + lease.cadenceNanos();
                    due = Math.max(due, lastStart + lease.gapNanos());
                    if (due - now > 0) {
                        lock.wait(Math.max(1, (due - now + 999_999) / 1_000_000));
                        continue;
                    }
                    soon = false;
                    renewals++;
                }
            } catch (InterruptedException e) {
                return; // only stop() interrupts
            }
            lastStart = System.nanoTime();
            failed = attempt(lease) ? null : lease;
        }
    }

    /** One renewal within its deadline; true if granted. Never throws: anything else is a failed renewal. */
    private boolean attempt(HeldLease lease) {
        try {
            LeaseGrant grant = ids.renewLease(lease.workerId, lease.leaseId, Duration.ofNanos(lease.deadlineNanos()));
            synchronized (lock) {
                host.granted(lease, grant);
                renewalsGranted++;
                lock.notifyAll();
            }
            return true;
        } catch (RuntimeException e) {
            synchronized (lock) {
                if (e instanceof EdgeIdsException && ENDS_A_LEASE.contains(((EdgeIdsException) e).code())) {
                    host.ended(lease);
                } else if (!stopped) {
                    renewalsFailed++;
                }
                lock.notifyAll();
            }
            return false;
        }
    }
}
