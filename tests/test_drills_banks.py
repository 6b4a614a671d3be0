"""Questions and quiz banks: the JSON format, load errors by id, atomic saving, conversions."""
from __future__ import annotations

import csv
import io
import json
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fiftysix.drills import banks
from fiftysix.drills.banks import Bank, BankError, export_text, import_text, load_bank, save_bank
from fiftysix.drills.questions import QUESTION_TYPES, Context, Question, QuestionError


def _q(qid="q1", **kw) -> Question:
    base = {"id": qid, "type": "meaning",
                "context": Context("international", 6, 48, "alternate", 3, "28H P", "JJ9.A.KQ.T9A"),
                "prompt": "Seat 3 bids +1H. What does it promise?",
                "choices": ("exactly one heart, the top one", "2-3 hearts", "no hearts"),
                "answers": ("exactly one heart, the top one",), "explanation": "Plus one: the top card alone.",
                "tags": ("plus",), "family": "plus", "data": {"call": "+1H"}}
    base.update(kw)
    return Question(**base)


def _bank(*qs: Question) -> Bank:
    return Bank("Test bank", "international", qs or (_q(),), "A. Coach", "for tests")


# --- the JSON form --------------------------------------------------------------------------

def test_question_dict_has_the_documented_keys():
    d = _q().to_dict()
    assert d["context"] == {"system": "international", "players": 6, "deck": 48, "teams": "alternate",
                            "seat": 3, "auction": "28H P", "hand": "JJ9.A.KQ.T9A"}
    assert d["answers"] == ["exactly one heart, the top one"]
    assert d["data"] == {"call": "+1H"}
    assert set(d) == {"id", "type", "context", "prompt", "choices", "answers", "explanation", "tags",
                      "family", "data"}


def test_minimal_hand_written_question_gets_defaults():
    d = {"id": "c1", "type": "your-call", "prompt": "Your call?", "choices": ["28H", "P"],
         "answer": "28H", "context": {"players": 8, "auction": "  P   P "}}
    q = Question.from_dict(d, default_system="kerala")
    assert q.context.system == "kerala" and q.context.deck == 64 and q.context.auction == "P P"
    assert q.answers == ("28H",) and q.answer == "28H"


def test_call_answers_compare_in_canonical_notation():
    q = _q(type="your-call", choices=("H28", "+1H", "P"), answers=("H28", "P"), preferred="H28")
    assert q.is_correct("h 28") and q.is_correct("♥28") and q.is_correct("Pass")
    assert not q.is_correct("+1h") and not q.is_correct("28H")
    assert q.choice_for("2") == "+1H" and q.choice_for("a") == "H28" and q.choice_for("pass") == "P"


@pytest.mark.parametrize("change, message", [
    ({"type": "guess"}, "unknown type 'guess'"),
    ({"answers": ("maybe",)}, "answer 'maybe' is not one of the choices"),
    ({"choices": ("a", "A ", "b"), "answers": ("b",)}, "two choices are the same"),
    ({"choices": ("only",), "answers": ("only",)}, "at least two choices"),
    ({"answers": ()}, "no answer given"),
    # found by tests/test_fuzz.py: a CSV import took '0+1D' as a choice the checker refused
    ({"type": "which-call", "choices": ("+1D", "0+1D"), "answers": ("+1D",)}, "choice '0+1D' is not a call"),
    ({"context": Context("international", 6, 48, "alternate", 7, "")}, "seat 7 does not exist"),
    ({"context": Context("international", 6, 48, "alternate", 1, "", "JJ9.A.KZ.")}, "unknown rank 'Z'"),
    ({"context": Context("international", 6, 64, "alternate", 1, "")}, "deck of 48 cards, not 64"),
])
def test_malformed_question_is_reported_with_its_id(change, message):
    d = _q("bad-7", **change).to_dict()
    with pytest.raises(BankError) as e:
        Bank.from_dict({"title": "t", "system": "international", "questions": [_q("ok").to_dict(), d]})
    assert "question 'bad-7'" in str(e.value) and message in str(e.value)


def test_bank_level_errors():
    good = _q().to_dict()
    with pytest.raises(BankError, match="'q1': the id is used twice"):
        Bank.from_dict({"title": "t", "system": "international", "questions": [good, good]})
    with pytest.raises(BankError, match="newer than this program"):
        Bank.from_dict({"title": "t", "system": "international", "version": 99, "questions": []})
    with pytest.raises(BankError, match="needs a 'title'"):
        Bank.from_dict({"system": "international", "questions": []})
    with pytest.raises(BankError, match="question #2: needs an 'id'"):
        Bank.from_dict({"title": "t", "system": "x", "questions": [good, {"type": "meaning"}]})
    with pytest.raises(BankError, match=r"not valid JSON \(line 2"):
        banks.loads('{"title": "t",\n "system": }')


