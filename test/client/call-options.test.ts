/**
 * `takesCallOptions`: a signal is handed only to a plain object's method (such as
 * `idsClient`'s) that takes an argument at that position; an RPC binding (no plain
 * object) or a method taking fewer arguments gets none.
 */
import { describe, expect, it } from "vitest";
import { takesCallOptions } from "../../src/client/call-options";

describe("takesCallOptions", () => {
	const plain = {
		reserve(_name: string, _options: object, _call?: object) {},
		short(_name: string, _options: object) {},
	};

	it("is true for a plain object's method with an argument at the position", () => {
		expect(takesCallOptions(plain, plain.reserve, 2)).toBe(true);
		expect(takesCallOptions(plain, plain.short, 1)).toBe(true);
	});

	it("is false for a method with no argument at the position", () => {
		expect(takesCallOptions(plain, plain.short, 2)).toBe(false);
		expect(takesCallOptions(plain, plain.reserve, 3)).toBe(false);
	});

	it("is false for an object that is not plain (a binding), whatever its method takes", () => {
		class Binding {
			reserve(_name: string, _options: object, _call?: object) {}
		}
		const binding = new Binding();
		expect(takesCallOptions(binding, binding.reserve, 2)).toBe(false);
		expect(takesCallOptions(Object.create(null), plain.reserve, 2)).toBe(false);
	});
});
