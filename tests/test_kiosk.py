"""`companion kiosk` writes a systemd user unit that systemd-analyze verify accepts and that
opens the table screen from the Pi itself; `companion doctor` says whether the kiosk runs and
whether the voice can speak."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion import cli, config, doctor, kiosk
from tests.test_cli_daemon import run, verify


def test_kiosk_writes_a_user_unit_that_systemd_analyze_verify_accepts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    unit = tmp_path / "companion-kiosk.service"
    cfg = tmp_path / "companion.toml"
    cfg.write_text("[web]\nport = 8123\n")
    status, out, _ = run(capsys, "kiosk", "--config", str(cfg), "--output", str(unit))
    assert status == 0
    lines = unit.read_text().splitlines()
    start = next(line for line in lines if line.startswith("ExecStart="))
    # From the Pi's loopback: the screen that may show the PIN; full-screen, speaking by itself.
    assert start.endswith(" http://127.0.0.1:8123/table#voice=on")
    assert " --kiosk " in start and "--autoplay-policy=no-user-gesture-required" in start
    assert "WantedBy=graphical-session.target" in lines
    result = verify(unit)
    assert result.returncode == 0, result.stderr
    assert result.stderr == "", result.stderr
    assert "systemctl --user enable --now companion-kiosk.service" in out


def test_a_broken_kiosk_unit_is_caught_by_the_same_check(tmp_path: Path) -> None:
    unit = tmp_path / "companion-kiosk.service"
    cli.main(["kiosk", "--output", str(unit)])
    unit.write_text(unit.read_text().replace("Restart=on-failure", "Restart=sometimes"))
    assert "restart specifier" in verify(unit).stderr


def test_doctor_says_the_kiosk_is_not_installed_and_how_to(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(kiosk, "DEFAULT_OUTPUT", tmp_path / "none.service")
    check = doctor.kiosk_screen(config.parse({}))
    assert check.status == "warn" and "companion kiosk" in check.advice
    (tmp_path / "none.service").write_text("[Unit]\n")
    monkeypatch.setattr(kiosk, "state", lambda: "inactive")
    check = doctor.kiosk_screen(config.parse({}))
    assert check.status == "warn" and "inactive" in check.text
    monkeypatch.setattr(kiosk, "state", lambda: "active")
    assert doctor.kiosk_screen(config.parse({})).status == "ok"


@pytest.mark.parametrize("lang", ["en", "es", "fr"])
def test_doctor_finds_espeak_ng_and_its_voice_for_the_table_language(lang: str) -> None:
    check = doctor.voice(config.parse({"voice": {"outlet": "pi"}, "game": {"language": lang}}))
    assert check.status == "ok" and f"speaks {lang}" in check.text


def test_doctor_fails_a_pi_voice_without_espeak_ng(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    check = doctor.voice(config.parse({"voice": {"outlet": "both"}}))
    assert check.status == "fail" and "apt install espeak-ng" in check.advice
    assert doctor.voice(config.parse({"voice": {"outlet": "none"}})).status == "ok"


def test_a_bad_voice_setting_stops_the_start_with_one_line() -> None:
    with pytest.raises(config.ConfigError, match=r"voice\.outlet must be one of"):
        config.parse({"voice": {"outlet": "loud"}})
    with pytest.raises(config.ConfigError, match=r"voice\.volume must be a whole number from 0"):
        config.parse({"voice": {"volume": 140}})
