/**
 * The operations routes' answers as zod schemas (src/wire/operations.ts's types), for the
 * OpenAPI document only: ./schemas.ts adds them to the answer schemas.
 */
import * as z from "zod";

export function opsAnswerSchemas() {
	const unixMs = z.number().int().describe("Unix milliseconds");
	const counts = {
		issued: z.number().int(),
		requests: z.number().int(),
		waits: z.number().int().describe("Calls that waited for the clock to reach a later tick"),
		clockRegressions: z.number().int(),
	};
	const minuteSchema = z.object({
		minute: unixMs.describe("The minute's first instant"),
		...counts,
		refusals: z.record(z.string(), z.number().int()).describe("Refused calls by error code"),
	});
	const fleetLeasesSchema = z.object({
		leases: z.array(
			z.object({
				workerId: z.number().int(),
				holder: z.string().nullable(),
				state: z
					.enum(["held", "grace"])
					.describe("As the worker ID's object last reported it (at most a minute old)"),
				fromMs: unixMs.describe("The span's first instant"),
				toMs: unixMs.describe("The span's end as last reported; renewals move it on"),
				spanMs: z.number().int().describe("LEASE_SPAN_MS when granted"),
				acquiredAtMs: unixMs,
				reportedAtMs: unixMs,
			}),
		),
		serverNowMs: unixMs,
	});
	const fleetStatsSchema = z.object({
		workerIds: z.array(
			z.object({
				workerId: z.number().int(),
				...counts,
				refusals: z.number().int(),
				lastTimestamp: unixMs.nullable(),
				since: z.string().describe("When these counts began (ISO 8601)"),
				reportedAtMs: unixMs.describe("When the worker ID's object last pushed them"),
			}),
		),
		sequences: z.array(
			z.object({
				name: z.string(),
				settings: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
				createdAtMs: unixMs,
				next: z
					.string()
					.nullable()
					.describe("The next number, as decimal text; null until reported, or once exhausted"),
				issued: z
					.string()
					.regex(/^[0-9]+$/)
					.describe("Numbers issued, in every period, as decimal text (it may pass 2^53)"),
				requests: z.number().int().describe("Calls that issued numbers"),
				lastIssuedAtMs: unixMs.nullable(),
				period: z.string().nullable().describe("The current period; null without a reset"),
				reportedAtMs: unixMs
					.nullable()
					.describe("When the sequence's object last reported (at most a minute after a change)"),
			}),
		),
		totals: z
			.object({
				workerIds: z.number().int().describe("Worker IDs that have issued"),
				issued: z.number().int().describe("Snowflake IDs they issued"),
				requests: z.number().int(),
				sequences: z.number().int().describe("Named sequences in the catalog's shards"),
				sequencesIssued: z
					.string()
					.regex(/^[0-9]+$/)
					.describe("Numbers they issued, as decimal text"),
				sequenceRequests: z.number().int(),
			})
			.describe(
				"The whole fleet, on every page (the sequences' sums at most a minute behind their rows)",
			),
		cursor: z
			.string()
			.nullable()
			.describe("Pass as `cursor` for the next page; null on the last page"),
		layout: z.object({
			exhaustsAt: z.string().describe("The layout's last instant (ISO 8601)"),
			exhaustsAtMs: unixMs,
			yearsLeft: z.number(),
		}),
		serverNowMs: unixMs,
	});
	const statsHistorySchema = z.object({
		workerId: z.number().int().nullable().describe("null: the whole fleet"),
		minutes: z.number().int(),
		history: z.array(minuteSchema).describe("Active minutes, oldest first"),
		serverNowMs: unixMs,
	});
	const sequenceHistorySchema = z.object({
		name: z.string(),
		minutes: z.number().int(),
		history: z
			.array(minuteSchema)
			.describe(
				"Active minutes, oldest first: numbers issued, calls that issued, refusals by code (waits and clockRegressions are 0)",
			),
		serverNowMs: unixMs,
	});
	return { fleetLeasesSchema, fleetStatsSchema, statsHistorySchema, sequenceHistorySchema };
}
