"""The table card and the system files: the card rendered to PDF and PNG (poppler's pdftoppm
and pdftotext) and to SVG, both QR codes decoded back by OpenCV and compared, the PIN and the
network on it; dnsmasq's file checked by dnsmasq itself, avahi's against its DTD, polkit's
rule parsed as JavaScript."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

from companion.cli import main
from companion.network import card, files, identity
from tests.network_support import WLAN, Double

pytest_plugins = ["tests.network_fixtures", "tests.page_fixtures"]

cv2 = pytest.importorskip("cv2")
needs_poppler = pytest.mark.skipif(
    shutil.which("pdftoppm") is None, reason="poppler-utils is not installed"
)


def decode_codes(png: Path) -> set[str]:
    """Every QR code OpenCV finds in the picture, decoded: in the whole card, and in each half
    (one code each), since OpenCV's multi-code detector may miss one of two. A half is read by
    both of OpenCV's decoders at a few scales: each alone misses about one clean code in a
    hundred (3 of 300 random Wi-Fi codes at one scale), both at four scales none of 1,000 — the
    card's code is not in question there, the decoder is."""
    image = cv2.imread(str(png))
    assert image is not None, png
    ok, texts, _points, _ = cv2.QRCodeDetector().detectAndDecodeMulti(image)
    found = {t for t in texts if t} if ok else set()
    middle = image.shape[1] // 2
    for half in (image[:, :middle], image[:, middle:]):
        text = read_one(half)
        if text:
            found.add(text)
    return found


def read_one(image: Any) -> str:
    """The one QR code in `image` ("" when neither decoder reads it at any scale)."""
    for detector in (cv2.QRCodeDetector(), cv2.QRCodeDetectorAruco()):
        for scale in (1.0, 0.75, 0.5, 1.5):
            resized = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
            text, _points, _ = detector.detectAndDecode(resized)
            if text:
                return str(text)
    return ""


def render(pdf: Path) -> tuple[Path, str]:
    png = pdf.with_suffix("")
    subprocess.run(["pdftoppm", "-r", "200", "-png", "-singlefile", str(pdf), str(png)], check=True)
    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], check=True, capture_output=True, text=True
    ).stdout
    return png.with_suffix(".png"), text


def environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, language: str = "en") -> Path:
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "state"))
    config = tmp_path / "companion.toml"
    config.write_text(f'[game]\nlanguage = "{language}"\n[security]\npin = "481516"\n')
    return config


@needs_poppler
@pytest.mark.parametrize("language", ["en", "es", "fr"])
def test_card_pdf_holds_both_codes_decodable_the_network_and_the_pin(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    double: Double,
    language: str,
) -> None:
    config = environment(tmp_path, monkeypatch, language)
    output = tmp_path / "card.pdf"
    assert main(["card", "--config", str(config), "--output", str(output)]) == 0
    network = identity.load(tmp_path / "state")
    png, text = render(output)
    assert decode_codes(png) == {network.qr_data(), "http://10.42.0.1/"}
    assert network.qr_data() == f"WIFI:T:WPA;S:{network.ssid};P:{network.password};;"
    for shown in ("481516", network.ssid, network.password, "atlantis.local", "10.42.0.1"):
        assert shown in text, shown
    for key in ("wifi", "pin", "roll", "next", "undo"):
        assert " ".join(card.TEXT[language][key].split()[:3]) in " ".join(text.split()), key
    size = subprocess.run(
        ["pdfinfo", str(output)], capture_output=True, text=True, check=True
    ).stdout
    assert "297.64 x 419.53 pts" in size  # A6: 105 x 148 mm


@needs_poppler
def test_new_password_changes_the_card_and_the_hotspot_profile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, double: Double
) -> None:
    config = environment(tmp_path, monkeypatch)
    first = tmp_path / "first.pdf"
    assert main(["hotspot", "on", "--config", str(config)]) == 0
    assert main(["card", "--config", str(config), "--output", str(first)]) == 0
    old = identity.load(tmp_path / "state")
    second = tmp_path / "second.pdf"
    assert main(["card", "--config", str(config), "--output", str(second), "--new-password"]) == 0
    new = identity.load(tmp_path / "state")
    assert new.password != old.password and new.ssid == old.ssid
    assert decode_codes(render(second)[0]) == {new.qr_data(), "http://10.42.0.1/"}
    # The hotspot, up, took the new password at once (and was brought up again with it).
    profile = double.state()["profiles"]["atlantis-hotspot"]
    assert profile["802-11-wireless-security.psk"] == new.password
    assert double.calls()[-1][-2:] == ["up", "atlantis-hotspot"]


