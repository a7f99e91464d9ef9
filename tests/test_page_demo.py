"""`companion demo` — what `make demo` runs — serves the page: started as a subprocess on a
free port, it prints the address, the QR code and the PIN, and a phone (chromium at 360×640)
joins with that PIN, takes a seat in the demo game and places a person."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from tests.page_support import Phone, no_page_errors, no_small_targets

pytest_plugins = ["tests.page_fixtures"]
pytestmark = pytest.mark.page

COMPANION = Path(sys.executable).parent / "companion"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def demo(tmp_path: Path) -> Iterator[tuple[str, str, str]]:
    """The demo running: its URL, PIN and everything it printed until ready."""
    port = free_port()
    env = {**os.environ, "HOME": str(tmp_path), "XDG_STATE_HOME": str(tmp_path / "state")}
    process = subprocess.Popen(
        [str(COMPANION), "demo", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    assert process.stdout is not None
    printed: list[str] = []

    def read() -> None:
        for line in process.stdout or []:
            printed.append(line)

    # Read on a thread: a demo that stops printing must fail the test, not hang it.
    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 30
        while not any(line.startswith("\u2580") for line in printed):  # the QR code's last row
            assert process.poll() is None, "".join(printed)
            assert time.monotonic() < deadline, f"the demo did not get ready:\n{''.join(printed)}"
            time.sleep(0.05)
        text = "".join(printed)
        pin = re.search(r"table PIN: (\d+)", text)
        assert pin, f"the demo printed no PIN:\n{text}"
        yield f"http://127.0.0.1:{port}/", pin.group(1), text
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)
        reader.join(5)


def test_the_demo_prints_its_address_and_pin_and_the_page_plays(
    browser: Browser, demo: tuple[str, str, str]
) -> None:
    url, pin, printed = demo
    assert url in printed
    assert "Scan to open" in printed and "\u2588" in printed, "a QR code in the terminal"
    phone = Phone.open(browser, url, "demo")
    page = phone.page
    assert page.locator(".qr svg").count() == 1  # the same QR code, for the next phone
    phone.shot("demo-join")
    phone.join(pin)
    phone.take_seat(1)  # Ana, in the demo's game
    assert phone.phase == "place" and phone.mine
    phone.shot("demo-play")
    before = phone.seq
    page.click("[data-target] >> nth=0")
    phone.settle(before)
    assert not phone.mine  # Ben places next
    phone.close()
    no_page_errors(phone)
    no_small_targets(phone)
