/** The OpenAPI operations of ../../routes/ops.ts (read by ../document.ts only, never by the Worker). */
import { http } from "../../http-inputs";
import { operation } from "../operation";

const tag = "Operations";
const history = {
	tag,
	objects: true,
	method: "get",
	ok: "statsHistorySchema",
} as const;
const PER_MINUTE = "IDs, requests, waits and refusals per minute, for up to a day";

export const opsOperations = [
	operation({
		tag,
		objects: true,
		conflicts: true,
		method: "get",
		path: "/leases",
		input: http.fleetLeases,
		summary: "Every leased worker ID held or in grace: holder, span, acquired at",
		description:
			"One request to the fleet catalog, one row per leased worker ID. Acquires, releases and takeovers write it at once; renewals reach it within a minute. Never shows a leaseId; 409 `leases_disabled` without LEASE_WORKER_IDS.",
		ok: "fleetLeasesSchema",
	}),
	operation({
		tag,
		objects: true,
		method: "get",
		path: "/stats",
		input: http.fleetStats,
		summary: "Every worker ID that has issued and every sequence, with their counts",
		description:
			"One request to the fleet catalog, one row per worker ID and per sequence; their counts are at most a minute old. Also the layout's last instant.",
		ok: "fleetStatsSchema",
	}),
	operation({
		...history,
		path: "/stats/history",
		input: http.fleetHistory,
		summary: `The fleet's ${PER_MINUTE}`,
		description: "The minutes the worker IDs' objects pushed: the current minute is not in it yet.",
	}),
	operation({
		...history,
		path: "/stats/{workerId}/history",
		summary: `A worker ID's ${PER_MINUTE}`,
		description: "From the worker ID's own object, the current minute included.",
		input: http.workerIdHistory,
	}),
	operation({
		tag,
		objects: true,
		method: "get",
		path: "/metrics",
		input: http.metrics,
		summary: "Counters per worker ID and sequence, leases held, the layout's years left",
		description:
			"Prometheus text exposition format (0.0.4). One request to the fleet catalog per scrape, one line per worker ID (or sequence) and counter.",
		text: "Prometheus text exposition format",
	}),
];
