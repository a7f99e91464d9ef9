"""What the table says aloud: one short sentence per happening, in the table's language.

The sentences come from the page's catalogues (``web/i18n/<lang>.json``, keys ``voice.*`` and
the words the page already uses for faces, creatures and tiles), so the Pi's speaker and the
table screen's browser say the same text, and a translation is made once.

A `Narrator` reads the events of one table as a spectator receives them (the Table's
projection for `SPECTATOR`, spec §9) and keeps only what a spectator sees: the players' names,
the game's kind and rules, how many tiles are left. It never sees a value or a held tile before
the end, so it cannot say one.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..web.assets import web_folder

LANGUAGES = ("en", "es", "fr")
VERBOSITY = ("turns", "events", "all")
"""How much is said: whose turn and the end; also what the die and the creatures did; also
every tile that sinks."""

LEVEL = {
    "turn": "turns",
    "game_over": "turns",
    "winner": "turns",
    "winners": "turns",
    "end_triggered": "turns",
    "rolled": "events",
    "dived": "events",
    "spun": "events",
    "whirlpool": "events",
    "wrecked": "events",
    "wrecked_of": "events",
    "sunk_boat": "events",
    "sunk_boat_of": "events",
    "eaten": "events",
    "saved": "events",
    "creature_placed": "events",
    "tiles_left": "events",
    "undone": "events",
    "corrected": "events",
    "sunk": "all",
}
"""Every kind of announcement and the least verbosity that says it."""

SNAPSHOTS = ("state", "new_game", "undone", "corrected", "snapshot")
"""Events whose data is a whole snapshot (they refresh what the narrator knows)."""
TILES_TOLD = (30, 20, 10, 5, 3, 2, 1)
"""The numbers of tiles left that are worth saying."""


@dataclass(frozen=True)
class Announcement:
    kind: str
    text: str
    lang: str
    game: int
    seq: int

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "lang": self.lang, "seq": self.seq}


@functools.lru_cache(maxsize=4)
def catalogue(lang: str) -> dict[str, str]:
    """The page's words in `lang`, English behind every missing line."""
    folder = web_folder() / "i18n"
    english: dict[str, str] = json.loads((folder / "en.json").read_text(encoding="utf-8"))
    if lang == "en":
        return english
    words: dict[str, str] = json.loads((folder / f"{lang}.json").read_text(encoding="utf-8"))
    return {**english, **words}


def says(level: str, verbosity: str) -> bool:
    """Is an announcement of `level` said at `verbosity`?"""
    return VERBOSITY.index(level) <= VERBOSITY.index(verbosity)


