/**
 * The Worker's Snowflake object and its storage (src/worker/object/snowflake-worker.ts,
 * worker-id-storage.ts: the mark, the life token, restarts, the lease record), mutated
 * against the workerd test files that drive that object (vitest project worker, narrowed by
 * MUTATION_TESTS): `npm run test:mutation:worker-object`. The part of the Worker a
 * wrong line costs duplicates in; a run takes minutes, where the whole Worker
 * (worker.config.mjs) takes hours. docs/TESTING.md has the figures.
 */
import { area } from "./base.mjs";

process.env.MUTATION_PROJECTS ??= "worker";
process.env.MUTATION_TESTS ??= [
	"test/worker/snowflake-*.test.ts",
	"test/worker/clock-*.test.ts",
	"test/worker/monotonic.test.ts",
	"test/worker/object-reset.test.ts",
	"test/worker/superseded.test.ts",
	"test/worker/restore-lead.test.ts",
	"test/worker/do-errors.test.ts",
	"test/worker/layout-*.test.ts",
	"test/worker/lease-restart.test.ts",
	"test/worker/lease-superseded.test.ts",
	"test/worker/lease-writes.test.ts",
	"test/worker/lease-routes.test.ts",
	"test/worker/lease-conflicts.test.ts",
].join(",");

export default area(
	"worker-object",
	// snowflake-worker.ts belongs here too; its run did not fit the time yet (docs/TESTING.md).
	["src/worker/object/worker-id-storage.ts"],
	70,
	{ ignoreStatic: true, timeoutMS: 20_000 },
);
