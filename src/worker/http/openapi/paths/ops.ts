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
		summary:
			"A page of the worker IDs that have issued, then of the sequences, with counts and the fleet's totals",
		description:
			"At most `limit` rows (default 100, at most 1000): worker IDs in ID order, then sequences in catalog order (by shard, then name), each row's counts within two minutes of its object's; the fleet's totals and the layout's last instant on every page. Pass `cursor` from the answer for the next page (null on the last). A page is one request to the catalog's root, and once it reaches the sequences one to its directory and at most 64 to its shards. Largest answer: ~0.45 KB a row, ~450 KB at limit=1000.",
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
		summary:
			"Fleet totals, counters per worker ID and for the busiest sequences, leases held, the layout's years left",
		description:
			"Prometheus text exposition format (0.0.4). One request to the catalog's root per scrape: the fleet's totals, one line per worker ID and counter, and per-sequence lines for the METRICS_SEQUENCES (default 100) sequences with the most calls among those that issued in the last hour. Counts above 2^53 are written in full; a Prometheus server keeps them as floats (read `GET /sequences/{name}` for the exact value).",
		text: "Prometheus text exposition format",
	}),
];
