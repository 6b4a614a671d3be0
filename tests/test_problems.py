"""Play problems: the shipped starter sets re-solved, problems made on demand, levels, the schedule.

The answers are checked against things the problem code does not share: the plain minimax of
tests/naive.py (every small position), the solver searching its moves in another order
(``Solver(shuffle=...)``), the auction's promises (every deal a lead was scored on fits them)
and the rule text of ``level_for``."""
from __future__ import annotations

import random
from datetime import timedelta

import pytest

from fiftysix.analyser.solver import Position, Solver, card_values
from fiftysix.analyser.view import View
from fiftysix.cards import Card, Deal, Hand, Table, random_deal
from fiftysix.constraints import fits
from fiftysix.drills import banks
from fiftysix.drills.bankcheck import check_bank
from fiftysix.drills.problem_hands import AUCTION_EVENT, EVENT, bot_auction, shipped_hands
from fiftysix.drills.problem_sets import (
    UNLOCK_SHARE,
    UNLOCK_SOLVED,
    ProblemStore,
    level_scores,
    make_problem,
    open_levels,
    pick_problem,
    starter_problems,
)
from fiftysix.drills.problems import (
    FIND_CARD,
    LEAD_LEVELS,
    LEVELS,
    OPENING_LEAD,
    ProblemError,
    card_groups,
    consistency,
    find_card_at,
    lead_view,
    level_for,
    level_of,
    obvious_card,
    problem_contract,
    problem_state,
    verify,
)
from fiftysix.drills.progress import ProgressStore
from fiftysix.drills.questions import Question
from fiftysix.drills.schedule import utcnow
from fiftysix.records import build_record
from fiftysix.ui.cli import main
from tests.naive import naive_card_values

TABLES = [Table.make(p) for p in (4, 6, 8)]
NO_RUSH = 600.0  # a limit for making a problem that no loaded machine reaches (speed is benched, not tested)


def _sample(qs: list[Question], kind: str, k: int, seed: int = 45) -> list[Question]:
    pool = [q for q in qs if q.type == kind]
    return random.Random(seed).sample(pool, min(k, len(pool)))


def _naive_values(q: Question) -> dict[str, int]:
    """Each legal card's final points for the declarers, by the plain minimax of tests/naive.py."""
    table = q.context.table
    state = problem_state(q)
    contract = problem_contract(q)
    hands = [[str(c) for c in h] for h in state.hands]
    trick = [str(c) for _, c in state.current]
    trump = None if contract.trump is None else "SHDC"[contract.trump]
    teams = [table.team_of(s) for s in table.seats]
    got = state.points[contract.team]
    values = naive_card_values(hands, trump, state.trick_leader - 1, teams, contract.team, trick)
    return {c: got + v for c, v in values.items()}


# --- the shipped starter sets --------------------------------------------------------------------

SHIPPED = {4: (20, {2: 30, 3: 30, 4: 30}), 6: (20, {2: 20, 3: 20, 4: 20}), 8: (20, {2: 20, 3: 20, 4: 20})}
"""Problems the starter sets hold at least (scripts/problem_data.py): find the card at each level,
and opening leads at each level a lead can have (levels 2 and 4 are rare at 8 players, 4 at 4
and 6: the bots' auctions beside the played hands fill them, bench/RESULTS.md)."""


@pytest.mark.parametrize("table", TABLES, ids=lambda t: f"{t.players}p")
def test_a_starter_set_ships_for_every_table_at_every_level(table):
    qs = starter_problems(table)
    assert len({q.id for q in qs}) == len(qs)
    cards, leads = SHIPPED[table.players]
    for lv in LEVELS:
        assert sum(q.type == FIND_CARD and level_of(q) == lv for q in qs) >= cards, lv
    for lv in LEAD_LEVELS:
        assert sum(q.type == OPENING_LEAD and level_of(q) == lv for q in qs) >= leads[lv], lv
    # at most two find-the-card problems of a level from one hand: the set spreads over the deals
    for lv in LEVELS:
        sources = [q.data["source"] for q in qs if q.type == FIND_CARD and level_of(q) == lv]
        assert max(sources.count(x) for x in sources) <= 2, lv
    assert all(q.context.table == table and q.template == f"problem:{q.id}" for q in qs)
    # the bank check (no solving): every problem's data replays and agrees with itself
    assert check_bank(banks.Bank("s", "international", tuple(qs))) == []


