package dev.edgeids;

import java.util.Map;

/**
 * The Snowflake layout a deployment issues under (its {@code GET /layout}, and the
 * {@code layout} of every lease grant): ticks of {@code timeUnitMs} from {@code epoch},
 * then the worker ID and sequence bits, 63 bits in all.
 *
 * <pre>{@code
 * SnowflakeLayout layout = ids.layout();        // 41/10/12 bits from 1288834974657 by default
 * long id = layout.compose(tick, workerId, 0);
 * layout.workerIdOf(id);                        // workerId
 * }</pre>
 */
public final class SnowflakeLayout {
    private final long epoch;
    private final int timeBits;
    private final int workerBits;
    private final int sequenceBits;
    private final long timeUnitMs;

    public SnowflakeLayout(long epoch, int timeBits, int workerBits, int sequenceBits, long timeUnitMs) {
        if (timeBits + workerBits + sequenceBits != 63 || timeBits < 1 || workerBits < 0 || sequenceBits < 1) {
            throw new EdgeIdsException("internal", "a layout has 63 bits of time, worker ID and sequence; got "
                    + timeBits + "/" + workerBits + "/" + sequenceBits, 0, 0);
        }
        if (timeUnitMs < 1) {
            throw new EdgeIdsException("internal", "a layout's timeUnitMs is at least 1; got " + timeUnitMs, 0, 0);
        }
        this.epoch = epoch;
        this.timeBits = timeBits;
        this.workerBits = workerBits;
        this.sequenceBits = sequenceBits;
        this.timeUnitMs = timeUnitMs;
    }

    /** The layout of a JSON answer ({@code epoch, timeBits, workerBits, sequenceBits, timeUnitMs}). */
    static SnowflakeLayout of(Object json) {
        if (!(json instanceof Map)) throw new EdgeIdsException("internal", "an answer's layout is not an object", 0, 0);
        Map<?, ?> map = (Map<?, ?>) json;
        return new SnowflakeLayout(integer(map, "epoch"), (int) integer(map, "timeBits"),
                (int) integer(map, "workerBits"), (int) integer(map, "sequenceBits"), integer(map, "timeUnitMs"));
    }

    private static long integer(Map<?, ?> map, String key) {
        Object value = map.get(key);
        if (value instanceof Long) return (Long) value;
        throw new EdgeIdsException("internal", "an answer's layout." + key + " is " + value + ", not an integer", 0, 0);
    }

    public long epoch() { return epoch; }
    public int timeBits() { return timeBits; }
    public int workerBits() { return workerBits; }
    public int sequenceBits() { return sequenceBits; }
    public long timeUnitMs() { return timeUnitMs; }

    /** The largest sequence of a tick (4,095 under 12 bits). */
    public int maxSequence() { return (1 << sequenceBits) - 1; }

    /** The first tick the layout cannot hold. */
    public long tickLimit() { return 1L << timeBits; }

    /** The tick holding Unix ms {@code ms}. */
    public long tickOf(long ms) { return Math.floorDiv(ms - epoch, timeUnitMs); }

    /** The Unix ms at which {@code tick} starts. */
    public long msOf(long tick) { return epoch + tick * timeUnitMs; }

    public long compose(long tick, int workerId, int sequence) {
        return (tick << (workerBits + sequenceBits)) | ((long) workerId << sequenceBits) | sequence;
    }

    public long tickOfId(long id) { return id >>> (workerBits + sequenceBits); }

    public int workerIdOf(long id) { return (int) ((id >>> sequenceBits) & ((1L << workerBits) - 1)); }

    public int sequenceOf(long id) { return (int) (id & maxSequence()); }

    /** The Unix ms of an ID's tick. */
    public long msOfId(long id) { return msOf(tickOfId(id)); }

    @Override
    public boolean equals(Object other) {
        if (!(other instanceof SnowflakeLayout)) return false;
        SnowflakeLayout o = (SnowflakeLayout) other;
        return epoch == o.epoch && timeBits == o.timeBits && workerBits == o.workerBits
                && sequenceBits == o.sequenceBits && timeUnitMs == o.timeUnitMs;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(epoch * 31 + timeUnitMs) * 31 + timeBits * 961 + workerBits * 31 + sequenceBits;
    }

    @Override
    public String toString() {
        return epoch + "," + timeBits + "," + workerBits + "," + sequenceBits + "," + timeUnitMs;
    }
}
