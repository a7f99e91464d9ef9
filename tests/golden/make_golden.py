"""Write the golden games: stored games whose replay must never change silently.

Run it only on purpose (a deliberate change to how games replay), then review the diff:

    .venv/bin/python -m tests.golden.make_golden [NAME ...]

Written again, a game may be a different game (the draws and the island deal change with the
engine): write only the games whose replay changed on purpose.

Each game is played through a real Table and Store, with random but seeded choices, and the
file keeps what the store holds (the game record and every stored action) and the referee's
view at the end.
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

from companion.commands import REFEREE, Command
from companion.engine import board
from companion.engine.data import RED
from companion.flotilla.box import BOX as FLOTILLA
from companion.flotilla.game import FlotillaGame
from companion.store import Store
from companion.table import Table

HERE = Path(__file__).parent
GAMES: dict[str, dict[str, Any]] = {
    # A digital 4-player game to the volcano: values chosen, tiles dealt by the companion.
    "survive-digital-4p": {
        "players": [{"name": n, "colour": c} for n, c in
                    [("Ana", "red"), ("Ben", "blue"), ("Cai", "green"), ("Dee", "yellow")]],
        "seed": 20261122, "mode": "digital", "layout": "random",
    },
    # A physical 3-player game: island, dice and backs told, values told at the end.
    "survive-physical-3p": {
        "players": [{"name": n, "colour": c} for n, c in
                    [("Eli", "red"), ("Fay", "blue"), ("Gus", "green")]],
        "seed": 7, "mode": "physical", "layout": "table",
        "options": {"creature_move": "mandatory", "swimmer_after_swim": "yes"},
    },
    # Every kit of the mini-expansion box at once: 6 players, Overpopulated!, dive dice, squid.
    "survive-kits-6p": {
        "players": [{"name": n} for n in ("Hal", "Ivy", "Jo", "Kit", "Lu", "Mo")],
        "seed": 61, "mode": "digital", "layout": "random",
        "modules": ["five-six", "overpopulated", "dive-dice", "squid"],
    },
    # 5 players with the squids replacing the whales (variant #1), the squid's entry as "may".
    "survive-squid-variant-5p": {
        "players": [{"name": n} for n in ("Nia", "Oz", "Pam", "Quin", "Ray")],
        "seed": 52, "mode": "digital", "layout": "random",
        "modules": ["five-six", "squid", "squid-variant-1"], "options": {"squid_entry": "may"},
    },
    # Two challenges: two people to a tile, and the game ends when the last person is gone.
    "survive-challenges-3p": {
        "players": [{"name": n} for n in ("Sam", "Tia", "Uma")],
        "seed": 33, "mode": "digital", "layout": "random",
        "modules": ["densely-populated", "leave-no-one-behind", "all-equal"],
    },
    # The 1986 box: the island in rings, the spinner, dolphins that carry swimmers.
    "escape-1986-3p": {
        "players": [{"name": n} for n in ("Val", "Wes", "Xan")],
        "seed": 1986, "mode": "digital", "layout": "random", "modules": ["escape-1986"],
    },
    # Flotilla with a small VP supply so that it ends: dives, research, trades, VP, the final
    # turns and the count, the dice rolled by the companion.
    "flotilla-3p": {
        "kind": "flotilla", "players": [{"name": n} for n in ("Yan", "Zoe", "Abe")],
        "seed": 3, "roll": "digital", "vp_per_player": 8,
    },
}  # fmt: skip


def to_safety(h: int) -> int:
    return min(board.distance(h, island) for island in board.SAFE_ISLANDS)


def choose(legal: list[Any], rng: random.Random) -> Any:
    """Mostly head for the safe islands, sometimes anything: saved people give the end of the
    game (values told, points, tie-breaks) something to work on."""
    heading = [a for a in legal if a[0] in ("move", "sail") and isinstance(a[2], int)]
    if heading and rng.random() < 0.8:
        return min(heading, key=lambda a: (to_safety(a[2]), rng.random()))
    return rng.choice(legal)


def flotilla_turn(game: FlotillaGame, rng: random.Random) -> list[Any]:
    """A Flotilla decision the way a player makes it: a listed choice (barrels, depletion, wild
    dice) when there is one, else one of the open-ended verbs with made-up but plausible
    arguments; refused ones are simply tried again by the caller."""
    if game.phase == "tally":
        return [
            "tally",
            {
                "currency": rng.randrange(12),
                "resources": rng.randrange(8),
                "toxicity": rng.randrange(6),
                "crew": rng.randrange(5),
                "penalty_vp": 0,
                "seals": {g: rng.randrange(4) for g in FLOTILLA.guilds},
            },
        ]
    if game.phase != "turn":
        return list(rng.choice(game.legal_actions()))
    verb = rng.choice(game.verbs())
    if verb == "dive":
        tiles = rng.sample(["A1", "A4", "B2", "B6", "C3"], rng.randint(1, 2))
        return [
            "dive",
            {
                "skiffs": [
                    {
                        "tile": t,
                        "depth": rng.randint(1, 3),
                        "resource": rng.choice(FLOTILLA.resources),
                        "barrels": rng.randrange(3),
                    }
                    for t in tiles
                ]
            },
        ]
    if verb == "research":
        return ["research", {"dice": rng.randint(1, FLOTILLA.research_dice)}]
    if verb == "trade":
        colour = rng.choice(FLOTILLA.resources)
        return ["trade", {"buy": {colour: rng.randint(1, 3)}}]
    if verb == "vp":
        return ["vp", rng.randint(1, 4)]
    return ["done"]


def play(name: str, args: dict[str, Any], folder: Path) -> dict[str, Any]:
    store = Store(folder / f"{name}.db")
    table = Table(store, clock=lambda: 1_795_000_000.0)
    rng = random.Random(name)
    reply = table.call(Command("cli", intent="new_game", args=args, request_id="new"))
    game_id = reply.game
    assert reply.accepted and game_id is not None, reply
    n = 0
    while True:
        loaded = table._loaded[game_id]
        game = loaded.game
        if game.over:
            break
        n += 1
        if isinstance(game, FlotillaGame) and not game.is_chance():
            action = flotilla_turn(game, rng)
            command = Command("phone", game.actor, game=game_id, action=action, request_id=str(n))
            table.call(command)  # a made-up action the rules refuse: the player thinks again
            continue
        if isinstance(game, FlotillaGame):  # the companion rolls (digital dice)
            command = Command("phone", None, game=game_id, action=game.draw(), request_id=str(n))
        elif game.is_chance():  # the table tells a fact: the engine's draw stands in for it
            action = list(game.draw())
            if (
                action[0] == "back"
                and action[1] in RED
                and "red" in {a[1] for a in game.legal_actions()}
            ):
                action = ["back", "red"] if rng.random() < 0.5 else action  # kept untold
            command = Command("phone", seat=None, game=game_id, action=action, request_id=str(n))
        else:
            action = list(choose(game.legal_actions(), rng))
            command = Command(
                "phone", seat=game.actor, game=game_id, action=action, request_id=str(n)
            )
        reply = table.call(command)
        assert reply.accepted, reply
    record = store.game(game_id)
    rows = store.log(game_id, everything=True)
    return {
        "about": "A stored game; tests/test_golden.py replays it. Regenerate only on purpose.",
        "record": {
            "kind": record.kind, "rules": record.rules, "players": record.players,
            "seed": record.seed, "mode": record.mode, "settings": record.settings,
        },
        "actions": [{"seq": r.seq, "action": r.action, "source": r.source, "seat": r.seat,
                     "status": r.status} for r in rows],
        "final": table.snapshot(game_id, REFEREE)["state"],
    }  # fmt: skip


def main(names: list[str]) -> None:
    """Write the games named (all of them if none is named)."""
    with tempfile.TemporaryDirectory() as tmp:
        for name, args in GAMES.items():
            if names and name not in names:
                continue
            data = play(name, args, Path(tmp))
            (HERE / f"{name}.json").write_text(
                json.dumps(data, indent=None, separators=(",", ":")) + "\n"
            )
            print(name, len(data["actions"]), "actions")


if __name__ == "__main__":
    main(sys.argv[1:])
