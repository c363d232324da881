/**
 * The playground at `/`: one self-contained HTML page (no build step, no external
 * assets, works offline) that generates IDs, decodes any ID into its fields and
 * bits, and shows the active Snowflake layout. Its one inline script calls the
 * service's own routes; a per-response nonce lets that script (and the inline
 * styles) run under a strict Content-Security-Policy.
 */
import { Hono } from "hono";
import { raw } from "hono/html";
import type { AppEnv } from "../app-env";

/** The most IDs the page asks for at once (the API allows up to MAX_BATCH). */
const MAX_SHOWN = 1000;

const EXAMPLES = [
	{ label: "Snowflake", id: "910499571847892992" },
	{ label: "ULID", id: "01ARYZ6S41TSV4RRFFQ69G5FAV" },
	{ label: "UUIDv7", id: "017f22e2-79b0-7cc3-98c4-dc0c0c07398f" },
];

export const pageRoutes = new Hono<AppEnv>().get("/", (c) => {
	const nonce = newNonce();
	return c.html(`<!DOCTYPE html>${renderPage(nonce)}`, 200, {
		"Content-Type": "text/html; charset=utf-8",
		"Content-Security-Policy": contentSecurityPolicy(nonce),
		// The nonce is per response, so the page must never be served from a cache.
		"Cache-Control": "no-store",
		"X-Content-Type-Options": "nosniff",
		"Referrer-Policy": "no-referrer",
	});
});

function newNonce(): string {
	const bytes = crypto.getRandomValues(new Uint8Array(18));
	return btoa(String.fromCharCode(...bytes));
}

export function contentSecurityPolicy(nonce: string): string {
	return [
		"default-src 'self'",
		`script-src 'nonce-${nonce}'`,
		`style-src 'nonce-${nonce}'`,
		"img-src 'self' data:",
		"connect-src 'self'",
		"object-src 'none'",
		"base-uri 'none'",
		"form-action 'self'",
		"frame-ancestors 'none'",
	].join("; ");
}

function renderPage(nonce: string): string {
	return String(<Page nonce={nonce} />);
}

function Page({ nonce }: { nonce: string }) {
	return (
		<html lang="en">
			<head>
				<meta charset="utf-8" />
				<meta name="viewport" content="width=device-width, initial-scale=1" />
				<meta name="color-scheme" content="light dark" />
				<title>edge-ids playground</title>
				<link rel="icon" href="data:," />
				<style nonce={nonce}>{raw(STYLE)}</style>
			</head>
			<body>
				<header class="wrap">
					<h1>
						edge-ids <span class="subtle">playground</span>
					</h1>
					<p class="lead">
						Generate Snowflake, ULID and UUIDv7 IDs from this service, and see what any ID's bits
						say.
					</p>
				</header>
				<main class="wrap grid">
					<section id="auth" class="card auth" aria-labelledby="auth-title" hidden>
						<h2 id="auth-title">Authorization</h2>
						<p id="auth-message" />
						<form id="auth-form" class="row" autocomplete="off" novalidate>
							<div class="field grow">
								<label for="token">API token</label>
								<input
									id="token"
									name="token"
									type="password"
									autocomplete="off"
									spellcheck={false}
								/>
							</div>
							<button type="submit">Use token</button>
						</form>
						<div id="auth-saved" class="row" hidden>
							<p class="grow">Using the API token saved in this browser tab.</p>
							<button type="button" id="forget-token" class="secondary">
								Forget token
							</button>
						</div>
					</section>

					<section id="generate" class="card" aria-labelledby="gen-title">
						<h2 id="gen-title">Generate</h2>
						<form id="gen-form" novalidate>
							<fieldset class="kinds">
								<legend>Kind</legend>
								<label>
									<input type="radio" name="kind" value="snowflake" checked /> Snowflake
								</label>
								<label>
									<input type="radio" name="kind" value="ulid" /> ULID
								</label>
								<label>
									<input type="radio" name="kind" value="uuidv7" /> UUIDv7
								</label>
							</fieldset>
							<div class="row top">
								<div class="field" id="worker-field">
									<label for="worker-id">Worker ID</label>
									<input
										id="worker-id"
										name="workerId"
										type="text"
										inputmode="numeric"
										placeholder="auto"
										autocomplete="off"
										aria-describedby="worker-hint"
									/>
									<p id="worker-hint" class="hint">
										Blank: the service picks one.
									</p>
								</div>
								<div class="field">
									<label for="count">Count</label>
									<input
										id="count"
										name="count"
										type="number"
										inputmode="numeric"
										min="1"
										max={String(MAX_SHOWN)}
										value="5"
										aria-describedby="count-hint"
									/>
									<p id="count-hint" class="hint">
										1 to {MAX_SHOWN}.
									</p>
								</div>
							</div>
							<div class="row">
								<button type="submit" id="gen-button">
									Generate
								</button>
								<button type="button" id="copy-all" class="secondary" hidden>
									Copy all
								</button>
							</div>
						</form>
						<p id="gen-status" class="status" role="status" aria-live="polite" />
						<div id="gen-output" />
						<ol id="ids" class="ids" aria-label="Generated IDs" />
					</section>

					<section id="decode" class="card" aria-labelledby="dec-title">
						<h2 id="dec-title">Decode</h2>
						<form id="decode-form" class="row" novalidate>
							<div class="field grow">
								<label for="decode-input">Snowflake, ULID or UUID</label>
								<input
									id="decode-input"
									name="id"
									type="text"
									autocomplete="off"
									autocapitalize="off"
									spellcheck={false}
									placeholder="910499571847892992"
									aria-describedby="examples"
								/>
							</div>
							<button type="submit" id="decode-button">
								Decode
							</button>
						</form>
						<p id="examples" class="hint examples">
							Examples:{" "}
							{EXAMPLES.map((example) => (
								<button type="button" class="link example" data-id={example.id}>
									{example.label}
								</button>
							))}
						</p>
						<p id="decode-status" class="status" role="status" aria-live="polite" />
						<div id="decode-output" />
					</section>

					<section id="layout" class="card" aria-labelledby="layout-title">
						<h2 id="layout-title">Active Snowflake layout</h2>
						<div id="layout-output">
							<p class="subtle">Loading…</p>
						</div>
					</section>
				</main>
				<footer class="wrap subtle">
					<p>
						The API behind this page: <code>/layout</code>, <code>/snowflake/:workerId</code>,{" "}
						<code>/snowflake</code>, <code>/ulid</code>, <code>/uuidv7</code>,{" "}
						<code>/decode/:id</code>, <code>/health</code>.
					</p>
				</footer>
				<script nonce={nonce}>{raw(SCRIPT)}</script>
			</body>
		</html>
	);
}

