/**
 * The service with one route more, for the fleet-scale run only (never deployed):
 * `POST /__load/sequences?label=&from=&to=` writes the rows of sequences `from`..`to - 1`
 * straight into the catalog's directory and shards the way creates and reports leave
 * them, then has the shards it touched send their summaries to the root. 200,000 real
 * creates would make 200,000 objects on a laptop's disk; the fleet routes read the
 * catalog only, so its rows are what the run needs.
 *
 *   curl -X POST 'http://127.0.0.1:8787/__load/sequences?label=load&from=0&to=10000'
 */
import service from "../../../src/index";
import { directoryStub, shardStubAt } from "../../../src/worker/object/catalog-calls";
import type { SequenceReport } from "../../../src/worker/object/catalog-sequences";
import { FleetCatalog as ServiceCatalog } from "../../../src/worker/object/fleet-catalog";
import { shardOf } from "../../../src/worker/object/minute-alarm";
import { ROW_SETTINGS, reportedRow } from "./reported-row";

export { IdService, SequenceObject, SnowflakeWorker } from "../../../src/index";

/** The catalog with the load run's bulk writes (each one call, in the object). */
export class FleetCatalog extends ServiceCatalog {
	async loadNames(names: string[], createdAtMs: number): Promise<void> {
		for (const name of names) await this.registerSequence(name, ROW_SETTINGS, createdAtMs);
	}

	async loadReports(reports: SequenceReport[]): Promise<void> {
		for (const report of reports) {
			await this.addSequence(report.name, report.settings, report.createdAtMs);
			await this.reportSequence(report);
		}
		await this.alarm(); // the summary to the root now, not at its instant of the minute
	}
}

/** Row `i`'s name: the label and a counter, as tenants name theirs. */
const nameOf = (label: string, i: number) => `${label}-${String(i).padStart(7, "0")}`;

async function load(env: Env, url: URL): Promise<Response> {
	const label = url.searchParams.get("label") ?? "load";
	const from = Number(url.searchParams.get("from") ?? 0);
	const to = Number(url.searchParams.get("to") ?? 0);
	const now = Date.now();
	const names = Array.from({ length: Math.max(0, to - from) }, (_, k) => nameOf(label, from + k));
	const directory = directoryStub(env) as unknown as FleetCatalog;
	await directory.loadNames(names, now);
	const byShard = new Map<number, SequenceReport[]>();
	for (const [k, name] of names.entries()) {
		const issued = ((from + k) % 1000) + 1;
		const reports = byShard.get(shardOf(name)) ?? [];
		reports.push(reportedRow(name, issued, now));
		byShard.set(shardOf(name), reports);
	}
	await Promise.all(
		[...byShard].map(([shard, reports]) =>
			(shardStubAt(env, shard) as unknown as FleetCatalog).loadReports(reports),
		),
	);
	return Response.json({ written: names.length, shards: byShard.size });
}

export default {
	async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
		const url = new URL(request.url);
		if (request.method === "POST" && url.pathname === "/__load/sequences") return load(env, url);
		return service.fetch(request, env, ctx);
	},
} satisfies ExportedHandler<Env>;
