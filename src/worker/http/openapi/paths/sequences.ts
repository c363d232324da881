/** The OpenAPI operations of ../../routes/sequences.ts (read by ../document.ts only, never by the Worker). */
import { http } from "../../http-inputs";
import { operation } from "../operation";

const tag = "Sequences";
const MISSING = "`unknown_sequence`: never created (PUT /sequences/{name} creates it)";
const BUSY = "The sequence's object is unavailable or overloaded";
const RETIRED =
	"`sequence_retired`: the sequence was retired (DELETE /sequences/{name}); it issues nothing more";
const named = { tag, objects: BUSY, missing: MISSING, retired: RETIRED, period: true } as const;
const NUMBERS = "Consecutive numbers; with `Accept: text/plain`, one per line. Never cached.";
const NEXT =
	"ordered: a call that returned before another began got smaller numbers. pooled: from the isolate's segment.";

export const sequenceOperations = [
	operation({
		tag,
		method: "get",
		path: "/sequences",
		summary: "The sequence names created, in name order, a page at a time",
		description:
			"From the fleet catalog, written once per creation. Pass the answer's `cursor` for the next page (null on the last).",
		input: http.sequenceList,
		ok: "sequenceListSchema",
		objects: "The fleet catalog is unavailable or overloaded",
	}),
	operation({
		tag,
		method: "put",
		path: "/sequences/{name}",
		summary: "Create a named sequence (a sequence must be created before use)",
		description:
			"Answers the status: 201 created, 200 when it exists with the same settings, 409 `sequence_exists` when they differ.",
		input: http.sequenceCreate,
		ok: "sequenceStatusSchema",
		created: true,
		period: true,
		found: "It exists with the same settings: its status",
		conflicts:
			"`sequence_exists`: it exists with other settings; `sequence_retired`: the name was retired, and a new sequence of it would repeat numbers",
		alsoUnder409: ["sequence_retired"],
		objects: BUSY,
	}),
	operation({
		...named,
		method: "get",
		path: "/sequences/{name}",
		summary: "A sequence's settings, next number, counts and period",
		input: http.sequenceStatus,
		ok: "sequenceStatusSchema",
	}),
	...(["get", "post"] as const).map((method) =>
		operation({
			...named,
			method,
			path: "/sequences/{name}/next",
			summary: "The next numbers of a named sequence (consecutive, in order)",
			description: NEXT,
			input: method === "get" ? http.sequenceNext : http.sequenceNextPost,
			ok: "sequenceNumbersSchema",
			ids: NUMBERS,
			conflicts: "`sequence_exhausted`: past 2^63 − 1",
		}),
	),
	operation({
		...named,
		method: "post",
		path: "/sequences/{name}/reserve",
		summary: "Reserve numbers no one else will get, for a process to hand out",
		input: http.sequenceReserve,
		ok: "sequenceRangeSchema",
		ids: "A range no one else gets; with `Accept: text/plain`, `first last` on one line. Never cached.",
		conflicts: "`sequence_exhausted`: past 2^63 − 1",
	}),
	operation({
		...named,
		retired: undefined,
		method: "delete",
		path: "/sequences/{name}",
		summary: "Retire a sequence for good (confirmed by its name in the body)",
		description:
			'Answers its last status with `retiredAt`; again the same once retired. Afterwards every call on the name answers 410 `sequence_retired`, it leaves the list, `/stats` and `/metrics`, and a create of the name answers 409 `sequence_retired`: a new sequence starting again would repeat numbers. The body must be `{"confirm": "<name>"}`. Pooled: isolates stop at their next segment fetch, and hand out numbers of segments taken before the retire for less than POOL_MAX_AGE_MS after it.',
		input: http.sequenceRetire,
		ok: "sequenceStatusSchema",
	}),
	operation({
		...named,
		method: "get",
		path: "/sequences/{name}/history",
		summary: "A sequence's numbers issued, requests and refusals per minute, for up to a day",
		description:
			"From the sequence's own object, the current minute included; idle minutes are absent.",
		input: http.sequenceHistory,
		ok: "sequenceHistorySchema",
		period: false,
	}),
	operation({
		...named,
		method: "post",
		path: "/sequences/{name}/advance",
		summary: "Move a sequence forward: the next number becomes at least `to`, never less",
		description: "For moving from another counter (a table's max(id)). Answers the status.",
		input: http.sequenceAdvance,
		ok: "sequenceStatusSchema",
	}),
];
