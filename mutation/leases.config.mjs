/** Worker-ID leases: the service's rules and keeper, and the holder (whatever files it spans). */
import { area } from "./base.mjs";

export default area("leases", ["src/ids/leases/**/*.ts"], 91);
