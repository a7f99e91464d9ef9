"""Nothing English on a Spanish or French phone, and no raw notation on any: the table's
refusals, its statuses and the game's events reach the page as data (a key, a rule id, seats,
pieces and hexes) and the page words them in its language (issue 17).

Real refusals of every family (a rule's, one with its own words, an unreadable move, the
HTTP errors, one with neither), every status of the panel, the camera and the disk, and one
real event of every kind the engine makes, worded by the page's own modules in Chromium, in es
and fr. The words tell English by the catalogues themselves (`tests.words_support`); whole
games played in es and fr are in tests/test_page_words_games.py."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from playwright.sync_api import Browser

from companion.camera import unavailable
from companion.engine import Game, Rules
from tests.page_support import TALL, Live, Phone, no_page_errors, same_seq, seated
from tests.words_support import check, english, raw, speak

pytest_plugins = ["tests.page_fixtures"]
pytestmark = pytest.mark.page

LANGS = ("es", "fr")
PLAYERS = [{"name": n, "colour": c} for n, c in [("Ana", "red"), ("Ben", "blue")]]


# -- refusals ----------------------------------------------------------------------------------

ASK = """async ([game, asks]) => {
  const session = await (await fetch('/api/session')).json();
  const out = [];
  for (const [path, body, csrf] of asks) {
    const headers = {'Content-Type': 'application/json'};
    if (csrf) headers['X-CSRF-Token'] = session.csrf;
    const r = await fetch(path.replace('GAME', game), {method: 'POST', headers, body: JSON.stringify(body)});
    let data = {};
    try { data = await r.json(); } catch { data = {}; }
    out.push({status: r.status, body: data});
  }
  return out;
}"""
SHOW = """async ([game, answers]) => {
  const { refusal } = await import('/static/js/turn.js');
  const { refusalFrom } = await import('/static/js/words.js');
  const snapshot = await (await fetch(`/api/games/${game}`)).json();
  let probe = document.getElementById('probe');
  if (!probe) { probe = document.createElement('div'); probe.id = 'probe'; document.body.append(probe); }
  probe.replaceChildren();
  return answers.map((a) => {
    const e = {status: a.status, body: a.body, rule: a.body.rule || null, sentence: a.body.message || a.body.error};
    const line = refusal({refusal: refusalFrom(e)}, snapshot);
    probe.append(line);
    return line.innerText;
  });
}"""


def cmd(**what: Any) -> list[Any]:
    return ["/api/games/GAME/commands", {"request_id": f"w-{json.dumps(what)}"[:90], **what}, True]


@pytest.mark.rule("B-5")
def test_every_refusal_family_and_status_is_worded_in_spanish_and_french(
    browser: Browser, live: Live
) -> None:
    """B-5 (placing on land only) stands for a refusal worded by its rule; the others by their
    own key; HTTP errors by their status; a refusal with neither by a sentence of the page."""
    game_id = live.new_game(players=PLAYERS, seed=3)
    (ana,) = seated(browser, live.url, "Ana", viewport=TALL)
    page = ana.page
    game = live.mirror(game_id)
    place = game.legal_actions()[0]
    # Ana's own decision first: a hex the rules forbid (the lagoon, 0-indexed hex of the sea).
    bad_place = [
        "place",
        next(
            i
            for i in range(200)
            if ["place", i, None] not in [list(a) for a in game.legal_actions()]
        ),
        None,
    ]
    first = page.evaluate(ASK, [game_id, [cmd(action=bad_place)]])
    live.play(game_id, place)  # now Ben's decision: Ana's phone acts out of turn
    same_seq([ana])
    second = page.evaluate(ASK, [game_id, [cmd(action=list(place))]])  # turn.not_yours
    game = live.play(game_id, live.mirror(game_id).legal_actions()[0])  # Ben's: Ana's again
    same_seq([ana])
    asks = [
        cmd(intent="undo"),  # undo.nothing: the last move is Ben's
        cmd(intent="next"),  # next.needs_choice
        cmd(intent="draw"),  # table.nothing_to_decide
        cmd(intent="correct", args={"seq": 999, "action": ["roll", "shark"]}),  # correct.gone
        cmd(intent="correct", args={"seq": 1, "action": ["roll", "shark"]}),  # a move: no key
        cmd(intent="reject_proposal", args={"id": 99}),  # camera.gone
        cmd(action="bogus"),  # 422: unreadable
        [*cmd(intent="next")[:2], False],  # 403: no CSRF token
        ["/api/games/999/commands", {"request_id": "w-404", "intent": "next"}, True],  # 404
    ]
    answers = first + second + page.evaluate(ASK, [game_id, asks])
    statuses = [a["status"] for a in answers]
    assert statuses[:8] == [409] * 8 and statuses[8:] == [422, 403, 404], statuses
    keys = [a["body"].get("key") for a in answers]
    assert keys[1] == "turn.not_yours" and answers[1]["body"]["params"] == {"seat": 1}
    assert answers[0]["body"]["rule"] and keys[0] is None  # worded by its rule alone
    assert {"next.needs_choice", "table.nothing_to_decide", "correct.gone", "camera.gone"} <= set(
        keys
    )
    for lang in LANGS:
        speak(ana, lang)
        lines = page.evaluate(SHOW, [game_id, answers])
        for line, answer in zip(lines, answers, strict=True):
            assert line.strip(), answer
            assert not english(line), (lang, line, answer)
            assert not raw(line), (lang, line, answer)
        assert "Ben" in lines[1]  # the seat by its player's name, never "seat 2"
        assert lines[0].startswith(answers[0]["body"]["rule"])
        check(page, f"refusals-{lang}")
    # The English page says the same from the same data.
    speak(ana, "en")
    assert page.evaluate(SHOW, [game_id, answers])[1].endswith("\n\nIt is Ben's decision now.")

    # A wrong PIN on a French phone that has not joined: said by the page, in French.
    other = Phone.open(browser, live.url, "Ben", viewport=TALL)
    speak(other, "fr")
    other.page.fill("[data-field=pin]", "000000")
    other.page.click("[data-go=pin]")
    other.page.wait_for_selector(".pin .refusal")
    assert other.page.inner_text(".pin .refusal").startswith("Ce n'est pas le code")
    check(other.page, "wrong-pin-fr")

    # Every status the panel, the camera and the disk report, as the bar words it.
    statuses_seen = {
        "panel": [
            "none", "simulated: buttons on the /panel page", "sim: stopped",
            "serial: connected on /dev/ttyACM0, firmware 1.2",
            "serial: disconnected (looking for /dev/ttyACM0)", "serial: connecting (/dev/ttyACM0)",
            "serial: busy (/dev/ttyACM0 is held by another program: mpremote, Thonny?)",
            "serial: silent on /dev/ttyACM0 (no heartbeat: is the firmware running?)",
            "serial: incompatible (the panel speaks protocol 1, this companion 2: update its firmware)",
            "gpio: ready; ROLL 17, NEXT 27, UNDO 22 (pins from pinout.toml)", "gpio: stopped",
            "gpio: error: no pinout file",
        ],
        "camera": [
            "none", "watching (usb:0)",
            "watching (usb:0): no calibration; lay a new island to make one",
            "watching (usb:0): the board is not in view (3 markers of 4 seen)",
            "error: the camera's process ended (exit 1)", "finished: every frame of x was seen",
            unavailable(ImportError("No module named 'cv2'", name="cv2")),
        ],
        "storage": ["low: 12 MB left", "full", "error: Permission denied"],
    }  # fmt: skip
    for lang in LANGS:
        speak(ana, lang)
        for part, values in statuses_seen.items():
            for value in values:
                live.table.set_status(part, value)
                page.wait_for_timeout(40)  # the status event reaches the bar
                bar = page.inner_text("#bar")
                assert not english(bar) and not raw(bar), (lang, part, value, bar)
        live.table.set_status("camera", "none")
        page.wait_for_timeout(100)
        camera = page.inner_text("[data-status=camera]")
        assert camera == {"es": "Cámara: ninguna", "fr": "Caméra\u00a0: aucune"}[lang], camera
    ana.close()
    other.close()
    no_page_errors(ana, other)


# -- events ------------------------------------------------------------------------------------

REMEMBER = """async ([game, events]) => {
  const { lineOf } = await import('/static/js/happenings.js');
  const snapshot = await (await fetch(`/api/games/${game}`)).json();
  const board = await (await fetch('/api/board')).json();
  return events.map(([kind, e]) => lineOf({ kind, e }, snapshot, board));
}"""
CONFIGS = [
    (("base",), 2, "digital"),
    (("five-six", "overpopulated", "dive-dice", "squid"), 5, "digital"),
    (("escape-1986",), 3, "digital"),
    (("base", "squid", "squid-variant-1"), 4, "digital"),
    (("base",), 2, "physical"),
]


def one_event_of_each_kind() -> dict[str, dict[str, Any]]:
    """A real event of every kind random games bring, as a watcher sees it."""
    found: dict[str, dict[str, Any]] = {}
    for seed in range(6):
        for modules, players, mode in CONFIGS:
            game = Game.new(Rules(modules), players, seed, mode)
            rng = random.Random(seed)
            while not game.over:
                action = game.draw() if game.is_chance() else rng.choice(game.legal_actions())
                for event in game.apply(action):
                    found.setdefault(event.kind, event.project(None))
    return found


def test_every_event_kind_is_worded_in_spanish_and_french(browser: Browser, live: Live) -> None:
    game_id = live.new_game(players=PLAYERS, seed=3)
    events = one_event_of_each_kind()
    # Kinds random games seldom bring, as the engine makes them (pieces.py, sinking.py,
    # creatures.py, scoring.py).
    events.setdefault("saved", {"kind": "saved", "person": "A3", "island": "NW"})
    events.setdefault("no_piece", {"kind": "no_piece", "piece": "boat", "hex": "5.2"})
    events.setdefault(
        "squid_removed", {"kind": "squid_removed", "squid": "squid2", "by": "squid1", "hex": "5.2"}
    )
    events.setdefault("value_told", {"kind": "value_told", "person": "B2", "value": 4})
    events.setdefault(
        "sunk_boat", {"kind": "sunk_boat", "boat": "b3", "hex": "5.2", "people": ["A1", "B2"]}
    )
    from tests.test_i18n import engine_event_kinds

    assert set(events) >= engine_event_kinds()
    (ana,) = seated(browser, live.url, "Ana", viewport=TALL)
    pairs = sorted(
        (k, {x: y for x, y in e.items() if x != "kind" or k in ("dived", "spun")})
        for k, e in events.items()
    )
    for lang in LANGS:
        speak(ana, lang)
        lines = ana.page.evaluate(REMEMBER, [game_id, pairs])
        for (kind, data), line in zip(pairs, lines, strict=True):
            if kind in ("laid", "result") or (
                kind == "moved" and data.get("to") in ("NW", "NE", "SW", "SE")
            ):
                continue  # quiet, or said by "saved"
            assert line, (lang, kind, data)
            assert not english(line) and not raw(line), (lang, kind, data, line)
    ana.close()
    no_page_errors(ana)
