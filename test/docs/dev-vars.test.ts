/**
 * README says: put API_TOKEN in `.dev.vars`. With a token there, `npm run typecheck`'s
 * types check still passes and `npm run cf-typegen` writes exactly the committed
 * worker-configuration.d.ts, with no local secret in it (the types come from
 * `.dev.vars.example`, never from `.dev.vars`). Run in a copy of the repository's
 * files with its own `.dev.vars`, so a developer's real one is never touched.
 */
import { execFileSync } from "node:child_process";
import {
	cpSync,
	existsSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const repo = resolve(import.meta.dirname, "../..");
const TYPES = "worker-configuration.d.ts";
const SECRET = "local-secret-never-committed";

const scripts = (
	JSON.parse(readFileSync(join(repo, "package.json"), "utf8")) as {
		scripts: Record<string, string>;
	}
).scripts;

let clone = "";

/** scripts/build/worker-types.ts in the copy: `npm run typecheck`'s types check (`--check`) and `npm run cf-typegen`. */
function workerTypes(args: string[]): string {
	return execFileSync(
		join(repo, "node_modules/.bin/tsx"),
		["scripts/build/worker-types.ts", ...args],
		{
			cwd: clone,
			encoding: "utf8",
			stdio: ["ignore", "pipe", "pipe"],
			env: {
				...process.env,
				PATH: `${join(repo, "node_modules/.bin")}:${process.env.PATH}`,
				WRANGLER_SEND_METRICS: "false",
				WRANGLER_LOG_PATH: clone,
			},
		},
	);
}

beforeAll(() => {
	clone = mkdtempSync(join(tmpdir(), "edge-ids-dev-vars-"));
	const tracked = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
		cwd: repo,
		encoding: "utf8",
	})
		.split("\n")
		.filter((file) => file && existsSync(join(repo, file)));
	for (const file of tracked) cpSync(join(repo, file), join(clone, file), { recursive: true });
	symlinkSync(join(repo, "node_modules"), join(clone, "node_modules"), "dir");
	writeFileSync(join(clone, ".dev.vars"), `API_TOKEN=${SECRET}\nAPI_TOKEN_NEXT=${SECRET}-next\n`);
});

afterAll(() => {
	if (clone) rmSync(clone, { recursive: true, force: true });
});

describe("a token in .dev.vars", () => {
	it("leaves the typecheck script's types check passing", () => {
		expect(scripts.typecheck).toContain("tsx scripts/build/worker-types.ts --check");
		expect(() => workerTypes(["--check"])).not.toThrow();
	});

	it("never reaches the types cf-typegen writes", () => {
		expect(scripts["cf-typegen"]).toContain("tsx scripts/build/worker-types.ts");
		workerTypes([]);
		const written = readFileSync(join(clone, TYPES), "utf8");
		expect(written).toBe(readFileSync(join(repo, TYPES), "utf8"));
		expect(written).not.toContain("API_TOKEN");
	});
});
