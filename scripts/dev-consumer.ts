/**
 * `npm run dev:consumer`: the example consumer (port 8788) and edge-ids in one
 * `wrangler dev`, with their own state directory (.wrangler/consumer-state).
 * Arguments are passed on to wrangler (`npm run dev:consumer -- --port 9000`).
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { consumerSessionArgs } from "./lib/consumer-session";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const WRANGLER = fileURLToPath(
	new URL("../node_modules/wrangler/bin/wrangler.js", import.meta.url),
);

const given = process.argv.slice(2);
/** A default, unless the caller gave the option itself. */
const unless = (option: string, value: string) =>
	given.some((arg) => arg === option || arg.startsWith(`${option}=`)) ? [] : [option, value];
const args = [
	WRANGLER,
	"dev",
	...consumerSessionArgs(),
	...unless("--port", "8788"),
	...unless("--persist-to", ".wrangler/consumer-state"),
	...given,
];
const wrangler = spawn(process.execPath, args, { cwd: REPO, stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"] as const) {
	process.on(signal, () => wrangler.kill(signal));
}
wrangler.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
