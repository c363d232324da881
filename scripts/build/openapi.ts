/**
 * npm run openapi — writes the OpenAPI document the Worker serves at /openapi.json
 * (src/worker/http/openapi/document.generated.ts) from the routes' operations
 * (src/worker/http/openapi/document.ts): the Worker serves the text and builds no schema,
 * so neither zod nor zod-to-openapi is in its bundle. Run it after changing a route,
 * its inputs or its answers; `npm run check` runs `--check`, which fails when the
 * file is not what the routes describe.
 *
 *   npm run openapi
 *   npm run openapi -- --check
 */
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { check: { type: "boolean", default: false } } });
const GENERATED = resolve("src/worker/http/openapi/document.generated.ts");

// Imported by path: the Worker's code is type-checked with its own (Workers) types.
const { generatedModule } = (await import(
	pathToFileURL(resolve("src/worker/http/openapi/document.ts")).href
)) as { generatedModule: () => string };
const text = generatedModule();

if (values.check) {
	if (readFileSync(GENERATED, "utf8") !== text) {
		console.error(
			"openapi: src/worker/http/openapi/document.generated.ts is not the document the routes describe; run `npm run openapi`",
		);
		process.exit(1);
	}
	console.log("openapi: the generated document is up to date");
} else {
	writeFileSync(GENERATED, text);
	console.log(`openapi: wrote ${GENERATED} (${(text.length / 1024).toFixed(1)} KiB)`);
}
