"""The phone page's catalogues (web/i18n/*.json): the same keys in English, Spanish and French,
none empty, the same placeholders, translated wherever the words differ — and a line for
everything the page may have to say: every rule id the engine or the Table may cite, every
option and module of the setup screen, every step, tile back, die face and event."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from companion.engine import game, rules
from companion.engine.data import BACKS, COLOURS, DIE_FACES, DIVE_DISTANCES, DIVE_KINDS, TERRAINS
from companion.engine.state import CREATURE_KINDS

ROOT = Path(__file__).resolve().parent.parent
I18N = ROOT / "web" / "i18n"
JS = ROOT / "web" / "static" / "js"
LANGUAGES = ("en", "es", "fr")
TRANSLATIONS = ("es", "fr")

SAME_EVERYWHERE = {
    "lang.en",  # each language's name in its own words
    "lang.es",
    "lang.fr",
    "creature.short.serpent",  # "Se": serpiente, serpent
    "creature.short.serpent@1986",  # "Mo": monster, monstruo, monstre
    "compass.NE",  # the compass's letters: NE and SE in all three
    "compass.SE",
    "module.escape-1986",  # the 1986 box's title
}
SAME_IN = {
    "es": {"status.panel", "value.no"},  # "Panel", "No"
    # "Options", "orange", "points", "Table"
    "fr": {"setup.options", "colour.orange", "screen.points", "log.table"},
}


def catalogue(lang: str) -> dict[str, str]:
    data = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


@pytest.fixture(scope="module")
def books() -> dict[str, dict[str, str]]:
    return {lang: catalogue(lang) for lang in LANGUAGES}


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def words(text: str) -> str:
    """The text without its placeholders: what there is to translate."""
    return re.sub(r"\{\w+\}", "", text)


def test_every_key_is_in_all_three_and_none_is_empty(books: dict[str, dict[str, str]]) -> None:
    keys = set(books["en"])
    for lang in TRANSLATIONS:
        assert set(books[lang]) == keys, (
            f"{lang}: missing {sorted(keys - set(books[lang]))}, extra {sorted(set(books[lang]) - keys)}"
        )
    for lang, book in books.items():
        empty = [k for k, v in book.items() if not isinstance(v, str) or not v.strip()]
        assert not empty, f"{lang}: empty {empty}"


def test_placeholders_are_the_same_in_every_language(books: dict[str, dict[str, str]]) -> None:
    for lang in TRANSLATIONS:
        wrong = [
            k for k, v in books["en"].items() if placeholders(v) != placeholders(books[lang][k])
        ]
        assert not wrong, f"{lang}: placeholders differ in {wrong}"


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_spanish_and_french_are_translated(books: dict[str, dict[str, str]], lang: str) -> None:
    allowed = SAME_EVERYWHERE | SAME_IN[lang]
    same = [
        k
        for k, v in books["en"].items()
        if v == books[lang][k] and re.search(r"[^\W\d_]", words(v)) and k not in allowed
    ]
    assert not same, f"{lang} says these in English: {same}"
    stale = [k for k in allowed if books["en"][k] != books[lang][k]]
    assert not stale, f"{lang}: no longer the same, remove from the list: {stale}"


def cited_rule_ids() -> set[str]:
    """Every rule id written in the engine's and the Table's source: whatever a refusal or a
    result may carry."""
    sources = [
        *sorted((ROOT / "companion" / "engine").glob("*.py")),
        ROOT / "companion" / "table.py",
    ]
    found: set[str] = set()
    for path in sources:
        found |= set(re.findall(r"\"([BCPDQE]-\d+)\"", path.read_text(encoding="utf-8")))
    return found


def test_every_rule_the_engine_may_cite_has_its_line(books: dict[str, dict[str, str]]) -> None:
    ids = cited_rule_ids()
    assert {"B-16", "B-29", "P-6", "D-4", "Q-6"} <= ids  # the search itself works
    missing = sorted(i for i in ids if f"rule.{i}" not in books["en"])
    assert not missing, missing


def test_every_choice_of_the_setup_screen_is_explained(books: dict[str, dict[str, str]]) -> None:
    en = books["en"]
    expected = set()
    for name, (values, _) in rules.OPTIONS.items():
        expected |= {f"option.{name}", f"option.{name}.title", *(f"value.{v}" for v in values)}
    for name in rules.PLAYABLE - {"base"}:
        expected |= {f"module.{name}", f"module.{name}.explain"}
    expected |= {f"colour.{c}" for c in COLOURS}
    assert not sorted(expected - set(en))


def test_every_step_back_face_and_piece_has_its_word(books: dict[str, dict[str, str]]) -> None:
    en = books["en"]
    expected = {f"phase.{p}" for p in [*game.PHASES, "over"]}
    expected |= {f"back.{b}" for b in [*BACKS, "red"]}
    expected |= {f"face.{f}" for f in {*DIE_FACES, *DIVE_KINDS}}
    expected |= {f"dive.kind.{f}" for f in DIVE_KINDS}
    expected |= {f"roll.red.{f}" for f in DIE_FACES}
    expected |= {k for d in DIVE_DISTANCES for k in (f"distance.{d}", f"dive.dist.{d}")}
    expected |= {k for t in TERRAINS for k in (f"terrain.{t}", f"tile.{t}")}
    expected |= {k for c in CREATURE_KINDS for k in (f"creature.{c}", f"creature.short.{c}")}
    assert not sorted(expected - set(en))


def test_every_event_the_page_follows_has_its_line(books: dict[str, dict[str, str]]) -> None:
    stream = (JS / "stream.js").read_text(encoding="utf-8")
    listed = stream[stream.index("HAPPENINGS = [") : stream.index("];", stream.index("HAPPENINGS"))]
    kinds = re.findall(r'"([a-z_]+)"', listed)
    quiet = {"laid", "result"}  # setup's 40 tiles, and the result the end screen shows
    assert len(kinds) > 30
    missing = sorted(
        f"event.{k}" for k in kinds if k not in quiet and f"event.{k}" not in books["en"]
    )
    assert not missing, missing


def test_every_key_the_page_names_exists(books: dict[str, dict[str, str]]) -> None:
    named = set()
    for path in JS.glob("*.js"):
        named |= set(re.findall(r"\bt\(\"([\w.-]+)\"", path.read_text(encoding="utf-8")))
    assert len(named) > 100
    assert not sorted(named - set(books["en"]))


REFUSERS = {"Refused": 2, "IllegalAction": 2, "RuleBroken": 2}
"""The classes that carry a refusal, and the place of `key` among their arguments."""


def _calls(name_of: dict[str, int]) -> list[tuple[str, ast.Call]]:
    found = []
    for path in sorted((ROOT / "companion").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
                if name in name_of:
                    found.append((f"{path.name}:{node.lineno}", node))
    return found


def refusal_keys() -> dict[str, str]:
    """Every refusal key written in the companion's code (where a refusal is raised), read off
    the source itself, so that a new refusal without words fails here."""
    keys = {}
    for where, call in _calls(REFUSERS):
        func = call.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
        key = next((k.value for k in call.keywords if k.arg == "key"), None)
        if key is None and len(call.args) > REFUSERS[name]:
            key = call.args[REFUSERS[name]]
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            keys[key.value] = where
    return keys


def engine_event_kinds() -> set[str]:
    """Every kind of event the engine makes (``Event("kind", ...)``), from its source."""
    kinds = set()
    for path in sorted((ROOT / "companion" / "engine").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "Event"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                kinds.add(node.args[0].value)
    return kinds


def test_every_refusal_the_table_may_send_as_data_has_its_words(
    books: dict[str, dict[str, str]],
) -> None:
    keys = refusal_keys()
    assert {"turn.not_yours", "undo.not_yours", "game.moved_on"} <= set(keys)  # the search works
    for lang, book in books.items():
        missing = sorted(
            f"refusal.{k} ({where})" for k, where in keys.items() if f"refusal.{k}" not in book
        )
        assert not missing, f"{lang}: {missing}"
    # What a refusal without words falls back to, and every HTTP error the page may meet.
    needed = {"refusal.other", *(f"error.{s}" for s in (400, 403, 404, 413, 415, 422, 429, 503))}
    assert not sorted(needed - set(books["en"]))


def test_every_event_the_engine_makes_has_its_words(books: dict[str, dict[str, str]]) -> None:
    kinds = engine_event_kinds()
    assert {"eaten", "spun", "dived", "boarded_all", "laid", "result"} <= kinds
    missing = sorted(f"event.{k}" for k in kinds if f"event.{k}" not in books["en"])
    assert not missing, missing
    stream = (JS / "stream.js").read_text(encoding="utf-8")
    listed = stream[stream.index("HAPPENINGS = [") : stream.index("];", stream.index("HAPPENINGS"))]
    unfollowed = kinds - set(re.findall(r'"([a-z_]+)"', listed))
    assert not unfollowed, f"the page does not follow {sorted(unfollowed)}"


def test_french_puts_a_non_breaking_space_before_its_double_punctuation(
    books: dict[str, dict[str, str]],
) -> None:
    plain = sorted(k for k, v in books["fr"].items() if re.search(r" [:;!?]", v))
    assert not plain, plain
