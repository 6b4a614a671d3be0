"""The practice table: one hand bid and played with the bots, the learner in one seat.

A ``PracticeTable`` is the hand's state (``fiftysix.hand.HandState``) plus the learner's
seat, the bots and what the table said: the bots' reasons and the feedback on each of the
learner's calls. It is held live (the Play page keeps it in the session); its only
serialized form is the learner's moves (``your_moves``), which with the seed give the whole
table back (``replayed``), as the bots choose only from the seed and what their seat knows.

* ``bots_to_call`` / ``bots_to_play`` let the bots move until it is the learner's turn;
  ``your_call`` makes the learner's call and returns its ``Feedback`` (the promise kept or
  the parts broken, the system bot's call and its reason, what partners now know);
  ``your_card`` plays the learner's card (only a legal one);
* the play stops when the contract is decided (RULES.md 4); ``play_it_out`` plays on;
* ``outcome`` scores it, ``double_dummy`` gives the value at the start and each team's best
  contract, ``to_record`` writes it in the hand-record format; ``record_drills`` stores the
  learner's calls as drill answers. A match of several hands is ``fiftysix.scoring.Match``.
"""
from __future__ import annotations

import hashlib
from collections.abc import Collection
from dataclasses import dataclass, field

from fiftysix.analyser.dealer import View, auction_promises
from fiftysix.analyser.solver import BudgetExceeded, Position, card_values, declarer_table, max_points
from fiftysix.bidding import Auction, format_call, parse_call
from fiftysix.bidding.calls import Call
from fiftysix.bidding.meaning import fits, promise_text
from fiftysix.bots import BIDDING_BOTS, DEFAULT_BOT, MAX_CALLS, BiddingBot, CardBot, get_bot
from fiftysix.bots.worth import bid_claims
from fiftysix.cards import Card, Deal, Table, random_deal
from fiftysix.constraints import TRUE
from fiftysix.drills.generate import family_of
from fiftysix.drills.questions import Context, Question
from fiftysix.errors import FiftySixError, IllegalCallError, IllegalPlayError
from fiftysix.hand import AUCTION, OVER, PLAY, PLAY_ON, HandState, format_move
from fiftysix.play import PlayState, Trick
from fiftysix.records import Record, record_of
from fiftysix.scoring import MAX_BID, MIN_BID, Contract, HandResult, stake

MODES = ("learning", "practice")
"""``learning`` shows every hand and offers hints before the learner calls; ``practice``
shows only the learner's hand."""
IDEA_TYPE = "your-call"
"""The drill question type a call made at the table counts as."""
DRILL_SOURCE = "practice table"
"""The ``source`` of the answers the table stores (the Progress page groups by it)."""
PLAY_OUT = PLAY_ON
"""In ``your_moves``: the learner chose to play on after the contract was decided."""


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


@dataclass(frozen=True)
class CardCost:
    """What one of the learner's cards cost with best play (double-dummy): the points it
    gave away to the learner's team's best total, and the best cards there."""

    index: int
    card: str
    cost: int
    best: tuple[str, ...]


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


