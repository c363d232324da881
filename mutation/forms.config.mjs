/** The rest of the ID core: ULID, UUIDv7, TypeID, base32, layouts, decoding, ISO times, worker-ID sets. */
import { area } from "./base.mjs";

export default area(
	"forms",
	[
		"src/ids/forms/**/*.ts",
		"src/ids/snowflake/layout.ts",
		"src/ids/ranges/iso-time.ts",
		"src/ids/pools/worker-id-set.ts",
		"src/ids/field-rules.ts",
		"src/ids/errors.ts",
		"src/ids/random.ts",
	],
	86,
	{
		// Module-level code (the digit tables, the ISO and prefix patterns, the decoding
		// presets) runs once per test file: each of its ~240 mutants needs the whole core
		// suite again (~10 s here), 40 minutes in all. Left out of the score; docs/TESTING.md.
		ignoreStatic: true,
	},
);
