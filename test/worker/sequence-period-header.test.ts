/**
 * Every answer of a sequence with a reset names its period: `period` in JSON and the
 * header `Sequence-Period` on create, next, reserve, advance and status, JSON and
 * `text/plain` alike; a sequence without a reset sends no such header. `reserve`
 * answers `text/plain` too: `first last` on one line.
 */
import { describe, expect, it } from "vitest";
import type { SequenceRange, SequenceStatus } from "../../src/wire";
import { call } from "./helpers";
import { sequenceName } from "./sequence-helpers";

const TEXT = { Accept: "text/plain" };

/** Every kind of answer a sequence gives, in order: create, create again, next (JSON, text), reserve (JSON, text), advance, status. */
async function everyAnswer(name: string, settings: object): Promise<Response[]> {
	const put = () =>
		call(`/sequences/${name}`, {
			method: "PUT",
			headers: { "Content-Type": "application/json" },
			body: JSON.stringify(settings),
		});
	return [
		await put(),
		await put(),
		await call(`/sequences/${name}/next?count=2`, { method: "POST" }),
		await call(`/sequences/${name}/next?count=2`, { headers: TEXT }),
		await call(`/sequences/${name}/reserve?count=5`, { method: "POST" }),
		await call(`/sequences/${name}/reserve?count=5`, { method: "POST", headers: TEXT }),
		await call(`/sequences/${name}/advance`, {
			method: "POST",
			headers: { "Content-Type": "application/json" },
			body: JSON.stringify({ to: 100 }),
		}),
		await call(`/sequences/${name}`),
	];
}

describe("Sequence-Period", () => {
	it("is on every answer of a sequence with a reset, JSON and text alike", async () => {
		const name = sequenceName("period-header");
		const answers = await everyAnswer(name, { reset: "daily", timeZone: "Asia/Tokyo" });
		expect(answers.map((answer) => answer.status)).toEqual([
			201, 200, 200, 200, 200, 200, 200, 200,
		]);
		const status = (await answers.at(-1)?.json()) as SequenceStatus;
		expect(status.period).toMatch(/^\d{4}-\d{2}-\d{2}$/);
		for (const [i, answer] of answers.entries()) {
			expect(answer.headers.get("Sequence-Period"), `answer ${i}`).toBe(status.period);
		}
	});

	it("is absent without a reset", async () => {
		const answers = await everyAnswer(sequenceName("no-period"), {});
		for (const answer of answers) expect(answer.headers.has("Sequence-Period")).toBe(false);
	});
});

describe("reserve with Accept: text/plain", () => {
	it("answers `first last` on one line, the same range JSON would name", async () => {
		const name = sequenceName("reserve-text");
		expect((await call(`/sequences/${name}`, { method: "PUT" })).status).toBe(201);
		const json = (await (
			await call(`/sequences/${name}/reserve?count=3`, { method: "POST" })
		).json()) as SequenceRange;
		expect([json.first, json.last]).toEqual(["1", "3"]);
		const text = await call(`/sequences/${name}/reserve?count=1000`, {
			method: "POST",
			headers: TEXT,
		});
		expect(text.status).toBe(200);
		expect(text.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
		expect(text.headers.get("Cache-Control")).toBe("no-store");
		expect(await text.text()).toBe("4 1003\n");
	});
});
