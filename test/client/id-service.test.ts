/**
 * `idService` over a stand-in binding: each method calls `settle` with its name
 * and arguments, resolves with the settled value, and rejects with an Error of the
 * service's message for a settled error; it is not a thenable.
 */
import { describe, expect, it } from "vitest";
import { idErrorCode, idRetryAfter, idService, type SettlingBinding } from "../../src/client";
import type { Settled } from "../../src/wire";

/** A binding settling each call with `settle(method, args)`; `calls` lists what it was asked. */
function binding(settle: (method: string, args: unknown[]) => Settled<unknown>) {
	const calls: [string, unknown[]][] = [];
	const stand: SettlingBinding = {
		async settle(method, ...args) {
			calls.push([method, args]);
			return settle(method, args);
		},
	};
	return { stand, calls };
}

describe("idService", () => {
	it("calls settle with the method's name and arguments and resolves with the value", async () => {
		const { stand, calls } = binding((method, args) => ({ value: { method, args } }));
		const ids = idService(stand);
		expect(await ids.snowflake({ workerId: 7, count: 2 })).toEqual({
			method: "snowflake",
			args: [{ workerId: 7, count: 2 }],
		});
		await ids.nextInSequence("orders", { count: 3 });
		expect(calls).toEqual([
			["snowflake", [{ workerId: 7, count: 2 }]],
			["nextInSequence", ["orders", { count: 3 }]],
		]);
	});

	it("resolves with a settled value that is falsy, as it is", async () => {
		const { stand } = binding(() => ({ value: 0 }));
		expect(await idService<{ count(): Promise<number> }>(stand).count()).toBe(0);
	});

	it("rejects with an Error of the settled message, read by idErrorCode and idRetryAfter", async () => {
		const message = "overloaded: the worker ID is busy (retry after 2 s)";
		const { stand } = binding(() => ({ error: message }));
		const error = await idService(stand)
			.ulid({ count: 1 })
			.catch((thrown: unknown) => thrown);
		expect(error).toBeInstanceOf(Error);
		expect((error as Error).message).toBe(message);
		expect([idErrorCode(error), idRetryAfter(error)]).toEqual(["overloaded", 2]);
	});

	it("is not a thenable and has no symbol-named methods, so awaiting it calls nothing", async () => {
		const { stand, calls } = binding(() => ({ value: 1 }));
		const ids = idService(stand);
		expect((ids as { then?: unknown }).then).toBeUndefined();
		expect((ids as unknown as Record<symbol, unknown>)[Symbol.iterator]).toBeUndefined();
		expect(await ids).toBe(ids);
		expect(calls).toEqual([]);
	});
});
