import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consumerSessionArgs } from "../../scripts/lib/consumer-session";
import { type DevServer, startWranglerDev } from "../../scripts/lib/wrangler-dev";

/**
 * The example consumer beside edge-ids in one `wrangler dev`, as `npm run dev:consumer`
 * runs them, with everything the dev server prints kept: a refused RPC call reaches
 * the consumer with its code and message and is no crash in edge-ids' output.
 */
let dev: DevServer;
let printed = "";
beforeAll(async () => {
	dev = await startWranglerDev({
		args: consumerSessionArgs(),
		readyPath: "/error",
		logLevel: "log",
		onOutput: (text) => {
			printed += text;
		},
	});
});
afterAll(() => dev?.stop());

/** What the server printed since `from`, once it has had a moment to print it. */
async function printedSince(from: number): Promise<string> {
	await new Promise((resolve) => setTimeout(resolve, 1_500));
	return printed.slice(from);
}

describe("a consumer calling edge-ids over RPC, under wrangler dev", () => {
	it("gets a refusal's code and message, and edge-ids logs a 400, not an uncaught error", async () => {
		const from = printed.length;
		for (let i = 0; i < 3; i++) {
			const response = await fetch(`${dev.url}/error`);
			const refusal = (await response.json()) as { code: string; message: string };
			expect(refusal.code).toBe("invalid_count");
			expect(refusal.message).toMatch(
				/^invalid_count: count must be an integer in \[1, 10000\]; got 0 \(request [0-9a-f-]{36}\)$/,
			);
		}
		const output = await printedSince(from);
		expect(output).toMatch(
			/\[edge-ids\] \{"rpc":"snowflake","requestId":"[0-9a-f-]{36}","status":400/,
		);
		expect(output).not.toMatch(/Uncaught|hung|\[ERROR\]/);
	});

	it("serves the consumer's tour (RPC, HTTP over the binding, a pool) with edge-ids' lines named", async () => {
		const from = printed.length;
		const response = await fetch(`${dev.url}/`);
		expect(response.status).toBe(200);
		const body = (await response.json()) as { rpc: { order: { ids: string[] } } };
		expect(body.rpc.order.ids).toHaveLength(3);
		const output = await printedSince(from);
		expect(output).toMatch(
			/\[edge-ids\] \{"rpc":"snowflake","requestId":"[0-9a-f-]{36}","status":200/,
		);
		expect(output).not.toContain("[undefined]");
		expect(output).not.toMatch(/Uncaught|\[ERROR\]/);
	});
});
