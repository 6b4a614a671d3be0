"""Bridge on the solver's kernels (analyser/bridge.py) against DDS (through endplay).

Bridge gives the kernels an independent, trusted peer: on random endings (some with a
trick in progress) and on full deals every trick count must equal DDS's, and so must the
double-dummy table of all strains. Skipped when endplay is missing.
"""
from __future__ import annotations

import random

import pytest

endplay = pytest.importorskip("endplay")
from endplay.dds import calc_dd_table, solve_board
from endplay.types import Deal as BDeal
from endplay.types import Denom, Player

from fiftysix.analyser import _kernels as kernels
from fiftysix.analyser import bridge
from fiftysix.analyser import solver as S
from fiftysix.errors import DealError
from tests.kernel_harness import move_order

RANKS = "AKQJT98765432"


def random_ending(rng: random.Random, size: int) -> list[list[int]]:
    """Four hands of ``size`` cards each, as indices 0..51 (suit * 13 + rank, A first)."""
    cards = rng.sample(range(52), 4 * size)
    return [sorted(cards[i * size:(i + 1) * size]) for i in range(4)]


def pbn(hands: list[list[int]]) -> str:
    return "N:" + " ".join(".".join("".join(RANKS[c % 13] for c in h if c // 13 == s) for s in range(4))
                           for h in hands)


def dds_value(deal: BDeal) -> int:
    """Tricks the side to move takes from here (current trick included), per DDS."""
    return max(t for _, t in solve_board(deal))


def card_name(card) -> str:
    return "SHDC"[card.suit.value] + RANKS[14 - card.rank.value.bit_length() + 1]


def test_bridge_endings_match_dds():
    rng = random.Random(52)
    solver = S.Solver(table_mb=8)
    for _ in range(120):
        size = rng.choice((2, 3, 4, 5, 6))
        hands = random_ending(rng, size)
        deal = BDeal.from_pbn(pbn(hands))
        first = rng.randrange(4)
        trump = rng.randrange(5)
        deal.first = Player(first)
        deal.trump = Denom(trump)
        played: list[str] = []
        for _ in range(rng.choice((0, 0, 1, 2, 3))):
            legal = list(deal.curhand)
            if deal.curtrick:
                led = deal.curtrick[0].suit
                legal = [c for c in legal if c.suit == led] or legal
            card = rng.choice(legal)
            played.append(card_name(card))
            deal.play(card)
        mover = deal.curplayer.value
        got = bridge.tricks(deal.to_pbn(), trump, first, played, solver=solver)
        want = dds_value(deal) if mover % 2 == first % 2 else size - dds_value(deal)
        assert got == want, (pbn(hands), first, trump, played)


def test_bridge_solve_at_every_target_matches_dds():
    rng = random.Random(7)
    solver = S.Solver(table_mb=8)
    for _ in range(25):
        hands = random_ending(rng, 5)
        deal = BDeal.from_pbn(pbn(hands))
        first, trump = rng.randrange(4), rng.randrange(5)
        deal.first, deal.trump = Player(first), Denom(trump)
        want = dds_value(deal)
        enc = bridge.position(pbn(hands), trump, first)
        for target in range(7):
            assert solver.probe(enc, first % 2, target) == (target <= want)


def test_bridge_full_deals_match_dds():
    rng = random.Random(13)
    solver = S.Solver(table_mb=16)
    for _ in range(3):
        hands = random_ending(rng, 13)
        deal = BDeal.from_pbn(pbn(hands))
        first, trump = rng.randrange(4), rng.randrange(5)
        deal.first, deal.trump = Player(first), Denom(trump)
        assert bridge.tricks(pbn(hands), trump, first, solver=solver, max_seconds=60) == dds_value(deal)


def test_bridge_table_of_all_strains_matches_dds():
    """Each declarer's tricks in each strain (the left-hand opponent leads), as DDS's table."""
    rng = random.Random(21)
    hands = random_ending(rng, 13)
    text = pbn(hands)
    dds = calc_dd_table(BDeal.from_pbn(text))
    got = bridge.table(text, solver=S.Solver(table_mb=16), max_seconds=60)
    assert list(got) == ["S", "H", "D", "C", "NT"]
    for strain, name in enumerate(got):
        assert got[name] == [dds[Denom(strain), Player(seat)] for seat in range(4)], name


def test_bridge_input_errors_are_named():
    good = "N:AK.QJ.T9.87 QJ.AK.87.T9 T9.87.AK.QJ 87.T9.QJ.AK"
    assert bridge.parse_pbn("E:" + good[2:])[1] == bridge.parse_pbn(good)[0]
    assert bridge.parse_pbn(good.replace("T9.87 QJ", "109.87 QJ")) == bridge.parse_pbn(good)
    for bad, words in [("AK.QJ.T9.87", "starts with"), ("N:AK.QJ.T9.87 QJ.AK.87.T9", "4 hands"),
                       ("N:AK.QJ.T9 QJ.AK.87.T9 T9.87.AK.QJ 87.T9.QJ.AK", "suits"),
                       ("N:AX.QJ.T9.87 QJ.AK.87.T9 T9.87.AK.QJ 87.T9.QJ.AK", "not a rank"),
                       ("N:AK.QJ.T9.87 AK.AK.87.T9 T9.87.AK.QJ 87.T9.QJ.AQ", "twice")]:
        with pytest.raises(DealError, match=words):
            bridge.parse_pbn(bad)
    with pytest.raises(DealError, match="trump"):
        bridge.tricks(good, 5, 0)
    with pytest.raises(DealError, match="leader"):
        bridge.tricks(good, 4, 4)
    with pytest.raises(DealError, match="same size"):
        bridge.tricks("N:AK.QJ.T9.8 QJ.AK.87.T9 T9.87.AK.QJ 87.T9.QJ.AK", 4, 0)
    with pytest.raises(DealError, match="not a bridge card"):
        bridge.tricks(good, 4, 0, ["Z2"])


def test_bridge_through_a_cleared_small_table_matches_dds():
    """A table of a few abstract buckets shared by endings with ``clear()`` between them: the
    entries of earlier epochs stay in the buckets behind the current ones (a lookup stops at
    the first of them, a store writes over it), and every trick count still equals DDS's."""
    rng = random.Random(41)
    solver = S.Solver(table_mb=0.25)
    T = solver._table()[0]
    for _ in range(30):
        size = rng.choice((6, 7, 8))
        hands = random_ending(rng, size)
        deal = BDeal.from_pbn(pbn(hands))
        first, trump = rng.randrange(4), rng.randrange(5)
        deal.first, deal.trump = Player(first), Denom(trump)
        solver.clear()
        assert bridge.tricks(pbn(hands), trump, first, solver=solver) == dds_value(deal), (pbn(hands), first, trump)
    epochs = (T[1::2][T[::2] != 0] >> kernels.V_EPOCH) & 0x7FF
    assert len(set(epochs.tolist())) > 10  # (entries of many earlier searches were still there)


def _tops_fall_short(hands: list[list[int]], leader: int) -> bool:
    """The rule of DDS's LaterTricks, from the hands: the suits whose best card the leader's
    side holds have fewer cards in its longer hand of each, together, than there are tricks."""
    size = len(hands[0])
    total = 0
    for suit in range(4):
        held = [[c for c in h if c // 13 == suit] for h in hands]
        if not any(held):
            continue
        top = min(c for h in held for c in h)
        owner = next(s for s in range(4) if top in held[s])
        if owner % 2 == leader % 2:
            total += max(len(held[leader % 2]), len(held[leader % 2 + 2]))
    return 0 < total < size


def test_bridge_no_trump_endings_where_the_tops_fall_short_match_dds():
    """No-trump endings (and endings whose trumps are all played) asked whether the side on
    lead takes every trick, and whether the other side takes none: where the suits the side on
    lead holds the best card of have too few cards for every trick, it cannot (it keeps the
    lead only while it wins, and can only lead those suits), and the search settles that at the
    first trick start without searching it (DDS's LaterTricks). Every answer as DDS's."""
    rng = random.Random(4141)
    solver = S.Solver(table_mb=8)
    settled = 0
    for _ in range(150):
        size = rng.choice((3, 4, 5, 6))
        hands = random_ending(rng, size)
        first = rng.randrange(4)
        trump = 4 if rng.random() < 0.7 else next((s for s in range(4) if all(c // 13 != s for h in hands for c in h)), 4)
        deal = BDeal.from_pbn(pbn(hands))
        deal.first, deal.trump = Player(first), Denom(trump)
        want = dds_value(deal)
        enc = bridge.position(pbn(hands), trump, first)
        for side, target in ((first % 2, size), (1 - first % 2, 1)):
            solver.clear()
            solver.reset_counts()
            got = solver.probe(enc, side, target)
            assert got == (want == size if side == first % 2 else want < size), (pbn(hands), first, trump, side)
            if _tops_fall_short(hands, first):
                assert not got if side == first % 2 else got
                assert solver.nodes == 1, (pbn(hands), first, trump, side)  # (settled at the root)
                settled += 1
    assert settled > 20


def test_bridge_two_best_trumps_split_between_partners_match_dds():
    """Trump endings where one side holds the two best trumps in two hands, one of them with
    another trump: that side takes two tricks whatever is led (they never fall together), so a
    window asking the other side for all tricks but one is settled at the first trick start
    (DDS's LaterTricks). Every answer as DDS's."""
    rng = random.Random(4242)
    solver = S.Solver(table_mb=8)
    tried = settled = 0
    for _ in range(400):
        size = rng.choice((3, 4, 5, 6))
        hands = random_ending(rng, size)
        trump = rng.randrange(4)
        trumps = sorted(c for h in hands for c in h if c // 13 == trump)
        if len(trumps) < 3:
            continue
        holder = [next(s for s in range(4) if c in hands[s]) for c in trumps[:2]]
        if holder[0] == holder[1] or holder[0] % 2 != holder[1] % 2:
            continue
        if max(sum(c // 13 == trump for c in hands[s]) for s in holder) < 2:
            continue
        first = rng.randrange(4)
        deal = BDeal.from_pbn(pbn(hands))
        deal.first, deal.trump = Player(first), Denom(trump)
        want = dds_value(deal)
        other = 1 - holder[0] % 2  # (the side without the two best trumps)
        enc = bridge.position(pbn(hands), trump, first)
        solver.clear()
        solver.reset_counts()
        got = solver.probe(enc, other, size - 1)
        mine = want if first % 2 == other else size - want
        assert got == (mine >= size - 1), (pbn(hands), first, trump)
        assert not got
        tried += 1
        settled += solver.nodes == 1
    assert tried > 40 and settled == tried, (tried, settled)


def _trump_trick_behind(hands: list[list[int]], trump: int, leader: int) -> bool:
    """The rule of DDS's LaterTricks with trumps left, from the hands: the side on lead holds
    the best trump, the other side the second best, its holder another trump too, and the best
    either on that holder's right or on its left with the third best also on the other side."""
    trumps = sorted(c for h in hands for c in h if c // 13 == trump)
    if len(trumps) < 3:
        return False
    holder = [next(s for s in range(4) if c in hands[s]) for c in trumps[:3]]
    if holder[0] % 2 != leader % 2 or holder[1] % 2 == leader % 2:
        return False
    if sum(c // 13 == trump for c in hands[holder[1]]) < 2:
        return False
    return holder[0] == (holder[1] + 3) % 4 or holder[2] % 2 != leader % 2


def test_bridge_trump_endings_where_the_second_trump_sits_behind_match_dds():
    """Trump endings where the side on lead holds the best trump and the other side the
    second best, in a hand with another trump: when the best sits on that hand's right (it
    plays after the best and keeps its small trump for it), or on its left with the third best
    trump also on the other side (both never fall in the best's trick), the other side takes a
    trick, so the side on lead asked for every trick (and the other side for one) is settled at
    the first trick start (DDS's LaterTricks). Every answer as DDS's."""
    rng = random.Random(4343)
    solver = S.Solver(table_mb=8)
    settled = {True: 0, False: 0}
    for _ in range(1500):
        size = rng.choice((3, 4, 5, 6))
        hands = random_ending(rng, size)
        trump, first = rng.randrange(4), rng.randrange(4)
        if not _trump_trick_behind(hands, trump, first):
            continue
        trumps = sorted(c for h in hands for c in h if c // 13 == trump)
        holder = [next(s for s in range(4) if c in hands[s]) for c in trumps[:2]]
        deal = BDeal.from_pbn(pbn(hands))
        deal.first, deal.trump = Player(first), Denom(trump)
        want = dds_value(deal)
        assert want < size
        enc = bridge.position(pbn(hands), trump, first)
        for side, target in ((first % 2, size), (1 - first % 2, 1)):
            solver.clear()
            solver.reset_counts()
            got = solver.probe(enc, side, target)
            assert got == (side != first % 2), (pbn(hands), first, trump, side)
            assert solver.nodes == 1, (pbn(hands), first, trump, side)  # (settled at the root)
        settled[holder[0] == (holder[1] + 3) % 4] += 1
    assert settled[True] > 40 and settled[False] > 20, settled


def _second_hand_takes(hands: list[list[int]], trump: int, leader: int, led: int) -> str:
    """DDS's QuickTricksSecondHand, its first trick, from the hands (``led`` already out of
    the leader's): the second hand's side surely takes the trick when the third hand cannot
    ruff it and either that side can ruff (the second hand or its partner void in the suit
    with a trump) or its best card of the suit beats the card led and all the third hand's."""
    suit = led // 13
    second, third, fourth = (leader + 1) % 4, (leader + 2) % 4, (leader + 3) % 4

    def void_with_trumps(seat: int) -> bool:
        return trump != 4 and suit != trump and all(c // 13 != suit for c in hands[seat]) and any(
            c // 13 == trump for c in hands[seat])

    if void_with_trumps(third):
        return ""
    if void_with_trumps(second) or void_with_trumps(fourth):
        return "ruff"
    ours = [c for s in (second, fourth) for c in hands[s] if c // 13 == suit]
    theirs = [led] + [c for c in hands[third] if c // 13 == suit]
    return "high" if ours and min(ours) < min(theirs) else ""


def test_bridge_second_hand_that_surely_takes_the_trick_matches_dds():
    """Endings of 4-6 tricks after a card led: where one trick is enough for the second
    hand's side (asked for one trick; the leader's side asked for all) and that side surely
    takes this one (a ruff the third hand cannot overruff, or its best card of the suit over
    the card led and the third hand's), the second hand settles it without searching (DDS's
    QuickTricksSecondHand). Every answer as DDS's."""
    rng = random.Random(4444)
    solver = S.Solver(table_mb=8)
    settled = {"ruff": 0, "high": 0, "": 0}
    for _ in range(300):
        size = rng.choice((4, 5, 6))
        hands = random_ending(rng, size)
        trump, first = rng.randrange(5), rng.randrange(4)
        deal = BDeal.from_pbn(pbn(hands))
        deal.first, deal.trump = Player(first), Denom(trump)
        card = rng.choice(list(deal.curhand))
        deal.play(card)
        led = next(c for c in hands[first] if card_name(card) == "SHDC"[c // 13] + RANKS[c % 13])
        want = dds_value(deal)  # (tricks of the second hand's side, this one included)
        after = [[c for c in h if c != led] for h in hands]
        enc = bridge.position(pbn(after), trump, first, [card_name(card)])
        takes = _second_hand_takes(after, trump, first, led)
        for side, target in ((1 - first % 2, 1), (first % 2, size)):
            solver.clear()
            solver.reset_counts()
            got = solver.probe(enc, side, target)
            assert got == (want >= 1 if side != first % 2 else want == 0), (pbn(hands), first, trump, card)
            if takes:
                assert got == (side != first % 2)
                assert solver.nodes == 1, (pbn(hands), first, trump, card)  # (settled at the root)
        settled[takes] += 1
    assert settled["ruff"] > 10 and settled["high"] > 40, settled


def _own_card_takes(hands: list[list[int]], trump: int, leader: int, trick: list[int]) -> bool:
    """The third or fourth hand (``trick``: the 2 or 3 cards played, already out of the hands)
    surely takes the trick with its own best card: of the suit led, over the card winning so
    far (of that suit); void in it, its best trump over any trump played; and, third hand,
    the fourth hand has no higher card of the suit, and void in it, no trump that could take
    the trick."""
    suit = trick[0] // 13
    mover = (leader + len(trick)) % 4

    def beats(c: int, w: int) -> bool:
        return c < w if c // 13 == w // 13 else c // 13 == trump

    win = trick[0]
    for c in trick[1:]:
        if beats(c, win):
            win = c
    follow = [c for c in hands[mover] if c // 13 == suit]
    trumps = [c for c in hands[mover] if c // 13 == trump]
    if follow:
        card = min(follow)
    elif trumps and suit != trump:
        card = min(trumps)
    else:
        return False
    if not beats(card, win):
        return False
    if len(trick) == 3:
        return True
    fourth = hands[(mover + 1) % 4]
    if any(c // 13 == suit for c in fourth):
        return not any(beats(c, card) for c in fourth if c // 13 == suit)
    return not any(beats(c, card) for c in fourth if c // 13 == trump)


def _random_trick_start(rng: random.Random, cards: tuple[int, ...]):
    """A random ending of 3-6 tricks (its size, hands, trump, leader and DDS's deal) with
    ``cards`` (one of them, at random) random legal cards of its first trick played on DDS's
    deal: also the hands after them (as card numbers, like the hands) and the cards played."""
    size = rng.choice((3, 4, 5, 6))
    hands = random_ending(rng, size)
    trump, first = rng.randrange(5), rng.randrange(4)
    deal = BDeal.from_pbn(pbn(hands))
    deal.first, deal.trump = Player(first), Denom(trump)
    n = rng.choice(cards) if len(cards) > 1 else cards[0]
    after = [list(h) for h in hands]
    trick: list[int] = []
    for i in range(n):
        legal = list(deal.curhand)
        if deal.curtrick:
            legal = [c for c in legal if c.suit == deal.curtrick[0].suit] or legal
        card = rng.choice(legal)
        deal.play(card)
        seat = (first + i) % 4
        c = next(c for c in after[seat] if card_name(card) == "SHDC"[c // 13] + RANKS[c % 13])
        after[seat].remove(c)
        trick.append(c)
    return size, hands, trump, first, deal, after, trick


def test_bridge_third_and_fourth_hand_that_surely_take_the_trick_match_dds():
    """Endings of 3-6 tricks with 2 or 3 cards on the table: where one trick is enough for
    the side to play (asked for one trick; the other side asked for all) and its own best
    card surely takes this one, the search settles it without searching. Every answer as
    DDS's."""
    rng = random.Random(4545)
    solver = S.Solver(table_mb=8)
    settled = {2: 0, 3: 0}
    for _ in range(300):
        size, hands, trump, first, deal, after, trick = _random_trick_start(rng, (2, 3))
        mover = (first + len(trick)) % 4
        want = dds_value(deal)  # (tricks of the mover's side, this one included)
        names = ["SHDC"[c // 13] + RANKS[c % 13] for c in trick]
        enc = bridge.position(pbn(after), trump, first, names)
        takes = _own_card_takes(after, trump, first, trick)
        for side, target in ((mover % 2, 1), (1 - mover % 2, size)):
            solver.clear()
            solver.reset_counts()
            got = solver.probe(enc, side, target)
            assert got == (want >= 1 if side == mover % 2 else want == 0), (pbn(hands), first, trump, names)
            if takes:
                assert got == (side == mover % 2)
                assert solver.nodes == 1, (pbn(hands), first, trump, names)  # (settled at the root)
        settled[len(trick)] += takes
    assert settled[2] > 30 and settled[3] > 30, settled


def test_bridge_fourth_hand_that_takes_the_trick_and_cashes_matches_dds():
    """Endings of 3-6 tricks with 3 cards on the table, every target for both sides: where the
    fourth hand's own best card takes the trick, it leads the next, and its cashable cards
    there count too (a side asked for more than this trick can be settled without a search).
    Every answer as DDS's."""
    rng = random.Random(4646)
    solver = S.Solver(table_mb=8)
    settled = 0
    for _ in range(150):
        size, hands, trump, first, deal, after, trick = _random_trick_start(rng, (3,))
        mover = (first + 3) % 4
        want = dds_value(deal)  # (tricks of the fourth hand's side, this one included)
        enc = bridge.position(pbn(after), trump, first, ["SHDC"[c // 13] + RANKS[c % 13] for c in trick])
        for side in (0, 1):
            mine = want if side == mover % 2 else size - want
            for target in range(1, size + 1):
                solver.clear()
                solver.reset_counts()
                got = solver.probe(enc, side, target)
                assert got == (mine >= target), (pbn(hands), first, trump, trick, side, target)
                if solver.nodes == 1 and target >= 2 and side == mover % 2 and _own_card_takes(
                        after, trump, first, trick):
                    settled += 1
    assert settled > 20, settled


def _bridge_moves(text: str, trump: int, leader: int, dds: int, played: tuple[str, ...] = ()) -> list[int]:
    """``_gen_moves``' order for the seat to play in a bridge position (``played``: the trick
    so far), DDS's weights on (1) or off (0)."""
    enc = bridge.position(text, trump, leader, played)
    assert S.work_array(enc, leader % 2)[kernels.P_DDSLEAD] == 1
    return move_order(enc, leader % 2, P_DDSLEAD=dds)


def test_bridge_leads_follow_dds_weights():
    """Bridge's lead order is DDS's (Moves.cpp, ``WeightAllocNT0``): in no-trump, North holds
    the ace and the two of spades and of hearts; the second-best spade sits with West (on
    North's right: DDS discourages the suit), the second-best heart with East (on its left:
    DDS encourages it, the king under the ace). So the heart ace goes first, then the spade
    ace, then the small heart (its suit's second-best card is not on the right), then the
    small spade; the earlier weights (a suit's top card first, suit by suit) led the spade
    ace first. The answers, whatever the order: test_bridge_dds_lead_weights_match_dds."""
    text = "N:A2.A2.. 43.K3.. 65.65.. K7.74.."
    cards = [bridge.card_bit(c) for c in ("HA", "SA", "H2", "S2")]
    assert _bridge_moves(text, 4, 0, 1) == cards
    assert _bridge_moves(text, 4, 0, 0)[0] == bridge.card_bit("SA")


def test_bridge_discards_follow_dds_weights():
    """Bridge's discards as DDS orders them (its ``WeightAlloc*Void*``): no-trump, North leads
    the spade ace and East, void, discards: first the hearts (its longest suit, the low ones
    one class: the five), then the small diamond, then the king of its king and two (the king
    second best), last the singleton club ace (the suit's top card). The earlier order (the
    lowest rank first, suit by suit) threw the diamond two first."""
    text = "N:KQ.AK.A.K .5432.K2.A JT9.QJ.Q.Q 876.T9.J.J"
    cards = [bridge.card_bit(c) for c in ("H5", "D2", "DK", "CA")]
    assert _bridge_moves(text, 4, 0, 1, ("SA",)) == cards
    assert _bridge_moves(text, 4, 0, 0, ("SA",))[0] == bridge.card_bit("D2")


def test_bridge_second_hand_in_trumps_follows_dds_weights():
    """Second hand in a trump contract as DDS orders it (``WeightAllocTrumpNotvoid1``):
    spades trumps, North leads the heart eight; East holds the ten, five and four of hearts,
    South (third hand) the heart ace, West (East's partner) no heart and three trumps. West
    can ruff, so East's side can win the trick whatever East plays, and both East's cards lie
    under South's ace: DDS weighs each 40 and its rank among the hearts left (ace, ten, five,
    four: the ten 2nd, the five 3rd), so the five goes first. The earlier order put the ten
    first (it beats the card led)."""
    text = "N:..6.T9 .T54.T. AJ.A..2 K86...3"
    cards = [bridge.card_bit(c) for c in ("H5", "HT")]
    assert _bridge_moves(text, 0, 0, 1, ("H8",)) == cards
    assert _bridge_moves(text, 0, 0, 0, ("H8",)) == cards[::-1]


def test_bridge_third_hand_in_trumps_follows_dds_weights():
    """Third hand in a trump contract as DDS orders it (``WeightAllocTrumpNotvoid2`` with
    ``RankForcesAce``): spades trumps, North leads the heart three and East plays the four;
    South holds the king, ten and two of hearts, West (fourth hand) the ace and queen (the
    king between them: two groups). South cannot win the trick (West's ace), so DDS plays
    low (weight minus the rank) but gives 20 more to the cheapest card above West's second
    group, the queen, that forces the ace out: the king (7) before the two (-2) and the ten
    (-10). The earlier order tried the cheapest card that beats the four first: the ten."""
    text = "N:..AK. .9.Q. .KT2.. 9.AQ.."
    cards = [bridge.card_bit(c) for c in ("HK", "H2", "HT")]
    assert _bridge_moves(text, 0, 0, 1, ("H3", "H4")) == cards
    assert _bridge_moves(text, 0, 0, 0, ("H3", "H4"))[0] == bridge.card_bit("HT")


def test_bridge_underruff_after_discards_as_dds():
    """An underruff goes after the discards, as DDS's ``WeightAllocTrumpVoid2/3`` weigh it
    (-32 or -13 against a discard's small weight): spades trumps, North leads the heart ace,
    East ruffs with the nine, South follows; West, void in hearts, holds the spade two, the
    diamond king and two clubs. It discards (the clubs, its longer suit, first; then the
    king) before it underruffs; the earlier order tried the two of trumps first."""
    text = "N:.K.A.A ..QJ.Q .3.T.J 2..K.76"
    cards = [bridge.card_bit(c) for c in ("C7", "DK", "S2")]
    assert _bridge_moves(text, 0, 0, 1, ("HA", "S9", "H2")) == cards
    assert _bridge_moves(text, 0, 0, 0, ("HA", "S9", "H2"))[0] == bridge.card_bit("S2")


def test_bridge_dds_lead_weights_match_dds(monkeypatch):
    """DDS's weights (leads, discards, underruffs, second and third hand in trumps) on and off: every trick count equal to DDS's, endings of 5-9 tricks
    in every strain, and the node counts show the weights at work."""
    plain = S.work_array
    on = {"w": 1}

    def work_array(enc, side):
        W = plain(enc, side).copy()
        W[kernels.P_DDSLEAD] = on["w"]
        return W

    monkeypatch.setattr(S, "work_array", work_array)
    rng = random.Random(4141)
    moved = 0
    for k in range(10):
        hands = random_ending(rng, 5 + k % 5)
        first, trump = rng.randrange(4), k % 5
        deal = BDeal.from_pbn(pbn(hands))
        deal.first, deal.trump = Player(first), Denom(trump)
        want = dds_value(deal)
        nodes = []
        for w in (1, 0):
            on["w"] = w
            solver = S.Solver(table_mb=2)
            assert bridge.tricks(pbn(hands), trump, first, solver=solver) == want, (hands, trump, first, w)
            nodes.append(solver.nodes)
        moved += nodes[0] != nodes[1]
    assert moved > 0
