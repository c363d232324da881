/**
 * The layout guard in a namespace that predates it: a version without the
 * namespace's layout object stored each worker ID's layout and mark; after the
 * upgrade the object is empty. Its first worker ID to start records the layout it
 * issued under, and every later one is compared with that, used or not. Here the
 * test config is "the changed layout"; the earlier one is written into storage.
 *
 * Its own file: it fills the namespace's layout object (storage is per file).
 */

import { abortAllDurableObjects, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ErrorBody } from "../../src/wire";
import { NAMESPACE_LAYOUT_NAME } from "../../src/worker/object/layout-guard";
import type { SnowflakeWorker } from "../../src/worker/object/snowflake-worker";
import { callJson, snowflakeStub } from "./helpers";

/** The layout the worker IDs issued under before the upgrade: another epoch. */
const EARLIER = "epoch=1700000000000;bits=41/10/12;unit=1";
/** The layout the service is configured with now (the test config). */
const CONFIGURED = "epoch=1288834974657;bits=41/10/12;unit=1";

const namespaceObject = () => env.SNOWFLAKE.get(env.SNOWFLAKE.idFromName(NAMESPACE_LAYOUT_NAME));
const storedOf = (stub: ReturnType<typeof snowflakeStub>) =>
	runInDurableObject(stub, (_i: SnowflakeWorker, state) => ({
		layout: state.storage.kv.get<string>("layout"),
		checked: state.storage.kv.get<string>("layoutChecked"),
		mark: state.storage.kv.get<number>("mark"),
	}));

describe("a namespace whose worker IDs issued before its layout object existed", () => {
	it("after the layout changes, used and unused worker IDs refuse, and the namespace holds the old layout", async () => {
		// As the earlier version left them: worker IDs 0-3 with a layout and a mark, no
		// namespace layout (this file never touched that object).
		for (const workerId of [0, 1, 2, 3]) {
			await runInDurableObject(snowflakeStub(workerId), (_i: SnowflakeWorker, state) => {
				state.storage.kv.put("layout", EARLIER);
				state.storage.kv.put("mark", 1_000_000_000);
			});
		}
		const emptyNamespace = await runInDurableObject(
			namespaceObject(),
			(_i: SnowflakeWorker, state) => state.storage.kv.get("layout"),
		);
		expect(emptyNamespace).toBeUndefined();
		await abortAllDurableObjects(); // the deploy that changed the layout restarts every object

		const used = await callJson<ErrorBody>("/snowflake/3");
		expect(used.status).toBe(500);
		expect(used.body.error.code).toBe("layout_mismatch");
		for (const workerId of [17, 4, 900]) {
			const unused = await callJson<ErrorBody>(`/snowflake/${workerId}`);
			expect(unused.status, `worker ID ${workerId}`).toBe(500);
			expect(unused.body.error.code).toBe("layout_mismatch");
			expect(unused.body.error.message).toContain(
				`this deployment's worker IDs issue under the Snowflake layout ${EARLIER}`,
			);
			expect((await storedOf(snowflakeStub(workerId))).layout).toBeUndefined();
		}
		const held = await runInDurableObject(namespaceObject(), (_i: SnowflakeWorker, state) =>
			state.storage.kv.get("layout"),
		);
		expect(held).toBe(EARLIER);
		// The other used worker IDs still refuse by their own stored layout.
		for (const workerId of [0, 1, 2]) {
			expect((await callJson<ErrorBody>(`/snowflake/${workerId}`)).body.error.code).toBe(
				"layout_mismatch",
			);
		}
		expect(await storedOf(snowflakeStub(3))).toEqual({
			layout: EARLIER,
			checked: EARLIER,
			mark: 1_000_000_000,
		});
	});

	it("a used worker ID on the configured layout refuses when the namespace holds another", async () => {
		// Worker ID 40 issued under the configured layout, but the namespace recorded the
		// earlier one first (the test above): it never issues beside the earlier IDs.
		await runInDurableObject(snowflakeStub(40), (_i: SnowflakeWorker, state) => {
			state.storage.kv.put("layout", CONFIGURED);
			state.storage.kv.put("mark", 1_000_000_000);
		});
		await abortAllDurableObjects();
		const refused = await callJson<ErrorBody>("/snowflake/40");
		expect(refused.status).toBe(500);
		expect(refused.body.error.code).toBe("layout_mismatch");
		expect(refused.body.error.message).toContain(
			`worker ID 40 issued IDs under the Snowflake layout ${CONFIGURED}, but this deployment's worker IDs issue under ${EARLIER}`,
		);
		expect((await storedOf(snowflakeStub(40))).checked).toBeUndefined();
	});

	it("compares once per worker ID: a matching one records it and later lives ask no more", async () => {
		// Put the namespace on the configured layout, as after a correct upgrade.
		await runInDurableObject(namespaceObject(), (_i: SnowflakeWorker, state) => {
			state.storage.kv.put("layout", CONFIGURED);
		});
		await runInDurableObject(snowflakeStub(50), (_i: SnowflakeWorker, state) => {
			state.storage.kv.put("layout", CONFIGURED);
		});
		await abortAllDurableObjects();
		expect((await callJson("/snowflake/50")).status).toBe(200);
		expect((await storedOf(snowflakeStub(50))).checked).toBe(CONFIGURED);
		// Were it asked again, the namespace would now refuse it; a later life does not ask.
		await runInDurableObject(namespaceObject(), (_i: SnowflakeWorker, state) => {
			state.storage.kv.put("layout", EARLIER);
		});
		await abortAllDurableObjects();
		expect((await callJson("/snowflake/50")).status).toBe(200);
	});
});
