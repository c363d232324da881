/**
 * `npm run dev:consumer`: the example consumer (port 8788) and edge-ids in one
 * `wrangler dev`, with their own state directory (.wrangler/consumer-state).
 * Arguments are passed on to wrangler (`npm run dev:consumer -- --port 9000`); like
 * `npm run dev`, it refuses to start while another dev server uses its state.
 */
import { consumerSessionArgs } from "../lib/consumer-session";
import { runDevSession } from "../lib/dev-session";

const given = process.argv.slice(2);
/** A default, unless the caller gave the option itself. */
const unless = (option: string, value: string) =>
	given.some((arg) => arg === option || arg.startsWith(`${option}=`)) ? [] : [option, value];
runDevSession(
	[
		"dev",
		...consumerSessionArgs(),
		...unless("--port", "8788"),
		...unless("--persist-to", ".wrangler/consumer-state"),
		...given,
	],
	["npm run dev:consumer", ...given].join(" "),
);
