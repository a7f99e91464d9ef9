"""The simulated panel of `companion demo`: keys on a terminal and buttons on the /panel page give
the same presses, through the same table of meanings, as the GPIO buttons."""

from __future__ import annotations

import io
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import config, daemon
from companion.commands import SPECTATOR, Command
from companion.panel.buttons import HOLD, PRESS, Press
from companion.panel.sim import Keys, SimPanel
from companion.table import Table
from companion.web import create_app
from companion.web import panel as on_screen
from tests.daemon_support import free_port
from tests.playing import first, mirror, new_game, play_until


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def wait_for(condition: Callable[[], Any], timeout: float = 5.0) -> Any:
    deadline = time.monotonic() + timeout
    while not (result := condition()):
        if time.monotonic() > deadline:
            raise AssertionError(f"not true within {timeout} s")
        time.sleep(0.01)
    return result


def last_row(table: Table, game: int) -> tuple[list[Any], str, str]:
    row = table.read(lambda: table._store.log(game, everything=True))[-1]
    return row.action, row.source, row.status


# -- keys ---------------------------------------------------------------------------------


def test_a_key_is_a_press_once_the_terminal_stops_repeating_it() -> None:
    keys = Keys(hold_time=1.0, gap=0.7)
    assert keys.key("r", 0.0) == []
    assert keys.tick(0.5) == []  # it might still be held
    assert keys.tick(0.71) == [Press("roll", PRESS)]
    assert keys.tick(5.0) == []


def test_a_key_held_until_it_repeats_for_the_hold_time_is_one_hold() -> None:
    keys = Keys(hold_time=1.0, gap=0.7)
    presses = keys.key("u", 0.0)
    t = 0.5  # the terminal's repeat delay, then a repeat every 35 ms
    while t < 2.0:
        presses += keys.key("u", t)
        t += 0.035
    presses += keys.tick(t + 1.0)
    assert presses == [Press("undo", HOLD)]


def test_a_capital_is_a_hold_at_once_and_another_key_ends_the_last() -> None:
    keys = Keys()
    assert keys.key("U", 0.0) == [Press("undo", HOLD)]
    assert keys.key("n", 1.0) == []
    assert keys.key("r", 1.1) == [Press("next", PRESS)]  # a new key: the last one was let go
    assert keys.key("x", 1.2) == [Press("roll", PRESS)]  # any other key too, and means nothing
    assert keys.tick(9.0) == []


def test_keys_on_a_terminal_reach_the_table(table: Table) -> None:
    game = new_game(table, seed=3)
    play_until(table, game, "roll")
    clock = Clock()
    read, write = os.pipe()  # stands in for the terminal (a pipe is no tty: no cbreak to set)
    out = io.StringIO()
    panel = SimPanel(table, keyboard=read, out=out, clock=clock)
    panel.start()
    try:
        os.write(write, b"r")
        time.sleep(0.1)
        assert last_row(table, game)[0][0] != "roll"  # not yet: the key may still be held
        clock.t += 1.0
        wait_for(lambda: last_row(table, game)[0][0] == "roll")
        assert last_row(table, game)[1] == "sim"
        wait_for(lambda: "ROLL -> roll: done" in out.getvalue())
    finally:
        os.close(write)
        panel.stop()
        os.close(read)
    wait_for(lambda: table.status["panel"] == "sim: stopped")  # told on the Table's thread


def test_a_capital_u_takes_the_turn_back(table: Table) -> None:
    game = new_game(table, seed=3)
    state = play_until(table, game, "move")
    for _ in range(2):
        action = list(first(mirror(table, game), "move"))
        assert table.call(Command("cli", seat=state.actor, game=game, action=action)).accepted
    panel = SimPanel(table)
    outcome = panel.press(Press("undo", HOLD))
    assert outcome.accepted and outcome.times == 2
    assert last_row(table, game)[2] == "undone"


# -- the on-screen buttons ------------------------------------------------------------------


@pytest.fixture
def app(table: Table) -> Flask:
    app = create_app(table, test_config={"TESTING": True})
    on_screen.register(app, SimPanel(table).press_from_screen)
    return app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def test_the_panel_page_has_three_big_buttons(client: FlaskClient) -> None:
    page = client.get("/panel")
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    for name in ("roll", "next", "undo"):
        assert f'data-button="{name}"' in html
    assert '"/panel/press"' in html