@pytest.mark.parametrize("table", TABLES, ids=lambda t: f"{t.players}p")
def test_small_shipped_positions_agree_with_the_naive_minimax(table):
    """Every shipped find-the-card problem small enough for the plain minimax: each right card
    keeps (beats) the contract, each other card really loses it, each stored value is exact."""
    small = [q for q in starter_problems(table) if q.type == FIND_CARD
             and q.data["tricks_left"] <= {4: 3, 6: 2, 8: 2}[table.players]]
    assert small
    for q in small:
        contract = problem_contract(q)
        values = _naive_values(q)
        mine = table.team_of(q.context.seat) == contract.team
        keeps = {c for c, v in values.items() if (v >= contract.value) == mine}
        assert keeps == set(q.answers), q.id
        assert values == {c: int(v) for c, v in q.data["values"].items()}, q.id


@pytest.mark.parametrize("table", [pytest.param(TABLES[0], id="4p"), pytest.param(TABLES[1], id="6p"),
                                   pytest.param(TABLES[2], id="8p", marks=pytest.mark.slow)])
def test_a_sample_of_the_shipped_set_holds_when_solved_in_another_move_order(table):
    # six problems a table; three at 8 players, where a shuffled search of 64 cards takes 10 s each
    for q in _sample(starter_problems(table), FIND_CARD, 6 if table.players < 8 else 3):
        assert verify(q, Solver(8, shuffle=11)) == [], q.id


@pytest.mark.parametrize("table", [pytest.param(TABLES[0], id="4p"), pytest.param(TABLES[1], id="6p"),
                                   pytest.param(TABLES[2], id="8p", marks=pytest.mark.slow)])
def test_a_shipped_opening_lead_holds_on_its_own_deals(table):
    """Each lead re-solved on every stored deal gives the stored rate; the right leads are those
    within the margin; and every stored deal gives the leader its hand and keeps every promise
    of the auction (the deals are what the leader could be facing)."""
    q = _sample(starter_problems(table), OPENING_LEAD, 1)[0]
    # another move order at 4 and 6 players; at 8 (whole deals of 64 cards) the shuffled search
    # takes minutes a lead, so the solver's own order re-solves the rates there
    assert verify(q, Solver(16, shuffle=5 if table.players < 8 else 0)) == []
    leader = int(q.data["leader"])
    view = View.from_auction(table, q.context.system, leader, q.context.hand, q.context.auction)
    for text in q.data["layouts"]:
        deal = Deal.parse(text, table)
        assert str(deal.hand(leader)) == q.context.hand
        for seat in table.seats:
            assert fits(deal.hand(seat), view.promises(seat)), (q.id, seat)
    wrong = [c for c in q.choices if c not in q.answers]
    assert wrong and q.answers  # something to find, and something to avoid


def _fresh_lead_rates(q: Question, n: int, seed: int) -> dict[str, float]:
    """Each lead's chance for the leader's side over ``n`` fresh deals (``seed``), scored by the
    simulation the Analyse page uses (``estimate``, the leader's view from the auction)."""
    from fiftysix.analyser.simulate import estimate_from_auction
    table, contract = q.context.table, problem_contract(q)
    leader = int(q.data["leader"])
    est = estimate_from_auction(table, q.context.system, leader, q.context.hand, q.context.auction, contract,
                                n=n, seed=seed, points=False)
    mine = table.team_of(leader) == contract.team
    return {str(r.card): (r.rate if mine else 1 - r.rate) for r in est.leads}


def _sd(p: float, n: int) -> float:
    """A share's standard error over ``n`` deals (never below one deal's worth)."""
    return max(p * (1 - p), 1 / n) ** 0.5 / n ** 0.5


