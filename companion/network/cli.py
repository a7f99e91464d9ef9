"""``companion hotspot on|off|status|install`` and ``companion card``.

They act on the state directory of the user who runs them: on the Pi, run them as the
service's user (``sudo -u companion env STATE_DIRECTORY=/var/lib/companion companion card
...``), so that the card carries the password and PIN the daemon uses. ``hotspot install``
writes into /etc and is run with sudo.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from .. import security
from ..config import Config
from ..service import check_user
from . import files, hotspot, identity
from .identity import HOSTNAME
from .nmcli import HOTSPOT, NetworkManager, NetworkManagerError

ConfigLoader = Callable[[argparse.Namespace], Config]


def _page_url(cfg: Config) -> str:
    return hotspot.page_url(cfg["network.address"], cfg["web.port"], cfg["network.portal_port"])


def _name_url(cfg: Config) -> str:
    return hotspot.name_url(cfg["web.port"], cfg["network.portal_port"])


def hotspot_status(cfg: Config, nm: NetworkManager) -> list[str]:
    """What `companion hotspot status` prints; NetworkManagerError if nmcli cannot answer."""
    mode = cfg["network.hotspot"]
    if not nm.running():
        return [f'[network] hotspot = "{mode}"', "NetworkManager is not running"]
    device = nm.wifi_device(cfg["network.interface"])
    lines = [f'[network] hotspot = "{mode}"', "NetworkManager: running"]
    if device is None:
        return [*lines, "Wi-Fi: NetworkManager knows no Wi-Fi device"]
    ap = (
        "can host an access point" if nm.can_host_ap(device.name) else "CANNOT host an access point"
    )
    lines.append(f"Wi-Fi: {device.name}, {device.state}, {ap}")
    network = identity.load(cfg.state_dir)
    up = any(a.name == HOTSPOT for a in nm.active())
    others = [a.name for a in nm.active() if a.name != HOTSPOT and a.type in hotspot.HOME_TYPES]
    lines.append(f"hotspot: {'up' if up else 'down'} (network {network.ssid})")
    lines.append(f"other networks up: {', '.join(others) if others else 'none'}")
    if up:
        lines.append(f"page: {_page_url(cfg)} or {_name_url(cfg)}")
    return lines


def cmd_hotspot(args: argparse.Namespace, load: ConfigLoader) -> int:
    cfg = load(args)
    nm = NetworkManager()
    try:
        if args.action == "install":
            # The table's own port: it listens there on every network (port 80 only while
            # the hotspot is up), so what avahi announces is always true.
            port = cfg["web.port"]
            why = check_user(args.user)
            if why:
                print(f"companion hotspot install: {why}")
                return 2
            for path in files.install(cfg["network.address"], port, args.user, Path(args.root)):
                print(f"Wrote {path}")
            print(f"The page is http://{HOSTNAME}.local when the Pi is called {HOSTNAME}: "
                  f"sudo hostnamectl set-hostname {HOSTNAME}")  # fmt: skip
            return 0
        if args.action == "status":
            print("\n".join(hotspot_status(cfg, nm)))
            return 0
        if not nm.running():
            print(
                "companion hotspot: NetworkManager is not running (sudo systemctl start NetworkManager)"
            )
            return 1
        if args.action == "on":
            network = hotspot.hotspot_up(cfg, cfg.state_dir, nm)
            print(f"Hotspot up: network {network.ssid}, password {network.password}")
            print(f"Page: {_page_url(cfg)} (or {_name_url(cfg)})")
            if cfg["network.hotspot"] == "auto":
                print('Note: with [network] hotspot = "auto" the companion gives it back when '
                      'another network comes up; "on" keeps it.')  # fmt: skip
            return 0
        if any(a.name == HOTSPOT for a in nm.active()):
            nm.down()
            print("Hotspot down: NetworkManager goes back to the Pi's usual networks.")
        else:
            print("The hotspot is not up.")
        if cfg["network.hotspot"] == "on":
            print(
                'Note: with [network] hotspot = "on" the companion brings it up again; set "off".'
            )
        return 0
    except NetworkManagerError as e:
        print(f"companion hotspot {args.action}: {e}")
        return 1


def cmd_card(args: argparse.Namespace, load: ConfigLoader) -> int:
    cfg = load(args)
    output = Path(args.output)
    if output.suffix.lower() not in (".pdf", ".svg"):
        print(f"companion card: {output} must end in .pdf or .svg")
        return 2
    network = identity.load(cfg.state_dir, renew=args.new_password)
    sec = security.load(cfg.state_dir, cfg["security.pin"], cfg["security.secret"])
    language = args.language or cfg["game.language"]
    from . import card  # segno and fpdf2: only for the command that draws

    drawn = card.layout(network, _page_url(cfg), sec.pin, language, _name_url(cfg))
    try:
        card.write(drawn, output)
    except ImportError as e:
        print(f"companion card: {e}")
        return 1
    except OSError as e:
        print(f"companion card: cannot write {output}: {e.strerror}")
        return 1
    print(f"Wrote {output}: network {network.ssid}, table PIN {sec.pin}, in {language}.")
    if args.new_password:
        print(f"New Wi-Fi password: {network.password}")
        print(_renew_profile(cfg, network))
    return 0


def _renew_profile(cfg: Config, network: identity.WifiNetwork) -> str:
    """Give NetworkManager's hotspot profile the new password, if there is one already."""
    nm = NetworkManager()
    try:
        if not nm.running() or HOTSPOT not in nm.profiles():
            return "The hotspot takes it the next time it comes up."
        nm.save(hotspot.profile(cfg, network, nm))
        if any(a.name == HOTSPOT for a in nm.active()):
            nm.up()
            return "The hotspot is up again with it: phones join again with the new card."
        return "The hotspot's profile has it."
    except NetworkManagerError as e:
        return (
            f"The hotspot's profile could not be changed now ({e}); it takes it at its next start."
        )


def add_parsers(
    sub: argparse._SubParsersAction,
    with_config: Callable[[argparse.ArgumentParser], argparse.ArgumentParser],
    load: ConfigLoader,
) -> None:
    ho = with_config(sub.add_parser("hotspot", help="the table as its own Wi-Fi network"))
    ho.add_argument(
        "action", choices=("on", "off", "status", "install"),
        help="bring it up, give it back, say what it is, or (sudo) install its dnsmasq and avahi files",
    )  # fmt: skip
    ho.add_argument(
        "--user", default="companion", metavar="NAME",
        help="install: the service's user, allowed to control the hotspot (default: companion)",
    )  # fmt: skip
    ho.add_argument("--root", default="/", help=argparse.SUPPRESS)
    ho.set_defaults(run=lambda a: cmd_hotspot(a, load))

    ca = with_config(sub.add_parser("card", help="print the table card (A6: Wi-Fi, page, PIN)"))
    ca.add_argument("--output", required=True, metavar="FILE", help="card.pdf or card.svg")
    ca.add_argument("--new-password", action="store_true", help="make a new Wi-Fi password first")
    ca.add_argument("--language", choices=("en", "es", "fr"), help="default: [game] language")
    ca.set_defaults(run=lambda a: cmd_card(a, load))
