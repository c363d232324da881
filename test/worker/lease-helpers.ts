/**
 * What the lease tests in workerd share: the app under LEASE_WORKER_IDS (its own
 * env and config; the objects run the test config, whose span is 30 s and grace 2 s),
 * JSON requests to it, and the objects' test clocks. Each test uses worker IDs of
 * its own: storage is shared by the tests of a file.
 */
import type { LeaseGrant } from "../../src/wire";
import { envWith, fetchApp } from "../shared/fetch-app";

/** The leased worker IDs of these tests (the layout's 1024 hold them; the auto set 0-31 does not). */
export const LEASED = "600-699";

/** The app with leases on (and `vars` over it). */
export function leasesApp(vars: Record<string, string> = {}) {
	const appEnv = envWith({ LEASE_WORKER_IDS: LEASED, ...vars });
	return async <T = Record<string, unknown>>(
		method: "GET" | "POST" | "DELETE" | "PUT",
		path: string,
		body?: unknown,
	) => {
		const init: RequestInit = { method };
		if (body !== undefined) {
			init.body = typeof body === "string" ? body : JSON.stringify(body);
			init.headers = { "Content-Type": "application/json" };
		}
		const response = await fetchApp(path, init, appEnv);
		const text = await response.text();
		return {
			status: response.status,
			headers: response.headers,
			text,
			body: (text ? JSON.parse(text) : undefined) as T,
		};
	};
}

/** The paths of a grant's renew and release (the worker ID only), and their body: the leaseId. */
export const renewPath = (grant: LeaseGrant) => `/leases/${grant.workerId}/renew`;
export const releasePath = (grant: LeaseGrant) => `/leases/${grant.workerId}/release`;
export const leaseBody = (grant: LeaseGrant) => ({ leaseId: grant.leaseId });
