from __future__ import annotations

import json

from fiftysix import shipped
from fiftysix.bidding import docs
from fiftysix.ui.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_explain_json(capsys):
    code, out, _ = run(capsys, "explain", "--system", "international", "--players", "6",
                       "28H P +1H X P 30NS", "--json")
    assert code == 0
    d = json.loads(out)
    calls = d["calls"]
    assert [c["call"] for c in calls] == ["28H", "P", "+1H", "X", "P", "30NS"]
    assert [c["value"] for c in calls] == [28, 28, 29, 29, 29, 30]
    assert [c["trump"] for c in calls] == ["H", "H", "H", "H", "H", "NT"]
    assert [c["seat"] for c in calls] == [1, 2, 3, 4, 5, 6]
    assert calls[0]["team"] == "odd" and calls[1]["team"] == "even"
    assert calls[2]["label"] == "singleton Jack of hearts"
    assert calls[5]["constraints"]["count"][:2] == ["JH", "9H"] and calls[5]["constraints"]["max"] == 0
    assert d["over"] is False and d["to_move"] == 1 and d["contract"] is None


def test_explain_finished_auction_gives_contract(capsys):
    _code, out, _ = run(capsys, "explain", "--system", "classic",
                       "28H +C +1H P 1+H NS 2+D P P -C P -1C 38S P 40NT P P P P P", "--json")
    d = json.loads(out)
    assert d["over"] and d["to_move"] is None
    assert d["contract"]["contract"] == "40NT" and d["contract"]["declarer"] == 3
    assert d["contract"]["team"] == "odd"


def test_illegal_call_is_one_error_line(capsys):
    code, out, err = run(capsys, "explain", "28H P 28S")
    assert code == 2 and out == ""
    assert "call 3 (28S) by seat 3" in err and "higher than" in err and err.count("\n") == 1
    code, _, err = run(capsys, "explain", "--system", "nope", "28H")
    assert code == 2 and "unknown bidding system" in err


def test_calls_palette_respects_the_hand(capsys):
    _code, out, _ = run(capsys, "calls", "--system", "kerala", "--auction", "28H P P P P P",
                       "--hand", "J9AT.JK.KQ.A", "--json")
    d = json.loads(out)
    assert d["to_move"] == 1
    assert [c["call"] for c in d["calls"]] == ["P", "40H^", "48H^", "56H^"]
    _code, out, _ = run(capsys, "calls", "--hand", "J9AT.JJ9A..AK", "--json")
    calls = {c["call"] for c in json.loads(out)["calls"]}
    assert "28-Pass" in calls and "28H" in calls and "28D" not in calls and "P" not in calls


def test_fits(capsys):
    _code, out, _ = run(capsys, "fits", "--auction", "28H P +1H", "--hand", "JJ.J9.KQ.AT", "--json")
    d = json.loads(out)
    assert d["fits"] is False and d["broken"] == ["exactly one heart (holds 2)"]
    _code, out, _ = run(capsys, "fits", "--auction", "28H P +1H", "--hand", "JJ9.J.KQ.AT", "--json")
    assert json.loads(out)["fits"] is True


def test_committed_doc_equals_generated():
    assert shipped.guide("systems.md") == docs.render()
    assert docs.main(["--check"]) == 0
