/**
 * Calling edge-ids from another Worker, three ways:
 *   - RPC on the IdService entrypoint: `await ids.snowflake({ count: 3 })`, where
 *     `ids = idService(env.IDS)`: a refusal crosses as a value and rejects here, so
 *     the service does not report your bad input as its own uncaught exception
 *     (`env.IDS.snowflake(…)` works too, and rejects alike);
 *   - the typed HTTP client over the same binding's fetch;
 *   - a pool of IDs in this Worker (createIdPool), refilled over RPC.
 * None leaves Cloudflare's network, and binding callers need no token. The
 * binding is typed with the package's types, as a project outside this
 * repository would type it (edge-ids/client).
 */
import type { WorkerEntrypoint } from "cloudflare:workers";
import {
	createIdPool,
	type IdPoolClient,
	type IdServiceRpc,
	idErrorCode,
	idService,
	idsClient,
	type SettledRpc,
} from "edge-ids/client";

interface ConsumerEnv {
	IDS: Service<WorkerEntrypoint & IdServiceRpc & SettledRpc>;
}

/** One pool per isolate, made on the first request: that is where `env` is. */
let pool: IdPoolClient | undefined;

export default {
	async fetch(request, env, ctx) {
		const { pathname } = new URL(request.url);

		const ids = idService(env.IDS);
		if (pathname === "/") {
			// RPC: typed methods, values as plain objects, 64-bit IDs as strings.
			const order = await ids.snowflake({ workerId: 7, count: 3 });
			const session = await ids.ulid();
			const trace = await ids.uuidv7({ count: 2 });
			const decoded = await ids.decode(order.ids[0] ?? "");
			const discord = await ids.decode("175928847299117063", { layout: "discord" });
			// HTTP: the same API through the typed client, over the binding's fetch.
			const http = idsClient({ fetch: env.IDS.fetch.bind(env.IDS) });
			const batch = await http.snowflake({ count: 2 });
			const layout = await http.layout();
			// Pooled: most calls cost no request; a refill may finish after the answer.
			pool ??= createIdPool({ source: ids });
			const pooled = await pool.snowflake({ count: 2 }, (work) => ctx.waitUntil(work));
			return Response.json({
				rpc: { order, session, trace, decoded, discord },
				http: { batch, layout },
				pooled,
			});
		}

		if (pathname === "/error") {
			// A failed call rejects with an Error whose message starts with the code.
			try {
				await ids.snowflake({ count: 0 });
				return Response.json({ unexpected: "no error" }, { status: 500 });
			} catch (error) {
				return Response.json({ code: idErrorCode(error), message: (error as Error).message });
			}
		}

		return Response.json({ see: ["/", "/error"] }, { status: 404 });
	},
} satisfies ExportedHandler<ConsumerEnv>;
