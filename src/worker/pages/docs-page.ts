/**
 * The `/docs` page: Scalar's API reference, loaded from jsDelivr at a pinned version
 * with Subresource Integrity, under a CSP that allows that script, one inline script
 * of the page's own, the document and nothing else; until the reference renders, the
 * page says what it is and links the document. Loaded with the page's first request
 * (../on-first-use.ts): no other route needs it.
 */
// Scalar's API reference, pinned: bump the version and the hash together
// (`openssl dgst -sha384 -binary dist/browser/standalone.js | base64` over the npm tarball).
const SCALAR =
	"https://cdn.jsdelivr.net/npm/@scalar/api-reference@1.72.1/dist/browser/standalone.js";
const SCALAR_SRI = "sha384-U11tb2XnKvmwt8RlTvnwUnYgrN+ur4Xyh9htLhjajWNR/Oyl5AX5DEz00qRmlrmK";
// No fonts, telemetry, agent or MCP calls to scalar.com: the page talks to this origin only.
const SCALAR_CONFIG = JSON.stringify({
	withDefaultFonts: false,
	telemetry: false,
	agent: { disabled: true },
	mcp: { disabled: true },
	showDeveloperTools: "never",
});

/**
 * Swaps the fallback for the reference once Scalar's script has run (its `load`
 * event), or says why it did not (its `error` event: offline, blocked, or a copy
 * that fails the integrity check). Allowed by its hash in the CSP; no other inline
 * script runs. Element load events do not reach `window`: listen on `document`.
 */
const SWAP_SCRIPT = `document.addEventListener("load", (event) => {
	if (event.target.id === "reference-script") document.getElementById("fallback").remove();
}, true);
document.addEventListener("error", (event) => {
	if (event.target.id !== "reference-script") return;
	document.getElementById("fallback-state").textContent = "The reference could not be loaded from cdn.jsdelivr.net.";
}, true);`;

// Shown until the reference replaces it: a blank page would say nothing when the
// CDN is out of reach (offline, a proxy or firewall), or when JavaScript is off.
export const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>edge-ids API reference</title>
<link rel="icon" href="/favicon.ico" sizes="32x32">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>
#fallback { max-width: 42rem; margin: 3rem auto; padding: 0 1rem; font: 1rem/1.5 system-ui, sans-serif; }
#fallback code { font-size: 0.95em; }
</style>
</head>
<body>
<main id="fallback">
<h1>edge-ids API reference</h1>
<p>This page shows every route of this service, its parameters, answers and errors, rendered from its OpenAPI description by Scalar's API reference, a script loaded from cdn.jsdelivr.net. <strong id="fallback-state">Loading the reference…</strong></p>
<p>The description itself is always here: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1, JSON). Open it in any OpenAPI viewer or client generator.</p>
<p>If the reference does not appear, this browser cannot load the script: it is offline, a proxy or firewall blocks <code>cdn.jsdelivr.net</code>, or JavaScript is off.</p>
</main>
<script id="api-reference" type="application/json" data-url="/openapi.json" data-configuration='${SCALAR_CONFIG}'></script>
<script>
${SWAP_SCRIPT}
</script>
<script src="${SCALAR}" integrity="${SCALAR_SRI}" crossorigin="anonymous" id="reference-script"></script>
</body>
</html>
`;

/** The inline script's CSP source, `'sha256-…'` of its exact text (computed once, on first use). */
let swapScriptSource: Promise<string> | undefined;

function inlineScriptSource(): Promise<string> {
	swapScriptSource ??= crypto.subtle
		.digest("SHA-256", new TextEncoder().encode(`\n${SWAP_SCRIPT}\n`))
		.then((digest) => `'sha256-${btoa(String.fromCharCode(...new Uint8Array(digest)))}'`);
	return swapScriptSource;
}

/**
 * Exactly what the page loads: the pinned script and the inline one that swaps the
 * fallback for it, the document and "try it" calls to this origin, the styles and
 * images the UI writes inline. Nothing may frame it.
 */
export async function docsCsp(): Promise<string> {
	return [
		"default-src 'none'",
		`script-src ${SCALAR} ${await inlineScriptSource()}`,
		"style-src 'unsafe-inline'",
		"img-src 'self' data:",
		"font-src data:",
		"connect-src 'self'",
		"base-uri 'none'",
		"form-action 'none'",
		"frame-ancestors 'none'",
	].join("; ");
}
