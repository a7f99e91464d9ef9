"""Stored games read back: the list (`companion games`), the story turn by turn
(`companion replay`), the whole record as JSON (`companion export`) and the position at any
action (`companion position`).

A game's state is the replay of its actions in force; undone, corrected and superseded actions
are shown where they happened but not applied. Everything is shown as the referee sees it:
these commands are for the owner of the table, after (or outside) the game.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from . import seeds
from .engine import REFEREE, Game
from .engine.events import View
from .kinds import KINDS, AnyGame, game_of
from .store import GameRecord, Row

SEAT_LETTERS = "ABCDEF"
"""Seat 1 is A, as in the engine's person names (A3: seat 1's third person)."""


def when(at: float | None) -> str:
    return "" if at is None else time.strftime("%Y-%m-%d %H:%M", time.localtime(at))


def seat_name(record: GameRecord, seat: int) -> str:
    for p in record.players:
        if p.get("seat") == seat:
            return str(p.get("name") or f"seat {seat + 1}")
    return f"seat {seat + 1}"


def winner(record: GameRecord) -> str:
    if record.outcome is None:
        return "in play" if record.ended_at is None else ""
    seats = record.outcome.get("winners", [])
    names = ", ".join(seat_name(record, s) for s in seats)
    return f"{names} (shared)" if len(seats) > 1 else names


def games_table(records: list[GameRecord]) -> str:
    header = ("id", "kind", "players", "started", "ended", "winner")
    rows = [
        (
            str(r.id),
            r.kind,
            ", ".join(str(p.get("name")) for p in r.players),
            when(r.started_at),
            when(r.ended_at) or "-",
            winner(r),
        )
        for r in records
    ]
    widths = [max(len(x) for x in column) for column in zip(header, *rows, strict=True)]
    return "\n".join(
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
        for row in (header, *rows)
    )


def _join(x: Any) -> str:
    if isinstance(x, list):
        return ", ".join(str(i) for i in x) or "none"
    return str(x)


# The common events in words; any other kind is shown as its name and data.
SAYINGS = {
    "laid": "{terrain} laid at {hex}",
    "placed": "{person} placed at {hex}",
    "boat_placed": "boat {boat} placed at {hex}",
    "moved": "{person} moved {from} -> {to}",
    "boarded": "{person} boarded {boat}",
    "sailed": "{boat} sailed {from} -> {to}",
    "sunk": "{terrain} tile {hex} removed",
    "kept": "tile {hex} kept in hand: {back}",
    "revealed": "tile {hex} shows {back}",
    "played": "played {back}",
    "rolled": "the die shows {face}",
    "creature_placed": "{creature} appears at {hex}",
    "creature_moved": "{creature} moved {from} -> {to}",
    "eaten": "{people} eaten by the {by} at {hex}",
    "wrecked": "{boat} wrecked by the {by} at {hex}",
    "saved": "{person} saved on {island}",
    "value_told": "{person} was worth {value}",
    "game_over": "the volcano erupts: {lost} lost",
    "whirlpool": "whirlpool at {hex} takes people: {people}; boats: {boats}; creatures: {creatures}",
}


# Flotilla's events in words (its actions show the rest).
FLOTILLA_SAYINGS = {
    "dive_started": "{seat} dives",
    "dive_rolled": "the dice show {faces}",
    "dived": "{seat}: toxicity +{toxicity}, survivor +{survivor}, depleted {depleted}",
    "research_started": "{seat} researches with {dice} dice",
    "research_rolled": "the dice show {faces}",
    "vp_taken": "{seat} takes {vp} VP ({supply} left in the supply)",
    "end_triggered": "the VP supply is empty: the round ends, then one more turn each",
    "final_scoring": "final scoring: {seats} count up",
    "tallied": "{seat} has counted up",
    "game_over": "the game is over",
}


def say(event: dict[str, Any], sayings: dict[str, str] = SAYINGS) -> str:
    data = {k: _join(v) for k, v in event.items()}
    template = sayings.get(event["kind"])
    if template is not None:
        try:
            return template.format_map(data)
        except KeyError:
            pass  # the engine changed an event's data: fall back to the plain form
    rest = ", ".join(f"{k} {v}" for k, v in data.items() if k != "kind")
    return f"{event['kind'].replace('_', ' ')}: {rest}" if rest else event["kind"]


SILENT = ("turn", "result")
"""Events told otherwise: a turn as a heading, the result at the end."""


def _named(record: GameRecord, event: dict[str, Any]) -> dict[str, Any]:
    """The event with its seats as the players' names (events count seats from 0)."""
    out = dict(event)
    if isinstance(out.get("seat"), int):
        out["seat"] = seat_name(record, out["seat"])
    if isinstance(out.get("seats"), list):
        out["seats"] = [seat_name(record, s) if isinstance(s, int) else s for s in out["seats"]]
    return out


