"""Graded play problems: *find the card* and *the opening lead*, made and checked by the engine.

* ``find-card`` (every hand shown): a position of a hand where exactly one card, or one group
  of equivalent cards, keeps the contract (declarers to play) or beats it (defenders to
  play) against any play by the other side, double-dummy. Every legal card's value comes
  from the solver: a wrong card's cost is what it gives away.
* ``opening-lead`` (the leader's hand and the auction only): each lead is scored over deals
  consistent with what the leader knows (``analyser.dealer``) by whether the contract makes
  double-dummy after it; every lead within ``LEAD_MARGIN`` of the best lead's rate is right.

A problem is a ``Question`` (type ``find-card`` or ``opening-lead``) whose ``data`` holds
everything needed to show and check it: the deal, the contract, the cards played before,
each card's value (or each lead's rate and the deals it was scored on), its level. So a
bank of problems travels in every bank format, and ``verify`` re-solves one from its own
data. The level (1-5) grows with the tricks left, the choices that look alike and how far
the right card is from the obvious one (``level_for``).
"""
from __future__ import annotations

import copy
import hashlib
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from fiftysix.analyser.dealer import Dealer, Promise, View, auction_promises, counts_to_deal
from fiftysix.analyser.encode import card_bit, known_after
from fiftysix.analyser.pool import Worker
from fiftysix.analyser.solver import (
    BudgetExceeded,
    Deadline,
    Position,
    Solver,
    card_values,
    default_solver,
    reaches,
    solve,
    solver_pool,
)
from fiftysix.bidding import Auction
from fiftysix.cards import Card, Deal, Hand, Table, format_trump
from fiftysix.drills.questions import PROBLEM_TYPES, Context, Question
from fiftysix.errors import FiftySixError
from fiftysix.play import PlayState, legal_cards, trick_winner
from fiftysix.records import Record
from fiftysix.scoring import Contract

FIND_CARD, OPENING_LEAD = PROBLEM_TYPES
LEVELS = (1, 2, 3, 4, 5)
LEAD_MARGIN = 0.10
"""An opening lead is right when its rate (of beating the contract, or making it for a leader
of the declaring side) is at most this far below the best lead's."""
LEAD_DEALS = 40
"""Deals an opening lead problem is scored on (the same deals for every lead)."""
LEAD_SPREAD = 2 * LEAD_MARGIN
"""An opening lead problem needs a lead this much worse than the best: else every lead is about
as good and there is nothing to find."""
LEVEL_OF_SCORE = (1, 2, 2, 3, 3, 4, 5, 5)
"""The level of each difficulty score 0..7 (``level_for``)."""
LEAD_TRICKS = 3
"""An opening lead is one card chosen with the whole hand ahead, its consequences scored by the
simulation: it counts as a position with this many tricks left."""


class ProblemError(FiftySixError):
    """A problem that cannot be made or read (the message says why)."""


# --- what a position offers ----------------------------------------------------------------------

def card_groups(pos: Position) -> list[tuple[Card, ...]]:
    """The legal cards of the seat to move, in groups of equivalent cards: cards of one suit
    worth the same points with no card between them (nor a copy of either) anywhere else
    still in play, so that whichever of them is played, every trick goes the same way."""
    mover = pos.to_move
    elsewhere: list[Card] = [c for s, h in enumerate(pos.hands, start=1) if s != mover for c in h]
    elsewhere += [c for _, c in pos.current]
    groups: list[list[Card]] = []
    for card in sorted(pos.legal_cards(), key=lambda c: (c.suit, c.rank)):
        if groups:
            last = groups[-1][-1]
            if (last.suit == card.suit and last.points == card.points
                    and not any(o.suit == card.suit and last.rank <= o.rank <= card.rank for o in elsewhere)):
                groups[-1].append(card)
                continue
        groups.append([card])
    return [tuple(g) for g in groups]


