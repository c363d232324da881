/** The HTTP client (src/client): deadlines, retries, pools, lease calls, the leased generator. */
import { area } from "./base.mjs";

export default area("client", ["src/client/**/*.ts"], 73);
