/**
 * npm run check:bundle — the deployed Worker's size, after `npm run build`
 * (`wrangler deploy --dry-run --outdir dist`): fails when its gzip size passes the
 * budget, so a dependency that drags in megabytes (zod's locales, say) is noticed
 * in CI, not in a slower cold start.
 *
 *   npm run build && npm run check:bundle
 */
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

/** The Worker's gzip size before OpenAPI was added (172 KiB): it must not grow past it. */
const BUDGET_GZIP_BYTES = 172 * 1024;

const bundle = readFileSync(new URL("../dist/index.js", import.meta.url));
const gzip = gzipSync(bundle, { level: 9 }).length;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
console.log(
	`bundle: ${kib(bundle.length)} raw, ${kib(gzip)} gzip (budget ${kib(BUDGET_GZIP_BYTES)} gzip)`,
);
if (gzip > BUDGET_GZIP_BYTES) {
	console.error("bundle: over budget; dist/index.js.map shows which sources the bytes come from");
	process.exit(1);
}
