"""The box as data: dive and research dice, guild colours, toxicity penalties, the market track
and the VP supply, read from ``data/dice.json`` (or a table owner's corrected copy).

Every entry of the file carries a ``source`` and ``verified``; `Box.unverified` lists the ones
still unverified so the phone can say so (spec flotilla.md: unknown facts are not invented,
and they live in one data file, never in code).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from .errors import DataError

DIVE_ICONS: tuple[str, ...] = ("barrel", "toxicity", "depletion", "survivor", "sonar")
"""The five results of a dive die (seed 002, The Delvers, step 2)."""

BREAKTHROUGH, WILD, CURRENCY = "breakthrough", "wild", "currency"


@dataclass(frozen=True)
class DiveFace:
    """One face of a dive die: the icons it shows (none for a blank face)."""

    icons: tuple[str, ...]
    verified: bool
    source: str


@dataclass(frozen=True)
class DiveKind:
    """One of the three kinds of dive die, rolled for a skiff on a tile of this depth."""

    depth: int
    name: str
    faces: tuple[DiveFace, ...]

    @property
    def verified(self) -> bool:
        return all(f.verified for f in self.faces)


@dataclass(frozen=True)
class ResearchFace:
    """One face of a research die: ``currency:N``, ``breakthrough``, ``wild`` or a guild colour."""

    face: str
    verified: bool
    source: str


@dataclass(frozen=True)
class Box:
    """Everything the helpers take from the data file."""

    players: tuple[int, int]
    skiffs_per_player: int
    skiff_capacity: int
    dive_dice: int
    research_dice: int
    resources: tuple[str, ...]
    dive_kinds: tuple[DiveKind, ...]
    research_faces: tuple[ResearchFace, ...]
    guilds: tuple[str, ...]
    colours: tuple[str, ...]
    """Guild colours, in the order of `guilds`."""
    toxicity_penalty: tuple[int, ...]
    market_prices: tuple[int, ...]
    market_start: Mapping[str, int]
    vp_per_player: int
    unverified: tuple[tuple[str, str], ...]
    """(entry, source) for every entry not verified, in file order."""
    source: str
    """Where the file was read from."""

    def dive_kind(self, depth: int) -> DiveKind | None:
        return next((k for k in self.dive_kinds if k.depth == depth), None)

    def guild_of(self, colour: str) -> str:
        return self.guilds[self.colours.index(colour)]

    def colour_of(self, guild: str) -> str:
        return self.colours[self.guilds.index(guild)]

    @property
    def research_verified(self) -> bool:
        return all(f.verified for f in self.research_faces)

    def is_verified(self, entry: str) -> bool:
        """Whether the named entry (``toxicity_penalty``, ``market.prices``, …) is verified."""
        return all(
            name != entry and not name.startswith(entry + ".") for name, _ in self.unverified
        )


def load(path: str | Path | None = None) -> Box:
    """The box from `path`, or from the shipped ``data/dice.json``; DataError if it is unusable."""
    if path is None:
        text = resources.files(__package__).joinpath("data/dice.json").read_text(encoding="utf-8")
        where = "companion/flotilla/data/dice.json"
    else:
        text = Path(path).read_text(encoding="utf-8")
        where = str(path)
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(f"{where}: not JSON: {exc}") from None
    return _parse(raw, where)


class _Reader:
    """Reads entries of the file, keeping the list of unverified ones."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.unverified: list[tuple[str, str]] = []

    def fail(self, name: str, why: str) -> DataError:
        return DataError(f"{self.where}: {name}: {why}")

    def entry(self, raw: Any, name: str) -> dict[str, Any]:
        """An object with a source and a verified flag (a number without a source is refused)."""
        if not isinstance(raw, dict):
            raise self.fail(name, "expected an object with value, verified and source")
        source, verified = raw.get("source"), raw.get("verified")
        if not isinstance(source, str) or not source.strip():
            raise self.fail(name, "every entry needs a source (where its numbers come from)")
        if not isinstance(verified, bool):
            raise self.fail(name, "every entry needs verified: true or false")
        if not verified:
            self.unverified.append((name, source))
        return raw

    def value(self, raw: Any, name: str) -> Any:
        entry = self.entry(raw, name)
        if "value" not in entry:
            raise self.fail(name, "missing value")
        return entry["value"]

    def int_(self, raw: Any, name: str, low: int = 0) -> int:
        value = self.value(raw, name)
        if not _is_int(value) or value < low:
            raise self.fail(name, f"expected a whole number >= {low}, got {value!r}")
        result: int = value
        return result

    def ints(self, value: Any, name: str) -> tuple[int, ...]:
        if not isinstance(value, list) or not value or not all(_is_int(v) for v in value):
            raise self.fail(name, f"expected a non-empty list of whole numbers, got {value!r}")
        return tuple(value)

    def names(self, value: Any, name: str) -> tuple[str, ...]:
        if (
            not isinstance(value, list)
            or not value
            or not all(isinstance(v, str) and v for v in value)
            or len(set(value)) != len(value)
        ):
            raise self.fail(name, f"expected a list of distinct names, got {value!r}")
        return tuple(value)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _parse(raw: Any, where: str) -> Box:
    r = _Reader(where)
    if not isinstance(raw, dict) or raw.get("format") != 1:
        raise r.fail("format", "expected a dice file of format 1")
    try:
        players = r.ints(r.value(raw["players"], "players"), "players")
        if len(players) != 2 or not 1 <= players[0] <= players[1]:
            raise r.fail("players", "expected [fewest, most]")
        skiffs = r.int_(raw["skiffs_per_player"], "skiffs_per_player", 1)
        capacity = r.int_(raw["skiff_capacity"], "skiff_capacity", 1)
        dive_dice = r.int_(raw["dive_dice_in_box"], "dive_dice_in_box", 1)
        research_dice = r.int_(raw["research_dice_in_box"], "research_dice_in_box", 1)
        colours_of_resources = r.names(r.value(raw["resources"], "resources"), "resources")
        kinds = _dive_kinds(r, raw["dive_dice"])
        guilds, colours = _guilds(r, raw["guilds"])
        faces = _research_faces(r, raw["research_die"], colours)
        penalty = r.ints(r.value(raw["toxicity_penalty"], "toxicity_penalty"), "toxicity_penalty")
        market = raw["market"]
        prices = r.ints(r.value(market["prices"], "market.prices"), "market.prices")
        start = r.value(market["start"], "market.start")
        vp = r.int_(raw["vp_supply_per_player"], "vp_supply_per_player", 1)
    except KeyError as exc:
        raise r.fail(str(exc.args[0]), "missing entry") from None
    if not isinstance(start, dict) or set(start) != set(colours_of_resources):
        raise r.fail("market.start", f"expected a start space for each of {colours_of_resources}")
    if not all(_is_int(v) and 0 <= v < len(prices) for v in start.values()):
        raise r.fail("market.start", f"start spaces must lie on the track 0..{len(prices) - 1}")
    return Box(
        players=(players[0], players[1]),
        skiffs_per_player=skiffs,
        skiff_capacity=capacity,
        dive_dice=dive_dice,
        research_dice=research_dice,
        resources=colours_of_resources,
        dive_kinds=kinds,
        research_faces=faces,
        guilds=guilds,
        colours=colours,
        toxicity_penalty=penalty,
        market_prices=prices,
        market_start=dict(start),
        vp_per_player=vp,
        unverified=tuple(r.unverified),
        source=where,
    )


