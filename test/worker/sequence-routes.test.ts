/**
 * The /sequences routes end to end: create (201, then 200 with the same settings,
 * 409 with others), next (GET and POST, JSON and text/plain), reserve, advance and
 * status, each answer exact.
 */
import { describe, expect, it } from "vitest";
import type { ErrorBody, SequenceNumbers, SequenceRange, SequenceStatus } from "../../src/wire";
import { call, callJson } from "./helpers";
import { sequenceName, unusedStatus } from "./sequence-helpers";

const json = (method: string, body: unknown): RequestInit => ({
	method,
	headers: { "Content-Type": "application/json" },
	body: JSON.stringify(body),
});

describe("/sequences/:name", () => {
	it("creates with PUT (201), finds the same settings again (200), refuses others (409)", async () => {
		const name = sequenceName("route-create");
		const made = await callJson<SequenceStatus>(`/sequences/${name}`, json("PUT", { start: 1000 }));
		expect(made.status).toBe(201);
		expect(made.headers.get("Cache-Control")).toBe("no-store");
		const settings = { start: "1000", mode: "ordered", reset: "never", timeZone: "UTC" } as const;
		expect(made.body).toMatchObject({ ...unusedStatus(name, settings), period: null });
		const again = await callJson<SequenceStatus>(
			`/sequences/${name}`,
			json("PUT", { start: "1000" }),
		);
		expect([again.status, again.body]).toEqual([200, made.body]);
		const other = await callJson<ErrorBody>(`/sequences/${name}`, json("PUT", { start: 1 }));
		expect(other.status).toBe(409);
		expect(other.body.error.code).toBe("sequence_exists");
	});

	it("issues consecutive numbers by GET and POST, as JSON or one a line", async () => {
		const name = sequenceName("route-next");
		expect((await call(`/sequences/${name}`, { method: "PUT" })).status).toBe(201);
		const got = await callJson<SequenceNumbers>(`/sequences/${name}/next?count=2`);
		expect([got.status, got.body]).toEqual([
			200,
			{ type: "sequence", name, first: "1", count: 2, numbers: ["1", "2"] },
		]);
		const posted = await callJson<SequenceNumbers>(
			`/sequences/${name}/next`,
			json("POST", { count: 3 }),
		);
		expect(posted.body.numbers).toEqual(["3", "4", "5"]);
		const one = await callJson<SequenceNumbers>(`/sequences/${name}/next`, { method: "POST" });
		expect(one.body.numbers).toEqual(["6"]);
		const text = await call(`/sequences/${name}/next?count=2`, {
			headers: { Accept: "text/plain" },
		});
		expect(text.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
		expect(await text.text()).toBe("7\n8\n");
	});

	it("reserves a range, advances forward only, and shows the status", async () => {
		const name = sequenceName("route-reserve");
		await call(`/sequences/${name}`, json("PUT", { start: 10 }));
		const range = await callJson<SequenceRange>(`/sequences/${name}/reserve?count=1000`, {
			method: "POST",
		});
		expect([range.status, range.body]).toEqual([
			200,
			{ type: "sequence-range", name, first: "10", last: "1009", count: 1000 },
		]);
		const big = "9007199254740993";
		const advanced = await callJson<SequenceStatus>(
			`/sequences/${name}/advance`,
			json("POST", { to: big }),
		);
		expect([advanced.status, advanced.body.next]).toEqual([200, big]);
		const back = await callJson<SequenceStatus>(
			`/sequences/${name}/advance`,
			json("POST", { to: 5 }),
		);
		expect(back.body.next).toBe(big);
		const next = await callJson<SequenceNumbers>(`/sequences/${name}/next`);
		expect(next.body.numbers).toEqual([big]);
		const status = await callJson<SequenceStatus>(`/sequences/${name}`);
		expect(status.status).toBe(200);
		expect(status.body).toMatchObject({
			name,
			next: "9007199254740994",
			issued: "1001",
			requests: 2,
		});
	});
});
