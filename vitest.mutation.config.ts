/**
 * The suite as mutation testing runs it (mutation/*.config.mjs):
 * vitest.config.ts's projects named in MUTATION_PROJECTS (comma-separated; default
 * "core,client"). Not the integration project: it runs the bundle in a separate
 * Miniflare process, which Stryker cannot switch mutants in.
 */
import { defineConfig } from "vitest/config";
import suite from "./vitest.config";

const wanted = new Set((process.env.MUTATION_PROJECTS ?? "core,client").split(","));

export default defineConfig({
	test: {
		...suite.test,
		projects: (suite.test?.projects ?? []).filter(
			(project) =>
				typeof project === "object" && "test" in project && wanted.has(project.test?.name ?? ""),
		),
	},
});
