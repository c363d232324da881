/**
 * What the clock-fault files share: the layout and limits they assume (those of
 * wrangler.toml), requests sent straight to `app.fetch`, and a tally of the
 * faults injected (printed with TEST_STATS=1, for docs/RELIABILITY.md).
 *
 * Requests go straight to `app.fetch` (the Worker's fetch, with its env): these files
 * send about 500, and each `exports.default.fetch` costs 2-4 ms in the test runtime
 * against 0.1 ms for the app itself.
 */
import { afterAll } from "vitest";
import { SnowflakeLayout, TWITTER_LAYOUT } from "../../src/ids/snowflake/layout";
import type { ErrorBody } from "../../src/wire";
import { fetchApp, jsonAnswer } from "../shared/fetch-app";
import { printTestStats } from "./helpers";

export const layout = new SnowflakeLayout(TWITTER_LAYOUT);
export const T = 1_800_000_000_000; // a fixed instant, so nothing depends on the host clock
export const MAX_BACKWARD_MS = 1_000; // MAX_CLOCK_BACKWARD_MS in wrangler.toml
/** MAX_BORROW_MS in wrangler.toml: smaller steps back are absorbed. */
export const MAX_BORROW_MS = 5;
export const LEASE_MS = 1_000; // LEASE_MS in wrangler.toml
export const REGRESSIONS_MS = [1, 10, 100, 999, 1_000, 1_001, 5_000, 10_000];

export type Ids = { ids: string[] };
export type Answer = { status: number; body: Ids & ErrorBody; headers: Headers };

/** Counts a file's injected faults and the requests sent under them; prints them after the file. */
export function faultTally(file: string) {
	const tally = { faults: 0, requests: 0 };
	afterAll(() => {
		printTestStats(
			`${file}: ${tally.faults} clock faults injected, ${tally.requests} requests under them`,
		);
	});
	return tally;
}

/** A request to `app.fetch` directly, its JSON body parsed. */
export async function appJson<T>(
	path: string,
	init?: RequestInit,
): Promise<{ status: number; body: T; headers: Headers }> {
	return jsonAnswer<T>(await fetchApp(path, init));
}

export const big = (id: string | undefined) => BigInt(id as string);

/** The 200 answers' IDs in the order the object issued them (it serves one call at a time). */
export function issueOrder(answers: { status: number; body: Ids }[]): string[] {
	return answers
		.filter((a) => a.status === 200)
		.map((a) => a.body.ids)
		.sort((a, b) => (big(a[0]) < big(b[0]) ? -1 : 1))
		.flat();
}

/** `n` requests at once to one worker ID, GET and POST, counts 1-50. */
export function concurrentRequests(workerId: number, n: number): Promise<Answer[]> {
	return Promise.all(
		Array.from({ length: n }, (_, i) =>
			appJson<Ids & ErrorBody>(`/snowflake/${workerId}?count=${1 + ((i * 7) % 50)}`, {
				method: i % 2 ? "POST" : "GET",
			}),
		),
	);
}

/** The worker ID's object stats, as `/snowflake/:workerId/stats` answers them. */
export async function objectStats(workerId: number) {
	return (await appJson<Record<string, unknown>>(`/snowflake/${workerId}/stats`)).body;
}
