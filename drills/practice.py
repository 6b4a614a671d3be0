"""The practice table: one hand bid and played with the bots, the learner in one seat.

``PracticeHand`` is the whole state of a hand as plain data (table, system, the learner's
seat, the deal, the seed, the bots, the mode, the calls and cards so far, with the bots'
reasons and the feedback on the learner's calls); ``to_dict`` / ``from_dict`` give its
JSON form, and ``from_dict`` replays every call and card, so a stored hand is either
consistent or refused. The functions move a hand on:

* ``bots_to_call`` lets the bots call until it is the learner's turn (or the auction ends);
  ``your_call`` makes the learner's call and returns its ``Feedback``: the promise kept or
  the parts broken, the system bot's call and its reason, what partners now know;
* ``bots_to_play`` lets the card bots play (each from its own view) until the learner is to
  play; ``your_card`` plays the learner's card (only a legal one);
* the play stops when the contract is decided (RULES.md 4); ``play_it_out`` plays on;
* ``outcome`` scores it, ``double_dummy`` gives the value at the start and each team's best
  contract, ``to_record`` writes it in the hand-record format;
* ``Match`` adds the stakes of several hands under a match format (``chips``, ``race``,
  ``games``); ``drill_answers`` turns the learner's calls into answers for the progress store.

Same seed, same deal and the same bot actions: every bot is seeded with the hand's seed and
chooses from what its seat knows.
"""
from __future__ import annotations

import hashlib
from collections.abc import Collection, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from fiftysix.bidding import Auction, format_call, parse_call
from fiftysix.bots import BIDDING_BOTS, DEFAULT_BOT, MAX_CALLS, CardBot, get_bot, seat_bots
from fiftysix.bots.worth import bid_claims
from fiftysix.cards import Card, Deal, Table, random_deal
from fiftysix.constraints import TRUE
from fiftysix.drills.questions import Context, Question
from fiftysix.errors import FiftySixError, IllegalCallError, IllegalPlayError
from fiftysix.play import PlayState, Trick
from fiftysix.records import Record, build_record
from fiftysix.scoring import (
    MATCH_FORMATS,
    MAX_BID,
    MIN_BID,
    RESULT_REASONS,
    Contract,
    HandResult,
    new_match,
    result_of_play,
    stake,
)

MODES = ("learning", "practice")
"""``learning`` shows every hand and offers hints before the learner calls; ``practice``
shows only the learner's hand."""
LEADER = 1
"""Seat 1 leads the first trick (the table option declarer-leads is not offered here)."""
IDEA_TYPE = "your-call"
"""The drill question type a call made at the table counts as."""
DRILL_SOURCE = "practice table"
"""The ``source`` of the answers the table stores (the Progress page groups by it)."""


class PracticeError(FiftySixError):
    """A practice hand that cannot be read back, or a move made out of turn."""


@dataclass(frozen=True)
class BotMove:
    """A bot's call or card and its reason."""

    index: int  # the call's or card's position, from 1
    seat: int
    move: str
    reason: str


@dataclass(frozen=True)
class Feedback:
    """What the learner's call told the table, and what the system would have called."""

    index: int
    seat: int
    call: str
    label: str
    meaning: str
    promise: str
    kept: bool | None  # None: the call promises nothing
    broken: tuple[str, ...]
    truthful: tuple[str, ...]  # where the promise broke: the calls the hand would have kept
    bot_call: str
    bot_reason: str
    partners_know: str
    family: str

    @property
    def same_as_bot(self) -> bool:
        return self.call == self.bot_call

    @property
    def right(self) -> bool:
        """Kept its promise (or promised nothing) and is the call the system's bot makes."""
        return self.kept is not False and self.same_as_bot

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Feedback:
        try:
            return cls(**{**d, "broken": tuple(d["broken"]), "truthful": tuple(d["truthful"])})
        except (TypeError, KeyError) as e:
            raise PracticeError(f"a call's feedback cannot be read: {e}") from None


