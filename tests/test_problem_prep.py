"""Problems made ahead (drills.problem_prep): checked before any learner gets one, handed out
once, and made in background places of the heavy-job queue that give way to pages."""
from __future__ import annotations

import pytest

from fiftysix.analyser.solver import Solver
from fiftysix.cards import Table
from fiftysix.drills import problem_prep
from fiftysix.drills.problem_prep import Larder, checked
from fiftysix.drills.problem_sets import starter_problems
from fiftysix.drills.problems import OPENING_LEAD, level_of, verify
from fiftysix.drills.questions import Question
from fiftysix.ui.jobs import background_job, job_queue

FOUR = Table.make(4)
NO_RUSH = 600.0  # a limit for making a problem that no loaded machine reaches (speed is benched, not tested)


@pytest.mark.slow
def test_a_problem_made_ahead_holds_when_solved_again_and_is_handed_out_once():
    larder = Larder()
    skip = {q.id for q in starter_problems(FOUR)}
    larder.want(FOUR, "find-card", 2, skip)
    wish = larder.progress(FOUR, "find-card", 2)
    assert wish is not None and wish.thread is not None
    wish.thread.join(120)
    q = larder.take(FOUR, "find-card", 2, skip)
    assert q is not None and level_of(q) == 2 and q.id not in skip
    assert verify(q, Solver(16, shuffle=5)) == []  # re-solved from its own data, a fresh table
    assert larder.take(FOUR, "find-card", 2, skip) is None and larder.rejected == []


def test_a_problem_that_fails_the_check_is_never_handed_out(monkeypatch):
    """The engine hands over a find-the-card problem whose stored values are off by a point
    (its right card still agrees with them, so only a re-solve finds it out): the larder turns
    it down, and no learner gets it."""
    q = next(p for p in starter_problems(FOUR) if p.type == "find-card")
    wrong = next(c for c in q.choices if c not in q.answers)
    values = {**q.data["values"], wrong: q.data["values"][wrong] + (1 if q.data["values"][wrong] < q.data["target"] - 1
                                                                    else -1)}
    bad = Question.from_dict({**q.to_dict(), "data": {**q.data, "values": values}})
    from fiftysix.drills.problems import consistency
    assert consistency(bad) == [] and checked(bad) != []
    monkeypatch.setattr(problem_prep, "make_problem", lambda *a, **k: bad)
    larder = Larder()
    larder.want(FOUR, "find-card", level_of(q))
    larder.progress(FOUR, "find-card", level_of(q)).thread.join(60)
    assert larder.take(FOUR, "find-card", level_of(q)) is None
    assert [i for i, _ in larder.rejected] == [bad.id] * problem_prep.TRIES
    assert "differ from the solver's" in larder.rejected[0][1][0]


def test_no_lead_is_wanted_at_a_level_leads_do_not_have():
    larder = Larder()
    assert larder.want(FOUR, OPENING_LEAD, 1) is False and larder.progress(FOUR, OPENING_LEAD, 1) is None


def test_background_work_gives_way_to_pages():
    q = job_queue()
    with background_job("ahead", 60) as job:
        assert job is not None and not job.stop()
        with background_job("second", 60) as other:
            assert other is None  # background work runs one at a time
        held = [q.join("page-1"), q.join("page-2")]  # pages take the places left...
        try:
            assert q.counts() == (1, 1) and job.stop()  # ...one waits: the background work stops
        finally:
            for t in held:
                q.leave(t)
    held = [q.join("page-1"), q.join("page-2"), q.join("page-3")]
    try:
        with background_job("ahead", 60) as job:
            assert job is None  # no place while pages wait
    finally:
        for t in held:
            q.leave(t)
    assert q.counts() == (0, 0)