const STYLE = /* css */ `
:root {
	color-scheme: light dark;
	--bg: #f6f7f9; --fg: #111827; --subtle: #4b5563; --card: #ffffff; --border: #d1d5db;
	--accent: #1d4ed8; --accent-hover: #1e40af; --accent-soft: #dbeafe; --focus: #2563eb;
	--code-bg: #eef1f5; --error-bg: #fef2f2; --error-fg: #991b1b; --error-border: #f87171;
	--bit-fg: #111827; --bit-zero: #374151;
	--sign: #cbd5e1; --time: #bfdbfe; --worker: #fde68a; --datacenter: #fdba74; --machine: #fef08a;
	--sequence: #bbf7d0; --random: #e9d5ff; --version: #fecaca; --variant: #fbcfe8;
	--counter: #a5f3fc; --other: #e5e7eb;
	--mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
}
@media (prefers-color-scheme: dark) {
	:root {
		--bg: #0b1020; --fg: #e5e7eb; --subtle: #9ca3af; --card: #131a2a; --border: #374151;
		--accent: #2563eb; --accent-hover: #1d4ed8; --accent-soft: #1e3a8a; --focus: #93c5fd;
		--code-bg: #1f2937; --error-bg: #3b0d0d; --error-fg: #fecaca; --error-border: #b91c1c;
	}
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body {
	margin: 0; background: var(--bg); color: var(--fg);
	font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif;
}
.wrap { max-width: 76rem; margin: 0 auto; padding: 0 1rem; }
header.wrap { padding-top: 1.25rem; }
h1 { font-size: 1.6rem; margin: 0; line-height: 1.2; }
h2 { font-size: 1.2rem; margin: 0 0 .75rem; }
h3 { font-size: 1.05rem; margin: 1.25rem 0 .5rem; }
p { margin: .5rem 0; }
.lead { margin: .25rem 0 1rem; color: var(--subtle); }
.subtle { color: var(--subtle); font-weight: 400; }
code, .mono { font-family: var(--mono); font-size: .92em; }
code { background: var(--code-bg); padding: .05rem .3rem; border-radius: .25rem; }
.grid { display: grid; gap: 1rem; grid-template-columns: minmax(0, 1fr); align-items: start; }
@media (min-width: 60rem) {
	.grid {
		grid-template-columns: minmax(0, 5fr) minmax(0, 7fr);
		grid-template-areas: "auth auth" "gen dec" "lay dec";
		grid-template-rows: auto auto 1fr;
	}
	#auth { grid-area: auth; }
	#generate { grid-area: gen; }
	#decode { grid-area: dec; }
	#layout { grid-area: lay; }
}
.card {
	background: var(--card); border: 1px solid var(--border); border-radius: .75rem;
	padding: 1rem 1.25rem 1.25rem; min-width: 0;
}
.auth { border-color: var(--accent); }
[hidden] { display: none !important; }
.row { display: flex; flex-wrap: wrap; gap: .75rem; align-items: flex-end; margin: .75rem 0 0; }
.row.top { align-items: flex-start; }
.field { flex: 1 1 9rem; min-width: 0; }
.grow { flex: 1 1 14rem; margin: 0; }
label { display: block; font-weight: 600; margin-bottom: .25rem; }
.hint { font-size: .875rem; color: var(--subtle); margin: .25rem 0 0; }
input[type="text"], input[type="number"], input[type="password"] {
	font: inherit; width: 100%; min-height: 2.75rem; padding: .45rem .65rem;
	color: var(--fg); background: var(--card); border: 1px solid var(--subtle); border-radius: .4rem;
}
#decode-input { font-family: var(--mono); }
input:disabled { opacity: .55; cursor: not-allowed; }
button {
	font: inherit; font-weight: 600; min-height: 2.75rem; padding: .45rem 1.1rem; cursor: pointer;
	color: #fff; background: var(--accent); border: 1px solid var(--accent); border-radius: .4rem;
}
button:hover { background: var(--accent-hover); }
button:disabled { opacity: .6; cursor: progress; }
button.secondary { color: var(--accent); background: transparent; }
button.secondary:hover { background: var(--accent-soft); }
@media (prefers-color-scheme: dark) { button.secondary { color: #93c5fd; border-color: #93c5fd; } }
button.link {
	min-height: 2rem; padding: .1rem .5rem; font-weight: 500; color: var(--accent);
	background: transparent; border: 0; text-decoration: underline;
}
@media (prefers-color-scheme: dark) { button.link { color: #93c5fd; } }
button.link:hover { background: var(--accent-soft); }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
input:focus-visible { outline-offset: 0; }
fieldset.kinds { border: 0; padding: 0; margin: 0; display: flex; flex-wrap: wrap; gap: .5rem; }
fieldset.kinds legend { font-weight: 600; padding: 0; margin-bottom: .25rem; }
fieldset.kinds label {
	display: inline-flex; align-items: center; gap: .45rem; margin: 0; font-weight: 500;
	min-height: 2.75rem; padding: .3rem .9rem .3rem .7rem; cursor: pointer;
	border: 1px solid var(--border); border-radius: 999px;
}
fieldset.kinds label:has(input:checked) { border-color: var(--accent); background: var(--accent-soft); font-weight: 600; }
fieldset.kinds input { margin: 0; width: 1.05rem; height: 1.05rem; accent-color: var(--accent); }
.status { min-height: 1.5em; margin: .75rem 0 .25rem; }
.status:empty { min-height: 0; margin: 0; }
.ids {
	list-style: none; margin: .25rem 0 0; padding: 0; max-height: 26rem; overflow: auto;
	border: 1px solid var(--border); border-radius: .5rem;
}
.ids:empty { display: none; }
.ids li { display: flex; align-items: center; gap: .25rem; padding: .15rem .35rem; }
.ids li + li { border-top: 1px solid var(--border); }
.ids .id {
	flex: 1 1 auto; min-width: 0; min-height: 2.5rem; padding: .3rem .5rem; text-align: left;
	font-family: var(--mono); font-weight: 400; font-size: .95rem; overflow-wrap: anywhere;
	color: var(--fg); background: transparent; border: 0;
}
.ids .id:hover { background: var(--code-bg); text-decoration: underline; }
.ids .copy, .copy-inline { min-height: 2.25rem; padding: .2rem .7rem; font-size: .875rem; flex: none; }
.error {
	margin: .75rem 0; padding: .75rem 1rem; border-radius: .5rem;
	color: var(--error-fg); background: var(--error-bg); border: 1px solid var(--error-border);
}
.error p { margin: .25rem 0 0; }
.error .code { font-family: var(--mono); font-size: .85em; }
.result-head { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem .75rem; margin: .25rem 0 .5rem; }
.badge {
	display: inline-block; padding: .1rem .65rem; border-radius: 999px; font-weight: 700;
	background: var(--accent-soft); border: 1px solid var(--accent);
}
.result-head .mono { overflow-wrap: anywhere; min-width: 0; }
dl.fields { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: .3rem 1rem; margin: .5rem 0; }
dl.fields dt { color: var(--subtle); }
dl.fields dd { margin: 0; font-family: var(--mono); overflow-wrap: anywhere; }
dl.fields .rel { font-family: system-ui, sans-serif; color: var(--subtle); }
.bits {
	display: grid; grid-template-columns: repeat(32, minmax(0, 1fr)); gap: 2px;
	margin: .5rem 0 .25rem; font-family: var(--mono); font-size: .78rem;
}
@media (max-width: 36rem) { .bits { grid-template-columns: repeat(16, minmax(0, 1fr)); } }
.bit {
	text-align: center; line-height: 1.75rem; border-radius: 3px;
	color: var(--bit-zero); background: var(--other);
}
.bit.one { color: var(--bit-fg); font-weight: 700; }
.bit.start { box-shadow: inset 3px 0 0 rgba(17, 24, 39, .75); }
.bits-caption { font-size: .85rem; color: var(--subtle); margin: 0 0 .75rem; }
.f-sign { background: var(--sign); } .f-time { background: var(--time); }
.f-worker { background: var(--worker); } .f-datacenter { background: var(--datacenter); }
.f-machine { background: var(--machine); } .f-sequence { background: var(--sequence); }
.f-random { background: var(--random); } .f-version { background: var(--version); }
.f-variant { background: var(--variant); } .f-counter { background: var(--counter); }
.f-other { background: var(--other); }
.swatch.f-worker.split { background: linear-gradient(90deg, var(--datacenter) 50%, var(--machine) 50%); }
.table-wrap { overflow-x: auto; }
table.segments { width: 100%; border-collapse: collapse; font-size: .9rem; }
table.segments th, table.segments td { text-align: left; vertical-align: top; padding: .4rem .5rem; border-top: 1px solid var(--border); }
table.segments thead th { border-top: 0; color: var(--subtle); font-weight: 600; }
table.segments tbody th { font-weight: 600; white-space: nowrap; }
table.segments tr.sub th { padding-left: 1.6rem; font-weight: 500; }
table.segments .range { display: block; font-weight: 400; color: var(--subtle); font-size: .8rem; }
table.segments td.bin { font-family: var(--mono); font-size: .8rem; word-break: break-all; min-width: 6rem; }
table.segments .val { font-family: var(--mono); overflow-wrap: anywhere; }
table.segments .note { display: block; font-family: system-ui, sans-serif; color: var(--subtle); font-size: .8rem; }
.swatch {
	display: inline-block; width: .9rem; height: .9rem; margin-right: .45rem; vertical-align: -.1rem;
	border-radius: 3px; border: 1px solid rgba(17, 24, 39, .35);
}
dl.layout { display: grid; grid-template-columns: repeat(auto-fit, minmax(13rem, 1fr)); gap: .75rem 1.25rem; margin: 0; }
dl.layout dt { color: var(--subtle); font-size: .875rem; }
dl.layout dd { margin: 0; font-weight: 600; overflow-wrap: anywhere; }
dl.layout dd .mono { font-weight: 600; }
dl.layout .rel { display: block; font-weight: 400; color: var(--subtle); font-size: .875rem; }
footer.wrap { padding-top: .5rem; padding-bottom: 2rem; font-size: .875rem; }
.offscreen { position: fixed; left: -9999px; top: 0; opacity: 0; }
@media (max-width: 36rem) {
	.card { padding: .85rem .85rem 1rem; border-radius: .6rem; }
	.wrap { padding: 0 .6rem; }
	table.segments th, table.segments td { padding: .35rem .3rem; }
	/* The strip above shows the bits; at phone width the table keeps field and value. */
	table.segments .bin { display: none; }
	dl.fields { grid-template-columns: minmax(0, 1fr); gap: 0; }
	dl.fields dt { margin-top: .4rem; font-size: .875rem; }
	fieldset.kinds { gap: .4rem; }
	fieldset.kinds label { padding: .3rem .7rem .3rem .55rem; gap: .35rem; }
}
@media (prefers-reduced-motion: no-preference) { html { scroll-behavior: smooth; } }
`;

