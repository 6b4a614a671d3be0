"""The ``fiftysix quiz`` and ``fiftysix bank`` commands."""
from __future__ import annotations

import json

import pytest

from fiftysix.drills.banks import load_bank, save_bank
from fiftysix.drills.generate import make_bank
from fiftysix.ui.cli import main


def _run(capsys, *argv) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def test_quiz_json_is_reproducible_by_seed(capsys):
    rc, out1, _ = _run(capsys, "quiz", "--system", "international", "--players", "6", "-n", "4", "--seed", "1", "--json")
    rc2, out2, _ = _run(capsys, "quiz", "--system", "international", "--players", "6", "-n", "4", "--seed", "1", "--json")
    assert rc == rc2 == 0 and out1 == out2
    d = json.loads(out1)
    assert d["seed"] == 1 and len(d["questions"]) == 4
    assert {q["context"]["players"] for q in d["questions"]} == {6}


def test_quiz_bad_input_is_one_error_line(capsys):
    rc, _, err = _run(capsys, "quiz", "--system", "bridge", "-n", "2", "--json")
    assert rc == 2 and "unknown bidding system 'bridge'" in err and "Traceback" not in err
    rc, _, err = _run(capsys, "quiz", "--types", "riddle", "-n", "2", "--seed", "1", "--json")
    assert rc == 2 and "unknown question type 'riddle'" in err


def test_quiz_from_a_starter_bank_asks_the_shipped_questions(capsys):
    from pathlib import Path
    shipped = json.loads((Path(__file__).resolve().parents[1] / "data" / "banks" / "jack-signal.json").read_text())
    rc, out, _ = _run(capsys, "quiz", "--starter", "jack-signal", "-n", "3", "--json")
    d = json.loads(out)
    assert rc == 0 and d["system"] == "jack-signal"
    assert d["questions"] == shipped["questions"][:3]
    rc, _, err = _run(capsys, "quiz", "--starter", "bridge", "-n", "1", "--json")
    assert rc == 2 and err.startswith("fiftysix quiz: error: there is no starter bank 'bridge'")
    assert len(err.splitlines()) == 1


def test_interactive_quiz_marks_and_records(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("FIFTYSIX_DATA_DIR", str(tmp_path))
    rc, out, _ = _run(capsys, "quiz", "--system", "kerala", "-n", "2", "--seed", "3", "--json")
    qs = json.loads(out)["questions"]
    answers = iter([qs[0]["answers"][0], "not a choice", next(c for c in qs[1]["choices"]
                                                                if c not in qs[1]["answers"])])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    rc, out, _ = _run(capsys, "quiz", "--system", "kerala", "-n", "2", "--seed", "3")
    assert rc == 0 and "right." in out and "wrong:" in out and "not one of the choices" in out
    assert out.strip().endswith("1 of 2 right.")
    from fiftysix.drills.progress import ProgressStore
    h = ProgressStore().history()
    assert list(h["correct"]) == [True, False] and list(h["question_id"]) == [qs[0]["id"], qs[1]["id"]]


def test_bank_check_reports_problems_with_ids_and_exit_status(capsys, tmp_path):
    bank = make_bank("international", (6,), 4, seed=5)
    good = tmp_path / "good.json"
    save_bank(bank, good)
    rc, out, _ = _run(capsys, "bank", "check", str(good))
    assert rc == 0 and "4 question(s), no problems" in out
    d = json.loads(good.read_text())
    d["questions"][1]["context"]["auction"] = "28H 28S"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(d))
    rc, out, _ = _run(capsys, "bank", "check", str(bad), "--json")
    r = json.loads(out)
    assert rc == 1 and not r["ok"] and r["problems"][0]["id"] == d["questions"][1]["id"]
    assert r["problems"][0]["kind"] == "auction"


@pytest.mark.parametrize("fmt, suffix", [("json", ".json"), ("csv", ".csv"), ("gift", ".gift"), ("anki", ".txt")])
def test_export_then_import_gives_the_same_bank(capsys, tmp_path, fmt, suffix):
    bank = make_bank("jack-signal", (4, 8), 3, seed=2)
    src = tmp_path / "bank.json"
    save_bank(bank, src)
    out_file = tmp_path / f"export{suffix}"
    rc, _, _ = _run(capsys, "bank", "export", str(src), "--format", fmt, "-o", str(out_file))
    assert rc == 0
    back = tmp_path / "back.json"
    rc, _, err = _run(capsys, "bank", "import", str(out_file), "-o", str(back))
    assert rc == 0 and "checked, no problems" in err
    assert load_bank(back) == bank


def test_missing_bank_file_is_a_clear_error(capsys, tmp_path):
    rc, _, err = _run(capsys, "bank", "export", str(tmp_path / "none.json"), "--format", "csv")
    assert rc == 2 and "cannot read" in err
