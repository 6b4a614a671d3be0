"""The solver against the plain minimax of tests/naive.py, on many small random positions.

Every table set-up, both team modes, trumps and no-trump, tricks in progress, points
already won, and both copies of a card in play together (drawn from few suits so that
identical cards meet in one trick).
"""
from __future__ import annotations

import random
import threading

import numpy as np
import pytest

from fiftysix.analyser import _kernels as kernels
from fiftysix.analyser import solver as S
from fiftysix.analyser.encode import card_bit
from fiftysix.cards import CARD_NAMES, SUITS, TABLE_SETUPS, Card, Deal, Hand, Table, deck_cards, random_deal
from fiftysix.errors import DealError, FiftySixError, IllegalPlayError
from tests.kernel_harness import move_order, with_words
from tests.naive import naive_card_values, naive_max_points

# (players, deck) -> (usual hand sizes, a bigger size drawn now and then): the minimax is slow
SIZES = {(4, 32): ((2, 3, 3), 4), (4, 48): ((2, 3, 3), 4), (6, 48): ((1, 2, 2, 2), 3),
         (8, 64): ((1, 2, 2), 3), (8, 48): ((1, 2, 2), 3)}
PER_SETUP = 120


def random_position(rng: random.Random, table: Table, size: int | None = None) -> S.Position:
    """A small random ending: few suits (so duplicates meet), maybe a trick in progress;
    hands of ``size`` cards, or of a size drawn from ``SIZES``."""
    n = table.players
    usual, big = SIZES[(n, table.deck)]
    m = size or (big if rng.random() < 0.04 else rng.choice(usual))
    if n * m >= 16:
        nsuits = 1 if rng.random() < 0.6 else 2
    else:
        nsuits = rng.choice((1, 2, 2, 3, 4))
    suits = rng.sample(range(4), nsuits)
    pool = [c for c in deck_cards(table.deck) if c.suit in suits]
    while len(pool) < n * m:
        suits.append(next(s for s in range(4) if s not in suits))
        pool = [c for c in deck_cards(table.deck) if c.suit in suits]
    rng.shuffle(pool)
    leader = rng.randrange(n) + 1
    tlen = rng.randrange(n) if rng.random() < 0.5 else 0
    hands, current = [], []
    k = 0
    for i in range(n):
        seat = (leader - 1 + i) % n + 1
        hands.append((seat, pool[k:k + m]))
        k += m
    hands.sort()
    hand_list = [list(h) for _, h in hands]
    for i in range(tlen):
        seat = (leader - 1 + i) % n + 1
        card = hand_list[seat - 1].pop(rng.randrange(m))
        current.append((seat, card))
    trump = rng.choice(suits + [None])
    points = tuple(rng.randrange(20) for _ in range(table.num_teams)) if rng.random() < 0.3 else ()
    return S.Position(table, tuple(Hand(tuple(h)) for h in hand_list), trump, leader, tuple(current), points)


def naive_args(pos: S.Position):
    hands = [[CARD_NAMES[c] for c in h] for h in pos.hands]
    trump = None if pos.trump is None else SUITS[pos.trump]
    teams = [pos.table.team_of(s) for s in pos.table.seats]
    trick = [CARD_NAMES[c] for _, c in pos.current]
    return hands, trump, pos.leader - 1, teams, trick


SETUPS = [(p, d, t) for (p, d) in TABLE_SETUPS for t in ("alternate", "pairs")]


@pytest.mark.parametrize("players,deck,teams", SETUPS)
def test_matches_minimax(players, deck, teams):
    table = Table(players, deck, teams)
    rng = random.Random(1000 * players + deck + (7 if teams == "pairs" else 0))
    # 16 MB: a table on 2 MB pages where the system has them; 4 MB: a plain numpy array
    solver = S.Solver(table_mb=16 if teams == "alternate" else 4)
    for _ in range(PER_SETUP):
        pos = random_position(rng, table)
        want = _check_against_minimax(pos, solver)
        side = rng.randrange(table.num_teams)
        assert S.max_points(pos, side, solver=solver)[side] == want[side]
        for target in range(pos.points[side] - 1, want[side] + 3):
            assert S.solve(pos, target, side, solver=solver) == (target <= want[side]), (pos, target)


