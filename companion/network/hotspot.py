"""When the table is its own network: ``[network] hotspot = "auto" | "on" | "off"``.

`Policy` decides, from one look at NetworkManager, whether the hotspot should go up or down; it
holds no clock and does no I/O, so its tests step time by hand. `Keeper` is the daemon's thread
that looks every few seconds, asks the Policy and tells NetworkManager (through `nmcli`).

``auto``: the hotspot goes up when the Pi has had no network for ``[network] wait`` seconds (at
boot, or after losing it), and goes down as soon as another connection is up (Ethernet plugged
in). The Pi's one Wi-Fi radio cannot look for the home network while it is an access point, so
every `RECHECK` seconds, and only while no phone has the page open, the hotspot is given back
for ``wait`` seconds: NetworkManager joins a known home Wi-Fi if one is in reach, else the
hotspot comes back.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import identity
from .nmcli import HOTSPOT, NetworkManager, NetworkManagerError, NoNetworkManager, Profile

log = logging.getLogger(__name__)

RECHECK = 600.0
"""Seconds an automatic hotspot stays up before it looks for the home network again."""
INTERVAL = 5.0
"""Seconds between two looks at NetworkManager."""
HOME_TYPES = ("802-11-wireless", "802-3-ethernet", "gsm", "cdma", "bluetooth")
"""Connection types that mean "the Pi is on a network" (not loopback, bridges or tunnels)."""


@dataclass(frozen=True)
class Look:
    """What NetworkManager says now."""

    hotspot_up: bool
    home: bool
    """Another connection than the hotspot is up (the home Wi-Fi, Ethernet, ...)."""


class Policy:
    """Whether the hotspot should be up; `step` answers "up", "down" or None (leave it)."""

    def __init__(self, mode: str, wait: float, recheck: float = RECHECK) -> None:
        self.mode = mode
        self.wait = wait
        self.recheck = recheck
        self.lost_at: float | None = None
        self.up_at: float | None = None

    def step(self, now: float, look: Look, busy: bool = False) -> str | None:
        if self.mode == "on":
            return None if look.hotspot_up else "up"
        if self.mode == "off":
            return "down" if look.hotspot_up else None
        if look.home:
            self.lost_at = self.up_at = None
            return "down" if look.hotspot_up else None
        if look.hotspot_up:
            self.lost_at = None
            if self.up_at is None:
                self.up_at = now
            if not busy and now - self.up_at >= self.recheck:
                self.up_at = None
                return "down"
            return None
        self.up_at = None
        if self.lost_at is None:
            self.lost_at = now
        return "up" if now - self.lost_at >= self.wait else None


def look(nm: NetworkManager, name: str = HOTSPOT) -> Look:
    active = nm.active()
    return Look(
        hotspot_up=any(a.name == name for a in active),
        home=any(a.name != name and a.type in HOME_TYPES for a in active),
    )


def page_url(address: str, web_port: int, portal_port: int) -> str:
    """The page's address on the hotspot: port 80 when the companion listens there."""
    return f"http://{address}/" if portal_port == 80 else f"http://{address}:{web_port}/"


def name_url(web_port: int, portal_port: int) -> str:
    """The page's address by name (avahi's ``atlantis.local``), on the same port."""
    return page_url(f"{identity.HOSTNAME}.local", web_port, portal_port)


def profile(config: Any, network: identity.WifiNetwork, nm: NetworkManager) -> Profile:
    wanted = config["network.interface"]
    device = nm.wifi_device(wanted)
    if device is None:
        raise NetworkManagerError("NetworkManager knows no Wi-Fi device: there is none to host")
    return Profile(network.ssid, network.password, device.name, config["network.address"])


def hotspot_up(config: Any, state_dir: Path, nm: NetworkManager) -> identity.WifiNetwork:
    """Write the profile (the password as kept now) and bring it up; the network it is."""
    network = identity.load(state_dir)
    nm.save(profile(config, network, nm))
    nm.up()
    return network


class Keeper:
    """The daemon's thread that keeps the hotspot as ``[network] hotspot`` says.

    `active` is what the web layer reads (probe answers only while it is true); `page_url` and
    `network` are what the page and the banner show then; `on_change` is told when `active`
    changes. `busy` says whether phones have the
    page open (an automatic hotspot is not dropped under them).
    """

    def __init__(
        self,
        config: Any,
        state_dir: Path,
        web_port: int,
        busy: Callable[[], bool] = lambda: False,
        nm: NetworkManager | None = None,
        clock: Callable[[], float] = time.monotonic,
        interval: float | None = None,
        on_change: Callable[[Keeper], None] | None = None,
    ) -> None:
        self.config = config
        self.state_dir = state_dir
        self.nm = nm or NetworkManager()
        self.policy = Policy(config["network.hotspot"], float(config["network.wait"]))
        self.busy = busy
        self.clock = clock
        # Several looks within one `wait`, so that the hotspot comes up close to its time.
        self.interval = interval or min(INTERVAL, float(config["network.wait"]) / 4)
        self.on_change = on_change
        """Told each time the hotspot comes up or goes down (whoever did it): the daemon opens
        or closes the portal's port and says how to join."""
        self.page_url = page_url(config["network.address"], web_port, config["network.portal_port"])
        self.name_url = name_url(web_port, config["network.portal_port"])
        self.network = identity.load(state_dir)
        self.active = False
        self.looked = False
        self.problem = ""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def tick(self) -> str | None:
        """One look and, if the policy says so, one change; the change made (or None)."""
        was = self.active
        try:
            change = self._tick()
        finally:
            if self.active != was and self.on_change is not None:
                self.on_change(self)
        return change

    def _tick(self) -> str | None:
        try:
            # `companion card --new-password` may have changed it while the daemon runs.
            self.network = identity.load(self.state_dir)
            seen = look(self.nm)
            self.active = seen.hotspot_up
            self.looked = True
            change = self.policy.step(self.clock(), seen, self.busy())
            if change == "up":
                self.network = hotspot_up(self.config, self.state_dir, self.nm)
                why = "no other network" if self.policy.mode == "auto" else 'hotspot = "on"'
                log.warning("hotspot %s is up (%s)", self.network.ssid, why)
            elif change == "down":
                self.nm.down()
                log.warning("hotspot given back (%s)", self.policy.mode)
            if change:
                self.active = look(self.nm).hotspot_up
            self.problem = ""
            return change
        except NetworkManagerError as e:
            if str(e) != self.problem:
                # No NetworkManager at all is a machine's nature (a PC), not a failure.
                level = logging.WARNING if isinstance(e, NoNetworkManager) else logging.ERROR
                log.log(level, "hotspot: %s", e)
            self.problem = str(e)
            self.active = False
            return None

    def start(self) -> None:
        """Look and act in a thread of its own: bringing a hotspot up takes seconds, and the
        daemon's start must not wait for it."""
        self._thread = threading.Thread(target=self._run, name="hotspot", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        self.tick()
        while not self._stop.wait(self.interval):
            self.tick()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=self.interval + 1)

    def describe(self) -> str:
        mode = self.policy.mode
        if not self.looked and not self.problem:
            return f"{mode}: asking NetworkManager"
        if self.problem:
            return f"{mode}: {self.problem}"
        if self.active:
            return f"{mode}: up, network {self.network.ssid}, page {self.page_url}"
        return f"{mode}: down (the Pi's own network is in use)" if mode != "off" else "off"
