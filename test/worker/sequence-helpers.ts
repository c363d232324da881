/**
 * Helpers of the named-sequence tests: a unique name per test, the operations as the
 * transports will load them (the first-use chunk), a sequence created with settings,
 * a sequence's object, its clock set to a minute's start, what an operation refused,
 * and what an unused one shows.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { IdError } from "../../src/ids/errors";
import { checkSequenceSettings } from "../../src/ids/sequences";
import type { SequenceSettingsView } from "../../src/wire";
import { configFrom, parseConfig } from "../../src/worker/config/config";
import type { SequenceObject } from "../../src/worker/object/sequence-object";
import { sequenceOperations } from "../../src/worker/on-first-use";
import { SequencePools } from "../../src/worker/operations/sequence-pools";
import { FrozenClock } from "../shared/fake-clock";

let made = 0;

/** A name no other test uses (storage may outlive a test). */
export function sequenceName(label: string): string {
	made++;
	return `${label}-${made}-${crypto.randomUUID().slice(0, 8)}`;
}

/** What a sequence shows before it issues: its settings as answered, `next` its start, nothing issued. */
export function unusedStatus(name: string, settings: SequenceSettingsView) {
	const { start } = settings;
	return {
		type: "sequence-status",
		name,
		settings,
		next: start,
		issued: "0",
		requests: 0,
	} as const;
}

/** The operations from the first-use chunk, and the test env's config. */
export async function operations() {
	return { ops: await sequenceOperations(), config: configFrom(env) };
}

/** A new sequence with `settings` (as a caller sends them), by its unique name. */
export async function createdSequence(label: string, settings: unknown = {}): Promise<string> {
	const name = sequenceName(label);
	const { ops } = await operations();
	const { created } = await ops.createSequence(env, {
		name,
		settings: checkSequenceSettings(settings),
	});
	expect(created).toBe(true);
	return name;
}

export function sequenceStub(name: string) {
	return env.SEQUENCES.get(env.SEQUENCES.idFromName(name));
}

/**
 * Sets the object of `name` (made or not) on a frozen clock at the start of the
 * current minute: its report alarm is then a whole minute away, so it runs only when
 * the test says (runDurableObjectAlarm), however close to a minute's end the test runs.
 */
export async function atMinuteStart(name: string): Promise<FrozenClock> {
	const now = Date.now(); // read once: two readings may straddle a millisecond
	const clock = new FrozenClock(now - (now % 60_000));
	await runInDurableObject(sequenceStub(name), (instance: SequenceObject) => {
		instance.clock = clock;
	});
	return clock;
}

/** The service error `work` rejected with (its code and message); fails if it resolved. */
export async function refusal(work: Promise<unknown>): Promise<{ code: string; message: string }> {
	try {
		await work;
	} catch (error) {
		if (error instanceof IdError) return { code: error.code, message: error.detail };
		throw error;
	}
	throw new Error("expected a refusal, got an answer");
}

/** Whether each answer's numbers are consecutive from `first`. */
export function expectConsecutive(answer: { first: string; count: number; numbers: string[] }) {
	const first = BigInt(answer.first);
	expect(answer.numbers).toEqual(
		Array.from({ length: answer.count }, (_, i) => `${first + BigInt(i)}`),
	);
}

/**
 * Resets the sequence's object from inside it, as an eviction, crash or deploy does,
 * while calls wait or run in it (vitest.config.ts drops workerd's report of this reason).
 */
export async function abortSequenceObject(name: string): Promise<void> {
	await runInDurableObject(sequenceStub(name), (_instance, state) => {
		state.abort("deliberate test reset (expected)");
	}).catch(() => undefined); // abort throws in the aborting call; the instance is gone either way
}

/**
 * The real env with a fleet catalog every method of which fails: unreachable (the
 * platform's error), or thrown by its own code (marked `remote`, as the platform does).
 */
export function unreachableCatalogEnv(how: "unreachable" | "throws" = "unreachable"): Env {
	const failure = () => {
		const error = new Error(`catalog ${how} (test)`);
		if (how === "throws") Object.assign(error, { remote: true });
		return Promise.reject(error);
	};
	const CATALOG = {
		idFromName: (name: string) => env.CATALOG.idFromName(name),
		get: () => new Proxy({}, { get: () => failure }),
	};
	return { ...env, CATALOG: CATALOG as unknown as Env["CATALOG"] };
}

/** One isolate's view: its config (with `vars`) and pooled buffers of its own. */
export function isolate(vars: Record<string, string> = {}) {
	return { config: parseConfig({ ...env, ...vars }), pools: new SequencePools() };
}
export type Isolate = ReturnType<typeof isolate>;
