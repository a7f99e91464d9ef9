// Following a game: one EventSource, reconnecting by itself, with a visible connected /
// disconnected state. Every snapshot-bearing event replaces the page's picture of the game.

import { FLOTILLA_EVENTS } from "./flotilla.js";

// Events whose data is a whole snapshot for this phone's view (web/README.md).
const SNAPSHOTS = ["snapshot", "state", "new_game", "undone", "corrected"];
// Engine events, for the "what happened" lines.
export const HAPPENINGS = [
  "laid", "placed", "boat_placed", "turn", "played", "moved", "boarded", "sailed", "rode",
  "saved", "eaten", "wrecked", "sunk_boat", "sunk", "kept", "revealed", "creature_placed",
  "no_piece", "whirlpool", "boat_arrived", "boarded_all", "rolled", "dived", "creature_moved",
  "drifted", "repelled", "squid_removed", "whale_removed", "grabbed", "protected",
  "unprotected", "game_over", "result", "value_told", "immediate_point", "spun",
];

// Each kind once: both games end with "game_over", and a dive is "dived" in both (a listener
// registered twice would list every such event twice).
// "bot": a bot seat's decision, as data the page words (bots.js).
const FOLLOWED = [...new Set([...HAPPENINGS, ...FLOTILLA_EVENTS, "bot"])];

// The table pings an idle stream every [web] ping seconds; hearing nothing for 2.5 of them,
// the page stops saying "live" and opens the stream anew (the watchdog).
const PING_MS = 1000 * Number(document.body?.dataset.ping || 15);
// A request's patience ([web] wait): a slow answer from a loaded table is not "offline".
const WAIT_MS = 1000 * Number(document.body?.dataset.wait || 12);

// A snapshot with what changed since another applied: a new object; what did not change is
// the older one's own (read it, never change it). `in`: a dict changed key by key.
export function patched(before, { set = {}, drop = [], in: inside = {} }) {
  const after = { ...before, ...set };
  for (const key of drop) delete after[key];
  for (const [key, change] of Object.entries(inside)) after[key] = patched(before[key], change);
  return after;
}

// onConnection gets true (live), false (offline: the table cannot be reached), "busy" (the
// table answered, but serves as many streams as it can: it will try again), "connecting" (the
// table is there, the stream on its way back) or "silent" (the stream says nothing: the table
// does not answer).
export function follow(game, { onSnapshot, onEvent, onStatus, onConnection, onSeat }) {
  let source = null;
  let stopped = false;
  let wait = 1000;
  let busy = false;
  let watchdog = null;

  function heard() {
    clearTimeout(watchdog);
    if (stopped) return;
    watchdog = setTimeout(() => {
      onConnection("silent");
      source?.close();
      open();
    }, PING_MS * 2.5);
  }

  // After an error: is the table there at all? A reload storm or a full table is not offline.
  async function probe() {
    try {
      const answer = await fetch("/api/health", { signal: AbortSignal.timeout(WAIT_MS) });
      if (!stopped && source?.readyState !== EventSource.OPEN) onConnection(busy ? "busy" : answer.ok ? "connecting" : false);
    } catch {
      if (!stopped && source?.readyState !== EventSource.OPEN) onConnection(false);
    }
  }

  function open() {
    if (stopped) return;
    // No game: whichever game is current, following the table from one game to the next.
    source = new EventSource(game === null ? "/api/stream" : `/api/games/${game}/stream`);
    heard();
    source.onopen = () => {
      wait = 1000;
      busy = false;
      heard();
      onConnection(true);
    };
    source.addEventListener("ping", heard);
    source.addEventListener("message", heard);
    source.onerror = () => {
      if (busy) onConnection("busy");
      else probe();
      // The browser retries by itself unless the answer was an error; then we do, slower.
      if (source.readyState === EventSource.CLOSED) {
        setTimeout(open, wait);
        wait = Math.min(wait * 2, 15000);
      }
    };
    // The last whole snapshot, as a change after it comes as what changed (`delta`).
    let whole = null;
    for (const name of SNAPSHOTS) {
      source.addEventListener(name, (e) => {
        heard();
        let snapshot = JSON.parse(e.data);
        if ("delta" in snapshot) {
          if (whole?.id !== String(snapshot.delta)) {
            // Not the snapshot it changes (never sent so): start again from a whole one.
            source.close();
            open();
            return;
          }
          snapshot = patched(whole.snapshot, snapshot);
        }
        whole = { id: e.lastEventId, snapshot };
        onSnapshot(snapshot, name);
      });
    }
    source.addEventListener("status", (e) => {
      heard();
      onStatus(JSON.parse(e.data));
    });
    // The table serves as many streams as it can: this one ends, the browser retries later.
    source.addEventListener("busy", () => {
      busy = true;
      onConnection("busy");
    });
    // A seat changed hands (taken, left, handed over, asked for): the page rereads its session.
    source.addEventListener("seat", (e) => onSeat?.(JSON.parse(e.data)));
    for (const kind of FOLLOWED) {
      source.addEventListener(kind, (e) => onEvent(kind, JSON.parse(e.data)));
    }
  }

  open();
  return {
    close() {
      stopped = true;
      clearTimeout(watchdog);
      source?.close();
    },
  };
}
