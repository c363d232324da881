/** ID pools, blocks and bounds: what the auto route hands out, and the checks of what callers pass. */
import { area } from "./base.mjs";

export default area(
	"pools",
	["src/ids/pools/id-pool.ts", "src/ids/snowflake/blocks.ts", "src/ids/ranges/id-bounds.ts"],
	100,
);