@pytest.mark.parametrize("table, leads, n", [
    pytest.param(TABLES[0], 6, 400, id="4p"), pytest.param(TABLES[1], 2, 80, id="6p"),
    pytest.param(TABLES[2], 1, 40, id="8p", marks=pytest.mark.slow)])
def test_every_accepted_lead_holds_on_fresh_deals(table, leads, n):
    """A sample of the shipped opening leads re-scored on deals the problem was not scored on
    (another seed, more deals where it is cheap), by ``estimate``: every lead given as right is
    within the stated margin of the best lead there, allowing for the sampling error of both
    scorings (three standard errors of the two differences: 40 stored deals, ``n`` fresh ones)."""
    qs = _sample(starter_problems(table), OPENING_LEAD, leads, seed=7)
    assert len(qs) == leads
    for q in qs:
        fresh = _fresh_lead_rates(q, n, seed=int(q.data["seed"]) + 1000)
        stored = {k: float(v) for k, v in q.data["side_rates"].items()}
        assert set(fresh) == set(q.choices) == set(stored)
        best = max(fresh, key=lambda c: fresh[c])
        top = max(stored, key=lambda c: stored[c])
        margin = float(q.data["margin"])
        for a in q.answers:
            slack = 3 * (_sd(fresh[best], n) ** 2 + _sd(fresh[a], n) ** 2 + _sd(stored[top], 40) ** 2
                         + _sd(stored[a], 40) ** 2) ** 0.5
            assert fresh[best] - fresh[a] <= margin + slack, (q.id, a, fresh, stored)


def test_every_shipped_hands_lead_is_scored_and_shipped():
    """The leads' scores ship with the hands (data/problems/leads-*.json): every shipped hand's
    lead is there, each problem it names is one of the starter set's and was scored on that
    hand, a level it names is a lead's, and every opening lead of the starter set is there.
    So a fresh server never runs a simulation for a shipped hand's lead, except for a hand
    known to give a problem of the level asked."""
    from fiftysix.drills.problem_sets import KEY_CHARS, lead_key, shipped_leads
    for table in TABLES:
        scores = shipped_leads(table)
        by_hand = {lead_key(r)[:KEY_CHARS]: r for r in shipped_hands(table)}
        assert set(by_hand) == set(scores) and len(by_hand) == len(shipped_hands(table)), table
        for key, q in scores.items():
            if isinstance(q, Question):
                rec = by_hand[key]
                assert q.data["deal"] == str(rec.deal) and int(q.data["leader"]) == rec.leader, q.id
                assert q.data["contract"] == str(rec.contract), q.id
            else:
                assert q is None or q in LEAD_LEVELS
        named = {q.id for q in scores.values() if isinstance(q, Question)}
        leads = [q for q in starter_problems(table) if q.type == OPENING_LEAD]
        assert named == {q.id for q in leads if q.data["source"].startswith(EVENT)}, table
        # the others come from the bots' auctions (no play: a lead needs none), not shipped as hands
        assert all(q.data["source"].startswith(AUCTION_EVENT) for q in leads if q.id not in named), table


@pytest.mark.parametrize("table", [pytest.param(TABLES[0], id="4p"),  # at 6 players the played hands give enough
                                   pytest.param(TABLES[2], id="8p", marks=pytest.mark.slow)])
