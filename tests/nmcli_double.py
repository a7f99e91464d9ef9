"""A recorded-call double of ``nmcli`` for the hotspot's tests: it stands on PATH as gpiozero's
MockFactory stands for pins.

It accepts only the subset of nmcli(1)'s grammar the companion uses, checks every property
name and value against nm-settings-nmcli(5) (a wrong one is refused as nmcli refuses it, with
``Error: ...`` and nmcli's exit status), keeps NetworkManager's state in a JSON file
($NMCLI_DOUBLE_STATE) and appends each call's argv to $NMCLI_DOUBLE_LOG, one JSON list a line.

State: ``{"running": bool, "devices": [{"name", "type", "ap"}], "profiles": {name: {property:
value}}, "active": {name: device}}``; a test writes it with `write_state` and reads the log
with `calls`.
"""

from __future__ import annotations

import ipaddress
import json
import os
import sys
from pathlib import Path
from typing import Any

# nm-settings-nmcli(5): each property the companion sets, and the values it may take.
ENUMS = {
    "802-11-wireless.mode": {"infrastructure", "adhoc", "ap", "mesh"},
    "802-11-wireless.band": {"a", "bg"},
    "802-11-wireless-security.key-mgmt": {"none", "ieee8021x", "wpa-psk", "wpa-eap", "sae", "owe"},
    "802-11-wireless-security.proto": {"wpa", "rsn"},
    "802-11-wireless-security.pairwise": {"tkip", "ccmp"},
    "802-11-wireless-security.group": {"wep40", "wep104", "tkip", "ccmp"},
    "ipv4.method": {"auto", "link-local", "manual", "shared", "disabled"},
    "ipv6.method": {"ignore", "auto", "dhcp", "link-local", "manual", "shared", "disabled"},
    "connection.autoconnect": {"yes", "no", "true", "false"},
}
FREE = {"connection.interface-name", "802-11-wireless.ssid"}
EXIT_USAGE, EXIT_FAILED, EXIT_ACTIVATION, EXIT_NOT_RUNNING, EXIT_NOT_FOUND = 2, 1, 4, 8, 10


