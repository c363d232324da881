/** The OpenAPI operations of ../../routes/meta.ts (read by ../document.ts only, never by the Worker). */
import { http } from "../../http-inputs";
import { operation } from "../operation";

export const metaOperations = [
	operation({
		method: "get",
		path: "/health",
		summary: "Liveness",
		tag: "Service",
		ok: "healthSchema",
		public: true,
		unlimited: true,
	}),
	operation({
		method: "get",
		path: "/layout",
		summary: "The Snowflake layout this deployment issues IDs under",
		tag: "Service",
		ok: "layoutSchema",
	}),
	operation({
		method: "get",
		path: "/decode/{id}",
		summary: "Decode a Snowflake, ULID, UUID or TypeID",
		description:
			"1-19 decimal digits is a Snowflake under the service's layout, 26 characters a ULID, a UUID with or without hyphens, in braces or as urn:uuid:; a prefixed text (`user_…`) is a TypeID (26 characters after the last `_`) or a base32 Snowflake (13). `format=typeid` reads a bare TypeID, `format=base32` a bare base32 Snowflake. `layout` (a preset) or explicit widths read other systems' decimal Snowflake-like IDs (up to 64 bits).",
		tag: "Decode",
		input: http.decode,
		ok: "decodedSchema",
	}),
];
