// The phone page: start, then one screen at a time — join (PIN, seat or watch), setup, play,
// end — redrawn whole from the latest snapshot the stream brought. The page never changes the
// game itself: it sends commands and shows what the table says back.

import { h, show } from "./dom.js";
import { t, load, choose as chooseLanguage, switchTo, language, LANGUAGES } from "./i18n.js";
import { get, post, command, setToken, Refusal } from "./api.js";
import { follow, HAPPENINGS } from "./stream.js";
import { drawBoard, hexPixel, NEAR, extent } from "./board.js";
import { taps, placeValues, describe, describePiece } from "./moves.js";
import { turnPanel } from "./turn.js";
import { setupScreen, resetSetup } from "./setup.js";
import { endScreen } from "./end.js";
import { joinScreen } from "./join.js";
import { openFix } from "./correct.js";
import { choose, closeSheet } from "./sheet.js";
import { remember, happeningsList } from "./happenings.js";
import { fill, ink } from "./players.js";
import { flotillaScreen, FLOTILLA_EVENTS } from "./flotilla.js";

HAPPENINGS.push(...FLOTILLA_EVENTS); // a Flotilla game's events come on the same stream
import { cameraPanel, markCamera } from "./camera.js";

const app = {
  session: { authorised: false, seat: null, game: null },
  board: null,
  rules: null,
  games: [],
  current: null,
  screen: "join",
  game: null,
  snapshot: null,
  stream: null,
  connected: false,
  status: {},
  happenings: [],
  ui: { selected: null, value: null, dive: null, refusal: null, busy: false, zoom: "near", focus: "" },
  pinError: null,
  poll: null,
  voice: null,
};

const main = () => document.getElementById("main");

// -- the status bar: always visible, whatever the screen -------------------------------------

function statusWord(value) {
  const text = String(value ?? "none");
  if (/error|disconnect|lost|fail|unavailable|low|full/i.test(text)) return "bad";
  if (text === "none" || text === "") return "off";
  return "ok";
}

function renderBar() {
  const bar = document.getElementById("bar");
  const following = app.screen === "play";
  const conn = !following ? "idle" : app.connected === "busy" ? "busy" : app.connected ? "connected" : "disconnected";
  const part = (name) => {
    const value = app.status[name] ?? "none";
    return h("span", { class: `status ${statusWord(value)}`, dataset: { status: name }, title: String(value) },
      t(`status.${name}`), ": ", value === "none" ? t("status.none") : String(value));
  };
  show(bar,
    h("span", { class: `conn ${conn}`, id: "conn", dataset: { connected: conn }, role: "status" },
      h("span", { class: "dot", "aria-hidden": "true" }), t(`conn.${conn}`)),
    h("span", { class: "parts" }, part("panel"), part("camera"),
      // the game log's disk: shown only when it is low or full (every move needs it)
      app.status.storage && app.status.storage !== "ok" ? part("storage") : null),
    voiceToggle(),
    h("select", { class: "lang", "aria-label": t("lang.choose"), dataset: { field: "language" }, onchange: async (e) => {
      const chosen = e.target.value;
      await switchTo(chosen);
      render();
      // The table remembers it too, for the next visit's first paint (a cookie).
      post("/api/session/language", { language: chosen }).catch(() => {});
    } },
      LANGUAGES.map((l) => h("option", { value: l, selected: l === language() ? true : null }, t(`lang.${l}`)))));
}

// The table's voice (when it has one): a phone with the PIN mutes it for everyone, or lets it
// speak again.
function voiceToggle() {
  const voice = app.voice;
  if (!voice || voice.outlet === "none" || !app.session.authorised) return null;
  const label = t(voice.muted ? "voice.unmute" : "voice.mute");
  return h("button", { class: "icon voice-toggle", dataset: { voice: voice.muted ? "muted" : "on" }, "aria-label": label, title: label, onclick: async () => {
    try {
      app.voice = await post("/api/voice", { muted: !voice.muted });
    } catch {
      /* the bar stays as it was; the table is unreachable or the PIN was lost */
    }
    renderBar();
  } }, voice.muted ? "🔇" : "🔊");
}

