/**
 * What this deployment's config allows, as the contracts' rules read it (./fields.ts,
 * `Limits`): made once per config. The counts are capped by what one object call can
 * issue within MAX_WAIT_MS, and blocks by what fits in 1 s of ticks too.
 *
 *   readInput(ulidContract, limitsOf(config), { count: 5 });
 */
import { maxIdsPerCall } from "../../ids/snowflake/options";
import type { Config } from "../config/config";
import type { Limits } from "./fields";

/** The longest a blocks request may keep its object issuing (ticks it needs × tick length). */
const MAX_BLOCK_WAIT_MS = 1_000;

const made = new WeakMap<Config, Limits>();

export function limitsOf(config: Config): Limits {
	let limits = made.get(config);
	if (!limits) {
		const { layout } = config;
		const perCall = maxIdsPerCall(layout, config.maxWaitMs, config.maxBorrowMs);
		const ticks = Math.max(1, Math.floor(MAX_BLOCK_WAIT_MS / layout.timeUnitMs));
		limits = {
			maxCount: Math.min(config.maxBatch, perCall),
			maxBlockCount: Math.min(config.maxBlockCount, ticks * (layout.maxSequence + 1), perCall),
			maxWorkerId: layout.maxWorkerId,
			workerIds: config.workerIds,
			leaseWorkerIds: config.leaseWorkerIds,
			// A sequence's numbers cost no ticks: only the configured caps bound them.
			maxSequenceCount: config.maxBatch,
			maxSequenceRange: config.maxBlockCount,
		};
		made.set(config, limits);
	}
	return limits;
}
