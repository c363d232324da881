/**
 * Worker-ID leases under any interleaving, on a scripted clock: acquires (with and
 * without a lead bound), renewals on time and late, releases, takeovers after the
 * grace, the object's own issues (alone and concurrent with a grant), restarts from
 * what was persisted only, instances lost right after storing a grant, and clock
 * steps of an hour back or forward. Afterwards: the spans of one worker ID never
 * overlap each other nor a tick the object issued itself; `to` never moved back;
 * a released or replaced lease's renewal was `lease_lost`; a renewal of the
 * current lease with nothing issued since was granted.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { LeaseAnswer, LeaseKeeper } from "../../src/ids/leases/keeper";
import { FrozenClock } from "../shared/fake-clock";
import { bootKeeper, MemoryStore, SPAN_MS } from "./lease-setup";

type Op =
	| { kind: "acquire"; maxLeadMs: number | undefined }
	| { kind: "renew" | "release"; who: number }
	| { kind: "issue"; count: number }
	| { kind: "issue-and-acquire"; count: number }
	| { kind: "advance"; ms: number }
	| { kind: "restart" }
	| { kind: "lost-after-storing" };

/** Mostly the latest lease (its holder renews and releases), sometimes an older one. */
const who = fc.oneof({ weight: 5, arbitrary: fc.constant(0) }, fc.nat(4));

const op: fc.Arbitrary<Op> = fc.oneof(
	{
		weight: 4,
		arbitrary: fc.record({
			kind: fc.constant("acquire" as const),
			maxLeadMs: fc.option(fc.integer({ min: 0, max: 5_000 }), { nil: undefined }),
		}),
	},
	{ weight: 5, arbitrary: fc.record({ kind: fc.constant("renew" as const), who }) },
	{ weight: 2, arbitrary: fc.record({ kind: fc.constant("release" as const), who }) },
	{
		weight: 3,
		arbitrary: fc.record({
			kind: fc.constant("issue" as const),
			count: fc.integer({ min: 1, max: 9_000 }),
		}),
	},
	{
		weight: 2,
		arbitrary: fc.record({
			kind: fc.constant("issue-and-acquire" as const),
			count: fc.integer({ min: 1, max: 5_000 }),
		}),
	},
	{
		weight: 6,
		arbitrary: fc.record({
			kind: fc.constant("advance" as const),
			ms: fc.oneof(
				fc.integer({ min: 0, max: 12_000 }), // within a span: renewals on time
				fc.integer({ min: 28_000, max: 40_000 }), // past to, within or past the grace
				fc.constantFrom(-3_600_000, 3_600_000, -1_500, -40_000), // clock steps
			),
		}),
	},
	{ weight: 2, arbitrary: fc.constant({ kind: "restart" as const }) },
	{ weight: 1, arbitrary: fc.constant({ kind: "lost-after-storing" as const }) },
);

/** A lease as the test knows it: its hash and the largest span ever stored for it. */
interface Granted {
	hash: string;
	from: number;
	to: number;
	released: boolean;
	/** A later lease was granted: this one is replaced. */
	replaced: boolean;
	/** The object issued IDs of its own since this lease's last grant or renewal. */
	issuedSince: boolean;
}

class Run {
	readonly clock = new FrozenClock(100_000_000_000);
	readonly store = new MemoryStore();
	keeper: LeaseKeeper = bootKeeper(this.clock, this.store);
	readonly leases: Granted[] = [];
	/** Ticks the object issued itself, as [first, last] of each call. */
	readonly issued: [number, number][] = [];
	private next = 0;

	async apply(step: Op): Promise<void> {
		switch (step.kind) {
			case "acquire":
				return this.acquire(step.maxLeadMs);
			case "renew":
				return this.renew(step.who);
			case "release":
				return this.release(step.who);
			case "issue":
				return this.issue(step.count);
			case "issue-and-acquire":
				await Promise.all([this.issue(step.count), this.acquire(undefined)]);
				return;
			case "advance":
				this.clock.time += step.ms;
				return;
			case "restart":
				this.keeper = bootKeeper(this.clock, this.store);
				return;
			case "lost-after-storing": {
				// The instance ends after storing a grant, before answering: a span nobody knows of.
				this.store.failAfterNextWrite = true;
				const hash = `h${this.next++}`;
				await this.keeper.acquire({ leaseHash: hash, holder: null }).catch(() => undefined);
				if (this.store.failAfterNextWrite)
					this.store.failAfterNextWrite = false; // refused: nothing stored
				else
					this.noteGranted(hash, this.store.lease?.from as number, this.store.lease?.to as number);
				this.keeper = bootKeeper(this.clock, this.store);
				return;
			}
		}
	}

