/**
 * What npm run compare:answers asks: the configs (vars, a rate limit) and, for
 * each, its requests in order — every route's successes and errors, tokens and
 * CORS, a rate limit of one, leases on and off, and each kind of bad config.
 */

export interface Ask {
	method?: string;
	path: string;
	headers?: Record<string, string>;
	body?: string;
}

export const JSON_TYPE = { "Content-Type": "application/json" };
const TOKEN = "compare-token-1";
const NEXT_TOKEN = "compare-token-2";
export const A_SNOWFLAKE = "1541815603606036480";
export const A_ULID = "01ARZ3NDEKTSV4RRFFQ69G5FAV";
export const A_UUIDV7 = "0190163d-8694-739b-aea5-966c26f8ad91";
export const A_TYPEID = "user_01h455vb4pex5vsknk084sn02q";

/** Requests every config gets: enough to show the config's effect on each layer. */
const EVERY_CONFIG: Ask[] = [
	{ path: "/health" },
	{ path: "/ulid" },
	{ path: "/snowflake/1" },
	{ path: "/layout" },
	{ path: "/openapi.json" },
	{ method: "OPTIONS", path: "/ulid", headers: PREFLIGHT("https://app.example.com") },
	{ path: "/ulid", headers: { Origin: "https://app.example.com" } },
	{ path: "/ulid", headers: { Origin: "https://other.example.com" } },
];

function PREFLIGHT(origin: string): Record<string, string> {
	return {
		Origin: origin,
		"Access-Control-Request-Method": "POST",
		"Access-Control-Request-Headers": "content-type, authorization",
	};
}

