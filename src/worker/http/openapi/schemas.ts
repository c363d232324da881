/**
 * The service's answers as zod schemas, for the OpenAPI document only: requests are
 * validated by the contracts in ../contracts/ (which the
 * document also uses), answers are built by the operations. test/integration/openapi.test.ts
 * checks these against the TypeScript wire types (src/wire/index.ts) and against live answers.
 * Built on first use (the document's first request): a new isolate's startup does
 * not construct them.
 */
import * as z from "zod";
import { type ServiceErrorCode, STATUS_OF } from "../../../wire";
import { LOCATION_HINTS } from "../../config/regions";
import { opsAnswerSchemas } from "./ops-schemas";

function build() {
	const decimalId = z.string().regex(/^[0-9]+$/);
	const isoTime = z.string().describe("The same instant as an ISO 8601 string");
	const unixMs = z.number().int().describe("Unix milliseconds");

	const healthSchema = z.object({ status: z.literal("ok") });

	const snowflakeIdsSchema = z.object({
		type: z.literal("snowflake"),
		workerId: z.number().int(),
		ids: z
			.array(z.string())
			.describe("Snowflake IDs in decimal (64-bit: strings), or base32 / prefixed as asked"),
	});
	const ulidIdsSchema = z.object({
		type: z.literal("ulid"),
		ids: z.array(z.string()).describe("ULIDs, or with format=uuid the same bits as UUIDs"),
	});
	const uuidv7IdsSchema = z.object({
		type: z.literal("uuidv7"),
		ids: z.array(
			z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
		),
	});

	const typeidIdsSchema = z.object({
		type: z.literal("typeid"),
		prefix: z.string().describe('The prefix asked for; "" for bare TypeIDs'),
		ids: z
			.array(z.string())
			.describe("TypeIDs: prefix_ and a UUIDv7 as 26 lowercase base32 characters"),
	});

	const rangeSchema = z.object({
		kind: z.enum(["snowflake", "ulid", "uuidv7", "typeid"]),
		from: isoTime.describe("The window's start (included), ISO 8601"),
		to: isoTime.describe("The window's end (excluded), ISO 8601"),
		min: z
			.string()
			.describe("The smallest ID of the window (Snowflake: decimal, or base32 as asked)"),
		max: z.string().describe("The largest ID of the window"),
	});

	const blocksSchema = z.object({
		type: z.literal("snowflake-blocks"),
		workerId: z.number().int(),
		blocks: z
			.array(
				z.object({
					first: z.string().describe("The first ID, in decimal (or base32 / prefixed as asked)"),
					count: z.number().int(),
				}),
			)
			.describe("Runs of consecutive IDs: first, first + 1, … first + count - 1"),
	});

	const layoutSchema = z.object({
		epoch: unixMs,
		timeBits: z.number().int(),
		workerBits: z.number().int(),
		sequenceBits: z.number().int(),
		timeUnitMs: z.number().int(),
		maxWorkerId: z.number().int(),
		maxSequence: z.number().int(),
		exhaustsAt: isoTime.describe("The first instant the layout cannot represent"),
	});

	const statsSchema = z.object({
		workerId: z.number().int(),
		issued: z.number().int().describe("IDs handed out"),
		requests: z.number().int(),
		clockRegressions: z.number().int(),
		maxRegressionMs: z.number(),
		rolloverWaits: z.number().int(),
		leaseWrites: z.number().int(),
		maxLeadMs: z.number(),
		lastTimestamp: unixMs
			.nullable()
			.describe("Start of the last issued tick; null before the first ID"),
		since: isoTime.describe("When these counts began (they survive restarts)"),
	});

	const tick = z.number().int();
	const leaseGrantSchema = z.object({
		workerId: z.number().int(),
		leaseId: z
			.string()
			.describe("The bearer capability that renews and releases this lease: keep it secret"),
		from: tick.describe("The span's first tick (included), counted from the layout's epoch"),
		to: tick.describe(
			"The span's end tick (excluded): issue no ID of this worker ID at or after it",
		),
		fromMs: unixMs.describe("`from` in Unix ms"),
		toMs: unixMs.describe("`to` in Unix ms"),
		serverNowMs: unixMs.describe("The object's clock when it granted: anchor your clock here"),
		layout: layoutSchema.describe("The layout the span is under"),
	});
	const leaseStateSchema = z.object({
		workerId: z.number().int(),
		state: z
			.enum(["held", "grace", "free"])
			.describe(
				"held: a span is current; grace: ended less than LEASE_GRACE_MS ago; free: anyone may acquire",
			),
		holder: z.string().nullable().describe("The label the holder gave, or null"),
		from: tick.nullable().describe("The last span's first tick; null if never leased"),
		to: tick.nullable().describe("The last span's end tick (excluded)"),
		fromMs: unixMs.nullable(),
		toMs: unixMs.nullable(),
		serverNowMs: unixMs.describe("The object's clock"),
	});

	const geoPoint = z.object({ latitude: z.number(), longitude: z.number() });
	const workerIdSet = z.string().describe('Worker-ID ranges such as "0-7,16"');

	const regionsSchema = z.object({
		workerIds: workerIdSet,
		autoWorkerIds: workerIdSet,
		leaseWorkerIds: z
			.string()
			.describe('LEASE_WORKER_IDS, the worker IDs lent to lease holders; "" when leases are off'),
		regions: z.array(
			z.object({
				hint: z.enum(LOCATION_HINTS),
				workerIds: workerIdSet,
				point: geoPoint.extend({ place: z.string() }),
				distanceKm: z.number().int().nullable(),
			}),
		),
		request: z.object({
			location: geoPoint.nullable(),
			region: z.enum(LOCATION_HINTS).nullable(),
			workerIds: workerIdSet,
		}),
	});

	const decodedSnowflake = z
		.object({
			type: z.literal("snowflake"),
			id: decimalId,
			timestamp: unixMs,
			time: isoTime,
			workerId: z.number().int(),
			sequence: z.number().int(),
			datacenterId: z.number().int().optional().describe("Under the Twitter layout"),
			machineId: z.number().int().optional().describe("Under the Twitter layout"),
			prefix: z.string().optional().describe("Read from base32 text: the prefix it carried"),
			base32: z.string().optional().describe("Read from base32 text: its 13 characters"),
		})
		.describe("A Snowflake under the service's own layout");
	const decodedForeign = z
		.object({
			type: z.literal("snowflake"),
			id: decimalId,
			layout: z.string().describe('The preset\'s name, or "custom"'),
			timestamp: unixMs,
			time: isoTime,
		})
		.catchall(z.number().int())
		.describe("A Snowflake-like ID under a preset or explicit layout, with that layout's fields");
	const decodedUlid = z.object({
		type: z.literal("ulid"),
		id: z.string().describe("Canonical form"),
		timestamp: unixMs,
		time: isoTime,
		randomness: z.string().regex(/^[0-9a-f]{20}$/),
		uuid: z.string(),
	});
	const decodedUuidV7 = z.object({
		type: z.literal("uuidv7"),
		id: z.string(),
		version: z.literal(7),
		timestamp: unixMs,
		time: isoTime,
		ulid: z.string(),
	});
	const decodedUuid = z.object({
		type: z.literal("uuid"),
		id: z.string(),
		version: z.number().int(),
		ulid: z.string(),
	});
	const decodedTypeId = z
		.object({
			type: z.literal("typeid"),
			id: z.string(),
			prefix: z.string().describe('The type prefix; "" for a bare TypeID'),
			uuid: z.string().describe("The UUID the suffix encodes (8-4-4-4-12, lowercase)"),
			version: z.number().int(),
			timestamp: unixMs.optional().describe("For a UUIDv7 only"),
			time: isoTime.optional().describe("For a UUIDv7 only"),
		})
		.describe("A TypeID (spec v0.3.0)");
	const decodedSchema = z.union([
		decodedSnowflake,
		decodedForeign,
		decodedUlid,
		decodedUuidV7,
		decodedUuid,
		decodedTypeId,
	]);
	const period = z
		.string()
		.describe(
			'The period the numbers belong to ("2026-11-27", "2026-11", "2026"): only for a sequence with a reset',
		);
	const sequenceNumbersSchema = z.object({
		type: z.literal("sequence"),
		name: z.string(),
		first: decimalId,
		count: z.number().int(),
		numbers: z.array(decimalId).describe("Consecutive numbers from `first`, as decimal strings"),
		period: period.optional(),
	});
	const sequenceRangeSchema = z.object({
		type: z.literal("sequence-range"),
		name: z.string(),
		first: decimalId,
		last: decimalId,
		count: z.number().int(),
		period: period.optional(),
	});
	const sequenceStatusSchema = z.object({
		type: z.literal("sequence-status"),
		name: z.string(),
		settings: z.object({
			start: decimalId,
			mode: z.enum(["ordered", "pooled"]),
			reset: z.enum(["never", "daily", "monthly", "yearly"]),
			timeZone: z.string(),
		}),
		next: decimalId.nullable().describe("The number issued next; null once 2^63 − 1 was issued"),
		issued: decimalId.describe("Numbers issued in all periods"),
		requests: z.number().int(),
		created: isoTime,
		lastIssuedAt: isoTime.nullable(),
		period: z.string().nullable().describe("The current period; null without a reset"),
		step: z
			.number()
			.int()
			.optional()
			.describe("Pooled mode: the size of the last segment an isolate took"),
		retiredAt: isoTime.optional().describe("A retire's answer only: when the sequence was retired"),
	});
	const sequenceListSchema = z.object({
		type: z.literal("sequence-list"),
		names: z.array(z.string()),
		cursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last"),
	});
	const leafDecodedSchema = z
		.object({
			workerId: decimalId,
			sequenceId: decimalId,
			timestamp: z
				.string()
				.regex(/^[0-9]+\([0-9]{4,}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}\)$/)
				.describe(
					"Unix ms, then the same instant as yyyy-MM-dd HH:mm:ss.SSS in UTC in parentheses",
				),
		})
		.describe("leaf-server's decodeSnowflakeId answer: every field a string");
	/** The OpenAPI document itself. */
	const documentSchema = z.record(z.string(), z.unknown());
	return {
		documentSchema,
		healthSchema,
		snowflakeIdsSchema,
		ulidIdsSchema,
		uuidv7IdsSchema,
		typeidIdsSchema,
		rangeSchema,
		blocksSchema,
		layoutSchema,
		statsSchema,
		leaseGrantSchema,
		leaseStateSchema,
		regionsSchema,
		decodedSchema,
		...opsAnswerSchemas(),
		sequenceNumbersSchema,
		sequenceRangeSchema,
		sequenceStatusSchema,
		sequenceListSchema,
		leafDecodedSchema,
	};
}

/** The answer schemas, by name. */
export type AnswerSchemas = ReturnType<typeof build>;

let built: AnswerSchemas | undefined;

/** The answer schemas, built once per isolate on first use. */
export function answerSchemas(): AnswerSchemas {
	built ??= build();
	return built;
}

const CODES = Object.keys(STATUS_OF) as ServiceErrorCode[];

/** `{"error":{"code","message"}}` with the codes answered under `status` (all codes without one), and `also`. */
export function errorSchema(status?: number, also: readonly ServiceErrorCode[] = []) {
	const codes = CODES.filter(
		(code) => status === undefined || STATUS_OF[code] === status || also.includes(code),
	);
	return z.object({
		error: z.object({
			code: z.enum(codes as [ServiceErrorCode, ...ServiceErrorCode[]]),
			message: z.string().describe("What was wrong and what is allowed"),
		}),
	});
}
