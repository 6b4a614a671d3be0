"""The card-playing bot: each card chosen from deals consistent with what its seat knows.

The bot never looks at the hidden hands. For each card it builds its seat's ``View`` (its
hand, every seat's promises from the auction, the cards played so far and the suits each
seat showed out of), draws deals from it with the exact ``Dealer``, and for every legal
card asks the solver whether the declarers still reach their target after it. It plays
the card with the best share for its side (the stake depends only on made or failed);
among cards that do equally well it keeps its points and its high cards. Given what the
calls claim (``claims``), it draws a pool and solves first the deals in which each bidder's
hand is worth its bids and each passer's no bid (``fiftysix.bots.worth``), as the bidding bot
does.
"""
from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from fiftysix.analyser.dealer import Dealer, View
from fiftysix.analyser.encode import known_after
from fiftysix.analyser.solver import BudgetExceeded, Solver, solver_pool
from fiftysix.bidding import Auction
from fiftysix.bidding.calls import MAX_BID
from fiftysix.bots.worth import POOL, Claim, bid_claims, pick_deals
from fiftysix.cards import NUM_KINDS, Card, Deal, Hand
from fiftysix.constraints import Constraint
from fiftysix.errors import ConstraintError, FiftySixError
from fiftysix.hand import PLAY, HandState
from fiftysix.play import PlayState, legal_cards, trick_winner
from fiftysix.scoring import Contract

CARD_SAMPLES = 24
"""Deals sampled per card."""
PROBE_NODES = 250_000
"""A probe that runs past this many nodes leaves its deal out of the count."""
CARD_STATES = 20_000
"""The dealer counts promises exactly up to this many states and deals the rest by rejection
(still exact): at 8 players, with the voids the play shows, counting everything took up to
9 s a card; this bound takes about 0.1 s, with a few per cent of draws accepted."""
CARD_DRAWS = 8192
"""At most this many draws when none is accepted."""
SAFETY = 6
"""Among cards that make (or defeat) the contract in as many deals, the bot prefers the one
that makes (defeats) it with this many points to spare in the most: a bare yes/no leaves the
cards tied whenever the contract is safe in most deals, and the tie-break then threw points
away (bench/bots.py, 2026-12-02: contracts with 15-20 points to spare double-dummy failed in
play)."""
FIRST_SHARE = 0.75
"""The share of ``CARD_NODES`` spent on whether each card makes (defeats) the contract, on as
many deals as it allows, before the margins (``SAFETY``) of the cards tied best are probed on
those deals: probing both on every deal, an opening lead at 6 x 8 was decided on a median of 11
of its 24 deals, now 14 (80 seed-14 classic tables); replayed on the seed 13-14 jack-signal
and kerala tables, +0.03 and +0.08 stakes a deal in play (RESULTS.md, 2026-12-03, tenth
round)."""
CARD_TABLE_MB = 8
"""The transposition table of the solver a card is chosen with (MB): its probes are small."""
CARD_NODES = 1_200_000
"""All the probes of one card together stop at this many nodes (about 0.35 s here): the deals
solved by then decide. Nodes, not seconds, so that a seed gives the same card on a busy
machine (an 8 x 8 ending once took 9 s without it). At 1,500,000, 5 of 32,000 cards took over
0.5 s with two processes on the two cores; 1,200,000 replayed the 310 seed-8 tables that had a
card over 0.3 s: 296 as before, -0.02 [-0.14, +0.10] stakes a deal (RESULTS.md, 2026-12-03)."""


@dataclass(frozen=True)
class CardChoice:
    """The card to play and why."""

    card: Card
    reason: str


def _remaining(view: View) -> Hand:
    left = list(view.hand.cards)
    for c in view.played_by(view.seat):
        left.remove(c)
    return Hand(tuple(left))


def _current_trick(view: View) -> list[tuple[int, Card]]:
    n = view.table.players
    return list(view.plays[len(view.plays) - len(view.plays) % n:])


def _keep_order(card: Card) -> tuple[int, int]:
    """Cards that cost least to give away first: fewest points, then the weakest rank."""
    return (card.points, -card.rank)


