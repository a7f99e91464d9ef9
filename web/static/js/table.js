// The table screen (/table): a spectator's view of the current game for a TV, a tablet or a
// monitor at the end of the table, readable from two or three metres. The board large with what
// just changed marked for a few seconds; whose turn and which step in that player's colour; the
// roll spelled out; saved people (their values hidden until the end, spec §9); a join panel while
// people sit down; the end's ranking and reasons; a Flotilla game's market, VP supply and end
// countdown. It follows the table from one game to the next, in the table's language, and speaks
// the table's announcements (GET /api/voice) once someone taps to switch the voice on.

import { h, show } from "./dom.js";
import { t, load } from "./i18n.js";
import { get } from "./api.js";
import { follow } from "./stream.js";
import { sentenceOf } from "./words.js";
import { drawBoard, extent } from "./board.js";
import { rollMeaning } from "./turn.js";
import { resultParts } from "./end.js";
import { remember, happeningsList, changed as rewritten, lineOf } from "./happenings.js";
import { byseat, fill, ink } from "./players.js";
import { captains, supplyLine, lastStep, lastTrade, ending, colour } from "./flotilla.js";

// What just changed stays marked this long.
const MARKED_MS = 4000;
const SETUP = ["terrain", "place", "boat"];
const TERRAINS = ["beach", "forest", "mountain"];
const ROLLS = new Set(["rolled", "dived", "spun"]);

const screen = {
  board: null,
  snapshot: null,
  connected: false,
  happenings: [],
  lastRoll: null,
  changed: new Map(), // hex name or piece id -> until when it stays marked
  voice: { outlet: document.body.dataset.voice || "none", on: false, muted: false, after: 0, polling: false },
};
let clearing = null;

const main = () => document.getElementById("main");

// -- what changed ------------------------------------------------------------------------------

function mark(kind, e) {
  const until = Date.now() + MARKED_MS;
  for (const key of ["hex", "to", "island"]) {
    if (typeof e[key] === "string") screen.changed.set(`hex:${e[key]}`, until);
  }
  if (kind === "creature_moved" && e.creature) screen.changed.set(`creature:${e.creature}`, until);
  if (kind === "creature_placed" && e.creature) screen.changed.set(`creature:${e.creature}`, until);
  clearTimeout(clearing);
  clearing = setTimeout(render, MARKED_MS + 50);
}

function marked() {
  const now = Date.now();
  for (const [key, until] of screen.changed) if (until <= now) screen.changed.delete(key);
  return screen.changed;
}

function highlight(svg) {
  for (const key of marked().keys()) {
    const [what, name] = key.split(/:(.*)/s);
    const selector = what === "hex" ? `g.hex[data-name="${CSS.escape(name)}"]` : `[data-creature="${CSS.escape(name)}"]`;
    for (const el of svg.querySelectorAll(selector)) el.classList.add("changed");
  }
}

// -- parts -------------------------------------------------------------------------------------

function chip(player) {
  return h("span", { class: "chip", style: `background:${fill(player)};color:${ink(player)}` }, player.name);
}

function headline(snapshot) {
  const view = snapshot.state;
  const setup = SETUP.includes(view.phase);
  const seat = setup ? (typeof view.actor === "number" ? view.actor : null) : view.turn;
  const player = seat === null ? null : byseat(snapshot, seat);
  const spin = view.rules?.modules?.includes("escape-1986") && view.phase === "roll";
  // A Flotilla turn's own steps are the player's ("Your steps"): the screen says the round.
  const flotillaStep = view.phase === "turn" ? t("flotilla.round", { n: view.round }) : t(`flotilla.phase.${view.phase}`);
  const step = snapshot.kind === "flotilla" ? flotillaStep : t(spin ? "phase.spin" : `phase.${view.phase}`);
  return h("header", {
    class: "whose-turn", dataset: { phase: view.phase, seat: seat ?? "" },
    style: player ? `--seat:${fill(player)};--seat-ink:${ink(player)}` : null,
  },
  player ? h("div", { class: "who", text: t("screen.turn", { name: player.name }) }) : null,
  h("div", { class: "step", text: step }));
}

function rollLine(view) {
  const meaning = rollMeaning(view);
  if (meaning) return h("div", { class: "roll", dataset: { roll: view.roll } }, meaning);
  if (!screen.lastRoll) return null;
  return h("div", { class: "roll last-roll", dataset: { roll: "last" } }, h("p", { class: "roll-meaning", text: screen.lastRoll }));
}

function scores(snapshot) {
  const view = snapshot.state;
  const result = view.result;
  return h("ul", { class: "scores" }, snapshot.players.map((p) => {
    const saved = view.people.filter((x) => x.seat === p.seat && x.where === "saved").length;
    const held = view.hands.find((x) => x.seat === p.seat)?.count || 0;
    const ranked = result?.ranking?.find((r) => r.seat === p.seat);
    // Values are hidden until the end (§9): a spectator's view has none to show before.
    const points = ranked ? t("screen.points", { n: ranked.points }) : t("screen.points_hidden");
    return h("li", { class: view.turn === p.seat && !SETUP.includes(view.phase) ? "score-row turn" : "score-row", dataset: { seat: p.seat, saved } },
      chip(p),
      h("span", { class: "saved", text: t("screen.saved", { n: saved }) }),
      h("span", { class: "points", dataset: { points: ranked ? ranked.points : "hidden" }, text: points }),
      held ? h("span", { class: "held", text: t("screen.held", { n: held }) }) : null);
  }));
}

