import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/ports";
import { type DevServer, startWranglerDev } from "../../scripts/lib/wrangler-dev";

/**
 * A free port is picked, released, and only then bound by wrangler: in between,
 * another process can take it (under a full test run, one did). Such a start is
 * tried again on newly picked ports instead of failing; a port the caller gave
 * stays taken, so that start fails at once, saying why.
 */
let taken: Server;
let takenPort: number;
beforeAll(async () => {
	taken = createServer((socket) => socket.destroy()); // holds the port, answers nothing
	await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
	takenPort = (taken.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => taken.close(() => resolve())));

describe("a port taken between its pick and wrangler's bind", () => {
	let dev: DevServer | undefined;
	afterAll(() => dev?.stop());

	it("starts on the next picked port", async () => {
		const picks: number[] = [];
		dev = await startWranglerDev({
			// The first pick is a port another process holds, as if taken after the pick.
			pickPort: async () => {
				const port = picks.length === 0 ? takenPort : await freePort();
				picks.push(port);
				return port;
			},
		});
		expect(picks[0]).toBe(takenPort);
		expect(picks.length).toBeGreaterThanOrEqual(4); // server and inspector, twice
		expect(dev.port).not.toBe(takenPort);
		expect(dev.port).toBe(picks[2]);
		const health = (await (await fetch(`${dev.url}/health`)).json()) as { status: string };
		expect(health.status).toBe("ok");
	});

	it("fails a start on a given port that is taken, naming the cause", async () => {
		await expect(startWranglerDev({ port: takenPort })).rejects.toThrow(
			/could not bind its ports[\s\S]*Address already in use/,
		);
	});
});
