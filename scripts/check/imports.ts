/**
 * Keeps the layer map of docs/ARCHITECTURE.md true: every source file under src/
 * belongs to one layer of the map, imports only from its own layer and the layers
 * the map lets it import, and no import cycle exists, in src/, scripts/ or test/
 * (whose files are not layered: they may import any of src/, which never imports
 * them) — type-only imports included, since a cycle of types is still a knot a
 * reader has to untie.
 *
 *   npm run check            (runs this among the static checks)
 *   tsx scripts/check/imports.ts [--map docs/ARCHITECTURE.md]
 *
 * The map is the fenced block after the line `<!-- layer map -->` in the doc, one
 * layer a line, highest first: `name | folders or files | layers it may import`.
 * A file belongs to the layer with the longest matching folder. A hand-written
 * check rather than a library: dependency-cruiser and madge need the TypeScript
 * compiler API, which TypeScript 7 (this project's) no longer has.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";

const root = resolve(import.meta.dirname, "../..");

export interface Layer {
	name: string;
	paths: string[];
	mayImport: Set<string>;
}

/** The layers of the map in `doc`, or a reason it cannot be read. */
export function readLayerMap(doc: string): Layer[] | string {
	const start = doc.indexOf("<!-- layer map -->");
	if (start < 0) return "no `<!-- layer map -->` marker";
	const fence = doc.indexOf("```", start);
	const end = doc.indexOf("```", fence + 3);
	if (fence < 0 || end < 0) return "no fenced block after the marker";
	const rows = doc
		.slice(doc.indexOf("\n", fence) + 1, end)
		.split("\n")
		.filter((line) => line.includes("|"));
	const layers = rows.map((row) => {
		const [name = "", paths = "", may = ""] = row.split("|").map((cell) => cell.trim());
		return {
			name,
			paths: paths.split(/\s+/).filter(Boolean),
			mayImport: new Set(may.split(/\s+/).filter(Boolean)),
		};
	});
	const names = new Set(layers.map((layer) => layer.name));
	for (const layer of layers) {
		for (const other of layer.mayImport) {
			if (!names.has(other)) return `layer ${layer.name} may import "${other}", which is no layer`;
		}
	}
	return layers;
}

function sourceFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return sourceFiles(path);
		return /\.ts$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
	});
}

const IMPORT =
	/(?:^|[^\w.])(?:import|export)\s*(?:type\s+)?(?:[^"'`;]*?\sfrom\s*)?\(?\s*["']([^"']+)["']/g;

/** The files under src/ that `file` imports (relative specifiers only; packages are not mapped). */
function importsOf(file: string): string[] {
	const text = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, "");
	const found: string[] = [];
	for (const match of text.matchAll(IMPORT)) {
		const spec = match[1] ?? "";
		if (!spec.startsWith(".")) continue;
		const base = resolve(dirname(file), spec.split("?")[0] ?? "");
		const target = [base, `${base}.ts`, join(base, "index.ts")].find(
			(candidate) => existsSync(candidate) && statSync(candidate).isFile(),
		);
		if (target?.endsWith(".ts")) found.push(target);
	}
	return found;
}

/** Strongly connected components of more than one file (or a file importing itself): the cycles. */
export function cyclesOf(graph: Map<string, string[]>): string[][] {
	let counter = 0;
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const onStack = new Set<string>();
	const cycles: string[][] = [];
	const visit = (node: string) => {
		index.set(node, counter);
		low.set(node, counter++);
		stack.push(node);
		onStack.add(node);
		for (const next of graph.get(node) ?? []) {
			if (!index.has(next)) {
				visit(next);
				low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
			} else if (onStack.has(next))
				low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
		}
		if (low.get(node) !== index.get(node)) return;
		const component: string[] = [];
		let member: string | undefined;
		do {
			member = stack.pop();
			if (member === undefined) break;
			onStack.delete(member);
			component.push(member);
		} while (member !== node);
		if (component.length > 1 || graph.get(node)?.includes(node)) cycles.push(component);
	};
	for (const node of graph.keys()) if (!index.has(node)) visit(node);
	return cycles;
}

/** The folders checked for cycles only, outside the layer map (paths under the root). */
export const UNLAYERED = ["scripts/", "test/"];

/**
 * What breaks the map in `graph` (file → the files it imports, paths under `root`):
 * files under an `unlayered` folder are checked for cycles only.
 */
export function problemsOf(
	layers: Layer[],
	graph: Map<string, string[]>,
	root: string,
	unlayered: readonly string[] = UNLAYERED,
): string[] {
	const layerOf = (file: string) => {
		const rel = relative(root, file);
		let best: Layer | undefined;
		let bestLength = -1;
		for (const layer of layers) {
			for (const path of layer.paths) {
				const matches = rel === path || rel.startsWith(path.endsWith("/") ? path : `${path}/`);
				if (matches && path.length > bestLength) [best, bestLength] = [layer, path.length];
			}
		}
		return best;
	};
	const problems: string[] = [];
	for (const [file, imports] of graph) {
		if (unlayered.some((folder) => relative(root, file).startsWith(folder))) continue;
		const from = layerOf(file);
		if (!from) {
			problems.push(`${relative(root, file)} is in no layer of the map`);
			continue;
		}
		for (const target of imports) {
			const rel = relative(root, target);
			if (unlayered.some((folder) => rel.startsWith(folder))) {
				problems.push(
					`${relative(root, file)} (${from.name}) imports ${rel}; src/ never imports ${rel.split("/")[0]}/`,
				);
				continue;
			}
			const to = layerOf(target);
			if (!to || to === from || from.mayImport.has(to.name)) continue;
			problems.push(
				`${relative(root, file)} (${from.name}) imports ${rel} (${to.name}); ${from.name} may import ${[...from.mayImport].join(", ") || "nothing"}`,
			);
		}
	}
	for (const cycle of cyclesOf(graph)) {
		problems.push(
			`import cycle: ${cycle
				.map((file) => relative(root, file))
				.sort()
				.join(" ↔ ")}`,
		);
	}
	return problems;
}

function main(): number {
	const { values } = parseArgs({
		options: { map: { type: "string", default: "docs/ARCHITECTURE.md" } },
	});
	const layers = readLayerMap(readFileSync(resolve(root, values.map), "utf8"));
	if (typeof layers === "string") {
		console.error(`check-imports: ${values.map}: ${layers}`);
		return 1;
	}
	const files = ["src", ...UNLAYERED].flatMap((folder) => sourceFiles(join(root, folder)));
	const problems = problemsOf(layers, new Map(files.map((file) => [file, importsOf(file)])), root);
	for (const problem of problems) console.error(`check-imports: ${problem}`);
	return problems.length === 0 ? 0 : 1;
}

if (process.argv[1]?.endsWith("check/imports.ts")) process.exitCode = main();
