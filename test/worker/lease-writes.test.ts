/**
 * The storage rows each lease operation writes (every `kv.put` is one row written,
 * the unit Durable Object storage is billed in): the figures of PRODUCTION.md's
 * "What a lease costs". A running object writes the record and the mark per grant
 * or renewal; an object that starts (after an eviction, a deploy, or the first time)
 * writes its life token once more; a refusal writes nothing else. Worker IDs
 * 690-698 are this file's.
 */
import { describe, expect, it } from "vitest";
import type { ErrorBody, LeaseGrant } from "../../src/wire";
import { restart, useTestClock } from "./helpers";
import { leaseBody, leasesApp, releasePath, renewPath } from "./lease-helpers";
import { recordWrites, writesOf } from "./storage-writes";

const T = 1_800_000_000_000;
const leases = leasesApp();

describe("rows written per lease operation", () => {
	it("a running object: 2 per grant or renewal, 1 per release, 0 per status or refusal", async () => {
		await useTestClock(690, T);
		const written = await recordWrites(690);
		// The worker ID's first start: its token, and the namespace's layout noted once.
		const first = await writesOf(written, () => leases("GET", "/leases/690"));
		expect(first.sort()).toEqual(["layout", "layoutChecked", "life"]);
		let grant: LeaseGrant | undefined;
		const acquired = await writesOf(written, async () => {
			grant = (await leases<LeaseGrant>("POST", "/leases", { workerId: 690 })).body;
		});
		// The first lease marks the layout "with leases" for older versions, once.
		expect(acquired).toEqual(["lease", "mark", "layout"]);
		const held = grant as LeaseGrant;
		for (const elapsed of [10_000, 20_000, 30_000]) {
			await useTestClock(690, T + elapsed);
			expect(
				await writesOf(written, () => leases("POST", renewPath(held), leaseBody(held))),
			).toEqual(["lease", "mark"]);
		}
		expect(await writesOf(written, () => leases("GET", "/leases/690"))).toEqual([]);
		const refused = await writesOf(written, async () => {
			const answer = await leases<ErrorBody>("POST", "/leases", { workerId: 690 });
			expect(answer.body.error.code).toBe("no_free_worker_id");
		});
		expect(refused).toEqual([]);
		expect(
			await writesOf(written, () => leases("POST", releasePath(held), leaseBody(held))),
		).toEqual(["lease"]);
		expect(
			await writesOf(written, () => leases("POST", releasePath(held), leaseBody(held))),
		).toEqual([]);
		const again = await writesOf(written, () => leases("POST", "/leases", { workerId: 690 }));
		expect(again).toEqual(["lease", "mark"]);
	});

	it("an object that starts: its life token once, then the same rows", async () => {
		await useTestClock(691, T);
		const { body: grant } = await leases<LeaseGrant>("POST", "/leases", { workerId: 691 });
		await restart(691);
		let written = await recordWrites(691);
		await useTestClock(691, T + 10_000);
		const renewed = await writesOf(written, () =>
			leases("POST", renewPath(grant), leaseBody(grant)),
		);
		expect(renewed).toEqual(["life", "lease", "mark"]);
		// A probe of a held worker ID whose object had stopped: the token alone.
		await restart(691);
		written = await recordWrites(691);
		await useTestClock(691, T + 11_000);
		const probed = await writesOf(written, () => leases("POST", "/leases", { workerId: 691 }));
		expect(probed).toEqual(["life"]);
	});
});
