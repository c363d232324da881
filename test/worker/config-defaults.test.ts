/** Config: defaults that fit every valid layout, impossible widths explained, bounds, parsed once. */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
	configFrom,
	MAX_LEASE_MS,
	objectConfigFrom,
	parseConfig,
} from "../../src/worker/config/config";
import { appWith, layoutVars } from "./helpers";

describe("config defaults", () => {
	it("fits the default auto set to a layout with fewer than 32 worker IDs", async () => {
		const small = appWith(layoutVars({ worker: 3, sequence: 19 }));
		expect(await small("/health")).toEqual({ status: 200, body: { status: "ok" } });
		expect(await small("/layout")).toMatchObject({ status: 200, body: { maxWorkerId: 7 } });
		expect(await small("/regions")).toMatchObject({ status: 200, body: { autoWorkerIds: "0-7" } });
	});

	it("uses worker ID 0 alone under a layout without worker bits", async () => {
		const single = appWith(layoutVars({ worker: 0, sequence: 22 }));
		expect(await single("/regions")).toMatchObject({
			status: 200,
			body: { workerIds: "0", autoWorkerIds: "0" },
		});
	});

	it("says how many time bits can fit when SNOWFLAKE_TIME_BITS is impossible", async () => {
		const wide = appWith({
			...layoutVars({ time: 52, worker: 0, sequence: 11, unitMs: 1000 }),
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
		const wider = appWith(layoutVars({ time: 53, sequence: 10 }));
		expect(await wider("/layout")).toMatchObject({
			status: 500,
			body: {
				error: {
					code: "invalid_config",
					message: "SNOWFLAKE_TIME_BITS must be an integer in [1, 52], a number or decimal digits",
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

	it("reports every bad variable in one invalid_config, each with what it allows", async () => {
		const bad = appWith({
			SNOWFLAKE_WORKER_BITS: "31",
			MAX_BATCH: "0",
			LEASE_MS: "soon",
			AUTO_WORKER_IDS: "0-3000000000",
			RATE_LIMIT_PERIOD: "30",
		});
		const { status, body } = await bad("/health");
		expect(status).toBe(500);
		const { code, message } = (body as { error: { code: string; message: string } }).error;
		expect(code).toBe("invalid_config");
		expect(message).toMatch(/^5 settings are invalid: \(1\) /);
		for (const expected of [
			"SNOWFLAKE_WORKER_BITS must be an integer in [0, 30]",
			"MAX_BATCH must be an integer in [1, 100000]",
			`LEASE_MS must be an integer in [1, ${MAX_LEASE_MS}]`,
			"AUTO_WORKER_IDS",
			"RATE_LIMIT_PERIOD must be 10 or 60",
		]) {
			expect(message).toContain(expected);
		}
	});

	it("checks the worker-ID sets against the worker bits even when the layout is impossible", () => {
		expect(() =>
			parseConfig({ SNOWFLAKE_WORKER_BITS: "3", SNOWFLAKE_TIME_BITS: "52", WORKER_IDS: "0-9" }),
		).toThrowError(/2 settings are invalid: \(1\) SNOWFLAKE_\* variables .*\(2\) WORKER_IDS.*7/);
	});

	it("refuses a POOL_MAX_AGE_MS shorter than one tick, naming both values; 0 still turns pools off", () => {
		const coarse = { SNOWFLAKE_TIME_UNIT_MS: "10" };
		expect(() => parseConfig({ ...coarse, POOL_MAX_AGE_MS: "5" })).toThrowError(
			"POOL_MAX_AGE_MS (5) must be 0 (pools off) or at least one tick, SNOWFLAKE_TIME_UNIT_MS (10)",
		);
		expect(parseConfig({ ...coarse, POOL_MAX_AGE_MS: "0" }).poolMaxAgeMs).toBe(0);
		expect(parseConfig({ ...coarse, POOL_MAX_AGE_MS: "10" }).poolMaxAgeMs).toBe(10);
	});
});

describe("LEASE_MS and the new settings", () => {
	it("bounds LEASE_MS to a few seconds, MAX_BORROW_MS to 1,000 and MAX_WAIT_MS to 60,000", () => {
		expect(() => parseConfig({ LEASE_MS: "60000" })).toThrow(
			/LEASE_MS must be an integer in \[1, 5000\]/,
		);
		expect(() => parseConfig({ MAX_BORROW_MS: "1001" })).toThrow(/MAX_BORROW_MS/);
		expect(() => parseConfig({ MAX_WAIT_MS: "0" })).toThrow(/MAX_WAIT_MS/);
		expect(parseConfig({})).toMatchObject({ leaseMs: 1_000, maxBorrowMs: 5, maxWaitMs: 2_000 });
		expect(parseConfig({ MAX_BORROW_MS: "0", LEASE_MS: "5000" })).toMatchObject({
			maxBorrowMs: 0,
			leaseMs: 5_000,
		});
	});
});

/**
 * Wrangler hands an unquoted TOML var to the Worker as its JSON value: `MAX_BATCH = 500`
 * arrives as the number 500, `LEASE_MS = [1]` as an array (seen under `wrangler dev`).
 */
describe("vars that are not strings", () => {
	it("takes numeric vars as JSON numbers as well as digit strings", () => {
		const config = parseConfig({
			RATE_LIMIT_PERIOD: 60,
			MAX_BATCH: 500,
			LEASE_MS: 2_000,
			SNOWFLAKE_WORKER_BITS: 8,
			SNOWFLAKE_SEQUENCE_BITS: "14",
			REQUEST_LOG: false,
		});
		expect(config).toMatchObject({
			rateLimitPeriod: 60,
			maxBatch: 500,
			leaseMs: 2_000,
			requestLog: false,
		});
		expect(config.layout).toMatchObject({ workerBits: 8, sequenceBits: 14 });
	});

	it("names every var of another type in the one invalid_config, with the other errors", async () => {
		const bad = appWith({
			MAX_BATCH: true,
			LEASE_MS: [1],
			MAX_WAIT_MS: 2.5,
			POOL_MAX_SIZE: { size: 4 },
			RATE_LIMIT_PERIOD: 30,
			WORKER_IDS: 7,
			CORS_ORIGINS: ["https://app.example.com"],
			REQUEST_LOG: 1,
			API_TOKEN: 12345,
			MAX_BLOCK_COUNT: "0",
		} as unknown as Record<string, string>);
		const { status, body } = await bad("/health");
		expect(status).toBe(500);
		const { code, message } = (body as { error: { code: string; message: string } }).error;
		expect(code).toBe("invalid_config");
		expect(message).toMatch(/^10 settings are invalid: \(1\) /);
		const problems = message.split(/(?:: |; )\(\d+\) /).slice(1);
		expect(problems.sort()).toEqual(
			[
				"MAX_BATCH must be an integer in [1, 100000], a number or decimal digits; got a boolean",
				`LEASE_MS must be an integer in [1, ${MAX_LEASE_MS}], a number or decimal digits; got an array`,
				"MAX_WAIT_MS must be an integer in [1, 60000], a number or decimal digits",
				"POOL_MAX_SIZE must be an integer in [1, 1000000], a number or decimal digits; got an object",
				'RATE_LIMIT_PERIOD must be 10 or 60, the "period" of the RATE_LIMITER binding',
				'WORKER_IDS must be text (a quoted string): worker IDs and ranges such as "0-31" or "0-3,8,10-12"; got a number',
				'CORS_ORIGINS must be text (a quoted string): "*" or a comma-separated list of origins such as "https://app.example.com"; got an array',
				'REQUEST_LOG must be "on" or "off" (or true or false)',
				"API_TOKEN must be text (a secret's value); got a number",
				"MAX_BLOCK_COUNT must be an integer in [1, 100000000], a number or decimal digits",
			].sort(),
		);
		// Values are never shown, a secret's least of all.
		expect(message).not.toMatch(/12345|2\.5|size|\[1\]|example\.com"\]/);
		expect(message).not.toContain("could not be read");
	});
});

/** A Snowflake object reads its own settings only (its callers have parsed the whole config). */
describe("objectConfigFrom", () => {
	it("answers the layout, the generator's and the lease keeper's settings exactly as the whole config has them", () => {
		for (const vars of [
			{},
			{ SNOWFLAKE_WORKER_BITS: "8", SNOWFLAKE_SEQUENCE_BITS: "14", MAX_WAIT_MS: 500 },
			{ MAX_CLOCK_BACKWARD_MS: "0", MAX_BORROW_MS: "0", LEASE_MS: "5000" },
			{ LEASE_SPAN_MS: "4000", LEASE_GRACE_MS: "0" },
		]) {
			const whole = parseConfig(vars);
			expect(objectConfigFrom({ ...vars })).toEqual({
				layout: whole.layout,
				maxClockBackwardMs: whole.maxClockBackwardMs,
				maxBorrowMs: whole.maxBorrowMs,
				maxWaitMs: whole.maxWaitMs,
				leaseMs: whole.leaseMs,
				leaseSpanMs: whole.leaseSpanMs,
				leaseGraceMs: whole.leaseGraceMs,
			});
		}
	});

	it("reads the whole config when this isolate has parsed it already", () => {
		const vars = { ...env, MAX_WAIT_MS: "700" };
		const whole = configFrom(vars);
		const own = objectConfigFrom(vars);
		expect(own.layout).toBe(whole.layout);
		expect(own.maxWaitMs).toBe(700);
	});

	it("refuses a bad setting of its own, and reads none of the others", () => {
		expect(() => objectConfigFrom({ MAX_WAIT_MS: "0", MAX_BATCH: "0" })).toThrowError(
			/^invalid_config: MAX_WAIT_MS must be an integer in \[1, 60000\], a number or decimal digits$/,
		);
		expect(() => objectConfigFrom({ SNOWFLAKE_TIME_BITS: "40" })).toThrowError(/SNOWFLAKE_\*/);
		const read: string[] = [];
		const watched = new Proxy({ ...env } as Record<string, unknown>, {
			get(target, name, receiver) {
				if (typeof name === "string") read.push(name);
				return Reflect.get(target, name, receiver);
			},
		});
		objectConfigFrom(watched);
		expect(read.sort()).toEqual([
			"LEASE_GRACE_MS",
			"LEASE_MS",
			"LEASE_SPAN_MS",
			"MAX_BORROW_MS",
			"MAX_CLOCK_BACKWARD_MS",
			"MAX_WAIT_MS",
			"SNOWFLAKE_EPOCH",
			"SNOWFLAKE_SEQUENCE_BITS",
			"SNOWFLAKE_TIME_BITS",
			"SNOWFLAKE_TIME_UNIT_MS",
			"SNOWFLAKE_WORKER_BITS",
		]);
	});
});
