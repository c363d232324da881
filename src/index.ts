import { app } from "./worker/app";
import { provideObjectParts } from "./worker/object-parts";
import { firstUse } from "./worker/on-first-use";

// The objects load their rules and records from the build's one lazy chunk.
provideObjectParts(firstUse);

export type { AppType } from "./worker/app";
export { FleetCatalog } from "./worker/catalog-do";
export { IdService } from "./worker/rpc";
export { SequenceObject } from "./worker/sequence-do";
export { SnowflakeWorker } from "./worker/snowflake-do";

export default {
	fetch: app.fetch,
} satisfies ExportedHandler<Env>;