function tilesLeft(view) {
  const left = Object.values(view.tiles);
  const counts = TERRAINS.map((k) => h("span", { class: `left ${k}`, dataset: { terrain: k, left: left.filter((x) => x === k).length } },
    t("screen.left", { n: left.filter((x) => x === k).length, tile: t(`terrain.${k}`) })));
  return h("p", { class: "tiles-left", dataset: { left: left.length } }, t("screen.tiles_left", { n: left.length }), " — ", counts);
}

function boardBox() {
  // The board fills the space left of the side panel, as large as it fits.
  const width = Math.max(300, window.innerWidth * 0.6 - 24);
  const height = Math.max(300, window.innerHeight - 24);
  const box = extent(screen.board);
  return Math.min(width / box.width, height / box.height);
}

function board(snapshot) {
  const svg = drawBoard(screen.board, snapshot, {}, { scale: boardBox(), interactive: false });
  highlight(svg);
  return h("div", { class: "screen-board" }, svg);
}

function joinPanel(snapshot) {
  const codes = document.getElementById("join-codes").content.cloneNode(true);
  for (const el of codes.querySelectorAll("[data-caption]")) {
    const key = el.dataset.caption;
    if (key === "page") el.textContent = document.body.dataset.tableUrl;
    else if (key === "wifi") el.textContent = t("screen.join.wifi", { name: el.textContent });
    else el.textContent = t(`screen.join.${key}`);
  }
  return h("section", { class: "join-panel", dataset: { join: "open" } },
    h("h2", { text: snapshot?.game ? t("screen.join.title_game", { n: snapshot.game }) : t("screen.join.title") }),
    h("div", { class: "codes" }, codes));
}

// Seats are still being taken until the first turn starts; after the end, the next game's are.
function seatsOpen(snapshot) {
  if (!snapshot || snapshot.game === null || snapshot.game === undefined) return true;
  const view = snapshot.state;
  if (view.phase === "over") return true;
  if (snapshot.kind === "flotilla") return snapshot.actions === 0;
  return SETUP.includes(view.phase);
}

function voiceButton() {
  const v = screen.voice;
  if (v.outlet !== "screen" && v.outlet !== "both") return null;
  if (v.muted) return h("p", { class: "voice muted", dataset: { voice: "muted" }, text: t("screen.voice.muted") });
  if (v.on) return h("p", { class: "voice on", dataset: { voice: "on" }, text: t("screen.voice.on") });
  return h("button", { class: "big voice", dataset: { voice: "off" }, onclick: voiceOn }, t("screen.voice.tap"));
}

function status() {
  return h("p", { class: `conn ${screen.connected ? "connected" : "disconnected"}`, id: "conn", role: "status", dataset: { connected: screen.connected ? "connected" : "disconnected" } },
    h("span", { class: "dot", "aria-hidden": "true" }), t(`conn.${screen.connected ? "connected" : "disconnected"}`));
}

// -- screens -------------------------------------------------------------------------------------

function survive(snapshot) {
  const view = snapshot.state;
  if (view.phase === "over" && view.result) {
    return [
      board(snapshot),
      h("aside", { class: "side end-side", tabindex: "0", "aria-label": t("end.how") }, h("section", { class: "end large" }, resultParts(snapshot)), seatsOpen(snapshot) ? joinPanel(snapshot) : null, voiceButton(), status()),
    ];
  }
  return [
    board(snapshot),
    h("aside", { class: "side" },
      headline(snapshot),
      rollLine(view),
      scores(snapshot),
      tilesLeft(view),
      seatsOpen(snapshot) ? joinPanel(snapshot) : happeningsList(screen.happenings, snapshot, screen.board, 4),
      voiceButton(),
      status()),
  ];
}

function market(view) {
  return h("table", { class: "market" },
    h("caption", { text: t("screen.market") }),
    h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("screen.market.good") }), h("th", { scope: "col", text: t("screen.market.space") }), h("th", { scope: "col", text: t("screen.market.price") }))),
    h("tbody", {}, Object.entries(view.market).map(([c, m]) => h("tr", { dataset: { good: c, price: m.price } },
      h("th", { scope: "row", text: colour(c) }), h("td", { text: String(m.space) }), h("td", { text: String(m.price) })))));
}

