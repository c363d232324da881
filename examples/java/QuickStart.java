import dev.edgeids.EdgeIds;
import dev.edgeids.LeasedSnowflakeGenerator;
import dev.edgeids.SequenceBuffer;

/**
 * The README's quick start, runnable as one file once the client is compiled:
 *
 *   java -cp build/classes QuickStart.java http://localhost:8787
 */
public class QuickStart {
    public static void main(String[] args) {
        EdgeIds ids = EdgeIds.builder(args.length > 0 ? args[0] : "http://localhost:8787")
                .token(System.getenv("API_TOKEN"))
                .build();
        try (LeasedSnowflakeGenerator snowflakes = LeasedSnowflakeGenerator.builder(ids).holder("quick-start").build();
             SequenceBuffer orders = SequenceBuffer.builder(ids, "orders").build()) {
            long id = snowflakes.nextId();
            System.out.println("Snowflake " + id + " on leased worker ID " + snowflakes.workerId());
            System.out.println("order numbers " + orders.next() + ", " + orders.next());
        }
    }
}
