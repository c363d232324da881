/**
 * The Java client's SequenceBuffer (examples/java, dev.edgeids.SequenceBuffer) against a
 * scripted reserve route on a loopback port, run by dev.edgeids.BufferDriver: numbers
 * from consecutive ranges, a hung reserve given up at the buffer's wait (`overloaded`,
 * then a new reserve), a range that arrives below what the buffer held dropped, the
 * service's refusal passed on with its code, and close() during a hung reserve
 * leaving no thread behind. Skips without javac 17+.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { buildJava, JAVA_FLAGS, javaMissing } from "../../scripts/lib/java-build";
import { driverLines } from "./holder-runs";

type Answer = "hang" | { first: number; last: number } | { status: number; code: string };

interface Outcome {
	lines: { n?: string; code?: string; ms: number }[];
	end: { threads: number; closeMs: number; fetches: number; droppedRanges: number };
	reserves: number[];
}

const missing = javaMissing();
let classes = "";

/** Runs `calls` calls of next() against a reserve route answering `script(n)` to the `n`th reserve. */
async function runBuffer(script: (n: number) => Answer, calls: number, maxWaitMs: number) {
	const reserves: number[] = [];
	const server = createServer((req, res) => {
		const count = Number(new URL(req.url ?? "", "http://x").searchParams.get("count"));
		reserves.push(count);
		const answer = script(reserves.length - 1);
		if (answer === "hang") return;
		const json = (status: number, body: unknown) =>
			res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
		if ("code" in answer)
			return json(answer.status, { error: { code: answer.code, message: "scripted" } });
		json(200, {
			type: "sequence-range",
			name: "orders",
			...answer,
			first: `${answer.first}`,
			last: `${answer.last}`,
		});
	});
	await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	try {
		const args = [
			"-cp",
			classes,
			"dev.edgeids.BufferDriver",
			url,
			"orders",
			String(calls),
			String(maxWaitMs),
		];
		const lines = await driverLines("java", [...JAVA_FLAGS, ...args]);
		return { lines: lines.slice(0, -1), end: lines.at(-1), reserves } as Outcome;
	} finally {
		server.closeAllConnections();
		server.close();
	}
}

describe.skipIf(missing)(
	`the Java SequenceBuffer${missing ? ` (skipped: ${missing})` : ""}`,
	{ timeout: 30_000 },
	() => {
		beforeAll(() => {
			classes = buildJava();
		}, 60_000);

		it("hands out consecutive ranges in order, reserving the next before the current runs out", async () => {
			const ranges = [
				{ first: 100, last: 104 },
				{ first: 200, last: 204 },
				{ first: 300, last: 304 },
			];
			const { lines, end, reserves } = await runBuffer((n) => ranges[n] ?? "hang", 12, 1000);
			expect(lines.map((line) => line.n)).toEqual([
				"100",
				"101",
				"102",
				"103",
				"104",
				"200",
				"201",
				"202",
				"203",
				"204",
				"300",
				"301",
			]);
			expect(reserves[0]).toBe(5); // minStep first
			expect(end.threads).toBe(0);
		});

		it("gives a hung reserve up at maxWait (overloaded), then reserves anew; drops a range below what it held", async () => {
			const script = (n: number): Answer =>
				n === 0
					? { first: 50, last: 52 }
					: n === 1
						? "hang"
						: n === 2
							? { first: 10, last: 20 }
							: { first: 60, last: 70 };
			const { lines, end } = await runBuffer(script, 6, 300);
			expect(lines.slice(0, 3).map((line) => line.n)).toEqual(["50", "51", "52"]);
			const refused = lines[3];
			expect(refused?.code).toBe("overloaded");
			expect(refused?.ms).toBeGreaterThanOrEqual(250);
			expect(refused?.ms).toBeLessThan(1000);
			// 10..20 lies below 52: dropped; 60.. follows.
			expect(lines.slice(4).map((line) => line.n)).toEqual(["60", "61"]);
			expect(end.droppedRanges).toBe(1);
			expect(end.threads).toBe(0);
		});

		it("passes the service's refusal on with its code", async () => {
			const { lines } = await runBuffer(() => ({ status: 404, code: "unknown_sequence" }), 1, 1000);
			expect(lines[0]?.code).toBe("unknown_sequence");
		});

		it("close() during a hung reserve cancels it and leaves no thread behind", async () => {
			const { lines, end } = await runBuffer(
				(n) => (n === 0 ? { first: 1, last: 3 } : "hang"),
				3,
				5000,
			);
			expect(lines.map((line) => line.n)).toEqual(["1", "2", "3"]);
			expect(end.threads).toBe(0);
			expect(end.closeMs).toBeLessThan(1000);
		});
	},
);
