// The board as SVG, drawn from the server's hex centres (/api/board, in hex units) and the view:
// tiles by terrain, the sea, the safe islands, people (seat colour and name), boats with their
// passengers, creatures. Hexes the player may tap are marked; a tap reports the hex's index.
// The board is open to keyboards and screen readers too: every hex is a button named in words
// ("forest at 3.7: Ana's person, Boat 8"), reached by Tab (the hexes that take a tap) and the
// arrow keys (all of them); `boardInWords` lists whose pieces are where and what may move.

import { h, s } from "./dom.js";
import { t } from "./i18n.js";
import { byseat, fill, ink, nameOf, creatureLabel, boatLabel, hexLabel } from "./players.js";
import { describe } from "./moves.js";

// Pixels per hex unit when the board is near: a hex is √3·28 ≈ 48 px wide, a finger's width.
export const NEAR = 28;
const SQRT3 = Math.sqrt(3);
// Discs at least 3:1 against the sea and a sunk tile's water (WCAG 1.4.11): pale fills with dark
// letters, and the shark black with white ones.
const CREATURE_FILL = {
  serpent: "#F9CDE5",
  shark: "#111111",
  whale: "#E4E4E4",
  dolphin: "#BDE8FB",
  squid: "#FFD2A8",
};
const DARK_DISC = new Set(["shark"]);

function corners(x, y, r = 1) {
  const points = [];
  for (let i = 0; i < 6; i++) {
    const angle = (Math.PI / 180) * (60 * i - 30); // pointy-top
    points.push(`${(x + r * Math.cos(angle)).toFixed(3)},${(y + r * Math.sin(angle)).toFixed(3)}`);
  }
  return points.join(" ");
}

export function extent(board) {
  const xs = board.hexes.map((h) => h.x);
  const ys = board.hexes.map((h) => h.y);
  const pad = 0.2;
  const minX = Math.min(...xs) - SQRT3 / 2 - pad;
  const minY = Math.min(...ys) - 1 - pad;
  return { minX, minY, width: Math.max(...xs) + SQRT3 / 2 + pad - minX, height: Math.max(...ys) + 1 + pad - minY };
}

function short(name) {
  return [...name].slice(0, 4).join("");
}

// One pill per seat: the owner's colour, the start of their name, and how many.
function pills(snapshot, people, x, y, { swimming = false } = {}) {
  const bySeat = new Map();
  for (const p of people) bySeat.set(p.seat, (bySeat.get(p.seat) || 0) + 1);
  const rows = [...bySeat.entries()];
  const out = [];
  rows.forEach(([seat, n], i) => {
    const player = byseat(snapshot, seat);
    const cy = y + (i - (rows.length - 1) / 2) * 0.36;
    out.push(
      s("g", { class: swimming ? "pill swimmer" : "pill", "data-seat": seat },
        s("rect", { x: x - 0.66, y: cy - 0.2, width: 1.32, height: 0.4, rx: 0.2, class: "halo" }),
        s("rect", { x: x - 0.62, y: cy - 0.16, width: 1.24, height: 0.32, rx: 0.16, fill: fill(player) }),
        s("text", { x, y: cy + 0.01, fill: ink(player), class: "pill-text" }, n > 1 ? `${short(player.name)}×${n}` : short(player.name)),
      ),
    );
  });
  return out;
}

function creatureMark(c, x, y) {
  const kind = c.id.replace(/\d+$/, "");
  const dark = DARK_DISC.has(kind);
  return s("g", { class: `creature ${kind}`, "data-creature": c.id },
    s("circle", { cx: x, cy: y, r: 0.24, fill: CREATURE_FILL[kind] || "#111", class: dark ? "dark" : "pale" }),
    s("text", { x, y: y + 0.01, class: "creature-text", fill: dark ? "#fff" : "#111" }, t(`creature.short.${kind}`)),
  );
}

function boatMark(snapshot, boat, people, x, y) {
  const passengers = boat.people.map((id) => people.get(id)).filter(Boolean);
  const parts = [
    s("path", { d: `M ${x - 0.62} ${y - 0.12} L ${x + 0.62} ${y - 0.12} L ${x + 0.42} ${y + 0.2} L ${x - 0.42} ${y + 0.2} Z`, class: "boat-hull" }),
    // "Boat 8" is drawn as its number: "b8" is the engine's id, not a name players use.
    s("text", { x, y: y + 0.05, class: "boat-text" }, boat.id.slice(1)),
  ];
  passengers.forEach((p, i) => {
    const player = byseat(snapshot, p.seat);
    const cx = x + (i - (passengers.length - 1) / 2) * 0.4;
    parts.push(
      s("circle", { cx, cy: y - 0.3, r: 0.17, fill: fill(player), class: "passenger" }),
      s("text", { x: cx, y: y - 0.29, fill: ink(player), class: "passenger-text" }, short(player.name).slice(0, 2)),
    );
  });
  return s("g", { class: "boat", "data-boat": boat.id }, parts);
}

