// A bottom sheet over the page: the chooser when one tap could mean several things, the
// correction list. One at a time; Cancel (or a tap outside) closes it.

import { h, show } from "./dom.js";
import { t } from "./i18n.js";

const root = () => document.getElementById("sheet");
let opener = null; // what had the focus: it gets it back when the sheet closes

// A keyboard reaches the sheet at once, and Escape closes it as Cancel does.
function onKey(e) {
  if (e.key === "Escape") closeSheet();
}

export function openSheet(title, ...children) {
  const el = root();
  if (el.hidden) opener = document.activeElement;
  show(el,
    h("div", { class: "sheet-backdrop", onclick: closeSheet }),
    h("section", { class: "sheet-body", role: "dialog", "aria-modal": "true", "aria-label": title },
      h("h2", { text: title }),
      h("div", { class: "sheet-content" }, children),
      h("button", { class: "secondary wide", dataset: { sheet: "cancel" }, onclick: closeSheet }, t("common.cancel"))));
  el.hidden = false;
  el.addEventListener("keydown", onKey);
  el.querySelector(".sheet-content button, [data-sheet=cancel]")?.focus();
}

export function closeSheet() {
  const el = root();
  const wasOpen = !el.hidden;
  el.hidden = true;
  el.replaceChildren();
  el.removeEventListener("keydown", onKey);
  // Back to where the player was, when that is still on the page (a redraw may have replaced it).
  if (wasOpen && opener?.isConnected) opener.focus();
  opener = null;
}

export function sheetOpen() {
  return !root().hidden;
}

// Buttons, one per choice; `pick(choice)` runs when one is tapped (the sheet closes first).
export function choose(title, choices, label, pick) {
  openSheet(title, choices.map((choice, i) =>
    h("button", { class: "choice wide", dataset: { choice: i }, onclick: () => { closeSheet(); pick(choice); } }, label(choice))));
}
