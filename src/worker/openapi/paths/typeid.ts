/** The OpenAPI operations of ../../routes/typeid.ts (read by ../document.ts only, never by the Worker). */
import { typeidBody } from "../../json-body";
import { typeidQuery } from "../../validation";
import { operation } from "../operation";

const SUMMARY = "TypeIDs (UUIDv7s as prefix_ and 26 base32 characters, spec v0.3.0)";
const typeid = {
	path: "/typeid",
	tag: "ID forms and ranges",
	query: typeidQuery,
	ok: "typeidIdsSchema",
	ids: true,
	summary: SUMMARY,
} as const;

export const typeidOperations = [
	operation({ ...typeid, method: "get" }),
	operation({ ...typeid, method: "post", body: typeidBody }),
];
