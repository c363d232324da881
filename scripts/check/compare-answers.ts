/**
 * npm run compare:answers — every answer of this tree's bundle against another
 * revision's (main by default), byte for byte: a fixed list of requests over every
 * route, successes and errors (the OpenAPI document included), plus a request set
 * made from the document itself (every path and method: the defaults, an unknown
 * query parameter, each query parameter with a bad value, JSON bodies good and bad),
 * with the static files served as a deploy serves them, under the default config, with API tokens and narrow CORS, with a rate limit of
 * one request, and with each kind of bad config. Each config runs in a fresh
 * Miniflare (in-memory state), the same requests in the same order for both bundles.
 *
 *   npm run compare:answers                    # against main
 *   npm run compare:answers -- --base v0.1.0   # any git revision
 *   npm run compare:answers -- --write answers.txt   # also save this tree's answers
 *
 * What differs by nature is normalized before comparing: the request ID, the Date
 * header, generated IDs (Snowflakes, ULIDs, UUIDs, TypeIDs, base32 text), times and
 * the counters that depend on timing. Exits 1 and prints each difference when any
 * answer differs.
 */
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import {
	A_SNOWFLAKE,
	A_TYPEID,
	A_ULID,
	A_UUIDV7,
	type Ask,
	CONFIGS,
	JSON_TYPE,
	LAST_LEASE,
	NO_LEASE,
} from "../lib/compare-asks";
import { buildBundle, buildRevisionBundle, startBundle } from "../lib/miniflare-service";

const { values } = parseArgs({
	options: {
		base: { type: "string", default: "main" },
		write: { type: "string" },
	},
});

interface OpenApiDocument {
	paths: Record<
		string,
		Record<string, { parameters?: { name: string; in: string }[]; requestBody?: unknown }>
	>;
}

/** Requests made from the document: every path and method, defaults and refusals. */
function documentAsks(document: OpenApiDocument): Ask[] {
	const asks: Ask[] = [];
	const sample: Record<string, string> = { workerId: "4", id: A_SNOWFLAKE };
	for (const [template, operations] of Object.entries(document.paths)) {
		const path = template.replace(/\{(\w+)\}/g, (_, name: string) => sample[name] ?? "1");
		for (const [method, operation] of Object.entries(operations)) {
			const upper = method.toUpperCase();
			asks.push({ method: upper, path });
			asks.push({ method: upper, path: `${path}?unknownParameter=1` });
			for (const parameter of operation.parameters ?? []) {
				if (parameter.in !== "query") continue;
				asks.push({ method: upper, path: `${path}?${parameter.name}=%21bad` });
				asks.push({ method: upper, path: `${path}?${parameter.name}=1&${parameter.name}=2` });
			}
			if (operation.requestBody) {
				for (const body of ["{}", '{"unknownField":1}', "{bad", '"text"']) {
					asks.push({ method: upper, path, headers: JSON_TYPE, body });
				}
			}
		}
	}
	return asks;
}

/** IDs, times and the timing-dependent counters: what differs between two runs by nature. */
const NORMALIZE: [RegExp, string][] = [
	[
		/"(timestamp|time|since|lastTimestamp|maxLeadMs|maxRegressionMs|rolloverWaits|leaseWrites|durationMs)":("[^"]*"|-?[0-9.e+]+|null)/g,
		'"$1":<varies>',
	],
	[/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?Z/g, "<time>"],
	[/\b[0-9A-HJKMNP-TV-Z]{26}\b/g, "<ulid>"],
	[/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, "<uuid>"],
	[/(?<![0-9a-z])[0-7][0-9a-hjkmnp-tv-z]{25}(?![0-9a-z])/g, "<typeid>"],
	[/(?<![0-9a-z])[0-9a-f][0-9a-hjkmnp-tv-z]{12}(?![0-9a-z])/g, "<base32>"],
	[/\b[0-9]{15,19}\b/g, "<snowflake>"],
	// A lease's span and the object's clock.
	[/"(from|to|fromMs|toMs|serverNowMs)":[0-9]+/g, '"$1":<varies>'],
	[/"leaseId":"[A-Za-z0-9_-]{32}"/g, '"leaseId":<lease>'],
];

/** A block answer's runs split where the ticks fell: keep only how many IDs they hold. */
function runsTotal(text: string): string {
	return text.replace(/"blocks":(\[[^\]]*\])/g, (_, runs: string) => {
		const counts = [...runs.matchAll(/"count":([0-9]+)/g)].map((m) => Number(m[1]));
		return `"blocks":<runs of ${counts.reduce((a, b) => a + b, 0)} IDs>`;
	});
}

/** Fixed inputs are echoed in answers (the decoded ID, its fields): keep them as sent. */
const KEEP = [
	A_SNOWFLAKE,
	A_ULID,
	A_UUIDV7,
	A_TYPEID,
	"1asd13xh1f800",
	"01h455vb4pex5vsknk084sn02q",
	"0190163d8694739baea5966c26f8ad91",
	"99999999999999999999",
];