@dataclass
class PracticeHand:
    """One hand at the practice table. ``seed`` seeds the bots (and the deal when dealt at
    random); ``source`` says in words where the deal came from."""

    table: Table
    system: str
    seat: int
    deal: Deal
    seed: int = 0
    bot: str = DEFAULT_BOT
    mode: str = "learning"
    source: str = ""
    calls: list[str] = field(default_factory=list)
    call_reasons: list[str] = field(default_factory=list)  # the bot's reason; "" for the learner's calls
    feedback: list[Feedback] = field(default_factory=list)
    cards: list[str] = field(default_factory=list)
    card_reasons: list[str] = field(default_factory=list)
    played_out: bool = False

    def __post_init__(self) -> None:
        self.table.check_seat(self.seat)
        if self.mode not in MODES:
            raise PracticeError(f"unknown mode {self.mode!r}: use {' or '.join(MODES)}")
        if self.bot not in BIDDING_BOTS:
            raise PracticeError(f"unknown bot {self.bot!r}: use {', '.join(sorted(BIDDING_BOTS))}")
        if self.deal.table != self.table or not self.deal.is_complete:
            raise PracticeError("the deal must be a full deal for this table")

    @property
    def key(self) -> str:
        """What makes this hand this hand (table, system, seat, deal, seed, bot): a match
        counts a hand of one key once."""
        t = self.table
        text = f"{t.players}/{t.deck}/{t.teams}|{self.system}|{self.seat}|{self.deal}|{self.seed}|{self.bot}"
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    @property
    def your_team(self) -> int:
        return self.table.team_of(self.seat)

    def to_dict(self) -> dict:
        t = self.table
        return {"players": t.players, "deck": t.deck, "teams": t.teams, "system": self.system,
                "seat": self.seat, "deal": str(self.deal), "seed": self.seed, "bot": self.bot,
                "mode": self.mode, "source": self.source, "calls": list(self.calls),
                "call_reasons": list(self.call_reasons), "feedback": [f.to_dict() for f in self.feedback],
                "cards": list(self.cards), "card_reasons": list(self.card_reasons), "played_out": self.played_out}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> PracticeHand:
        """Read a stored hand back; every call and card is replayed, so a hand that does not
        hang together raises PracticeError naming the fault."""
        try:
            table = Table(int(d["players"]), int(d["deck"]), str(d["teams"]))
            hand = cls(table, str(d["system"]), int(d["seat"]), Deal.parse(str(d["deal"]), table),
                       int(d["seed"]), str(d["bot"]), str(d["mode"]), str(d.get("source", "")),
                       [str(c) for c in d["calls"]], [str(r) for r in d["call_reasons"]],
                       [Feedback.from_dict(f) for f in d["feedback"]],
                       [str(c) for c in d["cards"]], [str(r) for r in d["card_reasons"]],
                       bool(d.get("played_out", False)))
        except PracticeError:
            raise
        except (KeyError, TypeError, ValueError, FiftySixError) as e:
            raise PracticeError(f"the stored hand cannot be read: {e!r}") from None
        check(hand)
        return hand


def new_hand(table: Table, system: str, seat: int, seed: int = 0, deal: Deal | None = None,
             bot: str = DEFAULT_BOT, mode: str = "learning", source: str = "") -> PracticeHand:
    """A fresh hand: ``deal`` as given, or dealt at random from ``seed``."""
    Auction(system, table)  # an unknown system is refused here, by name
    if deal is None:
        deal = random_deal(table, seed=seed)
        source = source or f"seed {seed}"
    return PracticeHand(table, system, seat, deal, int(seed), str(bot).strip().lower(), mode, source)


def check(hand: PracticeHand) -> None:
    """Raise PracticeError unless the hand's calls, cards, reasons and feedback hang together."""
    n_calls, n_cards = len(hand.calls), len(hand.cards)
    if len(hand.call_reasons) != n_calls or len(hand.card_reasons) != n_cards:
        raise PracticeError("every call and card needs its reason entry")
    try:
        a = auction(hand)
    except FiftySixError as e:
        raise PracticeError(f"the stored auction does not replay: {e}") from None
    mine = [i + 1 for i, r in enumerate(a.calls) if r.seat == hand.seat]
    if [f.index for f in hand.feedback] != mine:
        raise PracticeError("the feedback does not match the learner's calls")
    if n_cards and not a.is_over:
        raise PracticeError("cards were played before the auction was over")
    if n_cards:
        try:
            play_state(hand)
        except FiftySixError as e:
            raise PracticeError(f"the stored play does not replay: {e}") from None
    if hand.played_out and decided_at(hand) is None:
        raise PracticeError("'played out' is set but the contract was never decided early")


