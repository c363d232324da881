/**
 * The HTTP client's deadline, cancellation and refusals, over fetches that never
 * answer or are never reached (the client's own logic; no service). The deadline
 * tests run on vitest's fake timers: the client's own setTimeout is what they
 * measure, to the millisecond, and what is left of it after a call.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { IdsError, idsClient } from "../../src/client";

const ULIDS = { type: "ulid", ids: ["01ARYZ6S41TSV4RRFFQ69G5FAV"] };

/** A fetch that records its calls and the signal each got, and never answers. */
function silentFetch(options: { honoursSignal: boolean }) {
	const signals: (AbortSignal | undefined)[] = [];
	const urls: string[] = [];
	const fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
		urls.push(String(input));
		const signal = init?.signal ?? undefined;
		signals.push(signal);
		return new Promise<Response>((_, reject) => {
			if (options.honoursSignal) signal?.addEventListener("abort", () => reject(signal.reason));
		});
	}) as typeof globalThis.fetch;
	return { fetch, signals, urls };
}

/** A fetch answering `answer()` every time; records the URLs asked for. */
function answeringFetch(answer: () => Response) {
	const urls: string[] = [];
	const fetch = (async (input: RequestInfo | URL) => {
		urls.push(String(input));
		return answer();
	}) as typeof globalThis.fetch;
	return { fetch, urls };
}

async function failure(call: Promise<unknown>): Promise<IdsError> {
	const error = await call.then(
		() => undefined,
		(thrown: unknown) => thrown,
	);
	expect(error).toBeInstanceOf(IdsError);
	return error as IdsError;
}

/** Whether `call` has settled yet: "pending" until it has, then its value or error. */
function watch<T>(call: Promise<T>): { readonly state: T | unknown } {
	const watched: { state: T | unknown } = { state: "pending" };
	call.then(
		(value) => {
			watched.state = value;
		},
		(error: unknown) => {
			watched.state = error;
		},
	);
	return watched;
}

describe("client deadline", () => {
	beforeEach(() => {
		vi.useFakeTimers();
	});
	afterEach(() => {
		vi.useRealTimers();
	});

	it.each([true, false])(
		"a fetch that never answers fails with timeout at timeoutMs, not before (fetch honours the signal: %s)",
		async (honoursSignal) => {
			const { fetch, signals } = silentFetch({ honoursSignal });
			const client = idsClient({ baseUrl: "https://ids.test", fetch, timeoutMs: 30 });
			const call = watch(client.ulid());
			await vi.advanceTimersByTimeAsync(29);
			expect(call.state).toBe("pending");
			expect(signals[0]?.aborted).toBe(false);
			await vi.advanceTimersByTimeAsync(1);
			const error = call.state as IdsError;
			expect(error).toBeInstanceOf(IdsError);
			expect(error).toMatchObject({ code: "timeout", status: undefined });
			expect(error.message).toMatch(/^timeout: GET \/ulid had no answer within 30 ms/);
			// The request itself is cancelled, not only abandoned.
			expect(signals).toHaveLength(1);
			expect(signals[0]?.aborted).toBe(true);
		},
	);

	it("bounds the retries' waits too: a long Retry-After does not outlive the deadline", async () => {
		const { fetch, urls } = answeringFetch(
			() =>
				new Response(JSON.stringify({ error: { code: "overloaded", message: "later" } }), {
					status: 503,
					headers: { "Retry-After": "5" },
				}),
		);
		const client = idsClient({ baseUrl: "https://ids.test", fetch, timeoutMs: 40 });
		const call = watch(client.ulid());
		await vi.advanceTimersByTimeAsync(39);
		expect(call.state).toBe("pending");
		await vi.advanceTimersByTimeAsync(1);
		expect(call.state).toMatchObject({ code: "timeout" });
		expect(urls).toHaveLength(1);
		expect(vi.getTimerCount()).toBe(0); // the retry's wait is cleared with the deadline
	});

	it("bounds the body: an answer whose body never ends fails with timeout at timeoutMs", async () => {
		const { fetch } = answeringFetch(
			() => new Response(new ReadableStream({ start() {} }), { status: 200 }),
		);
		const client = idsClient({ baseUrl: "https://ids.test", fetch, timeoutMs: 30 });
		const call = watch(client.layout());
		await vi.advanceTimersByTimeAsync(29);
		expect(call.state).toBe("pending");
		await vi.advanceTimersByTimeAsync(1);
		expect(call.state).toMatchObject({ code: "timeout" });
	});

	it("a call's own timeoutMs replaces the client's", async () => {
		const { fetch } = silentFetch({ honoursSignal: false });
		const client = idsClient({ baseUrl: "https://ids.test", fetch, timeoutMs: 60_000 });
		const call = watch(client.health({ timeoutMs: 20 }));
		await vi.advanceTimersByTimeAsync(19);
		expect(call.state).toBe("pending");
		await vi.advanceTimersByTimeAsync(1);
		expect((call.state as IdsError).message).toContain("within 20 ms");
	});

	it("answers within the deadline leave no timer behind and resolve normally", async () => {
		const { fetch } = answeringFetch(() => Response.json(ULIDS));
		const client = idsClient({ baseUrl: "https://ids.test", fetch, timeoutMs: 20 });
		expect(await client.ulid()).toEqual(ULIDS);
		expect(vi.getTimerCount()).toBe(0);
		await vi.advanceTimersByTimeAsync(40);
		expect(await client.ulid()).toEqual(ULIDS);
		expect(vi.getTimerCount()).toBe(0);
	});

	it("a failed call leaves no timer behind either", async () => {
		const { fetch } = answeringFetch(() =>
			Response.json({ error: { code: "invalid_count", message: "no" } }, { status: 400 }),
		);
		const client = idsClient({ baseUrl: "https://ids.test", fetch, timeoutMs: 20 });
		const call = watch(client.ulid());
		await vi.advanceTimersByTimeAsync(0);
		expect(call.state).toMatchObject({ code: "invalid_count", status: 400 });
		expect(vi.getTimerCount()).toBe(0);
	});
});