// Who and what stands where: people by place (on land, swimming, saved), boats and creatures,
// each by hex name.
function placesOf(view) {
  const people = new Map(view.people.map((p) => [p.id, p]));
  const onHex = new Map(); // hex name -> {land: [], sea: [], saved: []}
  for (const p of view.people) {
    if (!p.at || p.where === "boat") continue;
    const key = p.at;
    if (!onHex.has(key)) onHex.set(key, { land: [], sea: [], saved: [] });
    const slot = p.where === "land" ? "land" : p.where === "sea" ? "sea" : p.where === "saved" ? "saved" : null;
    if (slot) onHex.get(key)[slot].push(p);
  }
  const boatsAt = new Map(view.boats.filter((b) => b.at).map((b) => [b.at, b]));
  const creaturesAt = new Map();
  for (const c of view.creatures) {
    if (!c.at) continue;
    if (!creaturesAt.has(c.at)) creaturesAt.set(c.at, []);
    creaturesAt.get(c.at).push(c);
  }
  return { people, onHex, boatsAt, creaturesAt };
}

function kindOf(hex, view) {
  const terrain = view.tiles[hex.name];
  // A land position with no tile is sea once the island is laid; while it is laid, a gap.
  const gap = view.phase === "terrain" ? "unlaid" : "sea sunk";
  return hex.kind === "safe" ? "safe" : terrain ? `land ${terrain}` : hex.kind === "land" ? gap : "sea";
}

// A bot's move as a line from where its piece was to where it goes (none for one hex).
function botPath(board, names) {
  const at = names.map((n) => board.hexes.find((x) => x.name === n)).filter(Boolean);
  if (at.length < 2) return s("g", { class: "bot-path" });
  return s("g", { class: "bot-path", "aria-hidden": "true" },
    s("polyline", { points: at.map((x) => `${x.x},${x.y}`).join(" "), class: "bot-line" }),
    s("circle", { cx: at[at.length - 1].x, cy: at[at.length - 1].y, r: 0.16, class: "bot-end" }));
}

// marks: {targets, sources: Sets of hex indexes; selected, next: hex index or null}
export function drawBoard(board, snapshot, marks, { scale = NEAR, onTap = null, interactive = true } = {}) {
  const view = snapshot.state;
  const box = extent(board);
  const svg = s("svg", {
    class: "board",
    viewBox: `${box.minX} ${box.minY} ${box.width} ${box.height}`,
    width: Math.round(box.width * scale),
    height: Math.round(box.height * scale),
    // Near, the board is a group of buttons; far, a picture that a tap brings near (the words
    // below the board say what is on it).
    role: interactive ? "group" : "img",
    "aria-label": t("board.label"),
  });
  svg.append(
    s("defs", {},
      s("pattern", { id: "forest", width: 0.5, height: 0.5, patternUnits: "userSpaceOnUse" },
        s("rect", { width: 0.5, height: 0.5, fill: "#66774a" }),
        s("circle", { cx: 0.25, cy: 0.25, r: 0.09, fill: "#4b5935" })),
      s("pattern", { id: "mountain", width: 0.5, height: 0.5, patternUnits: "userSpaceOnUse" },
        s("rect", { width: 0.5, height: 0.5, fill: "#9a948c" }),
        s("path", { d: "M0.08 0.4 L0.25 0.12 L0.42 0.4 Z", fill: "#7b756e" }))),
  );
  const hexLayer = s("g", { class: "hexes" });
  const pieceLayer = s("g", { class: "pieces", "aria-hidden": "true" }); // the hexes' names say it
  svg.append(hexLayer, pieceLayer);

  const { people, onHex, boatsAt, creaturesAt } = placesOf(view);
  // A bot's decision: the hexes it touches (where a piece was, where it goes), and its path.
  const botHexes = snapshot.bot_move?.hexes || [];

  for (const hex of board.hexes) {
    const kind = kindOf(hex, view);
    const isTarget = marks.targets?.has(hex.index);
    const isSource = marks.sources?.has(hex.index);
    const classes = ["hex", ...kind.split(" ")];
    if (isTarget) classes.push("target");
    if (isSource) classes.push("source");
    if (marks.selected === hex.index) classes.push("selected");
    if (marks.next === hex.index) classes.push("next");
    if (hex.kind === "access") classes.push("access");
    if (botHexes.includes(hex.name)) classes.push("bot");
    const tappable = interactive && (isTarget || isSource || marks.selected === hex.index);
    const here = onHex.get(hex.name);
    const beasts = creaturesAt.get(hex.name) || [];
    const boat = boatsAt.get(hex.name);
    const mark = isTarget ? "target" : marks.selected === hex.index ? "selected" : isSource ? "source" : null;
    const g = s("g", {
      class: classes.join(" "),
      "data-hex": hex.index,
      "data-name": hex.name,
      "data-target": isTarget ? "" : null,
      "data-source": isSource ? "" : null,
      "data-steps": marks.steps?.get(hex.index) ?? null, // a whole move's spaces, in one tap
      "data-bot": botHexes.includes(hex.name) ? "" : null,
      "data-tap": tappable ? "" : null,
      role: interactive ? "button" : null,
      tabindex: interactive ? (tappable ? "0" : "-1") : null,
      "aria-disabled": interactive && !tappable ? "true" : null,
      "aria-label": interactive ? hexWords(snapshot, hex, kind, { here, beasts, boat, people }, mark) : null,
    });
    g.append(s("polygon", { points: corners(hex.x, hex.y, 0.97) }));
    // A target wears a dark ring and a bright dashed one, visible on sand, forest and sea alike.
    if (isTarget) g.append(s("polygon", { points: corners(hex.x, hex.y, 0.8), class: "ring" }));
    if (hex.kind === "safe") g.append(s("text", { x: hex.x, y: hex.y - 0.55, class: "island-text" }, t(`compass.${hex.name}`)));
    if ((isTarget || marks.next === hex.index || botHexes.includes(hex.name)) && hex.kind !== "safe") { // a safe island shows its name already
      g.append(s("text", { x: hex.x, y: hex.y + 0.78, class: "hex-name" }, hex.name));
    }
    if (tappable && onTap) g.addEventListener("click", () => onTap(hex.index));
    hexLayer.append(g);

    beasts.forEach((c, i) => {
      pieceLayer.append(creatureMark(c, hex.x + (i - (beasts.length - 1) / 2) * 0.5, hex.y - 0.5));
    });
    if (boat) pieceLayer.append(boatMark(snapshot, boat, people, hex.x, hex.y + 0.45));
    if (here?.land.length) pieceLayer.append(...pills(snapshot, here.land, hex.x, hex.y + 0.05));
    if (here?.sea.length) pieceLayer.append(...pills(snapshot, here.sea, hex.x, hex.y + (boat ? -0.05 : 0.1), { swimming: true }));
    if (here?.saved.length) pieceLayer.append(...pills(snapshot, here.saved, hex.x, hex.y + 0.2));
  }
  svg.append(botPath(board, botHexes));
  if (interactive) keyboard(svg, board, onTap);
  return svg;
}

