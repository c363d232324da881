/** The OpenAPI operations of ../../routes/page.ts (read by ../document.ts only, never by the Worker). */
import { operation } from "../operation";

export const pageOperations = [
	operation({
		method: "get",
		path: "/",
		summary: "The playground (HTML)",
		tag: "Service",
		html: true,
		public: true,
	}),
	operation({
		method: "get",
		path: "/monitor",
		summary: "The monitor: worker IDs, leases, sequences and per-minute charts (HTML)",
		tag: "Service",
		html: true,
		public: true,
	}),
];
