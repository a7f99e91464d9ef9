"""A bad configuration stops every command that reads it with one line naming the key and the
form expected, and exit status 2, before anything starts."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion import cli, config


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


BAD = {
    "unknown section": ("[webserver]\nport = 80\n", ["[webserver]", "[web]"]),
    "unknown key": ("[web]\nprot = 80\n", ["web.prot", "port"]),
    "wrong type": ('[web]\nthreads = "many"\n', ["web.threads", "a whole number from 4 to 256"]),
    "bad port": ("[web]\nport = 70000\n", ["web.port", "from 1 to 65535", "70000"]),
    "bad camera source": (
        '[camera]\nsource = "webcam"\n',
        ["camera.source", '"usb:N"', "'webcam'"],
    ),
    "invalid TOML": ("[web\nport = 80\n", ["not valid TOML", "line 1"]),
    # Issue 14: a 4-digit PIN is guessed in hours at 5 tries a minute per address.
    "short PIN": ('[security]\npin = "2468"\n', ["security.pin", "6 to 8 digits", "'2468'"]),
}


@pytest.mark.parametrize("case", list(BAD))
def test_a_bad_config_is_one_line_naming_the_key_and_exit_status_2(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, named = BAD[case]
    path = tmp_path / "companion.toml"
    path.write_text(text)
    status, out, err = run(capsys, "games", "--config", str(path))
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("companion games: ")
    for words in named:
        assert words in err
    assert str(path) in err


@pytest.mark.parametrize("command", ["serve", "games", "replay 1", "export 1", "doctor"])
def test_every_command_that_reads_the_config_stops_before_doing_anything(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "companion.toml"
    path.write_text(f'[store]\npath = "{tmp_path / "games.db"}"\n[panel]\nkind = "usb"\n')
    status, out, err = run(capsys, *command.split(), "--config", str(path))
    assert (status, out) == (2, "")
    assert "panel.kind" in err and '"gpio", "serial", "sim", "none"' in err
    assert not (tmp_path / "games.db").exists()  # nothing was opened, nothing created


def test_a_missing_config_file_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "games", "--config", str(tmp_path / "nope.toml"))
    assert status == 2 and f"{tmp_path / 'nope.toml'} does not exist" in err


def test_the_config_is_found_through_the_environment_and_gives_the_store_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "companion.toml"
    path.write_text('[store]\npath = "~/games.db"\n[web]\nport = 8123\n')
    monkeypatch.setenv("COMPANION_CONFIG", str(path))
    monkeypatch.setenv("HOME", str(tmp_path))
    cfg = config.load(None)
    assert cfg.source == path
    assert cfg["web.port"] == 8123 and cfg["web.threads"] == 16
    assert cfg.store_path == tmp_path / "games.db"


def test_without_a_store_path_the_game_log_lives_in_systemds_state_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STATE_DIRECTORY", f"{tmp_path}/state:{tmp_path}/other")
    assert config.parse({}).store_path == tmp_path / "state" / "games.db"
