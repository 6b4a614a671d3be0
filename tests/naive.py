"""Slow, obviously-correct reference implementations, written straight from RULES.md.

Nothing here imports the code under test: cards are plain strings such as ``"JH"`` and
``"TS"`` (rank then suit), so a bug in ``fiftysix`` cannot hide in a shared helper.
"""
from __future__ import annotations

# --- play ---
# RULES.md 2 and 4: power J 9 A T K Q 8 7, points J 3, 9 2, A 1, T 1; follow suit if you
# can, otherwise any card; highest trump wins, else highest of the suit led; of two
# identical cards the one played first wins.

NAIVE_POWER = ["J", "9", "A", "T", "K", "Q", "8", "7"]  # strongest first
NAIVE_POINTS = {"J": 3, "9": 2, "A": 1, "T": 1, "K": 0, "Q": 0, "8": 0, "7": 0}


def naive_rank(card: str) -> str:
    return card[0]


def naive_suit(card: str) -> str:
    return card[1]


def naive_card_points(card: str) -> int:
    return NAIVE_POINTS[naive_rank(card)]


def naive_trick_points(cards: list[str]) -> int:
    total = 0
    for c in cards:
        total += naive_card_points(c)
    return total


def naive_trick_winner(cards: list[str], trump: str | None) -> int:
    """Index of the winning card: the candidates are the trumps if any were played,
    otherwise the cards of the led suit; among them the strongest, earliest on a tie."""
    led = naive_suit(cards[0])
    trumps = [i for i, c in enumerate(cards) if trump is not None and naive_suit(c) == trump]
    if trumps:
        candidates = trumps
    else:
        candidates = [i for i, c in enumerate(cards) if naive_suit(c) == led]
    winner = candidates[0]
    for i in candidates:
        if NAIVE_POWER.index(naive_rank(cards[i])) < NAIVE_POWER.index(naive_rank(cards[winner])):
            winner = i
    return winner


def naive_legal_cards(hand: list[str], led: str | None) -> set[str]:
    """The card kinds a hand may play when ``led`` (a suit letter, or None) was led."""
    if led is None:
        return set(hand)
    same = set()
    for c in hand:
        if naive_suit(c) == led:
            same.add(c)
    if same:
        return same
    return set(hand)


# --- minimax ---
# RULES.md 4, played out by brute force: every legal card at every turn, no pruning, no
# table, no equivalences. Team ``side`` maximises the card points it wins from here on;
# every other seat minimises them (with pairs: "that team against all the others").
# Its own tiny trick winner, so that it shares nothing with the play section above.

_MM_POWER = "J9ATKQ87"
_MM_POINTS = {"J": 3, "9": 2, "A": 1, "T": 1}


def _mm_winner(cards: list[str], trump: str | None) -> int:
    best = 0
    for i in range(1, len(cards)):
        c, b = cards[i], cards[best]
        if c[1] == b[1]:
            if _MM_POWER.index(c[0]) < _MM_POWER.index(b[0]):
                best = i
        elif trump is not None and c[1] == trump:
            best = i
    return best


def naive_max_points(hands: list[list[str]], trump: str | None, leader: int, teams: list[int],
                     side: int, trick: list[str] | tuple[str, ...] = ()) -> int:
    """Points team ``side`` wins from here with best play by all (the trick in progress
    included). ``hands``: card strings per seat 0..N-1; ``leader``: 0-based seat that led
    the current trick; ``trick``: the cards already played to it; ``teams``: team of each
    seat."""
    n = len(hands)

    def rec(hands: list[list[str]], leader: int, trick: list[str]) -> int:
        if len(trick) == n:
            w = (leader + _mm_winner(trick, trump)) % n
            pts = sum(_MM_POINTS.get(c[0], 0) for c in trick)
            gain = pts if teams[w] == side else 0
            if not any(hands):
                return gain
            return gain + rec(hands, w, [])
        seat = (leader + len(trick)) % n
        hand = hands[seat]
        led = trick[0][1] if trick else None
        options = sorted({c for c in hand if led is not None and c[1] == led}) or sorted(set(hand))
        values = []
        for c in options:
            rest = list(hand)
            rest.remove(c)
            values.append(rec(hands[:seat] + [rest] + hands[seat + 1:], leader, trick + [c]))
        return max(values) if teams[seat] == side else min(values)

    return rec([list(h) for h in hands], leader, list(trick))


def naive_card_values(hands: list[list[str]], trump: str | None, leader: int, teams: list[int],
                      side: int, trick: list[str] | tuple[str, ...] = ()) -> dict[str, int]:
    """For the seat to move: each legal card -> points ``side`` wins from here after it."""
    n = len(hands)
    seat = (leader + len(trick)) % n
    hand = hands[seat]
    led = trick[0][1] if trick else None
    options = sorted({c for c in hand if led is not None and c[1] == led}) or sorted(set(hand))
    out = {}
    for c in options:
        rest = list(hand)
        rest.remove(c)
        nh = [list(h) for h in hands]
        nh[seat] = rest
        t = list(trick) + [c]
        if len(t) == n:
            w = (leader + _mm_winner(t, trump)) % n
            pts = sum(_MM_POINTS.get(x[0], 0) for x in t)
            gain = pts if teams[w] == side else 0
            out[c] = gain + (naive_max_points(nh, trump, w, teams, side) if any(nh) else 0)
        else:
            out[c] = naive_max_points(nh, trump, leader, teams, side, t)
    return out