function flotilla(snapshot) {
  const view = snapshot.state;
  if (view.phase === "over" && view.result) {
    return h("section", { class: "flotilla-screen end large", tabindex: "0", "aria-label": t("end.how") }, ending(snapshot), joinPanel(snapshot), voiceButton(), status());
  }
  return h("section", { class: "flotilla-screen" },
    h("div", { class: "flotilla-main" },
      headline(snapshot),
      captains(snapshot),
      h("div", { class: "supply-box", dataset: { supply: view.supply.supply } }, supplyLine(snapshot)),
      lastStep(snapshot),
      lastTrade(snapshot)),
    h("aside", { class: "side" }, market(view), seatsOpen(snapshot) ? joinPanel(snapshot) : null, voiceButton(), status()));
}

function waiting() {
  return h("section", { class: "waiting-screen" },
    h("h1", { text: t("app.title") }),
    h("p", { class: "hint", text: t("screen.no_game") }),
    joinPanel(null), voiceButton(), status());
}

// Several events come together after a command: the screen is drawn once per frame.
let drawing = 0;
function render() {
  if (!drawing) drawing = requestAnimationFrame(draw);
}

function draw() {
  drawing = 0;
  const snapshot = screen.snapshot;
  const body = document.body;
  let content;
  if (!snapshot || snapshot.game === null || !screen.board) {
    content = waiting();
    body.dataset.screen = "waiting";
  } else if (snapshot.kind === "flotilla") {
    content = flotilla(snapshot);
    body.dataset.screen = "flotilla";
  } else {
    content = survive(snapshot);
    body.dataset.screen = snapshot.state.phase === "over" ? "end" : "play";
  }
  show(main(), content);
  body.dataset.game = snapshot?.game ?? "";
  body.dataset.seq = snapshot ? String(snapshot.seq) : "";
  body.dataset.phase = snapshot?.state?.phase || "";
}

// -- the voice -----------------------------------------------------------------------------------

function speak(text, lang) {
  const utterance = new SpeechSynthesisUtterance(text);
  utterance.lang = lang;
  utterance.volume = Math.min(1, Math.max(0, (screen.voice.volume ?? 80) / 100));
  window.speechSynthesis.speak(utterance);
}

async function listen() {
  const v = screen.voice;
  if (v.polling) return;
  v.polling = true;
  while (v.on) {
    try {
      const answer = await get(`/api/voice?after=${v.after}&wait=20`);
      v.muted = answer.muted;
      v.volume = answer.volume;
      const said = answer.said || [];
      if (said.length) v.after = said[said.length - 1].id;
      // Fallen behind: older news is dropped, the newest two are said.
      if (said.length > 2 || window.speechSynthesis.pending) window.speechSynthesis.cancel();
      for (const a of said.slice(-2)) speak(a.text, a.lang);
      render();
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 3000)); // the table is unreachable
    }
  }
  v.polling = false;
}

async function voiceOn() {
  // Browsers speak only after a gesture on the page: this tap is it.
  const v = screen.voice;
  v.on = true;
  speak(t("screen.voice.hello"), document.documentElement.lang);
  try {
    const answer = await get("/api/voice");
    v.after = answer.last || 0;
    v.muted = answer.muted;
    v.volume = answer.volume;
  } catch {
    /* the loop below tries again */
  }
  render();
  listen();
}

// -- start ---------------------------------------------------------------------------------------

async function start() {
  await load(document.body.dataset.lang || "en");
  try {
    screen.board = await get("/api/board");
  } catch (e) {
    show(main(), h("p", { class: "refusal", role: "alert", text: sentenceOf(e) }));
    return;
  }
  render();
  follow(null, {
    onSnapshot: (snapshot, name) => {
      if (screen.snapshot && snapshot.game !== screen.snapshot.game) {
        screen.happenings = [];
        screen.lastRoll = null;
      }
      if (name === "undone" || name === "corrected") screen.happenings = [rewritten(name, snapshot)];
      screen.snapshot = snapshot.game === null ? null : snapshot;
      render();
    },
    onEvent: (kind, data) => {
      if (!screen.snapshot || screen.snapshot.kind === "flotilla") return;
      // The island the table deals after a new game comes as events with no state after them:
      // lay each tile as it comes, so that the island is drawn at once.
      if (kind === "laid") {
        // A new snapshot, not a change of this one: the stream applies what changes onto it.
        const { state } = screen.snapshot;
        screen.snapshot = { ...screen.snapshot, state: { ...state, tiles: { ...state.tiles, [data.hex]: data.terrain } } };
        return render(); // the whole island at once: nothing to single out
      }
      screen.happenings = remember(screen.happenings, kind, data).slice(0, 8);
      if (ROLLS.has(kind)) screen.lastRoll = lineOf({ kind, e: data }, screen.snapshot, screen.board);
      if (kind === "turn") screen.lastRoll = null;
      mark(kind, data);
      render();
    },
    onStatus: () => {},
    onConnection: (up) => {
      screen.connected = up;
      const conn = document.getElementById("conn");
      if (conn) render();
    },
  });
  window.addEventListener("resize", render);
  // The kiosk (companion kiosk) opens /table#voice=on in a Chromium allowed to speak without a
  // tap; any other browser waits for the tap on the button.
  if (/voice=on/.test(location.hash) && ["screen", "both"].includes(screen.voice.outlet)) voiceOn();
}

start();
