// What the table says, worded by the page in its own language: a refusal, a status, an undo
// or a correction reach the page as data (a key and its parameters, a rule id, an action as a
// JSON list) and never as the server's English sentence.

import { t, has, language } from "./i18n.js";
import { nameOf, personName, creatureLabel, boatLabel, hexLabel } from "./players.js";

// A parameter is worded by its name: a seat is a player's name, a person its owner's person,
// a boat "Boat 8", a hex its name, a face or a back in words.
function param(name, value, snapshot) {
  if (value === null || value === undefined) return "";
  if (name === "seat" || name === "by_seat" || name === "turn") return nameOf(snapshot, value);
  if (name === "seats") return value.map((s) => nameOf(snapshot, s)).join(", ");
  if (name === "person") return personName(snapshot, value);
  if (name === "boat") return boatLabel(value);
  if (name === "creature") return creatureLabel(value);
  // A piece goes from or to a boat too ("b3": Boat 3), as in the log's lines.
  if (name === "hex" || name === "to" || name === "from") return /^b\d+$/.test(value) ? boatLabel(value) : hexLabel(value);
  if (name === "hexes") return value.map(hexLabel).join(", ");
  if (name === "face") return has(`face.${value}`) ? t(`face.${value}`) : String(value);
  if (name === "back") return has(`back.${value}`) ? t(`back.${value}`) : String(value);
  if (name === "verb") return has(`verb.${value}`) ? t(`verb.${value}`) : t("verb.other");
  if (name === "kind") return has(`creature.${value}`) ? t(`creature.${value}`) : String(value);
  return String(value);
}

export function worded(key, params, snapshot) {
  const p = {};
  for (const [name, value] of Object.entries(params || {})) p[name] = param(name, value, snapshot);
  return t(key, p);
}

// Whatever went wrong (api.js's Refusal, or an error of the page itself) as data: the rule id,
// the key and parameters the table sent, the HTTP status (0: no answer), the server's sentence.
// `context` says what was asked when the status alone would mislead ("pin": a 403 is a wrong PIN).
export function refusalFrom(e, context = null) {
  const body = e?.body || {};
  const status = typeof e?.status === "number" ? e.status : -1;
  let key = body.key || null;
  if (!key && context === "pin" && status === 403) key = "pin.wrong";
  if (!key && context === "pin" && status === 429) key = "pin.wait";
  return { rule: e?.rule || body.rule || null, key, params: body.params || {}, status, sentence: e?.sentence || "" };
}

// The sentence alone, for a line with no rule beside it.
export function sentenceOf(e, context = null, snapshot = null) {
  const r = refusalText(refusalFrom(e, context), snapshot);
  return r.sentence || r.rule || t("refusal.other");
}

// A refusal (as `refusalFrom` gives it) in two parts: the rule's own
// line ("B-12: people walk…") and what went wrong, in this page's language. The server's
// sentence is the English page's last resort only.
export function refusalText(r, snapshot) {
  if (r.said) return { rule: null, sentence: r.said }; // worded by the page already
  const rule = r.rule ? `${r.rule}: ${t(`rule.${r.rule}`)}` : null;
  let sentence;
  if (r.key && has(`refusal.${r.key}`)) sentence = worded(`refusal.${r.key}`, r.params, snapshot);
  else if (r.status === 0) sentence = t("error.network");
  else if (r.status && r.status !== 409 && has(`error.${r.status}`)) sentence = t(`error.${r.status}`);
  // With no words of its own, the English page keeps the table's sentence (its detail); any
  // other page lets the rule say why, or says that the table did not accept it.
  else if (language() === "en" && r.sentence && r.status > 0) sentence = r.sentence;
  else if (rule) sentence = null;
  else sentence = t("refusal.other");
  return { rule, sentence };
}

// -- the status bar -----------------------------------------------------------------------------

// The panel's and the camera's statuses come as the table's short English reports ("serial:
// connected on /dev/ttyACM0, firmware 1.2", "watching (usb:0): no calibration…"): the page
// reads their state and words that; the detail stays on the table's own screen.
const PANEL_STATES = ["ready", "simulated", "connected", "connecting", "disconnected", "busy", "silent", "incompatible", "stopped", "error"];

export function panelState(text) {
  const s = String(text ?? "none");
  if (s === "none" || s === "") return "none";
  if (/^[a-z]+: error\b/.test(s) || /^error\b/.test(s)) return "error";
  if (/^simulated\b/.test(s)) return "simulated";
  const state = s.replace(/^[a-z]+:\s*/, "").match(/^[a-z]+/)?.[0];
  return PANEL_STATES.includes(state) ? state : "other";
}

export function cameraState(text) {
  const s = String(text ?? "none");
  if (s === "none" || s === "") return "none";
  if (/^watching\b.*no calibration/.test(s)) return "no_calibration";
  if (/^watching\b.*not in view/.test(s)) return "not_in_view";
  if (/^watching\b/.test(s)) return "watching";
  for (const state of ["unavailable", "error", "finished", "starting", "stopped"]) if (s.startsWith(state)) return state;
  return "other";
}

export function storageState(text) {
  const s = String(text ?? "ok");
  const low = s.match(/^low: (\d+)/);
  if (low) return { state: "low", n: Number(low[1]) };
  if (s === "full" || s === "ok") return { state: s };
  return { state: "error" };
}

// ["panel", "serial: connected on …"] -> {state, text}: the state for the colour, the words.
export function statusText(part, value) {
  if (part === "panel") {
    const state = panelState(value);
    return { state, text: t(`status.panel.${state}`) };
  }
  if (part === "camera") {
    const state = cameraState(value);
    return { state, text: t(`status.camera.${state}`) };
  }
  const { state, n } = storageState(value);
  return { state, text: t(`status.storage.${state}`, { n }) };
}

export const BAD_STATES = new Set(["error", "disconnected", "busy", "silent", "incompatible", "unavailable", "not_in_view", "no_calibration", "low", "full"]);
