/**
 * The load run's restart probes (scripts/load/crash-loop.ts): "0 of N probes below an
 * earlier ID" is a claim about answers, so a probe counts only once its answer was
 * checked; refusals are reported apart, and a run none of whose probes was answered fails.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { probeEveryWorkerId } from "../../scripts/load/crash-loop";
import { Ledger } from "../../scripts/load/ledger";
import { parseLoadOptions } from "../../scripts/load/options";
import { printReport } from "../../scripts/load/report";
import { type CrashableServer, ServerUnderCrashes } from "../../scripts/load/server-under-crashes";
import { SnowflakeLayout, TWITTER_LAYOUT } from "../../src/ids/snowflake/layout";

const LAYOUT = new SnowflakeLayout(TWITTER_LAYOUT);
const WORKER_IDS = [0, 1, 2, 3, 4, 5, 6, 7];

/** A server whose every answer comes from `answer(workerId)` (a stand-in for fetch). */
function serverAnswering(answer: (workerId: number) => Response) {
	vi.stubGlobal("fetch", async (url: string) => {
		const workerId = Number(/\/snowflake\/(\d+)/.exec(url)?.[1]);
		return answer(workerId);
	});
	const server = new ServerUnderCrashes({ url: "http://ids.test" } as CrashableServer);
	server.up = true;
	return server;
}

/** A 200 with one Snowflake of `workerId` at `ms`. */
function snowflakeAnswer(workerId: number, ms: number, sequence = 0): Response {
	const id = LAYOUT.compose({ tick: LAYOUT.tickOf(ms), workerId, sequence });
	return Response.json({ type: "snowflake", workerId, ids: [String(id)] });
}

/** Whether the run's report says PASS (printed output swallowed). */
function reportPasses(ledger: Ledger): boolean {
	const opts = parseLoadOptions(["--duration", "1"]);
	if (opts === "help") throw new Error("options");
	vi.spyOn(console, "log").mockImplementation(() => {});
	return printReport(ledger, opts, 1, 0);
}

afterEach(() => {
	vi.unstubAllGlobals();
	vi.restoreAllMocks();
});

describe("restart probes", () => {
	it("count answered probes; every worker ID above all before passes", async () => {
		const now = Date.now();
		const ledger = new Ledger(LAYOUT.toJSON(), now - 1000);
		const server = serverAnswering((workerId) => snowflakeAnswer(workerId, now));
		await probeEveryWorkerId(server, ledger, WORKER_IDS, 5);
		expect(ledger.stats).toMatchObject({
			postRestartProbes: 8,
			unansweredProbes: 0,
			belowEarlierAfterRestart: 0,
		});
		expect(reportPasses(ledger)).toBe(true);
	});

	it("count a probe below an earlier ID of its worker ID", async () => {
		const now = Date.now();
		const ledger = new Ledger(LAYOUT.toJSON(), now - 1000);
		let ms = now;
		const server = serverAnswering((workerId) => snowflakeAnswer(workerId, ms));
		await probeEveryWorkerId(server, ledger, WORKER_IDS, 5);
		ms = now + 10;
		await probeEveryWorkerId(server, ledger, WORKER_IDS, 5);
		expect(ledger.stats.belowEarlierAfterRestart).toBe(0);
		ms = now + 5; // every worker ID goes back 5 ms, below its last answer
		await probeEveryWorkerId(server, ledger, WORKER_IDS, 5);
		expect(ledger.stats).toMatchObject({ postRestartProbes: 24, belowEarlierAfterRestart: 8 });
		expect(reportPasses(ledger)).toBe(false);
	});

	it("a server that answers every probe 503: none counted as checked, and the run fails", async () => {
		const ledger = new Ledger(LAYOUT.toJSON(), Date.now() - 1000);
		const server = serverAnswering(() =>
			Response.json(
				{ error: { code: "unavailable", message: "restarting" } },
				{ status: 503, headers: { "Retry-After": "1" } },
			),
		);
		server.restarts = 1; // a 503 with Retry-After just after a restart is no violation
		server.upSince = Date.now();
		await probeEveryWorkerId(server, ledger, WORKER_IDS, 5);
		expect(ledger.stats).toMatchObject({
			postRestartProbes: 0,
			unansweredProbes: 8,
			belowEarlierAfterRestart: 0,
			backPressure: 8,
		});
		expect(ledger.violations()).toBe(0);
		expect(ledger.idsChecked()).toBe(0);
		expect(reportPasses(ledger)).toBe(false);
	});

	it("a malformed answer is unanswered, not a probe", async () => {
		const ledger = new Ledger(LAYOUT.toJSON(), Date.now() - 1000);
		const server = serverAnswering(() => Response.json({ type: "snowflake", ids: [] }));
		await probeEveryWorkerId(server, ledger, [9], 5);
		expect(ledger.stats).toMatchObject({ postRestartProbes: 0, unansweredProbes: 1 });
	});
});
