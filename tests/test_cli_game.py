from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from fiftysix.cards import Deal, Table
from fiftysix.ui.cli import main
from tests.naive import naive_legal_cards, naive_trick_points, naive_trick_winner

ROOT = Path(__file__).resolve().parents[1]
ENDING = "J.9.. T.A.. A.T.. 9.J.."   # 4 players, 2 cards each


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_deal_prints_one_canonical_complete_deal(capsys):
    code, out, _ = run(capsys, "deal", "--players", "6", "--seed", "7")
    assert code == 0 and out.count("\n") == 1
    text = out.strip()
    deal = Deal.parse(text, Table.make(6))           # a complete 48-card deal
    assert str(deal) == text and len(text.split()) == 6
    assert run(capsys, "deal", "--players", "6", "--seed", "7")[1] == out
    assert run(capsys, "deal", "--players", "6", "--seed", "8")[1] != out


@pytest.mark.parametrize("players, deck, size", [(4, None, 8), (4, "48", 12), (8, None, 8), (8, "48", 6)])
def test_deal_table_options(capsys, players, deck, size):
    argv = ["deal", "--players", str(players), "--seed", "1", "--json"]
    if deck:
        argv += ["--deck", deck]
    code, out, _ = run(capsys, *argv)
    data = json.loads(out)
    assert code == 0 and data["players"] == players
    hands = data["deal"].split()
    assert len(hands) == players and all(len(h.replace(".", "")) == size for h in hands)
    assert data["hands"]["1"] == hands[0]


def test_replay_ending_text_and_json(capsys):
    argv = ["replay", "--players", "4", "--deal", ENDING, "--trump", "NT", "--cards", "JS TS AS 9S 9H AH TH JH"]
    code, out, _ = run(capsys, *argv)
    assert code == 0
    assert "trick 1: seat 1 leads JS TS AS 9S -> seat 1 wins 7 points" in out
    assert "trick 2: seat 1 leads 9H AH TH JH -> seat 4 wins 7 points" in out
    assert "points: odd 7, even 7" in out and "over: all cards" in out
    code, out, _ = run(capsys, *argv, "--json")
    data = json.loads(out)
    assert data["tricks"] == [{"leader": 1, "cards": ["JS", "TS", "AS", "9S"], "winner": 1, "points": 7},
                              {"leader": 1, "cards": ["9H", "AH", "TH", "JH"], "winner": 4, "points": 7}]
    assert data["points"] == {"odd": 7, "even": 7} and data["over"] is True and data["reason"] == "all cards"


@pytest.mark.parametrize("target, declarer, over, reason", [
    ("7", "odd", True, "target reached"), ("8", "odd", False, None),
    ("8", "even", True, "target out of reach"), ("7", "2", False, None),
])
def test_replay_early_stop(capsys, target, declarer, over, reason):
    code, out, _ = run(capsys, "replay", "--players", "4", "--deal", ENDING, "--trump", "C",
                       "--cards", "JS TS AS 9S", "--target", target, "--declarer", declarer, "--json")
    data = json.loads(out)
    assert code == 0 and data["over"] is over and data["reason"] == reason


