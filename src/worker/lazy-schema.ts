/**
 * A zod schema built on first use. A new isolate's startup would otherwise construct
 * every route's request schemas before its first request; with this, a schema is
 * built when a request (or the OpenAPI document) first reads it. The proxy forwards
 * every read to the built schema, so validators and the document see the schema itself.
 *
 *   export const countQuery = lazySchema(() => z.object({ count }));
 */
export function lazySchema<T extends object>(build: () => T): T {
	const schema = once(build);
	return new Proxy({} as T, {
		get: (_, key) => Reflect.get(schema(), key),
		has: (_, key) => Reflect.has(schema(), key),
		ownKeys: () => Reflect.ownKeys(schema()),
		getOwnPropertyDescriptor: (_, key) => {
			const descriptor = Reflect.getOwnPropertyDescriptor(schema(), key);
			return descriptor && { ...descriptor, configurable: true };
		},
		getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
	});
}

/** `build`'s value, built on the first call and remembered. */
export function once<T>(build: () => T): () => T {
	let built: { value: T } | undefined;
	return () => {
		built ??= { value: build() };
		return built.value;
	};
}
