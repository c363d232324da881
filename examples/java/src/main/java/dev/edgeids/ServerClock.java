package dev.edgeids;

/**
 * A lease holder's clock: the service's time, carried forward by the JVM's monotonic
 * clock ({@link System#nanoTime}). Each answer of the service anchors it (the
 * answer's {@code serverNowMs}, read as the time the answer arrived), so the wall
 * clock plays no part: a holder whose system clock is an hour off issues the same
 * ticks as one whose clock is right.
 *
 * <p>An anchor behind the reading (an answer that travelled long) is ignored; one
 * ahead moves the clock on. One exception steps it back: a renewal answered within
 * its deadline (its travel time bounded by a tenth of the span) that is behind the
 * reading by more than a span cannot be delay: the clock had followed an object
 * whose clock stepped ahead and back. The holder never issues at or below its last
 * tick, so IDs still go up. As src/ids/leases/holder/server-clock.ts.
 *
 * <pre>{@code
 * clock.anchor(grant.serverNowMs(), Double.POSITIVE_INFINITY); // an acquire's answer
 * clock.anchor(grant.serverNowMs(), lease.spanMs);             // a renewal in time: back if a span behind
 * clock.nowNanos();                                            // the service's Unix ns, as this JVM sees it
 * }</pre>
 */
final class ServerClock {
    /** The service's Unix ns minus {@code System.nanoTime()}; meaningless until anchored. */
    private volatile long offsetNanos;
    private volatile boolean anchored;

    /** The service's Unix time in ns. */
    long nowNanos() {
        return System.nanoTime() + offsetNanos;
    }

    /** The service's Unix ms. */
    long nowMs() {
        return Math.floorDiv(nowNanos(), 1_000_000L);
    }

    /**
     * An answer carrying the service's clock reading {@code serverNowMs} arrived just
     * now. Behind the reading by more than {@code backAfterMs} it steps the clock back
     * to it; true when it did.
     */
    boolean anchor(double serverNowMs, double backAfterMs) {
        long offset = Math.round(serverNowMs * 1e6) - System.nanoTime();
        if (!anchored) {
            offsetNanos = offset;
            anchored = true;
            return false;
        }
        double behindMs = (offsetNanos - offset) / 1e6;
        if (behindMs > backAfterMs) {
            offsetNanos = offset;
            return true;
        }
        if (offset > offsetNanos) offsetNanos = offset;
        return false;
    }
}