def test_an_opening_lead_from_the_bots_auctions_is_their_deal_and_auction(table):
    """A lead problem taken from a deal the bots only bid is the deal its seed deals, and its
    auction, replayed on that deal by the game's own rules (``build_record``), ends in the
    problem's contract, declarer and leader. (Bidding it again with the bots need not give the
    same auction: their probes stop at a node budget, bots/judge.py ``probe_nodes``, so a change
    to the search's move order can change a bid. The solver's cut keys of 2026-12-06, session 9,
    changed 11 of the 42 shipped 8-player auctions; a problem keeps the auction it was scored
    with.)"""
    qs = [q for q in starter_problems(table) if q.type == OPENING_LEAD and q.data["source"].startswith(AUCTION_EVENT)]
    assert qs
    for q in qs:
        seed = int(q.data["source"].split("seed ")[1].split(",")[0])
        rec = build_record(table, random_deal(table, seed=seed), q.context.system, q.context.auction.split())
        assert str(rec.deal) == q.data["deal"] and rec.leader == int(q.data["leader"]), q.id
        assert rec.contract is not None and str(rec.contract) == q.data["contract"], q.id
        assert rec.contract.declarer == int(q.data["declarer"]), q.id
    q = _sample(qs, OPENING_LEAD, 1, seed=3)[0]
    seed = int(q.data["source"].split("seed ")[1].split(",")[0])
    assert str(bot_auction(table, q.context.system, seed).deal) == q.data["deal"]


def test_the_shipped_index_of_positions_names_every_hand_and_every_shipped_problem():
    """The index a server searches first (data/problems/positions-*.json) covers every shipped
    hand, lists only open positions of the hand, and holds every shipped find-the-card problem
    at its position, level and id."""
    from fiftysix.drills.problem_sets import KEY_CHARS, position_key, shipped_positions
    from fiftysix.drills.problems import open_positions
    for table in TABLES:
        index = shipped_positions(table)
        by_hand = {position_key(r)[:KEY_CHARS]: r for r in shipped_hands(table)}
        assert set(index) == set(by_hand), table
        for key, known in index.items():
            assert {k for k, _, _ in known.found} | set(known.slow) <= set(open_positions(by_hand[key])), key
        listed = {(pid, lv) for known in index.values() for _, lv, pid in known.found}
        for q in starter_problems(table):
            if q.type == FIND_CARD:
                assert (q.id, level_of(q)) in listed, q.id


@pytest.mark.parametrize("table, hands", [pytest.param(TABLES[0], 3, id="4p"), pytest.param(TABLES[1], 2, id="6p"),
                                          pytest.param(TABLES[2], 1, id="8p", marks=pytest.mark.slow)])
def test_a_sample_of_the_index_holds_when_the_hands_are_searched_again(table, hands):
    """Every open position of a sample of hands made again with a solver searching in another
    move order: the problems found are exactly the index's (position, level, id), and every
    other position it could solve is no problem."""
    from fiftysix.drills.problem_sets import KEY_CHARS, position_key, shipped_positions
    from fiftysix.drills.problems import open_positions
    index = shipped_positions(table)
    solver = Solver(16, shuffle=13)
    for rec in random.Random(8).sample(shipped_hands(table), hands):
        known = index[position_key(rec)[:KEY_CHARS]]
        found = set()
        for k in open_positions(rec):
            if k in known.slow:
                continue
            q = find_card_at(rec, k, solver=solver, line_seconds=0.5)
            if q is not None:
                found.add((k, level_of(q), q.id))
        assert found == set(known.found), rec.event


def test_past_the_shipped_set_only_positions_the_index_names_are_solved(monkeypatch):
    """At 8 players, level 4 (the slowest to find by scanning): a problem past the shipped set
    is made by solving one position, one the index names, and it holds when solved again."""
    from fiftysix.drills import problem_sets
    table = TABLES[2]
    monkeypatch.setattr(problem_sets, "_cards_made", {})
    solved: list[int] = []

    def counted(rec, k, *a, **kw):
        solved.append(k)
        return find_card_at(rec, k, *a, **kw)

    monkeypatch.setattr(problem_sets, "find_card_at", counted)
    skip = {q.id for q in starter_problems(table)}
    q = make_problem(table, 4, FIND_CARD, seed=2, skip=skip, max_seconds=NO_RUSH)
    assert q is not None and level_of(q) == 4 and q.id not in skip
    assert len(solved) == 1
    assert verify(q, Solver(16)) == []


