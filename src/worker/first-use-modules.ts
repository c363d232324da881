/**
 * Everything a new isolate loads on first use, as one module of the build (one chunk):
 * ./on-first-use.ts imports it and hands each part out. One chunk rather than one per
 * part: code that startup shares with a chunk becomes a module of its own, so each
 * further chunk splits startup's code into more modules, and each module loaded at
 * startup costs about half a millisecond beside its code (docs/PERFORMANCE.md, "Startup").
 */

export * as acquireBudget from "../ids/acquire-budget";
export * as leaseKeeper from "../ids/lease-keeper";
export * as catalogTables from "./catalog-tables";
export * as formOperations from "./forms";
export * as leaseOperations from "./lease-operations";
export * as objectHistory from "./object-history";
export * as objectMinutes from "./object-minutes";
export * as snowflakeOperations from "./operations";
export * as opsOperations from "./ops-operations";
export * as docsPage from "./routes/docs-page";
export * as sequenceBook from "./sequence-book";
export * as sequenceOperations from "./sequence-operations";
export * as workerIdStorage from "./worker-id-storage";
