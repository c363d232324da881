/**
 * Run by sequence-buffer.test.ts in its own Node process: a `next` waiting for a
 * reserve that never answers, then `close()`: the process must end at once, not when
 * the wait's 30-second timer would have fired.
 */
import { createSequenceBuffer, type IdsError } from "../../src/client";

const buffer = createSequenceBuffer({
	source: { reserveInSequence: () => new Promise(() => {}) },
	name: "orders",
	maxWaitMs: 30_000,
});
const waiting = buffer.next().catch((error: unknown) => (error as IdsError).code);
await new Promise((resolve) => setTimeout(resolve, 50));
buffer.close();
console.log(await waiting);
