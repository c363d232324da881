/**
 * Mutation testing (`npm run test:mutation`): Stryker changes one piece of code at a time
 * (a `<` to `<=`, a condition to `true`, a statement removed) and runs the tests that reach
 * it; a change no test notices "survives". docs/TESTING.md has the scores and how to run it.
 *
 * One config per area (mutation/<area>.config.mjs), each with its own results to reuse and
 * its own threshold: `area(name, files, breakAt)` below. Areas of the ID core and the client
 * run against their Node tests (vitest projects core and client); the Worker's against the
 * tests that run inside workerd (worker.config.mjs).
 */
const shared = {
	testRunner: "vitest",
	// The suite's projects, narrowed by MUTATION_PROJECTS (see vitest.mutation.config.ts).
	vitest: { configFile: "vitest.mutation.config.ts", related: false },
	// The machine is shared: one test runner. `--concurrency 2` on a quiet machine.
	concurrency: 1,
	// perTest: each mutant runs only the tests that reach it.
	coverageAnalysis: "perTest",
	// A mutant that makes a test loop (a wait that never ends) is a timeout, counted as killed.
	timeoutMS: 10_000,
	timeoutFactor: 2,
	// Reruns test only what changed since the last run (the code, or the tests that reach it).
	incremental: true,
	reporters: ["clear-text", "progress-append-only", "html", "json"],
	clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
	// TypeScript 7 has no JavaScript compiler API (the typescript package exports only its
	// version), so Stryker's TypeScript checker cannot run: a mutant that would not compile
	// runs anyway (and is killed or survives on what the tests see). Stryker's tsconfig
	// rewrite (for sandboxes outside the project; ours is inside) must not look for one.
	tsconfigFile: "",
	tempDirName: ".stryker-tmp",
	cleanTempDir: "always",
};

/**
 * The config of one area: `files` mutated; a run scoring below `breakAt` fails (exit code 1),
 * so the score cannot fall unnoticed (null: no threshold yet).
 */
export function area(name, files, breakAt, overrides = {}) {
	return {
		...shared,
		mutate: files,
		thresholds: { high: 90, low: 80, break: breakAt },
		incrementalFile: `reports/mutation/${name}-incremental.json`,
		htmlReporter: { fileName: `reports/mutation/${name}.html` },
		jsonReporter: { fileName: `reports/mutation/${name}.json` },
		...overrides,
	};
}
