/**
 * The process-side buffer over reserved ranges (createSequenceBuffer) on a scripted
 * clock, over a source that reserves from the real ordered counter: numbers unique
 * and increasing, the next range reserved before the current one runs out, bounded
 * waits, ranges aged out, `close()`, and the source's refusals passed through.
 */
import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { createSequenceBuffer, IdsError, idsClient, type RangeSource } from "../../src/client";
import { issueRange, newSequenceState, type SequenceState } from "../../src/ids/sequences/counter";
import { checkSequenceSettings } from "../../src/ids/sequences/settings";
import { ManualClock } from "../shared/fake-clock";

const T0 = Date.UTC(2026, 10, 27, 12);
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Reserves from the ordered counter as the service does; `hold` keeps answers until `release`. */
class CounterRanges implements RangeSource {
	readonly sizes: number[] = [];
	private state: SequenceState;
	private readonly settings = checkSequenceSettings({ start: 1000 });
	private held: (() => void)[] = [];
	hold = false;
	failWith: Error | undefined;

	constructor(private readonly clock: ManualClock) {
		this.state = newSequenceState(this.settings, clock.now());
	}

	async reserveInSequence(name: string, { count }: { count: number }) {
		expect(name).toBe("orders");
		this.sizes.push(count);
		if (this.failWith) throw this.failWith;
		const ruling = issueRange(this.state, this.settings, count, this.clock.now());
		if (!ruling.ok) throw ruling.refusal;
		this.state = ruling.state;
		const range = { first: `${ruling.value.first}`, last: `${ruling.value.last}` };
		if (this.hold) await new Promise<void>((resolve) => this.held.push(resolve));
		return range;
	}

	release(): void {
		for (const resolve of this.held.splice(0)) resolve();
	}
}

function setup(options: { maxAgeMs?: number; maxWaitMs?: number } = {}) {
	const clock = new ManualClock(T0);
	const source = new CounterRanges(clock);
	const buffer = createSequenceBuffer({
		source,
		name: "orders",
		clock,
		minStep: 10,
		maxStep: 1000,
		targetRefillMs: 1000,
		maxAgeMs: options.maxAgeMs ?? 60_000,
		maxWaitMs: options.maxWaitMs ?? 500,
	});
	return { clock, source, buffer };
}

