/**
 * One leased generator in process against its layout's ceiling: `await gen.next(1)`
 * in a loop, as bench:ceiling measures the bare generator, on a worker ID leased
 * from the service (its bundle in Miniflare, LEASE_WORKER_IDS set, the default
 * 30 s span). The limit is 4,096 IDs per ms (4.096 M IDs/s, Twitter layout).
 * Rounds alternate between the bare generator (bench:ceiling's loop, the baseline
 * of this run), the leased generator, and the leased one without its pid check,
 * so a busy machine weighs on all three alike. Every ID is checked to be above the
 * one before it.
 *
 * Then the CPU cost of one ID on a clock that never makes a call wait (the fast
 * path alone: what the pid check adds), and the renewal traffic the holder sent
 * while the rounds ran (requests per minute; each renewal is one object request
 * and one storage write).
 *
 *   npm run bench:leased                   5 rounds of 2 s per variant
 *   npm run bench:leased -- --rounds 7 --seconds 3
 *   npm run bench:leased -- --url http://127.0.0.1:8787   a running service instead
 */
import { availableParallelism, loadavg } from "node:os";
import { createLeasedGenerator, idsClient } from "../../src/client/index";
import { LeaseHolder, systemClock } from "../../src/ids/index";
import {
	bareGenerator,
	LAYOUT as layout,
	type Round,
	round,
	roundOptions,
	summary,
} from "../lib/ceiling-rounds";
import { startBundledService } from "../lib/miniflare-service";

const { rounds, seconds } = roundOptions();

const urlAt = process.argv.indexOf("--url");
// A running service lending worker IDs (`--url`), else the bundle in Miniflare.
const service =
	urlAt >= 0
		? { url: process.argv[urlAt + 1] ?? "", stop: async () => {} }
		: await startBundledService({ LEASE_WORKER_IDS: "900-903", REQUEST_LOG: "off" });
let renewals = 0;
const client = idsClient({ baseUrl: service.url });
const counted = {
	acquireLease: client.acquireLease,
	releaseLease: client.releaseLease,
	renewLease: (lease: Parameters<typeof client.renewLease>[0]) => {
		renewals++;
		return client.renewLease(lease);
	},
};
const benchStarted = performance.now();
try {
	const bare = bareGenerator();
	const leased = await createLeasedGenerator({ source: counted, holder: "bench:leased" });
	// The same holder as createLeasedGenerator's, without a process ID to compare.
	const unchecked = new LeaseHolder({
		source: client,
		holder: "bench:leased (no pid check)",
		monotonic: () => performance.now(),
		sleep: (ms) => systemClock.sleep(ms),
		background: (callback, ms) => {
			const timer = setTimeout(callback, ms);
			timer.unref();
			return () => clearTimeout(timer);
		},
	});
	await unchecked.start();
	const variants = [
		{ name: "bare generator (bench:ceiling)", next: () => bare.next(1), results: [] as Round[] },
		{ name: "leased generator", next: () => leased.next(1), results: [] as Round[] },
		{ name: "leased, no pid check", next: () => unchecked.next(1), results: [] as Round[] },
	];

	console.log(
		`await next(1), Twitter layout, one worker ID each: node ${process.version}, ${availableParallelism()} cores, ${rounds} rounds of ${seconds} s per variant, load average ${loadavg()[0]?.toFixed(2)}`,
	);
	for (const variant of variants) await round(variant.next, seconds); // warm-up, not counted
	for (let i = 0; i < rounds; i++) {
		for (const variant of variants) variant.results.push(await round(variant.next, seconds));
	}
	let repeats = 0;
	for (const { name, results } of variants) {
		const summed = summary(results);
		repeats += summed.repeats;
		console.log(`  ${name.padEnd(32)} ${summed.text}`);
	}
	console.log(`  repeated or out of order: ${repeats}`);

	const fastPath = await fastPathCost(rounds);
	console.log(
		`fast path, CPU per ID on a clock that never waits (median of ${rounds} × 2 M calls): bare ${fastPath.bare.toFixed(1)} ns, leased ${fastPath.leased.toFixed(1)} ns, leased without pid check ${fastPath.unchecked.toFixed(1)} ns: the pid check costs ${(fastPath.leased - fastPath.unchecked).toFixed(1)} ns per ID`,
	);

	const minutes = (performance.now() - benchStarted) / 60_000;
	const stats = leased.stats();
	console.log(
		`renewal traffic of the leased generator over ${minutes.toFixed(1)} min (30 s span): ${renewals} renewals, ${(renewals / minutes).toFixed(1)} requests/min, as many storage writes/min; ${stats.acquires} acquire, ${stats.renewalsFailed} failed renewals`,
	);
	await leased.close();
	await unchecked.close();
	if (repeats > 0) process.exitCode = 1;
} finally {
	await service.stop();
}
console.log(`load average ${loadavg()[0]?.toFixed(2)}`);

/**
 * ns of CPU per `next(1)` where no call ever waits: a clock that moves one tick
 * every 4,096 readings. Variants alternate; each number is a median.
 */
async function fastPathCost(times: number) {
	let readings = 0;
	const start = Date.now();
	const reading = () => start + Math.floor(readings++ / 4_096);
	const source = {
		acquireLease: async () => {
			const now = reading();
			const from = layout.tickOf(now);
			return {
				workerId: 5,
				leaseId: "fast",
				from,
				to: from + 2 ** 30,
				serverNowMs: now,
				layout: layout.toJSON(),
			};
		},
		renewLease: async () => Promise.reject(new Error("not renewed here")),
		releaseLease: async () => {},
	};
	const host = (processId: (() => unknown) | undefined) =>
		new LeaseHolder({
			source,
			monotonic: () => reading() - start,
			sleep: async () => {},
			background: () => () => {},
			processId,
		});
	const leased = host(() => process.pid);
	const unchecked = host(undefined);
	await leased.start();
	await unchecked.start();
	const bare = bareGenerator({ now: reading, sleep: async () => {} }, 2 ** 30);
	const variants = {
		bare: () => bare.next(1),
		leased: () => leased.next(1),
		unchecked: () => unchecked.next(1),
	};
	const costs = { bare: [] as number[], leased: [] as number[], unchecked: [] as number[] };
	const calls = 2_000_000;
	for (let i = 0; i <= times; i++) {
		for (const name of ["bare", "leased", "unchecked"] as const) {
			const next = variants[name];
			const began = performance.now();
			for (let n = 0; n < calls; n++) await next();
			if (i > 0) costs[name].push(((performance.now() - began) * 1e6) / calls); // round 0 warms up
		}
	}
	const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;
	return {
		bare: median(costs.bare),
		leased: median(costs.leased),
		unchecked: median(costs.unchecked),
	};
}
