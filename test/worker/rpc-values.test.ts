/**
 * RPC values JSON cannot carry (a BigInt, a cycle, a function, a symbol) and values
 * too large to repeat: each is refused with the field's own code, and the message
 * shows the value by its type or at most 64 characters of it — never `internal`,
 * never the whole value.
 */
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { idErrorCode } from "../../src/client";
import { IdService } from "../../src/worker/rpc/id-service";
import { createdSequence } from "./sequence-helpers";

const service = () => new IdService(createExecutionContext(), env);

/** The rejection's code and message (without the request ID), or a failure if it resolved. */
async function refusal(
	work: Promise<unknown>,
): Promise<{ code: string | undefined; message: string }> {
	const error = await work.then(
		() => {
			throw new Error("expected a refusal, got an answer");
		},
		(thrown: unknown) => thrown as Error,
	);
	return {
		code: idErrorCode(error),
		message: error.message.replace(/ \(request [0-9a-f-]{36}\)$/, ""),
	};
}

const cyclic = (): Record<string, unknown> => {
	const value: Record<string, unknown> = { a: 1 };
	value.self = value;
	return value;
};

describe("RPC values JSON cannot carry", () => {
	it("a name: refused invalid_sequence_name, shown by its type", async () => {
		const rpc = service();
		const cases: [unknown, string][] = [
			[5n, "got a bigint 5n"],
			[cyclic(), "got an object"],
			[() => "orders", "got a function"],
			[Symbol("orders"), "got a symbol"],
			[["a", "b", "c"], "got an array of 3 items"],
			[Array.from({ length: 30_000 }, (_, i) => `name-${i}`), "got an array of 30000 items"],
		];
		for (const [name, shown] of cases) {
			for (const call of [
				rpc.createSequence(name as string),
				rpc.nextInSequence(name as string),
				rpc.sequenceStatus(name as string),
			]) {
				const { code, message } = await refusal(call);
				expect(code).toBe("invalid_sequence_name");
				expect(message.endsWith(shown), message).toBe(true);
				expect(message.length).toBeLessThan(300);
			}
		}
	});

	it("settings, counts and cursors: refused with their field's code", async () => {
		const rpc = service();
		const name = await createdSequence("rpc-values");
		const cases: [Promise<unknown>, string, string][] = [
			[
				rpc.createSequence(name, { timeZone: 1n } as never),
				"invalid_sequence_options",
				"got a bigint 1n",
			],
			[
				rpc.createSequence(name, { start: cyclic() } as never),
				"invalid_sequence_options",
				"got an object",
			],
			[
				rpc.createSequence(name, { mode: Symbol("x") } as never),
				"invalid_sequence_options",
				"got a symbol",
			],
			[rpc.nextInSequence(name, { count: 5n } as never), "invalid_count", "got a bigint 5n"],
			[rpc.reserveInSequence(name, { count: () => 5 } as never), "invalid_count", "got a function"],
			[
				rpc.advanceSequence(name, { to: 10n ** 30n } as never),
				"invalid_sequence_options",
				"got a bigint 1000000000000000000000000000000n",
			],
			[rpc.listSequences({ cursor: cyclic() } as never), "invalid_request", "got an object"],
			[rpc.snowflake({ count: 2n } as never), "invalid_count", "got a bigint 2n"],
			[
				rpc.ulid({ format: "x".repeat(100_000) } as never),
				"invalid_format",
				`got "${"x".repeat(64)}…"`,
			],
		];
		for (const [call, expectedCode, shown] of cases) {
			const { code, message } = await refusal(call);
			expect(code, message).toBe(expectedCode);
			expect(message.endsWith(shown), message).toBe(true);
			expect(message.length).toBeLessThan(400);
		}
	});
});
