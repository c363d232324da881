/**
 * The installable package, as another project gets it: build it, `npm pack` it,
 * install the tarball into a fresh project in a temporary directory, type-check a
 * consumer there under `moduleResolution: nodenext` and `bundler` (with
 * `skipLibCheck: false`, so the shipped declarations are checked too) and a
 * CommonJS one under TypeScript 5's `node10` (through `typesVersions`), type-check
 * a Worker that types its service binding with the package's `IdServiceRpc`
 * (with @cloudflare/workers-types, as such a project has it), type-check and
 * bundle examples/consumer copied out of the repository, and type-check
 * docs/CLIENT.md's "Use from another project" snippets (ES module and CommonJS) and
 * its createLeasedGenerator snippet in projects made as it says (`tsc --init`, and
 * the two lines it shows for Node); then run the first consumer and the three
 * snippets in Node against a running `wrangler dev` that lends worker IDs. The
 * packed package.json must carry no scripts and no
 * devDependencies.
 *
 *   npm run test:package
 */
import { execFileSync } from "node:child_process";
import {
	cpSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startWranglerDev } from "../lib/wrangler-dev";

const repo = resolve(import.meta.dirname, "../..");
const tsc = join(repo, "node_modules/.bin/tsc");
/** TypeScript 5 (`typescript5`, an alias): TypeScript 7 no longer has `moduleResolution: node10`. */
const typescript5 = createRequire(import.meta.url).resolve("typescript5/bin/tsc");

/** What a user writes: both entries, a call of the service, the core offline. */
const CONSUMER = `
import { createIdPool, IdsError, idErrorCode, idsClient, type SnowflakeIds } from "edge-ids/client";
import { SnowflakeLayout, TWITTER_LAYOUT, decodeId, WorkerIdSet } from "edge-ids/ids";

declare const process: { argv: string[] }; // Node's, without @types/node
const baseUrl = process.argv[2];
if (!baseUrl) throw new Error("usage: node consumer.js <service URL>");
const ids = idsClient({ baseUrl });
const answer: SnowflakeIds = await ids.snowflake({ workerId: 9, count: 3 });
if (answer.ids.length !== 3 || answer.workerId !== 9) throw new Error("unexpected answer");
const layout = new SnowflakeLayout(TWITTER_LAYOUT);
const decoded = decodeId(answer.ids[0] ?? "", layout);
if (decoded.type !== "snowflake" || decoded.workerId !== 9) throw new Error("decoded wrongly");
const served = await ids.decode(answer.ids[0] ?? "");
if (JSON.stringify(served) !== JSON.stringify(decoded)) throw new Error("service and core disagree");
const discord = await ids.decode("175928847299117063", { layout: "discord" });
if (discord.type !== "snowflake" || discord.timestamp !== 1462015105796 || discord.workerId !== 1) {
	throw new Error("discord decode");
}
const pooled = await createIdPool({ source: ids }).snowflake({ count: 2 });
const inPool = pooled.ids.map((id) => decodeId(id, layout));
if (!inPool.every((d) => d.type === "snowflake" && d.workerId === pooled.workerId)) {
	throw new Error("pooled IDs are not their answer's worker ID's");
}
const failure = await ids.ulid({ count: 0 }).catch((error: unknown) => error);
if (!(failure instanceof IdsError) || idErrorCode(failure) !== "invalid_count") {
	throw new Error("expected invalid_count");
}
if (!WorkerIdSet.parse("0-7", 1023).has(7)) throw new Error("WorkerIdSet");
console.log(JSON.stringify({ ok: true, first: answer.ids[0] }));
`;

/**
 * A Worker calling edge-ids over a service binding typed with the package's
 * types only (no checkout of edge-ids), with a pool over the binding.
 */
