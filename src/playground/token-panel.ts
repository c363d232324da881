/**
 * The API token panel of the playground and the monitor (`#auth`, shown only when
 * the service asks for a token): the token typed in is kept in this tab's
 * sessionStorage (./api.ts) and sent with every call; a refused one is forgotten.
 *
 *   setUpTokenPanel({ tokenSet: reload, tokenForgotten: reload });
 */
import { setToken, tokenEvents } from "./api";
import { byId, el } from "./dom";

/** The panel's contents, in the page's empty `<section id="auth">` (both pages share them). */
function fillAuthSection(auth: HTMLElement): void {
	auth.replaceChildren(
		el("h2", { id: "auth-title", text: "Authorization" }),
		el("p", { id: "auth-message" }),
		el("form", { id: "auth-form", class: "row", autocomplete: "off", novalidate: true }, [
			el("div", { class: "field grow" }, [
				el("label", { for: "token", text: "API token" }),
				el("input", {
					id: "token",
					name: "token",
					type: "password",
					autocomplete: "off",
					spellcheck: "false",
				}),
			]),
			el("button", { type: "submit", text: "Use token" }),
		]),
		el("div", { id: "auth-saved", class: "row", hidden: true }, [
			el("p", { class: "grow", text: "Using the API token saved in this browser tab." }),
			el("button", {
				type: "button",
				id: "forget-token",
				class: "secondary",
				text: "Forget token",
			}),
		]),
	);
}

export function setUpTokenPanel(on: { tokenSet: () => void; tokenForgotten: () => void }): void {
	const auth = byId("auth");
	fillAuthSection(auth);
	const authForm = byId<HTMLFormElement>("auth-form");
	const authInput = byId<HTMLInputElement>("token");
	const authMessage = byId("auth-message");
	const authSaved = byId("auth-saved");

	tokenEvents.rejected = (hadToken) => {
		const wasHidden = auth.hidden || authForm.hidden;
		auth.hidden = false;
		authForm.hidden = false;
		authSaved.hidden = true;
		authMessage.textContent = hadToken
			? "The service did not accept the saved API token. Enter the right one."
			: "This service's API needs a token (the page itself is public). It is kept only in this browser tab, in sessionStorage.";
		if (hadToken) setToken("");
		if (wasHidden) authInput.focus();
	};

	tokenEvents.accepted = () => {
		if (!authForm.hidden || auth.hidden) {
			auth.hidden = false;
			authForm.hidden = true;
			authSaved.hidden = false;
			authMessage.textContent = "";
		}
	};

	authForm.addEventListener("submit", (event) => {
		event.preventDefault();
		const token = authInput.value.trim();
		if (!token) {
			authMessage.textContent = "Enter the token first.";
			authInput.focus();
			return;
		}
		setToken(token);
		authInput.value = "";
		authMessage.textContent = "Checking the token…";
		on.tokenSet();
	});

	byId("forget-token").addEventListener("click", () => {
		setToken("");
		auth.hidden = true;
		on.tokenForgotten();
	});
}