// -- acting -------------------------------------------------------------------------------------

async function send(what) {
  if (app.ui.busy) return;
  app.ui.busy = true;
  document.body.dataset.busy = "yes";
  try {
    await command(app.game, what);
    app.ui.refusal = null;
    app.ui.selected = null;
    app.ui.dive = null;
  } catch (e) {
    app.ui.refusal = e instanceof Refusal ? { rule: e.rule, sentence: e.sentence } : { sentence: String(e) };
  } finally {
    app.ui.busy = false;
    document.body.dataset.busy = "no";
    render();
  }
}

const act = (action) => send({ action });
const intent = (name, args) => send(args ? { intent: name, args } : { intent: name });

// -- the board's taps ---------------------------------------------------------------------------

function currentTaps() {
  const snapshot = app.snapshot;
  const values = placeValues(snapshot.legal);
  if (values.length && !values.includes(app.ui.value)) app.ui.value = values[0];
  return taps(snapshot.legal, app.board, snapshot.state, { value: values.length ? app.ui.value : null });
}

function selectedSource(T) {
  if (app.ui.selected && T.sources.has(app.ui.selected)) return T.sources.get(app.ui.selected);
  // One piece to move (the creature already under way, a squid coming from the supply): it is
  // picked up already.
  if (T.sources.size === 1 && !T.direct.size) return [...T.sources.values()][0];
  return null;
}

function marks(T) {
  const source = selectedSource(T);
  const targets = new Set(source ? source.moves.map((m) => m.hex) : T.direct.keys());
  targets.delete(null);
  const sources = new Set([...T.sources.values()].map((x) => x.hex).filter((x) => x !== null));
  let next = null;
  const pending = app.snapshot.state.pending;
  if (app.snapshot.state.phase === "defence" && pending.hex) {
    next = app.board.hexes.find((x) => x.name === pending.hex)?.index ?? null; // where it attacks
  }
  if (app.snapshot.state.phase === "terrain") {
    next = app.board.land.find((i) => !(app.board.hexes[i].name in app.snapshot.state.tiles)) ?? null;
  }
  return { targets, sources, selected: source?.hex ?? null, next };
}

function tapHex(index) {
  if (app.ui.busy) return;
  const T = currentTaps();
  const source = selectedSource(T);
  if (source) {
    const moves = source.moves.filter((m) => m.hex === index);
    if (moves.length === 1) return act(moves[0].action);
    if (moves.length > 1) {
      return choose(t("choose.move"), moves, (m) => describe(m.action, app.board, app.snapshot), (m) => act(m.action));
    }
    if (source.hex === index && app.ui.selected) {
      app.ui.selected = null;
      return render();
    }
  }
  const direct = source ? [] : T.direct.get(index) || [];
  const here = [...T.sources.values()].filter((x) => x.hex === index && x !== source);
  const options = [...direct.map((action) => ({ action })), ...here.map((piece) => ({ piece }))];
  const pickOption = (o) => {
    if (o.action) return act(o.action);
    app.ui.selected = o.piece.key;
    render();
  };
  if (options.length === 1) return pickOption(options[0]);
  if (options.length > 1) {
    return choose(t("choose.piece"), options,
      (o) => (o.action ? describe(o.action, app.board, app.snapshot) : describePiece(o.piece, app.snapshot)), pickOption);
  }
}

// -- screens ------------------------------------------------------------------------------------

