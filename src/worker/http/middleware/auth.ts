/**
 * Bearer-token auth, and the one answer to "which of the service's tokens did this
 * request send?" that the rate limiter keys on too: any spelling auth accepts
 * (`bearer`, `BEARER`, several spaces) is the same token with one budget.
 *
 * The service accepts API_TOKEN and, during a rotation, API_TOKEN_NEXT. A sent
 * token is compared with both, always both, in constant time: SHA-256 digests of
 * equal length through `crypto.subtle.timingSafeEqual`, so neither where a guess
 * differs nor how long it is shows in the timing.
 *
 *   app.use(auth((path) => path === "/health"));
 *   // no token → 401 unauthorized with `WWW-Authenticate: Bearer realm="edge-ids"`
 */
import type { Context, MiddlewareHandler } from "hono";
import { type AcceptedToken, bearerToken } from "../../config/bearer-token";
import type { Config } from "../../config/config";
import { serviceError } from "../../errors";
import type { AppEnv } from "../app-env";
import { noteRequest } from "./request-log";

interface KnownToken {
	name: AcceptedToken["name"];
	digest: ArrayBuffer;
	key: string;
}

function sha256(text: string): Promise<ArrayBuffer> {
	return crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
}

function hex(digest: ArrayBuffer, bytes: number): string {
	return Array.from(new Uint8Array(digest).subarray(0, bytes), (byte) =>
		byte.toString(16).padStart(2, "0"),
	).join("");
}

/** The configured tokens' digests, once per config (i.e. per isolate). */
const knownTokens = new WeakMap<Config, Promise<KnownToken[]>>();
function tokensOf(config: Config): Promise<KnownToken[]> {
	let known = knownTokens.get(config);
	if (!known) {
		const named = [
			["API_TOKEN", config.apiToken],
			["API_TOKEN_NEXT", config.apiTokenNext],
		] as const;
		known = Promise.all(
			named
				.filter((entry): entry is [AcceptedToken["name"], string] => entry[1] !== undefined)
				.map(async ([name, token]) => {
					const digest = await sha256(token);
					return { name, digest, key: `token:${hex(digest, 16)}` };
				}),
		);
		knownTokens.set(config, known);
	}
	return known;
}

async function match(
	config: Config,
	header: string | undefined,
): Promise<AcceptedToken | undefined> {
	const known = await tokensOf(config);
	const sent = bearerToken(header);
	if (sent === undefined || known.length === 0) return undefined;
	const digest = await sha256(sent);
	let accepted: KnownToken | undefined;
	// Every known token is compared, whichever matches: no early exit.
	for (const token of known) {
		if (crypto.subtle.timingSafeEqual(digest, token.digest)) accepted ??= token;
	}
	return accepted && { name: accepted.name, key: accepted.key };
}

/**
 * The service's token this request sent, if any; worked out once per request (auth
 * and the rate limiter both ask).
 */
export function acceptedToken(c: Context<AppEnv>): Promise<AcceptedToken | undefined> {
	let answer = c.get("acceptedToken");
	if (!answer) {
		answer = match(c.var.config, c.req.header("Authorization"));
		c.set("acceptedToken", answer);
	}
	return answer;
}

/**
 * 401 with the challenge RFC 7235 §3.1 asks for, and RFC 6750's error when a header
 * was sent: `invalid_request` when it holds no bearer token, else `invalid_token`.
 */
function unauthorized(c: Context<AppEnv>): never {
	const header = c.req.header("Authorization");
	const error =
		header === undefined
			? ""
			: bearerToken(header) === undefined
				? "invalid_request"
				: "invalid_token";
	c.header("WWW-Authenticate", `Bearer realm="edge-ids"${error ? `, error="${error}"` : ""}`);
	throw serviceError(
		"unauthorized",
		"this route needs the header 'Authorization: Bearer <token>' with the service's API token",
	);
}

/**
 * Every path but the public ones needs a token the service accepts, when it has one;
 * the request's log line names which one (`token: "current"` or `"next"`), so a
 * rotation can watch the old token fall silent.
 */
export function auth(isPublic: (path: string) => boolean): MiddlewareHandler<AppEnv> {
	return async (c, next) => {
		if (!c.var.config.apiToken || isPublic(c.req.path)) return next();
		const accepted = await acceptedToken(c);
		if (!accepted) unauthorized(c);
		noteRequest(c, { token: accepted.name === "API_TOKEN" ? "current" : "next" });
		return next();
	};
}
