/** auth on an app of its own: public paths, both tokens, the 401 challenge, and no token configured. */
import { env } from "cloudflare:workers";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { errorResponse } from "../../src/worker/errors";
import type { AppEnv } from "../../src/worker/http/app-env";
import { acceptedToken, auth } from "../../src/worker/http/middleware/auth";
import { resolveConfig } from "../../src/worker/http/middleware/request-config";

const TOKEN = "token-one";
const NEXT = "token-two";

function authApp(vars: Partial<Env>) {
	const app = new Hono<AppEnv>()
		.use(resolveConfig())
		.use(auth((path) => path === "/open"))
		.get("/open", (c) => c.text("open"))
		.get("/closed", async (c) => c.json({ token: (await acceptedToken(c))?.name ?? null }))
		.onError((error, c) => errorResponse(c, error));
	const own = { ...env, API_TOKEN: undefined, API_TOKEN_NEXT: undefined, ...vars } as Env;
	return (path: string, authorization?: string) =>
		app.request(path, authorization ? { headers: { Authorization: authorization } } : {}, own);
}

describe("auth", () => {
	const request = authApp({ API_TOKEN: TOKEN, API_TOKEN_NEXT: NEXT });

	it("serves a public path without a token", async () => {
		expect((await request("/open")).status).toBe(200);
	});

	it("accepts either token, however Bearer is spelled, and says which", async () => {
		for (const [header, name] of [
			[`Bearer ${TOKEN}`, "API_TOKEN"],
			[`bearer   ${NEXT}`, "API_TOKEN_NEXT"],
		] as const) {
			const response = await request("/closed", header);
			expect(response.status).toBe(200);
			expect(await response.json()).toEqual({ token: name });
		}
	});

	it("answers 401 with the challenge: none sent, no bearer token, a wrong token", async () => {
		for (const [header, challenge] of [
			[undefined, 'Bearer realm="edge-ids"'],
			["Basic abc", 'Bearer realm="edge-ids", error="invalid_request"'],
			["Bearer wrong", 'Bearer realm="edge-ids", error="invalid_token"'],
		] as const) {
			const response = await request("/closed", header);
			expect(response.status).toBe(401);
			expect(response.headers.get("WWW-Authenticate")).toBe(challenge);
			expect(await response.json()).toEqual({
				error: {
					code: "unauthorized",
					message:
						"this route needs the header 'Authorization: Bearer <token>' with the service's API token",
				},
			});
		}
	});

	it("asks for nothing when no token is configured", async () => {
		const open = authApp({});
		const response = await open("/closed");
		expect(response.status).toBe(200);
		expect(await response.json()).toEqual({ token: null });
	});
});
