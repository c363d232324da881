/**
 * npm run bench:lease-acquire — how many objects an acquire without a worker ID
 * asks (probes), and how often it finds none though one is free, by how full
 * LEASE_WORKER_IDS is. It runs the service's own search (src/worker/operations/lease-search.ts)
 * against the core's objects (src/ids/leases/keeper.ts, one per worker ID) on a
 * virtual clock: the probes are exact, the time is not measured (in production each
 * probe is one round trip to that worker ID's object).
 *
 *   npm run bench:lease-acquire                       # sizes 32,256,1024; 2,000 acquires per row
 *   npm run bench:lease-acquire -- --sizes 32 --acquires 500 --seed 7
 *
 * Two parts:
 * - **Occupancy**: a fraction of the worker IDs held (the rest never leased), one
 *   acquire at a time, each granted worker ID freed again (so the fraction stays),
 *   with the service's bound (`MAX_ACQUIRE_PROBES`, 32) and, for comparison, 16 and
 *   every worker ID.
 * - **Churn**: holders that start, renew every third of a span, and end (70% release
 *   on close, 30% die and keep their worker ID for the span and grace), always one
 *   starting for each that ends: how many probes, and how far ahead of the clock the
 *   granted spans start, with the preference for spans that start now and without it.
 */
import { parseArgs } from "node:util";
import type { Clock } from "../../src/ids/clock";
import { LeaseKeeper } from "../../src/ids/leases/keeper";
import { SnowflakeLayout, TWITTER_LAYOUT } from "../../src/ids/snowflake/layout";
import {
	MAX_ACQUIRE_PROBES,
	PREFERRED_LEAD_MS,
	type ProbeAnswer,
	probeOrder,
	searchFreeWorkerId,
} from "../../src/worker/operations/lease-search";

const { values } = parseArgs({
	options: {
		sizes: { type: "string", default: "32,256,1024" },
		acquires: { type: "string", default: "2000" },
		seed: { type: "string", default: "1" },
	},
});
const SIZES = values.sizes.split(",").map(Number);
const ACQUIRES = Number(values.acquires);
const SPAN_MS = 30_000;
const GRACE_MS = 2_000;
const layout = new SnowflakeLayout(TWITTER_LAYOUT);

/** A seeded uniform [0, 1) (xorshift32): the same run for the same seed. */
function seeded(seed: number): () => number {
	let state = seed >>> 0 || 1;
	return () => {
		state ^= state << 13;
		state ^= state >>> 17;
		state ^= state << 5;
		return (state >>> 0) / 2 ** 32;
	};
}
const random = seeded(Number(values.seed));

class VirtualClock implements Clock {
	time = 1_800_000_000_000;
	now = () => this.time;
	sleep = async (ms: number) => {
		this.time += ms;
	};
}

/** One object per worker ID, on one virtual clock; `fresh` makes a never-leased one. */
class Objects {
	private readonly keepers = new Map<number, LeaseKeeper>();
	constructor(readonly clock: VirtualClock) {}

	fresh(workerId: number): void {
		let mark: number | undefined;
		this.keepers.set(
			workerId,
			new LeaseKeeper({
				generator: {
					layout,
					workerId,
					clock: this.clock,
					maxBackwardMs: 1_000,
					leaseMs: 1_000,
					persistMark: (tick) => {
						mark = tick;
					},
					restoredMark: mark,
				},
				spanMs: SPAN_MS,
				graceMs: GRACE_MS,
				restoredLease: undefined,
				persistLease: () => {},
			}),
		);
	}

	of(workerId: number): LeaseKeeper {
		const keeper = this.keepers.get(workerId);
		if (!keeper) throw new Error(`no object ${workerId}`);
		return keeper;
	}

	async probe(workerId: number, leaseHash: string, maxLeadMs: number | undefined) {
		const answer = await this.of(workerId).acquire({ leaseHash, holder: null, maxLeadMs });
		if (answer.ok) return { ok: true as const, value: answer.value };
		const { code, retryAfterSeconds, startsInMs } = answer.refusal;
		return { ok: false as const, code, retryAfterSeconds, startsInMs } satisfies ProbeAnswer<never>;
	}
}

const members = (size: number) => ({ size, at: (index: number) => index });
const refused = (answer: { code: string }): never => {
	throw new Error(`refused: ${answer.code}`);
};

interface Tally {
	probes: number[];
	failures: number;
	leadsMs: number[];
}

function summary({ probes, failures, leadsMs }: Tally): string {
	const sorted = [...probes].sort((a, b) => a - b);
	const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
	const mean = probes.reduce((a, b) => a + b, 0) / probes.length;
	const leads = [...leadsMs].sort((a, b) => a - b);
	const aheadShare = leads.filter((ms) => ms > 1_000).length / Math.max(1, leads.length);
	const meanLead = leads.reduce((a, b) => a + b, 0) / Math.max(1, leads.length);
	const lead = leads.length
		? ` | span starts > 1 s ahead: ${(100 * aheadShare).toFixed(1)}% of grants, mean lead ${(meanLead / 1000).toFixed(1)} s, p95 ${leads[Math.floor(leads.length * 0.95)]} ms`
		: "";
	return `probes mean ${mean.toFixed(2)}, p50 ${at(0.5)}, p95 ${at(0.95)}, max ${sorted.at(-1)} | none found ${((100 * failures) / probes.length).toFixed(1)}%${lead}`;
}

