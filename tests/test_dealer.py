"""The dealer against exact enumeration of every physical arrangement on small tables."""
from __future__ import annotations

import collections
import itertools

import numpy as np
import pytest
from scipy.stats import chisquare

from fiftysix.analyser import counting
from fiftysix.analyser.dealer import Dealer, View, counts_to_deal, quick_counts, rejection_counts
from fiftysix.cards import NUM_KINDS, Card, Hand, Table, random_deal
from fiftysix.constraints import TRUE, All, Count, Either, fits, rank_kinds, suit_kinds, void
from fiftysix.errors import ConstraintError, DealError, IllegalPlayError
from fiftysix.play import PlayState

HEARTS, DIAMONDS, CLUBS, SPADES = suit_kinds(1), suit_kinds(2), suit_kinds(3), suit_kinds(0)


def ending_view(seed: int, cons: dict, left: int = 3, players: int = 4, trump: int | None = 0) -> View:
    """Seat 1's view of a deal played legally until every seat has ``left`` cards."""
    t = Table.make(players)
    deal = random_deal(t, seed)
    state = PlayState(deal, trump, early_stop=False)
    while state.cards_left > left * players:
        # keep hearts and diamonds longest, so that promises about them still bind
        state.play(min(state.legal_cards(), key=lambda c: (c.suit in (1, 2), c)))
    plays = tuple((s, c) for tr in state.tricks for s, c in tr.plays)
    return View(t, 1, deal.hand(1), cons, plays)


def replays(view: View, hands: list[list[int]], trump: int | None = 0) -> bool:
    """Could the plays so far have happened legally with these hands as dealt?"""
    deal = counts_to_deal(view.table, np.array(hands))
    state = PlayState(deal, trump, leader=view.leader, early_stop=False)
    try:
        state.play_all(c for _, c in view.plays)
    except IllegalPlayError:
        return False
    return True


def enumerate_arrangements(view: View) -> collections.Counter:
    """Every way to share the unseen *physical* cards among the hidden seats that keeps every
    promise, counted per resulting deal (hands as dealt, as tuples of kind counts).

    The plain reference: copies are told apart (card index j), hands are checked with
    ``fits`` on the whole hand as dealt.
    """
    u = view.unseen()
    phys = [k for k in range(NUM_KINDS) for _ in range(u[k])]
    hidden = view.hidden_seats
    need = view.needs()
    base = {s: collections.Counter(view.played_by(s)) for s in hidden}
    out: collections.Counter = collections.Counter()

    def rec(rest: list[int], i: int, hands: list[tuple[int, ...]]) -> None:
        if i == len(hidden):
            key = []
            for s, idx in zip(hidden, hands):
                c = [0] * NUM_KINDS
                for k, n in base[s].items():
                    c[k] += n
                for j in idx:
                    c[phys[j]] += 1
                if not fits(c, view.constraints.get(s, TRUE)):
                    return
                key.append(tuple(c))
            out[tuple(key)] += 1
            return
        for comb in itertools.combinations(rest, need[hidden[i]]):
            left = [j for j in rest if j not in comb]
            rec(left, i + 1, hands + [comb])

    rec(list(range(len(phys))), 0, [])
    seat1 = list(view.hand.counts())
    legal = {}
    for key in out:
        hands = [seat1 if s == view.seat else list(key[view.hidden_seats.index(s)]) for s in view.table.seats]
        legal[key] = replays(view, hands)
    return collections.Counter({k: n for k, n in out.items() if legal[k]})


def keys_of(view: View, X: np.ndarray) -> collections.Counter:
    return collections.Counter(tuple(tuple(int(v) for v in X[i, s - 1]) for s in view.hidden_seats)
                               for i in range(len(X)))


def assert_matches_enumeration(view: View, n: int = 6000, seed: int = 1) -> Dealer:
    exact = enumerate_arrangements(view)
    total = sum(exact.values())
    dealer = Dealer(view)
    assert dealer.arrangements == pytest.approx(total)
    X = dealer.sample_counts(n, seed)
    got = keys_of(view, X)
    assert set(got) <= set(exact), "drew a deal that breaks a promise or misplaces a known card"
    keys = sorted(exact)
    obs = np.array([got.get(k, 0) for k in keys])
    exp = np.array([exact[k] for k in keys]) / total * n
    if len(keys) > 1:
        assert chisquare(obs, exp).pvalue > 1e-4
    return dealer


