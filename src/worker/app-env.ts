import type { RequestIdVariables } from "hono/request-id";
import type { RequestNote } from "./middleware/request-log";

/** Hono's view of the Worker: its bindings and per-request variables. */
export type AppEnv = {
	Bindings: Env;
	Variables: RequestIdVariables & { requestNote?: RequestNote };
};
