import { runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import type { SnowflakeWorker } from "../../src/worker/snowflake-do";
import { FrozenClock } from "../core/fake-clock";

/** A request to the Worker under test, as a client would send it. */
export function call(path: string, init?: RequestInit): Promise<Response> {
	return exports.default.fetch(new Request(`https://ids.test${path}`, init));
}

export async function callJson<T = Record<string, unknown>>(
	path: string,
	init?: RequestInit,
): Promise<{ status: number; body: T; headers: Headers }> {
	const response = await call(path, init);
	return { status: response.status, body: (await response.json()) as T, headers: response.headers };
}

export function snowflakeStub(workerId: number) {
	return env.SNOWFLAKE.get(env.SNOWFLAKE.idFromName(String(workerId)));
}

/**
 * A clock the test sets by hand. `sleep` yields to the event loop for real (so
 * other requests interleave, as they do in a Durable Object awaiting a timer)
 * and then moves the fake time forward by what was asked.
 */
export class TestClock extends FrozenClock {
	override async sleep(ms: number): Promise<void> {
		await scheduler.wait(Math.min(ms, 5));
		await super.sleep(ms);
	}
}

/** Gives the worker ID's object a test clock (a new one at `time`, or the one given). */
export async function useTestClock(workerId: number, time: number | TestClock): Promise<TestClock> {
	const clock = typeof time === "number" ? new TestClock(time) : time;
	await runInDurableObject(snowflakeStub(workerId), (instance: SnowflakeWorker) => {
		instance.clock = clock;
	});
	return clock;
}

export function expectIncreasing(ids: string[]): boolean {
	for (let i = 1; i < ids.length; i++) {
		if (BigInt(ids[i] as string) <= BigInt(ids[i - 1] as string)) return false;
	}
	return true;
}

/** The 200 answers' IDs in the order the object issued them (it serves one call at a time). */
export function issueOrder(answers: { status: number; body: { ids: string[] } }[]): string[] {
	return answers
		.filter((a) => a.status === 200)
		.map((a) => a.body.ids)
		.sort((a, b) => (BigInt(a[0] as string) < BigInt(b[0] as string) ? -1 : 1))
		.flat();
}

/** Ends the object's current instance, as an eviction, crash or redeploy would. */
export async function restart(workerId: number) {
	await runInDurableObject(snowflakeStub(workerId), (_instance, state) => {
		try {
			state.abort("test restart");
		} catch {
			// abort throws in the aborting call; the instance is gone either way
		}
	}).catch(() => undefined);
}
