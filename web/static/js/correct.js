// Putting a mis-entered fact right: a die face, a spin (1986), a tile's back, a terrain laid. Two taps reach
// the picker (Fix, then the fact); the table replays the game from there (intent `correct`).

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { get } from "./api.js";
import { openSheet, closeSheet } from "./sheet.js";
import { nameOf } from "./players.js";
import { sentenceOf } from "./words.js";

const FACTS = ["roll", "dive", "spin", "back", "terrain"];
const FACES = ["serpent", "shark", "whale"];
const DIVE_KINDS = ["serpent", "shark", "whale", "dolphin", "boat", "starfish"];
const DISTANCES = ["1", "2", "3", "D"];
const SPIN_KINDS = ["serpent", "shark", "whale", "dolphin"];
const SPIN_MOVES = ["1", "2", "3", "dive"];
const spun = (kind, move) => `${t(`spin.kind.${kind}`)} · ${t(`spin.move.${move}`)}`;
const BACKS = ["shark", "whale", "boat", "whirlpool", "volcano", "dolphin", "winds", "move-serpent",
  "move-shark", "move-whale", "shark-repellent", "whale-repellent"];
const TERRAINS = ["beach", "forest", "mountain"];

function factText(row) {
  const [verb, a, b] = row.action;
  if (verb === "roll") return t("fix.roll", { face: t(`face.${a}`) });
  if (verb === "dive") return t("fix.roll", { face: `${t(`face.${a}`)} + ${t(`distance.${b}`)}` });
  if (verb === "back") return t("fix.back", { back: t(`back.${a || "red"}`) });
  if (verb === "spin") return t("fix.spin", { spin: spun(a, b) });
  return t("fix.terrain", { terrain: t(`terrain.${a}`) });
}

// The other things the fact could have been.
function alternatives(row, view) {
  const [verb, a, b] = row.action;
  if (verb === "roll") return FACES.filter((f) => f !== a).map((f) => ["roll", f]);
  if (verb === "spin") return SPIN_KINDS.flatMap((k) => SPIN_MOVES.map((m) => ["spin", k, m])).filter((x) => x[1] !== a || x[2] !== b);
  if (verb === "dive") return DIVE_KINDS.flatMap((k) => DISTANCES.map((d) => ["dive", k, d])).filter((x) => x[1] !== a || x[2] !== b);
  if (verb === "back") {
    const backs = view.mode === "physical" ? [...BACKS, "red"] : BACKS;
    return backs.filter((k) => k !== a).map((k) => ["back", k]);
  }
  return TERRAINS.filter((x) => x !== a).map((x) => ["terrain", x]);
}

function label(action) {
  const [verb, a, b] = action;
  if (verb === "dive") return `${t(`face.${a}`)} + ${t(`distance.${b}`)}`;
  if (verb === "roll") return t(`face.${a}`);
  if (verb === "spin") return spun(a, b);
  if (verb === "back") return t(`back.${a}`);
  return t(`terrain.${a}`);
}

// First tap: the list of recent facts, newest first.
export async function openFix({ game, snapshot, correct }) {
  openSheet(t("fix.title"), h("p", { class: "hint", text: t("fix.loading") }));
  let rows;
  try {
    rows = (await get(`/api/games/${game}/actions`)).actions;
  } catch (e) {
    openSheet(t("fix.title"), h("p", { class: "refusal", text: sentenceOf(e) }));
    return;
  }
  // What the companion drew itself (a dealt island, a dealt back) is no one's mistake to fix.
  const facts = rows.filter((r) => r.status === "ok" && r.source !== "table" && FACTS.includes(r.action[0])).reverse().slice(0, 8);
  if (!facts.length) {
    openSheet(t("fix.title"), h("p", { class: "hint", text: t("fix.none") }));
    return;
  }
  openSheet(t("fix.title"),
    h("p", { class: "hint", text: t("fix.which") }),
    facts.map((row) => h("button", { class: "choice wide", dataset: { fact: row.seq, verb: row.action[0] }, onclick: () => pickValue(row, snapshot, correct) },
      factText(row), row.seat !== null && row.seat !== undefined ? ` — ${nameOf(snapshot, row.seat)}` : "")));
}

// Second tap: what it should have been.
function pickValue(row, snapshot, correct) {
  openSheet(t("fix.to", { fact: factText(row) }),
    h("div", { class: "grid" }, alternatives(row, snapshot.state).map((action) =>
      h("button", { class: "pick", dataset: { correct: action.join(" ") }, onclick: () => { closeSheet(); correct(row.seq, action); } }, label(action)))));
}
