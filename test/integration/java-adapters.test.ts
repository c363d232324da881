/**
 * The Java adapters through their upstream interfaces alone (Leaf's IDGen,
 * UidGenerator, MyBatis-Plus's IdentifierGenerator; stand-ins compiled from the
 * published signatures) against the real bundle in Miniflare, under a UidGenerator-like
 * layout (1 s ticks, 31/20/12 bits from 2020) and a JVM in UTC+8: Leaf's result codes
 * (-1 before init, -2 unknown key, -3 unavailable), parseUID's exact string, a Long from
 * MyBatis-Plus, and the sequence buffer under eight threads leaving no thread after close().
 * Run by dev.edgeids.AdapterDriver (examples/java's test tree); skips without javac 17+.
 */
import { spawnSync } from "node:child_process";
import type { Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildJava, JAVA_FLAGS, javaMissing } from "../../scripts/lib/java-build";
import { startServiceAndConsumer } from "./setup";

const TOKEN = "adapters-secret";
const EPOCH = 1_577_836_800_000; // 2020-01-01T00:00:00Z
const LAYOUT = {
	SNOWFLAKE_EPOCH: String(EPOCH),
	SNOWFLAKE_TIME_BITS: "31",
	SNOWFLAKE_WORKER_BITS: "20",
	SNOWFLAKE_SEQUENCE_BITS: "12",
	SNOWFLAKE_TIME_UNIT_MS: "1000",
};
/** A UID fixed here: tick 191,234,567 s, worker ID 600,001, sequence 77. */
const FIXED = (191_234_567n << 32n) | (600_001n << 12n) | 77n;
const missing = javaMissing();

/** DefaultUidGenerator's parseUID of `uid` under LAYOUT, its time in UTC+8 (Asia/Shanghai). */
function parsedUid(uid: bigint): string {
	const ms = EPOCH + Number(uid >> 32n) * 1000;
	// sv-SE writes "2026-11-29 13:05:01": the yyyy-MM-dd HH:mm:ss DefaultUidGenerator prints.
	const time = new Intl.DateTimeFormat("sv-SE", {
		timeZone: "Asia/Shanghai",
		dateStyle: "short",
		timeStyle: "medium",
		hourCycle: "h23",
	}).format(ms);
	const worker = (uid >> 12n) & 0xfffffn;
	return `{"UID":"${uid}","timestamp":"${time}","workerId":"${worker}","sequence":"${uid & 0xfffn}"}`;
}

describe.skipIf(missing)(
	`the Java adapters against the service${missing ? ` (skipped: ${missing})` : ""}`,
	() => {
		let mf: Miniflare;
		let out: Record<string, unknown>;

		beforeAll(async () => {
			const classes = buildJava();
			const vars = { ...LAYOUT, LEASE_WORKER_IDS: "600000-600003", REQUEST_LOG: "off" };
			const started = await startServiceAndConsumer({ apiToken: TOKEN, vars });
			mf = started.mf;
			const url = started.url.origin;
			const created = await fetch(`${url}/sequences/orders?start=1000`, {
				method: "PUT",
				headers: { Authorization: `Bearer ${TOKEN}` },
			});
			expect(created.status).toBe(201);
			const args = ["-Duser.timezone=Asia/Shanghai", "-cp", classes, "dev.edgeids.AdapterDriver"];
			const run = spawnSync("java", [...JAVA_FLAGS, ...args, url, TOKEN, "orders", String(FIXED)], {
				encoding: "utf8",
				timeout: 90_000,
			});
			expect(run.stderr).toBe("");
			expect(run.status).toBe(0);
			out = JSON.parse(run.stdout);
		}, 120_000);
		afterAll(() => mf?.dispose());

		const failure = (id: number) => ({ id: String(id), status: "EXCEPTION" });

		it("LeafSegmentIdGen: -1 before init, the sequence's numbers in order, -2 for keys that are no sequence", () => {
			expect(out.segmentBeforeInit).toEqual(failure(-1));
			expect(out.segmentInit).toBe(true);
			const numbers = out.segmentNumbers as { id: string; status: string }[];
			expect(numbers.map((result) => result.status)).toEqual(Array(25).fill("SUCCESS"));
			expect(numbers.map((result) => Number(result.id))).toEqual(
				Array.from({ length: 25 }, (_, i) => 1000 + i),
			);
			expect(out.segmentUnknown).toEqual(failure(-2));
			expect(out.segmentInvalidName).toEqual(failure(-2));
		});

		it("LeafSegmentIdGen answers -3 when the service refuses (503); LeafSnowflakeIdGen -1 when init found no service", () => {
			expect(out.segmentDownInit).toBe(true);
			expect(out.segmentDown).toEqual(failure(-3));
			expect(out.snowflakeNowhereInit).toBe(false);
			expect(out.snowflakeNowhere).toEqual(failure(-1));
		});

		it("LeafSnowflakeIdGen: -1 before init, then increasing IDs of a leased worker ID, the key ignored", () => {
			expect(out.snowflakeBeforeInit).toEqual(failure(-1));
			expect(out.snowflakeInit).toBe(true);
			const ids = (out.snowflakes as { id: string; status: string }[]).map((r) => BigInt(r.id));
			expect(ids).toHaveLength(3);
			expect([...ids].sort((a, b) => (a < b ? -1 : 1))).toEqual(ids);
			expect(new Set(ids).size).toBe(3);
			for (const id of ids) expect(Number((id >> 12n) & 0xfffffn)).toBeGreaterThanOrEqual(600_000);
		});

		it("BaiduUidGenerator.parseUID is DefaultUidGenerator's string for the deployment's layout, in the JVM's zone", () => {
			expect(out.parsedFixed).toBe(parsedUid(FIXED));
			expect(out.parsedFixed).toBe(
				'{"UID":"821346213587325005","timestamp":"2026-01-22 16:42:47","workerId":"600001","sequence":"77"}',
			);
			const uid = BigInt(out.uid as string);
			expect(out.parsed).toBe(parsedUid(uid));
			// A UID of now: its time within a minute of this test's clock.
			const ms = EPOCH + Number(uid >> 32n) * 1000;
			expect(Math.abs(ms - Date.now())).toBeLessThan(60_000);
			expect(out.uidNowhere).toEqual({ cause: "network_error" });
		});

		it("MybatisPlusIdentifierGenerator.nextId returns a java.lang.Long, increasing", () => {
			const { type, ids } = out.mybatis as { type: string; ids: string[] };
			expect(type).toBe("java.lang.Long");
			expect(BigInt(ids[1] ?? "0")).toBeGreaterThan(BigInt(ids[0] ?? "0"));
		});

		it("SequenceBuffer under 8 threads: 40,000 distinct numbers, each thread's increasing, no thread left after close()", () => {
			expect(out.buffer).toMatchObject({
				distinct: 40_000,
				increasing: true,
				threadsAfterClose: 0,
				afterClose: "aborted",
			});
			// Leaf's double buffer: the step grew with the rate, so a few reserves served them all.
			expect((out.buffer as { fetches: number }).fetches).toBeLessThan(40);
		});
	},
);