@dataclass(eq=False)
class PracticeTable:
    """One hand at the practice table. ``seed`` seeds the bots (and the deal when dealt at
    random); ``source`` says in words where the deal came from."""

    state: HandState
    seat: int
    seed: int = 0
    bot: str = DEFAULT_BOT
    mode: str = "learning"
    source: str = ""
    call_reasons: list[str] = field(default_factory=list)  # the bot's reason; "" for the learner's calls
    card_reasons: list[str] = field(default_factory=list)
    feedback: list[Feedback] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.table.check_seat(self.seat)
        if self.mode not in MODES:
            raise PracticeError(f"unknown mode {self.mode!r}: use {' or '.join(MODES)}")
        if self.bot not in BIDDING_BOTS:
            raise PracticeError(f"unknown bot {self.bot!r}: use {', '.join(sorted(BIDDING_BOTS))}")
        if not self.deal.is_complete:
            raise PracticeError("the deal must be a full deal for this table")

    # --- what the table is --------------------------------------------------------------------

    @property
    def table(self) -> Table:
        return self.state.table

    @property
    def deal(self) -> Deal:
        return self.state.deal

    @property
    def system(self) -> str:
        return self.state.system.name

    @property
    def hand(self):
        """The learner's own cards as dealt."""
        return self.deal.hand(self.seat)

    @property
    def key(self) -> str:
        """What makes this hand this hand (table, system, seat, deal, seed, bot): a match
        counts a hand of one key once."""
        return table_key(self.system, self.seat, self.deal, self.seed, self.bot)

    @property
    def your_team(self) -> int:
        return self.table.team_of(self.seat)

    @property
    def calls(self) -> list[str]:
        return [format_call(c) for c in self.state.calls]

    @property
    def cards(self) -> list[str]:
        return [str(c) for c in self.state.cards]

    @property
    def phase(self) -> str:
        """``auction``, ``play`` or ``over`` (the hand's phases)."""
        return self.state.phase

    @property
    def your_turn(self) -> bool:
        """Is the learner to call or to play now?"""
        return self.state.to_move == self.seat

    @property
    def contract(self) -> Contract | None:
        return self.state.contract

    @property
    def auction(self) -> Auction:
        """The hand's auction (a practice table always bids one)."""
        auction = self.state.auction
        assert auction is not None
        return auction

    @property
    def play(self) -> PlayState:
        """The hand's play (only asked for once the auction has a contract)."""
        play = self.state.play
        assert play is not None
        return play

    @property
    def decided_contract(self) -> Contract:
        """The contract (only asked for once the auction has one; ``contract`` may be None)."""
        contract = self.state.contract
        assert contract is not None
        return contract

    def _to_move(self) -> int:
        """The seat to call or play (only asked for while the hand goes on)."""
        seat = self.state.to_move
        assert seat is not None
        return seat

    def bidder(self) -> BiddingBot:
        """The system's bidding bot, made afresh: every bot's seat calls with it, and it gives the
        hints and the feedback. Its calls depend only on the seed, the seat and the auction, so a
        new one calls as the last did; the table does not keep it (its solvers' tables are
        megabytes, and a server holds a table for every learner)."""
        return get_bot(self.bot, self.seed)

    # --- the auction ----------------------------------------------------------------------------

    def bots_to_call(self, stop=None) -> list[BotMove]:
        """The bots call in turn until the learner is to call or the auction is over (or
        ``stop()`` says so between two calls)."""
        made: list[BotMove] = []
        bidder = None
        for _ in range(MAX_CALLS):
            if self.phase != AUCTION or self.your_turn or (stop is not None and stop()):
                return made
            bidder = bidder or self.bidder()
            seat = self._to_move()
            choice = bidder.choose(self.auction, self.deal.hand(seat))
            self.state.apply(choice.call)
            self.call_reasons.append(choice.reason)
            made.append(BotMove(len(self.call_reasons), seat, format_call(choice.call), choice.reason))
        raise PracticeError(f"the auction did not end after {MAX_CALLS} calls")

    def _auction_for_you(self) -> Auction:
        if self.phase != AUCTION or not self.your_turn:
            raise PracticeError("it is not your turn to call")
        return self.auction

    def palette(self) -> list[PaletteCall]:
        """Every legal call for the learner now (empty when it is not the learner's turn)."""
        if self.phase != AUCTION or not self.your_turn:
            return []
        out = []
        for c, r in self.auction.palette_readings(self.hand):
            m = r.meaning
            out.append(PaletteCall(format_call(c), m.label, m.sentence, promise_text(m), fits(self.hand, m).ok,
                                   r.value, m.promises_nothing))
        return out

    def hint(self) -> BotMove:
        """The system bot's call for the learner's hand now, with its reason."""
        choice = self.bidder().choose(self._auction_for_you(), self.hand)
        return BotMove(len(self.call_reasons) + 1, self.seat, format_call(choice.call), choice.reason)

    def your_call(self, call: str) -> Feedback:
        """Make the learner's call (IllegalCallError, table unchanged, when it is not legal now)
        and say what it promised, whether the hand keeps it, and what the system's bot calls."""
        if self.phase != AUCTION:
            raise IllegalCallError("the auction is over")
        a = self.auction
        if not self.your_turn:
            raise IllegalCallError(f"it is seat {a.to_move}'s turn to call, not yours (seat {self.seat})")
        try:
            c = parse_call(call)
        except FiftySixError as e:
            raise IllegalCallError(str(e)) from None
        v = a.verdict(c, self.hand)  # raises IllegalCallError for an illegal call
        bot = self.bidder().choose(a, self.hand)
        self.state.apply(c)
        m = v.meaning
        fb = Feedback(len(a.calls), self.seat, format_call(c), m.label, m.sentence, promise_text(m), v.kept,
                      v.broken, tuple(format_call(x) for x in v.truthful), format_call(bot.call), bot.reason,
                      partners_know(a, self.seat), family_of(bot.call))
        self.call_reasons.append("")
        self.feedback.append(fb)
        return fb

    # --- the play -------------------------------------------------------------------------------

    def legal_cards(self) -> tuple[Card, ...]:
        """The cards the learner may play now (none when it is not the learner's turn)."""
        if self.phase != PLAY or not self.your_turn:
            return ()
        return self.play.legal_cards()

    def your_card(self, card: str) -> Trick | None:
        """Play the learner's card; IllegalPlayError (table unchanged) when it is not the
        learner's turn or the card is not legal. Returns the trick if the card completed one."""
        if self.phase != PLAY:
            raise IllegalPlayError("the auction is not over yet" if self.phase == AUCTION else
                                   f"the hand is over ({self.play.stop_reason})")
        if not self.your_turn:
            raise IllegalPlayError(f"it is seat {self.state.to_move}'s turn to play, not yours (seat {self.seat})")
        try:
            k = Card.parse(card)
        except FiftySixError as e:
            raise IllegalPlayError(str(e)) from None
        play = self.play
        done = len(play.tricks)
        self.state.apply(k)  # raises IllegalPlayError for a card not held or not following suit
        self.card_reasons.append("")
        return play.tricks[-1] if len(play.tricks) > done else None

    def _view(self, seat: int) -> View:
        a = self.auction
        return View(self.table, seat, self.deal.hand(seat), {}, self.play.plays, self.state.leader,
                    auction_promises(a))

    def _bot_card(self, bot: CardBot, seat: int) -> tuple[Card, str]:
        """The card bot's card for ``seat``, chosen from that seat's view (its hand, the calls'
        promises, the cards played). Where the promises leave no deal to draw (a bluff the
        dealer cannot set aside), it plays its cheapest legal card and says so."""
        legal = self.play.legal_cards()
        try:
            ch = bot.choose(self._view(seat), self.decided_contract, bid_claims(self.auction, seat))
            if ch.card in legal:
                return ch.card, ch.reason
        except FiftySixError:
            pass
        card = min(legal, key=lambda k: (k.points, -k.rank, int(k)))
        return card, ("its cheapest legal card: no deal fits both its own cards and what the calls promised (a call "
                      "broke its promise), so it had no deals to try its cards on")

    def bots_to_play(self, stop=None) -> list[BotMove]:
        """The card bots play in turn until the learner is to play or the hand is over (or
        ``stop()`` says so between two cards)."""
        made: list[BotMove] = []
        bot = None
        while self.phase == PLAY and not self.your_turn and not (stop is not None and stop()):
            bot = bot or CardBot(self.seed)  # made afresh, as the bidder (its choices depend on the seed and view)
            seat = self._to_move()
            card, reason = self._bot_card(bot, seat)
            self.state.apply(card)
            self.card_reasons.append(reason)
            made.append(BotMove(len(self.card_reasons), seat, str(card), reason))
        return made

    def card_hint(self) -> BotMove:
        """The card bot's card for the learner now (from the learner's own view), with its reason."""
        if self.phase != PLAY or not self.your_turn:
            raise PracticeError("it is not your turn to play")
        card, reason = self._bot_card(CardBot(self.seed), self.seat)
        return BotMove(len(self.card_reasons) + 1, self.seat, str(card), reason)

    def card_cost(self, index: int, max_seconds: float | None = None, stop=None) -> CardCost | None:
        """The cost of card ``index`` (from 1) for the team that played it, double-dummy; None
        when the search runs past ``max_seconds``."""
        c, cards = self.contract, self.state.cards
        if c is None or not 1 <= index <= len(cards):
            raise PracticeError(f"there is no card {index} in this play")
        pos = Position.from_deal(self.deal, c.trump, self.state.leader, cards[:index - 1])
        team = self.table.team_of(self.play.plays[index - 1][0])
        try:
            values = card_values(pos, side=team, max_seconds=max_seconds, stop=stop)
        except BudgetExceeded:
            return None
        card = cards[index - 1]
        top = max(values.values())
        return CardCost(index, str(card), top - values[card], tuple(str(k) for k, v in values.items() if v == top))

    @property
    def can_play_out(self) -> bool:
        """The play stopped because the contract was decided, with cards still to play."""
        return self.state.can_play_on

    @property
    def played_out(self) -> bool:
        """The learner chose to play on after the contract was decided."""
        return PLAY_ON in self.state.moves

    def play_it_out(self) -> None:
        """Go on playing after the contract is decided, to the last card."""
        if not self.can_play_out:
            raise PracticeError("the play has not stopped early: there is nothing to play out")
        self.state.play_on()

    def advance(self, stop=None) -> list[BotMove]:
        """The bots call, or play, until the learner's turn or the end of the hand; ``stop()``,
        looked at between two moves (each bounded by the bots' own budgets), ends it sooner."""
        return self.bots_to_call(stop) + self.bots_to_play(stop)

    # --- the learner's moves: the table's serialized form ---------------------------------------

    def your_moves(self) -> list[str]:
        """The learner's own moves in order: calls, cards, and ``PLAY_OUT`` where the learner chose
        to play on. With the seed they give the whole table back (``replayed``)."""
        calls = iter(self.auction.calls)
        plays = iter(self.state.play.plays if self.state.play is not None else ())
        out = []
        for m in self.state.moves:
            if m == PLAY_ON:
                out.append(PLAY_OUT)
            elif (next(calls).seat if isinstance(m, Call) else next(plays)[0]) == self.seat:
                out.append(format_move(m))
        return out

    def fresh(self) -> PracticeTable:
        """The same table (deal, seat, seed, bots, mode) before any move."""
        return PracticeTable(HandState(self.deal, self.state.system, self.state.options), self.seat, self.seed,
                             self.bot, self.mode, self.source)

    def replayed(self, moves: list[str]) -> PracticeTable:
        """The same table with the learner's ``moves`` made again, the bots moving between them;
        PracticeError (or an illegal-move error) when the moves do not fit the hand."""
        t = self.fresh()
        for move in moves:
            t.advance()
            if move == PLAY_OUT:
                t.play_it_out()
            elif t.phase == AUCTION:
                t.your_call(move)
            elif t.phase == PLAY:
                t.your_card(move)
            else:
                raise PracticeError(f"{move}: the hand is already over")
        t.advance()
        return t

    # --- after the hand -------------------------------------------------------------------------

    def outcome(self) -> Outcome:
        """Score the hand once it is over (PracticeError while it goes on)."""
        r = self.state.result
        if self.phase != OVER or r is None:
            raise PracticeError("the hand is not over yet")
        play = self.play
        end = tuple(play.points)
        decided = play.decided_points or end
        return Outcome(r.contract, r, decided, end, self.your_team, self.state.score_for(self.your_team))

    def double_dummy(self, max_seconds: float | None = None, stop=None) -> DoubleDummy:
        """The double-dummy facts of the deal: the declarers' total in the contract played (seat
        1 leading) and each team's best contract; a value the budget did not reach is None."""
        c = self.contract
        if c is None:
            raise PracticeError("the auction is not over yet")
        leader = self.state.leader
        try:
            total = max_points(Position.from_deal(self.deal, c.trump, leader), side=c.team,
                               max_seconds=max_seconds, stop=stop)[c.team]
        except BudgetExceeded:
            total = None
        best = []
        for row in declarer_table(self.deal, (leader,), max_seconds=max_seconds, stop=stop):
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

    def to_record(self, event: str = "Practice table", date: str = "", player: str = "you") -> Record:
        """The hand in the project's record format: the auction, the play and the result (the
        declarers' points when the contract was decided). A hand played out after the contract
        was decided keeps every card, marked ``[PlayedOut "yes"]``; its result stays the points
        at the decision, and a note gives the declarers' points at the end."""
        if self.phase != OVER:
            raise PracticeError("the hand is not over yet: finish it, then save it")
        names = [f"{self.bot} bot" for _ in self.table.seats]
        names[self.seat - 1] = (player or "you").replace(";", ",").strip() or "you"
        notes = [f"Practice table, {self.source or 'seed ' + str(self.seed)}; {self.bot} bots seeded {self.seed}."]
        if self.state.played_on:
            at, c = self.state.decided_at, self.decided_contract
            notes.append(f"Played out after the contract was decided: {' '.join(self.cards[at:])}; "
                         f"the declarers ended with {self.play.points[c.team]} points.")
        return record_of(self.state, event=event, date=date, players=names, notes=notes)

    def drill_answers(self) -> list[tuple[Question, bool]]:
        """The learner's calls as answers to "your call" questions: (question, right?). A call
        is right when it keeps its promise and is the call the system's bot makes; the idea
        drilled is the family of the bot's call, as in the Drill page's "your call" questions."""
        t, calls = self.table, self.calls
        out = []
        for fb in self.feedback:
            ctx = Context(self.system, t.players, t.deck, t.teams, self.seat, " ".join(calls[:fb.index - 1]),
                          str(self.hand))
            choices = tuple(dict.fromkeys((fb.bot_call, fb.call) + fb.truthful[:2]))
            why = [f"The system's bot calls {fb.bot_call}: {fb.bot_reason}."]
            if fb.kept is False:
                why.append(f"{fb.call} promised {fb.promise}; your hand breaks: {'; '.join(fb.broken)}.")
            q = Question(id=f"practice-{self.key}-c{fb.index}", type=IDEA_TYPE, context=ctx,
                         prompt=f"You are seat {self.seat}, to call. What does the system bid with your hand?",
                         choices=choices, answers=(fb.bot_call,), explanation=" ".join(why),
                         tags=("practice", self.system, fb.family), preferred=fb.bot_call, family=fb.family)
            out.append((q, fb.right))
        return out

    def record_drills(self, store, only: Collection[int] | None = None) -> int:
        """Store the learner's calls (those with a call number in ``only``, or all) in a
        ``drills.progress.ProgressStore``: every call that broke its promise or differed from the
        bot's (it becomes an idea that comes back in the Drill page), and the right ones of ideas
        already being drilled (a review). Returns how many were stored."""
        n = 0
        for fb, (q, right) in zip(self.feedback, self.drill_answers()):
            if only is not None and fb.index not in only:
                continue
            if right and store.card_stats(q.template) is None:
                continue  # a right call of an idea never missed: not a new idea to schedule
            store.record_answer(q, fb.call, correct=right, source=DRILL_SOURCE)
            n += 1
        return n