/** The default config's fixed list: every route, its successes and its errors. */
const FIXED: Ask[] = [
	{ path: "/" },
	{ method: "POST", path: "/" },
	{ method: "HEAD", path: "/health" },
	{ method: "POST", path: "/health" },
	{ method: "DELETE", path: "/health" },
	{ path: "/health?x=1" },
	{ path: "/docs" },
	{ method: "POST", path: "/docs" },
	{ path: "/nope" },
	{ path: "/health/" },
	{ path: "/ulid/" },
	{ path: "/snowflake/1/" },
	{ path: "/snowflake/1/stats/" },
	{ path: `/decode/${A_SNOWFLAKE}/` },
	{ path: "//health" },
	{ path: "/HEALTH" },
	{ path: `/${"a".repeat(5000)}` },
	{ path: `/ulid?count=${"9".repeat(5000)}` },
	// Generation routes: query, body, text, errors.
	...[
		"/ulid",
		"/uuidv7",
		"/typeid",
		"/snowflake",
		"/snowflake/1",
		"/snowflake/blocks",
		"/snowflake/2/blocks",
	].flatMap((path): Ask[] => [
		{ path },
		{ path: `${path}?count=3` },
		{ path: `${path}?count=3`, headers: { Accept: "text/plain" } },
		{ path: `${path}?count=2`, headers: { Accept: "text/html, text/plain;q=0.5" } },
		{ path: `${path}?count=0` },
		{ path: `${path}?count=-1` },
		{ path: `${path}?count=1.5` },
		{ path: `${path}?count=abc` },
		{ path: `${path}?count=` },
		{ path: `${path}?count=1&count=2` },
		{ path: `${path}?count=99999999999999999999` },
		{ path: `${path}?count=0000002` },
		{ path: `${path}?count=10001` },
		{ path: `${path}?count=1000001` },
		{ path: `${path}?format=bad` },
		{ path: `${path}?prefix=Bad-Prefix` },
		{ method: "HEAD", path },
		{ method: "PUT", path },
		{ method: "POST", path },
		{ method: "POST", path, headers: JSON_TYPE, body: "" },
		{ method: "POST", path, headers: JSON_TYPE, body: " \n" },
		{ method: "POST", path, headers: JSON_TYPE, body: '{"count": 2}' },
		{ method: "POST", path, headers: JSON_TYPE, body: '{"count": "2"}' },
		{ method: "POST", path, headers: JSON_TYPE, body: '{"count": 2.5}' },
		{ method: "POST", path, headers: JSON_TYPE, body: '{"count": 0}' },
		{ method: "POST", path, headers: JSON_TYPE, body: '{"cout": 2}' },
		{ method: "POST", path, headers: JSON_TYPE, body: '{"cout": 2, "x": 1}' },
		{ method: "POST", path, headers: JSON_TYPE, body: "[1]" },
		{ method: "POST", path, headers: JSON_TYPE, body: "7" },
		{ method: "POST", path, headers: JSON_TYPE, body: "{nope" },
		{
			method: "POST",
			path,
			headers: JSON_TYPE,
			body: `{"count": 1, "pad": "${"x".repeat(2000)}"}`,
		},
		{ method: "POST", path: `${path}?count=2`, headers: JSON_TYPE, body: '{"count": 2}' },
		{ method: "POST", path, headers: JSON_TYPE, body: '{"format": "uuid"}' },
		{ method: "POST", path, headers: JSON_TYPE, body: '{"format": "base32", "prefix": "order"}' },
		{ method: "POST", path, headers: JSON_TYPE, body: '{"prefix": 5}' },
		{
			method: "POST",
			path,
			headers: { "Content-Type": "application/vnd.api+json; charset=utf-8" },
			body: '{"count": 1}',
		},
		{ method: "POST", path, headers: { "Content-Type": "text/plain" }, body: "count=2" },
		{ method: "POST", path, headers: { "Content-Type": "text/plain" }, body: "  " },
		{ method: "POST", path, headers: { "Content-Type": "x".repeat(300) }, body: "a" },
	]),
	{ path: "/ulid?format=uuid&count=2" },
	{ path: "/typeid?prefix=user&count=2" },
	{ path: "/typeid?prefix=" },
	{ path: `/typeid?prefix=${"a".repeat(64)}` },
	{ path: "/snowflake/1?format=base32&count=2" },
	{ path: "/snowflake/1?prefix=order" },
	{ path: "/snowflake?prefix=order&format=decimal" },
	{ path: "/snowflake/1024" },
	{ path: "/snowflake/abc" },
	{ path: "/snowflake/-1" },
	{ path: "/snowflake/01" },
	{ path: "/snowflake/1?workerId=2" },
	{ path: "/snowflake/1/stats" },
	{ path: "/snowflake/3/stats" },
	{ path: "/snowflake/1024/stats" },
	{ method: "POST", path: "/snowflake/1/stats" },
	{ path: "/snowflake/2/blocks?count=1000000&format=base32" },
	// Decode.
	...[
		A_SNOWFLAKE,
		A_ULID,
		A_UUIDV7,
		A_TYPEID,
		"0190163d8694739baea5966c26f8ad91",
		`{${A_UUIDV7}}`,
		`urn:uuid:${A_UUIDV7}`,
		"order_1asd13xh1f800",
		"1asd13xh1f800",
		"01h455vb4pex5vsknk084sn02q",
		"nope",
		"12345678901234567890",
		"0",
		"%20",
		"a".repeat(200),
	].flatMap((id): Ask[] => [{ path: `/decode/${encodeURIComponent(id)}` }]),
	{ path: "/decode/1asd13xh1f800?format=base32" },
	{ path: "/decode/01h455vb4pex5vsknk084sn02q?format=typeid" },
	{ path: `/decode/${A_SNOWFLAKE}?format=nope` },
	{ path: `/decode/${A_SNOWFLAKE}?layout=discord` },
	{ path: `/decode/${A_SNOWFLAKE}?layout=sonyflake&epoch=1735689600000` },
	{ path: `/decode/${A_SNOWFLAKE}?layout=nope` },
	{ path: `/decode/${A_SNOWFLAKE}?timeBits=41&workerBits=10&sequenceBits=12` },
	{ path: `/decode/${A_SNOWFLAKE}?timeBits=41&workerBits=10` },
	{ path: `/decode/${A_SNOWFLAKE}?timeBits=x` },
	{ path: `/decode/${A_SNOWFLAKE}?timeBits=60&workerBits=10&sequenceBits=12` },
	{ path: `/decode/${A_SNOWFLAKE}?epoch=1&layout=twitter` },
	{ path: "/decode/" },
	{ method: "POST", path: `/decode/${A_SNOWFLAKE}` },
	// Ranges.
	{ path: "/range?kind=snowflake&from=2024-01-01T00:00:00Z&to=2024-01-02T00:00:00Z" },
	{ path: "/range?kind=snowflake&from=1700000000000&to=1700000001000&workerId=5&format=base32" },
	{ path: "/range?kind=snowflake&from=1700000000000&to=1700000001000&prefix=order" },
	{ path: "/range?kind=ulid&from=2024-01-01T00:00:00Z&to=2024-01-02T00:00:00Z" },
	{ path: "/range?kind=uuidv7&from=2024-01-01T00:00:00Z&to=2024-01-02T00:00:00Z" },
	{ path: "/range?kind=typeid&from=2024-01-01T00:00:00Z&to=2024-01-02T00:00:00Z&prefix=user" },
	{ path: "/range?kind=nope&from=1&to=2" },
	{ path: "/range?kind=ulid&to=2" },
	{ path: "/range?kind=ulid&from=x&to=2" },
	{ path: "/range?kind=ulid&from=5&to=2" },
	{ path: "/range?kind=snowflake&from=1&to=2" },
	{ path: "/range?kind=snowflake&from=1700000000000&to=1700000001000&workerId=5000" },
	{ path: "/range?kind=snowflake&from=1700000000000&to=1700000001000&workerId=x" },
	// The rest.
	{ path: "/regions" },
	{ method: "POST", path: "/regions" },
	{ path: "/layout?x=1" },
	{ method: "OPTIONS", path: "/snowflake/1", headers: PREFLIGHT("https://anywhere.example") },
	{ path: "/snowflake/1/stats" },
];

