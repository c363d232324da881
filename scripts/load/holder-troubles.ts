/**
 * What the faults aimed at one holder did to it, followed through the chaos run
 * (scripts/load/lease-chaos.ts): the proxy (./answer-proxy.ts) names the lease of
 * each grant it stepped (an object whose clock read ahead) or hung (a renewal
 * answer held past the holder's deadline); the ledger says which process holds
 * that lease. Then:
 *
 *   - a holder that met a stepped clock must issue again after the step ended:
 *     it re-anchored to the service's clock (one that never comes back down stays
 *     ahead of every span it is granted and issues nothing again);
 *   - a holder whose renewal hung must go on issuing;
 *   - each call refused `lease_expired` is put down to the trouble its holder was
 *     in then (a stepped clock not yet recovered, a pause, the service down, within
 *     the time such trouble takes to clear), to a hung renewal, or to nothing;
 *   - each holder's renewals (its own count, printed at SIGTERM) stay within a
 *     bound: RENEWALS_PER_SPAN a span of its life, plus RENEWALS_PER_SPAN_IN_TROUBLE
 *     a span while its clock was stepped or the service down (and one span more
 *     per such episode).
 *
 * A holder killed, paused, or cut off by the service going down before it came
 * back is excused (those faults have checks of their own).
 *
 *   const troubles = new HolderTroubles(fleet, ledger, { spanMs, maxWaitMs });
 *   proxy onFault: (fault, grant) => troubles.met(fault, grant, stepEndsAt)
 *   every 100 ms: troubles.tick(serviceUp)
 *   troubles.summary() after the holders ended
 */
import type { GrantKey } from "./answer-proxy";
import type { HolderLedger } from "./holder-ledger";
import type { HolderFleet, HolderProcess } from "./holder-processes";

/**
 * Outside trouble: a renewal a third of a span after each grant (3 a span), and one
 * more for each attempt that failed: lost, hung, or (on a loaded machine) answered
 * after its deadline of a tenth of a span.
 */
export const RENEWALS_PER_SPAN = 10;
/** The least gap between renewal starts is a thirtieth of the span, in every state. */
export const RENEWALS_PER_SPAN_IN_TROUBLE = 30;

type Excuse = "killed" | "paused" | "service down" | "run ended";

interface Episode {
	fault: "stepped" | "hung";
	grant: GrantKey;
	metAt: number;
	/** When the fault was over: the step's end; a hung renewal's deadline (a tenth of a span). */
	endsAt: number;
	holder?: HolderProcess;
	/** The holder's IDs when the fault was over; set once `endsAt` passed. */
	idsAtEnd?: number;
	recoveredAfterMs?: number;
	/** Killed, paused, stopped, or the service down before it came back: not judged. */
	excused?: Excuse;
	/** Not back within `recoverMs` of the fault's end. */
	stuck?: boolean;
	/** The holder's refusals when it met the fault (what it met since tells why it stuck). */
	refusedAtMet?: Record<string, number>;
}

interface HolderState {
	lastTroubleAt: number;
	inRenewalTrouble: boolean;
	troubleMs: number;
	episodes: number;
	leaseExpired: number;
}

export interface TroubleSummary {
	steps: {
		met: number;
		recovered: number;
		excused: Partial<Record<Excuse, number>>;
		stuck: string[];
		slowestMs: number;
	};
	/** Within this of a fault's end a holder must issue again. */
	recoverMs: number;
	hangs: {
		met: number;
		recovered: number;
		excused: Partial<Record<Excuse, number>>;
		stuck: string[];
	};
	leaseExpired: {
		all: number;
		inTrouble: number;
		afterHang: number;
		unexplained: number;
		/** Of the time holders with a worker ID spent out of trouble, the share within `recoverMs` after a hang. */
		nearHangShare: number;
	};
	renewals: {
		holders: number;
		/** The highest rate of a holder's life, renewals per span. */
		maxPerSpan: number;
		over: string[];
	};
}

