/**
 * A stand-in fetch that records each request the client sends (method, URL,
 * headers, body) and answers every one with `answer` as JSON, so a test can pin
 * what a call puts on the wire and that it returns the answer as parsed.
 *
 *   const { client, sent } = recordingClient({ ids: ["1"] });
 *   await client.ulid({ count: 1 });
 *   sent[0]?.url; // "https://ids.test/ulid?count=1"
 */
import { idsClient } from "../../src/client";

/** One request as the client sent it. */
export interface SentRequest {
	method: string;
	url: string;
	headers: Record<string, string>;
	body: string | undefined;
}

/** A client over a fetch answering `status` with `answer` as JSON; `sent` lists its requests. */
export function recordingClient(answer: unknown, { status = 200, token = "" } = {}) {
	const sent: SentRequest[] = [];
	const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
		sent.push({
			method: init?.method ?? "GET",
			url: String(input),
			headers: { ...(init?.headers as Record<string, string>) },
			body: init?.body === undefined ? undefined : String(init.body),
		});
		return new Response(JSON.stringify(answer), {
			status,
			headers: { "Content-Type": "application/json" },
		});
	}) as typeof globalThis.fetch;
	const client = idsClient({
		baseUrl: "https://ids.test/v1/",
		fetch,
		retry: { attempts: 1 },
		...(token ? { token } : {}),
	});
	return { client, sent };
}
