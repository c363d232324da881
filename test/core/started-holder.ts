/**
 * A lease holder on simulated time that already holds its first span: the set-up
 * the holder's unit tests share. The service's clock runs `SERVER` ms ahead of true
 * time (ticks are Unix ms), and the first grant is answered at t = 0.
 *
 *   const { holder, source, time } = await startHolder({ maxWaitMs: 2_000 });
 *   await time.advanceTo(10_000); // the first renewal is now open: source.only("renew")
 */
import { expect } from "vitest";
import { LeaseHolder, type LeaseHolderOptions } from "../../src/ids/leases/holder/lease-holder";
import type { LeaseGrantFields } from "../../src/ids/leases/holder/lease-source";
import { grant, ScriptedSource } from "./lease-script";
import { SimProcess, SimTime } from "./lease-sim";

export const SERVER = 1_000_000;
/** Worker 7's 30 s span from `SERVER`, granted when the service's clock reads `SERVER`. */
export const firstSpan = grant({ from: SERVER, to: SERVER + 30_000, serverNowMs: SERVER });

export interface StartOptions extends Partial<Omit<LeaseHolderOptions, "source">> {
	/** The first grant (`firstSpan` unless given). */
	first?: LeaseGrantFields;
	/** How late the process's sleeps fire (a busy event loop). */
	sleepLateMs?: number;
}

/** Starts a holder on the process's clocks (any option overrides them) and grants it `first`. */
export async function startHolder(options: StartOptions = {}) {
	const { first = firstSpan, sleepLateMs = 0, ...overrides } = options;
	const time = new SimTime();
	const process = new SimProcess(time, "holder");
	process.sleepLateMs = sleepLateMs;
	const source = new ScriptedSource(time);
	const holder = new LeaseHolder({ ...process.hostOptions(), ...overrides, source });
	expect(holder.workerId).toBeUndefined();
	const starting = holder.start();
	source.only("acquire").answer(first);
	await starting;
	return { time, process, source, holder };
}
