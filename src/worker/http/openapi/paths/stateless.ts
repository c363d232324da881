/** The OpenAPI operations of ../../routes/stateless.ts (read by ../document.ts only, never by the Worker). */
import { http } from "../../http-inputs";
import { operation } from "../operation";

const ULID_SUMMARY = "ULIDs (format=uuid: the same 128 bits as UUIDs)";
const UUIDV7_SUMMARY = "UUIDv7s";
const ulid = {
	path: "/ulid",
	tag: "ULID and UUIDv7",
	ok: "ulidIdsSchema",
	ids: true,
} as const;
const uuidv7 = {
	path: "/uuidv7",
	tag: "ULID and UUIDv7",
	ok: "uuidv7IdsSchema",
	ids: true,
} as const;

export const statelessOperations = [
	operation({ ...ulid, method: "get", summary: ULID_SUMMARY, input: http.ulid }),
	operation({ ...ulid, method: "post", summary: ULID_SUMMARY, input: http.ulidPost }),
	operation({ ...uuidv7, method: "get", summary: UUIDV7_SUMMARY, input: http.uuidv7 }),
	operation({ ...uuidv7, method: "post", summary: UUIDV7_SUMMARY, input: http.uuidv7Post }),
];
