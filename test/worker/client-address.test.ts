/**
 * Rate-limit keys of client addresses: IPv4 by address, IPv6 by /64 whatever the
 * spelling, IPv4-mapped IPv6 as IPv4, loopback never limited. The pure function
 * on generated addresses, then the keys a request really reaches the limiter with.
 */
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { addressKey } from "../../src/worker/http/middleware/client-address";
import { fetchApp } from "../shared/fetch-app";

const group = fc.integer({ min: 0, max: 0xffff });
/** Eight groups, the first not 0: never IPv4-mapped, never loopback. */
const groups = fc
	.tuple(fc.integer({ min: 1, max: 0xffff }), fc.array(group, { minLength: 7, maxLength: 7 }))
	.map(([first, rest]) => [first, ...rest]);

/** Ways to write the same eight groups: zero-padded, upper case, the longest zero run as `::`. */
function spellings(words: number[]): string[] {
	const hex = words.map((word) => word.toString(16));
	const full = words.map((word) => word.toString(16).padStart(4, "0"));
	const compressed = (parts: string[]) => {
		let best = { at: -1, length: 0 };
		for (let at = 0; at < 8; at++) {
			let length = 0;
			while (at + length < 8 && words[at + length] === 0) length++;
			if (length > best.length) best = { at, length };
		}
		if (best.length < 2) return parts.join(":");
		return `${parts.slice(0, best.at).join(":")}::${parts.slice(best.at + best.length).join(":")}`;
	};
	return [
		hex.join(":"),
		full.join(":"),
		full.join(":").toUpperCase(),
		compressed(hex),
		compressed(full),
		`${hex.join(":")}%eth0`,
	];
}

describe("addressKey", () => {
	it("gives every spelling of one IPv6 address one key: its /64", () => {
		fc.assert(
			fc.property(groups, (words) => {
				const keys = new Set(spellings(words).map(addressKey));
				expect([...keys]).toEqual([
					`ip:${words
						.slice(0, 4)
						.map((w) => w.toString(16))
						.join(":")}::/64`,
				]);
			}),
			{ seed: 64, numRuns: 500 },
		);
	});

	it("gives addresses in one /64 one key, and in another /64 another", () => {
		fc.assert(
			fc.property(groups, groups, (a, b) => {
				const sameNetwork = [...a.slice(0, 4), ...b.slice(4)];
				expect(addressKey(spellings(sameNetwork)[3] as string)).toBe(
					addressKey(spellings(a)[0] as string),
				);
				const otherNetwork = [...a.slice(0, 3), (a[3] as number) ^ 1, ...a.slice(4)];
				expect(addressKey(spellings(otherNetwork)[1] as string)).not.toBe(
					addressKey(spellings(a)[1] as string),
				);
			}),
			{ seed: 65, numRuns: 300 },
		);
	});

	it.each([
		["203.0.113.9", "ip:203.0.113.9"],
		["::ffff:203.0.113.9", "ip:203.0.113.9"],
		["::FFFF:cb00:7109", "ip:203.0.113.9"],
		["0:0:0:0:0:ffff:203.0.113.9", "ip:203.0.113.9"],
		["2001:db8::1", "ip:2001:db8:0:0::/64"],
		["2001:DB8:0:0:ffff:ffff:ffff:ffff", "ip:2001:db8:0:0::/64"],
		["2001:db8:1::", "ip:2001:db8:1:0::/64"],
		["64:ff9b::203.0.113.9", "ip:64:ff9b:0:0::/64"],
		["127.0.0.1", undefined],
		["127.255.0.9", undefined],
		["::1", undefined],
		["0:0:0:0:0:0:0:1", undefined],
		["::ffff:127.0.0.1", undefined],
		["not an address", "ip:unparsed"],
		["1::2::3", "ip:unparsed"],
		["1:2:3:4:5:6:7:8:9", "ip:unparsed"],
		["1:2:3:4:5:6:7", "ip:unparsed"],
		["256.0.0.1", "ip:unparsed"],
		["12345::1", "ip:unparsed"],
	])("%s → %s", (address, key) => {
		expect(addressKey(address)).toBe(key);
	});
});

describe("the rate limiter's key for a caller", () => {
	afterEach(() => vi.restoreAllMocks());

	it("is one per /64: rotating addresses within it buys no fresh budget", async () => {
		const limit = vi.spyOn(env.RATE_LIMITER, "limit").mockResolvedValue({ success: true });
		for (const address of [
			"2001:db8:aa:bb::1",
			"2001:db8:aa:bb:dead:beef:0:2",
			"2001:0DB8:00AA:00BB::ffff",
		]) {
			const response = await fetchApp("/uuidv7", { headers: { "CF-Connecting-IP": address } });
			expect(response.status).toBe(200);
		}
		expect(new Set(limit.mock.calls.map(([options]) => options.key))).toEqual(
			new Set(["ip:2001:db8:aa:bb::/64"]),
		);
	});
});
