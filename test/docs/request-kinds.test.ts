/**
 * docs/PRODUCTION.md lists every `kind` a request's log line can name, and only those:
 * the list in its "Monitoring" section is held to the code's own (REQUEST_KINDS, which
 * every handler's note is typed by).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REQUEST_KINDS } from "../../src/worker/request-note";
import { repo } from "./doc-snippets";

/** The backticked words of the parenthesis after "`kind` (", its own asides left out. */
function documentedKinds(markdown: string): string[] {
	const start = markdown.indexOf("`kind` (");
	expect(start).toBeGreaterThan(-1);
	let depth = 0;
	let end = start + "`kind` ".length;
	for (; end < markdown.length; end++) {
		if (markdown[end] === "(") depth++;
		if (markdown[end] === ")" && --depth === 0) break;
	}
	const list = markdown.slice(start + "`kind` (".length, end).split("; none for")[0] as string;
	return [...list.replace(/\([^)]*\)/g, "").matchAll(/`([a-z0-9-]+)`/g)].map((m) => m[1] as string);
}

describe("docs/PRODUCTION.md's request-log kinds", () => {
	it("are exactly the kinds the code notes", () => {
		const documented = documentedKinds(readFileSync(join(repo, "docs/PRODUCTION.md"), "utf8"));
		expect([...documented].sort()).toEqual([...REQUEST_KINDS].sort());
	});
});