const WORKER_CONSUMER = `
import type { WorkerEntrypoint } from "cloudflare:workers";
import { createIdPool, idErrorCode, type IdPoolClient, type IdServiceRpc } from "edge-ids/client";

interface Env {
	IDS: Service<WorkerEntrypoint & IdServiceRpc>;
}

let pool: IdPoolClient | undefined;

export default {
	async fetch(_request, env, ctx) {
		const { workerId, ids } = await env.IDS.snowflake({ workerId: 7, count: 2 });
		const { blocks } = await env.IDS.snowflakeBlocks({ count: 100 });
		const discord = await env.IDS.decode("175928847299117063", { layout: "discord" });
		const { maxWorkerId } = await env.IDS.layout();
		const { issued } = await env.IDS.stats(7);
		pool ??= createIdPool({ source: env.IDS });
		const pooled = await pool.snowflake({ count: 3 }, (work) => ctx.waitUntil(work));
		const code = await env.IDS.ulid({ count: 0 }).then(() => undefined, idErrorCode);
		const first: string | undefined = ids[0];
		return Response.json({ workerId, first, blocks, discord, maxWorkerId, issued, pooled, code });
	},
} satisfies ExportedHandler<Env>;
`;

/**
 * A CommonJS project of older TypeScript (5, `moduleResolution: node10`), which reads
 * no `exports`: `typesVersions` maps the package's subpaths for it.
 */
const NODE10_CONSUMER = `
import { idErrorCode, idsClient, type SnowflakeIds } from "edge-ids/client";
import { decodeId, SnowflakeLayout, TWITTER_LAYOUT } from "edge-ids/ids";

export async function firstSnowflakeTime(baseUrl: string): Promise<number | string | undefined> {
	try {
		const answer: SnowflakeIds = await idsClient({ baseUrl }).snowflake({ count: 1 });
		const decoded = decodeId(answer.ids[0] ?? "", new SnowflakeLayout(TWITTER_LAYOUT));
		return decoded.type === "snowflake" ? decoded.timestamp : undefined;
	} catch (error) {
		return idErrorCode(error);
	}
}
`;

const NODE10_TSCONFIG = JSON.stringify({
	compilerOptions: {
		target: "es2022",
		module: "commonjs",
		moduleResolution: "node10",
		lib: ["es2022", "dom"],
		types: [],
		strict: true,
		skipLibCheck: false,
		noEmit: true,
	},
	files: ["node10.ts"],
});

/** The Worker consumer's tsconfig: Workers types only (@cloudflare/workers-types). */
const WORKER_TSCONFIG = JSON.stringify({
	compilerOptions: {
		target: "es2022",
		module: "es2022",
		moduleResolution: "bundler",
		lib: ["es2022"],
		types: ["@cloudflare/workers-types"],
		strict: true,
		skipLibCheck: false,
		noEmit: true,
	},
	files: ["worker.ts"],
});

function tsconfig(moduleResolution: "nodenext" | "bundler", outDir?: string) {
	return JSON.stringify({
		compilerOptions: {
			target: "es2022",
			module: moduleResolution === "nodenext" ? "nodenext" : "es2022",
			moduleResolution,
			lib: ["es2022", "dom"],
			types: [],
			strict: true,
			skipLibCheck: false,
			...(outDir ? { outDir } : { noEmit: true }),
		},
		files: ["consumer.ts"],
	});
}

function run(
	command: string,
	args: string[],
	cwd: string,
	env: Record<string, string> = {},
): string {
	return execFileSync(command, args, {
		cwd,
		encoding: "utf8",
		stdio: ["ignore", "pipe", "pipe"],
		env: { ...process.env, ...env },
	});
}

/**
 * docs/CLIENT.md's "Use from another project": its TypeScript snippets (the ES module
 * one, then the CommonJS one) and the tsconfig lines for Node it switches on.
 */
function clientDocSnippets(): { esm: string; commonjs: string; nodeLines: string[] } {
	const doc = readFileSync(join(repo, "docs", "CLIENT.md"), "utf8");
	const section = doc.split("\n## Use from another project\n")[1]?.split("\n## ")[0] ?? "";
	const [esm, commonjs] = [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]);
	const nodeLines = (/```jsonc\n([\s\S]*?)```/.exec(section)?.[1] ?? "")
		.split("\n")
		.map((line) => line.trim())
		.filter(Boolean);
	if (!esm || !commonjs?.includes("require(") || nodeLines.length === 0) {
		throw new Error(
			"docs/CLIENT.md's 'Use from another project' must hold an ESM and a CommonJS ts snippet and the tsconfig lines for Node",
		);
	}
	return { esm, commonjs, nodeLines };
}