/** The auth config's list: public paths, each way to send or miss a token. */
const WITH_TOKENS: Ask[] = [
	{ path: "/ulid" },
	{ path: "/ulid", headers: { Authorization: `Bearer ${TOKEN}` } },
	{ path: "/ulid", headers: { Authorization: `bearer   ${NEXT_TOKEN}` } },
	{ path: "/ulid", headers: { Authorization: "Bearer wrong" } },
	{ path: "/ulid", headers: { Authorization: "Basic abc" } },
	{ path: "/ulid", headers: { Authorization: "" } },
	{ path: "/snowflake/1/stats", headers: { Authorization: `Bearer ${TOKEN}` } },
	{ path: "/nope" },
	{ path: "/docs" },
	{ path: "/" },
	{
		method: "POST",
		path: "/ulid",
		headers: { Authorization: `Bearer ${TOKEN}`, ...JSON_TYPE },
		body: '{"count":2}',
	},
];

/** Rate limited to one request per period: the second from one address is refused. */
const RATE_LIMITED: Ask[] = [
	{ path: "/ulid", headers: { "CF-Connecting-IP": "203.0.113.7" } },
	{ path: "/ulid", headers: { "CF-Connecting-IP": "203.0.113.7" } },
	{ path: "/health", headers: { "CF-Connecting-IP": "203.0.113.7" } },
	{ path: "/ulid", headers: { "CF-Connecting-IP": "2001:db8:0:1::7" } },
	{ path: "/ulid", headers: { "CF-Connecting-IP": "2001:db8:0:1::8" } },
];

/** A well-formed leaseId that is no lease's. */
export const NO_LEASE = "A".repeat(32);
/** In a lease ask's path or body, the leaseId the last acquire answered. */
export const LAST_LEASE = "{lease}";
const LEASE_BODY = `{"leaseId":"${LAST_LEASE}"}`;
const NO_LEASE_BODY = `{"leaseId":"${NO_LEASE}"}`;

/** Leases on: acquire, renew, release and status, and each refusal. */
const LEASES: Ask[] = [
	{ method: "POST", path: "/leases" },
	{
		method: "POST",
		path: "/leases",
		headers: JSON_TYPE,
		body: '{"holder":"pod-1","workerId":901}',
	},
	{ path: "/leases/901" },
	{ method: "POST", path: "/leases/901/renew", headers: JSON_TYPE, body: LEASE_BODY },
	{ method: "POST", path: "/leases/901/renew" },
	{ method: "POST", path: "/leases/901/renew", headers: JSON_TYPE, body: "{}" },
	{ method: "POST", path: "/leases/901/renew", headers: JSON_TYPE, body: '{"x":1}' },
	{ method: "POST", path: "/leases", headers: JSON_TYPE, body: '{"workerId":901}' },
	{ method: "POST", path: "/leases/901/release", headers: JSON_TYPE, body: LEASE_BODY },
	{ method: "POST", path: "/leases/901/release", headers: JSON_TYPE, body: NO_LEASE_BODY },
	{ method: "POST", path: "/leases/901/renew", headers: JSON_TYPE, body: NO_LEASE_BODY },
	{ method: "POST", path: "/leases/901/renew", headers: JSON_TYPE, body: '{"leaseId":"short"}' },
	{ method: "POST", path: "/leases/901/renew", headers: JSON_TYPE, body: '{"leaseId":7}' },
	{ method: "POST", path: "/leases/5/renew", headers: JSON_TYPE, body: NO_LEASE_BODY },
	{ method: "POST", path: "/leases/x/release", headers: JSON_TYPE, body: NO_LEASE_BODY },
	// The 0.2.0 forms, the leaseId in the URL: 410, naming the routes above.
	{ method: "POST", path: `/leases/901/${LAST_LEASE}/renew` },
	{ method: "DELETE", path: `/leases/901/${NO_LEASE}` },
	{ path: "/leases/901" },
	{ path: "/leases/5" },
	{ path: "/leases/abc" },
	{ path: "/leases/0901" },
	{ path: "/leases/901?x=1" },
	{ method: "POST", path: "/leases", headers: JSON_TYPE, body: '{"workerId":5}' },
	{ method: "POST", path: "/leases", headers: JSON_TYPE, body: '{"workerId":"901"}' },
	{ method: "POST", path: "/leases", headers: JSON_TYPE, body: '{"workerId":901.5}' },
	{ method: "POST", path: "/leases", headers: JSON_TYPE, body: '{"holder":""}' },
	{ method: "POST", path: "/leases", headers: JSON_TYPE, body: '{"holder":7}' },
	{ method: "POST", path: "/leases", headers: JSON_TYPE, body: `{"holder":"${"x".repeat(129)}"}` },
	{ method: "POST", path: "/leases", headers: JSON_TYPE, body: '{"holder":"a\\u0007b"}' },
	{ method: "POST", path: "/leases", headers: JSON_TYPE, body: '{"hold":"x"}' },
	{ method: "POST", path: "/leases", headers: JSON_TYPE, body: "[]" },
	{ method: "POST", path: "/leases", headers: { "Content-Type": "text/plain" }, body: "x" },
	{ method: "PUT", path: "/leases" },
	{ path: "/snowflake/901" },
	{ path: "/snowflake/901/blocks" },
];

