/**
 * A leased generator as a command, for load and chaos runs: `createLeasedGenerator`
 * over `idsClient`, issuing in batches and writing what it issued in the same
 * compact form as the Python holder (examples/python-holder/holder.py):
 *
 *   # edge-ids holder layout=<epoch>,<timeBits>,<workerBits>,<sequenceBits>,<timeUnitMs> pid=<pid>
 *   L <workerId> <from> <to>                          a grant received (acquire or renewal)
 *   T <wallMs - serverNowMs>                          this process's wall clock against the service's, then
 *   R <workerId> <tick> <firstSequence> <count>       IDs issued: consecutive sequences of one tick
 *   X <code>                                          a call refused (it issued nothing)
 *
 * Lines come in the order things happened: a span's L line before any R line
 * inside it, R lines in issue order; they are written in chunks (a process killed
 * loses the last few). A JSON summary goes to stderr at the end. SIGTERM closes
 * the generator (releasing its lease) and exits.
 *
 * `--wall-clock-offset MS` sets this process's wall clock (`Date`) MS off, and
 * `--wall-clock-step MS` steps it back by MS at every SIGUSR2: the holder reads
 * only the service's clock and the monotonic one, so its IDs do not change (the
 * T lines show the offset it ran with).
 *
 *   npx tsx scripts/load/lease-holder.ts --url http://127.0.0.1:8787 --count 1000000 --out issued.txt
 *   (--token T | $API_TOKEN) (--holder NAME) (--seconds S) (--batch B, default 1000) (--max-wait MS)
 *   (--batch-gap-ms MS: a pause after each batch, leaving the machine's CPU to the service)
 *   (--wall-clock-offset MS) (--wall-clock-step MS)
 */
import { createWriteStream } from "node:fs";
import { parseArgs } from "node:util";
import {
	createLeasedGenerator,
	idErrorCode,
	idRetryAfter,
	idsClient,
} from "../../src/client/index";
import { SnowflakeLayout } from "../../src/ids/snowflake/layout";
import type { LeaseGrant } from "../../src/wire";

const { values: args } = parseArgs({
	options: {
		url: { type: "string" },
		token: { type: "string", default: process.env.API_TOKEN },
		holder: { type: "string", default: `node-${process.pid}` },
		count: { type: "string", default: "0" },
		seconds: { type: "string", default: "0" },
		batch: { type: "string", default: "1000" },
		"batch-gap-ms": { type: "string", default: "0" },
		out: { type: "string", default: "-" },
		"max-wait": { type: "string", default: "2000" },
		"wall-clock-offset": { type: "string", default: "0" },
		"wall-clock-step": { type: "string", default: "0" },
	},
});
if (!args.url) throw new Error("--url is required (the service's base URL)");
const count = Number(args.count);
const seconds = Number(args.seconds);
const batch = Number(args.batch);
const batchGapMs = Number(args["batch-gap-ms"]);
skewWallClock(Number(args["wall-clock-offset"]), Number(args["wall-clock-step"]));

/** `Date` (now and new) off by `offsetMs`, stepped back by `stepMs` at every SIGUSR2. */
function skewWallClock(offsetMs: number, stepMs: number): void {
	if (!Number.isFinite(offsetMs) || !Number.isFinite(stepMs)) {
		throw new Error("--wall-clock-offset and --wall-clock-step take a number of ms");
	}
	if (offsetMs === 0 && stepMs === 0) return;
	let skewMs = offsetMs;
	process.on("SIGUSR2", () => {
		skewMs -= stepMs;
	});
	const Real = Date;
	const realNow = Date.now.bind(Date);
	globalThis.Date = class SkewedDate extends Real {
		constructor(...args: [] | [string | number | Date]) {
			if (args.length === 0) super(realNow() + skewMs);
			else super(...args);
		}
		static override now(): number {
			return realNow() + skewMs;
		}
	} as DateConstructor;
}