CASES = {
    "free": {},
    "min hearts": {2: Count(HEARTS, 2, 99)},
    "exact and void": {2: Count(HEARTS, 1, 1), 3: void(2)},
    "either/or": {3: Either((Count(CLUBS, 2, 99), Count(rank_kinds(0), 1, 99))), 4: Count(SPADES, 0, 1)},
    "nested": {2: All((Either((void(0), void(3))), Count(HEARTS + DIAMONDS, 1, 2))),
               4: Either((All((Count(CLUBS, 1, 1), Count(SPADES, 1, 99))), void(1)))},
    "cross suit": {2: Count(rank_kinds(0) + rank_kinds(1), 1, 99), 3: Count(rank_kinds(2), 0, 0)},
}


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("seed", [3, 11])
@pytest.mark.parametrize("keep_moves", [True, False])
def test_every_consistent_deal_has_its_shuffle_share(name, seed, keep_moves, monkeypatch):
    if not keep_moves:  # the programme works each layer out again instead of looking it up
        monkeypatch.setattr(counting, "KEEP_MOVES", 0)
    view = ending_view(seed, CASES[name])
    try:
        exact = enumerate_arrangements(view)
    except ConstraintError:
        exact = None
    if not exact:
        with pytest.raises(ConstraintError):
            Dealer(view)
        return
    assert_matches_enumeration(view)


def random_promises(view: View, deal_counts: dict[int, list[int]], rng: np.random.Generator) -> dict:
    """Promises that the true deal keeps (so the set is feasible) but that bind: bounds at the
    true count, either/or parts with one false branch, sets across suits."""
    def kinds_set() -> tuple[int, ...]:
        r = rng.integers(5)
        if r == 0:
            return suit_kinds(int(rng.integers(4)))
        if r == 1:
            return rank_kinds(int(rng.integers(4)))
        if r == 2:
            return (int(rng.choice(list(view.table.kinds()))),)
        if r == 3:
            a, b = rng.choice(4, 2, replace=False)
            return suit_kinds(int(a)) + suit_kinds(int(b))
        return tuple(int(k) for k in rng.choice(list(view.table.kinds()), 3, replace=False))

    def atom(h: list[int], true: bool = True) -> Count:
        ks = kinds_set()
        x = sum(h[k] for k in ks)
        if not true:
            return Count(ks, x + 1, 99)
        lo, hi = [(x, 99), (0, x), (x, x), (max(0, x - 1), x + 1)][int(rng.integers(4))]
        return Count(ks, lo, hi)

    out = {}
    for s in view.hidden_seats:
        if rng.random() < 0.3:
            continue
        h = deal_counts[s]
        parts = [atom(h) for _ in range(int(rng.integers(1, 3)))]
        if rng.random() < 0.5:
            alt = All((atom(h, bool(rng.random() < 0.5)), atom(h)))
            parts.append(Either((alt, atom(h))) if rng.random() < 0.5 else Either((atom(h, False), atom(h))))
        out[s] = All(tuple(parts))
    return out


@pytest.mark.parametrize("seed", range(24))
def test_number_of_arrangements_equals_enumeration(seed):
    rng = np.random.default_rng(seed)
    base = ending_view(100 + seed, {})
    deal = random_deal(base.table, 100 + seed)
    cons = random_promises(base, {s: list(deal.hand(s).counts()) for s in base.table.seats}, rng)
    view = View(base.table, 1, base.hand, cons, base.plays)
    exact = enumerate_arrangements(view)
    assert sum(exact.values()) > 0  # the true deal keeps every promise
    assert Dealer(view).arrangements == pytest.approx(sum(exact.values()))
    if seed < 6:
        assert_matches_enumeration(view, n=3000, seed=seed)


def test_split_pair_is_twice_as_likely_as_a_held_pair():
    # No promises, 3 hidden seats x 8 cards: both copies of a kind lie in one hand with
    # probability 3 * (8/24 * 7/23) = 7/23 under a real shuffle.
    t = Table.make(4)
    view = View(t, 1, random_deal(t, 2).hand(1))
    X = Dealer(view).sample_counts(6000, seed=5)
    hidden = [s - 1 for s in view.hidden_seats]
    u = view.unseen()
    together = np.array([(X[:, hidden, k] == 2).any(axis=1).mean() for k in range(NUM_KINDS) if u[k] == 2])
    assert len(together) >= 4
    sd = np.sqrt(7 / 23 * 16 / 23 / len(X))
    assert np.abs(together - 7 / 23).max() < 4.5 * sd
    assert abs(together.mean() - 7 / 23) < 4 * sd


