package dev.edgeids.adapters;

import com.sankuai.inf.leaf.IDGen;
import com.sankuai.inf.leaf.common.Result;
import com.sankuai.inf.leaf.common.Status;
import dev.edgeids.EdgeIds;
import dev.edgeids.EdgeIdsException;
import dev.edgeids.LeasedSnowflakeGenerator;

/**
 * Leaf's snowflake mode ({@code SnowflakeIDGenImpl}) on a worker ID leased from
 * edge-ids instead of a ZooKeeper node: {@link #init} acquires the lease, {@code get}
 * ignores its key (as Leaf does) and makes each ID in this JVM. Failures come back as
 * Leaf's {@code Result(code, EXCEPTION)}, never thrown: {@code -1} before a successful
 * {@code init()}, {@code -3} when no ID could be made (no lease to be had, the span
 * ended without a renewal, closed).
 *
 * <pre>{@code
 * IDGen idGen = new LeafSnowflakeIdGen(ids, "orders-pod-7");
 * idGen.init();                          // acquires a worker ID of LEASE_WORKER_IDS
 * long id = idGen.get("any").getId();
 * }</pre>
 */
public final class LeafSnowflakeIdGen implements IDGen, AutoCloseable {
    private final LeasedSnowflakeGenerator generator;
    private volatile boolean initialized;

    public LeafSnowflakeIdGen(EdgeIds ids) {
        this(LeasedSnowflakeGenerator.builder(ids).build());
    }

    /** {@code holder}: the label the service shows for the lease (a pod name). */
    public LeafSnowflakeIdGen(EdgeIds ids, String holder) {
        this(LeasedSnowflakeGenerator.builder(ids).holder(holder).build());
    }

    /** Over a generator of your own settings. */
    public LeafSnowflakeIdGen(LeasedSnowflakeGenerator generator) {
        this.generator = generator;
    }

    /** Acquires the lease; false when the service refused or could not be reached. */
    @Override
    public boolean init() {
        try {
            generator.start();
            initialized = true;
        } catch (EdgeIdsException e) {
            // Leaf's init reports failure by its result; get keeps answering -1
        }
        return initialized;
    }

    @Override
    public Result get(String key) {
        if (!initialized) return new Result(LeafSegmentIdGen.NOT_INITIALIZED, Status.EXCEPTION);
        try {
            return new Result(generator.nextId(), Status.SUCCESS);
        } catch (EdgeIdsException e) {
            return new Result(LeafSegmentIdGen.UNAVAILABLE, Status.EXCEPTION);
        }
    }

    public LeasedSnowflakeGenerator generator() {
        return generator;
    }

    /** Releases the lease. */
    @Override
    public void close() {
        generator.close();
    }
}
