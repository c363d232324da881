/**
 * The storage writes a Snowflake object makes, as the tests that bound them count
 * them: every `kv.put` is one row written (the unit Durable Object storage is billed
 * in) and is recorded by its key; a `kv.delete` as `delete <key>`; an SQL statement
 * that is not a read as `sql <statement>`.
 *
 *   const written = await recordWrites(690);
 *   expect(await writesOf(written, () => call("/snowflake/690"))).toEqual([]);
 */
import { runInDurableObject } from "cloudflare:test";
import type { SnowflakeWorker } from "../../src/worker/object/snowflake-worker";
import { snowflakeStub } from "./helpers";

/**
 * The writes the worker ID's current instance makes from now on, in order (a fresh
 * instance's too: this only constructs it, it starts at its first call).
 */
export async function recordWrites(workerId: number): Promise<string[]> {
	const written: string[] = [];
	await runInDurableObject(snowflakeStub(workerId), (_i: SnowflakeWorker, state) => {
		const { kv, sql } = state.storage;
		const put = kv.put.bind(kv);
		kv.put = (key: string, value: unknown) => {
			written.push(key);
			put(key, value);
		};
		const remove = kv.delete.bind(kv);
		kv.delete = (key: string) => {
			written.push(`delete ${key}`);
			return remove(key);
		};
		const exec = sql.exec.bind(sql);
		sql.exec = ((query: string, ...bindings: unknown[]) => {
			if (!/^\s*SELECT\b/i.test(query)) written.push(`sql ${query.trim()}`);
			return exec(query, ...bindings);
		}) as typeof sql.exec;
	});
	return written;
}

/** The writes `step` made (and empties the record). */
export async function writesOf(written: string[], step: () => Promise<unknown>): Promise<string[]> {
	written.length = 0;
	await step();
	return written.splice(0);
}
