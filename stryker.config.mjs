/**
 * Mutation testing (`npm run test:mutation`): Stryker changes one piece of code at a time
 * (a `<` to `<=`, a condition to `true`, a statement removed) and runs the tests that reach
 * it; a change no test notices "survives". docs/TESTING.md has the scores and how to run it.
 *
 * This file (`npm run test:mutation:core`) is the ID core (src/ids) and the client
 * (src/client) against their Node tests (vitest projects core and client);
 * stryker.worker.config.mjs is src/worker against the tests that run inside workerd.
 * `-- --mutate path` narrows a run to one file.
 */
export default {
	testRunner: "vitest",
	// The suite's projects, narrowed by MUTATION_PROJECTS (see vitest.mutation.config.ts).
	vitest: { configFile: "vitest.mutation.config.ts", related: false },
	mutate: ["src/ids/**/*.ts", "src/client/**/*.ts"],
	// The machine is shared: one test runner. `--concurrency 2` on a quiet machine.
	concurrency: 1,
	// perTest: each mutant runs only the tests that reach it.
	coverageAnalysis: "perTest",
	// A mutant that makes a test loop (a wait that never ends) is a timeout, counted as killed.
	timeoutMS: 10_000,
	timeoutFactor: 2,
	// Reruns test only what changed since the last run (the code, or the tests that reach it).
	incremental: true,
	incrementalFile: "reports/mutation/core-incremental.json",
	reporters: ["clear-text", "progress-append-only", "html", "json"],
	htmlReporter: { fileName: "reports/mutation/core.html" },
	jsonReporter: { fileName: "reports/mutation/core.json" },
	clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
	// The score may not fall: a run below `break` fails (exit code 1).
	thresholds: { high: 90, low: 80, break: null },
	// TypeScript 7 has no JavaScript compiler API (the typescript package exports only its
	// version), so Stryker's TypeScript checker cannot run: a mutant that would not compile
	// runs anyway (and is killed or survives on what the tests see). Stryker's tsconfig
	// rewrite (for sandboxes outside the project; ours is inside) must not look for one.
	tsconfigFile: "",
	tempDirName: ".stryker-tmp",
	cleanTempDir: "always",
};
