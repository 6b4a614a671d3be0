"""Card play: tricks, legal cards, and the play of a hand as a state machine.

``PlayState`` follows OpenSpiel's shape: ``to_move``, ``legal_cards``, ``play``,
``unplay``, ``is_over``. It plays from any position: a full deal or an ending, a trick in
progress, points already won. With a target and a declaring team it records the card at
which the contract was decided (``decided_at``) and stops there (RULES.md section 4), or
plays on to the last card when asked (``play_on``); without one it plays every card.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from fiftysix.cards import CARD_NAMES, SUIT_NAMES, Card, Deal, Hand, Table
from fiftysix.errors import IllegalPlayError

if TYPE_CHECKING:
    from fiftysix.scoring import Contract

NO_TRUMP = None


def trick_winner(cards: Sequence[int], trump: int | None) -> int:
    """Index in ``cards`` (in playing order) of the card that wins the trick.

    The highest trump wins; with none, the highest card of the suit led. Of two identical
    cards the first played wins, so only a strictly stronger card takes over.
    """
    best = 0
    for i in range(1, len(cards)):
        c, b = Card(cards[i]), Card(cards[best])
        if c.suit == b.suit:
            if c.rank < b.rank:  # lower rank index = more power; equal cards: first stays
                best = i
        elif trump is not None and c.suit == trump:
            best = i
    return best


def legal_cards(hand: Hand, led_suit: int | None) -> tuple[Card, ...]:
    """The distinct cards a hand may play: any card when leading or void in the led suit."""
    if led_suit is not None:
        follow = tuple(dict.fromkeys(hand.suit_cards(led_suit)))
        if follow:
            return follow
    return tuple(dict.fromkeys(hand.cards))


def who_played(table: Table, cards: Iterable[int], trump: int | None,
               leader: int = 1) -> tuple[tuple[tuple[int, Card], ...], int]:
    """Who played each of ``cards`` (played in order, ``leader`` leading the first trick),
    and who plays next: seats follow each other round the table and each trick's winner
    leads the next. Legality is not checked (the hands may be unknown)."""
    table.check_seat(leader)
    plays: list[tuple[int, Card]] = []
    trick: list[tuple[int, Card]] = []
    to_move = leader
    for c in cards:
        trick.append((to_move, Card(c)))
        if len(trick) < table.players:
            to_move = table.next_seat(to_move)
            continue
        to_move = trick[trick_winner([x for _, x in trick], trump)][0]
        plays.extend(trick)
        trick = []
    return tuple(plays + trick), to_move


@dataclass(frozen=True)
class Trick:
    leader: int
    plays: tuple[tuple[int, Card], ...]  # (seat, card) in playing order
    winner: int
    points: int

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(c for _, c in self.plays)


@dataclass
class PlayState:
    """The play of one hand from a given position."""

    deal: Deal
    trump: int | None
    leader: int = 1
    target: int | None = None
    declarer_team: int | None = None
    early_stop: bool = True
    points: list[int] = field(default_factory=list)
    hands: list[Hand] = field(init=False)
    tricks: list[Trick] = field(init=False, default_factory=list)
    current: list[tuple[int, Card]] = field(init=False, default_factory=list)
    conceded_by: int | None = field(init=False, default=None)
    decided_at: int | None = field(init=False, default=None)
    """How many cards had been played when the contract was decided (None while it is open)."""
    decided_points: tuple[int, ...] | None = field(init=False, default=None)
    """Each team's card points at that moment: what scores (RULES.md 4)."""

    def __post_init__(self) -> None:
        self.table.check_seat(self.leader)
        if self.trump is not None and not 0 <= self.trump < 4:
            raise IllegalPlayError(f"trump must be a suit 0..3 or None, not {self.trump}")
        if (self.target is None) != (self.declarer_team is None):
            raise IllegalPlayError("give both a target and a declaring team, or neither")
        if not self.points:
            self.points = [0] * self.table.num_teams
        self.hands = list(self.deal.hands)
        self._note_decision()

    @classmethod
    def for_contract(cls, deal: Deal, contract: Contract, leader: int = 1,
                     points: Sequence[int] | None = None) -> PlayState:
        """The play of ``deal`` under ``contract``: the declarers' target and team from it."""
        return cls(deal, contract.trump, leader=leader, target=contract.value,
                   declarer_team=contract.team, points=list(points or ()))

    def _note_decision(self) -> None:
        if self.decided_at is None and not self.current and self.target is not None and self._made() is not None:
            self.decided_at = self.cards_played
            self.decided_points = tuple(self.points)

    @property
    def table(self) -> Table:
        return self.deal.table

    @property
    def trick_leader(self) -> int:
        return self.current[0][0] if self.current else (self.tricks[-1].winner if self.tricks else self.leader)

    @property
    def to_move(self) -> int:
        if not self.current:
            return self.trick_leader
        return self.table.next_seat(self.current[-1][0])

    @property
    def led_suit(self) -> int | None:
        return self.current[0][1].suit if self.current else None

    def legal_cards(self) -> tuple[Card, ...]:
        if self.is_over:
            return ()
        return legal_cards(self.hands[self.to_move - 1], self.led_suit)

    @property
    def points_out(self) -> int:
        """Card points not yet won in a finished trick (in hands or on the table)."""
        return sum(h.points for h in self.hands) + sum(c.points for _, c in self.current)

    @property
    def cards_left(self) -> int:
        return sum(len(h) for h in self.hands)

    @property
    def cards_played(self) -> int:
        return len(self.tricks) * self.table.players + len(self.current)

    @property
    def plays(self) -> tuple[tuple[int, Card], ...]:
        """Every card played so far with the seat that played it, in order."""
        return tuple(p for t in self.tricks for p in t.plays) + tuple(self.current)

    @property
    def stopped_early(self) -> bool:
        """The contract is decided and the play stopped there with cards still to play."""
        return self.stop_reason in ("target reached", "target out of reach")

    @property
    def stop_reason(self) -> str | None:
        """Why the hand is over: 'all cards', 'target reached', 'target out of reach',
        'conceded', or None while it goes on."""
        if self.conceded_by is not None:
            return "conceded"
        if self.cards_left == 0 and not self.current:
            return "all cards"
        if self.early_stop and self.target is not None and not self.current:
            made = self._made()
            if made is not None:
                return "target reached" if made else "target out of reach"
        return None

    @property
    def is_over(self) -> bool:
        return self.stop_reason is not None

    def play(self, card: int | str) -> Trick | None:
        """Play a card for the seat to move; returns the trick if this card completed one."""
        c = Card.parse(card) if isinstance(card, str) else Card(card)
        seat = self.to_move
        if self.is_over:
            raise IllegalPlayError(f"{c}: the hand is over ({self.stop_reason})")
        hand = self.hands[seat - 1]
        if c not in hand:
            raise IllegalPlayError(f"{c}: seat {seat} does not hold the {c.name}")
        led = self.led_suit
        if led is not None and c.suit != led and hand.suit_length(led) > 0:
            raise IllegalPlayError(f"{c}: seat {seat} must follow suit in {SUIT_NAMES[led]}"
                                   f" (holds {' '.join(str(x) for x in hand.suit_cards(led))})")
        self.hands[seat - 1] = hand.without(c)
        self.current.append((seat, c))
        if len(self.current) < self.table.players:
            return None
        cards = [x for _, x in self.current]
        win = self.current[trick_winner(cards, self.trump)][0]
        pts = sum(x.points for x in cards)
        trick = Trick(self.current[0][0], tuple(self.current), win, pts)
        self.points[self.table.team_of(win)] += pts
        self.tricks.append(trick)
        self.current = []
        self._note_decision()
        return trick

    def unplay(self) -> Card:
        """Take back the last card played (a finished trick opens again); returns it."""
        if self.current:
            seat, c = self.current.pop()
        elif self.tricks:
            trick = self.tricks.pop()
            self.points[self.table.team_of(trick.winner)] -= trick.points
            *rest, (seat, c) = trick.plays
            self.current = list(rest)
        else:
            raise IllegalPlayError("no card has been played")
        self.hands[seat - 1] = Hand(self.hands[seat - 1].cards + (c,))
        if self.decided_at is not None and self.cards_played < self.decided_at:
            self.decided_at = self.decided_points = None
        return c

    def play_on(self) -> None:
        """Go on past the moment the contract was decided, to the last card (what scores stays
        the points at the decision: ``decided_points``)."""
        if not self.stopped_early:
            raise IllegalPlayError("the play has not stopped early: there is nothing to play on")
        self.early_stop = False

    def play_all(self, cards: Iterable[int | str]) -> list[Trick]:
        return [t for t in (self.play(c) for c in cards) if t is not None]

    def concede(self, team: int) -> None:
        """A team gives up the rest of the hand (table option ``concede``)."""
        if not 0 <= team < self.table.num_teams:
            raise IllegalPlayError(f"no team {team} at this table")
        if self.is_over:
            raise IllegalPlayError(f"the hand is already over ({self.stop_reason})")
        self.conceded_by = team

    def declarers_made(self) -> bool | None:
        """True / False once the contract is decided; None without a contract or while open."""
        if self.target is None or self.declarer_team is None:
            return None
        if self.conceded_by is not None:
            return self.conceded_by != self.declarer_team
        return self._made()

    def _made(self) -> bool | None:
        assert self.target is not None and self.declarer_team is not None
        got = self.points[self.declarer_team]
        if got >= self.target:
            return True
        if got + self.points_out < self.target:
            return False
        return None


