/**
 * What the HTTP benchmarks share: one autocannon run as a promise, and numbers
 * written the way their tables show them.
 *
 *   const result = await load(`${dev.url}/ulid`, 16, 5);
 *   console.log(`${fmt(result.requests.average)} req/s`);
 */
import autocannon from "autocannon";

/** `connections` connections on `url` for `seconds`; resolves with autocannon's result. */
export function load(
	url: string,
	connections: number,
	seconds: number,
	headers?: Record<string, string>,
): Promise<autocannon.Result> {
	return new Promise((resolve, reject) => {
		autocannon({ url, connections, duration: seconds, headers }, (error, result) =>
			error ? reject(error) : resolve(result),
		);
	});
}

/** `n` with thousands separators and `digits` decimals: 1,234.5. */
export const fmt = (n: number, digits = 0) =>
	n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
