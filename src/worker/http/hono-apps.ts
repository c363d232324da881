/**
 * The two kinds of Hono app the service builds, both on `hono/hono-base`: the `hono`
 * entry's class also builds (and ships) a RegExpRouter and a SmartRouter, which
 * this service never uses.
 *
 * - `serviceApp()`: the app itself, matching on Hono's trie router (./app.ts says why).
 * - `routeGroup()`: one file's routes, for `app.route("/", group)`, which copies them
 *   into the app's trie. A group is never asked to match, so it builds no router of
 *   its own: a new isolate registers each route once, not twice.
 */
import type { Env } from "hono";
import { HonoBase } from "hono/hono-base";
import type { Router } from "hono/router";
import { TrieRouter } from "hono/router/trie-router";

export function serviceApp<E extends Env>() {
	return new HonoBase<E>({ router: new TrieRouter() });
}

/** A router that keeps nothing: a group's routes live in its `routes` list, read by `app.route`. */
function noRouter<T>(): Router<T> {
	return {
		name: "route-group",
		add() {},
		match() {
			throw new Error("a route group answers through the app it is mounted on (app.route)");
		},
	};
}

export function routeGroup<E extends Env>() {
	return new HonoBase<E>({ router: noRouter() });
}
