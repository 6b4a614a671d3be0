"""Review of a played hand: what every call meant and promised, what every card cost.

Whether each call told the truth, and each card's cost double-dummy.

``review(record)`` builds a ``Review``:

* the auction: each call with its meaning (label, sentence) and whether the caller's hand
  kept the promise (``fits``), listing the broken parts; where it broke it, the other
  legal calls whose promise that hand would have kept; given a bidding bot (``bidder``: the
  caller passes one, as the bots sit a layer above), what the system would have bid there;
* the play: for each card, the declaring team's double-dummy total (points won so far
  plus best play from here, every card played) before and after it, and its cost in
  points to the team of the seat that played it; the declarers' double-dummy total at
  the start against what they actually took; and the cards after which the contract's
  fate (makeable or not, double-dummy) changed hands.

Double-dummy values come from ``analyser.solver``; with ``pairs`` teams they are "the
declaring team against all the others".
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from fiftysix.analyser.solver import BudgetExceeded, Deadline, Position, card_values, max_points
from fiftysix.bidding import Auction, format_call
from fiftysix.cards import CARD_NAMES, Card, Hand, format_trump
from fiftysix.errors import FiftySixError
from fiftysix.records import Record, RecordError

Progress = Callable[[int, int], None]
"""A progress callback: (positions solved, positions in all)."""


@dataclass(frozen=True)
class CallReview:
    """One call of the auction, what it promised, and whether the caller's hand kept it."""

    index: int
    seat: int
    player: str
    call: str
    value: int | None
    trump: str | None
    label: str
    meaning: str
    fits: bool | None
    broken: tuple[str, ...] = ()
    truthful: tuple[str, ...] = ()
    comment: str = ""
    system_bid: str = ""
    """What the system's bidding bot calls with that hand there (when the review asked one)."""
    system_reason: str = ""

    @property
    def as_system_bids(self) -> bool:
        """The call made is the system bot's own."""
        return self.system_bid == self.call


class Bidder(Protocol):
    """A bidding bot, as the review asks it (``fiftysix.bots.BiddingBot``): its call and why."""

    def choose(self, auction: Auction, hand: Hand) -> Any: ...


@dataclass(frozen=True)
class CardReview:
    """One card: the declarers' double-dummy total before and after it, and its cost."""

    index: int
    trick: int
    seat: int
    player: str
    team: int
    declarer_side: bool
    card: str
    before: int | None
    after: int | None
    cost: int | None
    best: tuple[str, ...]
    makeable_before: bool | None
    makeable_after: bool | None
    comment: str = ""


@dataclass(frozen=True)
class FateChange:
    """After this card the contract's double-dummy fate passed to the other side."""

    index: int
    seat: int
    player: str
    card: str
    now: str  # "make" or "fail": what best play from here gives the declarers
    exact: bool = True  # False: the change happened somewhere in an unsolved stretch up to this card


@dataclass(frozen=True)
class Review:
    players: int
    deck: int
    teams: str
    system: str
    contract: str | None
    declarer: int | None
    declaring_team: str | None
    target: int | None
    calls: tuple[CallReview, ...] = ()
    cards: tuple[CardReview, ...] = ()
    dd_start: int | None = None
    dd_end: int | None = None
    actual: int | None = None
    result: int | None = None
    made: bool | None = None
    fate_changes: tuple[FateChange, ...] = ()
    lost_by_team: dict[str, int] = field(default_factory=dict)
    broken_promises: int = 0
    unsolved: int = 0
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _seconds(per: float | None, clock: Deadline | None) -> float | None:
    """A position's search budget: its own, within what the whole review has left (BudgetExceeded
    once the review's time is spent)."""
    if clock is None or clock.end is None:
        return per
    left = clock.left()
    if left is None:
        return per
    return left if per is None else min(per, left)


def _values(pos: Position, team: int, max_seconds: float | None,
            hint: tuple[Card, int] | None = None, clock: Deadline | None = None) -> dict[Card, int] | None:
    """Each legal card -> the declaring ``team``'s double-dummy total after it (None: over budget)."""
    try:
        return card_values(pos, side=team, max_seconds=_seconds(max_seconds, clock), hint=hint)
    except BudgetExceeded:
        return None


