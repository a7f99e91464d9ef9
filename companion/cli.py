"""The ``companion`` command: one subcommand per job (simulate, bench, ...)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from . import bench, simulate
from .engine import Rules, RulesError


def _rules(args: argparse.Namespace) -> Rules:
    return Rules.parse(args.rules, args.option)


def cmd_simulate(args: argparse.Namespace) -> int:
    rules = _rules(args)
    summary = simulate.simulate(rules, args.players, args.games, args.seed)
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


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="companion", description="Survive: Escape from Atlantis! table companion"
    )
    sub = ap.add_subparsers(dest="command", required=True)

    sim = sub.add_parser("simulate", help="play random games and report how they went")
    sim.add_argument("--players", type=int, default=4)
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument("--seed", type=int, default=1)
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
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    sim.set_defaults(run=cmd_simulate)

    be = sub.add_parser("bench", help="measure this machine's figures")
    be.add_argument(
        "sections", nargs="*", help=f"any of {', '.join(bench.SECTIONS)} (default: all)"
    )
    be.add_argument("--json", action="store_true")
    be.set_defaults(run=cmd_bench)
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        status: int = args.run(args)
    except RulesError as e:
        print(f"companion {args.command}: {e}", file=sys.stderr)
        return 2
    return status


if __name__ == "__main__":
    sys.exit(main())
