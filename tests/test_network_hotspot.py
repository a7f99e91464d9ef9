"""The hotspot through NetworkManager: the nmcli commands against nmcli's grammar (the double on
PATH, and the real nmcli's --offline parser), the name and the kept password, and when
``[network] hotspot`` brings the hotspot up or gives it back."""

from __future__ import annotations

import configparser
import shutil
import subprocess
from pathlib import Path

import pytest

from companion import config
from companion.network import hotspot, identity
from companion.network.hotspot import Keeper, Look, Policy
from companion.network.nmcli import (
    HOTSPOT,
    NetworkManager,
    NoNetworkManager,
    Profile,
    add_command,
    split_terse,
)
from tests.network_support import ETH, HOME, WLAN, Double

pytest_plugins = ["tests.network_fixtures"]

REAL_NMCLI = shutil.which("nmcli")
"""NetworkManager's own nmcli (found before any test puts the double on PATH)."""
PROFILE = Profile("Atlantis-C0DE", "k7mp-q3xr-w9tn", "wlan0", "10.42.0.1")


def cfg(**network: object) -> config.Config:
    return config.parse({"network": network})


# -- the name and the password -------------------------------------------------------------


def test_ssid_from_the_pis_serial(tmp_path: Path) -> None:
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text("Hardware\t: BCM2835\nRevision\t: d04170\nSerial\t\t: 10000000ab12c0de\n")
    serial = identity.serial_number((tmp_path / "missing", cpuinfo), tmp_path / "no-id")
    assert serial == "10000000ab12c0de"
    assert identity.ssid(serial) == "Atlantis-C0DE"
    device_tree = tmp_path / "serial-number"
    device_tree.write_bytes(b"00000000fe3d9a41\x00")
    assert identity.ssid(identity.serial_number((device_tree, cpuinfo))) == "Atlantis-9A41"


def test_password_made_once_kept_beside_the_pin_and_renewed_on_demand(tmp_path: Path) -> None:
    first = identity.load(tmp_path, serial="ab12")
    assert identity.good_password(first.password) and len(first.password) >= 12
    assert (tmp_path / identity.FILENAME).stat().st_mode & 0o077 == 0  # the owner's only
    assert identity.load(tmp_path, serial="ab12") == first
    renewed = identity.load(tmp_path, renew=True, serial="ab12")
    assert renewed.password != first.password
    assert identity.load(tmp_path, serial="ab12").password == renewed.password


def test_a_damaged_password_file_is_replaced_not_trusted(tmp_path: Path) -> None:
    (tmp_path / identity.FILENAME).write_text('{"password": "short"}')
    assert identity.good_password(identity.load(tmp_path, serial="ab12").password)
    (tmp_path / identity.FILENAME).write_text("{not json")
    assert identity.good_password(identity.load(tmp_path, serial="ab12").password)


def test_wifi_qr_text_escapes_what_the_format_reserves() -> None:
    network = identity.WifiNetwork("Atlantis-C0DE", 'a;b:c"e\\f')
    assert network.qr_data() == 'WIFI:T:WPA;S:Atlantis-C0DE;P:a\\;b\\:c\\"e\\\\f;;'
    # A generated password needs no escaping at all: what the card prints is what is encoded.
    made = identity.new_password()
    assert (
        identity.WifiNetwork("Atlantis-C0DE", made).qr_data()
        == f"WIFI:T:WPA;S:Atlantis-C0DE;P:{made};;"
    )


# -- the commands, against nmcli's grammar ---------------------------------------------------


def test_terse_fields_unescape_colons_and_backslashes() -> None:
    assert split_terse(r"Caf\:e\\Wi-Fi:802-11-wireless:wlan0") == [
        "Caf:e\\Wi-Fi",
        "802-11-wireless",
        "wlan0",
    ]


