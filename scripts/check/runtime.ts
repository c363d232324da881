/**
 * One Workers runtime, a step of `npm run check`: the tests (`@cloudflare/vitest-plugin`),
 * `wrangler dev` and the deployed bundle must run on the same workerd, or a test can pass
 * on a runtime nothing ships with. Fails when package-lock.json holds a second copy of
 * workerd, wrangler or miniflare (a plugin release that pins its own again: extend the
 * `overrides` in package.json), or when a wrangler config in the repository names
 * another compatibility date than the service's.
 *
 *   npx tsx scripts/check/runtime.ts
 */
import { readFileSync } from "node:fs";

const RUNTIME_PACKAGES = ["workerd", "wrangler", "miniflare"];
const CONFIGS = [
	"wrangler.toml",
	"examples/consumer/wrangler.toml",
	"scripts/bench/startup-baseline/wrangler.toml",
	"scripts/load/sequence-consumer/wrangler.toml",
];

const root = new URL("../../", import.meta.url);
const lock = JSON.parse(readFileSync(new URL("package-lock.json", root), "utf8")) as {
	packages: Record<string, { version?: string }>;
};

const problems: string[] = [];
for (const name of RUNTIME_PACKAGES) {
	const copies = Object.entries(lock.packages)
		.filter(([path]) => path === `node_modules/${name}` || path.endsWith(`/node_modules/${name}`))
		.map(([path, entry]) => `${path} ${entry.version}`);
	if (copies.length !== 1) {
		problems.push(
			`${name}: ${copies.length} copies in package-lock.json, one allowed:\n  ${copies.join("\n  ")}`,
		);
	}
}

const dates = CONFIGS.map((path) => {
	const text = readFileSync(new URL(path, root), "utf8");
	return { path, date: /^compatibility_date\s*=\s*"([^"]+)"/m.exec(text)?.[1] };
});
const serviceDate = dates[0]?.date;
for (const { path, date } of dates) {
	if (date !== serviceDate) {
		problems.push(`${path}: compatibility_date ${date}, the service's is ${serviceDate}`);
	}
}

if (problems.length > 0) {
	console.error(`runtime: not one runtime\n${problems.join("\n")}`);
	process.exit(1);
}
const workerd = lock.packages["node_modules/workerd"]?.version;
console.log(`runtime: one workerd (${workerd}), compatibility_date ${serviceDate}`);
