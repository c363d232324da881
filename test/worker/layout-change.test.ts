/**
 * The SNOWFLAKE_* settings changed in place (locally, `wrangler dev --var
 * SNOWFLAKE_EPOCH:…` on the same state directory): every worker ID refuses alike
 * with a `layout_mismatch` that says what happened and how to recover, used ones by
 * their stored layout, unused ones by the namespace's. Objects here run the test
 * config, so "the earlier layout" is written into storage.
 *
 * Its own file: it claims the namespace's layout for another layout (storage is per file).
 */

import { abortAllDurableObjects, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ErrorBody } from "../../src/wire";
import { NAMESPACE_LAYOUT_NAME } from "../../src/worker/object/layout-guard";
import type { SnowflakeWorker } from "../../src/worker/object/snowflake-worker";
import { callJson, snowflakeStub } from "./helpers";

/** A layout the service is not configured with: another epoch. */
const EARLIER = "epoch=1700000000000;bits=41/10/12;unit=1";
function putLayout(stub: ReturnType<typeof snowflakeStub>, fingerprint: string) {
	return runInDurableObject(stub, (_instance: SnowflakeWorker, state) => {
		state.storage.kv.put("layout", fingerprint);
	});
}

const namespaceObject = () => env.SNOWFLAKE.get(env.SNOWFLAKE.idFromName(NAMESPACE_LAYOUT_NAME));

describe("a layout changed in place", () => {
	it("the first worker ID to issue claims the namespace's layout", async () => {
		expect((await callJson("/snowflake/4")).status).toBe(200);
		const held = await runInDurableObject(namespaceObject(), (_i: SnowflakeWorker, state) =>
			state.storage.kv.get("layout"),
		);
		expect(held).toBe("epoch=1288834974657;bits=41/10/12;unit=1");
	});

	it("a worker ID that issued under the earlier layout names both layouts and how to recover", async () => {
		await putLayout(snowflakeStub(3), EARLIER);
		const { status, body } = await callJson<ErrorBody>("/snowflake/3");
		expect(status).toBe(500);
		expect(body.error.code).toBe("layout_mismatch");
		expect(body.error.message).toContain(`issued IDs under the Snowflake layout ${EARLIER}`);
		expect(body.error.message).toMatch(
			/configured with epoch=1288834974657;bits=41\/10\/12;unit=1/,
		);
		expect(body.error.message).toContain("delete .wrangler/state");
		expect(body.error.message).toContain("--persist-to a new directory");
	});

	it("every auto blocks request refuses alike, unused worker IDs too, and none of them stores a layout", async () => {
		// The namespace and worker IDs 0-4 issued under the earlier layout; the rest never issued.
		await putLayout(namespaceObject(), EARLIER);
		for (const workerId of [0, 1, 2, 3, 4]) await putLayout(snowflakeStub(workerId), EARLIER);
		// A layout changes with a deploy, which restarts every object: the live instances
		// of earlier tests (worker ID 4 issued above) must read their storage again.
		await abortAllDurableObjects();
		const answers = await Promise.all(
			Array.from({ length: 40 }, () => callJson<ErrorBody>("/snowflake/blocks?count=5")),
		);
		for (const { status, body } of answers) {
			expect(status).toBe(500);
			expect(body.error.code).toBe("layout_mismatch");
		}
		const unused = await callJson<ErrorBody>("/snowflake/17");
		expect(unused.body.error.message).toContain(
			`this deployment's worker IDs issue under the Snowflake layout ${EARLIER}`,
		);
		const stored = await runInDurableObject(snowflakeStub(17), (_i: SnowflakeWorker, state) =>
			state.storage.kv.get("layout"),
		);
		expect(stored).toBeUndefined();
	});
});
