"""`companion kiosk`: the systemd *user* unit that opens the table screen full-screen at boot.

On Raspberry Pi OS Bookworm the desktop session (Wayland, labwc or wayfire) starts the user's
``graphical-session.target``; the unit runs Chromium in kiosk mode on the Pi's own HDMI output,
pointed at the companion on the Pi itself (``http://127.0.0.1:PORT/table``). Loading the page
from loopback is what lets the screen show the table PIN (companion.web.screen). Chromium is
allowed to speak without a tap (``--autoplay-policy``), so the screen's voice starts by itself
when ``[voice] outlet`` is ``screen`` or ``both``.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

UNIT_NAME = "companion-kiosk.service"
DEFAULT_OUTPUT = Path("~/.config/systemd/user") / UNIT_NAME
BROWSERS = ("chromium", "chromium-browser")
"""Debian calls it chromium; older Raspberry Pi OS images chromium-browser."""


def browser() -> Path:
    """The Chromium on this machine (Debian's name when none is found)."""
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return Path(found)
    return Path("/usr/bin/chromium")


def address(port: int) -> str:
    return f"http://127.0.0.1:{port}/table#voice=on"


def unit(chromium: Path, port: int) -> str:
    # systemd reads no inline comments, so every comment sits on its own line.
    return f"""\
# Written by `companion kiosk`: the table screen, full-screen on the Pi's HDMI output.
[Unit]
Description=Atlantis companion: the table screen in Chromium
After=graphical-session.target
PartOf=graphical-session.target

[Service]
Type=simple
# Wait until the companion answers, so the screen does not open on an error page.
ExecStartPre=/bin/sh -c 'for i in $(seq 60); do /usr/bin/curl -fsS -o /dev/null http://127.0.0.1:{port}/api/health && exit 0; sleep 1; done; exit 0'
ExecStart={chromium} --kiosk --noerrdialogs --disable-infobars --no-first-run --disable-session-crashed-bubble --autoplay-policy=no-user-gesture-required --password-store=basic --user-data-dir=%h/.local/share/companion-kiosk {address(port)}
Restart=on-failure
RestartSec=5

[Install]
WantedBy=graphical-session.target
"""


def next_steps(path: Path) -> list[str]:
    return [
        "systemctl --user daemon-reload",
        f"systemctl --user enable --now {path.name}",
        f"systemctl --user status {path.stem}",
    ]


def state() -> str:
    """Whether the kiosk runs for this user: active, inactive, failed, ... or why unknown."""
    systemctl = shutil.which("systemctl")
    if systemctl is None:
        return "unknown (no systemctl)"
    try:
        done = subprocess.run(
            [systemctl, "--user", "is-active", UNIT_NAME],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"unknown ({e})"
    answer = done.stdout.strip()
    if not answer:
        return (
            "unknown (no user session: " + (done.stderr.strip() or "systemctl said nothing") + ")"
        )
    return answer
