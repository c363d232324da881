import { IdError } from "../../ids/errors";

/**
 * Every setting's problem, gathered so that one `invalid_config` lists them all:
 * `read` runs one variable's parser and answers its fallback if it refuses.
 */
export class ConfigProblems {
	readonly found: string[] = [];

	read<T>(parse: () => T, fallback: T): T {
		try {
			return parse();
		} catch (error) {
			if (!(error instanceof IdError)) throw error;
			this.found.push(error.detail);
			return fallback;
		}
	}

	/** One error naming every problem, or nothing when the config is valid. */
	error(): IdError | undefined {
		const [only, ...more] = this.found;
		if (only === undefined) return undefined;
		if (more.length === 0) return new IdError("invalid_config", only);
		return new IdError(
			"invalid_config",
			`${this.found.length} settings are invalid: ${this.found.map((problem, i) => `(${i + 1}) ${problem}`).join("; ")}`,
		);
	}
}
