/**
 * Group commit (src/worker/object/commit-groups.ts): a call that arrives while an
 * earlier group's commit runs writes only after it ends, together with every other
 * call that waited for it — one commit watched per group — and a failed commit
 * holds no one up. Commits are scripted (`sync` resolves when the test says), then
 * the same burst runs on a real sequence object's storage.
 */
import { describe, expect, it } from "vitest";
import { CommitGroups } from "../../src/worker/object/commit-groups";
import { createdSequence, sequenceStub } from "./sequence-helpers";

/** A storage whose commits end when `end(i)` is called: `sync()` calls in order. */
class ScriptedCommits {
	readonly commits: { end: () => void; fail: () => void }[] = [];
	sync(): Promise<void> {
		return new Promise((resolve, reject) => {
			this.commits.push({ end: resolve, fail: () => reject(new Error("commit failed")) });
		});
	}
}

const turn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe("CommitGroups", () => {
	it("writes a call at once when no commit runs, and watches its commit", async () => {
		const storage = new ScriptedCommits();
		const groups = new CommitGroups(storage);
		const wrote: string[] = [];
		expect(await groups.write(async () => wrote.push("a"))).toBe(1);
		expect(wrote).toEqual(["a"]);
		expect(storage.commits).toHaveLength(1);
		expect(groups.busy).toBe(true);
		storage.commits[0]?.end();
		await turn();
		expect(groups.busy).toBe(false);
	});

	it("holds calls that arrive during a commit, then writes them as one group with one commit", async () => {
		const storage = new ScriptedCommits();
		const groups = new CommitGroups(storage);
		const wrote: string[] = [];
		await groups.write(async () => wrote.push("a"));
		const waiting = ["b", "c", "d"].map((name) => groups.write(async () => wrote.push(name)));
		await turn();
		expect(wrote).toEqual(["a"]); // nothing written while the first commit runs
		storage.commits[0]?.end();
		await Promise.all(waiting);
		expect(wrote).toEqual(["a", "b", "c", "d"]);
		expect(storage.commits).toHaveLength(2); // b, c and d share the second commit
		// A call during the second commit waits for it in turn.
		const late = groups.write(async () => wrote.push("e"));
		await turn();
		expect(wrote).toHaveLength(4);
		storage.commits[1]?.end();
		await late;
		expect(wrote).toEqual(["a", "b", "c", "d", "e"]);
		expect(storage.commits).toHaveLength(3);
	});

	it("lets later calls write after a failed commit, and passes a call's own failure on", async () => {
		const storage = new ScriptedCommits();
		const groups = new CommitGroups(storage);
		await groups.write(async () => "a");
		const next = groups.write(async () => "b");
		storage.commits[0]?.fail();
		expect(await next).toBe("b");
		storage.commits[1]?.end();
		await turn();
		await expect(
			groups.write(async () => {
				throw new Error("refused");
			}),
		).rejects.toThrow("refused");
		expect(groups.busy).toBe(true); // its commit is watched all the same
	});

	it("gives a burst of concurrent callers of one real object distinct, consecutive numbers", async () => {
		const name = await createdSequence("groups", { start: 1 });
		const stub = sequenceStub(name);
		const answers = await Promise.all(
			Array.from({ length: 40 }, (_, i) => stub.next(name, 1 + (i % 3))),
		);
		const numbers = answers.flatMap((answer) => {
			if (!answer.ok) throw new Error(answer.detail);
			const first = Number(answer.first);
			expect(Number(answer.last) - first + 1).toBe(answer.count);
			return Array.from({ length: answer.count }, (_, i) => first + i);
		});
		numbers.sort((a, b) => a - b);
		const total = answers.reduce((sum, a) => sum + (a.ok ? a.count : 0), 0);
		expect(numbers).toEqual(Array.from({ length: total }, (_, i) => 1 + i));
	});
});
