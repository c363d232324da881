/**
 * One version everywhere, a step of `npm run check` (after the bundle is built): the
 * package's (package.json), the lockfile's, the newest release heading of
 * CHANGELOG.md (`## 0.2.0 — 2026-12-01`), the Java client's (`EdgeIds.VERSION` and
 * examples/java/pom.xml), the Python holder's (`__version__`), and what the built Worker says: `info.version`
 * of GET /openapi.json, and GET /health's `version` should it ever carry one. So a
 * release cut (RELEASING.md) cannot be left half done. Release headings must also
 * run from newest to oldest, with dates that have come.
 *
 *   npx wrangler deploy --dry-run --outdir dist && npx tsx scripts/check/versions.ts
 */
import { readFileSync } from "node:fs";
import { builtEntry } from "../lib/built-worker";
import { startBundledService } from "../lib/miniflare-service";

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");
const SEMVER = /^(\d+)\.(\d+)\.(\d+)(-[0-9A-Za-z.-]+)?$/;
/** `## 1.2.3 — 2026-12-01`: a released version, with its date (UTC). */
const RELEASE_HEADING = /^## (\S+) — (\d{4}-\d{2}-\d{2})$/gm;

const problems: string[] = [];
const { version } = JSON.parse(read("package.json")) as { version: string };
if (!SEMVER.test(version)) problems.push(`package.json: version ${version} is not semver`);

const lock = JSON.parse(read("package-lock.json")) as {
	version?: string;
	packages: Record<string, { version?: string }>;
};
for (const [where, found] of [
	["package-lock.json", lock.version],
	['package-lock.json packages[""]', lock.packages[""]?.version],
] as const) {
	if (found !== version) problems.push(`${where}: version ${found}, package.json ${version}`);
}

// The clients beside the package carry its version too.
for (const [path, pattern, what] of [
	[
		"examples/java/src/main/java/dev/edgeids/EdgeIds.java",
		/String VERSION = "([^"]*)"/,
		"EdgeIds.VERSION",
	],
	[
		"examples/java/pom.xml",
		/<artifactId>edge-ids-client<\/artifactId>\s*<version>([^<]*)<\/version>/,
		"version",
	],
	["examples/python-holder/edge_ids_leases.py", /^__version__ = "([^"]*)"/m, "__version__"],
] as const) {
	const found = pattern.exec(read(path))?.[1];
	if (found !== version) problems.push(`${path}: ${what} ${found}, package.json ${version}`);
}

const releases = [...read("CHANGELOG.md").matchAll(RELEASE_HEADING)].map(([, v, date]) => ({
	version: v ?? "",
	date: date ?? "",
}));
const today = new Date().toISOString().slice(0, 10);
if (releases[0]?.version !== version) {
	problems.push(
		`CHANGELOG.md: newest release ${releases[0]?.version ?? "(none)"}, package.json ${version}`,
	);
}
for (const [i, release] of releases.entries()) {
	if (!SEMVER.test(release.version))
		problems.push(`CHANGELOG.md: ${release.version} is not semver`);
	if (Number.isNaN(Date.parse(release.date)) || release.date > today) {
		problems.push(`CHANGELOG.md: ${release.version} is dated ${release.date} (today is ${today})`);
	}
	const older = releases[i + 1];
	if (older && compareSemver(older.version, release.version) >= 0) {
		problems.push(`CHANGELOG.md: ${older.version} is listed below ${release.version}, not older`);
	}
}

const service = await startBundledService({ REQUEST_LOG: "off" }, builtEntry("dist"));
try {
	const openapi = (await (await fetch(`${service.url}/openapi.json`)).json()) as {
		info?: { version?: string };
	};
	if (openapi.info?.version !== version) {
		problems.push(
			`GET /openapi.json: info.version ${openapi.info?.version}, package.json ${version}`,
		);
	}
	const health = (await (await fetch(`${service.url}/health`)).json()) as { version?: string };
	if (health.version !== undefined && health.version !== version) {
		problems.push(`GET /health: version ${health.version}, package.json ${version}`);
	}
} finally {
	await service.stop();
}

if (problems.length > 0) {
	console.error(`versions: they disagree (RELEASING.md has the steps)\n${problems.join("\n")}`);
	process.exit(1);
}
console.log(
	`versions: ${version} in package.json, the lockfile, CHANGELOG.md, the Java and Python clients and the built Worker`,
);

/** Negative when `a` is an older version than `b` (a prerelease is older than its release). */
function compareSemver(a: string, b: string): number {
	const [, ...pa] = SEMVER.exec(a) ?? [];
	const [, ...pb] = SEMVER.exec(b) ?? [];
	for (let i = 0; i < 3; i++) {
		const difference = Number(pa[i]) - Number(pb[i]);
		if (difference !== 0) return difference;
	}
	if (pa[3] === pb[3]) return 0;
	if (pa[3] === undefined) return 1;
	if (pb[3] === undefined) return -1;
	return (pa[3] ?? "") < (pb[3] ?? "") ? -1 : 1;
}
