/**
 * Named sequences over HTTP: create (`PUT /sequences/:name`, 201 new, 200 the same
 * settings again), next numbers (GET or POST, `text/plain` one a line), a reserved
 * range (`text/plain`: `first last`), advance, status, per-minute history, retire
 * (`DELETE`, confirmed by name in the body), and the list of names. Every answer of a
 * sequence with a reset carries `Sequence-Period`. Each reads its
 * contract (../contracts/sequences.ts, the history's ../contracts/ops.ts): the name from the path, the rest from the query or
 * a JSON body. The operations are ../sequence-operations.ts, loaded on first use.
 *
 *   curl -X PUT localhost:8787/sequences/orders -H 'Content-Type: application/json' -d '{"start": 1000}'
 *   curl -X POST 'localhost:8787/sequences/orders/next?count=2'
 *   // {"type":"sequence","name":"orders","first":"1000","count":2,"numbers":["1000","1001"]}
 */
import type { Context } from "hono";
import { sequenceOperations } from "../../on-first-use";
import type { AppEnv } from "../app-env";
import { routeGroup } from "../hono-apps";
import { http } from "../http-inputs";
import { readRequest } from "../read-request";
import {
	noteAsked,
	sequenceNumbersResponse,
	sequenceRangeResponse,
	sequenceStatusResponse,
} from "../respond";

const NO_STORE = { "Cache-Control": "no-store" } as const;

async function next(c: Context<AppEnv>, input: { name: string; count?: number }) {
	const count = input.count ?? 1;
	noteAsked(c, { kind: "sequence", count });
	const ops = await sequenceOperations();
	const numbers = await ops.nextInSequence(
		c.env,
		c.var.config,
		{ name: input.name, count },
		(work) => c.executionCtx.waitUntil(work),
	);
	return sequenceNumbersResponse(c, numbers);
}

export const sequenceRoutes = routeGroup<AppEnv>()
	.get("/sequences", readRequest(http.sequenceList), async (c) => {
		noteAsked(c, { kind: "sequence-list" });
		const list = await (await sequenceOperations()).listSequences(c.env, c.req.valid("json"));
		return c.json(list, 200, NO_STORE);
	})
	.put("/sequences/:name", readRequest(http.sequenceCreate), async (c) => {
		noteAsked(c, { kind: "sequence-create" });
		const ops = await sequenceOperations();
		const { created, status } = await ops.createSequence(
			c.env,
			ops.createInput(c.req.valid("json")),
		);
		return sequenceStatusResponse(c, status, created ? 201 : 200);
	})
	.get("/sequences/:name", readRequest(http.sequenceStatus), async (c) => {
		noteAsked(c, { kind: "sequence-status" });
		const ops = await sequenceOperations();
		return sequenceStatusResponse(c, await ops.sequenceStatus(c.env, c.req.valid("json")), 200);
	})
	.delete("/sequences/:name", readRequest(http.sequenceRetire), async (c) => {
		noteAsked(c, { kind: "sequence-retire" });
		const ops = await sequenceOperations();
		const status = await ops.retireSequence(c.env, c.req.valid("json"));
		return sequenceStatusResponse(c, status, 200);
	})
	.get("/sequences/:name/next", readRequest(http.sequenceNext), (c) => next(c, c.req.valid("json")))
	.post("/sequences/:name/next", readRequest(http.sequenceNextPost), (c) =>
		next(c, c.req.valid("json")),
	)
	.post("/sequences/:name/reserve", readRequest(http.sequenceReserve), async (c) => {
		const input = c.req.valid("json");
		noteAsked(c, { kind: "sequence-range", count: input.count });
		return sequenceRangeResponse(
			c,
			await (await sequenceOperations()).reserveInSequence(c.env, input),
		);
	})
	.get("/sequences/:name/history", readRequest(http.sequenceHistory), async (c) => {
		noteAsked(c, { kind: "sequence-history" });
		const ops = await sequenceOperations();
		return c.json(await ops.sequenceHistory(c.env, c.req.valid("json")), 200, NO_STORE);
	})
	.post("/sequences/:name/advance", readRequest(http.sequenceAdvance), async (c) => {
		noteAsked(c, { kind: "sequence-advance" });
		const ops = await sequenceOperations();
		const status = await ops.advanceSequence(c.env, ops.advanceInput(c.req.valid("json")));
		return sequenceStatusResponse(c, status, 200);
	});
