from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fiftysix.cards import Deal, Table
from fiftysix.errors import FiftySixError, NotationError
from fiftysix.play import PlayState
from fiftysix.scoring import (
    ChipsMatch,
    Contract,
    GamesMatch,
    HandResult,
    RaceMatch,
    ScoringError,
    hand_result,
    new_match,
    result_of_play,
    stake,
    stake_row,
)

# RULES.md 5, written out by hand: bid -> (win, lose)
STAKE_ROWS = [(28, 1, 2), (39, 1, 2), (40, 2, 3), (47, 2, 3), (48, 3, 4), (55, 3, 4), (56, 4, 5)]


@pytest.mark.parametrize("value, win, lose", STAKE_ROWS)
@pytest.mark.parametrize("doubled", [1, 2, 4])
def test_every_stake_row_plain_doubled_redoubled(value, win, lose, doubled):
    assert stake(value, True, doubled) == win * doubled
    assert stake(value, False, doubled) == lose * doubled
    c = Contract(value, 1, doubled=doubled)
    assert hand_result(c, value).score == win * doubled           # exactly the target makes it
    assert hand_result(c, value - 1).score == -lose * doubled     # one short fails


def test_stake_row_covers_every_bid_once():
    rows = [stake_row(v) for v in range(28, 57)]
    assert rows == [(1, 2)] * 12 + [(2, 3)] * 8 + [(3, 4)] * 8 + [(4, 5)]


@pytest.mark.parametrize("bad", [27, 57, 0, -1])
def test_bid_out_of_range(bad):
    with pytest.raises(ScoringError, match="28 to 56"):
        stake_row(bad)
    with pytest.raises(ScoringError):
        Contract(bad, None)


def test_contract_validation():
    with pytest.raises(ScoringError, match="doubled"):
        Contract(40, 1, doubled=3)
    with pytest.raises(ScoringError, match="trump"):
        Contract(40, 4)
    with pytest.raises(ScoringError, match="seat"):
        Contract(40, 1, declarer=0)
    with pytest.raises(FiftySixError):
        Contract.make(Table.make(4), 40, 1, declarer=5)
    assert isinstance(ScoringError("x"), ValueError)


def test_contract_notation():
    assert str(Contract(40, 1)) == "40H"
    assert str(Contract(32, None)) == "32NT"
    assert str(Contract(40, 1, doubled=2)) == "40Hx"
    assert str(Contract(56, 3, doubled=4)) == "56Cxx"
    for loose, canon in [("40♥", "40H"), ("32nt", "32NT"), ("33NS", "33NT"), ("40 h x", "40Hx"),
                         ("48dXX", "48Dxx"), ("28S*", "28Sx"), ("30N", "30NT")]:
        assert str(Contract.parse(loose)) == canon
    c = Contract.parse("40Hx", Table.make(6), declarer=4)
    assert (c.declarer, c.team, c.doubled) == (4, 1, 2)
    assert eval(repr(c)) == c
    p = Contract.make(Table.make(8, teams="pairs"), 40, None, declarer=7)
    assert p.team == 2                    # seats 3 and 7 are the third pair


@pytest.mark.parametrize("bad", ["", "H40", "40", "40X", "27H", "57H", "40Hxxx", "forty hearts"])
def test_contract_bad_text(bad):
    with pytest.raises(FiftySixError):
        Contract.parse(bad)


@settings(max_examples=100, deadline=None)
@given(st.integers(28, 56), st.sampled_from([None, 0, 1, 2, 3]), st.sampled_from([1, 2, 4]))
def test_contract_round_trip(value, trump, doubled):
    c = Contract(value, trump, doubled=doubled)
    assert Contract.parse(str(c)) == c


def test_concede_and_void_results():
    c = Contract(40, 1, doubled=2)
    assert hand_result(c, 50, conceded_by="declarers").score == -6
    assert hand_result(c, 0, conceded_by="defenders").score == 4
    v = hand_result(c, 0, void=True)
    assert v.score == 0 and v.made is None and v.void
    with pytest.raises(ScoringError):
        hand_result(c, 57)
    with pytest.raises(ScoringError):
        hand_result(c, 10, conceded_by="odd")
    with pytest.raises(ScoringError):
        HandResult(c, 10, "won")