def test_pair_splitting_matches_enumeration_not_distinct_deals():
    view = ending_view(11, {})
    exact = enumerate_arrangements(view)
    total = sum(exact.values())
    X = Dealer(view).sample_counts(8000, seed=5)
    u = view.unseen()
    biased = 0
    for k in (k for k in range(NUM_KINDS) if u[k] == 2):
        def held_together(key: tuple) -> bool:
            return any(key[i][k] - view.played_by(s).count(k) == 2 for i, s in enumerate(view.hidden_seats))
        p = sum(n for key, n in exact.items() if held_together(key)) / total
        q = np.mean([held_together(tuple(tuple(x[s - 1]) for s in view.hidden_seats)) for x in X])
        assert abs(q - p) < 4 * np.sqrt(p * (1 - p) / len(X)) + 1e-9
        distinct = sum(1 for key in exact if held_together(key)) / len(exact)
        biased += abs(distinct - p) > 0.03
    assert biased  # counting distinct-looking deals alike would be visibly wrong here


def test_card_location_frequencies_match_enumeration():
    view = ending_view(20, {2: Count(HEARTS, 2, 99), 3: Either((void(2), Count(DIAMONDS, 2, 2)))})
    exact = enumerate_arrangements(view)
    total = sum(exact.values())
    n = 6000
    X = Dealer(view).sample_counts(n, seed=2)
    for k in np.nonzero(view.unseen())[0]:
        for i, s in enumerate(view.hidden_seats):
            p = sum(c * key[i][k] for key, c in exact.items()) / total
            q = X[:, s - 1, k].mean()
            assert abs(q - p) < 5 * np.sqrt(max(p * (2 - p), 1e-3) / n) + 1e-9


def six_player_view(cons: dict, seed: int = 5) -> tuple[View, object]:
    t = Table.make(6)
    deal = random_deal(t, seed)
    return View(t, 1, deal.hand(1), cons), deal


def test_tight_promises_do_not_collapse():
    jh = Card.parse("JH")
    view, _ = six_player_view({
        2: All((Count((jh,), 1, 1), Count(HEARTS, 1, 1, "a singleton Jack of hearts"))),
        3: All((void(0), void(2))),
        4: Count(suit_kinds(3), 5, 99),
        5: Count(rank_kinds(1), 3, 99)})
    dealer = Dealer(view)
    assert dealer.acceptance_rate is None  # counted exactly, no rejection
    X = dealer.sample_counts(300, seed=3)
    for d in X:
        for s in view.hidden_seats:
            assert fits(d[s - 1].tolist(), view.promises(s))
    assert (X.sum(axis=2) == 8).all()
    assert (X.sum(axis=1)[:, list(view.table.kinds())] == 2).all()


def test_eight_promised_cards_pin_the_hand():
    view, deal = six_player_view({})
    hand3 = deal.hand(3)
    promise = All(tuple(Count((k,), n, n) for k, n in enumerate(hand3.counts()) if n))
    view = View(view.table, 1, view.hand, {3: promise})
    deals = Dealer(view).sample(40, seed=1)
    assert all(d.hand(3) == hand3 for d in deals)
    assert len({str(d) for d in deals}) > 30


def test_matches_plain_rejection_on_a_loose_six_player_view():
    view, _ = six_player_view({2: Count(HEARTS, 3, 99), 4: Either((void(0), Count(rank_kinds(0), 2, 99)))})
    n = 1500
    X = Dealer(view).sample_counts(n, seed=4)
    Y, acc = rejection_counts(view, n, seed=4)
    assert 0 < acc < 1
    # hearts held by seat 2, and Jacks by seat 4: same distribution from both samplers
    from scipy.stats import chi2_contingency
    for s, ks in ((2, HEARTS), (4, rank_kinds(0))):
        a = np.bincount(X[:, s - 1, list(ks)].sum(axis=1), minlength=9)
        b = np.bincount(Y[:, s - 1, list(ks)].sum(axis=1), minlength=9)
        keep = (a + b) > 0
        assert chi2_contingency(np.stack([a[keep], b[keep]]))[1] > 1e-4


@pytest.mark.parametrize("max_states", [1, 12])
def test_rejection_fallback_stays_exact_and_reports_acceptance(max_states):
    view = ending_view(20, {2: Count(HEARTS, 2, 99), 3: Either((void(2), Count(DIAMONDS, 2, 2)))})
    exact = enumerate_arrangements(view)
    dealer = Dealer(view, max_states=max_states)
    assert any(dealer.rejected.values())
    if max_states > 1:  # one seat's promises still counted exactly
        assert any(dealer.prog.constrained)
    n = 4000
    X = dealer.sample_counts(n, seed=7)
    assert 0 < dealer.acceptance_rate <= 1
    got = keys_of(view, X)
    keys = sorted(exact)
    total = sum(exact.values())
    assert set(got) <= set(exact)
    assert chisquare([got.get(k, 0) for k in keys], np.array([exact[k] for k in keys]) / total * n).pvalue > 1e-4


