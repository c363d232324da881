/**
 * The "Active Snowflake layout" panel and the API-token card. The layout is
 * fetched once and shared with the decoder (a Snowflake's bits depend on it).
 */
import { api, errorBox } from "./api";
import { iso, workerIdRange } from "./bits";
import { byId, el, relative } from "./dom";
import { setUpTokenPanel } from "./token-panel";

/** `GET /layout`. */
export interface ServiceLayout {
	epoch: number;
	timeBits: number;
	workerBits: number;
	sequenceBits: number;
	timeUnitMs: number;
	maxWorkerId: number;
	maxSequence: number;
	exhaustsAt: string;
}

const layoutOut = byId("layout-output");
let layout: ServiceLayout | undefined;
let layoutLoading: Promise<ServiceLayout> | undefined;

/** The service's layout, once loaded. */
export function knownLayout(): ServiceLayout | undefined {
	return layout;
}

export function getLayout(): Promise<ServiceLayout> {
	if (layout) return Promise.resolve(layout);
	if (!layoutLoading) {
		layoutLoading = api<ServiceLayout>("/layout").then(
			(value) => {
				layout = value;
				renderLayout(value);
				return value;
			},
			(error: unknown) => {
				layoutOut.replaceChildren(errorBox(error));
				throw error;
			},
		);
		const done = () => {
			layoutLoading = undefined;
		};
		layoutLoading.then(done, done);
	}
	return layoutLoading;
}

export function loadLayout(): void {
	getLayout().catch(() => {});
}

function renderLayout(l: ServiceLayout): void {
	const exhausts = Date.parse(l.exhaustsAt);
	const used = Math.min(100, Math.max(0, ((Date.now() - l.epoch) / (exhausts - l.epoch)) * 100));
	const item = (term: string, value: Node | string, extra?: string) =>
		el("div", null, [
			el("dt", { text: term }),
			el("dd", null, [value, extra ? el("span", { class: "rel", text: extra }) : null]),
		]);
	layoutOut.replaceChildren(
		el("dl", { class: "layout" }, [
			item(
				"Bits",
				`1 sign + ${l.timeBits} time + ${l.workerBits} worker + ${l.sequenceBits} sequence`,
			),
			item("Epoch", el("span", { class: "mono", text: iso(l.epoch) }), `${l.epoch} ms since 1970`),
			item("Tick", `${l.timeUnitMs} ms`),
			item("Worker IDs", workerIdRange(l)),
			item("IDs per tick per worker", String(l.maxSequence + 1)),
			item(
				"Exhausts at",
				el("span", { class: "mono", "data-field": "exhaustsAt", text: l.exhaustsAt }),
				`${relative(exhausts)} · ${used.toFixed(1)}% of its time range used`,
			),
		]),
	);
	byId("worker-hint").textContent = `0–${l.maxWorkerId}, or blank: the service picks one.`;
}

// ---- the API token (only when the service has API_TOKEN set) ----
setUpTokenPanel({
	tokenSet: loadLayout,
	tokenForgotten: () => {
		layout = undefined;
		loadLayout();
	},
});
