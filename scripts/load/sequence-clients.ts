/**
 * The clients of the named sequences' chaos run (./sequence-chaos.ts) and how their
 * answers reach the ledger (./sequence-ledger.ts): next numbers over HTTP, next
 * numbers and ranges over RPC (the consumer Worker's /rpc paths), large reserves,
 * and process-side buffers (createSequenceBuffer) over reserved ranges. All go
 * through the answer proxy; what it lost is read back by `recordLost`.
 *
 *   const clients = new SequenceClients({ ledger, server, url: proxy.url, random, ... });
 *   await Promise.all([clients.nextLoop("http-next"), clients.bufferLoop("b1", "orders")]);
 */
import { createSequenceBuffer, idsClient } from "../../src/client";
import type { LostAnswer, LostRequest } from "./answer-proxy";
import type { CallVia, SequenceLedger, SequenceMode } from "./sequence-ledger";
import type { ServerUnderCrashes } from "./server-under-crashes";

export interface ChaosSequence {
	name: string;
	mode: SequenceMode;
	reset: "never" | "daily";
	timeZone: string;
	start: number;
}

export interface ClientSettings {
	ledger: SequenceLedger;
	server: ServerUnderCrashes;
	/** The proxy's URL: every client talks through it. */
	url: string;
	sequences: ChaosSequence[];
	random: () => number;
	maxCount: number;
	maxReserve: number;
	done: () => boolean;
}

/** Above the proxy's forward timeout and its late answers: a client never gives up first. */
const CLIENT_TIMEOUT_MS = 90_000;
const SEQUENCE_PATH = /^(?:\/rpc)?\/sequences\/([^/?]+)\/(next|reserve)(?:\?count=(\d+))?$/;
const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/** The numbers an answer holds, or why it is malformed. */
export function numbersOfAnswer(
	body: unknown,
	name: string,
	asked: number,
	withPeriod: boolean,
): { first: number; count: number; period: string | null } | string {
	const answer = body as {
		type?: unknown;
		name?: unknown;
		first?: unknown;
		last?: unknown;
		count?: unknown;
		numbers?: unknown;
		period?: unknown;
	};
	const first = Number(answer?.first);
	if (answer?.name !== name || !Number.isSafeInteger(first) || answer.count !== asked) {
		return `not ${asked} numbers of ${name}: ${JSON.stringify(body).slice(0, 200)}`;
	}
	if (withPeriod !== (typeof answer.period === "string")) {
		return `${name}: period ${JSON.stringify(answer.period)}`;
	}
	if (answer.type === "sequence") {
		const numbers = answer.numbers as unknown[];
		const consecutive =
			Array.isArray(numbers) &&
			numbers.length === asked &&
			numbers.every((text, i) => text === String(first + i));
		if (!consecutive) return `${name}: numbers not consecutive from ${first}`;
	} else if (answer.type !== "sequence-range" || Number(answer.last) !== first + asked - 1) {
		return `${name}: not a range of ${asked} from ${first}: ${JSON.stringify(body).slice(0, 200)}`;
	}
	return { first, count: asked, period: withPeriod ? (answer.period as string) : null };
}

export class SequenceClients {
	/** Calls that failed without an answer to check, by why. */
	readonly failures: Record<string, number> = {};
	/** Buffers' own counts at their end (numbers wasted, reserves). */
	readonly bufferWasted: bigint[] = [];
	/** Buffers' reserves still in flight: the run waits for them before it counts. */
	private readonly reserving = new Set<Promise<unknown>>();

	constructor(private readonly settings: ClientSettings) {}

	private fail(why: string): void {
		this.failures[why] = (this.failures[why] ?? 0) + 1;
	}

	private sequence(name: string): ChaosSequence | undefined {
		return this.settings.sequences.find((sequence) => sequence.name === name);
	}

	/** An answer the proxy lost after the service acted: its numbers (dropped) or an upper bound (cut). */
	recordLost(request: LostRequest, loss: LostAnswer): void {
		const [path = "", query = ""] = request.url.split("?");
		const match = SEQUENCE_PATH.exec(path);
		const sequence = match && this.sequence(match[1] ?? "");
		if (!match || !sequence) return; // not a call that issues numbers
		let count = Number(new URLSearchParams(query).get("count") ?? "1");
		if (request.body.length > 0) {
			count = Number((JSON.parse(request.body.toString("utf8")) as { count?: number }).count ?? 1);
		}
		const { ledger } = this.settings;
		if (loss.kind === "cut" || loss.status >= 500) {
			ledger.unknown(sequence.name, count, {
				startMs: request.receivedMs,
				lostMs: performance.now(),
			});
			return;
		}
		if (loss.status !== 200) return; // a refusal issues nothing
		const read = numbersOfAnswer(
			JSON.parse(loss.payload.toString("utf8")),
			sequence.name,
			count,
			sequence.reset !== "never",
		);
		if (typeof read === "string") ledger.violation("malformed", `dropped answer: ${read}`);
		else ledger.dropped(sequence.name, read.first, read.count, read.period);
	}

