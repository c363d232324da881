/** TypeID (spec v0.3.0): the spec's vectors, round trips, the factory's order. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeId } from "../../src/ids/forms/decode";
import {
	checkPrefix,
	decodeTypeId,
	formatTypeId,
	isValidPrefix,
	parseTypeId,
	TypeIdFactory,
} from "../../src/ids/forms/typeid";
import { formatUuid } from "../../src/ids/forms/uuid";
import { UuidV7Factory } from "../../src/ids/forms/uuidv7";
import { SnowflakeLayout, TWITTER_LAYOUT } from "../../src/ids/snowflake/layout";
import { expectTextIncreasing } from "../shared/order";
import { prefixes } from "./prefixes";
import { INVALID_TYPEIDS, VALID_TYPEIDS } from "./typeid-spec";

const layout = new SnowflakeLayout(TWITTER_LAYOUT);

const uuids = fc.uint8Array({ minLength: 16, maxLength: 16 }).map(formatUuid);

describe("the spec's valid vectors", () => {
	it.each(VALID_TYPEIDS)(
		"$name: $typeid decodes to its prefix and UUID",
		({ typeid, prefix, uuid }) => {
			expect(parseTypeId(typeid)).toMatchObject({ prefix, uuid });
			expect(decodeId(typeid, layout, "typeid")).toMatchObject({
				type: "typeid",
				id: typeid,
				prefix,
				uuid,
			});
		},
	);

	it.each(VALID_TYPEIDS)(
		"$name: its prefix and UUID encode to $typeid",
		({ typeid, prefix, uuid }) => {
			expect(formatTypeId(prefix, uuid)).toBe(typeid);
		},
	);

	it("a UUIDv7 decodes with its time; other versions with their version only", () => {
		expect(decodeTypeId("prefix_01h455vb4pex5vsknk084sn02q")).toEqual({
			type: "typeid",
			id: "prefix_01h455vb4pex5vsknk084sn02q",
			prefix: "prefix",
			uuid: "01890a5d-ac96-774b-bcce-b302099a8057",
			version: 7,
			timestamp: 1688096058518,
			time: "2023-06-30T03:34:18.518Z",
		});
		expect(decodeTypeId("prefix_0123456789abcdefghjkmnpqrs")).toEqual({
			type: "typeid",
			id: "prefix_0123456789abcdefghjkmnpqrs",
			prefix: "prefix",
			uuid: "0110c853-1d09-52d8-d73e-1194e95b5f19",
			version: 5,
		});
	});
});

describe("the spec's invalid vectors", () => {
	it.each(INVALID_TYPEIDS)("$name: $typeid is refused ($description)", ({ typeid }) => {
		expect(() => parseTypeId(typeid)).toThrow(expect.objectContaining({ code: "invalid_id" }));
		expect(() => decodeId(typeid, layout, "typeid")).toThrow(
			expect.objectContaining({ code: "invalid_id" }),
		);
		// Without a format, as /decode reads them: every one is refused too, none read as another kind.
		expect(() => decodeId(typeid, layout)).toThrow(expect.objectContaining({ code: "invalid_id" }));
	});
});

describe("any text", () => {
	it("decodes, or is refused with invalid_id, in every format (never another failure)", () => {
		const pieces = fc.constantFrom(
			"_",
			"a",
			"Z",
			"0",
			"7",
			"8",
			"-",
			"é",
			" ",
			"o",
			"user_",
			"01h455vb4pex5",
		);
		const texts = fc.oneof(
			fc.string(),
			fc.array(pieces, { maxLength: 12 }).map((p) => p.join("")),
		);
		fc.assert(
			fc.property(
				texts,
				fc.constantFrom(undefined, "typeid" as const, "base32" as const),
				(text, format) => {
					try {
						decodeId(text, layout, format);
					} catch (error) {
						expect(error).toMatchObject({ code: "invalid_id" });
					}
				},
			),
			{ numRuns: 2000 },
		);
	});
});

describe("a bare 26-character text", () => {
	it("stays a ULID unless format typeid is asked for", () => {
		expect(decodeId("01h455vb4pex5vsknk084sn02q", layout)).toMatchObject({
			type: "ulid",
			id: "01H455VB4PEX5VSKNK084SN02Q",
		});
		expect(decodeId("01h455vb4pex5vsknk084sn02q", layout, "typeid")).toMatchObject({
			type: "typeid",
			prefix: "",
			uuid: "01890a5d-ac96-774b-bcce-b302099a8057",
		});
	});
});

describe("round trips", () => {
	it("formatTypeId then parseTypeId gives back any prefix and UUID", () => {
		fc.assert(
			fc.property(prefixes, uuids, (prefix, uuid) => {
				const text = formatTypeId(prefix, uuid);
				expect(parseTypeId(text)).toMatchObject({ prefix, uuid });
				expect(text).toBe(prefix === "" ? text.slice(-26) : `${prefix}_${text.slice(-26)}`);
			}),
		);
	});

	it("parseTypeId then formatTypeId gives back any valid text", () => {
		const suffixes = fc
			.tuple(
				fc.constantFrom(..."01234567"),
				fc.array(fc.constantFrom(..."0123456789abcdefghjkmnpqrstvwxyz"), {
					minLength: 25,
					maxLength: 25,
				}),
			)
			.map(([first, rest]) => first + rest.join(""));
		fc.assert(
			fc.property(prefixes, suffixes, (prefix, suffix) => {
				const text = prefix ? `${prefix}_${suffix}` : suffix;
				const { prefix: read, uuid } = parseTypeId(text);
				expect(formatTypeId(read, uuid)).toBe(text);
			}),
		);
	});

	it("TypeIDs sort as text the way their UUIDs do", () => {
		fc.assert(
			fc.property(prefixes, uuids, uuids, (prefix, a, b) => {
				const [x, y] = [formatTypeId(prefix, a), formatTypeId(prefix, b)];
				expect(x < y).toBe(a < b);
			}),
		);
	});
});

describe("prefixes", () => {
	it("follow the spec's rule", () => {
		for (const good of ["", "a", "user", "pre_fix", "a_b", "x".repeat(63)]) {
			expect(isValidPrefix(good)).toBe(true);
		}
		for (const bad of ["_", "_a", "a_", "A", "a1", "a-b", "é", " a", "x".repeat(64)]) {
			expect(isValidPrefix(bad)).toBe(false);
			expect(() => checkPrefix(bad)).toThrow(expect.objectContaining({ code: "invalid_prefix" }));
		}
		expect(() => checkPrefix(7)).toThrow(/prefix must be at most 63 characters of a-z and _/);
	});

	it("shows a bad prefix as given up to 64 characters, cut after that, with its length", () => {
		const refusal = (given: unknown) => {
			try {
				checkPrefix(given);
			} catch (error) {
				return (error as { code: string; detail: string }).detail;
			}
			throw new Error(`checkPrefix(${String(given)}) took it`);
		};
		const rule =
			/^prefix must be at most 63 characters of a-z and _, starting and ending with a letter \(TypeID's .*\), or empty; got /;
		expect(refusal("p".repeat(64))).toMatch(
			new RegExp(`${rule.source}"p{64}" \\(64 characters\\)$`),
		);
		expect(refusal("p".repeat(65))).toMatch(
			new RegExp(`${rule.source}"p{64}…" \\(65 characters\\)$`),
		);
		// Not a string: shown as what it is, with no length; an array is not its text.
		expect(refusal(7)).toMatch(new RegExp(`${rule.source}7$`));
		expect(refusal(["user"])).toMatch(rule);
	});

	it("refuses a prefixed text's bad prefix naming it, up to 64 characters, cut after that", () => {
		const suffix = "_01h455vb4pex5vsknk084sn02q";
		const detail = (shown: string) =>
			`a TypeID's prefix (before the last _) must be at most 63 characters of a-z and _, starting and ending with a letter (TypeID's ^([a-z]([a-z_]*[a-z])?)?$), and without a prefix there is no _; got ${JSON.stringify(shown)}`;
		const cases: [prefix: string, shown: string][] = [
			["", ""],
			["p".repeat(64), "p".repeat(64)],
			["p".repeat(65), `${"p".repeat(64)}…`],
		];
		for (const [prefix, shown] of cases) {
			expect(() => parseTypeId(`${prefix}${suffix}`)).toThrow(
				expect.objectContaining({ code: "invalid_id", detail: detail(shown) }),
			);
		}
	});

	it("says what a TypeID's suffix must be, and where it is wrong", () => {
		const rule =
			"a TypeID's suffix must be 26 characters of 0123456789abcdefghjkmnpqrstvwxyz (lowercase; no i, l, o, u), the first 0-7";
		const cases: [text: string, detail: string][] = [
			["user_01h455vb4pex5vsknk084sn02", `${rule}; got 25 characters`],
			["user_01h455vb4pex5vsknk084sn0uq", `${rule}; found 'u' at position 25`],
			[
				"user_81h455vb4pex5vsknk084sn02q",
				`${rule} (above that it would need more bits); found '8' first`,
			],
		];
		for (const [text, detail] of cases) {
			expect(() => parseTypeId(text)).toThrow(
				expect.objectContaining({ code: "invalid_id", detail }),
			);
		}
	});

	it("refuses a character beyond ASCII in the suffix as invalid_id, naming it", () => {
		expect(() => parseTypeId("user_01h455vb4pex5vsknk084sn02\u00e9")).toThrow(
			expect.objectContaining({
				code: "invalid_id",
				detail: expect.stringContaining("found U+00E9 at position 26"),
			}),
		);
	});

	it("formatTypeId refuses a bad prefix with invalid_prefix", () => {
		expect(() => formatTypeId("User", "01890a5d-ac96-774b-bcce-b302099a8057")).toThrow(
			expect.objectContaining({ code: "invalid_prefix" }),
		);
	});
});

describe("TypeIdFactory", () => {
	it("issues strictly increasing UUIDv7-based TypeIDs under its prefix, also when the clock stands still", () => {
		const factory = new TypeIdFactory("user");
		const ids = [
			...factory.nextBatch(1_700_000_000_000, 500),
			...factory.nextBatch(1_699_999_999_000, 5),
		];
		expectTextIncreasing(ids);
		for (const id of ids) {
			expect(id).toMatch(/^user_[0-7][0-9a-hjkmnp-tv-z]{25}$/);
			expect(decodeTypeId(id)).toMatchObject({ version: 7, timestamp: 1_700_000_000_000 });
		}
	});

	it("shares a UUIDv7 sequence with plain UUIDv7s when given one factory", () => {
		const shared = new UuidV7Factory();
		const users = new TypeIdFactory("user", shared);
		const first = parseTypeId(users.next(5_000)).uuid;
		const between = shared.next(5_000);
		const last = parseTypeId(users.next(5_000)).uuid;
		expect(first < between && between < last).toBe(true);
	});

	it("bare TypeIDs for the empty prefix; a bad prefix is invalid_prefix", () => {
		expect(new TypeIdFactory("").next(5_000)).toMatch(/^[0-7][0-9a-z]{25}$/);
		expect(() => new TypeIdFactory("Users")).toThrow(
			expect.objectContaining({ code: "invalid_prefix" }),
		);
	});
});
