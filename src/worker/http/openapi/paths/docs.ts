/** The OpenAPI operations of ../../routes/docs.ts (read by ../document.ts only, never by the Worker). */
import { operation } from "../operation";

export const docsOperations = [
	operation({
		method: "get",
		path: "/openapi.json",
		summary: "This OpenAPI 3.1 document",
		tag: "Service",
		ok: "documentSchema",
		public: true,
	}),
	operation({
		method: "get",
		path: "/docs",
		summary: "The API reference (HTML)",
		tag: "Service",
		html: true,
		public: true,
	}),
];
