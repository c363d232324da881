package dev.edgeids.adapters;

import com.baomidou.mybatisplus.core.incrementer.IdentifierGenerator;
import dev.edgeids.EdgeIds;
import dev.edgeids.LeasedSnowflakeGenerator;

/**
 * MyBatis-Plus's ID hook on a worker ID leased from edge-ids: {@code nextId(entity)}
 * is a Snowflake made in this JVM, as a {@link Long} (what {@code IdType.ASSIGN_ID}
 * columns of {@code Long} and {@code String} take). A failure is thrown as the
 * {@link dev.edgeids.EdgeIdsException} (unchecked), as MyBatis-Plus expects.
 *
 * <pre>{@code
 * @Bean
 * public IdentifierGenerator idGenerator(EdgeIds ids) {
 *     return new MybatisPlusIdentifierGenerator(ids, System.getenv("HOSTNAME"));
 * }
 * // or, without Spring: IdWorker.setIdentifierGenerator(new MybatisPlusIdentifierGenerator(ids));
 * }</pre>
 */
public final class MybatisPlusIdentifierGenerator implements IdentifierGenerator, AutoCloseable {
    private final LeasedSnowflakeGenerator generator;

    public MybatisPlusIdentifierGenerator(EdgeIds ids) {
        this(LeasedSnowflakeGenerator.builder(ids).build());
    }

    /** {@code holder}: the label the service shows for the lease (a pod name). */
    public MybatisPlusIdentifierGenerator(EdgeIds ids, String holder) {
        this(LeasedSnowflakeGenerator.builder(ids).holder(holder).build());
    }

    /** Over a generator of your own settings. */
    public MybatisPlusIdentifierGenerator(LeasedSnowflakeGenerator generator) {
        this.generator = generator;
    }

    @Override
    public Long nextId(Object entity) {
        return generator.nextId();
    }

    /** Releases the lease. */
    @Override
    public void close() {
        generator.close();
    }
}
