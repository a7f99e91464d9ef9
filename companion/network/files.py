"""The system files the hotspot needs, written by ``sudo companion hotspot install``.

- ``/etc/NetworkManager/dnsmasq-shared.d/atlantis.conf``: NetworkManager's shared mode (the
  hotspot) runs its own dnsmasq and adds the files of this folder to its configuration. The
  file makes it answer every name with the Pi's address, so that phones' captive-portal probes
  reach the companion. It applies to shared connections only, never to the home network.
- ``/etc/avahi/services/atlantis.service``: avahi announces the page as an HTTP service of the
  Pi on the table's port; with the host name ``atlantis`` the page is
  ``http://atlantis.local:8000``, and ``http://atlantis.local`` while the hotspot holds port 80.
- ``/etc/polkit-1/rules.d/50-atlantis-hotspot.rules``: Debian lets only users of an active
  login session change NetworkManager's connections; the service has none, so this rule lets
  the service's user (and it alone) do what the hotspot needs.
"""

from __future__ import annotations

import ipaddress
from pathlib import Path

from ..security import atomic_write
from ..service import check_user

DNSMASQ_PATH = Path("/etc/NetworkManager/dnsmasq-shared.d/atlantis.conf")
AVAHI_PATH = Path("/etc/avahi/services/atlantis.service")
POLKIT_PATH = Path("/etc/polkit-1/rules.d/50-atlantis-hotspot.rules")
# What nmcli asks of NetworkManager for the hotspot (its polkit actions): write a system-wide
# profile, activate and deactivate it, share a Wi-Fi connection protected by a password.
POLKIT_ACTIONS = (
    "org.freedesktop.NetworkManager.settings.modify.system",
    "org.freedesktop.NetworkManager.network-control",
    "org.freedesktop.NetworkManager.wifi.share.protected",
)


def dnsmasq(address: str) -> str:
    ipaddress.IPv4Address(address)
    return f"""\
# Written by `companion hotspot install`. NetworkManager's dnsmasq reads it only for shared
# connections (the table's hotspot): every name a phone looks up is answered with the Pi's
# address, so that its captive-portal probe reaches the table's page.
address=/#/{address}
# Answers are not to be kept: once back on the home network, a phone must see the Internet.
local-ttl=0
"""


def avahi(port: int) -> str:
    if not 1 <= port <= 65535:
        raise ValueError(f"no such port: {port}")
    return f"""\
<?xml version="1.0" standalone='no'?>
<!DOCTYPE service-group SYSTEM "avahi-service.dtd">
<!-- Written by `companion hotspot install`: the table's page, announced by avahi. -->
<service-group>
  <name replace-wildcards="yes">Atlantis table on %h</name>
  <service>
    <type>_http._tcp</type>
    <port>{port}</port>
    <txt-record>path=/</txt-record>
  </service>
</service-group>
"""


def polkit(user: str) -> str:
    why = check_user(user)
    if why:
        raise ValueError(why)
    actions = " ||\n         ".join(f'action.id == "{a}"' for a in POLKIT_ACTIONS)
    return f"""\
// Written by `companion hotspot install`: the companion's service user may write, bring up
// and take down the table's hotspot, without a login session.
polkit.addRule(function(action, subject) {{
    if (subject.user == "{user}" &&
        ({actions})) {{
        return polkit.Result.YES;
    }}
}});
"""


def install(address: str, port: int, user: str, root: Path = Path("/")) -> list[Path]:
    """Write the three files under `root` (``/`` on the Pi); the paths written."""
    written = []
    for path, text in (
        (DNSMASQ_PATH, dnsmasq(address)),
        (AVAHI_PATH, avahi(port)),
        (POLKIT_PATH, polkit(user)),
    ):
        target = root / path.relative_to("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(target, text.encode("utf-8"), mode=0o644)
        written.append(target)
    return written
