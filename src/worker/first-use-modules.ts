/**
 * Everything a new isolate loads on first use, as one module of the build (one chunk):
 * ./on-first-use.ts imports it and hands each part out. One chunk rather than one per
 * part: code that startup shares with a chunk becomes a module of its own, so each
 * further chunk splits startup's code into more modules, and each module loaded at
 * startup costs about half a millisecond beside its code (docs/PERFORMANCE.md, "Startup").
 */

export * as acquireBudget from "../ids/leases/acquire-budget";
export * as leaseKeeper from "../ids/leases/keeper";
export * as catalogTables from "./object/catalog-tables";
export * as objectHistory from "./object/history";
export * as objectMinutes from "./object/minutes";
export * as sequenceBook from "./object/sequence-book";
export * as sequenceMinutes from "./object/sequence-minutes";
export * as workerIdStorage from "./object/worker-id-storage";
export * as opsOperations from "./operations/fleet";
export * as formOperations from "./operations/forms-and-ranges";
export * as leafOperations from "./operations/leaf";
export * as leaseOperations from "./operations/leases";
export * as sequenceOperations from "./operations/sequences";
export * as snowflakeOperations from "./operations/snowflake";
export * as docsPage from "./pages/docs-page";
