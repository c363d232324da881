/**
 * Nothing a caller sends makes an object issue into a span it granted, nor grant
 * overlapping spans (fast-check, fixed seed): random sequences of acquires (named,
 * auto, with odd holders), renewals and releases with real, foreign, malformed and
 * stale leaseIds, named and blocks requests from Workers with and without the lease
 * settings (a deploy in progress), restarts, and object clocks stepping forward and
 * back. Every answer is 2xx or a 4xx with a code; every ID issued lies outside every
 * span of its worker ID; spans of one worker ID never overlap. Worker IDs 670-672.
 */
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import type { LeaseGrant, SnowflakeBlocks, SnowflakeIds } from "../../src/wire";
import { tickOf } from "../shared/ticks";
import { appWith, printTestStats, restart, useTestClock, YieldingClock } from "./helpers";
import { leaseBody, leasesApp, releasePath, renewPath } from "./lease-helpers";

const IDS = [670, 671, 672];
const leases = leasesApp({ LEASE_WORKER_IDS: "670-672" });
const unaware = appWith({});

/** Across runs (storage lives as long as the file): spans and issued ticks per worker ID. */
const spans = new Map<number, Map<string, { from: number; to: number }>>();
const issued = new Map<number, number[]>();
const grants: LeaseGrant[] = [];
const answers = new Map<string, number>();

afterAll(() => {
	const spanCount = [...spans.values()].reduce((n, own) => n + own.size, 0);
	const idCount = [...issued.values()].reduce((n, own) => n + own.length, 0);
	const tally = [...answers].sort().map(([key, n]) => `${key}: ${n}`);
	printTestStats(
		`lease fuzz: ${spanCount} leases, ${idCount} IDs issued beside them; ${tally.join(", ")}`,
	);
});

type Step =
	| { kind: "acquire"; workerId: number | undefined; holder: string | number | undefined }
	| { kind: "renew" | "release"; pick: number; tamper: "none" | "foreign" | "short" | "other-id" }
	| { kind: "issue"; workerId: number; blocks: boolean; aware: boolean }
	| { kind: "clock"; ms: number }
	| { kind: "restart"; workerId: number };

const workerId = fc.constantFrom(...IDS);
const step: fc.Arbitrary<Step> = fc.oneof(
	fc.record({
		kind: fc.constant("acquire" as const),
		workerId: fc.option(workerId, { nil: undefined }),
		holder: fc.oneof(fc.constant(undefined), fc.string({ maxLength: 140 }), fc.integer()),
	}),
	fc.record({
		kind: fc.constantFrom("renew" as const, "release" as const),
		pick: fc.nat(4),
		tamper: fc.constantFrom("none", "none", "foreign", "short", "other-id") as fc.Arbitrary<"none">,
	}),
	fc.record({
		kind: fc.constant("issue" as const),
		workerId,
		blocks: fc.boolean(),
		aware: fc.boolean(),
	}),
	fc.record({
		kind: fc.constant("clock" as const),
		ms: fc.oneof(
			fc.integer({ min: 0, max: 40_000 }),
			fc.constantFrom(-3_600_000, -5_000, 3_600_000),
		),
	}),
	fc.record({ kind: fc.constant("restart" as const), workerId }),
);

function noteSpan(grant: LeaseGrant) {
	const own = spans.get(grant.workerId) ?? new Map();
	const before = own.get(grant.leaseId);
	if (before) expect(grant.to).toBeGreaterThanOrEqual(before.to); // never back
	own.set(grant.leaseId, { from: grant.from, to: grant.to });
	spans.set(grant.workerId, own);
}

async function apply(s: Step, clock: YieldingClock) {
	const expectAnswered = (status: number) => {
		answers.set(`${s.kind} ${status}`, (answers.get(`${s.kind} ${status}`) ?? 0) + 1);
		expect(status < 500, `answered ${status}`).toBe(true);
	};
	switch (s.kind) {
		case "acquire": {
			const body: Record<string, unknown> = {};
			if (s.workerId !== undefined) body.workerId = s.workerId;
			if (s.holder !== undefined) body.holder = s.holder;
			const answer = await leases<LeaseGrant>("POST", "/leases", body);
			expectAnswered(answer.status);
			if (answer.status === 201) {
				noteSpan(answer.body);
				grants.push(answer.body);
			}
			return;
		}
		case "renew":
		case "release": {
			const grant = grants[grants.length - 1 - s.pick];
			if (!grant) return;
			const sent = {
				...grant,
				leaseId:
					s.tamper === "foreign"
						? "F".repeat(32)
						: s.tamper === "short"
							? grant.leaseId.slice(2)
							: grant.leaseId,
				workerId:
					s.tamper === "other-id" ? IDS[(IDS.indexOf(grant.workerId) + 1) % 3] : grant.workerId,
			} as LeaseGrant;
			const answer = await leases<LeaseGrant>(
				"POST",
				s.kind === "renew" ? renewPath(sent) : releasePath(sent),
				leaseBody(sent),
			);
			expectAnswered(answer.status);
			if (s.tamper !== "none") expect(answer.status).toBeGreaterThanOrEqual(400);
			if (answer.status === 200) noteSpan(answer.body);
			return;
		}
		case "issue": {
			const path = `/snowflake/${s.workerId}${s.blocks ? "/blocks" : ""}?count=3`;
			const answer = s.aware ? await leases("GET", path) : await unaware(path);
			expectAnswered(answer.status);
			if (answer.status !== 200) return;
			const ids = s.blocks
				? (answer.body as unknown as SnowflakeBlocks).blocks.map((block) => block.first)
				: (answer.body as unknown as SnowflakeIds).ids;
			const own = issued.get(s.workerId) ?? [];
			own.push(...ids.map((id) => tickOf(id)));
			issued.set(s.workerId, own);
			return;
		}
		case "clock":
			clock.time += s.ms;
			return;
		case "restart":
			await restart(s.workerId);
			await useTestClock(s.workerId, clock);
			return;
	}
}

describe("lease requests of any kind, in any order (fast-check, fixed seed)", () => {
	it("never put an issued ID in a span, nor two spans together", { timeout: 120_000 }, async () => {
		let run = 0;
		await fc.assert(
			fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 25 }), async (steps) => {
				const clock = new YieldingClock(1_800_000_000_000 + run++ * 10_000_000);
				for (const id of IDS) await useTestClock(id, clock);
				for (const s of steps) await apply(s, clock);
				for (const id of IDS) {
					const own = [...(spans.get(id)?.values() ?? [])].sort((a, b) => a.from - b.from);
					for (let i = 1; i < own.length; i++) {
						expect(own[i]?.from).toBeGreaterThanOrEqual(own[i - 1]?.to as number);
					}
					for (const t of issued.get(id) ?? []) {
						for (const span of own) expect(t < span.from || t >= span.to).toBe(true);
					}
				}
			}),
			{ seed: 0x1ea5e, numRuns: 40, endOnFailure: true },
		);
	});
});
