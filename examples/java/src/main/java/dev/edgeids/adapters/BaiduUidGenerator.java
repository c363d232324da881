package dev.edgeids.adapters;

import com.baidu.fsg.uid.UidGenerator;
import com.baidu.fsg.uid.exception.UidGenerateException;
import dev.edgeids.EdgeIds;
import dev.edgeids.EdgeIdsException;
import dev.edgeids.LeasedSnowflakeGenerator;
import dev.edgeids.SnowflakeLayout;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/**
 * Baidu UidGenerator's interface on a worker ID leased from edge-ids instead of a
 * {@code WORKER_NODE} row: {@code getUID()} makes each ID in this JVM (failures thrown
 * as {@link UidGenerateException} with the {@link EdgeIdsException} as cause), and
 * {@code parseUID} answers exactly {@code DefaultUidGenerator}'s string for the
 * deployment's layout:
 * {@code {"UID":"…","timestamp":"yyyy-MM-dd HH:mm:ss","workerId":"…","sequence":"…"}},
 * the time in the JVM's default zone.
 *
 * <pre>{@code
 * UidGenerator uids = new BaiduUidGenerator(ids, "pod-7");
 * long uid = uids.getUID();
 * uids.parseUID(uid);  // {"UID":"…","timestamp":"2026-11-29 13:05:01","workerId":"600","sequence":"17"}
 * }</pre>
 */
public final class BaiduUidGenerator implements UidGenerator, AutoCloseable {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private final EdgeIds ids;
    private final LeasedSnowflakeGenerator generator;
    private volatile SnowflakeLayout layout;

    public BaiduUidGenerator(EdgeIds ids) {
        this(ids, LeasedSnowflakeGenerator.builder(ids).build());
    }

    /** {@code holder}: the label the service shows for the lease (a pod name). */
    public BaiduUidGenerator(EdgeIds ids, String holder) {
        this(ids, LeasedSnowflakeGenerator.builder(ids).holder(holder).build());
    }

    /** Over a generator of your own settings (of the same {@code ids}). */
    public BaiduUidGenerator(EdgeIds ids, LeasedSnowflakeGenerator generator) {
        this.ids = ids;
        this.generator = generator;
    }

    @Override
    public long getUID() throws UidGenerateException {
        try {
            return generator.nextId();
        } catch (EdgeIdsException e) {
            throw new UidGenerateException("edge-ids could not make a UID: " + e.getMessage(), e);
        }
    }

    /** The UID's parts under the deployment's layout (read once: from the lease, or {@code GET /layout}). */
    @Override
    public String parseUID(long uid) {
        SnowflakeLayout lay = layout();
        String time = TIME.format(Instant.ofEpochMilli(lay.msOfId(uid)).atZone(ZoneId.systemDefault()));
        return String.format("{\"UID\":\"%d\",\"timestamp\":\"%s\",\"workerId\":\"%d\",\"sequence\":\"%d\"}",
                uid, time, lay.workerIdOf(uid), lay.sequenceOf(uid));
    }

    private SnowflakeLayout layout() {
        SnowflakeLayout known = layout;
        if (known != null) return known;
        known = generator.layout();
        try {
            if (known == null) known = ids.layout();
        } catch (EdgeIdsException e) {
            throw new UidGenerateException("edge-ids could not tell its layout: " + e.getMessage(), e);
        }
        layout = known;
        return known;
    }

    /** Releases the lease. */
    @Override
    public void close() {
        generator.close();
    }
}
