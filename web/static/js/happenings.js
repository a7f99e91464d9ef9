// What happened, one line per table event ("Ben's shark ate Ana's person at 3.4"), newest first:
// the whole game's log since this page opened it, scrollable, in the page's language.

import { h } from "./dom.js";
import { t, has, capital } from "./i18n.js";
import { nameOf, personName, creatureLabel, boatLabel, hexLabel } from "./players.js";
import { describe } from "./moves.js";
import { botLogLine } from "./bots.js";

const QUIET = new Set(["laid", "result"]); // setup's 40 tiles, and the result the end screen shows
const KEEP = 500; // a long game has a few hundred events; older lines than that are dropped

// Where a piece was or went: a hex, a safe island, or a boat ("b10" is a boat's id: "Boat 10").
const place = (x) => (/^b\d+$/.test(x) ? boatLabel(x) : hexLabel(x));

function words(kind, e, snapshot) {
  const who = (id) => personName(snapshot, id);
  const many = (ids) => (ids || []).map(who).join(", ") || "—";
  const p = {
    name: e.seat !== undefined && e.seat !== null ? nameOf(snapshot, e.seat) : "",
    who: e.person ? who(e.person) : "",
    people: many(e.people),
    hex: e.hex ? place(e.hex) : "",
    from: e.from ? place(e.from) : "",
    to: e.to ? place(e.to) : "",
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
  // One person climbing is said as one ("Ana's person climbs into Boat 8").
  if (kind === "boarded_all" && (e.people || []).length === 1) return t("event.boarded_one", p);
  // A placed person is one of its owner's, never "Dario 10" (which reads as a value).
  if (kind === "placed" && e.person) return t("event.placed_one", { ...p, name: nameOf(snapshot, "ABCDEF".indexOf(e.person[0])) });
  const key = `event.${kind}`;
  return has(key) ? t(key, p) : null;
}

// The log keeps the events as data ({kind, e}: the stream's event name and its data) and words
// them when it is drawn, so that a phone switching language rewords the whole log.
export function remember(list, kind, e) {
  if (QUIET.has(kind)) return list;
  return [{ kind, e }, ...list].slice(0, KEEP);
}

// An undo or a correction rewrites what happened: the log starts again from its line.
export function changed(name, snapshot) {
  const { played, was_played, now_played, dropped } = snapshot;
  return { changed: name, e: { played, was_played, now_played, dropped } };
}

// One entry of the log in words (null: nothing worth a line).
export function lineOf(entry, snapshot, board) {
  if (entry.changed) return changedLine(entry.changed, { ...entry.e, kind: snapshot.kind }, snapshot, board);
  if (entry.kind === "bot") return botLogLine(entry.e, snapshot);
  const line = words(entry.kind, entry.e, snapshot);
  return line ? capital(line) : null;
}

// An undo or a correction, said with the moves in words (never their notation): the action
// undone, the fact as it was and as it is now (the table sends them as JSON lists).
function changedLine(name, data, snapshot, board) {
  const said = (action) => {
    if (!action) return "—";
    if (data.kind === "flotilla") return has(`flotilla.verb.${action[0]}`) ? t(`flotilla.verb.${action[0]}`) : t("do.other");
    return describe(action, board, snapshot);
  };
  if (name === "undone") return t("event.undone.move", { action: said(data.played) });
  const dropped = (data.dropped || []).length;
  const key = dropped === 0 ? "event.corrected.move" : dropped === 1 ? "event.corrected.dropped_one" : "event.corrected.dropped";
  return t(key, { was: said(data.was_played), now: said(data.now_played), dropped });
}

// The log: the newest line first and in sight; the rest scrolls (CSS `.happenings`).
export function happeningsList(list, snapshot, board, most = KEEP) {
  const lines = [];
  for (const entry of list) {
    if (lines.length >= most) break;
    const line = lineOf(entry, snapshot, board);
    if (line) lines.push(line);
  }
  if (!lines.length) return null;
  return h("section", { class: "log", dataset: { log: "game" } },
    h("h3", { class: "log-title", text: t("log.title") }),
    h("ol", { class: "happenings", tabindex: "0", "aria-label": t("log.title"), "aria-live": "polite" },
      lines.map((line) => h("li", { text: line }))));
}
