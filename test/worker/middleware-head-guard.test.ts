/** headIssuesNothing on an app of its own: HEAD is a 405 where POST is served, GET without a body elsewhere. */
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { errorResponse } from "../../src/worker/errors";
import type { AppEnv } from "../../src/worker/http/app-env";
import { headIssuesNothing } from "../../src/worker/http/middleware/head-guard";
import { servedMethods } from "../../src/worker/http/served-methods";

function guardedApp() {
	let issued = 0;
	const issue = (c: { text: (text: string) => Response }) => {
		issued++;
		return c.text("issued");
	};
	const routes = new Hono<AppEnv>()
		.use(headIssuesNothing(() => served))
		.get("/issue/:id", issue)
		.post("/issue/:id", issue)
		.get("/read", (c) => c.text("read"));
	const served = servedMethods(routes.routes);
	routes.onError((error, c) => errorResponse(c, error));
	return { app: routes, issued: () => issued };
}

describe("headIssuesNothing", () => {
	it("answers HEAD on a route that also takes POST with 405 and Allow, issuing nothing", async () => {
		const { app, issued } = guardedApp();
		const response = await app.request("/issue/7", { method: "HEAD" });
		expect(response.status).toBe(405);
		expect(response.headers.get("Allow")).toBe("GET, POST");
		expect(issued()).toBe(0);
	});

	it("lets HEAD through on a read-only route, and every other method everywhere", async () => {
		const { app, issued } = guardedApp();
		const head = await app.request("/read", { method: "HEAD" });
		expect(head.status).toBe(200);
		expect(await head.text()).toBe("");
		expect((await app.request("/issue/7")).status).toBe(200);
		expect((await app.request("/issue/7", { method: "POST" })).status).toBe(200);
		expect(issued()).toBe(2);
	});

	it("passes HEAD on a path no route serves on to the app's not-found", async () => {
		const { app } = guardedApp();
		expect((await app.request("/nowhere", { method: "HEAD" })).status).toBe(404);
	});
});
