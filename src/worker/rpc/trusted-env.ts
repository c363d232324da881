/**
 * The env an IdService binding's HTTP calls run with: callers through a binding are
 * trusted, so without the tokens and without the rate limiter; one object per env,
 * so its parsed config is cached too.
 *
 *   app.fetch(request, trustedEnv(env), ctx); // no 401, no 429
 */

const trusted = new WeakMap<Env, Env>();

export function trustedEnv(env: Env): Env {
	let trustedOne = trusted.get(env);
	if (!trustedOne) {
		const withoutLimits: Partial<Env> = { ...env, API_TOKEN: undefined, API_TOKEN_NEXT: undefined };
		delete withoutLimits.RATE_LIMITER;
		trustedOne = withoutLimits as Env;
		trusted.set(env, trustedOne);
	}
	return trustedOne;
}
