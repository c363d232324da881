/**
 * The HTTP client's named-sequence calls (`/sequences`), the same as the IdService
 * RPC methods of `SequenceRpc`. A name is checked by the service's own contract
 * (src/worker/contracts/sequences.ts) before it reaches a URL: a bad one is
 * `invalid_sequence_name` in the service's words, and no value reaches another route.
 * Options travel whole, as the JSON body (or the list's query), so a misspelled
 * name is refused by the service as it is over RPC, never dropped.
 *
 *   await ids.createSequence("orders", { start: 1000 });
 *   await ids.nextInSequence("orders", { count: 2 }); // { first: "1000", numbers: ["1000", "1001"], … }
 *
 * Retries: `next` and `reserve` are retried like every call (429, 502-504, network
 * failures): a retried call whose first attempt reached the service leaves a gap,
 * never a number twice. create, advance, status, history, list and retire are safe to
 * repeat (a retire again answers what the first did).
 */

import { IdError } from "../ids/errors";
import {
	type AdvanceSequenceOptions,
	type CreateSequenceOptions,
	type ListSequencesOptions,
	type NextInSequenceOptions,
	type ReserveInSequenceOptions,
	type RetireSequenceOptions,
	type SequenceHistory,
	type SequenceHistoryOptions,
	type SequenceList,
	type SequenceNumbers,
	type SequenceRange,
	type SequenceStatus,
	type ServiceErrorCode,
	STATUS_OF,
} from "../wire";
import { checkNameInput } from "../worker/contracts/sequences";
import type { CallOptions, Query, ServiceRequest } from "./call-options";
import { IdsError } from "./errors";

/** The sequence methods of `idsClient`, over its `request`. */
export function sequenceCalls(request: ServiceRequest) {
	return {
		/** Creates the sequence (`PUT /sequences/:name`), or finds it with the same settings; `sequence_exists` with others. */
		async createSequence(name: string, settings: CreateSequenceOptions = {}, call?: CallOptions) {
			return request<SequenceStatus>("PUT", sequencePath(name), {}, settings, call);
		},
		/** `count` (default 1) consecutive numbers; `unknown_sequence` for a name never created. */
		async nextInSequence(name: string, options: NextInSequenceOptions = {}, call?: CallOptions) {
			return request<SequenceNumbers>("POST", sequencePath(name, "next"), {}, options, call);
		},
		/** A range of `count` numbers no one else gets (at most MAX_BLOCK_COUNT). */
		async reserveInSequence(name: string, options: ReserveInSequenceOptions, call?: CallOptions) {
			return request<SequenceRange>("POST", sequencePath(name, "reserve"), {}, options, call);
		},
		/** The next number becomes at least `to`, never less. */
		async advanceSequence(name: string, options: AdvanceSequenceOptions, call?: CallOptions) {
			return request<SequenceStatus>("POST", sequencePath(name, "advance"), {}, options, call);
		},
		/** Settings, next number, counts, period and (pooled) step. */
		async sequenceStatus(name: string, call?: CallOptions) {
			return request<SequenceStatus>("GET", sequencePath(name), {}, undefined, call);
		},
		/**
		 * Retires the sequence for good (`DELETE /sequences/:name`), `confirm` its name
		 * again: its last status with `retiredAt`. Then every call on it is
		 * `sequence_retired`, and its name can never be created again.
		 */
		async retireSequence(name: string, options: RetireSequenceOptions, call?: CallOptions) {
			return request<SequenceStatus>("DELETE", sequencePath(name), {}, options, call);
		},
		/** Per-minute counts for the last 1-1440 minutes (default 60): numbers issued, requests, refusals by code. */
		async sequenceHistory(
			name: string,
			{ minutes }: SequenceHistoryOptions = {},
			call?: CallOptions,
		) {
			return request<SequenceHistory>(
				"GET",
				sequencePath(name, "history"),
				{ minutes },
				undefined,
				call,
			);
		},
		/** A page of the names created, in name order; the answer's `cursor` asks for the next. */
		async listSequences(options: ListSequencesOptions = {}, call?: CallOptions) {
			return request<SequenceList>("GET", "/sequences", options as Query, undefined, call);
		},
	};
}

/** `/sequences/:name[/action]`, once the name keeps the service's rule. */
function sequencePath(name: string, action?: "next" | "reserve" | "advance" | "history"): string {
	let checked: string;
	try {
		checked = checkNameInput(name);
	} catch (error) {
		if (error instanceof IdError) {
			const code = error.code as ServiceErrorCode;
			throw new IdsError(code, error.detail, STATUS_OF[code], undefined);
		}
		throw error;
	}
	return `/sequences/${checked}${action ? `/${action}` : ""}`;
}
