package dev.edgeids.adapters;

import com.sankuai.inf.leaf.IDGen;
import com.sankuai.inf.leaf.common.Result;
import com.sankuai.inf.leaf.common.Status;
import dev.edgeids.EdgeIds;
import dev.edgeids.EdgeIdsException;
import dev.edgeids.SequenceBuffer;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

/**
 * Leaf's segment mode ({@code SegmentIDGenImpl}) on edge-ids' named sequences: each
 * key is a sequence, served through a {@link SequenceBuffer} of its own (Leaf's double
 * buffer per tag), so {@code get(key)} makes no request per number. Failures come back
 * as Leaf returns them, never thrown: {@code Result(-1, EXCEPTION)} before a successful
 * {@link #init}, {@code -2} for a key that is no sequence ({@code unknown_sequence}, or
 * a name the service does not take), {@code -3} when no number could be had (the
 * service unreachable, refusing, or slower than the buffer's wait).
 *
 * <pre>{@code
 * IDGen idGen = new LeafSegmentIdGen(ids);
 * idGen.init();                              // true once the service answers
 * long orderNo = idGen.get("orders").getId();
 * }</pre>
 */
public final class LeafSegmentIdGen implements IDGen, AutoCloseable {
    /** Leaf's codes: not initialized, unknown key, both segments empty. */
    public static final long NOT_INITIALIZED = -1;
    public static final long UNKNOWN_KEY = -2;
    public static final long UNAVAILABLE = -3;

    private static final Set<String> UNKNOWN = Set.of("unknown_sequence", "invalid_sequence_name", "invalid_request");

    private final EdgeIds ids;
    private final UnaryOperator<SequenceBuffer.Builder> settings;
    private final ConcurrentHashMap<String, SequenceBuffer> buffers = new ConcurrentHashMap<>();
    private volatile boolean initialized;
    private volatile boolean closed;

    public LeafSegmentIdGen(EdgeIds ids) {
        this(ids, UnaryOperator.identity());
    }

    /** {@code settings} adjusts each key's buffer: {@code b -> b.maxStep(10_000)}. */
    public LeafSegmentIdGen(EdgeIds ids, UnaryOperator<SequenceBuffer.Builder> settings) {
        this.ids = ids;
        this.settings = settings;
    }

    /** Checks that the service answers ({@code GET /layout}); false (and {@code -1} from get) until it does. */
    @Override
    public boolean init() {
        try {
            ids.layout();
            initialized = true;
        } catch (EdgeIdsException e) {
            // Leaf's init reports failure by its result; get keeps answering -1
        }
        return initialized;
    }

    @Override
    public Result get(String key) {
        if (!initialized || closed || key == null) {
            return new Result(initialized && key == null ? UNKNOWN_KEY : NOT_INITIALIZED, Status.EXCEPTION);
        }
        SequenceBuffer buffer = buffers.computeIfAbsent(key, k -> settings.apply(SequenceBuffer.builder(ids, k)).build());
        try {
            return new Result(buffer.next(), Status.SUCCESS);
        } catch (EdgeIdsException e) {
            if (!UNKNOWN.contains(e.code())) return new Result(UNAVAILABLE, Status.EXCEPTION);
            if (buffers.remove(key, buffer)) buffer.close(); // no buffer kept for a key that is no sequence
            return new Result(UNKNOWN_KEY, Status.EXCEPTION);
        }
    }

    /** Closes every key's buffer (their threads end); later calls answer {@code -1}. */
    @Override
    public void close() {
        closed = true;
        buffers.values().forEach(SequenceBuffer::close);
        buffers.clear();
    }
}
