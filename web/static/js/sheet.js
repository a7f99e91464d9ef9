// A bottom sheet over the page: the chooser when one tap could mean several things, the
// correction list. One at a time; Cancel (or a tap outside) closes it.

import { h, show } from "./dom.js";
import { t } from "./i18n.js";

const root = () => document.getElementById("sheet");

export function openSheet(title, ...children) {
  const el = root();
  show(el,
    h("div", { class: "sheet-backdrop", onclick: closeSheet }),
    h("section", { class: "sheet-body", role: "dialog", "aria-modal": "true", "aria-label": title },
      h("h2", { text: title }),
      h("div", { class: "sheet-content" }, children),
      h("button", { class: "secondary wide", dataset: { sheet: "cancel" }, onclick: closeSheet }, t("common.cancel"))));
  el.hidden = false;
}

export function closeSheet() {
  const el = root();
  el.hidden = true;
  el.replaceChildren();
}

export function sheetOpen() {
  return !root().hidden;
}

// Buttons, one per choice; `pick(choice)` runs when one is tapped (the sheet closes first).
export function choose(title, choices, label, pick) {
  openSheet(title, choices.map((choice, i) =>
    h("button", { class: "choice wide", dataset: { choice: i }, onclick: () => { closeSheet(); pick(choice); } }, label(choice))));
}
