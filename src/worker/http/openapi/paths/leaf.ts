/** The OpenAPI operations of ../../routes/leaf.ts (read by ../document.ts only, never by the Worker). */
import { http } from "../../http-inputs";
import { operation } from "../operation";

const tag = "Leaf-compatible";
const DIGITS =
	"The number as bare decimal digits, no newline (`text/plain`), as leaf-server answers: `Long.parseLong(body)` reads it. Never cached.";

export const leafOperations = [
	...(["get", "post"] as const).map((method) =>
		operation({
			tag,
			method,
			path: "/api/segment/get/{key}",
			summary: "The next number of sequence `key` (leaf-server's segment route)",
			description:
				"The sequence must have been created (PUT /sequences/{name}); ordered and pooled modes both answer. A Leaf biz_tag that is not a sequence name is refused (400 `invalid_sequence_name`): docs/MIGRATING.md maps it to one.",
			input: method === "get" ? http.leafSegment : http.leafSegmentPost,
			text: DIGITS,
			missing: "`unknown_sequence`: never created (PUT /sequences/{name} creates it)",
			conflicts: "`sequence_exhausted`: past 2^63 − 1",
			objects: "The sequence's object is unavailable or overloaded",
		}),
	),
	...(["get", "post"] as const).map((method) =>
		operation({
			tag,
			method,
			path: "/api/snowflake/get/{key}",
			summary: "One Snowflake ID from the auto pool (leaf-server's snowflake route; `key` ignored)",
			description: "As GET /snowflake, one ID, answered as leaf-server answers.",
			input: method === "get" ? http.leafSnowflake : http.leafSnowflakePost,
			text: DIGITS,
			objects: true,
		}),
	),
	operation({
		tag,
		method: "get",
		path: "/decodeSnowflakeId",
		summary: "A Snowflake taken apart in leaf-server's words",
		description:
			"Under this deployment's layout (Leaf's own, 41/10/12 bits from 1288834974657, by default); the time in UTC. GET /decode/{id} says more.",
		input: http.leafDecode,
		ok: "leafDecodedSchema",
	}),
];
