/** An empty ID is `invalid_id` everywhere: HTTP, RPC and the client agree. */
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { idRequestId } from "../../src/client";
import { IdService } from "../../src/worker/rpc/id-service";
import { callJson } from "./helpers";

describe("decoding an empty ID", () => {
	it("is 400 invalid_id over HTTP", async () => {
		const { status, body } = await callJson("/decode/");
		expect(status).toBe(400);
		expect(body).toMatchObject({ error: { code: "invalid_id" } });
	});

	it("is invalid_id over RPC, with the same message", async () => {
		const service = new IdService(createExecutionContext(), env);
		const error = (await service.decode("").catch((thrown: unknown) => thrown)) as Error;
		const { body } = await callJson<{ error: { message: string } }>("/decode/");
		expect(error.message).toBe(`invalid_id: ${body.error.message} (request ${idRequestId(error)})`);
	});
});
