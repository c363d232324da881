/**
 * What the lease-holder process tests share (python-holder.test.ts, java-holder.test.ts):
 * a holder driver run as a process against the scripted stand-in for the service
 * (fake-lease-service.ts), its calls and requests read back, and the checks each
 * scenario makes, so that every holder language is held to the same ones:
 *
 *     const run = await runHolderProcess(script, "java", [...flags, JSON.stringify(config)], url => …);
 *     expectHungRenewalsAbandoned(run);
 */
import { spawn } from "node:child_process";
import { expect } from "vitest";
import {
	type FakeLeaseScript,
	type SeenRequest,
	startFakeLeaseService,
} from "./fake-lease-service";

/** One call a driver made: when (ms since its start), how long it took, its IDs or refusal. */
export interface Call {
	t: number;
	ms: number;
	ids?: string[];
	code?: string;
	message?: string;
	retryAfter?: number | null;
}

export interface Run {
	calls: Call[];
	stats: Record<string, number>;
	requests: SeenRequest[];
	leaseIds: string[];
}

/**
 * Runs `command` with the arguments `args(url)` against a fake service scripted by
 * `script`; resolves when it exits (silently, with status 0, its last line `{"stats": …}`).
 */
export async function runHolderProcess(
	script: FakeLeaseScript,
	command: string,
	args: (url: string) => string[],
): Promise<Run> {
	const service = await startFakeLeaseService(script);
	try {
		const lines = await driverLines<{ stats?: Run["stats"] }>(command, args(service.url));
		const stats = lines.find((line) => line.stats)?.stats;
		expect(stats, "the driver's last line").toBeDefined();
		const calls = lines.filter((line) => !line.stats) as Call[];
		return {
			calls,
			stats: stats ?? {},
			requests: [...service.requests],
			leaseIds: [...service.leaseIds],
		};
	} finally {
		await service.close();
	}
}

/**
 * Runs a driver process to its end (not spawnSync: a scripted service may answer from
 * this very event loop); it must exit silently with status 0. Its stdout's JSON lines.
 */
export async function driverLines<T = Record<string, unknown>>(
	command: string,
	args: string[],
): Promise<T[]> {
	const child = spawn(command, args);
	let out = "";
	let err = "";
	child.stdout.on("data", (chunk) => {
		out += chunk;
	});
	child.stderr.on("data", (chunk) => {
		err += chunk;
	});
	const status = await new Promise<number | null>((done) => child.on("close", done));
	expect(err, "the driver's stderr").toBe("");
	expect(status).toBe(0);
	return out
		.trim()
		.split("\n")
		.map((line) => JSON.parse(line) as T);
}

export const routes = (run: Run, route: SeenRequest["route"]) =>
	run.requests.filter((request) => request.route === route);
export const failed = (calls: Call[]) => calls.filter((call) => call.code !== undefined);

/** The times between consecutive `times`. */
export const gaps = (times: number[]) =>
	times.slice(1).map((time, i) => time - (times[i] ?? Number.NaN));

/** Every ID of every call, in call order (one thread), strictly increasing. */
export function expectIncreasing(calls: Call[]) {
	const ids = calls.flatMap((call) => call.ids ?? []).map(BigInt);
	expect(ids.length).toBeGreaterThan(0);
	expect(ids).toEqual([...new Set(ids)].sort((a, b) => (a < b ? -1 : 1)));
}

/** 1.25 s on a 1.5 s span: two renewals a third of a span apart, none right after the acquire. */
export function expectRenewalPace(run: Run) {
	const [acquire, ...more] = routes(run, "acquire");
	expect(more).toEqual([]);
	const [first, second] = gaps(
		[acquire, ...routes(run, "renew")].map((request) => request?.t ?? 0),
	);
	expect(routes(run, "renew")).toHaveLength(2);
	expect(first).toBeGreaterThan(450);
	expect(first).toBeLessThan(750);
	expect(second).toBeGreaterThan(450);
	expect(failed(run.calls)).toEqual([]);
	expectIncreasing(run.calls);
}

