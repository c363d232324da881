/**
 * The objects' clock. Date.now() is frozen while a deployed Worker runs and moves on
 * at I/O: waiting is a timer (`scheduler.wait`), never a spin.
 *
 *   const generator = new SnowflakeGenerator(layout, workerId, workersClock);
 */
import type { Clock } from "../../ids/clock";

export const workersClock: Clock = {
	now: () => Date.now(),
	// A cancelled wait is left to end on its own: a Workers timer keeps nothing alive.
	sleep: (ms) => scheduler.wait(ms),
};