def obvious_card(pos: Position) -> Card:
    """The card a beginner reaches for: on lead, the top card of the longest suit; following,
    points onto a trick the partners are winning, else the lowest card that wins it, else the
    cheapest card. The level counts how far the right card is from it."""
    hand = pos.hands[pos.to_move - 1]
    legal = pos.legal_cards()
    if not pos.current:
        longest = max(range(4), key=lambda s: (hand.suit_length(s), -min((c.rank for c in hand.suit_cards(s)),
                                                                          default=9)))
        return min(hand.suit_cards(longest), key=lambda c: c.rank)
    cards = [c for _, c in pos.current]
    table = pos.table
    winner_seat = pos.current[trick_winner(cards, pos.trump)][0]
    if table.team_of(winner_seat) == table.team_of(pos.to_move):
        return max(legal, key=lambda c: (c.points, -c.rank))
    winning = [c for c in legal if trick_winner(cards + [c], pos.trump) == len(cards)]
    if winning:
        return max(winning, key=lambda c: c.rank)  # the lowest winner (rank 0 is the strongest)
    return min(legal, key=lambda c: (c.points, -c.rank))


def distance(obvious: Card, right: Sequence[Card]) -> int:
    """0: the obvious card is right; 1: a right card is in its suit; 2: the right cards lie elsewhere."""
    if obvious in right:
        return 0
    return 1 if any(c.suit == obvious.suit for c in right) else 2


