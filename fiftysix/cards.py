"""Suits, ranks, cards, decks, table set-ups, and the card / hand / deal notation.

A card *kind* is a small int ``suit * 8 + rank`` (0..31): suits S H D C are 0..3 and ranks
are numbered by trick-taking power, strongest first (J 9 A T K Q 8 7 = 0..7). Every deck
holds each of its kinds twice; the two copies are two physical cards but share a kind.
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Self

from fiftysix.errors import DealError, NotationError

SUITS = "SHDC"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
SUIT_SYMBOLS = "♠♥♦♣"
RANKS = "J9ATKQ87"
RANK_NAMES = ("Jack", "Nine", "Ace", "Ten", "King", "Queen", "Eight", "Seven")
RANK_POINTS = (3, 2, 1, 1, 0, 0, 0, 0)
NUM_SUITS = 4
NUM_RANKS = 8
NUM_KINDS = NUM_SUITS * NUM_RANKS
COPIES = 2
TOTAL_POINTS = 56

_SUIT_ALIASES = {
    "S": 0, "H": 1, "D": 2, "C": 3,
    "♠": 0, "♥": 1, "♦": 2, "♣": 3, "♤": 0, "♡": 1, "♢": 2, "♧": 3,
}
_RANK_ALIASES = {r: i for i, r in enumerate(RANKS)}
_RANK_ALIASES["10"] = 3


def parse_suit(text: str) -> int:
    """Read a suit letter or symbol (any case) and return its index 0..3."""
    key = text.strip().upper()
    if key not in _SUIT_ALIASES:
        raise NotationError(f"unknown suit {text!r}: use S, H, D, C or ♠ ♥ ♦ ♣")
    return _SUIT_ALIASES[key]


TRUMPS = (0, 1, 2, 3, None)
"""The five trumps in table order: the four suits, then no-trump (None)."""
NO_TRUMP_WORDS = ("NT", "N", "NS", "NONE", "NOTRUMP", "NO-TRUMP")
"""How no-trump may be written; ``format_trump`` always writes ``NT``."""


def parse_trump(text: str) -> int | None:
    """Read a trump: a suit letter or symbol (its index 0..3), or NT / N / NS / none (None)."""
    if text.strip().upper() in NO_TRUMP_WORDS:
        return None
    try:
        return parse_suit(text)
    except NotationError:
        raise NotationError(f"unknown trump {text!r}: use S, H, D, C (or ♠ ♥ ♦ ♣) or NT") from None


def format_trump(trump: int | None) -> str:
    """The canonical trump notation: ``S``, ``H``, ``D``, ``C`` or ``NT`` (None)."""
    return "NT" if trump is None else SUITS[trump]


def parse_rank(text: str) -> int:
    """Read a rank (J 9 A T/10 K Q 8 7, any case) and return its power index 0..7."""
    key = text.strip().upper()
    if key not in _RANK_ALIASES:
        raise NotationError(f"unknown rank {text!r}: use J 9 A T (or 10) K Q 8 7")
    return _RANK_ALIASES[key]


class Card(int):
    """A card kind: ``suit * 8 + rank``. ``str`` gives the canonical form ``JH``."""

    __slots__ = ()

    def __new__(cls, value: int) -> Self:
        if not 0 <= int(value) < NUM_KINDS:
            raise NotationError(f"card number {value} is out of range 0..{NUM_KINDS - 1}")
        return super().__new__(cls, value)

    @classmethod
    def make(cls, suit: int, rank: int) -> Card:
        return cls(suit * NUM_RANKS + rank)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``JH``, ``10h``, ``J♥``; the rank comes first."""
        t = text.strip()
        if len(t) < 2:
            raise NotationError(f"cannot read {text!r} as a card: write rank then suit, e.g. JH")
        return cls.make(parse_suit(t[-1]), parse_rank(t[:-1]))

    @property
    def suit(self) -> int:
        return int(self) // NUM_RANKS

    @property
    def rank(self) -> int:
        return int(self) % NUM_RANKS

    @property
    def points(self) -> int:
        return RANK_POINTS[self.rank]

    @property
    def name(self) -> str:
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"

    def symbol(self) -> str:
        return RANKS[self.rank] + SUIT_SYMBOLS[self.suit]

    def __str__(self) -> str:
        return RANKS[self.rank] + SUITS[self.suit]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


