/**
 * The HTTP client's lease calls over a recording fetch (methods, paths, bodies,
 * answers, retries, refusals before sending), and createLeasedGenerator over a
 * stand-in `IdService` binding with real time: it issues, closes, aborts, drops a
 * copied lease, and keeps no Node process alive.
 */
import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createLeasedGenerator, type IdsError, idsClient } from "../../src/client";
import type { LeaseRef } from "../../src/wire";
import { grantNow, twitterLayout } from "../shared/lease-grants";
import { expectSnowflakesIncreasing } from "../shared/order";

const layout = twitterLayout;

interface Sent {
	method: string;
	url: string;
	body: string | undefined;
	contentType: string | null;
}

/** A fetch answering `answers` in turn (status and JSON body; 204 has none); records what was sent. */
function recordingFetch(answers: { status: number; body?: unknown; retryAfter?: string }[]) {
	const sent: Sent[] = [];
	const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
		const headers = new Headers(init?.headers);
		sent.push({
			method: init?.method ?? "GET",
			url: String(input),
			body: typeof init?.body === "string" ? init.body : undefined,
			contentType: headers.get("Content-Type"),
		});
		const next = answers.shift();
		if (!next) throw new Error("the script ran out of answers");
		const answer = new Headers({ "Content-Type": "application/json" });
		if (next.retryAfter) answer.set("Retry-After", next.retryAfter);
		const body = next.status === 204 ? null : JSON.stringify(next.body ?? {});
		return new Response(body, { status: next.status, headers: answer });
	}) as typeof globalThis.fetch;
	const client = idsClient({
		baseUrl: "https://ids.test/v1",
		fetch,
		retry: { sleep: async () => {} },
	});
	return { client, sent };
}

/** A well-formed leaseId (32 characters of A-Z a-z 0-9 _ -), as an acquire answers. */
const LEASE_ID = "abcdefghijklmnopqrstuvwxyzABCD_-";

describe("idsClient lease calls", () => {
	it("acquire, renew, release and status: methods, paths and JSON bodies", async () => {
		const granted = grantNow(900, LEASE_ID);
		const state = { workerId: 900, state: "held", holder: "pod-7" };
		const { client, sent } = recordingFetch([
			{ status: 201, body: granted },
			{ status: 200, body: granted },
			{ status: 204 },
			{ status: 200, body: state },
			{ status: 201, body: granted },
		]);
		expect(await client.acquireLease({ holder: "pod-7", workerId: 900 })).toEqual(granted);
		expect(await client.renewLease({ workerId: 900, leaseId: LEASE_ID })).toEqual(granted);
		expect(await client.releaseLease({ workerId: 900, leaseId: LEASE_ID })).toBeUndefined();
		expect(await client.leaseStatus(900)).toEqual(state);
		await client.acquireLease();
		expect(sent).toEqual([
			{
				method: "POST",
				url: "https://ids.test/v1/leases",
				body: '{"holder":"pod-7","workerId":900}',
				contentType: "application/json",
			},
			{
				method: "POST",
				url: "https://ids.test/v1/leases/900/renew",
				body: JSON.stringify({ leaseId: LEASE_ID }),
				contentType: "application/json",
			},
			{
				method: "POST",
				url: "https://ids.test/v1/leases/900/release",
				body: JSON.stringify({ leaseId: LEASE_ID }),
				contentType: "application/json",
			},
			{ method: "GET", url: "https://ids.test/v1/leases/900", body: undefined, contentType: null },
			{
				method: "POST",
				url: "https://ids.test/v1/leases",
				body: "{}",
				contentType: "application/json",
			},
		]);
	});

	it("carries the service's refusals with their status and Retry-After", async () => {
		const { client } = recordingFetch([
			{
				status: 409,
				retryAfter: "7",
				body: { error: { code: "no_free_worker_id", message: "every worker ID is held" } },
			},
			{ status: 409, body: { error: { code: "lease_lost", message: "released" } } },
		]);
		await expect(client.acquireLease()).rejects.toMatchObject({
			code: "no_free_worker_id",
			status: 409,
			retryAfter: 7,
		});
		await expect(client.renewLease({ workerId: 3, leaseId: LEASE_ID })).rejects.toMatchObject({
			code: "lease_lost",
		});
	});

	it("retries a renewal answered 503, as every call (a repeat only extends again)", async () => {
		const granted = grantNow(901, LEASE_ID);
		const { client, sent } = recordingFetch([
			{
				status: 503,
				retryAfter: "1",
				body: { error: { code: "unavailable", message: "restarting" } },
			},
			{ status: 200, body: granted },
		]);
		expect(await client.renewLease({ workerId: 901, leaseId: LEASE_ID })).toEqual(granted);
		expect(sent.map((s) => s.method)).toEqual(["POST", "POST"]);
	});

	it.each([["a/b?c"], [".."], [""], [undefined]])(
		"refuses a malformed leaseId (%j) before sending, in the service's words, never quoting it",
		async (leaseId) => {
			const { client, sent } = recordingFetch([]);
			const lease = { workerId: 1, leaseId } as unknown as LeaseRef;
			for (const call of [client.releaseLease(lease), client.renewLease(lease)]) {
				const error = await call.then(
					() => undefined,
					(refused: IdsError) => refused,
				);
				expect(error).toMatchObject({ code: "invalid_lease_id", status: 400 });
				expect(error?.message).toMatch(
					/^invalid_lease_id: leaseId must be the 32 characters \(A-Z a-z 0-9 _ -\) that acquireLease answered; /,
				);
				if (leaseId) expect(error?.message).not.toContain(leaseId);
			}
			expect(sent).toEqual([]);
		},
	);

	it("refuses a worker ID that would reach another route before sending", async () => {
		const { client, sent } = recordingFetch([]);
		await expect(client.renewLease({ workerId: -1, leaseId: "k" })).rejects.toMatchObject({
			code: "invalid_worker_id",
			status: 400,
		});
		await expect(client.leaseStatus(-1)).rejects.toMatchObject({ code: "invalid_worker_id" });
		expect(sent).toEqual([]);
	});
});

