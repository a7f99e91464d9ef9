"""Where the phone page's files are: the packaged copy in a wheel, else the repository's ``web/``.

A wheel carries ``web/`` as ``companion/_web`` (pyproject.toml, force-include); a source
checkout (or an editable install) has it beside the package. The packaged copy comes first: a
folder named ``web`` beside an installed package could be anybody's.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent
PACKAGED = PACKAGE / "_web"
CHECKOUT = PACKAGE.parent / "web"


def web_folder() -> Path:
    """The folder holding ``templates/``, ``static/`` and ``i18n/``."""
    for folder in (PACKAGED, CHECKOUT):
        if (folder / "templates").is_dir():
            return folder
    # Neither: serve from the checkout's place anyway; the page answers 500 and `companion
    # doctor`'s reader sees which folder was looked for.
    return CHECKOUT
