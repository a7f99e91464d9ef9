// The board as SVG, drawn from the server's hex centres (/api/board, in hex units) and the view:
// tiles by terrain, the sea, the safe islands, people (seat colour and name), boats with their
// passengers, creatures. Hexes the player may tap are marked; a tap reports the hex's index.

import { s } from "./dom.js";
import { t } from "./i18n.js";
import { byseat, fill, ink } from "./players.js";

// Pixels per hex unit when the board is near: a hex is √3·28 ≈ 48 px wide, a finger's width.
export const NEAR = 28;
const SQRT3 = Math.sqrt(3);
const CREATURE_FILL = {
  serpent: "#CC79A7",
  shark: "#4d4d4d",
  whale: "#1d3557",
  dolphin: "#56B4E9",
  squid: "#8c2d19",
};

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
  return s("g", { class: `creature ${kind}`, "data-creature": c.id },
    s("circle", { cx: x, cy: y, r: 0.24, fill: CREATURE_FILL[kind] || "#333" }),
    s("text", { x, y: y + 0.01, class: "creature-text" }, t(`creature.short.${kind}`)),
  );
}

function boatMark(snapshot, boat, people, x, y) {
  const passengers = boat.people.map((id) => people.get(id)).filter(Boolean);
  const parts = [
    s("path", { d: `M ${x - 0.62} ${y - 0.12} L ${x + 0.62} ${y - 0.12} L ${x + 0.42} ${y + 0.2} L ${x - 0.42} ${y + 0.2} Z`, class: "boat-hull" }),
    s("text", { x, y: y + 0.05, class: "boat-text" }, boat.id),
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

// marks: {targets, sources: Sets of hex indexes; selected, next: hex index or null}
export function drawBoard(board, snapshot, marks, { scale = NEAR, onTap = null, interactive = true } = {}) {
  const view = snapshot.state;
  const box = extent(board);
  const svg = s("svg", {
    class: "board",
    viewBox: `${box.minX} ${box.minY} ${box.width} ${box.height}`,
    width: Math.round(box.width * scale),
    height: Math.round(box.height * scale),
    role: "img",
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
  const pieceLayer = s("g", { class: "pieces" });
  svg.append(hexLayer, pieceLayer);

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

  for (const hex of board.hexes) {
    const terrain = view.tiles[hex.name];
    // A land position with no tile is sea once the island is laid; while it is laid, a gap.
    const gap = view.phase === "terrain" ? "unlaid" : "sea sunk";
    const kind = hex.kind === "safe" ? "safe" : terrain ? `land ${terrain}` : hex.kind === "land" ? gap : "sea";
    const isTarget = marks.targets?.has(hex.index);
    const isSource = marks.sources?.has(hex.index);
    const classes = ["hex", ...kind.split(" ")];
    if (isTarget) classes.push("target");
    if (isSource) classes.push("source");
    if (marks.selected === hex.index) classes.push("selected");
    if (marks.next === hex.index) classes.push("next");
    if (hex.kind === "access") classes.push("access");
    const tappable = interactive && (isTarget || isSource || marks.selected === hex.index);
    const g = s("g", {
      class: classes.join(" "),
      "data-hex": hex.index,
      "data-name": hex.name,
      "data-target": isTarget ? "" : null,
      "data-source": isSource ? "" : null,
      "data-steps": marks.steps?.get(hex.index) ?? null, // a whole move's spaces, in one tap
      "data-tap": tappable ? "" : null,
      role: tappable ? "button" : null,
      "aria-label": tappable ? `${hex.name}` : null,
    });
    g.append(s("polygon", { points: corners(hex.x, hex.y, 0.97) }));
    // A target wears a dark ring and a bright dashed one, visible on sand, forest and sea alike.
    if (isTarget) g.append(s("polygon", { points: corners(hex.x, hex.y, 0.8), class: "ring" }));
    if (hex.kind === "safe") g.append(s("text", { x: hex.x, y: hex.y - 0.55, class: "island-text" }, hex.name));
    if (isTarget || marks.next === hex.index) {
      g.append(s("text", { x: hex.x, y: hex.y + 0.78, class: "hex-name" }, hex.name));
    }
    if (tappable && onTap) g.addEventListener("click", () => onTap(hex.index));
    hexLayer.append(g);

    const here = onHex.get(hex.name);
    const beasts = creaturesAt.get(hex.name) || [];
    beasts.forEach((c, i) => {
      pieceLayer.append(creatureMark(c, hex.x + (i - (beasts.length - 1) / 2) * 0.5, hex.y - 0.5));
    });
    const boat = boatsAt.get(hex.name);
    if (boat) pieceLayer.append(boatMark(snapshot, boat, people, hex.x, hex.y + 0.45));
    if (here?.land.length) pieceLayer.append(...pills(snapshot, here.land, hex.x, hex.y + 0.05));
    if (here?.sea.length) pieceLayer.append(...pills(snapshot, here.sea, hex.x, hex.y + (boat ? -0.05 : 0.1), { swimming: true }));
    if (here?.saved.length) pieceLayer.append(...pills(snapshot, here.saved, hex.x, hex.y + 0.2));
  }
  return svg;
}

// Where a hex is drawn, in the SVG's pixels, to scroll it into sight.
export function hexPixel(board, index, scale = NEAR) {
  const box = extent(board);
  const hex = board.hexes[index];
  return { x: (hex.x - box.minX) * scale, y: (hex.y - box.minY) * scale };
}
