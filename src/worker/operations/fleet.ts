/**
 * The operations view's operations, behind both HTTP (`GET /leases`, `/stats`,
 * `/stats/history`, `/stats/:workerId/history`, `/metrics`) and RPC (`leases`,
 * `fleetStats`, `statsHistory`): each one request to the fleet catalog
 * (../object/fleet-catalog.ts), or, for one worker ID's history, to its object.
 *
 *   const { leases } = await fleetLeases(env, config);
 *   const text = await metricsText(env, config);  // Prometheus exposition format
 */

import { windowStart } from "../../ids/minute-tally";
import type { FleetLeases, FleetStats, StatsHistory } from "../../wire";
import type { Config } from "../config/config";
import { leasedIds } from "../contracts/leases";
import { limitsOf } from "../contracts/limits";
import { askCatalog } from "../object/catalog-calls";
import { prometheusText } from "./prometheus";

export { PROMETHEUS_TYPE } from "./prometheus";

import type { ContractInput } from "../contracts/fields";
import { DEFAULT_HISTORY_MINUTES, type statsHistoryContract } from "../contracts/ops";
import type { HistoryResult } from "../object/object-protocol";
import { callSnowflake } from "../object/snowflake-calls";

const YEAR_MS = 365.25 * 24 * 60 * 60_000;

/** Every leased worker ID held or in grace (`409 leases_disabled` without LEASE_WORKER_IDS). */
export async function fleetLeases(env: Env, config: Config): Promise<FleetLeases> {
	leasedIds(limitsOf(config));
	return askCatalog(env, (catalog) => catalog.leases());
}

/** Every worker ID that has issued and every sequence, with their counts, and the layout's end. */
export async function fleetStats(env: Env, config: Config): Promise<FleetStats> {
	const { workerIds, sequences, serverNowMs } = await askCatalog(env, (catalog) =>
		catalog.snapshot(),
	);
	return { workerIds, sequences, layout: layoutEnd(config, serverNowMs), serverNowMs };
}

/** The layout's last instant and the years left until it, at `nowMs`. */
function layoutEnd(config: Config, nowMs: number) {
	const { exhaustsAt } = config.layout;
	const yearsLeft = Math.max(0, Math.round(((exhaustsAt - nowMs) / YEAR_MS) * 100) / 100);
	return { exhaustsAt: new Date(exhaustsAt).toISOString(), exhaustsAtMs: exhaustsAt, yearsLeft };
}

/**
 * Per-minute counts for the last `minutes` minutes (the current one included): of a
 * worker ID, from its object; of the fleet without one, from the catalog (the minutes
 * its objects pushed: the current one is not there yet).
 */
export async function statsHistory(
	env: Env,
	config: Config,
	input: ContractInput<typeof statsHistoryContract>,
): Promise<StatsHistory> {
	const minutes = input.minutes ?? DEFAULT_HISTORY_MINUTES;
	const nowMs = Date.now();
	const sinceMs = windowStart(nowMs, minutes);
	const { workerId } = input;
	if (workerId === undefined) {
		const history = await askCatalog(env, (catalog) => catalog.fleetHistory(sinceMs));
		return { workerId: null, minutes, history, serverNowMs: nowMs };
	}
	const result = await callSnowflake<HistoryResult>(env, config, workerId, (stub) =>
		stub.history(workerId, sinceMs),
	);
	return { workerId, minutes, history: result.minutes, serverNowMs: nowMs };
}

/** `GET /metrics`: the catalog's counts and leases in Prometheus text format. */
export async function metricsText(env: Env, config: Config): Promise<string> {
	const snapshot = await askCatalog(env, (catalog) => catalog.snapshot());
	return prometheusText(snapshot, layoutEnd(config, snapshot.serverNowMs).yearsLeft);
}
