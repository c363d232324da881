/**
 * Lease IDs: bearer capabilities of 192 random bits, written as 32 URL-safe base64
 * characters. The Worker makes one for each grant and hands it to the holder; the
 * object stores and compares only its SHA-256 (hex), in constant time, so neither
 * storage nor the object ever holds a leaseId, and no log line or error message
 * shows one.
 *
 *   const leaseId = newLeaseId();            // "q8Vn0u2…" (32 characters)
 *   const hash = await leaseHashOf(leaseId); // 64 hex digits, what the object stores
 */

const LEASE_ID_BYTES = 24;

/** A new leaseId from `crypto.getRandomValues` (per call: no randomness at module scope). */
export function newLeaseId(): string {
	const bytes = new Uint8Array(LEASE_ID_BYTES);
	crypto.getRandomValues(bytes);
	return btoa(String.fromCharCode(...bytes))
		.replaceAll("+", "-")
		.replaceAll("/", "_");
}

/** The SHA-256 of a leaseId, as 64 hex digits: what the object stores and compares. */
export async function leaseHashOf(leaseId: string): Promise<string> {
	const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(leaseId));
	return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

const encoder = new TextEncoder();

/** Two lease hashes compared in constant time (`crypto.subtle.timingSafeEqual`, workerd's). */
export function sameLeaseHash(a: string, b: string): boolean {
	const left = encoder.encode(a);
	const right = encoder.encode(b);
	// Hashes are all 64 digits: a length that differs is no secret.
	return left.byteLength === right.byteLength && crypto.subtle.timingSafeEqual(left, right);
}
