import type { RequestIdVariables } from "hono/request-id";
import type { AcceptedToken } from "./middleware/auth";
import type { RequestNote } from "./middleware/request-log";

/** Hono's view of the Worker: its bindings and per-request variables. */
export type AppEnv = {
	Bindings: Env;
	Variables: RequestIdVariables & {
		requestNote?: RequestNote;
		/** Which of the service's tokens the request sent (./middleware/auth.ts), once asked. */
		acceptedToken?: Promise<AcceptedToken | undefined>;
	};
};