// -- the board in words -----------------------------------------------------------------------

// "Ana's person", "3 of Ana's swimmers": one phrase per owner of the people in one place.
function peopleWords(snapshot, people, form) {
  const bySeat = new Map();
  for (const p of people) bySeat.set(p.seat, (bySeat.get(p.seat) || 0) + 1);
  return [...bySeat.entries()].map(([seat, n]) =>
    t(`words.${form}.${n > 1 ? "many" : "one"}`, { name: nameOf(snapshot, seat), n }));
}

function terrainWords(hex, kind) {
  if (hex.kind === "safe") {
    // The board prints the island's letters ("NW"): the name says them too, in any language.
    const name = hexLabel(hex.name);
    return name.includes(hex.name) ? name : `${name} ${hex.name}`;
  }
  const terrain = kind.startsWith("land ") ? kind.slice(5) : kind === "unlaid" ? "unlaid" : "sea";
  return t("words.hex", { terrain: t(`words.terrain.${terrain}`), hex: hex.name });
}

// A hex in words: "forest at 3.7: Ana's person, Boat 8 — a piece here may move".
function hexWords(snapshot, hex, kind, { here, beasts, boat, people }, mark) {
  const pieces = [];
  if (here?.land.length) pieces.push(...peopleWords(snapshot, here.land, "person"));
  if (here?.sea.length) pieces.push(...peopleWords(snapshot, here.sea, "swimmer"));
  if (boat) {
    const aboard = boat.people.map((id) => people.get(id)).filter(Boolean);
    pieces.push(aboard.length
      ? t("words.boat_with", { boat: boatLabel(boat.id), people: peopleWords(snapshot, aboard, "person").join(", ") })
      : boatLabel(boat.id));
  }
  pieces.push(...beasts.map((c) => creatureLabel(c.id)));
  if (here?.saved.length) pieces.push(...peopleWords(snapshot, here.saved, "saved"));
  let words = terrainWords(hex, kind);
  if (pieces.length) words = t("words.hex_with", { hex: words, pieces: pieces.join(", ") });
  return mark ? t("words.hex_mark", { hex: words, mark: t(`words.mark.${mark}`) }) : words;
}

const ARROWS = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

