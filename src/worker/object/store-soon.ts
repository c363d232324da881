/**
 * A store an object defers and coalesces: the first request sets a timer, every
 * request until it fires rides along, and the timer runs the store once. The Snowflake
 * objects (./snowflake-worker.ts) store their counts so: a write a second at most
 * while calls come, none while idle. A pending timer keeps a Durable Object from being
 * evicted (the platform waits for it, compatibility date 2026-10-01 on: see
 * developers.cloudflare.com/changelog/post/2026-10-01-pending-io-keep-alive/), so only
 * a crash, a deploy or a host's restart loses what waits: at most one delay's worth.
 *
 *   const soon = new StoreSoon(1_000, () => storeCounts(), { object: "SnowflakeWorker" });
 *   soon.request(); // after a call that left counts unstored
 */
export class StoreSoon {
	private timer: ReturnType<typeof setTimeout> | undefined;

	constructor(
		private readonly delayMs: number,
		private readonly store: () => void,
		/** Fields of the log line when the store throws. */
		private readonly logAs: Record<string, unknown>,
	) {}

	/** The store within `delayMs`, unless one is due already. */
	request(): void {
		if (this.timer !== undefined) return;
		this.timer = setTimeout(() => {
			this.timer = undefined;
			try {
				this.store();
			} catch (error) {
				// Storage refused (locked by another dev server): the next request tries again.
				console.error(
					JSON.stringify({
						...this.logAs,
						event: "store_failed",
						message: error instanceof Error ? error.message : String(error),
					}),
				);
			}
		}, this.delayMs);
	}
}
