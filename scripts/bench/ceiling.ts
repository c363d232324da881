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
import {
	bareGenerator,
	millions,
	type Round,
	ratio,
	round,
	roundOptions,
	summary,
} from "../lib/ceiling-rounds";

const { rounds, seconds } = roundOptions();

/** A fresh generator per round, as a fresh process would have. */
const fresh = () => bareGenerator();

console.log(
	`await gen.next(1), system clock, Twitter layout, one worker ID: node ${process.version}, ${availableParallelism()} cores, ${rounds} rounds of ${seconds} s, load average ${loadavg()[0]?.toFixed(2)}`,
);
/** One round on a fresh generator. */
const measure = () => {
	const gen = fresh();
	return round(() => gen.next(1), seconds);
};
await measure(); // warm-up, not counted
const results: Round[] = [];
for (let i = 0; i < rounds; i++) {
	const result = await measure();
	results.push(result);
	console.log(
		`  round ${i + 1}: ${millions(result.idsPerSecond)} IDs/s (${ratio(result.idsPerSecond)} of the limit), ${result.notAbove} repeated or out of order`,
	);
}
const { text, repeats } = summary(results);
console.log(
	`${text}; repeated or out of order: ${repeats}; load average ${loadavg()[0]?.toFixed(2)}`,
);
if (repeats > 0) process.exitCode = 1;
