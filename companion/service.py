"""`companion install-service`: the systemd unit that runs the daemon on the Pi.

The unit follows pi-ecosystem.md §5.1: ``Type=notify`` (the daemon says READY=1 once the web
server listens), a watchdog fed only while the Table is alive, an unprivileged user in the groups
that own the GPIO, serial and camera devices, and a writable working directory, because lgpio
creates a FIFO in the current directory. systemd reads no inline comments (a ``#`` after a
value becomes part of it), so every comment sits on its own line.
"""

from __future__ import annotations

import grp
import pwd
import re
import sys
from pathlib import Path

DEFAULT_OUTPUT = Path("/etc/systemd/system/companion.service")
DEFAULT_USER = "companion"
GROUPS = ("gpio", "dialout", "video")
USER_NAME = re.compile(r"^[a-z_][a-z0-9_-]{0,31}$")
HOMES = ("/home/", "/root/", "/run/user/")


def executable() -> Path:
    """The absolute path of the ``companion`` command running now.

    It is the console script beside the interpreter (the venv's bin/); sys.executable is used
    unresolved, because resolving a venv's python symlink leads out of the venv.
    """
    argv0 = Path(sys.argv[0])
    if argv0.name == "companion" and argv0.is_file():
        return argv0.absolute()
    return Path(sys.executable).absolute().parent / "companion"


def check_user(user: str) -> str | None:
    """Why `user` cannot run the service, or None."""
    if user == "root" or user == "0":
        return "the companion must not run as root: name an unprivileged user with --user"
    if not USER_NAME.match(user):
        return f"{user!r} is not a user name (lower-case letters, digits, _ and -)"
    return None


def user_exists(user: str) -> bool:
    try:
        pwd.getpwnam(user)
    except KeyError:
        return False
    return True


def missing_groups() -> list[str]:
    missing = []
    for group in GROUPS:
        try:
            grp.getgrnam(group)
        except KeyError:
            missing.append(group)
    return missing


def unit(user: str, command: Path) -> str:
    # ProtectHome=yes hides /home from the service; a venv there (the usual pip install on
    # a Pi: /home/pi/...) would then not even start, so it is only made read-only.
    protect_home = "read-only" if str(command).startswith(HOMES) else "yes"
    return f"""\
# Written by `companion install-service`. Write it again after moving the companion's venv.
[Unit]
Description=Survive: Escape from Atlantis! table companion
Wants=network-online.target
After=network-online.target
StartLimitIntervalSec=300
StartLimitBurst=10

[Service]
# The daemon sends READY=1 once the web server listens.
Type=notify
NotifyAccess=main
User={user}
# /dev/gpiochip*, the Pico's /dev/ttyACM*, the camera
SupplementaryGroups={" ".join(GROUPS)}
# The game log and the kept PIN and secret: /var/lib/companion, exported as $STATE_DIRECTORY.
StateDirectory=companion
StateDirectoryMode=0700
# Writable: lgpio creates its FIFO in the working directory.
WorkingDirectory=%S/companion
Environment=PYTHONUNBUFFERED=1
EnvironmentFile=-/etc/default/companion
ExecStart={command} serve
Restart=on-failure
RestartSec=2
# WATCHDOG=1 comes every 15 s while the table's thread is alive; 30 s without one is a restart.
WatchdogSec=30
TimeoutStopSec=20
# Port 80 for phones' captive-portal probes when the table is its own Wi-Fi ([network]).
AmbientCapabilities=CAP_NET_BIND_SERVICE
NoNewPrivileges=yes
ProtectSystem=full
ProtectHome={protect_home}
PrivateTmp=yes

[Install]
WantedBy=multi-user.target
"""


def next_steps(path: Path, user: str, create_user: bool) -> list[str]:
    steps = []
    if create_user:
        steps.append(
            f"sudo useradd --system --no-create-home --home-dir /var/lib/companion "
            f"--shell /usr/sbin/nologin {user}"
        )
    if path.parent != DEFAULT_OUTPUT.parent:
        steps.append(f"sudo cp {path} {DEFAULT_OUTPUT.parent}/{path.name}")
    steps += [
        "sudo systemctl daemon-reload",
        f"sudo systemctl enable --now {path.name}",
        f"systemctl status {path.stem}        # READY, and the table's address",
        f"journalctl -u {path.stem} -f        # the table PIN and the log",
    ]
    return steps
