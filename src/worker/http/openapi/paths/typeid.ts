/** The OpenAPI operations of ../../routes/typeid.ts (read by ../document.ts only, never by the Worker). */
import { http } from "../../http-inputs";
import { operation } from "../operation";

const SUMMARY = "TypeIDs (UUIDv7s as prefix_ and 26 base32 characters, spec v0.3.0)";
const typeid = {
	path: "/typeid",
	tag: "ID forms and ranges",
	ok: "typeidIdsSchema",
	ids: true,
	summary: SUMMARY,
} as const;

export const typeidOperations = [
	operation({ ...typeid, method: "get", input: http.typeid }),
	operation({ ...typeid, method: "post", input: http.typeidPost }),
];
