/**
 * Finding a free worker ID for `POST /leases` without a hot object: the candidates
 * are probed one after another in random order, each probe an acquire sent to that
 * worker ID's own object (which alone decides, so safety never depends on the
 * search). No index object, no state: acquires spread over the objects of
 * LEASE_WORKER_IDS as evenly as their holders do. docs/SCALING.md ("Acquiring a
 * worker ID (leases)") gives the measured probes per acquire and why this, not an index.
 *
 * A probe first asks for a span starting near the clock (`PREFERRED_LEAD_MS`): a
 * worker ID released a moment ago is free, but its next span starts after the
 * released one's unused tail, up to a span ahead. Only when no candidate starts
 * near the clock is the nearest such one taken. None starts more than a span ahead:
 * the object refuses such a span outright (src/ids/leases/span-rules.ts), without `startsInMs`.
 *
 * Plain TypeScript (the probe is injected), so scripts/bench/lease-acquire.ts
 * measures this very search against the core's objects.
 */

/**
 * How many worker IDs one acquire tries at most (each probe is one object request and
 * one subrequest): all of a range of 32 or fewer, and in a larger one few enough that
 * with the second pass (`MAX_AHEAD_PROBES`) an acquire stays within the 50 subrequests
 * of a Workers Free invocation. Measured (npm run bench:lease-acquire, docs/SCALING.md):
 * up to 75% of LEASE_WORKER_IDS held, an acquire asks ~4 objects on average and
 * almost never misses a free one; at 90%, 32 probes miss one in ~30-40 acquires
 * (16 would miss one in ~5-10).
 */
export const MAX_ACQUIRE_PROBES = 32;

/** How many free worker IDs whose spans start ahead a second pass tries, nearest first. */
export const MAX_AHEAD_PROBES = 4;

/** A span starting at most this far ahead of the object's clock is taken at once. */
export const PREFERRED_LEAD_MS = 1_000;

/** What a probe answers: a grant, or a refusal as a value (`startsInMs`: free, but ahead). */
export type ProbeAnswer<T> =
	| { ok: true; value: T }
	| { ok: false; code: string; retryAfterSeconds?: number | undefined; startsInMs?: number };

/** How a search ended: the grant and its worker ID, or the least wait any probe named. */
export type SearchOutcome<T> = { probes: number } & (
	| { found: true; workerId: number; value: T }
	| { found: false; retryAfterSeconds: number | undefined }
);

/**
 * Probes `candidates` in order, each with `maxLeadMs = preferredLeadMs`, until one
 * grants; then (up to `MAX_AHEAD_PROBES`) the free ones that were ahead, nearest
 * first, with no bound of its own (the object's is a span). A probe
 * that throws (an object unreachable) is skipped; a refusal other than
 * `no_free_worker_id` (a misconfiguration every object would answer alike) ends the
 * search as the error it names, through `refused`.
 */
export async function searchFreeWorkerId<T>(
	candidates: readonly number[],
	probe: (workerId: number, maxLeadMs: number | undefined) => Promise<ProbeAnswer<T>>,
	refused: (answer: Extract<ProbeAnswer<T>, { ok: false }>) => never,
	preferredLeadMs = PREFERRED_LEAD_MS,
): Promise<SearchOutcome<T>> {
	let probes = 0;
	let retryAfterSeconds: number | undefined;
	let skipped: unknown;
	const ahead: { workerId: number; startsInMs: number }[] = [];
	const attempt = async (workerId: number, maxLeadMs: number | undefined) => {
		probes++;
		let answer: ProbeAnswer<T>;
		try {
			answer = await probe(workerId, maxLeadMs);
		} catch (error) {
			skipped = error;
			return undefined;
		}
		if (answer.ok) return answer.value;
		if (answer.code !== "no_free_worker_id") refused(answer);
		if (answer.startsInMs !== undefined) ahead.push({ workerId, startsInMs: answer.startsInMs });
		else if (answer.retryAfterSeconds !== undefined) {
			retryAfterSeconds = Math.min(
				retryAfterSeconds ?? Number.POSITIVE_INFINITY,
				answer.retryAfterSeconds,
			);
		}
		return undefined;
	};
	for (const workerId of candidates) {
		const value = await attempt(workerId, preferredLeadMs);
		if (value !== undefined) return { probes, found: true, workerId, value };
	}
	const nearestFirst = ahead.sort((a, b) => a.startsInMs - b.startsInMs).slice(0, MAX_AHEAD_PROBES);
	for (const { workerId } of nearestFirst) {
		const value = await attempt(workerId, undefined);
		if (value !== undefined) return { probes, found: true, workerId, value };
	}
	// Every probe failed to reach its object: that, not a full range, is the answer.
	if (retryAfterSeconds === undefined && skipped !== undefined) throw skipped;
	return { probes, found: false, retryAfterSeconds };
}

/**
 * Up to `count` distinct members of `set`, uniformly chosen, in random order (Floyd's
 * sampling, then a shuffle): memory follows `count`, not the size of the set.
 */
export function probeOrder(
	set: { size: number; at(index: number): number },
	count: number,
	random: () => number,
): number[] {
	const n = set.size;
	const k = Math.min(count, n);
	const chosen = new Set<number>();
	for (let j = n - k; j < n; j++) {
		const t = Math.floor(random() * (j + 1));
		chosen.add(chosen.has(t) ? j : t);
	}
	const order = [...chosen];
	for (let i = order.length - 1; i > 0; i--) {
		const j = Math.floor(random() * (i + 1));
		[order[i], order[j]] = [order[j] as number, order[i] as number];
	}
	return order.map((index) => set.at(index));
}
