"""The `Rules` value (spec §11): modules and options, their defaults, refusals and stored form."""

from __future__ import annotations

import json

import pytest

from companion.engine import Game, Rules, RulesError
from companion.engine.rules import MODULES, OPTIONS, PLAYABLE

# Spec §11, "Options the engine must expose (defaults in brackets)".
SPEC_DEFAULTS = {
    "own_values_visible": "no",
    "creature_move": "optional",
    "swimmer_after_swim": "no",
    "repellent_vs_tiles": "no",
    "boarding_in_danger": "same-as-moving-in",
    "tiebreak": "chain",
    "squid_entry": "must",
    "boat_supply_empty": "take-from-board",
    "dolphin_to_safety": "no",
    "winds_empty_boat": "allowed",
    "spinner_sectors": "uniform",
    "entrances_per_island": "1",
    "layout_1986": "rings",
    "backs_1986": "default",
}

# Spec §11, the rule modules table.
SPEC_MODULES = {
    "base",
    "five-six",
    "overpopulated",
    "dive-dice",
    "squid",
    "squid-variant-1",
    "densely-populated",
    "leave-no-one-behind",
    "all-equal",
    "atlantis-is-gone",
    "escape-1986",
}

# Values the spec names for each option besides its default (§1, §3, §5, §6, §8, §10).
SPEC_OTHER_VALUES = {
    "own_values_visible": "yes",
    "creature_move": "mandatory",
    "swimmer_after_swim": "yes",
    "repellent_vs_tiles": "yes",
    "boarding_in_danger": "safe",
    "tiebreak": "shared",
    "squid_entry": "none",
    "boat_supply_empty": "none",
    "dolphin_to_safety": "yes",
    "winds_empty_boat": "forbidden",
    "entrances_per_island": "2",
    "layout_1986": "random",
}


def test_options_default_as_in_spec_section_11() -> None:
    """§11: every option the spec lists exists, with the spec's default, and no other."""
    assert Rules().options == SPEC_DEFAULTS
    for name, default in SPEC_DEFAULTS.items():
        assert Rules().option(name) == default


def test_every_option_has_a_line_of_explanation() -> None:
    """§11: each option appears in the setup screen with one line of explanation."""
    for name, (values, line) in OPTIONS.items():
        assert values and line.strip() and "\n" not in line, name


@pytest.mark.parametrize(("name", "value"), sorted(SPEC_OTHER_VALUES.items()))
def test_every_value_the_spec_names_is_accepted(name: str, value: str) -> None:
    """§1 … §10: each option's other value, as the spec names it, is accepted and kept; the
    other options keep their defaults."""
    rules = Rules(options={name: value})
    assert rules.option(name) == value
    assert {k: v for k, v in rules.options.items() if k != name} == {
        k: v for k, v in SPEC_DEFAULTS.items() if k != name
    }


def test_squid_entry_may_is_accepted() -> None:
    """Q-2: the squid's entry option has three values (must, may, none)."""
    assert Rules(options={"squid_entry": "may"}).option("squid_entry") == "may"


def test_modules_are_those_of_the_spec_and_base_is_the_default() -> None:
    """§11: the module names are the spec's; `base` is on by default."""
    assert set(MODULES) == SPEC_MODULES
    assert Rules().modules == ("base",)
    assert "base" in PLAYABLE


def test_unknown_module_is_refused_by_name() -> None:
    with pytest.raises(RulesError, match="atlantis-reloaded"):
        Rules(modules=("base", "atlantis-reloaded"))


def test_unknown_option_is_refused_by_name() -> None:
    with pytest.raises(RulesError, match="kraken_mode"):
        Rules(options={"kraken_mode": "yes"})


@pytest.mark.parametrize(
    ("name", "value"),
    [("tiebreak", "coin-toss"), ("own_values_visible", "sometimes"), ("creature_move", "")],
)
def test_bad_option_value_is_refused_naming_option_and_value(name: str, value: str) -> None:
    with pytest.raises(RulesError) as info:
        Rules(options={name: value})
    message = str(info.value)
    assert name in message and repr(value) in message
    for allowed in OPTIONS[name][0]:
        assert allowed in message  # the message tells what would be accepted


