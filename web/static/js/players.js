// Players as the table sees them: a name, a seat, a colour that colour-blind players can tell
// apart (the Okabe–Ito palette), and the labels of their people.

import { t } from "./i18n.js";

// The box's colours drawn as their Okabe–Ito neighbours; every piece also carries a name.
export const PALETTE = {
  red: "#D55E00",
  blue: "#0072B2",
  green: "#009E73",
  yellow: "#F0E442",
  orange: "#E69F00",
  white: "#FFFFFF",
};
const FALLBACK = ["#D55E00", "#0072B2", "#009E73", "#F0E442", "#E69F00", "#FFFFFF"];
// Text that stays readable on each fill.
const DARK_TEXT = new Set(["#F0E442", "#E69F00", "#FFFFFF", "#009E73"]);

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
