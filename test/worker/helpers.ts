import { abortAllDurableObjects, runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { inject, vi } from "vitest";
import type { SnowflakeWorker } from "../../src/worker/object/snowflake-worker";
import { FrozenClock } from "../shared/fake-clock";
import { envWith, fetchApp, jsonAnswer } from "../shared/fetch-app";

/** A request to the Worker under test, as a client would send it. */
export function call(path: string, init?: RequestInit): Promise<Response> {
	return exports.default.fetch(new Request(`https://ids.test${path}`, init));
}

export async function callJson<T = Record<string, unknown>>(
	path: string,
	init?: RequestInit,
): Promise<{ status: number; body: T; headers: Headers }> {
	return jsonAnswer<T>(await call(path, init));
}

export function snowflakeStub(workerId: number) {
	return env.SNOWFLAKE.get(env.SNOWFLAKE.idFromName(String(workerId)));
}

/**
 * The shared FrozenClock (time moves only by what `sleep` waits, or what a test
 * sets) whose `sleep` also yields to the event loop for real, so other requests
 * interleave as they do in a Durable Object awaiting a timer.
 */
export class YieldingClock extends FrozenClock {
	override async sleep(ms: number): Promise<void> {
		await scheduler.wait(Math.min(ms, 5));
		await super.sleep(ms);
	}
}

/** Gives the worker ID's object a test clock (a new one at `time`, or the one given). */
export async function useTestClock(
	workerId: number,
	time: number | YieldingClock,
): Promise<YieldingClock> {
	const clock = typeof time === "number" ? new YieldingClock(time) : time;
	await runInDurableObject(snowflakeStub(workerId), (instance: SnowflakeWorker) => {
		instance.clock = clock;
	});
	return clock;
}

/** Sets the object's minute clock (its history's minutes; the generator keeps its own clock). */
export async function setMinuteClock(workerId: number, at: number): Promise<void> {
	await runInDurableObject(snowflakeStub(workerId), (instance: SnowflakeWorker) => {
		instance.minuteClock = () => at;
	});
}

/**
 * Makes the fleet catalog unreachable from the object of `stub` (a worker ID's or a
 * sequence's) until `mend()`, or until the instance ends.
 */
export async function breakCatalog(stub: DurableObjectStub) {
	let saved: Env | undefined;
	await runInDurableObject(stub, (instance: DurableObject) => {
		const own = instance as unknown as { env: Env };
		saved = own.env;
		const broken = {
			idFromName: () => {
				throw new Error("catalog unreachable (test)");
			},
		};
		own.env = { ...own.env, CATALOG: broken as unknown as Env["CATALOG"] };
	});
	return {
		mend: () =>
			runInDurableObject(stub, (instance: DurableObject) => {
				(instance as unknown as { env: Env }).env = saved as Env;
			}),
	};
}

/**
 * Records every write the object's storage is asked for from now on (the live
 * instance's own storage, patched): keys put or deleted, SQL that is no read, alarms.
 */
export function recordWrites(stub: DurableObjectStub, into: string[]) {
	return runInDurableObject(stub, (_instance: DurableObject, state) => {
		const { storage } = state;
		const patch = <T extends object>(target: T, method: string) => {
			const own = target as Record<string, (...args: unknown[]) => unknown>;
			const original = own[method]?.bind(target) as (...args: unknown[]) => unknown;
			own[method] = (...args: unknown[]) => {
				const [first] = args;
				if (method !== "exec" || !/^\s*(SELECT|PRAGMA)/i.test(String(first))) {
					into.push(`${method} ${String(first).slice(0, 60)}`);
				}
				return original(...args);
			};
		};
		patch(storage.kv, "put");
		patch(storage.kv, "delete");
		patch(storage.sql, "exec");
		patch(storage, "put");
		patch(storage, "delete");
		patch(storage, "setAlarm");
		patch(storage, "deleteAlarm");
	});
}

/** The 200 answers' IDs in the order the object issued them (it serves one call at a time). */
export function issueOrder(answers: { status: number; body: { ids: string[] } }[]): string[] {
	return answers
		.filter((a) => a.status === 200)
		.map((a) => a.body.ids)
		.sort((a, b) => (BigInt(a[0] as string) < BigInt(b[0] as string) ? -1 : 1))
		.flat();
}

/**
 * Ends the object's current instance, as an eviction, crash or redeploy would:
 * the pool's `abortAllDurableObjects` (every object of this test file's runtime;
 * storage is kept), after a call that makes sure this one is running.
 */
export async function restart(workerId: number) {
	await snowflakeStub(workerId).stats(workerId); // make sure it is running
	await abortAllDurableObjects();
}

/** workerd prints the reset it reports; vitest.config.ts drops lines with this reason. */
const DELIBERATE_RESET = "deliberate test reset (expected)";

/**
 * Resets one object from inside it, as the platform does on an eviction or deploy,
 * also while a request waits inside it (`abortAllDurableObjects` waits for those).
 */
export async function abortObject(workerId: number) {
	await runInDurableObject(snowflakeStub(workerId), (_instance, state) => {
		state.abort(DELIBERATE_RESET);
	}).catch(() => undefined); // abort throws in the aborting call; the instance is gone either way
}

declare module "vitest" {
	export interface ProvidedContext {
		/** Set by `TEST_STATS=1 npm test` (see vitest.config.ts). */
		printTestStats: boolean;
	}
}

/** Prints a test file's statistics (faults injected, inputs sent) only when asked: `TEST_STATS=1 npm test`. */
export function printTestStats(line: string): void {
	if (inject("printTestStats")) console.log(line);
}

/**
 * Runs `body` with `console.error` captured instead of printed, for tests that
 * provoke an error the service logs on purpose; returns what was logged, for the
 * test to assert.
 */
export async function captureErrorLog<T>(body: () => T | Promise<T>): Promise<[T, unknown[][]]> {
	const spy = vi.spyOn(console, "error").mockImplementation(() => {});
	try {
		const result = await body();
		return [result, spy.mock.calls.slice()];
	} finally {
		spy.mockRestore();
	}
}

/** The SNOWFLAKE_* vars of a layout: bits of time, worker ID and sequence, and the tick in ms. */
export function layoutVars(bits: {
	time?: number;
	worker?: number;
	sequence?: number;
	unitMs?: number;
}) {
	const vars: Record<string, string> = {};
	if (bits.time !== undefined) vars.SNOWFLAKE_TIME_BITS = String(bits.time);
	if (bits.worker !== undefined) vars.SNOWFLAKE_WORKER_BITS = String(bits.worker);
	if (bits.sequence !== undefined) vars.SNOWFLAKE_SEQUENCE_BITS = String(bits.sequence);
	if (bits.unitMs !== undefined) vars.SNOWFLAKE_TIME_UNIT_MS = String(bits.unitMs);
	return vars;
}

/**
 * The app under other vars (a new env, so its own parsed config and pools): a GET
 * that answers status and JSON body. Its objects still run the test config's vars.
 */
export function appWith(vars: Record<string, string>) {
	const own = envWith(vars);
	return async (path: string) => {
		const { status, body } = await jsonAnswer<Record<string, unknown>>(
			await fetchApp(path, undefined, own),
		);
		return { status, body };
	};
}
