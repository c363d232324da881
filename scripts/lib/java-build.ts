/**
 * The Java client (examples/java) compiled for the tests, the chaos run and the bench:
 * `javac --release 17` over its main and test trees (the adapters against the stand-in
 * upstream interfaces), into `.build/java/<hash of the sources>/`, so an unchanged tree
 * is compiled once. Nothing is installed: where `javac` is missing, `javaMissing()` says
 * so in one line and the callers skip (CI installs openjdk-17-jdk-headless).
 *
 *   const classes = buildJava();                       // .build/java/3f2a…/
 *   spawn("java", [...JAVA_FLAGS, "-cp", classes, "dev.edgeids.HolderCommand", "--url", url]);
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";

const REPO = resolve(import.meta.dirname, "../..");
const SOURCES = ["examples/java/src/main/java", "examples/java/src/test/java"].map((dir) =>
	join(REPO, dir),
);

/** JVM flags for the small processes the tests start: a quick start, little memory. */
export const JAVA_FLAGS = ["-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xss512k", "-Xmx128m"];

/** Why the Java tests skip, or undefined when `javac` (17 or later) is on PATH. */
export function javaMissing(): string | undefined {
	const found = spawnSync("javac", ["-version"], { encoding: "utf8" });
	const version = /javac (\d+)/.exec(`${found.stdout}${found.stderr}`)?.[1];
	if (found.status === 0 && Number(version) >= 17) return undefined;
	return "javac 17+ is not on PATH: the Java client's tests skip (CI installs openjdk-17-jdk-headless)";
}

/** Every .java file under `dir`, sorted. */
function javaFiles(dir: string): string[] {
	return readdirSync(dir, { recursive: true, encoding: "utf8" })
		.filter((file) => file.endsWith(".java"))
		.sort()
		.map((file) => join(dir, file));
}

/** The compiled classes' directory, compiled now unless this very source tree was before. */
export function buildJava(): string {
	const files = SOURCES.flatMap(javaFiles);
	const hash = createHash("sha256");
	for (const file of files) hash.update(file).update(readFileSync(file));
	const out = join(REPO, ".build/java", hash.digest("hex").slice(0, 16));
	if (existsSync(out)) return out;
	// Compiled aside, then renamed: test files compiling at once never see half a tree.
	const scratch = `${out}.${process.pid}.tmp`;
	rmSync(scratch, { recursive: true, force: true });
	mkdirSync(scratch, { recursive: true });
	execFileSync("javac", ["--release", "17", "-nowarn", "-d", scratch, ...files], {
		stdio: ["ignore", "pipe", "pipe"],
	});
	try {
		renameSync(scratch, out);
	} catch {
		rmSync(scratch, { recursive: true, force: true }); // another process renamed its copy first
	}
	return out;
}
