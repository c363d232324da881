/** The Snowflake generator: ordering, ticks and runs, leads, waits, marks, its text and refusals; the host clock. */
import { area } from "./base.mjs";

export default area(
	"generator",
	[
		"src/ids/snowflake/**/*.ts",
		"!src/ids/snowflake/blocks.ts",
		"!src/ids/snowflake/layout.ts",
		"src/ids/clock.ts",
	],
	98,
);