def _total(pos: Position, team: int, max_seconds: float | None, clock: Deadline | None = None) -> int | None:
    try:
        return max_points(pos, side=team, max_seconds=_seconds(max_seconds, clock))[team]
    except BudgetExceeded:
        return None


def _all_values(positions: list[Position], played: list[Card], team: int, max_seconds: float | None,
                on_progress: Progress | None = None, clock: Deadline | None = None
                ) -> list[dict[Card, int] | None]:
    """Card values at each position (``played[i]`` the card played there), solved from the
    last back to the first: later positions are smaller, and their table entries speed up
    the earlier ones; the card played is searched first, guessed at the value of the
    position after it. With a budget, once a position runs out of time the earlier
    (bigger) ones are not tried."""
    out: list[dict[Card, int] | None] = [None] * len(positions)
    for i in range(len(positions) - 1, -1, -1):
        hint = None
        nxt = out[i + 1] if i + 1 < len(positions) else None
        if nxt:
            declarers = positions[i + 1].table.team_of(positions[i + 1].to_move) == team
            hint = (played[i], max(nxt.values()) if declarers else min(nxt.values()))
        out[i] = _values(positions[i], team, max_seconds, hint, clock)
        if on_progress is not None:
            on_progress(len(positions) - i, len(positions))
        if out[i] is None:
            break
    return out


# --- the auction ---------------------------------------------------------------------------

def review_auction(record: Record, bidder: Bidder | None = None) -> tuple[CallReview, ...]:
    """Every call with its meaning and whether the caller's hand kept the promise; where it
    did not, the legal calls (that promise something) the hand would have kept. With a
    ``bidder`` (a bidding bot), what it calls with the caller's hand at each turn, and why."""
    if not record.auction:
        return ()
    auction = Auction(record.system, record.table, hands=record.deal)
    out: list[CallReview] = []
    for i, noted in enumerate(record.auction):
        seat = auction.to_move
        if seat is None:
            raise RecordError(f"call {i + 1} {noted.token}: the auction is already over", record.line)
        hand = record.deal.hand(seat)
        try:
            v = auction.verdict(noted.token, hand)
        except FiftySixError as e:
            raise RecordError(f"the auction does not replay: {e}", record.line) from None
        bid, why = _system_bid(bidder, auction, hand)
        rec = auction.apply(noted.token, hand)
        out.append(CallReview(
            index=i + 1, seat=seat, player=record.player(seat), call=noted.token, value=rec.value,
            trump=None if rec.value is None else format_trump(rec.trump),
            label=v.meaning.label, meaning=v.meaning.sentence, fits=v.kept, broken=v.broken,
            truthful=tuple(format_call(c) for c in v.truthful), comment=noted.comment, system_bid=bid,
            system_reason=why))
    return tuple(out)


def _system_bid(bidder: Bidder | None, auction: Auction, hand: Hand) -> tuple[str, str]:
    if bidder is None:
        return "", ""
    try:
        choice = bidder.choose(auction, hand)
    except FiftySixError as e:
        return "", f"the bot has no call here ({e})"
    return format_call(choice.call), choice.reason


# --- the play ------------------------------------------------------------------------------

