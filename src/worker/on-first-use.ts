/**
 * The parts of the service a new isolate loads when first used rather than at
 * startup: the Snowflake object's rules, the operations behind /snowflake and
 * /decode, the ID forms and ranges and the leases, named sequences (their object's
 * record and rules, their operations), the OpenAPI document and the /docs page. The Worker is built in chunks (scripts/build/worker.ts) and workerd
 * compiles a chunk only when it is first imported, so a new isolate answering
 * /health or /ulid never compiles the code behind /snowflake or /leases
 * (docs/PERFORMANCE.md, "Startup"). Later calls find the module loaded.
 * All of it is one chunk (./first-use-modules.ts says why), the OpenAPI document another.
 */
let loading: Promise<typeof import("./first-use-modules")> | undefined;
/** The chunk, imported once: later calls (every request of these routes) await the same promise. */
export const firstUse = () => {
	loading ??= import("./first-use-modules");
	return loading;
};

export const snowflakeOperations = async () => (await firstUse()).snowflakeOperations;
export const formOperations = async () => (await firstUse()).formOperations;
export const leaseOperations = async () => (await firstUse()).leaseOperations;
/** The fleet listings, history and metrics (`/leases`, `/stats`, `/metrics`). */
export const opsOperations = async (): Promise<typeof import("./operations/fleet")> =>
	(await firstUse()).opsOperations;
/** The `/docs` page and its CSP. */
export const docsPage = async () => (await firstUse()).docsPage;

/** leaf-server's routes: a sequence's next number, one Snowflake, a decode in Leaf's words. */
export const leafOperations = async () => (await firstUse()).leafOperations;

/** The sequence operations (create, next, reserve, advance, status), for the transports. */
export const sequenceOperations = async () => (await firstUse()).sequenceOperations;