@pytest.mark.slow
def test_each_hands_opening_lead_is_scored_once_a_server(tmp_path, monkeypatch):
    """What scoring a hand's lead gave is kept in the data file: after a restart (the process's
    own memory gone) the same problem comes back without a simulation, and it still holds
    when every lead is re-solved on its deals."""
    from fiftysix.drills import problem_sets
    from fiftysix.drills.problem_hands import shipped_hands
    from fiftysix.drills.problem_sets import LEAD_SEED, ProblemStore, lead_key, make_problem
    from fiftysix.drills.problems import lead_problem
    index = ProblemStore(tmp_path / "fiftysix.db")
    monkeypatch.setattr(problem_sets, "_leads_made", {})
    monkeypatch.setattr(problem_sets, "_lead_scoring", {})
    hands = shipped_hands(FOUR)
    monkeypatch.setattr(problem_sets, "shipped_leads", lambda table: {})  # as if none shipped
    first = make_problem(FOUR, 3, OPENING_LEAD, seed=4, index=index, max_seconds=NO_RUSH)
    assert first is not None
    scored = {lead_key(r): index.scored_lead(lead_key(r)) for r in hands}
    kept = {k: v for k, v in scored.items() if v[0]}
    assert first.id in {v[1].id for v in kept.values() if v[1] is not None}
    rec = next(r for r in hands if lead_key(r) in kept and kept[lead_key(r)][1] is not None)
    assert kept[lead_key(rec)][1].to_dict() == lead_problem(rec, seed=LEAD_SEED).to_dict()  # as scored afresh
    monkeypatch.setattr(problem_sets, "_leads_made", {})  # a restart
    monkeypatch.setattr(problem_sets, "LeadScoring", lambda *a, **k: (_ for _ in ()).throw(AssertionError("scored")))
    again = make_problem(FOUR, 3, OPENING_LEAD, seed=4, index=index, max_seconds=NO_RUSH)
    assert again is not None and again.to_dict() == first.to_dict()
    assert verify(again) == []


@pytest.mark.slow
def test_a_lead_scored_in_steps_is_the_lead_scored_at_once():
    """Stopped after a few deals and taken up again (a page took the place), the scoring of a
    hand's leads gives the problem that one run over every deal gives, as the full simulation
    (``analyser.simulate.estimate``) scores it."""
    from fiftysix.analyser.dealer import Dealer
    from fiftysix.analyser.simulate import estimate
    from fiftysix.drills.problem_hands import shipped_hands
    from fiftysix.drills.problems import LeadScoring, lead_problem, lead_view
    done = 0
    for rec in shipped_hands(FOUR)[:12]:
        steps = LeadScoring(rec, 40, 1)
        calls = iter(range(10**6))
        assert not steps.run(stop=lambda: next(calls) > 3, threads=1)  # stopped early...
        assert 0 < len(steps.made) < 40
        assert steps.run(upto=20) and not steps.done
        assert steps.run()  # ...then finished
        view = lead_view(rec)
        est = estimate(view, rec.contract, 40, 1, dealer=Dealer(view), points=False)
        assert steps.rates() == {r.card: r.rate for r in est.leads}
        whole = lead_problem(rec, seed=1)
        made = steps.problem()
        assert (made is None and whole is None) or made.to_dict() == whole.to_dict()
        done += made is not None
    assert done  # some hands gave a problem


@pytest.mark.slow
def test_a_first_look_changes_the_order_not_the_problems(monkeypatch):
    """With the first look at each hand's lead (``PEEK_DEALS``) or without it, the problems
    made at each level are problems scored on all their deals, and the same set turns up."""
    from fiftysix.drills import problem_sets
    from fiftysix.drills.problem_hands import shipped_hands
    from fiftysix.drills.problem_sets import make_problem
    some = shipped_hands(FOUR)[:30]
    monkeypatch.setattr(problem_sets, "shipped_hands", lambda table: some)
    monkeypatch.setattr(problem_sets, "_lead_from_auctions", lambda *a, **k: None)  # these hands only, no new deals
    found = {}
    for peek in (0, 16):
        monkeypatch.setattr(problem_sets, "PEEK_DEALS", peek)
        monkeypatch.setattr(problem_sets, "shipped_leads", lambda table: {})  # as if none shipped
        monkeypatch.setattr(problem_sets, "_leads_made", {})
        monkeypatch.setattr(problem_sets, "_lead_scoring", {})
        got = set()
        for level in (2, 3, 4):
            skip: set[str] = set()
            while (q := make_problem(FOUR, level, OPENING_LEAD, seed=2, skip=skip, max_seconds=NO_RUSH)) is not None:
                assert level_of(q) == level and len(q.data["layouts"]) == 40
                skip.add(q.id)
                got.add(q.id)
        found[peek] = got
    assert found[0] and found[0] == found[16]