def new_table(table: Table, system: str, seat: int, seed: int = 0, deal: Deal | None = None,
              bot: str = DEFAULT_BOT, mode: str = "learning", source: str = "") -> PracticeTable:
    """A fresh table: ``deal`` as given, or dealt at random from ``seed`` (an unknown system is
    refused by name)."""
    if deal is None:
        deal = random_deal(table, seed=seed)
        source = source or f"seed {seed}"
    elif deal.table != table:
        raise PracticeError("the deal must be a full deal for this table")
    return PracticeTable(HandState(deal, system), seat, int(seed), str(bot).strip().lower(), mode, source)


def table_key(system: str, seat: int, deal: Deal, seed: int, bot: str) -> str:
    """The key of the table these would make (``PracticeTable.key``), without making it."""
    t = deal.table
    text = f"{t.players}/{t.deck}/{t.teams}|{system}|{seat}|{deal}|{seed}|{str(bot).strip().lower()}"
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def partners_know(a: Auction, seat: int) -> str:
    """Everything ``seat``'s calls have promised so far, in words."""
    c = a.seat_constraints()[seat]
    return "nothing yet: your calls so far promise nothing about your hand" if c == TRUE else c.describe()


__all__ = ["MODES", "PLAY_OUT", "BestContract", "BotMove", "CardCost", "DoubleDummy", "Feedback", "Outcome",
           "PaletteCall", "PracticeError", "PracticeTable", "new_table", "partners_know", "table_key"]
