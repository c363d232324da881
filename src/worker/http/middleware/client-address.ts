/**
 * The rate-limit key of a client address (`CF-Connecting-IP`): an IPv4 address is
 * one caller, an IPv6 caller is its /64 — one subscriber usually holds a whole /64
 * and may pick any address in it, so a key per address would be a budget per
 * address. An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`) is its IPv4 address.
 * Every spelling of the same /64 (compressed, expanded, upper case, a zone) gives
 * one key. Loopback addresses (`wrangler dev` on this machine) have no key: they
 * are not limited.
 *
 *   addressKey("2001:db8:0:1::7")             // "ip:2001:db8:0:1::/64"
 *   addressKey("2001:0DB8:0000:0001:ffff::1")  // "ip:2001:db8:0:1::/64"
 *   addressKey("::ffff:203.0.113.9")           // "ip:203.0.113.9"
 *   addressKey("127.0.0.1")                    // undefined
 */

/** Cloudflare always sends a valid address; anything else shares one budget. */
const UNPARSED = "ip:unparsed";

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const HEX_GROUP = /^[0-9a-f]{1,4}$/i;

function ipv4Octets(text: string): number[] | undefined {
	const match = IPV4.exec(text);
	if (!match) return undefined;
	const octets = match.slice(1).map(Number);
	return octets.every((octet) => octet <= 255) ? octets : undefined;
}

function ipv4Key(octets: number[]): string | undefined {
	return octets[0] === 127 ? undefined : `ip:${octets.join(".")}`;
}

/** The eight 16-bit groups of an IPv6 address, or undefined when it is not one. */
function ipv6Groups(text: string): number[] | undefined {
	// A zone (`fe80::1%eth0`) names no other host; a trailing dotted quad is two groups.
	let rest = text.split("%")[0] ?? "";
	const dotted = /:(\d+\.[\d.]*)$/.exec(rest);
	if (dotted) {
		const octets = ipv4Octets(dotted[1] as string);
		if (!octets) return undefined;
		const [a, b, c, d] = octets as [number, number, number, number];
		rest = `${rest.slice(0, dotted.index)}:${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
	}
	const halves = rest.split("::");
	if (halves.length > 2) return undefined;
	const [head, tail] = halves.map((half) => (half === "" ? [] : half.split(":")));
	const groups = [...(head ?? []), ...(tail ?? [])];
	if (!groups.every((group) => HEX_GROUP.test(group))) return undefined;
	// Without `::` all eight groups are written; with it, it stands for at least one.
	if (tail === undefined ? groups.length !== 8 : groups.length > 7) return undefined;
	const zeros = new Array<string>(8 - groups.length).fill("0");
	return [...(head ?? []), ...zeros, ...(tail ?? [])].map((group) => Number.parseInt(group, 16));
}

/** The rate-limit key of a client address; undefined for loopback (never limited). */
export function addressKey(address: string): string | undefined {
	const v4 = ipv4Octets(address);
	if (v4) return ipv4Key(v4);
	const groups = ipv6Groups(address);
	if (!groups) return UNPARSED;
	const isMapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
	if (isMapped) {
		const [high, low] = [groups[6] as number, groups[7] as number];
		return ipv4Key([high >> 8, high & 0xff, low >> 8, low & 0xff]);
	}
	const isLoopback = groups.slice(0, 7).every((group) => group === 0) && groups[7] === 1;
	if (isLoopback) return undefined;
	return `ip:${groups
		.slice(0, 4)
		.map((group) => group.toString(16))
		.join(":")}::/64`;
}
