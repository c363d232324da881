/**
 * The Python lease holder (examples/python-holder/edge_ids_leases.py) under stress,
 * run by python-holder-driver.py against a scripted stand-in for the service
 * (fake-lease-service.ts) on the real clock with spans of 1–1.5 s:
 *
 *     const { calls, requests } = await runHolder({ spanMs: 1500, renew: () => "hang" }, { mode: "issue", seconds: 2 });
 *
 * renewals a third of a span after each grant and never right after an acquire,
 * the lease ID only in bodies, hung renewals abandoned at a tenth of the span, a
 * stepped service clock, Retry-After, copies made by fork, malformed answers and
 * failing callbacks in the renewal thread, and calls waiting at a span's end.
 */
import { spawn, spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
	type FakeLeaseScript,
	type SeenRequest,
	startFakeLeaseService,
} from "./fake-lease-service";

const DRIVER = resolve(__dirname, "python-holder-driver.py");
const MODULE_DIR = resolve(__dirname, "../../examples/python-holder");

interface Call {
	t: number;
	ms: number;
	ids?: string[];
	code?: string;
	message?: string;
	retryAfter?: number | null;
}

interface Run {
	calls: Call[];
	stats: Record<string, number>;
	requests: SeenRequest[];
	leaseIds: string[];
}

if (spawnSync("python3", ["--version"]).status !== 0) {
	throw new Error(
		"npm test runs the example Python lease holder: install Python 3.8 or later (python3 on PATH)",
	);
}

/** Runs the driver in `config` against a fake service scripted by `script`; resolves when it exits. */
async function runHolder(script: FakeLeaseScript, config: Record<string, unknown>): Promise<Run> {
	const service = await startFakeLeaseService(script);
	try {
		// -W: Python 3.12+ warns about fork() in a process with threads, which the fork tests do on purpose
		const child = spawn("python3", [
			"-B",
			"-W",
			"ignore::DeprecationWarning",
			DRIVER,
			MODULE_DIR,
			JSON.stringify({ url: service.url, ...config }),
		]);
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
		const lines = out
			.trim()
			.split("\n")
			.map((line) => JSON.parse(line));
		const stats = lines.find((line) => line.stats)?.stats;
		expect(stats, "the driver's last line").toBeDefined();
		const calls = lines.filter((line) => !line.stats) as Call[];
		return { calls, stats, requests: [...service.requests], leaseIds: [...service.leaseIds] };
	} finally {
		await service.close();
	}
}

const routes = (run: Run, route: SeenRequest["route"]) =>
	run.requests.filter((request) => request.route === route);
const failed = (calls: Call[]) => calls.filter((call) => call.code !== undefined);

/** The times between consecutive `times`. */
const gaps = (times: number[]) => times.slice(1).map((time, i) => time - (times[i] ?? Number.NaN));

/** Every ID of every call, in call order (one thread), strictly increasing. */
function expectIncreasing(calls: Call[]) {
	const ids = calls.flatMap((call) => call.ids ?? []).map(BigInt);
	expect(ids.length).toBeGreaterThan(0);
	expect(ids).toEqual([...new Set(ids)].sort((a, b) => (a < b ? -1 : 1)));
}

describe("the Python holder's life on a 1.5 s span", { timeout: 10_000 }, () => {
	let life: Run;
	beforeAll(async () => {
		life = await runHolder({ spanMs: 1500 }, { mode: "issue", seconds: 1.25 });
	}, 10_000);

	it("renews a third of a span after each grant, never right after the acquire", async () => {
		const run = life;
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
	});

	it("sends the lease ID in JSON bodies only: POST …/renew and POST …/release", async () => {
		const run = life;
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
	});
});

