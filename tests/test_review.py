"""The review: card costs checked against the plain minimax of tests/naive.py on endings,
a hand-worked ending, the report's own bookkeeping, and call meanings against fits."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from fiftysix.analyser.review import format_review, review, review_auction
from fiftysix.cards import SUITS, Deal, Table
from fiftysix.constraints import fits
from fiftysix.records import Noted, Record, parse_record, read_records
from fiftysix.scoring import Contract
from fiftysix.ui.cli import main
from tests.naive import naive_card_values, naive_max_points
from tests.test_records import random_record


def _naive_review_values(rec: Record) -> list[tuple[int, int]]:
    """(before, after) for each card of the record: the declarers' final total, from the plain
    minimax (points of finished tricks + best play from the position)."""
    c = rec.contract
    table = rec.table
    teams = [table.team_of(s) for s in table.seats]
    out = []
    state = rec.play_state(upto=0, early_stop=False)
    for noted in rec.play:
        hands = [[str(x) for x in h] for h in state.hands]
        trick = [str(x) for _, x in state.current]
        leader = state.trick_leader - 1
        trump = None if c.trump is None else SUITS[c.trump]
        vals = naive_card_values(hands, trump, leader, teams, c.team, trick)
        won = state.points[c.team]
        mover_decl = table.team_of(state.to_move) == c.team
        best = (max if mover_decl else min)(vals.values())
        out.append((won + best, won + vals[noted.token]))
        state.play(noted.token)
    return out


SMALL = [(4, 32, "alternate"), (6, 48, "alternate"), (6, 48, "pairs"), (4, 48, "alternate"),
         (8, 48, "pairs")]


@pytest.mark.parametrize("players, deck, teams", SMALL)
def test_card_values_match_plain_minimax_on_endings(players: int, deck: int, teams: str):
    hand_cards = 3 if players == 4 else 2
    for seed in range(4):
        rec = random_record(players, deck, teams, 1000 + seed, ending=hand_cards, auction=False)
        r = review(rec)
        want = _naive_review_values(rec)
        assert [(x.before, x.after) for x in r.cards] == want
        for x, (before, after) in zip(r.cards, want):
            assert x.cost == (before - after if x.declarer_side else after - before)
            assert x.cost >= 0


def test_hand_worked_ending():
    # No-trump, seat 1 leads, 14 points out. Leading JS first takes all four tricks' points
    # for the declarers (JS wins, then AS wins with spades gone); leading AS loses to 9S and
    # seat 2 then takes the hearts: the whole 14 points change sides.
    base = ('[Table "4"]\n[Deck "32"]\n[Deal "JA... 9.J.. T.T.. .9A.."]\n[Won "20 22"]\n'
            '[Contract "28NT"]\n[Declarer "1"]\n[Play "1"]\n')
    good = parse_record(base + "JS 9S TS AH\nAS JH TH 9H\n")
    bad = parse_record(base + "AS {the wrong ace} 9S TS AH\nJH TH 9H JS\n")
    rg, rb = review(good), review(bad)
    assert rg.dd_start == rb.dd_start == 34
    assert [x.cost for x in rg.cards] == [0] * 8
    assert rg.actual == 34 and rg.made is True and rg.fate_changes == ()
    first = rb.cards[0]
    assert (first.card, first.before, first.after, first.cost, first.best) == ("AS", 34, 20, 14, ("JS",))
    assert first.comment == "the wrong ace"
    assert rb.made is False and rb.result == rb.actual == 20
    assert [(f.index, f.seat, f.card, f.now) for f in rb.fate_changes] == [(1, 1, "AS", "fail")]
    assert rb.lost_by_team == {"odd": 14, "even": 0}
    text = format_review(rb)
    assert "costs 14" in text and "card 1: seat 1 played AS" in text


def test_bookkeeping_on_full_deals():
    for seed, (players, deck) in enumerate([(4, 32), (4, 32), (4, 32)]):
        rec = random_record(players, deck, "alternate", 77 + seed)
        r = review(rec)
        assert r.cards[0].before == r.dd_start
        for a, b in zip(r.cards, r.cards[1:]):
            assert a.after == b.before
        assert r.cards[-1].after == r.dd_end
        decl = sum(x.cost for x in r.cards if x.declarer_side)
        defs = sum(x.cost for x in r.cards if not x.declarer_side)
        assert r.dd_start - decl + defs == r.dd_end
        flips = [x.index for x in r.cards if x.makeable_before != x.makeable_after]
        assert [f.index for f in r.fate_changes] == flips
        assert r.actual == rec.play_state().points[rec.contract.team] == rec.result
        json.dumps(r.to_dict())  # the report is plain JSON


def test_auction_meanings_and_broken_promises():
    table = Table.make(4)
    deal = Deal.parse("JJ9A.JJ9A.. 9ATT.9ATT.. ..JJ9A.JJ9A ..9ATT.9ATT", table)
    from fiftysix.bidding import Auction
    rec = Record(table=table, deal=deal, auction=(Noted("28S", "true"), Noted("29S", "no spade Jack"),
                                                  Noted("P"), Noted("P"), Noted("P")),
                 contract=Contract.make(table, 29, 0, 2))
    calls = review_auction(rec)
    a = Auction("international", table, hands=deal)
    for x in calls:
        meaning = a.meaning_of(x.call, deal.hand(x.seat))
        a.apply(x.call)
        assert (x.label, x.meaning) == (meaning.label, meaning.sentence)
        if meaning.promises_nothing:
            assert x.fits is None
        else:
            assert x.fits == fits(deal.hand(x.seat), meaning.constraint).ok
    assert calls[0].fits is True and calls[0].comment == "true"
    # seat 2 holds 9ATT of spades and no spade Jack: 29S (a number-suit bid) promises one
    assert calls[1].fits is False and calls[1].broken
    assert calls[1].truthful and "29S" not in calls[1].truthful
    hand2 = deal.hand(2)
    a2 = Auction("international", table, hands=deal)
    a2.apply("28S")
    for call in calls[1].truthful:
        assert fits(hand2, a2.meaning_of(call, hand2).constraint).ok


def test_review_random_full_records_are_consistent_with_the_result():
    r = random.Random(5)
    rec = random_record(4, 32, "alternate", r.randint(0, 10 ** 6))
    rv = review(rec)
    assert rv.contract == str(rec.contract) and rv.target == rec.contract.value
    assert rv.made == (rec.result >= rec.contract.value)


ENDINGS = Path(__file__).resolve().parent.parent / "data" / "records" / "endings.txt"


def test_sample_endings_match_plain_minimax():
    recs = read_records(str(ENDINGS))
    assert len(recs) >= 5
    for rec in recs:
        r = review(rec)
        assert [(x.before, x.after) for x in r.cards] == _naive_review_values(rec)
        if not rec.play:
            teams = [rec.table.team_of(s) for s in rec.table.seats]
            trump = None if rec.contract.trump is None else SUITS[rec.contract.trump]
            want = rec.won[rec.contract.team] + naive_max_points(
                [[str(x) for x in h] for h in rec.deal.hands], trump, rec.leader - 1, teams, rec.contract.team)
            assert r.dd_start == want


def test_cli_review(capsys):
    assert main(["review", str(ENDINGS), "--record", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["dd_start"] == 34 and out["actual"] == 20 and out["contract"] == "28NT"
    assert out["cards"][0]["cost"] == 14 and out["fate_changes"][0]["card"] == "AS"
    assert main(["review", str(ENDINGS)]) == 0
    text = capsys.readouterr().out
    assert "costs 14" in text and "the wrong ace" in text
    sample = ENDINGS.parent / "4x8.txt"
    assert main(["review", str(sample), "--record", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    rec = read_records(str(sample))[1]
    assert [c["call"] for c in out["calls"]] == [n.token for n in rec.auction]
    assert all(c["system_bid"] for c in out["calls"]) and out["result"] == rec.result
    assert main(["review", str(ENDINGS), "--record", "99"]) == 2
    assert "holds" in capsys.readouterr().err


def test_budget_leaves_unknowns_not_wrong_values():
    rec = random_record(4, 32, "alternate", 8)
    full = review(rec)
    tight = review(rec, max_seconds=1e-9)
    for a, b in zip(full.cards, tight.cards):
        assert b.before in (None, a.before) and b.after in (None, a.after) and b.cost in (None, a.cost)


def test_system_bids_agree_with_a_bot_auction_and_flag_a_change():
    from dataclasses import replace

    from fiftysix.bidding import format_call
    from fiftysix.bots import bid_with, get_bot
    from fiftysix.cards import random_deal
    table = Table.make(6)
    deal = random_deal(table, seed=12)
    auction = bid_with(deal, "international", "default", seed=0)  # the bot the review asks
    calls = tuple(Noted(format_call(c.call)) for c in auction.calls)
    rec = Record(table=table, deal=deal, auction=calls, contract=auction.contract)
    bids = review_auction(rec, get_bot("default", 0))
    assert [b.system_bid for b in bids] == [n.token for n in calls] and all(b.as_system_bids for b in bids)
    assert all(b.system_reason for b in bids)
    # replace the opening call by another legal one: that call alone is flagged
    from fiftysix.bidding import Auction
    a = Auction("international", table, hands=deal)
    other = next(format_call(c) for c in a.legal_calls() if format_call(c) != calls[0].token)
    b2 = review_auction(replace(rec, auction=(Noted(other),)), get_bot("default", 0))
    assert b2[0].system_bid == calls[0].token and not b2[0].as_system_bids and b2[0].call == other
    assert review_auction(rec)[0].system_bid == ""  # no bot asked: no system bid


def test_progress_reports_every_position_up_to_the_total():
    rec = random_record(4, 32, "alternate", 77, ending=3, auction=False)
    seen: list[tuple[int, int]] = []
    r = review(rec, on_progress=lambda k, n: seen.append((k, n)))
    n = len(rec.play)
    assert seen == [(k, n) for k in range(1, n + 1)]
    assert all(x.before is not None for x in r.cards)


def test_sample_notes_state_what_the_solver_finds():
    """Issue 22 #17: the samples' notes "Double-dummy the declarers could take N; they took M."
    hold (the solver from the first card, the play replayed); none says a hand is too big to solve."""
    import re as _re

    from fiftysix.analyser.solver import BudgetExceeded, Position, max_points
    from fiftysix.play import PlayState
    root = Path(__file__).resolve().parents[1] / "data" / "records"
    checked = 0
    for path in sorted(root.glob("*.txt")):
        for r in read_records(str(path)):
            for note in r.notes:
                assert "too big" not in note.lower(), (path.name, note)
                m = _re.fullmatch(r"Double-dummy the declarers could take (\d+); they took (\d+)\.", note)
                if not m:
                    continue
                c = r.contract
                assert r.play_state().points[c.team] == int(m.group(2)), (path.name, note)
                state = PlayState(r.deal, c.trump, leader=r.leader, early_stop=False, points=list(r.won or ()))
                try:
                    dd = max_points(Position.from_state(state), side=c.team, max_seconds=5)[c.team]
                except BudgetExceeded:
                    continue  # a slow machine: this one is not checked
                assert dd == int(m.group(1)), (path.name, note)
                checked += 1
    assert checked >= 6


def test_a_total_budget_bounds_the_whole_review():
    """Issue 17: a time budget bounds the whole command. Once the review's budget is spent the
    positions left are not solved (shown as unknown), and an ample budget changes nothing."""
    rec = random_record(4, 32, "alternate", 78)
    full = review(rec)
    ample = review(rec, total_seconds=600)
    assert [c.before for c in ample.cards] == [c.before for c in full.cards] and ample.dd_start == full.dd_start
    spent = review(rec, total_seconds=1e-9)  # spent before the first search starts
    assert spent.dd_start is None and all(c.before is None for c in spent.cards)
    assert spent.unsolved == len(rec.play)
    assert [x.call for x in spent.calls] == [x.call for x in full.calls]  # the auction is still reviewed


def test_review_command_takes_a_total_budget(capsys, tmp_path):
    rec = random_record(4, 32, "alternate", 79)
    path = tmp_path / "one.txt"
    from fiftysix.records import format_record
    path.write_text(format_record(rec), encoding="utf-8")
    assert main(["review", str(path), "--total-seconds", "0.000001", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["dd_start"] is None
    assert main(["review", str(path), "--total-seconds", "nan"]) == 2
