/**
 * The playground's calls to the service: JSON in, JSON out, the API token (kept in
 * this tab's sessionStorage) sent when there is one, errors as `ApiError`s.
 */
import { el } from "./dom";

const TOKEN_KEY = "edge-ids.apiToken";
let memoryToken = "";

function getToken(): string {
	try {
		return sessionStorage.getItem(TOKEN_KEY) ?? "";
	} catch {
		return memoryToken;
	}
}

export function setToken(token: string): void {
	memoryToken = token;
	try {
		if (token) sessionStorage.setItem(TOKEN_KEY, token);
		else sessionStorage.removeItem(TOKEN_KEY);
	} catch {
		// storage blocked: the token lives in memory only
	}
}

/** A failed call: the service's error code and message, or the page's own. */
export class ApiError extends Error {
	constructor(
		readonly status: number,
		readonly code: string,
		message: string,
	) {
		super(message);
	}
}

/** The page's own refusal of a count it will not ask for (requests.ts, `parseShownCount`). */
export function shownCountError(max: number): ApiError {
	return new ApiError(
		0,
		"invalid_count",
		`count must be a whole number from 1 to ${max.toLocaleString("en-US")}`,
	);
}

/** Told when the service refuses the token (or asks for one) and when it accepts it. */
export const tokenEvents = {
	rejected: (_hadToken: boolean) => {},
	accepted: () => {},
};

/** `path` with `method` (and `body` as JSON): the answer's JSON, or an `ApiError`. */
export async function api<T>(path: string, method = "GET", body?: object): Promise<T> {
	const headers: Record<string, string> = { Accept: "application/json" };
	const token = getToken();
	if (token) headers.Authorization = `Bearer ${token}`;
	if (body) headers["Content-Type"] = "application/json";
	let response: Response;
	try {
		response = await fetch(path, {
			method,
			headers,
			cache: "no-store",
			...(body ? { body: JSON.stringify(body) } : {}),
		});
	} catch (error) {
		throw new ApiError(0, "network_error", `could not reach the service (${messageOf(error)})`);
	}
	const text = await response.text();
	let answer: unknown = null;
	try {
		answer = text ? JSON.parse(text) : null;
	} catch {
		answer = null;
	}
	if (!response.ok) {
		const info = (answer as { error?: { code?: unknown; message?: unknown } } | null)?.error ?? {};
		const error = new ApiError(
			response.status,
			typeof info.code === "string" ? info.code : `http_${response.status}`,
			typeof info.message === "string"
				? info.message
				: text.slice(0, 300) || response.statusText || "the request failed",
		);
		if (response.status === 401) tokenEvents.rejected(token !== "");
		throw error;
	}
	if (token) tokenEvents.accepted();
	if (!answer || typeof answer !== "object") {
		throw new ApiError(
			response.status,
			"bad_response",
			"the service answered something other than JSON",
		);
	}
	return answer as T;
}

function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

function sentence(text: string): string {
	const s = text.trim();
	return s.charAt(0).toUpperCase() + s.slice(1) + (/[.!?]$/.test(s) ? "" : ".");
}

/** An alert box for an error: its code as a title, its message as a sentence. */
export function errorBox(error: unknown): HTMLElement {
	const box = el("div", { class: "error", role: "alert" });
	if (error instanceof ApiError) {
		const title = error.code.replace(/_/g, " ");
		box.append(
			el("strong", { text: title.charAt(0).toUpperCase() + title.slice(1) }),
			" ",
			el("span", {
				class: "code",
				text: `(${error.code}${error.status ? `, HTTP ${error.status}` : ""})`,
			}),
			el("p", { text: sentence(error.message) }),
		);
		if (error.status === 401)
			box.append(el("p", { text: "Enter the API token above, then try again." }));
	} else {
		box.append(
			el("strong", { text: "Something went wrong" }),
			el("p", { text: sentence(messageOf(error)) }),
		);
	}
	return box;
}
