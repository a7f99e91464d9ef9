// Players as the table sees them: a name, a seat, a colour that colour-blind players can tell
// apart in daylight (see PALETTE), and the labels of their people.

import { t } from "./i18n.js";

// The box's colours drawn so that every pair stays apart (CIEDE2000 ≥ 8) for protan, deutan and
// tritan eyes and under daylight glare (tests/test_palette.py measures it; Okabe–Ito's vermillion
// and orange did not); every piece also carries its owner's name.
export const PALETTE = {
  red: "#A50F15",
  blue: "#004488",
  green: "#44AA99",
  yellow: "#FFEE33",
  orange: "#F28E2B",
  white: "#FFFFFF",
};
const FALLBACK = Object.values(PALETTE);
// Text that stays readable on each fill.
const DARK_TEXT = new Set(["#44AA99", "#FFEE33", "#F28E2B", "#FFFFFF"]);

export function fill(player) {
  return PALETTE[player?.colour] || FALLBACK[(player?.seat ?? 0) % FALLBACK.length];
}

export function ink(player) {
  return DARK_TEXT.has(fill(player)) ? "#111" : "#fff";
}

export function byseat(snapshot, seat) {
  return (snapshot?.players || []).find((p) => p.seat === seat) || { seat, name: t("player.seat", { n: seat + 1 }) };
}

export function nameOf(snapshot, seat) {
  return byseat(snapshot, seat).name;
}

// "A3" is seat 1's third person: show it with its owner's name, "Ana 3".
export function personLabel(snapshot, id) {
  const seat = "ABCDEF".indexOf(id[0]);
  return `${nameOf(snapshot, seat)} ${id.slice(1)}`;
}

// "shark2" -> "Shark 2" in the phone's language.
export function creatureLabel(id) {
  const kind = id.replace(/\d+$/, "");
  return `${t(`creature.${kind}`)} ${id.slice(kind.length)}`;
}

export function boatLabel(id) {
  return t("piece.boat", { n: id.slice(1) });
}

export function hexLabel(name) {
  return ["NW", "NE", "SW", "SE"].includes(name) ? t(`island.${name}`) : name;
}
