/**
 * The sequences panel: create a named sequence with its settings (PUT), take its
 * next numbers, show its status, and retire it (DELETE, after the browser's own
 * confirmation: it cannot be undone), through the /sequences routes.
 *
 *   setUpSequencePanel(); // wires #seq-form's Create, Next, Status and Retire buttons
 */
import type { SequenceNumbers, SequenceStatus } from "../wire";
import { api, errorBox, shownCountError } from "./api";
import { byId, el } from "./dom";
import { MAX_SHOWN, parseShownCount, sequencePath } from "./requests";

function statusList(status: SequenceStatus): HTMLElement {
	const { settings } = status;
	const rows: [string, string, string][] = [
		["Next number", "next", status.next ?? "none (2^63 − 1 issued)"],
		["Issued", "issued", status.issued],
		["Requests", "requests", String(status.requests)],
		[
			"Settings",
			"settings",
			`start ${settings.start}, ${settings.mode}, reset ${settings.reset}, ${settings.timeZone}`,
		],
		["Period", "period", status.period ?? "none (no reset)"],
		["Created", "created", status.created],
	];
	if (status.step !== undefined) rows.push(["Pooled step", "step", String(status.step)]);
	if (status.retiredAt !== undefined) rows.push(["Retired", "retiredAt", status.retiredAt]);
	return el(
		"dl",
		{ class: "fields" },
		rows.flatMap(([label, field, value]) => [
			el("dt", { text: label }),
			el("dd", { class: "mono", "data-field": field, text: value }),
		]),
	);
}

export function setUpSequencePanel(): void {
	const form = byId<HTMLFormElement>("seq-form");
	const name = byId<HTMLInputElement>("seq-name");
	const count = byId<HTMLInputElement>("seq-count");
	const buttons = ["seq-create", "seq-next", "seq-show", "seq-retire"].map((id) =>
		byId<HTMLButtonElement>(id),
	);
	const status = byId("seq-status");
	const output = byId("seq-output");

	async function run(busy: string, work: () => Promise<void>): Promise<void> {
		for (const button of buttons) button.disabled = true;
		status.textContent = busy;
		output.replaceChildren();
		try {
			await work();
		} catch (error) {
			status.textContent = "";
			output.replaceChildren(errorBox(error));
		} finally {
			for (const button of buttons) button.disabled = false;
		}
	}

	form.addEventListener("submit", (event) => {
		event.preventDefault();
		void run("Creating…", async () => {
			const create = {
				start: byId<HTMLInputElement>("seq-start").value,
				mode: byId<HTMLSelectElement>("seq-mode").value,
				reset: byId<HTMLSelectElement>("seq-reset").value,
				timeZone: byId<HTMLInputElement>("seq-zone").value,
			};
			const answer = await api<SequenceStatus>(sequencePath(name.value, { create }), "PUT");
			status.textContent = `Sequence "${answer.name}" is ready.`;
			output.replaceChildren(statusList(answer));
		});
	});
	byId("seq-next").addEventListener("click", () => {
		const asked = parseShownCount(count.value);
		if (asked === undefined) {
			output.replaceChildren(errorBox(shownCountError(MAX_SHOWN)));
			count.focus();
			return;
		}
		void run("Taking numbers…", async () => {
			const answer = await api<SequenceNumbers>(sequencePath(name.value, { next: asked }), "POST");
			const period = answer.period ? ` (period ${answer.period})` : "";
			status.textContent = `${answer.count} number${answer.count === 1 ? "" : "s"} of "${answer.name}"${period}.`;
			output.replaceChildren(
				el(
					"ol",
					{ class: "ids mono", id: "seq-numbers" },
					answer.numbers.map((n) => el("li", { text: n })),
				),
			);
		});
	});
	byId("seq-show").addEventListener("click", () => {
		void run("Reading…", async () => {
			const answer = await api<SequenceStatus>(sequencePath(name.value, "status"));
			status.textContent = `Sequence "${answer.name}".`;
			output.replaceChildren(statusList(answer));
		});
	});
	byId("seq-retire").addEventListener("click", () => {
		const asked = name.value.trim();
		const sure = window.confirm(
			`Retire "${asked}" for good? It will issue nothing more, and the name can never be created again.`,
		);
		if (!sure) return;
		void run("Retiring…", async () => {
			const path = sequencePath(asked, "retire");
			const answer = await api<SequenceStatus>(path, "DELETE", { confirm: asked });
			status.textContent = `Sequence "${answer.name}" is retired: it issues nothing more.`;
			output.replaceChildren(statusList(answer));
		});
	});
}
