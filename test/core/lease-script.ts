/**
 * A lease source whose every call waits until the test answers it: the exact
 * tool for the holder's unit tests (what it sends, when, and what it does with
 * each answer). Layout: Twitter's bits with epoch 0, so ticks are Unix ms.
 */
import { IdError } from "../../src/ids/errors";
import type {
	LeaseGrantFields,
	LeaseRefFields,
	LeaseSource,
} from "../../src/ids/leases/holder/lease-source";
import { TWITTER_LAYOUT } from "../../src/ids/snowflake/layout";
import type { SimTime } from "./lease-sim";

export const leaseLayout = { ...TWITTER_LAYOUT, epoch: 0 };

export interface ScriptedCall {
	kind: "acquire" | "renew" | "release";
	/** True time when it was sent. */
	at: number;
	args: unknown;
	/** The signal it was given (renewals: aborted when the holder gives up on it). */
	signal: AbortSignal | undefined;
	answer(value: LeaseGrantFields | undefined): void;
	fail(error: unknown): void;
}

export class ScriptedSource implements LeaseSource {
	readonly calls: ScriptedCall[] = [];

	constructor(private readonly time: SimTime) {}

	acquireLease(options?: unknown): Promise<LeaseGrantFields> {
		return this.record("acquire", options) as Promise<LeaseGrantFields>;
	}
	renewLease(lease: LeaseRefFields, call?: { signal?: AbortSignal }): Promise<LeaseGrantFields> {
		return this.record("renew", lease, call?.signal) as Promise<LeaseGrantFields>;
	}
	releaseLease(lease: LeaseRefFields): Promise<unknown> {
		return this.record("release", lease);
	}

	/** Calls of one kind not answered yet, oldest first. */
	open(kind: ScriptedCall["kind"]): ScriptedCall[] {
		return this.calls.filter((c) => c.kind === kind && !answered.has(c));
	}

	/** The one open call of `kind` (fails the test if there is not exactly one). */
	only(kind: ScriptedCall["kind"]): ScriptedCall {
		const open = this.open(kind);
		if (open.length !== 1) throw new Error(`expected one open ${kind}, found ${open.length}`);
		return open[0] as ScriptedCall;
	}

	/** When each call of `kind` was sent. */
	times(kind: ScriptedCall["kind"]): number[] {
		return this.calls.filter((c) => c.kind === kind).map((c) => c.at);
	}

	private record(
		kind: ScriptedCall["kind"],
		args: unknown,
		signal?: AbortSignal,
	): Promise<unknown> {
		return new Promise((resolve, reject) => {
			const call: ScriptedCall = {
				kind,
				at: this.time.now,
				args,
				signal,
				answer: (value) => {
					answered.add(call);
					resolve(value);
				},
				fail: (error) => {
					answered.add(call);
					reject(error);
				},
			};
			this.calls.push(call);
		});
	}
}

const answered = new WeakSet<ScriptedCall>();

/** A grant of `workerId` (lease "L<workerId>" unless named) for ticks [from, to) at server time `serverNowMs`. */
export function grant(
	fields: Partial<LeaseGrantFields> & { from: number; to: number; serverNowMs: number },
): LeaseGrantFields {
	return { workerId: 7, leaseId: `L${fields.workerId ?? 7}`, layout: leaseLayout, ...fields };
}

/** The service's `lease_lost`, as an RPC rejection carries it (the code in the message). */
export const leaseLost = () => new Error("lease_lost: this lease of worker ID 7 was released");

/** A refusal with a code (and a Retry-After in seconds), as the core's errors carry it. */
export const refusal = (code: string, retryAfterSeconds?: number) =>
	new IdError<string>(code, "refused", retryAfterSeconds);