def test_option_value_of_the_wrong_type_is_refused() -> None:
    with pytest.raises(RulesError, match="tiebreak"):
        Rules(options={"tiebreak": True})  # type: ignore[dict-item]


def test_E_4_every_module_of_the_spec_is_playable_the_1986_one_for_2_to_4() -> None:
    """§11: every module the spec names is played in this version; the 1986 ruleset alone and
    for 2 to 4 players only (E-4, E-7)."""
    assert SPEC_MODULES == PLAYABLE
    for players in (2, 3, 4):
        assert Game.new(Rules(("escape-1986",)), players).state.is_1986
    with pytest.raises(RulesError, match="2 to 4") as info:
        Game.new(Rules(("escape-1986",)), players=5)
    assert info.value.rule == "E-4"


def test_game_refuses_player_counts_and_modes_it_cannot_play() -> None:
    """B-4: the base game is for 2 to 4 players (5-6 with the `five-six` kit, which they
    imply); the mode is digital or physical."""
    for players in (1, 7):
        with pytest.raises(RulesError, match=str(players)):
            Game.new(Rules(), players=players)
    with pytest.raises(RulesError, match="hybrid"):
        Game.new(Rules(), players=2, mode="hybrid")


def test_json_round_trip() -> None:
    """The stored form reads back to an equal value, through real JSON text."""
    for rules in (
        Rules(),
        Rules(options={"tiebreak": "shared", "own_values_visible": "yes"}),
        Rules(modules=("base", "base")),
    ):
        data = json.loads(json.dumps(rules.to_json()))
        again = Rules.from_json(data)
        assert again == rules
        assert again.to_json() == rules.to_json()
    assert Rules(modules=("base", "base")).modules == ("base",)


def test_stored_form_names_every_option() -> None:
    """§11: the options are stored with the game — all of them, so a stored game keeps its
    rules even after a default changes."""
    data = Rules(options={"tiebreak": "shared"}).to_json()
    assert data["options"] == {**SPEC_DEFAULTS, "tiebreak": "shared"}
    assert data["modules"] == ["base"]


def test_an_explicit_default_equals_the_implicit_one() -> None:
    assert Rules(options={"tiebreak": "chain"}) == Rules()
    assert Rules(options={"tiebreak": "shared"}) != Rules()


@pytest.mark.parametrize(
    "data",
    [
        {"format": 99, "modules": ["base"], "options": {}},
        {"modules": ["base"], "options": {}},
        {"format": 1, "modules": ["base", "nope"], "options": {}},
        {"format": 1, "modules": ["base"], "options": {"tiebreak": "coin"}},
    ],
)
def test_from_json_refuses_what_it_cannot_play(data: dict) -> None:
    with pytest.raises(RulesError):
        Rules.from_json(data)


def test_rules_are_stored_with_the_game() -> None:
    """§11: the options travel with the saved game."""
    rules = Rules(options={"creature_move": "mandatory"})
    game = Game.new(rules, players=3, seed=7)
    again = Game.from_json(json.loads(json.dumps(game.to_json())))
    assert again.state.rules == rules
    assert again.view(None)["rules"]["options"]["creature_move"] == "mandatory"


def test_parse_reads_the_command_line_words() -> None:
    """§11: ``--rules a,b`` and ``--option name=value`` (repeatable)."""
    rules = Rules.parse("base", ["tiebreak=shared", " creature_move = mandatory "])
    assert rules == Rules(options={"tiebreak": "shared", "creature_move": "mandatory"})
    assert Rules.parse("") == Rules()
    with pytest.raises(RulesError, match="tiebreak"):
        Rules.parse("base", ["tiebreak"])
    assert Rules.parse("base, dive-dice,squid").modules == ("base", "dive-dice", "squid")
    with pytest.raises(RulesError, match="squid-variant-1"):
        Rules.parse("base,squid-variant-1")  # the variant needs the squid
