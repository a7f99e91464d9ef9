"""Helpers for the daemon's tests: a systemd-like notify socket, free ports, a served daemon."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

COMPANION = Path(sys.executable).parent / "companion"
"""The console script of this venv: what systemd's ExecStart= runs."""


@contextmanager
def notify_socket() -> Iterator[tuple[socket.socket, str]]:
    """A bound AF_UNIX datagram socket, as systemd's, and its path for $NOTIFY_SOCKET.

    In a short folder of its own: a socket path may not exceed 107 bytes, and pytest's tmp_path
    can be longer.
    """
    folder = tempfile.mkdtemp(prefix="n", dir="/tmp")
    path = os.path.join(folder, "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    try:
        yield sock, path
    finally:
        sock.close()
        shutil.rmtree(folder, ignore_errors=True)


def receive(sock: socket.socket, until: Callable[[str], bool], timeout: float = 5.0) -> list[str]:
    """Datagrams received until one satisfies `until` (included); AssertionError at the deadline."""
    deadline = time.monotonic() + timeout
    got: list[str] = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no matching notification within {timeout} s; got {got}")
        sock.settimeout(left)
        try:
            message = sock.recv(4096).decode()
        except TimeoutError:
            continue
        got.append(message)
        if until(message):
            return got


def drain(sock: socket.socket, seconds: float) -> list[str]:
    """Every datagram that arrives within `seconds`."""
    deadline = time.monotonic() + seconds
    got = []
    while (left := deadline - time.monotonic()) > 0:
        sock.settimeout(left)
        try:
            got.append(sock.recv(4096).decode())
        except TimeoutError:
            break
    return got


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def http_get(url: str, timeout: float = 2.0) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def wait_http_200(base: str, paths: tuple[str, ...], timeout: float = 10.0) -> tuple[str, bytes]:
    """Poll until one of `paths` answers 200; the path and body. Fails at the deadline."""
    deadline = time.monotonic() + timeout
    last: object = None
    while time.monotonic() < deadline:
        for path in paths:
            try:
                status, body = http_get(base + path)
            except OSError as e:  # not listening yet
                last = e
                break
            if status == 200:
                return path, body
            last = status
        time.sleep(0.05)
    raise AssertionError(f"no HTTP 200 from {base} {paths} within {timeout} s (last: {last})")


def write_config(folder: Path, port: int, extra: str = "") -> Path:
    path = folder / "companion.toml"
    # A daemon under test never changes this machine's network, unless the test says how.
    network = "" if "[network]" in extra else '\n[network]\nhotspot = "off"\n'
    path.write_text(
        f'[store]\npath = "{folder / "games.db"}"\n\n[web]\nhost = "127.0.0.1"\nport = {port}\n'
        + network
        + extra,
        encoding="utf-8",
    )
    return path


def environment(folder: Path, **extra: str) -> dict[str, str]:
    """The environment of a companion started by a test: nothing of the user's leaks in."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NOTIFY_", "WATCHDOG_"))}
    env.pop("COMPANION_CONFIG", None)
    env.update(HOME=str(folder), STATE_DIRECTORY=str(folder), PYTHONUNBUFFERED="1")
    env.update(extra)
    return env


@contextmanager
def running(args: list[str], env: dict[str, str]) -> Iterator[subprocess.Popen[str]]:
    """`companion ARGS` as its own process, output captured and stdin closed (the demo reads
    keys from a terminal); killed on the way out if the test has not stopped it."""
    proc = subprocess.Popen(
        [str(COMPANION), *args],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def stop(proc: subprocess.Popen[str], timeout: float = 10.0) -> tuple[int, str, str]:
    """SIGTERM, as systemd stops a service; exit status and output."""
    proc.send_signal(signal.SIGTERM)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        raise AssertionError(f"no exit within {timeout} s of SIGTERM; stderr: {err}") from None
    return proc.returncode, out, err
