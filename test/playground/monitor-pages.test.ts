/** The monitor's pager: the route of each page, "Next" from the answer's cursor, "Previous" back. */
import { describe, expect, it } from "vitest";
import { StatsPager } from "../../src/playground/monitor-pages";
import type { FleetStats } from "../../src/wire";

const answer = (cursor: string | null) => ({ cursor }) as FleetStats;

describe("StatsPager", () => {
	it("walks forward by the answers' cursors and back by the pages shown", () => {
		const pager = new StatsPager(50);
		expect(pager.path()).toBe("/stats?limit=50");
		pager.shown(answer("w:31"));
		expect([pager.hasPrevious, pager.hasNext, pager.page]).toEqual([false, true, 1]);
		pager.next();
		expect(pager.path()).toBe("/stats?limit=50&cursor=w%3A31");
		pager.shown(answer("s:orders"));
		pager.next();
		expect(pager.path()).toBe("/stats?limit=50&cursor=s%3Aorders");
		pager.shown(answer(null));
		expect([pager.hasPrevious, pager.hasNext, pager.page]).toEqual([true, false, 3]);
		pager.next(); // no next page: stays
		expect(pager.page).toBe(3);
		pager.previous();
		expect(pager.path()).toBe("/stats?limit=50&cursor=w%3A31");
		pager.previous();
		expect(pager.path()).toBe("/stats?limit=50");
		pager.previous(); // the first page: stays
		expect(pager.page).toBe(1);
	});
});
