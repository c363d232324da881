/**
 * One type per field: a sequence's fields have the same JSON type in every answer that
 * carries them (`GET /sequences/:name`, a `GET /stats` row, their RPC methods) and in the
 * OpenAPI document's schemas of both: counts that may pass 2^53 (`issued`, `next`) are
 * decimal text, as IDs are; calls (`requests`) are numbers.
 */
import { createExecutionContext, runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { checkSequenceSettings } from "../../src/ids/sequences";
import type { SequenceCounts } from "../../src/wire";
import { IdService } from "../../src/worker/rpc/id-service";
import { envWith } from "../shared/fetch-app";
import { statsRows } from "./fleet-helpers";
import { callJson } from "./helpers";
import { atMinuteStart, operations, sequenceName, sequenceStub } from "./sequence-helpers";

/** Each field's JSON type ("string", "number", "null", …). */
function typesOf(value: object): Record<string, string> {
	return Object.fromEntries(
		Object.entries(value).map(([key, v]) => [key, v === null ? "null" : typeof v]),
	);
}

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; items?: Schema };

/** A schema's JSON type without null ("string", "integer", …). */
function typeOf(schema: Schema | undefined): string | undefined {
	const type = schema?.type;
	return Array.isArray(type) ? type.find((t) => t !== "null") : type;
}

describe("a sequence's fields", () => {
	it("have one type in every answer that carries them", async () => {
		const name = sequenceName("types");
		await atMinuteStart(name);
		const { ops, config } = await operations();
		await ops.createSequence(env, { name, settings: checkSequenceSettings({}) });
		await ops.nextInSequence(env, config, { name, count: 3 });
		expect(await runDurableObjectAlarm(sequenceStub(name))).toBe(true);

		const { body: status } = await callJson<Record<string, unknown>>(`/sequences/${name}`);
		const row = (await statsRows()).sequences.find((s) => s.name === name) as SequenceCounts;
		const service = new IdService(createExecutionContext(), envWith({}));
		const rpcStatus = await service.sequenceStatus(name);
		const rpcRow = (await service.fleetStats({ limit: 1000 })).sequences.find(
			(s) => s.name === name,
		);

		const answers = [typesOf(status), typesOf(row), typesOf(rpcStatus), typesOf(rpcRow ?? {})];
		const shared = ["name", "next", "issued", "requests"];
		for (const answer of answers) {
			expect(Object.fromEntries(shared.map((field) => [field, answer[field]]))).toEqual({
				name: "string",
				next: "string",
				issued: "string",
				requests: "number",
			});
		}
		expect(status.issued).toBe("3");
		expect(row.issued).toBe("3");
	});

	it("have one type in the OpenAPI document's schemas of both answers", async () => {
		type Operation = { responses: Record<string, { content: Record<string, { schema: Schema }> }> };
		const { body: document } = await callJson<{ paths: Record<string, { get: Operation }> }>(
			"/openapi.json",
		);
		const okSchema = (path: string) =>
			document.paths[path]?.get.responses["200"]?.content["application/json"]?.schema;
		const status = okSchema("/sequences/{name}")?.properties ?? {};
		const row = okSchema("/stats")?.properties?.sequences?.items?.properties ?? {};
		const shared = Object.keys(status).filter((field) => field in row);
		expect(shared).toEqual(expect.arrayContaining(["name", "next", "issued", "requests"]));
		for (const field of shared) expect(typeOf(row[field]), field).toBe(typeOf(status[field]));
		expect(typeOf(row.issued)).toBe("string");
	});
});
