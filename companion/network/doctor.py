"""`companion doctor`'s network checks: can this Pi be the table's own Wi-Fi, is it now, and
is what the captive portal needs installed."""

from __future__ import annotations

import socket
from pathlib import Path

from ..config import Config
from ..doctor import Check
from . import files, identity
from .nmcli import HOTSPOT, NetworkManager, NetworkManagerError, NoNetworkManager


def hotspot(config: Config, nm: NetworkManager | None = None) -> Check:
    mode = config["network.hotspot"]
    if mode == "off":
        return Check(
            "hotspot", "ok", 'off ([network] hotspot = "off"): phones join the Pi\'s network'
        )
    bad = "fail" if mode == "on" else "warn"
    nm = nm or NetworkManager()
    try:
        if not nm.running():
            return Check("hotspot", bad, "NetworkManager is not running",
                         "sudo systemctl enable --now NetworkManager (Raspberry Pi OS Bookworm uses it)")  # fmt: skip
        device = nm.wifi_device(config["network.interface"])
        if device is None:
            return Check("hotspot", bad, "NetworkManager knows no Wi-Fi device",
                         "is Wi-Fi blocked? rfkill list; sudo raspi-config sets the Wi-Fi country")  # fmt: skip
        if not nm.can_host_ap(device.name):
            return Check("hotspot", bad, f"{device.name} cannot host an access point (its driver says no)",
                         "use a Pi with built-in Wi-Fi (3, 4, 5, Zero 2 W) or an adapter that supports AP mode")  # fmt: skip
        active = nm.active()
    except NoNetworkManager as e:
        return Check(
            "hotspot",
            bad,
            str(e),
            "Raspberry Pi OS Bookworm has it: sudo apt install network-manager",
        )
    except NetworkManagerError as e:
        return Check("hotspot", bad, f"nmcli: {e}", "see `companion hotspot status`")
    up = any(a.name == HOTSPOT for a in active)
    others = [
        f"{a.name} ({a.device})"
        for a in active
        if a.name != HOTSPOT and a.device and a.type != "loopback"
    ]
    ssid = identity.ssid()
    state = f"up as {ssid}" if up else f"down (would be {ssid})"
    text = (
        f'[network] hotspot = "{mode}"; {device.name} can host an access point; hotspot {state}; '
        + (f"other networks: {', '.join(others)}" if others else "no other network")
    )
    return Check("hotspot", "ok", text)


def portal(config: Config, root: Path = Path("/")) -> Check:
    """The files `companion hotspot install` writes, and the name atlantis.local."""
    if config["network.hotspot"] == "off":
        return Check("portal", "ok", "not needed: the hotspot is off")
    missing = [
        str(path)
        for path in (files.DNSMASQ_PATH, files.AVAHI_PATH, files.POLKIT_PATH)
        if not (root / path.relative_to("/")).is_file()
    ]
    if missing:
        return Check("portal", "warn", f"not installed: {', '.join(missing)}",
                     "sudo companion hotspot install (then phones' probes lead to the page)")  # fmt: skip
    name = socket.gethostname().split(".")[0]
    if name != identity.HOSTNAME:
        return Check("portal", "warn", f"files installed; this Pi is called {name}, so the page is "
                     f"http://{name}.local, not http://{identity.HOSTNAME}.local",
                     f"sudo hostnamectl set-hostname {identity.HOSTNAME}")  # fmt: skip
    return Check(
        "portal", "ok",
        f"files installed; the page is http://{identity.HOSTNAME}.local on the hotspot, "
        f"http://{identity.HOSTNAME}.local:{config['web.port']} on the home network",
    )  # fmt: skip
