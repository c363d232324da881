/**
 * The simulated network between lease holders and the service's core
 * (./lease-keeper-service.ts): every call is a message that waits until a test
 * delivers it (in any order), drops it before the service acts, or drops its
 * answer after the service acted (the holder's call then fails as a timed-out
 * request would). Answers to a paused holder wait until it resumes. What each
 * holder was answered is recorded.
 */
import { IdError } from "../../src/ids/errors";
import type { LeaseGrantFields, LeaseSource } from "../../src/ids/leases/holder/lease-source";
import type { KeeperService } from "./lease-keeper-service";
import { type SimTime, settle } from "./lease-sim";

type Kind = "acquire" | "renew" | "release";

interface Message {
	holder: string;
	kind: Kind;
	args: { workerId?: number; leaseId?: string } | undefined;
	/** The service is acting on it (its answer comes a few promise turns later). */
	acting?: boolean;
	/** Set once the service acted: what it answered. */
	outcome?: { ok: true; value: LeaseGrantFields | undefined } | { ok: false; error: unknown };
	resolve(value: unknown): void;
	reject(error: unknown): void;
}

/** A grant as a holder received it, with when. */
export interface Received {
	at: number;
	grant: LeaseGrantFields;
}

export class SimNetwork {
	private messages: Message[] = [];
	/** Per holder, every grant it was answered. */
	readonly received = new Map<string, Received[]>();
	readonly counts = { delivered: 0, answered: 0, lostBefore: 0, lostAfter: 0, refusals: 0 };
	private probe = 0;

	constructor(
		private readonly time: SimTime,
		private readonly service: KeeperService,
	) {}

	source(holder: string): LeaseSource {
		return {
			acquireLease: (options) => this.send(holder, "acquire", options) as Promise<LeaseGrantFields>,
			renewLease: (lease) => this.send(holder, "renew", lease) as Promise<LeaseGrantFields>,
			releaseLease: (lease) => this.send(holder, "release", lease),
		};
	}

	/** Requests not yet delivered. */
	get requests(): number {
		return this.messages.filter((m) => !m.acting).length;
	}
	/** Answers not yet delivered. */
	get answers(): number {
		return this.messages.filter((m) => m.outcome).length;
	}

	/**
	 * The service acts on the `pick`-th waiting request; its answer waits in turn,
	 * once the service has given it (after the promise turns a test settles).
	 */
	deliver(pick: number): void {
		const message = this.nth((m) => !m.acting, pick);
		if (!message) return;
		message.acting = true;
		this.counts.delivered++;
		const args = message.args ?? {};
		const acted =
			message.kind === "acquire"
				? this.service.acquire(this.probe++, args.workerId)
				: message.kind === "renew"
					? this.service.renew(args.workerId as number, args.leaseId as string)
					: this.service.release(args.workerId as number, args.leaseId as string);
		acted.then(
			(value) => {
				message.outcome = { ok: true, value: value ?? undefined };
			},
			(error: unknown) => {
				this.counts.refusals++;
				message.outcome = { ok: false, error };
			},
		);
	}

	/** Delivers the `pick`-th waiting answer (to a holder that is not paused). */
	answer(pick: number): void {
		const message = this.nth(
			(m) => m.outcome !== undefined && !this.time.paused.has(m.holder),
			pick,
		);
		if (!message?.outcome) return;
		this.remove(message);
		this.counts.answered++;
		const { outcome } = message;
		if (!outcome.ok) {
			message.reject(outcome.error);
			return;
		}
		if (outcome.value) {
			const list = this.received.get(message.holder) ?? [];
			list.push({ at: this.time.now, grant: outcome.value });
			this.received.set(message.holder, list);
		}
		message.resolve(outcome.value);
	}

	/** Drops the `pick`-th message: a request the service never sees, or an answer that never arrives. */
	lose(pick: number): void {
		const message = this.nth(
			(m) => !this.time.paused.has(m.holder) && (!m.acting || m.outcome !== undefined),
			pick,
		);
		if (!message) return;
		this.remove(message);
		if (message.outcome) this.counts.lostAfter++;
		else this.counts.lostBefore++;
		message.reject(new IdError<string>("network_error", "the answer was lost"));
	}

	/** Delivers every request, lets the service answer, then delivers every answer to holders not paused, in order. */
	async flush(): Promise<void> {
		while (this.requests > 0) this.deliver(0);
		await settle();
		for (let left = this.answers; left > 0; left--) this.answer(0);
	}

	private send(holder: string, kind: Kind, args: unknown): Promise<unknown> {
		return new Promise((resolve, reject) => {
			this.messages.push({ holder, kind, args: args as Message["args"], resolve, reject });
		});
	}

	private nth(filter: (m: Message) => boolean, pick: number): Message | undefined {
		const candidates = this.messages.filter(filter);
		return candidates[pick % Math.max(1, candidates.length)];
	}

	private remove(message: Message): void {
		this.messages = this.messages.filter((m) => m !== message);
	}
}