/** Bad configs: each kind of refusal, and several at once. */
const BAD_CONFIGS: Record<string, string>[] = [
	{ MAX_BATCH: "abc" },
	{ MAX_BATCH: " 12 " },
	{ MAX_BATCH: "0012" },
	{ MAX_BATCH: "-5" },
	{ MAX_BATCH: "1e3" },
	{ MAX_BATCH: "100001" },
	{ MAX_BATCH: "99999999999999999999999" },
	{ SNOWFLAKE_TIME_BITS: "99" },
	{ SNOWFLAKE_TIME_BITS: "52", SNOWFLAKE_WORKER_BITS: "10", SNOWFLAKE_SEQUENCE_BITS: "12" },
	{ SNOWFLAKE_WORKER_BITS: "31", WORKER_IDS: "0-5000" },
	{ SNOWFLAKE_WORKER_BITS: "x", WORKER_IDS: "0-5000" },
	{ SNOWFLAKE_EPOCH: "99999999999999" },
	{ SNOWFLAKE_TIME_UNIT_MS: "0" },
	{ SNOWFLAKE_WORKER_BITS: "3" },
	{ SNOWFLAKE_WORKER_BITS: "0" },
	{ POOL_MAX_AGE_MS: "5", SNOWFLAKE_TIME_UNIT_MS: "10" },
	{ POOL_MAX_AGE_MS: "0" },
	{ LEASE_MS: "60000" },
	{ MAX_BORROW_MS: "1001", MAX_WAIT_MS: "0" },
	{ REQUEST_LOG: "maybe" },
	{ REQUEST_LOG: "off" },
	{ RATE_LIMIT_PERIOD: "30" },
	{ RATE_LIMIT_PERIOD: "60" },
	{ CORS_ORIGINS: "app.example.com" },
	{ CORS_ORIGINS: " https://a.example.com , https://b.example.com " },
	{ API_TOKEN: "has space" },
	{ API_TOKEN_NEXT: "next-only" },
	{ WORKER_IDS: "5-1" },
	{ WORKER_IDS: "0-9", AUTO_WORKER_IDS: "8-12" },
	{ WORKER_IDS: "0-9", AUTO_WORKER_IDS: "2,4" },
	{ AUTO_REGIONS: "wnam:0-7 enam:8-15" },
	{ AUTO_REGIONS: "mars:0-7" },
	{ AUTO_REGIONS: "wnam:0-7", WORKER_IDS: "100-200" },
	{
		MAX_BATCH: "x",
		MAX_BLOCK_COUNT: "0",
		SNOWFLAKE_TIME_BITS: "0",
		CORS_ORIGINS: "nope",
		REQUEST_LOG: "1",
	},
];

interface Config {
	name: string;
	vars?: Record<string, string>;
	rateLimit?: number;
	asks: Ask[];
	/** Also ask what the OpenAPI document lists. */
	fromDocument?: boolean;
}

export const CONFIGS: Config[] = [
	// Auto requests pick among 16-31, so the named worker IDs' stats count only named requests.
	{
		name: "default",
		vars: { AUTO_WORKER_IDS: "16-31" },
		asks: [...EVERY_CONFIG, ...FIXED],
		fromDocument: true,
	},
	{
		name: "tokens and narrow CORS",
		vars: { API_TOKEN: TOKEN, API_TOKEN_NEXT: NEXT_TOKEN, CORS_ORIGINS: "https://app.example.com" },
		asks: [...EVERY_CONFIG, ...WITH_TOKENS],
	},
	{ name: "rate limit 1", rateLimit: 1, asks: RATE_LIMITED },
	{ name: "leases", vars: { LEASE_WORKER_IDS: "900-1023" }, asks: [...EVERY_CONFIG, ...LEASES] },
	{ name: "leases off", asks: LEASES.slice(0, 4) },
	...BAD_CONFIGS.map((vars) => ({ name: JSON.stringify(vars), vars, asks: EVERY_CONFIG })),
];
