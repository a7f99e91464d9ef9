"""Hidden information on the raw event streams (spec §9), tested by difference, over real HTTP.

Two tables play two games with the same public history but different hidden facts (as in
tests/test_hidden.py): in a physical game the red tiles kept by seats 1 and 2 are told with
other backs; in a digital game (own values visible) seat 1 places its values in another order.
Each table is served by waitress on 127.0.0.1, and every viewer's stream is read raw from the
socket while the game is played through the Table: the spectator's, each seat's (its seat from
its session cookie, as a phone's) and the referee's. Once the ``id:`` lines are removed, the
bytes must be identical for the spectator and every seat but the owners — and must differ for
the owners and the referee, which shows the comparison would catch a leak. The stored log as a
phone reads it (``GET /api/games/<id>/actions``) is held to the same rule.

It caught one leak in the Table: the ``outcomes`` offered to the seat whose turn it is came from
the referee's knowledge (which red backs other seats told privately); they now come from what
that seat may know (``sinking.possible_backs_seen_by``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.engine import Game, Rules
from companion.engine.state import Action
from companion.web import create_app
from tests.test_hidden import OWNERS, PLAYERS, other_backs, other_values, random_log
from tests.web_support import (
    Stream,
    close,
    phone,
    play,
    self_drawn,
    served,
    started_table,
    table_config,
    wait_for,
)

SEED = 8
VIEWS = ("spectator", "1", "2", "3", "4", "referee")


@dataclass(frozen=True)
class Scenario:
    mode: str
    layout: str
    rules: Rules
    owners: tuple[int, ...]
    """Seats (0-based) whose hidden facts differ between the two games."""


PHYSICAL = Scenario("physical", "table", Rules(), OWNERS)
DIGITAL = Scenario("digital", "random", Rules(options={"own_values_visible": "yes"}), (0,))


def in_play(actions: list[Action], scenario: Scenario) -> list[Action]:
    """The actions before the end is told (values become public at the end), cut before a
    player's action: the Table goes on drawing by itself after the last action it is sent."""
    game = Game.new(scenario.rules, PLAYERS, SEED, scenario.mode)
    cut = 0
    for n, action in enumerate(actions):
        if not self_drawn(game, scenario.mode, scenario.layout):
            cut = n
        game.apply(action)
        if game.phase in ("reveal", "over"):
            break
    return actions[:cut]


def two_games(scenario: Scenario) -> tuple[list[Action], list[Action]]:
    log = random_log(SEED, scenario.mode, scenario.rules)
    first = [a for a, _, _ in log]
    if scenario.mode == "physical":
        second = list(first)
        assert other_backs(log, second) >= 2
    else:  # seat 1's values in the reverse order; the other seats' as they were
        second = list(first)
        reversed_all = other_values(log)
        for i, (a, who, _) in enumerate(log):
            if a[0] == "place" and who == 0:
                second[i] = reversed_all[i]
    assert second != first
    return in_play(first, scenario), in_play(second, scenario)


@dataclass
class Played:
    streams: dict[str, bytes]
    logs: dict[str, list[dict[str, Any]]]
    """The stored log as each phone reads it (the table itself's for the referee)."""


def clean(body: bytes) -> bytes:
    """The stream without what may differ between two identical histories: ids and pings."""
    return re.sub(rb"^(id: \d+|: ping)\n", b"", body, flags=re.M)


def timeless(client: FlaskClient) -> list[dict[str, Any]]:
    """The stored log as `client` reads it, without the times."""
    rows: list[dict[str, Any]] = client.get("/api/games/1/actions").json["actions"]  # type: ignore[index]
    return [{k: v for k, v in row.items() if k != "at"} for row in rows]


@contextmanager
def table_served(folder: Path) -> Iterator[tuple[object, object, int]]:
    table = started_table(folder / "games.db")
    app = create_app(table, table_config(), test_config={"TESTING": True})
    try:
        with served(app, threads=16) as port:
            yield table, app, port
    finally:
        close(table)


