/**
 * The `wrangler dev` session of `npm run dev:consumer`: the example consumer and
 * edge-ids in one dev server (the consumer first, so it gets the port).
 *
 * edge-ids runs from a copy of wrangler.toml without its `[build]` table, bundled by
 * wrangler from src/index.ts in one file (not in chunks as scripts/build/worker.ts
 * builds it), the playground built once beforehand: in a session of several Workers,
 * wrangler (4.x) starts every line a Worker with a custom build logs with `[undefined]`,
 * and a Worker run from its build's modules (`no_bundle`) with no name at all. Run
 * this way its lines start with `[edge-ids]`.
 *
 *   const args = consumerSessionArgs(); // ["-c", "examples/consumer/wrangler.toml", "-c", ".wrangler/…"]
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { withSourceMain } from "./built-worker";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const CONSUMER_CONFIG = "examples/consumer/wrangler.toml";
/** Where the copy goes: under .wrangler/ (not committed), rewritten on every start. */
const SERVICE_COPY = join(".wrangler", "dev-consumer", "edge-ids.toml");

/** wrangler.toml without `[build]`, its relative paths made absolute (the copy lives elsewhere). */
export function serviceConfigWithoutBuild(toml: string, repo: string): string {
	const lines: string[] = [];
	let inBuild = false;
	for (const line of toml.split("\n")) {
		const table = /^\s*\[+([^\]]+)\]+/.exec(line)?.[1]?.trim();
		if (table !== undefined) inBuild = table === "build";
		if (inBuild) continue;
		lines.push(
			line.replace(
				/^(\s*(?:main|directory)\s*=\s*)"([^"/][^"]*)"/,
				(_, key: string, path: string) => `${key}${JSON.stringify(join(repo, path))}`,
			),
		);
	}
	return lines.join("\n");
}

/**
 * Builds the playground, writes the copy and answers the `-c` arguments of the
 * session (paths relative to the repository, where wrangler runs). `consumer`: the
 * first Worker's config, another than the example's (which imports edge-ids/client
 * and needs examples/tsconfig.json's paths), e.g. the sequence chaos run's.
 */
export function consumerSessionArgs(consumer = CONSUMER_CONFIG): string[] {
	execFileSync("npm", ["run", "--silent", "build:playground"], { cwd: REPO, stdio: "inherit" });
	const copy = join(REPO, SERVICE_COPY);
	mkdirSync(join(copy, ".."), { recursive: true });
	writeFileSync(
		copy,
		serviceConfigWithoutBuild(
			withSourceMain(readFileSync(join(REPO, "wrangler.toml"), "utf8")),
			REPO,
		),
	);
	// examples/tsconfig.json maps edge-ids/* to src/ (the consumer imports edge-ids/client).
	const paths = consumer === CONSUMER_CONFIG ? ["--tsconfig", "../tsconfig.json"] : [];
	return ["-c", consumer, "-c", SERVICE_COPY, ...paths];
}
