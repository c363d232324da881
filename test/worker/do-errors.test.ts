import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { app } from "../../src/worker/app";
import { snowflakeIds } from "../../src/worker/operations";
import type { IssueResult } from "../../src/worker/snowflake-do";
import { captureErrorLog } from "./helpers";

/**
 * The Worker's side of the Durable Object hop, with a stand-in object: the
 * runtime marks infrastructure errors `.overloaded` or `.retryable` on the
 * caller's side, which a real object in a test cannot produce.
 */
function envWithObject(issue: () => Promise<IssueResult>) {
	let calls = 0;
	const stub = {
		issue: () => {
			calls++;
			return issue();
		},
	};
	const namespace = { idFromName: (name: string) => name, get: () => stub };
	return { env: { ...env, SNOWFLAKE: namespace } as unknown as Env, calls: () => calls };
}

const runError = (flags: { overloaded?: boolean; retryable?: boolean }) =>
	Object.assign(new Error("Durable Object is overloaded"), flags);

const okRuns: IssueResult = { ok: true, runs: [{ tick: 1, firstSequence: 0, count: 1 }] };

describe("errors of the Durable Object hop", () => {
	it("answers .overloaded with 503 overloaded and Retry-After, without retrying", async () => {
		const fake = envWithObject(() =>
			Promise.reject(runError({ overloaded: true, retryable: true })),
		);
		const response = await app.fetch(
			new Request("https://ids.test/snowflake/1"),
			fake.env,
			createExecutionContext(),
		);
		expect(response.status).toBe(503);
		expect(response.headers.get("Retry-After")).toBe("1");
		expect(await response.json()).toMatchObject({ error: { code: "overloaded" } });
		expect(fake.calls()).toBe(1);
	});

	it("retries a .retryable error once", async () => {
		let attempt = 0;
		const fake = envWithObject(() =>
			++attempt === 1 ? Promise.reject(runError({ retryable: true })) : Promise.resolve(okRuns),
		);
		const result = await snowflakeIds(fake.env, { workerId: 1 });
		expect(result.ids).toEqual([String(2 ** 22 + 2 ** 12)]); // tick 1, worker 1, sequence 0
		expect(fake.calls()).toBe(2);
	});

	it("gives up after the second .retryable failure, as a 500 with no details", async () => {
		const fake = envWithObject(() => Promise.reject(runError({ retryable: true })));
		const [response, logged] = await captureErrorLog(() =>
			app.fetch(new Request("https://ids.test/snowflake/1"), fake.env, createExecutionContext()),
		);
		expect(response.status).toBe(500);
		expect(logged).toHaveLength(1); // the cause stays in the log, not in the body
		expect(logged[0]?.[2]).toMatchObject({
			message: "Durable Object is overloaded",
			retryable: true,
		});
		const body = (await response.json()) as { error: { code: string; message: string } };
		expect(body.error.code).toBe("internal");
		expect(body.error.message).not.toContain("Durable Object");
		expect(fake.calls()).toBe(2);
	});

	it("does not retry other errors", async () => {
		const fake = envWithObject(() => Promise.reject(new Error("boom")));
		await expect(snowflakeIds(fake.env, { workerId: 1 })).rejects.toThrow("boom");
		expect(fake.calls()).toBe(1);
	});

	it("turns an error value from the object back into its code", async () => {
		const fake = envWithObject(() =>
			Promise.resolve({
				ok: false,
				code: "clock_regression",
				detail: "behind",
				retryAfterSeconds: 3,
			}),
		);
		await expect(snowflakeIds(fake.env, { workerId: 1 })).rejects.toMatchObject({
			code: "clock_regression",
			retryAfterSeconds: 3,
		});
	});
});
