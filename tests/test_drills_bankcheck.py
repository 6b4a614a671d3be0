"""``bank check``: each kind of error is reported with the question's id and the right message."""
from __future__ import annotations

import json

import pytest

from fiftysix.drills.bankcheck import check_dict, check_file
from fiftysix.drills.banks import Bank, save_bank
from fiftysix.drills.generate import make_bank

INTL = "international"


def _q(qid: str, qtype: str, auction: str, choices, answers, hand=None, seat=None, data=None, **ctx):
    context = {"system": INTL, "players": 6, "auction": auction, **ctx}
    if hand is not None:
        context["hand"] = hand
    if seat is not None:
        context["seat"] = seat
    return {"id": qid, "type": qtype, "context": context, "prompt": "?", "choices": list(choices),
            "answers": list(answers), "data": data or {}}


GOOD = [
    _q("good-meaning", "meaning", "", ["holds a Jack of hearts; at least 4 hearts", "no hearts", "nothing about the hand"],
       ["holds a Jack of hearts; at least 4 hearts"], seat=1, data={"call": "28H"}),
    _q("good-which", "which-call", "28H", ["+1H", "+1S", "+H"], ["+1H"], seat=2,
       data={"meaning": "holds a Jack of hearts; exactly one heart"}),
    _q("good-your-call", "your-call", "", ["28H", "H28", "28S"], ["28H"], hand="9.JJ9AT.K.Q", seat=1),
    _q("good-partner", "partner-holds", "+2H P", ["holds both Jacks of hearts", "no hearts"],
       ["holds both Jacks of hearts"], seat=3,
       data={"about_seat": 1, "answer_constraint": {"count": ["JH"], "min": 2, "max": 99}}),
    _q("good-makeable", "makeable", "28H P P P P P",
       ["under 25%", "25% to 50%", "50% to 75%", "75% or more"], ["25% to 50%", "50% to 75%"],
       hand="9.JJ9AT.K.Q", seat=1, data={"contract": "28H", "declarer": 1, "interval": [0.31, 0.56]}),
    # a coach's auction the generator would never produce: fine as long as it is legal
    _q("good-odd", "meaning", "28-Pass P P", ["holds a Jack of hearts; 2-3 hearts", "no hearts"],
       ["holds a Jack of hearts; 2-3 hearts"], data={"call": "+H"}),
]

BAD = [
    (_q("illegal-bid", "meaning", "28H 28S", ["a", "b"], ["a"], data={"call": "+1H"}),
     "auction", "call 2 (28S) by seat 2: a bid must be higher than the standing bid"),
    (_q("after-end", "meaning", "28H P P P P P 29S", ["a", "b"], ["a"], data={"call": "+1H"}),
     "auction", "call 7 (29S) comes after the auction has ended"),
    (_q("bad-notation", "meaning", "28H QQ", ["a", "b"], ["a"], data={"call": "+1H"}),
     "auction", "'QQ'"),
    (_q("no-trump-held", "your-call", "28S", ["P", "+1H"], ["P"], hand=".JJ9A.TTAA.", seat=1),
     "auction", "call 1 (28S) by seat 1: you cannot name a trump suit you hold no card of"),
    (_q("short-hand", "your-call", "", ["28H", "P"], ["28H"], hand="JJ.9.A.", seat=1),
     "hand", "the hand has 4 cards; this table deals 8"),
    (_q("not-in-deck", "your-call", "", ["28H", "P"], ["28H"], hand="J87.JJ9A.T.K", seat=1, players=4),
     "hand", "the hand holds 8S, which is not in the 32-card deck"),
    (_q("three-copies", "your-call", "", ["28H", "P"], ["28H"], hand="JJJ.9A.TK.Q", seat=1),
     "hand", "3 copies of JS"),
    (_q("promised-away", "your-call", "+2H", ["P", "X"], ["P"], hand="J.J9A.KQ.9A", seat=2),
     "hand", "holds 1 JH but seat 1 (2) promised copies: that hand cannot exist"),
    (_q("wrong-meaning", "meaning", "", ["no heart Jack, 4+ hearts", "holds a Jack of hearts; at least 4 hearts"],
        ["no heart Jack, 4+ hearts"], data={"call": "28H"}),
     "answer", "the stated answer 'no heart Jack, 4+ hearts' is wrong: the system says 28H promises"),
    (_q("missed-right", "which-call", "28H", ["+1H", "+1S", "+H"], ["+1S"], seat=2,
        data={"meaning": "holds a Jack of hearts; exactly one heart"}),
     "answer", "the stated answer '+1S' is wrong"),
    (_q("lying-call", "your-call", "", ["28H", "28S", "P"], ["28S"], hand="9.JJ9AT.K.Q", seat=1),
     "answer", "the stated answer '28S' is wrong: of the choices, the calls this hand may truthfully make"),
    (_q("wrong-seat", "your-call", "28H", ["P", "+1S"], ["P"], hand="9.9ATK.KQ.Q", seat=5),
     "auction", "seat 2 is to call after this auction, not seat 5"),
    (_q("not-promised", "partner-holds", "+2H P", ["at least 4 hearts", "no hearts"], ["at least 4 hearts"],
        seat=3, data={"about_seat": 1, "answer_constraint": {"count": ["JH", "9H", "AH", "TH", "KH", "QH"],
                                                             "min": 4, "max": 99, "text": "at least 4 hearts"}}),
     "answer", "seat 1 has not promised 'at least 4 hearts'"),
    (_q("band-missed", "makeable", "28H P P P P P", ["under 25%", "25% to 50%", "50% to 75%", "75% or more"],
        ["25% to 50%"], hand="9.JJ9AT.K.Q", seat=1, data={"interval": [0.31, 0.56]}),
     "answer", "choice '50% to 75%' is also right but is not among the answers: the estimate's interval is 31% to 56%"),
    (_q("uncheckable", "partner-holds", "+2H P", ["x", "y"], ["x"], seat=3, data={"about_seat": 1}),
     "unchecked", "needs data.answer_constraint"),
    (_q("no-such-system", "meaning", "", ["x", "y"], ["x"], data={"call": "28H"}, system="bridge"),
     "system", "unknown bidding system 'bridge'"),
    ({"id": "no-answers", "type": "meaning", "prompt": "?", "choices": ["a", "b"], "context": {}},
     "format", "needs 'answers'"),
    (_q("answer-not-choice", "meaning", "", ["a", "b"], ["c"], data={"call": "28H"}),
     "format", "answer 'c' is not one of the choices"),
]