function playersStrip(snapshot) {
  const view = snapshot.state;
  return h("ul", { class: "players-strip" }, snapshot.players.map((p) => {
    const saved = view.people.filter((x) => x.seat === p.seat && x.where === "saved").length;
    const tiles = view.hands.find((x) => x.seat === p.seat)?.count || 0;
    const turn = view.turn === p.seat && !["terrain", "place", "boat", "over"].includes(view.phase);
    return h("li", { class: turn ? "player turn" : "player", dataset: { seat: p.seat }, style: `--seat:${fill(p)}` },
      h("span", { class: "chip", style: `background:${fill(p)};color:${ink(p)}` }, p.name),
      h("span", { class: "counts", text: t("players.counts", { saved, tiles }) }),
      p.seat === view.viewer ? h("span", { class: "you", text: t("players.you") }) : null);
  }));
}

function focusBoard(wrap, m) {
  // Bring the hexes to tap into sight when they change; leave the player's own scrolling alone.
  const marked = m.selected !== null ? [...m.targets, m.selected] : m.targets.size ? [...m.targets] : m.next !== null ? [m.next] : [...m.sources];
  const signature = marked.sort((a, b) => a - b).join(",");
  if (!marked.length) {
    // Nothing to tap: open on the island's middle, once.
    if (app.ui.focus) return;
    app.ui.focus = "middle";
    wrap.scrollTo({ left: (wrap.scrollWidth - wrap.clientWidth) / 2, top: (wrap.scrollHeight - wrap.clientHeight) / 2 });
    return;
  }
  if (signature === app.ui.focus) return;
  app.ui.focus = signature;
  const points = marked.map((i) => hexPixel(app.board, i, NEAR));
  const x = points.reduce((a, p) => a + p.x, 0) / points.length;
  const y = points.reduce((a, p) => a + p.y, 0) / points.length;
  wrap.scrollTo({ left: x - wrap.clientWidth / 2, top: y - wrap.clientHeight / 2 });
}

function boardArea(m) {
  const far = app.ui.zoom === "far";
  let wrap = document.getElementById("boardwrap");
  const keep = wrap ? { left: wrap.scrollLeft, top: wrap.scrollTop } : null;
  wrap = h("div", { id: "boardwrap", class: far ? "board-wrap far" : "board-wrap" });
  const box = extent(app.board);
  const scale = far ? Math.min(340 / box.width, (window.innerWidth - 16) / box.width) : NEAR;
  const svg = drawBoard(app.board, app.snapshot, m, { scale, onTap: tapHex, interactive: !far });
  markCamera(svg, app.snapshot);
  if (far) {
    // The whole island at a glance; a tap brings that part near, where hexes are finger-sized.
    svg.addEventListener("click", (e) => {
      const r = svg.getBoundingClientRect();
      const fx = (e.clientX - r.left) / r.width;
      const fy = (e.clientY - r.top) / r.height;
      app.ui.zoom = "near";
      render();
      const near = document.getElementById("boardwrap");
      near.scrollTo({ left: fx * box.width * NEAR - near.clientWidth / 2, top: fy * box.height * NEAR - near.clientHeight / 2 });
    });
    svg.dataset.zoomIn = "";
  }
  wrap.append(svg);
  const tools = h("div", { class: "board-tools" },
    h("button", { class: "icon", dataset: { zoom: far ? "near" : "far" }, "aria-label": t(far ? "board.near" : "board.far"), onclick: () => { app.ui.zoom = far ? "near" : "far"; app.ui.focus = ""; render(); } },
      far ? "+" : "−"));
  return { wrap, tools, keep };
}

function selectionLine(T) {
  const source = selectedSource(T);
  if (!source || !app.ui.selected) return null;
  return h("div", { class: "selection", dataset: { selected: source.key } },
    h("span", { text: t("choose.selected", { piece: describePiece(source, app.snapshot) }) }),
    h("button", { class: "secondary small", dataset: { go: "unselect" }, onclick: () => { app.ui.selected = null; render(); } }, t("common.cancel")));
}

// The end of a game: the page watches for the next one, and when another phone has started it,
// one tap joins it.
function afterGame(end) {
  if (!app.poll) watchForGames();
  if (app.current && app.current !== app.game) {
    end.prepend(h("button", { class: "big wide", dataset: { go: "next-game" }, onclick: () => go("join") }, t("end.next_game", { n: app.current })));
  }
  return end;
}

