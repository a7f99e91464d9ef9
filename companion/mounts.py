"""Which filesystem holds a path: the store's durability depends on it (an SD card, tmpfs...)."""

from __future__ import annotations

import os
import re
from pathlib import Path


def filesystem(path: Path) -> tuple[str, str]:
    """(mount point, type) of the filesystem holding `path`, or its nearest existing parent.

    Read from /proc/mounts; the deepest mount wins, and of equal ones the latest (it hides the
    earlier). ("/", "unknown") when /proc/mounts cannot be read.
    """
    path = path.absolute()
    while not path.exists() and path != path.parent:
        path = path.parent
    real = os.path.realpath(path)
    best = ("/", "unknown")
    try:
        with open("/proc/mounts", encoding="utf-8") as f:
            for line in f:
                fields = line.split()
                if len(fields) < 3:
                    continue
                # /proc/mounts writes a space in a mount point as \040 (octal escapes).
                mount = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m[1], 8)), fields[1])
                inside = real == mount or real.startswith(mount.rstrip("/") + "/")
                if inside and len(mount) >= len(best[0]):
                    best = (mount, fields[2])
    except OSError:
        pass
    return best


def memory_folder() -> Path | None:
    """A folder in memory to write to (the shared-memory tmpfs), or None where there is none."""
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK) and filesystem(shm)[1] == "tmpfs":
        return shm
    return None
