package dev.edgeids;

/**
 * One worker-ID lease as its holder keeps it: the span {@code [from, to)} granted so
 * far ({@code to} only ever grows: renewal answers may come late or out of order),
 * the first tick this holder may issue in it, the span length the service showed,
 * and when it was last granted. As src/ids/leases/holder/held-lease.ts; the
 * generator's lock guards every field that changes.
 */
final class HeldLease {
    /** The shortest LEASE_SPAN_MS the service grants: the span assumed when a grant tells none. */
    static final double MIN_SPAN_MS = 1000;

    final int workerId;
    final String leaseId;
    final SnowflakeLayout layout;
    /** The first tick this holder may issue in it: the span's start, above the holder's earlier IDs. */
    final long floor;
    /** The end of the span (excluded): the largest {@code to} granted. */
    long to;
    /** {@code toMs - serverNowMs} of the last grant that moved {@code to} on. */
    double spanMs;
    /** {@code System.nanoTime()} of its last grant: the next renewal is due a third of a span later. */
    long grantedAtNanos;
    /** Released or replaced: the service will not renew it (its span stays this holder's). */
    boolean lost;

    HeldLease(LeaseGrant grant, long floor) {
        this.workerId = grant.workerId();
        this.leaseId = grant.leaseId();
        this.layout = grant.layout();
        this.floor = floor;
        this.to = grant.to();
        double told = layout.msOf(grant.to()) - grant.serverNowMs();
        this.spanMs = told > 0 ? told : MIN_SPAN_MS;
        this.grantedAtNanos = System.nanoTime();
    }

    /** Applies a grant of this lease; true when it moved {@code to} on. Another lease's grant is refused. */
    boolean extend(LeaseGrant grant) {
        if (grant.workerId() != workerId || !grant.leaseId().equals(leaseId)) {
            throw new EdgeIdsException("internal", "a renewal answered another lease's grant", 0, 0);
        }
        grantedAtNanos = System.nanoTime();
        if (grant.to() <= to) return false;
        to = grant.to();
        // A reading at or past the `to` it came with (the object's clock read ahead) tells no span.
        double told = layout.msOf(grant.to()) - grant.serverNowMs();
        if (told > 0) spanMs = told;
        return true;
    }

    /** Unix ms (the service's) at which the span ends. */
    long endMs() {
        return layout.msOf(to);
    }

    /** The least time between renewal starts (a thirtieth of the span, at least 10 ms). */
    long gapNanos() {
        return Math.max(10_000_000L, (long) (spanMs * 1e6 / 30));
    }

    /** A renewal's own deadline: a tenth of the span (3 s under 30 s). */
    long deadlineNanos() {
        return Math.max(gapNanos(), (long) (spanMs * 1e6 / 10));
    }

    /** The normal time from a grant to the next renewal: a third of the span. */
    long cadenceNanos() {
        return Math.max(gapNanos(), (long) (spanMs * 1e6 / 3));
    }
}
