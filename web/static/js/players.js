// Players as the table sees them: a name, a seat, a colour that colour-blind players can tell
// apart in daylight (see PALETTE), and the labels of their people.

import { t, language } from "./i18n.js";

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

// "A3" is seat 1's third person. Players know a person by its owner and where it stands, never
// by a number (a number beside a person reads as its value): "Ana's person", "Ana's person on
// 3.4", "Ana's person in Boat 8".
export function personName(snapshot, id) {
  return elide(t("piece.person", { name: nameOf(snapshot, "ABCDEF".indexOf(id[0])) }));
}

// French elides "de" before a vowel: "le personnage d'Ana", not "de Ana".
const elide = (text) => (language() === "fr" ? text.replace(/\bde (?=[AEIOUYÀÂÉÈÊÎÔÛaeiouyàâéèêîôû])/g, "d'") : text);

export function personLabel(snapshot, id) {
  const name = nameOf(snapshot, "ABCDEF".indexOf(id[0]));
  const p = (snapshot?.state?.people || []).find((x) => x.id === id);
  if (p && p.at !== null && p.at !== undefined && p.where === "boat") return elide(t("piece.person_in", { name, boat: boatLabel(p.at) }));
  if (p && p.at !== null && p.at !== undefined && ["land", "sea"].includes(p.where)) return elide(t("piece.person_on", { name, hex: hexLabel(p.at) }));
  return elide(t("piece.person", { name }));
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
