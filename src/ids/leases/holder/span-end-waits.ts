/**
 * Where a lease holder's calls wait at a span's end (lease-holder.ts): each waits
 * until something changes that may let it go on or make it give up (a renewal
 * moved `to` on, the lease was lost, the holder closed), or until its own time is
 * up. One promise serves every waiting call; `changed()` settles it and starts the next.
 */
export class LeaseChanges {
	private next: Promise<void> | undefined;
	private wake: (() => void) | undefined;

	constructor(
		/** Resolves after about `ms`, sooner when `signal` aborts. */
		private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>,
	) {}

	/** Resolves at the next `changed()`, or after `ms`. */
	async wait(ms: number): Promise<void> {
		this.next ??= new Promise<void>((resolve) => {
			this.wake = resolve;
		});
		const timer = new AbortController();
		try {
			await Promise.race([this.next, this.sleep(ms, timer.signal)]);
		} finally {
			timer.abort(); // the sleep's timer is not left to run out
		}
	}

	/** Wakes every waiting call: each looks at the lease again. */
	changed(): void {
		const wake = this.wake;
		this.next = undefined;
		this.wake = undefined;
		wake?.();
	}
}
