// Talking to the table: JSON in and out, the CSRF token on every POST, and every failure turned
// into one sentence a player can read (the server's own, or ours when the network is gone).

import { t } from "./i18n.js";

let token = document.querySelector('meta[name="csrf-token"]')?.content || "";
const page = Math.random().toString(36).slice(2, 8);
let sent = 0;
// How long a request waits for the table ([web] wait), and how far the table's clock is from
// this phone's (read off each answer's Date header): a tap says when it stops being wanted.
export const WAIT_MS = 1000 * Number(document.body?.dataset.wait || 12);
let skew = null;

export class Refusal extends Error {
  // status: the HTTP status (0 when no answer came); rule: a spec id when a rule refused.
  constructor(status, sentence, rule = null, body = {}) {
    super(sentence);
    this.status = status;
    this.sentence = sentence;
    this.rule = rule;
    this.body = body;
  }
}

export function setToken(value) {
  if (value) token = value;
}

async function call(method, path, body, retried = false) {
  let response;
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), WAIT_MS);
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json", "X-CSRF-Token": token },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
      signal: stop.signal,
    });
  } catch {
    // No answer in time is not "no network": the table may be there, frozen or swamped.
    if (stop.signal.aborted) throw new Refusal(0, t("error.timeout"), null, { timeout: true });
    throw new Refusal(0, t("error.network"));
  } finally {
    clearTimeout(timer);
  }
  const date = Date.parse(response.headers.get("Date") || "");
  if (!Number.isNaN(date)) skew = date - Date.now();
  let data = {};
  try {
    data = await response.json();
  } catch {
    data = {};
  }
  if (response.ok) return data;
  // A stale token (the server restarted, the phone slept): fetch a fresh one and try once more.
  if (response.status === 403 && method === "POST" && !retried) {
    const before = token;
    try {
      const session = await call("GET", "/api/session");
      setToken(session.csrf);
    } catch {
      /* the first refusal below says enough */
    }
    if (token !== before) return call(method, path, body, true);
  }
  const sentence = data.message || data.error || t("error.status", { status: response.status });
  throw new Refusal(response.status, sentence, data.rule || null, data);
}

export const get = (path) => call("GET", path);
export const post = (path, body = {}) => call("POST", path, body);

// One command for the table; the seat comes from this phone's cookie, never from the page.
// `at`: the snapshot's version the tap was made on. The table refuses a command made on
// another board, or arriving after this phone stopped waiting (`expires`), as stale.
export function command(game, what, at = null) {
  sent += 1;
  const timely = {};
  if (at !== null && at !== undefined) timely.at = at;
  // A second early: the Date header counts whole seconds.
  if (skew !== null) timely.expires = (Date.now() + skew + WAIT_MS - 1000) / 1000;
  return post(`/api/games/${game}/commands`, { request_id: `page-${page}-${sent}`, ...what, ...timely });
}
