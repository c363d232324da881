import { describe, expect, it } from "vitest";
import type { ErrorBody } from "../../src/wire";
import { app } from "../../src/worker/http/app";
import { openApiDocument } from "../../src/worker/http/openapi/document";
import { servedMethods } from "../../src/worker/http/served-methods";
import { call, callJson } from "./helpers";

/** A URL of each route the app serves, its path parameters filled in. */
function urlOf(path: string): string {
	return path.replace(":workerId", "7").replace(":id", "175928847299117063");
}

/** Pages a browser navigates to: a query string there is a link's decoration. */
const PAGES = ["/", "/docs", "/monitor"];

describe("unknown query parameters", () => {
	it("are 400 invalid_request naming the parameter and the ones the route takes", async () => {
		const { status, body, headers } = await callJson<ErrorBody>("/ulid?cuont=3");
		expect(status).toBe(400);
		expect(headers.get("Cache-Control")).toBe("no-store");
		expect(body.error).toEqual({
			code: "invalid_request",
			message: 'unknown parameter "cuont"; it takes count, format',
		});
	});

	it("name every unknown one once, also on POST and beside valid ones", async () => {
		const { status, body } = await callJson<ErrorBody>("/snowflake/7?count=2&prefx=order&x=1&x=2", {
			method: "POST",
		});
		expect(status).toBe(400);
		expect(body.error.message).toBe(
			'unknown parameters "prefx", "x"; it takes count, format, prefix',
		);
	});

	it("say a route that takes none takes none", async () => {
		for (const path of ["/health", "/layout", "/regions", "/snowflake/7/stats", "/openapi.json"]) {
			const { status, body } = await callJson<ErrorBody>(`${path}?t=1`);
			expect(status, path).toBe(400);
			expect(body.error.message, path).toBe('unknown parameter "t"; it takes none');
		}
	});

	it("are refused on every route the app serves, with no code of the route's own", async () => {
		const routes = [...servedMethods(app.routes)].filter(([path]) => !PAGES.includes(path));
		expect(routes.length).toBeGreaterThan(10);
		for (const [path, methods] of routes) {
			for (const method of methods.filter((m) => m !== "HEAD")) {
				const { status, body } = await callJson<ErrorBody>(`${urlOf(path)}?zzz=1`, { method });
				expect(status, `${method} ${path}`).toBe(400);
				expect(body.error.code, `${method} ${path}`).toBe("invalid_request");
				expect(body.error.message, `${method} ${path}`).toContain('"zzz"');
			}
		}
	});

	it("are ignored on the pages a browser navigates to", async () => {
		for (const path of PAGES) {
			const response = await call(`${path}?utm_source=mail`);
			expect(response.status, path).toBe(200);
			expect(response.headers.get("Content-Type"), path).toMatch(/^text\/html/);
		}
	});

	it("leave known parameters and an empty query as they were", async () => {
		expect((await call("/ulid?")).status).toBe(200);
		expect((await call("/ulid?count=2&format=uuid")).status).toBe(200);
		expect((await call("/decode/?format=typeid")).status).toBe(400); // an empty ID, not an unknown name
		const decoded = await callJson<ErrorBody>("/decode/?format=typeid");
		expect(decoded.body.error.code).toBe("invalid_id");
	});

	it("are documented: every operation but the pages and the moved routes (410) lists invalid_request under 400", () => {
		for (const [path, item] of Object.entries(openApiDocument().paths ?? {})) {
			for (const [method, operation] of Object.entries(item) as [
				string,
				{
					deprecated?: boolean;
					responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
				},
			][]) {
				const answer = operation.responses?.["400"];
				const readsNothing = PAGES.includes(path) || operation.deprecated === true;
				expect(answer !== undefined, `${method} ${path} documents 400`).toBe(!readsNothing);
				if (answer) {
					const schema = answer.content?.["application/json"]?.schema;
					expect(JSON.stringify(schema), `${method} ${path}`).toContain('"invalid_request"');
				}
			}
		}
	});
});
