"""The table PIN and the cookie-signing secret: from the config, or made once and kept.

Phones keep their seats through signed cookies; if the secret changed at every start, a power cut
would throw every player out of their seat. So a value not set in ``[security]`` is generated at
the first start and kept in ``security.json`` in the state directory, written atomically and
readable by the service's user only.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

FILENAME = "security.json"
PIN_DIGITS = 6


@dataclass(frozen=True)
class Security:
    pin: str
    secret: str
    path: Path
    """The file that keeps generated values (it may not exist when the config sets both)."""
    generated: tuple[str, ...] = ()
    """Which values were made at this start (first start, or the file was lost)."""


def atomic_write(path: Path, data: bytes, mode: int = 0o600) -> None:
    """Write `data` to `path` so that a power cut leaves the old file or the new, never half.

    Temp file in the same directory, fsync, os.replace, then fsync the directory so that the
    rename itself is on disk (pi-ecosystem.md §6.2).
    """
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    dir_fd = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def _read(path: Path) -> dict[str, str]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as e:
        log.warning("%s cannot be read (%s): new values are made; phones must join again", path, e)
        return {}
    if not isinstance(data, dict):
        log.warning("%s holds no object: new values are made; phones must join again", path)
        return {}
    # Keep only values of the right form; a hand-edited bad PIN is replaced, not trusted.
    out = {}
    if _good_pin(data.get("pin")):
        out["pin"] = data["pin"]
    if isinstance(data.get("secret"), str) and len(data["secret"]) >= 16:
        out["secret"] = data["secret"]
    return out


def _good_pin(value: object) -> bool:
    return isinstance(value, str) and value.isdigit() and 6 <= len(value) <= 8


def load(state_dir: Path, pin: str | None = None, secret: str | None = None) -> Security:
    """The PIN and secret in force: the config's if set, else the kept ones, else new ones."""
    path = state_dir / FILENAME
    state_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    kept = _read(path)
    if kept and path.stat().st_mode & (stat.S_IRWXG | stat.S_IRWXO):
        log.warning("%s was readable by others; it is now readable by its owner only", path)
        os.chmod(path, 0o600)
    generated = []
    if "pin" not in kept and pin is None:
        kept["pin"] = f"{secrets.randbelow(10**PIN_DIGITS):0{PIN_DIGITS}d}"
        generated.append("pin")
    if "secret" not in kept and secret is None:
        kept["secret"] = secrets.token_urlsafe(32)
        generated.append("secret")
    if generated:
        atomic_write(path, (json.dumps(kept, indent=1) + "\n").encode("utf-8"))
    return Security(pin or kept["pin"], secret or kept["secret"], path, tuple(generated))
