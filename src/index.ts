import { app } from "./worker/app";

export type { AppType } from "./worker/app";
export { FleetCatalog } from "./worker/catalog-do";
export { IdService } from "./worker/rpc";
export { SequenceObject } from "./worker/sequence-do";
export { SnowflakeWorker } from "./worker/snowflake-do";

export default {
	fetch: app.fetch,
} satisfies ExportedHandler<Env>;
