import fc from "fast-check";

/** TypeID prefixes by the spec's rule: empty, or 1-63 of a-z and _ with a letter first and last. */
export const prefixes = fc.oneof(
	fc.constant(""),
	fc
		.tuple(
			fc.stringMatching(/^[a-z]$/),
			fc.stringMatching(/^[a-z_]{0,61}$/),
			fc.stringMatching(/^[a-z]$/),
		)
		.map(([first, middle, last]) => first + middle + last),
	fc.stringMatching(/^[a-z]$/),
);