@pytest.mark.parametrize("table", TABLES, ids=lambda t: f"{t.players}p")
def test_a_fresh_servers_leads_come_without_a_simulation(table, monkeypatch):
    """Nothing kept in memory or a data file: a lead problem of every level the shipped set
    holds is made without scoring any hand; past the shipped set, only a hand known (by the
    shipped scores) to give a problem of the level asked is scored, and it gives one; a level
    whose problems all ship scores none."""
    from fiftysix.drills import problem_sets
    from fiftysix.drills.problem_sets import KEY_CHARS, lead_key, shipped_leads
    from fiftysix.drills.problems import LeadScoring
    monkeypatch.setattr(problem_sets, "_leads_made", {})
    monkeypatch.setattr(problem_sets, "_lead_scoring", {})
    monkeypatch.setattr(problem_sets, "_lead_levels", {})
    scored: list[str] = []

    def counted(rec, *a, **k):
        scored.append(lead_key(rec)[:KEY_CHARS])
        return LeadScoring(rec, *a, **k)

    monkeypatch.setattr(problem_sets, "LeadScoring", counted)
    shipped = [q for q in starter_problems(table) if q.type == OPENING_LEAD]
    levels = shipped_leads(table)
    for level in LEAD_LEVELS:
        mine = {q.id for q in shipped if level_of(q) == level}
        if mine:
            q = make_problem(table, level, OPENING_LEAD, seed=1, max_seconds=NO_RUSH)
            assert q is not None and q.id in mine and scored == []
        known = level in levels.values()  # else only a deal the bots bid anew gives one: a short look
        q = make_problem(table, level, OPENING_LEAD, seed=1, skip={p.id for p in shipped},
                         max_seconds=NO_RUSH if known else 1.0)
        if known:  # a hand known to give one: scored, and it gives one
            assert q is not None and level_of(q) == level and q.id not in mine
            assert len(scored) == 1 and levels[scored[0]] == level
        else:  # no shipped hand gives one: none of them is scored (a deal the bots bid may be, past the set)
            assert scored == [] or not set(scored) & {lead_key(r)[:KEY_CHARS] for r in shipped_hands(table)}
            assert q is None or (level_of(q) == level and q.id not in mine)
        scored.clear()


def test_a_tampered_problem_fails_its_checks():
    q = _sample(starter_problems(TABLES[0]), FIND_CARD, 1)[0]
    wrong = next(c for c in q.choices if c not in q.answers)
    bad = Question.from_dict({**q.to_dict(), "answers": [wrong], "preferred": wrong})
    assert any("is given as right" in m for m in verify(bad))
    assert any("by the stored values" in m for m in consistency(bad))


# --- what a position offers ----------------------------------------------------------------------

def test_equivalent_cards_are_worth_the_same_to_the_solver():
    """Cards ``card_groups`` puts together give the same result with best play (the solver does
    not know the grouping), in random endings of every table."""
    rng = random.Random(3)
    solver = Solver(4)
    for table in TABLES:
        multi = 0
        for _ in range(400):
            deal = random_deal(table, rng=rng)
            hands = tuple(Hand(tuple(rng.sample(h.cards, 3))) for h in deal.hands)
            pos = Position(table, hands, rng.choice((0, 1, None)), rng.choice(list(table.seats)))
            groups = card_groups(pos)
            assert sorted(c for g in groups for c in g) == sorted(pos.legal_cards())
            if all(len(g) == 1 for g in groups):
                continue
            values = card_values(pos, 0, solver=solver)
            for g in groups:
                assert len({values[c] for c in g}) == 1, (str(pos.hands), g)
            multi += 1
            if multi == 5:
                break
        assert multi == 5, table  # groups of more than one card were met and checked


def _pos(hands: list[str], leader: int, current: tuple = (), trump: int | None = 1) -> Position:
    table = Table.make(4)
    return Position(table, tuple(Hand.parse(h) for h in hands), trump, leader,
                    tuple((s, Card.parse(c)) for s, c in current))