# --- the auction ------------------------------------------------------------------------------

def auction(hand: PracticeHand, with_hands: bool = True) -> Auction:
    """The auction so far; ``with_hands``: every hand known to it, so calls are checked against
    them (the bots get it without, as at a real table)."""
    a = Auction(hand.system, hand.table, hands=hand.deal if with_hands else None)
    for c in hand.calls:
        a.apply(c)
    return a


def phase(hand: PracticeHand) -> str:
    """``bidding``, ``play`` or ``over``."""
    a = auction(hand)
    if not a.is_over:
        return "bidding"
    return "over" if play_state(hand, a.contract).is_over else "play"


def your_turn(hand: PracticeHand) -> bool:
    """Is the learner to call or to play now?"""
    a = auction(hand)
    if not a.is_over:
        return a.to_move == hand.seat
    state = play_state(hand, a.contract)
    return not state.is_over and state.to_move == hand.seat


def bots_to_call(hand: PracticeHand) -> list[BotMove]:
    """The bots call in turn until the learner is to call or the auction is over."""
    a = auction(hand, with_hands=False)
    bots = None
    made: list[BotMove] = []
    for _ in range(MAX_CALLS):
        if a.is_over or a.to_move == hand.seat:
            return made
        if bots is None:
            bots = seat_bots(hand.bot, hand.table.players, hand.seed)
        seat = a.to_move
        choice = bots[seat - 1].choose(a, hand.deal.hand(seat))
        text = format_call(choice.call)
        a.apply(text)
        hand.calls.append(text)
        hand.call_reasons.append(choice.reason)
        made.append(BotMove(len(hand.calls), seat, text, choice.reason))
    raise PracticeError(f"the auction did not end after {MAX_CALLS} calls")


@dataclass(frozen=True)
class PaletteCall:
    """A legal call for the learner now: what it would mean, and whether the hand keeps it."""

    call: str
    label: str
    meaning: str
    promise: str
    keeps: bool  # the learner's hand keeps its promise (always so for a call that promises nothing)
    value: int | None  # the standing bid's value after it (None: it leaves the bid as it is)
    promises_nothing: bool = False


def palette(hand: PracticeHand) -> list[PaletteCall]:
    """Every legal call for the learner now (empty when it is not the learner's turn)."""
    a = auction(hand)
    if a.is_over or a.to_move != hand.seat:
        return []
    mine = hand.deal.hand(hand.seat)
    values = {c: r.value for c, r in a.readings(mine)}
    return [PaletteCall(format_call(c), m.label, m.sentence, _promise(m.constraint), ok, values.get(c),
                        m.promises_nothing) for c, m, ok in a.palette_marked(mine)]


def _promise(constraint) -> str:
    text = constraint.describe()
    return "nothing about the hand" if constraint == TRUE or text == "nothing" else text


def hint(hand: PracticeHand) -> BotMove:
    """The system bot's call for the learner's hand now, with its reason."""
    a = auction(hand)
    if a.is_over or a.to_move != hand.seat:
        raise PracticeError("it is not your turn to call")
    choice = get_bot(hand.bot, hand.seed).choose(auction(hand, with_hands=False), hand.deal.hand(hand.seat))
    return BotMove(len(hand.calls) + 1, hand.seat, format_call(choice.call), choice.reason)


def partners_know(a: Auction, seat: int) -> str:
    """Everything ``seat``'s calls have promised so far, in words."""
    c = a.seat_constraints()[seat]
    return "nothing yet: your calls so far promise nothing about your hand" if c == TRUE else c.describe()


def your_call(hand: PracticeHand, call: str) -> Feedback:
    """Make the learner's call (IllegalCallError, hand unchanged, when it is not legal now)
    and say what it promised, whether the hand keeps it, and what the system's bot calls."""
    from fiftysix.drills.generate import family_of
    a = auction(hand)
    if a.is_over:
        raise IllegalCallError("the auction is over")
    if a.to_move != hand.seat:
        raise IllegalCallError(f"it is seat {a.to_move}'s turn to call, not yours (seat {hand.seat})")
    try:
        c = parse_call(call)
    except FiftySixError as e:
        raise IllegalCallError(str(e)) from None
    mine = hand.deal.hand(hand.seat)
    v = a.verdict(c, mine)  # raises IllegalCallError for an illegal call
    meaning = v.meaning
    bot = get_bot(hand.bot, hand.seed).choose(auction(hand, with_hands=False), mine)
    text = format_call(c)
    a.apply(text, mine)
    fb = Feedback(len(a.calls), hand.seat, text, meaning.label, meaning.sentence, _promise(meaning.constraint),
                  v.kept, v.broken, tuple(format_call(x) for x in v.truthful), format_call(bot.call), bot.reason, partners_know(a, hand.seat),
                  family_of(bot.call))
    hand.calls.append(text)
    hand.call_reasons.append("")
    hand.feedback.append(fb)
    return fb


