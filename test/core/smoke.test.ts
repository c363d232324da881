import { expect, it } from "vitest";
import { IdError } from "../../src/ids/errors";
it("prefixes the code", () => { expect(new IdError("invalid_id", "x").message).toBe("invalid_id: x"); });
