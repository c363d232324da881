/**
 * Every link between the docs lands: a relative link names a file that exists, and
 * its `#anchor` (or a bare `#anchor`) names a heading of that page, spelled the way
 * GitHub spells heading anchors. Code and comments that name a page (`docs/LEASES.md`,
 * `docs/OPERATIONS.md, "Prometheus"`) name one that exists, and the quoted words
 * are on it. A page split in two, or a heading renamed, fails here, naming the link.
 *
 *   [the staging block](REGIONS.md#a-staging-deployment)   must find docs/REGIONS.md
 *                                                          and its "A staging deployment"
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const repo = resolve(import.meta.dirname, "../..");

/** The pages users read; CHANGELOG.md is left out: released entries keep the links they shipped with. */
const pages = [
	"README.md",
	"RELEASING.md",
	...readdirSync(join(repo, "docs"))
		.filter((name) => name.endsWith(".md"))
		.map((name) => `docs/${name}`),
];

/** Where code, config and pages name a doc in prose. */
const namingFiles = [
	"wrangler.toml",
	...["src", "public", "scripts", "examples"].flatMap((dir) =>
		(readdirSync(join(repo, dir), { recursive: true }) as string[])
			.filter((file) => /\.(ts|js|html|py|toml)$/.test(file) && !file.includes("node_modules"))
			.map((file) => join(dir, file)),
	),
];

/** A markdown page's text outside fenced code blocks. */
function prose(markdown: string): string {
	return markdown.replace(/^```[\s\S]*?^```/gm, "");
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
	return heading
		.replace(/`/g, "")
		.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\s_-]/gu, "")
		.replace(/\s/g, "-");
}

function anchorsOf(page: string): Set<string> {
	const seen = new Map<string, number>();
	const text = prose(readFileSync(join(repo, page), "utf8"));
	// An explicit `<a id="…">` keeps an old link working after its heading changed.
	const anchors = new Set([...text.matchAll(/<a (?:id|name)="([^"]+)"/g)].map((m) => m[1] ?? ""));
	for (const [, heading] of text.matchAll(/^#{1,6} +(.+?) *$/gm)) {
		const base = anchorOf(heading ?? "");
		const times = seen.get(base) ?? 0;
		seen.set(base, times + 1);
		anchors.add(times === 0 ? base : `${base}-${times}`);
	}
	return anchors;
}

function brokenLinks(page: string): string[] {
	const text = prose(readFileSync(join(repo, page), "utf8")).replace(/`[^`\n]*`/g, "");
	const broken: string[] = [];
	for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
		if (!target || /^[a-z]+:/.test(target)) continue;
		const [path, anchor] = target.split("#");
		const file = path ? relative(repo, join(repo, dirname(page), path)) : page;
		if (!existsSync(join(repo, file))) broken.push(`${page}: ${target} (no file ${file})`);
		else if (anchor !== undefined && file.endsWith(".md") && !anchorsOf(file).has(anchor))
			broken.push(`${page}: ${target} (no heading #${anchor} in ${file})`);
	}
	return broken;
}

describe("links between the docs", () => {
	it("GitHub's anchors are what this test computes", () => {
		expect(anchorOf("10. Local state: one `wrangler dev` per state directory")).toBe(
			"10-local-state-one-wrangler-dev-per-state-directory",
		);
		expect(anchorOf("Acquiring a worker ID (leases)")).toBe("acquiring-a-worker-id-leases");
		expect(anchorOf("What a far caller pays, with and without regions")).toBe(
			"what-a-far-caller-pays-with-and-without-regions",
		);
	});

	it.each(pages)("%s links to pages and headings that exist", (page) => {
		expect(brokenLinks(page)).toEqual([]);
	});

	it("code, config and pages name docs that exist, and quote words that are on them", () => {
		const broken: string[] = [];
		let named = 0;
		for (const file of namingFiles) {
			const text = readFileSync(join(repo, file), "utf8").replace(/\n\s*(\*|#|\/\/)\s*/g, " ");
			for (const [, doc, quoted] of text.matchAll(
				/\b(docs\/[A-Z]+\.md)(?:'s)?(?:,? "([^"]+)")?/g,
			)) {
				named++;
				if (!doc || !existsSync(join(repo, doc))) broken.push(`${file}: ${doc} (no such page)`);
				else if (quoted && !readFileSync(join(repo, doc), "utf8").includes(quoted))
					broken.push(`${file}: ${doc}, "${quoted}" (not on the page)`);
			}
		}
		expect(named).toBeGreaterThan(10);
		expect(broken).toEqual([]);
	});
});
