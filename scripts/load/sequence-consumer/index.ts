/**
 * The consumer Worker of the named sequences' chaos run (scripts/load/sequence-chaos.ts):
 * the first Worker of its `wrangler dev`, so the only one with a port. It calls
 * edge-ids over RPC on its service binding and passes every other request to the
 * binding's fetch (edge-ids' HTTP API), so one server takes both kinds of client.
 *
 *   POST /rpc/sequences/orders/next?count=3      → env.IDS.nextInSequence("orders", { count: 3 })
 *   POST /rpc/sequences/orders/reserve?count=1000 → env.IDS.reserveInSequence("orders", { count: 1000 })
 *   anything else                                → env.IDS.fetch(request)
 *
 * A rejected call answers its code with the status HTTP would give it (400, 404,
 * 409, else 503), so the run tells a refusal from trouble. Not shipped.
 */
interface SequenceRpc {
	nextInSequence(name: string, options: { count: number }): Promise<unknown>;
	reserveInSequence(name: string, options: { count: number }): Promise<unknown>;
}

interface ConsumerEnv {
	IDS: Fetcher & SequenceRpc;
}

const RPC_PATH = /^\/rpc\/sequences\/([^/]+)\/(next|reserve)$/;
const STATUS_OF: Record<string, number> = {
	invalid_count: 400,
	invalid_sequence_name: 400,
	unknown_sequence: 404,
	sequence_exhausted: 409,
};

export default {
	async fetch(request, env) {
		const url = new URL(request.url);
		const rpc = RPC_PATH.exec(url.pathname);
		if (!rpc) return env.IDS.fetch(request);
		const name = decodeURIComponent(rpc[1] ?? "");
		const count = Number(url.searchParams.get("count") ?? "1");
		try {
			const answer =
				rpc[2] === "next"
					? await env.IDS.nextInSequence(name, { count })
					: await env.IDS.reserveInSequence(name, { count });
			return Response.json(answer);
		} catch (error) {
			// A refusal's message starts with its code: "overloaded: …".
			const message = error instanceof Error ? error.message : String(error);
			const code = /^([a-z_]+):/.exec(message)?.[1] ?? "internal";
			return Response.json({ error: { code, message } }, { status: STATUS_OF[code] ?? 503 });
		}
	},
} satisfies ExportedHandler<ConsumerEnv>;
