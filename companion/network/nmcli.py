"""The one place that speaks to NetworkManager: ``nmcli`` commands and what their answers mean.

Every command is built here and nowhere else, in the grammar of nmcli(1) and the property
names of nm-settings-nmcli(5), so that the tests can check each one against that grammar (a
recorded-call double stands on PATH, as gpiozero's MockFactory stands for pins) and against the
real nmcli's ``--offline`` parser where it is installed. Answers are asked for with ``-g``
(values only, ``:`` separated, ``\\:`` and ``\\\\`` escaped), which is nmcli's stable form for
scripts.
"""

from __future__ import annotations

import ipaddress
import shutil
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass

PROGRAM = "nmcli"
HOTSPOT = "atlantis-hotspot"
"""The name of the companion's connection profile: it owns only this one."""
WAIT = 30
"""Seconds nmcli may wait for an activation (its own default is 90)."""

Runner = Callable[..., "subprocess.CompletedProcess[str]"]


class NetworkManagerError(Exception):
    """nmcli failed; the message is nmcli's own ``Error: ...`` line."""


class NoNetworkManager(NetworkManagerError):
    """nmcli is not installed, or NetworkManager is not running."""


@dataclass(frozen=True)
class Device:
    name: str
    type: str
    state: str
    connection: str


@dataclass(frozen=True)
class Active:
    name: str
    type: str
    device: str


@dataclass(frozen=True)
class Profile:
    """The hotspot's connection profile, in nm-settings-nmcli(5)'s property names."""

    ssid: str
    password: str
    interface: str
    address: str
    """The Pi's fixed address on the hotspot, as ``A.B.C.D``; the network is its /24."""

    def settings(self) -> list[str]:
        # WPA2 only (proto rsn, CCMP): some phones refuse a hotspot that also offers WPA1/TKIP,
        # and `nmcli device wifi hotspot` chooses the same for that reason. NetworkManager's
        # `shared` method gives the phones DHCP and DNS (its own dnsmasq) and NAT.
        ipaddress.IPv4Address(self.address)
        return [
            "connection.autoconnect", "no",
            "connection.interface-name", self.interface,
            "802-11-wireless.ssid", self.ssid,
            "802-11-wireless.mode", "ap",
            "802-11-wireless.band", "bg",
            "802-11-wireless-security.key-mgmt", "wpa-psk",
            "802-11-wireless-security.proto", "rsn",
            "802-11-wireless-security.pairwise", "ccmp",
            "802-11-wireless-security.group", "ccmp",
            "802-11-wireless-security.psk", self.password,
            "ipv4.method", "shared",
            "ipv4.addresses", f"{self.address}/24",
            "ipv6.method", "disabled",
        ]  # fmt: skip


def add_command(profile: Profile, name: str = HOTSPOT) -> list[str]:
    return ["connection", "add", "type", "wifi", "con-name", name, *profile.settings()]


def split_terse(line: str) -> list[str]:
    """One line of ``-g``/``-t`` output as its fields (``\\:`` is a colon inside a field)."""
    fields, field, escaped = [], [], False
    for ch in line:
        if escaped:
            field.append(ch)
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch == ":":
            fields.append("".join(field))
            field = []
        else:
            field.append(ch)
    fields.append("".join(field))
    return fields


class NetworkManager:
    """NetworkManager through nmcli; `run` is subprocess.run unless a test hands in another."""

    def __init__(self, program: str = PROGRAM, run: Runner = subprocess.run) -> None:
        self.program = program
        self.run = run

    def call(self, args: Sequence[str], timeout: float = WAIT + 10) -> str:
        if shutil.which(self.program) is None:
            raise NoNetworkManager(f"{self.program} is not installed (apt install network-manager)")
        try:
            done = self.run(
                [self.program, *args], capture_output=True, text=True, timeout=timeout, check=False
            )
        except subprocess.TimeoutExpired:
            raise NetworkManagerError(
                f"nmcli {args[0]} did not answer within {timeout} s"
            ) from None
        if done.returncode != 0:
            message = (done.stderr or done.stdout).strip() or f"exit status {done.returncode}"
            # nmcli's exit status 8: NetworkManager is not running (nmcli(1), EXIT STATUS);
            # without its D-Bus socket at all, nmcli cannot even make its client (status 1).
            if done.returncode == 8 or "Could not create NMClient" in message:
                raise NoNetworkManager(message)
            raise NetworkManagerError(message)
        return str(done.stdout)

    def rows(self, fields: str, *args: str) -> list[list[str]]:
        out = self.call(["-g", fields, *args])
        return [split_terse(line) for line in out.splitlines() if line]

    # -- what there is -------------------------------------------------------------------

    def running(self) -> bool:
        """Whether NetworkManager runs (nmcli answers ``running``)."""
        try:
            return self.call(["-g", "RUNNING", "general"]).strip() == "running"
        except NoNetworkManager as e:
            if "not installed" in str(e):
                raise
            return False

    def devices(self) -> list[Device]:
        return [Device(*row[:4]) for row in self.rows("DEVICE,TYPE,STATE,CONNECTION", "device")]

    def wifi_device(self, preferred: str) -> Device | None:
        """`preferred` if it is a Wi-Fi device, else the first Wi-Fi device, else None."""
        wifi = [d for d in self.devices() if d.type == "wifi"]
        return next((d for d in wifi if d.name == preferred), wifi[0] if wifi else None)

    def can_host_ap(self, device: str) -> bool:
        """The driver's answer to "may this device be an access point" (WIFI-PROPERTIES.AP)."""
        out = self.call(["-g", "WIFI-PROPERTIES.AP", "device", "show", device]).strip()
        return out == "yes"

    def active(self) -> list[Active]:
        return [
            Active(*row[:3])
            for row in self.rows("NAME,TYPE,DEVICE", "connection", "show", "--active")
        ]

    def profiles(self) -> list[str]:
        return [row[0] for row in self.rows("NAME", "connection", "show")]

    # -- the hotspot -----------------------------------------------------------------------

    def save(self, profile: Profile, name: str = HOTSPOT) -> str:
        """Write the hotspot's profile (added, or brought up to date); "added" or "modified"."""
        if name in self.profiles():
            self.call(["connection", "modify", name, *profile.settings()])
            return "modified"
        self.call(add_command(profile, name))
        return "added"

    def up(self, name: str = HOTSPOT) -> None:
        self.call(["--wait", str(WAIT), "connection", "up", name])

    def down(self, name: str = HOTSPOT) -> None:
        self.call(["--wait", str(WAIT), "connection", "down", name])