function playScreen() {
  const snapshot = app.snapshot;
  if (!snapshot) return h("p", { class: "hint", text: t("play.loading") });
  const over = snapshot.state.phase === "over";
  if (snapshot.kind === "flotilla") {
    const screen = flotillaScreen({ snapshot, ui: app.ui, act, intent, redraw: render });
    if (over && app.session.authorised) {
      screen.append(h("button", { class: "big wide", dataset: { go: "setup" }, onclick: () => go("setup") }, t("end.new_game")));
    }
    return over ? afterGame(screen) : screen;
  }
  if (over) {
    return afterGame(endScreen({ snapshot, game: app.game, authorised: app.session.authorised, newGame: () => go("setup") }));
  }
  const T = currentTaps();
  const m = marks(T);
  const me = typeof snapshot.state.viewer === "number" ? snapshot.state.viewer : null;
  const { wrap, tools, keep } = boardArea(m);
  const panel = turnPanel({
    snapshot, board: app.board, me, authorised: app.session.authorised, ui: app.ui, taps: T,
    nextHex: m.next !== null ? app.board.hexes[m.next].name : null,
    act, intent,
    setValue: (v) => { app.ui.value = v; render(); },
    setDive: (d) => { app.ui.dive = d; render(); },
    openFix: () => openFix({ game: app.game, snapshot, correct: (seq, action) => intent("correct", { seq, action }) }),
    happenings: happeningsList(app.happenings),
  });
  const screen = h("section", { class: "play" },
    playersStrip(snapshot),
    h("div", { class: "board-area" }, wrap, tools),
    h("div", { class: "panel", id: "panel" },
      cameraPanel({ snapshot, me, authorised: app.session.authorised, intent, redraw: render }), selectionLine(T), panel));
  return { screen, wrap, keep, m };
}

function render() {
  renderBar();
  document.body.dataset.screen = app.screen;
  if (app.screen === "join") {
    show(main(), joinScreen({
      session: app.session, games: app.games, current: app.current, pinError: app.pinError,
      takeSeat, watch, enterPin, setup: () => go("setup"),
    }));
  } else if (app.screen === "setup") {
    if (!app.rules) {
      show(main(), h("p", { class: "hint", text: t("play.loading") }));
      get("/api/rules").then((rules) => { app.rules = rules; render(); }, (e) => show(main(), h("p", { class: "refusal", text: e.sentence })));
      return;
    }
    show(main(), setupScreen({ rules: app.rules, redraw: render, start: startGame, cancel: () => go("join") }));
  } else {
    const out = playScreen();
    if (out instanceof Node) {
      show(main(), out);
    } else {
      show(main(), out.screen);
      if (out.keep) out.wrap.scrollTo(out.keep.left, out.keep.top);
      if (app.ui.zoom === "near") focusBoard(out.wrap, out.m);
    }
    const snapshot = app.snapshot;
    document.body.dataset.phase = snapshot?.state.phase || "";
    document.body.dataset.seq = snapshot ? String(snapshot.seq) : "";
    document.body.dataset.mine = snapshot && (snapshot.legal?.length || snapshot.outcomes?.length || snapshot.verbs?.length) ? "yes" : "no";
  }
}

// -- moving between screens ---------------------------------------------------------------------

