"""The commands around the daemon: games, replay and export on a game played through the
Table; doctor; install-service checked by systemd's own verifier; demo as a real process."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest
from serial.tools.list_ports_common import ListPortInfo

from companion import cli, history
from companion.commands import Command
from companion.engine import REFEREE, Game, notation
from companion.store import Store
from companion.table import Table
from tests.daemon_support import (
    COMPANION,
    environment,
    free_port,
    running,
    stop,
    wait_http_200,
)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def play(table: Table, store: Store, seed: int) -> tuple[int, str]:
    """A whole 2-player game through the Table's face, with one move undone on the way.

    Returns the game's id and the notation of the undone move.
    """
    reply = table.call(
        Command(
            "cli",
            intent="new_game",
            args={"players": [{"name": "Ana", "colour": "red"}, {"name": "Ben"}], "seed": seed},
        )
    )
    assert reply.accepted, reply
    game_id = reply.game
    assert game_id is not None
    rng = random.Random(seed)
    undone = ""
    game = history.replay_game(store.game(game_id), [])
    applied = 0
    while True:
        rows = store.log(game_id)
        for row in rows[applied:]:  # keep a copy of the game in step with the stored log
            game.apply(row.action)
        applied = len(rows)
        if game.over:
            return game_id, undone
        if game.is_chance():
            reply = table.call(Command("cli", intent="draw"))
        else:
            action = rng.choice(game.legal_actions())
            reply = table.call(Command("phone", seat=game.actor, action=list(action)))
            if not undone and action[0] == "move":
                undo = table.call(Command("phone", seat=game.actor, intent="undo"))
                assert undo.accepted, undo
                undone = notation(action)
                game = history.replay_game(store.game(game_id), [])
                applied = 0
        assert reply.accepted, reply


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int, str]:
    """A config whose store holds one finished game (and an unfinished second one)."""
    tmp_path = tmp_path_factory.mktemp("played")
    store = Store(tmp_path / "games.db")
    table = Table(store)  # not started: commands run in this thread, in order all the same
    game_id, undone = play(table, store, seed=3)
    table.call(
        Command("cli", intent="new_game", args={"players": [{"name": "Cy"}, {"name": "Di"}]})
    )
    store.close()
    cfg = tmp_path / "companion.toml"
    cfg.write_text(f'[store]\npath = "{tmp_path / "games.db"}"\n')
    return cfg, game_id, undone


def test_games_lists_every_stored_game_with_its_winner(
    played: tuple[Path, int, str], capsys: pytest.CaptureFixture[str]
) -> None:
    cfg, game_id, _ = played
    status, out, _ = run(capsys, "games", "--config", str(cfg))
    assert status == 0
    header, first, second = out.strip().splitlines()
    assert header.split() == ["id", "kind", "players", "started", "ended", "winner"]
    assert first.startswith(f"{game_id} ") and "Ana, Ben" in first
    record = Store(cfg.parent / "games.db").game(game_id)
    assert record.outcome is not None
    winners = [["Ana", "Ben"][s] for s in record.outcome["winners"]]
    assert first.rstrip().endswith(", ".join(winners) + (" (shared)" if len(winners) > 1 else ""))
    assert "Cy, Di" in second and second.rstrip().endswith("in play")


def test_replay_tells_the_game_turn_by_turn_with_the_undone_move(
    played: tuple[Path, int, str], capsys: pytest.CaptureFixture[str]
) -> None:
    cfg, game_id, undone = played
    status, out, _ = run(capsys, "replay", str(game_id), "--config", str(cfg))
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith(
        f"Game {game_id} (survive, digital, seed 3 [typed at setup, for tests: predictable]): "
        "A Ana (red), B Ben"
    )
    assert "Turn 1: Ana (seat 1)" in lines
    assert f"(undone: {undone}; undone by phone)" in out
    assert any("the die shows" in line for line in lines)
    assert "Result" in lines
    # Every stored action appears once, in order: those in force in the engine's notation.
    store = Store(cfg.parent / "games.db")
    numbered = [line for line in lines if line[:6].strip().isdigit()]
    assert [int(line[:6]) for line in numbered] == [
        r.seq for r in store.log(game_id, everything=True)
    ]
    in_force = [line[8:].split(" [")[0].strip() for line in numbered if "(undone" not in line]
    assert in_force == [notation(tuple(r.action)) for r in store.log(game_id)]


def test_export_is_the_whole_record_and_the_final_referee_view(
    played: tuple[Path, int, str], capsys: pytest.CaptureFixture[str]
) -> None:
    cfg, game_id, undone = played
    status, out, _ = run(capsys, "export", str(game_id), "--config", str(cfg))
    assert status == 0
    data = json.loads(out)
    store = Store(cfg.parent / "games.db")
    record = store.game(game_id)
    assert data["game"]["id"] == game_id and data["game"]["seed"] == 3
    assert data["game"]["outcome"] == record.outcome
    assert data["rules"] == record.rules
    assert [p["name"] for p in data["players"]] == ["Ana", "Ben"]
    everything = store.log(game_id, everything=True)
    assert [a["seq"] for a in data["actions"]] == [r.seq for r in everything]
    statuses = {a["status"] for a in data["actions"]}
    assert statuses == {"ok", "undone"}
    assert [a["notation"] for a in data["actions"] if a["status"] == "undone"] == [undone]
    final = data["final"]
    assert final["viewer"] == "referee" and final["phase"] == "over"
    assert final["result"] == record.outcome


def test_replay_and_export_of_a_game_that_is_not_there(
    played: tuple[Path, int, str], capsys: pytest.CaptureFixture[str]
) -> None:
    cfg, _, _ = played
    for command in ("replay", "export"):
        status, out, err = run(capsys, command, "99", "--config", str(cfg))
        assert (status, out) == (1, "")
        assert "there is no game 99" in err


def test_games_without_a_game_log_creates_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cfg = tmp_path / "companion.toml"
    cfg.write_text(f'[store]\npath = "{tmp_path / "nothing" / "games.db"}"\n')
    status, out, _ = run(capsys, "games", "--config", str(cfg))
    assert status == 0 and "no game has been played here yet" in out
    assert not (tmp_path / "nothing").exists()


def test_reading_commands_leave_a_damaged_game_log_where_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "games.db"
    db.write_bytes(b"not a database at all" * 200)
    cfg = tmp_path / "companion.toml"
    cfg.write_text(f'[store]\npath = "{db}"\n')
    for command in (["games"], ["replay", "1"], ["export", "1"]):
        status, out, err = run(capsys, *command, "--config", str(cfg))
        assert (status, out) == (1, "")
        assert f"the game log {db} cannot be read now" in err
    # Only the daemon's start may move a log aside; a command that reads never does.
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("games.db")] == ["games.db"]


# -- doctor -------------------------------------------------------------------------------


def pico() -> ListPortInfo:
    port = ListPortInfo("/dev/ttyACM0", skip_link_detection=True)
    port.vid, port.pid = 0x2E8A, 0x0005
    return port


def test_doctor_on_a_healthy_store_exits_0_and_names_every_part(
    played: tuple[Path, int, str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cfg, _, _ = played
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: [pico()])
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    status, out, _ = run(capsys, "doctor", "--config", str(cfg))
    assert status == 0, out
    lines = {line.split()[1]: line for line in out.splitlines() if line[:4] in ("ok  ", "warn")}
    assert set(lines) >= {"config", "store", "gpio", "serial", "camera", "web", "hotspot", "portal"}
    assert "2 game(s), integrity ok, journal wal" in lines["store"]
    assert str(cfg.parent / "games.db") in lines["store"]
    # The file system comes from /proc/mounts.
    assert any(f", {fs})" in lines["store"] for fs in ("ext4", "tmpfs", "overlay", "xfs", "btrfs"))
    assert "/dev/ttyACM0 2E8A:0005 (Raspberry Pi Pico)" in lines["serial"]
    assert "MockFactory" in lines["gpio"]
    assert "picamera2" in lines["camera"]
    assert out.rstrip().endswith(")") or out.rstrip().endswith("nothing is broken")


def test_doctor_fails_on_a_corrupt_store_and_a_gpio_panel_without_pin_factory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "games.db"
    Store(db).close()
    with open(db, "r+b") as f:  # keep the header, break the pages
        f.seek(200)
        f.write(b"\xff" * 3000)
    cfg = tmp_path / "companion.toml"
    cfg.write_text(f'[store]\npath = "{db}"\n[panel]\nkind = "gpio"\n')
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-factory")
    status, out, _ = run(capsys, "doctor", "--config", str(cfg))
    assert status == 1
    fails = [line for line in out.splitlines() if line.startswith("fail")]
    assert [line.split()[1] for line in fails] == ["store", "gpio"]
    assert "python3-lgpio" in out
    assert out.rstrip().endswith("broken: store, gpio")
    assert db.exists()  # doctor only looks: the file was not moved aside


# -- install-service ----------------------------------------------------------------------


def verify(unit: Path) -> subprocess.CompletedProcess[str]:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.fail(
            "systemd-analyze is not installed, so the unit cannot be verified: install the "
            "Debian package systemd (the Makefile's APT_PACKAGES has it; run `make` as root)"
        )
    return subprocess.run(
        [analyze, "verify", "--man=no", str(unit)], capture_output=True, text=True, timeout=60
    )


def test_install_service_writes_a_unit_that_systemd_analyze_verify_accepts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    unit = tmp_path / "companion.service"
    status, out, _ = run(capsys, "install-service", "--user", "atlantis", "--output", str(unit))
    assert status == 0
    text = unit.read_text()
    lines = set(text.splitlines())
    executable = next(line for line in lines if line.startswith("ExecStart="))
    path = Path(executable.removeprefix("ExecStart=").split()[0])
    assert path.is_absolute() and path.name == "companion" and path.is_file()
    assert executable.endswith(" serve")
    for expected in (
        "Type=notify",
        "NotifyAccess=main",
        "WatchdogSec=30",
        "Restart=on-failure",
        "User=atlantis",
        "SupplementaryGroups=gpio dialout video",
        "StateDirectory=companion",
        "WorkingDirectory=%S/companion",
        "AmbientCapabilities=CAP_NET_BIND_SERVICE",  # port 80, for phones' captive-portal checks
    ):
        assert expected in lines
    # verify reads the file as systemd would; it checks that ExecStart= exists and is
    # executable, and prints every unknown key or bad value on stderr even when it exits 0.
    result = verify(unit)
    assert result.returncode == 0, result.stderr
    assert result.stderr == "", result.stderr
    assert "sudo systemctl enable --now companion.service" in out
    assert f"sudo cp {unit} /etc/systemd/system/companion.service" in out


def test_systemd_analyze_verify_does_catch_a_broken_unit(tmp_path: Path) -> None:
    """The check above means something: verify complains about what a typo would do."""
    unit = tmp_path / "companion.service"
    cli.main(["install-service", "--output", str(unit)])
    text = unit.read_text()
    broken = text.replace("WatchdogSec=30", "WatchdogSecs=30").replace(
        f"ExecStart={COMPANION}", f"ExecStart={tmp_path / 'missing' / 'companion'}"
    )
    unit.write_text(broken)
    result = verify(unit)
    assert "WatchdogSecs" in result.stderr
    assert result.returncode != 0 and "missing/companion" in result.stderr


def test_install_service_refuses_root(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    unit = tmp_path / "companion.service"
    status, _, err = run(capsys, "install-service", "--user", "root", "--output", str(unit))
    assert status == 2 and "must not run as root" in err
    assert not unit.exists()


# -- demo as a real process ---------------------------------------------------------------


def test_demo_needs_no_configuration_file_and_shows_its_game(tmp_path: Path) -> None:
    port = free_port()
    # No config anywhere ($HOME is empty), and $COMPANION_CONFIG names a file that does not
    # exist: the demo reads no configuration at all.
    env = environment(tmp_path, COMPANION_CONFIG=str(tmp_path / "absent.toml"))
    env.pop("STATE_DIRECTORY")
    with running(["demo", "--port", str(port), "--seed", "11"], env) as proc:
        _, body = wait_http_200(f"http://127.0.0.1:{port}", ("/api/games",))
        status, out, err = stop(proc)
    assert status == 0, err
    games = json.loads(body)["games"]
    assert len(games) == 1
    assert f"http://127.0.0.1:{port}/" in out
    assert f"panel page: http://127.0.0.1:{port}/panel" in out  # the simulated panel
    assert "seed 11" in out
    assert list(tmp_path.iterdir()) == []  # nothing written in $HOME
    folder = next(w for w in out.split() if "companion-demo-" in w)
    assert not Path(folder).exists()  # the throw-away game log is gone


def test_position_of_a_stored_game_now_and_at_an_action(
    played: tuple[Path, int, str], capsys: pytest.CaptureFixture[str]
) -> None:
    """`companion position GAME [--at SEQ]`: the referee's position, read back as the game
    replayed to that action; an action not in force (the undone move) is refused."""
    cfg, game_id, _ = played
    store = Store(cfg.parent / "games.db")
    record, rows = store.game(game_id), store.log(game_id, everything=True)
    status, out, _ = run(capsys, "position", str(game_id), "--config", str(cfg))
    assert status == 0
    assert Game.from_position(out).referee_view() == history.replay_game(record, rows).view(REFEREE)
    live = [r for r in rows if r.status == "ok"]
    middle = live[len(live) // 2]
    status, out, _ = run(
        capsys, "position", str(game_id), "--at", str(middle.seq), "--config", str(cfg)
    )
    upto = live[: live.index(middle) + 1]
    assert status == 0 and out == history.replay_game(record, upto).position()  # type: ignore[union-attr]
    undone = next(r for r in rows if r.status == "undone")
    status, out, err = run(
        capsys, "position", str(game_id), "--at", str(undone.seq), "--config", str(cfg)
    )
    assert (status, out) == (1, "") and "no action" in err
