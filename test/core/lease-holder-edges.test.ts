/**
 * The lease holder's refusals of what it cannot use: answers that are not the
 * service's, a layout that changes between leases, leases lost over and over.
 */
import { describe, expect, it } from "vitest";
import { grant, leaseLayout, leaseLost, refusal, ScriptedSource } from "./lease-script";
import { SimProcess, SimTime, settle } from "./lease-sim";

const SERVER = 1_000_000;

function world() {
	const time = new SimTime();
	const source = new ScriptedSource(time);
	const holder = new SimProcess(time, "holder").holder({ source });
	return { time, source, holder };
}

/** A world whose holder holds worker 7's 30 s span, lost at 10 s with a renewal refused `refused`. */
async function lostAt10s(refused: unknown) {
	const { source, holder, time } = world();
	const starting = holder.start();
	source.only("acquire").answer(grant({ from: SERVER, to: SERVER + 30_000, serverNowMs: SERVER }));
	await starting;
	await time.advanceTo(10_000);
	source.only("renew").fail(refused);
	await settle();
	return { source, holder, time };
}

describe("LeaseHolder refusals", () => {
	it.each([
		["to", { to: SERVER }],
		["from", { from: -1 }],
		["workerId", { workerId: 1_024 }],
		["leaseId", { leaseId: "" }],
		["serverNowMs", { serverNowMs: Number.NaN }],
	])("refuses an answer with a wrong %s (internal) and issues nothing", async (field, wrong) => {
		const { source, holder } = world();
		const starting = holder.start();
		source
			.only("acquire")
			.answer({ ...grant({ from: SERVER, to: SERVER + 30_000, serverNowMs: SERVER }), ...wrong });
		await expect(starting).rejects.toMatchObject({
			code: "internal",
			message: expect.stringContaining(field),
		});
	});

	it("refuses a new lease under another layout (layout_mismatch) and releases it", async () => {
		const { source, holder } = await lostAt10s(leaseLost());
		const call = holder.next();
		await settle();
		const other = { ...leaseLayout, timeUnitMs: 10 };
		source.only("acquire").answer({
			...grant({ workerId: 8, from: 100_000, to: 103_000, serverNowMs: SERVER + 10_000 }),
			layout: other,
		});
		await expect(call).rejects.toMatchObject({ code: "layout_mismatch" });
		expect(source.only("release").args).toEqual({ workerId: 8, leaseId: "L8" });
	});

	it("gives up with lease_lost when every new lease is lost at once, three leases in one call", async () => {
		const { source, holder, time } = world();
		const starting = holder.start();
		source.only("acquire").answer(grant({ from: SERVER, to: SERVER + 1, serverNowMs: SERVER }));
		await starting;
		await time.advanceTo(1); // at `to`: the call waits for a renewal
		const call = holder.next().catch((error: unknown) => error);
		for (let lease = 2; lease <= 3; lease++) {
			await time.advance(10); // renewals at least 10 ms apart
			for (const renewal of source.open("renew")) renewal.fail(leaseLost());
			await settle();
			const now = SERVER + time.now;
			// Each new span ends at once, so the call needs a renewal again.
			source
				.only("acquire")
				.answer(grant({ workerId: lease, from: now - 1, to: now, serverNowMs: now }));
		}
		await time.advance(10);
		for (const renewal of source.open("renew")) renewal.fail(leaseLost());
		expect(await call).toMatchObject({
			code: "lease_lost",
			detail: expect.stringContaining("lost 3 times within one call"),
		});
		expect(holder.stats()).toMatchObject({ acquires: 3, leasesLost: 3 });
	});

	it.each([["invalid_worker_id"], ["leases_disabled"]])(
		"takes a renewal refused with %s as the end of the lease and acquires anew",
		async (code) => {
			const { source, holder } = await lostAt10s(refusal(code));
			expect(holder.stats().leasesLost).toBe(1);
			const call = holder.next();
			await settle();
			expect(source.open("acquire")).toHaveLength(1);
			source.only("acquire").fail(refusal(code));
			await expect(call).rejects.toMatchObject({ code });
		},
	);

	it("names a refused acquire with a Retry-After but no code `unavailable` while it waits", async () => {
		const { source, holder } = await lostAt10s(leaseLost());
		const first = holder.next();
		await settle();
		const refused = Object.assign(new Error("the service is down"), { retryAfter: 5 });
		source.only("acquire").fail(refused);
		await expect(first).rejects.toBe(refused);
		await expect(holder.next()).rejects.toMatchObject({
			code: "unavailable",
			retryAfterSeconds: 5,
		});
		expect(source.times("acquire")).toEqual([0, 10_000]);
	});

	it.each([
		["the core's IdError", refusal("no_free_worker_id", 5)],
		["the HTTP client's IdsError", Object.assign(refusal("no_free_worker_id"), { retryAfter: 5 })],
		["an RPC rejection", new Error("no_free_worker_id: none free (request r1) (retry after 5 s)")],
	])(
		"waits a refused acquire's Retry-After (%s): calls meanwhile reject at once, sending nothing",
		async (_form, refused) => {
			const { source, holder, time } = await lostAt10s(leaseLost());
			const first = holder.next();
			await settle();
			source.only("acquire").fail(refused);
			await expect(first).rejects.toBe(refused);
			await time.advanceTo(12_000);
			let during: unknown = "still waiting";
			void holder.next().catch((error: unknown) => {
				during = error;
			});
			await settle();
			expect(during).toMatchObject({
				code: "no_free_worker_id",
				retryAfterSeconds: 3,
				message: expect.stringMatching(/\(retry after 3 s\)$/),
			});
			expect(source.times("acquire")).toEqual([0, 10_000]);
			await time.advanceTo(15_000); // the wait is over: the next call asks again
			void holder.next().catch(() => undefined);
			await settle();
			expect(source.times("acquire")).toEqual([0, 10_000, 15_000]);
			expect(holder.stats().acquires).toBe(3);
		},
	);
});
