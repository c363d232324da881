/**
 * The one rule for bearer tokens, shared by config (which tokens a deployment may
 * set) and auth (which `Authorization` headers it reads), so a token the config
 * accepts is always one a caller can send.
 *
 *   bearerToken("bearer   abc.DEF~1")  // "abc.DEF~1"
 *   bearerToken("Bearer\tabc")        // undefined
 */

/** RFC 6750's `b64token`: the characters a bearer token may have. */
export const TOKEN_PATTERN = /^[A-Za-z0-9._~+/-]+=*$/;

/** The allowed characters, as config errors name them. */
export const TOKEN_ALPHABET = "letters, digits and - . _ ~ + / (then = padding only at the end)";

/**
 * The token in an `Authorization` header: the scheme `Bearer` in any case, one or
 * more spaces (RFC 7235's `1*SP`), then a token of TOKEN_PATTERN and nothing else.
 * Anything else is no token.
 */
export function bearerToken(header: string | undefined): string | undefined {
	const match = /^bearer +(\S+)$/i.exec(header ?? "");
	const token = match?.[1];
	return token !== undefined && TOKEN_PATTERN.test(token) ? token : undefined;
}

/** A token the service accepts, as the request sent it. */
export interface AcceptedToken {
	/** Which setting it is: API_TOKEN or API_TOKEN_NEXT. */
	name: "API_TOKEN" | "API_TOKEN_NEXT";
	/** A hash of the token (never the token): one rate-limit budget per token. */
	key: string;
}
