/**
 * What the HTTP benchmarks share: one autocannon run as a promise, what it
 * served (answers per second, 503s apart from other failures), the median of
 * rounds with its range, and numbers written the way their tables show them.
 *
 *   const result = await load(`${service.url}/ulid`, 16, 5);
 *   const { reqPerS, busy, failures } = served(result);
 *   console.log(`${fmt(reqPerS)} req/s`, spread([3, 1, 2])); // { median: 2, low: 1, high: 3 }
 */
import autocannon from "autocannon";

/** `connections` connections on `url` for `seconds`; resolves with autocannon's result. */
export function load(
	url: string,
	connections: number,
	seconds: number,
	headers?: Record<string, string>,
	method: "GET" | "POST" = "GET",
): Promise<autocannon.Result> {
	return new Promise((resolve, reject) => {
		autocannon({ url, connections, duration: seconds, headers, method }, (error, result) =>
			error ? reject(error) : resolve(result),
		);
	});
}

/** What one run served: 2xx answers per second, 503s (overloaded), and every other failure. */
export function served(result: autocannon.Result): {
	ok: number;
	reqPerS: number;
	busy: number;
	failures: number;
} {
	const busy = result.statusCodeStats?.["503"]?.count ?? 0;
	const ok = result.requests.total - result.non2xx - result.errors;
	return {
		ok,
		// Over the time actually measured: autocannon stops at its next 1-s sample
		// after `duration`, and counts what completed until then.
		reqPerS: ok / result.duration,
		busy,
		failures: result.non2xx - busy + result.errors + result.timeouts,
	};
}

/** The median of `values` with their range, as the tables show a figure. */
export function spread(values: number[]): { median: number; low: number; high: number } {
	const sorted = [...values].sort((a, b) => a - b);
	return { median: sorted[sorted.length >> 1] ?? 0, low: sorted[0] ?? 0, high: sorted.at(-1) ?? 0 };
}

/** `n` with thousands separators and `digits` decimals: 1,234.5. */
export const fmt = (n: number, digits = 0) =>
	n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
