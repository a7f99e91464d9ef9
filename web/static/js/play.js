// Fewer taps, never stuck: what the play screen adds around the board's single steps — whole
// moves in one tap (the table's /reach), the board brought to what may move, the far view that
// takes taps, a tap waiting for the table shown as waiting, and the ways out of a game.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { get } from "./api.js";
import { hexPixel, NEAR, extent } from "./board.js";

// The verb of a whole move, by the single steps a piece has (moves.js's TWO_TAPS verbs).
const PATH_VERB = { move: "go", board: "go", sail: "sail", creature: "creature", ride: "ride" };

// -- whole moves --------------------------------------------------------------------------------

const reached = new Map(); // "version:verb:piece" -> Map(hex -> path) once the table answered

function pathOf(source) {
  const first = source?.moves.find((m) => PATH_VERB[m.action[0]]);
  return first ? { verb: PATH_VERB[first.action[0]], piece: first.action[1] } : null;
}

// Where a whole move can take the selected piece, more than one space away: a Map of hex index
// to the path, or an empty Map until the table has answered (then `redraw`).
export function wholeMoves(game, snapshot, source, redraw) {
  const of = pathOf(source);
  if (!of || snapshot.version === undefined) return new Map();
  const key = `${game}:${snapshot.version}:${of.verb}:${of.piece}`;
  if (!reached.has(key)) {
    reached.set(key, new Map());
    get(`/api/games/${game}/reach?verb=${of.verb}&piece=${of.piece}`).then((answer) => {
      if (answer.version !== snapshot.version) return;
      reached.set(key, new Map(Object.entries(answer.paths).map(([hex, path]) => [Number(hex), path])));
      redraw();
    }, () => reached.delete(key));
  }
  if (reached.size > 64) reached.delete(reached.keys().next().value);
  return reached.get(key);
}

// The action that takes the piece along `path` in one go.
export function pathAction(source, path) {
  const of = pathOf(source);
  return [of.verb, of.piece, ...path];
}

// -- bringing what may move into sight ------------------------------------------------------------

// Scroll the near board so that as many of `marked` (hex indexes) as fit are in sight, the
// `first` one (the selected piece) always: the middle of a window that holds the most of them,
// not their average (which, for creatures all round the island, is the island's middle).
export function bringIntoView(wrap, board, marked, first = null) {
  if (!marked.length) return;
  const points = marked.map((i) => hexPixel(board, i, NEAR));
  const w = wrap.clientWidth || 360;
  const hgt = wrap.clientHeight || 360;
  const margin = NEAR * 1.2; // a hex's half-width and a bit: a marked hex wholly in sight
  const fits = (c, p) => Math.abs(p.x - c.x) <= w / 2 - margin && Math.abs(p.y - c.y) <= hgt / 2 - margin;
  const anchor = first !== null ? hexPixel(board, first, NEAR) : null;
  let best = null;
  let bestCount = -1;
  for (const p of anchor ? [anchor, ...points] : points) {
    // Each candidate window is centred between the candidate and the points near it.
    const near = points.filter((q) => fits(p, q));
    const c = {
      x: near.reduce((a, q) => a + q.x, 0) / (near.length || 1),
      y: near.reduce((a, q) => a + q.y, 0) / (near.length || 1),
    };
    const centre = anchor && !fits(c, anchor) ? anchor : near.length ? c : p;
    const count = points.filter((q) => fits(centre, q)).length;
    if (count > bestCount) {
      best = centre;
      bestCount = count;
    }
    if (anchor) break; // the selected piece decides
  }
  wrap.scrollTo({ left: best.x - w / 2, top: best.y - hgt / 2 });
}

// The hex under a tap on the far (whole island) view: the nearest centre.
export function hexAt(board, svg, event) {
  const r = svg.getBoundingClientRect();
  const box = extent(board);
  const x = box.minX + ((event.clientX - r.left) / r.width) * box.width;
  const y = box.minY + ((event.clientY - r.top) / r.height) * box.height;
  let best = null;
  let bestD = Infinity;
  for (const hex of board.hexes) {
    const d = (hex.x - x) ** 2 + (hex.y - y) ** 2;
    if (d < bestD) {
      best = hex.index;
      bestD = d;
    }
  }
  return bestD <= 1 ? best : null;
}

// -- waiting, and the ways out ---------------------------------------------------------------------

// A tap on its way to the table: shown until the table answers or the phone stops waiting.
export function pendingLine(ui) {
  if (!ui.busy) return null;
  return h("p", { class: "pending", role: "status", dataset: { pending: "yes" }, text: t("play.pending") });
}

// A seated phone is never stuck in its game: another seat, watching, or another game.
export function waysOut({ seated, changeSeat, watchInstead, leave }) {
  return h("details", { class: "ways-out", dataset: { ways: "out" } },
    h("summary", { text: t("play.ways_out") }),
    h("div", { class: "ways-out-buttons" },
      seated ? h("button", { class: "secondary wide", dataset: { go: "change-seat" }, onclick: changeSeat }, t("play.change_seat")) : null,
      seated ? h("button", { class: "secondary wide", dataset: { go: "watch-instead" }, onclick: watchInstead }, t("play.watch_instead")) : null,
      h("button", { class: "secondary wide", dataset: { go: "leave" }, onclick: leave }, t("play.other_game"))));
}

// At the creature step nothing need be picked up first: a space only one creature can reach is
// a tap that moves it there (its single step, or its whole path). hex -> action.
export function soleTargets(game, snapshot, T, redraw) {
  const claims = new Map(); // hex -> [action, ...] one per creature reaching it
  for (const source of T.sources.values()) {
    if (source.kind !== "creature") continue;
    const mine = new Map(source.moves.filter((m) => m.hex !== null && m.hex !== source.hex).map((m) => [m.hex, m.action]));
    for (const [hex, path] of wholeMoves(game, snapshot, source, redraw)) if (!mine.has(hex)) mine.set(hex, pathAction(source, path));
    for (const [hex, action] of mine) claims.set(hex, [...(claims.get(hex) || []), action]);
  }
  const occupied = new Set([...T.sources.values()].map((x) => x.hex)); // a tap there picks one up
  return new Map([...claims].filter(([hex, actions]) => actions.length === 1 && !occupied.has(hex)).map(([hex, [action]]) => [hex, action]));
}
