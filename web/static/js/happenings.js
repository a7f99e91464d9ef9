// What just happened, in one line per table event ("Ben's shark ate Ana 3"), newest first.

import { h } from "./dom.js";
import { t, has } from "./i18n.js";
import { nameOf, personLabel, creatureLabel, boatLabel, hexLabel } from "./players.js";

const QUIET = new Set(["laid", "result"]);

function words(kind, e, snapshot) {
  const who = (id) => personLabel(snapshot, id);
  const many = (ids) => (ids || []).map(who).join(", ") || "—";
  const p = {
    name: e.seat !== undefined && e.seat !== null ? nameOf(snapshot, e.seat) : "",
    who: e.person ? who(e.person) : "",
    people: many(e.people),
    hex: e.hex ? hexLabel(e.hex) : "",
    from: e.from ? hexLabel(e.from) : "",
    to: e.to ? hexLabel(e.to) : "",
    island: e.island ? hexLabel(e.island) : "",
    boat: e.boat ? boatLabel(e.boat) : "",
    creature: e.creature ? creatureLabel(e.creature) : "",
    dolphin: e.dolphin ? creatureLabel(e.dolphin) : "",
    squid: e.squid ? creatureLabel(e.squid) : "",
    whale: e.whale ? creatureLabel(e.whale) : "",
    by: e.by ? (/\d$/.test(e.by) ? creatureLabel(e.by) : t(`creature.${e.by}`)) : "",
    back: e.back ? t(`back.${e.back}`) : "",
    tile: e.terrain ? t(`tile.${e.terrain}`) : "",
    face: e.face ? t(`face.${e.face}`) : "",
    piece: e.piece ? (e.piece === "boat" ? t("piece.a_boat") : t(`creature.${e.piece}`)) : "",
    value: e.value ?? "",
    names: (e.seats || []).map((s) => nameOf(snapshot, s)).join(", "),
  };
  // The dive dice's event carries die 1's face as its own `kind` (the engine's projection).
  if (kind === "dived") p.face = `${t(`face.${e.kind}`)} + ${t(`distance.${e.distance}`)}`;
  // The 1986 spinner's event carries the creature kind spun the same way; with nothing able
  // to move, the line says so (the turn goes on at once, so no panel shows it).
  if (kind === "spun") {
    p.face = `${t(`spin.kind.${e.kind}`)} · ${t(`spin.move.${e.move}`)}`;
    if (!(e.may_move || []).length) return `${t("event.spun", p)} ${t("spin.none")}`;
  }
  if (kind === "moved" && ["NW", "NE", "SW", "SE"].includes(e.to)) return null; // "saved" says it
  const key = `event.${kind}`;
  return has(key) ? t(key, p) : null;
}

// kind: the stream's event name; e: its data.
export function remember(list, kind, e, snapshot) {
  if (QUIET.has(kind)) return list;
  const line = words(kind, e, snapshot);
  if (!line) return list;
  return [line, ...list].slice(0, 4);
}

export function happeningsList(list) {
  if (!list.length) return null;
  return h("ul", { class: "happenings", "aria-live": "polite" }, list.map((line) => h("li", { text: line })));
}
