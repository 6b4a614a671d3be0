"""The pages' heavy work as functions a worker process can run (``ui.workers``).

Each takes its inputs (picklable: text, tables, views, contracts, a practice table) and, last,
``stop`` (True once the page stops the job or at its cap), and reports how it goes through
``ui.job_report.progress``; the pages hand them over as ``functools.partial`` objects. No
Streamlit here and no page module: a worker imports this module, and importing a page would
run it.
"""
from __future__ import annotations

from collections.abc import Callable

from fiftysix.analyser import simulate, solver
from fiftysix.analyser.dealer import View
from fiftysix.analyser.review import Review, review
from fiftysix.analyser.solver import Cancelled
from fiftysix.cards import Card, Deal, Table, parse_trump
from fiftysix.drills import practice
from fiftysix.records import parse_record
from fiftysix.scoring import Contract
from fiftysix.ui.job_report import progress

Stop = Callable[[], bool]


def dd_rows(deal_text: str, table: Table, leader: int, seconds: float,
            stop: Stop) -> list[tuple[int, dict[str, int | None]]]:
    """(declaring team, trump -> the most points it takes) with ``leader`` on lead; None where
    a trump's search runs past ``seconds`` (the five trumps solved in parallel)."""
    solver.ensure_warm()
    deal = Deal.parse(deal_text, table, partial=True)
    return [(r.team, r.points) for r in solver.declarer_table(deal, (leader,), max_seconds=seconds, stop=stop)]


def card_values(deal_text: str, table: Table, trump: str, leader: int, played: tuple[str, ...],
                seconds: float, stop: Stop) -> dict[str, int] | None:
    """What each legal card is worth to the side to move, all cards within ``seconds``; None
    when over budget."""
    solver.ensure_warm()
    deal = Deal.parse(deal_text, table, partial=True)
    pos = solver.Position.from_deal(deal, parse_trump(trump), leader=leader,
                                    played=tuple(Card.parse(c) for c in played))
    try:
        return {str(c): int(v) for c, v in solver.card_values(pos, max_seconds=seconds, stop=stop).items()}
    except solver.BudgetExceeded:
        return None


def estimate(view: View, contract: Contract, n: int, seed: int, until: float | None, max_seconds: float,
             points: bool, stop: Stop) -> simulate.Estimate:
    """The makeable estimate of the Analyse page: each update (every quarter second) goes to
    the page through ``progress(est)``; ``stop()`` ends it with the deals solved so far."""
    return simulate.estimate(view, contract, n, seed, until=until, max_seconds=max_seconds, on_update=progress,
                             should_stop=lambda done, total: stop(), update_every=0.25, points=points)


def review_record(record_text: str, bot: str | None, position_seconds: float, total_seconds: float,
                  stop: Stop) -> Review:
    """The review of a record in canonical text, ``progress(done, total)`` as positions are
    solved; ``Cancelled`` once ``stop()`` turns True."""
    from fiftysix.bots import get_bot

    def tick(k: int, n: int) -> None:
        if stop():
            raise Cancelled("the review was stopped")
        progress(k, n)

    return review(parse_record(record_text), max_seconds=position_seconds, on_progress=tick,
                  total_seconds=total_seconds, bidder=None if bot is None else get_bot(bot))


def bots_move(pt: practice.PracticeTable, stop: Stop) -> practice.PracticeTable:
    """The practice table after the bots have called or played up to the learner's turn (or
    ``stop()``): the table comes back, as the worker's copy is the one that moved."""
    pt.advance(stop)
    return pt


def card_cost(pt: practice.PracticeTable, index: int, seconds: float, stop: Stop):
    """What card ``index`` of the play cost its team with best play (None over ``seconds``)."""
    solver.ensure_warm()
    return pt.card_cost(index, seconds, stop)


def double_dummy(pt: practice.PracticeTable, seconds: float, stop: Stop):
    """The deal's double-dummy facts for the Play page's end of hand."""
    solver.ensure_warm()
    return pt.double_dummy(seconds, stop)


def make_problem(table: Table, level: int, kind: str, seed: int, skip: frozenset[str], index, max_seconds: float,
                 stop: Stop):
    """A new play problem from the bots' hands, looked for during at most ``max_seconds``
    (``progress(fraction, words)`` as it looks)."""
    from fiftysix.drills import problem_sets as sets
    solver.ensure_warm()
    return sets.make_problem(table, level, kind, seed, skip=skip, max_seconds=max_seconds, stop=stop, index=index,
                             on_progress=progress)


def scan_problems(record, position_seconds: float, scan_seconds: float, stop: Stop) -> list:
    """The find-the-card problems in a record's play (``progress(i, n)`` per position)."""
    from fiftysix.drills.problems import Budget, scan_record
    solver.ensure_warm()
    return scan_record(record, Budget(position_seconds, solver.Deadline(scan_seconds), stop), on_position=progress)


def lead_problem(record, stop: Stop):
    """The opening lead problem of a record's hand (``progress(d, n)`` per deal)."""
    from fiftysix.drills.problems import lead_problem as lead
    solver.ensure_warm()
    return lead(record, stop=stop, on_deal=progress)