def test_fewer_stops_at_the_draw_limit_with_the_deals_kept():
    # the bots ask for a pool "up to n within so many draws" where promises are checked by
    # rejection: every deal returned keeps the promises (checked with fits), and they are the
    # first ones the full run would give
    view = ending_view(20, {2: Count(HEARTS, 2, 99), 3: Either((void(2), Count(DIAMONDS, 2, 2)))})
    dealer = Dealer(view, max_states=1)
    assert any(dealer.rejected.values())
    few = dealer.sample_counts(100_000, seed=3, max_draws=1024, fewer=True)
    assert 0 < len(few) < 100_000
    for d in few:  # hands as dealt (played cards included), as the promises are about them
        for s in view.hidden_seats:
            assert fits(d[s - 1].tolist(), view.promises(s))
    whole = Dealer(view, max_states=1).sample_counts(len(few), seed=3)
    assert (whole == few).all()


def test_seeded_and_prefix_stable():
    view, _ = six_player_view({2: Count(HEARTS, 3, 99)})
    d = Dealer(view)
    a, b = d.sample_counts(300, seed=9), Dealer(view).sample_counts(300, seed=9)
    assert (a == b).all()
    assert (d.sample_counts(40, seed=9) == a[:40]).all()
    assert not (d.sample_counts(40, seed=10) == a[:40]).all()


def test_impossible_promise_names_the_seat_and_the_shortfall():
    view, _deal = six_player_view({})
    held = view.hand.suit_length(1) + 0
    unseen = 12 - held
    view = View(view.table, 1, view.hand, {3: Count(HEARTS, unseen + 1, 99)})
    with pytest.raises(ConstraintError, match=rf"seat 3 promised at least {unseen + 1} hearts, only {unseen} hearts are unseen"):
        Dealer(view)


def test_clashing_promises_are_named_together():
    view, _ = six_player_view({})
    unseen = 12 - view.hand.suit_length(1)
    a = unseen // 2 + 1
    view = View(view.table, 1, view.hand, {3: Count(HEARTS, a, 99), 5: Count(HEARTS, unseen - a + 1, 99),
                                           2: void(0), 4: Count(rank_kinds(0), 1, 99)})
    with pytest.raises(ConstraintError) as e:
        Dealer(view)
    msg = str(e.value)
    assert "seat 3 promised at least" in msg and "seat 5 promised at least" in msg
    assert "seat 2" not in msg and "seat 4" not in msg
    assert f"{unseen} hearts are unseen" in msg


def test_show_outs_in_the_play_become_promises():
    view = ending_view(7, {}, left=4)
    assert any(view.promises(s) != TRUE for s in view.hidden_seats)  # someone showed out
    for d in Dealer(view).sample(50, seed=1):
        assert replays(view, [list(d.hand(s).counts()) for s in view.table.seats])


def test_bad_views_are_refused_with_a_reason():
    t = Table.make(6)
    hand = random_deal(t, 1).hand(1)
    with pytest.raises(DealError, match="hand has 7 cards"):
        View(t, 1, Hand(hand.cards[:7]))
    c = hand.cards[0]
    with pytest.raises(DealError, match="seen 3 times"):
        View(t, 1, hand, plays=((2, c), (3, c), (4, c)))
    with pytest.raises(DealError, match="does not hold"):
        View(t, 1, hand, plays=((1, next(k for k in t.kinds() if k not in hand)),))


def test_view_from_auction_reads_the_calls_and_the_play():
    from fiftysix.bidding import Auction
    t = Table.make(6)
    deal = random_deal(t, 8)
    auction = "28H P +1H"
    state = PlayState(deal, 1, early_stop=False)
    for _ in range(8):  # the first trick and two cards of the next
        state.play(state.legal_cards()[-1])
    cards = " ".join(str(c) for tr in state.tricks for c in tr.cards) + " " + \
        " ".join(str(c) for _, c in state.current)
    view = View.from_auction(t, "international", 2, str(deal.hand(2)), auction, played=cards)
    want = Auction.parse(auction, "international", t).seat_constraints()
    assert {s: view.promises(s) for s in (1, 3)} == {s: want[s] for s in (1, 3)}
    assert [(p.seat, p.call) for p in view.calls] == [(1, "28H"), (3, "+1H")]
    assert list(view.plays) == [p for tr in state.tricks for p in tr.plays] + list(state.current)
    # the hand left after seat 2's own plays reads the same as the hand as dealt
    left = Hand(tuple(c for c in deal.hand(2).cards))
    for c in view.played_by(2):
        left = left.without(c)
    assert View.from_auction(t, "international", 2, left, auction, played=cards) == view