def test_save_is_atomic_and_load_reads_it_back(tmp_path, monkeypatch):
    path = tmp_path / "sub" / "bank.json"
    bank = _bank()
    save_bank(bank, path)
    assert load_bank(path) == bank
    before = path.read_bytes()

    def broken_replace(src, dst):
        raise OSError("disk full")
    monkeypatch.setattr(banks.os, "replace", broken_replace)
    with pytest.raises(BankError, match=r"cannot write .*/sub/bank\.json: disk full"):  # the target, not the temp
        save_bank(_bank(_q("other")), path)
    assert path.read_bytes() == before                    # the old file is untouched
    assert [p.name for p in path.parent.iterdir()] == ["bank.json"]  # no temporary left behind


def test_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(BankError, match="cannot read .*nope.json"):
        load_bank(tmp_path / "nope.json")


# --- conversions ------------------------------------------------------------------------------

def test_gift_export_matches_hand_written_gift():
    q = _q(choices=("a: {x}", "b ~ c", "d = e"), answers=("a: {x}",), explanation="why # not")
    text = banks.to_gift(_bank(q))
    expected = ("::q1::Meaning... {\n\t=a\\: \\{x\\}\n\t~b \\~ c\n\t~d \\= e\n\t####why \\# not\n}")
    got = text[text.index("::q1::"):].strip()
    assert got.splitlines()[1:] == expected.splitlines()[1:]
    assert "Auction so far\\: 28H P\\nHand\\: JJ9.A.KQ.T9A" in got.splitlines()[0]


def test_gift_with_several_right_answers_uses_weights():
    q = _q(type="your-call", choices=("28H", "H28", "P"), answers=("28H", "P"), preferred="28H")
    text = banks.to_gift(_bank(q))
    assert "\t~%50%28H\n\t~%-100%H28\n\t~%50%P\n" in text


def test_plain_gift_from_elsewhere_imports_with_a_system():
    text = ("// a coach's file\n::open1::What does 28H promise? {\n"
            " =a heart Jack and 3+ other hearts #right!\n ~4+ hearts, no Jack\n ~nothing\n"
            " ####Number-suit shows the Jack.}\n")
    bank = import_text(text, "gift", system="international")
    q = bank.question("open1")
    assert q.choices == ("a heart Jack and 3+ other hearts", "4+ hearts, no Jack", "nothing")
    assert q.answers == ("a heart Jack and 3+ other hearts",)
    assert q.explanation == "Number-suit shows the Jack." and q.context.system == "international"
    with pytest.raises(BankError, match="no system"):
        import_text(text, "gift")


def test_anki_file_has_headers_and_four_fields():
    text = banks.to_anki(_bank(_q(), _q("q2")))
    head = [line for line in text.splitlines() if line.startswith("#")]
    assert "#separator:comma" in head and "#html:true" in head and "#guid column:1" in head
    rows = list(csv.reader(io.StringIO("\n".join(l for l in text.splitlines() if not l.startswith("#")))))
    assert [r[0] for r in rows] == ["q1", "q2"] and all(len(r) == 4 for r in rows)
    assert "Seat 3 bids +1H" in rows[0][1] and "<b>exactly one heart, the top one</b>" in rows[0][2]
    assert rows[0][3].split() == ["plus", "meaning", "international"]


def test_csv_has_one_row_per_question_with_json_lists():
    import pandas as pd
    df = pd.read_csv(io.StringIO(banks.to_csv(_bank(_q(), _q("q2")))), dtype=str, keep_default_na=False)
    assert list(df["id"]) == ["q1", "q2"]
    assert json.loads(df["choices"][0]) == ["exactly one heart, the top one", "2-3 hearts", "no hearts"]
    assert df["auction"][0] == "28H P" and df["hand"][0] == "JJ9.A.KQ.T9A"


_text = st.text(st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\r\x85\u2028\u2029"),
                min_size=1, max_size=25).filter(lambda s: s.strip() and s == " ".join(s.split()))
_multiline = st.lists(_text, min_size=0, max_size=3).map("\n".join)


@st.composite
def _questions(draw, qid):
    choices = draw(st.lists(_text, min_size=2, max_size=5, unique_by=lambda s: s.casefold()))
    answers = draw(st.lists(st.sampled_from(choices), min_size=1, max_size=len(choices), unique=True))
    hand = draw(st.sampled_from([None, "JJ9.A.KQ.T9A", "..JJ99AATT.", "A.9.T.JKQ"]))
    ctx = Context(draw(st.sampled_from(["international", "kerala", "classic"])), 6, 48,
                  draw(st.sampled_from(["alternate", "pairs"])), draw(st.integers(1, 6)),
                  draw(st.sampled_from(["", "28H", "28H P +1H X"])), hand)
    qtype = draw(st.sampled_from([t for t in QUESTION_TYPES if t not in ("which-call", "your-call")]))
    data = draw(st.sampled_from([{}, {"call": "+1H"}, {"about_seat": 2, "n": [1, 2.5, None]}]))
    return Question(id=qid, type=qtype, context=ctx, prompt=draw(_text), choices=tuple(choices),
                    answers=tuple(answers), explanation=draw(_multiline),
                    tags=tuple(draw(st.lists(_text, max_size=3))), preferred=draw(st.sampled_from([None, answers[0]])),
                    family=draw(st.sampled_from(["", "plus", "number-suit"])), data=data)


