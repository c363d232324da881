import { app } from "./worker/http/app";
import { provideObjectParts } from "./worker/object/object-parts";
import { firstUse } from "./worker/on-first-use";

// The objects load their rules and records from the build's one lazy chunk.
provideObjectParts(firstUse);

export type { AppType } from "./worker/http/app";
export { FleetCatalog } from "./worker/object/fleet-catalog";
export { SequenceObject } from "./worker/object/sequence-object";
export { SnowflakeWorker } from "./worker/object/snowflake-worker";
export { IdService } from "./worker/rpc/id-service";

export default {
	fetch: app.fetch,
} satisfies ExportedHandler<Env>;