def contract(hand: PracticeHand) -> Contract | None:
    """The final contract once the auction is over."""
    return auction(hand).contract


# --- the play -------------------------------------------------------------------------------

def play_state(hand: PracticeHand, contract_: Contract | None = None, upto: int | None = None,
               early_stop: bool | None = None) -> PlayState:
    """The play so far (the first ``upto`` cards); it stops when the contract is decided
    unless the learner chose to play it out."""
    c = contract_ if contract_ is not None else contract(hand)
    if c is None:
        raise PracticeError("the auction is not over yet")
    stop = not hand.played_out if early_stop is None else early_stop
    state = PlayState(hand.deal, c.trump, leader=LEADER, target=c.value, declarer_team=c.team, early_stop=stop)
    for card in hand.cards[:upto]:
        state.play(card)
    return state


def decided_at(hand: PracticeHand) -> int | None:
    """How many cards had been played when the contract was decided (made or beaten) before
    the last card; None while it is open or when it was decided only by the last trick."""
    c = contract(hand)
    if c is None:
        return None
    state = PlayState(hand.deal, c.trump, leader=LEADER, target=c.value, declarer_team=c.team)
    for k, card in enumerate(hand.cards):
        if state.is_over:
            return k if state.stop_reason != "all cards" else None
        state.play(card)
    return len(hand.cards) if state.is_over and state.stop_reason != "all cards" else None


def legal_cards(hand: PracticeHand) -> tuple[Card, ...]:
    """The cards the learner may play now (none when it is not the learner's turn)."""
    c = contract(hand)
    if c is None:
        return ()
    state = play_state(hand, c)
    if state.is_over or state.to_move != hand.seat:
        return ()
    return state.legal_cards()


def your_card(hand: PracticeHand, card: str) -> Trick | None:
    """Play the learner's card; IllegalPlayError (hand unchanged) when it is not the
    learner's turn or the card is not legal. Returns the trick if the card completed one."""
    c = contract(hand)
    if c is None:
        raise IllegalPlayError("the auction is not over yet")
    state = play_state(hand, c)
    if state.is_over:
        raise IllegalPlayError(f"the hand is over ({state.stop_reason})")
    if state.to_move != hand.seat:
        raise IllegalPlayError(f"it is seat {state.to_move}'s turn to play, not yours (seat {hand.seat})")
    try:
        k = Card.parse(card)
    except FiftySixError as e:
        raise IllegalPlayError(str(e)) from None
    trick = state.play(k)  # raises IllegalPlayError for a card not held or not following suit
    hand.cards.append(str(k))
    hand.card_reasons.append("")
    return trick


def _view(hand: PracticeHand, seat: int, a: Auction):
    from fiftysix.analyser.dealer import View, auction_promises
    return View(hand.table, seat, hand.deal.hand(seat), {}, plays(hand, a.contract), LEADER, auction_promises(a))


def plays(hand: PracticeHand, contract_: Contract | None = None) -> tuple[tuple[int, Card], ...]:
    """Every card played so far with the seat that played it, in order."""
    c = contract_ if contract_ is not None else contract(hand)
    if c is None:
        return ()
    state = PlayState(hand.deal, c.trump, leader=LEADER, early_stop=False)
    out = []
    for card in hand.cards:
        out.append((state.to_move, Card.parse(card)))
        state.play(card)
    return tuple(out)


