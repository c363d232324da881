/**
 * What the service's Durable Objects answer, as values (refusals included: an
 * `ObjectFailure` crosses the boundary as data, ./object-answers.ts), and the stubs'
 * types. The callers (operations, the calls to objects) import these, never the
 * object classes, so that no caller depends on an object's code.
 *
 *   const answer: IssueResult = await snowflakeStub(env, 7).issue(7, 10);
 */

import type { GrantedSpan } from "../../ids/leases/keeper";
import type { LeaseView } from "../../ids/leases/span-rules";
import type { MinuteCounts } from "../../ids/minute-tally";
import type { IdRun } from "../../ids/snowflake/runs";
import type { SequenceStatus, SnowflakeStatsInfo } from "../../wire";
import type {
	FleetTotals,
	LeaseListing,
	SequenceCounts,
	WorkerIdCounts,
} from "../../wire/operations";
import type { ObjectFailure } from "./object-answers";
import type { IssuedNumbers } from "./sequence-book";

/** A worker ID's Snowflake object (`SnowflakeWorker`), as the SNOWFLAKE binding hands it out. */
export type SnowflakeStub = ReturnType<Env["SNOWFLAKE"]["get"]>;
/** A named sequence's object (`SequenceObject`). */
export type SequenceStub = ReturnType<Env["SEQUENCES"]["get"]>;
/** The fleet catalog (`FleetCatalog`). */
export type CatalogStub = ReturnType<Env["CATALOG"]["get"]>;

export type { ObjectFailure };

/** What `issue` answers. */
export type IssueResult =
	/**
	 * `layout`: the issuing object's layout fingerprint (absent from objects of
	 * earlier versions); a Worker on another layout must not format the runs.
	 */
	{ ok: true; runs: IdRun[]; layout?: string } | ObjectFailure;

/** An object's stats (`since`, ISO, is when counting began); counts once read survive restarts. */
export type StatsResult = { ok: true; stats: SnowflakeStatsInfo } | ObjectFailure;

/** What `acquireLease` and `renewLease` answer: the span, under the object's layout. */
export type SpanResult = { ok: true; span: GrantedSpan; layout: string } | ObjectFailure;

/** What `releaseLease` answers. */
export type ReleaseResult = { ok: true } | ObjectFailure;

/** What `takeAcquire` answers: taken, or the whole seconds until the caller may acquire again. */
export type AcquireBudgetResult = { ok: true } | { ok: false; retryAfterSeconds: number };

/** What `leaseStatus` answers (never the lease's hash). */
export type LeaseStatusResult =
	| { ok: true; status: LeaseView & { serverNowMs: number }; layout: string }
	| ObjectFailure;

/** What `history` answers: the worker ID's minutes, stored and not yet stored, oldest first. */
export type HistoryResult = { ok: true; minutes: MinuteCounts[] } | ObjectFailure;

/** What `create` answers: `created` false when it existed with the same settings. */
export type CreateResult = { ok: true; created: boolean; status: SequenceStatus } | ObjectFailure;

/** What `next`, `reserve` and `segment` answer: consecutive numbers `first`..`last`. */
export type IssuedResult = ({ ok: true } & IssuedNumbers) | ObjectFailure;

/** What `retire` answers: `retired` false when it was retired already (the same status again). */
export type RetireResult = { ok: true; retired: boolean; status: SequenceStatus } | ObjectFailure;

/** What `advance` and `status` answer. */
export type StatusResult = { ok: true; status: SequenceStatus } | ObjectFailure;

/** The root's part of a `GET /stats` page: worker IDs after the cursor, and the fleet's totals. */
export interface RootPage {
	workerIds: WorkerIdCounts[];
	more: boolean;
	totals: FleetTotals;
	serverNowMs: number;
}

/** What `GET /metrics` shows, from the root: every worker ID, the leases, the busiest sequences. */
export interface MetricsSnapshot {
	leases: LeaseListing[];
	workerIds: WorkerIdCounts[];
	sequences: SequenceCounts[];
	totals: FleetTotals;
	serverNowMs: number;
}
