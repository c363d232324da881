/**
 * An IdPool over a real generator for worker ID 7 on a frozen clock (Twitter's
 * bits with epoch 0, so clock readings are ticks), counting object calls.
 */
import { IdPool, type IdPoolOptions, type IssuedRuns } from "../../src/ids/pools/id-pool";
import { FrozenClock } from "../shared/fake-clock";
import { generator, layout } from "./snowflake-setup";

/** What a test may build its own refill from: the generator's issue call and the clock. */
export interface PoolParts {
	issue: (count: number) => Promise<IssuedRuns>;
	clock: FrozenClock;
}

/**
 * A pool over a real generator for worker ID 7 on a frozen clock; counts object
 * calls. Options may be computed from the parts (say, a refill that fails).
 */
export function setup(
	options: Partial<IdPoolOptions> | ((parts: PoolParts) => Partial<IdPoolOptions>) = {},
) {
	const clock = new FrozenClock(1_000_000);
	const { gen } = generator(clock);
	const calls = { refill: [] as number[], direct: [] as number[] };
	const issue = async (count: number): Promise<IssuedRuns> => ({
		workerId: 7,
		runs: await gen.nextRuns(count),
	});
	const pool = new IdPool({
		now: () => clock.now(),
		msOfTick: (tick) => layout.msOf(tick),
		refill: (size) => {
			calls.refill.push(size);
			return issue(size);
		},
		direct: (count) => {
			calls.direct.push(count);
			return issue(count);
		},
		maxAgeMs: 1000,
		maxSize: 4096,
		minSize: 16,
		...(typeof options === "function" ? options({ issue, clock }) : options),
	});
	return { clock, pool, calls };
}

export const ids = (block: IssuedRuns) =>
	block.runs.flatMap((run) =>
		Array.from({ length: run.count }, (_, i) =>
			layout.compose({ tick: run.tick, workerId: block.workerId, sequence: run.firstSequence + i }),
		),
	);
export const ticks = (block: IssuedRuns) => block.runs.map((run) => run.tick);
