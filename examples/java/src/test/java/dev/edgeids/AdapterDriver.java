package dev.edgeids;

import com.baidu.fsg.uid.UidGenerator;
import com.baidu.fsg.uid.exception.UidGenerateException;
import com.baomidou.mybatisplus.core.incrementer.IdentifierGenerator;
import com.sankuai.inf.leaf.IDGen;
import com.sankuai.inf.leaf.common.Result;
import com.sun.net.httpserver.HttpServer;
import dev.edgeids.adapters.BaiduUidGenerator;
import dev.edgeids.adapters.LeafSegmentIdGen;
import dev.edgeids.adapters.LeafSnowflakeIdGen;
import dev.edgeids.adapters.MybatisPlusIdentifierGenerator;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The adapters through their upstream interfaces alone (IDGen, UidGenerator,
 * IdentifierGenerator), for test/integration/java-adapters.test.ts, which checks what
 * this prints (one JSON object) against the running service:
 *
 * <pre>
 *   java -cp CLASSES dev.edgeids.AdapterDriver URL TOKEN SEQUENCE
 * </pre>
 *
 * Unavailability is a local server that answers {@code /layout} from the real one and
 * 503 to everything else, and a port nothing listens on.
 */
public final class AdapterDriver {
    public static void main(String[] args) throws Exception {
        EdgeIds ids = EdgeIds.builder(args[0]).token(args[1]).build();
        String sequence = args[2];
        StringBuilder out = new StringBuilder("{");

        IDGen segment = new LeafSegmentIdGen(ids);
        field(out, "segmentBeforeInit", result(segment.get(sequence)));
        field(out, "segmentInit", String.valueOf(segment.init()));
        List<String> numbers = new ArrayList<>();
        for (int i = 0; i < 25; i++) numbers.add(result(segment.get(sequence)));
        field(out, "segmentNumbers", "[" + String.join(",", numbers) + "]");
        field(out, "segmentUnknown", result(segment.get("never-created")));
        field(out, "segmentInvalidName", result(segment.get("a key / not a name")));
        ((AutoCloseable) segment).close();

        HttpServer halfDown = halfDown(ids);
        EdgeIds unavailable = EdgeIds.builder("http://127.0.0.1:" + halfDown.getAddress().getPort()).build();
        IDGen segmentDown = new LeafSegmentIdGen(unavailable, b -> b.maxWait(java.time.Duration.ofMillis(500)));
        field(out, "segmentDownInit", String.valueOf(segmentDown.init()));
        field(out, "segmentDown", result(segmentDown.get(sequence)));
        ((AutoCloseable) segmentDown).close();
        halfDown.stop(0);

        EdgeIds nowhere = EdgeIds.builder("http://127.0.0.1:9").build();
        IDGen snowflakeNowhere = new LeafSnowflakeIdGen(nowhere);
        field(out, "snowflakeNowhereInit", String.valueOf(snowflakeNowhere.init()));
        field(out, "snowflakeNowhere", result(snowflakeNowhere.get("any")));

        LeafSnowflakeIdGen snowflake = new LeafSnowflakeIdGen(ids, "java-adapters");
        IDGen leaf = snowflake;
        field(out, "snowflakeBeforeInit", result(leaf.get("any")));
        field(out, "snowflakeInit", String.valueOf(leaf.init()));
        List<String> snowflakes = new ArrayList<>();
        for (int i = 0; i < 3; i++) snowflakes.add(result(leaf.get("key-" + i)));
        field(out, "snowflakes", "[" + String.join(",", snowflakes) + "]");
        snowflake.close();

        UidGenerator uids = new BaiduUidGenerator(ids, "java-uid");
        long uid = uids.getUID();
        field(out, "uid", "\"" + uid + "\"");
        field(out, "parsed", Json.quote(uids.parseUID(uid)));
        field(out, "parsedFixed", Json.quote(uids.parseUID(Long.parseLong(args[3]))));
        ((AutoCloseable) uids).close();
        try {
            new BaiduUidGenerator(nowhere).getUID();
            field(out, "uidNowhere", "\"no exception\"");
        } catch (UidGenerateException e) {
            EdgeIdsException cause = (EdgeIdsException) e.getCause();
            field(out, "uidNowhere", "{\"cause\":" + Json.quote(cause.code()) + "}");
        }

        IdentifierGenerator mybatis = new MybatisPlusIdentifierGenerator(ids, "java-mybatis");
        Number id = mybatis.nextId(new Object());
        Number id2 = mybatis.nextId(null);
        field(out, "mybatis", "{\"type\":" + Json.quote(id.getClass().getName()) + ",\"ids\":[\"" + id + "\",\"" + id2 + "\"]}");
        ((AutoCloseable) mybatis).close();

        field(out, "buffer", bufferUnderThreads(ids, sequence));
        out.setLength(out.length() - 1);
        System.out.println(out.append('}'));
        System.exit(0);
    }

    /** 8 threads taking 5,000 numbers each from one SequenceBuffer: all distinct, each thread's increasing. */
    private static String bufferUnderThreads(EdgeIds ids, String sequence) throws InterruptedException {
        SequenceBuffer buffer = SequenceBuffer.builder(ids, sequence).build();
        long[][] taken = new long[8][5_000];
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            long[] mine = taken[t];
            Thread thread = new Thread(() -> {
                for (int i = 0; i < mine.length; i++) mine[i] = buffer.next();
            });
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) thread.join();
        Set<Long> distinct = new HashSet<>();
        boolean increasing = true;
        for (long[] mine : taken) {
            for (int i = 0; i < mine.length; i++) {
                distinct.add(mine[i]);
                if (i > 0 && mine[i] <= mine[i - 1]) increasing = false;
            }
        }
        buffer.close();
        String closedCode;
        try {
            buffer.next();
            closedCode = "none";
        } catch (EdgeIdsException e) {
            closedCode = e.code();
        }
        return "{\"distinct\":" + distinct.size() + ",\"increasing\":" + increasing + ",\"fetches\":"
                + buffer.stats().fetches() + ",\"threadsAfterClose\":" + HolderDriver.edgeIdsThreads()
                + ",\"afterClose\":" + Json.quote(closedCode) + "}";
    }

    /** A server whose /layout is the real one's and whose every other route answers 503 unavailable. */
    private static HttpServer halfDown(EdgeIds ids) throws Exception {
        SnowflakeLayout layout = ids.layout();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            boolean isLayout = exchange.getRequestURI().getPath().equals("/layout");
            String body = isLayout
                    ? "{\"epoch\":" + layout.epoch() + ",\"timeBits\":" + layout.timeBits() + ",\"workerBits\":"
                            + layout.workerBits() + ",\"sequenceBits\":" + layout.sequenceBits() + ",\"timeUnitMs\":"
                            + layout.timeUnitMs() + "}"
                    : "{\"error\":{\"code\":\"unavailable\",\"message\":\"down for the test\"}}";
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            if (!isLayout) exchange.getResponseHeaders().add("Retry-After", "1");
            exchange.sendResponseHeaders(isLayout ? 200 : 503, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        return server;
    }

    private static String result(Result result) {
        return "{\"id\":\"" + result.getId() + "\",\"status\":\"" + result.getStatus() + "\"}";
    }

    private static void field(StringBuilder out, String name, String json) {
        out.append(Json.quote(name)).append(':').append(json).append(',');
    }
}
