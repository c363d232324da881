/** requestLog on an app of its own: one line per request, with the route, the note and the error code. */
import { env } from "cloudflare:workers";
import { Hono } from "hono";
import { requestId } from "hono/request-id";
import { describe, expect, it } from "vitest";
import { errorResponse, serviceError } from "../../src/worker/errors";
import type { AppEnv } from "../../src/worker/http/app-env";
import { resolveConfig } from "../../src/worker/http/middleware/request-config";
import { noteRequest, requestLog } from "../../src/worker/http/middleware/request-log";

function loggedApp(vars: Record<string, string> = {}) {
	const lines: Record<string, unknown>[] = [];
	let clock = 1_000;
	const app = new Hono<AppEnv>()
		.use(requestId())
		.use(
			requestLog({
				write: (line) => lines.push(JSON.parse(line)),
				now: () => (clock += 5),
			}),
		)
		.use(resolveConfig())
		.get("/ids/:n", (c) => {
			noteRequest(c, { kind: "ulid", count: Number(c.req.param("n")) });
			return c.text("ok");
		})
		.get("/fails", () => {
			throw serviceError("unavailable", "not now", 1);
		})
		.onError((error, c) => errorResponse(c, error));
	const own = { ...env, ...vars } as Env;
	return { request: (path: string) => app.request(path, {}, own), lines };
}

describe("requestLog", () => {
	it("writes one line: request ID, method, route pattern, status, the handler's note, duration", async () => {
		const { request, lines } = loggedApp();
		await request("/ids/3");
		expect(lines).toEqual([
			{
				requestId: expect.any(String),
				method: "GET",
				route: "/ids/:n",
				status: 200,
				kind: "ulid",
				count: 3,
				durationMs: 5,
			},
		]);
	});

	it("names the error code of a failed request, and null for no route", async () => {
		const { request, lines } = loggedApp();
		await request("/fails");
		await request("/nowhere");
		expect(lines).toMatchObject([
			{ route: "/fails", status: 503, error: "unavailable" },
			{ route: null, status: 404 },
		]);
	});

	it("is off with REQUEST_LOG=off, and on when the config cannot be read", async () => {
		const off = loggedApp({ REQUEST_LOG: "off" });
		await off.request("/ids/1");
		expect(off.lines).toEqual([]);
		const broken = loggedApp({ REQUEST_LOG: "off", MAX_BATCH: "ten" });
		await broken.request("/ids/1");
		expect(broken.lines).toMatchObject([{ status: 500, error: "invalid_config" }]);
	});
});
