// Talking to the table: JSON in and out, the CSRF token on every POST, and every failure turned
// into one sentence a player can read (the server's own, or ours when the network is gone).

import { t } from "./i18n.js";

let token = document.querySelector('meta[name="csrf-token"]')?.content || "";
const page = Math.random().toString(36).slice(2, 8);
let sent = 0;

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
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json", "X-CSRF-Token": token },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch {
    throw new Refusal(0, t("error.network"));
  }
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
export function command(game, what) {
  sent += 1;
  return post(`/api/games/${game}/commands`, { request_id: `page-${page}-${sent}`, ...what });
}
