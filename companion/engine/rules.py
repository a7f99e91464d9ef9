"""Which rules a game is played by: the ruleset, the rule modules and the options (spec §11).

A `Rules` value is plain data: it is stored with every game and travels as JSON, so a stored game
replays by the rules it was played with even after the defaults change.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import RulesError

FORMAT = 1
"""Version of the stored form of `Rules`; raise it when the meaning of a stored field changes."""

OPTIONS: dict[str, tuple[tuple[str, ...], str]] = {
    # name: (allowed values, the first being the default; one line for the setup screen)
    "own_values_visible": (("no", "yes"), "May players look at their own people's values later?"),
    "creature_move": (
        ("optional", "mandatory"),
        "Must the rolled creature move, or may the roller decline?",
    ),
    "swimmer_after_swim": (
        ("no", "yes"),
        "May a swimmer that already swam this turn still board a boat or reach a safe island?",
    ),
    "repellent_vs_tiles": (
        ("no", "yes"),
        "Do repellents also work against a shark placed by a revealed tile?",
    ),
    "boarding_in_danger": (
        ("same-as-moving-in", "safe"),
        "Is boarding an empty boat beside a serpent or whale as deadly as sailing in?",
    ),
    "tiebreak": (
        ("chain", "shared"),
        "Break ties by people saved, then fewer turns; or share the victory at once.",
    ),
    "squid_entry": (
        ("must", "may", "none"),
        "On entering, must a squid grab a person from a nearby tile (English), may it (French), or never?",
    ),
    "boat_supply_empty": (
        ("take-from-board", "none"),
        "When a boat tile finds no boat in the supply, take an empty one from the board, or none?",
    ),
    "dolphin_to_safety": (
        ("no", "yes"),
        "May the dolphin tile carry a swimmer onto a safe island or into a boat?",
    ),
    "winds_empty_boat": (
        ("allowed", "forbidden"),
        "May the winds tile blow an empty boat?",
    ),
    "spinner_sectors": (
        ("uniform",),
        "1986 spinner: how likely each creature and move is (uniform, not verified).",
    ),
    "entrances_per_island": (("1", "2"), "1986 board: entrance hexes per safe island."),
    "layout_1986": (
        ("rings", "random"),
        "1986 island: laid in rings (beach outside, forest, mountain) or at random (unverified).",
    ),
    "backs_1986": (
        ("default",),
        "1986 tile backs: how many show each thing (the 30th edition's, not verified).",
    ),
}

MODULES: dict[str, str] = {
    "base": "the 30th Anniversary rules",
    "five-six": "the 5-6 player kit",
    "overpopulated": "challenge #5, Overpopulated!",
    "dive-dice": "challenge #6, Dolphins & Dive Dice",
    "squid": "the Giant Squid",
    "squid-variant-1": "Giant Squid variant #1: squids replace whales",
    "densely-populated": "challenge #1, Densely Populated",
    "leave-no-one-behind": "challenge #2, Leave No One Behind",
    "all-equal": "challenge #3, All Equal!",
    "atlantis-is-gone": "challenge #4, Atlantis is Gone",
    "escape-1986": "the 1986 Escape from Atlantis ruleset",
}

PLAYABLE = frozenset(
    {
        "base",
        "five-six",
        "overpopulated",
        "densely-populated",
        "leave-no-one-behind",
        "all-equal",
        "atlantis-is-gone",
        "dive-dice",
        "squid",
        "squid-variant-1",
        "escape-1986",
    }
)
"""Modules the engine plays today (every module it names, so far)."""

NEEDS: dict[str, tuple[str, str]] = {"squid-variant-1": ("squid", "Q-7")}
"""A module that is played only together with another: module -> (the other, the rule saying so).

Overpopulated! needs the 5-6 player kit, which 5 or 6 players imply: `Game.new` checks that,
since only it knows how many play (P-4)."""

ALONE = "escape-1986"
"""The 1986 ruleset is a game of its own: no other module goes with it (E-7)."""


def conflicts(modules: tuple[str, ...]) -> str | None:
    """Why these modules cannot be played together, or None when they can."""
    if ALONE in modules and len(set(modules)) > 1:
        others = ", ".join(sorted(set(modules) - {ALONE}))
        return f"{ALONE} ({MODULES[ALONE]}) is played alone, without {others} (E-7)"
    for module, (other, rule) in NEEDS.items():
        if module in modules and other not in modules:
            return f"{module} ({MODULES[module]}) needs {other} ({MODULES[other]}) ({rule})"
    return None


@dataclass(frozen=True)
class Rules:
    """The ruleset, modules and options of one game."""

    modules: tuple[str, ...] = ("base",)
    options: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.modules:
            object.__setattr__(self, "modules", ("base",))
        for module in self.modules:
            if module not in MODULES:
                known = ", ".join(MODULES)
                raise RulesError(f"unknown rule module {module!r}; known modules: {known}")
        why = conflicts(self.modules)
        if why:
            raise RulesError(why)
        unplayable = sorted(set(self.modules) - PLAYABLE)
        if unplayable:
            names = ", ".join(f"{m!r} ({MODULES[m]})" for m in unplayable)
            what = "rule module {} is" if len(unplayable) == 1 else "rule modules {} are"
            raise RulesError(f"{what.format(names)} not playable in this version")
        full = {name: values[0] for name, (values, _) in OPTIONS.items()}
        for name, value in self.options.items():
            if name not in OPTIONS:
                raise RulesError(f"unknown option {name!r}; known options: {', '.join(OPTIONS)}")
            allowed = OPTIONS[name][0]
            if value not in allowed:
                raise RulesError(
                    f"option {name} must be one of {', '.join(allowed)}, not {value!r}"
                )
            full[name] = value
        object.__setattr__(self, "modules", tuple(sorted(set(self.modules))))
        object.__setattr__(self, "options", full)

    def option(self, name: str) -> str:
        return self.options[name]

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "modules": list(self.modules), "options": dict(self.options)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Rules:
        if data.get("format") != FORMAT:
            raise RulesError(f"rules format {data.get('format')!r} is not {FORMAT}")
        return cls(tuple(data["modules"]), dict(data["options"]))

    @classmethod
    def parse(cls, modules: str = "base", options: list[str] | tuple[str, ...] = ()) -> Rules:
        """Rules from the command line's words: ``base,dive-dice`` and ``name=value`` options."""
        pairs: dict[str, str] = {}
        for text in options:
            name, sep, value = text.partition("=")
            if not sep:
                raise RulesError(f"option {text!r} must be written name=value")
            pairs[name.strip()] = value.strip()
        names = tuple(m.strip() for m in modules.split(",") if m.strip())
        return cls(names or ("base",), pairs)