def test_the_obvious_card_follows_its_rule_text():
    # "on lead, the top card of the longest suit"
    assert str(obvious_card(_pos(["J9.A..", "TT..J.", "A..9A.", "...J9A"], 1))) == "JS"
    # "following, points onto a trick the partners are winning": seat 3's partner seat 1 wins with JS
    assert str(obvious_card(_pos(["9...", "T...", "A9...", "..JA."], 1, ((1, "JS"), (2, "TS"))))) == "9S"
    # "else the lowest card that wins it": 9S and JS both beat AS
    assert str(obvious_card(_pos([".A..", "J9...", "T.J..", "T..A."], 1, ((1, "AS"),)))) == "9S"
    # "else the cheapest card": nothing beats JS; TS (1 point) goes before 9S (2)
    assert str(obvious_card(_pos([".A..", "9T...", "A.J..", "T..A."], 1, ((1, "JS"),)))) == "TS"


def test_levels_follow_the_rule_text():
    # "tricks left (1-2, 3-4, 5-6, 7 or more), the choices once equivalent cards count as one
    # (2, 3-4, 5 or more) and the distance from the obvious card (0-2) add up to a score 0..7"
    assert level_for(2, 2, 0) == 1        # score 0
    assert level_for(3, 2, 0) == 2        # 1
    assert level_for(2, 3, 1) == 2        # 2
    assert level_for(5, 2, 1) == 3        # 3
    assert level_for(8, 3, 0) == 3        # 4
    assert level_for(8, 5, 0) == 4        # 5
    assert level_for(6, 5, 2) == 5        # 6
    assert level_for(8, 5, 2) == 5        # 7
    assert LEAD_LEVELS == (2, 3, 4)


# --- made on demand -------------------------------------------------------------------------------

def test_a_problem_made_on_demand_has_the_level_asked_and_holds():
    table = TABLES[0]
    q = make_problem(table, 2, FIND_CARD, seed=3, max_seconds=NO_RUSH)
    assert q is not None and level_of(q) == 2 and q.type == FIND_CARD
    assert verify(q, Solver(8, shuffle=2)) == []
    again = make_problem(table, 2, FIND_CARD, seed=3, max_seconds=20, skip={q.id})
    assert again is None or again.id != q.id
    with pytest.raises(ProblemError, match="levels run from 1 to 5"):
        make_problem(table, 6)
    with pytest.raises(ProblemError, match="opening lead problems run from level 2 to 4"):
        make_problem(table, 5, OPENING_LEAD)
    with pytest.raises(ProblemError, match="no bots' hands are shipped"):
        make_problem(Table.make(8, 48), 1)


def test_past_the_shipped_set_a_problem_is_made_with_progress():
    """Once the shipped problems of a level are used up, the engine makes a new one from the
    bots' hands, saying as it goes which hand (and, for a lead, which deal) it is at."""
    for table, level in zip(TABLES, (2, 3, 1)):
        skip = {q.id for q in starter_problems(table)}
        seen: list[tuple[float, str]] = []
        q = make_problem(table, level, FIND_CARD, seed=5, skip=skip, max_seconds=NO_RUSH,
                         on_progress=lambda f, w: seen.append((f, w)))
        assert q is not None and level_of(q) == level and q.id not in skip, table
        assert seen and all(0 <= f < 1 for f, _ in seen) and "the bots' hand" in seen[0][1]
        assert verify(q, Solver(8, shuffle=4)) == []
    table = TABLES[0]
    skip = {q.id for q in starter_problems(table)}
    seen = []
    q = make_problem(table, 3, OPENING_LEAD, seed=5, skip=skip, max_seconds=NO_RUSH,
                     on_progress=lambda f, w: seen.append((f, w)))
    assert q is not None and level_of(q) == 3 and q.id not in skip
    assert any("deal 40 of 40" in w for _, w in seen) and all(0 <= f < 1 for f, _ in seen)


def test_find_card_at_a_position_of_a_shipped_hand_matches_the_starter_problem():
    """Made again from the hand it came from, a starter problem is the same problem."""
    table = TABLES[0]
    q = _sample(starter_problems(table), FIND_CARD, 1, seed=2)[0]
    seed = int(q.data["source"].split("seed ")[1].split(",")[0])
    rec = next(r for r in shipped_hands(table) if f"seed {seed}," in r.event)
    k = len(q.data["played"].split())
    again = find_card_at(rec, k)
    assert again is not None and again.to_dict() == q.to_dict()


