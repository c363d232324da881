package dev.edgeids;

import java.io.BufferedWriter;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
// sun.misc.Signal (javac warns: internal API): the chaos run steps this driver's wall clock with
// SIGUSR2 and stops it with SIGTERM, which no standard API receives. Test driver only.
import sun.misc.Signal;

/**
 * A leased generator as a command, for the lease tests and the chaos run: the same
 * flags and output as the Python holder (examples/python-holder/holder.py) and the
 * TypeScript one (scripts/load/lease-holder.ts):
 *
 * <pre>
 *   # edge-ids holder layout=&lt;epoch&gt;,&lt;timeBits&gt;,&lt;workerBits&gt;,&lt;sequenceBits&gt;,&lt;timeUnitMs&gt; pid=&lt;pid&gt;
 *   L &lt;workerId&gt; &lt;from&gt; &lt;to&gt;                      a grant received (acquire or renewal)
 *   T &lt;wallMs - serverNowMs&gt;                      this process's wall clock against the service's
 *   R &lt;workerId&gt; &lt;tick&gt; &lt;firstSequence&gt; &lt;count&gt;   IDs issued: consecutive sequences of one tick
 *   X &lt;code&gt;                                      a call refused
 * </pre>
 *
 * java -cp CLASSES dev.edgeids.HolderCommand --url URL [--token T] [--holder NAME] [--count N]
 * [--seconds S] [--batch B] [--batch-gap-ms MS] [--out FILE|-] [--max-wait MS]
 * [--wall-clock-offset MS] [--wall-clock-step MS]. SIGTERM closes the generator (releasing
 * its lease) and exits; SIGUSR2 steps the wall clock (which only the T lines read) back.
 * A JSON summary goes to stderr at the end.
 */
public final class HolderCommand {
    private final Writer out;
    private long wallOffsetMs;
    private boolean headed;
    private long[] pending; // a run still growing: workerId, tick, first, count
    private long flushedAt = System.nanoTime();

    private HolderCommand(Writer out, long wallOffsetMs) {
        this.out = out;
        this.wallOffsetMs = wallOffsetMs;
    }

    public static void main(String[] argv) throws Exception {
        Map<String, String> args = new HashMap<>();
        for (int i = 0; i < argv.length; i++) {
            String flag = argv[i].substring(2);
            int eq = flag.indexOf('=');
            if (eq >= 0) args.put(flag.substring(0, eq), flag.substring(eq + 1));
            else args.put(flag, argv[++i]);
        }
        String url = args.get("url");
        if (url == null) throw new IllegalArgumentException("--url is required (the service's base URL)");
        long count = Long.parseLong(args.getOrDefault("count", "0"));
        double seconds = Double.parseDouble(args.getOrDefault("seconds", "0"));
        int batch = Integer.parseInt(args.getOrDefault("batch", "1000"));
        double gapMs = Double.parseDouble(args.getOrDefault("batch-gap-ms", "0"));
        String outPath = args.getOrDefault("out", "-");
        long stepMs = (long) Double.parseDouble(args.getOrDefault("wall-clock-step", "0"));
        Writer sink = new BufferedWriter(new OutputStreamWriter(
                outPath.equals("-") ? System.out : new FileOutputStream(outPath), StandardCharsets.UTF_8), 1 << 16);
        HolderCommand writer = new HolderCommand(sink,
                (long) Double.parseDouble(args.getOrDefault("wall-clock-offset", "0")));
        Object stop = new Object();
        boolean[] stopping = {false};
        Signal.handle(new Signal("TERM"), s -> {
            synchronized (stop) {
                stopping[0] = true;
                stop.notifyAll();
            }
        });
        if (stepMs != 0) Signal.handle(new Signal("USR2"), s -> writer.stepWallClock(stepMs));
        EdgeIds ids = EdgeIds.builder(url).token(args.getOrDefault("token", System.getenv("API_TOKEN"))).build();
        LeasedSnowflakeGenerator gen = LeasedSnowflakeGenerator.builder(ids)
                .holder(args.getOrDefault("holder", "java-" + ProcessHandle.current().pid()))
                .maxWait(java.time.Duration.ofMillis((long) Double.parseDouble(args.getOrDefault("max-wait", "2000"))))
                .onGrant(writer::grant)
                .build();
        long issued = 0;
        Map<String, Integer> refused = new LinkedHashMap<>();
        long until = seconds > 0 ? System.nanoTime() + (long) (seconds * 1e9) : Long.MAX_VALUE;
        try {
            while (!stopped(stop, stopping) && (count == 0 || issued < count) && System.nanoTime() - until < 0) {
                int want = (int) (count == 0 ? batch : Math.min(batch, count - issued));
                try {
                    long[] batchIds = gen.next(want);
                    SnowflakeLayout layout = gen.layout(); // before the writer's lock: grants take it under the generator's
                    synchronized (writer) {
                        for (long id : batchIds) writer.issued(layout, id);
                    }
                    issued += want;
                } catch (EdgeIdsException e) {
                    writer.refused(e.code());
                    refused.merge(e.code(), 1, Integer::sum);
                    pause(stop, stopping, Math.min(e.retryAfterSeconds() > 0 ? e.retryAfterSeconds() * 1000 : 50, 1000));
                }
                writer.flush(false);
                if (gapMs > 0) pause(stop, stopping, gapMs);
            }
        } finally {
            gen.close();
            writer.flush(true);
            sink.close();
        }
        LeasedSnowflakeGenerator.Stats stats = gen.stats();
        StringBuilder summary = new StringBuilder("{\"issued\":").append(issued).append(",\"refused\":{");
        String comma = "";
        for (Map.Entry<String, Integer> e : refused.entrySet()) {
            summary.append(comma).append(Json.quote(e.getKey())).append(':').append(e.getValue());
            comma = ",";
        }
        summary.append("},\"acquires\":").append(stats.acquires()).append(",\"renewals\":").append(stats.renewals())
                .append(",\"renewals_failed\":").append(stats.renewalsFailed())
                .append(",\"leases_lost\":").append(stats.leasesLost())
                .append(",\"releases\":").append(stats.releases()).append('}');
        System.err.println(summary);
        System.exit(0);
    }

