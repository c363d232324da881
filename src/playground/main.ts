/**
 * The playground's script: generate IDs, copy them, decode any ID into its fields
 * and bits. Every call goes to this service's own routes (same origin).
 */
import { DECODE_PRESETS, PRESET_NAMES, type PresetName } from "../ids/forms/foreign-layouts";
import { ApiError, api, errorBox, shownCountError } from "./api";
import { type Decoded, kindName, renderDecoded } from "./decoded-view";
import { byId, copyText, el, flashCopied, relative } from "./dom";
import { getLayout, knownLayout, loadLayout } from "./layout-panel";
import { setUpRangeTool } from "./range-tool";
import {
	decodePath,
	type GeneratedKind,
	generatePath,
	MAX_SHOWN,
	parseShownCount,
} from "./requests";
import { setUpSequencePanel } from "./sequence-panel";

// ---- generate ----
const genForm = byId<HTMLFormElement>("gen-form");
const genButton = byId<HTMLButtonElement>("gen-button");
const genStatus = byId("gen-status");
const genOutput = byId("gen-output");
const idList = byId<HTMLOListElement>("ids");
const copyAll = byId<HTMLButtonElement>("copy-all");
const workerInput = byId<HTMLInputElement>("worker-id");
const countInput = byId<HTMLInputElement>("count");
const prefixInput = byId<HTMLInputElement>("prefix");
const formatSelect = byId<HTMLSelectElement>("snowflake-format");
const kindRadios = genForm.elements.namedItem("kind") as RadioNodeList;

function selectedKind(): GeneratedKind {
	return kindRadios.value as GeneratedKind;
}

function syncKind(): void {
	const snowflake = selectedKind() === "snowflake";
	const prefixed = snowflake || selectedKind() === "typeid";
	workerInput.disabled = !snowflake;
	byId("worker-field").classList.toggle("subtle", !snowflake);
	prefixInput.disabled = !prefixed;
	byId("prefix-field").classList.toggle("subtle", !prefixed);
	formatSelect.disabled = !snowflake;
	byId("format-field").classList.toggle("subtle", !snowflake);
}
for (const radio of kindRadios) radio.addEventListener("change", syncKind);
syncKind();

interface Generated {
	ids: string[];
	workerId?: number;
}

genForm.addEventListener("submit", async (event) => {
	event.preventDefault();
	const kind = selectedKind();
	const count = parseShownCount(countInput.value);
	genOutput.replaceChildren();
	if (count === undefined) {
		showGenerateError(shownCountError(MAX_SHOWN));
		countInput.focus();
		return;
	}
	genButton.disabled = true;
	genStatus.textContent = "Generating…";
	try {
		const text = { prefix: prefixInput.value, format: formatSelect.value };
		const path = generatePath(kind, workerInput.value, count, text);
		showIds(kind, await api<Generated>(path, "POST"));
	} catch (error) {
		showGenerateError(error);
	} finally {
		genButton.disabled = false;
	}
});

/** An error in place of the IDs: those listed before are not the answer to this Generate. */
function showGenerateError(error: unknown): void {
	genStatus.textContent = "";
	idList.replaceChildren();
	copyAll.hidden = true;
	genOutput.replaceChildren(errorBox(error));
}

function showIds(kind: GeneratedKind, body: Generated): void {
	const ids = (Array.isArray(body.ids) ? body.ids : []).slice(0, MAX_SHOWN);
	idList.replaceChildren(
		...ids.map((id) =>
			el("li", null, [
				el("button", {
					type: "button",
					class: "id",
					"data-id": id,
					title: "Decode this ID",
					text: id,
				}),
				el("button", {
					type: "button",
					class: "secondary copy",
					"data-copy": id,
					"aria-label": `Copy ${id}`,
					text: "Copy",
				}),
			]),
		),
	);
	copyAll.hidden = ids.length < 2;
	const from = kind === "snowflake" ? ` from worker ID ${body.workerId}` : "";
	genStatus.textContent = `${ids.length} ${kindName(kind)} ${ids.length === 1 ? "ID" : "IDs"}${from}. Select one to decode it.`;
}