/**
 * The page's only script. Plain JavaScript, no template literals (this is one),
 * and it builds every element with textContent: nothing from the API or the
 * user is ever parsed as HTML.
 */
const SCRIPT = String.raw`
(() => {
"use strict";
const MAX_SHOWN = ${MAX_SHOWN};
const TOKEN_KEY = "edge-ids.apiToken";
const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const KIND_NAMES = { snowflake: "Snowflake", ulid: "ULID", uuidv7: "UUIDv7", uuid: "UUID" };
const $ = (id) => document.getElementById(id);

function el(tag, attrs, children) {
	const node = document.createElement(tag);
	for (const key in attrs || {}) {
		const value = attrs[key];
		if (value === null || value === undefined || value === false) continue;
		if (key === "class") node.className = value;
		else if (key === "text") node.textContent = value;
		else node.setAttribute(key, value === true ? "" : String(value));
	}
	for (const child of [].concat(children === undefined ? [] : children)) {
		if (child !== null && child !== undefined) node.append(child);
	}
	return node;
}

// ---- time ----------------------------------------------------------------
const rtf = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
const UNITS = [
	["year", 31557600000], ["month", 2629800000], ["week", 604800000], ["day", 86400000],
	["hour", 3600000], ["minute", 60000], ["second", 1000],
];
function relative(ms) {
	const diff = ms - Date.now();
	for (const [unit, size] of UNITS) {
		if (Math.abs(diff) >= size || unit === "second") return rtf.format(Math.trunc(diff / size), unit);
	}
}
function iso(ms) {
	const date = new Date(ms);
	return Number.isNaN(date.getTime()) ? "(out of range)" : date.toISOString();
}

// ---- the API -------------------------------------------------------------
let memoryToken = "";
function getToken() {
	try { return sessionStorage.getItem(TOKEN_KEY) || ""; } catch { return memoryToken; }
}
function setToken(token) {
	memoryToken = token;
	try {
		if (token) sessionStorage.setItem(TOKEN_KEY, token);
		else sessionStorage.removeItem(TOKEN_KEY);
	} catch {}
}

class ApiError extends Error {
	constructor(status, code, message) {
		super(message);
		this.status = status;
		this.code = code;
	}
}

async function api(path, method) {
	const headers = { Accept: "application/json" };
	const token = getToken();
	if (token) headers.Authorization = "Bearer " + token;
	let response;
	try {
		response = await fetch(path, { method: method || "GET", headers, cache: "no-store" });
	} catch (error) {
		throw new ApiError(0, "network_error", "could not reach the service (" + ((error && error.message) || error) + ")");
	}
	const text = await response.text();
	let body = null;
	try { body = text ? JSON.parse(text) : null; } catch {}
	if (!response.ok) {
		const info = body && typeof body === "object" && body.error ? body.error : {};
		const error = new ApiError(
			response.status,
			typeof info.code === "string" ? info.code : "http_" + response.status,
			typeof info.message === "string" ? info.message : text.slice(0, 300) || response.statusText || "the request failed",
		);
		if (response.status === 401) askForToken(token);
		throw error;
	}
	if (token) tokenAccepted();
	if (!body || typeof body !== "object") {
		throw new ApiError(response.status, "bad_response", "the service answered something other than JSON");
	}
	return body;
}

function sentence(text) {
	const s = String(text).trim();
	return s.charAt(0).toUpperCase() + s.slice(1) + (/[.!?]$/.test(s) ? "" : ".");
}
function errorBox(error) {
	const box = el("div", { class: "error", role: "alert" });
	if (error instanceof ApiError) {
		const title = error.code.replace(/_/g, " ");
		box.append(
			el("strong", { text: title.charAt(0).toUpperCase() + title.slice(1) }),
			" ",
			el("span", { class: "code", text: "(" + error.code + (error.status ? ", HTTP " + error.status : "") + ")" }),
			el("p", { text: sentence(error.message) }),
		);
		if (error.status === 401) box.append(el("p", { text: "Enter the API token above, then try again." }));
	} else {
		box.append(el("strong", { text: "Something went wrong" }), el("p", { text: sentence((error && error.message) || error) }));
	}
	return box;
}

// ---- the API token (only when the service has API_TOKEN set) -------------
const auth = $("auth");
const authForm = $("auth-form");
const authInput = $("token");
const authMessage = $("auth-message");
const authSaved = $("auth-saved");

function askForToken(rejected) {
	const wasHidden = auth.hidden || authForm.hidden;
	auth.hidden = false;
	authForm.hidden = false;
	authSaved.hidden = true;
	authMessage.textContent = rejected
		? "The service did not accept the saved API token. Enter the right one."
		: "This service's API needs a token (the page itself is public). It is kept only in this browser tab, in sessionStorage.";
	if (rejected) setToken("");
	if (wasHidden) authInput.focus();
}
function tokenAccepted() {
	if (!authForm.hidden || auth.hidden) {
		auth.hidden = false;
		authForm.hidden = true;
		authSaved.hidden = false;
		authMessage.textContent = "";
	}
}
authForm.addEventListener("submit", (event) => {
	event.preventDefault();
	const token = authInput.value.trim();
	if (!token) {
		authMessage.textContent = "Enter the token first.";
		authInput.focus();
		return;
	}
	setToken(token);
	authInput.value = "";
	authMessage.textContent = "Checking the token…";
	loadLayout();
});
$("forget-token").addEventListener("click", () => {
	setToken("");
	auth.hidden = true;
	layout = null;
	loadLayout();
});

// ---- layout --------------------------------------------------------------
const layoutOut = $("layout-output");
let layout = null;
let layoutLoading = null;

function getLayout() {
	if (layout) return Promise.resolve(layout);
	if (!layoutLoading) {
		layoutLoading = api("/layout").then(
			(value) => {
				layout = value;
				renderLayout(value);
				return value;
			},
			(error) => {
				layoutOut.replaceChildren(errorBox(error));
				throw error;
			},
		);
		layoutLoading.then(() => { layoutLoading = null; }, () => { layoutLoading = null; });
	}
	return layoutLoading;
}
function loadLayout() {
	getLayout().catch(() => {});
}

function renderLayout(l) {
	const exhausts = Date.parse(l.exhaustsAt);
	const used = Math.min(100, Math.max(0, ((Date.now() - l.epoch) / (exhausts - l.epoch)) * 100));
	const item = (term, value, extra) => el("div", null, [el("dt", { text: term }), el("dd", null, [value, extra ? el("span", { class: "rel", text: extra }) : null])]);
	const split = l.workerBits === 10 ? " (datacenter 0–31 × machine 0–31)" : "";
	layoutOut.replaceChildren(
		el("dl", { class: "layout" }, [
			item("Bits", "1 sign + " + l.timeBits + " time + " + l.workerBits + " worker + " + l.sequenceBits + " sequence"),
			item("Epoch", el("span", { class: "mono", text: iso(l.epoch) }), l.epoch + " ms since 1970"),
			item("Tick", l.timeUnitMs + " ms"),
			item("Worker IDs", "0–" + l.maxWorkerId + split),
			item("IDs per tick per worker", String(l.maxSequence + 1)),
			item("Exhausts at", el("span", { class: "mono", "data-field": "exhaustsAt", text: l.exhaustsAt }), relative(exhausts) + " · " + used.toFixed(1) + "% of its time range used"),
		]),
	);
	$("worker-hint").textContent = "0–" + l.maxWorkerId + ", or blank: the service picks one.";
}

// ---- generate ------------------------------------------------------------
const genForm = $("gen-form");
const genButton = $("gen-button");
const genStatus = $("gen-status");
const genOutput = $("gen-output");
const idList = $("ids");
const copyAll = $("copy-all");
const workerInput = $("worker-id");
const countInput = $("count");

function selectedKind() {
	return genForm.elements.kind.value;
}
function syncKind() {
	const snowflake = selectedKind() === "snowflake";
	workerInput.disabled = !snowflake;
	$("worker-field").classList.toggle("subtle", !snowflake);
}
for (const radio of genForm.elements.kind) radio.addEventListener("change", syncKind);
syncKind();

genForm.addEventListener("submit", async (event) => {
	event.preventDefault();
	const kind = selectedKind();
	const count = countInput.value.trim();
	genOutput.replaceChildren();
	if (!/^[0-9]+$/.test(count) || Number(count) < 1 || Number(count) > MAX_SHOWN) {
		genStatus.textContent = "";
		genOutput.replaceChildren(errorBox(new ApiError(0, "invalid_count", "count must be a whole number from 1 to " + MAX_SHOWN + " on this page")));
		countInput.focus();
		return;
	}
	let path = "/" + kind;
	if (kind === "snowflake") {
		const workerId = workerInput.value.trim();
		if (workerId) path += "/" + encodeURIComponent(workerId);
	}
	path += "?count=" + Number(count);
	genButton.disabled = true;
	genStatus.textContent = "Generating…";
	try {
		const body = await api(path, "POST");
		showIds(kind, body);
	} catch (error) {
		genStatus.textContent = "";
		genOutput.replaceChildren(errorBox(error));
	} finally {
		genButton.disabled = false;
	}
});

function showIds(kind, body) {
	const ids = (Array.isArray(body.ids) ? body.ids : []).slice(0, MAX_SHOWN);
	idList.replaceChildren(
		...ids.map((id) =>
			el("li", null, [
				el("button", { type: "button", class: "id", "data-id": id, title: "Decode this ID", text: id }),
				el("button", { type: "button", class: "secondary copy", "data-copy": id, "aria-label": "Copy " + id, text: "Copy" }),
			]),
		),
	);
	copyAll.hidden = ids.length < 2;
	genStatus.textContent =
		ids.length + " " + KIND_NAMES[kind] + (ids.length === 1 ? " ID" : " IDs") +
		(kind === "snowflake" ? " from worker ID " + body.workerId : "") +
		". Select one to decode it.";
}

idList.addEventListener("click", (event) => {
	const target = event.target.closest("button");
	if (!target) return;
	if (target.dataset.copy !== undefined) copyWithFeedback(target, target.dataset.copy, "ID");
	else if (target.dataset.id !== undefined) {
		decodeInput.value = target.dataset.id;
		decode(target.dataset.id, true);
	}
});
copyAll.addEventListener("click", () => {
	const ids = Array.from(idList.querySelectorAll("button.id"), (button) => button.dataset.id);
	copyWithFeedback(copyAll, ids.join("\n"), ids.length + " IDs");
});

// ---- copy ----------------------------------------------------------------
async function copyText(text) {
	if (navigator.clipboard && window.isSecureContext) {
		try {
			await navigator.clipboard.writeText(text);
			return true;
		} catch {}
	}
	const focused = document.activeElement;
	const area = el("textarea", { class: "offscreen", readonly: true, "aria-hidden": "true", tabindex: "-1" });
	area.value = text;
	document.body.append(area);
	area.select();
	let ok = false;
	try { ok = document.execCommand("copy"); } catch {}
	area.remove();
	if (focused && focused.focus) focused.focus();
	return ok;
}
async function copyWithFeedback(button, text, what) {
	const ok = await copyText(text);
	if (!button.dataset.label) button.dataset.label = button.textContent;
	if (ok) {
		button.textContent = "Copied";
		clearTimeout(button.copiedTimer);
		button.copiedTimer = setTimeout(() => { button.textContent = button.dataset.label; }, 1500);
	}
	genStatus.textContent = ok ? "Copied " + what + " to the clipboard." : "Could not copy: select the text and copy it by hand.";
}

// ---- decode --------------------------------------------------------------
const decodeForm = $("decode-form");
const decodeInput = $("decode-input");
const decodeButton = $("decode-button");
const decodeStatus = $("decode-status");
const decodeOut = $("decode-output");
const decodeSection = $("decode");
let decodeRun = 0;

decodeForm.addEventListener("submit", (event) => {
	event.preventDefault();
	decode(decodeInput.value, false);
});
for (const button of document.querySelectorAll("button.example")) {
	button.addEventListener("click", () => {
		decodeInput.value = button.dataset.id;
		decode(button.dataset.id, false);
	});
}

async function decode(rawText, reveal) {
	const text = String(rawText).trim();
	const run = ++decodeRun;
	if (!text) {
		decodeStatus.textContent = "";
		decodeOut.replaceChildren(errorBox(new ApiError(0, "empty_id", "paste a Snowflake, ULID or UUID first")));
		decodeInput.focus();
		return;
	}
	decodeButton.disabled = true;
	decodeStatus.textContent = "Decoding…";
	try {
		const decoded = await api("/decode/" + encodeURIComponent(text));
		const l = decoded.type === "snowflake" ? await getLayout() : layout;
		if (run !== decodeRun) return;
		decodeOut.replaceChildren(renderDecoded(decoded, l));
		decodeStatus.textContent =
			"Decoded a " + kindName(decoded) + (decoded.time ? " from " + relative(decoded.timestamp) : "") + ".";
		if (reveal) {
			const top = decodeSection.getBoundingClientRect().top;
			if (top < 0 || top > window.innerHeight - 80) decodeSection.scrollIntoView({ block: "start" });
		}
	} catch (error) {
		if (run !== decodeRun) return;
		decodeStatus.textContent = "";
		decodeOut.replaceChildren(errorBox(error));
	} finally {
		if (run === decodeRun) decodeButton.disabled = false;
	}
}

function kindName(decoded) {
	return decoded.type === "uuid" ? "UUID (version " + decoded.version + ")" : KIND_NAMES[decoded.type] || decoded.type;
}

const FIELD_LABELS = [
	["timestamp", "Timestamp (Unix ms)"], ["workerId", "Worker ID"], ["datacenterId", "Datacenter ID"],
	["machineId", "Machine ID"], ["sequence", "Sequence"], ["randomness", "Randomness (hex)"],
	["version", "Version"], ["uuid", "Same bits as UUID"], ["ulid", "Same bits as ULID"],
];

function renderDecoded(d, l) {
	const rows = [el("dt", { text: "Kind" }), el("dd", { "data-field": "type", text: kindName(d) })];
	if (d.time) {
		rows.push(el("dt", { text: "Time" }), el("dd", { "data-field": "time" }, [d.time, " ", el("span", { class: "rel", text: "(" + relative(d.timestamp) + ")" })]));
	}
	const known = new Set(["type", "id", "time"]);
	for (const [key, label] of FIELD_LABELS) {
		known.add(key);
		if (d[key] !== undefined) rows.push(el("dt", { text: label }), el("dd", { "data-field": key, text: String(d[key]) }));
	}
	for (const key of Object.keys(d)) {
		if (!known.has(key)) rows.push(el("dt", { text: key }), el("dd", { "data-field": key, text: JSON.stringify(d[key]) }));
	}
	const parts = [
		el("div", { class: "result-head" }, [
			el("span", { class: "badge", text: kindName(d) }),
			el("span", { class: "mono", id: "decoded-id", text: d.id }),
			el("button", { type: "button", class: "secondary copy-inline", "aria-label": "Copy " + d.id, text: "Copy" }),
		]),
		el("dl", { class: "fields" }, rows),
	];
	parts[0].lastChild.addEventListener("click", (event) => copyDecoded(event.currentTarget, d.id));
	if (d.type !== "snowflake" || l) parts.push(...bitDiagram(d, l));
	return el("div", { class: "result" }, parts);
}
async function copyDecoded(button, id) {
	const ok = await copyText(id);
	decodeStatus.textContent = ok ? "Copied the ID to the clipboard." : "Could not copy: select the ID and copy it by hand.";
	if (ok) {
		button.textContent = "Copied";
		setTimeout(() => { button.textContent = "Copy"; }, 1500);
	}
}

// ---- bits ----------------------------------------------------------------
function valueOf(d) {
	if (d.type === "snowflake") return { width: 64, value: BigInt(d.id) };
	if (d.type === "ulid") {
		let value = 0n;
		for (const ch of d.id.toUpperCase()) value = (value << 5n) | BigInt(CROCKFORD.indexOf(ch));
		return { width: 128, value };
	}
	return { width: 128, value: BigInt("0x" + d.id.replace(/-/g, "")) };
}

function fieldsOf(d, l) {
	const msNote = (v) => "ms since 1970 → " + iso(Number(v));
	if (d.type === "snowflake") {
		const s = l.sequenceBits;
		const w = l.workerBits;
		const fields = [
			{ key: "sign", name: "Sign", ranges: [[63, 63]], note: () => "always 0" },
			{
				key: "time", name: "Time", ranges: [[62, s + w]],
				note: (v) => {
					const ms = l.epoch + Number(v) * l.timeUnitMs;
					return (l.timeUnitMs === 1 ? "epoch + this" : "epoch + this × " + l.timeUnitMs + " ms") + " = " + ms + " ms → " + iso(ms);
				},
			},
		];
		if (w > 0) {
			const split = w === 10;
			fields.push({ key: "worker", name: "Worker ID", ranges: [[s + w - 1, s]], split });
			if (split) {
				fields.push(
					{ key: "datacenter", name: "Datacenter", ranges: [[s + 9, s + 5]], sub: true },
					{ key: "machine", name: "Machine", ranges: [[s + 4, s]], sub: true },
				);
			}
		}
		fields.push({ key: "sequence", name: "Sequence", ranges: [[s - 1, 0]] });
		return fields;
	}
	if (d.type === "ulid") {
		return [
			{ key: "time", name: "Time", ranges: [[127, 80]], note: msNote },
			{ key: "random", name: "Randomness", ranges: [[79, 0]], hex: true },
		];
	}
	const version = { key: "version", name: "Version", ranges: [[79, 76]] };
	const variant = {
		key: "variant", name: "Variant", ranges: [[63, 62]],
		note: (v) => (v === 2n ? "binary 10: RFC 9562" : "not the RFC 9562 variant"),
	};
	if (d.type === "uuidv7") {
		return [
			{ key: "time", name: "Time", ranges: [[127, 80]], note: msNote },
			version,
			{ key: "counter", name: "Counter", ranges: [[75, 64], [61, 32]], note: () => "rand_a (12 bits) + top 30 bits of rand_b" },
			variant,
			{ key: "random", name: "Random", ranges: [[31, 0]], hex: true },
		];
	}
	return [
		{ key: "other", name: "Other bits", ranges: [[127, 80], [75, 64], [61, 0]], hex: true },
		version,
		variant,
	];
}

function bitAt(value, i) {
	return (value >> BigInt(i)) & 1n;
}
function fieldValue(value, ranges) {
	let result = 0n;
	for (const [hi, lo] of ranges) {
		const n = BigInt(hi - lo + 1);
		result = (result << n) | ((value >> BigInt(lo)) & ((1n << n) - 1n));
	}
	return result;
}
function widthOf(ranges) {
	return ranges.reduce((sum, [hi, lo]) => sum + hi - lo + 1, 0);
}
function binary(value, ranges) {
	return ranges.map(([hi, lo]) => {
		let s = "";
		for (let i = hi; i >= lo; i--) s += bitAt(value, i) ? "1" : "0";
		return s;
	}).join(" ");
}

function bitDiagram(d, l) {
	const { width, value } = valueOf(d);
	const fields = fieldsOf(d, l);
	const owner = new Array(width).fill(null);
	for (const field of fields) {
		for (const [hi, lo] of field.ranges) for (let i = lo; i <= hi; i++) owner[i] = field;
	}
	const cells = [];
	let previous;
	for (let i = width - 1; i >= 0; i--) {
		const field = owner[i];
		const one = bitAt(value, i) === 1n;
		cells.push(el("span", {
			class: "bit f-" + (field ? field.key : "other") + (one ? " one" : "") + (field !== previous ? " start" : ""),
			title: "bit " + i + (field ? " · " + field.name : ""),
			"data-bit": i,
			text: one ? "1" : "0",
		}));
		previous = field;
	}
	const summary = fields.filter((f) => !f.split).map((f) => f.name + " " + widthOf(f.ranges) + (widthOf(f.ranges) === 1 ? " bit" : " bits")).join(", ");
	const strip = el("div", {
		id: "bits", class: "bits bits-" + width, role: "img",
		"aria-label": width + " bits, most significant first: " + summary + ". The table below lists each field.",
	}, cells);

	const rows = fields.map((field) => {
		const v = fieldValue(value, field.ranges);
		const n = widthOf(field.ranges);
		const shown = field.hex || n > 53 ? "0x" + v.toString(16).padStart(Math.ceil(n / 4), "0") : v.toString();
		const ranges = field.ranges.map(([hi, lo]) => (hi === lo ? String(hi) : hi + "–" + lo)).join(", ");
		return el("tr", { class: field.sub ? "sub" : null, "data-segment": field.key }, [
			el("th", { scope: "row" }, [
				el("span", { class: "swatch f-" + field.key + (field.split ? " split" : ""), "aria-hidden": "true" }),
				field.name,
				el("span", { class: "range", text: (n === 1 ? "bit " : "bits ") + ranges + " · " + n }),
			]),
			el("td", { class: "bin", text: binary(value, field.ranges) }),
			el("td", { class: "val" }, [
				el("span", { class: "value", text: shown }),
				field.note ? el("span", { class: "note", text: field.note(v) }) : null,
			]),
		]);
	});
	const table = el("div", { class: "table-wrap" }, el("table", { class: "segments" }, [
		el("caption", { class: "offscreen", text: "The fields of the ID, most significant first" }),
		el("thead", null, el("tr", null, [
			el("th", { scope: "col", text: "Field" }),
			el("th", { scope: "col", class: "bin", text: "Bits" }),
			el("th", { scope: "col", text: "Value" }),
		])),
		el("tbody", null, rows),
	]));
	return [
		el("h3", { text: "Bits" }),
		strip,
		el("p", { class: "bits-caption", text: "Bit " + (width - 1) + " (most significant) first, bit 0 last; hover a bit for its position." }),
		table,
	];
}

loadLayout();
})();
`;