@pytest.mark.parametrize("players,deck,teams", SETUPS)
def test_matches_minimax_in_any_move_order(players, deck, teams):
    """Every cut-off, bound and skipped card must hold whatever card is tried first: the
    same positions searched with every move list shuffled (the heuristic order, the table's
    best card and the cut-off memory all put the likelier card first, so a rule that is
    only right for that card would pass the test above)."""
    table = Table(players, deck, teams)
    rng = random.Random(3000 * players + deck + (7 if teams == "pairs" else 0))
    for k in range(PER_SETUP // 2):
        pos = random_position(rng, table)
        solver = S.Solver(table_mb=1, shuffle=k + 1)
        want = _check_against_minimax(pos, solver)
        side = rng.randrange(table.num_teams)
        for target in range(pos.points[side] - 1, want[side] + 3):
            assert S.solve(pos, target, side, solver=solver) == (target <= want[side]), (pos, target)


@pytest.mark.parametrize("players,deck,size,count", [(4, 48, 4, 30), (8, 48, 3, 16)])
def test_deepest_endings_of_4x12_and_8x6_match_minimax(players, deck, size, count):
    """The deepest endings the minimax checks in time, of the set-ups whose hands are not
    8 cards: 4 x 12 (the K and Q below the ten, 12 cards a suit) with four tricks left and
    8 x 6 with three, both team modes, every move list shuffled."""
    for teams in ("alternate", "pairs"):
        table = Table(players, deck, teams)
        rng = random.Random(4000 * players + deck + size + (7 if teams == "pairs" else 0))
        for k in range(count // 2):
            pos = random_position(rng, table, size)
            solver = S.Solver(table_mb=1, shuffle=k + 1)
            want = _check_against_minimax(pos, solver)
            side = rng.randrange(table.num_teams)
            for target in range(want[side] - 2, want[side] + 3):
                assert S.solve(pos, target, side, solver=solver) == (target <= want[side]), (pos, target)


@pytest.mark.slow
def test_full_payoff_buckets_match_minimax():
    """The smallest table that keeps payoff-similar entries (two buckets of ``PBUCKET``),
    shared by 4 x 12 endings with four tricks left: both buckets fill (a store then writes
    over the oldest entry), and every answer still equals the minimax's."""
    table = Table(4, 48, "alternate")
    rng = random.Random(4812)
    solver = S.Solver(table_mb=4 * kernels.PB_WORDS * 8 / 2 ** 20)  # (8-byte words)
    T = solver._table()[0]
    assert T.shape[0] == 2 * kernels.PB_WORDS * 2  # (half exact and abstract entries, half two buckets)
    for _ in range(30):
        pos = random_position(rng, table, 4)
        want = _check_against_minimax(pos, solver)
        for target in range(want[0] - 2, want[0] + 3):
            assert S.solve(pos, target, 0, solver=solver) == (target <= want[0]), (pos, target)
    states = T[T.shape[0] // 2::kernels.PB_WORDS]
    assert ((states >> kernels.PB_CNT) & 1023).max() == kernels.PBUCKET


@pytest.mark.parametrize("rows,words", [(1, 1 << 10), (1, 1 << 21), (3, 1 << 20)])
def test_table_memory_is_zeroed_and_writable(rows, words):
    t = S._zeroed_table(rows, words)
    assert t.shape == (rows, words) and t.dtype == np.int64 and t.flags.writeable
    assert not t.any()
    t[rows - 1, words - 1] = 7
    assert t[rows - 1, words - 1] == 7 and t.sum() == 7


def test_fresh_and_shared_tables_agree():
    """Answers do not depend on what the transposition table saw before."""
    table = Table.make(6)
    rng = random.Random(5)
    shared = S.Solver(table_mb=1)
    for _ in range(40):
        pos = random_position(rng, table)
        assert S.max_points(pos, solver=shared) == S.max_points(pos, solver=S.Solver(table_mb=1))


def test_max_points_many_matches_single():
    table = Table.make(4)
    rng = random.Random(11)
    positions = [random_position(rng, table) for _ in range(30)]
    many = S.max_points_many(positions, 1, threads=3)
    single = [S.max_points(p)[1] for p in positions]
    assert many.tolist() == single
    assert S.max_points_many(positions, 1, threads=1).tolist() == single


def test_full_deal_values_sum_to_56_and_table_agrees():
    table = Table.make(4)
    deal = random_deal(table, seed=3)
    res = S.table(deal)
    assert set(res) == {"S", "H", "D", "C", "NT"}
    for trump, name in zip((0, 1, 2, 3, None), ("S", "H", "D", "C", "NT")):
        pos = S.Position(table, deal.hands, trump)
        assert res[name] == S.max_points(pos)
        assert res[name][0] + res[name][1] == 56
        v = res[name][0]
        assert S.solve(pos, v, 0) and not S.solve(pos, v + 1, 0)


def test_from_deal_plays_the_opening_cards():
    table = Table.make(4)
    deal = random_deal(table, seed=9)
    first = deal.hands[0].cards[0]
    pos = S.Position.from_deal(deal, 1, played=[first])
    assert pos.current == ((1, first),) and pos.to_move == 2
    assert len(pos.hands[0]) == 7
    with pytest.raises(IllegalPlayError):
        S.Position.from_deal(deal, 1, played=[deal.hands[1].cards[0]])


def test_bad_positions_are_named_errors():
    table = Table.make(4)
    deal = random_deal(table, seed=2)
    hands = list(deal.hands)
    with pytest.raises(DealError, match="same size"):
        S.Position(table, (Hand(hands[0].cards[:-1]),) + tuple(hands[1:]), None)
    with pytest.raises(DealError, match="not in the 32-card deck"):
        S.Position(table, (Hand(hands[0].cards[:-1] + (Card.parse("KS"),)),) + tuple(hands[1:]), None)
    with pytest.raises(DealError, match="times"):
        three = Hand((Card.parse("JS"),) * 2)
        S.Position(table, (three, three, Hand((Card.parse("9S"),) * 2), Hand((Card.parse("9H"),) * 2)), None)


def test_a_position_is_checked_once_before_it_is_encoded():
    # every check lives in Position (the edge); encode trusts what it is given
    table = Table.make(4)
    hands = random_deal(table, seed=2).hands
    js = Card.parse("JS")
    with pytest.raises(DealError, match="the position has 3 hands; the table has 4 seats"):
        S.Position(table, hands[:3], None)
    with pytest.raises(DealError, match="trump must be a suit 0..3 or None"):
        S.Position(table, hands, 4)
    with pytest.raises(DealError, match="one number per team"):
        S.Position(table, hands, None, points=(0, 0, 0))
    with pytest.raises(DealError, match="holds at most 3 cards, not 4"):
        S.Position(table, hands, None, 1, tuple((s, hands[s - 1].cards[0]) for s in table.seats))
    with pytest.raises(DealError, match="seat 2 plays it after leader 1"):
        S.Position(table, hands, None, 1, ((1, hands[0].cards[0]), (3, hands[2].cards[0])))
    with pytest.raises(DealError, match="KS on the table is not in the 32-card deck"):
        S.Position(table, hands, None, 2, ((2, Card.parse("KS")),))
    ending = tuple(Hand.parse(h) for h in ("JJ...", "9...", "A.9..", "TA..."))
    with pytest.raises(DealError, match=r"JS appears 3 times \(seats 1, 2\)"):  # seat 2 led a third JS
        S.Position(table, ending, None, 2, ((2, js),))
    assert S.Position(table, ending, None, 2, ((2, Card.parse("TS")),)).legal_cards() == (Card.parse("AS"),)


def test_budget_is_a_catchable_error():
    table = Table.make(6)
    pos = S.Position(table, random_deal(table, seed=2).hands, 1)
    with pytest.raises(S.BudgetExceeded):
        S.max_points(pos, max_nodes=500, solver=S.Solver(table_mb=1))
    with pytest.raises(FiftySixError):
        # (proving that 31 fails takes about 300,000 nodes: more than a budget of no time allows)
        S.solve(pos, 31, 0, max_seconds=0.0, solver=S.Solver(table_mb=1))


def test_finished_hand_gives_the_points_won():
    table = Table.make(4)
    pos = S.Position(table, tuple(Hand(()) for _ in range(4)), None, 2, (), (40, 16))
    assert S.max_points(pos) == {0: 40, 1: 16}
    assert S.solve(pos, 40, 0) and not S.solve(pos, 41, 0)


def test_time_budget_lets_a_small_search_finish():
    table = Table.make(4)
    pos = S.Position(table, random_deal(table, seed=4).hands, 2)
    assert S.max_points(pos, max_seconds=30.0) == S.max_points(pos, solver=S.Solver(table_mb=1))


# --- command line ------------------------------------------------------------------------

ENDING = "J9.A.. T.9J.. A.JT.. 9.T9.."   # 4 players, two cards each (an ending)


def _cli_json(capsys, *argv: str):
    from fiftysix.ui.cli import main
    assert main(list(argv)) == 0
    import json
    return [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.strip()]


def test_cli_solve_matches_minimax(capsys):
    table = Table.make(4)
    hands = [[CARD_NAMES[c] for c in Hand.parse(h)] for h in ENDING.split()]
    odd = naive_max_points(hands, "H", 1, [0, 1, 0, 1], 0)
    even = naive_max_points(hands, "H", 1, [0, 1, 0, 1], 1)
    (res,) = _cli_json(capsys, "solve", "--players", "4", "--deal", ENDING, "--trump", "H", "--leader", "2",
                       "--target", str(odd), "--side", "odd", "--json")
    assert res == {"odd": odd, "even": even, "makeable": True}
    assert table.team_of(2) == 1


def test_cli_batch_and_errors(capsys, tmp_path):
    import json

    from fiftysix.ui.cli import main
    lines = [{"players": 4, "deal": ENDING, "trump": "NT", "played": "JS"},
             {"players": 4, "deal": ENDING, "trump": "NT", "played": "JS JS"},
             {"players": 4, "deal": "J9.A.. T.9J.."}]
    f = tmp_path / "in.jsonl"
    f.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    out = _cli_json(capsys, "solve", "--batch", str(f))
    hands = [[CARD_NAMES[c] for c in Hand.parse(h)] for h in ENDING.split()]
    hands[0].remove("JS")
    want = [naive_max_points(hands, None, 0, [0, 1, 0, 1], t, ["JS"]) for t in (0, 1)]
    assert out[0] == {"odd": want[0], "even": want[1]}
    assert "does not hold" in out[1]["error"] and out[1]["line"] == 2
    assert "hand" in out[2]["error"]
    assert main(["table", "--players", "4", "--deal", "J9.A.. T.9J..", "--json"]) == 2
    assert "error" in capsys.readouterr().err


def _check_against_minimax(pos: S.Position, solver: S.Solver) -> dict[int, int]:
    """max_points and card_values equal the plain minimax's; returns its team values."""
    hands, trump, leader, team_of, trick = naive_args(pos)
    table = pos.table
    want = {t: pos.points[t] + naive_max_points(hands, trump, leader, team_of, t, trick)
            for t in range(table.num_teams)}
    assert S.max_points(pos, solver=solver) == want, pos
    mover_team = table.team_of(pos.to_move)
    naive_cv = naive_card_values(hands, trump, leader, team_of, mover_team, trick)
    got = S.card_values(pos, solver=solver)
    assert {CARD_NAMES[c]: v for c, v in got.items()} == {
        c: pos.points[mover_team] + v for c, v in naive_cv.items()}, pos
    return want


def test_partner_may_take_over_a_settled_trick():
    """The trick is the side's whatever comes, but a partner still to play may overtake and
    lead next: the bound on the next trick must not assume the current winner leads it."""
    table = Table(4, 48, "pairs")
    pos = S.Position(table, (Hand.parse("T.9..9"), Hand.parse(".J.Q.T"), Hand.parse("J.T.J."),
                             Hand.parse(".9.J.A")), 2, 4)
    _check_against_minimax(pos, S.Solver(table_mb=1))


@pytest.mark.parametrize("players,deck,teams", [(4, 32, "alternate"), (4, 48, "pairs"), (6, 48, "alternate"),
                                                (6, 48, "pairs"), (8, 64, "alternate")])
def test_tricks_in_progress_match_minimax(players, deck, teams):
    """Positions with a trick in progress (where the settled-trick bounds act), new seeds."""
    table = Table(players, deck, teams)
    rng = random.Random(77 * players + deck + (3 if teams == "pairs" else 0))
    solver = S.Solver(table_mb=2)
    done = 0
    while done < 40:
        pos = random_position(rng, table)
        if not pos.current:
            continue
        _check_against_minimax(pos, solver)
        done += 1


@pytest.mark.parametrize("players,deck,teams", [(4, 32, "alternate"), (6, 48, "alternate"), (8, 64, "pairs")])
def test_card_values_hint_only_orders_the_search(players, deck, teams):
    """A hint (a card and a guess at its value, right or wrong) gives the minimax's values."""
    table = Table(players, deck, teams)
    rng = random.Random(31 * players + deck)
    solver = S.Solver(table_mb=2)
    for _ in range(12):
        pos = random_position(rng, table)
        hands, trump, leader, team_of, trick = naive_args(pos)
        mover_team = table.team_of(pos.to_move)
        want = {c: pos.points[mover_team] + v
                for c, v in naive_card_values(hands, trump, leader, team_of, mover_team, trick).items()}
        cards = pos.legal_cards()
        for card, guess in ((cards[-1], 0), (cards[0], want[CARD_NAMES[cards[0]]]), (cards[-1], 99)):
            solver.clear()
            got = S.card_values(pos, solver=solver, hint=(card, guess))
            assert {CARD_NAMES[c]: v for c, v in got.items()} == want, (pos, card, guess)


@pytest.mark.parametrize("players,deck,teams", [(4, 48, "alternate"), (6, 48, "alternate"), (8, 64, "pairs")])
def test_value_with_any_guess_is_the_minimax(players, deck, teams, monkeypatch):
    """``Solver.value`` from a guess (the two proofs at the guess, then a gallop away from
    it while the proofs go one way, or one point at a time with ``gallop=False``, as bridge
    searches) gives the plain minimax's value for guesses far below, below, at and above it,
    also when the search is stopped every few nodes and resumed (the window and the guess
    carried from call to call; the chunks double, so that it ends)."""
    table = Table(players, deck, teams)
    rng = random.Random(53 * players + deck)
    solver = S.Solver(table_mb=2)
    for k in range(10):
        pos = random_position(rng, table)
        hands, trump, leader, team_of, trick = naive_args(pos)
        side = rng.randrange(table.num_teams)
        want = naive_max_points(hands, trump, leader, team_of, side, trick)
        enc = pos.encoded()
        left = enc.points_left()
        def stop() -> bool:
            S._STOP_CHUNK *= 2
            return False

        for guess in sorted({0, want - 12, want - 5, want - 2, want - 1, want, want + 1, want + 3, left, left + 4}):
            for gallop in (True, False):
                monkeypatch.setattr(S, "_STOP_CHUNK", 1 << 40 if guess % 2 else 2)
                solver.clear()
                got = solver.value(enc, side, guess=max(guess, 0), stop=stop, gallop=gallop)
                assert got == want, (pos, side, guess, gallop)


@pytest.mark.parametrize("players,deck,teams", [(4, 48, "alternate"), (6, 48, "alternate"), (8, 64, "pairs")])
def test_value_keeping_the_cut_memory_across_siblings_is_the_minimax(players, deck, teams):
    """``Solver.value(keep_cuts=True)`` (the makeable estimate's leads of one deal): each
    search starts from the cut-off memory the last one left, here the memory of the sibling
    positions before it and of other positions' (no ``clear`` between them), and gives the
    plain minimax's value of every card, guessed at the card before's value as the estimate
    guesses a lead; ``reaches(keep_cuts=True)`` (its yes/no mode) the minimax's answer. A
    second solver does the same with ``window_bound=3`` and ``cut_key=3``, values and probes (as
    the estimate's leads: trick starts past a probe's window return their leader's side's
    cashing either way, and the cut-off memory's key holds both its parts)."""
    table = Table(players, deck, teams)
    rng = random.Random(71 * players + deck)
    solver = S.Solver(table_mb=2)
    bounded = S.Solver(table_mb=2)
    for _ in range(12):
        pos = random_position(rng, table)
        hands, trump, leader, team_of, trick = naive_args(pos)
        team = table.team_of(pos.to_move)
        want = {c: pos.points[team] + v for c, v in naive_card_values(hands, trump, leader, team_of, team, trick).items()}
        enc, last, blast = pos.encoded(), None, None
        for card in pos.legal_cards():
            kid = enc.play(card_bit(card))
            g = None if last is None else max(0, last - kid.won[team])
            last = kid.won[team] + solver.value(kid, team, guess=g, keep_cuts=True)
            assert last == want[CARD_NAMES[card]], (pos, card)
            g = None if blast is None else max(0, blast - kid.won[team])
            blast = kid.won[team] + bounded.value(kid, team, guess=g, keep_cuts=True, window_bound=3,
                                                      cut_key=3)
            assert blast == last, (pos, card)
            # and the yes/no probe (the estimate's yes/no mode) at the value and one past it
            for need in (last, last + 1):
                assert S.reaches(kid, need, team, solver=solver, keep_cuts=True) == (need <= last), (pos, card, need)
                assert S.reaches(kid, need, team, solver=bounded, keep_cuts=True, window_bound=3,
                                 cut_key=3) == (need <= last)
    assert solver._cuts is not None and solver._cuts.any()
    solver.clear()
    assert solver._cuts is None


@pytest.mark.parametrize("players,deck,teams", [(4, 48, "alternate"), (6, 48, "pairs"), (8, 64, "alternate")])
def test_value_stopped_anywhere_resumes_its_probe(players, deck, teams, monkeypatch):
    """A value search stopped by its node limit and called again resumes the probe it was in
    (its target, costs and gallop kept in the window): searched whole, in chunks of 65,536
    nodes, and in chunks of 2 nodes doubling (stopped inside nearly every probe), it makes
    the same probes in the same order (their count and a hash of their targets), with or
    without a guess, with the half-way rule (``P_NMID``) off, from the first node and past 20
    nodes, and gives the plain minimax's value. (The nodes are the same unless a chunk ends inside a probe: a resumed
    probe walks again from the root to where it stopped, through the table's entries.)"""
    table = Table(players, deck, teams)
    rng = random.Random(59 * players + deck)
    solver = S.Solver(table_mb=2)
    plain = S.work_array
    nmid = [0]

    def work_array(enc, side):
        W = plain(enc, side).copy()
        W[kernels.P_NMID] = nmid[0]
        return W

    monkeypatch.setattr(S, "work_array", work_array)
    sizes = [None] * 6 + [SIZES[(players, deck)][1]] * 2
    for k, size in enumerate(sizes):
        pos = random_position(rng, table, size=size)
        hands, trump, leader, team_of, trick = naive_args(pos)
        side = rng.randrange(table.num_teams)
        want = naive_max_points(hands, trump, leader, team_of, side, trick)
        enc = pos.encoded()
        for mid in (0, 1, 20):
            nmid[0] = mid
            for guess in (None, max(want - 3, 0)):
                runs = []
                for chunk in (None, 1 << 16, 2):
                    size_now = [chunk or 0]

                    def stop() -> bool:
                        size_now[0] *= 2
                        S._STOP_CHUNK = size_now[0]
                        return False

                    monkeypatch.setattr(S, "_STOP_CHUNK", chunk or 1)
                    solver.clear()
                    solver.nodes = 0
                    got = solver.value(enc, side, guess=guess, stop=None if chunk is None else stop)
                    assert got == want, (pos, side, guess, chunk)
                    w = solver.last_window
                    assert w is not None
                    runs.append((int(w[kernels.NW_PROBES]), int(w[kernels.NW_TRACE]), solver.nodes))
                assert runs[0][2] > 0 and runs[0][0] > 0
                assert runs[1][:2] == runs[0][:2] and runs[2][:2] == runs[0][:2], (pos, side, guess, runs)
                if runs[0][2] <= 1 << 16:
                    assert runs[1][2] == runs[0][2], (pos, side, guess, runs)


def _budget_from_the_first_node(monkeypatch, nodes: int = 3, grow: int = 2) -> None:
    """The budgeted move order on from a search's first node, with a first budget of ``nodes``."""
    plain = S.work_array

    def work_array(enc, side):
        W = plain(enc, side).copy()
        W[kernels.P_BUDGET] = nodes
        W[kernels.P_BGROW] = grow
        W[kernels.P_BAFTER] = 0
        return W

    monkeypatch.setattr(S, "work_array", work_array)


@pytest.mark.parametrize("players,deck,teams", [(4, 48, "alternate"), (6, 48, "pairs"), (8, 64, "alternate")])
def test_a_stop_and_a_time_budget_cost_no_nodes(players, deck, teams, monkeypatch):
    """A search with a ``stop`` callable (one that never says stop), a time budget, or both is
    never paused to look at them: the watcher thread looks (here every 0.1 ms and every 50 ms)
    while the search goes on. So it makes the same probes (their count and a hash of their
    targets) and the same nodes as the search with neither, with the budgeted move order on
    from the first node (budgets of 3 nodes: cards pass them all the time, state a pause would
    lose), and gives the plain minimax's value; and on a search of 20-110 ms with the table's
    own budgets, the same nodes, the watcher looking at ``stop`` while it ran. (Before, a
    search with a ``stop`` paused every 2^20 nodes and walked again from the root, its
    budgeted order started over: bench/solver.py's two 8 x 8 deals past 10 M nodes took
    43-45% more nodes with a ``stop`` than without.)"""
    table = Table(players, deck, teams)
    rng = random.Random(61 * players + deck)
    plain = S.work_array
    _budget_from_the_first_node(monkeypatch)
    main = threading.get_ident()
    looks = {"watcher": 0}

    def stop() -> bool:
        if threading.get_ident() != main:
            looks["watcher"] += 1
        return False

    sizes = [None] * 5 + [SIZES[(players, deck)][1]] * 3 + [0]
    for size in sizes:
        if size == 0:
            # last, a search of 20-110 ms (130-450 k nodes), the budgets as the table sets them:
            # the watcher looks while it runs
            monkeypatch.setattr(S, "work_array", plain)
            seed, cards = {4: (4, 10), 6: (10, 8), 8: (6, 7)}[players]
            deal = random_deal(table, seed=seed)
            pos = S.Position(table, tuple(Hand(h.cards[:cards]) for h in deal.hands), None, 1)
            side, want = 0, S.Solver(table_mb=2).value(pos.encoded(), 0)
        else:
            pos = random_position(rng, table, size=size)
            hands, trump, leader, team_of, trick = naive_args(pos)
            side = rng.randrange(table.num_teams)
            want = naive_max_points(hands, trump, leader, team_of, side, trick)
        enc = pos.encoded()
        runs = set()
        for poll in (0.0001, 0.05):
            monkeypatch.setattr(S, "WATCH_POLL", poll)
            for kw in ({}, {"stop": stop}, {"max_seconds": 3600.0}, {"stop": stop, "max_seconds": 3600.0}):
                solver = S.Solver(table_mb=2)  # (the same table each time: nodes differ by the paths alone)
                assert solver.value(enc, side, **kw) == want, (pos, side, kw)
                w = solver.last_window
                assert w is not None
                runs.add((int(w[kernels.NW_PROBES]), int(w[kernels.NW_TRACE]), solver.nodes))
        assert len(runs) == 1, (pos, side, runs)
    assert looks["watcher"] > 0


@pytest.mark.parametrize("players,deck,teams", [(4, 48, "alternate"), (6, 48, "pairs"), (8, 64, "alternate")])
def test_budgeted_move_order_matches_minimax(players, deck, teams, monkeypatch):
    """The budgeted move order (a big search's first cards each searched within a budget of
    nodes first, a card past it to the back of the list, the budget growing once every card
    left passed it) switched on from the first node with budgets of 1 to 20 nodes, so that
    cards pass their budgets, come back and cut off in another order at every probe, also
    stopped and resumed every few nodes: the plain minimax's values (and the node counts
    show the budgets were used). The growth and the budgeted cards are per table
    (``P_BGROW``, ``P_BCARDS``, from ``_kernels.BUDGET_BY_SEATS``): each run sets its own."""
    table = Table(players, deck, teams)
    rng = random.Random(71 * players + deck)
    plain = S.work_array
    budget = {"nodes": 0, "grow": kernels.BUDGET_GROW, "cards": kernels.BUDGET_CARDS}

    def work_array(enc, side):
        W = plain(enc, side).copy()
        W[kernels.P_BUDGET] = budget["nodes"]
        W[kernels.P_BGROW] = budget["grow"]
        W[kernels.P_BCARDS] = budget["cards"]
        W[kernels.P_BAFTER] = 0
        return W

    monkeypatch.setattr(S, "work_array", work_array)
    solver = S.Solver(table_mb=2)
    moved = 0
    for k in range(12):
        pos = random_position(rng, table, size=None if k % 3 else SIZES[(players, deck)][1])
        hands, trump, leader, team_of, trick = naive_args(pos)
        side = rng.randrange(table.num_teams)
        want = naive_max_points(hands, trump, leader, team_of, side, trick)
        enc = pos.encoded()
        nodes = []
        for b, grow, cards in ((0, 1024, 4), (1, 2, 1), (3, 4, 4), (20, 1024, 8)):
            budget.update(nodes=b, grow=grow, cards=cards)
            fresh = S.Solver(table_mb=2)  # (the same table layout each time: nodes differ by the budgets alone)
            assert fresh.value(enc, side) == want, (pos, side, b)
            nodes.append(fresh.nodes)
            for need in (want, want + 1):
                solver.clear()
                assert solver.probe(enc, side, need) == (need <= want), (pos, side, b, need)

        def stop() -> bool:
            S._STOP_CHUNK *= 2
            return False

        monkeypatch.setattr(S, "_STOP_CHUNK", 2)
        budget.update(nodes=3, grow=2, cards=4)
        solver.clear()
        assert solver.value(enc, side, stop=stop) == want, (pos, side)
        moved += any(n != nodes[0] for n in nodes[1:])
    assert moved > 0


def _first_moves(pos: S.Position, settled: bool) -> list[int]:
    """The card ``_gen_moves`` puts first for the seat to move, with the keep weight as the
    table sets it (``P_KEEP``), then with the weight off."""
    enc = pos.encoded()
    assert S.work_array(enc, 0)[kernels.P_KEEP] == kernels.keep_weight(pos.table.players)
    firsts = []
    for keep in (kernels.keep_weight(pos.table.players), 0):
        order = move_order(enc, 0, settled=settled, P_KEEP=keep)
        assert len(order) == 2
        firsts.append(order[0])
    return firsts


def test_keep_rule_tries_top_cards_later():
    """The move order's keep weight (``P_KEEP``, on at 4 seats): a card no other hand can beat
    in its suit goes later than its points would put it, when following.

    Thrown on a teammate's trick: seat 1 leads the jack of spades, seat 2 follows low, seat 4
    holds no better spade and no trump; seat 3, void in spades, holds the jack of hearts (3
    points, no other heart out) and the nine of diamonds (2 points, seat 4 holds the jack): the
    nine first (the jack first without the weight).

    Taking an opponent's trick: seat 1 leads the ace of spades (and holds the other jack), 2
    and 3 follow low; seat 4, last, wins with the jack or the nine: the nine first, the jack
    (3 points, the top spade) kept (first without the weight). The answers, with the weight or
    without: test_keep_weight_matches_minimax."""
    table = Table(4, 48)
    assert kernels.keep_weight(4) > 0
    smear = S.Position(table, (Hand.parse("...A"), Hand.parse("...K"), Hand.parse(".J.9."), Hand.parse("K..J.")),
                       None, 1, ((1, Card.parse("JS")), (2, Card.parse("QS"))))
    assert _first_moves(smear, True) == [card_bit(Card.parse("9D")), card_bit(Card.parse("JH"))]
    take = S.Position(table, (Hand.parse("J..."), Hand.parse("...K"), Hand.parse("...Q"), Hand.parse("J9...")),
                      None, 1, ((1, Card.parse("AS")), (2, Card.parse("QS")), (3, Card.parse("KS"))))
    assert _first_moves(take, False) == [card_bit(Card.parse("9S")), card_bit(Card.parse("JS"))]


def _first_leads(pos: S.Position, toward: int) -> list[int]:
    """``_gen_moves``' order for the seat on lead with the toward weight ``P_TOWARD`` set."""
    enc = pos.encoded()
    assert S.work_array(enc, 0)[kernels.P_TOWARD] == kernels.toward_weight(pos.table.players)
    assert int(enc.root_state(0)[kernels.RS_TLEN]) == 0
    return move_order(enc, 0, P_TOWARD=toward)


def test_toward_weight_orders_leads():
    """The lead order's toward weight (``P_TOWARD``, 30 at 6 seats, 50 elsewhere): a low lead
    whose suit's top card a teammate holds goes this much earlier than other low leads.

    Six seats, clubs trumps, seat 1 on lead with the queen of hearts (its teammate seat 3
    holds the jack, the top heart) and the ace of diamonds (opponent seat 2 holds the jack;
    only teammate seat 5 is void in diamonds with a trump: a suit only the leader's side can
    ruff, ``MATE_W`` earlier). At 6 seats the diamond goes first, the heart towards the jack
    after it; with the old weight of 50 (still the weight at 4 and 8 seats) the heart went
    first. The answers, whatever the weight: test_toward_weight_matches_minimax."""
    table = Table(6, 48)
    assert kernels.toward_weight(6) == 30 and kernels.toward_weight(4) == kernels.toward_weight(8) == 50
    hands = tuple(Hand.parse(h) for h in (".Q.A.", "K..J.", ".J.K.", "Q..Q.", ".T..J", "A..9."))
    pos = S.Position(table, hands, SUITS.index("C"), 1)
    heart, diamond = card_bit(Card.parse("QH")), card_bit(Card.parse("AD"))
    assert _first_leads(pos, kernels.toward_weight(6)) == [diamond, heart]
    assert _first_leads(pos, 50) == [heart, diamond]


def _order_weight_matches_minimax(monkeypatch, table: Table, rng: random.Random, word: int,
                                  weights: tuple[int, ...], sizes: list[int | None], after: int | None = None) -> None:
    """A move-order weight (work word ``word``) at each of ``weights``, on a random position of
    each size in ``sizes``: the plain minimax's values and both proofs each time, and the node
    counts show the weight at work somewhere (the same table layout each time: nodes differ by
    the order alone). ``after``: the narrowing's ``P_NAFTER`` set to it too, and its half-way
    rule until both sides are proved (``P_NMID``) off."""
    plain = S.work_array
    weight = {"w": 0}

    def work_array(enc, side):
        W = plain(enc, side).copy()
        W[word] = weight["w"]
        if after is not None:
            W[kernels.P_NAFTER] = after
            W[kernels.P_NMID] = 0
        return W

    monkeypatch.setattr(S, "work_array", work_array)
    moved = 0
    for size in sizes:
        pos = random_position(rng, table, size=size)
        hands, trump, leader, team_of, trick = naive_args(pos)
        side = rng.randrange(table.num_teams)
        want = naive_max_points(hands, trump, leader, team_of, side, trick)
        enc = pos.encoded()
        nodes = []
        for w in weights:
            weight["w"] = w
            solver = S.Solver(table_mb=2)
            assert solver.value(enc, side) == want, (pos, side, w)
            nodes.append(solver.nodes)
            for need in (want, want + 1):
                solver.clear()
                assert solver.probe(enc, side, need) == (need <= want), (pos, side, w, need)
        moved += any(n != nodes[0] for n in nodes[1:])
    assert moved > 0


@pytest.mark.parametrize("players,deck,teams,big", [(4, 48, "alternate", 4), (6, 48, "alternate", 4), (6, 48, "pairs", 4)])
def test_toward_weight_matches_minimax(players, deck, teams, big, monkeypatch):
    """The toward weight off, at 30, at 50 and far past every other lead score: the plain
    minimax's values and both proofs each time, and the node counts show the weight at work."""
    table = Table(players, deck, teams)
    rng = random.Random(37 * players + deck + len(teams))
    _order_weight_matches_minimax(monkeypatch, table, rng, kernels.P_TOWARD, (0, 30, 50, 500),
                                  [big if k % 2 else None for k in range(8)])


@pytest.mark.parametrize("players,deck,teams", [(4, 48, "alternate"), (6, 48, "alternate"), (8, 64, "alternate")])
def test_keep_weight_matches_minimax(players, deck, teams, monkeypatch):
    """The keep weight off, at its default and far past every other move score (a winner
    thrown last of all): the plain minimax's values and both proofs each time, and the node
    counts show the weight at work (off by default at 8 seats: ``KEEP_BY_SEATS``)."""
    table = Table(players, deck, teams)
    rng = random.Random(91 * players + deck)
    _order_weight_matches_minimax(monkeypatch, table, rng, kernels.P_KEEP, (0, kernels.KEEP_W, 500),
                                  [None if k % 3 else SIZES[(players, deck)][1] for k in range(12)])


@pytest.mark.parametrize("players,deck,teams,count", [(4, 48, "alternate", 12), (8, 64, "alternate", 40)])
def test_window_bound_matches_minimax(players, deck, teams, count, monkeypatch):
    """A trick start whose window is already decided, led by the side the window favours,
    returns that side's cashing (``P_WINB``; the cards it rests on as the result's relevant
    cards): off, the lower bound, the upper bound and both: the plain
    minimax's values and both proofs each time, and the node counts show it at work (on by
    default only at 8 seats, the lower bound: ``WINDOW_BOUND_BY_SEATS``; the minimax's
    positions there, 3 tricks, are small for it: it moves a few of 40)."""
    assert kernels.window_bound(8) == 1 and kernels.window_bound(4) == kernels.window_bound(6) == 0
    table = Table(players, deck, teams)
    rng = random.Random(61 * players + deck)
    _order_weight_matches_minimax(monkeypatch, table, rng, kernels.P_WINB, (0, 1, 2, 3),
                                  [None if k % 3 == 1 else SIZES[(players, deck)][1] for k in range(count)])


def test_cut_key_parts_match_minimax(monkeypatch):
    """The cut-off memory's key parts (``P_CUTSET``: a following seat's settled trick apart,
    a trick start's ruffable suits apart, a later ruff apart, some together, none): the plain minimax's values and both
    proofs each time (a move order only), and the node counts show them at work (on by default
    at 4, 6 and 8 seats: ``CUT_KEY_BY_SEATS``; the minimax's smaller positions, and those at 4
    and 8 seats, are too small for the memory to meet a key twice)."""
    assert (kernels.cut_key_parts(4), kernels.cut_key_parts(6), kernels.cut_key_parts(8)) == (7, 1, 6)
    table = Table(6, 48, "alternate")
    rng = random.Random(53 * 6 + 48)
    _order_weight_matches_minimax(monkeypatch, table, rng, kernels.P_CUTSET, (0, 1, 2, 3, 4, 7), [4] * 12)


@pytest.mark.parametrize("players,deck,teams,count", [(4, 48, "alternate", 24), (6, 48, "alternate", 24),
                                                     (8, 64, "alternate", 60)])
def test_root_order_matches_minimax(players, deck, teams, count, monkeypatch):
    """The narrowing's root order (``P_RORD``: each probe's root tries its moves by the nodes
    each took in the last probe that searched it, most first) off and on from the first node:
    the plain minimax's values and both proofs each time, and the node counts show it at work
    (on by default only at 8 seats, past ``ROOT_ORDER_BY_SEATS``' node count and when one card
    took its share of the last probe: here from the first node, whatever the shares; the
    minimax's positions at 8 seats, 3 tricks, are small for it: it moves a few of 60)."""
    assert kernels.root_order(8) == (500_000, 90) and kernels.root_order(4) == kernels.root_order(6) == (0, 0)
    table = Table(players, deck, teams)
    rng = random.Random(71 * players + deck)
    with_words(monkeypatch, P_RSHARE=0)
    _order_weight_matches_minimax(monkeypatch, table, rng, kernels.P_RORD, (0, 1),
                                  [None if k % 3 == 1 else SIZES[(players, deck)][1] for k in range(count)])


@pytest.mark.parametrize("players,deck,teams", [(4, 48, "alternate"), (6, 48, "pairs"), (8, 64, "alternate")])
def test_narrowing_divisor_matches_minimax(players, deck, teams, monkeypatch):
    """The narrowing's next probe in a window over 5 points wide (``P_NDIV``, from the first
    node: ``P_NAFTER`` 0): a third of the way up (4 and 6 seats), half way (8 seats past
    2 M nodes: ``NARROW_BY_SEATS``) and a fifth: the plain minimax's values and both proofs
    each time, and the node counts show the divisor at work. (At 8 seats the half-way rule
    until both sides are proved, ``P_NMID``, is switched off here: it would hide the divisor;
    test_value_stopped_anywhere_resumes_its_probe checks it against the minimax.)"""
    assert kernels.narrow_order(8) == (2, 2_000_000)
    assert kernels.narrow_order(4) == kernels.narrow_order(6) == (kernels.NARROW_DIV, 0) == (3, 0)
    assert kernels.narrow_middle(8) == 1 and kernels.narrow_middle(4) == kernels.narrow_middle(6) == 0
    table = Table(players, deck, teams)
    rng = random.Random(53 * players + deck)
    _order_weight_matches_minimax(monkeypatch, table, rng, kernels.P_NDIV, (2, 3, 5),
                                  [None if k % 3 else SIZES[(players, deck)][1] for k in range(12)], after=0)


def test_table_in_parallel_threads_equals_one_thread():
    """The five trumps solved in threads (each its own table) give the sequential answers;
    a trump over budget is None in table_rows and an error in table."""
    table = Table.make(4)
    deal = random_deal(table, seed=11)
    hands = tuple(Hand(h.cards[:4]) for h in deal.hands)
    small = Deal(table, hands)
    one = S.table(small, threads=1, solver=S.Solver(table_mb=2))
    many = S.table(small, threads=3)
    assert one == many
    for name, row in one.items():
        pos = S.Position(table, hands, None if name == "NT" else "SHDC".index(name), 1)
        hands_n, trump, leader, team_of, trick = naive_args(pos)
        assert row[0] == naive_max_points(hands_n, trump, leader, team_of, 0, trick)
    S.clear_solvers()  # (other tests may have left this deal's results in the kept tables)
    rows = S.table_rows(deal, threads=2, max_nodes=50)
    assert set(rows) == {"S", "H", "D", "C", "NT"} and all(r is None for r in rows.values())
    with pytest.raises(S.BudgetExceeded):
        S.table(deal, threads=2, max_nodes=50)


def test_one_solver_shared_by_threads_stays_exact():
    """Kernels release the GIL; a solver's lock keeps two threads off one table at once."""
    from concurrent.futures import ThreadPoolExecutor
    table = Table.make(6)
    rng = random.Random(5)
    positions = [random_position(rng, table) for _ in range(24)]
    shared = S.Solver(table_mb=2)
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda p: S.max_points(p, solver=shared), positions))
    want = [S.max_points(p, solver=S.Solver(table_mb=1)) for p in positions]
    assert got == want


def _cashing_position(rng: random.Random, table: Table) -> S.Position:
    """An ending built for the cashable-cards bounds: the leader holds top cards of two or
    three side suits, one partner may hold nothing but trumps (it would have to ruff and
    take the lead), the others hold what is left, trumps included."""
    n = table.players
    m = rng.choice((2, 3, 3)) if n == 4 else rng.choice((2, 2, 3))
    trump = rng.randrange(4)
    pool = list(deck_cards(table.deck))
    rng.shuffle(pool)
    leader = rng.randrange(n) + 1
    hands: dict[int, list[Card]] = {}
    # the leader: the strongest side-suit cards of the shuffled pool (rank 0 is the Jack)
    side = sorted((c for c in pool if c.suit != trump), key=lambda c: (c.rank, rng.random()))
    hands[leader] = side[:m]
    for c in hands[leader]:
        pool.remove(c)
    partners = [s for s in table.seats if s != leader and table.team_of(s) == table.team_of(leader)]
    if partners and rng.random() < 0.7:
        p = rng.choice(partners)
        hands[p] = [c for c in pool if c.suit == trump][:m]
        for c in hands[p]:
            pool.remove(c)
    for s in table.seats:
        if s not in hands:
            hands[s] = pool[:m]
            del pool[:m]
    return S.Position(table, tuple(Hand(tuple(hands[s])) for s in table.seats), trump, leader)


@pytest.mark.parametrize("players,deck", [(4, 32), (6, 48)])
def test_cashing_several_suits_matches_minimax(players, deck):
    """Cashing top cards of several side suits, with opponents able to ruff and partners
    forced to: the bounds that count them must never claim more than best play gives."""
    table = Table.make(players, deck)
    rng = random.Random(5600 + players)
    solver = S.Solver(table_mb=2)
    for _ in range(60 if players == 4 else 30):
        pos = _cashing_position(rng, table)
        want = _check_against_minimax(pos, solver)
        side = table.team_of(pos.leader)
        for target in range(want[side] - 2, want[side] + 3):
            assert S.solve(pos, target, side, solver=solver) == (target <= want[side]), (pos, target)


def test_points_margin_once_a_trick_is_settled():
    """A card skipped because it plays like one already tried, give or take their points:
    once the trick's side is settled the margin is one-sided, and which side matters
    (this ending failed with the two sides' margins swapped)."""
    table = Table(6, 48, "pairs")
    hands = tuple(Hand.parse(h) for h in ("..T.", "..J.", "9.J..", "TK...", "T.9..", "...K"))
    played = ((6, Card.parse("AC")), (1, Card.parse("9S")), (2, Card.parse("JH")))
    pos = S.Position(table, hands, 0, 6, played)
    want = _check_against_minimax(pos, S.Solver(table_mb=1))
    for side in range(table.num_teams):
        for target in range(want[side] + 2):
            assert S.solve(pos, target, side, solver=S.Solver(table_mb=1)) == (target <= want[side])
    # and many endings with a trick in progress
    rng = random.Random(56)
    solver = S.Solver(table_mb=2)
    for teams in ("alternate", "pairs"):
        table = Table(6, 48, teams)
        done = 0
        while done < 150:
            pos = random_position(rng, table)
            if pos.current:
                _check_against_minimax(pos, solver)
                done += 1


def _swap_small_cards(rng: random.Random, pos: S.Position) -> S.Position | None:
    """``pos`` with two cards of one suit and different points swapped between two seats,
    both below the suit's best card in play: a position the table may answer from
    ``pos``'s entries, its bounds moved by the points (None if there is no such pair)."""
    hands = [list(h) for h in pos.hands]
    held = [(c, s) for s, h in enumerate(hands) for c in h]
    suits = sorted({c.suit for c, _ in held})
    rng.shuffle(suits)
    for su in suits:
        ranks = sorted({c.rank for c, _ in held if c.suit == su})
        low = [(c, s) for c, s in held if c.suit == su and c.rank in ranks[1:]]
        pairs = [(a, b) for a in low for b in low if a[1] < b[1] and a[0].points != b[0].points]
        if pairs:
            (ca, sa), (cb, sb) = rng.choice(pairs)
            hands[sa][hands[sa].index(ca)] = cb
            hands[sb][hands[sb].index(cb)] = ca
            return S.Position(pos.table, tuple(Hand(tuple(h)) for h in hands), pos.trump, pos.leader)
    return None


def _twins(rng: random.Random, table: Table, size: int, make_twin, tries: int, want: int = 40):
    """Up to ``want`` (position, twin) pairs: endings of ``size`` cards a seat from two suits,
    random trump (or none) and leader, each with the twin ``make_twin(rng, pos)`` makes
    (positions it makes none of are skipped), out of at most ``tries`` deals."""
    found = 0
    for _ in range(tries):
        if found == want:
            return
        suits = rng.sample(range(4), 2)
        pool = [c for c in deck_cards(table.deck) if c.suit in suits]
        rng.shuffle(pool)
        hands = tuple(Hand(tuple(pool[size * i:size * (i + 1)])) for i in range(table.players))
        pos = S.Position(table, hands, rng.choice(suits + [None]), rng.randrange(table.players) + 1)
        twin = make_twin(rng, pos)
        if twin is not None:
            found += 1
            yield pos, twin


@pytest.mark.parametrize("players,deck,size", [(4, 32, 3), (6, 48, 3)])
def test_payoff_similar_positions_match_minimax(players, deck, size):
    """Positions that differ only in where cards of no deciding rank lie (so only in the
    points each seat's small cards are worth) share table entries, the bounds moved by what
    those points can change: after solving one, its twin is solved right, and from the
    table (fewer nodes in all than solving each twin alone)."""
    table = Table(players, deck)
    rng = random.Random(31 * players + size)
    shared, alone, done = 0, 0, 0
    for pos, twin in _twins(rng, table, size, _swap_small_cards, 1000):
        done += 1
        solver = S.Solver(table_mb=2)
        S.max_points(pos, solver=solver)
        solver.nodes = 0
        hands, trump, leader, team_of, trick = naive_args(twin)
        want = {t: naive_max_points(hands, trump, leader, team_of, t, trick) for t in range(table.num_teams)}
        assert S.max_points(twin, solver=solver) == want, twin
        shared += solver.nodes
        fresh = S.Solver(table_mb=2)
        assert S.max_points(twin, solver=fresh) == want
        alone += fresh.nodes
    assert done == 40
    assert shared < alone


def _raise_a_kind(rng: random.Random, pos: S.Position) -> S.Position | None:
    """``pos`` with every copy of one kind of card in hands replaced by the next stronger
    kind of its suit, which no hand holds and which is worth other points (each K a 10, say,
    when no 10 is in hands): the same holders, copy ties and power order, other points.
    None if no kind has such a neighbour."""
    held = {c for h in pos.hands for c in h}
    kinds = sorted(held)
    rng.shuffle(kinds)
    for c in kinds:
        if c.rank == 0:
            continue
        up = Card.make(c.suit, c.rank - 1)
        if up in held or up.points == c.points:
            continue
        hands = tuple(Hand(tuple(up if x == c else x for x in h)) for h in pos.hands)
        return S.Position(pos.table, hands, pos.trump, pos.leader)
    return None


@pytest.mark.parametrize("players,deck,size", [(4, 48, 3), (4, 48, 4), (6, 48, 3)])
def test_top_cards_of_other_points_match_minimax(players, deck, size):
    """Positions that differ only in the points of cards of the same place in their suit's
    power order (a kind raised to its absent neighbour of other points) share payoff-similar
    entries, the bounds moved by each such card's points: after solving one, its twin is
    solved right (the twin's searches end at such entries)."""
    table = Table(players, deck)
    rng = random.Random(41 * players + deck + size)
    payoff, done = 0, 0
    for pos, twin in _twins(rng, table, size, _raise_a_kind, 2000):
        done += 1
        solver = S.Solver(table_mb=2)
        S.max_points(pos, solver=solver)
        solver.reset_counts()
        hands, trump, leader, team_of, trick = naive_args(twin)
        want = {t: naive_max_points(hands, trump, leader, team_of, t, trick) for t in range(table.num_teams)}
        assert S.max_points(twin, solver=solver) == want, (pos, twin)
        payoff += int(solver.counts[:, 1 + kernels.OC_PAYOFF].sum())
    assert done == 40
    assert payoff > 0


def test_declarer_table_per_team_and_leader_matches_plain_minimax():
    """Issue 22 #14: each row (declaring team, opening leader) gives the most points that team
    takes in each trump, as a plain minimax finds it on small endings."""
    from tests.naive import naive_max_points
    table = Table(4, 32, "alternate")
    deal = random_deal(table, seed=5)
    hands = tuple(Hand(h.cards[:3]) for h in deal.hands)  # a 3-card ending of a real deal
    ending = Deal(table, hands)
    rows = S.declarer_table(ending, (1, 2))
    assert [(r.team, r.leader) for r in rows] == [(0, 1), (1, 1), (0, 2), (1, 2)]
    names = [[str(c) for c in h] for h in hands]
    teams = [table.team_of(s) for s in table.seats]
    for r in rows:
        for name, trump in zip(S.TRUMP_NAMES, ("S", "H", "D", "C", None)):
            assert r.points[name] == naive_max_points(names, trump, r.leader - 1, teams, r.team), (r, name)
