"""Bot seats: they play every ruleset by the rules, from their seat's knowledge only (spec §9)."""

from __future__ import annotations

import json
import random

import pytest

from companion import cli
from companion.bots import LEVELS, decide, determinise, knowledge
from companion.engine import Game, Rules, violations
from companion.engine.state import State

RULESETS = [
    (("base",), 4),
    (("five-six",), 6),
    (("five-six", "overpopulated"), 5),
    (("dive-dice",), 4),
    (("squid",), 4),
    (("squid", "squid-variant-1"), 3),
    (("densely-populated", "leave-no-one-behind", "all-equal", "atlantis-is-gone"), 4),
    (("escape-1986",), 4),
]


class Ticks:
    """A clock that advances a fixed step per reading, so a time budget buys the same number
    of rounds on every run (the strong level's budget is otherwise real time)."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def played_to_turns(
    rules: Rules, players: int, seed: int, turns: int, mode: str = "digital"
) -> Game:
    """A game played at random until `turns` turns are taken and a seat decides at step 2."""
    game = Game.new(rules, players, seed=seed, mode=mode)
    rng = random.Random(seed)
    while not game.over:
        if game.is_chance():
            game.apply(game.draw())
        elif sum(game.state.turns_taken) >= turns and game.phase == "move":
            return game
        else:
            game.apply(rng.choice(game.legal_actions()))
    raise AssertionError("the game ended first")


def swap_hidden(state: State, seat: int, rng: random.Random) -> State:
    """The same public history with other hidden facts: every other seat's values permuted
    among its people, and the backs of the tiles they keep changed where the deck allows."""
    other = state.copy()
    for owner, people in enumerate(other.seat_people):
        if owner == seat:
            continue
        values = [other.p_value[p] for p in people]
        rng.shuffle(values)
        for p, v in zip(people, values, strict=True):
            other.p_value[p] = v
    return other


@pytest.mark.parametrize("level", LEVELS)
def test_a_decision_does_not_depend_on_what_the_seat_cannot_see(level: str) -> None:
    """Spec §9: other seats' values are hidden from a seat, so its bot's decision must come out
    the same whatever they are (same public history, same seed)."""
    checked = 0
    for seed in range(3):
        game = played_to_turns(Rules(), 4, seed, turns=6)
        seat = game.actor
        assert seat is not None
        first = decide(game, seat, level, random.Random(9), clock=Ticks(0.05), budget_s=0.2)
        for k in range(3):
            hidden = swap_hidden(game.state, seat, random.Random(k))
            assert hidden.p_value != game.state.p_value or k  # at least one swap changed values
            again = decide(
                Game(hidden), seat, level, random.Random(9), clock=Ticks(0.05), budget_s=0.2
            )
            assert again.action == first.action
            checked += 1
    assert checked == 9


def test_knowledge_erases_other_seats_values_and_kept_backs() -> None:
    """Spec §9: a seat knows its own values (it placed them) but no other seat's, and not the
    backs other seats keep in hand; the counts and terrains of held tiles stay (public)."""
    for seed in range(40):
        game = played_to_turns(Rules(), 4, seed, turns=12)
        if any(game.state.hands[s] for s in range(1, 4)):
            break
    else:
        raise AssertionError("no game had another seat holding a red tile")
    s = game.state
    k = knowledge(s, 0)
    assert all(k.p_value[p] == s.p_value[p] for p in s.people_of(0))
    assert all(k.p_value[p] is None for seat in (1, 2, 3) for p in s.people_of(seat))
    for seat in (1, 2, 3):
        assert [t for t, _ in k.hands[seat]] == [t for t, _ in s.hands[seat]]
        assert all(back is None for _, back in k.hands[seat])
    assert k.seed != s.seed or s.seed == 0
    # a determinised game is whole again, and the engine finds nothing wrong with it
    sample = determinise(k, 0, random.Random(3))
    assert all(sample.p_value[p] is not None for p in s.p_owner if s.p_kind[p] != 0)
    assert violations(Game(sample)) == []
    for seat in (1, 2, 3):
        assert sorted(sample.p_value[p] for p in s.people_of(seat)) == sorted(
            s.p_value[p] for p in s.people_of(seat)
        )


@pytest.mark.parametrize(("modules", "players"), RULESETS)
def test_bots_play_every_ruleset_by_the_rules(modules: tuple[str, ...], players: int) -> None:
    """B-4 ... E-8: a bot, in every ruleset and kit, only ever takes legal actions (apply would
    refuse anything else) and breaks no invariant, in digital and physical games."""
    rules = Rules(modules=modules)
    index = RULESETS.index((modules, players))
    modes = [("digital", ("easy", "normal")[index % 2])]  # strong: in the fairness test
    if modules in (("base",), ("escape-1986",)):
        modes.append(("physical", "normal"))  # values and backs unknown to the companion too
    for mode, level in modes:
        game = Game.new(rules, players, seed=index, mode=mode)
        rng = random.Random(players)
        bot = index % players
        decided = 0
        while not game.over:
            if game.is_chance():
                game.apply(game.draw())
                continue
            seat = game.actor
            if seat == bot:
                decision = decide(game, seat, level, rng, budget_s=0.01)
                assert decision.action in game.legal_actions()
                assert decision.why
                game.apply(decision.action)
                decided += 1
            else:
                game.apply(rng.choice(game.legal_actions()))
            assert violations(game) == []
        assert game.result() is not None
        assert decided > 10


def test_simulate_with_bots_reports_them_and_no_violations(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`companion simulate --bots 3 --players 4`: three bots and one random seat, rotating."""
    status = cli.main(
        ["simulate", "--bots", "3", "--players", "4", "--games", "2", "--seed", "2", "--json"]
    )
    summary = json.loads(capsys.readouterr().out)
    assert status == 0
    assert summary["bots"] == 3 and summary["level"] == "normal"
    assert summary["games"] == 2 and summary["invariant_violations"] == 0


