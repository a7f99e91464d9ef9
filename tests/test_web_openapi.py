"""The API's description (companion.web.openapi) covers every /api route, and the app, fuzzed
from it by schemathesis as an authorised phone on the Wi-Fi, never answers with a 5xx."""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

import schemathesis
from flask import Flask
from hypothesis import HealthCheck, Phase, given, settings

from companion.table import Table
from companion.web import create_app
from companion.web.openapi import DOCUMENT
from tests.playing import PLAYERS, play_setup
from tests.web_support import phone, table_config

EXAMPLES = 100
"""Examples per operation (16 operations): the run takes some 10 to 30 s."""
LAN = "192.168.1.77"


def api_routes(app: Flask) -> set[tuple[str, str]]:
    """(path in OpenAPI form, method) of every /api route the app serves."""
    routes = set()
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api"):
            continue
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
        for method in rule.methods or ():
            if method not in ("HEAD", "OPTIONS"):
                routes.add((path, method))
    return routes


def test_every_api_route_is_described_and_nothing_else(table: Table) -> None:
    app = create_app(table, table_config())
    described = {
        (path, method.upper())
        for path, operations in DOCUMENT["paths"].items()
        for method in operations
    }
    assert api_routes(app) == described
    served = app.test_client().get("/api/openapi.json").json
    assert served == DOCUMENT and served["openapi"].startswith("3.0")


def on_the_wifi(app: Flask, address: str) -> Callable[..., Iterable[bytes]]:
    """`app` as reached from a phone at `address`: not the table itself, so every rule holds."""

    def wsgi(environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        environ["REMOTE_ADDR"] = address
        return app(environ, start_response)

    return wsgi


def test_fuzzing_the_api_as_an_authorised_phone_finds_no_server_error(table: Table) -> None:
    # A stream that ends after its snapshot, so that a fuzzed GET of one returns.
    app = create_app(table, table_config(), {"STREAM_SECONDS": 0})
    seated = phone(app)
    game = seated.post("/api/games", json={"players": PLAYERS, "seed": 1}).json["game"]  # type: ignore[index]
    play_setup(table, game)
    assert seated.post("/api/session/seat", json={"game": game, "seat": 1}).status_code == 200
    cookie = seated.get_cookie("companion_session")
    assert cookie is not None
    auth = {
        "headers": {"X-CSRF-Token": seated.environ_base["HTTP_X_CSRF_TOKEN"]},
        "cookies": {"companion_session": cookie.value},
    }
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", on_the_wifi(app, LAN))
    statuses: Counter[int] = Counter()
    per_operation: dict[str, Counter[int]] = {}
    errors: list[str] = []
    started = time.monotonic()
    sent = 0
    for result in schema.get_all_operations():
        operation = result.ok()

        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            derandomize=True,
            database=None,
            phases=[Phase.explicit, Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        @given(case=operation.as_strategy())
        def send(case: Any) -> None:
            nonlocal sent
            sent += 1
            if case.path_parameters and "game_id" in case.path_parameters and sent % 2:
                case.path_parameters["game_id"] = game  # half the cases at the game in play
            response = case.call(**auth)
            statuses[response.status_code] += 1
            name = f"{case.method.upper()} {case.operation.path}"
            per_operation.setdefault(name, Counter())[response.status_code] += 1
            if response.status_code >= 500:
                errors.append(
                    f"{case.method} {case.formatted_path} {case.body!r}: {response.text[:200]}"
                )

        send()
    total = sum(statuses.values())
    share = {
        f"{n}xx": sum(v for k, v in statuses.items() if k // 100 == n) / total for n in (2, 3, 4, 5)
    }
    print(
        f"\nschemathesis: {total} requests to {len(per_operation)} operations in "
        f"{time.monotonic() - started:.1f} s; "
        + ", ".join(f"{k} {v:.0%}" for k, v in share.items())
        + f"; by status {dict(sorted(statuses.items()))}"
    )
    for name, tally in sorted(per_operation.items()):
        print(f"  {name}: {dict(sorted(tally.items()))}")
    assert errors == []
    assert total >= 10 * len(per_operation)
    assert share["2xx"] > 0.1 and share["4xx"] > 0.1  # both the happy and the refusing paths
    assert table.read(lambda: table.alive) and table.snapshot(game, "referee")["game"] == game
