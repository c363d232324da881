/** The tick (time field) of a Snowflake ID under Twitter's bits, the layout every test config uses. */
import { SnowflakeLayout, TWITTER_LAYOUT } from "../../src/ids/snowflake/layout";

// The tick is the ID shifted right past worker and sequence bits: the epoch does not enter.
const twitter = new SnowflakeLayout(TWITTER_LAYOUT);

export const tickOf = (id: string | bigint | undefined): number =>
	twitter.decompose(BigInt(id as string | bigint)).tick;