	private async acquire(maxLeadMs: number | undefined) {
		const hash = `h${this.next++}`;
		const answer = await this.keeper.acquire({ leaseHash: hash, holder: null, maxLeadMs });
		if (answer.ok) this.noteGranted(hash, answer.value.from, answer.value.to);
		else expect(answer.refusal.code).toMatch(/^(no_free_worker_id)$/);
	}

	private noteGranted(hash: string, from: number, to: number) {
		for (const lease of this.leases) lease.replaced = true;
		this.leases.push({ hash, from, to, released: false, replaced: false, issuedSince: false });
	}

	private pick(who: number): Granted | undefined {
		return this.leases[this.leases.length - 1 - who];
	}

	private async renew(who: number) {
		const lease = this.pick(who);
		if (!lease) return;
		const answer: LeaseAnswer<{ from: number; to: number }> = await this.keeper.renew(lease.hash);
		if (lease.released || lease.replaced) {
			expect(answer).toMatchObject({ ok: false, refusal: { code: "lease_lost" } });
			return;
		}
		if (!lease.issuedSince) expect(answer.ok, "a renewal with nothing issued since").toBe(true);
		if (!answer.ok) {
			expect(answer.refusal.code).toBe("lease_lost");
			return;
		}
		expect(answer.value.from).toBe(lease.from);
		expect(answer.value.to).toBeGreaterThanOrEqual(lease.to); // never back
		lease.to = answer.value.to;
		lease.issuedSince = false;
	}

	private async release(who: number) {
		const lease = this.pick(who);
		if (!lease) return;
		const answer = await this.keeper.release(lease.hash);
		if (lease.replaced)
			expect(answer).toMatchObject({ ok: false, refusal: { code: "lease_lost" } });
		else {
			expect(answer.ok).toBe(true);
			lease.released = true;
		}
	}

	private async issue(count: number) {
		try {
			const runs = await this.keeper.generator.nextRuns(count);
			const ticks = runs.map((run) => run.tick);
			this.issued.push([Math.min(...ticks), Math.max(...ticks)]);
			for (const lease of this.leases) lease.issuedSince = true;
		} catch (error) {
			expect((error as { code?: string }).code).toMatch(
				/^(worker_id_leased|clock_regression|overloaded)$/,
			);
		}
	}

	/** Every span apart from every other span and from every tick issued by the object. */
	checkDisjoint() {
		const spans = this.leases.map(({ from, to }) => [from, to - 1] as [number, number]);
		for (const [i, [from, last]] of spans.entries()) {
			expect(from).toBeLessThanOrEqual(last);
			for (const [other, [otherFrom, otherLast]] of spans.entries()) {
				if (other === i) continue;
				expect(last < otherFrom || otherLast < from, `spans ${i} and ${other} overlap`).toBe(true);
			}
			for (const [first, lastIssued] of this.issued) {
				expect(lastIssued < from || last < first, `span ${i} holds issued ticks`).toBe(true);
			}
		}
	}
}

describe("worker-ID leases under any interleaving", () => {
	it("never overlap one another nor the object's own IDs; to never moves back", async () => {
		await fc.assert(
			fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 80, size: "max" }), async (ops) => {
				const run = new Run();
				for (const step of ops) await run.apply(step);
				// A last look after every span ended: whatever is free is taken above everything.
				run.clock.time += 2 * SPAN_MS + 10_000;
				await run.apply({ kind: "acquire", maxLeadMs: undefined });
				await run.apply({ kind: "issue", count: 1 });
				run.checkDisjoint();
			}),
			{ seed: 0x1ea5e5, numRuns: 300 },
		);
	});
});
