/**
 * Pooled mode across a reset: an isolate hands out a segment taken before midnight for
 * up to POOL_MAX_AGE_MS after it, naming the old period, while an isolate that asks the
 * object after midnight gets the new one. In the same instant, two periods; never
 * longer than POOL_MAX_AGE_MS. (docs/SEQUENCES.md, "Resets and time zones", says so.)
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { checkSequenceSettings } from "../../src/ids/sequences";
import type { SequenceObject } from "../../src/worker/object/sequence-object";
import { FrozenClock } from "../shared/fake-clock";
import { type Isolate, isolate, operations, sequenceName, sequenceStub } from "./sequence-helpers";

const MAX_AGE_MS = 200;

describe("a pooled sequence with a daily reset", () => {
	it("answers the old period from a held segment for up to POOL_MAX_AGE_MS after midnight", async () => {
		const clock = new FrozenClock(Date.UTC(2026, 10, 27, 23, 59, 59, 900));
		const name = sequenceName("pooled-midnight");
		await runInDurableObject(sequenceStub(name), (instance: SequenceObject) => {
			instance.clock = clock;
		});
		const { ops } = await operations();
		const settings = checkSequenceSettings({ mode: "pooled", reset: "daily" });
		await ops.createSequence(env, { name, settings });
		const next = async ({ config, pools }: Isolate) =>
			(await ops.nextInSequence(env, config, { name, count: 1 }, undefined, pools)).period;

		const early = isolate({ POOL_MAX_AGE_MS: String(MAX_AGE_MS) });
		expect(await next(early)).toBe("2026-11-27"); // learns the mode from the object
		expect(await next(early)).toBe("2026-11-27"); // takes a segment
		clock.time += 200; // midnight has passed on the object's clock
		const late = isolate({ POOL_MAX_AGE_MS: String(MAX_AGE_MS) });
		expect(await next(late)).toBe("2026-11-28");
		expect(await next(early)).toBe("2026-11-27"); // the same instant, the held segment's period
		await scheduler.wait(MAX_AGE_MS + 50);
		expect(await next(early)).toBe("2026-11-28");
	});
});