def _bot_card(bot: CardBot, hand: PracticeHand, a: Auction, state: PlayState, seat: int) -> tuple[Card, str]:
    """The card bot's card for ``seat``, chosen from that seat's view (its hand, the calls'
    promises, the cards played). Where the promises leave no deal to draw (a bluff the
    dealer cannot set aside), it plays its cheapest legal card and says so."""
    try:
        ch = bot.choose(_view(hand, seat, a), a.contract, bid_claims(a, seat))
        if ch.card in state.legal_cards():
            return ch.card, ch.reason
    except FiftySixError:
        pass
    card = min(state.legal_cards(), key=lambda k: (k.points, -k.rank, int(k)))
    return card, ("its cheapest legal card: no deal fits both its own cards and what the calls promised (a call "
                  "broke its promise), so it had no deals to try its cards on")


def bots_to_play(hand: PracticeHand) -> list[BotMove]:
    """The card bots play in turn until the learner is to play or the hand is over."""
    a = auction(hand)
    if not a.is_over:
        return []
    state = play_state(hand, a.contract)
    bot = None
    made: list[BotMove] = []
    while not state.is_over and state.to_move != hand.seat:
        if bot is None:
            bot = CardBot(hand.seed)
        seat = state.to_move
        card, reason = _bot_card(bot, hand, a, state, seat)
        state.play(card)
        hand.cards.append(str(card))
        hand.card_reasons.append(reason)
        made.append(BotMove(len(hand.cards), seat, str(card), reason))
    return made


def card_hint(hand: PracticeHand) -> BotMove:
    """The card bot's card for the learner now (from the learner's own view), with its reason."""
    a = auction(hand)
    if not a.is_over:
        raise PracticeError("the auction is not over yet")
    state = play_state(hand, a.contract)
    if state.is_over or state.to_move != hand.seat:
        raise PracticeError("it is not your turn to play")
    card, reason = _bot_card(CardBot(hand.seed), hand, a, state, hand.seat)
    return BotMove(len(hand.cards) + 1, hand.seat, str(card), reason)


@dataclass(frozen=True)
class CardCost:
    """What one of the learner's cards cost with best play (double-dummy): the points it
    gave away to the learner's team's best total, and the best cards there."""

    index: int
    card: str
    cost: int
    best: tuple[str, ...]


def card_cost(hand: PracticeHand, index: int, max_seconds: float | None = None, stop=None) -> CardCost | None:
    """The cost of card ``index`` (from 1) for the team that played it, double-dummy; None
    when the search runs past ``max_seconds``."""
    from fiftysix.analyser.solver import BudgetExceeded, Position, card_values
    c = contract(hand)
    if c is None or not 1 <= index <= len(hand.cards):
        raise PracticeError(f"there is no card {index} in this play")
    state = play_state(hand, c, upto=index - 1, early_stop=False)
    team = hand.table.team_of(state.to_move)
    try:
        values = card_values(Position.from_state(state), side=team, max_seconds=max_seconds, stop=stop)
    except BudgetExceeded:
        return None
    card = Card.parse(hand.cards[index - 1])
    top = max(values.values())
    return CardCost(index, str(card), top - values[card], tuple(str(k) for k, v in values.items() if v == top))


def can_play_out(hand: PracticeHand) -> bool:
    """The play stopped because the contract was decided, with cards still to play."""
    if hand.played_out or contract(hand) is None:
        return False
    state = play_state(hand)
    return state.is_over and state.stop_reason in ("target reached", "target out of reach")


def play_it_out(hand: PracticeHand) -> None:
    """Go on playing after the contract is decided, to the last card."""
    if not can_play_out(hand):
        raise PracticeError("the play has not stopped early: there is nothing to play out")
    hand.played_out = True


def advance(hand: PracticeHand) -> list[BotMove]:
    """The bots call, or play, until the learner's turn or the end of the hand."""
    moves = bots_to_call(hand)
    if auction(hand).is_over:
        moves += bots_to_play(hand)
    return moves


PLAY_OUT = "out"
"""In ``your_moves``: the learner chose to play on after the contract was decided."""


def your_moves(hand: PracticeHand) -> list[str]:
    """The learner's own moves in order: calls, cards, and ``PLAY_OUT`` where the learner chose
    to play on. With the seed they give the whole hand back (``replay``)."""
    out = [f.call for f in hand.feedback]
    mine = [k for k, (seat, _) in enumerate(plays(hand), start=1) if seat == hand.seat]
    at = decided_at(hand) if hand.played_out else None
    for k in mine:
        if at is not None and k > at and PLAY_OUT not in out:
            out.append(PLAY_OUT)
        out.append(hand.cards[k - 1])
    if hand.played_out and PLAY_OUT not in out:
        out.append(PLAY_OUT)
    return out