def _dive_kinds(r: _Reader, raw: Any) -> tuple[DiveKind, ...]:
    if not isinstance(raw, dict) or not isinstance(raw.get("kinds"), list) or not raw["kinds"]:
        raise r.fail("dive_dice", "expected kinds: a list of dice")
    kinds: list[DiveKind] = []
    for i, kind in enumerate(raw["kinds"]):
        name = f"dive_dice.kinds[{i}]"
        if not isinstance(kind, dict) or not _is_int(kind.get("depth")):
            raise r.fail(name, "expected depth (a whole number) and faces")
        depth_source = kind.get("depth_source")
        if not isinstance(depth_source, str) or not depth_source:
            raise r.fail(name, "depth_source: say where the depth number comes from")
        if depth_source.startswith("placeholder"):
            r.unverified.append((f"{name}.depth", depth_source))
        faces = kind.get("faces")
        if not isinstance(faces, list) or not faces:
            raise r.fail(name, "expected a non-empty list of faces")
        parsed: list[DiveFace] = []
        for j, face in enumerate(faces):
            entry = r.entry(face, f"{name}.faces[{j}]")
            icons = entry.get("icons")
            if not isinstance(icons, list) or not all(i in DIVE_ICONS for i in icons):
                raise r.fail(f"{name}.faces[{j}]", f"icons must be among {DIVE_ICONS}")
            parsed.append(DiveFace(tuple(icons), entry["verified"], entry["source"]))
        kinds.append(DiveKind(kind["depth"], str(kind.get("name", "")), tuple(parsed)))
    if len({k.depth for k in kinds}) != len(kinds):
        raise r.fail("dive_dice", "two kinds of dive die for the same depth")
    return tuple(kinds)


def _guilds(r: _Reader, raw: Any) -> tuple[tuple[str, ...], tuple[str, ...]]:
    if not isinstance(raw, dict) or not isinstance(raw.get("list"), list) or not raw["list"]:
        raise r.fail("guilds", "expected list: the guilds and their colours")
    guilds: list[str] = []
    colours: list[str] = []
    for i, guild in enumerate(raw["list"]):
        entry = r.entry(guild, f"guilds.list[{i}]")
        guilds.append(entry.get("guild", ""))
        colours.append(entry.get("colour", ""))
    r.names(guilds, "guilds (names)")
    r.names(colours, "guilds (colours)")
    reserved = {BREAKTHROUGH, WILD}
    if any(c in reserved or c.startswith(CURRENCY) for c in colours):
        raise r.fail("guilds", "a colour may not be named like another research face")
    return tuple(guilds), tuple(colours)


def _research_faces(r: _Reader, raw: Any, colours: tuple[str, ...]) -> tuple[ResearchFace, ...]:
    if not isinstance(raw, dict) or not isinstance(raw.get("faces"), list) or not raw["faces"]:
        raise r.fail("research_die", "expected faces: a list")
    faces: list[ResearchFace] = []
    for i, face in enumerate(raw["faces"]):
        name = f"research_die.faces[{i}]"
        entry = r.entry(face, name)
        text = entry.get("face")
        if not isinstance(text, str) or not research_face_ok(text, colours):
            raise r.fail(name, f"unknown research face {text!r}")
        faces.append(ResearchFace(text, entry["verified"], entry["source"]))
    return tuple(faces)


def currency_amount(face: str) -> int | None:
    """N for a ``currency:N`` face, None for any other face."""
    kind, _, amount = face.partition(":")
    if kind != CURRENCY or not amount.isdigit() or int(amount) < 1:
        return None
    return int(amount)


def research_face_ok(face: str, colours: tuple[str, ...]) -> bool:
    return face in (BREAKTHROUGH, WILD) or face in colours or currency_amount(face) is not None


BOX = load()
"""The shipped data file, read once."""
