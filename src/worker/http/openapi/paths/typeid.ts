/** The OpenAPI operations of ../../routes/typeid.ts (read by ../document.ts only, never by the Worker). */
import { http } from "../../http-inputs";
import { getAndPost } from "../operation";

export const typeidOperations = getAndPost(
	{
		path: "/typeid",
		tag: "ID forms and ranges",
		ok: "typeidIdsSchema",
		ids: true,
		summary: "TypeIDs (UUIDv7s as prefix_ and 26 base32 characters, spec v0.3.0)",
	},
	http.typeid,
	http.typeidPost,
);