def replay(hand: PracticeHand, moves: list[str]) -> PracticeHand:
    """A fresh copy of ``hand`` (same table, deal, seed, bots) with the learner's ``moves``
    made again, the bots moving between them; PracticeError (or an illegal-move error) when
    the moves do not fit the hand."""
    h = PracticeHand(hand.table, hand.system, hand.seat, hand.deal, hand.seed, hand.bot, hand.mode, hand.source)
    for move in moves:
        advance(h)
        if move == PLAY_OUT:
            play_it_out(h)
        elif phase(h) == "bidding":
            your_call(h, move)
        elif phase(h) == "play":
            your_card(h, move)
        else:
            raise PracticeError(f"{move}: the hand is already over")
    advance(h)
    return h


# --- after the hand ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Outcome:
    """The result of a finished hand: the contract, the declarers' points when it was
    decided (and at the end, if played out), the stake and what it means for the learner."""

    contract: Contract
    result: HandResult
    points: tuple[int, ...]       # each team's card points when the contract was decided
    points_end: tuple[int, ...]   # ... and after the last card played
    your_team: int
    your_score: int               # the stake for the learner's team (+ won, - lost; 0 void)

    @property
    def made(self) -> bool:
        return bool(self.result.made)

    @property
    def stake(self) -> int:
        return abs(self.result.score)


def outcome(hand: PracticeHand) -> Outcome:
    """Score the hand once it is over (PracticeError while it goes on)."""
    c = contract(hand)
    if c is None:
        raise PracticeError("the auction is not over yet")
    end = play_state(hand, c)
    if not end.is_over:
        raise PracticeError("the hand is not over yet")
    at = decided_at(hand)
    decided = play_state(hand, c, upto=at, early_stop=True) if at is not None else end
    res = result_of_play(decided, c)
    score = res.score if hand.your_team == c.team else -res.score
    return Outcome(c, res, tuple(decided.points), tuple(end.points), hand.your_team, score)


@dataclass(frozen=True)
class BestContract:
    """A team's best contract double-dummy (seat 1 leading): the strain where it takes most,
    and the highest bid that makes there (None: under 28 in every strain)."""

    team: int
    strain: str | None
    points: int | None
    contract: str | None
    stake: int | None


@dataclass(frozen=True)
class DoubleDummy:
    """The declarers' double-dummy total in the contract played, and each team's best contract."""

    declarers: int | None
    target: int
    best: tuple[BestContract, ...]


def double_dummy(hand: PracticeHand, max_seconds: float | None = None, stop=None) -> DoubleDummy:
    """The double-dummy facts of the deal: the declarers' total in the contract played (seat
    1 leading) and each team's best contract; a value the budget did not reach is None."""
    from fiftysix.analyser.solver import BudgetExceeded, Position, declarer_table, max_points
    c = contract(hand)
    if c is None:
        raise PracticeError("the auction is not over yet")
    try:
        total = max_points(Position.from_deal(hand.deal, c.trump, LEADER), side=c.team,
                           max_seconds=max_seconds, stop=stop)[c.team]
    except BudgetExceeded:
        total = None
    rows = declarer_table(hand.deal, (LEADER,), max_seconds=max_seconds, stop=stop)
    best = []
    for row in rows:
        known = {s: p for s, p in row.points.items() if p is not None}
        if not known:
            best.append(BestContract(row.team, None, None, None, None))
            continue
        strain = max(known, key=lambda s: (known[s], s == "NT"))
        pts = known[strain]
        value = min(pts, MAX_BID) if pts >= MIN_BID else None
        best.append(BestContract(row.team, strain, pts, None if value is None else f"{value}{strain}",
                                 None if value is None else stake(value, True)))
    return DoubleDummy(total, c.value, tuple(best))


