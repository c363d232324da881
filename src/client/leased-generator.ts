/**
 * Snowflake IDs made in this process, on a worker ID leased from edge-ids: the
 * layout's limit (4,096 IDs per ms under the Twitter layout) with no request per
 * ID. The service grants a span of ticks and renews it in the background; the
 * generator issues only inside spans it holds (docs/LEASES.md has the protocol
 * and why it is safe).
 *
 *   const ids = idsClient({ baseUrl: "https://ids.example.com", token });
 *   const snowflakes = await createLeasedGenerator({ source: ids, holder: "api-7" });
 *   const [orderId] = await snowflakes.next();
 *   await snowflakes.close(); // releases the worker ID at once
 *
 * `source` is an `idsClient` or an `IdService` binding (`env.IDS`): anything with
 * the `LeaseRpc` methods. Runs on Node >= 22.12, Bun, Deno and Workers (wherever
 * `performance.now` and timers exist). Its background timers keep no process
 * alive; in Node, a process whose pid is not the one that acquired the lease (a
 * copy started from a snapshot) never issues under it: it acquires its own.
 */

import { systemClock } from "../ids/clock";
import { LeaseHolder, type LeaseHolderStats } from "../ids/leases/holder/lease-holder";
import type { LeaseSource } from "../ids/leases/holder/lease-source";
import type { LeaseRpc } from "../wire";
import { takesCallOptions } from "./call-options";
import { IdsError } from "./errors";
import { sleepUnlessAborted } from "./retry";

/** What a leased generator needs of the service: `idsClient` and an `IdService` binding have it. */
export type LeaseSourceRpc = Pick<LeaseRpc, "acquireLease" | "renewLease" | "releaseLease">;

export interface LeasedGeneratorOptions {
	source: LeaseSourceRpc;
	/** A label the service shows in `leaseStatus` (e.g. a pod name), at most 128 characters. */
	holder?: string | undefined;
	/**
	 * How long a call waits at the end of a span for a renewal before it rejects
	 * `lease_expired` (and for a fresh span that starts ahead). Default 2,000 ms.
	 */
	maxWaitMs?: number | undefined;
	/** Aborting it is `close()` without waiting: calls reject `aborted`, the lease is released. */
	signal?: AbortSignal | undefined;
}

export interface LeasedGenerator {
	/**
	 * `count` IDs (default 1) as decimal strings, strictly increasing across calls.
	 * Rejects with `lease_expired`, `overloaded` (a span that starts later than
	 * `maxWaitMs`), `aborted`, `invalid_count`, or the service's refusal of a new
	 * lease (`no_free_worker_id`, …) when the last one was lost.
	 */
	next(count?: number): Promise<string[]>;
	/** The worker ID of the current lease (it can change when a lease is lost). */
	readonly workerId: number;
	/** Stops issuing, lets calls in flight settle and releases the lease. Never rejects. */
	close(): Promise<void>;
	/** Acquires, renewals (sent, granted, failed), leases lost and releases so far. */
	stats(): LeaseHolderStats;
}

/** The longest timer the runtimes keep (2^31 - 1 ms). */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * A leased generator, once its first lease is granted. Rejects with the
 * service's refusal (`leases_disabled`, `no_free_worker_id`, `unauthorized`, …),
 * `aborted` when `signal` aborts first, or `invalid_config` for a bad `maxWaitMs`.
 */
export async function createLeasedGenerator(
	options: LeasedGeneratorOptions,
): Promise<LeasedGenerator> {
	const { source, signal } = options;
	const holder = new LeaseHolder({
		source: renewalsCancelled(source),
		holder: options.holder,
		maxWaitMs: options.maxWaitMs,
		monotonic: () => performance.now(),
		// The generator's waits end on the monotonic clock even when the wall clock steps back.
		sleep: (ms, cancel) => (cancel ? sleepUnlessAborted(ms, cancel) : systemClock.sleep(ms)),
		background: backgroundTimer,
		processId: processIdReader(),
	});
	if (signal?.aborted) throw abortedBy(signal);
	const abort = () => holder.abort();
	signal?.addEventListener("abort", abort, { once: true });
	try {
		await holder.start();
	} catch (error) {
		signal?.removeEventListener("abort", abort);
		throw signal?.aborted ? abortedBy(signal) : error;
	}
	if (signal?.aborted) {
		await holder.close(); // releases the lease just granted
		throw abortedBy(signal);
	}
	return {
		next: (count) => holder.next(count),
		get workerId() {
			return holder.workerId as number;
		},
		close: () => {
			signal?.removeEventListener("abort", abort);
			return holder.close();
		},
		stats: () => holder.stats(),
	};
}

/**
 * The source, its renewals given the holder's signal (aborted at the renewal's
 * deadline) only where they take call options: `idsClient`'s methods, a plain
 * object's `renewLease(lease, call)`. An RPC binding's argument must cross to the
 * service, which a signal cannot: there the holder stops waiting, the call runs on.
 */
function renewalsCancelled(source: LeaseSourceRpc): LeaseSource {
	if (takesCallOptions(source, source.renewLease, 1)) return source as LeaseSource;
	return {
		acquireLease: (options) => source.acquireLease(options),
		renewLease: (lease) => source.renewLease(lease),
		releaseLease: (lease) => source.releaseLease(lease),
	};
}

/** Node's pid (and Bun's, Deno's `process`); none where there is no process. */
function processIdReader(): (() => unknown) | undefined {
	const host = globalThis as { process?: { pid?: unknown } };
	if (typeof host.process?.pid !== "number") return undefined;
	const process = host.process;
	return () => process.pid;
}

/** A timer that keeps no process alive (Node and Bun: `unref`; Deno: `Deno.unrefTimer`). */
function backgroundTimer(callback: () => void, ms: number): () => void {
	const timer = setTimeout(callback, Math.min(ms, MAX_TIMER_MS));
	const handle = timer as unknown as { unref?: () => void };
	if (typeof handle?.unref === "function") handle.unref();
	else {
		const deno = (globalThis as { Deno?: { unrefTimer?: (id: unknown) => void } }).Deno;
		deno?.unrefTimer?.(timer);
	}
	return () => clearTimeout(timer);
}

function abortedBy(signal: AbortSignal): IdsError {
	return new IdsError(
		"aborted",
		"createLeasedGenerator was aborted by the caller's signal",
		undefined,
		undefined,
		{ cause: signal.reason },
	);
}
