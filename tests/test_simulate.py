"""Makeability estimates against exact expectations over every consistent arrangement."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from fiftysix.analyser.dealer import View, counts_to_deal
from fiftysix.analyser.simulate import estimate, on_lead, wilson
from fiftysix.cards import CARD_NAMES, Card, Table, random_deal
from fiftysix.constraints import Count
from fiftysix.errors import FiftySixError
from fiftysix.play import PlayState
from fiftysix.scoring import Contract
from tests.naive import naive_card_values, naive_max_points
from tests.test_dealer import HEARTS, ending_view, enumerate_arrangements

TRUMP = 0  # ending_view plays with spades as trumps


def exact_outcomes(view: View, side: int):
    """For every consistent deal (with its number of arrangements): the side's final points
    with best play, and after each possible lead of the viewing seat (plain minimax)."""
    exact = enumerate_arrangements(view)
    t = view.table
    teams = [t.team_of(s) for s in t.seats]
    rows = []
    for key, weight in exact.items():
        hands = []
        for s in t.seats:
            c = list(view.hand.counts()) if s == view.seat else list(key[view.hidden_seats.index(s)])
            hands.append(c)
        deal = counts_to_deal(t, np.array(hands))
        st = PlayState(deal, TRUMP, early_stop=False)
        st.play_all(c for _, c in view.plays)
        won = st.points[side]
        left = [[CARD_NAMES[c] for c in h] for h in st.hands]
        leader = st.to_move - 1
        total = won + naive_max_points(left, "S", leader, teams, side)
        after = {k: won + v for k, v in naive_card_values(left, "S", leader, teams, side).items()}
        rows.append((weight, total, after))
    return rows


def lead_view(seed: int = 1) -> View:
    """A 4-player ending, three cards each, seat 1 on lead, seat 2 promised a heart."""
    v = ending_view(seed, {2: Count(HEARTS, 1, 99)})
    assert on_lead(v, TRUMP)
    return v


def test_wilson_interval_is_exactly_0_or_1_at_no_or_all_successes():
    """With k = 0 the Wilson interval's lower bound is (p + z^2/2n - z^2/2n) / den = 0 exactly
    (p = 0), and with k = n the upper bound is 1; a drill question's rate of 0 must lie in
    its interval (a run gave 3.5e-18 as the bound above an estimate of 0.0)."""
    for n in range(1, 400):
        assert wilson(0, n)[0] == 0.0 <= wilson(0, n)[1]
        assert wilson(n, n)[0] <= 1.0 == wilson(n, n)[1]


def test_wilson_interval_known_values():
    lo, hi = wilson(8, 10)
    assert lo == pytest.approx(0.4902, abs=1e-4) and hi == pytest.approx(0.9433, abs=1e-4)
    assert wilson(0, 20)[0] == 0.0 and wilson(20, 20)[1] == 1.0


@pytest.mark.parametrize("seed, side, value", [(1, 0, 28), (16, 1, 28)])
def test_estimate_matches_exact_expectation_with_leads_and_grid(seed, side, value):
    view = lead_view(seed)
    rows = exact_outcomes(view, side)
    total_w = sum(w for w, _, _ in rows)
    n = 400
    est = estimate(view, Contract(value, TRUMP, 1 + side, side), n=n, seed=3, threads=1)
    p = sum(w for w, t, _ in rows if t >= value) / total_w
    assert 0.2 < p < 0.8  # a real question, not a foregone one
    sd = np.sqrt(p * (1 - p) / n)
    assert abs(est.rate - p) < 4.5 * sd
    lo, hi = est.interval
    assert lo <= est.rate <= hi
    assert sum(est.points.values()) == n == est.deals
    mean_exact = sum(w * t for w, t, _ in rows) / total_w
    mean_est = sum(k * v for k, v in est.points.items()) / n
    spread = np.sqrt(sum(w * (t - mean_exact) ** 2 for w, t, _ in rows) / total_w)
    assert abs(mean_est - mean_exact) < 4.5 * spread / np.sqrt(n) + 1e-9
    # the lead table: one row per distinct card left in seat 1's hand
    leads = {str(r.card): r for r in est.leads}
    assert set(leads) == set(rows[0][2])
    for card, r in leads.items():
        q = sum(w for w, _, after in rows if after[card] >= value) / total_w
        assert abs(r.rate - q) < 4.5 * np.sqrt(max(q * (1 - q), 1e-4) / n)
    # the best lead is at least as good as the position's value, deal by deal
    assert max(r.rate for r in est.leads) >= est.rate - 1e-12
    # where the unseen cards are
    u = view.unseen()
    exact = enumerate_arrangements(view)
    ew = sum(exact.values())
    for card, row in est.location.items():
        assert sum(row.values()) == pytest.approx(1.0)
        for i, s in enumerate(view.hidden_seats):
            ex = sum(c * (key[i][card] - view.played_by(s).count(card)) for key, c in exact.items()) / ew / u[card]
            assert abs(row[s] - ex) < 4.5 * np.sqrt(max(ex * (1 - ex), 1e-3) / n) + 1e-9


def test_estimate_is_reproducible_and_thread_independent():
    view = lead_view()
    c = Contract(28, TRUMP, 2, 1)
    a = estimate(view, c, n=120, seed=5, threads=1)
    b = estimate(view, c, n=120, seed=5, threads=2)
    assert a.to_dict() | {"seconds": 0} == b.to_dict() | {"seconds": 0}


def test_stop_early_keeps_the_deals_solved():
    view = lead_view()
    c = Contract(28, TRUMP, 1, 0)
    est = estimate(view, c, n=200, seed=1, should_stop=lambda done, n: done >= 100)
    assert est.stopped and est.deals == 100 and sum(est.points.values()) == 100
    full = estimate(view, c, n=200, seed=1)
    assert full.deals == 200 and not full.stopped


def test_not_on_lead_gives_no_lead_table():
    t = Table.make(4)
    deal = random_deal(t, 4)
    st = PlayState(deal, TRUMP, early_stop=False)
    while st.cards_left > 13:
        st.play(st.legal_cards()[0])
    plays = tuple((s, c) for tr in st.tricks for s, c in tr.plays) + tuple(st.current)
    view = View(t, 2 if st.to_move != 2 else 3, deal.hand(2 if st.to_move != 2 else 3), {}, plays)
    est = estimate(view, Contract(28, TRUMP, 1, 0), n=20, seed=1)
    assert est.leads == () and est.deals == 20


def test_bad_requests_are_refused():
    view = lead_view()
    with pytest.raises(FiftySixError):
        estimate(view, Contract(28, TRUMP, 1, 0), n=0)
    with pytest.raises(FiftySixError):
        estimate(view, Contract(28, TRUMP, 1, 5), n=10)


# --- the command line ---------------------------------------------------------------------------

def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    from fiftysix.ui.cli import main
    rc = main(list(argv))
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_sample_command_prints_deals_that_keep_the_auction_promises(capsys):
    import json

    from fiftysix.bidding import Auction
    from fiftysix.cards import Deal
    from fiftysix.constraints import fits
    t = Table.make(6)
    auction = "28H P +1H 30S P +1S"
    promises = Auction.parse(auction, "international", t).seat_constraints()
    hand = next(h for h in (random_deal(t, s).hand(2) for s in range(200))
                if h.count(Card.parse("JH")) == 0 and h.count(Card.parse("JS")) == 0)
    rc, out, err = run_cli(capsys, "sample", "--players", "6", "--system", "international", "--seat", "2",
                           "--hand", str(hand), "--auction", auction, "-n", "25", "--seed", "1", "--json")
    assert rc == 0, err
    lines = [json.loads(x) for x in out.splitlines()]
    assert len(lines) == 25
    for row in lines:
        deal = Deal.parse(row["deal"], t)
        assert deal.hand(2) == hand
        for s in t.seats:
            if s != 2:
                assert fits(deal.hand(s), promises[s]), (s, row["deal"])
    _rc2, out2, _ = run_cli(capsys, "sample", "--players", "6", "--seat", "2", "--hand", str(hand),
                           "--auction", auction, "-n", "25", "--seed", "1", "--json")
    assert out2 == out


def test_sample_command_names_an_impossible_promise(capsys):
    t = Table.make(6)
    hand = random_deal(t, 5).hand(1)
    unseen = 12 - hand.suit_length(1)
    rc, out, err = run_cli(capsys, "sample", "--seat", "1", "--hand", str(hand), "--constraint",
                           f'3:{{"count": ["JH","9H","AH","TH","KH","QH"], "min": {unseen + 1}}}', "-n", "5")
    assert rc == 2 and out == ""
    assert f"seat 3 promised at least {unseen + 1}" in err and f"only {unseen}" in err
    rc, _, err = run_cli(capsys, "sample", "--seat", "1", "--hand", str(hand), "--constraint", "3:{oops", "-n", "5")
    assert rc == 2 and "not valid JSON" in err


def test_simulate_command_on_an_ending(capsys):
    import json
    view = lead_view(1)
    played = " ".join(str(c) for _, c in view.plays)
    rc, out, err = run_cli(capsys, "simulate", "--players", "4", "--seat", "1", "--hand", str(view.hand),
                           "--played", played, "--contract", "28S", "--declarer", "odd", "-n", "60",
                           "--seed", "2", "--json", "--constraint", '2:{"count": ["JH","9H","AH","TH"], "min": 1}')
    assert rc == 0, err
    d = json.loads(out)
    assert d["contract"] == "28S" and d["declaring_team"] == "odd" and d["deals"] == 60
    assert d["interval"][0] <= d["rate"] <= d["interval"][1]
    assert sum(d["points"].values()) == 60
    assert len(d["leads"]) == len(set(view.hand.cards) - set(view.played_by(1)))
    direct = estimate(view, Contract(28, TRUMP, 1, 0), n=60, seed=2)
    assert d["makes"] == direct.makes  # the command reads the same view as the library call
    for row in d["location"].values():
        assert sum(row.values()) == pytest.approx(1.0)


def test_yes_no_mode_gives_the_same_makes():
    view = lead_view(16)
    c = Contract(28, TRUMP, 2, 1)
    full = estimate(view, c, n=80, seed=4)
    fast = estimate(view, c, n=80, seed=4, points=False)
    assert fast.makes == full.makes and fast.points == {}
    assert sorted((r.card, r.makes) for r in fast.leads) == sorted((r.card, r.makes) for r in full.leads)


def test_simulate_command_on_ctrl_c_prints_the_deals_solved_so_far_and_exits_130():
    """SIGINT (Ctrl-C) during a long run: the estimate of the deals solved so far, exit 130,
    and the process ends promptly (the searches look at the stop flag between chunks)."""
    import json
    import os
    import re
    import signal
    import subprocess
    import threading
    import time
    root = Path(__file__).resolve().parents[1]
    hand = str(random_deal(Table.make(6), seed=7).hand(1))
    proc = subprocess.Popen([sys.executable, "-m", "fiftysix.ui.cli", "simulate", "--players", "6", "--hand", hand,
                             "--contract", "30S", "--declarer", "2", "-n", "5000", "--json", "--progress"],
                            cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    err = bytearray()

    def read_err():
        while chunk := os.read(proc.stderr.fileno(), 4096):
            err.extend(chunk)
    reader = threading.Thread(target=read_err, daemon=True)
    reader.start()
    deadline = time.monotonic() + 240
    def solved() -> int:  # the progress bar's latest count
        return max((int(x) for x in re.findall(rb"(\d+)/5000", bytes(err))), default=0)
    while solved() < 3 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)  # wait until a few deals are solved (the kernels may compile first)
    assert proc.poll() is None, err.decode(errors="replace")
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=60)
    took = time.monotonic() - sent
    assert proc.returncode == 130, err.decode(errors="replace")
    d = json.loads(out)
    assert d["stopped"] and 3 <= d["deals"] < 5000
    assert sum(d["points"].values()) == d["deals"] and d["interval"][0] <= d["rate"] <= d["interval"][1]
    assert took < 10, f"{took:.1f} s from Ctrl-C to exit"


def test_until_interval_stops_once_the_interval_is_tight_enough():
    view = lead_view()
    c = Contract(28, TRUMP, 1, 0)
    est = estimate(view, c, n=2000, seed=1, until=0.08)
    assert not est.stopped and 20 <= est.deals < 2000
    lo, hi = est.interval
    assert (hi - lo) / 2 <= 0.08
    # the same deals one short of it were not yet tight enough (the stop is the first such point)
    before = estimate(view, c, n=est.deals - 1, seed=1)
    assert est.deals - 1 < 20 or (before.interval[1] - before.interval[0]) / 2 > 0.08
    with pytest.raises(FiftySixError):
        estimate(view, c, n=10, until=0.0)


def test_a_stop_request_frees_the_cpu_within_a_second():
    """A cancel between deals and inside a long search: the run returns soon after the request,
    with the deals solved so far (the pool interrupts the searches in flight)."""
    import threading
    import time
    t = Table.make(6)
    view = View(t, 1, random_deal(t, seed=7).hand(1))
    asked = threading.Event()
    when: list[float] = []

    def first(est):
        if not asked.is_set():
            when.append(time.perf_counter())
            asked.set()

    est = estimate(view, Contract.make(t, 30, 0, 2), n=5000, seed=1, threads=2, on_update=first,
                   should_stop=lambda done, n: asked.is_set())
    took = time.perf_counter() - when[0]
    assert est.stopped and 1 <= est.deals < 5000
    assert took < 2.0, f"{took:.2f} s from the stop request to the return"


def test_a_cancelled_search_raises_cancelled_and_a_later_one_is_exact():
    import time

    from fiftysix.analyser import solver as S
    t = Table.make(8)
    deal = random_deal(t, seed=5)
    pos = S.Position(t, deal.hands, None, 1)  # about 4 M nodes
    s = S.Solver(8)
    looks = []

    def stop() -> bool:  # True from its second look on: the watcher thread's first, as the search runs
        looks.append(time.perf_counter())
        return len(looks) > 1

    with pytest.raises(S.Cancelled):
        S.max_points(pos, 0, solver=s, stop=stop)
    assert len(looks) == 2 and looks[1] - looks[0] < 1.5  # the watcher's first look (solver.WATCH_POLL)
    ending = S.Position(t, tuple(type(h)(h.cards[:2]) for h in deal.hands), 1)
    teams = [t.team_of(x) for x in t.seats]
    want = naive_max_points([[CARD_NAMES[c] for c in h.cards[:2]] for h in deal.hands], "H", 0, teams, 0)
    assert S.max_points(ending, 0, solver=s, stop=lambda: False)[0] == want


@pytest.mark.parametrize("players, n, seat", [(4, 24, 1), (4, 24, 2), (6, 6, 1)])
def test_every_deal_equals_a_separate_exact_solve(players, n, seat):
    """Exactness is not traded for speed: the run's figures (guesses, shared tables, threads)
    are those of a separate exact solve of each seeded deal with a fresh solver, no hint."""
    from collections import Counter

    from fiftysix.analyser import solver as S
    from fiftysix.analyser.dealer import Dealer
    t = Table.make(players)
    view = View(t, seat, random_deal(t, seed=11).hand(seat))
    c = Contract.make(t, 30, 1, 2)
    est = estimate(view, c, n=n, seed=9, threads=2)
    best, after = [], {}
    for counts in Dealer(view).sample_counts(n, 9):
        pos = S.Position.from_deal(counts_to_deal(t, counts), 1, 1)
        if seat == 1:  # on lead: every lead's value
            vals = S.card_values(pos, c.team, solver=S.Solver(16))
            for card, v in vals.items():
                after.setdefault(card, []).append(v)
            best.append(min(vals.values()))  # seat 1 defends: the declarers get the least
        else:
            best.append(S.max_points(pos, c.team, solver=S.Solver(16))[c.team])
    assert est.deals == n and est.points == dict(Counter(best))
    assert est.makes == sum(b >= c.value for b in best)
    assert {r.card: (r.makes, r.mean_points) for r in est.leads} == {
        card: (sum(v >= c.value for v in vs), pytest.approx(np.mean(vs))) for card, vs in after.items()}


def test_simulate_command_until_interval(capsys):
    import json
    view = lead_view(1)
    played = " ".join(str(c) for _, c in view.plays)
    rc, out, err = run_cli(capsys, "simulate", "--players", "4", "--seat", "1", "--hand", str(view.hand),
                           "--played", played, "--contract", "28S", "--declarer", "odd", "--seed", "2",
                           "--until-interval", "0.1", "--json")
    assert rc == 0, err
    d = json.loads(out)
    assert 20 <= d["deals"] < 2000 and not d["stopped"]  # -n defaults to 2000 with an interval to reach
    assert (d["interval"][1] - d["interval"][0]) / 2 <= 0.1
    rc, out, err = run_cli(capsys, "simulate", "--players", "4", "--seat", "1", "--hand", str(view.hand),
                           "--played", played, "--contract", "28S", "--declarer", "odd", "--until-interval", "0.7")
    assert rc == 2 and "half-width" in err and out == ""


@pytest.mark.parametrize("players, cards, yes_no", [(4, 8, False), (4, 6, False), (6, 14, True), (6, 12, False)])
def test_mid_hand_every_deal_equals_a_separate_exact_solve(players, cards, yes_no):
    """The road from the dealer to the kernels after cards have been played (whole tricks won,
    a trick in progress) gives the values of the checked positions that PlayState replays,
    solved one by one with a fresh solver."""
    from collections import Counter

    from fiftysix.analyser import solver as S
    from fiftysix.analyser.dealer import Dealer
    t = Table.make(players)
    deal = random_deal(t, 21)
    state = PlayState(deal, 1, early_stop=False)
    for _ in range(cards):
        state.play(state.legal_cards()[-1])
    seat = state.to_move
    plays = tuple(p for tr in state.tricks for p in tr.plays) + tuple(state.current)
    view = View(t, seat, deal.hand(seat), {}, plays)
    c = Contract.make(t, 29, 1, 2)
    est = estimate(view, c, n=10, seed=4, threads=2, points=not yes_no)
    played = [x for _, x in plays]
    best, after = [], {}
    for counts in Dealer(view).sample_counts(10, 4):
        pos = S.Position.from_deal(counts_to_deal(t, counts), 1, 1, played)
        if est.leads:  # on lead: every lead's value
            vals = {card: S.max_points(S.Position.from_deal(counts_to_deal(t, counts), 1, 1, played + [card]),
                                       c.team, solver=S.Solver(8))[c.team] for card in pos.legal_cards()}
            for card, v in vals.items():
                after.setdefault(card, []).append(v)
            mine = t.team_of(seat) == c.team
            best.append(max(vals.values()) if mine else min(vals.values()))
        else:
            best.append(S.max_points(pos, c.team, solver=S.Solver(8))[c.team])
    assert bool(est.leads) == (cards % players == 0)
    assert est.deals == 10 and est.makes == sum(b >= c.value for b in best)
    if not yes_no:
        assert est.points == dict(Counter(best))
    assert {r.card: r.makes for r in est.leads} == {card: sum(v >= c.value for v in vs) for card, vs in after.items()}


def test_the_time_left_is_the_pace_so_far_times_the_deals_still_wanted():
    """Issue 41: the time left shown while an estimate runs. At 50 of 100 made, +-5% needs
    1.96^2 x 0.25 / 0.05^2 = 384.1 -> 385 deals (the rate smoothed by one made and one failed
    deal: 51/102 = 0.5); 285 more at 0.1 s a deal is 28.5 s, cut to what the budget leaves."""
    import math
    from statistics import NormalDist

    from fiftysix.analyser.simulate import MIN_UNTIL, deals_for, seconds_left
    z = NormalDist().inv_cdf(0.975)
    assert deals_for(50, 100, 0.05) == 385
    assert deals_for(0, 5, 0.05) == math.ceil(z * z * (1 / 7) * (6 / 7) / 0.05 ** 2)  # not a zero-width promise
    assert deals_for(20, 20, 0.3) == MIN_UNTIL
    assert seconds_left(50, 100, 10.0, 2000, 0.05) == pytest.approx(28.5)
    assert seconds_left(50, 100, 10.0, 2000, 0.05, max_seconds=20) == pytest.approx(10.0)
    assert seconds_left(50, 100, 10.0, 300, 0.05) == pytest.approx(20.0)  # -n caps the deals
    assert seconds_left(50, 100, 10.0, 200) == pytest.approx(10.0)  # no interval: every deal
    assert seconds_left(0, 0, 3.0, 200, 0.05, max_seconds=30) == pytest.approx(27.0)  # no pace yet
    assert seconds_left(0, 0, 3.0, 200) is None


def test_partial_estimates_carry_the_time_left_and_a_budget_ends_the_run():
    view = lead_view()
    c = Contract(28, TRUMP, 1, 0)
    seen = []
    est = estimate(view, c, n=200, seed=1, max_seconds=60, on_update=seen.append, update_every=0)
    assert seen and all(e.seconds_left is not None and 0 <= e.seconds_left <= 60 for e in seen)
    assert seen[-1].seconds_left == 0 or est.deals == 200
    assert est.seconds_left is None and est.deals == 200 and not est.stopped
    with pytest.raises(FiftySixError, match="time budget"):
        estimate(view, c, n=10, max_seconds=0)


@pytest.mark.parametrize("points", [True, False])
def test_idle_workers_take_the_last_deals_leads_and_stay_exact(points):
    """At a run's end an idle worker takes the unclaimed leads of a deal in progress (from the
    back; the deal's own worker goes on from the front): every lead's value is still that of a
    separate exact solve with a fresh solver, and a helper whose search is cancelled hands its
    lead back for the deal's worker to solve."""
    import threading

    from fiftysix.analyser import solver as S
    from fiftysix.analyser.dealer import Dealer
    from fiftysix.analyser.pool import Worker
    from fiftysix.analyser.simulate import _Deals, _lead_cards, _Open
    t = Table.make(6)
    view = View(t, 1, random_deal(t, seed=11).hand(1))
    c = Contract.make(t, 30, 1, 2)
    counts = Dealer(view).sample_counts(3, 9)
    cards = _lead_cards(view, c.trump)
    deals = _Deals(view, c, cards, points, counts)

    def exact(i: int) -> list[int]:
        deal = counts_to_deal(t, counts[i])
        vals = [S.max_points(S.Position.from_deal(deal, 1, 1, [card]), c.team, solver=S.Solver(8))[c.team]
                for card in cards]
        return vals if points else [c.value if v >= c.value else c.value - 1 for v in vals]

    # a helper alone: every lead of an open deal, from the last
    deal = _Open([k.encode(counts[0]) for k in deals.after])
    deals._open[0] = deal
    deals.help(Worker(S.Solver(8), lambda: False))
    assert all(deal.claimed) and deal.values == exact(0)
    # a cancelled helper gives its lead back
    deal = _Open([k.encode(counts[1]) for k in deals.after])
    deals._open[1] = deal
    with pytest.raises(S.Cancelled):
        deals.help(Worker(S.Solver(8), lambda: True))
    assert not any(deal.claimed) and deal.values == [None] * len(cards)
    deals._open.clear()
    # the deal's worker and a helper at once: whoever takes which lead, the row is exact
    for i in (1, 2):
        got: list = []
        owner = threading.Thread(target=lambda i=i: got.append(deals.solve(Worker(S.Solver(8), lambda: False), i)))
        owner.start()
        while owner.is_alive():
            deals.help(Worker(S.Solver(8), lambda: False))
        owner.join()
        value, row = got[0]
        assert row == exact(i) and value == min(row)  # seat 1 defends: the declarers get the least
    assert deals.solve(Worker(S.Solver(8), lambda: False), len(counts)) is None  # a helper item
