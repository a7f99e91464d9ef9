"""The fixtures of the phone page's tests (``pytest_plugins = ["tests.page_fixtures"]``).

- ``browser``: one Debian chromium for the whole run, driven by Playwright; the fixture fails,
  saying what to install, when ``/usr/bin/chromium`` is missing (``make test`` installs it
  when run as root; ``playwright install`` is never needed);
- ``live``: a real Table and Store in ``tmp_path``, the companion's web app around it served by
  waitress on 127.0.0.1 (a free port), with a PIN the test knows and the loopback trust turned
  off, so that the page joins with the PIN like a phone on the Wi-Fi.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

from tests.page_support import CHROMIUM, CHROMIUM_ARGS, Live, serving


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail(
            f"{CHROMIUM} is missing: the phone page's tests drive Debian's chromium. Install it "
            "with `sudo apt-get install chromium` (or run `make test` as root, which does), and "
            "do not run `playwright install`.",
            pytrace=False,
        )
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def live(tmp_path: Path) -> Iterator[Live]:
    with serving(tmp_path) as served:
        yield served
