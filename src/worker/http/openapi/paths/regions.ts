/** The OpenAPI operations of ../../routes/regions.ts (read by ../document.ts only, never by the Worker). */
import { operation } from "../operation";

export const regionOperations = [
	operation({
		method: "get",
		path: "/regions",
		summary: "Worker IDs by region, and where an auto request from this caller goes",
		tag: "Service",
		ok: "regionsSchema",
	}),
];