def review_play(record: Record, max_seconds: float | None = None, on_progress: Progress | None = None,
                total_seconds: float | None = None
                ) -> tuple[tuple[CardReview, ...], int | None, int | None, tuple[FateChange, ...]]:
    """Per-card double-dummy review: (cards, the declarers' total at the start, after the
    last card, the fate changes). ``max_seconds`` bounds each position's search; a position
    not solved in time gets None for its values (and for the cost of the card played there).
    ``total_seconds`` bounds the whole review: once it is spent, the positions left are not
    solved. ``on_progress(done, total)`` is called after each position is solved."""
    clock = Deadline(total_seconds)
    c = record.contract
    if c is None:
        return (), None, None, ()
    team = c.team
    table = record.table
    hand = record.hand(0)  # the play from its first card, played on past the decision as the record goes
    state = hand.play
    assert state is not None  # a record with a contract has its play
    if not record.play:
        total = _total(Position.from_state(state), team, max_seconds, clock)
        return (), total, total, ()
    cards: list[CardReview] = []
    changes: list[FateChange] = []
    positions: list[Position] = []
    for noted in record.play:
        positions.append(Position.from_state(state))
        if hand.can_play_on:
            hand.play_on()
        hand.apply(Card.parse(noted.token))
    all_vals = _all_values(positions, [Card.parse(n.token) for n in record.play], team, max_seconds, on_progress,
                           clock)
    dd_start: int | None = None
    for i, noted in enumerate(record.play):
        card = Card.parse(noted.token)
        pos = positions[i]
        seat = pos.to_move
        mover_team = table.team_of(seat)
        is_decl = mover_team == team
        trick = i // table.players + 1  # a record's play starts at the start of a trick
        before = after = cost = None
        best: tuple[str, ...] = ()
        vals = all_vals[i]
        if vals is not None:
            before = max(vals.values()) if is_decl else min(vals.values())
            after = vals[card]
            cost = before - after if is_decl else after - before
            best = tuple(CARD_NAMES[k] for k, v in vals.items() if v == before)
        elif i + 1 < len(record.play) and (nxt := all_vals[i + 1]) is not None:
            after = max(nxt.values()) if table.team_of(positions[i + 1].to_move) == team else min(nxt.values())
        elif i + 1 == len(record.play):
            after = _total(Position.from_state(state), team, max_seconds, clock)
        if i == 0:
            dd_start = before
        cards.append(CardReview(
            index=i + 1, trick=trick, seat=seat, player=record.player(seat), team=mover_team,
            declarer_side=is_decl, card=CARD_NAMES[card], before=before, after=after, cost=cost, best=best,
            makeable_before=None if before is None else before >= c.value,
            makeable_after=None if after is None else after >= c.value, comment=noted.comment))
    # the fate changes where the known values cross the target; across an unsolved stretch
    # the change is put on the last card of the stretch and marked inexact
    last: bool | None = None
    for k, x in enumerate(cards):
        if x.makeable_before is not None:
            if last is not None and x.makeable_before != last:
                p = cards[k - 1]
                changes.append(FateChange(p.index, p.seat, p.player, p.card,
                                          "make" if x.makeable_before else "fail", exact=False))
            last = x.makeable_before
        if x.makeable_after is not None:
            if last is not None and x.makeable_after != last:
                changes.append(FateChange(x.index, x.seat, x.player, x.card,
                                          "make" if x.makeable_after else "fail",
                                          exact=x.makeable_before is not None))
            last = x.makeable_after
    return tuple(cards), dd_start, cards[-1].after, tuple(changes)


def review(record: Record, max_seconds: float | None = None, on_progress: Progress | None = None,
           total_seconds: float | None = None, bidder: Bidder | None = None) -> Review:
    """The full review of one record (auction and play); ``max_seconds`` bounds the
    double-dummy search of each position (unsolved values are None) and ``total_seconds`` all
    of them together; ``on_progress(done,
    total)`` reports the positions solved so far; ``bidder``: a bidding bot to say what the system
    would have bid at each call."""
    calls = review_auction(record, bidder)
    cards, dd_start, dd_end, changes = review_play(record, max_seconds, on_progress, total_seconds)
    c = record.contract
    table = record.table
    lost: dict[str, int] = {}
    actual = None
    if c is not None and record.play:
        for cr in cards:
            name = table.team_name(cr.team)
            lost[name] = lost.get(name, 0) + (cr.cost or 0)
        actual = record.play_state().points[c.team]
    elif c is not None and record.won is not None:
        actual = record.won[c.team]
    return Review(
        players=table.players, deck=table.deck, teams=table.teams, system=record.system,
        contract=str(c) if c else None, declarer=c.declarer if c else None,
        declaring_team=table.team_name(c.team) if c else None, target=c.value if c else None,
        calls=calls, cards=cards, dd_start=dd_start, dd_end=dd_end, actual=actual, result=record.result,
        made=record.made, fate_changes=changes, lost_by_team=lost,
        broken_promises=sum(1 for x in calls if x.fits is False),
        unsolved=sum(1 for x in cards if x.cost is None), notes=record.notes)


