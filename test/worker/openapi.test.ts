import { describe, expect, expectTypeOf, it } from "vitest";
import type * as z from "zod";
import { version } from "../../package.json";
import type {
	DecodedId,
	ErrorBody,
	LayoutInfo,
	RegionsInfo,
	SnowflakeBlocks,
	SnowflakeIds,
	SnowflakeStatsInfo,
	UlidIds,
	UuidV7Ids,
} from "../../src/wire";
import { app } from "../../src/worker/http/app";
import { generatedModule, openApiDocument } from "../../src/worker/http/openapi/document";
import { OPENAPI_TEMPLATE } from "../../src/worker/http/openapi/document.generated";
import { VERSION_MARK } from "../../src/worker/http/openapi/operation";
import type { AnswerSchemas, errorSchema } from "../../src/worker/http/openapi/schemas";
import { fetchApp } from "../shared/fetch-app";

/** What these tests read of an operation. */
type Described = {
	requestBody?: unknown;
	responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
};

describe("the OpenAPI document", () => {
	it("describes exactly the routes the app serves, method by method, as served", () => {
		const served = new Set(
			app.routes
				.filter((route) => route.method !== "ALL")
				// `/decode/` only turns an empty ID into invalid_id; `/decode/{id}` describes it.
				.filter((route) => route.path !== "/decode/")
				.map((route) => `${route.method.toLowerCase()} ${route.path.replace(/:(\w+)/g, "{$1}")}`),
		);
		// The generated text the Worker serves, and the document the route files describe now:
		// a route without operations, or operations not yet generated (`npm run openapi`), fail.
		for (const document of [JSON.parse(OPENAPI_TEMPLATE), openApiDocument()] as {
			paths: Record<string, object>;
		}[]) {
			const documented = Object.entries(document.paths).flatMap(([path, item]) =>
				Object.keys(item).map((method) => `${method} ${path}`),
			);
			expect(documented.sort()).toEqual([...served].sort());
		}
	});

	it("documents the same query and path parameters the validators read", () => {
		const ulid = openApiDocument().paths?.["/ulid"]?.post;
		expect(ulid?.parameters?.map((p) => ("name" in p ? p.name : ""))).toEqual(["count", "format"]);
		const decode = openApiDocument().paths?.["/decode/{id}"]?.get;
		expect(decode?.parameters?.map((p) => ("name" in p ? p.name : ""))).toEqual([
			"id",
			"format",
			"layout",
			"timeBits",
			"workerBits",
			"sequenceBits",
			"epoch",
			"timeUnitMs",
		]);
	});

	it("documents 415 unsupported_media_type on exactly the routes that read a JSON body", () => {
		for (const [path, item] of Object.entries(openApiDocument().paths ?? {})) {
			for (const [method, operation] of Object.entries(item) as [string, Described][]) {
				const takesBody = operation.requestBody !== undefined;
				// A removed route (deprecated) reads nothing: it refuses every call with 410.
				const removed = (operation as { deprecated?: boolean }).deprecated === true;
				// A retire (DELETE) is confirmed in its body.
				expect(takesBody, `${method} ${path}`).toBe(
					(method === "post" || method === "put" || method === "delete") &&
						path !== "/" &&
						!removed,
				);
				const answer = operation.responses?.["415"];
				expect(answer !== undefined, `${method} ${path} documents 415`).toBe(takesBody);
				if (answer) {
					const schema = answer.content?.["application/json"]?.schema;
					expect(JSON.stringify(schema)).toContain('"unsupported_media_type"');
				}
			}
		}
	});

	it("is served as generated (npm run openapi): the routes' document, with the package's version", async () => {
		expect(OPENAPI_TEMPLATE).toBe(JSON.stringify(openApiDocument(VERSION_MARK)));
		expect(generatedModule()).toContain(`= ${JSON.stringify(OPENAPI_TEMPLATE)};`);
		const served = await fetchApp("/openapi.json");
		expect(served.headers.get("Content-Type")).toBe("application/json");
		expect(await served.text()).toBe(JSON.stringify(openApiDocument()));
		expect(openApiDocument().info.version).toBe(version);
	});

	it("has answer schemas of the wire types' shape", () => {
		expectTypeOf<z.infer<AnswerSchemas["snowflakeIdsSchema"]>>().toEqualTypeOf<SnowflakeIds>();
		expectTypeOf<z.infer<AnswerSchemas["ulidIdsSchema"]>>().toEqualTypeOf<UlidIds>();
		expectTypeOf<z.infer<AnswerSchemas["uuidv7IdsSchema"]>>().toEqualTypeOf<UuidV7Ids>();
		expectTypeOf<z.infer<AnswerSchemas["blocksSchema"]>>().toEqualTypeOf<SnowflakeBlocks>();
		expectTypeOf<z.infer<AnswerSchemas["layoutSchema"]>>().toEqualTypeOf<LayoutInfo>();
		expectTypeOf<z.infer<AnswerSchemas["statsSchema"]>>().toEqualTypeOf<{
			[K in keyof SnowflakeStatsInfo]: SnowflakeStatsInfo[K];
		}>();
		// RegionsInfo's points are readonly, which expect-type tells apart; assignability is what matters.
		const regions: z.infer<AnswerSchemas["regionsSchema"]> = {} as RegionsInfo;
		expect(regions).toBeDefined();
		expectTypeOf<DecodedId>().toExtend<z.infer<AnswerSchemas["decodedSchema"]>>();
		expectTypeOf<z.infer<ReturnType<typeof errorSchema>>>().toEqualTypeOf<ErrorBody>();
	});
});
