// The phone page: start, then one screen at a time — join (PIN, seat or watch), setup, play,
// end — redrawn whole from the latest snapshot the stream brought. The page never changes the
// game itself: it sends commands and shows what the table says back.

import { h, show } from "./dom.js";
import { t, load, choose as chooseLanguage, switchTo, language, setVariant, LANGUAGES } from "./i18n.js";
import { get, post, command, setToken, Refusal } from "./api.js";
import { follow } from "./stream.js";
import { drawBoard, NEAR, extent, boardInWords } from "./board.js";
import { taps, placeValues, describe, describePiece } from "./moves.js";
import { turnPanel } from "./turn.js";
import { setupScreen, resetSetup } from "./setup.js";
import { cueTurn, keepAwake, soundToggle } from "./cue.js";
import { endScreen } from "./end.js";
import { joinScreen } from "./join.js";
import { openFix } from "./correct.js";
import { choose, closeSheet } from "./sheet.js";
import { remember, happeningsList, changed as rewritten } from "./happenings.js";
import { fill, ink } from "./players.js";
import { flotillaScreen } from "./flotilla.js";
import { cameraPanel, markCamera } from "./camera.js";
import { wholeMoves, pathAction, bringIntoView, hexAt, pendingLine, waysOut, soleTargets } from "./play.js";
import { refusalFrom, sentenceOf, statusText, BAD_STATES } from "./words.js";
import { botLine, hintPanel } from "./bots.js";

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

function statusWord(state) {
  if (BAD_STATES.has(state)) return "bad";
  if (state === "none") return "off";
  return "ok";
}

