/**
 * Mutation testing of the Worker (src/worker) against the tests that run inside workerd
 * (vitest project worker, @cloudflare/vitest-plugin): `npm run test:mutation:worker`.
 * docs/TESTING.md says how far this reaches and why not further.
 *
 * Stryker switches mutants through a global of the test's isolate; the plugin runs the
 * tests, the Worker's fetch and its Durable Objects in that one isolate, so both mutant
 * switching and per-test coverage work there. Not mutated: the OpenAPI descriptions
 * (src/worker/openapi: documentation text, checked as a whole against the OpenAPI schema,
 * not string by string), the docs page's HTML and the type-only files.
 */
import { area } from "./base.mjs";

// The vitest project the test runners run (vitest.mutation.config.ts); they inherit this.
process.env.MUTATION_PROJECTS ??= "worker";

export default area(
	"worker",
	[
		"src/worker/**/*.ts",
		"!src/worker/http/openapi/**",
		"!src/worker/http/routes/docs.ts",
		"!src/worker/pages/docs-page.ts",
		"!src/worker/env.d.ts",
		"!src/worker/http/app-env.ts",
	],
	null,
	{
		// Module-level code (route tables, schemas) runs once per test file in workerd: a mutant
		// there needs every test file run again (minutes each). Those are left out of the score.
		ignoreStatic: true,
		timeoutMS: 20_000,
	},
);
