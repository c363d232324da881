/**
 * The operations view's operations, behind both HTTP (`GET /leases`, `/stats`,
 * `/stats/history`, `/stats/:workerId/history`, `/metrics`) and RPC (`leases`,
 * `fleetStats`, `statsHistory`): each one request to the fleet catalog's root
 * (../object/fleet-catalog.ts), or, for one worker ID's history, to its object; a
 * `/stats` page that reaches the sequences also asks the directory and the shards it
 * lists from (./fleet-pages.ts).
 *
 *   const { leases } = await fleetLeases(env, config);
 *   const text = await metricsText(env, config);  // Prometheus exposition format
 */

import { windowStart } from "../../ids/minute-tally";
import type { FleetLeases, FleetStats, StatsHistory } from "../../wire";
import type { Config } from "../config/config";
import { leasedIds } from "../contracts/leases";
import { limitsOf } from "../contracts/limits";
import { askCatalog, rootStub } from "../object/catalog-calls";
import { statsPage } from "./fleet-pages";
import { prometheusText } from "./prometheus";

export { PROMETHEUS_TYPE } from "./prometheus";

import type { ContractInput } from "../contracts/fields";
import {
	DEFAULT_HISTORY_MINUTES,
	type fleetStatsContract,
	type statsHistoryContract,
} from "../contracts/ops";
import type { HistoryResult } from "../object/object-protocol";
import { callSnowflake } from "../object/snowflake-calls";

const YEAR_MS = 365.25 * 24 * 60 * 60_000;

/** Every leased worker ID held or in grace (`409 leases_disabled` without LEASE_WORKER_IDS). */
export async function fleetLeases(env: Env, config: Config): Promise<FleetLeases> {
	leasedIds(limitsOf(config));
	return askCatalog(
		() => rootStub(env),
		(root) => root.leases(),
	);
}

/** A page of the worker IDs that have issued, then of the sequences, with the fleet's totals and the layout's end. */
export async function fleetStats(
	env: Env,
	config: Config,
	input: ContractInput<typeof fleetStatsContract>,
): Promise<FleetStats> {
	const page = await statsPage(env, input);
	return { ...page, layout: layoutEnd(config, page.serverNowMs) };
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
		const history = await askCatalog(
			() => rootStub(env),
			(root) => root.fleetHistory(sinceMs),
		);
		return { workerId: null, minutes, history, serverNowMs: nowMs };
	}
	const result = await callSnowflake<HistoryResult>(env, config, workerId, (stub) =>
		stub.history(workerId, sinceMs),
	);
	return { workerId, minutes, history: result.minutes, serverNowMs: nowMs };
}

/** `GET /metrics`: the root's totals, worker IDs, leases and busiest sequences in Prometheus text format. */
export async function metricsText(env: Env, config: Config): Promise<string> {
	const snapshot = await askCatalog(
		() => rootStub(env),
		(root) => root.metricsSnapshot(config.metricsSequences),
	);
	return prometheusText(snapshot, layoutEnd(config, snapshot.serverNowMs).yearsLeft);
}
