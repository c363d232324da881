/**
 * README promises that on a Node older than 22.12 every npm script and every
 * command the docs show works as written, the way the quick start does: each
 * script runs its Node tools through scripts/with-node.sh, and the docs show
 * Node tools only through npm scripts (`npm run wrangler -- …`, `npm test -- …`),
 * never bare (`npx wrangler …` fails with "Wrangler requires at least Node.js
 * v22.12.0" there).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const repo = resolve(import.meta.dirname, "../..");
const scripts = Object.entries(
	(
		JSON.parse(readFileSync(join(repo, "package.json"), "utf8")) as {
			scripts: Record<string, string>;
		}
	).scripts,
);

/** How a step of a script may start: the Node switch, another script (itself checked), or no Node at all. */
const SAFE_STEP = /^(scripts\/with-node\.sh |npm run |npm test\b|rm )/;
/** Commands that need Node 22.12 or later when run bare. */
const NODE_TOOL = /^(npx|wrangler|vitest|tsx|tsc|biome|knip|playwright)$/;

const docs = [
	"README.md",
	...readdirSync(join(repo, "docs"))
		.filter((name) => name.endsWith(".md"))
		.map((name) => `docs/${name}`),
];

/** Every command in the docs' ```sh blocks, split at pipes and `&&`. */
function shownCommands(): { doc: string; command: string }[] {
	return docs.flatMap((doc) => {
		const text = readFileSync(join(repo, doc), "utf8");
		const blocks = [...text.matchAll(/```(?:sh|bash)\n([\s\S]*?)```/g)].map((m) => m[1] ?? "");
		return blocks.flatMap((block) =>
			block
				.split("\n")
				.map((line) => line.replace(/#.*$/, ""))
				.flatMap((line) => line.split(/\||&&|;/))
				.map((command) => command.trim().replace(/^([A-Z_]+=\S+\s+)+/, ""))
				.filter(Boolean)
				.map((command) => ({ doc, command })),
		);
	});
}

describe("on a Node older than 22.12", () => {
	it.each(scripts)("npm run %s starts every Node tool through scripts/with-node.sh", (_, body) => {
		for (const step of body.split(/&&|\|\||;/).map((part) => part.trim())) {
			expect(step).toMatch(SAFE_STEP);
		}
	});

	it("the docs show no Node tool bare in a shell block", () => {
		const commands = shownCommands();
		expect(commands.length).toBeGreaterThan(30);
		const bare = commands.filter(({ command }) => NODE_TOOL.test(command.split(/\s+/)[0] ?? ""));
		expect(bare).toEqual([]);
	});

	it("the docs' inline commands name npx only as the same thing on a new Node", () => {
		const inline = docs.flatMap((doc) =>
			[...readFileSync(join(repo, doc), "utf8").matchAll(/`(npx [^`]*)`/g)].map((m) => m[1]),
		);
		expect(inline.filter((command) => command !== "npx wrangler …")).toEqual([]);
	});
});