@pytest.mark.page
def test_card_svg_holds_both_codes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, browser: Browser
) -> None:
    """The SVG card drawn by Debian's chromium (the browser the page tests use) is decoded."""
    config = environment(tmp_path, monkeypatch)
    output = tmp_path / "card.svg"
    assert main(["card", "--config", str(config), "--output", str(output)]) == 0
    network = identity.load(tmp_path / "state")
    page = browser.new_page(viewport={"width": 500, "height": 700}, device_scale_factor=3)
    page.set_content(f'<body style="margin:0">{output.read_text()}</body>')
    page.locator("svg").screenshot(path=str(tmp_path / "card.png"))
    text = page.locator("svg").text_content() or ""
    page.close()
    assert decode_codes(tmp_path / "card.png") == {network.qr_data(), "http://10.42.0.1/"}
    assert "481516" in text and network.password in text


def test_card_text_fits_the_pdf_font() -> None:
    """The PDF's Helvetica has Latin-1's characters only."""
    for language, texts in card.TEXT.items():
        for key, text in texts.items():
            text.encode("latin-1"), (language, key)


def test_card_refuses_an_unknown_format(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = environment(tmp_path, monkeypatch)
    assert main(["card", "--config", str(config), "--output", str(tmp_path / "card.png")]) == 2
    assert not (tmp_path / "card.png").exists()


# -- the system files ----------------------------------------------------------------------------


def test_installed_files_are_valid_for_dnsmasq_avahi_and_polkit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = environment(tmp_path, monkeypatch)
    assert main(["hotspot", "install", "--config", str(config), "--root", str(tmp_path)]) == 0
    dnsmasq = tmp_path / files.DNSMASQ_PATH.relative_to("/")
    assert "address=/#/10.42.0.1" in dnsmasq.read_text()
    if shutil.which("dnsmasq"):
        done = subprocess.run(
            ["dnsmasq", "--test", f"--conf-file={dnsmasq}"], capture_output=True, text=True
        )
        assert done.returncode == 0 and "syntax check OK" in done.stderr, done.stderr
    avahi = tmp_path / files.AVAHI_PATH.relative_to("/")
    dtd = Path("/usr/share/avahi/avahi-service.dtd")
    if shutil.which("xmllint") and dtd.exists():
        done = subprocess.run(
            ["xmllint", "--noout", "--dtdvalid", str(dtd), str(avahi)],
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr
    assert "<port>8000</port>" in avahi.read_text()  # the table's port: true on every network
    rule = tmp_path / files.POLKIT_PATH.relative_to("/")
    if shutil.which("node"):
        assert polkit_answers(rule, "companion") == {a: "yes" for a in files.POLKIT_ACTIONS}
        assert polkit_answers(rule, "pi") == {a: "none" for a in files.POLKIT_ACTIONS}


def polkit_answers(rule: Path, user: str) -> dict[str, str]:
    """What the rule answers `user` for each action the hotspot needs, run by node as polkit
    runs it (a rule is a function given to polkit.addRule; it returns polkit.Result.YES or
    nothing)."""
    script = (
        "const rules = []; const polkit = {Result: {YES: 'yes'}, addRule: (f) => rules.push(f)};\n"
        + rule.read_text()
        + f"\nconst out = {{}}; for (const id of {json.dumps(list(files.POLKIT_ACTIONS))}) "
        + f"out[id] = rules[0]({{id}}, {{user: {json.dumps(user)}}}) || 'none';\n"
        + "console.log(JSON.stringify(out));\n"
    )
    done = subprocess.run(["node", "-e", script], capture_output=True, text=True, check=True)
    answers: dict[str, str] = json.loads(done.stdout)
    return answers


@pytest.mark.skipif(shutil.which("dnsmasq") is None, reason="dnsmasq-base is not installed")
def test_dnsmasq_itself_refuses_a_broken_file(tmp_path: Path) -> None:
    """The check above can fail: dnsmasq --test names a bad line."""
    bad = tmp_path / "bad.conf"
    bad.write_text(files.dnsmasq("10.42.0.1").replace("address=", "adress="))
    done = subprocess.run(
        ["dnsmasq", "--test", f"--conf-file={bad}"], capture_output=True, text=True
    )
    assert done.returncode != 0 and "bad option" in done.stderr


@pytest.mark.skipif(shutil.which("xmllint") is None, reason="libxml2-utils is not installed")
def test_avahi_dtd_refuses_a_service_without_a_port(tmp_path: Path) -> None:
    dtd = Path("/usr/share/avahi/avahi-service.dtd")
    if not dtd.exists():
        pytest.skip("avahi-daemon is not installed")
    bad = tmp_path / "bad.service"
    bad.write_text(files.avahi(80).replace("<port>80</port>", ""))
    done = subprocess.run(
        ["xmllint", "--noout", "--dtdvalid", str(dtd), str(bad)], capture_output=True, text=True
    )
    assert done.returncode != 0


def test_install_refuses_a_user_name_that_is_no_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = environment(tmp_path, monkeypatch)
    args = [
        "hotspot",
        "install",
        "--config",
        str(config),
        "--root",
        str(tmp_path),
        "--user",
        'x" || true || "',
    ]
    assert main(args) == 2
    assert not (tmp_path / "etc").exists()


# -- companion hotspot ---------------------------------------------------------------------------


def test_hotspot_on_status_off(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    double: Double,
    capsys: pytest.CaptureFixture[str],
) -> None:
    config = environment(tmp_path, monkeypatch)
    assert main(["hotspot", "on", "--config", str(config)]) == 0
    network = identity.load(tmp_path / "state")
    out = capsys.readouterr().out
    assert network.ssid in out and network.password in out and "http://10.42.0.1/" in out
    assert main(["hotspot", "status", "--config", str(config)]) == 0
    out = capsys.readouterr().out
    assert "hotspot: up" in out and "wlan0" in out and "can host an access point" in out
    assert main(["hotspot", "off", "--config", str(config)]) == 0
    assert double.state()["active"] == {}
    assert main(["hotspot", "status", "--config", str(config)]) == 0
    assert "hotspot: down" in capsys.readouterr().out


def test_hotspot_on_says_why_it_cannot(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    double: Double,
    capsys: pytest.CaptureFixture[str],
) -> None:
    config = environment(tmp_path, monkeypatch)
    double.write(devices=[{**WLAN, "ap": False}])
    assert main(["hotspot", "on", "--config", str(config)]) == 1
    assert "access point" in capsys.readouterr().out
    double.write(running=False, devices=[WLAN])
    assert main(["hotspot", "on", "--config", str(config)]) == 1
    assert "not running" in capsys.readouterr().out


def test_doctor_reports_the_network_and_what_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, double: Double
) -> None:
    from companion import config as configuration
    from companion.network import doctor

    cfg = configuration.parse({"network": {"hotspot": "on"}})
    check = doctor.hotspot(cfg)
    assert (
        check.status == "ok"
        and "wlan0 can host an access point" in check.text
        and "hotspot down" in check.text
    )
    double.write(devices=[{**WLAN, "ap": False}])
    check = doctor.hotspot(cfg)
    assert check.status == "fail" and "cannot host an access point" in check.text and check.advice
    auto = configuration.parse({})
    assert doctor.hotspot(auto).status == "warn"  # auto: the table still works on the home network
    double.write(running=False)
    check = doctor.hotspot(auto)
    assert (check.status, check.text) == (
        "warn",
        "NetworkManager is not running",
    ) and "systemctl" in check.advice
    assert doctor.portal(auto, root=tmp_path).status == "warn"
    files.install("10.42.0.1", 80, "companion", tmp_path)
    assert "files installed" in doctor.portal(auto, root=tmp_path).text
    off = configuration.parse({"network": {"hotspot": "off"}})
    assert doctor.hotspot(off).status == "ok" and doctor.portal(off).status == "ok"
    assert json.dumps(off["network.hotspot"]) == '"off"'
