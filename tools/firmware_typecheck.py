"""Type-check the Pico firmware (firmware/pico/) against the MicroPython rp2 stubs.

The stubs (PyPI micropython-rp2-rpi-pico-stubs, with micropython-stdlib-stubs) replace modules
of CPython's standard library (time, select, sys, ...), which mypy only accepts from a typeshed
directory: so this lays one out in a temporary folder — the stdlib stubs' ``stdlib/`` with the
rp2 modules (machine, time, select, micropython, rp2, ...) added beside them — and runs
``mypy --custom-typeshed-dir`` on it. Errors inside the stubs themselves are not reported, as
for any typeshed. Exit status: mypy's.

    .venv/bin/python tools/firmware_typecheck.py [FILE ...]   (default: firmware/pico/*.py)
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from importlib import metadata
from pathlib import Path

import mypy

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware" / "pico"
BOARD_STUBS = "micropython-rp2-rpi-pico-stubs"
STDLIB_STUBS = "micropython-stdlib-stubs"


def top_level(dist: str) -> tuple[Path, set[str]]:
    """Where a stubs distribution is installed and its top-level stub modules and packages."""
    d = metadata.distribution(dist)
    names = {f.parts[0] for f in d.files or () if f.suffix == ".pyi"}
    return Path(str(d.locate_file(""))), names


def typeshed(into: Path) -> Path:
    """Lay out a typeshed in `into`: the stdlib stubs plus the board's modules; return it."""
    base, board = top_level(BOARD_STUBS)
    stdlib_base, shed = top_level(STDLIB_STUBS)
    stdlib = into / "stdlib"
    stdlib.mkdir(parents=True)
    for entry in (stdlib_base / "stdlib").iterdir():
        if entry.name != "VERSIONS":
            (stdlib / entry.name).symlink_to(entry)
    for name in sorted(shed - {"stdlib"}) + sorted(board):  # _mpy_shed, machine.pyi, rp2, ...
        source = (stdlib_base if name in shed else base) / name
        target = stdlib / name
        if target.exists() or target.is_symlink():
            target.unlink()  # the board's version of a module wins over the generic one
        target.symlink_to(source)
    versions = (stdlib_base / "stdlib" / "VERSIONS").read_text(encoding="utf-8")
    listed = {line.split(":")[0].strip() for line in versions.splitlines() if ":" in line}
    extra = [n.removesuffix(".pyi") for n in sorted(shed | board) if n != "stdlib"]
    versions += "".join(f"{m}: 3.0-\n" for m in extra if m not in listed)
    (stdlib / "VERSIONS").write_text(versions, encoding="utf-8")
    # mypy itself needs mypy_extensions from a typeshed's stubs/: take its own copy.
    (into / "stubs").mkdir()
    (into / "stubs" / "mypy-extensions").symlink_to(
        Path(mypy.__file__).parent / "typeshed" / "stubs" / "mypy-extensions"
    )
    return into


def main(argv: list[str]) -> int:
    files = argv or sorted(str(p) for p in FIRMWARE.glob("*.py"))
    with tempfile.TemporaryDirectory(prefix="mpy-typeshed-") as folder:
        shed = typeshed(Path(folder) / "typeshed")
        config = Path(folder) / "mypy.ini"  # the project's settings are for CPython code
        config.write_text("[mypy]\n", encoding="utf-8")
        command = [
            sys.executable, "-m", "mypy",
            "--custom-typeshed-dir", str(shed),
            "--config-file", str(config),
            "--python-version", "3.11",
            "--no-site-packages",  # CPython's packages are not on the Pico
            "--check-untyped-defs",
            "--warn-unused-ignores",
            "--cache-dir", os.path.join(folder, "cache"),
            *files,
        ]  # fmt: skip
        return subprocess.run(command, cwd=FIRMWARE).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