export class HolderTroubles {
	private readonly episodes: Episode[] = [];
	private readonly states = new Map<HolderProcess, HolderState>();
	private lastTickAt = performance.now();
	private readonly leaseExpired = { all: 0, inTrouble: 0, afterHang: 0, unexplained: 0 };
	private quietMs = 0;
	private nearHangMs = 0;
	private stopping = false;

	constructor(
		private readonly fleet: HolderFleet,
		private readonly ledger: HolderLedger,
		private readonly timing: { spanMs: number; maxWaitMs: number },
	) {}

	/**
	 * How soon a holder must issue again after a fault ends: a stuck TypeScript holder
	 * renews every thirtieth of a span while its calls wait at `to`, a Python one every
	 * third of a span, and the first renewal after the step re-anchors its clock; two
	 * spans and a call's wait leave room for a loaded machine (and the line flushes).
	 */
	get recoverMs(): number {
		return 2 * this.timing.spanMs + this.timing.maxWaitMs + 1_000;
	}

	/** The proxy stepped or hung a grant; a step lasts until `stepEndsAt` (performance.now ms). */
	met(fault: "stepped" | "hung", grant: GrantKey, stepEndsAt = 0): void {
		const now = performance.now();
		const endsAt = fault === "stepped" ? stepEndsAt : now + this.timing.spanMs / 10;
		const same = (e: Episode) =>
			e.fault === fault &&
			e.endsAt === endsAt &&
			e.grant.workerId === grant.workerId &&
			e.grant.from === grant.from;
		if (fault === "stepped" && this.episodes.some(same)) return; // one step, met again
		this.episodes.push({ fault, grant, metAt: now, endsAt });
	}

	/** Follows the holders: who is in trouble, who came back, what their refusals mean. */
	tick(serviceUp: boolean, stopping = false): void {
		this.stopping = stopping;
		const now = performance.now();
		const elapsed = now - this.lastTickAt;
		this.lastTickAt = now;
		for (const episode of this.episodes) this.follow(episode, now, serviceUp);
		const clearsMs = this.recoverMs;
		for (const holder of this.fleet.processes) {
			if (!holder.alive && !Number.isNaN(holder.endedAt) && holder.endedAt < now - 1_000) continue;
			const state = this.state(holder);
			const stepped = this.episodes.some(
				(e) =>
					e.holder === holder &&
					e.fault === "stepped" &&
					e.recoveredAfterMs === undefined &&
					!e.excused,
			);
			const nearHang = this.episodes.some(
				(e) => e.holder === holder && e.fault === "hung" && now - e.metAt < clearsMs,
			);
			const renewalTrouble = stepped || !serviceUp;
			if (renewalTrouble && !state.inRenewalTrouble) state.episodes++;
			// The service back: renewals settle within a span (leases lost meanwhile are re-acquired).
			if (renewalTrouble || now - state.lastTroubleAt < this.timing.spanMs)
				state.troubleMs += elapsed;
			state.inRenewalTrouble = renewalTrouble;
			if (renewalTrouble || holder.paused) state.lastTroubleAt = now;
			if (holder.alive && holder.output.workerId >= 0 && now - state.lastTroubleAt >= clearsMs) {
				this.quietMs += elapsed;
				if (nearHang) this.nearHangMs += elapsed;
			}
			const expired = holder.output.refused.lease_expired ?? 0;
			for (; state.leaseExpired < expired; state.leaseExpired++) {
				this.leaseExpired.all++;
				if (now - state.lastTroubleAt < clearsMs) this.leaseExpired.inTrouble++;
				else if (nearHang) this.leaseExpired.afterHang++;
				else this.leaseExpired.unexplained++;
			}
		}
	}

