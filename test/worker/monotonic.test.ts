/**
 * ULIDs, UUIDv7s and TypeIDs are monotonic within an isolate, across requests: each
 * kind comes from one factory per isolate (TypeIDs share the UUIDv7 one), so a later
 * request's IDs sort after an earlier one's even in the same millisecond. The clock is
 * frozen here (as Date.now() is in a deployed Worker while it runs), so only that state
 * can order them: a fresh factory per request starts at random bits and fails.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { parseTypeId } from "../../src/ids/forms/typeid";
import { decodeUlid, uuidToUlid } from "../../src/ids/forms/ulid";
import { parseUuid, uuidV7Timestamp } from "../../src/ids/forms/uuid";
import { expectTextIncreasing } from "../shared/order";
import { callJson } from "./helpers";

const FROZEN_MS = Date.UTC(2026, 10, 25, 12, 0, 0, 123);

type Ids = { ids: string[] };

async function ids(path: string): Promise<string[]> {
	const { status, body } = await callJson<Ids>(path);
	expect(status).toBe(200);
	return body.ids;
}

describe("monotonic within an isolate, across requests, on a frozen clock", () => {
	beforeEach(() => {
		vi.spyOn(Date, "now").mockReturnValue(FROZEN_MS);
	});
	afterEach(() => {
		vi.restoreAllMocks();
	});

	it("ULIDs: every request's IDs above the last request's, in both formats", async () => {
		const ulids: string[] = [];
		for (let i = 0; i < 12; i++) {
			const uuidForm = i % 3 === 2;
			const answer = await ids(`/ulid?count=${1 + (i % 4)}${uuidForm ? "&format=uuid" : ""}`);
			// The UUID form is the same 128 bits.
			ulids.push(...(uuidForm ? answer.map(uuidToUlid) : answer));
		}
		expect(ulids).toHaveLength(30);
		expectTextIncreasing(ulids);
		// The same millisecond throughout: the order came from the isolate's state, not the clock.
		expect(new Set(ulids.map((ulid) => decodeUlid(ulid).timestamp))).toEqual(new Set([FROZEN_MS]));
	});

	it("UUIDv7s and TypeIDs: one sequence across /uuidv7 and /typeid under any prefix", async () => {
		const uuids: string[] = [];
		for (let i = 0; i < 12; i++) {
			if (i % 3 === 0) uuids.push(...(await ids(`/uuidv7?count=${1 + (i % 2)}`)));
			else {
				const prefix = i % 3 === 1 ? "user" : "order";
				const typeids = await ids(`/typeid?prefix=${prefix}&count=2`);
				uuids.push(...typeids.map((typeid) => parseTypeId(typeid).uuid));
			}
		}
		expect(uuids).toHaveLength(22);
		expectTextIncreasing(uuids);
		const times = uuids.map((uuid) => uuidV7Timestamp(parseUuid(uuid).bytes));
		expect(new Set(times)).toEqual(new Set([FROZEN_MS]));
	});
});
