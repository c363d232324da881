/** Config: defaults that fit every valid layout, impossible widths explained, parsed once. */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { configFrom } from "../../src/worker/config";
import { appWith } from "./helpers";

describe("config defaults", () => {
	it("fits the default auto set to a layout with fewer than 32 worker IDs", async () => {
		const small = appWith({ SNOWFLAKE_WORKER_BITS: "3", SNOWFLAKE_SEQUENCE_BITS: "19" });
		expect(await small("/health")).toEqual({ status: 200, body: { status: "ok" } });
		expect(await small("/layout")).toMatchObject({ status: 200, body: { maxWorkerId: 7 } });
		expect(await small("/regions")).toMatchObject({ status: 200, body: { autoWorkerIds: "0-7" } });
	});

	it("uses worker ID 0 alone under a layout without worker bits", async () => {
		const single = appWith({ SNOWFLAKE_WORKER_BITS: "0", SNOWFLAKE_SEQUENCE_BITS: "22" });
		expect(await single("/regions")).toMatchObject({
			status: 200,
			body: { workerIds: "0", autoWorkerIds: "0" },
		});
	});

	it("says how many time bits can fit when SNOWFLAKE_TIME_BITS is impossible", async () => {
		const wide = appWith({
			SNOWFLAKE_TIME_BITS: "52",
			SNOWFLAKE_WORKER_BITS: "0",
			SNOWFLAKE_SEQUENCE_BITS: "11",
			SNOWFLAKE_TIME_UNIT_MS: "1000",
			AUTO_WORKER_IDS: "",
		});
		const { status, body } = await wide("/layout");
		expect(status).toBe(500);
		expect(body).toMatchObject({
			error: {
				code: "invalid_config",
				message: expect.stringMatching(/at most 42 time bits fit/),
			},
		});
		const wider = appWith({ SNOWFLAKE_TIME_BITS: "53", SNOWFLAKE_SEQUENCE_BITS: "10" });
		expect(await wider("/layout")).toMatchObject({
			status: 500,
			body: {
				error: {
					code: "invalid_config",
					message: "SNOWFLAKE_TIME_BITS must be an integer in [1, 52] written in decimal digits",
				},
			},
		});
	});

	it("parses a bad config once, and answers its error on every request", () => {
		let reads = 0;
		const counting = new Proxy(
			{ ...env, SNOWFLAKE_TIME_BITS: "40" },
			{
				get(target, name, receiver) {
					if (name === "SNOWFLAKE_TIME_BITS") reads++;
					return Reflect.get(target, name, receiver);
				},
			},
		);
		for (let i = 0; i < 5; i++) {
			expect(() => configFrom(counting)).toThrowError(/SNOWFLAKE_\* variables/);
		}
		expect(reads).toBe(1);
	});
});
