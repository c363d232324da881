/**
 * Values the client puts into a URL path, each checked before any request so that
 * no value can reach another route (`..`, `/`, `?`, `#`), with the status the
 * service gives the same refusal.
 */
import { describeValue } from "../ids/errors";
import { IdsError } from "./errors";

/**
 * A worker ID as its path segment, once it is a non-negative safe integer: any
 * other value (a string, `"."`, `".."`, `""`, NaN, `7.5`) could reach another
 * route (`/snowflake/..` is `/`), so it is refused before any request, with the
 * status the service gives the same refusal.
 */
export function workerSegment(workerId: unknown): string {
	if (typeof workerId === "number" && Number.isSafeInteger(workerId) && workerId >= 0) {
		return String(workerId);
	}
	throw new IdsError(
		"invalid_worker_id",
		`workerId must be a non-negative integer (a number, one of the service's WORKER_IDS); got ${describeValue(workerId)}${typeof workerId === "number" ? "" : ` (${typeof workerId})`}`,
		400,
		undefined,
	);
}

/**
 * An ID as its path segment, percent-encoded so that no value reaches another
 * route (`1?count=3`, `%2F`, `#`). URLs drop empty, "." and ".." segments
 * (encoded or not), so those are refused; none is an ID.
 */
export function idSegment(id: unknown): string {
	if (typeof id === "string" && id !== "" && !/^(\.|%2e){1,2}$/i.test(id)) {
		return encodeURIComponent(id);
	}
	throw new IdsError(
		"invalid_id",
		`id must be a Snowflake, a ULID or a UUID; got ${describeValue(id)}`,
		400,
		undefined,
	);
}
