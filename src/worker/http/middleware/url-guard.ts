/**
 * Refuses a request URL longer than any the service serves, before routing and
 * auth, so no error message echoes kilobytes of input. Every valid URL is under
 * 100 characters. (Before the Worker: Cloudflare's edge answers 414 above 32 KB,
 * local workerd 431 above a 64 KB request line.) Bodies are read only when they
 * declare JSON, and then at most 1 KiB of them (src/worker/http/read-request.ts).
 *
 *   app.use(urlLengthGuard()); // a 5,000-character URL: 404 not_found naming both lengths
 */
import type { MiddlewareHandler } from "hono";
import { serviceError } from "../../errors";
import type { AppEnv } from "../app-env";

/** The longest request URL served. */
export const MAX_URL_LENGTH = 4_096;

export function urlLengthGuard(maxLength = MAX_URL_LENGTH): MiddlewareHandler<AppEnv> {
	return (c, next) => {
		const length = c.req.url.length;
		if (length > maxLength) {
			throw serviceError(
				"not_found",
				`no route has a URL longer than ${maxLength} characters; this one has ${length}`,
			);
		}
		return next();
	};
}
