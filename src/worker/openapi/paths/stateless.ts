/** The OpenAPI operations of ../../routes/stateless.ts (read by ../document.ts only, never by the Worker). */
import { countBody, ulidBody } from "../../json-body";
import { countQuery, ulidQuery } from "../../validation";
import { operation } from "../operation";

const ULID_SUMMARY = "ULIDs (format=uuid: the same 128 bits as UUIDs)";
const UUIDV7_SUMMARY = "UUIDv7s";
const ulid = {
	path: "/ulid",
	tag: "ULID and UUIDv7",
	query: ulidQuery,
	ok: "ulidIdsSchema",
	ids: true,
} as const;
const uuidv7 = {
	path: "/uuidv7",
	tag: "ULID and UUIDv7",
	query: countQuery,
	ok: "uuidv7IdsSchema",
	ids: true,
} as const;

export const statelessOperations = [
	operation({ ...ulid, method: "get", summary: ULID_SUMMARY }),
	operation({ ...ulid, method: "post", summary: ULID_SUMMARY, body: ulidBody }),
	operation({ ...uuidv7, method: "get", summary: UUIDV7_SUMMARY }),
	operation({ ...uuidv7, method: "post", summary: UUIDV7_SUMMARY, body: countBody }),
];
