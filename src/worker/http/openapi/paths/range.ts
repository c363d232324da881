/** The OpenAPI operations of ../../routes/range.ts (read by ../document.ts only, never by the Worker). */
import { http } from "../../http-inputs";
import { operation } from "../operation";

export const rangeOperations = [
	operation({
		method: "get",
		path: "/range",
		summary: "The tightest [min, max] holding every ID of a kind with a time in [from, to)",
		description:
			"For range queries on an ID column: `WHERE id BETWEEN min AND max` (Snowflakes in decimal by number, every text form by text). A Snowflake's time is epoch + tick × timeUnitMs, so the window holds the ticks that start in it; `workerId` narrows the bounds to one worker ID's IDs. A window reaching past the kind's time range is cut to it; one outside it, or with from ≥ to, is 400 invalid_range.",
		tag: "ID forms and ranges",
		input: http.range,
		ok: "rangeSchema",
	}),
];
