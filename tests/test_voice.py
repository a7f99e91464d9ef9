"""The table's voice (companion.voice): what it says, in three languages, spoken by espeak-ng
into WAV files that sox measures; what it never says (a value, a held tile: spec §9, tested by
difference through the Table); and its queue, which drops stale news under a burst and never
makes the Table wait."""

from __future__ import annotations

import re
import shutil
import subprocess
import threading
import time
from pathlib import Path

import pytest

from companion.commands import SPECTATOR, Command
from companion.table import Table
from companion.voice import bench as voice_bench
from companion.voice.announcer import Announcer
from companion.voice.speaker import Speaker, espeak_command
from companion.voice.words import LANGUAGES, LEVEL, Announcement, Narrator
from tests.playing import mirror, new_game
from tests.test_web_hidden import DIGITAL, PHYSICAL, SEED, Scenario, two_games
from tests.voice_support import FLOTILLA_RESULT, SAMPLES, sample, snapshot
from tests.web_support import close, play, sender, started_table, wait_for

ARTIFACTS = Path(__file__).resolve().parent / "artifacts" / "voice"


def test_every_announcement_kind_has_a_sample_and_a_sentence_in_every_language() -> None:
    assert set(SAMPLES) == set(LEVEL)
    for kind in SAMPLES:
        texts = {lang: sample(kind, lang).text for lang in LANGUAGES}
        for lang, text in texts.items():
            assert text and "{" not in text and "voice." not in text, (kind, lang, text)
        if kind not in ("corrected",):  # "Corrected." / "Corregido." / "Corrigé." differ anyway
            assert len(set(texts.values())) == 3, (kind, texts)


def test_the_announcements_name_what_the_issue_asks_for() -> None:
    assert sample("turn", "en").text == "Ana's turn."
    assert sample("whirlpool", "en").text == "A whirlpool at 6.4."
    assert sample("wrecked_of", "en").text == "Bruno's boat is wrecked."
    assert sample("tiles_left", "en").text == "3 tiles left on the island."
    assert sample("winner", "en").text == "Chloé wins with 14 points."
    assert sample("rolled", "en").text.startswith("Shark — move one shark")
    assert sample("winner", "es").text == "Gana Chloé con 14 puntos."
    assert sample("winner", "fr").text == "Chloé gagne avec 14 points."


def test_E_6_a_1986_winner_is_said_with_the_people_saved() -> None:
    """E-6: the most people saved wins the 1986 game, so that is what is said."""
    narrator = Narrator("en")
    narrator.learn(snapshot(modules=("escape-1986",)))
    [said] = narrator.narrate("result", SAMPLES["winner"][2])
    assert said.text == "Chloé wins with 5 people saved."


def test_a_flotilla_game_says_turns_the_end_countdown_and_the_winner() -> None:
    narrator = Narrator("en")
    narrator.learn(snapshot("flotilla"))
    assert [a.text for a in narrator.narrate("turn", {"seat": 1, "round": 2})] == ["Bruno's turn."]
    [end] = narrator.narrate("game_over", {"result": FLOTILLA_RESULT})
    assert end.text == "Bruno wins with 21 points."
    assert narrator.narrate("dived", {"seat": 1}) == []  # a Flotilla dive is no dive dice roll


def test_verbosity_turns_says_less_than_events_which_says_less_than_all(table: Table) -> None:
    levels = {}
    for verbosity in ("turns", "events", "all"):
        voice = Announcer(table, "en", "screen", verbosity)
        for kind in SAMPLES:
            voice.announce(sample(kind, "en"))
        levels[verbosity] = {a["kind"] for a in voice.said(0)}
    assert levels["turns"] == {"turn", "game_over", "winner", "winners", "end_triggered"}
    assert levels["turns"] < levels["events"] < levels["all"] == set(SAMPLES)
    assert "sunk" not in levels["events"]


# -- spoken by espeak-ng, measured by sox ------------------------------------------------------


def tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is missing: install the Debian package (the Makefile's APT_PACKAGES)")
    return found


def measure(wav: Path) -> dict[str, float]:
    """sox's `stat` of a WAV: its length in seconds and its RMS amplitude, among others."""
    done = subprocess.run(
        [tool("sox"), str(wav), "-n", "stat"], capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 0, done.stderr
    figures = {}
    for line in done.stderr.splitlines():
        name, _, value = line.partition(":")
        try:
            figures[name.strip()] = float(value.strip())
        except ValueError:
            continue
    return figures


@pytest.mark.parametrize("lang", LANGUAGES)
def test_espeak_ng_speaks_every_announcement_kind_audibly_and_briefly(lang: str) -> None:
    tool("espeak-ng")
    folder = ARTIFACTS / lang
    folder.mkdir(parents=True, exist_ok=True)
    for kind in SAMPLES:
        said = sample(kind, lang)
        wav = folder / f"{kind}.wav"
        wav.unlink(missing_ok=True)
        done = subprocess.run(
            espeak_command(said.text, lang, 80, wav), capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 0 and done.stderr == "", (kind, done.stderr)
        stat = measure(wav)
        words = len(said.text.split())
        seconds = stat["Length (seconds)"]
        # A word takes about 0.2–0.6 s at espeak-ng's 160 words a minute; never silence.
        assert 0.15 * words <= seconds <= 1.0 * words + 1.0, (kind, lang, said.text, seconds)
        assert stat["RMS     amplitude"] > 0.02, (kind, lang, stat)
        assert stat["Maximum amplitude"] > 0.2, (kind, lang, stat)


def test_silence_would_be_caught_by_the_measure(tmp_path: Path) -> None:
    """The loudness check above means something: a WAV of silence fails it."""
    silent = tmp_path / "silent.wav"
    subprocess.run(
        [tool("sox"), "-n", "-r", "22050", "-c", "1", str(silent), "trim", "0", "2"],
        check=True, timeout=30,
    )  # fmt: skip
    assert measure(silent)["RMS     amplitude"] < 0.001


# -- the queue --------------------------------------------------------------------------------


def test_the_speaker_keeps_the_newest_and_drops_stale_news_under_a_burst() -> None:
    """50 announcements in one second while each takes 0.2 s to say: the speaker says the
    first and the newest few, drops the rest, in order."""
    spoken: list[str] = []

    def speak(a: Announcement) -> None:
        spoken.append(a.text)
        time.sleep(0.2)

    speaker = Speaker(speak, keep=3, stale=5.0)
    speaker.start()
    try:
        for n in range(50):
            speaker.say(Announcement("turn", f"news {n}", "en", 1, n))
            time.sleep(0.02)
        wait_for(speaker.idle, 10, "the speaker emptied its queue")
        wait_for(lambda: speaker.spoken + speaker.dropped == 50, 10, "every announcement counted")
    finally:
        speaker.stop()
    assert speaker.dropped >= 30
    assert spoken[-1] == "news 49"  # the newest is always said
    assert spoken == sorted(spoken, key=lambda s: int(s.split()[1]))  # in order


def test_the_bench_speaks_as_long_as_a_sound_card_would_so_its_burst_drops_stale_news(
    tmp_path: Path,
) -> None:
    """`companion bench voice` speaks into a WAV file; it waits as long as the sentence lasts,
    as espeak-ng speaking to a sound card does. Writing the file alone takes a few
    milliseconds, and a burst of 50 was then all said, which no speaker at a table can do."""
    tool("espeak-ng")
    speak = voice_bench.to_wav(tmp_path)
    started = time.monotonic()
    speak(Announcement("turn", "Ana's turn.", "en", 1, 0))
    assert time.monotonic() - started >= 0.5 * measure(tmp_path / "said.wav")["Length (seconds)"]
    figures = voice_bench.burst(tmp_path)
    assert figures["voice.burst_dropped_of_50"] >= 40
    assert figures["voice.burst_spoken_of_50"] + figures["voice.burst_dropped_of_50"] == 50


def test_say_never_waits_for_a_speaker_that_is_stuck() -> None:
    gate = threading.Event()
    speaker = Speaker(lambda a: gate.wait(30), keep=3)
    speaker.start()
    try:
        for n in range(50):  # would hang here if say() waited for the speaker
            speaker.say(Announcement("turn", f"news {n}", "en", 1, n))
        assert speaker.dropped >= 46 and len(speaker._waiting) <= 3
    finally:
        gate.set()
        speaker.stop()


def test_an_announcement_that_waited_too_long_is_not_said() -> None:
    now = [0.0]
    spoken: list[str] = []
    gate = threading.Event()
    speaker = Speaker(lambda a: (spoken.append(a.text), gate.wait(5)), keep=5, stale=2.0,
                      clock=lambda: now[0])  # fmt: skip
    speaker.start()
    try:
        speaker.say(Announcement("turn", "first", "en", 1, 1))
        wait_for(lambda: spoken, 5)
        speaker.say(Announcement("turn", "old", "en", 1, 2))
        now[0] = 3.0  # "old" has now waited 3 s, past `stale`
        speaker.say(Announcement("turn", "new", "en", 1, 3))
        gate.set()
        wait_for(lambda: speaker.spoken + speaker.dropped == 3, 5)
    finally:
        speaker.stop()
    assert spoken == ["first", "new"] and speaker.dropped == 1


def test_a_stuck_voice_never_delays_the_table(table: Table) -> None:
    """The speaker stuck outright: a burst of 50 and more events still flows through the Table
    (each command would time out if the Table waited), and the announcer, a spectator
    subscriber, only hands them on. The cost in time is `companion bench voice`'s figure."""
    gate = threading.Event()
    speaker = Speaker(lambda a: gate.wait(30), keep=2)
    voice = Announcer(table, "en", "pi", "all", speaker=speaker)
    voice.start()
    try:
        assert voice._subscriber.view == SPECTATOR and voice._subscriber in table.subscribers
        game = new_game(table, seed=4, mode="digital", layout="random")
        for _ in range(400):  # until the voice has fallen behind
            if voice.heard >= 50 and speaker.dropped:
                break
            g = mirror(table, game)
            action = g.draw() if g.is_chance() else g.legal_actions()[0]
            reply = table.call(Command("phone", sender(g), "", game, action=list(action)), 5)
            assert reply.accepted, reply.message
        wait_for(voice.caught_up, 10, "the narrator caught up")
        assert speaker.dropped > 0 and len(speaker._waiting) <= 2
    finally:
        gate.set()
        voice.stop()


def test_the_voice_words_nothing_while_the_table_has_a_command_in_hand(table: Table) -> None:
    """The narrator shares the interpreter with the Table: it words an event only once the
    Table is quiet, never on the Table's thread, so a command never waits for it."""
    threads: list[str] = []
    voice = Announcer(table, "en", "screen", "all")
    narrate = voice.narrator.narrate

    def narrating(*args: object, **kwargs: object) -> list[Announcement]:
        threads.append(threading.current_thread().name)
        return narrate(*args, **kwargs)  # type: ignore[arg-type]

    voice.narrator.narrate = narrating  # type: ignore[method-assign]
    voice.start()
    try:
        new_game(table, seed=4, mode="digital", layout="random")
        wait_for(voice.caught_up, 10, "the narrator caught up")
        told = voice.told
        held, go = threading.Event(), threading.Event()
        busy = table.submit(Command("cli", intent="new_game", args={"players": [{}] * 4}))
        table._on_thread(lambda: (held.set(), go.wait(10)))  # the Table busy with a job
        held.wait(10)
        assert busy.done()  # the new game's events are out, and the Table is still busy
        time.sleep(0.3)
        assert voice.told == told and voice.heard > told  # heard, not worded
        go.set()
        wait_for(voice.caught_up, 10, "the narrator caught up")
        assert voice.told > told
    finally:
        go.set()
        voice.stop()
    assert threads and "table" not in threads


def test_a_burst_of_50_announcements_in_a_second_drops_stale_news_and_the_table_goes_on(
    table: Table,
) -> None:
    """Commands through the Table as fast as 50 announcements a second come of them, while
    the speaker is still saying the one before the burst: the Table carries every command out
    (it never waits for the voice: the stuck test below shows it), the speaker says the newest
    few, in order, on a thread of its own, and drops the rest as stale. The sentence before the
    burst lasts until the burst is over, so what is dropped does not depend on how fast a loaded
    machine runs the commands."""
    spoken: list[Announcement] = []
    threads: set[str] = set()
    handed: list[Announcement] = []
    talking = threading.Event()
    burst_over = threading.Event()

    def speak(a: Announcement) -> None:
        threads.add(threading.current_thread().name)
        spoken.append(a)
        if talking.is_set():
            burst_over.wait(30)
        else:
            time.sleep(0.05)

    speaker = Speaker(speak, keep=3)
    say = speaker.say
    speaker.say = lambda a: (handed.append(a), say(a))[1]  # type: ignore[method-assign]
    voice = Announcer(table, "en", "pi", "all", speaker=speaker)
    voice.start()
    try:
        game = new_game(table, seed=4, mode="digital", layout="random")
        wait_for(voice.caught_up, 10, "the narrator caught up")
        wait_for(speaker.idle, 10, "the speaker emptied its queue")
        before, dropped = len(handed), speaker.dropped
        talking.set()
        started = time.monotonic()
        while len(handed) - before < 50:
            g = mirror(table, game)
            action = g.draw() if g.is_chance() else g.legal_actions()[0]
            reply = table.call(Command("phone", sender(g), "", game, action=list(action)), 5)
            assert reply.accepted, reply.message
            time.sleep(max(0.0, started + (len(handed) - before) / 50 - time.monotonic()))
        wait_for(voice.caught_up, 10, "the narrator caught up")
        burst_over.set()
        done = len(handed)
        wait_for(lambda: speaker.spoken + speaker.dropped == done, 10, "every one said or dropped")
    finally:
        voice.stop()
    burst = handed[before:]
    said = [a for a in spoken if a in burst]
    # one sentence in the speaker's mouth and `keep` waiting: everything else was stale
    assert speaker.dropped - dropped >= len(burst) - 1 - 3
    assert said and said[-1] == burst[-1]  # the newest is said
    assert [a.seq for a in said] == sorted(a.seq for a in said)
    assert threads == {"speaker"}


# -- what is never said (spec §9) -------------------------------------------------------------


def spoken_through_the_table(folder: Path, actions: list[tuple], scenario: Scenario) -> list[str]:
    table = started_table(folder / "games.db")
    voice = Announcer(table, "en", "screen", "all", kept=10_000)
    voice.start()
    try:
        game = table.call(Command("cli", intent="new_game", args={
            "players": [{"name": n} for n in ("Ana", "Bo", "Cy", "Di")], "seed": SEED,
            "mode": scenario.mode, "layout": scenario.layout,
            "modules": scenario.rules.modules, "options": scenario.rules.options,
        })).game  # fmt: skip
        assert game is not None
        play(table, game, list(actions), scenario.rules, 4, SEED, scenario.mode, scenario.layout)
        wait_for(voice.caught_up, 10, "the narrator caught up")
        return [a["text"] for a in voice.said(0)]
    finally:
        voice.stop()
        close(table)


@pytest.mark.parametrize("scenario", [PHYSICAL, DIGITAL], ids=["kept-red-backs", "values"])
def test_nothing_hidden_is_ever_spoken_before_the_end(tmp_path: Path, scenario: Scenario) -> None:
    """§9: two games with the same public history and different hidden facts (the backs of
    red tiles kept, the values placed) are told in exactly the same words until the end: the
    voice, a spectator, cannot say what it does not see."""
    first, second = two_games(scenario)
    one = spoken_through_the_table(tmp_path / "one", first, scenario)
    two = spoken_through_the_table(tmp_path / "two", second, scenario)
    assert len(one) > 50  # a whole game told, turn by turn
    assert one == two
    assert not any(re.search(r"\bvalue|worth\b", text) for text in one)


def test_the_narrator_ignores_the_secret_part_of_an_event_it_is_never_sent() -> None:
    """Even fed a referee's projection (the voice never is), nothing secret has a sentence."""
    narrator = Narrator("en")
    narrator.learn(snapshot())
    placed = {"person": "A1", "hex": "5.2", "value": 6}
    kept = {"seat": 0, "hex": "5.2", "terrain": "beach", "back": "whale"}
    assert narrator.narrate("placed", placed) == [] and narrator.narrate("kept", kept) == []


def test_stopping_the_voice_ends_a_screens_wait_for_news(table: Table) -> None:
    """A table screen asks for news with a wait of up to 25 s; the daemon stops its voice
    before its server, which waits for the request's thread: a wait begun before the stop
    ends at once, and one asked for after it does not begin."""
    voice = Announcer(table, "en", "screen", "all")
    voice.start()

    def waiting() -> tuple[threading.Thread, list[object]]:
        answers: list[object] = []
        thread = threading.Thread(target=lambda: answers.append(voice.said(voice.last_id(), 20)))
        thread.start()
        return thread, answers

    before, before_answers = waiting()
    time.sleep(0.2)  # the screen is waiting
    voice.stop()
    after, after_answers = waiting()
    for thread in (before, after):
        thread.join(3)
        assert not thread.is_alive()
    assert before_answers == after_answers == [[]]
