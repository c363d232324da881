/**
 * The fleet catalog's stub (./fleet-catalog.ts), calls a caller waits on (a read, a
 * sequence's create), and writes to it that never fail the caller: a worker ID's
 * object tells the catalog about a lease in the background (`ctx.waitUntil`), and a
 * failure is one log line, not a failed acquire or release.
 *
 *   await askCatalog(env, (catalog) => catalog.leases()); // or thrown: 503 unavailable
 *   tellCatalog(ctx, env, "noteLease", (catalog) => catalog.noteLease(note));
 */
import { callWithRetry } from "./object-answers";
import type { CatalogStub } from "./object-protocol";

/** The one catalog object's name. */
const CATALOG_NAME = "fleet";

export function catalogStub(env: Env): CatalogStub {
	return env.CATALOG.get(env.CATALOG.idFromName(CATALOG_NAME));
}

/**
 * `call`'s answer from the catalog, under the objects' retry and error policy
 * (./object-answers.ts): the platform's failure to reach it is `503 unavailable`.
 */
export async function askCatalog<T>(
	env: Env,
	call: (catalog: CatalogStub) => Promise<T>,
): Promise<T> {
	const answer = await callWithRetry(
		() => catalogStub(env),
		async (catalog) => ({ ok: true as const, value: await call(catalog) }),
		"the fleet catalog",
		"",
	);
	return answer.value;
}

/** Runs `write` on the catalog, awaited by nobody; a failure is logged. */
export function tellCatalog(
	ctx: { waitUntil(promise: Promise<unknown>): void },
	env: Env,
	what: string,
	write: (catalog: CatalogStub) => Promise<unknown>,
): void {
	ctx.waitUntil(catalogWrite(env, what, write));
}

/** `write` on the catalog, awaited: whether it was done; a failure is logged, never thrown. */
export async function catalogWrite(
	env: Env,
	what: string,
	write: (catalog: CatalogStub) => Promise<unknown>,
): Promise<boolean> {
	try {
		await write(catalogStub(env));
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
