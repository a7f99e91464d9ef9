"""What a Spanish or French phone must never show: an English sentence or the table's raw
notation. Used by the page tests that play in those languages (tests/test_page_words.py).

- `english(text)`: the words of `text` that only English uses — built from the catalogues
  themselves: every word of web/i18n/en.json that neither es.json nor fr.json contains;
- `raw(text)`: pieces of the engine's notation (people ``A2``, boats ``b8``, ``shark2``, ``roll
  shark``, ``seat 3``), a placeholder or a key left unworded, ``undefined``;
- `seen(page)`: everything the page shows or says — its text, and the names, titles and
  placeholders of its elements — to be checked with both.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

from playwright.sync_api import Page

from tests.page_support import Phone

I18N = Path(__file__).resolve().parent.parent / "web" / "i18n"
WORD = re.compile(r"[^\W\d_]+")
NAMES = {"ana", "ben", "cleo", "dario", "eva", "atlantis", "survive", "escape", "flotilla", "pin"}
"""Names the tests give players, and the games' own names: the same in every language."""

RAW = [
    re.compile(r"\b[A-F]\d{1,2}\b"),  # a person's id
    re.compile(r"\bb\d{1,2}\b"),  # a boat's id
    re.compile(r"\b(?:shark|whale|serpent|dolphin|squid)\d\b"),  # a creature's id
    re.compile(
        r"\b(?:move|go|board|sail|sink|roll|place|creature|put|spin|dive|back|terrain|ride|take|"
        r"pick|grab|protect|reveal|play)\s+(?:[A-F]\d|b\d|\d+\.\d+|shark|whale|serpent|dolphin|"
        r"squid|boat|starfish|beach|forest|mountain|red)\b"
    ),
    re.compile(r"\bseat \d"),
    re.compile(r"\{\w+\}"),  # a placeholder left in
    re.compile(r"\b(?:undefined|null|NaN)\b|\[object Object\]"),
    re.compile(r"\b[a-z]+\.[a-z_]+\.[a-z_.@-]+\b"),  # a key shown for want of its line
]
SEEN = """() => {
  const parts = [document.body.innerText];
  for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
    if (el.closest('template')) continue;
    for (const a of ['aria-label', 'title', 'placeholder', 'alt']) {
      const v = el.getAttribute(a);
      if (v) parts.push(v);
    }
  }
  return parts.join('\\n');
}"""


def _vocabulary(lang: str) -> set[str]:
    book = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
    words: set[str] = set()
    for text in book.values():
        words |= {w.lower() for w in WORD.findall(re.sub(r"\{\w+\}", "", text))}
    return words


@functools.cache
def english_only() -> frozenset[str]:
    """The words of the English catalogue that neither Spanish nor French uses."""
    return frozenset(_vocabulary("en") - _vocabulary("es") - _vocabulary("fr") - NAMES)


def english(text: str) -> list[str]:
    """English words of three letters or more (two letters are a player's initials on the
    board: "An" for Ana)."""
    only = english_only()
    return [w for w in WORD.findall(text) if len(w) > 2 and w.lower() in only]


def raw(text: str) -> list[str]:
    return [m.group(0) for pattern in RAW for m in pattern.finditer(text)]


def seen(page: Page) -> str:
    return str(page.evaluate(SEEN))


def check(page: Page, where: str, notation: bool = True) -> str:
    """Fail when the page shows English or (with `notation`) raw notation; the text seen."""
    text = seen(page)
    assert not english(text), f"{where}: English on the page: {english(text)}\n{text}"
    if notation:
        assert not raw(text), f"{where}: raw notation on the page: {raw(text)}\n{text}"
    return text


def speak(phone: Phone, lang: str) -> None:
    """The phone's language, chosen in its status bar (and kept by the phone)."""
    phone.page.select_option("[data-field=language]", lang)
    phone.page.wait_for_selector(f"html[lang={lang}]", state="attached")
