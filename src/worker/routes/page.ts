/**
 * The playground at `/` is static: public/index.html, public/playground.css and the
 * script built from src/playground. Cloudflare serves those files before the Worker
 * runs, with public/_headers' Content-Security-Policy. This route keeps `/` a known
 * path of the API (so `POST /` is a 405, not a 404, and `/` needs no token) and
 * answers with the same asset should a `GET /` ever reach the Worker.
 */
import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { operation } from "../openapi/describe";

export const pageRoutes = new Hono<AppEnv>().get("/", (c) => c.env.ASSETS.fetch(c.req.raw));

export const pageOperations = [
	operation({
		method: "get",
		path: "/",
		summary: "The playground (HTML)",
		tag: "Service",
		html: true,
		public: true,
	}),
];
