/**
 * The playground at `/` is static: public/index.html, public/playground.css and the
 * script built from src/playground, with public/_headers' Content-Security-Policy,
 * from the ASSETS binding (../middleware/static-files.ts serves the other files).
 * These routes make `/` and `/monitor` paths of the API: `POST /` is the service's
 * 405, and neither page needs a token.
 */
import type { AppEnv } from "../app-env";
import { routeGroup } from "../hono-apps";

export const pageRoutes = routeGroup<AppEnv>()
	.get("/", (c) => c.env.ASSETS.fetch(c.req.raw))
	// The monitor: public/monitor.html, public like the playground (its calls need the token).
	.get("/monitor", (c) => c.env.ASSETS.fetch(c.req.raw));