@pytest.mark.skipif(REAL_NMCLI is None, reason="network-manager is not installed")
def test_the_profile_is_what_the_real_nmcli_parses_into_an_access_point() -> None:
    """nmcli --offline (NetworkManager ≥ 1.40) parses the command as it would for the daemon
    and prints the keyfile it would store, without a NetworkManager running."""
    done = subprocess.run(
        [str(REAL_NMCLI), "--offline", *add_command(PROFILE)],
        capture_output=True,
        text=True,
        check=True,
    )
    keyfile = configparser.ConfigParser(interpolation=None)
    keyfile.read_string(
        "\n".join(line for line in done.stdout.splitlines() if not line.startswith("Warning"))
    )
    assert keyfile["connection"]["id"] == HOTSPOT
    assert keyfile["connection"]["autoconnect"] == "false"
    assert keyfile["connection"]["interface-name"] == "wlan0"
    wifi = keyfile["wifi"]
    assert (wifi["mode"], wifi["ssid"], wifi["band"]) == ("ap", "Atlantis-C0DE", "bg")
    security = keyfile["wifi-security"]
    assert (security["key-mgmt"], security["proto"], security["pairwise"], security["psk"]) == (
        "wpa-psk", "rsn;", "ccmp;", "k7mp-q3xr-w9tn")  # fmt: skip
    assert (keyfile["ipv4"]["method"], keyfile["ipv4"]["address1"]) == ("shared", "10.42.0.1/24")
    assert keyfile["ipv6"]["method"] == "disabled"


BAD_SETTINGS = [
    ("802-11-wireless.mode", "station"),
    ("802-11-wireless-security.key-mgmt", "wpa2"),
    ("ipv4.method", "dhcp"),
    ("ipv4.addresses", "10.42.0.300/24"),
    ("802-11-wireless.hidden-ssid", "yes"),
]


@pytest.mark.skipif(REAL_NMCLI is None, reason="network-manager is not installed")
@pytest.mark.parametrize(("prop", "value"), BAD_SETTINGS)
def test_the_double_refuses_what_the_real_nmcli_refuses(
    double: Double, prop: str, value: str
) -> None:
    """The double is only worth its answers if it refuses what nmcli refuses."""
    args = [*add_command(PROFILE), prop, value]
    real = subprocess.run([str(REAL_NMCLI), "--offline", *args], capture_output=True, text=True)
    assert real.returncode != 0 and real.stderr.startswith("Error:")
    ours = subprocess.run(["nmcli", *args], capture_output=True, text=True, env=double.env)
    assert ours.returncode != 0 and ours.stderr.startswith("Error:")
    assert double.state()["profiles"] == {}


def test_bad_password_refused_by_the_double_too(double: Double) -> None:
    """A psk of fewer than 8 characters: NetworkManager refuses it when the profile is saved
    (nm-settings-nmcli(5), 802-11-wireless-security.psk); nmcli --offline does not check it."""
    nm = NetworkManager()
    with pytest.raises(Exception, match="psk"):
        nm.save(Profile("Atlantis-C0DE", "short", "wlan0", "10.42.0.1"))
    assert double.state()["profiles"] == {}


def test_hotspot_added_then_brought_up_replacing_the_home_wifi_on_the_radio(double: Double) -> None:
    double.write(devices=[WLAN], profiles={"Home": HOME}, active={"Home": "wlan0"})
    nm = NetworkManager()
    assert nm.running() and nm.can_host_ap("wlan0")
    assert nm.save(PROFILE) == "added"
    nm.up()
    assert double.state()["active"] == {HOTSPOT: "wlan0"}
    assert nm.save(PROFILE) == "modified"  # a new password changes the profile, never a second one
    nm.down()
    assert double.state()["active"] == {}
    verbs = [c[c.index("connection") + 1] for c in double.calls() if "connection" in c]
    assert verbs == ["show", "add", "up", "show", "modify", "down"]
    up = next(c for c in double.calls() if "up" in c)
    assert up == ["--wait", "30", "connection", "up", HOTSPOT]


def test_a_device_that_cannot_host_an_access_point_is_said_so(double: Double) -> None:
    double.write(devices=[{**WLAN, "ap": False}])
    nm = NetworkManager()
    assert not nm.can_host_ap("wlan0")
    nm.save(PROFILE)
    with pytest.raises(Exception, match="access point"):
        nm.up()


def test_no_networkmanager_running_or_installed(
    double: Double, monkeypatch: pytest.MonkeyPatch
) -> None:
    double.write(running=False, devices=[WLAN])
    nm = NetworkManager()
    assert not nm.running()
    with pytest.raises(NoNetworkManager):
        nm.active()
    with pytest.raises(NoNetworkManager, match="not installed"):
        NetworkManager(program="nmcli-that-is-not-there").running()


