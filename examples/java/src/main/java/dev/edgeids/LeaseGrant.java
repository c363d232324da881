package dev.edgeids;

import java.util.Map;

/**
 * A worker-ID lease as the service granted it ({@code POST /leases} or a renewal):
 * the span of ticks {@code [from, to)} of {@code workerId}, the object's clock when it
 * decided, and the layout to build IDs with. The {@code leaseId} is a bearer
 * capability: kept in memory, sent in request bodies only, never logged
 * ({@link #toString} leaves it out).
 */
public final class LeaseGrant {
    private final int workerId;
    private final String leaseId;
    private final long from;
    private final long to;
    private final double serverNowMs;
    private final SnowflakeLayout layout;

    private LeaseGrant(int workerId, String leaseId, long from, long to, double serverNowMs, SnowflakeLayout layout) {
        this.workerId = workerId;
        this.leaseId = leaseId;
        this.from = from;
        this.to = to;
        this.serverNowMs = serverNowMs;
        this.layout = layout;
    }

    /**
     * The grant of a lease answer once it is one, else {@code internal} naming the field
     * (an empty 200, a proxy's page): integer ticks with {@code from < to} within the
     * layout, a worker ID, a lease ID and a finite clock reading.
     */
    static LeaseGrant checked(Object answer) {
        if (!(answer instanceof Map)) throw wrong("body", answer);
        Map<?, ?> map = (Map<?, ?>) answer;
        SnowflakeLayout layout;
        try {
            layout = SnowflakeLayout.of(map.get("layout"));
        } catch (EdgeIdsException e) {
            throw wrong("layout", map.get("layout"));
        }
        Object workerId = map.get("workerId");
        Object from = map.get("from");
        Object to = map.get("to");
        Object leaseId = map.get("leaseId");
        Object now = map.get("serverNowMs");
        if (!(workerId instanceof Long) || (Long) workerId < 0 || (Long) workerId > Integer.MAX_VALUE) {
            throw wrong("workerId", workerId);
        }
        if (!(from instanceof Long) || (Long) from < 0) throw wrong("from", from);
        if (!(to instanceof Long) || (Long) to <= (Long) from || (Long) to > layout.tickLimit()) throw wrong("to", to);
        if (!(leaseId instanceof String) || ((String) leaseId).isEmpty()) throw wrong("leaseId", "…");
        if (!(now instanceof Number) || !Double.isFinite(((Number) now).doubleValue())) throw wrong("serverNowMs", now);
        return new LeaseGrant(((Long) workerId).intValue(), (String) leaseId, (Long) from, (Long) to,
                ((Number) now).doubleValue(), layout);
    }

    private static EdgeIdsException wrong(String field, Object value) {
        String shown = String.valueOf(value);
        if (shown.length() > 60) shown = shown.substring(0, 60);
        return new EdgeIdsException("internal", "a lease answer's " + field + " is " + shown
                + "; the service answers integer ticks with from < to within its layout, a worker ID,"
                + " a lease ID and its clock reading", 0, 0);
    }

    public int workerId() { return workerId; }
    public String leaseId() { return leaseId; }
    /** The span's first tick. */
    public long from() { return from; }
    /** The span's end (excluded). */
    public long to() { return to; }
    /** The object's clock when it decided (Unix ms). */
    public double serverNowMs() { return serverNowMs; }
    public SnowflakeLayout layout() { return layout; }

    @Override
    public String toString() {
        return "LeaseGrant{workerId=" + workerId + ", from=" + from + ", to=" + to + ", serverNowMs=" + serverNowMs + "}";
    }
}
