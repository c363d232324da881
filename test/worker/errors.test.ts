import { describe, expect, it } from "vitest";
import type { ErrorBody } from "../../src/wire";
import { app } from "../../src/worker/http/app";
import { call, callJson } from "./helpers";

async function expectError(path: string, status: number, code: string, init?: RequestInit) {
	const response = await call(path, init);
	expect(response.status, path).toBe(status);
	expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
	const body = (await response.json()) as ErrorBody;
	expect(body.error.code, path).toBe(code);
	expect(body.error.message.length).toBeGreaterThan(10);
	expect(JSON.stringify(body)).not.toMatch(/at \w+ \(|\.ts:\d+/); // no stack traces
	return body.error.message;
}

/** Each bad input, by the code it is refused with and what its message must name as allowed. */
const REFUSED: Record<string, { allowed?: string; paths: string[] }> = {
	invalid_count: {
		allowed: "[1, 10000]",
		paths: [
			"/snowflake/1?count=0",
			"/snowflake/1?count=-1",
			"/snowflake/1?count=10001",
			"/snowflake/1?count=2.5",
			"/snowflake/1?count=abc",
			"/snowflake/1?count=",
			"/snowflake/1?count=1e3",
			"/snowflake/1?count=+5",
			"/snowflake/1?count=%205",
			"/snowflake/1?count=1&count=2",
			"/snowflake/1?count=99999999999999999999999",
			"/snowflake?count=0",
			"/ulid?count=0",
			"/uuidv7?count=10001",
		],
	},
	invalid_worker_id: {
		allowed: "[0, 1023]",
		paths: [
			"/snowflake/1024",
			"/snowflake/-1",
			"/snowflake/abc",
			"/snowflake/1.5",
			"/snowflake/99999999999999999999",
			"/snowflake/1024/stats",
			"/snowflake/x/stats",
		],
	},
	invalid_format: {
		allowed: '"ulid" or "uuid"',
		paths: [
			"/ulid?format=hex",
			"/ulid?format=ULID",
			"/ulid?format=ulid&format=uuid",
			"/ulid?format=",
		],
	},
	invalid_id: {
		paths: [
			"/decode/9223372036854775808", // 2^63
			"/decode/12345678901234567890", // 20 digits
			"/decode/80000000000000000000000000", // above the largest ULID
			"/decode/01ARYZ6S41TSV4RRFFQ69G5FAU", // U is not Crockford
			"/decode/01ARYZ6S41TSV4RRFFQ69G5FA", // 25 characters
			"/decode/017f22e2-79b0-7cc3-98c4-dc0c0c07398g",
			"/decode/017f22e279b07cc398c4dc0c0c07398f0000",
			"/decode/hello",
			"/decode/-1",
		],
	},
};

describe("bad input is a 4xx JSON error naming what is allowed", () => {
	for (const [code, { allowed, paths }] of Object.entries(REFUSED)) {
		it.each(paths)(`%s → 400 ${code}`, async (path) => {
			const message = await expectError(path, 400, code);
			if (allowed) expect(message).toContain(allowed);
		});
	}

	it("names the offending character of a ULID", async () => {
		const message = await expectError("/decode/01ARYZ6S41TSV4RRFFQ69G5FAU", 400, "invalid_id");
		expect(message).toMatch(/U/);
	});
});

describe("unknown paths and methods", () => {
	it.each(["/nope", "/snowflake/1/2/3", "/decode", "/ulid/x"])(
		"%s → 404 not_found",
		async (path) => {
			await expectError(path, 404, "not_found");
		},
	);

	it.each([
		["PUT", "/snowflake/1", "GET, POST"],
		["DELETE", "/snowflake", "GET, POST"],
		["POST", "/health", "GET"],
		["POST", "/layout", "GET"],
		["POST", "/decode/1", "GET"],
		["POST", "/snowflake/1/stats", "GET"],
		["PATCH", "/ulid", "GET, POST"],
		["PUT", "/uuidv7", "GET, POST"],
	])("%s %s → 405 with Allow", async (method, path, allow) => {
		const response = await call(path, { method });
		expect(response.status).toBe(405);
		expect(response.headers.get("Allow")).toBe(allow);
		expect(((await response.json()) as ErrorBody).error.code).toBe("method_not_allowed");
	});
});

describe("the 405 table and the 404 hint come from the app's own routes", () => {
	const served = new Map<string, Set<string>>();
	for (const { path, method } of app.routes) {
		if (method === "ALL") continue; // middleware and the 405 fallbacks
		served.set(path, (served.get(path) ?? new Set()).add(method));
	}
	const concrete = (path: string) =>
		path.replace(":workerId", "1").replace(":id", "910499571847892992");

	it("serves the routes of the contract", () => {
		expect([...served.keys()]).toEqual(
			expect.arrayContaining([
				"/health",
				"/layout",
				"/snowflake",
				"/snowflake/:workerId",
				"/snowflake/:workerId/stats",
				"/ulid",
				"/uuidv7",
				"/decode/:id",
			]),
		);
	});

	it("answers every served path's other methods with 405 and its methods in Allow", async () => {
		for (const [path, methods] of served) {
			const other = ["PUT", "DELETE", "PATCH", "POST"].find((m) => !methods.has(m)) as string;
			const response = await call(concrete(path), { method: other });
			expect(response.status, `${other} ${path}`).toBe(405);
			expect(response.headers.get("Allow"), path).toBe([...methods].join(", "));
		}
	});

	it("names every served path in the 404 hint", async () => {
		const message = await expectError("/nope", 404, "not_found");
		for (const path of served.keys()) expect(message).toContain(path);
	});
});

describe("errors are JSON even when text/plain is asked for", () => {
	it("answers a bad count as JSON", async () => {
		const { status, headers, body } = await callJson<ErrorBody>("/snowflake/1?count=0", {
			headers: { Accept: "text/plain" },
		});
		expect(status).toBe(400);
		expect(headers.get("Content-Type")).toMatch(/^application\/json/);
		expect(body.error.code).toBe("invalid_count");
	});
});
