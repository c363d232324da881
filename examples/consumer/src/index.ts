/**
 * Calling edge-ids from another Worker, both ways:
 *   - RPC on the IdService entrypoint: `await env.IDS.snowflake({ count: 3 })`;
 *   - the typed HTTP client over the same binding's fetch.
 * Neither leaves Cloudflare's network, and RPC callers need no token.
 */
import { idErrorCode, idsClient } from "../../../src/client";
import type { IdService } from "../../../src/index";

interface ConsumerEnv {
	IDS: Service<IdService>;
}

export default {
	async fetch(request, env) {
		const { pathname } = new URL(request.url);

		if (pathname === "/") {
			// RPC: typed methods, values as plain objects, 64-bit IDs as strings.
			const order = await env.IDS.snowflake({ workerId: 7, count: 3 });
			const session = await env.IDS.ulid();
			const trace = await env.IDS.uuidv7({ count: 2 });
			const decoded = await env.IDS.decode(order.ids[0] ?? "");
			// HTTP: the same API through hono/client, over the binding's fetch.
			const http = idsClient({ fetch: env.IDS.fetch.bind(env.IDS) });
			const batch = await http.snowflake({ count: 2 });
			const layout = await http.layout();
			return Response.json({ rpc: { order, session, trace, decoded }, http: { batch, layout } });
		}

		if (pathname === "/error") {
			// A failed call rejects with an Error whose message starts with the code.
			try {
				await env.IDS.snowflake({ count: 0 });
				return Response.json({ unexpected: "no error" }, { status: 500 });
			} catch (error) {
				return Response.json({ code: idErrorCode(error), message: (error as Error).message });
			}
		}

		return Response.json({ see: ["/", "/error"] }, { status: 404 });
	},
} satisfies ExportedHandler<ConsumerEnv>;