class Narrator:
    """Turns a spectator's events into sentences, remembering the little it needs."""

    def __init__(self, lang: str) -> None:
        if lang not in LANGUAGES:
            raise ValueError(f"no voice for {lang!r}: the languages are {', '.join(LANGUAGES)}")
        self.lang = lang
        self.words = catalogue(lang)
        self.game = 0
        self.kind = "survive"
        self.players: list[dict[str, Any]] = []
        self.modules: list[str] = []
        self.tiles = 0

    # -- words -----------------------------------------------------------------------------

    def t(self, key: str, **params: Any) -> str:
        text = self.words.get(key, key)
        return re.sub(r"\{(\w+)\}", lambda m: str(params.get(m.group(1), m.group(0))), text)

    def name(self, seat: int | None) -> str:
        for player in self.players:
            if player.get("seat") == seat:
                return str(player["name"])
        return self.t("player.seat", n=(seat or 0) + 1)

    def person(self, person: str) -> str:
        """ "A3" is seat 1's third person: said "Ana 3"."""
        return f"{self.name('ABCDEF'.index(person[0]))} {person[1:]}"

    def people(self, people: list[str]) -> str:
        return ", ".join(self.person(p) for p in people)

    def creature(self, what: str) -> str:
        """A creature's kind ("shark2" or "shark") in words, without its number."""
        return self.t(f"creature.{re.sub(r'[0-9]+$', '', what)}")

    def owner(self, people: list[str]) -> int | None:
        """The one seat all `people` belong to, else None."""
        seats = {"ABCDEF".index(p[0]) for p in people}
        return seats.pop() if len(seats) == 1 else None

    # -- events ----------------------------------------------------------------------------

    def learn(self, snapshot: dict[str, Any]) -> None:
        """What a spectator's snapshot tells: the game, its players, its rules, the tiles."""
        if snapshot.get("game") is None:
            return
        self.game = int(snapshot["game"])
        self.kind = str(snapshot.get("kind", "survive"))
        self.players = list(snapshot.get("players") or [])
        state = snapshot.get("state") or {}
        self.modules = list((state.get("rules") or {}).get("modules") or [])
        self.tiles = len(state.get("tiles") or {})

    def narrate(self, kind: str, data: dict[str, Any], seq: int = 0) -> list[Announcement]:
        """What is said of one event (often nothing)."""
        return [
            Announcement(said, text, self.lang, self.game, seq)
            for said, text in self._sentences(kind, data)
        ]

    def _sentences(self, kind: str, e: dict[str, Any]) -> Iterator[tuple[str, str]]:
        if kind in SNAPSHOTS:
            self.learn(e)
            if kind in ("undone", "corrected"):
                yield kind, self.t(f"voice.{kind}")
            return
        if self.kind == "flotilla":
            yield from self._flotilla(kind, e)
            return
        t = self.t
        if kind == "turn":
            yield kind, t("voice.turn", name=self.name(e.get("seat")))
        elif kind == "rolled":
            face = e["face"]
            what = t(f"roll.red.{face}") if f"roll.red.{face}" in self.words else ""
            yield kind, t("voice.rolled", face=t(f"face.{face}"), what=what).rstrip(" —")
        elif kind == "dived":
            face, dist = e["kind"], str(e["distance"])
            yield kind, t("voice.dived", face=t(f"face.{face}"), distance=t(f"distance.{dist}"))
        elif kind == "spun":
            yield kind, t("roll.spin", kind=t(f"spin.kind.{e['kind']}"), move=t(f"spin.move.{e['move']}"))  # fmt: skip
        elif kind == "whirlpool":
            yield kind, t("voice.whirlpool", hex=e["hex"])
        elif kind in ("wrecked", "sunk_boat"):
            seat = self.owner(e.get("people") or [])
            boat = str(e["boat"])[1:]
            if seat is None:
                yield kind, t(f"voice.{kind}", boat=boat)
            else:
                yield f"{kind}_of", t(f"voice.{kind}_of", name=self.name(seat), boat=boat)
        elif kind == "eaten":
            yield kind, t("voice.eaten", by=self.creature(str(e["by"])), who=self.people(e["people"]))  # fmt: skip
        elif kind == "saved":
            yield kind, t("voice.saved", who=self.person(e["person"]))
        elif kind == "creature_placed":
            yield kind, t("voice.creature_placed", creature=self.creature(e["creature"]), hex=e["hex"])  # fmt: skip
        elif kind == "sunk":
            yield kind, t("voice.sunk", tile=t(f"tile.{e['terrain']}"), hex=e["hex"])
            self.tiles = max(0, self.tiles - 1)
            if self.tiles in TILES_TOLD:
                yield "tiles_left", t("voice.tiles_left", n=self.tiles)
        elif kind == "game_over":
            yield kind, t("voice.game_over")
        elif kind == "result":
            yield from self._winners(e, "saved" if "escape-1986" in self.modules else "points")

    def _winners(self, result: dict[str, Any], score: str) -> Iterator[tuple[str, str]]:
        winners = list(result.get("winners") or [])
        if not winners:
            return
        first = next(r for r in result["ranking"] if r["seat"] == winners[0])
        names = ", ".join(self.name(s) for s in winners)
        key = "winners" if len(winners) > 1 else "winner"
        yield key, self.t(f"voice.{key}.{score}", names=names, n=first[score])

    def _flotilla(self, kind: str, e: dict[str, Any]) -> Iterator[tuple[str, str]]:
        if kind == "turn":
            yield kind, self.t("voice.turn", name=self.name(e.get("seat")))
        elif kind == "end_triggered":
            yield kind, self.t("voice.end_triggered")
        elif kind == "game_over":
            result = e.get("result") or {}
            totals = {r["seat"]: {**r, "points": r["total"]} for r in result.get("ranking", [])}
            yield from self._winners({**result, "ranking": list(totals.values())}, "points")
