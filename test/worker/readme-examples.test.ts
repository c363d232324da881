/**
 * The docs' decode examples (README.md and docs/API.md) answer exactly what they show:
 * every `curl -s 'http://localhost:8787/decode/…'` (or Leaf's `/decodeSnowflakeId?…`) followed by a `# {…}` line is sent
 * to the app and its answer compared as text (values and key order).
 */
import { describe, expect, it } from "vitest";
import apiDoc from "../../docs/API.md?raw";
import readme from "../../README.md?raw";
import { call } from "./helpers";

const lines = `${readme}\n${apiDoc}`.split("\n");
const examples = lines.flatMap((line, i) => {
	const sent = /^curl -s '?http:\/\/localhost:8787(\/decode(?:\/|SnowflakeId\?)[^'\s]+)'?$/.exec(
		line,
	);
	const shown = lines[i + 1]?.startsWith("# {") ? lines[i + 1]?.slice(2) : undefined;
	return sent?.[1] && shown ? [[sent[1], shown] as const] : [];
});

describe("README and docs/API.md decode examples", () => {
	it("are found (the check is not vacuous)", () => {
		expect(examples.length).toBeGreaterThanOrEqual(4);
		expect(examples.some(([path]) => path.startsWith("/decodeSnowflakeId"))).toBe(true);
	});

	it.each(examples)("GET %s answers what the docs show", async (path, shown) => {
		const response = await call(path);
		expect(response.status).toBe(200);
		expect(await response.text()).toBe(shown);
	});
});
