/**
 * A doc's fenced code blocks, each with the heading it stands under, written out as
 * files a test can type-check and import: what the doc shows is what runs.
 *
 *   const blocks = codeBlocks(readFileSync("docs/STORING.md", "utf8"));
 *   const d1 = onlyBlock(blocks, "D1", "ts");
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

export interface CodeBlock {
	/** The nearest heading above the block, without its `#`s. */
	heading: string;
	lang: string;
	code: string;
}

export const repo = resolve(import.meta.dirname, "../..");

export function codeBlocks(markdown: string): CodeBlock[] {
	const blocks: CodeBlock[] = [];
	let heading = "";
	let open: CodeBlock | undefined;
	for (const line of markdown.split("\n")) {
		if (open) {
			if (line.startsWith("```")) {
				blocks.push(open);
				open = undefined;
			} else open.code += `${line}\n`;
		} else if (line.startsWith("```")) open = { heading, lang: line.slice(3).trim(), code: "" };
		else if (line.startsWith("#")) heading = line.replace(/^#+\s*/, "");
	}
	return blocks;
}

/** The one block of `lang` under `heading`; throws when there is none or more than one. */
export function onlyBlock(blocks: CodeBlock[], heading: string, lang: string): string {
	const found = blocks.filter((block) => block.heading === heading && block.lang === lang);
	if (found.length !== 1) {
		throw new Error(`expected one \`\`\`${lang} block under "${heading}", found ${found.length}`);
	}
	return found[0]?.code ?? "";
}

/**
 * Writes `files` (name → source) into a fresh directory under the repository's
 * `.build/` (so imports resolve against its node_modules) with a tsconfig of the
 * repository's options, Workers' and Node's types; returns the directory.
 */
export function writeSnippets(files: Record<string, string>): string {
	mkdirSync(join(repo, ".build"), { recursive: true });
	const dir = mkdtempSync(join(repo, ".build", "snippets-"));
	for (const [name, source] of Object.entries(files)) writeFileSync(join(dir, name), source);
	writeFileSync(
		join(dir, "tsconfig.json"),
		JSON.stringify({
			extends: "../../tsconfig.base.json",
			compilerOptions: { types: ["@cloudflare/workers-types", "node"], incremental: false },
			include: ["*.ts"],
		}),
	);
	return dir;
}

/** `tsc` over a directory from `writeSnippets`; throws with the compiler's report. */
export function typeCheck(dir: string): void {
	try {
		execFileSync(join(repo, "node_modules/.bin/tsc"), ["-p", dir], {
			encoding: "utf8",
			stdio: "pipe",
		});
	} catch (error) {
		const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
		throw new Error(`the doc's snippets do not type-check:\n${stdout}${stderr}`);
	}
}
