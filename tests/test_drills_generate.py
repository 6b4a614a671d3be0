"""Generated questions: every stated answer is right by the engine, every distractor wrong.

Each question is re-checked from its text form only (the auction replayed from
``context.auction``, the hand read from ``context.hand``), independently of the objects the
generator used, and by the bank checker.
"""
from __future__ import annotations

import pytest

from drills.bankcheck import check_question, implied, required_parts
from drills.generate import Generator, default_types, generate
from drills.questions import Question, promise_text
from fiftysix.bidding import SYSTEMS, Auction, parse_call
from fiftysix.cards import Hand, Table
from fiftysix.constraints import fits, from_dict

TYPES = ("meaning", "which-call", "your-call", "partner-holds")
SEEDS_PER_TABLE = 8
QUESTIONS_PER_SEED = 4


def _replay(q: Question) -> Auction:
    c = q.context
    return Auction.parse(c.auction, c.system, Table(c.players, c.deck, c.teams))


def _verify(q: Question) -> None:
    """An independent check of one question's answers and distractors against the engine."""
    a = _replay(q)
    assert set(q.answers) <= set(q.choices) and len(set(q.choices)) == len(q.choices)
    if q.type == "meaning":
        call = parse_call(q.data["call"])
        assert a.to_move == q.context.seat and a.is_legal(call)
        truth = promise_text(a.meaning_of(call))
        assert q.answers == (truth,)
        assert all(ch != truth for ch in q.choices if ch not in q.answers)  # distractors are wrong
    elif q.type == "which-call":
        target = q.data["meaning"]
        assert a.to_move == q.context.seat
        for ch in q.choices:
            call = parse_call(ch)
            assert a.is_legal(call), ch
            assert (promise_text(a.meaning_of(call)) == target) == (ch in q.answers), ch
    elif q.type == "your-call":
        hand = Hand.parse(q.context.hand)
        assert len(hand) == q.context.table.hand_size and a.to_move == q.context.seat
        for ch in q.choices:
            call = parse_call(ch)
            keeps = a.is_legal(call, hand) and bool(fits(hand, a.meaning_of(call, hand).constraint))
            assert keeps == (ch in q.answers), ch
        assert q.preferred in q.answers
    elif q.type == "partner-holds":
        about = q.data["about_seat"]
        promised = a.seat_constraints()[about]
        parts = required_parts(promised)
        witness = Hand.parse(q.data["witness"])
        assert fits(witness, promised)  # a hand the auction allows for that seat...
        for text, raw in q.data["statements"].items():
            c = from_dict(raw)
            if text in q.answers:
                assert all(implied(p, parts) for p in required_parts(c)), text
            else:
                assert not fits(witness, c), text  # ...that breaks every distractor
    else:  # pragma: no cover
        raise AssertionError(q.type)


def _cases():
    for system in sorted(SYSTEMS):
        for players, teams in ((4, "alternate"), (6, "alternate"), (8, "alternate"), (6, "pairs")):
            yield system, players, teams


@pytest.mark.slow
@pytest.mark.parametrize("system, players, teams", list(_cases()))
def test_every_generated_answer_is_right_and_every_distractor_wrong(system, players, teams):
    table = Table.make(players, teams=teams)
    seen_types = set()
    for seed in range(SEEDS_PER_TABLE):
        # the answers are the engine's whatever bot bid the deal: the quick ``rules`` bot keeps
        # this sweep of every table short; the ``default`` bot's questions are checked below
        for q in Generator(system, table, seed, bot="rules").questions(QUESTIONS_PER_SEED, TYPES):
            _verify(q)
            assert check_question(q) == [], q.id
            seen_types.add(q.type)
    assert seen_types == set(TYPES)


def test_a_seed_reproduces_a_quiz_and_another_seed_changes_it():
    a = [q.to_dict() for q in generate("international", 6, 6, seed=11, types=TYPES)]
    b = [q.to_dict() for q in generate("international", 6, 6, seed=11, types=TYPES)]
    c = [q.to_dict() for q in generate("international", 6, 6, seed=12, types=TYPES)]
    assert a == b and a != c
    assert len({q["id"] for q in a}) == 6


def test_questions_carry_their_context():
    for q in generate("kerala", 8, 8, seed=3, types=TYPES, bot="rules"):  # default is slow at 8 players
        c = q.context
        assert (c.system, c.players, c.deck, c.teams) == ("kerala", 8, 64, "alternate")
        assert (c.hand is not None) == (q.type == "your-call")
        assert q.explanation and q.family and "generated" in q.tags
        assert q.template.startswith(f"{q.type}/kerala/8p/")


def test_makeable_is_left_out_of_the_default_mix():
    # each makeable question runs a double-dummy simulation: opt-in only (quiz --types makeable)
    assert "makeable" not in default_types()
    assert set(default_types()) == set(TYPES)


def test_bad_type_is_a_clear_error():
    from fiftysix.errors import FiftySixError
    with pytest.raises(FiftySixError, match="unknown question type 'riddle'"):
        generate("international", 6, 1, types=("riddle",))


def test_your_call_prefers_the_default_bots_call_with_its_reason():
    qs = generate("international", 4, 6, seed=2, types=("your-call",))
    assert qs
    for q in qs:
        _verify(q)
        assert check_question(q) == [], q.id
        assert q.preferred in q.answers  # the bot's call, marked preferred, with its reason
        assert q.explanation.startswith(f"Best: {q.preferred} ("), q.explanation
    # the default bot judges by simulation: its reasons quote how often contracts make
    assert any(" of " in q.explanation and " deals" in q.explanation for q in qs), [q.explanation for q in qs]