idList.addEventListener("click", (event) => {
	const target = (event.target as Element).closest("button");
	if (!target) return;
	if (target.dataset.copy !== undefined) copyWithFeedback(target, target.dataset.copy, "ID");
	else if (target.dataset.id !== undefined) {
		decodeInput.value = target.dataset.id;
		// A bare base32 Snowflake or TypeID does not tell its kind by its shape.
		const bare = !target.dataset.id.includes("_");
		const kind = selectedKind();
		decodeFormat.value =
			bare && kind === "typeid"
				? "typeid"
				: bare && kind === "snowflake" && formatSelect.value === "base32"
					? "base32"
					: "";
		decode(target.dataset.id, true);
	}
});

copyAll.addEventListener("click", () => {
	const ids = Array.from(
		idList.querySelectorAll<HTMLButtonElement>("button.id"),
		(b) => b.dataset.id ?? "",
	);
	copyWithFeedback(copyAll, ids.join("\n"), `${ids.length} IDs`);
});

async function copyWithFeedback(
	button: HTMLButtonElement,
	text: string,
	what: string,
): Promise<void> {
	const ok = await copyText(text);
	if (ok) flashCopied(button);
	genStatus.textContent = ok
		? `Copied ${what} to the clipboard.`
		: "Could not copy: select the text and copy it by hand.";
}

// ---- decode ----
const decodeForm = byId<HTMLFormElement>("decode-form");
const decodeInput = byId<HTMLInputElement>("decode-input");
const decodeLayout = byId<HTMLSelectElement>("decode-layout");
const decodeFormat = byId<HTMLSelectElement>("decode-format");
// Other systems' layouts, from the core's presets (the service decodes with the same ones).
for (const name of PRESET_NAMES) {
	decodeLayout.append(el("option", { value: name, text: name[0]?.toUpperCase() + name.slice(1) }));
}
const decodeButton = byId<HTMLButtonElement>("decode-button");
const decodeStatus = byId("decode-status");
const decodeOut = byId("decode-output");
const decodeSection = byId("decode");
/** Only the latest decode may write its answer (an older, slower one is dropped). */
let decodeRun = 0;

decodeForm.addEventListener("submit", (event) => {
	event.preventDefault();
	decode(decodeInput.value, false);
});
for (const button of document.querySelectorAll<HTMLButtonElement>("button.example")) {
	button.addEventListener("click", () => {
		decodeInput.value = button.dataset.id ?? "";
		decodeLayout.value = button.dataset.layout ?? "";
		decodeFormat.value = "";
		decode(decodeInput.value, false);
	});
}

async function decode(rawText: string, reveal: boolean): Promise<void> {
	const text = rawText.trim();
	const run = ++decodeRun;
	if (!text) {
		decodeStatus.textContent = "";
		decodeOut.replaceChildren(
			errorBox(new ApiError(0, "empty_id", "paste a Snowflake, ULID or UUID first")),
		);
		decodeInput.focus();
		return;
	}
	decodeButton.disabled = true;
	decodeStatus.textContent = "Decoding…";
	try {
		const preset = (decodeLayout.value || undefined) as PresetName | undefined;
		const decoded = await api<Decoded>(decodePath(text, preset, decodeFormat.value || undefined));
		// Read with another system's layout, a Snowflake's bits are cut by that layout.
		const layout =
			decoded.type !== "snowflake"
				? knownLayout()
				: preset
					? DECODE_PRESETS[preset]
					: await getLayout();
		if (run !== decodeRun) return;
		decodeOut.replaceChildren(
			renderDecoded(decoded, layout, (button) => copyDecoded(button, decoded.id)),
		);
		const when =
			decoded.time && decoded.timestamp !== undefined ? ` from ${relative(decoded.timestamp)}` : "";
		decodeStatus.textContent = `Decoded a ${kindName(decoded.type, decoded.version)}${when}.`;
		if (reveal) {
			const top = decodeSection.getBoundingClientRect().top;
			if (top < 0 || top > window.innerHeight - 80)
				decodeSection.scrollIntoView({ block: "start" });
		}
	} catch (error) {
		if (run !== decodeRun) return;
		decodeStatus.textContent = "";
		decodeOut.replaceChildren(errorBox(error));
	} finally {
		if (run === decodeRun) decodeButton.disabled = false;
	}
}

async function copyDecoded(button: HTMLButtonElement, id: string): Promise<void> {
	const ok = await copyText(id);
	decodeStatus.textContent = ok
		? "Copied the ID to the clipboard."
		: "Could not copy: select the ID and copy it by hand.";
	if (ok) flashCopied(button);
}

loadLayout();
setUpRangeTool();
setUpSequencePanel();
