/**
 * Group commit for a Durable Object whose every call writes before it answers (the
 * sequence object, ./sequence-object.ts). A call that arrives while the write of an
 * earlier call is still being committed waits for that commit to end, then writes
 * together with every other call that waited for it: one commit for the group,
 * instead of one each. Nothing is answered sooner or later than before — a write
 * made during a commit could only join the next commit anyway (the runtime commits
 * in order) — but under concurrent callers there are fewer commits, and locally
 * (workerd) each commit is disk work the whole process waits for.
 *
 * Order is kept: a call that returned before another began wrote first, because the
 * later call writes only after it arrives. The members of a group are concurrent
 * with each other, so any order among them is linearizable.
 *
 *   const groups = new CommitGroups(ctx.storage);
 *   const answer = await groups.write(() => book.issue(name, count)); // synchronous writes inside
 */

export class CommitGroups {
	/** The commit of the last group's writes while it is running; undefined when none is. */
	private committing: Promise<void> | undefined;

	constructor(private readonly storage: Pick<DurableObjectStorage, "sync">) {}

	/** A group is committing (a call now would wait for it). */
	get busy(): boolean {
		return this.committing !== undefined;
	}

	/**
	 * Runs `writes` (its storage writes made before its promise settles, with no await
	 * between reading and writing) once no earlier group is committing, and answers
	 * what it answers; the output gate still holds the answer until it is durable.
	 */
	async write<T>(writes: () => Promise<T>): Promise<T> {
		// Stryker disable next-line ConditionalExpression: `true` awaits undefined when none runs, a microtask and nothing else
		if (this.committing) await this.committing;
		try {
			return await writes();
		} finally {
			// The first of a group to write starts watching its commit; the rest joined it.
			this.committing ??= this.storage.sync().then(this.ended, this.ended);
		}
	}

	/** A failed commit breaks the object (its output gate); later calls must not wait on it. */
	private readonly ended = (): void => {
		this.committing = undefined;
	};
}
