/** ID pools, blocks and bounds: what the auto route hands out, and the checks of what callers pass. */
import { area } from "./base.mjs";

export default area(
	"pools",
	["src/ids/id-pool.ts", "src/ids/blocks.ts", "src/ids/id-bounds.ts"],
	100,
);