def test_simulate_refuses_more_bots_than_seats(capsys: pytest.CaptureFixture[str]) -> None:
    status = cli.main(["simulate", "--bots", "5", "--players", "4", "--games", "1"])
    assert status == 2
    assert "--bots must be between 0 and the 4 players" in capsys.readouterr().err


def test_a_bot_is_asked_only_on_its_own_turn() -> None:
    game = played_to_turns(Rules(), 4, 1, turns=2)
    other = (game.actor or 0) + 1
    with pytest.raises(ValueError, match="not to act now"):
        decide(game, other % 4, "normal", random.Random(1))


def test_bench_bots_prints_the_strength_and_time_figures() -> None:
    """`companion bench bots`: a win rate per match-up (a share of games) and each level's p95."""
    from companion import bench_bots

    figures = bench_bots.bots(games=1, budget_s=0.01, workers=1)
    assert set(figures) == {
        "bots.normal_vs_random_win_rate",
        "bots.normal_vs_greedy_win_rate",
        "bots.strong_vs_normal_win_rate",
        "bots.decision_p95_ms_normal",
        "bots.decision_p95_ms_strong",
    }
    assert all(0 <= figures[k] <= 1 for k in figures if k.endswith("win_rate"))
    assert all(figures[k] > 0 for k in figures if "decision" in k)


def test_bot_games_run_the_garbage_collector_seldom_and_restore_it_after() -> None:
    """`few_collections` (around every simulated or benchmarked game) raises the collector's
    threshold for the game only, also when the game raises."""
    import gc

    from companion.bots.arena import few_collections

    before = gc.get_threshold()
    with pytest.raises(RuntimeError), few_collections():
        assert gc.get_threshold()[0] > before[0]
        raise RuntimeError("a game that breaks")
    assert gc.get_threshold() == before
