/**
 * Worker-ID leases across versions, with the real bundles: this version's, and the
 * last one without leases (built from git: ./previous-version.ts). During a gradual
 * deployment (or after a rollback) an object may run one version and the Worker
 * calling it another:
 *
 * - a Worker with leases calling an object without them answers `503 unavailable`
 *   with Retry-After, never a 500;
 * - an object without leases meeting a stored lease refuses to issue anything for
 *   that worker ID (its stored layout is marked), so it never issues into the span;
 * - this version reads its own state back afterwards and renews the same lease;
 * - a holder of 0.2.0, which put the leaseId in renew and release URLs, is refused
 *   `410 lease_route_moved` naming the routes that replace them.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unstable_readConfig } from "wrangler";
import { builtEntry, workerModules } from "../../scripts/lib/built-worker";
import type { LeaseGrant } from "../../src/wire";
import { previousBundle } from "./previous-version";

const service = unstable_readConfig({ config: "wrangler.toml" });
const vars = service.vars as Record<string, string>;
const CURRENT = builtEntry(".build/service");
let previous: string;
let storage: string;

beforeAll(() => {
	previous = previousBundle();
	storage = mkdtempSync(join(tmpdir(), "edge-ids-skew-"));
}, 180_000);

afterAll(() => rmSync(storage, { recursive: true, force: true }));

interface Part {
	name: string;
	script: string;
	/** The worker that owns the objects' class (default: this one). */
	objectsOf?: string;
	leases?: boolean;
}

/** Workers from bundles in one workerd, the objects' storage in `storage` (kept between starts). */
async function start(parts: Part[]): Promise<Miniflare> {
	const mf = new Miniflare(
		convertV4MiniflareOptions({
			resourcePersistencePath: storage,
			workers: parts.map((part) => ({
				name: part.name,
				...workerModules(part.script),
				compatibilityDate: service.compatibility_date,
				bindings: { ...vars, ...(part.leases ? { LEASE_WORKER_IDS: "900-931" } : {}) },
				durableObjects: {
					SNOWFLAKE: {
						className: "SnowflakeWorker",
						useSQLite: true,
						...(part.objectsOf ? { scriptName: part.objectsOf } : {}),
					},
					// This version tells its fleet catalog of leases (0.2.0 has none).
					...(part.script === CURRENT
						? { CATALOG: { className: "FleetCatalog", useSQLite: true } }
						: {}),
				},
			})),
		}),
	);
	await mf.ready;
	return mf;
}

async function ask(mf: Miniflare, worker: string, method: string, path: string, body?: unknown) {
	const response = await (await mf.getWorker(worker)).fetch(`https://ids.test${path}`, {
		method,
		...(body === undefined
			? {}
			: { body: JSON.stringify(body), headers: { "Content-Type": "application/json" } }),
	});
	const text = await response.text();
	return {
		status: response.status,
		retryAfter: response.headers.get("Retry-After"),
		body: (text ? JSON.parse(text) : undefined) as Record<string, unknown> & {
			error?: { code: string; message: string };
		},
	};
}

describe("worker-ID leases across versions", () => {
	it("a 0.2.0 holder (the leaseId in the URL) is refused 410 lease_route_moved, naming the new routes", async () => {
		const mf = await start([{ name: "edge-ids", script: CURRENT, leases: true }]);
		try {
			// What a 0.2.0 holder sends: an acquire (unchanged), then renew and release by path.
			const grant = (await ask(mf, "edge-ids", "POST", "/leases", { workerId: 930 }))
				.body as unknown as LeaseGrant;
			for (const [method, path] of [
				["POST", `/leases/930/${grant.leaseId}/renew`],
				["DELETE", `/leases/930/${grant.leaseId}`],
			] as const) {
				const refused = await ask(mf, "edge-ids", method, path);
				expect(refused.status, method).toBe(410);
				expect(refused.body.error?.code).toBe("lease_route_moved");
				expect(refused.body.error?.message).toContain(
					'POST /leases/:workerId/renew and POST /leases/:workerId/release, each with {"leaseId": "…"}',
				);
				expect(JSON.stringify(refused.body)).not.toContain(grant.leaseId);
			}
			// Nothing was renewed or released: the lease is still held, as granted.
			const status = await ask(mf, "edge-ids", "GET", "/leases/930");
			expect(status.body).toMatchObject({ state: "held", to: grant.to });
		} finally {
			await mf.dispose();
		}
	});

	it("a Worker with leases, an object without: 503 unavailable with Retry-After", async () => {
		const mf = await start([
			{ name: "edge-ids", script: previous },
			{ name: "edge-ids-next", script: CURRENT, objectsOf: "edge-ids", leases: true },
		]);
		try {
			for (const [method, path, body] of [
				["POST", "/leases", { workerId: 910 }],
				["POST", "/leases", {}],
				["GET", "/leases/910", undefined],
				["POST", "/leases/910/renew", { leaseId: "A".repeat(32) }],
			] as const) {
				const answer = await ask(mf, "edge-ids-next", method, path, body);
				expect(answer.status, `${method} ${path}`).toBe(503);
				expect(answer.body.error?.code).toBe("unavailable");
				expect(answer.retryAfter).toBe("5");
			}
			// The old objects still serve this version's ID routes.
			expect((await ask(mf, "edge-ids-next", "GET", "/snowflake/5?count=3")).status).toBe(200);
		} finally {
			await mf.dispose();
		}
	});

	it("an object without leases meeting a stored lease refuses; this version renews it after", async () => {
		const current = await start([{ name: "edge-ids", script: CURRENT, leases: true }]);
		let held: LeaseGrant;
		let released: LeaseGrant;
		try {
			held = (await ask(current, "edge-ids", "POST", "/leases", { workerId: 920 })).body as never;
			released = (await ask(current, "edge-ids", "POST", "/leases", { workerId: 921 }))
				.body as never;
			const gone = await ask(current, "edge-ids", "POST", "/leases/921/release", {
				leaseId: released.leaseId,
			});
			expect(gone.status).toBe(204);
		} finally {
			await current.dispose();
		}

		const old = await start([{ name: "edge-ids", script: previous }]);
		try {
			for (const path of [
				"/snowflake/920?count=5",
				"/snowflake/920/blocks?count=5",
				"/snowflake/921?count=5",
				"/snowflake/920/stats",
			]) {
				const refused = await ask(old, "edge-ids", "GET", path);
				expect(refused.status, path).toBe(500);
				expect(refused.body.error).toMatchObject({
					code: "layout_mismatch",
					message: expect.stringContaining("with worker-ID leases"),
				});
				expect(refused.body).not.toHaveProperty("ids");
			}
			// Worker IDs never leased are the old version's as before.
			expect((await ask(old, "edge-ids", "GET", "/snowflake/925?count=2")).status).toBe(200);
		} finally {
			await old.dispose();
		}

		const again = await start([{ name: "edge-ids", script: CURRENT, leases: true }]);
		try {
			const renewed = await ask(again, "edge-ids", "POST", "/leases/920/renew", {
				leaseId: held.leaseId,
			});
			expect(renewed.status).toBe(200);
			expect(renewed.body).toMatchObject({ workerId: 920, from: held.from });
			expect(renewed.body.to as number).toBeGreaterThanOrEqual(held.to);
			const status = await ask(again, "edge-ids", "GET", "/leases/921");
			expect(status.body).toMatchObject({ state: "free", to: released.to });
		} finally {
			await again.dispose();
		}
	});
});
