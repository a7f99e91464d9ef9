"""The captive-portal answers: while the table is its own network, a phone's probe leads to
the page.

A phone that joins a Wi-Fi network fetches a known plain-HTTP address and compares the answer
with the one it expects; any other answer makes it open its "sign in to network" sheet at
wherever a redirect leads (../shared/research/wave2-notes.md §2). In hotspot mode NetworkManager's
dnsmasq answers every name with the Pi's address (`files.DNSMASQ`), so the probe reaches the
companion with the probe's own Host header; it is answered with one redirect to the page.

Only in hotspot mode (the `hotspot.Keeper` says the hotspot is up), and only for host *names*
that are not the table's: a phone that typed the Pi's numeric address, or the table's own
name, always gets the page itself. On the home network nothing here applies.
"""

from __future__ import annotations

import ipaddress
import socket

from flask import Blueprint, current_app, redirect, request
from werkzeug.wrappers import Response

from .hotspot import Keeper
from .identity import HOSTNAME, WifiNetwork

bp = Blueprint("portal", __name__)

PROBES = (
    ("Android", "connectivitycheck.gstatic.com", "/generate_204"),
    ("Android", "clients3.google.com", "/generate_204"),
    ("Android", "connectivitycheck.android.com", "/generate_204"),
    ("Apple", "captive.apple.com", "/hotspot-detect.html"),
    ("Windows", "www.msftconnecttest.com", "/connecttest.txt"),
    ("Windows", "www.msftncsi.com", "/ncsi.txt"),
    ("Firefox", "detectportal.firefox.com", "/canonical.html"),
    ("Firefox", "detectportal.firefox.com", "/success.txt"),
)
"""The probes phones and browsers send (who, Host, path): each must lead to the page."""


def keeper() -> Keeper | None:
    found: Keeper | None = current_app.extensions.get("companion.network")
    return found


def hotspot_up() -> bool:
    k = keeper()
    return k is not None and k.active


def own_names() -> set[str]:
    names = {HOSTNAME, f"{HOSTNAME}.local", "localhost"}
    hostname = socket.gethostname().split(".")[0].lower()
    if hostname:
        names |= {hostname, f"{hostname}.local"}
    return names


def host_name() -> str:
    """The request's Host without its port, lower case ("" when there is none)."""
    host = (request.host or "").lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def foreign(host: str) -> bool:
    """A host name that is not the table's; a numeric address always reached the Pi itself."""
    if not host:
        return False
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return host not in own_names()
    return False


@bp.before_app_request
def captive() -> Response | None:
    k = keeper()
    if k is None or not k.active or not foreign(host_name()):
        return None
    response = redirect(k.page_url, code=302)
    # A probe's answer must never be cached: once home, the phone must see the Internet again.
    response.headers["Cache-Control"] = "no-store"
    return response


def join_codes(default_url: str) -> tuple[str, WifiNetwork | None]:
    """What the landing page offers the next phone: the page's address and, while the table
    is its own network, the network to join (else None)."""
    k = keeper()
    if k is not None and k.active:
        return k.page_url, k.network
    return default_url, None
