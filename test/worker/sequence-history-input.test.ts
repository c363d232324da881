/**
 * `GET /sequences/:name/history` and RPC `sequenceHistory` read one contract: the
 * window is 1-1440 minutes (default 60), the name a sequence name, and any other
 * input is refused by name, with the same code and message on both transports.
 */
import { createExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { SequenceHistory } from "../../src/wire";
import { IdService } from "../../src/worker/rpc/id-service";
import { envWith } from "../shared/fetch-app";
import { call, callJson } from "./helpers";
import { createdSequence } from "./sequence-helpers";

type Refusal = { error: { code: string; message: string } };
const rpc = () => new IdService(createExecutionContext(), envWith({}));
const WINDOW = /^minutes must be an integer in \[1, 1440\]/;

describe("the sequence history's inputs", () => {
	it("defaults to the last hour and takes 1-1440 minutes", async () => {
		const name = await createdSequence("history-input");
		const hour = await callJson<SequenceHistory>(`/sequences/${name}/history`);
		expect(hour.status).toBe(200);
		expect(hour.body).toMatchObject({ name, minutes: 60, history: [] });
		expect(hour.body.serverNowMs).toBeTypeOf("number");
		expect((await call(`/sequences/${name}/history?minutes=1440`)).status).toBe(200);
		expect(await rpc().sequenceHistory(name, { minutes: 1 })).toMatchObject({ minutes: 1 });
		expect((await rpc().sequenceHistory(name)).minutes).toBe(60);
	});

	it("refuses a window outside 1-1440, another input or a bad name, alike over HTTP and RPC", async () => {
		const name = await createdSequence("history-input-bad");
		for (const minutes of ["0", "1441", "1.5", "x"]) {
			const { status, body } = await callJson<Refusal>(
				`/sequences/${name}/history?minutes=${minutes}`,
			);
			expect(status).toBe(400);
			expect(body.error.code).toBe("invalid_request");
			expect(body.error.message).toMatch(WINDOW);
		}
		await expect(rpc().sequenceHistory(name, { minutes: 0 })).rejects.toThrow(
			/^invalid_request: minutes must be an integer in \[1, 1440\]/,
		);
		const other = await callJson<Refusal>(`/sequences/${name}/history?count=2`);
		expect(other.status).toBe(400);
		expect(other.body.error.message).toContain("count");
		const badName = await callJson<Refusal>("/sequences/-bad/history");
		expect(badName.status).toBe(400);
		expect(badName.body.error.code).toBe("invalid_sequence_name");
		const settled = await rpc().settle("sequenceHistory", "-bad");
		expect(settled.error).toMatch(/^invalid_sequence_name: /);
	});
});
