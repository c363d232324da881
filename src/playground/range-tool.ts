/** The range tool: the tightest [min, max] of IDs of a kind made in a time window, via /range. */
import { api, errorBox } from "./api";
import { byId, el } from "./dom";
import { rangePath } from "./requests";

interface RangeAnswer {
	kind: string;
	from: string;
	to: string;
	min: string;
	max: string;
}

/** A `datetime-local` value (this browser's time) as ISO 8601 UTC; "" stays "". */
function localToIso(value: string): string {
	if (!value) return "";
	const date = new Date(value);
	return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

/** The value a `datetime-local` input shows for `date` (local time, to the second). */
function localValue(date: Date): string {
	const shifted = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
	return shifted.toISOString().slice(0, 19);
}

export function setUpRangeTool(): void {
	const form = byId<HTMLFormElement>("range-form");
	const kind = byId<HTMLSelectElement>("range-kind");
	const from = byId<HTMLInputElement>("range-from");
	const to = byId<HTMLInputElement>("range-to");
	const prefix = byId<HTMLInputElement>("range-prefix");
	const button = byId<HTMLButtonElement>("range-button");
	const status = byId("range-status");
	const output = byId("range-output");
	// Default window: the last hour.
	const now = new Date();
	to.value = localValue(now);
	from.value = localValue(new Date(now.getTime() - 3_600_000));
	const syncPrefix = () => {
		prefix.disabled = kind.value === "ulid" || kind.value === "uuidv7";
	};
	kind.addEventListener("change", syncPrefix);
	syncPrefix();

	form.addEventListener("submit", async (event) => {
		event.preventDefault();
		button.disabled = true;
		status.textContent = "Finding bounds…";
		output.replaceChildren();
		try {
			const path = rangePath(
				kind.value,
				localToIso(from.value),
				localToIso(to.value),
				prefix.disabled ? "" : prefix.value,
			);
			const answer = await api<RangeAnswer>(path);
			const quote = answer.kind === "snowflake" && /^[0-9]+$/.test(answer.min) ? "" : "'";
			output.replaceChildren(
				el("dl", { class: "fields" }, [
					el("dt", { text: "Smallest ID" }),
					el("dd", { class: "mono", "data-field": "min", text: answer.min }),
					el("dt", { text: "Largest ID" }),
					el("dd", { class: "mono", "data-field": "max", text: answer.max }),
					el("dt", { text: "SQL" }),
					el("dd", {
						class: "mono",
						"data-field": "sql",
						text: `WHERE id BETWEEN ${quote}${answer.min}${quote} AND ${quote}${answer.max}${quote}`,
					}),
				]),
			);
			status.textContent = `Every ${kind.selectedOptions[0]?.text ?? answer.kind} made from ${answer.from} until ${answer.to} lies between these.`;
		} catch (error) {
			status.textContent = "";
			output.replaceChildren(errorBox(error));
		} finally {
			button.disabled = false;
		}
	});
}
