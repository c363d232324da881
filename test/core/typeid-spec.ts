/**
 * The TypeID specification's test vectors, version 0.3.0 (last updated 2024-04-10),
 * copied from spec/valid.yml and spec/invalid.yml of https://github.com/jetify-com/typeid
 * (Apache-2.0, © jetify). Conforming implementations must decode every valid one to its
 * prefix and UUID, encode them back to the same text, and refuse every invalid one.
 */

export interface ValidTypeId {
	name: string;
	typeid: string;
	prefix: string;
	uuid: string;
}

export const VALID_TYPEIDS: ValidTypeId[] = [
	{
		name: "nil",
		typeid: "00000000000000000000000000",
		prefix: "",
		uuid: "00000000-0000-0000-0000-000000000000",
	},
	{
		name: "one",
		typeid: "00000000000000000000000001",
		prefix: "",
		uuid: "00000000-0000-0000-0000-000000000001",
	},
	{
		name: "ten",
		typeid: "0000000000000000000000000a",
		prefix: "",
		uuid: "00000000-0000-0000-0000-00000000000a",
	},
	{
		name: "sixteen",
		typeid: "0000000000000000000000000g",
		prefix: "",
		uuid: "00000000-0000-0000-0000-000000000010",
	},
	{
		name: "thirty-two",
		typeid: "00000000000000000000000010",
		prefix: "",
		uuid: "00000000-0000-0000-0000-000000000020",
	},
	{
		name: "max-valid",
		typeid: "7zzzzzzzzzzzzzzzzzzzzzzzzz",
		prefix: "",
		uuid: "ffffffff-ffff-ffff-ffff-ffffffffffff",
	},
	{
		name: "valid-alphabet",
		typeid: "prefix_0123456789abcdefghjkmnpqrs",
		prefix: "prefix",
		uuid: "0110c853-1d09-52d8-d73e-1194e95b5f19",
	},
	{
		name: "valid-uuidv7",
		typeid: "prefix_01h455vb4pex5vsknk084sn02q",
		prefix: "prefix",
		uuid: "01890a5d-ac96-774b-bcce-b302099a8057",
	},
	{
		name: "prefix-underscore",
		typeid: "pre_fix_00000000000000000000000000",
		prefix: "pre_fix",
		uuid: "00000000-0000-0000-0000-000000000000",
	},
];

export interface InvalidTypeId {
	name: string;
	typeid: string;
	description: string;
}

export const INVALID_TYPEIDS: InvalidTypeId[] = [
	{
		name: "prefix-uppercase",
		typeid: "PREFIX_00000000000000000000000000",
		description: "The prefix should be lowercase with no uppercase letters",
	},
	{
		name: "prefix-numeric",
		typeid: "12345_00000000000000000000000000",
		description: "The prefix can't have numbers, it needs to be alphabetic",
	},
	{
		name: "prefix-period",
		typeid: "pre.fix_00000000000000000000000000",
		description: "The prefix can't have symbols, it needs to be alphabetic",
	},
	{
		name: "prefix-non-ascii",
		typeid: "préfix_00000000000000000000000000",
		description: "The prefix can only have ascii letters",
	},
	{
		name: "prefix-spaces",
		typeid: "  prefix_00000000000000000000000000",
		description: "The prefix can't have any spaces",
	},
	{
		name: "prefix-64-chars",
		typeid:
			"abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl_00000000000000000000000000",
		description: "The prefix can't be 64 characters, it needs to be 63 characters or less",
	},
	{
		name: "separator-empty-prefix",
		typeid: "_00000000000000000000000000",
		description: "If the prefix is empty, the separator should not be there",
	},
	{
		name: "separator-empty",
		typeid: "_",
		description: "A separator by itself should not be treated as the empty string",
	},
	{
		name: "suffix-short",
		typeid: "prefix_1234567890123456789012345",
		description: "The suffix can't be 25 characters, it needs to be exactly 26 characters",
	},
	{
		name: "suffix-long",
		typeid: "prefix_123456789012345678901234567",
		description: "The suffix can't be 27 characters, it needs to be exactly 26 characters",
	},
	{
		name: "suffix-spaces",
		typeid: "prefix_1234567890123456789012345 ",
		description: "The suffix can't have any spaces",
	},
	{
		name: "suffix-uppercase",
		typeid: "prefix_0123456789ABCDEFGHJKMNPQRS",
		description: "The suffix should be lowercase with no uppercase letters",
	},
	{
		name: "suffix-hyphens",
		typeid: "prefix_123456789-123456789-123456",
		description: "The suffix should be lowercase with no uppercase letters",
	},
	{
		name: "suffix-wrong-alphabet",
		typeid: "prefix_ooooooiiiiiiuuuuuuulllllll",
		description: "The suffix should only have letters from the spec's alphabet",
	},
	{
		name: "suffix-ambiguous-crockford",
		typeid: "prefix_i23456789ol23456789oi23456",
		description: "The suffix should not have any ambiguous characters from the crockford encoding",
	},
	{
		name: "suffix-hyphens-crockford",
		typeid: "prefix_123456789-0123456789-0123456",
		description: "The suffix can't ignore hyphens as in the crockford encoding",
	},
	{
		name: "suffix-overflow",
		typeid: "prefix_8zzzzzzzzzzzzzzzzzzzzzzzzz",
		description: "The suffix should encode at most 128-bits",
	},
	{
		name: "prefix-underscore-start",
		typeid: "_prefix_00000000000000000000000000",
		description: "The prefix can't start with an underscore",
	},
	{
		name: "prefix-underscore-end",
		typeid: "prefix__00000000000000000000000000",
		description: "The prefix can't end with an underscore",
	},
];