# -- when it is up -----------------------------------------------------------------------------

NOTHING, HOME_UP, OURS = Look(False, False), Look(False, True), Look(True, False)


def test_auto_waits_for_a_network_then_hosts_one() -> None:
    policy = Policy("auto", wait=45)
    assert policy.step(0, NOTHING) is None
    assert policy.step(44, NOTHING) is None
    assert policy.step(45, NOTHING) == "up"


def test_auto_hosts_when_the_home_network_is_lost_not_before() -> None:
    policy = Policy("auto", wait=45)
    assert policy.step(0, HOME_UP) is None
    assert policy.step(100, HOME_UP) is None
    assert policy.step(101, NOTHING) is None
    assert policy.step(145, NOTHING) is None
    assert policy.step(146, NOTHING) == "up"


def test_auto_gives_the_hotspot_back_when_another_network_is_up() -> None:
    policy = Policy("auto", wait=45)
    assert policy.step(0, Look(True, True)) == "down"


def test_auto_looks_for_home_wifi_only_when_no_phone_has_the_page_open() -> None:
    policy = Policy("auto", wait=45, recheck=600)
    assert policy.step(0, OURS) is None
    assert policy.step(700, OURS, busy=True) is None
    assert policy.step(701, OURS, busy=False) == "down"
    # Home Wi-Fi not in reach: after `wait` seconds without a network, the hotspot comes back.
    assert policy.step(702, NOTHING) is None
    assert policy.step(747, NOTHING) == "up"


def test_on_and_off_are_kept_whatever_the_network() -> None:
    assert Policy("on", 45).step(0, HOME_UP) == "up"
    assert Policy("on", 45).step(0, Look(True, True)) is None
    assert Policy("off", 45).step(0, OURS) == "down"
    assert Policy("off", 45).step(0, NOTHING) is None


def test_keeper_brings_the_hotspot_up_and_gives_it_back_through_nmcli(
    double: Double, tmp_path: Path
) -> None:
    double.write(devices=[WLAN, ETH], profiles={"Home": HOME})
    now = [0.0]
    keeper = Keeper(cfg(hotspot="auto", wait=30), tmp_path / "state", 8000, clock=lambda: now[0])
    assert keeper.tick() is None and not keeper.active
    now[0] = 31
    assert keeper.tick() == "up" and keeper.active
    profile = double.state()["profiles"][HOTSPOT]
    assert profile["802-11-wireless.ssid"] == keeper.network.ssid
    assert profile["802-11-wireless-security.psk"] == identity.load(tmp_path / "state").password
    assert keeper.page_url == "http://10.42.0.1/"
    # Ethernet plugged in: the table is on a network again, the hotspot is given back.
    state = double.state()
    state["profiles"]["Wired"] = {"type": "802-3-ethernet"}
    state["active"]["Wired"] = "eth0"
    double.write(**state)
    assert keeper.tick() == "down" and not keeper.active
    assert HOTSPOT not in double.state()["active"]


def test_keeper_says_what_is_wrong_and_keeps_going(double: Double, tmp_path: Path) -> None:
    double.write(devices=[{**WLAN, "ap": False}])
    keeper = Keeper(cfg(hotspot="on"), tmp_path, 8000)
    assert keeper.tick() is None
    assert "access point" in keeper.problem and not keeper.active
    assert "access point" in keeper.describe()


def test_page_url_on_the_hotspot() -> None:
    assert hotspot.page_url("10.42.0.1", 8000, 80) == "http://10.42.0.1/"
    assert hotspot.page_url("10.42.0.1", 8000, 0) == "http://10.42.0.1:8000/"
    assert hotspot.name_url(8000, 80) == "http://atlantis.local/"
    assert hotspot.name_url(8000, 0) == "http://atlantis.local:8000/"


def test_network_config_checked() -> None:
    assert cfg()["network.hotspot"] == "auto"
    for key, bad in (
        ("hotspot", "sometimes"),
        ("address", "8.8.8.8"),
        ("address", "10.42.0"),
        ("wait", 1),
        ("portal_port", 70000),
    ):
        with pytest.raises(config.ConfigError, match=f"network.{key}"):
            cfg(**{key: bad})
