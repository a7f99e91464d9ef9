"""The daemon and the phone page: the banner prints the address, its QR code and the PIN; the
page shows the same address; a SIGTERM ends the open event streams at once."""

from __future__ import annotations

import io
import os
import signal
import threading
import time
from pathlib import Path

from companion import config, daemon
from tests.daemon_support import free_port
from tests.web_support import Stream, wait_for


def test_the_banner_prints_the_url_its_qr_code_and_the_pin_and_sigterm_ends_the_streams(
    tmp_path: Path,
) -> None:
    port = free_port()
    out = io.StringIO()
    cfg = config.parse({"web": {"port": port}})
    d = daemon.Daemon(cfg, "127.0.0.1", tmp_path / "games.db", tmp_path, out=out, err=io.StringIO())
    url = f"http://127.0.0.1:{port}/"
    seen: dict[str, object] = {}

    def phone_then_sigterm() -> None:
        """A phone opens the stream; then systemd stops the service."""
        try:
            wait_for(lambda: d.app is not None and d.app.config["TABLE_URLS"], 10)
            stream = Stream(port, "/api/stream").start()
            seen["stream"] = stream
            wait_for(lambda: stream.events, 5, "the stream's snapshot")
        finally:
            seen["killed"] = time.monotonic()
            os.kill(os.getpid(), signal.SIGTERM)

    visitor = threading.Thread(target=phone_then_sigterm)
    visitor.start()
    status = daemon.run(d)  # serves in this (the main) thread until the SIGTERM
    stopped = time.monotonic()
    visitor.join(5)
    assert status == 0
    stream = seen["stream"]
    assert isinstance(stream, Stream) and stream.done.wait(1)
    # Ended by the stop, not by the stream's next ping (15 s) nor waitress's wait for it (5 s).
    assert stopped - float(seen["killed"]) < 3  # type: ignore[arg-type]
    stream.close()
    assert d.security is not None and d.app is not None
    printed = out.getvalue()
    assert url in printed and f"table PIN: {d.security.pin}" in printed
    qr = daemon.terminal_qr(url)
    assert qr.count("\n") > 10 and "\x1b" not in qr  # half blocks, no colour codes
    assert qr in printed
    assert d.app.config["TABLE_URLS"] == d.urls == [url]
