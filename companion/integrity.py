"""Is every stored game as it was stored, and does it still replay? And the way out if not.

Two kinds of damage go unnoticed by SQLite's own checks: a log that lost rows it had committed
(a damaged write-ahead log file is replayed only up to its first bad frame: games silently
rewind), and a stored move that no longer replays (after an upgrade that changed a rule). The
store's running checksum and its witness find the first (`Store.damage`); a replay through the
game's rules finds the second. `companion doctor` and the daemon's start-up say which game and
from which action; `companion repair GAME` exports the game up to its last good action and lets
it go on from there.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from . import history
from .kinds import KINDS, game_of
from .store import GameRecord, Row, Store


@dataclass(frozen=True)
class Damage:
    game: int
    seq: int
    """The first action that is not as stored, lost, or no longer replays."""
    text: str
    lost: bool = False
    """Rows are missing (nothing of them is left to set aside)."""

    def __str__(self) -> str:
        return (
            f"game {self.game} is damaged from action {self.seq}: {self.text}. "
            f"`companion repair {self.game}` exports it up to its last good action and lets it "
            "go on from there"
        )


def unplayable(record: GameRecord, rows: list[Row]) -> Damage | None:
    """The first action in force that the game's rules no longer accept, if any."""
    game = game_of(record)
    for row in rows:
        try:
            game.apply(row.action)
        except Exception as e:  # any refusal or fault of a replay is the same damage
            notation = KINDS[record.kind].notation
            try:
                said = notation(row.action)
            except Exception:
                said = repr(row.action)[:60]
            return Damage(record.id, row.seq, f"action {row.seq} ({said}) no longer replays: {e}")
    return None


def check(store: Store, record: GameRecord) -> Damage | None:
    damaged = store.damage(record.id)
    if damaged is not None:
        seq, text = damaged
        return Damage(record.id, seq, text, lost="are gone" in text)
    return unplayable(record, store.log(record.id))


def problems(store: Store, unfinished_only: bool = False) -> list[Damage]:
    """Every damaged game of the store (only those still in play with `unfinished_only`)."""
    found = []
    for record in store.games():
        if unfinished_only and record.ended_at is not None:
            continue
        damage = check(store, record)
        if damage is not None:
            found.append(damage)
    return found


def repair(store: Store, game_id: int, output: Path) -> str:
    """The way out for a damaged game: its log up to the last good action is written to
    `output` (as `companion export` writes a game), the actions from the damaged one on are set
    aside (kept, as superseded), and the game goes on from the last good position. What was done,
    in a sentence; the game as it was when nothing is wrong."""
    record = store.game(game_id)
    damage = check(store, record)
    if damage is None:
        return f"game {game_id} is not damaged: nothing to repair"
    everything = store.log(game_id, everything=True)
    good = [r for r in everything if r.seq < damage.seq]
    output.write_text(json.dumps(history.export(record, good, seed=True), indent=1))
    later = [r.seq for r in store.log(game_id) if r.seq >= damage.seq]
    if later:
        store.mark(game_id, later, "superseded", f"set aside by repair: {damage.text}")
    store.forget_tally(game_id)
    return (
        f"game {game_id}: its log up to action {damage.seq - 1} is in {output}; "
        f"{len(later)} action(s) from action {damage.seq} on were set aside (kept, superseded); "
        f"the game goes on from there"
    )