describe("client cancellation", () => {
	it("a call's signal aborts it with aborted, the reason as cause", async () => {
		const { fetch, signals } = silentFetch({ honoursSignal: false });
		const client = idsClient({ baseUrl: "https://ids.test", fetch });
		const controller = new AbortController();
		const call = client.snowflake({ count: 2 }, { signal: controller.signal });
		const reason = new Error("user navigated away");
		controller.abort(reason);
		const error = await failure(call);
		expect(error).toMatchObject({ code: "aborted", cause: reason });
		expect(signals[0]?.aborted).toBe(true);
	});

	it("the client's signal aborts every call; an aborted signal sends nothing", async () => {
		const { fetch, urls } = silentFetch({ honoursSignal: true });
		const shutdown = new AbortController();
		const client = idsClient({ baseUrl: "https://ids.test", fetch, signal: shutdown.signal });
		const inFlight = client.uuidv7();
		shutdown.abort();
		expect((await failure(inFlight)).code).toBe("aborted");
		expect((await failure(client.uuidv7())).code).toBe("aborted");
		expect(urls).toHaveLength(1);
	});
});

describe("client refusals before any request", () => {
	it.each([
		"localhost:8787",
		"ids.example.com",
		"",
		"ftp://ids.test",
		"https://ids.test/?a=1",
		"https://ids.test/#x",
		"https://user:pw@ids.test",
		"https://user@ids.test",
		"https://:pw@ids.test",
		"https://ids.test/?",
		"https://ids.test/#",
		"/relative",
	])("refuses baseUrl %j when the client is made (invalid_config)", (baseUrl) => {
		expect(() => idsClient({ baseUrl })).toThrow(IdsError);
		expect(() => idsClient({ baseUrl })).toThrow(
			/^invalid_config: baseUrl must be an absolute http: or https: URL/,
		);
	});

	it("takes http(s) base URLs with a path prefix and trailing slashes", async () => {
		const { fetch, urls } = answeringFetch(() => Response.json({ status: "ok" }));
		await idsClient({ baseUrl: "http://localhost:8787", fetch }).health();
		await idsClient({ baseUrl: "https://ids.example.com/edge-ids//", fetch }).health();
		expect(urls).toEqual([
			"http://localhost:8787/health",
			"https://ids.example.com/edge-ids/health",
		]);
	});

	it.each([0, -5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31])(
		"refuses timeoutMs %s (invalid_config), for the client and for a call",
		async (timeoutMs) => {
			expect(() => idsClient({ timeoutMs })).toThrow(/^invalid_config: timeoutMs must be/);
			const { fetch, urls } = answeringFetch(() => Response.json(ULIDS));
			const client = idsClient({ baseUrl: "https://ids.test", fetch });
			expect((await failure(client.ulid({}, { timeoutMs }))).code).toBe("invalid_config");
			expect(urls).toEqual([]);
		},
	);

	// `..` would reach `/`, `/stats` and `/blocks`; `.` would reach `/snowflake/`,
	// `/snowflake/stats` and the auto route's `/snowflake/blocks` (another worker ID's IDs).
	const NOT_WORKER_IDS: unknown[] = [
		".",
		"..",
		"",
		"%2e",
		"7",
		" 7",
		-1,
		1.5,
		Number.NaN,
		null,
		2 ** 53,
	];
	it.each(NOT_WORKER_IDS)(
		"refuses worker ID %o in every method (invalid_worker_id)",
		async (workerId) => {
			const { fetch, urls } = answeringFetch(() => Response.json(ULIDS));
			const client = idsClient({ baseUrl: "https://ids.test", fetch });
			const asNumber = workerId as number;
			for (const call of [
				client.snowflake({ workerId: asNumber }),
				client.snowflakeBlocks({ workerId: asNumber, count: 10 }),
				client.stats(asNumber),
			]) {
				const error = await failure(call);
				expect(error).toMatchObject({ code: "invalid_worker_id", status: 400 });
				expect(error.message).toContain("workerId must be a non-negative integer");
			}
			expect(urls).toEqual([]);
		},
	);

	it("sends worker ID 0 and large worker IDs to their own routes", async () => {
		const { fetch, urls } = answeringFetch(() =>
			Response.json({ type: "snowflake", workerId: 0, ids: [] }),
		);
		const client = idsClient({ baseUrl: "https://ids.test", fetch });
		await client.snowflake({ workerId: 0 });
		await client.snowflakeBlocks({ workerId: 1023 });
		await client.stats(65535);
		expect(urls).toEqual([
			"https://ids.test/snowflake/0",
			"https://ids.test/snowflake/1023/blocks",
			"https://ids.test/snowflake/65535/stats",
		]);
	});
});