def test_an_opening_lead_view_holds_only_what_the_leader_knows():
    rec = shipped_hands(TABLES[0])[0]
    view = lead_view(rec)
    assert view.seat == rec.leader and view.hand == rec.deal.hand(rec.leader) and view.plays == ()


# --- banks carry problems --------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", banks.FORMATS)
def test_every_bank_format_carries_problems(fmt):
    qs = [q for t in TABLES for q in _sample(starter_problems(t), FIND_CARD, 1) + _sample(starter_problems(t),
                                                                                          OPENING_LEAD, 1)]
    bank = banks.Bank("Play problems", "international", tuple(qs), "coach")
    back = banks.import_text(banks.export_text(bank, fmt), fmt, "bank", "international")
    assert [q.to_dict() for q in back.questions] == [q.to_dict() for q in qs]


def test_a_find_card_problem_outside_the_app_shows_every_hand():
    q = _sample(starter_problems(TABLES[1]), FIND_CARD, 1)[0]
    text = banks.question_text(q)
    state = problem_state(q)
    for seat in TABLES[1].seats:
        assert f"Seat {seat}: {state.hands[seat - 1]}" in text
    assert q.prompt in text and f"Contract: {q.data['contract']}" in text


# --- levels, scores and the schedule -------------------------------------------------------------

def test_a_missed_problem_comes_back_through_the_schedule(tmp_path):
    store = ProgressStore(tmp_path / "p.sqlite3", learner="asha")
    qs = [q for q in starter_problems(TABLES[0]) if level_of(q) == 1]
    missed = qs[0]
    now = utcnow()
    store.record_answer(missed, next(c for c in missed.choices if c not in missed.answers), now=now)
    cards = store.cards()
    assert f"problem:{missed.id}" in cards and cards[f"problem:{missed.id}"].due < now + timedelta(days=1)
    later = cards[f"problem:{missed.id}"].due + timedelta(seconds=1)
    assert pick_problem(qs, cards, 1, now=later, seed=1).id == missed.id  # due first
    fresh = pick_problem(qs, cards, 1, now=now, seed=1)
    assert fresh.id != missed.id and f"problem:{fresh.id}" not in cards  # not due yet: a new one


def test_the_next_level_opens_once_a_level_is_mostly_solved(tmp_path):
    store = ProgressStore(tmp_path / "p.sqlite3", learner="asha")
    table = TABLES[0]
    ones = [q for q in starter_problems(table) if level_of(q) == 1][:UNLOCK_SOLVED]
    assert open_levels(level_scores(store.history(), table)) == [1]
    t = utcnow()
    for i, q in enumerate(ones[:-1]):
        store.record_answer(q, q.answer, now=t + timedelta(minutes=i))
    scores = level_scores(store.history(), table)
    assert scores[1].solved == UNLOCK_SOLVED - 1 and open_levels(scores) == [1]
    store.record_answer(ones[-1], ones[-1].answer, now=t + timedelta(minutes=10))
    scores = level_scores(store.history(), table)
    assert scores[1].solved == UNLOCK_SOLVED and scores[1].share == 1.0 and open_levels(scores) == [1, 2]
    # wrong answers pull the share below UNLOCK_SHARE: level 2 closes again
    wrong = round(UNLOCK_SOLVED / UNLOCK_SHARE)
    for i in range(wrong):
        q = ones[i % len(ones)]
        store.record_answer(q, next(c for c in q.choices if c not in q.answers), now=t + timedelta(hours=i + 1))
    scores = level_scores(store.history(), table)
    assert scores[1].share < UNLOCK_SHARE and open_levels(scores) == [1]
    assert level_scores(store.history(), Table.make(6))[1].answers == 0  # another table size scores apart


