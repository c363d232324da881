/** The rest of the ID core: ULID, UUIDv7, TypeID, base32, layouts, decoding, worker-ID sets. */
import { area } from "./base.mjs";

export default area(
	"forms",
	[
		"src/ids/**/*.ts",
		"!src/ids/snowflake*.ts",
		"!src/ids/clock.ts",
		"!src/ids/id-pool.ts",
		"!src/ids/blocks.ts",
		"!src/ids/id-bounds.ts",
		"!src/ids/lease-*.ts",
		"!src/ids/held-lease.ts",
		"!src/ids/server-clock.ts",
	],
	null,
);
