"""The solver's kernels with the bridge rule table against DDS (through endplay).

Bridge gives the kernels an independent, trusted peer: on random endings (some with a
trick in progress) every trick count must equal DDS's. Skipped when endplay is missing.
"""
from __future__ import annotations

import math
import random

import pytest

endplay = pytest.importorskip("endplay")
from endplay.dds import solve_board  # noqa: E402
from endplay.types import Card as BCard  # noqa: E402
from endplay.types import Deal as BDeal  # noqa: E402
from endplay.types import Denom, Player  # noqa: E402

from analyser import solver as S  # noqa: E402
from analyser.encode import bridge_rules, encode  # noqa: E402

RANKS = "AKQJT98765432"
SEATS = ("north", "east", "south", "west")


def to_bit(card: BCard) -> int:
    return card.suit.value * 16 + (14 - int(math.log2(card.rank.value)))


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


def test_bridge_endings_match_dds():
    rng = random.Random(52)
    solver = S.Solver(table_mb=8)
    checked = 0
    for i in range(120):
        size = rng.choice((2, 3, 4, 5, 6))
        hands = random_ending(rng, size)
        deal = BDeal.from_pbn(pbn(hands))
        first = rng.randrange(4)
        trump = rng.randrange(5)
        deal.first = Player(first)
        deal.trump = Denom(trump)
        trick: list[int] = []
        for _ in range(rng.choice((0, 0, 1, 2, 3))):
            legal = list(deal.curhand)
            if deal.curtrick:
                led = deal.curtrick[0].suit
                follow = [c for c in legal if c.suit == led]
                legal = follow or legal
            card = rng.choice(legal)
            trick.append(to_bit(card))
            deal.play(card)
        mover = deal.curplayer.value
        enc = encode(bridge_rules(), [[to_bit(c) for c in getattr(deal, s)] for s in SEATS],
                     None if trump == 4 else trump, first, trick)
        assert enc.to_move == mover
        assert solver.value(enc, mover % 2) == dds_value(deal), (pbn(hands), first, trump, trick)
        checked += 1
    assert checked == 120


def test_bridge_solve_at_every_target_matches_dds():
    rng = random.Random(7)
    solver = S.Solver(table_mb=8)
    for _ in range(25):
        hands = random_ending(rng, 5)
        deal = BDeal.from_pbn(pbn(hands))
        first, trump = rng.randrange(4), rng.randrange(5)
        deal.first, deal.trump = Player(first), Denom(trump)
        want = dds_value(deal)
        enc = encode(bridge_rules(), [[to_bit(c) for c in getattr(deal, s)] for s in SEATS],
                     None if trump == 4 else trump, first)
        for target in range(0, 7):
            assert solver.probe(enc, first % 2, target) == (target <= want)