def to_record(hand: PracticeHand, event: str = "Practice table", date: str = "", player: str = "you") -> Record:
    """The hand in the project's record format: the auction, the play and the result (the
    declarers' points when the contract was decided). A hand played out after the contract
    was decided keeps every card, marked ``[PlayedOut "yes"]``; its result stays the points
    at the decision, and a note gives the declarers' points at the end."""
    if phase(hand) != "over":
        raise PracticeError("the hand is not over yet: finish it, then save it")
    c = contract(hand)
    at = decided_at(hand)
    played_out = at is not None and len(hand.cards) > at
    names = [f"{hand.bot} bot" for _ in hand.table.seats]
    names[hand.seat - 1] = (player or "you").replace(";", ",").strip() or "you"
    notes = [f"Practice table, {hand.source or 'seed ' + str(hand.seed)}; {hand.bot} bots seeded {hand.seed}."]
    if played_out:
        end = play_state(hand, c)
        notes.append(f"Played out after the contract was decided: {' '.join(hand.cards[at:])}; "
                     f"the declarers ended with {end.points[c.team]} points.")
    result = play_state(hand, c, upto=at, early_stop=True).points[c.team]
    # the [Result] tag written before the notes keeps them notes (not a comment on the last card)
    return build_record(hand.table, hand.deal, hand.system, hand.calls, hand.cards, leader=LEADER, result=result,
                        event=event, date=date, players=names, notes=notes, played_out=played_out)


# --- drills -----------------------------------------------------------------------------------

def drill_answers(hand: PracticeHand) -> list[tuple[Question, bool]]:
    """The learner's calls as answers to "your call" questions: (question, right?). A call
    is right when it keeps its promise and is the call the system's bot makes; the idea
    drilled is the family of the bot's call, as in the Drill page's "your call" questions."""
    t = hand.table
    out = []
    for fb in hand.feedback:
        before = " ".join(hand.calls[:fb.index - 1])
        ctx = Context(hand.system, t.players, t.deck, t.teams, hand.seat, before, str(hand.deal.hand(hand.seat)))
        answers = (fb.bot_call,)
        choices = tuple(dict.fromkeys((fb.bot_call, fb.call) + fb.truthful[:2]))
        why = [f"The system's bot calls {fb.bot_call}: {fb.bot_reason}."]
        if fb.kept is False:
            why.append(f"{fb.call} promised {fb.promise}; your hand breaks: {'; '.join(fb.broken)}.")
        q = Question(id=f"practice-{hand.key}-c{fb.index}", type=IDEA_TYPE, context=ctx,
                     prompt=f"You are seat {hand.seat}, to call. What does the system bid with your hand?",
                     choices=choices, answers=answers, explanation=" ".join(why),
                     tags=("practice", hand.system, fb.family), preferred=fb.bot_call, family=fb.family)
        out.append((q, fb.right))
    return out


def record_drills(hand: PracticeHand, store, only: Collection[int] | None = None) -> int:
    """Store the learner's calls (those with a call number in ``only``, or all) in a
    ``drills.progress.ProgressStore``: every call that broke its promise or differed from the
    bot's (it becomes an idea that comes back in the Drill page), and the right ones of ideas
    already being drilled (a review). Returns how many were stored."""
    n = 0
    for fb, (q, right) in zip(hand.feedback, drill_answers(hand)):
        if only is not None and fb.index not in only:
            continue
        if right and store.card_stats(q.template) is None:
            continue  # a right call of an idea never missed: not a new idea to schedule
        store.record_answer(q, fb.call, correct=right, source=DRILL_SOURCE)
        n += 1
    return n


# --- a match ----------------------------------------------------------------------------------

def _scored(result: HandResult, table: Table) -> Outcome:
    """An outcome that carries only a hand's result (what ``Match.record`` reads)."""
    zero = (0,) * table.num_teams
    return Outcome(result.contract, result, zero, zero, 0, 0)

@dataclass(frozen=True)
class MatchHand:
    """One scored hand of a match."""

    key: str
    contract: str
    declarer: int
    points: int
    reason: str
    score: int          # for the declarers
    totals: tuple[int, ...]