def is_void_hand(deal: Deal, trump: int | None, declarer_team: int) -> bool:
    """Table option ``void hand``: the defenders hold no trump when the bidding closes."""
    if trump is None:
        return False
    t = deal.table
    return all(deal.hand(s).suit_length(trump) == 0 for s in t.seats if t.team_of(s) != declarer_team)


def played_by_seat(state: PlayState) -> dict[int, list[Card]]:
    """Every card played so far, by seat (finished tricks and the trick in progress)."""
    out: dict[int, list[Card]] = {s: [] for s in state.table.seats}
    for t in state.tricks:
        for seat, c in t.plays:
            out[seat].append(c)
    for seat, c in state.current:
        out[seat].append(c)
    return out


def format_trick(trick: Trick) -> str:
    return " ".join(CARD_NAMES[c] for c in trick.cards)


def opening_leader(table: Table, declarer: int | None = None, declarer_leads: bool = False) -> int:
    """Who leads the first trick: seat 1, or with table option ``declarer-leads`` the final bidder."""
    if not declarer_leads:
        return 1
    if declarer is None:
        raise IllegalPlayError("declarer-leads needs the declarer's seat")
    table.check_seat(declarer)
    return declarer


@dataclass(frozen=True)
class TrickRow:
    """One trick of a play as a player reads it: number, leader, cards by seat, winner, points."""

    number: int
    leader: int
    plays: tuple[tuple[int, Card], ...]
    winner: int | None
    winning_team: int | None
    points: int

    @property
    def done(self) -> bool:
        return self.winner is not None


def trick_rows(state: PlayState) -> list[TrickRow]:
    """Every trick played so far, each with its winner and points, then the trick in
    progress (winner None) if one has started."""
    table = state.table
    rows = [TrickRow(i, t.leader, t.plays, t.winner, table.team_of(t.winner), t.points)
            for i, t in enumerate(state.tricks, start=1)]
    if state.current:
        rows.append(TrickRow(len(rows) + 1, state.current[0][0], tuple(state.current), None, None,
                             sum(c.points for _, c in state.current)))
    return rows


def trick_number(state: PlayState) -> int:
    """The number of the trick being played now (the next to start when the table is empty);
    the last trick's number once the hand is over."""
    if state.current:
        return len(state.tricks) + 1
    return len(state.tricks) if state.is_over else len(state.tricks) + 1