	/** What came of it all; renewals as the holders counted them (those that ended by SIGTERM). */
	summary(): TroubleSummary {
		const of = (fault: Episode["fault"]) => {
			const mine = this.episodes.filter((e) => e.fault === fault && e.holder !== undefined);
			return {
				met: mine.length,
				recovered: mine.filter((e) => e.recoveredAfterMs !== undefined).length,
				excused: countBy(
					mine.flatMap((e) => (e.excused && !e.recoveredAfterMs ? [e.excused] : [])),
				),
				stuck: mine
					.filter((e) => e.stuck)
					.map((e) => `${e.holder?.name} (worker ID ${e.grant.workerId}): ${refusedSince(e)}`),
				slowestMs: Math.max(0, ...mine.map((e) => e.recoveredAfterMs ?? 0)),
			};
		};
		const renewals = { holders: 0, maxPerSpan: 0, over: [] as string[] };
		const { spanMs } = this.timing;
		for (const holder of this.fleet.processes) {
			const counted = holder.summary()?.renewals;
			if (typeof counted !== "number") continue;
			const state = this.state(holder);
			const lifeSpans = (holder.endedAt - holder.startedAt) / spanMs;
			const bound =
				RENEWALS_PER_SPAN * (lifeSpans + 1) +
				RENEWALS_PER_SPAN_IN_TROUBLE * (state.troubleMs / spanMs + state.episodes);
			renewals.holders++;
			renewals.maxPerSpan = Math.max(renewals.maxPerSpan, counted / lifeSpans);
			if (counted > bound) {
				renewals.over.push(`${holder.name}: ${counted} renewals, bound ${Math.floor(bound)}`);
			}
		}
		const { slowestMs: _, ...hangs } = of("hung");
		return {
			steps: of("stepped"),
			recoverMs: this.recoverMs,
			hangs,
			leaseExpired: {
				...this.leaseExpired,
				nearHangShare: this.quietMs > 0 ? this.nearHangMs / this.quietMs : 0,
			},
			renewals,
		};
	}

	private follow(episode: Episode, now: number, serviceUp: boolean): void {
		if (episode.recoveredAfterMs !== undefined || episode.excused || episode.stuck) return;
		if (!episode.holder) {
			const name = this.ledger.ownerOf(episode.grant.workerId, episode.grant.from);
			episode.holder = this.fleet.processes.find((holder) => holder.name === name);
			if (!episode.holder) return;
			episode.refusedAtMet = { ...episode.holder.output.refused };
		}
		const holder = episode.holder;
		if (now >= episode.endsAt) {
			episode.idsAtEnd ??= holder.output.ids;
			if (holder.output.ids > episode.idsAtEnd) {
				episode.recoveredAfterMs = now - episode.endsAt;
				return;
			}
		}
		const excuse: Excuse | undefined = this.stopping
			? "run ended"
			: !holder.alive || holder.ending
				? "killed"
				: holder.paused
					? "paused"
					: serviceUp
						? undefined
						: "service down";
		if (excuse) episode.excused = excuse;
		else if (now - episode.endsAt > this.recoverMs) episode.stuck = true;
	}

	private state(holder: HolderProcess): HolderState {
		let state = this.states.get(holder);
		if (!state) {
			state = {
				lastTroubleAt: Number.NEGATIVE_INFINITY,
				inRenewalTrouble: false,
				troubleMs: 0,
				episodes: 0,
				leaseExpired: 0,
			};
			this.states.set(holder, state);
		}
		return state;
	}
}

/** The refusals a holder met from an episode's fault to now, e.g. "lease_expired 3". */
function refusedSince(episode: Episode): string {
	const now = episode.holder?.output.refused ?? {};
	const before = episode.refusedAtMet ?? {};
	const since = Object.entries(now)
		.map(([code, count]) => [code, count - (before[code] ?? 0)] as const)
		.filter(([, count]) => count > 0);
	return since.map(([code, count]) => `${code} ${count}`).join(", ") || "no refusal";
}

function countBy<T extends string>(values: T[]): Partial<Record<T, number>> {
	const counts: Partial<Record<T, number>> = {};
	for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
	return counts;
}
