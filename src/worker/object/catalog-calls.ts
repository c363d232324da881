/**
 * The fleet catalog's objects (./fleet-catalog.ts, one class, three roles by name) and
 * calls to them:
 * - the root ("fleet-root"): leases, worker IDs' counts and the fleet's minutes (their
 *   objects' reports) and each shard's summary; what `/stats` totals, `/metrics`,
 *   `/leases` and `/stats/history` read, one request each;
 * - the directory ("fleet"): the names created, in name order (`GET /sequences`), and
 *   how many each shard holds. Only creates write it: a create never queues behind a
 *   report;
 * - CATALOG_SHARDS shards ("fleet-shard-<n>"): each sequence's counts, reported by its
 *   object once a minute, in the shard of its name's hash (./minute-alarm.ts).
 * Calls a caller waits on (a read, a create) retry and turn the platform's failure into
 * `503 unavailable`; writes from objects never fail the object's own operation.
 *
 *   await askCatalog(() => rootStub(env), (root) => root.leases()); // or thrown: 503 unavailable
 *   tellCatalog(ctx, env, "noteLease", (root) => root.noteLease(note));
 */
import { CATALOG_SHARDS, shardOf } from "./minute-alarm";
import { callWithRetry } from "./object-answers";
import type { CatalogStub } from "./object-protocol";

/** The directory's name: the catalog's name before it was sharded, so its listing carries over. */
const DIRECTORY_NAME = "fleet";
const ROOT_NAME = "fleet-root";

function stubNamed(env: Env, name: string): CatalogStub {
	return env.CATALOG.get(env.CATALOG.idFromName(name));
}

export function rootStub(env: Env): CatalogStub {
	return stubNamed(env, ROOT_NAME);
}

export function directoryStub(env: Env): CatalogStub {
	return stubNamed(env, DIRECTORY_NAME);
}

/** The shard numbered `shard` (0 to CATALOG_SHARDS - 1). */
export function shardStubAt(env: Env, shard: number): CatalogStub {
	return stubNamed(env, `fleet-shard-${shard % CATALOG_SHARDS}`);
}

/** The shard a sequence's counts live in. */
export function shardStub(env: Env, name: string): CatalogStub {
	return shardStubAt(env, shardOf(name));
}

/**
 * `call`'s answer from a catalog object, under the objects' retry and error policy
 * (./object-answers.ts): the platform's failure to reach it is `503 unavailable`.
 */
export async function askCatalog<T>(
	stub: () => CatalogStub,
	call: (catalog: CatalogStub) => Promise<T>,
): Promise<T> {
	const answer = await callWithRetry(
		stub,
		async (catalog) => ({ ok: true as const, value: await call(catalog) }),
		"the fleet catalog",
		"",
	);
	return answer.value;
}

/** Runs `write` on the root, awaited by nobody; a failure is logged. */
export function tellCatalog(
	ctx: { waitUntil(promise: Promise<unknown>): void },
	env: Env,
	what: string,
	write: (root: CatalogStub) => Promise<unknown>,
): void {
	ctx.waitUntil(catalogWrite(env, what, write));
}

/** `write` on the root, awaited: whether it was done; a failure is logged, never thrown. */
export function catalogWrite(
	env: Env,
	what: string,
	write: (root: CatalogStub) => Promise<unknown>,
): Promise<boolean> {
	return loggedWrite(() => write(rootStub(env)), what);
}

/** `write` on the directory, awaited: whether it was done; a failure is logged, never thrown. */
export function directoryWrite(
	env: Env,
	what: string,
	write: (directory: CatalogStub) => Promise<unknown>,
): Promise<boolean> {
	return loggedWrite(() => write(directoryStub(env)), what);
}

/** `write` on the shard of sequence `name`, awaited: whether it was done; a failure is logged, never thrown. */
export function shardWrite(
	env: Env,
	name: string,
	what: string,
	write: (shard: CatalogStub) => Promise<unknown>,
): Promise<boolean> {
	return loggedWrite(() => write(shardStub(env, name)), what);
}

async function loggedWrite(write: () => Promise<unknown>, what: string): Promise<boolean> {
	try {
		await write();
		return true;
	} catch (error) {
		console.error(
			JSON.stringify({
				object: "FleetCatalog",
				event: "write_failed",
				what,
				message: error instanceof Error ? error.message : String(error),
			}),
		);
		return false;
	}
}
