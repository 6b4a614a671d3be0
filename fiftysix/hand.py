"""A whole hand, one state from the deal through the auction and the play to the result.

``HandState`` is OpenSpiel's ``BridgeState`` (or python-chess's ``Board`` with its move
stack) for 56: a ``phase`` (auction, play, over), the seat ``to_move``, ``legal_moves``,
``apply`` a call or a card, ``undo``, the ``standing_contract``, and the ``result`` with its
stake. It holds a live ``Auction`` and, once the auction is over, a live ``PlayState`` made
from the contract; the play records the card at which the contract was decided and, when
asked (``play_on``), goes on past it to the last card. Its ``moves`` are its only
serialized form: ``from_moves`` reads them back, and the record format is written and read
through it (``fiftysix.records``). Text is parsed once, at the edge (``parse_move``).
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from fiftysix.bidding import Auction, format_call, parse_call
from fiftysix.bidding.calls import Call
from fiftysix.bidding.systems import get_system
from fiftysix.bidding.systems.base import System
from fiftysix.cards import Card, Deal, Table
from fiftysix.errors import IllegalCallError, IllegalPlayError, NotationError
from fiftysix.play import PlayState, is_void_hand, opening_leader
from fiftysix.scoring import Contract, HandResult

AUCTION, PLAY, OVER = "auction", "play", "over"
PHASES = (AUCTION, PLAY, OVER)
PLAY_ON = "out"
"""The move that plays on after the contract was decided (written ``out`` in moves)."""

Move = Call | Card | str
"""A call, a card, or ``PLAY_ON``."""


@dataclass(frozen=True)
class TableOptions:
    """The table options a hand is played under (RULES.md; docs/rules-choices.md)."""

    jump_doubles: bool | None = None
    """Doubling by jump: a final bid that doubles the bid before scores x2; None: the system's default."""
    declarer_leads: bool = False
    """The final bidder leads the first trick (else seat 1)."""
    void_hand: bool = False
    """No contract is played when the defenders hold no trump as the bidding closes."""