@dataclass
class Match:
    """Several hands under a match format (``chips``, ``race`` or ``games`` with their usual
    options); a hand of one key is counted once however often it is recorded."""

    format: str
    table: Table
    hands: list[MatchHand] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.format not in MATCH_FORMATS:
            raise PracticeError(f"unknown match format {self.format!r}: use {', '.join(MATCH_FORMATS)}")

    def _scoring(self):
        m = new_match(self.format, self.table)
        for h in self.hands:
            m.record(self._result(h))
        return m

    def _result(self, h: MatchHand) -> HandResult:
        return HandResult(Contract.parse(h.contract, self.table, h.declarer), h.points, h.reason)

    def record(self, key: str, out: Outcome) -> bool:
        """Count a finished hand (once per key); False when it was counted before or the
        match is over."""
        if any(h.key == key for h in self.hands) or self.is_over:
            return False
        m = self._scoring()
        m.record(out.result)
        c = out.contract
        self.hands.append(MatchHand(key, str(c), c.declarer, out.result.declarer_points, out.result.reason,
                                    out.result.score, tuple(m.totals)))
        return True

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(self._scoring().totals)

    @property
    def is_over(self) -> bool:
        return self._scoring().is_over

    @property
    def winner(self) -> int | None:
        return self._scoring().winner

    def describe(self) -> str:
        """The format's rule in a few words."""
        m = new_match(self.format, self.table)
        return {"chips": f"each team starts with {getattr(m, 'chips', 0)} chips; the stake moves between"
                         " the teams and a team out of chips loses",
                "race": f"each hand's score goes to the declaring team; the first to {getattr(m, 'goal', 0)} wins",
                "games": f"{getattr(m, 'games', 0)} games; a failed contract's stake goes to the other team;"
                         " the most match points wins"}[self.format]

    def to_dict(self) -> dict:
        t = self.table
        return {"format": self.format, "players": t.players, "deck": t.deck, "teams": t.teams,
                "hands": [{**asdict(h), "totals": list(h.totals)} for h in self.hands]}

    def to_text(self) -> str:
        """The match in a few words for a page's address: the format, then each hand as
        key.contract.declarer.points.reason (the scores follow from these)."""
        return " ".join([self.format, *(f"{h.key}.{h.contract}.{h.declarer}.{h.points}."
                                        f"{RESULT_REASONS.index(h.reason)}" for h in self.hands)])

    @classmethod
    def from_text(cls, text: str, table: Table) -> Match:
        """A match at ``table`` from ``to_text``; PracticeError when the text does not read
        (each hand is scored again, so the totals cannot disagree with the hands)."""
        fmt, *hands = text.split() or [""]
        m = cls(fmt, table)
        for item in hands:
            try:
                key, contract, declarer, points, reason = item.split(".")
                c = Contract.parse(contract, table, int(declarer))
                result = HandResult(c, int(points), RESULT_REASONS[int(reason)])
            except (ValueError, IndexError, FiftySixError) as e:
                raise PracticeError(f"a hand of the match cannot be read ({item[:40]!r}): {e}") from None
            wrong = result.reason in ("made", "failed") and (result.reason == "made") != (
                result.declarer_points >= c.value)
            if wrong or not 0 <= result.declarer_points <= 56 or not m.record(key, _scored(result, table)):
                raise PracticeError(f"a hand of the match cannot be read ({item[:40]!r})")
        return m

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Match:
        try:
            table = Table(int(d["players"]), int(d["deck"]), str(d["teams"]))
            m = cls(str(d["format"]), table)
            for h in d["hands"]:
                mh = MatchHand(str(h["key"]), str(h["contract"]), int(h["declarer"]), int(h["points"]),
                               str(h["reason"]), int(h["score"]), tuple(int(x) for x in h["totals"]))
                m._result(mh)
                m.hands.append(mh)
            m._scoring()
        except (KeyError, TypeError, ValueError) as e:
            raise PracticeError(f"the stored match cannot be read: {e!r}") from None
        return m


__all__ = [
    "LEADER",
    "MODES",
    "PLAY_OUT",
    "BestContract",
    "BotMove",
    "CardCost",
    "DoubleDummy",
    "Feedback",
    "Match",
    "MatchHand",
    "Outcome",
    "PaletteCall",
    "PracticeError",
    "PracticeHand",
    "advance",
    "auction",
    "bots_to_call",
    "bots_to_play",
    "can_play_out",
    "card_cost",
    "card_hint",
    "check",
    "contract",
    "decided_at",
    "double_dummy",
    "drill_answers",
    "hint",
    "legal_cards",
    "new_hand",
    "outcome",
    "palette",
    "partners_know",
    "phase",
    "play_it_out",
    "play_state",
    "plays",
    "record_drills",
    "replay",
    "to_record",
    "your_call",
    "your_card",
    "your_moves",
    "your_turn",
]
