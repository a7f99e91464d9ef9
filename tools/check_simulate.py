#!/usr/bin/env python3
"""Check the output of `companion simulate --json`: fail when a game broke an invariant.

Reads one JSON object from standard input and prints one line:

    players=4 games=2000 games_per_s=812.3 invariant_violations=0

Exit status 0 when `invariant_violations` is 0 (or an empty list), 1 otherwise, including
when the input is not a JSON object or lacks the key: a check that cannot tell must not pass.

Usage (see `make check-long`):

    companion simulate --players 4 --games 2000 --seed 1 --rules base --json \\
        | python3 tools/check_simulate.py
"""

import json
import sys
from typing import Any

SUMMARY_KEYS = ("players", "games", "games_per_s")


def violation_count(value: Any) -> int | None:
    """How many violations `value` reports: a count, or a list of violations; None if neither."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, list | dict):
        return len(value)
    return None


def summary(report: dict[str, Any], violations: object) -> str:
    """The one-line summary printed for a report."""
    parts = [f"{key}={_show(report.get(key, '?'))}" for key in SUMMARY_KEYS]
    parts.append(f"invariant_violations={violations}")
    return " ".join(parts)


def _show(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.1f}"
    return str(value)


def main(stdin: str) -> int:
    try:
        report = json.loads(stdin)
    except json.JSONDecodeError as error:
        print(f"check_simulate: input is not JSON ({error}): {stdin[:200]!r}", file=sys.stderr)
        return 1
    if not isinstance(report, dict):
        print("check_simulate: expected one JSON object", file=sys.stderr)
        return 1
    if "invariant_violations" not in report:
        print(f"check_simulate: no 'invariant_violations' in {sorted(report)}", file=sys.stderr)
        return 1
    count = violation_count(report["invariant_violations"])
    print(summary(report, "?" if count is None else count))
    if count is None:
        print("check_simulate: 'invariant_violations' is not a count or a list", file=sys.stderr)
        return 1
    if count != 0:
        details = report["invariant_violations"]
        if isinstance(details, list | dict):
            print(json.dumps(details, indent=1)[:2000], file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.stdin.read()))
