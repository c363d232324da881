/** The OpenAPI operations of ../../routes/stateless.ts (read by ../document.ts only, never by the Worker). */
import { http } from "../../http-inputs";
import { getAndPost } from "../operation";

const tag = "ULID and UUIDv7";

export const statelessOperations = [
	...getAndPost(
		{
			path: "/ulid",
			tag,
			ok: "ulidIdsSchema",
			ids: true,
			summary: "ULIDs (format=uuid: the same 128 bits as UUIDs)",
		},
		http.ulid,
		http.ulidPost,
	),
	...getAndPost(
		{ path: "/uuidv7", tag, ok: "uuidv7IdsSchema", ids: true, summary: "UUIDv7s" },
		http.uuidv7,
		http.uuidv7Post,
	),
];