// Concurrent: each run mostly sleeps, and the file stays within a few seconds.
describe.concurrent("the Python holder under stress", { timeout: 15_000 }, () => {
	it("abandons hung renewals at a tenth of the span and retries at once: three in a row cost no call", async () => {
		const run = await runHolder(
			{ spanMs: 1500, renew: (n) => (n < 3 ? "hang" : "grant") },
			{ mode: "issue", seconds: 1.7 },
		);
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
	});

	it("rides out an outage of two thirds of the span from just after a renewal", async () => {
		const spanMs = 1500;
		const outage = (n: number, seen: SeenRequest[]) => {
			const first = seen.find((request) => request.route === "renew");
			const now = seen.at(-1)?.t ?? 0;
			return n > 0 && first && now - first.t < (spanMs * 2) / 3 ? "hang" : "grant";
		};
		const run = await runHolder({ spanMs, renew: outage }, { mode: "issue", seconds: 2.1 });
		expect(failed(run.calls)).toEqual([]);
		expect(run.stats.renewals_failed).toBeGreaterThanOrEqual(3);
		expectIncreasing(run.calls);
	});

	it("re-anchors when the service's clock steps a span ahead and back, issuing again at its old last tick", async () => {
		// The second answer reads 2.5 spans ahead; every later one is on time again.
		const run = await runHolder(
			{ spanMs: 1000, renew: (n) => (n === 0 ? { stepMs: 2500 } : "grant") },
			{ mode: "issue", seconds: 4.4 },
		);
		expectIncreasing(run.calls);
		// Issuing again once the clock passed the ticks issued on the stepped reading (~3.2 s).
		const late = run.calls.filter((call) => call.t > 3600);
		expect(late.length).toBeGreaterThan(10);
		expect(failed(late)).toEqual([]);
		// Meanwhile calls waited for the clock (overloaded), and renewals kept their pace.
		expect(new Set(failed(run.calls).map((call) => call.code))).toEqual(new Set(["overloaded"]));
		expect(routes(run, "renew").length).toBeLessThanOrEqual(4.4 * 3 + 1);
	});

	it("waits a refused acquire's Retry-After: calls meanwhile fail at once and send nothing", async () => {
		const refusals: FakeLeaseScript["acquire"] = (n) =>
			n === 0
				? { status: 409, code: "no_free_worker_id", retryAfter: 1 }
				: n === 1
					? { status: 503, code: "unavailable", retryAfter: 1 }
					: "grant";
		const run = await runHolder(
			{ spanMs: 1500, acquire: refusals },
			// max_wait 2 s: a refusal must not wait it out
			{ mode: "issue", seconds: 2.4, interval: 0.05, maxWait: 2 },
		);
		const acquires = routes(run, "acquire").map((request) => request.t);
		expect(acquires).toHaveLength(3);
		for (const gap of gaps(acquires)) {
			expect(gap).toBeGreaterThanOrEqual(990);
			expect(gap).toBeLessThan(1400); // the first call after it, on a busy machine
		}
		const waiting = run.calls.filter((call) => call.code !== undefined);
		expect(waiting.length).toBeGreaterThan(20);
		for (const call of waiting) {
			expect(["no_free_worker_id", "unavailable"]).toContain(call.code);
			expect(call.retryAfter).toBeGreaterThan(0);
			expect(call.retryAfter).toBeLessThanOrEqual(1);
			expect(call.ms).toBeLessThan(500);
		}
		expect(waiting.some((call) => /in 0\.\d s/.test(call.message ?? ""))).toBe(true);
		expect(run.calls.at(-1)?.ids).toHaveLength(1);
	});

	it.each(["os", "libc"])(
		"a copy made by %s fork never renews nor releases the original's lease; it acquires its own",
		async (fork) => {
			const run = await runHolder(
				{ spanMs: 1500 },
				// max_wait 2 s: the copy's span starts where the original's ends, up to a span ahead
				{ mode: "fork", fork, seconds: 0.6, issue: true, maxWait: 2 },
			);
			const [original, own] = run.leaseIds;
			expect(run.leaseIds).toHaveLength(2);
			expect(run.requests.filter((request) => request.leaseId === original)).toEqual([]);
			expect(routes(run, "release").map((request) => request.leaseId)).toEqual([own]);
			expect(run.calls).toHaveLength(1);
			expect(run.calls[0]?.ids).toHaveLength(1);
		},
	);

	it("survives an empty 200 and a callback's exception in its renewal thread, each a failed renewal", async () => {
		const run = await runHolder(
			{ spanMs: 1500, renew: (n) => (n === 0 ? "empty" : "grant") },
			{ mode: "issue", seconds: 2, grantRaisesOnce: "RuntimeError" },
		);
		expect(failed(run.calls)).toEqual([]);
		expect(run.stats.renewals_failed).toBe(2);
		expect(routes(run, "renew").length).toBeGreaterThanOrEqual(4);
		expectIncreasing(run.calls);
	});

	it("runs its renewal thread again at the span's end if it ended anyway (SystemExit)", async () => {
		const run = await runHolder(
			{ spanMs: 1500 },
			{ mode: "issue", seconds: 2.6, grantRaisesOnce: "SystemExit", maxWait: 0.3 },
		);
		expect(failed(run.calls)).toEqual([]);
		// the first renewal's callback ended the thread; the next renewal comes at the span's end
		const [, second] = gaps(
			[...routes(run, "acquire"), ...routes(run, "renew")].map((request) => request.t),
		);
		expect(second).toBeGreaterThan(900);
		expect(routes(run, "renew").length).toBeGreaterThanOrEqual(3);
		expectIncreasing(run.calls);
	});

	it("settles every call waiting at the span's end within max_wait, with lease_expired", async () => {
		const run = await runHolder(
			{ spanMs: 1000, renew: () => "hang" },
			{ mode: "issue", seconds: 1.6, threads: 4, maxWait: 0.2 },
		);
		const waited = failed(run.calls);
		expect(waited.length).toBeGreaterThanOrEqual(8);
		for (const call of waited) {
			expect(call.code).toBe("lease_expired");
			expect(call.ms).toBeLessThan(200 + 100); // max_wait plus scheduling slack
		}
	});
});
