"""The second listening port for the hotspot: phones' probes are plain HTTP on port 80.

A phone's captive-portal probe goes to port 80 of whatever address dnsmasq gave for the probe's
name (the Pi's), and a redirect works only from there (wave2-notes.md §2). So while the hotspot
is up, the daemon also serves the same app on ``[network] portal_port`` (80 by default; the
systemd unit grants CAP_NET_BIND_SERVICE for it), and lets the port go with the hotspot. If the
port cannot be had, the table still serves on its own port and logs why; phones then open the
page from the card.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

log = logging.getLogger(__name__)


class PortalListener:
    def __init__(self, app: Any, host: str, port: int, threads: int) -> None:
        from ..web.serving import make_server  # the table port's limits, here too

        self.server: Any = make_server(app, host, port, threads)
        self.port = port
        self._thread = threading.Thread(target=self.server.run, name=f"portal:{port}", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        from ..web.serving import end_server

        end_server(self.server, self._thread, timeout=2)


def open_portal(
    app: Any, config: Any, host: str, web_port: int
) -> tuple[PortalListener | None, str]:
    """The listener on the portal port, or None and why not ("" when none is wanted)."""
    port = config["network.portal_port"]
    if port == 0 or port == web_port:
        return None, ""
    try:
        return PortalListener(app, host, port, config["web.threads"]), ""
    except OSError as e:
        why = f"cannot listen on port {port} for phones' captive-portal probes ({e.strerror})"
        if port < 1024:
            why += "; the service needs AmbientCapabilities=CAP_NET_BIND_SERVICE (install-service writes it)"
        log.warning("%s", why)
        return None, why
