/**
 * The playground at `/` is static: public/index.html, public/playground.css and the
 * script built from src/playground, with public/_headers' Content-Security-Policy,
 * from the ASSETS binding (../middleware/static-files.ts serves the other files).
 * This route makes `/` a path of the API: `POST /` is the service's 405, and `/`
 * needs no token.
 */
import type { AppEnv } from "../app-env";
import { routeGroup } from "../hono-apps";

export const pageRoutes = routeGroup<AppEnv>().get("/", (c) => c.env.ASSETS.fetch(c.req.raw));
