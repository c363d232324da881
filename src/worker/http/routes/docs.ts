/**
 * `GET /openapi.json`: the OpenAPI 3.1 description of every route, generated from
 * the operations each route file exports (`npm run openapi`: ../openapi/document.ts)
 * and served as that text: the Worker builds no schema for it.
 * `GET /docs`: a reference page rendered by Scalar's API reference (../../pages/docs-page.ts).
 * Both are public, like `/health`: they describe the API and hold no data.
 */
import { version } from "../../../../package.json";
import { docsPage } from "../../on-first-use";

import type { AppEnv } from "../app-env";
import { routeGroup } from "../hono-apps";
import { VERSION_MARK } from "../openapi/operation";

/** The OpenAPI document's text (150 KB), a chunk of its own: it shares no code, and one route reads it. */
const openApiDocument = () => import("../openapi/document.generated");

/** The document's text with the package's version, made (and its chunk loaded) on its first request. */
let documentText: string | undefined;

async function openApiText(): Promise<string> {
	const { OPENAPI_TEMPLATE } = await openApiDocument();
	documentText ??= OPENAPI_TEMPLATE.replace(JSON.stringify(VERSION_MARK), JSON.stringify(version));
	return documentText;
}

export const docsRoutes = routeGroup<AppEnv>()
	.get("/openapi.json", async (c) =>
		c.body(await openApiText(), 200, { "Content-Type": "application/json" }),
	)
	.get("/docs", async (c) => {
		const { DOCS_PAGE, docsCsp } = await docsPage();
		return c.html(DOCS_PAGE, 200, {
			"Content-Security-Policy": await docsCsp(),
			"X-Content-Type-Options": "nosniff",
			"Referrer-Policy": "no-referrer",
		});
	});