function go(screen, game = null) {
  closeSheet();
  if (screen !== "play" && app.stream) {
    app.stream.close();
    app.stream = null;
  }
  app.screen = screen;
  if (screen === "setup") resetSetup();
  if (screen === "play") {
    if (app.stream && app.game !== game) {
      app.stream.close();
      app.stream = null;
    }
    if (app.game !== game) {
      app.snapshot = null;
      app.happenings = [];
    }
    app.game = game;
    app.ui = { ...app.ui, selected: null, refusal: null, dive: null, focus: "" };
    if (!app.stream) {
      app.stream = follow(game, {
        onSnapshot: (snapshot, name) => {
          const changed = !app.snapshot || app.snapshot.seq !== snapshot.seq;
          // An undo or a correction rewrites what happened: the old lines no longer hold.
          if (name === "undone") app.happenings = [t("event.undone", { action: snapshot.action })];
          if (name === "corrected") app.happenings = [t("event.corrected", { was: snapshot.was, now: snapshot.now, dropped: snapshot.dropped.length })];
          app.snapshot = snapshot;
          if (snapshot.status) app.status = snapshot.status;
          if (changed) app.ui.selected = app.ui.selected && snapshot.legal ? app.ui.selected : null;
          render();
        },
        onEvent: (kind, data) => {
          if (app.snapshot?.kind === "flotilla") {
            // The table asks this phone for the faces of the dice just rolled (the panel's ROLL).
            if (kind === "enter_faces" && data.seat === app.snapshot.state.viewer) {
              app.ui.askFaces = true;
              render();
            }
            return;
          }
          if (app.snapshot) app.happenings = remember(app.happenings, kind, data, app.snapshot);
        },
        onStatus: (status) => { app.status = status; renderBar(); },
        onConnection: (up) => { app.connected = up; renderBar(); },
        // Someone asked for, took or left a seat: this phone's own seat may have gone.
        onSeat: async (change) => {
          if (change.game !== app.game) return;
          await loadSession().catch(() => {});
          render();
        },
      });
    }
    history.replaceState(null, "", `#play/${game}`);
  } else {
    history.replaceState(null, "", `#${screen}`);
  }
  watchForGames();
  render();
}

// Off the play screen, keep the list of games fresh: a game another phone started shows up.
function watchForGames() {
  clearInterval(app.poll);
  app.poll = null;
  const waiting = app.screen === "join" || (app.screen === "play" && app.snapshot?.state.phase === "over");
  if (!waiting) return;
  app.poll = setInterval(async () => {
    try {
      const before = app.current;
      await loadGames();
      if (app.screen === "join" || app.current !== before) render();
    } catch {
      /* the bar says when the table is unreachable */
    }
  }, 5000);
}

async function loadGames() {
  const answer = await get("/api/games");
  app.games = answer.games;
  app.current = answer.games.find((g) => g.current)?.id ?? null;
}

async function enterPin(pin) {
  try {
    await post("/api/session/pin", { pin });
    app.pinError = null;
    await loadSession();
  } catch (e) {
    app.pinError = e.sentence || String(e);
  }
  render();
}

async function takeSeat(game, seat) {
  try {
    await post("/api/session/seat", { game, seat });
    await loadSession();
    go("play", game);
  } catch (e) {
    app.pinError = e.sentence || String(e);
    render();
  }
}

async function watch(game) {
  try {
    await post("/api/session/seat", { game, seat: null });
    await loadSession();
  } catch {
    /* watching needs no seat: follow the game anyway */
  }
  go("play", game);
}

async function startGame(body) {
  const answer = await post("/api/games", body);
  await loadGames();
  app.current = answer.game;
  go("join");
}

async function loadSession() {
  app.session = await get("/api/session");
  setToken(app.session.csrf);
}

async function start() {
  await load(chooseLanguage(document.body.dataset.lang));
  renderBar();
  try {
    await loadSession();
    [app.board, app.voice] = await Promise.all([get("/api/board"), get("/api/voice").catch(() => null), loadGames()]);
  } catch (e) {
    show(main(), h("p", { class: "refusal", role: "alert", text: e.sentence || String(e) }));
    return;
  }
  const wanted = location.hash.match(/^#play\/(\d+)$/);
  const game = wanted ? Number(wanted[1]) : app.session.game;
  if (game && app.games.some((g) => g.id === game) && (wanted || app.session.seat)) go("play", game);
  else if (location.hash === "#setup" && app.session.authorised) go("setup");
  else go("join");
}

start();
