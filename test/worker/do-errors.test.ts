import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { idErrorCode, idRetryAfter } from "../../src/client";
import type { ErrorBody } from "../../src/wire";
import { configFrom } from "../../src/worker/config/config";
import type { IssueResult } from "../../src/worker/object/object-protocol";
import { snowflakeIds } from "../../src/worker/operations/snowflake";
import { IdService } from "../../src/worker/rpc/id-service";
import { fetchApp } from "../shared/fetch-app";
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

const runError = (flags: { overloaded?: boolean; retryable?: boolean; remote?: boolean }) =>
	Object.assign(new Error("Durable Object is overloaded"), flags);

const TWITTER = "epoch=1288834974657;bits=41/10/12;unit=1";
const okRuns: IssueResult = {
	ok: true,
	runs: [{ tick: 1, firstSequence: 0, count: 1 }],
	layout: TWITTER,
};

describe("errors of the Durable Object hop", () => {
	it("answers .overloaded with 503 overloaded and Retry-After, without retrying", async () => {
		const fake = envWithObject(() =>
			Promise.reject(runError({ overloaded: true, retryable: true })),
		);
		const response = await fetchApp("/snowflake/1", undefined, fake.env);
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
		const { body: result } = await snowflakeIds(fake.env, configFrom(fake.env), { workerId: 1 });
		expect(result.ids).toEqual([String(2 ** 22 + 2 ** 12)]); // tick 1, worker 1, sequence 0
		expect(fake.calls()).toBe(2);
	});

	it("gives up after the second .retryable failure: 503 unavailable with Retry-After", async () => {
		const fake = envWithObject(() => Promise.reject(runError({ retryable: true })));
		const response = await fetchApp("/snowflake/1", undefined, fake.env);
		expect(response.status).toBe(503);
		expect(response.headers.get("Retry-After")).toBe("1");
		const body = (await response.json()) as ErrorBody;
		expect(body.error.code).toBe("unavailable");
		expect(body.error.message).not.toContain("Durable Object is");
		expect(fake.calls()).toBe(2);
	});

	it("answers any other platform error (reset, broken) 503 unavailable, without retrying", async () => {
		const fake = envWithObject(() =>
			Promise.reject(new Error("Durable Object reset because its code was updated.")),
		);
		await expect(
			snowflakeIds(fake.env, configFrom(fake.env), { workerId: 1 }),
		).rejects.toMatchObject({
			code: "unavailable",
			retryAfterSeconds: 1,
		});
		expect(fake.calls()).toBe(1);
	});

	it("answers an exception thrown by the object's own code as 500 internal, logged", async () => {
		const fake = envWithObject(() => Promise.reject(runError({ remote: true })));
		const [response, logged] = await captureErrorLog(() =>
			fetchApp("/snowflake/1", undefined, fake.env),
		);
		expect(response.status).toBe(500);
		expect(logged).toHaveLength(1);
		expect(((await response.json()) as ErrorBody).error.code).toBe("internal");
		expect(fake.calls()).toBe(1);
	});

	it("never formats runs the object issued under another layout", async () => {
		const fake = envWithObject(() =>
			Promise.resolve({ ...okRuns, layout: "epoch=1288834974657;bits=41/11/11;unit=1" }),
		);
		await expect(
			snowflakeIds(fake.env, configFrom(fake.env), { workerId: 1 }),
		).rejects.toMatchObject({
			code: "layout_mismatch",
		});
	});

	it("waits for an object of the previous version (no layout in its answer): 503 unavailable", async () => {
		const fake = envWithObject(() => Promise.resolve({ ok: true, runs: okRuns.runs }));
		await expect(
			snowflakeIds(fake.env, configFrom(fake.env), { workerId: 1 }),
		).rejects.toMatchObject({
			code: "unavailable",
			retryAfterSeconds: 1,
		});
	});

	it("tells RPC callers when to retry, in the message idRetryAfter reads", async () => {
		const fake = envWithObject(() => Promise.reject(runError({ overloaded: true })));
		const service = new IdService(createExecutionContext(), fake.env);
		const error = await service.snowflake({ workerId: 1 }).catch((thrown: unknown) => thrown);
		expect(error).toBeInstanceOf(Error);
		expect((error as Error).message).toMatch(/^overloaded: .+ \(retry after 1 s\)$/);
		expect(idErrorCode(error)).toBe("overloaded");
		expect(idRetryAfter(error)).toBe(1);
		const invalid = await service.snowflake({ count: 0 }).catch((thrown: unknown) => thrown);
		expect(idRetryAfter(invalid)).toBeUndefined();
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
		await expect(
			snowflakeIds(fake.env, configFrom(fake.env), { workerId: 1 }),
		).rejects.toMatchObject({
			code: "clock_regression",
			retryAfterSeconds: 3,
		});
	});
});