	/** One call through the proxy; its answer checked and recorded. */
	private async call(via: CallVia, sequence: ChaosSequence, path: string, count: number) {
		const { ledger, server, url } = this.settings;
		await server.ready();
		const startMs = performance.now();
		let status: number;
		let text: string;
		try {
			const response = await fetch(url + path, {
				method: "POST",
				signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
			});
			status = response.status;
			text = await response.text();
		} catch (error) {
			if ((error as Error).name === "TimeoutError") {
				this.fail("timeout");
				ledger.unknown(sequence.name, count, { startMs, lostMs: performance.now() });
			} else this.fail("network (an answer dropped)");
			return;
		}
		const endMs = performance.now();
		if (status === 502) return this.fail("502 (the service down or cut)");
		if (status === 503) {
			ledger.unknown(sequence.name, count, { startMs, lostMs: endMs });
			return this.fail("503");
		}
		if (status !== 200) {
			ledger.unknown(sequence.name, count, { startMs, lostMs: endMs });
			return ledger.violation("malformed", `${path} answered ${status}: ${text.slice(0, 200)}`);
		}
		let body: unknown;
		try {
			body = JSON.parse(text);
		} catch {
			return ledger.violation("malformed", `${path}: not JSON: ${text.slice(0, 200)}`);
		}
		const read = numbersOfAnswer(body, sequence.name, count, sequence.reset !== "never");
		if (typeof read === "string") return ledger.violation("malformed", read);
		ledger.answered({ name: sequence.name, via, startMs, endMs, ...read });
	}

	private pick(modes: SequenceMode[]): ChaosSequence {
		const { sequences, random } = this.settings;
		const allowed = sequences.filter((sequence) => modes.includes(sequence.mode));
		return allowed[Math.floor(random() * allowed.length)] as ChaosSequence;
	}

	/** Next numbers of every sequence, over HTTP or RPC; RPC clients reserve small ranges too. */
	async nextLoop(via: "http-next" | "rpc-next"): Promise<void> {
		const { random, maxCount, done } = this.settings;
		const prefix = via === "rpc-next" ? "/rpc" : "";
		while (!done()) {
			if (via === "rpc-next" && random() < 0.2) {
				const sequence = this.pick(["ordered"]);
				const count = 1 + Math.floor(random() * maxCount * 20);
				await this.call(
					"rpc-reserve",
					sequence,
					`/rpc/sequences/${sequence.name}/reserve?count=${count}`,
					count,
				);
				continue;
			}
			const sequence = this.pick(["ordered", "pooled"]);
			const count = 1 + Math.floor(random() * maxCount);
			await this.call(
				via,
				sequence,
				`${prefix}/sequences/${sequence.name}/next?count=${count}`,
				count,
			);
		}
	}

	/** Large ranges of the ordered sequences: most of the numbers of a long run. */
	async reserveLoop(): Promise<void> {
		const { random, maxReserve, done } = this.settings;
		while (!done()) {
			const sequence = this.pick(["ordered"]);
			const count = Math.ceil(maxReserve / 2 + (random() * maxReserve) / 2);
			await this.call(
				"http-reserve",
				sequence,
				`/sequences/${sequence.name}/reserve?count=${count}`,
				count,
			);
		}
	}

	/**
	 * A process-side buffer over `sequence`, reserving through the HTTP client; each
	 * range it gets is recorded as a call (for the order check) and as its own, and
	 * every take is checked against its ranges. Pauses a millisecond between takes,
	 * so that takes served from memory leave the event loop to the other clients.
	 */
	async bufferLoop(id: string, sequence: ChaosSequence): Promise<void> {
		const { ledger, random, maxCount, maxReserve, done, url } = this.settings;
		const client = idsClient({ baseUrl: url, timeoutMs: 60_000 });
		const buffer = createSequenceBuffer({
			name: sequence.name,
			maxStep: Math.min(100_000, maxReserve),
			maxWaitMs: 5_000,
			source: {
				reserveInSequence: (name, options) => {
					const reserved = this.reserveFor(id, client, name, options.count);
					this.reserving.add(reserved);
					return reserved.finally(() => this.reserving.delete(reserved));
				},
			},
		});
		while (!done()) {
			try {
				const taken = await buffer.next(1 + Math.floor(random() * maxCount));
				ledger.bufferHanded(id, Number(taken.first), taken.count, taken.period ?? null);
				await sleep(1);
			} catch (error) {
				this.fail(`buffer: ${(error as { code?: string }).code ?? (error as Error).message}`);
				await sleep(100);
			}
		}
		this.bufferWasted.push(buffer.stats().wasted);
		buffer.close();
	}

	/** One reserve of a buffer, recorded as a call (for the order check) and as the buffer's range. */
	private async reserveFor(
		id: string,
		client: ReturnType<typeof idsClient>,
		name: string,
		count: number,
	) {
		const { ledger } = this.settings;
		const startMs = performance.now();
		const range = await client.reserveInSequence(name, { count });
		const first = Number(range.first);
		const last = Number(range.last);
		const period = range.period ?? null;
		const endMs = performance.now();
		ledger.answered({
			name,
			via: "buffer-reserve",
			startMs,
			endMs,
			first,
			count: last - first + 1,
			period,
		});
		ledger.bufferReserved(id, first, last, period);
		return range;
	}

	/** Waits for the buffers' reserves still in flight (each ends by its client's timeout). */
	async settle(): Promise<void> {
		while (this.reserving.size > 0) await Promise.allSettled([...this.reserving]);
	}
}