def level_for(tricks_left: int, groups: int, far: int) -> int:
    """The level 1-5 of a problem: tricks left (1-2, 3-4, 5-6, 7 or more), the choices once
    equivalent cards count as one (2, 3-4, 5 or more) and the distance from the obvious card
    (0-2) add up to a score 0..7 (``LEVEL_OF_SCORE``). An opening lead has every trick left."""
    t = min(3, max(0, (tricks_left - 1) // 2))
    g = 0 if groups <= 2 else 1 if groups <= 4 else 2
    return LEVEL_OF_SCORE[t + g + max(0, min(2, far))]


def tricks_left(pos: Position) -> int:
    """Tricks still to play, the one in progress included."""
    return max(len(h) for h in pos.hands)


def levels_at(tricks: int) -> set[int]:
    """The levels a find-the-card problem with ``tricks`` left can have (``level_for`` over
    every number of choices and distance)."""
    return {level_for(tricks, groups, far) for groups in (2, 3, 5) for far in (0, 1, 2)}


LEAD_LEVELS = tuple(sorted({level_for(LEAD_TRICKS, groups, far) for groups in (1, 3, 5) for far in (0, 1, 2)}))
"""The levels an opening lead problem can have."""


# --- the hand a problem comes from -------------------------------------------------------------

def _auction_text(record: Record) -> str:
    return " ".join(n.token for n in record.auction)


def _state(deal: Deal, contract: Contract, leader: int, won: Sequence[int] | None, played: Sequence[Card]) -> PlayState:
    state = PlayState(deal, contract.trump, leader=leader, early_stop=False, points=list(won or ()))
    for c in played:
        state.play(c)
    return state


def _fork(state: PlayState) -> PlayState:
    """A copy of a play state that plays on without changing the original."""
    new = copy.copy(state)
    new.hands, new.tricks, new.current, new.points = (list(state.hands), list(state.tricks), list(state.current),
                                                      list(state.points))
    return new


def _problem_id(prefix: str, *parts: object) -> str:
    return f"{prefix}-" + hashlib.sha256("|".join(str(p) for p in parts).encode()).hexdigest()[:12]


def _contract_words(table: Table, contract: Contract) -> str:
    trump = "no-trump" if contract.trump is None else f"{format_trump(contract.trump)} trumps"
    return f"{contract} ({trump}) by seat {contract.declarer}, {table.team_name(contract.team)}"


def _source(record: Record) -> str:
    return record.event or "a hand entered"


def _played_text(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in cards)


# --- find the card ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Budget:
    """How long the solver may take: ``per_position`` seconds for each position tried, the
    whole search ends at ``deadline`` (a ``Deadline``), ``stop()`` True cancels it."""

    per_position: float | None = None
    deadline: Deadline | None = None
    stop: Callable[[], bool] | None = None

    def seconds(self) -> float | None:
        left = self.deadline.left() if self.deadline is not None else None  # BudgetExceeded once spent
        if left is None:
            return self.per_position
        return left if self.per_position is None else min(left, self.per_position)


def find_card_at(record: Record, k: int, budget: Budget = Budget(), solver: Solver | None = None,
                 line_seconds: float | None = None) -> Question | None:
    """The find-the-card problem at the position after the record's first ``k`` cards, or None
    when that position is not one (one card, or several kinds of card, keep the target; or
    none does). BudgetExceeded when the search runs past ``budget``."""
    contract = record.contract
    if contract is None:
        raise ProblemError("the hand has no contract: a play problem needs one")
    state = _state(record.deal, contract, record.leader, record.won, record.cards[:k])
    return _find_card(record, k, state, budget, solver, line_seconds)


def _reaches(solver: Solver, enc, side: int, target: int, budget: Budget) -> bool:
    """Does ``side`` reach ``target`` points in all from the encoded position ``enc``?"""
    need = target - int(enc.won[side])
    if need <= 0:
        return True
    if need > enc.points_left():
        return False
    return solver.probe(enc, side, need, max_seconds=budget.seconds(), stop=budget.stop)


def _find_card(record: Record, k: int, state: PlayState, budget: Budget, solver: Solver | None,
               line_seconds: float | None) -> Question | None:
    contract = record.contract
    assert contract is not None
    if state.is_over or state.cards_left == 0:
        return None
    pos = Position.from_state(state)
    groups = card_groups(pos)
    if len(groups) < 2:
        return None
    s = solver or default_solver()
    side, target = contract.team, contract.value
    mine = pos.table.team_of(pos.to_move) == side
    enc = pos.encoded()
    if _reaches(s, enc, side, target, budget) != mine:
        return None  # the mover's side cannot get there whatever it plays
    good = []
    for g in groups:
        if _reaches(s, enc.play(card_bit(g[0])), side, target, budget) == mine:
            good.append(g)
            if len(good) > 1:
                return None
    if len(good) != 1:
        return None
    values = card_values(pos, side, max_seconds=budget.seconds(), solver=s, stop=budget.stop)
    right = good[0]
    seconds = line_seconds if line_seconds is not None else budget.seconds()
    after = _fork(state)
    after.play(right[0])
    line = best_line(after, contract, s, seconds, budget.stop)
    return _find_card_question(record, k, pos, groups, right, values, line)


def best_line(state: PlayState, contract: Contract, solver: Solver, max_seconds: float | None = None,
              stop=None) -> list[Card]:
    """The play that follows ``state`` (which it plays on) with best play by every seat
    (double-dummy, the declarers' final points as the score) until the contract is decided;
    cut short, not wrong, where the time runs out."""
    clock = Deadline(max_seconds)
    side, target = contract.team, contract.value
    line: list[Card] = []
    try:
        while True:
            got = state.points[side]
            if state.cards_left == 0 or got >= target or got + state.points_out < target:
                return line
            pos = Position.from_state(state)
            values = clock.run(card_values, pos=pos, side=side, solver=solver, stop=stop)
            mine = pos.table.team_of(pos.to_move) == side
            best = max(values.values()) if mine else min(values.values())
            # among the best cards, the one a player would keep for last goes last: cheapest first
            card = min((c for c, v in values.items() if v == best), key=lambda c: (c.points, -c.rank))
            line.append(card)
            state.play(card)
    except BudgetExceeded:
        return line


def _find_card_question(record: Record, k: int, pos: Position, groups: list[tuple[Card, ...]],
                        right: tuple[Card, ...], values: Mapping[Card, int], line: list[Card]) -> Question:
    table, contract = pos.table, record.contract
    assert contract is not None
    side, target = contract.team, contract.value
    mover = pos.to_move
    mine = table.team_of(mover) == side
    got = pos.points[side]
    obvious = obvious_card(pos)
    far = distance(obvious, right)
    left = tricks_left(pos)
    level = level_for(left, len(groups), far)
    goal = ("keeps the contract whatever the defenders do" if mine
            else "beats the contract whatever the declarers do")
    prompt = (f"Every hand is shown. Seat {mover} to play ({'declarers' if mine else 'defenders'}); "
              f"the declarers have {got} of the {target} points they need, {left} trick(s) to go. "
              f"Which card {goal}?")
    best = max(values.values()) if mine else min(values.values())
    costs = {c: (best - v if mine else v - best) for c, v in values.items()}
    explanation = explain_find_card(table, contract, [str(c) for c in right], {str(c): v for c, v in values.items()},
                                    mover, _tricks_text([right[0]] + line, table.players - len(pos.current), table.players))
    played = list(record.cards[:k])
    hand = pos.hands[mover - 1].cards + tuple(c for s, c in pos.current if s == mover)
    dealt = record.deal.hand(mover) if record.deal.hand(mover) is not None else Hand(hand)
    q = Question(
        id=_problem_id("fc", table, record.deal, contract, record.leader, record.won, _played_text(played)),
        type=FIND_CARD,
        context=Context(record.system, table.players, table.deck, table.teams, mover, _auction_text(record),
                        str(dealt) if len(dealt) == table.hand_size else None),
        prompt=prompt,
        choices=tuple(str(c) for c in pos.legal_cards()),
        answers=tuple(str(c) for c in right),
        explanation=explanation,
        tags=("play problem", f"level {level}", f"{table.players} players"),
        preferred=str(right[0]),
        family=f"level-{level}",
        data={"level": level, "deal": str(record.deal), "leader": record.leader,
              "won": list(record.won) if record.won else [], "played": _played_text(played),
              "contract": str(contract), "declarer": contract.declarer, "target": target,
              "values": {str(c): v for c, v in values.items()}, "costs": {str(c): n for c, n in costs.items()},
              "line": _played_text(line), "tricks_left": left, "groups": len(groups), "obvious": str(obvious),
              "distance": far, "source": _source(record)})
    q.validate()
    return q


def _tricks_text(cards: Sequence[Card], first: int, players: int | None = None) -> str:
    """Cards in playing order with `` | `` between tricks (``first`` cards finish the current one)."""
    players = players or first
    out, i, size = [], 0, first
    while i < len(cards):
        out.append(" ".join(str(c) for c in cards[i:i + size]))
        i += size
        size = players
    return " | ".join(out)


def explain_find_card(table: Table, contract: Contract, right: Sequence[str], values: Mapping[str, int],
                      mover: int, line: str) -> str:
    """Why: the right card and the play that follows it (``line``), then what each wrong card costs."""
    side, target = contract.team, contract.value
    mine = table.team_of(mover) == side
    best = max(values.values()) if mine else min(values.values())
    first = " or ".join(right)
    out = [(f"{first}: with best play by everyone after it the declarers end with {best} points"
            f" (they need {target}).")]
    if line:
        out.append(f"The play from here: {line}.")
    for card, v in sorted(values.items(), key=lambda kv: (-abs(kv[1] - best), kv[0])):
        if card in right:
            continue
        cost = best - v if mine else v - best
        verdict = "fails" if v < target else "makes"
        out.append(f"{card} costs {cost} point(s): the declarers end with {v}, and the contract {verdict}.")
    return "\n".join(out)


def scan_record(record: Record, budget: Budget = Budget(), levels: Sequence[int] = LEVELS,
                positions: Sequence[int] | None = None, solver: Solver | None = None,
                on_position: Callable[[int, int], object] | None = None,
                line_seconds: float | None = None) -> list[Question]:
    """Every find-the-card problem of the wanted ``levels`` in the record's play (at each of
    ``positions``, cards played before it, in the order given; by default every position
    while the contract was open). A position whose search runs past ``budget.per_position``
    is skipped; the whole scan ends (with what it found) once ``budget.deadline`` has passed."""
    contract = record.contract
    if contract is None:
        raise ProblemError("the hand has no contract: a play problem needs one")
    states = _open_states(record)
    ks = list(states if positions is None else positions)
    found = []
    for i, k in enumerate(ks):
        if on_position is not None:
            on_position(i, len(ks))
        if k not in states:
            continue
        try:
            q = _find_card(record, k, _fork(states[k]), budget, solver, line_seconds)
        except BudgetExceeded:
            if budget.deadline is not None and budget.deadline.end is not None \
                    and time.perf_counter() >= budget.deadline.end:
                break
            continue
        if q is not None and q.data["level"] in levels:
            found.append(q)
    return found


def _open_states(record: Record) -> dict[int, PlayState]:
    """The play state after each number of the record's cards while the contract was open."""
    contract = record.contract
    assert contract is not None
    state = _state(record.deal, contract, record.leader, record.won, ())
    out = {}
    for k, card in enumerate(record.cards + (None,)):
        got = state.points[contract.team]
        if state.cards_left == 0 or got >= contract.value or got + state.points_out < contract.value:
            break
        out[k] = _fork(state)
        if card is not None:
            state.play(card)
    return out


def open_positions(record: Record) -> list[int]:
    """How many cards came before each position of the play while the contract was open (the
    contract's points still both reachable and not yet reached)."""
    return list(_open_states(record)) if record.contract is not None else []


def tricks_left_after(record: Record, k: int) -> int:
    """Tricks left (the one in progress included) once the record's first ``k`` cards are played."""
    return max(len(h) for h in record.deal.hands) - k // record.table.players


# --- the opening lead ---------------------------------------------------------------------------

def lead_view(record: Record) -> View:
    """What the opening leader knows: the hand and every call's promise."""
    table, leader = record.table, record.leader
    calls: tuple[Promise, ...] = ()
    if record.auction:
        a = Auction.parse(_auction_text(record), record.system, table)
        calls = auction_promises(a)
    return View(table, leader, record.deal.hand(leader), {}, (), leader, calls)


def lead_problem(record: Record, n: int = LEAD_DEALS, seed: int = 0, *, threads: int | None = None,
                 stop: Callable[[], bool] | None = None,
                 on_deal: Callable[[int, int], object] | None = None) -> Question | None:
    """The opening lead problem of the record's hand, scored on ``n`` deals drawn from what
    the leader knows (``seed``); None when one lead is about as good as another (no lead
    more than ``LEAD_SPREAD`` worse than the best) or every lead is right. BudgetExceeded
    when ``stop()`` ends it first (``LeadScoring`` keeps the deals done, to go on later)."""
    scoring = LeadScoring(record, n, seed)
    if not scoring.run(stop=stop, on_deal=on_deal, threads=threads):
        raise BudgetExceeded("the opening lead's simulation was stopped")
    return scoring.problem()


class LeadScoring:
    """The scoring of a hand's opening leads, deal by deal, so that it can stop and go on:
    ``n`` deals drawn from what the leader knows (``seed``), each solved after every lead
    (does the contract make double-dummy?), the deals done kept across ``run``s. The same
    deals and the same yes/no search as ``analyser.simulate.estimate`` with ``points=False``."""

    def __init__(self, record: Record, n: int = LEAD_DEALS, seed: int = 0) -> None:
        contract = record.contract
        if contract is None or not record.deal.is_complete or record.won:
            raise ProblemError("an opening lead problem needs a full deal with a contract")
        self.record, self.contract, self.n, self.seed = record, contract, n, seed
        self.view = lead_view(record)
        self.counts = Dealer(self.view).sample_counts(n, seed)
        self.leads = legal_cards(record.deal.hand(record.leader), None)
        known = known_after(record.table, contract.trump, (), record.leader)
        self._after = [known.then(int(c)) for c in self.leads]
        self.made: dict[int, tuple[bool, ...]] = {}
        """Deal index -> whether the contract makes after each lead (``leads``' order)."""
        self._lock = threading.Lock()  # one thread at a time (a page's search and one made ahead)

    @property
    def done(self) -> bool:
        return len(self.made) == self.n

    def _solve(self, w: Worker[Solver], i: int) -> tuple[bool, ...]:
        w.resource.clear()  # the deals share only the leader's hand: a table kept saves nothing
        side, target = self.contract.team, self.contract.value
        return tuple(reaches(k.encode(self.counts[i]), target, side, solver=w.resource, stop=w.halted)
                     for k in self._after)

    def run(self, stop: Callable[[], bool] | None = None, on_deal: Callable[[int, int], object] | None = None,
            threads: int | None = None, upto: int | None = None) -> bool:
        """Solve the deals not done yet (in the solver pool; only the first ``upto``, when given)
        until all are, or ``stop()``; True once they are. ``on_deal(done, n)`` as each comes in."""
        upto = self.n if upto is None else min(upto, self.n)
        while not self._lock.acquire(timeout=0.1):  # another thread scores this hand: wait for it
            if stop is not None and stop():
                return False
        try:
            todo = [i for i in range(upto) if i not in self.made]
            if todo:
                for item in solver_pool().run(self._solve, todo, threads=threads, stop=stop, wait=0.1):
                    if item is None:
                        continue
                    j, row = item
                    self.made[todo[j]] = row
                    if on_deal is not None:
                        on_deal(len(self.made), self.n)
            return all(i in self.made for i in range(upto))
        finally:
            self._lock.release()

    def guess(self) -> int | None:
        """The level of the problem the deals done so far would give (None: no problem): a
        guess at the level the whole scoring gives."""
        if not self.made:
            return None
        q = _lead_question(self.record, self.view, self.rates(), ["?"] * len(self.made), self.seed)
        return None if q is None else level_of(q)

    def rates(self) -> dict[Card, float]:
        """Each lead's share of the deals done on which the contract makes after it."""
        k = max(1, len(self.made))
        return {c: sum(row[j] for row in self.made.values()) / k for j, c in enumerate(self.leads)}

    def problem(self) -> Question | None:
        """The problem once every deal is done (``lead_problem``)."""
        if not self.done:
            raise BudgetExceeded("the opening lead's simulation is not finished")
        layouts = [str(counts_to_deal(self.record.table, self.counts[i])) for i in range(self.n)]
        return _lead_question(self.record, self.view, self.rates(), layouts, self.seed)


def _lead_question(record: Record, view: View, rates: Mapping[Card, float], layouts: list[str],
                   seed: int) -> Question | None:
    table, contract = record.table, record.contract
    assert contract is not None
    leader = record.leader
    mine = table.team_of(leader) == contract.team
    ours = {c: (r if mine else 1 - r) for c, r in rates.items()}  # the leader's side's chance
    best = max(ours.values())
    right = tuple(c for c in ours if ours[c] >= best - LEAD_MARGIN - 1e-9)
    if best - min(ours.values()) < LEAD_SPREAD - 1e-9 or len(right) == len(ours):
        return None
    pos = Position(table, tuple(record.deal.hands), contract.trump, leader)
    groups = card_groups(pos)
    # the leads that look about as good: each group with a lead within LEAD_SPREAD of the best
    alike = [g for g in groups if any(ours[c] >= best - LEAD_SPREAD - 1e-9 for c in g)]
    obvious = obvious_card(pos)
    far = distance(obvious, right)
    level = level_for(LEAD_TRICKS, len(alike), far)
    goal = "make it" if mine else "beat it"
    prompt = (f"You are seat {leader}, on lead against {_contract_words(table, contract)}"
              if not mine else f"You are seat {leader}, on lead for your side's {_contract_words(table, contract)}")
    prompt += (f". You see only your hand and the auction. Which lead gives your side the best chance to {goal}? "
               f"(Leads within {LEAD_MARGIN:.0%} of the best count as right.)")
    order = [str(c) for c in sorted(ours, key=lambda c: (-ours[c], c.suit, c.rank))]
    explanation = "\n".join(
        [(f"Over {len(layouts)} deals that fit your hand and the auction, your side's chance to {goal} "
          f"after each lead (double-dummy):")]
        + [f"{c}: {ours[Card.parse(c)]:.0%}{'  (right)' if Card.parse(c) in right else ''}" for c in order])
    q = Question(
        id=_problem_id("ol", table, record.deal, contract, leader, record.auction),
        type=OPENING_LEAD,
        context=Context(record.system, table.players, table.deck, table.teams, leader, _auction_text(record),
                        str(record.deal.hand(leader))),
        prompt=prompt,
        choices=tuple(str(c) for c in pos.legal_cards()),
        answers=tuple(str(c) for c in right),
        explanation=explanation,
        tags=("play problem", f"level {level}", f"{table.players} players"),
        preferred=order[0],
        family=f"level-{level}",
        data={"level": level, "deal": str(record.deal), "leader": leader, "contract": str(contract),
              "declarer": contract.declarer, "target": contract.value,
              "rates": {str(c): round(r, 6) for c, r in rates.items()}, "side_rates": {str(c): round(r, 6)
                                                                                       for c, r in ours.items()},
              "margin": LEAD_MARGIN, "seed": seed, "layouts": layouts, "tricks_left": tricks_left(pos),
              "groups": len(alike), "obvious": str(obvious), "distance": far, "source": _source(record)})
    q.validate()
    return q


# --- reading a problem back, and checking it -----------------------------------------------------

def problem_contract(q: Question) -> Contract:
    """The contract a problem is played in."""
    table = q.context.table
    return Contract.parse(str(q.data["contract"]), table, int(q.data["declarer"]))


def problem_deal(q: Question) -> Deal:
    table = q.context.table
    return Deal.parse(str(q.data["deal"]), table, partial=bool(q.data.get("won")))


def problem_state(q: Question) -> PlayState:
    """The play state the problem stands at (the cards played before it, from its leader)."""
    played = [Card.parse(c) for c in str(q.data.get("played", "")).split()]
    return _state(problem_deal(q), problem_contract(q), int(q.data["leader"]), q.data.get("won") or None, played)


def position_lines(q: Question) -> list[str]:
    """A find-the-card problem's position in words, for a reader outside the app: the contract,
    every seat's cards left, the trick on the table and the points won (one line each)."""
    try:
        state = problem_state(q)
        contract = problem_contract(q)
    except (KeyError, TypeError, ValueError, FiftySixError) as e:
        return [f"(the position cannot be set up from the problem's data: {e})"]
    table = q.context.table
    out = [f"Contract: {_contract_words(table, contract)}"]
    out += [f"Seat {s}: {state.hands[s - 1]}" for s in table.seats]
    if state.current:
        out.append("On the table: " + ", ".join(f"seat {s} {c}" for s, c in state.current))
    out.append("Points won: " + ", ".join(f"{table.team_name(t)} {p}" for t, p in enumerate(state.points)))
    return out


def verify(q: Question, solver: Solver | None = None, max_seconds: float | None = None) -> list[str]:
    """What is wrong with a problem, re-solved from its own data (empty: it holds). A
    find-the-card problem: every right card keeps (beats) the contract, every other card
    fails to, the right cards are one group of equivalent cards, each stored value is the
    solver's. An opening lead: every lead re-solved on each stored deal gives the stored
    rates, and the right leads are exactly those within the margin of the best."""
    try:
        if q.type == FIND_CARD:
            return _verify_find_card(q, solver or default_solver(), max_seconds)
        if q.type == OPENING_LEAD:
            return _verify_lead(q, solver or default_solver(), max_seconds)
    except (KeyError, TypeError, ValueError) as e:
        return [f"its data cannot be read: {e!r}"]
    return [f"{q.type!r} is not a play problem"]


def _verify_find_card(q: Question, solver: Solver, max_seconds: float | None) -> list[str]:
    contract = problem_contract(q)
    pos = Position.from_state(problem_state(q))
    side, target = contract.team, contract.value
    mine = pos.table.team_of(pos.to_move) == side
    out = []
    if pos.to_move != q.context.seat:
        out.append(f"seat {pos.to_move} is to play, not seat {q.context.seat}")
    values = card_values(pos, side, solver=solver, max_seconds=max_seconds)
    keeps = {str(c) for c, v in values.items() if (v >= target) == mine}
    answers = set(q.answers)
    if set(q.choices) != {str(c) for c in values}:
        out.append(f"the choices {sorted(q.choices)} are not the legal cards {sorted(map(str, values))}")
    for a in sorted(answers - keeps):
        out.append(f"{a} is given as right but the declarers end with {values[Card.parse(a)]} (target {target})")
    for c in sorted(keeps - answers):
        out.append(f"{c} also {'keeps' if mine else 'beats'} the contract but is not among the answers")
    if not any(set(map(str, g)) == answers for g in card_groups(pos)):
        out.append(f"the right cards {sorted(answers)} are not one group of equivalent cards")
    stored = {k: int(v) for k, v in q.data["values"].items()}
    if stored != {str(c): v for c, v in values.items()}:
        out.append(f"the stored values {stored} differ from the solver's {({str(c): v for c, v in values.items()})}")
    return out


def consistency(q: Question) -> list[str]:
    """What is wrong with a problem's data without solving anything (quick enough for every
    page view): the position replays, the seat to play and its legal cards are the problem's,
    the right cards are one group of equivalent cards and exactly those the stored values say
    keep (beat) the contract (find-the-card), or exactly the leads within the margin of the
    stored rates (opening lead). ``verify`` re-solves it as well."""
    try:
        contract = problem_contract(q)
        if q.type == FIND_CARD:
            pos = Position.from_state(problem_state(q))
        else:
            pos = Position(q.context.table, tuple(problem_deal(q).hands), contract.trump, int(q.data["leader"]))
    except (KeyError, TypeError, ValueError, FiftySixError) as e:
        return [f"the position cannot be set up from its data: {e}"]
    out = []
    if pos.to_move != q.context.seat:
        out.append(f"seat {pos.to_move} is to play, not seat {q.context.seat}")
    legal = {str(c) for c in pos.legal_cards()}
    if set(q.choices) != legal:
        out.append(f"the choices {sorted(q.choices)} are not the legal cards {sorted(legal)}")
    answers = set(q.answers)
    if q.type == FIND_CARD:
        if not any(set(map(str, g)) == answers for g in card_groups(pos)):
            out.append(f"the right cards {sorted(answers)} are not one group of equivalent cards")
        try:
            values = {k: int(v) for k, v in q.data["values"].items()}
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            return out + [f"the cards' values cannot be read: {e!r}"]
        mine = pos.table.team_of(pos.to_move) == contract.team
        keeps = {c for c, v in values.items() if (v >= contract.value) == mine}
        if keeps != answers:
            out.append(f"by the stored values the right cards are {sorted(keeps)}, not {sorted(answers)}")
        return out
    try:
        rates = {k: float(v) for k, v in q.data["side_rates"].items()}
        margin = float(q.data.get("margin", LEAD_MARGIN))
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        return out + [f"the leads' rates cannot be read: {e!r}"]
    if set(rates) != legal:
        return out + ["the stored rates do not cover every lead"]
    best = max(rates.values())
    right = {c for c, r in rates.items() if r >= best - margin - 1e-9}
    if right != answers:
        out.append(f"the right leads {sorted(answers)} are not those within {margin:.0%} of the best {sorted(right)}")
    return out


def lead_rates(q: Question, solver: Solver, max_seconds: float | None = None) -> dict[str, float]:
    """Each lead's share of the problem's stored deals on which the contract makes after it."""
    contract = problem_contract(q)
    table, leader = q.context.table, int(q.data["leader"])
    layouts = [Deal.parse(t, table) for t in q.data["layouts"]]
    clock = Deadline(max_seconds)
    makes = {c: 0 for c in q.choices}
    for deal in layouts:
        if deal.hand(leader) != problem_deal(q).hand(leader):
            raise ProblemError("a stored deal gives the leader another hand")
        for c in makes:
            pos = Position.from_deal(deal, contract.trump, leader, [c])
            makes[c] += clock.run(solve, pos=pos, target=contract.value, side=contract.team, solver=solver)
    return {c: m / len(layouts) for c, m in makes.items()}


def _verify_lead(q: Question, solver: Solver, max_seconds: float | None) -> list[str]:
    contract = problem_contract(q)
    out = []
    rates = lead_rates(q, solver, max_seconds)
    stored = {k: float(v) for k, v in q.data["rates"].items()}
    for c, r in rates.items():
        if abs(stored.get(c, -1) - r) > 1e-6:
            out.append(f"lead {c}: the stored rate {stored.get(c)} is not the re-solved {r:.6f}")
    mine = q.context.table.team_of(int(q.data["leader"])) == contract.team
    ours = {c: (r if mine else 1 - r) for c, r in rates.items()}
    best = max(ours.values())
    margin = float(q.data.get("margin", LEAD_MARGIN))
    right = {c for c, r in ours.items() if r >= best - margin - 1e-9}
    for a in sorted(set(q.answers) - right):
        out.append(f"{a} is given as right but its rate {ours[a]:.0%} is more than {margin:.0%} below the best {best:.0%}")
    for c in sorted(right - set(q.answers)):
        out.append(f"{c} is within {margin:.0%} of the best lead but is not among the answers")
    return out


def is_problem(q: Question) -> bool:
    return q.type in PROBLEM_TYPES


def level_of(q: Question) -> int:
    return int(q.data.get("level", 1))