@pytest.mark.slow
def test_two_searches_scoring_one_hand_take_turns():
    """A page's search and one made ahead may reach the same hand: they take turns on its
    deals, and both see the scoring done once."""
    import threading

    from fiftysix.drills.problem_hands import shipped_hands
    from fiftysix.drills.problems import LeadScoring
    rec = shipped_hands(Table.make(6))[1]
    shared, alone = LeadScoring(rec, 12, 1), LeadScoring(rec, 12, 1)
    results: list[bool] = []
    threads = [threading.Thread(target=lambda: results.append(shared.run(threads=1))) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert results == [True, True] and alone.run() and shared.rates() == alone.rates()


@pytest.mark.slow
def test_a_survey_scores_every_hands_lead_once_and_keeps_it(tmp_path, monkeypatch):
    """The background survey scores the lead of every bots' hand, each as scoring it alone
    gives, and keeps them in the data file: a second survey (after a restart) scores none."""
    from fiftysix.drills import problem_sets
    from fiftysix.drills.problem_hands import shipped_hands
    from fiftysix.drills.problem_sets import LEAD_SEED, ProblemStore, lead_key, score_leads
    from fiftysix.drills.problems import lead_problem
    some = shipped_hands(FOUR)[:20]
    monkeypatch.setattr(problem_sets, "shipped_hands", lambda table: some)
    monkeypatch.setattr(problem_sets, "shipped_leads", lambda table: {})  # as if none shipped
    monkeypatch.setattr(problem_sets, "_leads_made", {})
    monkeypatch.setattr(problem_sets, "_lead_scoring", {})
    index = ProblemStore(tmp_path / "fiftysix.db")
    larder = Larder(index=index, stock_cap=0)  # the hands only (the stock: tested below)
    larder.survey(FOUR)
    wish = larder.progress(FOUR, problem_prep.SURVEY, 0)
    wish.thread.join(120)
    assert wish.note == problem_prep.SCORED
    for rec in some[:6]:
        known, q = index.scored_lead(lead_key(rec))
        whole = lead_problem(rec, seed=LEAD_SEED)
        assert known and (q is None if whole is None else q.to_dict() == whole.to_dict())
    monkeypatch.setattr(problem_sets, "_leads_made", {})  # a restart
    monkeypatch.setattr(problem_sets, "LeadScoring", lambda *a, **k: (_ for _ in ()).throw(AssertionError("scored")))
    assert score_leads(FOUR, index=index) == (20, 20)


def test_the_larder_keeps_three_leads_ready_at_eight_players_and_one_elsewhere(monkeypatch):
    """A lead at 6 or 8 players takes long to make, so the larder keeps ``DEPTHS`` of them
    ready (and no more); find-the-card at 8 players and leads at 4 keep one. The problems
    handed over are shipped ones (each a different id): this checks the counting, not the making."""
    eight = Table.make(8)
    pool = {(players, kind): [q for q in starter_problems(Table.make(players)) if q.type == kind]
            for players in (4, 8) for kind in (OPENING_LEAD, "find-card")}
    made: list[str] = []

    def make(table, level, kind, seed, skip=(), **_):
        q = next(p for p in pool[table.players, kind] if p.id not in skip)
        made.append(q.id)
        return q

    monkeypatch.setattr(problem_prep, "make_problem", make)
    larder = Larder(check=lambda q: [], seconds=NO_RUSH)
    assert problem_prep.DEPTHS[8, OPENING_LEAD] == 3 and larder.depth == 1

    def fill(table, kind, level=2):
        larder.want(table, kind, level)
        wish = larder.progress(table, kind, level)
        wish.thread.join(NO_RUSH)
        assert wish.done and wish.note == "ready"
        return larder.ready(table, kind, level)

    assert fill(eight, OPENING_LEAD) == 3 and len(made) == 3  # three, and the wish stopped there
    assert larder.want(eight, OPENING_LEAD, 2) is True and len(made) == 3  # full: nothing more is made
    taken = larder.take(eight, OPENING_LEAD, 2)
    assert taken is not None and fill(eight, OPENING_LEAD) == 3 and len(made) == 4  # one taken, one made
    assert fill(eight, "find-card") == 1 and fill(FOUR, OPENING_LEAD) == 1 and len(made) == 6
    assert problem_prep.ahead_of(eight, OPENING_LEAD) == 8 > problem_prep.ahead_of(eight, "find-card") == 2
    assert problem_prep.ahead_of(Table.make(6), OPENING_LEAD) == 8 and problem_prep.ahead_of(FOUR, OPENING_LEAD) == 2


def _fresh_auctions(monkeypatch):
    """No deal the bots bid is remembered in memory (a fresh server process)."""
    from fiftysix.drills import problem_sets
    monkeypatch.setattr(problem_sets, "_auction_made", {})
    monkeypatch.setattr(problem_sets, "_auction_next", {})
    monkeypatch.setattr(problem_sets, "_auction_scoring", {})


@pytest.mark.slow
def test_the_background_stock_holds_every_lead_it_scored_for_every_learner(tmp_path, monkeypatch):
    """From a learner's first visit the server fills a stock of opening leads (here one a level
    at 4 players) with deals the bots bid: every lead scored goes in at its level, each is what
    scoring that deal alone gives and holds when the solver re-solves its deals; a request
    for a lead past the shipped set then takes one from the stock with no simulation, for any
    learner who has not met it; a restarted server bids the next deals, not the same again."""
    from fiftysix.drills import problem_sets
    from fiftysix.drills.problem_hands import AUCTION_EVENT, bot_auction, shipped_hands
    from fiftysix.drills.problem_sets import (
        AUCTION_FIRST,
        LEAD_LEVELS,
        LEAD_SEED,
        ProblemStore,
        make_problem,
    )
    from fiftysix.drills.problems import lead_problem
    _fresh_auctions(monkeypatch)
    monkeypatch.setattr(problem_sets, "shipped_hands", lambda table: shipped_hands(table)[:3])
    monkeypatch.setattr(problem_sets, "_leads_made", {})
    monkeypatch.setattr(problem_sets, "_lead_scoring", {})
    index = ProblemStore(tmp_path / "server.db")
    larder = Larder(index=index, stock_cap=1)
    larder.survey(FOUR)
    wish = larder.progress(FOUR, problem_prep.SURVEY, 0)
    wish.thread.join(NO_RUSH)
    assert wish.note == problem_prep.STOCKED
    counts = index.stock_counts(FOUR)
    assert all(counts[lv] >= 1 for lv in LEAD_LEVELS), counts
    with index._connect() as con:
        claimed = [s for (s,) in con.execute("SELECT seed FROM lead_auctions ORDER BY seed")]
    assert claimed == list(range(AUCTION_FIRST, AUCTION_FIRST + len(claimed)))  # one deal after another
    stocked = {lv: index.stocked(FOUR, lv) for lv in LEAD_LEVELS}
    for lv, q in stocked.items():
        assert q is not None and level_of(q) == lv
        seed = int(q.data["source"].split("seed ", 1)[1].split(",", 1)[0])
        if q.data["source"].startswith(AUCTION_EVENT):  # a deal the bots bid: scored alone it gives the same
            assert seed >= AUCTION_FIRST
            alone = lead_problem(bot_auction(FOUR, q.context.system, seed), seed=LEAD_SEED)
            assert alone is not None and alone.to_dict() == q.to_dict()
    q4 = stocked[4]
    assert verify(q4, Solver(8, shuffle=3)) == []  # the solver agrees, every deal scored again
    # filled, the survey is not started again; once a learner was shown a stocked lead, it is
    larder.survey(FOUR)
    assert larder.progress(FOUR, problem_prep.SURVEY, 0) is wish
    index.add(stocked[3])
    larder.survey(FOUR)
    assert larder.progress(FOUR, problem_prep.SURVEY, 0) is not wish
    larder.close()
    # a learner past the shipped set: the stock's lead at once, no simulation run
    monkeypatch.setattr(problem_sets, "LeadScoring", lambda *a, **k: (_ for _ in ()).throw(AssertionError("scored")))
    skip = {q.id for q in starter_problems(FOUR)}
    got = make_problem(FOUR, 4, OPENING_LEAD, seed=5, skip=skip, max_seconds=NO_RUSH, index=index)
    assert got is not None and got.id == q4.id
    again = index.stocked(FOUR, 4, skip | {q4.id})  # the learner met it: the next one, if any, never it
    assert again is None or again.id != q4.id
    # a restart: the next deal the bots bid is the one after the last claimed
    assert index.claim_auction(FOUR, AUCTION_FIRST) > claimed[-1]


def test_a_damaged_stock_row_is_never_handed_out(tmp_path):
    """A stock row that does not read back, or says another level or table than its problem,
    is passed over (never shown); the good ones still come, and the counts stay readable."""
    import json
    import sqlite3

    from fiftysix.drills.problem_sets import ProblemStore
    leads = [q for q in starter_problems(FOUR) if q.type == OPENING_LEAD]
    two, three = next(q for q in leads if level_of(q) == 2), next(q for q in leads if level_of(q) == 3)
    store = ProblemStore(tmp_path / "server.db")
    store.stock(two)
    store.stock(two)  # once only
    assert store.stock_counts(FOUR) == {2: 1, 3: 0, 4: 0} == store.stock_counts(FOUR, unused=True)
    store.add(two)  # shown to a learner (kept for every learner): no longer counted as unused stock
    assert store.stock_counts(FOUR, unused=True) == {2: 0, 3: 0, 4: 0} and store.stock_counts(FOUR)[2] == 1
    with sqlite3.connect(tmp_path / "server.db") as con:
        con.execute("INSERT INTO lead_stock VALUES ('bad', 4, 32, 'alternate', 2, '{not json', '0')")
        con.execute("INSERT INTO lead_stock VALUES (?, 4, 32, 'alternate', 2, ?, '1')",
                    (three.id, json.dumps(three.to_dict())))  # a level-3 problem filed as level 2
    assert store.stocked(FOUR, 2).id == two.id
    assert store.stocked(FOUR, 2, skip={two.id}) is None
    assert store.stocked(FOUR, 3) is None and store.stocked(Table.make(6), 2) is None


def test_a_stock_that_cannot_be_written_fills_nothing_and_says_so(tmp_path):
    """A data file the server can only read (``Store`` falls back to reading it): the stock
    reads as it is, filling it ends at once (nothing could be kept), and claiming a deal says
    why in one line."""
    from fiftysix.drills.problem_sets import AUCTION_FIRST, ProblemStore, ProblemStoreError, fill_stock
    path = tmp_path / "server.db"
    ProblemStore(path).stock(next(q for q in starter_problems(FOUR) if q.type == OPENING_LEAD))
    store = ProblemStore(path)
    store.read_only = True  # as ``Store._open_read_only`` leaves it for a read-only file or folder
    assert sum(store.stock_counts(FOUR).values()) == 1
    assert fill_stock(FOUR, store, cap=5) is True
    with pytest.raises(ProblemStoreError, match="read-only"):
        store.claim_auction(FOUR, AUCTION_FIRST)