class HandState:
    """One hand from the deal to the result.

    ``contract`` starts the hand at the play (a record with no auction, or an ending, with
    ``won`` the points each team has already won); ``leader`` overrides who leads the first
    trick (else seat 1, or the declarer under ``declarer_leads``).
    """

    def __init__(self, deal: Deal, system: str | System = "international",
                 options: TableOptions = TableOptions(), *, contract: Contract | None = None,
                 leader: int | None = None, won: Iterable[int] | None = None) -> None:
        self.deal = deal
        self.options = options
        self._leader = leader
        self._won = tuple(won) if won is not None else None
        self._given = contract
        self.auction: Auction | None = None
        if contract is None:
            self.auction = Auction(system, deal.table, hands=deal, jump_doubles=options.jump_doubles)
            self.system = self.auction.system
        else:
            self.system = get_system(system) if isinstance(system, str) else system
        self.play: PlayState | None = None
        self._moves: list[Move] = []
        self._start_play()

    @classmethod
    def from_moves(cls, deal: Deal, system: str | System = "international",
                   options: TableOptions = TableOptions(), moves: Iterable[Move | str] = (),
                   **given: Any) -> HandState:
        """A hand with ``moves`` made (text or parsed); the first that does not fit raises."""
        h = cls(deal, system, options, **given)
        for m in moves:
            h.apply(h.parse_move(m) if isinstance(m, str) else m)
        return h

    # --- where we are --------------------------------------------------------------------------

    @property
    def table(self) -> Table:
        return self.deal.table

    @property
    def won(self) -> tuple[int, ...] | None:
        """For an ending: the card points each team had won before its first card."""
        return self._won

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(self._moves)

    @property
    def calls(self) -> tuple[Call, ...]:
        return tuple(m for m in self._moves if isinstance(m, Call))

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(m for m in self._moves if isinstance(m, Card))

    @property
    def contract(self) -> Contract | None:
        """The contract played: the auction's final one (None while it runs), or the one given."""
        if self._given is not None:
            return self._given
        assert self.auction is not None
        return self.auction.contract

    def standing_contract(self) -> Contract | None:
        """The contract as it stands: the standing bid while the auction runs, then the contract."""
        if self.auction is not None and not self.auction.is_over:
            return self.auction.standing_contract()
        return self.contract

    @property
    def void(self) -> bool:
        """Table option void hand: the defenders hold no trump, so no contract is played."""
        c = self.contract
        return (self.options.void_hand and c is not None and self.auction is not None
                and is_void_hand(self.deal, c.trump, c.team))

    @property
    def leader(self) -> int:
        """Who leads (or led) the first trick."""
        if self._leader is not None:
            return self._leader
        c = self.contract
        return opening_leader(self.table, c.declarer if c else None, self.options.declarer_leads and c is not None)

    @property
    def phase(self) -> str:
        """``auction``, ``play`` or ``over``."""
        if self.play is None:
            return AUCTION if self.auction is not None and not self.auction.is_over else OVER
        return OVER if self.play.is_over else PLAY

    @property
    def to_move(self) -> int | None:
        """The seat to call or play; None once the hand is over."""
        ph = self.phase
        if ph == AUCTION:
            assert self.auction is not None
            return self.auction.to_move
        return self.play.to_move if ph == PLAY and self.play is not None else None

    def legal_moves(self) -> list[Call] | tuple[Card, ...]:
        """The calls (the caller's hand known) or the cards the seat to move may make now."""
        ph = self.phase
        if ph == AUCTION:
            assert self.auction is not None
            return self.auction.legal_calls()
        return self.play.legal_cards() if ph == PLAY and self.play is not None else ()

    @property
    def decided_at(self) -> int | None:
        """How many cards had been played when the contract was decided; None while it is open."""
        return None if self.play is None else self.play.decided_at

    @property
    def can_play_on(self) -> bool:
        """The play stopped where the contract was decided, with cards still to play."""
        return self.play is not None and self.play.stopped_early

    @property
    def played_on(self) -> bool:
        """Cards were played after the contract was decided (a hand played out)."""
        return self.decided_at is not None and len(self.cards) > self.decided_at

    # --- moves ---------------------------------------------------------------------------------

    def parse_move(self, text: str) -> Move:
        """Read a move's text for this phase: a call in the auction, a card in the play, or
        ``out`` (``PLAY_ON``); NotationError for text that is neither."""
        t = text.strip()
        if t.lower() == PLAY_ON:
            return PLAY_ON
        if self.phase == AUCTION:
            return parse_call(t)
        return Card.parse(t)

    def apply(self, move: Move) -> None:
        """Make the next move: a call, a card, or ``PLAY_ON``. An illegal one raises
        IllegalCallError / IllegalPlayError naming the rule, and the hand stays as it was."""
        if isinstance(move, Call):
            if self.phase != AUCTION:
                raise IllegalCallError(f"{format_call(move)}: the auction is over")
            assert self.auction is not None
            self.auction.apply(move)
            self._moves.append(move)
            self._start_play()
        elif isinstance(move, Card):
            if self.play is None:
                raise IllegalPlayError(f"{move}: " + ("the auction is not over yet" if self.phase == AUCTION
                                                      else "no contract is played"))
            self.play.play(move)
            self._moves.append(move)
        elif move == PLAY_ON:
            if self.play is None:
                raise IllegalPlayError("there is no play to go on with")
            self.play.play_on()
            self._moves.append(PLAY_ON)
        else:
            raise NotationError(f"a move is a call, a card or {PLAY_ON!r}, not {move!r}")

    def play_on(self) -> None:
        """Go on playing after the contract is decided, to the last card."""
        self.apply(PLAY_ON)

    def undo(self) -> Move:
        """Take back the last move; returns it (IllegalPlayError when there is none)."""
        if not self._moves:
            raise IllegalPlayError("there is no move to take back")
        move = self._moves.pop()
        if isinstance(move, Card):
            assert self.play is not None
            self.play.unplay()
        elif move == PLAY_ON:
            assert self.play is not None
            self.play.early_stop = True
        else:  # a call: the auction steps back (the play, if the call ended the auction, goes)
            assert self.auction is not None  # calls are made only where there is an auction
            self.play = None
            self.auction.undo()
        return move

    def _start_play(self) -> None:
        """Once the contract is known, the play starts (not for a void hand, nor without a contract)."""
        c = self.contract
        if self.play is None and c is not None and not self.void:
            self.play = PlayState.for_contract(self.deal, c, self.leader, self._won)

    # --- the result ----------------------------------------------------------------------------

    @property
    def result(self) -> HandResult | None:
        """The result once the contract is decided (or the hand is void): the declarers'
        points at the decision, made or failed; None while it is open."""
        c = self.contract
        if c is None:
            return None
        if self.void:
            return HandResult(c, 0, "void")
        if self.play is None or self.play.decided_points is None:
            return None
        pts = self.play.decided_points[c.team]
        return HandResult(c, pts, "made" if pts >= c.value else "failed")

    def score_for(self, team: int) -> int:
        """The stake for ``team`` (+ won, - lost, 0 void); 0 while the hand is undecided."""
        r = self.result
        if r is None:
            return 0
        return r.score if team == r.team else -r.score

    def __repr__(self) -> str:
        moves = " ".join(format_move(m) for m in self._moves)
        return f"HandState.from_moves({self.deal!r}, {self.system.name!r}, {self.options!r}, {moves.split()!r})"


def format_move(move: Move) -> str:
    """A move's canonical text."""
    if isinstance(move, Call):
        return format_call(move)
    return str(move)


__all__ = ["AUCTION", "OVER", "PHASES", "PLAY", "PLAY_ON", "HandState", "Move", "TableOptions", "format_move"]
