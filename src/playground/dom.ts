/** Small DOM helpers of the playground: element building, time, clipboard, errors. */

type Child = Node | string | null | undefined;
type Attrs = Record<string, string | number | boolean | null | undefined>;

/** An element with attributes (`class`, `text` or any attribute) and children. */
export function el<K extends keyof HTMLElementTagNameMap>(
	tag: K,
	attrs?: Attrs | null,
	children?: Child | Child[],
): HTMLElementTagNameMap[K] {
	const node = document.createElement(tag);
	for (const [key, value] of Object.entries(attrs ?? {})) {
		if (value === null || value === undefined || value === false) continue;
		if (key === "class") node.className = String(value);
		else if (key === "text") node.textContent = String(value);
		else node.setAttribute(key, value === true ? "" : String(value));
	}
	for (const child of Array.isArray(children) ? children : [children]) {
		if (child !== null && child !== undefined) node.append(child);
	}
	return node;
}

/** The element with this ID, which the page is known to have. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
	const node = document.getElementById(id);
	if (!node) throw new Error(`the page has no #${id}`);
	return node as T;
}

const rtf = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
	["year", 31_557_600_000],
	["month", 2_629_800_000],
	["week", 604_800_000],
	["day", 86_400_000],
	["hour", 3_600_000],
	["minute", 60_000],
	["second", 1000],
];

/** "in 3 years", "2 minutes ago". */
export function relative(ms: number, now = Date.now()): string {
	const diff = ms - now;
	for (const [unit, size] of UNITS) {
		if (Math.abs(diff) >= size || unit === "second")
			return rtf.format(Math.trunc(diff / size), unit);
	}
	return "";
}

/** Copies text; falls back to a hidden textarea where the Clipboard API is unavailable. */
export async function copyText(text: string): Promise<boolean> {
	if (navigator.clipboard && window.isSecureContext) {
		try {
			await navigator.clipboard.writeText(text);
			return true;
		} catch {
			// fall back below
		}
	}
	const focused = document.activeElement as HTMLElement | null;
	const area = el("textarea", {
		class: "offscreen",
		readonly: true,
		"aria-hidden": "true",
		tabindex: "-1",
	});
	area.value = text;
	document.body.append(area);
	area.select();
	let ok = false;
	try {
		ok = document.execCommand("copy");
	} catch {
		ok = false;
	}
	area.remove();
	focused?.focus?.();
	return ok;
}

/** Shows "Copied" on the button for a moment. */
export function flashCopied(button: HTMLElement): void {
	button.dataset.label ??= button.textContent ?? "Copy";
	button.textContent = "Copied";
	const label = button.dataset.label;
	setTimeout(() => {
		button.textContent = label;
	}, 1500);
}
