"""The simulated panel's on-screen buttons: ``/panel``, three big buttons, for `companion demo`.

``GET /panel`` — the page. ``POST /panel/press`` with ``{"button": "roll"|"next"|"undo",
"gesture": "press"|"hold"}`` (gesture optional, default press) — the press is carried out as a
panel button's would be, and the answer says what came of it::

    200 {"button", "gesture", "step", "intent", "accepted", "message", "times"}
    422 {"error": "..."}   an unknown button or gesture

A refused press is still a 200: the panel's answer to it (an error beep) is part of the game,
not an error of the request. A press changes the game, so it is guarded like every POST
(`access`): the table itself (``companion demo`` on 127.0.0.1) presses freely; a phone needs
the PIN and the CSRF token, which the page reads from ``GET /api/session``. The daemon registers this blueprint only when ``[panel] kind`` is
``sim``, handing in the simulated panel's press function; the web app itself knows nothing of
panels.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from flask import Blueprint, Flask, current_app

from . import access, payload
from .payload import unprocessable
from .session import language

Press = Callable[[str, str], dict[str, Any]]
"""(button, gesture) -> what came of it; ValueError for an unknown button or gesture."""

bp = Blueprint("panel", __name__, url_prefix="/panel")


def register(app: Flask, press: Press) -> None:
    """Serve the on-screen panel on `app`, pressing with `press`."""
    app.extensions["companion.panel_press"] = press
    app.register_blueprint(bp)


@bp.get("")
def page() -> tuple[str, int, dict[str, str]]:
    # The page's words come from the phone page's catalogues (web/i18n), in the table's
    # language unless this browser chose another (`session.language`).
    html = PAGE.replace("{{lang}}", language())
    return html, 200, {"Content-Type": "text/html; charset=utf-8"}


@bp.post("/press")
@access.guarded()
def press() -> dict[str, Any]:
    data = payload.body()
    payload.only(data, ("button", "gesture"), "A press")
    button = data.get("button")
    gesture = data.get("gesture", "press")
    if not isinstance(button, str) or not isinstance(gesture, str):
        unprocessable('A press is {"button": "roll", "gesture": "press"}: both are text.')
    do = cast(Press, current_app.extensions["companion.panel_press"])
    try:
        return do(button, gesture)
    except ValueError as e:
        unprocessable(f"{e}.")


PAGE = """<!doctype html>
<html lang="{{lang}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Panel - Atlantis companion</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 0; padding: 1rem; background: #0b3954;
         color: #fff; text-align: center; }
  h1 { font-size: 1.3rem; font-weight: 600; }
  .buttons { display: flex; gap: 1.5rem; justify-content: center; flex-wrap: wrap;
             margin: 2rem 0; }
  button { width: 9rem; height: 9rem; border-radius: 50%; border: 0.4rem solid #fff;
           font-size: 1.4rem; font-weight: 700; color: #fff; cursor: pointer;
           touch-action: manipulation; user-select: none; -webkit-user-select: none; }
  button:active { transform: scale(0.95); }
  #roll { background: #c81d25; } #next { background: #087e8b; } #undo { background: #6c757d; }
  #said { min-height: 3rem; font-size: 1.1rem; }
  .refused { color: #ffb3b3; }
  p.help { opacity: 0.8; }
</style>
</head>
<body data-lang="{{lang}}">
<h1 data-say="panel.title"></h1>
<div class="buttons">
  <button id="roll" data-button="roll" data-say="panel.roll"></button>
  <button id="next" data-button="next" data-say="panel.next"></button>
  <button id="undo" data-button="undo" data-say="panel.undo"></button>
</div>
<div id="said" aria-live="polite"></div>
<p class="help" data-say="panel.help"></p>
<script type="module">
import { t, load, choose } from "/static/js/i18n.js";

await load(choose(document.body.dataset.lang));
for (const el of document.querySelectorAll("[data-say]")) el.textContent = t(el.dataset.say);
document.title = t("panel.title");
const HOLD_MS = 1000;
const said = document.getElementById("said");
let audio = null;

function beep(times) {  // the error beep of the real panel
  audio = audio || new AudioContext();
  for (let i = 0; i < times; i++) {
    const osc = audio.createOscillator();
    osc.frequency.value = 880;
    osc.connect(audio.destination);
    const at = audio.currentTime + i * 0.14;
    osc.start(at);
    osc.stop(at + 0.07);
  }
}

let csrf = null;

async function token() {  // the session's CSRF token, sent with every press
  if (csrf === null) {
    const r = await fetch("/api/session", {headers: {"Accept": "application/json"}});
    csrf = (await r.json()).csrf;
  }
  return csrf;
}

async function press(button, gesture) {
  said.textContent = "...";
  said.className = "";
  try {
    const r = await fetch("/panel/press", {
      method: "POST",
      headers: {"Content-Type": "application/json", "X-CSRF-Token": await token()},
      body: JSON.stringify({button, gesture}),
    });
    if (r.status === 403) csrf = null;  // a stale token: read it again next time
    const out = await r.json();
    if (!r.ok) throw new Error(out.error || r.statusText);
    // Said in the page's words: the button, and whether the table took it (the table's
    // own sentence is English, for its log).
    const name = gesture === "hold" ? t("panel.held", { button: t(`panel.${button}`) }) : t(`panel.${button}`);
    const key = !out.intent ? "panel.nothing" : out.accepted ? "panel.done" : "panel.refused";
    said.textContent = t(key, { button: name });
    said.dataset.intent = out.intent || "";
    if (!out.accepted) { said.className = "refused"; beep(3); }
  } catch (e) {
    said.textContent = t("panel.unreachable");
    said.className = "refused";
  }
}

for (const el of document.querySelectorAll("button[data-button]")) {
  let timer = null, held = false;
  const down = (ev) => {
    ev.preventDefault();
    held = false;
    timer = setTimeout(() => { held = true; press(el.dataset.button, "hold"); }, HOLD_MS);
  };
  const up = (ev) => {
    ev.preventDefault();
    if (timer === null) return;
    clearTimeout(timer);
    timer = null;
    if (!held) press(el.dataset.button, "press");
  };
  el.addEventListener("pointerdown", down);
  el.addEventListener("pointerup", up);
  el.addEventListener("pointerleave", () => { if (timer !== null) { clearTimeout(timer); timer = null; } });
  el.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); press(el.dataset.button, "press"); } });
}
</script>
</body>
</html>
"""