def test_a_good_bank_has_no_problems():
    bank, problems = check_dict({"title": "t", "system": INTL, "questions": GOOD})
    assert problems == [] and bank is not None and len(bank.questions) == len(GOOD)


@pytest.mark.parametrize("question, kind, message", BAD, ids=[b[0]["id"] for b in BAD])
def test_each_kind_of_error_is_reported_with_the_id_and_the_message(question, kind, message):
    _, problems = check_dict({"title": "t", "system": INTL, "questions": GOOD + [question]})
    assert problems and {(p.id, p.kind) for p in problems} == {(question["id"], kind)}, problems
    assert message in problems[0].message, problems[0].message


def test_every_bad_question_is_reported_none_dropped():
    _, problems = check_dict({"title": "t", "system": INTL, "questions": GOOD + [b[0] for b in BAD]})
    assert list(dict.fromkeys(p.id for p in problems)) == [b[0]["id"] for b in BAD]


def test_duplicate_ids_and_bank_level_problems():
    _, problems = check_dict({"system": INTL, "questions": [GOOD[0], GOOD[0]]})
    assert ("-", "format") in [(p.id, p.kind) for p in problems]
    assert ("good-meaning", "format") in [(p.id, p.kind) for p in problems]
    _, problems = check_dict({"title": "t", "system": INTL, "questions": "none"})
    assert problems[0].message == "'questions' must be a list"


def test_a_generated_bank_checks_clean_and_a_tampered_one_does_not(tmp_path):
    bank = make_bank("kerala", (4, 6), 6, seed=2)
    path = tmp_path / "bank.json"
    save_bank(bank, path)
    assert check_file(path) == (bank, [])
    d = json.loads(path.read_text())
    q = next(q for q in d["questions"] if q["type"] == "which-call")
    wrong = next(c for c in q["choices"] if c not in q["answers"])
    q["answers"] = [wrong]
    path.write_text(json.dumps(d))
    _, problems = check_file(path)
    assert next((p.id, p.kind) for p in problems) == (q["id"], "answer")


def test_bank_object_round_trip_keeps_checks(tmp_path):
    bank = Bank.from_dict({"title": "t", "system": INTL, "questions": GOOD})
    save_bank(bank, tmp_path / "b.json")
    assert check_file(tmp_path / "b.json")[1] == []


def test_the_starter_banks_are_checked_and_cover_every_system():
    from pathlib import Path

    from fiftysix.bidding import SYSTEMS
    from fiftysix.drills.banks import starter_names
    assert starter_names() == sorted(SYSTEMS)  # what the installed package offers: one bank per system
    folder = Path(__file__).resolve().parent.parent / "data" / "banks"
    for system in SYSTEMS:
        bank, problems = check_file(folder / f"{system}.json")
        assert problems == [], (system, problems[:3])
        assert bank.system == system and len(bank.questions) >= 30
        assert {q.context.players for q in bank.questions} == {4, 6, 8}
        assert {q.type for q in bank.questions} == {"meaning", "which-call", "your-call", "partner-holds"}
