/**
 * What the in-process ceiling benchmarks share (bench:ceiling, bench:leased): their
 * options, a timed round of `await next(1)` that checks every ID is above the one
 * before it, the summary of rounds as a ratio to the layout's limit, and the bare
 * generator they measure against.
 */
import {
	type Clock,
	SnowflakeGenerator,
	SnowflakeLayout,
	systemClock,
	TWITTER_LAYOUT,
} from "../../src/ids/index";

/** The layout measured: Twitter's. */
export const LAYOUT = new SnowflakeLayout(TWITTER_LAYOUT);

/**
 * A generator for worker ID 7 with no storage (in process; a Durable Object writes
 * once per lease): `leaseMs` how far each mark leads, which only a test of the fast
 * path sets far out.
 */
export function bareGenerator(clock: Clock = systemClock, leaseMs = 1_000): SnowflakeGenerator {
	return new SnowflakeGenerator({
		layout: LAYOUT,
		workerId: 7,
		clock,
		maxBackwardMs: 1_000,
		leaseMs,
		persistMark: () => {},
	});
}

/** The Twitter layout's limit for one worker ID: 4,096 IDs per ms. */
export const LIMIT_IDS_PER_S = 4_096_000;

/** `--name <positive number>` from the command line, else `fallback`. */
function option(name: string, fallback: number): number {
	const at = process.argv.indexOf(`--${name}`);
	const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
	if (!(value > 0)) throw new Error(`--${name} takes a positive number`);
	return value;
}

/** `--rounds` (at least 3, default 5) and `--seconds` per round (default 2). */
export function roundOptions(): { rounds: number; seconds: number } {
	return { rounds: Math.max(3, Math.floor(option("rounds", 5))), seconds: option("seconds", 2) };
}

/** Decimal IDs compare by length, then as text (no BigInt in the loop). */
const above = (id: string, previous: string) =>
	id.length > previous.length || (id.length === previous.length && id > previous);

export interface Round {
	idsPerSecond: number;
	/** IDs not above the one before them: repeats or out of order. */
	notAbove: number;
}

/** `await next()` in a loop for `seconds`: IDs per second, and IDs not above the one before. */
export async function round(next: () => Promise<string[]>, seconds: number): Promise<Round> {
	let previous = "";
	let notAbove = 0;
	let made = 0;
	const started = performance.now();
	const until = started + seconds * 1_000;
	while (performance.now() < until) {
		for (let i = 0; i < 1_000; i++) {
			const [id] = await next();
			if (id === undefined || !above(id, previous)) notAbove++;
			previous = id ?? previous;
		}
		made += 1_000;
	}
	return { idsPerSecond: made / ((performance.now() - started) / 1_000), notAbove };
}

export const millions = (n: number) => `${(n / 1e6).toFixed(3)} M`;
export const ratio = (n: number) => (n / LIMIT_IDS_PER_S).toFixed(3);

/** Rounds as "median …, ratio of 4.096 M (range …)", and the repeats counted. */
export function summary(results: Round[]): { text: string; repeats: number } {
	const rates = results.map((r) => r.idsPerSecond).sort((a, b) => a - b);
	const median = rates[rates.length >> 1] ?? 0;
	return {
		text: `median ${millions(median)} IDs/s, ${ratio(median)} of 4.096 M (range ${ratio(rates[0] ?? 0)}–${ratio(rates.at(-1) ?? 0)})`,
		repeats: results.reduce((sum, r) => sum + r.notAbove, 0),
	};
}