// The hex next to `from` in the arrow's direction: ahead of it, and as little aside as may be.
function neighbour(board, from, [dx, dy]) {
  const a = board.hexes[from];
  let best = null;
  let cost = Infinity;
  for (const b of board.hexes) {
    const along = (b.x - a.x) * dx + (b.y - a.y) * dy;
    if (along < 0.5) continue;
    const aside = Math.abs((b.x - a.x) * dy - (b.y - a.y) * dx);
    const c = along + 1.2 * aside;
    if (c < cost) [best, cost] = [b.index, c];
  }
  return best;
}

// Arrows walk the hexes, Enter or Space taps one; the hex in focus keeps it when the board is
// drawn anew (each state redraws it whole).
function keyboard(svg, board, onTap) {
  svg.addEventListener("keydown", (e) => {
    const g = e.target.closest?.("g.hex");
    if (!g) return;
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      if (g.hasAttribute("data-tap") && onTap) onTap(Number(g.dataset.hex));
      return;
    }
    const step = ARROWS[e.key];
    if (!step) return;
    e.preventDefault();
    const next = neighbour(board, Number(g.dataset.hex), step);
    if (next !== null) svg.querySelector(`g.hex[data-hex="${next}"]`)?.focus();
  });
  const was = document.activeElement?.closest?.("svg.board g.hex")?.dataset.hex;
  if (was !== undefined) {
    queueMicrotask(() => svg.querySelector(`g.hex[data-hex="${was}"]`)?.focus({ preventScroll: true }));
  }
}

let wordsOpen = false;

// A piece that may be picked up, named as the table knows it: "Ana's person", "Boat 8", "Shark 2".
function pieceWords(piece, snapshot) {
  if (piece.kind === "person") return t("words.person.one", { name: nameOf(snapshot, "ABCDEF".indexOf(piece.id[0])) });
  if (piece.kind === "boat") return boatLabel(piece.id);
  return creatureLabel(piece.id);
}

// The board as a text alternative below it: what may move now (buttons that pick it up, or the
// places it may go once picked up) and whose pieces are where. `taps` is moves.js's reading of
// the legal actions; `source` the piece picked up.
export function boardInWords(board, snapshot, { taps, source, onTap, onPick }) {
  const view = snapshot.state;
  const hexes = board.hexes;
  const choices = [];
  if (source) {
    const seen = new Set();
    for (const m of source.moves) {
      if (m.hex === null || seen.has(m.hex)) continue;
      seen.add(m.hex);
      choices.push({ text: describe(m.action, board, snapshot), go: () => onTap(m.hex), hex: m.hex });
    }
  } else {
    for (const piece of taps.sources.values()) {
      if (piece.hex === null) continue;
      const at = hexes[piece.hex];
      choices.push({ text: t("words.pick", { piece: pieceWords(piece, snapshot), hex: terrainWords(at, kindOf(at, view)) }), go: () => onPick(piece), hex: piece.hex });
    }
    for (const [hex, actions] of taps.direct) {
      if (hex === null) continue;
      choices.push({ text: actions.length === 1 ? describe(actions[0], board, snapshot) : hexLabel(hexes[hex].name), go: () => onTap(hex), hex });
    }
  }
  const { people, onHex, boatsAt, creaturesAt } = placesOf(view);
  const where = hexes.filter((x) => onHex.has(x.name) || boatsAt.has(x.name) || creaturesAt.has(x.name)).map((x) =>
    h("li", { dataset: { wordsAt: x.name } }, hexWords(snapshot, x, kindOf(x, view),
      { here: onHex.get(x.name), beasts: creaturesAt.get(x.name) || [], boat: boatsAt.get(x.name), people }, null)));
  // Open or closed as the player left it; a choice made from the keyboard keeps the focus here.
  const hadFocus = Boolean(document.activeElement?.closest?.(".board-words"));
  const words = h("details", { class: "board-words", dataset: { words: "" }, open: wordsOpen ? true : null, ontoggle: (e) => { wordsOpen = e.target.open; } },
    h("summary", { text: t("words.summary", { n: choices.length }) }),
    h("h3", { text: t(source ? "words.may_go" : "words.may_move") }),
    choices.length
      ? h("ul", { class: "may-move" }, choices.map((c) =>
          h("li", {}, h("button", { class: "secondary small wide", dataset: { wordsHex: c.hex }, onclick: c.go }, c.text))))
      : h("p", { class: "hint", text: t("words.nothing") }),
    h("h3", { text: t("words.where") }),
    where.length ? h("ul", { class: "where" }, where) : null);
  if (hadFocus) queueMicrotask(() => (words.querySelector(".may-move button") || words.querySelector("summary"))?.focus());
  return words;
}


// Where a hex is drawn, in the SVG's pixels, to scroll it into sight.
export function hexPixel(board, index, scale = NEAR) {
  const box = extent(board);
  const hex = board.hexes[index];
  return { x: (hex.x - box.minX) * scale, y: (hex.y - box.minY) * scale };
}
