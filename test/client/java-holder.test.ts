/**
 * The Java client's leased generator (examples/java, dev.edgeids.LeasedSnowflakeGenerator)
 * under the same stress as the Python holder (python-holder.test.ts), run by
 * dev.edgeids.HolderDriver (the Java test tree) against the scripted stand-in for
 * the service (fake-lease-service.ts) on the real clock with spans of 1–1.5 s:
 * renewals a third of a span after each grant, the lease ID only in bodies, hung
 * renewals abandoned at a tenth of the span, a stepped service clock, Retry-After,
 * malformed answers and a failing listener on the renewal thread, calls waiting at
 * a span's end, and no thread left after close(). A JVM does not fork: the Python
 * holder's fork cases have no Java counterpart.
 *
 * Compiled by scripts/lib/java-build.ts (cached by source hash); without javac 17+
 * the file skips, saying why.
 */
import { spawn } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { buildJava, JAVA_FLAGS, javaMissing } from "../../scripts/lib/java-build";
import {
	type FakeLeaseScript,
	type SeenRequest,
	startFakeLeaseService,
} from "./fake-lease-service";

interface Call {
	t: number;
	ms: number;
	ids?: string[];
	code?: string;
	message?: string;
	retryAfter?: number;
}

interface Run {
	calls: Call[];
	stats: Record<string, number>;
	requests: SeenRequest[];
	leaseIds: string[];
}

const missing = javaMissing();
let classes = "";

/** Runs the driver in `config` against a fake service scripted by `script`; resolves when it exits. */
async function runHolder(script: FakeLeaseScript, config: Record<string, unknown>): Promise<Run> {
	const service = await startFakeLeaseService(script);
	try {
		const args = ["-cp", classes, "dev.edgeids.HolderDriver"];
		const child = spawn("java", [
			...JAVA_FLAGS,
			...args,
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
const gaps = (times: number[]) => times.slice(1).map((time, i) => time - (times[i] ?? Number.NaN));

/** Every ID of every call, in call order (one thread), strictly increasing. */
function expectIncreasing(calls: Call[]) {
	const ids = calls.flatMap((call) => call.ids ?? []).map(BigInt);
	expect(ids.length).toBeGreaterThan(0);
	expect(ids).toEqual([...new Set(ids)].sort((a, b) => (a < b ? -1 : 1)));
}

describe.skipIf(missing)("the Java holder's life on a 1.5 s span", { timeout: 20_000 }, () => {
	let life: Run;
	beforeAll(async () => {
		classes = buildJava();
		life = await runHolder({ spanMs: 1500 }, { seconds: 1.25 });
	}, 60_000);

	it("renews a third of a span after each grant, never right after the acquire", () => {
		const [acquire, ...more] = routes(life, "acquire");
		expect(more).toEqual([]);
		const renewals = routes(life, "renew");
		const [first, second] = gaps([acquire, ...renewals].map((request) => request?.t ?? 0));
		expect(renewals).toHaveLength(2);
		expect(first).toBeGreaterThan(450);
		expect(first).toBeLessThan(750);
		expect(second).toBeGreaterThan(450);
		expect(failed(life.calls)).toEqual([]);
		expectIncreasing(life.calls);
	});

	it("sends the lease ID in JSON bodies only, and leaves no thread behind after close()", () => {
		const [leaseId] = life.leaseIds;
		const sent = life.requests.map(({ method, url, body }) => ({
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
		for (const request of life.requests) expect(request.url).not.toContain(leaseId);
		expect(life.stats.threads).toBe(0);
		expect(life.stats.releases).toBe(1);
	});
});

describe.skipIf(missing).concurrent("the Java holder under stress", { timeout: 30_000 }, () => {
	beforeAll(() => {
		classes = buildJava();
	}, 60_000);

	it("abandons hung renewals at a tenth of the span and retries at once: three in a row cost no call", async () => {
		const run = await runHolder(
			{ spanMs: 1500, renew: (n) => (n < 3 ? "hang" : "grant") },
			{ seconds: 1.7 },
		);
		expect(failed(run.calls)).toEqual([]);
		const starts = routes(run, "renew").map((request) => request.t);
		expect(starts.length).toBeGreaterThanOrEqual(5);
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
		const run = await runHolder({ spanMs, renew: outage }, { seconds: 2.1 });
		expect(failed(run.calls)).toEqual([]);
		expect(run.stats.renewals_failed).toBeGreaterThanOrEqual(3);
		expectIncreasing(run.calls);
	});

	it("re-anchors when the service's clock steps a span ahead and back, issuing again at its old last tick", async () => {
		const run = await runHolder(
			{ spanMs: 1000, renew: (n) => (n === 0 ? { stepMs: 2500 } : "grant") },
			{ seconds: 4.4 },
		);
		expectIncreasing(run.calls);
		const late = run.calls.filter((call) => call.t > 3600);
		expect(late.length).toBeGreaterThan(10);
		expect(failed(late)).toEqual([]);
		expect(new Set(failed(run.calls).map((call) => call.code))).toEqual(new Set(["overloaded"]));
		expect(routes(run, "renew").length).toBeLessThanOrEqual(4.4 * 3 + 2);
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
			{ seconds: 2.4, interval: 0.05, maxWait: 2 },
		);
		const acquires = routes(run, "acquire").map((request) => request.t);
		expect(acquires).toHaveLength(3);
		for (const gap of gaps(acquires)) {
			expect(gap).toBeGreaterThanOrEqual(990);
			expect(gap).toBeLessThan(1400);
		}
		// The first call sent the first acquire (and started the JVM's HTTP client); the others sent nothing.
		const waiting = failed(run.calls.slice(1));
		expect(run.calls[0]?.code).toBe("no_free_worker_id");
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

	it("survives an empty 200 and a listener's exception on its renewal thread, each a failed renewal", async () => {
		const run = await runHolder(
			{ spanMs: 1500, renew: (n) => (n === 0 ? "empty" : "grant") },
			{ seconds: 2, grantThrowsOnce: true },
		);
		expect(failed(run.calls)).toEqual([]);
		expect(run.stats.renewals_failed).toBe(2);
		expect(routes(run, "renew").length).toBeGreaterThanOrEqual(4);
		expectIncreasing(run.calls);
	});

	it("settles every call waiting at the span's end within maxWait, with lease_expired", async () => {
		const run = await runHolder(
			{ spanMs: 1000, renew: () => "hang" },
			{ seconds: 1.6, threads: 4, maxWait: 0.2 },
		);
		const waited = failed(run.calls);
		expect(waited.length).toBeGreaterThanOrEqual(8);
		for (const call of waited) {
			expect(call.code).toBe("lease_expired");
			expect(call.ms).toBeLessThan(200 + 100);
		}
		expect(run.stats.threads).toBe(0);
	});
});

if (missing) describe.skip(missing, () => it("runs the Java holder", () => {}));