    private static boolean stopped(Object stop, boolean[] stopping) {
        synchronized (stop) {
            return stopping[0];
        }
    }

    private static void pause(Object stop, boolean[] stopping, double ms) throws InterruptedException {
        synchronized (stop) {
            if (!stopping[0]) stop.wait(Math.max(1, (long) ms));
        }
    }

    private synchronized void stepWallClock(long stepMs) {
        wallOffsetMs -= stepMs;
    }

    /** A grant applied (the generator's lock held): its span before any ID issued in it. */
    private synchronized void grant(LeaseGrant grant) {
        try {
            if (!headed) {
                out.write("# edge-ids holder layout=" + grant.layout() + " pid=" + ProcessHandle.current().pid() + "\n");
                headed = true;
            }
            flushRun();
            out.write("L " + grant.workerId() + " " + grant.from() + " " + grant.to() + "\n");
            long wallMs = System.currentTimeMillis() + wallOffsetMs;
            out.write("T " + Math.round(wallMs - grant.serverNowMs()) + "\n");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private void issued(SnowflakeLayout layout, long id) throws IOException {
        long worker = layout.workerIdOf(id);
        long tick = layout.tickOfId(id);
        long sequence = layout.sequenceOf(id);
        long[] p = pending;
        if (p != null && p[0] == worker && p[1] == tick && p[2] + p[3] == sequence) {
            p[3]++;
            return;
        }
        flushRun();
        pending = new long[] {worker, tick, sequence, 1};
    }

    private synchronized void refused(String code) throws IOException {
        flushRun();
        out.write("X " + code + "\n");
    }

    /** Hands what was written to the OS at most every 200 ms ({@code now}: at once, the run too). */
    private synchronized void flush(boolean now) throws IOException {
        if (now) flushRun();
        else if (System.nanoTime() - flushedAt < 200_000_000L) return;
        out.flush();
        flushedAt = System.nanoTime();
    }

    private void flushRun() throws IOException {
        long[] p = pending;
        if (p == null) return;
        out.write("R " + p[0] + " " + p[1] + " " + p[2] + " " + p[3] + "\n");
        pending = null;
    }
}
