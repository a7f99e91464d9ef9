// What a player can tap: the legal actions (JSON, e.g. ["move", 3, 58]) sorted into pieces to
// pick up and places to put them (two taps), places to tap once (sink a tile, place a boat),
// and answers that are buttons (done, play a tile, repel, a die face).

import { t, capital } from "./i18n.js";
import { personLabel, creatureLabel, boatLabel, hexLabel } from "./players.js";

// verb -> [kind of the piece picked up, kind of where it goes]
const TWO_TAPS = {
  move: ["person", "hex"],
  ride: ["person", "hex"],
  board: ["person", "boat"],
  sail: ["boat", "hex"],
  creature: ["creature", "hex"],
  put: ["creature", "hex"],
  protect: ["creature", "person"],
};
// verb -> what is tapped (with its argument position)
const ONE_TAP = { sink: "hex", boat: "hex", place: "hex", take: "boat", pick: "person", grab: "person" };

// Where every piece of the view stands, by hex index (null when off the board).
export function locate(board, view) {
  const hexOf = new Map(board.hexes.map((x) => [x.name, x.index]));
  const boats = new Map(view.boats.map((b) => [b.id, b.at === null ? null : hexOf.get(b.at)]));
  const people = new Map();
  for (const p of view.people) {
    if (p.where === "boat") people.set(p.id, boats.get(p.at) ?? null);
    else people.set(p.id, p.at === null ? null : hexOf.get(p.at) ?? null);
  }
  const creatures = new Map(view.creatures.map((c) => [c.id, c.at === null ? null : hexOf.get(c.at)]));
  return { hexOf, boats, people, creatures };
}

function piece(board, kind, index) {
  if (kind === "person") return board.people[index];
  if (kind === "boat") return board.boats[index];
  if (kind === "creature") return board.creatures[index];
  return index;
}

function hexOfPiece(where, kind, id) {
  if (kind === "hex") return id;
  return { person: where.people, boat: where.boats, creature: where.creatures }[kind].get(id) ?? null;
}

// The taps the legal actions allow. `value`: the person's value chosen for ["place", h, v].
export function taps(legal, board, view, { value = null } = {}) {
  const where = locate(board, view);
  const sources = new Map(); // "person:A3" -> {kind, id, hex, moves: [{action, hex}]}
  const direct = new Map(); // hex -> [action]
  const buttons = [];
  for (const action of legal || []) {
    const [verb, ...args] = action;
    if (TWO_TAPS[verb]) {
      const [fromKind, toKind] = TWO_TAPS[verb];
      const id = piece(board, fromKind, args[0]);
      const key = `${fromKind}:${id}`;
      if (!sources.has(key)) {
        sources.set(key, { key, kind: fromKind, id, hex: hexOfPiece(where, fromKind, id), moves: [] });
      }
      const to = hexOfPiece(where, toKind, piece(board, toKind, args[1]));
      sources.get(key).moves.push({ action, hex: to });
    } else if (ONE_TAP[verb]) {
      if (verb === "place" && value !== null && args[1] !== null && args[1] !== value) continue;
      const kind = ONE_TAP[verb];
      const hex = hexOfPiece(where, kind, piece(board, kind, args[0]));
      if (!direct.has(hex)) direct.set(hex, []);
      direct.get(hex).push(action);
    } else {
      buttons.push(action);
    }
  }
  return { sources, direct, buttons, where };
}

// The values a digital placement may carry (["place", h, v]), lowest first.
export function placeValues(legal) {
  const values = new Set((legal || []).filter((a) => a[0] === "place" && a[2] !== null).map((a) => a[2]));
  return [...values].sort((a, b) => a - b);
}

// An action in words, for a chooser's button, a log line or a refusal.
export function describe(action, board, snapshot) {
  return capital(said(action, board, snapshot));
}

function said(action, board, snapshot) {
  const [verb, a] = action;
  // A whole move names its path: where it ends is what a player needs to read.
  const b = ["go", "sail", "creature", "ride"].includes(verb) ? action[action.length - 1] : action[2];
  const hexName = (i) => hexLabel(board.hexes[i].name);
  const who = (i) => personLabel(snapshot, board.people[i]);
  const beast = (i) => creatureLabel(board.creatures[i]);
  const boat = (i) => boatLabel(board.boats[i]);
  const view = snapshot.state;
  switch (verb) {
    case "move": {
      const to = board.hexes[b];
      const person = view.people.find((p) => p.id === board.people[a]);
      if (to.kind === "safe") return t("do.save", { who: who(a), hex: hexName(b) });
      if (person?.where === "boat" && view.boats.find((x) => x.id === person.at)?.at === to.name) {
        return t("do.overboard", { who: who(a) });
      }
      if (view.tiles[to.name]) return t("do.walk", { who: who(a), hex: hexName(b) });
      return t("do.swim", { who: who(a), hex: hexName(b) });
    }
    case "ride":
      return t("do.ride", { who: who(a), hex: hexName(b) });
    case "go":
      return t("do.go", { who: who(a), hex: hexName(b) });
    case "spin":
      return `${t(`spin.kind.${a}`)} · ${t(`spin.move.${action[2]}`)}`;
    case "board":
      return t("do.board", { who: who(a), boat: boat(b) });
    case "sail":
      return t("do.sail", { boat: boat(a), hex: hexName(b) });
    case "creature":
    case "put": {
      const at = view.creatures.find((c) => c.id === board.creatures[a])?.at;
      if (at === board.hexes[b].name) return t("do.stay", { creature: beast(a) });
      return t("do.creature", { creature: beast(a), hex: hexName(b) });
    }
    case "protect":
      return t("do.protect", { creature: beast(a), who: who(b) });
    case "sink":
      return t("do.sink", { hex: hexName(a) });
    case "boat":
      return t("do.boat", { hex: hexName(a) });
    case "place":
      return b === null ? t("do.place", { hex: hexName(a) }) : t("do.place_value", { hex: hexName(a), value: b });
    case "take":
      return t("do.take", { boat: boat(a) });
    case "pick":
      return t("do.pick", { who: who(a) });
    case "grab":
      return t("do.grab", { who: who(a) });
    case "play":
      return t("do.play", { back: t(`back.${a}`) });
    case "repel":
      return t("do.repel");
    case "done":
      return t("do.done");
    case "terrain":
      return t(`terrain.${a}`);
    case "back":
      return t(`back.${a || "red"}`);
    case "roll":
      return t(`face.${a}`);
    case "dive":
      return `${t(`face.${a}`)} + ${t(`distance.${b}`)}`;
    case "reveal":
      return t("do.reveal", { who: who(a), value: b });
    default:
      return t("do.other");
  }
}

// The piece in words, for the chooser when several pieces share a hex.
export function describePiece(source, snapshot) {
  if (source.kind === "person") {
    const p = snapshot.state.people.find((x) => x.id === source.id);
    const place = p ? t(`where.${p.where}`) : "";
    return capital(`${personLabel(snapshot, source.id)} (${place})`);
  }
  if (source.kind === "boat") return boatLabel(source.id);
  return creatureLabel(source.id);
}
