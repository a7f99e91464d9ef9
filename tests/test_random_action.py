"""`Game.random_action`: a uniformly random legal action, drawn without listing every action
where the engine knows how (movement points, placement, boats placed, tiles removed), for
random playouts and bots.

A sampler that offered a move the rules refuse, or favoured some moves (a piece first, then one
of its moves, favours the pieces with few), would change every random playout: these tests
fail on either.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

from companion.engine import Game, Rules, board, chance, movement, parse, setup, sinking
from companion.engine.game import SAMPLERS
from companion.engine.state import BOAT, DONE, LAND, SEA, Action
from tests.position import Position

ALL_KITS = Rules(("base", "five-six", "overpopulated", "dive-dice", "squid"))
GAMES = [(Rules(), 4), (ALL_KITS, 6), (Rules(("escape-1986",)), 4)]


def every_state(
    rules: Rules, players: int, games: int, rng: random.Random
) -> Iterator[tuple[int, Game]]:
    """Random games of seeds 0, 1, ... `games` - 1, after each decision: (seed, game)."""
    for seed in range(games):
        game = Game.new(rules, players, seed=seed)
        while not game.over:
            game.apply(game.draw() if game.is_chance() else game.random_action(rng))
            yield seed, game


def positions(rules: Rules, players: int, seed: int, phase: str, every: int) -> list[Game]:
    """Copies of one random game at every `every`-th decision of `phase`."""
    rng = random.Random(seed)
    game = Game.new(rules, players, seed=seed)
    found: list[Game] = []
    seen = 0
    while not game.over:
        if game.phase == phase:
            seen += 1
            if seen % every == 0:
                found.append(game.copy())
        game.apply(game.draw() if game.is_chance() else game.random_action(rng))
    return found


@pytest.mark.rule("B-14")
@pytest.mark.parametrize(("rules", "players"), GAMES)
def test_B_14_the_boats_a_seat_may_sail_are_kept_in_step_with_the_boats_and_their_people(
    rules: Rules, players: int
) -> None:
    """B-14: `State.sailable`, kept by the pieces as boats come, go and are boarded and left
    (movement asks it at every point), is at every decision of random games (boats placed,
    sailed, wrecked, brought and taken by boat tiles, boarded by swimmers and from land) the
    boats each seat controls, found anew."""
    rng = random.Random(3)
    shared = 0  # decisions with a boat of two or three people aboard
    for seed in range(4):
        game = Game.new(rules, players, seed=seed)
        while not game.over:
            game.apply(game.draw() if game.is_chance() else game.random_action(rng))
            s = game.state
            for seat in range(players):
                mine = [b for b, pos in enumerate(s.b_pos) if pos != -1 and s.controls(seat, b)]
                assert s.sailable[seat] == mine, (seed, game.phase, seat)
            shared += any(len(aboard) > 1 for aboard in s.b_people)
    assert shared > 0


@pytest.mark.rule("B-21")
@pytest.mark.parametrize(("rules", "players"), GAMES)
def test_B_21_the_sea_beside_each_hex_is_kept_in_step_with_the_island(
    rules: Rules, players: int
) -> None:
    """`State.sea_near` (which neighbours of each hex are sea), set when the island is laid
    and kept as tiles are removed (swimmers, boats, creatures and B-21's coastal tiles read
    it), is after the island is laid and after every removal of random games the sea found
    on the island."""
    rng = random.Random(5)
    checked = 0
    for seed in range(3):
        game = Game.new(rules, players, seed=seed)
        seen = game.state.terrain.count(None)
        while not game.over:
            game.apply(game.draw() if game.is_chance() else game.random_action(rng))
            s = game.state
            if game.phase == "terrain" or s.terrain.count(None) == seen:
                continue  # not kept while the island is laid; asked when the sea grew
            seen = s.terrain.count(None)
            checked += 1
            for h in range(board.SIZE):
                sea = tuple(n for n in board.WATER_NEIGHBOURS[h] if s.terrain[n] is None)
                assert board.PICKED[h][s.sea_near[h]] == sea, (seed, game.phase, h)
    assert checked > 3 * 20  # most of each island removed


@pytest.mark.rule("B-8")
@pytest.mark.parametrize(("rules", "players"), GAMES)
def test_B_8_each_seat_s_people_are_counted_by_place_in_step_with_where_they_are(
    rules: Rules, players: int
) -> None:
    """`State.tally` (how many of a seat's people are unplaced, on land, in boats, swimming,
    saved, lost), kept as people are placed, move, are saved and eaten, sizes the movement
    draw: at every decision of random games it is the people counted anew."""
    for seed, game in every_state(rules, players, 4, random.Random(4)):
        s = game.state
        for seat, people in enumerate(s.seat_people):
            counts = Counter(s.p_kind[p] for p in people)
            assert s.tally[seat] == [counts[kind] for kind in range(6)], (seed, game.phase)


@pytest.mark.rule("B-40")
@pytest.mark.parametrize(("rules", "players"), GAMES)
def test_B_40_the_vacant_spaces_are_kept_in_step_with_the_pieces(
    rules: Rules, players: int
) -> None:
    """`State.occupants` (a land tile, swimmers, a boat, creatures on each hex), kept as pieces
    move and tiles are laid and removed, gives the vacant spaces a red tile's creature, a dive
    or a boat at setup may go to: at every decision of random games they are those found from
    the pieces anew."""
    for seed, game in every_state(rules, players, 2, random.Random(6)):
        s = game.state
        taken = set(s.c_pos) | set(s.b_pos)
        found = [
            h for h in range(board.SIZE) if s.is_sea(h) and not s.swimmers[h] and h not in taken
        ]
        assert s.vacant_spaces() == found, (seed, game.phase)
        assert (0 in s.occupants) == bool(found)  # a creature tile's question (B-40)


@pytest.mark.rule("B-13")
@pytest.mark.rule("B-16")
def test_B_13_B_16_a_swimmer_counts_boarding_only_a_boat_with_room() -> None:
    """B-13, B-16: a swimmer boards the boat in its own space only while it holds fewer than
    three; counted without a list, its moves are still `person_moves`' (none boards the full
    boat, one boards the boat with room)."""
    pos = Position(players=3)
    full = [pos.passenger(0, 1), pos.passenger(1, 1), pos.passenger(2, 1)]
    crowded = pos.swimmer(0, "1.3", 2)
    pos.boat("1.3", full)
    roomy = pos.swimmer(0, "1.8", 3)
    pos.boat("1.8", [pos.passenger(1, 2)])
    s = pos.game("move").state
    for p in (crowded, roomy):
        listed: list[Action] = []
        movement.person_moves(s, p, listed)
        found = [movement._kth_afloat(s, p, k) for k in range(movement.MOST_MOVES[SEA])]
        assert [m for m in found if m is not None] == listed
        assert any(m[0] == "board" for m in listed) == (p == roomy)


@pytest.mark.rule("B-15")
@pytest.mark.rule("B-16")
@pytest.mark.parametrize(
    ("rules", "players"),
    [*GAMES, (Rules(("base", "dive-dice"), {"swimmer_after_swim": "yes"}), 4)],
    ids=["base", "all-kits", "1986", "swim-then-board"],
)
def test_B_15_B_16_a_move_afloat_counted_is_the_move_of_that_number_listed(
    rules: Rules, players: int
) -> None:
    """B-15, B-16, D-8, E-3: `random_move` finds a swimmer's or a passenger's move number k
    without listing its moves; at every movement point of random games, for each person of
    the seat in a boat or the sea, the moves so found are `person_moves`' list, in order, and
    none lies past its bound (`MOST_MOVES`)."""
    rng = random.Random(6)
    seen: Counter[object] = Counter()
    for seed in range(2):
        game = Game.new(rules, players, seed=seed)
        while not game.over:
            s = game.state
            if game.phase == "move":
                for p in s.seat_people[s.turn]:
                    kind = s.p_kind[p]
                    if kind in (BOAT, SEA):
                        listed: list[Action] = []
                        movement.person_moves(s, p, listed)
                        bound = movement.MOST_MOVES[kind]
                        found = [movement._kth_afloat(s, p, k) for k in range(bound + 1)]
                        assert found == [*listed, *[None] * (bound + 1 - len(listed))]
                        seen.update(a[0] for a in listed)
                        seen[kind, p in s.swam, bool(listed)] += 1
            game.apply(game.draw() if game.is_chance() else game.random_action(rng))
    # boats and swimmers, before and after a swim, with and without moves, met
    assert {k for k in seen if isinstance(k, tuple)} >= {
        (BOAT, False, True),
        (SEA, False, True),
        (SEA, True, False),
    }
    assert {"move", "board"} <= seen.keys(), seen
    if players == 6 or "escape-1986" in rules.modules:  # D-8, E-3: with a dolphin
        assert "ride" in seen, seen
    if rules.option("swimmer_after_swim") == "yes":
        assert seen[SEA, True, True], seen


@pytest.mark.rule("B-11")
@pytest.mark.rule("B-12")
@pytest.mark.parametrize(("rules", "players"), GAMES)
def test_B_11_B_12_a_seat_can_move_exactly_when_more_than_done_is_listed(
    rules: Rules, players: int
) -> None:
    """B-11, B-12: `can_move` (asked after every movement action; a seat with anyone on land
    answers yes without a look at its people, since every hex but the safe islands has
    neighbours to move to) is at every movement point of random games whether `legal` lists
    more than "done"; seats with nobody on land, with and without a move, are met."""
    assert min(len(board.WATER_NEIGHBOURS[h]) for h in range(board.SIZE) if not board.IS_SAFE[h])
    seen = Counter[tuple[bool, bool]]()
    for seed, game in every_state(rules, players, 4, random.Random(8)):
        s = game.state
        if game.phase == "move":
            can = movement.can_move(s)
            assert can == (movement.legal(s) != [DONE]), (seed, s.turn)
            seen[bool(s.tally[s.turn][LAND]), can] += 1
    assert seen[False, True] and seen[True, True], seen


@pytest.mark.rule("B-16")
def test_B_16_a_seat_whose_only_swimmer_swam_cannot_move_and_its_movement_ends() -> None:
    """B-16, B-11: a seat with nobody on land whose one swimmer swam has no move left:
    `can_move` says so (as `legal`'s lone "done"), and the turn goes on to sinking at once."""
    pos = Position()
    pos.clear_serpents()
    pos.swimmer(0, "2.4")
    game = pos.game("move")
    assert movement.can_move(game.state)
    game.apply(parse("move A1 2.5"))
    assert not movement.can_move(game.state) and movement.legal(game.state) == [DONE]
    assert game.phase == "sink"


@pytest.mark.rule("B-12")
@pytest.mark.parametrize(("rules", "players"), GAMES)
def test_B_12_a_move_from_land_counted_is_the_move_of_that_number_listed(
    rules: Rules, players: int
) -> None:
    """B-12: `random_move` finds the move number k of a person on land without listing its
    moves (by its index among the neighbours when no boat with room lies beside it); at every
    movement point of random games the moves so found are `person_moves`' list, in order,
    boarding included, and none lies past its bound."""
    seen = Counter[str]()
    for seed, game in every_state(rules, players, 3, random.Random(9)):
        s = game.state
        if game.phase != "move":
            continue
        for p in s.seat_people[s.turn]:
            if s.p_kind[p] == LAND:
                listed: list[Action] = []
                movement.person_moves(s, p, listed)
                bound = movement.MOST_MOVES[LAND]
                found = [movement._kth_from_land(s, p, k) for k in range(bound + 1)]
                assert found == [*listed, *[None] * (bound + 1 - len(listed))], (seed, p)
                seen.update(a[0] for a in listed)
    assert seen["move"] and seen["board"], seen


@pytest.mark.rule("B-8")
@pytest.mark.rule("B-5")
@pytest.mark.parametrize(("rules", "players"), GAMES)
def test_B_8_B_5_a_random_action_is_always_one_the_rules_allow(rules: Rules, players: int) -> None:
    """B-8, B-5: at every decision of random games, the drawn action (and every table draw) is
    one of the listed legal actions, and applying it is the same as applying that listed
    action: `apply` takes both without checking them again."""
    rng = random.Random(5)
    for seed in range(3):
        game = Game.new(rules, players, seed=seed)
        while not game.over:
            if game.is_chance():  # the engine's draws are trusted the same way
                drawn = game.draw()
                assert drawn in Game(game.state.copy()).legal_actions(), (game.phase, drawn)
                game.apply(drawn)
                continue
            twin = Game(game.state.copy())
            action = game.random_action(rng)
            assert action in twin.legal_actions(), (game.phase, action)
            assert game.apply(action) == twin.apply(action)
            assert game.to_json() == twin.to_json()


@pytest.mark.rule("B-8")
@pytest.mark.rule("B-5")
@pytest.mark.parametrize("phase", sorted(set(SAMPLERS) - {"effect"}))
def test_B_8_B_5_every_legal_action_is_drawn_equally_often(phase: str) -> None:
    """B-8, B-5: drawn many times at one position, every legal action comes up, each about as
    often as the others (a chi-square test far from its limit for a uniform draw; drawing a
    piece first and then one of its moves fails it by a factor of ten)."""
    rng = random.Random(11)
    every = {"move": 30, "boat": 3}.get(phase, 13)  # a game places ~8 boats
    tried = 0
    for rules, players in GAMES:
        for game in positions(rules, players, 3, phase, every)[:2]:
            legal = game.legal_actions()
            per_action = 200
            sampled = Counter[tuple[object, ...]]()
            for _ in range(per_action * len(legal)):
                fresh = Game(game.state)  # nothing listed yet: the sampler draws
                sampled[fresh.random_action(rng)] += 1
            assert set(sampled) == set(legal)
            chi2 = sum((sampled[a] - per_action) ** 2 / per_action for a in legal)
            df = len(legal) - 1
            assert chi2 < df + 5 * (2 * df) ** 0.5, (phase, len(legal), chi2, df)
            tried += 1
    assert tried >= 4


@pytest.mark.rule("B-40")
def test_B_40_a_red_tile_move_is_the_draw_from_the_whole_list() -> None:
    """B-40 ... B-42 (a creature tile puts a creature on any vacant sea space), B-38, B-39:
    a red tile's move is drawn without listing it, yet it is exactly the action a draw from
    the listed moves gives with the same random numbers, so no playout changes."""
    creature_tiles = 0
    for rules, players in GAMES:
        for game in positions(rules, players, 3, "effect", 1):
            legal = game.legal_actions()
            for n in range(40):
                fresh = Game(game.state)  # nothing listed yet: the sampler draws
                assert fresh.random_action(random.Random(n)) == chance.pick(random.Random(n), legal)
            creature_tiles += legal[0][0] == "put"
    assert creature_tiles >= 2


@pytest.mark.rule("B-6")
@pytest.mark.rule("B-9")
@pytest.mark.parametrize("phase", ["boat", "sink"])
def test_B_6_B_9_a_boat_placed_or_a_tile_removed_is_the_draw_from_the_whole_list(
    phase: str,
) -> None:
    """B-6 (a boat on a vacant sea space by the island), B-9 (a land tile removed): drawn
    without listing an action per space or tile, yet exactly the action a draw from the listed
    actions gives with the same random numbers, so no playout changes."""
    tried = 0
    for rules, players in GAMES:
        for game in positions(rules, players, 3, phase, 2)[:3]:
            legal = game.legal_actions()
            for n in range(20):
                fresh = Game(game.state)  # nothing listed yet: the sampler draws
                assert fresh.random_action(random.Random(n)) == chance.pick(random.Random(n), legal)
            tried += len(legal) > 1
    assert phase in SAMPLERS and tried >= 4


@pytest.mark.rule("D-4")
def test_D_4_a_first_dive_is_the_draw_from_the_whole_list() -> None:
    """D-4 (a dive to any vacant sea space), D-5 (unoccupied boats too), D-9 (or a dolphin
    turns to a swimmer), Q-3 (a squid may stay): the creature or boat that dives first is
    counted without listing every move, yet it is exactly the action a draw from the listed
    moves gives with the same random numbers, so no playout changes."""
    kinds = Counter[str]()
    # seed 38: a dolphin beside a swimmer another dolphin protects (D-9 passes it by); the
    # 1986 spinner's dive (E-1) is listed by its own rules, drawn the same way
    games = [(ALL_KITS, 6, 3), (ALL_KITS, 6, 38), (Rules(("escape-1986",)), 4, 0)]
    for rules, players, seed in games:
        for game in positions(rules, players, seed, "creature", 1):
            ctx = game.state.ctx
            if ctx["dist"] != "D" or ctx["creature"] is not None or ctx.get("boat") is not None:
                continue
            legal = game.legal_actions()
            for n in range(20):
                fresh = Game(game.state)  # nothing listed yet: the sampler draws
                assert fresh.random_action(random.Random(n)) == chance.pick(random.Random(n), legal)
            kinds.update(a[0] for a in legal)
    assert "creature" in SAMPLERS and min(kinds[k] for k in ("creature", "sail", "protect")) > 0


@pytest.mark.rule("B-8")
@pytest.mark.parametrize(("rules", "players"), GAMES)
def test_B_8_a_playout_is_the_game_apply_plays_with_the_same_draws(
    rules: Rules, players: int
) -> None:
    """B-8 (every step of every turn): `playout` skips `apply`'s checks, yet it plays exactly
    the game that applying each `random_action` and each `draw` in turn plays: the same end,
    the same result, the same number of players' decisions."""
    for seed in range(4):
        stepped = Game.new(rules, players, seed=seed)
        stepped.listen = False
        rng = random.Random(seed)
        decisions = 0
        while not stepped.over:
            if stepped.is_chance():
                stepped.apply(stepped.draw())
            else:
                stepped.apply(stepped.random_action(rng))
                decisions += 1
        played = Game.new(rules, players, seed=seed)
        assert played.playout(random.Random(seed)) == decisions
        assert played.to_json() == stepped.to_json()
        assert played.result() == stepped.result() is not None


@pytest.mark.rule("B-22")
@pytest.mark.rule("B-10")
@pytest.mark.parametrize(("rules", "players"), [*GAMES, (Rules(("base", "dive-dice")), 4)])
def test_B_22_B_10_a_table_draw_is_the_outcome_its_number_falls_on(
    rules: Rules, players: int
) -> None:
    """B-2 (the island laid), B-22 (a tile's back), B-10 (the die; D-3 the dive dice, E-1 the
    spinner): `draw` finds its outcome from the counts without an action for each outcome, yet
    it is exactly the outcome of `chance_outcomes`, in its order, on whose share of [0, 1) the
    draw's number falls, so no game changes."""
    phases = Counter[str]()
    for seed in range(2):
        rng = random.Random(seed)
        game = Game.new(rules, players, seed=seed)
        while not game.over:
            if not game.is_chance():
                game.apply(game.random_action(rng))
                continue
            number = chance.uniform(game.state.seed, game.state.draws)
            outcomes = game.chance_outcomes()
            expected = outcomes[-1][0]
            for outcome, share in outcomes:
                number -= share
                if number < 0:
                    expected = outcome
                    break
            drawn = game.draw()
            assert drawn == expected, (game.phase, drawn, expected)
            phases[game.phase] += 1
            game.apply(drawn)
    assert phases["back"] > 10 and phases["roll"] > 10


@pytest.mark.rule("B-2")
@pytest.mark.rule("B-22")
def test_B_2_B_22_a_terrain_or_back_drawn_without_the_weights_listed_is_the_walks() -> None:
    """B-2 (the island laid), B-22 (a tile's back): `drawn_terrain` and `drawn_back` find the
    outcome a number falls on without listing `tiles_left` or `back_weights`; at every such
    draw of random games they give the outcome of the walk over those weights, for numbers
    across [0, 1) and the last one below 1 (where the shares' rounding may leave the number
    past the end: then the last weight's outcome, as `Game.draw`)."""
    numbers = [i / 64 for i in range(64)] + [1 - 2**-53]
    checked = Counter[str]()
    for _, game in every_state(Rules(), 4, 3, random.Random(5)):
        s = game.state
        if game.phase == "terrain":
            weights, drawn = setup.tiles_left(s), setup.drawn_terrain
        elif game.phase == "back":
            weights, drawn = sinking.back_weights(s), sinking.drawn_back
        else:
            continue
        total = sum(n for _, n in weights)
        for number in numbers:
            expected, left = weights[-1][0], number
            for outcome, n in weights:
                left -= n / total
                if left < 0:
                    expected = outcome
                    break
            assert drawn(s, number) == expected, (number, weights)
        checked[game.phase] += 1
    assert checked["terrain"] == 3 * 39 and checked["back"] > 30


@pytest.mark.rule("B-2")
def test_B_2_a_game_whose_seed_is_set_after_a_draw_draws_with_the_new_seed() -> None:
    """A bot's sampled game or a test sets the seed of a game already made, even one already
    drawn from: its draws are then exactly those of a game made with that seed (the game's
    keyed hash of its seed is found again, not kept from the old seed)."""
    game = Game.new(Rules(), 4, seed=1)
    game.draw()  # drawn once with seed 1
    game.state.seed = 2
    twin = Game.new(Rules(), 4, seed=2)
    for _ in range(40):  # the island laid tile by tile (B-2)
        drawn = game.draw()
        assert drawn == twin.draw()
        game.apply(drawn)
        twin.apply(drawn)
    assert game.to_json() == twin.to_json()