describe("createSequenceBuffer", () => {
	it("hands out consecutive numbers from one reserved range, reserving the next before it runs out", async () => {
		const { clock, source, buffer } = setup();
		expect(await buffer.next(2)).toEqual({
			type: "sequence",
			name: "orders",
			first: "1000",
			count: 2,
			numbers: ["1000", "1001"],
		});
		expect(source.sizes).toEqual([10]);
		// 8 left of 10: no reserve yet; at 4 left (below half a step) the next one starts,
		// sized by the rate: 6 numbers in 1 s last the 1 s target in less than the smallest step.
		clock.advance(1000);
		expect((await buffer.next(4)).numbers).toEqual(["1002", "1003", "1004", "1005"]);
		expect(source.sizes).toEqual([10, 10]);
		await settle();
		source.hold = true; // the spare is already held: the next numbers wait for nothing
		const taken = [...(await buffer.next(4)).numbers, ...(await buffer.next(3)).numbers];
		expect(taken).toEqual(["1006", "1007", "1008", "1009", "1010", "1011", "1012"]);
		expect(buffer.stats()).toMatchObject({ takes: 4, handedOut: 13, wasted: 0n });
		buffer.close();
	});

	it("waits at most maxWaitMs for a range that does not come: overloaded, retryable", async () => {
		const { clock, source, buffer } = setup({ maxWaitMs: 500 });
		source.hold = true;
		const waiting = buffer.next();
		await settle();
		clock.advance(499);
		await settle();
		let settled = false;
		waiting.then(
			() => (settled = true),
			() => (settled = true),
		);
		await settle();
		expect(settled).toBe(false);
		clock.advance(1);
		const error = await waiting.catch((thrown: unknown) => thrown);
		expect(error).toBeInstanceOf(IdsError);
		expect(error).toMatchObject({ code: "overloaded", status: 503, retryAfter: 1 });
		expect((error as IdsError).message).toBe(
			"overloaded: no range of numbers arrived within 500 ms; retry shortly",
		);
		buffer.close();
	});

	it("never hands out a range older than maxAgeMs: the rest is wasted, a new range reserved", async () => {
		const { clock, source, buffer } = setup({ maxAgeMs: 2000 });
		expect((await buffer.next()).numbers).toEqual(["1000"]);
		clock.advance(2000);
		expect((await buffer.next()).numbers).toEqual(["1010"]);
		expect(source.sizes).toHaveLength(2);
		expect(buffer.stats().wasted).toBe(9n);
		buffer.close();
	});

	it("passes the source's refusal through, and rejects with aborted after close()", async () => {
		const { source, buffer } = setup();
		const unknown = new IdsError(
			"unknown_sequence",
			'sequence "orders" was never created',
			404,
			undefined,
		);
		source.failWith = unknown;
		await expect(buffer.next()).rejects.toBe(unknown);
		source.failWith = undefined;
		expect((await buffer.next(3)).numbers).toEqual(["1000", "1001", "1002"]);
		buffer.close();
		expect(buffer.stats().wasted).toBe(7n);
		await expect(buffer.next()).rejects.toMatchObject({ code: "aborted" });
		await expect(setup().buffer.next(0)).rejects.toMatchObject({
			code: "invalid_count",
			status: 400,
		});
	});

	it("cancels idsClient's reserve in flight when it closes (the request's signal aborts)", async () => {
		const requests: { url: string; signal: AbortSignal }[] = [];
		const hanging: typeof fetch = (input, init) => {
			const signal = init?.signal as AbortSignal;
			requests.push({ url: String(input instanceof Request ? input.url : input), signal });
			return new Promise((_resolve, reject) =>
				signal.addEventListener("abort", () => reject(signal.reason)),
			);
		};
		const source = idsClient({ baseUrl: "https://ids.test", fetch: hanging });
		const buffer = createSequenceBuffer({ source, name: "orders", maxWaitMs: 60_000 });
		const waiting = buffer.next().catch((error: unknown) => error);
		await settle();
		expect(requests.map((r) => r.url)).toEqual(["https://ids.test/sequences/orders/reserve"]);
		expect(requests[0]?.signal.aborted).toBe(false);
		buffer.close();
		expect(requests[0]?.signal.aborted).toBe(true);
		expect(await waiting).toMatchObject({ code: "aborted" });
	});

	it("refuses options the buffer's rules do not allow with invalid_config", () => {
		const clock = new ManualClock(T0);
		const make = () =>
			createSequenceBuffer({
				source: new CounterRanges(clock),
				name: "orders",
				targetRefillMs: 5000,
				maxAgeMs: 1000,
			});
		expect(make).toThrow(IdsError);
		expect(make).toThrow(
			"invalid_config: targetRefillMs must be an integer in [1, 1000], got 5000",
		);
	});
});

describe("createSequenceBuffer's waits end", () => {
	it("when next's signal aborts: at once, with `aborted` and the reason as its cause", async () => {
		const { clock, source, buffer } = setup({ maxWaitMs: 30_000 });
		source.hold = true;
		const controller = new AbortController();
		const waiting = buffer.next(1, { signal: controller.signal }).catch((error: unknown) => error);
		await settle();
		const reason = new Error("the caller gave up");
		controller.abort(reason);
		const error = (await waiting) as IdsError;
		expect(error).toBeInstanceOf(IdsError);
		expect(error).toMatchObject({ code: "aborted", cause: reason });
		expect(clock.pendingSleeps).toBe(0); // its wait's timer was cancelled
		// The buffer goes on: a later call is served once the reserve answers.
		const later = buffer.next(2);
		source.release();
		await settle();
		source.release();
		expect((await later).numbers).toHaveLength(2);
	});

	it("and a Node process exits promptly after close(), whatever was waiting", () => {
		const script = resolve(import.meta.dirname, "sequence-buffer-exit.ts");
		const started = Date.now();
		const printed = execFileSync(process.execPath, ["--import", "tsx", script], {
			encoding: "utf8",
			timeout: 20_000,
		});
		expect(printed.trim()).toBe("aborted");
		// The wait's 30 s timer did not hold it; startup takes a second or two.
		expect(Date.now() - started).toBeLessThan(8_000);
	}, 30_000);
});