def test_the_panel_page_speaks_the_phones_language(client: FlaskClient) -> None:
    """Its words come from the page's catalogues (data-say keys worded by i18n.js), in the
    language the phone chose, else the table's: no English sentence in the page itself."""
    client.set_cookie("lang", "es")
    html = client.get("/panel").get_data(as_text=True)
    assert '<html lang="es">' in html and 'data-lang="es"' in html
    assert 'data-say="panel.roll"' in html and 'from "/static/js/i18n.js"' in html
    body = html[html.index("<body") : html.index("<script")]
    assert "ROLL" not in body and "simulated" not in body  # worded on the phone, not here


def test_an_on_screen_press_is_carried_out_like_a_button(client: FlaskClient, table: Table) -> None:
    game = new_game(table, seed=3)
    play_until(table, game, "roll")
    r = client.post("/panel/press", json={"button": "roll"})
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    assert body["accepted"] and body["intent"] == "roll" and body["gesture"] == "press"
    action, source, _ = last_row(table, game)
    assert action[0] == "roll" and source == "sim"


def test_an_on_screen_press_meaning_nothing_is_answered_not_failed(
    client: FlaskClient, table: Table
) -> None:
    game = new_game(table, seed=3)
    play_until(table, game, "sink")
    r = client.post("/panel/press", json={"button": "next", "gesture": "hold"})
    assert r.status_code == 200
    body = r.get_json()
    assert not body["accepted"] and body["intent"] is None and body["step"] == "sink"


@pytest.mark.parametrize(
    "sent",
    [
        {"button": "dice"},
        {"button": "roll", "gesture": "double"},
        {"gesture": "press"},
        {"button": 1},
    ],
)
def test_a_press_of_no_known_button_is_a_422(client: FlaskClient, sent: dict[str, Any]) -> None:
    r = client.post("/panel/press", json=sent)
    assert r.status_code == 422
    assert r.get_json()["error"].endswith(".")


def test_without_a_simulated_panel_there_is_no_panel_page(table: Table) -> None:
    client = create_app(table, test_config={"TESTING": True}).test_client()
    assert client.get("/panel").status_code == 404


# -- in the daemon ------------------------------------------------------------------------


def test_the_daemon_serves_the_panel_page_when_the_panel_is_sim(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    apps: list[Flask] = []
    real = daemon.web_app

    def capture(table: Table, cfg: config.Config) -> Any:
        apps.append(real(table, cfg))
        return apps[-1]

    monkeypatch.setattr(daemon, "web_app", capture)
    port = free_port()
    cfg = config.parse({"web": {"port": port}, "panel": {"kind": "sim"}})
    out = io.StringIO()
    d = daemon.Daemon(cfg, "127.0.0.1", tmp_path / "games.db", tmp_path, demo_seed=3, out=out)
    d.start()
    try:
        assert d.table is not None
        assert apps[0].test_client().get("/panel").status_code == 200
        r = apps[0].test_client().post("/panel/press", json={"button": "next"})
        assert r.status_code == 200 and r.get_json()["step"] == "place"  # nothing to skip
        assert wait_for(lambda: d.table is not None and "simulated" in d.table.status["panel"])
        assert d.table.snapshot(None, SPECTATOR)["status"]["panel"].startswith("simulated")
    finally:
        d.stop()
    printed = out.getvalue()
    assert "panel:     simulated" in printed
    assert f"panel page: http://127.0.0.1:{port}/panel" in printed


def test_the_daemon_goes_on_without_a_panel_that_cannot_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cfg = config.parse(
        {"web": {"port": free_port()}, "panel": {"kind": "gpio", "pinout": str(tmp_path / "no")}}
    )
    out, err = io.StringIO(), io.StringIO()
    d = daemon.Daemon(cfg, "127.0.0.1", tmp_path / "games.db", tmp_path, out=out, err=err)
    d.start()
    try:
        assert d.panel is None and d.table is not None
        wait_for(lambda: d.table is not None and d.table.status["panel"].startswith("gpio: error"))
    finally:
        d.stop()
    assert "gpio panel not started: no pinout file" in err.getvalue()
    assert "panel:     gpio panel not started" in out.getvalue()