@pytest.mark.parametrize("seed,cons", [
    (20, {}),
    (20, {2: Count(HEARTS, 2, 99)}),  # binds: 1280 of the 1680 arrangements keep it
    (11, {2: Count(HEARTS, 2, 99), 3: Either((void(2), Count(DIAMONDS, 2, 2)))}),  # 80 of 140
])
def test_quick_counts_match_enumeration(seed, cons):
    # the bots' fast path: plain rejection, many shuffles at once; the same posterior as the
    # counted dealer, checked here against every physical arrangement
    view = ending_view(seed, cons)
    exact = enumerate_arrangements(view)
    n = 6000
    X = quick_counts(view, n, seed=5, max_draws=10**6)
    assert X.shape == (n, view.table.players, NUM_KINDS)
    got = keys_of(view, X)
    assert set(got) <= set(exact), "drew a deal that breaks a promise or misplaces a known card"
    keys = sorted(exact)
    total = sum(exact.values())
    if len(keys) > 1:
        assert chisquare([got.get(k, 0) for k in keys], np.array([exact[k] for k in keys]) / total * n).pvalue > 1e-4


def test_quick_counts_give_up_on_tight_promises_and_are_prefix_stable():
    view, _ = six_player_view({2: Count(HEARTS, 3, 99)})
    a = quick_counts(view, 300, seed=9, max_draws=10**5)
    assert (quick_counts(view, 40, seed=9) == a[:40]).all()
    for d in a:
        assert fits(d[1].tolist(), view.promises(2))
    # five hearts or more with seat 2: about one shuffle in 40 keeps it
    tight, _ = six_player_view({2: Count(HEARTS, 5, 99)})
    assert quick_counts(tight, 256, seed=1, max_draws=256) is None
    assert len(Dealer(tight).sample_counts(256, seed=1)) == 256


@pytest.mark.parametrize("players,deck", [(4, 32), (4, 48), (6, 48), (8, 64), (8, 48)])
def test_a_deals_kernel_form_from_its_counts_is_the_checked_positions(players, deck):
    # the estimate, the judge and the card bot encode the dealer's deals straight from their
    # counts and the view's plays, without cards or checks: the arrays must be exactly those
    # of the checked Position of the same deal after the same plays (PlayState's replay),
    # at the start, after whole tricks and in the middle of a trick
    from fiftysix.analyser.encode import known_after
    from fiftysix.analyser.solver import Position
    from fiftysix.play import PlayState
    t = Table.make(players, deck)
    rng = np.random.default_rng(players * 100 + deck)
    for seed in range(10):
        deal = random_deal(t, seed)
        counts = np.array([h.counts() for h in deal.hands])
        for trump in (None, 0, 3):
            leader = int(rng.integers(1, players + 1))
            state = PlayState(deal, trump, leader=leader, early_stop=False)
            for _ in range(int(rng.integers(0, 3 * players))):
                state.play(state.legal_cards()[int(rng.integers(len(state.legal_cards())))])
            plays = [p for tr in state.tricks for p in tr.plays] + list(state.current)
            want = Position.from_deal(deal, trump, leader, [c for _, c in plays]).encoded()
            known = known_after(t, trump, plays, leader)
            got = known.encode(counts)
            assert known.to_move == state.to_move
            assert got.h1.tolist() == want.h1.tolist() and got.h2.tolist() == want.h2.tolist()
            assert (got.trump, got.leader, got.trick, got.won) == (want.trump, want.leader, want.trick, want.won)
            assert got.points_left() == want.points_left() == want._points_left()
            assert got.root_state(0).tolist() == want.root_state(0).tolist()
            card = state.legal_cards()[0]
            then = known.then(card).encode(counts)
            nxt = Position.from_deal(deal, trump, leader, [c for _, c in plays] + [card]).encoded()
            assert (then.h1.tolist(), then.leader, then.trick, then.won) == (nxt.h1.tolist(), nxt.leader, nxt.trick,
                                                                           nxt.won)
