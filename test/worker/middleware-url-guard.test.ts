/** urlLengthGuard on an app of its own: a URL over the limit is a 404 naming both lengths, before the route. */
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { errorResponse } from "../../src/worker/errors";
import type { AppEnv } from "../../src/worker/http/app-env";
import { MAX_URL_LENGTH, urlLengthGuard } from "../../src/worker/http/middleware/url-guard";

const ORIGIN = "https://ids.test";

function guardedApp(maxLength?: number) {
	let reached = 0;
	const app = new Hono<AppEnv>()
		.use(urlLengthGuard(maxLength))
		.get("/x", (c) => {
			reached++;
			return c.text("ok");
		})
		.onError((error, c) => errorResponse(c, error));
	return { app, reached: () => reached };
}

/** A URL of exactly `length` characters on /x. */
function urlOf(length: number): string {
	const head = `${ORIGIN}/x?pad=`;
	return head + "a".repeat(length - head.length);
}

describe("urlLengthGuard", () => {
	it("lets a URL of exactly the limit through", async () => {
		const { app, reached } = guardedApp();
		const response = await app.request(urlOf(MAX_URL_LENGTH));
		expect(response.status).toBe(200);
		expect(reached()).toBe(1);
	});

	it("refuses one character more with not_found, naming the limit and the length", async () => {
		const { app, reached } = guardedApp();
		const response = await app.request(urlOf(MAX_URL_LENGTH + 1));
		expect(response.status).toBe(404);
		expect(await response.json()).toEqual({
			error: {
				code: "not_found",
				message: `no route has a URL longer than 4096 characters; this one has ${MAX_URL_LENGTH + 1}`,
			},
		});
		expect(reached()).toBe(0);
	});

	it("takes another limit", async () => {
		const { app } = guardedApp(40);
		expect((await app.request(urlOf(40))).status).toBe(200);
		expect((await app.request(urlOf(41))).status).toBe(404);
	});
});