def play_watched(folder: Path, actions: list[Action], scenario: Scenario) -> Played:
    """Play `actions` at a table served on 127.0.0.1 while every viewer's stream is read."""
    with table_served(folder) as (table, app, port), ExitStack() as stack:
        starter = phone(app)  # type: ignore[arg-type]
        r = starter.post(
            "/api/games",
            json={
                "players": [{"name": n} for n in ("Ana", "Bo", "Cy", "Di")],
                "seed": SEED,
                "mode": scenario.mode,
                "layout": scenario.layout,
                "options": dict(scenario.rules.options),
            },
        )
        assert r.status_code == 201, r.json
        game = r.json["game"]  # type: ignore[index]
        phones: dict[str, FlaskClient] = {"spectator": starter}
        streams = {}
        for view in VIEWS:
            headers, path = {}, f"/api/games/{game}/stream"
            if view == "referee":
                path += "?view=referee"  # the table itself: loopback
            elif view != "spectator":
                phones[view] = phone(app, game, int(view))  # type: ignore[arg-type]
                cookie = phones[view].get_cookie("companion_session")
                assert cookie is not None
                headers["Cookie"] = f"companion_session={cookie.value}"
            streams[view] = Stream(port, path, headers).start()
            stack.callback(streams[view].close)
        wait_for(lambda: all(s.events for s in streams.values()), what="every snapshot")
        end = play(
            table,  # type: ignore[arg-type]
            game,
            actions,
            scenario.rules,
            PLAYERS,
            SEED,
            scenario.mode,
            scenario.layout,
        )
        final = table.snapshot(game, "referee")  # type: ignore[attr-defined]
        assert final["state"] == end.referee_view()
        assert final["state"]["phase"] not in ("reveal", "over")
        last = final["seq"] - 1
        wait_for(
            lambda: all(last in s.arrived for s in streams.values()),
            20,
            "every stream read to the last event",
        )
        logs = {view: timeless(client) for view, client in phones.items()}
        logs["referee"] = timeless(app.test_client())  # type: ignore[attr-defined]
        return Played({v: clean(s.body()) for v, s in streams.items()}, logs)


OUTCOMES = re.compile(rb',"outcomes":\[\[[^\]]*\](,\[[^\]]*\])*\]')


@pytest.fixture(scope="module")
def watched(
    tmp_path_factory: pytest.TempPathFactory,
) -> Callable[[Scenario], tuple[Played, Played]]:
    """Both games of a scenario, played and watched once for the tests that compare them."""
    done: dict[str, tuple[Played, Played]] = {}

    def get(scenario: Scenario) -> tuple[Played, Played]:
        if scenario.mode not in done:
            first, second = two_games(scenario)
            folder = tmp_path_factory.mktemp(scenario.mode)
            done[scenario.mode] = (
                play_watched(folder / "one", first, scenario),
                play_watched(folder / "two", second, scenario),
            )
        return done[scenario.mode]

    return get


def compare(one: Played, two: Played, scenario: Scenario, clean: Callable[[bytes], bytes]) -> None:
    owners = {str(seat + 1) for seat in scenario.owners}
    for view in VIEWS:
        a, b = clean(one.streams[view]), clean(two.streams[view])
        assert len(a) > 100_000, (view, len(a))  # a whole game was read, not a stub
        if view in owners or view == "referee":
            assert a != b, f"the {view} stream should tell the games apart: the test is blind"
            assert one.logs[view] != two.logs[view], view
        else:
            assert a == b, f"the {view} stream tells the hidden facts apart"
            assert one.logs[view] == two.logs[view], f"the log as {view} reads it tells them apart"


@pytest.mark.parametrize(
    "scenario",
    [
        PHYSICAL,
        DIGITAL,
    ],
    ids=["physical-backs", "digital-values"],
)
def test_streams_of_everyone_but_the_owners_are_byte_identical(
    watched: Callable[[Scenario], tuple[Played, Played]], scenario: Scenario
) -> None:
    compare(*watched(scenario), scenario, lambda body: body)


def test_physical_streams_differ_in_nothing_but_the_outcomes_offered(
    watched: Callable[[Scenario], tuple[Played, Played]],
) -> None:
    """Even without the ``outcomes`` the red backs stay with their owners."""
    one, two = watched(PHYSICAL)
    assert OUTCOMES.search(one.streams["3"]) is not None  # there is something to remove
    compare(one, two, PHYSICAL, lambda body: OUTCOMES.sub(b"", body))