/** docs/CLIENT.md's createLeasedGenerator snippet (an ES module). */
function leasedGeneratorSnippet(): string {
	const doc = readFileSync(join(repo, "docs", "CLIENT.md"), "utf8");
	const section = doc.split("\n## Generating IDs in your process")[1]?.split("\n## ")[0] ?? "";
	const snippet = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
	if (!snippet?.includes("createLeasedGenerator")) {
		throw new Error("docs/CLIENT.md's 'Generating IDs in your process' must hold a ts snippet");
	}
	return snippet;
}

/**
 * A project as docs/CLIENT.md says to make it: `tsc --init` (TypeScript's strictest
 * defaults), then the lines for Node it writes commented out (`nodeLines`, as the doc
 * shows them) switched on in place of its `"types": []` — and nothing else. Holds
 * `source` as main.ts; `type` is its package.json's module type. Returns the
 * compiled main.js's path.
 */
function strictProject(
	work: string,
	tarball: string,
	type: "module" | "commonjs",
	source: string,
	nodeLines: string[],
	name = `strict-${type}`,
): string {
	const project = join(work, name);
	mkdirSync(project);
	writeFileSync(join(project, "package.json"), JSON.stringify({ type, private: true }));
	run("npm", ["install", "--no-audit", "--no-fund", "--offline", tarball], project);
	linkFromRepo(project, "@types/node");
	run(tsc, ["--init"], project);
	const written = readFileSync(join(project, "tsconfig.json"), "utf8");
	let forNode = written.replace(/^\s*"types": \[\],\n/m, "");
	for (const line of nodeLines) forNode = forNode.replace(`// ${line}`, line);
	const switchedOn = nodeLines.every((line) => !forNode.includes(`// ${line}`));
	if (
		forNode === written ||
		!switchedOn ||
		nodeLines.some((line) => !written.includes(`// ${line}`))
	) {
		throw new Error(`tsc --init no longer writes what docs/CLIENT.md switches on:\n${written}`);
	}
	writeFileSync(join(project, "tsconfig.json"), forNode);
	writeFileSync(join(project, "main.ts"), source);
	run(tsc, [], project);
	return join(project, "main.js");
}

/**
 * examples/consumer as a project of its own: copied out of the repository, its
 * `edge-ids` dependency pointed at the packed tarball, its tools (the versions its
 * package.json pins, which must be the repository's) linked in as installed, then
 * type-checked with its own tsconfig and bundled with its own wrangler.toml, as
 * its `typecheck` and `deploy` scripts would.
 */
function copiedExample(work: string, tarball: string): void {
	const project = join(work, "example-consumer");
	cpSync(join(repo, "examples/consumer"), project, {
		recursive: true,
		filter: (source) => !source.includes("node_modules"),
	});
	const manifestPath = join(project, "package.json");
	const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as {
		dependencies: Record<string, string>;
		devDependencies?: Record<string, string>;
	};
	const tools = Object.entries(manifest.devDependencies ?? {});
	delete manifest.devDependencies;
	manifest.dependencies["edge-ids"] = `file:${tarball}`;
	writeFileSync(manifestPath, JSON.stringify(manifest));
	run("npm", ["install", "--no-audit", "--no-fund", "--offline"], project);
	for (const [name, version] of tools) {
		const pinned = (
			JSON.parse(readFileSync(join(repo, "node_modules", name, "package.json"), "utf8")) as {
				version: string;
			}
		).version;
		if (pinned !== version) {
			throw new Error(`examples/consumer pins ${name} ${version}, the repository ${pinned}`);
		}
		linkFromRepo(project, name);
	}
	run("node", [join(project, "node_modules/typescript/bin/tsc")], project);
	const wrangler = join(project, "node_modules/wrangler/bin/wrangler.js");
	run("node", [wrangler, "deploy", "--dry-run", "--outdir", "dist"], project, {
		WRANGLER_SEND_METRICS: "false",
	});
}

/** The repository's pinned copy of a types package, as the project would have installed it. */
function linkFromRepo(project: string, name: string): void {
	const target = join(project, "node_modules", name);
	mkdirSync(join(target, ".."), { recursive: true });
	symlinkSync(join(repo, "node_modules", name), target, "dir");
}

// Under `npm publish --dry-run` (prepublishOnly) npm passes its dry run on to the
// npm calls below, which would then write no tarball and install nothing.
delete process.env.npm_config_dry_run;

