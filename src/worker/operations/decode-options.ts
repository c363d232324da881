/**
 * How `/decode/:id` and RPC `decode` pick the layout a Snowflake-like ID is read
 * with: the service's own (nothing given), a preset (`layout=discord`), or explicit
 * widths (`timeBits`, `workerBits`, `sequenceBits`, with `epoch` and `timeUnitMs`
 * defaulting to the service's). ULIDs and UUIDs ignore it. Each option is checked by
 * the decode contract (../contracts/forms.ts); here, only how they go together.
 *
 *   decodeWith(config, "175928847299117063", { layout: "discord" });
 */

import { IdError } from "../../ids/errors";
import { type DecodedId, decodeId } from "../../ids/forms/decode";
import {
	customLayout,
	DECODE_PRESETS,
	type DecodedForeign,
	decodeForeign,
	type ForeignLayout,
} from "../../ids/forms/foreign-layouts";
import { MAX_DATE_MS } from "../../ids/snowflake/layout";
import type { DecodeOptions } from "../../wire";
import type { Config } from "../config/config";

export type { DecodeOptions };

const WIDTHS = ["timeBits", "workerBits", "sequenceBits", "epoch", "timeUnitMs"] as const;

/** The layout the options name, or undefined for the service's own. */
function chosenLayout(config: Config, options: DecodeOptions): ForeignLayout | undefined {
	const widths = WIDTHS.filter((name) => options[name] !== undefined);
	if (options.layout !== undefined) {
		const preset = DECODE_PRESETS[options.layout];
		const widthsGiven = widths.filter((name) => name !== "epoch");
		if (widthsGiven.length > 0) {
			throw new IdError(
				"invalid_layout",
				`give either layout (with an epoch, if its system was started at another) or explicit widths, not both; got layout and ${widthsGiven.join(", ")}`,
			);
		}
		// A system's start time is often its own setting (Sonyflake v2 starts at 2025-01-01).
		const { epoch } = options;
		if (epoch === undefined) return preset;
		if (!Number.isSafeInteger(epoch) || epoch < 0 || epoch > MAX_DATE_MS) {
			throw new IdError("invalid_layout", `epoch must be Unix ms in [0, 8.64e15]; got ${epoch}`);
		}
		return { ...preset, epoch };
	}
	if (widths.length === 0) return undefined;
	const { timeBits, workerBits, sequenceBits } = options;
	if (timeBits === undefined || workerBits === undefined || sequenceBits === undefined) {
		throw new IdError(
			"invalid_layout",
			"explicit widths need timeBits, workerBits and sequenceBits (epoch and timeUnitMs default to the service's)",
		);
	}
	return customLayout({
		timeBits,
		workerBits,
		sequenceBits,
		epoch: options.epoch ?? config.layout.epoch,
		timeUnitMs: options.timeUnitMs ?? config.layout.timeUnitMs,
	});
}

/**
 * Decodes `id` under the options' layout (decimal Snowflake-like IDs) or by its shape
 * (ULID, UUID, prefixed TypeID or base32 Snowflake); `format` reads a bare TypeID or
 * base32 Snowflake.
 */
export function decodeWith(
	config: Config,
	id: string,
	options: DecodeOptions = {},
): DecodedId | DecodedForeign {
	const { format } = options;
	const layout = chosenLayout(config, options);
	if (layout && format === undefined && /^[0-9]+$/.test(id)) return decodeForeign(id, layout);
	return decodeId(id, config.layout, format);
}
