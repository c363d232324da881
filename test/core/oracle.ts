/**
 * Shared by the ULID, UUIDv7 and base32 tests: an independent BigInt oracle of
 * the encodings (written from the specs, not from src/), and assertions.
 */
import { expect } from "vitest";
import { IdError } from "../../src/ids/errors";

export const SPEC_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

export function toBase32(value: bigint, length: number): string {
	let text = "";
	let rest = value;
	for (let i = 0; i < length; i++) {
		text = SPEC_ALPHABET.charAt(Number(rest % 32n)) + text;
		rest /= 32n;
	}
	return text;
}

export function fromBase32(text: string): bigint {
	let value = 0n;
	for (const char of text) value = value * 32n + BigInt(SPEC_ALPHABET.indexOf(char));
	return value;
}

export function bytesOf(value: bigint, length: number): Uint8Array {
	const bytes = new Uint8Array(length);
	let rest = value;
	for (let i = length - 1; i >= 0; i--) {
		bytes[i] = Number(rest & 0xffn);
		rest >>= 8n;
	}
	return bytes;
}

export function bigOf(bytes: Uint8Array): bigint {
	let value = 0n;
	for (const byte of bytes) value = (value << 8n) | BigInt(byte);
	return value;
}

export function uuidOf(value: bigint): string {
	const hex = value.toString(16).padStart(32, "0");
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function expectIdError(run: () => unknown, code: string, message?: RegExp): IdError {
	let thrown: unknown;
	try {
		run();
	} catch (error) {
		thrown = error;
	}
	expect(thrown).toBeInstanceOf(IdError);
	const error = thrown as IdError;
	expect(error.code).toBe(code);
	if (message) expect(error.detail).toMatch(message);
	return error;
}