const file = args.out === "-" ? undefined : createWriteStream(args.out);
/** Lines gathered and written in chunks: a write per line would cost more than issuing the IDs. */
let buffered = "";
const write = (line: string) => {
	buffered += line;
	if (buffered.length >= 1 << 16) flushLines();
};
const flushLines = () => {
	if (buffered === "") return;
	if (file) file.write(buffered);
	else process.stdout.write(buffered);
	buffered = "";
};
setInterval(flushLines, 100).unref();
const out = { write };
let layout: SnowflakeLayout | undefined;
/** A run still growing: consecutive runs are merged into one line. */
let pending: { workerId: number; tick: number; first: number; count: number } | undefined;
const flushRun = () => {
	if (pending)
		out.write(`R ${pending.workerId} ${pending.tick} ${pending.first} ${pending.count}\n`);
	pending = undefined;
};
const granted = (grant: LeaseGrant) => {
	if (!layout) {
		layout = new SnowflakeLayout(grant.layout);
		const { epoch, timeBits, workerBits, sequenceBits, timeUnitMs } = layout;
		out.write(
			`# edge-ids holder layout=${epoch},${timeBits},${workerBits},${sequenceBits},${timeUnitMs} pid=${process.pid}\n`,
		);
	}
	flushRun();
	out.write(`L ${grant.workerId} ${grant.from} ${grant.to}\n`);
	out.write(`T ${Date.now() - grant.serverNowMs}\n`);
	return grant;
};
/** Records the IDs of one call as runs (each ID one above the last within a tick). */
const record = (ids: string[]) => {
	for (const id of ids) {
		const { tick, workerId, sequence } = (layout as SnowflakeLayout).decompose(BigInt(id));
		if (
			pending?.workerId === workerId &&
			pending.tick === tick &&
			pending.first + pending.count === sequence
		) {
			pending.count++;
		} else {
			flushRun();
			pending = { workerId, tick, first: sequence, count: 1 };
		}
	}
};

const client = idsClient({ baseUrl: args.url, token: args.token });
const source = {
	acquireLease: (options?: Parameters<typeof client.acquireLease>[0]) =>
		client.acquireLease(options).then(granted),
	// The call options carry the renewal's deadline (its signal): a hung answer is given up.
	renewLease: (...args: Parameters<typeof client.renewLease>) =>
		client.renewLease(...args).then(granted),
	releaseLease: (lease: Parameters<typeof client.releaseLease>[0]) => client.releaseLease(lease),
};
const stop = new AbortController();
process.on("SIGTERM", () => stop.abort());
const refused: Record<string, number> = {};
let issued = 0;
const until = seconds > 0 ? performance.now() + seconds * 1_000 : Number.POSITIVE_INFINITY;
/** A refused call: its line, its count, and a pause as the refusal asks (at most 1 s). */
const refusedBy = async (error: unknown) => {
	const code = idErrorCode(error) ?? "other";
	flushRun();
	out.write(`X ${code}\n`);
	refused[code] = (refused[code] ?? 0) + 1;
	const ms = Math.min((idRetryAfter(error) ?? 0.05) * 1_000, 1_000);
	await new Promise((resolve) => setTimeout(resolve, ms));
};
const going = () =>
	!stop.signal.aborted && (count === 0 || issued < count) && performance.now() < until;
let ids: Awaited<ReturnType<typeof createLeasedGenerator>> | undefined;
while (!ids && going()) {
	const options = { source, holder: args.holder, maxWaitMs: Number(args["max-wait"]) };
	// No free worker ID yet: try again, as the Python holder does.
	ids = await createLeasedGenerator(options).catch((error: unknown) =>
		refusedBy(error).then(() => undefined),
	);
}
try {
	while (ids && going()) {
		const want = count === 0 ? batch : Math.min(batch, count - issued);
		try {
			const got = await ids.next(want);
			record(got);
			issued += got.length;
			// A program does I/O between batches: the event loop turns (renewals, writes).
			await new Promise((resolve) =>
				batchGapMs > 0 ? setTimeout(resolve, batchGapMs) : setImmediate(resolve),
			);
		} catch (error) {
			await refusedBy(error);
		}
	}
} finally {
	await ids?.close();
	flushRun();
	flushLines();
	if (file) await new Promise((resolve) => file.end(resolve));
}
console.error(JSON.stringify({ issued, refused, ...ids?.stats() }));
