/** The OpenAPI operations of ../../routes/sequences.ts (read by ../document.ts only, never by the Worker). */
import { http } from "../../http-inputs";
import { operation } from "../operation";

const tag = "Sequences";
const MISSING =
	"`unknown_sequence`: the sequence was never created (create it with PUT /sequences/{name})";
const BUSY = "The sequence's object is unavailable or overloaded";
const named = { tag, objects: BUSY, missing: MISSING } as const;
const NUMBERS =
	"`count` consecutive numbers as decimal strings (a sequence with a reset names its period); with `Accept: text/plain`, one number per line. Never cached.";
const NEXT =
	"Ordered mode: every number from the sequence's object, stored before the answer leaves; a call that returned before another began got smaller numbers. Pooled mode: from the isolate's segment. 409 `sequence_exhausted` past 2^63 − 1.";

export const sequenceOperations = [
	operation({
		tag,
		method: "get",
		path: "/sequences",
		summary: "The sequence names created, in name order, a page at a time",
		description:
			"Pass the answer's `cursor` as `cursor` for the next page; it is null on the last. From a catalog written once per creation, never by the issuing routes.",
		input: http.sequenceList,
		ok: "sequenceListSchema",
		objects: "The catalog's object is unavailable or overloaded",
	}),
	operation({
		tag,
		method: "put",
		path: "/sequences/{name}",
		summary: "Create a named sequence (a sequence must be created before use)",
		description:
			"Settings: `start` (default 1; above 2^53 as a decimal string), `mode` (`ordered` default, or `pooled`), `reset` (`never` default, `daily`, `monthly`, `yearly`: numbering starts again at `start` by the date in `timeZone`, default UTC). Answers the status: 201 when created, 200 when it exists with the same settings; 409 `sequence_exists` (the message shows the settings it has) when they differ.",
		input: http.sequenceCreate,
		ok: "sequenceStatusSchema",
		created: true,
		found: "It exists with the same settings: its status",
		conflicts: "`sequence_exists`: the sequence exists with other settings, shown in the message",
		objects: BUSY,
	}),
	operation({
		...named,
		method: "get",
		path: "/sequences/{name}",
		summary:
			"A sequence's status: settings, next number, numbers issued, requests, period, pooled step",
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
			conflicts: "`sequence_exhausted`: the numbers asked for would pass 2^63 − 1",
		}),
	),
	operation({
		...named,
		method: "post",
		path: "/sequences/{name}/reserve",
		summary:
			"Reserve a range of numbers no one else will ever get, for a process that hands them out itself",
		description:
			"Up to MAX_BLOCK_COUNT numbers `first`..`last`, in either mode. `createSequenceBuffer` in edge-ids/client hands them out in a process, reserving the next range before this one runs out.",
		input: http.sequenceReserve,
		ok: "sequenceRangeSchema",
		conflicts: "`sequence_exhausted`: the range would pass 2^63 − 1",
	}),
	operation({
		...named,
		method: "post",
		path: "/sequences/{name}/advance",
		summary: "Move a sequence forward: the next number becomes at least `to`, never less",
		description:
			"For moving from another counter (Leaf's max_id, a table's max(id), AUTO_INCREMENT). Answers the status.",
		input: http.sequenceAdvance,
		ok: "sequenceStatusSchema",
	}),
];