class Refused(Exception):
    def __init__(self, message: str, status: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.status = status


def write_state(path: Path, **state: Any) -> None:
    base: dict[str, Any] = {"running": True, "devices": [], "profiles": {}, "active": {}}
    base.update(state)
    path.write_text(json.dumps(base), encoding="utf-8")


def read_state(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def calls(path: Path) -> list[list[str]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def check_value(prop: str, value: str) -> None:
    if prop in ENUMS:
        if value not in ENUMS[prop]:
            raise Refused(
                f"Error: failed to modify {prop}: '{value}' not among [{', '.join(sorted(ENUMS[prop]))}]."
            )
    elif prop == "802-11-wireless-security.psk":
        hex64 = len(value) == 64 and all(c in "0123456789abcdefABCDEF" for c in value)
        if not (8 <= len(value) <= 63 and value.isascii() and value.isprintable()) and not hex64:
            raise Refused(f"Error: failed to modify {prop}: property is invalid.")
    elif prop == "ipv4.addresses":
        try:
            ipaddress.IPv4Interface(value)
        except ValueError:
            raise Refused(
                f"Error: failed to modify {prop}: invalid IP address: '{value}'."
            ) from None
        if "/" not in value:
            raise Refused(f"Error: failed to modify {prop}: the prefix is missing.")
    elif prop not in FREE:
        raise Refused(f"Error: invalid or not allowed setting '{prop}'.")


def settings(args: list[str]) -> dict[str, str]:
    if len(args) % 2:
        raise Refused(f"Error: value for '{args[-1]}' is missing.")
    out = {}
    for prop, value in zip(args[::2], args[1::2], strict=True):
        check_value(prop, value)
        out[prop] = value
    return out


def escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace(":", "\\:")


def table(rows: list[list[str]], fields: str | None, known: list[str]) -> str:
    if fields is None:
        raise Refused("Error: the double answers only -g FIELDS (the companion's form).")
    wanted = fields.split(",")
    for f in wanted:
        if f not in known:
            raise Refused(f"Error: invalid field '{f}'; allowed fields: {','.join(known)}")
    index = [known.index(f) for f in wanted]
    return "".join(":".join(escape(row[i]) for i in index) + "\n" for row in rows)


def nmcli(argv: list[str], state: dict[str, Any]) -> str:
    fields = None
    while argv and argv[0].startswith("-"):
        option = argv.pop(0)
        if option in ("-g", "--get-values") and argv:
            fields = argv.pop(0)
        elif option in ("-w", "--wait") and argv and argv[0].isdigit():
            argv.pop(0)
        else:
            raise Refused(f"Error: Option '{option}' is unknown, try 'nmcli -help'.")
    if not argv:
        raise Refused("Error: the double needs an object.")
    obj, rest = argv[0], argv[1:]
    if obj == "general":
        if rest not in ([], ["status"]):
            raise Refused(f"Error: argument '{rest[0]}' not understood.")
        return table([["running" if state["running"] else "not running"]], fields, ["RUNNING"])
    if not state["running"]:
        raise Refused("Error: NetworkManager is not running.", EXIT_NOT_RUNNING)
    if obj == "device":
        return device(rest, state, fields)
    if obj == "connection":
        return connection(rest, state, fields)
    raise Refused(f"Error: argument '{obj}' not understood. Try passing --help instead.")


def device(rest: list[str], state: dict[str, Any], fields: str | None) -> str:
    by_device = {dev: name for name, dev in state["active"].items()}
    if rest in ([], ["status"]):
        rows = [
            [d["name"], d["type"], "connected" if d["name"] in by_device else "disconnected",
             by_device.get(d["name"], "")]
            for d in state["devices"]
        ]  # fmt: skip
        return table(rows, fields, ["DEVICE", "TYPE", "STATE", "CONNECTION"])
    if len(rest) == 2 and rest[0] == "show":
        found = [d for d in state["devices"] if d["name"] == rest[1]]
        if not found:
            raise Refused(f"Error: Device '{rest[1]}' not found.", EXIT_NOT_FOUND)
        ap = "yes" if found[0].get("ap") else "no"
        return table([[found[0]["name"], ap]], fields, ["GENERAL.DEVICE", "WIFI-PROPERTIES.AP"])
    raise Refused(f"Error: argument '{' '.join(rest)}' not understood.")


def connection(rest: list[str], state: dict[str, Any], fields: str | None) -> str:
    profiles: dict[str, dict[str, str]] = state["profiles"]
    verb, args = (rest[0], rest[1:]) if rest else ("show", [])
    if verb == "show":
        if args == ["--active"]:
            rows = [[n, profiles.get(n, {}).get("type", "802-11-wireless"), dev]
                    for n, dev in state["active"].items()]  # fmt: skip
        elif not args:
            rows = [[n, p.get("type", "802-11-wireless"), state["active"].get(n, "")]
                    for n, p in profiles.items()]  # fmt: skip
        else:
            raise Refused(f"Error: argument '{args[0]}' not understood.")
        return table(rows, fields, ["NAME", "TYPE", "DEVICE"])
    if verb == "add":
        if (
            args[:4] != ["type", "wifi", "con-name", args[3] if len(args) > 3 else ""]
            or len(args) < 4
        ):
            raise Refused("Error: the double adds only 'type wifi con-name NAME ...'.")
        name, props = args[3], settings(args[4:])
        if "802-11-wireless.ssid" not in props:
            raise Refused("Error: Error: property 'ssid' is missing.")
        if (
            "802-11-wireless-security.key-mgmt" in props
            and "802-11-wireless-security.psk" not in props
        ):
            raise Refused("Error: 802-11-wireless-security.psk: property is missing.")
        profiles[name] = {"type": "802-11-wireless", **props}
        return f"Connection '{name}' successfully added.\n"
    if not args:
        raise Refused(f"Error: No connection specified for '{verb}'.")
    name = args[0]
    if name not in profiles:
        raise Refused(f"Error: unknown connection '{name}'.", EXIT_NOT_FOUND)
    if verb == "modify":
        profiles[name].update(settings(args[1:]))
        return ""
    if verb == "up" and len(args) == 1:
        return up(name, profiles[name], state)
    if verb == "down" and len(args) == 1:
        if name not in state["active"]:
            raise Refused(f"Error: '{name}' is not an active connection.", EXIT_NOT_FOUND)
        del state["active"][name]
        return f"Connection '{name}' successfully deactivated.\n"
    raise Refused(f"Error: argument '{' '.join(rest)}' not understood.")


def up(name: str, profile: dict[str, str], state: dict[str, Any]) -> str:
    wanted = profile.get("connection.interface-name")
    found = [d for d in state["devices"] if d["name"] == wanted and d["type"] == "wifi"]
    if not found:
        raise Refused(f"Error: Connection activation failed: no device {wanted}.", EXIT_ACTIVATION)
    if profile.get("802-11-wireless.mode") == "ap" and not found[0].get("ap"):
        raise Refused(
            "Error: Connection activation failed: the device cannot be an access point.",
            EXIT_ACTIVATION,
        )
    # One device carries one connection: the home Wi-Fi leaves it.
    for other, dev in list(state["active"].items()):
        if dev == wanted:
            del state["active"][other]
    state["active"][name] = wanted
    return f"Connection successfully activated (D-Bus active path: /org/freedesktop/NetworkManager/ActiveConnection/{len(state['active'])})\n"


def main() -> int:
    path = Path(os.environ["NMCLI_DOUBLE_STATE"])
    with open(os.environ["NMCLI_DOUBLE_LOG"], "a", encoding="utf-8") as log:
        log.write(json.dumps(sys.argv[1:]) + "\n")
    state = read_state(path)
    try:
        out = nmcli(list(sys.argv[1:]), state)
    except Refused as e:
        print(e, file=sys.stderr)
        return e.status
    path.write_text(json.dumps(state), encoding="utf-8")
    sys.stdout.write(out)
    return 0


def install(folder: Path) -> dict[str, str]:
    """Put an ``nmcli`` that runs this double in `folder`; the environment that uses it."""
    folder.mkdir(parents=True, exist_ok=True)
    program = folder / "nmcli"
    program.write_text(
        f"#!{sys.executable}\nimport runpy, sys\nsys.path.insert(0, {str(Path(__file__).parent.parent)!r})\n"
        f"runpy.run_path({__file__!r}, run_name='__main__')\n",
        encoding="utf-8",
    )
    program.chmod(0o755)
    return {
        "PATH": f"{folder}{os.pathsep}{os.environ.get('PATH', '')}",
        "NMCLI_DOUBLE_STATE": str(folder / "state.json"),
        "NMCLI_DOUBLE_LOG": str(folder / "calls.jsonl"),
    }


if __name__ == "__main__":
    sys.exit(main())
