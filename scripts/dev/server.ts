/**
 * `npm run dev` and `npm start`: `wrangler dev` with its arguments
 * (`npm run dev -- --port 8788`), refusing to start while another dev server uses
 * the same state directory (./lib/dev-session.ts).
 */
import { runDevSession } from "../lib/dev-session";

const args = process.argv.slice(2);
runDevSession(["dev", ...args], ["npm run dev", ...args].join(" "));
