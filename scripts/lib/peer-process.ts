/**
 * A peer server for the HTTP benchmarks, in a Node process of its own so that it
 * does not share the load generator's event loop: `script` run with tsx, told to
 * listen on port 0 of the loopback (the system picks a free one as it binds, so no
 * other process can take it first), ready once it prints "listening on <its URL>".
 *
 *   const peer = await startPeerProcess("scripts/bench/leaf-segment-peer.ts", ["--port", "0"]);
 *   await fetch(`${peer.url}/health`);
 *   peer.stop();
 */
import { spawn } from "node:child_process";

const LISTENING = /listening on (http:\/\/127\.0\.0\.1:\d+)/;

export async function startPeerProcess(
	script: string,
	args: string[],
): Promise<{ url: string; stop: () => void }> {
	const child = spawn("npx", ["tsx", script, ...args], {
		detached: true,
		stdio: ["ignore", "pipe", "inherit"],
	});
	const url = await new Promise<string>((resolve, reject) => {
		let printed = "";
		child.stdout?.on("data", (chunk: Buffer) => {
			printed += chunk.toString();
			const listening = LISTENING.exec(printed);
			if (listening?.[1]) resolve(listening[1]);
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
	return { url, stop };
}
