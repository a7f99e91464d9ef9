"""The ``companion`` command: one subcommand per job (simulate, bench, serve, demo, ...).

Every subcommand that reads the configuration stops with one line naming the bad key and the
form expected, and exit status 2, before doing anything else.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from . import (
    bench,
    config,
    daemon,
    doctor,
    history,
    integrity,
    kiosk,
    security,
    seeds,
    service,
    simulate,
)
from .bots import LEVELS
from .engine import Rules, RulesError
from .network import cli as network_cli
from .store import GameRecord, Row, Store, StoreError
from .vision import cli as vision_cli


def _rules(args: argparse.Namespace) -> Rules:
    return Rules.parse(args.rules, args.option)


def cmd_simulate(args: argparse.Namespace) -> int:
    rules = _rules(args)
    try:
        summary = simulate.simulate(
            rules, args.players, args.games, args.seed, bots=args.bots, level=args.level
        )
    except ValueError as e:
        print(f"companion simulate: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(summary))
    else:
        print(simulate.table(summary))
    return 1 if summary["invariant_violations"] else 0


def cmd_bench(args: argparse.Namespace) -> int:
    unknown = [s for s in args.sections if s not in bench.SECTIONS]
    if unknown:
        print(
            f"companion bench: unknown section {unknown[0]!r}; sections: {', '.join(bench.SECTIONS)}",
            file=sys.stderr,
        )
        return 2
    report = bench.run(args.sections)
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        print(
            f"{report['meta']['cpu']} ({report['meta']['cores']} cores), commit {report['meta']['commit']}"
        )
        for key, value in report["figures"].items():
            print(f"{key:40} {value}")
        for section, why in report["meta"]["skipped"].items():
            print(f"{section}: skipped ({why})")
    return 0


def _whole(low: int, high: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = low - 1
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be a whole number from {low} to {high}")
        return value

    return parse


def _config(args: argparse.Namespace) -> config.Config:
    return config.load(args.config)


def cmd_serve(args: argparse.Namespace) -> int:
    cfg = _config(args)
    daemon.setup_logging()
    d = daemon.Daemon(cfg, cfg["web.host"] or "0.0.0.0", cfg.store_path, cfg.state_dir)
    return daemon.run(d)


def cmd_demo(args: argparse.Namespace) -> int:
    # No configuration file is read: a demo must work on a fresh machine, and a half-written
    # /etc/companion/companion.toml must not stand in its way.
    # Nor does it touch this machine's network: no hotspot.
    cfg = config.parse(
        {"web": {"port": args.port}, "panel": {"kind": "sim"}, "network": {"hotspot": "off"}}
    )
    daemon.setup_logging()
    with tempfile.TemporaryDirectory(prefix="companion-demo-") as folder:
        notes = (
            f"  demo: 2 players (Ana, Ben), seed {args.seed} [{seeds.PREDICTABLE}]; the game log is in {folder} "
            "and is deleted when the demo stops.",
            "  demo: the table's buttons are simulated: ROLL, NEXT and UNDO on the panel page, "
            "or r, n, u here.",
            "  demo: no hotspot (a demo never changes this machine's network); on the Pi, when "
            "the table is its own Wi-Fi, its QR code is printed here before the page's.",
        )
        d = daemon.Daemon(
            cfg,
            cfg["web.host"] or "127.0.0.1",
            Path(folder) / "games.db",
            Path(folder),
            demo_seed=args.seed,
            notes=notes,
        )
        return daemon.run(d)


class CommandError(Exception):
    """A command cannot do its job; the message says why (exit status 1)."""


def _open_store(cfg: config.Config) -> Store | None:
    """The game log for reading, or None when there is none yet; never creates one.

    It is first opened read-only: a log that cannot be read (damaged, or held by a writer at
    this moment) is reported here and left alone, because `Store` would move a file it cannot
    read aside — the daemon's own log, possibly in use.
    """
    path = cfg.store_path
    if not path.exists():
        return None
    problem = doctor.unreadable(path)
    if problem:
        raise CommandError(
            f"the game log {path} cannot be read now ({problem}); `companion doctor` says more"
        )
    return Store(path)


def cmd_games(args: argparse.Namespace) -> int:
    cfg = _config(args)
    store = _open_store(cfg)
    if store is None:
        print(f"no game log at {cfg.store_path}: no game has been played here yet")
        return 0
    try:
        records = store.games()
    finally:
        store.close()
    print(history.games_table(records) if records else "no games stored yet")
    return 0


def _stored_game(args: argparse.Namespace) -> tuple[GameRecord, list[Row]]:
    cfg = _config(args)
    store = _open_store(cfg)
    if store is None:
        raise CommandError(f"no game log at {cfg.store_path}: no game has been played here yet")
    try:
        return store.game(args.game), store.log(args.game, everything=True)
    except StoreError as e:
        raise CommandError(str(e)) from None
    finally:
        store.close()


def cmd_replay(args: argparse.Namespace) -> int:
    record, rows = _stored_game(args)
    for line in history.replay_lines(record, rows):
        print(line)
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    record, rows = _stored_game(args)
    print(json.dumps(history.export(record, rows, seed=True), indent=1))
    return 0


def cmd_position(args: argparse.Namespace) -> int:
    record, rows = _stored_game(args)
    try:
        print(history.position(record, rows, at=args.at), end="")
    except history.NoPosition as e:
        raise CommandError(str(e)) from None
    return 0


def cmd_repair(args: argparse.Namespace) -> int:
    """The way out for a damaged game (`integrity`): run with the companion stopped."""
    cfg = _config(args)
    store = _open_store(cfg)
    if store is None:
        raise CommandError(f"no game log at {cfg.store_path}: no game has been played here yet")
    output = Path(args.output or f"atlantis-game-{args.game}-until-damage.json")
    try:
        print(integrity.repair(store, args.game, output))
    except StoreError as e:
        raise CommandError(str(e)) from None
    finally:
        store.close()
    return 0


def cmd_doctor(args: argparse.Namespace) -> int:
    cfg = _config(args)
    checks = list(doctor.run(cfg))
    print(doctor.report(checks))
    return 1 if any(c.status == "fail" for c in checks) else 0


def cmd_install_service(args: argparse.Namespace) -> int:
    why = service.check_user(args.user)
    if why:
        print(f"companion install-service: {why}", file=sys.stderr)
        return 2
    command = service.executable()
    if not command.is_file():
        print(
            f"companion install-service: {command} does not exist; run the companion command "
            "of the venv the service is to use",
            file=sys.stderr,
        )
        return 1
    output = Path(args.output)
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
        security.atomic_write(output, service.unit(args.user, command).encode(), mode=0o644)
    except OSError as e:
        print(
            f"companion install-service: cannot write {output}: {e.strerror}; run it with sudo, "
            "or write elsewhere with --output",
            file=sys.stderr,
        )
        return 1
    print(f"Wrote {output}: runs '{command} serve' as user {args.user}.")
    missing = service.missing_groups()
    if missing:
        print(
            f"warning: the group(s) {', '.join(missing)} do not exist on this machine, so the "
            "service cannot start here (on Raspberry Pi OS they exist)",
            file=sys.stderr,
        )
    print("Next:")
    for step in service.next_steps(output, args.user, not service.user_exists(args.user)):
        print(f"  {step}")
    return 0


def cmd_kiosk(args: argparse.Namespace) -> int:
    cfg = _config(args)
    output = Path(args.output).expanduser()
    chromium = kiosk.browser()
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
        text = kiosk.unit(chromium, cfg["web.port"])
        security.atomic_write(output, text.encode(), mode=0o644)
    except OSError as e:
        print(f"companion kiosk: cannot write {output}: {e.strerror}", file=sys.stderr)
        return 1
    print(f"Wrote {output}: opens {kiosk.address(cfg['web.port'])} in {chromium}, full-screen.")
    if not chromium.is_file():
        print(
            f"warning: {chromium} is missing here; on the Pi: sudo apt install chromium",
            file=sys.stderr,
        )
    print("Next (as the desktop's user, not root):")
    for step in kiosk.next_steps(output):
        print(f"  {step}")
    return 0


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="companion", description="Survive: Escape from Atlantis! table companion"
    )
    sub = ap.add_subparsers(dest="command", required=True)

    sim = sub.add_parser("simulate", help="play random games and report how they went")
    sim.add_argument("--players", type=int, default=4)
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument(
        "--seed", type=int, default=1, help="seed of the games (for tests: predictable; default 1)"
    )
    sim.add_argument(
        "--rules", default="base", help="rule modules, comma-separated (default: base)"
    )
    sim.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a rules option (repeatable)",
    )
    sim.add_argument(
        "--bots", type=int, default=0, help="how many seats are bots (the rest play at random)"
    )
    sim.add_argument("--level", choices=LEVELS, default="normal", help="the bots' level")
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    sim.set_defaults(run=cmd_simulate)

    be = sub.add_parser("bench", help="measure this machine's figures")
    be.add_argument(
        "sections", nargs="*", help=f"any of {', '.join(bench.SECTIONS)} (default: all)"
    )
    be.add_argument("--json", action="store_true")
    be.set_defaults(run=cmd_bench)

    def with_config(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
        p.add_argument(
            "--config",
            metavar="FILE",
            help="configuration file (default: $COMPANION_CONFIG, /etc/companion/companion.toml, "
            "~/.config/companion/companion.toml)",
        )
        return p

    se = with_config(sub.add_parser("serve", help="run the table: the daemon (systemd runs this)"))
    se.set_defaults(run=cmd_serve)

    de = sub.add_parser(
        "demo", help="try the companion: a throw-away game log, on this machine only"
    )
    de.add_argument(
        "--seed",
        type=_whole(0, 2**31 - 1),
        default=1,
        help="seed of the demo game (for tests: predictable; default: 1)",
    )
    de.add_argument("--port", type=_whole(1, 65535), default=8000, help="web port (default: 8000)")
    de.set_defaults(run=cmd_demo)

    ga = with_config(sub.add_parser("games", help="list the stored games"))
    ga.set_defaults(run=cmd_games)

    re_ = with_config(
        sub.add_parser("replay", help="a stored game turn by turn (hidden values shown)")
    )
    re_.add_argument("game", type=int, metavar="GAME", help="the game's id (see: companion games)")
    re_.set_defaults(run=cmd_replay)

    ex = with_config(sub.add_parser("export", help="a stored game as JSON, every action included"))
    ex.add_argument("game", type=int, metavar="GAME", help="the game's id (see: companion games)")
    ex.set_defaults(run=cmd_export)

    po = with_config(
        sub.add_parser("position", help="a stored game's position as text (the referee's)")
    )
    po.add_argument("game", type=int, metavar="GAME", help="the game's id (see: companion games)")
    po.add_argument(
        "--at", type=int, metavar="SEQ", help="after this action (see: companion replay)"
    )
    po.set_defaults(run=cmd_position)

    rp = with_config(
        sub.add_parser(
            "repair",
            help="a damaged game (see doctor): export it up to its last good action and go on "
            "from there (stop the companion first)",
        )
    )
    rp.add_argument("game", type=int, metavar="GAME", help="the game's id")
    rp.add_argument("--output", metavar="FILE", help="where the export goes")
    rp.set_defaults(run=cmd_repair)

    do = with_config(
        sub.add_parser("doctor", help="check GPIO, serial, camera, the game log and the hotspot")
    )
    do.set_defaults(run=cmd_doctor)

    ins = sub.add_parser("install-service", help="write the systemd unit that runs `serve`")
    ins.add_argument(
        "--user",
        default=service.DEFAULT_USER,
        metavar="NAME",
        help=f"unprivileged user to run as (default: {service.DEFAULT_USER})",
    )
    ins.add_argument(
        "--output",
        default=str(service.DEFAULT_OUTPUT),
        metavar="PATH",
        help=f"where to write the unit (default: {service.DEFAULT_OUTPUT})",
    )
    ins.set_defaults(run=cmd_install_service)

    ki = with_config(
        sub.add_parser("kiosk", help="write the user unit that shows the table screen at boot")
    )
    ki.add_argument(
        "--output",
        default=str(kiosk.DEFAULT_OUTPUT),
        metavar="PATH",
        help=f"where to write the unit (default: {kiosk.DEFAULT_OUTPUT})",
    )
    ki.set_defaults(run=cmd_kiosk)

    vision_cli.add_parser(sub, with_config)
    network_cli.add_parsers(sub, with_config, _config)
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        status: int = args.run(args)
    except BrokenPipeError:
        # `companion replay 3 | head`: the reader has gone, which is no error of ours. Point
        # stdout at /dev/null so that Python's final flush does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except CommandError as e:
        print(f"companion {args.command}: {e}", file=sys.stderr)
        return 1
    except (RulesError, config.ConfigError) as e:
        message = " ".join(str(e).split())  # one line, even for a multi-line TOML error
        print(f"companion {args.command}: {message}", file=sys.stderr)
        return 2
    return status


if __name__ == "__main__":
    sys.exit(main())
