"""The addresses at which phones reach the table, for the start banner (and a QR code).

Phones on the Wi-Fi need the Pi's LAN address; ``<hostname>.local`` works on most phones (avahi
answers on Raspberry Pi OS) but not on every Android, so the numeric address comes first
(pi-ecosystem.md §5.3).
"""

from __future__ import annotations

import socket

ANY = ("0.0.0.0", "::", "")


def lan_address() -> str | None:
    """The address of the interface that holds the default route, or None without a network.

    Connecting a UDP socket sends nothing; it only asks the kernel which source address it would
    use. 192.0.2.1 is a documentation address (RFC 5737) that no one answers.
    """
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.connect(("192.0.2.1", 9))
            address: str = sock.getsockname()[0]
    except OSError:
        return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def table_urls(host: str, port: int) -> list[str]:
    """Every URL worth printing for a server bound to `host`:`port`, the most useful first."""
    if host not in ANY:
        shown = f"[{host}]" if ":" in host else host
        return [f"http://{shown}:{port}/"]
    urls = []
    address = lan_address()
    if address:
        urls.append(f"http://{address}:{port}/")
    hostname = socket.gethostname()
    if hostname and hostname != "localhost":
        urls.append(f"http://{hostname.split('.')[0]}.local:{port}/")
    urls.append(f"http://127.0.0.1:{port}/")
    return urls
