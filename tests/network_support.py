"""Helpers for the network's tests: the nmcli double on PATH, with a Pi's Wi-Fi device."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests import nmcli_double

WLAN = {"name": "wlan0", "type": "wifi", "ap": True}
ETH = {"name": "eth0", "type": "ethernet"}
HOME = {
    "type": "802-11-wireless",
    "802-11-wireless.ssid": "Home",
    "connection.interface-name": "wlan0",
}


class Double:
    """The nmcli double's files and environment."""

    def __init__(self, folder: Path) -> None:
        self.env = nmcli_double.install(folder)
        self.state_path = Path(self.env["NMCLI_DOUBLE_STATE"])
        self.log_path = Path(self.env["NMCLI_DOUBLE_LOG"])

    def write(self, **state: Any) -> None:
        nmcli_double.write_state(self.state_path, **state)

    def state(self) -> dict[str, Any]:
        return nmcli_double.read_state(self.state_path)

    def calls(self) -> list[list[str]]:
        return nmcli_double.calls(self.log_path)