CARD_NAMES = tuple(RANKS[k % NUM_RANKS] + SUITS[k // NUM_RANKS] for k in range(NUM_KINDS))


def parse_cards(text: str) -> list[Card]:
    """Read a list of cards separated by spaces or commas, e.g. ``"JH 9H 10s"``."""
    parts = text.replace(",", " ").split()
    return [Card.parse(p) for p in parts]


def format_cards(cards: Iterable[int]) -> str:
    return " ".join(CARD_NAMES[int(c)] for c in cards)


# --- decks and tables -------------------------------------------------------------------

DECK_RANKS = {32: 4, 48: 6, 64: 8}
"""Number of ranks (from the top: J 9 A T K Q 8 7) in each deck size."""


def deck_kinds(deck: int) -> tuple[Card, ...]:
    """The card kinds of a deck, in S H D C and power order (each kind is in the deck twice)."""
    if deck not in DECK_RANKS:
        raise DealError(f"unknown deck {deck}: decks have 32, 48 or 64 cards")
    n = DECK_RANKS[deck]
    return tuple(Card.make(s, r) for s in range(NUM_SUITS) for r in range(n))


def deck_cards(deck: int) -> list[Card]:
    """Every physical card of a deck: each kind twice."""
    return [c for c in deck_kinds(deck) for _ in range(COPIES)]


TABLE_SETUPS = {(4, 32): 8, (4, 48): 12, (6, 48): 8, (8, 64): 8, (8, 48): 6}
"""(players, deck) -> hand size, for every table set-up RULES.md section 2 allows."""
DEFAULT_DECK = {4: 32, 6: 48, 8: 64}
TEAM_MODES = ("alternate", "pairs")


@dataclass(frozen=True)
class Table:
    """A table set-up: players, deck, hand size and how the seats form teams."""

    players: int = 6
    deck: int = 48
    teams: str = "alternate"

    def __post_init__(self) -> None:
        if self.players not in DEFAULT_DECK:
            raise DealError(f"a table has 4, 6 or 8 players, not {self.players}")
        if (self.players, self.deck) not in TABLE_SETUPS:
            allowed = sorted(d for p, d in TABLE_SETUPS if p == self.players)
            raise DealError(
                f"a {self.players}-player table uses a deck of {' or '.join(map(str, allowed))} cards,"
                f" not {self.deck}")
        if self.teams not in TEAM_MODES:
            raise DealError(f"unknown teams {self.teams!r}: use 'alternate' or 'pairs'")

    @classmethod
    def make(cls, players: int = 6, deck: int | None = None, teams: str = "alternate") -> Table:
        return cls(players, DEFAULT_DECK.get(players, 48) if deck is None else deck, teams)

    @property
    def hand_size(self) -> int:
        return TABLE_SETUPS[(self.players, self.deck)]

    @property
    def seats(self) -> range:
        return range(1, self.players + 1)

    @property
    def num_teams(self) -> int:
        return 2 if self.teams == "alternate" else self.players // 2

    def team_of(self, seat: int) -> int:
        """Team index of a seat: alternate 0 = odd seats, 1 = even; pairs: seat i with i+N/2."""
        self.check_seat(seat)
        if self.teams == "alternate":
            return (seat - 1) % 2
        return (seat - 1) % (self.players // 2)

    def team_name(self, team: int) -> str:
        if self.teams == "alternate":
            return ("odd", "even")[team]
        return "-".join(str(s) for s in self.team_seats(team))

    def team_seats(self, team: int) -> tuple[int, ...]:
        return tuple(s for s in self.seats if self.team_of(s) == team)

    def parse_team(self, text: str | int) -> int:
        """Read a team as a name (``odd``, ``even``, ``1-4``) or as one of its seats."""
        t = str(text).strip().lower()
        names = {self.team_name(k): k for k in range(self.num_teams)}
        if t in names:
            return names[t]
        if t.isdigit() and int(t) in self.seats:
            return self.team_of(int(t))
        raise DealError(f"unknown team {text!r}: use {', '.join(names)} or a seat number")

    def partners(self, seat: int) -> tuple[int, ...]:
        team = self.team_of(seat)
        return tuple(s for s in self.team_seats(team) if s != seat)

    def next_seat(self, seat: int) -> int:
        return seat % self.players + 1

    def check_seat(self, seat: int) -> None:
        if not 1 <= seat <= self.players:
            raise DealError(f"seat {seat} does not exist at a {self.players}-player table")

    def kinds(self) -> tuple[Card, ...]:
        return deck_kinds(self.deck)

    def __str__(self) -> str:
        return f"{self.players} players, {self.deck}-card deck, {self.hand_size} cards each, teams {self.teams}"


# --- hands --------------------------------------------------------------------------------

def _sort_key(c: int) -> int:
    return int(c)  # suit-major, power order inside a suit


@dataclass(frozen=True)
class Hand:
    """A multiset of cards (each kind at most twice), kept sorted S H D C, strongest first."""

    cards: tuple[Card, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(sorted((Card(c) for c in self.cards), key=_sort_key)))

    @classmethod
    def parse(cls, text: str) -> Hand:
        """Read ``JJ9.A.KQ.`` (suit groups S.H.D.C; ``-`` or nothing for a void)."""
        t = text.strip()
        groups = t.split(".")
        if len(groups) != NUM_SUITS:
            raise NotationError(
                f"hand {text!r} has {len(groups)} suit group(s); write four groups S.H.D.C "
                f"separated by dots, e.g. JJ9.A.KQ.")
        cards: list[Card] = []
        for suit, group in enumerate(groups):
            g = group.strip().upper().replace("10", "T")
            if g in ("-", "—"):
                continue
            for ch in g:
                if ch.isspace():
                    continue
                if ch not in _RANK_ALIASES:
                    raise NotationError(
                        f"hand {text!r}: unknown rank {ch!r} in {SUIT_NAMES[suit]}; "
                        "ranks are J 9 A T (or 10) K Q 8 7")
                cards.append(Card.make(suit, _RANK_ALIASES[ch]))
        return cls(tuple(cards))

    def suit_cards(self, suit: int) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if c.suit == suit)

    def suit_length(self, suit: int) -> int:
        return sum(1 for c in self.cards if c.suit == suit)

    def count(self, kind: int) -> int:
        return sum(1 for c in self.cards if c == kind)

    def counts(self) -> tuple[int, ...]:
        """Copies held of each of the 32 card kinds."""
        out = [0] * NUM_KINDS
        for c in self.cards:
            out[c] += 1
        return tuple(out)

    @property
    def points(self) -> int:
        return sum(c.points for c in self.cards)

    def without(self, card: Card) -> Hand:
        cards = list(self.cards)
        cards.remove(card)
        return Hand(tuple(cards))

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __contains__(self, card: object) -> bool:
        return card in self.cards

    def __str__(self) -> str:
        return ".".join("".join(RANKS[c.rank] for c in self.suit_cards(s)) for s in range(NUM_SUITS))

    def symbols(self) -> str:
        """Display form: ``♠JJ9 ♥A ♦KQ ♣-``."""
        return " ".join(SUIT_SYMBOLS[s] + ("".join(RANKS[c.rank] for c in self.suit_cards(s)) or "-")
                        for s in range(NUM_SUITS))

    def __repr__(self) -> str:
        return f"Hand.parse({str(self)!r})"


# --- deals --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Deal:
    """The hands of seats 1..N. Complete (exactly the deck) or partial (an ending)."""

    table: Table
    hands: tuple[Hand, ...]

    @classmethod
    def parse(cls, text: str, table: Table, partial: bool = False) -> Deal:
        """Read hands for seats 1..N separated by spaces; check them against the table."""
        if not text or not text.strip():
            raise NotationError("empty deal: give one hand per seat, separated by spaces")
        parts = text.replace(",", " ").split()
        if len(parts) != table.players:
            raise DealError(f"the deal has {len(parts)} hand(s); a {table.players}-player table needs {table.players}")
        hands = []
        for seat, part in enumerate(parts, start=1):
            try:
                hands.append(Hand.parse(part))
            except NotationError as e:
                raise NotationError(f"seat {seat}: {e}") from None
        deal = cls(table, tuple(hands))
        deal.validate(partial=partial)
        return deal

    def validate(self, partial: bool = False) -> None:
        """Raise DealError naming the seat and the problem if the deal does not fit its table."""
        table = self.table
        if len(self.hands) != table.players:
            raise DealError(f"the deal has {len(self.hands)} hands; the table has {table.players} seats")
        check_cards(table, self.hands)
        sizes = [len(h) for h in self.hands]
        if partial:
            if len(set(sizes)) != 1:
                seat = next(s for s, n in enumerate(sizes, start=1) if n != sizes[0])
                raise DealError(f"seat {seat} holds {sizes[seat - 1]} cards but seat 1 holds {sizes[0]};"
                                " every hand of an ending must be the same size")
            if sizes[0] > table.hand_size:
                raise DealError(f"hands of {sizes[0]} cards are too big: this table deals {table.hand_size}")
        else:
            for seat, n in enumerate(sizes, start=1):
                if n != table.hand_size:
                    raise DealError(f"seat {seat} holds {n} cards; this table deals {table.hand_size} each")

    @property
    def is_complete(self) -> bool:
        return all(len(h) == self.table.hand_size for h in self.hands)

    def hand(self, seat: int) -> Hand:
        self.table.check_seat(seat)
        return self.hands[seat - 1]

    def holder(self, card: int) -> list[int]:
        return [s for s, h in enumerate(self.hands, start=1) if card in h]

    def __str__(self) -> str:
        return " ".join(str(h) for h in self.hands)

    def __repr__(self) -> str:
        t = self.table
        return f"Deal.parse({str(self)!r}, Table({t.players}, {t.deck}, {t.teams!r}), partial={not self.is_complete})"


def random_deal(table: Table, seed: int | None = None, rng: random.Random | None = None) -> Deal:
    """Shuffle the table's deck and deal it round; the same seed always gives the same deal."""
    r = rng if rng is not None else random.Random(seed)
    cards = deck_cards(table.deck)
    r.shuffle(cards)
    n = table.hand_size
    return Deal(table, tuple(Hand(tuple(cards[i * n:(i + 1) * n])) for i in range(table.players)))


def deal_from_hands(table: Table, hands: Sequence[Hand], partial: bool = False) -> Deal:
    deal = Deal(table, tuple(hands))
    deal.validate(partial=partial)
    return deal


def complete_deal(table: Table, hands: Sequence[Hand], seed: int | None = None,
                  rng: random.Random | None = None) -> Deal:
    """Deal the cards no hand holds yet at random to the hands that are short, so every seat
    ends with the table's hand size; the hands given are kept as they are. Raises DealError
    when the given hands do not fit the table (too many cards, or a card three times)."""
    if len(hands) != table.players:
        raise DealError(f"give {table.players} hands (some may be empty), not {len(hands)}")
    for seat, hand in enumerate(hands, start=1):
        if len(hand) > table.hand_size:
            raise DealError(f"seat {seat} holds {len(hand)} cards; this table deals {table.hand_size} each")
    check_cards(table, hands)
    left = Counter(deck_cards(table.deck))
    for hand in hands:
        left.subtract(hand.cards)
    rest = sorted(left.elements())
    r = rng if rng is not None else random.Random(seed)
    r.shuffle(rest)
    out = []
    for hand in hands:
        need = table.hand_size - len(hand)
        out.append(Hand(tuple(hand.cards) + tuple(rest[:need])))
        rest = rest[need:]
    deal = Deal(table, tuple(out))
    deal.validate()
    return deal


def check_cards(table: Table, hands: Sequence[Hand]) -> None:
    """Raise DealError for a card not in the deck or held more times than the deck has it."""
    in_deck = set(table.kinds())
    totals: Counter[int] = Counter()
    for seat, hand in enumerate(hands, start=1):
        for c in hand:
            if c not in in_deck:
                raise DealError(f"seat {seat}: {c} is not in the {table.deck}-card deck")
        totals.update(hand.cards)
    for kind, n in sorted(totals.items()):
        if n > COPIES:
            holders = [str(s) for s, h in enumerate(hands, start=1) if kind in h]
            raise DealError(f"{CARD_NAMES[kind]} appears {n} times (seats {', '.join(holders)});"
                            f" the deck has only {COPIES}")