/** The lease ID in JSON bodies only: POST …/renew twice, then POST …/release. */
export function expectLeaseIdInBodiesOnly(run: Run) {
	const [leaseId] = run.leaseIds;
	const sent = run.requests.map(({ method, url, body }) => ({
		method,
		url,
		body: JSON.parse(body),
	}));
	const named = { method: "POST", body: { leaseId } };
	expect(sent).toEqual([
		{ method: "POST", url: "/leases", body: { holder: "driver" } },
		{ ...named, url: "/leases/900/renew" },
		{ ...named, url: "/leases/900/renew" },
		{ ...named, url: "/leases/900/release" },
	]);
	for (const request of run.requests) expect(request.url).not.toContain(leaseId);
}

/** Three hung renewals (a 1.5 s span): each given up at its deadline, the next at once, no call failed. */
export function expectHungRenewalsAbandoned(run: Run) {
	expect(failed(run.calls)).toEqual([]);
	const starts = routes(run, "renew").map((request) => request.t);
	expect(starts.length).toBeGreaterThanOrEqual(5);
	// each hung attempt ends at its deadline (150 ms) and the next starts at once
	for (const gap of gaps(starts).slice(0, 3)) {
		expect(gap).toBeGreaterThan(100);
		expect(gap).toBeLessThan(300);
	}
	expect(run.stats.renewals_failed).toBe(3);
	expectIncreasing(run.calls);
}

/** The answer to the `n`th renewal: hung for two thirds of a span from the first renewal on. */
export function outageOfTwoThirds(spanMs: number) {
	return (n: number, seen: SeenRequest[]) => {
		const first = seen.find((request) => request.route === "renew");
		const now = seen.at(-1)?.t ?? 0;
		return n > 0 && first && now - first.t < (spanMs * 2) / 3 ? "hang" : "grant";
	};
}

/** 4.4 s after a renewal read 2.5 spans ahead: late calls issue again, earlier ones met `overloaded`. */
export function expectReanchored(run: Run, extraRenewals: number) {
	expectIncreasing(run.calls);
	// Issuing again once the clock passed the ticks issued on the stepped reading (~3.2 s).
	const late = run.calls.filter((call) => call.t > 3600);
	expect(late.length).toBeGreaterThan(10);
	expect(failed(late)).toEqual([]);
	// Meanwhile calls waited for the clock (overloaded), and renewals kept their pace.
	expect(new Set(failed(run.calls).map((call) => call.code))).toEqual(new Set(["overloaded"]));
	expect(routes(run, "renew").length).toBeLessThanOrEqual(4.4 * 3 + extraRenewals);
}

/** An acquire refused twice with Retry-After 1, then granted. */
export const refusedTwice: FakeLeaseScript["acquire"] = (n) =>
	n === 0
		? { status: 409, code: "no_free_worker_id", retryAfter: 1 }
		: n === 1
			? { status: 503, code: "unavailable", retryAfter: 1 }
			: "grant";

/** The acquires a Retry-After apart; the `waiting` calls meanwhile failed at once, naming the seconds left. */
export function expectRetryAfterKept(run: Run, waiting: Call[]) {
	const acquires = routes(run, "acquire").map((request) => request.t);
	expect(acquires).toHaveLength(3);
	for (const gap of gaps(acquires)) {
		expect(gap).toBeGreaterThanOrEqual(990);
		expect(gap).toBeLessThan(1400); // the first call after it, on a busy machine
	}
	expect(waiting.length).toBeGreaterThan(20);
	for (const call of waiting) {
		expect(["no_free_worker_id", "unavailable"]).toContain(call.code);
		expect(call.retryAfter).toBeGreaterThan(0);
		expect(call.retryAfter).toBeLessThanOrEqual(1);
		expect(call.ms).toBeLessThan(500);
	}
	expect(waiting.some((call) => /in 0\.\d s/.test(call.message ?? ""))).toBe(true);
	expect(run.calls.at(-1)?.ids).toHaveLength(1);
}

/**
 * Four threads at a span's end with hung renewals: every call settled within the wait
 * (200 ms) plus `slackMs` of scheduling, with lease_expired.
 */
export function expectExpiredWithinWait(run: Run, slackMs = 100) {
	const waited = failed(run.calls);
	expect(waited.length).toBeGreaterThanOrEqual(8);
	for (const call of waited) {
		expect(call.code).toBe("lease_expired");
		expect(call.ms).toBeLessThan(200 + slackMs);
	}
}
