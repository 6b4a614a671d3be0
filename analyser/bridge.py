"""Bridge double-dummy answers on the solver's own kernels: the trick counts DDS gives.

Bridge is the solver's independent yardstick (DDS solves the same question), and it lets a
bridge player check the engine. Deals are PBN deal strings (``"N:AKQ.T98.. E.. S.. W.."``:
the first hand's seat, then the hands clockwise, suits S H D C separated by dots, ``T`` or
``10`` for the ten); endings with fewer cards work too, the hands all the same size.
Numbers follow DDS: trump 0-3 = S H D C, 4 = no-trump; seats 0-3 = N E S W.
"""
from __future__ import annotations

import random
from collections.abc import Sequence

from fiftysix.analyser import solver as S
from fiftysix.analyser.encode import BITS_PER_SUIT, Encoded, bridge_rules, encode
from fiftysix.errors import DealError

RANKS = "AKQJT98765432"
SUITS = "SHDC"
SEATS = "NESW"
STRAINS = ("S", "H", "D", "C", "NT")


def random_pbn(rng: random.Random) -> str:
    """A random full deal in PBN (``N:`` first) from ``rng`` (a ``random.Random``): the benches'
    and tests' seeded bridge deals."""
    cards = list(range(52))
    rng.shuffle(cards)
    hands = [sorted(cards[13 * k:13 * k + 13]) for k in range(4)]
    return "N:" + " ".join(".".join("".join(RANKS[c % 13] for c in h if c // 13 == s) for s in range(4))
                           for h in hands)

def card_bit(text: str) -> int:
    """The kernel bit of a card named suit then rank (``"SA"``, ``"H10"``, ``"CT"``)."""
    t = text.strip().upper()
    if len(t) < 2 or t[0] not in SUITS or t[1:].replace("10", "T") not in RANKS:
        raise DealError(f"{text!r} is not a bridge card (suit S H D C, then rank A K Q J T 9 .. 2)")
    return SUITS.index(t[0]) * BITS_PER_SUIT + RANKS.index(t[1:].replace("10", "T"))


def parse_pbn(deal: str) -> list[list[int]]:
    """The four hands of a PBN deal string, N E S W, as kernel card bits."""
    text = deal.strip()
    if len(text) < 2 or text[0].upper() not in SEATS or text[1] != ":":
        raise DealError(f"a PBN deal starts with the first hand's seat and a colon (\"N:...\"), not {text[:10]!r}")
    first = SEATS.index(text[0].upper())
    parts = text[2:].split()
    if len(parts) != 4:
        raise DealError(f"a PBN deal lists 4 hands, not {len(parts)}")
    hands: list[list[int]] = [[] for _ in range(4)]
    seen: set[int] = set()
    for i, part in enumerate(parts):
        seat = (first + i) % 4
        suits = part.split(".")
        if len(suits) != 4:
            raise DealError(f"{SEATS[seat]}'s hand {part!r} has {len(suits)} suits; PBN lists 4 (S.H.D.C)")
        for s, ranks in enumerate(suits):
            ranks = ranks.upper().replace("10", "T")
            for r in ranks:
                if r not in RANKS:
                    raise DealError(f"{SEATS[seat]}'s hand {part!r}: {r!r} is not a rank")
                bit = s * BITS_PER_SUIT + RANKS.index(r)
                if bit in seen:
                    raise DealError(f"{SUITS[s]}{r} is dealt twice")
                seen.add(bit)
                hands[seat].append(bit)
    return hands


def _check(trump: int, leader: int, hands: list[list[int]], trick: Sequence[int] = ()) -> None:
    """Refuse a position the kernels cannot play (``parse_pbn`` has checked the cards)."""
    if trump not in range(5):
        raise DealError(f"trump is 0-3 (S H D C) or 4 (no-trump), not {trump}")
    if leader not in range(4):
        raise DealError(f"leader is a seat 0-3 (N E S W), not {leader}")
    if len(trick) > 3:
        raise DealError(f"a trick in progress holds at most 3 cards, not {len(trick)}")
    if len(set(trick)) < len(trick):
        raise DealError("a card is played twice to the current trick")
    if set(trick) & {b for h in hands for b in h}:
        raise DealError("a card played to the current trick is still in a hand")
    played = {(leader + i) % 4 for i in range(len(trick))}
    sizes = [len(h) for h in hands]
    if len({n + (s in played) for s, n in enumerate(sizes)}) > 1:
        raise DealError("hands must all be the same size (counting the card each seat has played"
                        f" to the trick in progress); sizes are {sizes}")


def position(pbn_deal: str, trump: int, leader: int, played: Sequence[str] = ()) -> Encoded:
    """The kernels' form of a deal or ending, ``leader`` to lead the current trick and
    ``played`` (card names) already on the table in it, from the leader on."""
    return _position(pbn_deal, trump, leader, played)[0]


def _position(pbn_deal: str, trump: int, leader: int, played: Sequence[str]) -> tuple[Encoded, int]:
    """``position`` and the tricks left (the current one included)."""
    hands = parse_pbn(pbn_deal)
    trick = [card_bit(c) for c in played]
    _check(trump, leader, hands, trick)
    return encode(bridge_rules(), hands, None if trump == 4 else trump, leader, trick), max(map(len, hands))


def first_guess(ntricks: int, leader: int) -> int:
    """DDS's first target for a value: 7 of 13 tricks for North-South on lead, 6 for
    East-West (scaled to an ending's tricks). The search steps one trick at a time from it
    (``gallop=False``): on the 16 timed deals and both seeded sets of the benches, 3-11%
    fewer trick starts than narrowing from the middle without a guess (bench/RESULTS.md)."""
    return (ntricks + 1 - (leader & 1)) // 2


def tricks(pbn_deal: str, trump: int, leader: int, played: Sequence[str] = (), *,
           solver: S.Solver | None = None, max_nodes: int | None = None,
           max_seconds: float | None = None) -> int:
    """Tricks the leader's side (``leader`` and partner) takes with best play by all.

    ``played``: cards already on the table in the current trick, from the leader on (the
    deal then holds what is left); the current trick counts. Raises BudgetExceeded when the
    budget runs out.
    """
    enc, ntricks = _position(pbn_deal, trump, leader, played)
    s = solver or S.default_solver()
    return s.value(enc, leader % 2, max_nodes=max_nodes, max_seconds=max_seconds,
                   guess=first_guess(ntricks, leader), gallop=False)


def table(pbn_deal: str, *, solver: S.Solver | None = None, max_nodes: int | None = None,
          max_seconds: float | None = None) -> dict[str, list[int]]:
    """DDS's double-dummy table: strain ("S" "H" "D" "C" "NT") -> tricks each declarer
    (N E S W) takes, the declarer's left-hand opponent leading. One solver serves the 20
    searches (its table carries over from strain to strain's other declarers)."""
    hands = parse_pbn(pbn_deal)
    _check(4, 0, hands)  # the hands alone: every trump and leader is tried below
    ntricks = len(hands[0])
    s = solver or S.default_solver()
    out: dict[str, list[int]] = {}
    for trump, name in enumerate(STRAINS):
        row = [0] * 4
        for declarer in range(4):
            leader = (declarer + 1) % 4
            enc = encode(bridge_rules(), hands, None if trump == 4 else trump, leader)
            row[declarer] = ntricks - s.value(enc, leader % 2, max_nodes=max_nodes, max_seconds=max_seconds,
                                              guess=first_guess(ntricks, leader), gallop=False)
        out[name] = row
    return out
