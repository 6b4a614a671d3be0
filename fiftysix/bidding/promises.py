"""Building blocks of call meanings: ladder-aware constraints with their plain words.

"Holds the top remaining card" is a bound on the caller's own hand: if the caller already
showed one copy of that card by an earlier call, holding the next one means holding both.
So every ladder promise counts what the same seat showed before (``own``).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from fiftysix.cards import NUM_SUITS, RANK_NAMES, SUIT_NAMES, Card
from fiftysix.constraints import All, Constraint, Count, Either, conjoin, rank_kinds, suit_kinds

RANK_PLURALS = ("Jacks", "Nines", "Aces", "Tens", "Kings", "Queens", "Eights", "Sevens")


def _article(word: str) -> str:
    return ("an " if word[0] in "AEIOU" else "a ") + word


def cards_phrase(cards: Sequence[int]) -> str:
    """Plain words for a multiset of cards of one suit: ``both Jacks and a Nine of hearts``."""
    if not cards:
        return "nothing"
    counts = Counter(Card(c) for c in cards)
    parts = []
    for kind in sorted(counts):
        n = counts[kind]
        parts.append(f"both {RANK_PLURALS[kind.rank]}" if n >= 2 else _article(RANK_NAMES[kind.rank]))
    suits = {Card(c).suit for c in cards}
    body = " and ".join(parts) if len(parts) <= 2 else ", ".join(parts[:-1]) + " and " + parts[-1]
    if len(suits) == 1:
        return f"{body} of {SUIT_NAMES[suits.pop()]}"
    return body


def short_phrase(cards: Sequence[int]) -> str:
    """Compact form for labels: ``JJ9 of hearts``."""
    from fiftysix.cards import RANKS
    if not cards:
        return "nothing"
    suit = Card(cards[0]).suit
    return "".join(RANKS[Card(c).rank] for c in sorted(Card(c) for c in cards)) + " of " + SUIT_NAMES[suit]


def holds_top(cards: Sequence[int], own: Counter[Card] | None = None) -> Constraint:
    """Holds these ladder cards, on top of any copies the caller itself showed before."""
    own = own or Counter()
    need = Counter(Card(c) for c in cards)
    parts = []
    for kind in sorted(need):
        n = need[kind] + own.get(kind, 0)
        what = (f"both {RANK_PLURALS[kind.rank]} of {SUIT_NAMES[kind.suit]}" if n >= 2
                else f"{_article(RANK_NAMES[kind.rank])} of {SUIT_NAMES[kind.suit]}")
        parts.append(Count((kind,), min(n, 2), 99, f"holds {what}"))
    return conjoin(*parts)


def lacks_top(card: int, own: Counter[Card] | None = None) -> Count:
    """Does not hold the top remaining card (beyond copies the caller showed before)."""
    own = own or Counter()
    c = Card(card)
    have = own.get(c, 0)
    what = f"the top remaining {SUIT_NAMES[c.suit][:-1]} ({RANK_NAMES[c.rank]})"
    return Count((c,), 0, have, f"does not hold {what}")


def length(suit: int, lo: int = 0, hi: int = 99) -> Count:
    name = SUIT_NAMES[suit]
    if lo == hi:
        text = f"exactly {lo} {name}" if lo != 1 else f"exactly one {name[:-1]}"
    elif hi >= 99:
        text = f"at least {lo} {name}" if lo != 1 else f"at least one {name[:-1]}"
    elif lo == 0:
        text = f"at most {hi} {name}" if hi != 1 else f"at most one {name[:-1]}"
    else:
        text = f"{lo}-{hi} {name}"
    return Count(suit_kinds(suit), lo, hi, text)


def void(suit: int) -> Count:
    return Count(suit_kinds(suit), 0, 0, f"no {SUIT_NAMES[suit]}")


def has_jack(suit: int, yes: bool = True) -> Count:
    j = Card.make(suit, 0)
    if yes:
        return Count((j,), 1, 99, f"holds a Jack of {SUIT_NAMES[suit]}")
    return Count((j,), 0, 0, f"no Jack of {SUIT_NAMES[suit]}")


def jacks(lo: int) -> Count:
    return Count(rank_kinds(0), lo, 99, f"at least {lo} Jacks")


def jacks_or_nines(lo: int = 1) -> Count:
    return Count(rank_kinds(0) + rank_kinds(1), lo, 99, f"at least {lo} Jack or Nine")


def no_long_suit(n: int = 4) -> Constraint:
    return All(tuple(Count(suit_kinds(s), 0, n - 1) for s in range(NUM_SUITS)),
               f"no suit of {n}+ cards")


def void_in_one_of(suits: Iterable[int]) -> Constraint:
    ss = tuple(suits)
    if len(ss) == 1:
        return void(ss[0])
    names = ", ".join(SUIT_NAMES[s] for s in ss)
    return Either(tuple(void(s) for s in ss), f"void in at least one of {names}")


# --- what a call takes off the ladder -------------------------------------------------------

def own_in_suit(own: Counter[Card], suit: int) -> int:
    """How many cards of the suit the caller showed by earlier calls."""
    return sum(n for k, n in own.items() if Card(k).suit == suit)


def new_cards(cards: tuple[Card, ...], own: Counter[Card]) -> tuple[Card, ...]:
    """The cards of ``cards`` beyond those the caller already showed (what goes off the ladder)."""
    left = Counter(cards) - own
    return tuple(c for c in sorted(left.elements()))


def own_note(own: Counter[Card], suit: int, constraint: Constraint) -> str:
    """A closing sentence for a ladder promise by a caller who showed cards of the suit before:
    the promise counts on top of those, so say what it asks in all ("" when nothing was shown)."""
    shown = sorted(Card(c) for c in own.elements() if Card(c).suit == suit)
    if not shown:
        return ""
    return f" On top of {cards_phrase(shown)} this player showed before, that is: {constraint.describe()}."


def top_label(cards: tuple[Card, ...], exact: bool) -> str:
    if len(cards) == 1 and exact:
        c = cards[0]
        return f"singleton {RANK_NAMES[c.rank]} of {SUIT_NAMES[c.suit]}"
    return ("exactly " if exact else "") + short_phrase(cards)