/** A stand-in `IdService` binding: grants spans of the real clock and records the calls. */
function bindingStandIn() {
	const calls: string[] = [];
	let leases = 0;
	let workerId = 900;
	return {
		calls,
		binding: {
			async acquireLease() {
				calls.push("acquire");
				return grantNow(workerId++, `lease-${++leases}`);
			},
			async renewLease({ workerId: w, leaseId }: { workerId: number; leaseId: string }) {
				calls.push(`renew ${w}/${leaseId}`);
				return grantNow(w, leaseId);
			},
			async releaseLease({ workerId: w, leaseId }: { workerId: number; leaseId: string }) {
				calls.push(`release ${w}/${leaseId}`);
			},
		},
	};
}

describe("createLeasedGenerator", () => {
	const realPid = process.pid;
	afterEach(() => {
		Object.defineProperty(process, "pid", { value: realPid, configurable: true, writable: false });
	});

	it("issues increasing IDs of its leased worker ID and releases the lease on close", async () => {
		const { binding, calls } = bindingStandIn();
		const ids = await createLeasedGenerator({ source: binding, holder: "test" });
		expect(ids.workerId).toBe(900);
		const issued = [...(await ids.next()), ...(await ids.next(5_000)), ...(await ids.next())];
		expect(issued).toHaveLength(5_002);
		expectSnowflakesIncreasing(issued);
		expect(new Set(issued.map((id) => layout.decompose(BigInt(id)).workerId))).toEqual(
			new Set([900]),
		);
		await ids.close();
		expect(calls).toEqual(["acquire", "release 900/lease-1"]);
		await expect(ids.next()).rejects.toMatchObject({ code: "aborted" });
	});

	it("an aborted signal stops it: calls reject aborted and the lease is released", async () => {
		const { binding, calls } = bindingStandIn();
		const controller = new AbortController();
		const ids = await createLeasedGenerator({ source: binding, signal: controller.signal });
		await ids.next();
		controller.abort(new Error("shutting down"));
		await expect(ids.next()).rejects.toMatchObject({ code: "aborted" });
		await new Promise((r) => setTimeout(r, 10));
		expect(calls).toEqual(["acquire", "release 900/lease-1"]);
	});

	it("refuses to start on a signal aborted already, with no acquire", async () => {
		const { binding, calls } = bindingStandIn();
		const created = createLeasedGenerator({ source: binding, signal: AbortSignal.abort() });
		await expect(created).rejects.toMatchObject({ code: "aborted" });
		expect(calls).toEqual([]);
	});

	it("in a process with another pid (a copy), never issues under the copied lease: it acquires its own", async () => {
		const { binding, calls } = bindingStandIn();
		const ids = await createLeasedGenerator({ source: binding });
		const [before = ""] = await ids.next();
		Object.defineProperty(process, "pid", {
			value: realPid + 1,
			configurable: true,
			writable: false,
		});
		const [after = ""] = await ids.next();
		expect(layout.decompose(BigInt(after)).workerId).toBe(901);
		expect(BigInt(after)).toBeGreaterThan(BigInt(before));
		await ids.close();
		// The copy released its own lease, never the original's.
		expect(calls).toEqual(["acquire", "acquire", "release 901/lease-2"]);
	});

	it("gives renewals its deadline's signal where they take call options (idsClient's), and a binding only the lease", async () => {
		const seen: unknown[][] = [];
		const grant = (w: number) => grantNow(w, "lease-1", 300); // renewed after 100 ms
		const withCallOptions = {
			acquireLease: async () => grant(900),
			renewLease: async (lease: { workerId: number }, call?: { signal?: AbortSignal }) => {
				seen.push(["call options", call?.signal instanceof AbortSignal]);
				return grant(lease.workerId);
			},
			releaseLease: async () => undefined,
		};
		class BindingLike {
			acquireLease = async () => grant(901);
			renewLease = async (...args: unknown[]) => {
				seen.push(["binding", args.length]);
				return grant(901);
			};
			releaseLease = async () => undefined;
		}
		const generators = [
			await createLeasedGenerator({ source: withCallOptions }),
			await createLeasedGenerator({ source: new BindingLike() }),
		];
		await new Promise((r) => setTimeout(r, 150));
		for (const generator of generators) await generator.close();
		expect(seen).toContainEqual(["call options", true]);
		expect(seen).toContainEqual(["binding", 1]);
	});

	it("keeps no Node process alive: a script that never closes it exits at once", () => {
		const script = resolve(import.meta.dirname, "leased-exit.ts");
		const started = Date.now();
		const printed = execFileSync(process.execPath, ["--import", "tsx", script], {
			encoding: "utf8",
			timeout: 20_000,
		});
		expect(printed.trim()).toMatch(/^\d+ issued$/);
		// The renewal timer (10 s away) did not hold it; startup takes a second or two.
		expect(Date.now() - started).toBeLessThan(8_000);
	});
});
