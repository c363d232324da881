/**
 * Published IDs and what decoding them must answer, written from their sources
 * (not from src/), for every layer that decodes: the core, the routes, RPC, the client.
 */

/** Twitter's worked example, decoded under the service's default (Twitter's) layout. */
export const TWITTER_EXAMPLE = {
	id: "910499571847892992",
	decoded: {
		type: "snowflake",
		id: "910499571847892992",
		timestamp: 1505914988849,
		time: "2017-09-20T13:43:08.849Z",
		workerId: 569,
		sequence: 0,
		datacenterId: 17,
		machineId: 25,
	},
} as const;

/** Discord's documented example (API reference, "Snowflakes"), decoded with layout=discord. */
export const DISCORD_EXAMPLE = {
	id: "175928847299117063",
	decoded: {
		type: "snowflake",
		id: "175928847299117063",
		layout: "discord",
		timestamp: 1462015105796,
		time: "2016-04-30T11:18:25.796Z",
		workerId: 1,
		processId: 0,
		increment: 7,
	},
} as const;
