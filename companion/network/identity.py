"""The hotspot's name and password, and the Wi-Fi QR code's text.

The name is ``Atlantis-XXXX``, XXXX the last four hex digits of the Pi's serial number, so two
tables in one club room are told apart and a table keeps its name across reinstalls. The WPA2
password is made at the first start and kept in ``network.json`` in the state directory, beside
the PIN's ``security.json``, so the printed card stays true until ``companion card
--new-password`` makes a new one.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
from dataclasses import dataclass
from pathlib import Path

from ..security import atomic_write

log = logging.getLogger(__name__)

FILENAME = "network.json"
HOSTNAME = "atlantis"
"""The Pi's host name, which avahi announces as ``atlantis.local`` (see the README)."""
PREFIX = "Atlantis-"
SERIAL_FILES = (Path("/sys/firmware/devicetree/base/serial-number"), Path("/proc/cpuinfo"))
MACHINE_ID = Path("/etc/machine-id")
# Letters and digits that cannot be mistaken for one another when read off a card (no 0/o,
# 1/l/i, 5/s, 2/z): 28 symbols, 12 of them ≈ 57 bits, well past what WPA2 needs.
ALPHABET = "346789abcdefghjkmnpqrtuvwxy"
GROUPS, GROUP = 3, 4
_HEX = re.compile(r"[0-9a-fA-F]{4,}")


@dataclass(frozen=True)
class WifiNetwork:
    ssid: str
    password: str

    def qr_data(self) -> str:
        """The text of the Wi-Fi QR code, which phone cameras offer to join (``WIFI:T:WPA;...``)."""
        from segno import helpers

        data: str = helpers.make_wifi_data(ssid=self.ssid, password=self.password, security="WPA")
        return data


def serial_number(files: tuple[Path, ...] = SERIAL_FILES, machine_id: Path = MACHINE_ID) -> str:
    """The Pi's serial number (device tree, else /proc/cpuinfo's ``Serial``), else — on a
    machine that is no Pi — the machine id, so the name is still stable on this machine."""
    for path in files:
        try:
            text = path.read_text(errors="replace").replace("\0", "")
        except OSError:
            continue
        if path.name == "cpuinfo":
            found = re.search(r"^Serial\s*:\s*([0-9a-fA-F]+)\s*$", text, re.MULTILINE)
            text = found.group(1) if found else ""
        text = text.strip()
        if _HEX.fullmatch(text) and text.strip("0"):
            return text.lower()
    try:
        text = machine_id.read_text().strip()
    except OSError:
        text = ""
    return text.lower() if _HEX.fullmatch(text) else "0000"


def ssid(serial: str | None = None) -> str:
    return PREFIX + (serial or serial_number())[-4:].upper()


def new_password() -> str:
    groups = ("".join(secrets.choice(ALPHABET) for _ in range(GROUP)) for _ in range(GROUPS))
    return "-".join(groups)


def good_password(value: object) -> bool:
    """WPA2 asks 8 to 63 printable ASCII characters."""
    return (
        isinstance(value, str) and 8 <= len(value) <= 63 and value.isascii() and value.isprintable()
    )


def load(state_dir: Path, renew: bool = False, serial: str | None = None) -> WifiNetwork:
    """The table's network: its name, and the kept password (made now if there is none, if the
    kept one is unreadable, or if `renew` asks for a new one)."""
    path = state_dir / FILENAME
    kept: dict[str, str] = {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and good_password(data.get("password")):
            kept["password"] = data["password"]
        else:
            log.warning("%s holds no good password: a new one is made", path)
    except FileNotFoundError:
        pass
    except (OSError, ValueError) as e:
        log.warning("%s cannot be read (%s): a new password is made", path, e)
    if renew or "password" not in kept:
        kept["password"] = new_password()
        state_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        atomic_write(path, (json.dumps(kept, indent=1) + "\n").encode("utf-8"))
    return WifiNetwork(ssid(serial), kept["password"])