def _who(record: GameRecord, row: Row) -> str:
    if row.seat is None:
        return row.source
    return f"{seat_name(record, row.seat)}, {row.source}"


def replay_lines(record: GameRecord, rows: list[Row]) -> Iterator[str]:
    """The game as text, turn by turn. `rows` are every stored action (`log(everything=True)`)."""
    players = ", ".join(
        f"{SEAT_LETTERS[p['seat']]} {p.get('name')}"
        + (f" ({p['colour']})" if p.get("colour") else "")
        for p in record.players
    )
    yield f"Game {record.id} ({record.kind}, {record.mode}, seed {seeds.said(record)}): {players}"
    ended = f", ended {when(record.ended_at)}" if record.ended_at is not None else ", in play"
    yield f"Started {when(record.started_at)}{ended}"
    yield ""
    game = game_of(record)
    notation = KINDS[record.kind].notation
    sayings = FLOTILLA_SAYINGS if record.kind == "flotilla" else SAYINGS
    turns = 0
    if record.kind == "flotilla":  # no setting up to tell: seat 1 plays at once
        turns = 1
        yield f"Turn 1: {seat_name(record, 0)} (seat 1)"
    else:
        yield "Setting up"
    for row in rows:
        text = notation(row.action)
        if row.status != "ok":
            yield f"  {row.seq:>4}  ({row.status}: {text}{f'; {row.note}' if row.note else ''})"
            continue
        events = [e.project(REFEREE) for e in game.apply(row.action)]
        said = [say(_named(record, e), sayings) for e in events if e["kind"] not in SILENT]
        head = f"  {row.seq:>4}  {text:<22} [{_who(record, row)}]"
        # The first consequence on the action's own line keeps the setup and short turns short.
        yield f"{head:<48} {said[0]}" if said else head
        for line in said[1:]:
            yield f"{'':49}{line}"
        for e in events:
            if e["kind"] == "turn":
                turns += 1
                yield f"Turn {turns}: {seat_name(record, e['seat'])} (seat {e['seat'] + 1})"
    result = game.result()
    if result is not None:
        yield ""
        yield "Result"
        for r in result["ranking"]:
            if record.kind == "flotilla":
                yield f"  {r['place']}. {seat_name(record, r['seat'])}: {r['total']} VP"
                continue
            yield (
                f"  {r['place']}. {seat_name(record, r['seat'])}: {r['points']} points, "
                f"{r['saved']} saved"
            )
        for reason in result.get("reasons", []):
            yield f"  {reason['text']}"


def replay_game(record: GameRecord, rows: list[Row]) -> AnyGame:
    game = game_of(record)
    for row in rows:
        if row.status == "ok":
            game.apply(row.action)
    return game


class NoPosition(Exception):
    """A position that cannot be given: a Flotilla game, or an action not in force."""


def position(
    record: GameRecord, rows: list[Row], view: View = REFEREE, at: int | None = None
) -> str:
    """The Survive game's position (`Game.position`) as `view` may see it, after the action
    numbered `at` (None: now), replaying the actions in force."""
    game = game_of(record)
    if not isinstance(game, Game):
        raise NoPosition(f"game {record.id} is a {record.kind} game: positions are Survive's")
    live = [row for row in rows if row.status == "ok"]
    if at is not None:
        upto = next((i for i, row in enumerate(live) if row.seq == at), None)
        if upto is None:
            raise NoPosition(f"game {record.id} has no action {at} in force")
        live = live[: upto + 1]
    for row in live:
        game.apply(row.action)
    return game.position(view)


def row_json(row: Row, kind: str) -> dict[str, Any]:
    """One stored action as JSON, with its notation."""
    return {
        "seq": row.seq,
        "ord": row.ord,
        "action": row.action,
        "notation": KINDS[kind].notation(row.action),
        "source": row.source,
        "seat": row.seat,
        "at": row.at,
        "status": row.status,
        "note": row.note,
    }


def _everything(record: GameRecord, rows: list[Row]) -> dict[str, Any]:
    return {
        "format": 1,
        "game": {
            "id": record.id,
            "kind": record.kind,
            "seed": record.seed,
            "mode": record.mode,
            "settings": record.settings,
            "started_at": record.started_at,
            "ended_at": record.ended_at,
            "outcome": record.outcome,
        },
        "rules": record.rules,
        "players": record.players,
        "actions": [row_json(r, record.kind) for r in rows],
        "final": replay_game(record, rows).view(REFEREE),
    }


def export(record: GameRecord, rows: list[Row], seed: bool = False) -> dict[str, Any]:
    """Everything stored about a game, and where its actions lead (the referee's view). The
    seed, the game's secret (`seeds`), only with `seed`: the table itself asks for it."""
    out = _everything(record, rows)
    if seed:
        out["game"]["seed_said"] = seeds.said(record)
    else:
        del out["game"]["seed"]
        out["final"].pop("seed", None)  # a Flotilla game's view has none
    return out
