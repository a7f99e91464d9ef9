"""The configuration file: where it is looked for, every key's default, and checking it at start.

One TOML file, found at ``--config``, then ``$COMPANION_CONFIG``, then
``/etc/companion/companion.toml``, then ``~/.config/companion/companion.toml``; with none, the
built-in defaults. An unknown key or a bad value stops the start with one message that names
the key and the form expected.
"""

from __future__ import annotations

import ipaddress
import os
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SEARCH = ("/etc/companion/companion.toml", "~/.config/companion/companion.toml")


def state_directory() -> Path:
    """systemd's StateDirectory= when run as a service, else the user's data folder."""
    if os.environ.get("STATE_DIRECTORY"):
        return Path(os.environ["STATE_DIRECTORY"].split(":")[0])
    base = os.environ.get("XDG_STATE_HOME") or os.path.expanduser("~/.local/state")
    return Path(base) / "companion"


class ConfigError(Exception):
    """A configuration the companion cannot start with; the message says what to change."""


Check = Callable[[Any], bool]


def _one_of(*values: str) -> tuple[Check, str]:
    return (lambda v: v in values), "one of " + ", ".join(f'"{v}"' for v in values)


def _text() -> tuple[Check, str]:
    return (lambda v: isinstance(v, str) and v != ""), "a non-empty string"


def _port() -> tuple[Check, str]:
    return (lambda v: isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 65535), (
        "a whole number from 1 to 65535"
    )


def _threads() -> tuple[Check, str]:
    return (lambda v: isinstance(v, int) and not isinstance(v, bool) and 4 <= v <= 256), (
        "a whole number from 4 to 256"
    )


def _short_seconds() -> tuple[Check, str]:
    return (lambda v: isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 120), (
        "a whole number of seconds from 1 to 120"
    )


def _camera() -> tuple[Check, str]:
    pattern = re.compile(r"^(picamera2|none|usb:\d+|files:.+)$")
    return (lambda v: isinstance(v, str) and bool(pattern.match(v))), (
        '"picamera2", "usb:N" (N a number), "files:PATH" or "none"'
    )


def _pin() -> tuple[Check, str]:
    return (lambda v: isinstance(v, str) and v.isdigit() and 6 <= len(v) <= 8), (
        "6 to 8 digits, as a string (a shorter PIN is guessed in hours)"
    )


def _seconds() -> tuple[Check, str]:
    return (lambda v: isinstance(v, int) and not isinstance(v, bool) and 5 <= v <= 3600), (
        "a whole number of seconds from 5 to 3600"
    )


def _ipv4() -> tuple[Check, str]:
    def check(v: Any) -> bool:
        try:
            return isinstance(v, str) and ipaddress.IPv4Address(v).is_private
        except ValueError:
            return False

    return check, 'a private IPv4 address such as "10.42.0.1"'


def _portal_port() -> tuple[Check, str]:
    return (lambda v: isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 65535), (
        "80, another port, or 0 for none"
    )


def _percent() -> tuple[Check, str]:
    return (lambda v: isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 100), (
        "a whole number from 0 to 100"
    )


def _optional_text() -> tuple[Check, str]:
    return (lambda v: v is None or (isinstance(v, str) and v != "")), "a non-empty string"


# section -> key -> (default, (check, expected form))
KEYS: dict[str, dict[str, tuple[Any, tuple[Check, str]]]] = {
    "store": {"path": (None, _optional_text())},
    "web": {
        "host": (None, _optional_text()),
        "port": (8000, _port()),
        "threads": (16, _threads()),
        # A phone's patience: the stream pings every `ping` s (a page hearing nothing for 2.5
        # pings stops saying "live"), and a tap waits `wait` s for the table before it says so.
        "ping": (15, _short_seconds()),
        "wait": (12, _short_seconds()),
    },
    "panel": {
        "kind": ("none", _one_of("gpio", "serial", "sim", "none")),
        "port": ("auto", _text()),
        "pinout": (None, _optional_text()),
    },
    "camera": {"source": ("none", _camera()), "calibration": (None, _optional_text())},
    "game": {
        "language": ("en", _one_of("en", "es", "fr")),
        "tile_mode": ("physical", _one_of("physical", "digital")),
    },
    "security": {"pin": (None, _pin()), "secret": (None, _optional_text())},
    "network": {
        "hotspot": ("auto", _one_of("auto", "on", "off")),
        "interface": ("wlan0", _text()),
        "address": ("10.42.0.1", _ipv4()),
        "wait": (45, _seconds()),
        "portal_port": (80, _portal_port()),
    },
    "voice": {
        "outlet": ("none", _one_of("none", "pi", "screen", "both")),
        "volume": (80, _percent()),
        "verbosity": ("events", _one_of("turns", "events", "all")),
    },
}


@dataclass(frozen=True)
class Config:
    """Every key, with the file's value or the default; `source` is the file read, if any."""

    values: dict[str, dict[str, Any]]
    source: Path | None

    def __getitem__(self, dotted: str) -> Any:
        section, key = dotted.split(".")
        return self.values[section][key]

    @property
    def state_dir(self) -> Path:
        return state_directory()

    @property
    def store_path(self) -> Path:
        path = self["store.path"]
        return Path(path).expanduser() if path else self.state_dir / "games.db"


def find(explicit: str | None) -> Path | None:
    """The file to read: --config, $COMPANION_CONFIG, then the usual places; None if none."""
    if explicit:
        path = Path(explicit).expanduser()
        if not path.is_file():
            raise ConfigError(f"the configuration file {path} does not exist")
        return path
    env = os.environ.get("COMPANION_CONFIG")
    if env:
        path = Path(env).expanduser()
        if not path.is_file():
            raise ConfigError(f"COMPANION_CONFIG names {path}, which does not exist")
        return path
    for candidate in SEARCH:
        path = Path(candidate).expanduser()
        if path.is_file():
            return path
    return None


def parse(data: dict[str, Any], source: Path | None = None) -> Config:
    """Check every section and key; ConfigError names the first one that is wrong."""
    where = f" in {source}" if source else ""
    values = {section: {k: d for k, (d, _) in keys.items()} for section, keys in KEYS.items()}
    for section, table in data.items():
        if section not in KEYS:
            raise ConfigError(
                f"unknown section [{section}]{where}; sections: "
                + ", ".join(f"[{s}]" for s in KEYS)
            )
        if not isinstance(table, dict):
            raise ConfigError(f"[{section}]{where} must be a table of keys")
        for key, value in table.items():
            if key not in KEYS[section]:
                known = ", ".join(KEYS[section])
                raise ConfigError(f"unknown key {section}.{key}{where}; [{section}] has: {known}")
            check, form = KEYS[section][key][1]
            if not check(value):
                raise ConfigError(f"{section}.{key}{where} must be {form}, not {value!r}")
            values[section][key] = value
    return Config(values, source)


def load(explicit: str | None = None, overrides: dict[str, dict[str, Any]] | None = None) -> Config:
    path = find(explicit)
    data: dict[str, Any] = {}
    if path is not None:
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as e:
            raise ConfigError(f"{path} is not valid TOML: {e}") from None
        except OSError as e:
            raise ConfigError(f"cannot read {path}: {e.strerror}") from None
    for section, table in (overrides or {}).items():
        data.setdefault(section, {}).update(table)
    return parse(data, path)
