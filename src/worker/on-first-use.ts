/**
 * The parts of the service a new isolate loads when first used rather than at
 * startup: the Snowflake object's rules, the operations behind /snowflake, /decode,
 * the ID forms and ranges and the leases, the OpenAPI document and the /docs page.
 * The Worker is built in chunks (scripts/build-worker.ts) and workerd compiles a
 * chunk only when it is first imported, so a new isolate answering /health or /ulid
 * never compiles the code behind /snowflake or /leases (docs/PERFORMANCE.md,
 * "Startup"). Later calls find the module loaded.
 */
export const snowflakeOperations = () => import("./operations");
export const decodeOperation = () => import("./decode-options");
export const formOperations = () => import("./forms");
export const leaseOperations = () => import("./lease-operations");
/** The OpenAPI document's text (110 KB): the largest single piece, needed by one route. */
export const openApiDocument = () => import("./openapi/document.generated");
/** The `/docs` page and its CSP. */
export const docsPage = () => import("./routes/docs-page");

/** What a Snowflake object needs once it starts: its rules (the core's LeaseKeeper) and its records. */
export async function objectModules() {
	const { LeaseKeeper } = await import("../ids/lease-keeper");
	const { WorkerIdStorage, claimNamespaceLayout, storedLayoutOf, storeLayoutChecked } =
		await import("./worker-id-storage");
	return { LeaseKeeper, WorkerIdStorage, claimNamespaceLayout, storedLayoutOf, storeLayoutChecked };
}