function normalized(text: string, asked: Ask): string {
	// Inputs the request sent, and what the fixed inputs decode to, are not generated.
	if (
		asked.path.startsWith("/decode/") ||
		asked.path.startsWith("/range") ||
		asked.path === "/openapi.json"
	) {
		return text;
	}
	let out = text;
	const kept = KEEP.filter((value) => out.includes(value));
	kept.forEach((value, i) => {
		out = out.split(value).join(`\u0000${i}\u0000`);
	});
	out = runsTotal(out);
	for (const [pattern, replacement] of NORMALIZE) out = out.replace(pattern, replacement);
	// The auto routes pick a worker ID at random.
	if (/^\/snowflake(\/blocks)?($|\?)/.test(asked.path) || asked.path === "/leases")
		out = out.replace(/"workerId":\d+/g, '"workerId":<auto>');
	kept.forEach((value, i) => {
		out = out.split(`\u0000${i}\u0000`).join(value);
	});
	return out;
}

/** The answer to `asked`, shown as `shown` (a path without the real leaseId), and its raw body. */
async function answer(
	url: string,
	asked: Ask,
	shown = asked,
): Promise<{ text: string; body: string }> {
	const response = await fetch(`${url}${asked.path}`, {
		method: asked.method ?? "GET",
		headers: asked.headers,
		body: asked.body,
		redirect: "manual",
	});
	const body = await response.text();
	const headers = [...response.headers]
		.filter(([name]) => name !== "date")
		.map(([name, value]) => {
			if (name === "x-request-id") return `${name}: <request-id>`;
			// The static files' ETag is the deployment's hash of them.
			if (name === "etag") return `${name}: <etag>`;
			// Generated IDs differ in length (a Snowflake of 18 or 19 digits): the body says it.
			if (name === "content-length" && normalized(body, asked) !== body) return `${name}: <varies>`;
			return `${name}: ${value}`;
		})
		.sort();
	const request = `${asked.method ?? "GET"} ${shown.path.length > 200 ? `${shown.path.slice(0, 200)}…(${shown.path.length})` : shown.path}${asked.headers ? ` ${JSON.stringify(asked.headers).slice(0, 300)}` : ""}${asked.body !== undefined ? ` body ${JSON.stringify(asked.body.slice(0, 100))}${asked.body.length > 100 ? `…(${asked.body.length})` : ""}` : ""}`;
	const text = [
		`> ${request}`,
		`< ${response.status}`,
		...headers.map((h) => `< ${h}`),
		normalized(body, asked),
	].join("\n");
	return { text, body };
}

/** Every answer of the bundle at `script`, config by config, in order. */
async function answersOf(script: string, wranglerConfig: string): Promise<Map<string, string[]>> {
	const all = new Map<string, string[]>();
	for (const config of CONFIGS) {
		const service = await startBundle(script, wranglerConfig, {
			vars: config.vars,
			rateLimit: config.rateLimit,
			assets: true,
		});
		try {
			const answers: string[] = [];
			let lease = NO_LEASE;
			for (const ask of config.asks) {
				const asked = {
					...ask,
					path: ask.path.replace(LAST_LEASE, lease),
					...(ask.body === undefined ? {} : { body: ask.body.replace(LAST_LEASE, lease) }),
				};
				const { text, body } = await answer(service.url, asked, ask);
				lease = /"leaseId":"([A-Za-z0-9_-]{32})"/.exec(body)?.[1] ?? lease;
				answers.push(text);
			}
			if (config.fromDocument) {
				const document = (await (
					await fetch(`${service.url}/openapi.json`)
				).json()) as OpenApiDocument;
				for (const asked of documentAsks(document)) {
					answers.push((await answer(service.url, asked)).text);
				}
			}
			all.set(config.name, answers);
		} finally {
			await service.stop();
		}
	}
	return all;
}

const base = buildRevisionBundle(values.base);
try {
	const head = buildBundle(".build/compare/head");
	const before = await answersOf(base.script, base.config);
	const after = await answersOf(head, "wrangler.toml");
	if (values.write) {
		writeFileSync(
			values.write,
			[...after].map(([name, answers]) => `### ${name}\n${answers.join("\n\n")}`).join("\n\n"),
		);
	}
	let compared = 0;
	let differing = 0;
	for (const [name, answers] of after) {
		const old = before.get(name) ?? [];
		for (const [i, now] of answers.entries()) {
			compared++;
			if (old[i] === now) continue;
			differing++;
			console.log(
				`--- ${values.base}, config ${name}\n${old[i] ?? "(no such request)"}\n+++ this tree\n${now}\n`,
			);
		}
		if (old.length !== answers.length) {
			differing++;
			console.log(
				`config ${name}: ${old.length} answers on ${values.base}, ${answers.length} here`,
			);
		}
	}
	console.log(
		`${compared} answers in ${CONFIGS.length} configs compared with ${values.base}: ${differing === 0 ? "all identical" : `${differing} differ`}`,
	);
	process.exitCode = differing === 0 ? 0 : 1;
} finally {
	base.cleanup();
}
