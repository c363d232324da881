/**
 * A leased generator as a command, for load and chaos runs: `createLeasedGenerator`
 * over `idsClient`, issuing in batches and writing what it issued in the same
 * compact form as the Python holder (examples/python-holder/holder.py):
 *
 *   # edge-ids holder layout=<epoch>,<timeBits>,<workerBits>,<sequenceBits>,<timeUnitMs> pid=<pid>
 *   L <workerId> <from> <to>                          a grant received (acquire or renewal)
 *   R <workerId> <tick> <firstSequence> <count>       IDs issued: consecutive sequences of one tick
 *   X <code>                                          a call refused (it issued nothing)
 *
 * Lines come in the order things happened: a span's L line before any R line
 * inside it, R lines in issue order. A JSON summary goes to stderr at the end.
 * SIGTERM closes the generator (releasing its lease) and exits.
 *
 *   npx tsx scripts/lease-holder.ts --url http://127.0.0.1:8787 --count 1000000 --out issued.txt
 *   (--token T | $API_TOKEN) (--holder NAME) (--seconds S) (--batch B, default 1000) (--max-wait MS)
 */
import { createWriteStream } from "node:fs";
import { parseArgs } from "node:util";
import type { LeaseGrant } from "../src/api";
import { createLeasedGenerator, idErrorCode, idRetryAfter, idsClient } from "../src/client/index";
import { SnowflakeLayout } from "../src/ids/layout";

const { values: args } = parseArgs({
	options: {
		url: { type: "string" },
		token: { type: "string", default: process.env.API_TOKEN },
		holder: { type: "string", default: `node-${process.pid}` },
		count: { type: "string", default: "0" },
		seconds: { type: "string", default: "0" },
		batch: { type: "string", default: "1000" },
		out: { type: "string", default: "-" },
		"max-wait": { type: "string", default: "2000" },
	},
});
if (!args.url) throw new Error("--url is required (the service's base URL)");
const count = Number(args.count);
const seconds = Number(args.seconds);
const batch = Number(args.batch);

const out = args.out === "-" ? process.stdout : createWriteStream(args.out);
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
	renewLease: (lease: Parameters<typeof client.renewLease>[0]) =>
		client.renewLease(lease).then(granted),
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
			await new Promise((resolve) => setImmediate(resolve));
		} catch (error) {
			await refusedBy(error);
		}
	}
} finally {
	await ids?.close();
	flushRun();
	if (out !== process.stdout)
		await new Promise((resolve) => (out as ReturnType<typeof createWriteStream>).end(resolve));
}
console.error(JSON.stringify({ issued, refused, ...ids?.stats() }));