def test_replay_leader_and_trump(capsys):
    # seat 3 leads (as with declarer-leads); seat 2 has no spade and ruffs with the ten of hearts
    code, out, _ = run(capsys, "replay", "--players", "4", "--deal", "J.9.. .AT.. A.T.. 9.J..",
                       "--trump", "♥", "--cards", "AS 9S JS TH", "--leader", "3", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["tricks"][0] == {"leader": 3, "cards": ["AS", "9S", "JS", "TH"], "winner": 2, "points": 7}
    assert data["points"] == {"odd": 0, "even": 7} and data["to_move"] == 2


def test_replay_matches_naive_on_a_random_deal(capsys):
    deal_text = run(capsys, "deal", "--players", "8", "--seed", "11")[1].strip()
    hands = {s: [] for s in range(1, 9)}
    for s, h in enumerate(deal_text.split(), start=1):
        for suit, group in zip("SHDC", h.split(".")):
            hands[s] += [r + suit for r in group]
    rng = random.Random(3)
    cards, expected, seat = [], [], 1
    for _ in range(8):
        trick = []
        lead = seat
        for _ in range(8):
            c = rng.choice(sorted(naive_legal_cards(hands[seat], trick[0][1] if trick else None)))
            hands[seat].remove(c)
            trick.append(c)
            seat = seat % 8 + 1
        seat = (lead - 1 + naive_trick_winner(trick, "D")) % 8 + 1
        expected.append({"leader": lead, "cards": trick, "winner": seat, "points": naive_trick_points(trick)})
        cards += trick
    code, out, _ = run(capsys, "replay", "--players", "8", "--deal", deal_text, "--trump", "d",
                       "--cards", " ".join(cards), "--json")
    data = json.loads(out)
    assert code == 0 and data["tricks"] == expected
    assert sum(data["points"].values()) == 56 and data["reason"] == "all cards"


def test_replay_pairs_team_names(capsys):
    deal = "J.9.. T.A.. A.T.. 9.J.. K.K.. Q.Q.."
    _code, out, _ = run(capsys, "replay", "--players", "6", "--teams", "pairs", "--deal", deal, "--trump", "NT",
                       "--cards", "JS TS AS 9S KS QS", "--target", "10", "--declarer", "1-4", "--json")
    data = json.loads(out)
    assert data["points"] == {"1-4": 7, "2-5": 0, "3-6": 0} and data["over"] is False


BAD = [
    (["deal", "--players", "6", "--deck", "32"], "6-player table uses a deck of 48 cards, not 32"),
    (["replay", "--deal", "", "--trump", "H", "--cards", "JS"], "empty deal"),
    (["replay", "--players", "4", "--deal", ENDING, "--trump", "", "--cards", "JS"], "unknown trump ''"),
    (["replay", "--players", "4", "--deal", ENDING, "--trump", "X", "--cards", "JS"], "unknown trump 'X'"),
    (["replay", "--players", "4", "--deal", ENDING, "--trump", "H", "--cards", ""], "--cards is empty"),
    (["replay", "--players", "4", "--deal", ENDING, "--trump", "H", "--cards", "JZ"], "unknown suit 'Z'"),
    (["replay", "--players", "4", "--deal", "JJ... .J.. J... .9..", "--trump", "H", "--cards", "JS"],
     r"JS appears 3 times \(seats 1, 3\)"),
    (["replay", "--players", "6", "--deal", "7... 9... A... T... K... Q...", "--trump", "H", "--cards", "7S"],
     "seat 1: 7S is not in the 48-card deck"),
    (["replay", "--players", "4", "--deal", "JJ... 9... A... T...", "--trump", "H", "--cards", "JS"],
     "seat 2 holds 1 cards but seat 1 holds 2"),
    (["replay", "--players", "4", "--deal", "J.. 9... A... T...", "--trump", "H", "--cards", "JS"],
     "seat 1: hand 'J..' has 3 suit group"),
    (["replay", "--players", "4", "--deal", "J... 9... A...", "--trump", "H", "--cards", "JS"],
     "3 hand\\(s\\); a 4-player table needs 4"),
    (["replay", "--players", "4", "--deal", ENDING, "--trump", "H", "--cards", "JS AH"],
     r"card 2 AH: seat 2 must follow suit in spades \(holds TS\)"),
    (["replay", "--players", "4", "--deal", ENDING, "--trump", "H", "--cards", "JS JC"],
     "card 2 JC: seat 2 does not hold the Jack of clubs"),
    (["replay", "--players", "4", "--deal", ENDING, "--trump", "H", "--cards", "JS TS AS 9S JS",
      "--target", "7", "--declarer", "odd"], "card 5 JS: the hand is over \\(target reached\\)"),
    (["replay", "--players", "4", "--deal", ENDING, "--trump", "H", "--cards", "JS", "--target", "7"],
     "--target and --declarer together"),
    (["replay", "--players", "4", "--deal", ENDING, "--trump", "H", "--cards", "JS", "--target", "70",
      "--declarer", "odd"], "--target must be 1..56"),
    (["replay", "--players", "4", "--deal", ENDING, "--trump", "H", "--cards", "JS", "--target", "30",
      "--declarer", "north"], "unknown team 'north'"),
    (["replay", "--players", "4", "--deal", ENDING, "--trump", "H", "--cards", "JS", "--leader", "5"],
     "--leader 5"),
]


@pytest.mark.parametrize("argv, message", BAD)
def test_bad_input_one_error_line(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"fiftysix {argv[0]}: error: ")
    assert "Traceback" not in err
    assert re.search(message, lines[0]), lines[0]


def test_console_script_exit_codes():
    exe = Path(sys.executable).parent / "fiftysix"  # the console script of the running environment
    ok = subprocess.run([str(exe), "deal", "--players", "4", "--seed", "2"], capture_output=True, text=True,
                        timeout=60, check=False)
    assert ok.returncode == 0
    assert Deal.parse(ok.stdout.strip(), Table.make(4)).is_complete
    bad = subprocess.run([str(exe), "replay", "--players", "6", "--deal", "JJJ.....", "--trump", "H",
                          "--cards", "JS"], capture_output=True, text=True, timeout=60, check=False)
    assert bad.returncode == 2 and bad.stdout == ""
    assert len(bad.stderr.strip().splitlines()) == 1 and "Traceback" not in bad.stderr
