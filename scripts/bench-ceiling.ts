/**
 * One worker ID against its layout's ceiling, in process: `await gen.next(1)` in a
 * loop on the published core (`edge-ids/ids`), the system clock and the Twitter
 * layout, whose limit is 4,096 IDs per ms (4.096 M IDs/s). Every ID is checked to be
 * above the one before it, so a repeat (or an ID out of order) is counted, not missed.
 *
 *   npm run bench:ceiling                 5 rounds of 2 s
 *   npm run bench:ceiling -- --rounds 3 --seconds 1
 *
 * Prints each round, then the median with its range and the ratio to the limit.
 */
import { availableParallelism, loadavg } from "node:os";
import { SnowflakeGenerator, SnowflakeLayout, systemClock, TWITTER_LAYOUT } from "../src/ids/index";

const LIMIT_IDS_PER_S = 4_096_000;

function option(name: string, fallback: number): number {
	const at = process.argv.indexOf(`--${name}`);
	const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
	if (!(value > 0)) throw new Error(`--${name} takes a positive number`);
	return value;
}

const rounds = Math.max(3, Math.floor(option("rounds", 5)));
const seconds = option("seconds", 2);

/** Decimal IDs compare by length, then as text (no BigInt in the loop). */
const above = (id: string, previous: string) =>
	id.length > previous.length || (id.length === previous.length && id > previous);

interface Round {
	idsPerSecond: number;
	notAbove: number;
}

async function round(): Promise<Round> {
	const gen = new SnowflakeGenerator({
		layout: new SnowflakeLayout(TWITTER_LAYOUT),
		workerId: 7,
		clock: systemClock,
		maxBackwardMs: 1_000,
		leaseMs: 1_000,
		persistMark: () => {}, // in process: no storage (a Durable Object writes once per lease)
	});
	let previous = "";
	let notAbove = 0;
	let made = 0;
	const started = performance.now();
	const until = started + seconds * 1_000;
	while (performance.now() < until) {
		for (let i = 0; i < 1_000; i++) {
			const [id] = await gen.next(1);
			if (id === undefined || !above(id, previous)) notAbove++;
			previous = id ?? previous;
		}
		made += 1_000;
	}
	return { idsPerSecond: made / ((performance.now() - started) / 1_000), notAbove };
}

const millions = (n: number) => `${(n / 1e6).toFixed(3)} M`;
const ratio = (n: number) => (n / LIMIT_IDS_PER_S).toFixed(3);

console.log(
	`await gen.next(1), system clock, Twitter layout, one worker ID: node ${process.version}, ${availableParallelism()} cores, ${rounds} rounds of ${seconds} s, load average ${loadavg()[0]?.toFixed(2)}`,
);
await round(); // warm-up, not counted
const results: Round[] = [];
for (let i = 0; i < rounds; i++) {
	const result = await round();
	results.push(result);
	console.log(
		`  round ${i + 1}: ${millions(result.idsPerSecond)} IDs/s (${ratio(result.idsPerSecond)} of the limit), ${result.notAbove} repeated or out of order`,
	);
}
const rates = results.map((r) => r.idsPerSecond).sort((a, b) => a - b);
const median = rates[rates.length >> 1] ?? 0;
const repeats = results.reduce((sum, r) => sum + r.notAbove, 0);
console.log(
	`median ${millions(median)} IDs/s, ${ratio(median)} of 4.096 M (range ${ratio(rates[0] ?? 0)}–${ratio(rates.at(-1) ?? 0)}); repeated or out of order: ${repeats}; load average ${loadavg()[0]?.toFixed(2)}`,
);
if (repeats > 0) process.exitCode = 1;
