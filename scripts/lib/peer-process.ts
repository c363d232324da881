/**
 * A peer server for the HTTP benchmarks, in a Node process of its own so that it
 * does not share the load generator's event loop: `script` run with tsx on a free
 * loopback port, ready once it prints a line holding "listening".
 *
 *   const peer = await startPeerProcess("scripts/bench/leaf-segment-peer.ts", (port) => ["--port", `${port}`]);
 *   await fetch(`${peer.url}/health`);
 *   peer.stop();
 */
import { spawn } from "node:child_process";
import { freePort } from "./ports";

export async function startPeerProcess(
	script: string,
	args: (port: number) => string[],
): Promise<{ url: string; stop: () => void }> {
	const port = await freePort();
	const child = spawn("npx", ["tsx", script, ...args(port)], {
		detached: true,
		stdio: ["ignore", "pipe", "inherit"],
	});
	await new Promise<void>((resolve, reject) => {
		child.stdout?.on("data", (chunk: Buffer) => {
			if (chunk.toString().includes("listening")) resolve();
		});
		child.once("exit", () => reject(new Error(`${script} exited`)));
	});
	const stop = () => {
		if (child.pid !== undefined) {
			try {
				process.kill(-child.pid, "SIGKILL"); // its group: npx and the tsx under it
			} catch {
				// gone
			}
		}
	};
	process.on("exit", stop);
	return { url: `http://127.0.0.1:${port}`, stop };
}