# --- the readable report ---------------------------------------------------------------------

def _num(v: int | None) -> str:
    return "??" if v is None else f"{v:>2}"


def format_review(r: Review) -> str:
    """A plain-text report of a Review; what the system would have bid is shown where it
    differs from the call made."""
    lines: list[str] = []
    head = f"{r.players} players, {r.deck}-card deck, teams {r.teams}, system {r.system}"
    lines.append(head)
    if r.contract:
        lines.append(f"Contract {r.contract} by seat {r.declarer} (team {r.declaring_team}), target {r.target}")
    if r.calls:
        lines.append("")
        lines.append("Auction")
        for x in r.calls:
            flag = {True: "kept", False: "BROKEN", None: ""}[x.fits]
            lines.append(f"  {x.index:>2}. seat {x.seat} {x.player if x.player != f'seat {x.seat}' else ''}"
                         .rstrip() + f": {x.call:<6} {x.label}: {x.meaning}" + (f"  [{flag}]" if flag else ""))
            for b in x.broken:
                lines.append(f"        broken: {b}")
            if x.truthful:
                lines.append(f"        calls that would have told the truth: {' '.join(x.truthful)}")
            if x.system_reason and x.system_bid != x.call:
                lines.append(f"        the system would have bid {x.system_bid or '(nothing)'}: {x.system_reason}")
            if x.comment:
                lines.append(f"        {{{x.comment}}}")
    if r.cards:
        lines.append("")
        lines.append("Play (double-dummy total of the declarers before -> after each card)")
        for y in r.cards:
            side = "decl" if y.declarer_side else "def "
            mark = f"  costs {y.cost}" if y.cost else ""
            best = f" (best: {' '.join(y.best)})" if y.cost else ""
            lines.append(f"  trick {y.trick:>2}  seat {y.seat} {side} {y.card:<3} {_num(y.before)} -> {_num(y.after)}"
                         f"{mark}{best}")
            if y.comment:
                lines.append(f"        {{{y.comment}}}")
    if r.unsolved:
        lines.append(f"  ({r.unsolved} position(s) not solved within the time budget: shown as ??)")
    lines.append("")
    if r.dd_start is not None:
        lines.append(f"Double-dummy at the start: the declarers take {r.dd_start} (target {r.target}:"
                     f" {'makeable' if r.dd_start >= (r.target or 0) else 'not makeable'})")
    elif r.contract:
        lines.append("Double-dummy at the start: not solved within the time budget")
    if r.actual is not None:
        lines.append(f"Actually taken in the play recorded: {r.actual}"
                     + (f"; double-dummy after the last card: {r.dd_end}" if r.dd_end is not None else ""))
    if r.result is not None:
        lines.append(f"Result: {r.result} points, {'made' if r.made else 'failed'}")
    if r.lost_by_team:
        lines.append("Points given away: " + ", ".join(f"team {k} {v}" for k, v in r.lost_by_team.items()))
    if r.fate_changes:
        lines.append("The contract changed hands:")
        for f in r.fate_changes:
            lines.append(f"  card {f.index}: seat {f.seat} played {f.card}; now the contract should"
                         f" {'make' if f.now == 'make' else 'fail'}" + ("" if f.exact else " (at or before this card)"))
    elif r.cards:
        lines.append("The contract's double-dummy fate never changed hands"
                     + (" in the positions solved." if r.unsolved else "."))
    for n in r.notes:
        lines.append(f"{{{n}}}")
    return "\n".join(lines)


__all__ = [
    "CallReview",
    "CardReview",
    "FateChange",
    "Review",
    "format_review",
    "review",
    "review_auction",
    "review_play",
]