def test_result_of_play():
    t = Table.make(4)
    deal = Deal.parse("J.9.. T.A.. A.T.. 9.J..", t, partial=True)
    c = Contract(28, None, declarer=1, team=0)
    s = PlayState(deal, None, target=7, declarer_team=0)
    with pytest.raises(ScoringError, match="not decided"):
        result_of_play(s, c)
    s.play_all(["JS", "TS", "AS", "9S"])
    r = result_of_play(s, c)
    assert r.made and r.score == 1 and r.declarer_points == 7
    s2 = PlayState(deal, None, target=7, declarer_team=0)
    s2.concede(0)
    assert result_of_play(s2, c).score == -2
    s3 = PlayState(deal, None, target=7, declarer_team=0)
    s3.concede(1)
    assert result_of_play(s3, c).reason == "conceded by defenders"


def made(value: int, team: int, doubled: int = 1) -> HandResult:
    return hand_result(Contract(value, 1, team=team, doubled=doubled), value)


def failed(value: int, team: int, doubled: int = 1) -> HandResult:
    return hand_result(Contract(value, 1, team=team, doubled=doubled), 0)


def test_chips_match_ends_when_a_team_runs_out():
    m = ChipsMatch()
    assert m.totals == [12, 12] and not m.is_over and m.winner is None
    m.record(made(56, 0))                  # +4: 16 / 8
    m.record(failed(28, 1))                # even fails: pays 2 -> 18 / 6
    assert m.totals == [18, 6]
    m.record(made(48, 0, doubled=2))       # 6 chips: even is out
    assert m.totals == [24, 0] and m.is_over and m.winner == 0 and m.losers == (1,)
    assert sum(m.totals) == 24
    with pytest.raises(ScoringError, match="over"):
        m.record(made(28, 0))


def test_chips_short_payer_pays_what_it_has():
    m = ChipsMatch(totals=[2, 22])
    m.record(failed(56, 0, doubled=4))     # owes 20, holds 2
    assert m.totals == [0, 24] and m.winner == 1


def test_chips_void_changes_nothing():
    m = ChipsMatch()
    m.record(hand_result(Contract(40, 1), 0, void=True))
    assert m.totals == [12, 12] and m.hands == 1


def test_chips_pairs_payouts():
    m = new_match("chips", Table.make(6, teams="pairs"))
    assert m.totals == [12, 12, 12]
    m.record(made(40, 1))                  # takes 2 from each of the two other teams
    assert m.totals == [10, 16, 10]
    m.record(failed(48, 2))                # pays 4 to each other team
    assert m.totals == [14, 20, 2]
    m.record(failed(40, 2, doubled=2))     # owes 6 to each; team 0 (first after it) gets 2
    assert m.totals == [14 + 2, 20, 0]
    assert m.is_over and m.winner == 1
    assert sum(m.totals) == 36


def test_chips_tie_has_no_winner():
    m = ChipsMatch(teams=3, totals=[4, 5, 5])
    m.record(failed(28, 0))
    assert m.totals == [0, 7, 7] and m.is_over and m.winner is None


@pytest.mark.parametrize("goal", [12, 24])
def test_race(goal):
    m = RaceMatch(goal=goal)
    m.record(failed(40, 0))                # a failure scores minus the loss stake
    assert m.totals == [-3, 0]
    while not m.is_over:
        m.record(made(56, 1))
    assert m.totals[1] == -(-goal // 4) * 4 and m.winner == 1
    assert m.hands == 1 + -(-goal // 4)


def test_games_no_one_below_zero():
    m = GamesMatch(games=3)
    m.record(failed(40, 0))                # 3 credited to the other team
    assert m.totals == [0, 3]
    m.record(hand_result(Contract(40, 1), 0, void=True))   # void: not a game
    assert m.hands == 1 and not m.is_over
    m.record(made(48, 0, doubled=2))
    assert m.totals == [6, 3] and m.winner is None
    m.record(failed(28, 1, doubled=4))
    assert m.totals == [14, 3] and m.is_over and m.winner == 0
    pairs = GamesMatch(teams=4, games=1)
    pairs.record(failed(56, 2))
    assert pairs.totals == [5, 5, 0, 5] and pairs.winner is None


def test_match_validation():
    with pytest.raises(ScoringError):
        new_match("poker")
    with pytest.raises(ScoringError):
        ChipsMatch(chips=0)
    with pytest.raises(ScoringError):
        RaceMatch(goal=0)
    with pytest.raises(ScoringError):
        GamesMatch(games=0)
    with pytest.raises(ScoringError):
        ChipsMatch(teams=1)
    with pytest.raises(ScoringError, match="team 2"):
        ChipsMatch().record(made(28, 2))
    with pytest.raises(ScoringError):
        new_match("race", goal=12, chips=3)
    assert isinstance(new_match("games", games=6), GamesMatch)
    with pytest.raises(NotationError):
        Contract.parse("x")
