import type { RequestIdVariables } from "hono/request-id";
import type { AcceptedToken } from "../config/bearer-token";
import type { Config } from "../config/config";
import type { RequestNote } from "../request-note";

/** Hono's view of the Worker: its bindings and per-request variables. */
export type AppEnv = {
	Bindings: Env;
	Variables: RequestIdVariables & {
		/** The parsed config, resolved once per request (./middleware/request-config.ts). */
		config: Config;
		requestNote?: RequestNote;
		/** Which of the service's tokens the request sent (./middleware/auth.ts), once asked. */
		acceptedToken?: Promise<AcceptedToken | undefined>;
	};
};