const work = mkdtempSync(join(tmpdir(), "edge-ids-package-"));
let dev: Awaited<ReturnType<typeof startWranglerDev>> | undefined;
try {
	// `npm pack` builds lib/ itself (prepack).
	const packed = JSON.parse(run("npm", ["pack", "--json", "--pack-destination", work], repo)) as {
		filename: string;
		files: { path: string }[];
	}[];
	const tarball = join(work, packed[0]?.filename ?? "");
	const shipped = packed[0]?.files.map((file) => file.path) ?? [];
	console.log(`packed ${shipped.length} files into ${packed[0]?.filename}`);
	run("tar", ["xzf", tarball, "package/package.json"], work);
	const manifest = JSON.parse(readFileSync(join(work, "package/package.json"), "utf8")) as object;
	const leaked = ["scripts", "devDependencies", "allowScripts"].filter((key) => key in manifest);
	if (leaked.length > 0) throw new Error(`the packed package.json carries ${leaked.join(", ")}`);

	const project = join(work, "consumer");
	mkdirSync(project);
	writeFileSync(join(project, "package.json"), JSON.stringify({ type: "module", private: true }));
	run("npm", ["install", "--no-audit", "--no-fund", "--offline", tarball], project);
	writeFileSync(join(project, "consumer.ts"), CONSUMER);
	for (const resolution of ["nodenext", "bundler"] as const) {
		writeFileSync(join(project, `tsconfig.${resolution}.json`), tsconfig(resolution));
		run(tsc, ["-p", `tsconfig.${resolution}.json`], project);
		console.log(`type-checked a consumer with moduleResolution ${resolution}`);
	}
	writeFileSync(join(project, "node10.ts"), NODE10_CONSUMER);
	writeFileSync(join(project, "tsconfig.node10.json"), NODE10_TSCONFIG);
	run("node", [typescript5, "-p", "tsconfig.node10.json"], project);
	console.log("type-checked a CommonJS consumer with TypeScript 5's moduleResolution node10");
	linkFromRepo(project, "@cloudflare/workers-types");
	writeFileSync(join(project, "worker.ts"), WORKER_CONSUMER);
	writeFileSync(join(project, "tsconfig.worker.json"), WORKER_TSCONFIG);
	run(tsc, ["-p", "tsconfig.worker.json"], project);
	console.log("type-checked a Worker typing its binding with IdServiceRpc");
	writeFileSync(join(project, "tsconfig.emit.json"), tsconfig("nodenext", "out"));
	run(tsc, ["-p", "tsconfig.emit.json"], project);

	copiedExample(work, tarball);
	console.log("type-checked and bundled examples/consumer copied out, on the packed package");

	const snippets = clientDocSnippets();
	const esm = strictProject(work, tarball, "module", snippets.esm, snippets.nodeLines);
	const commonjs = strictProject(work, tarball, "commonjs", snippets.commonjs, snippets.nodeLines);
	const leased = strictProject(
		work,
		tarball,
		"module",
		leasedGeneratorSnippet(),
		snippets.nodeLines,
		"strict-leased",
	);
	console.log(
		"type-checked docs/CLIENT.md's ESM, CommonJS and createLeasedGenerator snippets in `tsc --init` projects with its Node lines on",
	);

	// Worker IDs lent to holders: outside the auto ones (0-31) and those the consumers name.
	dev = await startWranglerDev({ vars: { LEASE_WORKER_IDS: "512-1023" } });
	const output = run("node", [join(project, "out/consumer.js"), dev.url], project);
	console.log(`ran the consumer in Node against wrangler dev: ${output.trim()}`);
	for (const [form, main] of [
		["ESM", esm],
		["CommonJS", commonjs],
		["createLeasedGenerator", leased],
	] as const) {
		const printed = run("node", [main], repo, { IDS_URL: dev.url }).trim();
		if (!/^\d+/m.test(printed))
			throw new Error(`docs/CLIENT.md's ${form} snippet printed ${printed}`);
		console.log(`ran docs/CLIENT.md's ${form} snippet: ${printed.split("\n").at(-1)}`);
	}
	console.log("package test: passed");
} catch (error) {
	const failed = error as { stdout?: string; stderr?: string; message: string };
	console.error(failed.stdout ?? "", failed.stderr ?? "", failed.message);
	console.error("package test: FAILED");
	process.exitCode = 1;
} finally {
	await dev?.stop();
	rmSync(work, { recursive: true, force: true });
}