/** A fraction of `size` worker IDs held; `ACQUIRES` acquires with at most `bound` probes each. */
async function occupancy(size: number, held: number, bound: number): Promise<Tally> {
	const clock = new VirtualClock();
	const objects = new Objects(clock);
	for (let id = 0; id < size; id++) objects.fresh(id);
	for (const id of probeOrder(members(size), held, random)) {
		await objects.probe(id, "held", undefined);
	}
	const tally: Tally = { probes: [], failures: 0, leadsMs: [] };
	for (let i = 0; i < ACQUIRES; i++) {
		const outcome = await searchFreeWorkerId(
			probeOrder(members(size), bound, random),
			(id, lead) => objects.probe(id, `h${i}`, lead),
			refused,
		);
		tally.probes.push(outcome.probes);
		if (!outcome.found) tally.failures++;
		else objects.fresh(outcome.workerId); // free again: the fraction held stays
	}
	return tally;
}

/**
 * `holders` holders over `size` worker IDs for an hour of virtual time: lifetimes
 * exponential with mean `lifeS`, one starting for each that ends.
 */
async function churn(size: number, holders: number, lifeS: number, preferredLeadMs: number) {
	const clock = new VirtualClock();
	const objects = new Objects(clock);
	for (let id = 0; id < size; id++) objects.fresh(id);
	const tally: Tally = { probes: [], failures: 0, leadsMs: [] };
	type Holder = { workerId: number; hash: string; endsAt: number; renewAt: number } | undefined;
	const fleet: Holder[] = Array.from({ length: holders }, () => undefined);
	let serial = 0;
	const end = clock.time + 3_600_000;
	while (clock.time < end) {
		for (const [slot, holder] of fleet.entries()) {
			if (holder && clock.time >= holder.endsAt) {
				if (random() < 0.7) await objects.of(holder.workerId).release(holder.hash);
				fleet[slot] = undefined;
			} else if (holder && clock.time >= holder.renewAt) {
				await objects.of(holder.workerId).renew(holder.hash);
				holder.renewAt = clock.time + SPAN_MS / 3;
			}
			if (fleet[slot] === undefined) {
				const hash = `h${serial++}`;
				const outcome = await searchFreeWorkerId(
					probeOrder(members(size), MAX_ACQUIRE_PROBES, random),
					(id, lead) => objects.probe(id, hash, lead),
					refused,
					preferredLeadMs,
				);
				tally.probes.push(outcome.probes);
				if (!outcome.found) {
					tally.failures++;
					continue; // tries again in the next second
				}
				tally.leadsMs.push(Math.max(0, layout.msOf(outcome.value.from) - clock.time));
				const lifeMs = -Math.log(1 - random()) * lifeS * 1000;
				fleet[slot] = {
					workerId: outcome.workerId,
					hash,
					endsAt: clock.time + lifeMs,
					renewAt: clock.time + SPAN_MS / 3,
				};
			}
		}
		clock.time += 1_000;
	}
	return tally;
}

console.log(
	`bench:lease-acquire, seed ${values.seed}, ${new Date().toISOString()}, Node ${process.version}`,
);
console.log(`\nOccupancy (${ACQUIRES} acquires per row; the rest never leased)`);
for (const size of SIZES) {
	for (const fraction of [0, 0.5, 0.75, 0.9, 0.97]) {
		const held = Math.min(size - 1, Math.round(fraction * size));
		const bounds = [16, MAX_ACQUIRE_PROBES, size].filter(
			(b, i, all) => all.indexOf(b) === i && b <= size,
		);
		for (const bound of bounds) {
			const tally = await occupancy(size, held, bound);
			console.log(
				`  ${size} worker IDs, ${held} held (${Math.round((100 * held) / size)}%), at most ${bound} probes: ${summary(tally)}`,
			);
		}
	}
}
console.log(
	"\nChurn (an hour; 70% of holders release on close, 30% die; one starts for each that ends)",
);
for (const [size, holders, lifeS] of [
	[32, 16, 120],
	[32, 24, 120],
	[32, 28, 300],
] as const) {
	for (const [label, preferred] of [
		["spans that start now first", PREFERRED_LEAD_MS],
		["no preference", Number.POSITIVE_INFINITY],
	] as const) {
		const tally = await churn(size, holders, lifeS, preferred);
		console.log(
			`  ${holders} holders on ${size} worker IDs, mean life ${lifeS} s, ${label}: ${tally.probes.length} acquires, ${summary(tally)}`,
		);
	}
}