function renderBar() {
  const bar = document.getElementById("bar");
  const following = app.screen === "play";
  const conn = !following ? "idle" : typeof app.connected === "string" ? app.connected : app.connected ? "connected" : "disconnected";
  const part = (name) => {
    // The table reports a status in its own words; the page says it in the phone's.
    const { state, text } = statusText(name, app.status[name] ?? (name === "storage" ? "ok" : "none"));
    return h("span", { class: `status ${statusWord(state)}`, dataset: { status: name, state }, title: text },
      t(`status.${name}`), t("status.colon"), text);
  };
  show(bar,
    h("span", { class: `conn ${conn}`, id: "conn", dataset: { connected: conn }, role: "status" },
      h("span", { class: "dot", "aria-hidden": "true" }), t(`conn.${conn}`)),
    h("span", { class: "parts" }, part("panel"), part("camera"),
      // the game log's disk: shown only when it is low or full (every move needs it)
      app.status.storage && app.status.storage !== "ok" ? part("storage") : null),
    voiceToggle(),
    app.screen === "play" ? soundToggle(renderBar) : null,
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

// A tap goes with the version of the board it was made on; while it travels the page shows it
// waiting. The selected piece stays selected (while it may still move: see onSnapshot).
async function send(what) {
  if (app.ui.busy) return;
  app.ui.busy = true;
  document.body.dataset.busy = "yes";
  render();
  const made = app.snapshot?.version;
  try {
    const reply = await command(app.game, what, made);
    app.ui.refusal = null;
    app.ui.dive = null;
    if (reply.seq !== null && reply.seq !== undefined) await freshBoard(made); // it stored something
  } catch (e) {
    app.ui.refusal = refusalFrom(e);
    if (e instanceof Refusal && (e.body.stale || e.body.timeout)) {
      // Not a rule broken: the board moved on (or the table did not answer). Show it as it is.
      app.ui.refusal = { said: t(e.body.stale ? "play.stale" : "error.timeout"), stale: true };
      app.ui.selected = null;
      if (e.body.stale) await freshBoard(made, true);
    }
  } finally {
    app.ui.busy = false;
    document.body.dataset.busy = "no";
    render();
  }
}

// The board after this phone's own tap: the stream brings it; if it is late, ask for it, so that
// the next tap is not made on the old one.
async function freshBoard(made, always = false) {
  for (let i = 0; i < 20 && !always && app.snapshot?.version === made; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (app.snapshot?.version !== made && !always) return;
  try {
    const snapshot = await get(`/api/games/${app.game}`);
    if (snapshot.seq >= (app.snapshot?.seq ?? -1)) app.snapshot = snapshot;
  } catch {
    /* the bar says when the table does not answer */
  }
}

const act = (action) => send({ action });
const intent = (name, args) => send(args ? { intent: name, args } : { intent: name });

// -- the board's taps ---------------------------------------------------------------------------

function currentTaps() {
  const snapshot = app.snapshot;
  const values = placeValues(snapshot.legal);
  if (values.length && !values.includes(app.ui.value)) app.ui.value = values[0];
  const T = taps(snapshot.legal, app.board, snapshot.state, { value: values.length ? app.ui.value : null });
  // The creature step: a space one creature alone can reach takes it there in one tap.
  T.sole = snapshot.state.phase === "creature" && T.sources.size > 1 && !app.ui.selected
    ? soleTargets(app.game, snapshot, T, render) : new Map();
  return T;
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
  // Spaces a whole move reaches in one tap (several spaces away): targets too, with their steps.
  const steps = new Map();
  for (const [hex, action] of T.sole) {
    targets.add(hex);
    if (action.length > 3) steps.set(hex, action.length - 2); // a whole path's spaces
  }
  if (source) {
    for (const [hex, path] of wholeMoves(app.game, app.snapshot, source, render)) {
      if (!targets.has(hex)) steps.set(hex, path.length);
      targets.add(hex);
    }
  }
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
  return { targets, sources, selected: source?.hex ?? null, next, steps };
}

function tapHex(index) {
  if (app.ui.busy) return;
  const T = currentTaps();
  const source = selectedSource(T);
  if (source) {
    const moves = source.moves.filter((m) => m.hex === index);
    const path = moves.length ? null : wholeMoves(app.game, app.snapshot, source, render).get(index);
    if (path) return act(pathAction(source, path));
    if (moves.length === 1) return act(moves[0].action);
    if (moves.length > 1) {
      return choose(t("choose.move"), moves, (m) => describe(m.action, app.board, app.snapshot), (m) => act(m.action));
    }
    if (source.hex === index && app.ui.selected) {
      app.ui.selected = null;
      return render();
    }
  }
  if (!source && T.sole.has(index) && !T.direct.has(index)) return act(T.sole.get(index));
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
  // Five or six players: three to a row, so that the board keeps the screen.
  return h("ul", { class: snapshot.players.length > 4 ? "players-strip compact" : "players-strip" }, snapshot.players.map((p) => {
    const saved = view.people.filter((x) => x.seat === p.seat && x.where === "saved").length;
    const tiles = view.hands.find((x) => x.seat === p.seat)?.count || 0;
    const turn = view.turn === p.seat && !["terrain", "place", "boat", "over"].includes(view.phase);
    return h("li", { class: turn ? "player turn" : "player", dataset: { seat: p.seat }, style: `--seat:${fill(p)}` },
      h("span", { class: "chip", style: `background:${fill(p)};color:${ink(p)}` }, p.name),
      h("span", { class: "counts", text: t(snapshot.players.length > 4 ? "players.counts_short" : "players.counts", { saved, tiles }) }),
      p.seat === view.viewer ? h("span", { class: "you", text: t("players.you") }) : null);
  }));
}

function focusBoard(wrap, m) {
  // Bring the hexes to tap into sight when they change; leave the player's own scrolling alone.
  let marked = m.selected !== null ? [...m.targets, m.selected] : m.targets.size ? [...m.targets] : m.next !== null ? [m.next] : [...m.sources];
  // Nothing to tap here: a bot's move to make on the board is what to look at.
  if (!marked.length) marked = (app.snapshot.bot_move?.hexes || []).map((name) => app.board.hexes.find((x) => x.name === name)?.index).filter((i) => i !== undefined);
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
  bringIntoView(wrap, app.board, m.selected !== null ? [...m.targets] : marked, m.selected);
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
      // A marked hex tapped far away is a tap on it (a piece picked up, a move made), then near.
      const index = hexAt(app.board, svg, e);
      app.ui.zoom = "near";
      app.ui.focus = "far";
      render();
      const near = document.getElementById("boardwrap");
      near.scrollTo({ left: fx * box.width * NEAR - near.clientWidth / 2, top: fy * box.height * NEAR - near.clientHeight / 2 });
      if (index !== null && (m.targets.has(index) || m.sources.has(index) || m.selected === index)) tapHex(index);
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
    const end = endScreen({ snapshot, game: app.game, authorised: app.session.authorised, newGame: () => go("setup") });
    const log = happeningsList(app.happenings, snapshot, app.board); // the whole game, to read again
    if (log) end.append(log);
    return afterGame(end);
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
    happenings: happeningsList(app.happenings, snapshot, app.board),
  });
  const screen = h("section", { class: "play" },
    playersStrip(snapshot),
    h("div", { class: "board-area" }, wrap, tools),
    boardInWords(app.board, snapshot, { taps: T, source: selectedSource(T), onTap: tapHex, onPick: (piece) => { app.ui.selected = piece.key; render(); } }),
    h("div", { class: "panel", id: "panel" },
      pendingLine(app.ui),
      botLine(snapshot, { authorised: app.session.authorised, intent }),
      hintPanel({ game: app.game, snapshot, board: app.board, me, ui: app.ui, redraw: render, act }),
      cameraPanel({ snapshot, me, authorised: app.session.authorised, intent, redraw: render }), selectionLine(T), panel,
      waysOut({ seated: me !== null, changeSeat: () => leaveSeat("join"), watchInstead: () => leaveSeat("watch"), leave: () => leaveSeat("join") })));
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
      get("/api/rules").then((rules) => { app.rules = rules; render(); }, (e) => show(main(), h("p", { class: "refusal", text: sentenceOf(e) })));
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
    if (snapshot) cueTurn(app.game, document.body.dataset.mine === "yes");
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
  if (screen === "setup") resetSetup(app.snapshot); // a rematch keeps the players
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
      app.connected = "connecting";
      app.stream = follow(game, {
        onSnapshot: (snapshot, name) => {
          const changed = !app.snapshot || app.snapshot.seq !== snapshot.seq;
          // An undo or a correction rewrites what happened: the old lines no longer hold.
          if (name === "undone" || name === "corrected") app.happenings = [rewritten(name, snapshot)];
          app.snapshot = snapshot;
          setVariant(snapshot.state?.rules?.modules?.includes("escape-1986") ? "1986" : "");
          if (snapshot.status) app.status = snapshot.status;
          // A roll that let nothing move passes the turn at once: say so, or it passes unseen.
          if (app.ui.rolled !== undefined && name !== "snapshot") {
            // (kept as data like every line of the log: worded when drawn, event.nothing_moves)
            if (snapshot.state.phase !== "creature") app.happenings = remember(app.happenings, "nothing_moves", { seat: app.ui.rolled });
            app.ui.rolled = undefined;
          }
          // The selected piece stays selected while it may move on in the same step of the turn.
          const step = `${snapshot.state.turn}:${snapshot.state.phase}`;
          if (changed && (!snapshot.legal || step !== app.ui.step)) app.ui.selected = null;
          app.ui.step = step;
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
          if (app.snapshot) app.happenings = remember(app.happenings, kind, data);
          if (kind === "rolled" || kind === "dived") app.ui.rolled = data.seat;
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
// The screen is drawn again only when the games changed: a redraw replaces the buttons, and one
// that falls between a finger's down and up loses the tap (the PIN never sent, the seat never
// taken). The panel's and camera's state is the bar's, which is drawn apart.
function watchForGames() {
  clearInterval(app.poll);
  app.poll = null;
  const waiting = app.screen === "join" || (app.screen === "play" && app.snapshot?.state.phase === "over");
  if (!waiting) return;
  app.poll = setInterval(async () => {
    try {
      const [games, current] = [JSON.stringify(app.games), app.current];
      await Promise.all([loadGames(), loadStatus()]);
      renderBar();
      const moved = app.current !== current;
      if (moved || (app.screen === "join" && JSON.stringify(app.games) !== games)) render();
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

// The panel's and camera's state before any game is followed (the stream tells it after).
async function loadStatus() {
  const health = await get("/api/health").catch(() => null);
  if (health?.status) app.status = health.status;
}

async function enterPin(pin) {
  try {
    await post("/api/session/pin", { pin });
    app.pinError = null;
    await loadSession();
  } catch (e) {
    app.pinError = sentenceOf(e, "pin");
  }
  render();
}

async function takeSeat(game, seat) {
  try {
    await post("/api/session/seat", { game, seat });
    await loadSession();
    go("play", game);
  } catch (e) {
    app.pinError = sentenceOf(e);
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

// Off this seat: to the seats and games (join), or watching this game from here.
async function leaveSeat(where) {
  const game = app.game;
  try {
    await post("/api/session/seat", { game, seat: null });
    await loadSession();
  } catch (e) {
    // The table still has this phone in the seat: watching from here would go on showing the
    // seat's view as if it were a watcher's, so say why it did not work and stay. Leaving for
    // the seats and games still goes (a phone cut off from the table can do nothing here).
    if (where === "watch") {
      app.ui.refusal = refusalFrom(e);
      render();
      return;
    }
  }
  if (where === "watch") {
    if (app.stream) app.stream.close();
    app.stream = null;
    go("play", game);
  } else {
    await loadGames().catch(() => {});
    go("join");
  }
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
    [app.board, app.voice] = await Promise.all([get("/api/board"), get("/api/voice").catch(() => null), loadGames(), loadStatus()]);
  } catch (e) {
    show(main(), h("p", { class: "refusal", role: "alert", text: sentenceOf(e) }));
    return;
  }
  const wanted = location.hash.match(/^#play\/(\d+)$/);
  const game = wanted ? Number(wanted[1]) : app.session.game;
  // A seat in a game the table has left (another game is current) is not where the phone goes
  // back to: the join screen shows the table's game, and "watch" of the old one stays possible.
  const abandoned = app.current !== null && game !== app.current && !app.games.find((g) => g.id === game)?.ended_at;
  if (game && app.games.some((g) => g.id === game) && (wanted || app.session.seat) && !abandoned) go("play", game);
  else if (location.hash === "#setup" && app.session.authorised) go("setup");
  else go("join");
}

keepAwake();
start();