def test_problems_made_on_demand_are_kept(tmp_path):
    kept = ProblemStore(tmp_path / "p.sqlite3")
    qs = starter_problems(TABLES[0])[:3]
    for q in qs + qs[:1]:
        kept.add(q)
    assert [q.to_dict() for q in kept.problems(TABLES[0])] == [q.to_dict() for q in qs]
    assert kept.problems(Table.make(6)) == []


# --- the command line ----------------------------------------------------------------------------

def test_problems_make_on_the_command_line(capsys):
    assert main(["problems", "make", "--players", "4", "--level", "1", "--seed", "1", "--max-seconds", "20",
                 "--json"]) == 0
    import json
    out = json.loads(capsys.readouterr().out)
    assert out["problem"]["type"] == FIND_CARD and out["problem"]["data"]["level"] == 1
    assert main(["problems", "make", "--level", "9"]) == 2
    err = capsys.readouterr().err
    assert "--level must be 1..5" in err and err.count("\n") == 1


def test_a_starter_set_is_built_on_the_command_line(tmp_path, capsys):
    from fiftysix import shipped
    hands = tmp_path / "hands.txt"
    hands.write_text(shipped.data_file("problems", "hands-4x32.txt").read_text(encoding="utf-8"), encoding="utf-8")
    out = tmp_path / "set.json"
    assert main(["problems", "starter", "--players", "4", str(hands), "--per-level", "1", "--leads-per-level", "0",
                 "-o", str(out)]) == 0
    bank = banks.load_bank(out)
    assert sorted(level_of(q) for q in bank.questions) == list(LEVELS)
    assert "5 problems written" in capsys.readouterr().out
    assert main(["problems", "check", str(out)]) == 0


def test_shipped_hands_are_read_one_at_a_time_as_the_whole_file_reads():
    """A fresh server reads a shipped hand when it is first asked for, not the whole file;
    each hand, its line included, is what reading the whole file at once gives."""
    from fiftysix import shipped
    from fiftysix.drills.problem_hands import PROBLEMS, ShippedHands, hands_name
    from fiftysix.records import parse_records
    for table in TABLES:
        text = shipped.data_file(PROBLEMS, hands_name(table)).read_text(encoding="utf-8")
        whole = parse_records(text, hands_name(table))
        lazy = ShippedHands(text, hands_name(table))
        assert len(lazy) == len(whole) and lazy[len(whole) - 1] == whole[-1]
        assert sum(r is not None for r in lazy._records) == 1  # only the hand asked for was read
        assert list(lazy) == whole and lazy[3:6] == tuple(whole[3:6]), table
    assert len(ShippedHands("", "none")) == 0


def test_past_every_shipped_hand_a_lead_comes_from_a_deal_the_bots_bid(monkeypatch):
    """At 4 players every level-4 lead the shipped hands give is in the set: past it, the
    server has the bots bid new deals and scores their leads until one gives level 4 (a
    learner never meets a dead end), saying so as it goes; a second request gets another."""
    from fiftysix.drills import problem_sets
    monkeypatch.setattr(problem_sets, "_auction_made", {})
    monkeypatch.setattr(problem_sets, "_auction_next", {})
    monkeypatch.setattr(problem_sets, "_auction_scoring", {})
    table = TABLES[0]
    skip = {q.id for q in starter_problems(table)}
    seen: list[tuple[float, str]] = []
    q = make_problem(table, 4, OPENING_LEAD, seed=1, skip=skip, max_seconds=NO_RUSH,
                     on_progress=lambda f, w: seen.append((f, w)))
    assert q is not None and level_of(q) == 4 and q.id not in skip
    assert any("a deal the bots bid" in w for _, w in seen) and all(0 <= f < 1 for f, _ in seen)
    assert verify(q, Solver(8, shuffle=3)) == []  # the solver agrees, every deal scored again
    again = make_problem(table, 4, OPENING_LEAD, seed=2, skip=skip | {q.id}, max_seconds=NO_RUSH)
    assert again is not None and again.id != q.id and level_of(again) == 4