class CardBot:
    """Plays a card from its seat's view. ``samples`` deals per card; ``seed`` fixes them."""

    name = "default"

    def __init__(self, seed: int | str | None = None, samples: int = CARD_SAMPLES) -> None:
        self.seed = 0 if seed is None else int(seed)
        self.samples = samples

    def choose(self, view: View, contract: Contract, claims: Sequence[Claim] = ()) -> CardChoice:
        """The card for ``view.seat`` to play now, under ``contract`` (seat 1 led, or ``view.leader``);
        ``claims``: what the other seats' calls say (``fiftysix.bots.worth.bid_claims``)."""
        trick = _current_trick(view)
        led = trick[0][1].suit if trick else None
        options = legal_cards(_remaining(view), led)
        if not options:
            raise FiftySixError(f"seat {view.seat} has no card left to play")
        if len(options) == 1:
            return CardChoice(options[0], "the only card it may play")
        side = contract.team
        mine = view.table.team_of(view.seat) == side
        text = f"{self.seed}|{view.seat}|{contract}|{' '.join(str(c) for _, c in view.plays)}"
        try:
            dealer = Dealer(view, max_states=CARD_STATES)
            exact = not any(dealer.rejected.values())  # a pool costs no more than a few deals then
            n = max(POOL, self.samples) if claims and exact else self.samples
            counts = pick_deals(dealer.sample_counts(n, zlib.crc32(text.encode()), CARD_DRAWS),
                                list(claims), view.table, self.samples)
        except ConstraintError:  # promises too tight to deal within the draws: play safe below
            counts = np.zeros((0, view.table.players, NUM_KINDS), dtype=np.int64)
        with solver_pool(CARD_TABLE_MB).lend() as solver:
            makes, safe, rows = self._count(solver, view, contract, options, counts, mine)

        def rank(c: Card) -> tuple:
            share = makes[c] if mine else -makes[c]
            return (share, safe[c], _cheap_winner(c, trick, contract.trump), tuple(-x for x in _keep_order(c)))

        best = max(options, key=rank)
        solved = len(rows)
        if not solved:
            return CardChoice(best, "no deal it could picture was solved in time, so it plays safe: it takes"
                                    " a trick that is there, else keeps its points and high cards")
        word = "makes" if mine else "fails"
        share = makes[best] if mine else solved - makes[best]
        return CardChoice(best, f"the contract {word} after it in {share} of {solved} deals consistent"
                                f" with what seat {view.seat} knows")

    def _count(self, solver: Solver, view: View, contract: Contract, options: Sequence[Card],
               counts, mine: bool) -> tuple[dict, dict, list]:
        """For each card: the deals in which the contract makes after it, and those in which
        it makes (fails) with ``SAFETY`` points to spare; and per deal solved, each card's
        position after it, need and result. Each deal goes from the dealer's counts straight
        to the kernels (``encode.Known``), the view's plays and each card's the same in all."""
        side = contract.team
        known = known_after(view.table, contract.trump, view.plays, view.leader)
        after = {c: known.then(c) for c in options}
        makes = {c: 0 for c in options}
        safe = {c: 0 for c in options}  # deals in which it makes (fails) with SAFETY points to spare
        rows: list[dict] = []  # per deal solved: each card's position after it, need and result
        solver.clear()  # node counts, hence budgets, depend only on this card
        spent = solver.nodes

        def reaches(enc, need: int) -> bool:
            """Whether ``side`` takes ``need`` more points with best play (within the card's nodes)."""
            if need <= 0:
                return True
            if need > MAX_BID:
                return False
            left = CARD_NODES - (solver.nodes - spent)
            return solver.probe(enc, side, need, max(1, min(PROBE_NODES, left)))

        # first whether each card makes (defeats) the contract, on as many deals as FIRST_SHARE of
        # the nodes allows; then, on those deals, the margins of the cards tied best
        for i in range(len(counts)):
            if solver.nodes - spent >= FIRST_SHARE * CARD_NODES:
                break
            try:
                row = {}
                for c in options:
                    nxt = after[c].encode(counts[i])
                    need = contract.value - int(nxt.won[side])
                    row[c] = (nxt, need, reaches(nxt, need))
            except BudgetExceeded:
                continue
            rows.append(row)
            for c, (_, _, ok) in row.items():
                makes[c] += ok
        top = max(makes[c] if mine else -makes[c] for c in options)
        tied = [c for c in options if (makes[c] if mine else -makes[c]) == top]
        if len(tied) > 1:
            for row in rows:
                try:
                    # our side's result with a margin: the line that makes (defeats) it by more
                    # survives more of the deals the samples got wrong
                    margin = SAFETY if mine else -SAFETY
                    sure = {c: reaches(row[c][0], row[c][1] + margin) == mine for c in tied if row[c][2] == mine}
                except BudgetExceeded:
                    break
                for c, ok in sure.items():
                    safe[c] += ok
        return makes, safe, rows


def _cheap_winner(card: Card, trick: list[tuple[int, Card]], trump: int | None) -> int:
    """1 when the card would win the trick so far (a tie-break: take tricks that are there)."""
    if not trick:
        return 0
    cards = [c for _, c in trick] + [card]
    return int(trick_winner(cards, trump) == len(trick))


def play_hand(deal: Deal, contract: Contract, bots: Sequence[CardBot],
              constraints: Mapping[int, Constraint] | None = None, leader: int = 1,
              auction: Auction | None = None) -> PlayState:
    """Play ``deal`` out under ``contract`` with ``bots[s - 1]`` in seat s, each seeing only its
    own view (``constraints``: each seat's promises; ``auction``: the promises and the bids,
    when ``constraints`` is not given); the play stops once the contract is decided (RULES.md
    section 4)."""
    table = deal.table
    if len(bots) != table.players:
        raise FiftySixError(f"give one card bot per seat: {len(bots)} for {table.players} seats")
    if constraints is None and auction is not None:
        constraints = auction.seat_constraints()
    cons = dict(constraints or {})
    claims = {s: bid_claims(auction, s) if auction is not None else [] for s in table.seats}
    hand = HandState(deal, auction.system if auction is not None else "international", contract=contract,
                     leader=leader)
    state = hand.play
    assert state is not None  # a hand with its contract is in play from the start
    while hand.phase == PLAY:
        seat = hand.to_move
        assert seat is not None
        view = View(table, seat, deal.hand(seat), cons, state.plays, leader)
        hand.apply(bots[seat - 1].choose(view, contract, claims[seat]).card)
    return state
