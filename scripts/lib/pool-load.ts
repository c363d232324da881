/**
 * The auto route's pools under a mixed load (counts 1, 5 and 100 in turn):
 * HTTP requests per object call, read from the objects' stats (`requests`)
 * just before and after, and the age of every ID a probe receives meanwhile
 * (the time it arrived minus the time its tick began).
 */
import autocannon from "autocannon";
import { SnowflakeLayout, TWITTER_LAYOUT } from "../../src/ids/snowflake/layout";

const layout = new SnowflakeLayout(TWITTER_LAYOUT);

export interface PoolLoadResult {
	requests: number;
	objectCalls: number;
	requestsPerObjectCall: number;
	/** IDs the objects issued meanwhile, and the share of them no answer carried (dropped stale, or still held). */
	issued: number;
	wasteShare: number;
	probed: number;
	/** Probed IDs older than `maxAgeMs` when they arrived. */
	stale: number;
	maxAgeSeenMs: number;
}

/** Object calls and IDs issued so far across `workerIds`: sums of their stats. */
async function objectTotals(base: string, workerIds: number[]) {
	const answers = await Promise.all(
		workerIds.map(async (id) => {
			const response = await fetch(`${base}/snowflake/${id}/stats`);
			return (await response.json()) as { requests: number; issued: number };
		}),
	);
	return {
		calls: answers.reduce((sum, stats) => sum + stats.requests, 0),
		issued: answers.reduce((sum, stats) => sum + stats.issued, 0),
	};
}

/** The mix cycles through these counts, one request each. */
const COUNTS = [1, 5, 100];

export async function mixedPoolLoad(options: {
	base: string;
	autoWorkerIds: number[];
	connections: number;
	seconds: number;
	maxAgeMs: number;
}): Promise<PoolLoadResult> {
	const { base, autoWorkerIds, connections, seconds, maxAgeMs } = options;
	const before = await objectTotals(base, autoWorkerIds);
	let probing = true;
	let probed = 0;
	let stale = 0;
	let maxAgeSeenMs = 0;
	const probe = (async () => {
		while (probing) {
			const body = (await (await fetch(`${base}/snowflake?count=5`)).json()) as { ids: string[] };
			const arrived = Date.now();
			for (const id of body.ids) {
				const age = arrived - layout.msOf(layout.decompose(BigInt(id)).tick);
				maxAgeSeenMs = Math.max(maxAgeSeenMs, age);
				if (age > maxAgeMs) stale++;
				probed++;
			}
		}
	})();
	const result = await new Promise<autocannon.Result>((resolve, reject) => {
		autocannon(
			{
				url: base,
				connections,
				duration: seconds,
				requests: COUNTS.map((count) => ({ method: "GET", path: `/snowflake?count=${count}` })),
			},
			(error, answer) => (error ? reject(error) : resolve(answer)),
		);
	});
	probing = false;
	await probe;
	const after = await objectTotals(base, autoWorkerIds);
	const calls = after.calls - before.calls;
	const issued = after.issued - before.issued;
	const requests = result.requests.total + probed / 5;
	const meanCount = COUNTS.reduce((sum, n) => sum + n, 0) / COUNTS.length;
	const handedOut = result.requests.total * meanCount + probed;
	return {
		requests,
		objectCalls: calls,
		issued,
		wasteShare: issued > 0 ? Math.max(0, 1 - handedOut / issued) : 0,
		requestsPerObjectCall: requests / Math.max(1, calls),
		probed,
		stale,
		maxAgeSeenMs,
	};
}
