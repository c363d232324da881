/**
 * One isolate, one pooled buffer per sequence and one auto pool per worker-ID set,
 * whatever the way in: public HTTP, a binding's `fetch` (which runs on its own copy
 * of env) and RPC. Numbers one isolate hands out strictly increase across all three.
 */
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { configFrom } from "../../src/worker/config/config";
import { autoPool } from "../../src/worker/operations/auto-pools";
import { IdService } from "../../src/worker/rpc/id-service";
import { trustedEnv } from "../../src/worker/rpc/trusted-env";
import { callJson } from "./helpers";
import { createdSequence } from "./sequence-helpers";

const service = () => new IdService(createExecutionContext(), env);

/** `POST /sequences/:name/next` through a binding's `fetch` (IdService.fetch). */
async function viaBindingFetch(name: string, count: number): Promise<string[]> {
	const response = await service().fetch(
		new Request(`https://ids.test/sequences/${name}/next?count=${count}`, { method: "POST" }),
	);
	expect(response.status).toBe(200);
	return ((await response.json()) as { numbers: string[] }).numbers;
}

async function viaHttp(name: string, count: number): Promise<string[]> {
	const { status, body } = await callJson<{ numbers: string[] }>(
		`/sequences/${name}/next?count=${count}`,
		{ method: "POST" },
	);
	expect(status).toBe(200);
	return body.numbers;
}

async function viaRpc(name: string, count: number): Promise<string[]> {
	return (await service().nextInSequence(name, { count })).numbers;
}

describe("pooled numbers across the ways in", () => {
	it("strictly increase in one isolate, alternating RPC, a binding's fetch and HTTP", async () => {
		const name = await createdSequence("transports", { mode: "pooled" });
		const ways = [viaRpc, viaBindingFetch, viaHttp];
		// Each way learns the mode with one object call first (ordered until then).
		for (const way of ways) await way(name, 1);
		const handedOut: bigint[] = [];
		for (let round = 0; round < 30; round++) {
			const way = ways[round % ways.length] as (typeof ways)[number];
			for (const number of await way(name, 1 + (round % 3))) handedOut.push(BigInt(number));
		}
		for (let i = 1; i < handedOut.length; i++) {
			expect(handedOut[i], `number ${i} of ${handedOut.join(", ")}`).toBeGreaterThan(
				handedOut[i - 1] as bigint,
			);
		}
	});

	it("the auto route's pool of a worker-ID set is one, whichever env copy asks", () => {
		const config = configFrom(env);
		const bindingConfig = configFrom(trustedEnv(env));
		expect(bindingConfig).not.toBe(config); // a binding's fetch parses its own
		const issue = () => Promise.reject(new Error("not called"));
		const set = config.autoWorkerIds;
		expect(autoPool(bindingConfig, bindingConfig.autoWorkerIds, issue)).toBe(
			autoPool(config, set, issue),
		);
	});
});