@st.composite
def _banks(draw):
    n = draw(st.integers(1, 4))
    qs = tuple(draw(_questions(f"id-{i}:{draw(st.sampled_from(['a', 'b{', '~#']))}")) for i in range(n))
    return Bank(draw(_text), "international", qs, draw(st.sampled_from(["", "A. Coach, \"the\" best"])),
                draw(st.sampled_from(["", "multi\nline"])))


@settings(max_examples=60, deadline=None)
@given(_banks(), st.sampled_from(banks.FORMATS))
def test_export_then_import_gives_the_same_bank(bank, fmt):
    assert import_text(export_text(bank, fmt), fmt) == bank


def test_round_trip_through_files(tmp_path):
    bank = _bank(_q(), _q("q2", type="your-call", choices=("28H", "P"), answers=("P",)))
    for fmt, name in (("json", "b.json"), ("csv", "b.csv"), ("gift", "b.gift"), ("anki", "b.txt")):
        path = tmp_path / name
        banks.write_atomic(path, export_text(bank, fmt))
        text = path.read_text(encoding="utf-8")
        assert banks.guess_format(path, text) == fmt
        assert import_text(text, fmt) == bank


def test_anki_without_record_is_refused():
    with pytest.raises(BankError, match="only Anki files exported by fiftysix"):
        import_text("#separator:comma\nq1,front,back,tag\n", "anki")


def test_question_error_is_a_fiftysix_error():
    from fiftysix.errors import FiftySixError
    assert issubclass(QuestionError, FiftySixError) and issubclass(BankError, FiftySixError)


def _meaning_q(qid: str, explanation: str = "") -> Question:
    return Question.from_dict({"id": qid, "type": "meaning", "context": {"players": 6, "auction": ""},
                               "data": {"call": "28H"}, "prompt": "What does 28H promise?",
                               "choices": ["a", "b"], "answers": ["a"], "explanation": explanation},
                              default_system="international")


def test_merge_banks_skips_copies_and_renames_clashing_ids():
    base = Bank("Mine", "international", (_meaning_q("q1"), _meaning_q("q2")))
    other = Bank("Theirs", "kerala", (_meaning_q("q1"), _meaning_q("q2", "different"), _meaning_q("q3", "third")))
    rep = banks.merge_banks(base, other)
    assert [q.id for q in rep.bank.questions] == ["q1", "q2", "q2-2", "q3"]
    assert (rep.added, rep.same, rep.renamed) == (2, 1, {"q2": "q2-2"})
    assert rep.bank.question("q2-2").explanation == "different" and rep.bank.title == "Mine"
    again = banks.merge_banks(rep.bank, other)  # merging twice adds nothing
    assert again.added == 0 and again.same == 3


def test_working_bank_is_kept_in_the_data_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("FIFTYSIX_DATA_DIR", str(tmp_path))
    assert banks.load_working_bank() is None
    bank = Bank("Mine", "international", (_meaning_q("q1"),), "A. Coach")
    banks.save_working_bank(bank)
    assert banks.working_bank_path() == tmp_path / banks.WORKING_BANK
    assert banks.load_working_bank() == bank


def test_a_save_applies_only_what_one_tab_changed(tmp_path):
    """Issue 46: two pages (tabs) on one working bank, each saving what it changed since it read
    the bank (``save_working_changes``): neither loses the other's questions or header edits;
    the same question changed in both is refused and nothing is written."""
    path = tmp_path / "bank.json"
    start = Bank("Week 1", "kerala", (_meaning_q("q1"), _meaning_q("q2", "two")), "Ann")
    banks.save_working_bank(start, path)
    # tab a: a new title, q2 changed, q3 added after q1; tab b (read the same start): q1 removed, q4 added
    a = replace(start, title="Week 1 (final)", questions=(start.questions[0], _meaning_q("q3", "three"),
                                                           _meaning_q("q2", "two, mended")))
    b = replace(start, questions=(start.questions[1], _meaning_q("q4", "four")))
    kept_a = banks.save_working_changes(start, a, path).bank
    assert kept_a == banks.load_working_bank(path)
    rep = banks.save_working_changes(start, b, path)
    assert rep.bank == banks.load_working_bank(path)
    assert rep.bank.title == "Week 1 (final)" and rep.bank.author == "Ann"
    assert [(q.id, q.explanation) for q in rep.bank.questions] == [
        ("q3", "three"), ("q2", "two, mended"), ("q4", "four")]
    assert set(rep.from_elsewhere) == {"q2", "q3"}
    # both change q2 from what they read: the second save is refused, the file is untouched
    read = rep.bank
    banks.save_working_changes(read, replace(read, questions=(*read.questions[:1], _meaning_q("q2", "x"),
                                                               read.questions[2])), path)
    before = path.read_text(encoding="utf-8")
    with pytest.raises(banks.BankConflict) as err:
        banks.save_working_changes(read, replace(read, questions=read.questions[::2]), path)  # b removes q2
    assert err.value.ids == ("q2",) and path.read_text(encoding="utf-8") == before
