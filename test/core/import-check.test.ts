/**
 * The layer-map check (scripts/check/imports.ts, run by `npm run check`): it reads
 * docs/ARCHITECTURE.md's map and fails on an upward import, a file in no layer and
 * a cycle — type-only imports included. Here on small graphs of made-up files, and
 * once on the repository as it is.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { cyclesOf, problemsOf, readLayerMap } from "../../scripts/check/imports";

const MAP = `
<!-- layer map -->
\`\`\`
top    | src/top          | middle bottom
middle | src/middle       | bottom
bottom | src/bottom.ts    |
\`\`\`
`;
const root = "/repo";
const file = (path: string) => join(root, path);
const layers = readLayerMap(MAP);

function problems(edges: [string, string[]][]): string[] {
	if (typeof layers === "string") throw new Error(layers);
	const graph = new Map(edges.map(([from, to]) => [file(from), to.map(file)]));
	return problemsOf(layers, graph, root);
}

describe("the layer-map check", () => {
	it("reads the layers, highest first, with what each may import", () => {
		if (typeof layers === "string") throw new Error(layers);
		expect(layers.map((layer) => [layer.name, layer.paths, [...layer.mayImport]])).toEqual([
			["top", ["src/top"], ["middle", "bottom"]],
			["middle", ["src/middle"], ["bottom"]],
			["bottom", ["src/bottom.ts"], []],
		]);
		expect(readLayerMap("no map here")).toBe("no `<!-- layer map -->` marker");
		expect(readLayerMap(MAP.replace("| bottom\n", "| basement\n"))).toBe(
			'layer middle may import "basement", which is no layer',
		);
	});

	it("passes imports downward and within a layer", () => {
		expect(
			problems([
				["src/top/a.ts", ["src/top/b.ts", "src/middle/c.ts", "src/bottom.ts"]],
				["src/top/b.ts", []],
				["src/middle/c.ts", ["src/bottom.ts"]],
				["src/bottom.ts", []],
			]),
		).toEqual([]);
	});

	it("fails an upward import, naming both files, both layers and what is allowed", () => {
		expect(
			problems([
				["src/middle/c.ts", ["src/top/a.ts"]],
				["src/top/a.ts", []],
			]),
		).toEqual(["src/middle/c.ts (middle) imports src/top/a.ts (top); middle may import bottom"]);
	});

	it("fails a file in no layer", () => {
		expect(problems([["src/elsewhere.ts", []]])).toEqual([
			"src/elsewhere.ts is in no layer of the map",
		]);
	});

	it("fails a cycle, within one layer too", () => {
		expect(
			problems([
				["src/top/a.ts", ["src/top/b.ts"]],
				["src/top/b.ts", ["src/top/c.ts"]],
				["src/top/c.ts", ["src/top/a.ts"]],
			]),
		).toEqual(["import cycle: src/top/a.ts ↔ src/top/b.ts ↔ src/top/c.ts"]);
		expect(cyclesOf(new Map([["a", ["a"]]]))).toEqual([["a"]]);
		expect(
			cyclesOf(
				new Map([
					["a", ["b"]],
					["b", []],
				]),
			),
		).toEqual([]);
	});

	it("checks scripts/ for cycles only: a script may import any layer, but no circle", () => {
		expect(
			problems([
				["scripts/load/run.ts", ["scripts/load/traffic.ts", "src/top/a.ts", "src/bottom.ts"]],
				["scripts/load/traffic.ts", ["src/middle/c.ts"]],
				["src/top/a.ts", []],
				["src/middle/c.ts", []],
				["src/bottom.ts", []],
			]),
		).toEqual([]);
		expect(
			problems([
				["scripts/load/crash-loop.ts", ["scripts/load/traffic.ts"]],
				["scripts/load/traffic.ts", ["scripts/load/crash-loop.ts"]],
			]),
		).toEqual(["import cycle: scripts/load/crash-loop.ts ↔ scripts/load/traffic.ts"]);
		// src/ never imports a script; a circle through both is named too.
		expect(
			problems([
				["scripts/a.ts", ["src/bottom.ts"]],
				["src/bottom.ts", ["scripts/a.ts"]],
			]),
		).toEqual([
			"src/bottom.ts (bottom) imports scripts/a.ts; src/ never imports scripts/",
			"import cycle: scripts/a.ts ↔ src/bottom.ts",
		]);
	});

	it("finds the repository's own map readable", () => {
		const doc = readFileSync(resolve(import.meta.dirname, "../../docs/ARCHITECTURE.md"), "utf8");
		expect(typeof readLayerMap(doc)).not.toBe("string");
	});
});
