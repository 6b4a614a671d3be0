"""The practice table's hand (drills/practice.py), checked against facts found another way:
the bots' auction against ``bid_with``, broken promises against the hand's own cards, the
points against the plain trick rules of tests/naive.py, the record against its parser, the
match against the stake table."""
from __future__ import annotations

import pytest

from fiftysix.bidding import Auction
from fiftysix.bots import bid_with
from fiftysix.cards import Table, random_deal
from fiftysix.drills import practice as P
from fiftysix.drills.progress import ProgressStore
from fiftysix.errors import FiftySixError, IllegalCallError, IllegalPlayError
from fiftysix.hand import AUCTION, OVER, PLAY, HandState
from fiftysix.records import format_record, parse_record
from fiftysix.scoring import STAKES, Match, ScoringError
from tests.naive import naive_card_points, naive_trick_winner

TABLE = Table.make(4)
SYSTEM = "international"


def _whole(t: P.PracticeTable) -> tuple:
    """Everything the table holds: its moves, the bots' reasons and the feedback."""
    return t.state.moves, tuple(t.call_reasons), tuple(t.card_reasons), tuple(t.feedback), t.played_out


def _bid_like_the_bot(hand: P.PracticeTable) -> None:
    """The bots call; at the learner's turns the learner makes the bot's own call."""
    while True:
        hand.bots_to_call()
        if hand.phase != AUCTION:
            return
        hand.your_call(hand.hint().move)


def _play_first_legal(hand: P.PracticeTable) -> None:
    while hand.phase == PLAY:
        hand.bots_to_play()
        if hand.phase != PLAY:
            return
        hand.your_card(str(hand.legal_cards()[0]))


def _finished(seed: int = 5, seat: int = 2, played_out: bool = False) -> P.PracticeTable:
    hand = P.new_table(TABLE, SYSTEM, seat, seed=seed, bot="rules")
    _bid_like_the_bot(hand)
    _play_first_legal(hand)
    if played_out and hand.can_play_out:
        hand.play_it_out()
        _play_first_legal(hand)
    return hand


def test_a_seed_gives_the_deal_and_the_bots_give_their_own_auction():
    hand = P.new_table(TABLE, SYSTEM, 2, seed=5, bot="rules")
    assert hand.deal == random_deal(TABLE, seed=5)
    _bid_like_the_bot(hand)
    # the learner made the bot's calls, so the auction is the one the bots bid alone
    assert " ".join(hand.calls) == str(bid_with(hand.deal, SYSTEM, "rules", seed=5))
    again = P.new_table(TABLE, SYSTEM, 2, seed=5, bot="rules")
    _bid_like_the_bot(again)
    assert again.calls == hand.calls and again.call_reasons == hand.call_reasons
    assert all(fb.right and fb.same_as_bot for fb in hand.feedback)


def test_the_bots_stop_at_your_turn():
    hand = P.new_table(TABLE, SYSTEM, 3, seed=2, bot="rules")
    moves = hand.bots_to_call()
    assert [m.seat for m in moves] == [1, 2]  # seat 1 calls first; seat 3 is next
    assert hand.your_turn and Auction.parse(" ".join(hand.calls), SYSTEM, TABLE).to_move == 3
    assert all(m.reason for m in moves) and hand.call_reasons == [m.reason for m in moves]


def test_a_broken_promise_names_the_part_the_hand_breaks():
    seed = 5  # seat 1 holds hearts but not the heart Jack
    hand = P.new_table(TABLE, SYSTEM, 1, seed=seed, bot="rules")
    mine = str(hand.deal.hand(1))
    hearts = mine.split(".")[1]
    assert "J" not in hearts and len(hearts) >= 2
    fb = hand.your_call("+1H")  # "singleton Jack of hearts"
    assert fb.kept is False and fb.call == "+1H"
    broken = " ".join(fb.broken)
    assert "Jack of hearts" in broken  # the hand holds none
    assert "exactly one heart" in broken  # it holds len(hearts) of them
    assert f"holds {len(hearts)}" in broken
    # every call offered instead keeps its promise for this hand
    before = Auction(SYSTEM, TABLE)
    for call in fb.truthful:
        m = before.meaning_of(call, hand.deal.hand(1))
        assert m.constraint.holds(hand.deal.hand(1).counts())
    assert fb.bot_call == P.new_table(TABLE, SYSTEM, 1, seed=seed, bot="rules").hint().move
    assert not fb.right
    assert "Jack of hearts" in fb.partners_know  # what the call told the table, true or not


def test_illegal_moves_leave_the_hand_as_it_was():
    hand = P.new_table(TABLE, SYSTEM, 2, seed=5, bot="rules")
    with pytest.raises(IllegalCallError):
        hand.your_call("P")  # seat 1 is to call, not seat 2
    hand.bots_to_call()
    before = _whole(hand)
    with pytest.raises(IllegalCallError):
        hand.your_call("27H")  # under the lowest bid
    with pytest.raises(IllegalCallError):
        hand.your_call("nonsense")
    assert _whole(hand) == before
    _bid_like_the_bot(hand)
    hand.bots_to_play()
    state = hand.state.play
    before = _whole(hand)
    if state.to_move == hand.seat:
        mine = state.hands[hand.seat - 1]
        illegal = [c for c in mine.cards if c not in state.legal_cards()]
        for c in illegal:
            with pytest.raises(IllegalPlayError):
                hand.your_card(str(c))
        not_held = next(c for c in TABLE.kinds() if c not in mine)
        with pytest.raises(IllegalPlayError):
            hand.your_card(str(not_held))
    assert _whole(hand) == before


def test_the_points_are_the_tricks_replayed_by_the_plain_rules():
    hand = _finished(seed=5, played_out=True)
    c = Auction.parse(" ".join(hand.calls), SYSTEM, TABLE).contract
    trump = None if c.trump is None else "SHDC"[c.trump]
    points = [0, 0]
    leader, cards = 1, list(hand.cards)
    decided = None
    for t0 in range(0, len(cards), 4):
        trick = cards[t0:t0 + 4]
        seats = [(leader - 1 + k) % 4 + 1 for k in range(4)]
        win = seats[naive_trick_winner(trick, trump)]
        points[(win - 1) % 2] += sum(naive_card_points(x) for x in trick)
        leader = win
        left = 56 - sum(points)
        if decided is None and (points[c.team] >= c.value or points[c.team] + left < c.value):
            decided = tuple(points)
    out = hand.outcome()
    assert out.points_end == tuple(points) and sum(points) == 56  # played out: every card
    assert out.points == decided
    made = decided[c.team] >= c.value
    assert out.made == made
    win, lose = next((w, l) for lo, hi, w, l in STAKES if lo <= c.value <= hi)
    assert out.stake == (win if made else lose) * c.doubled
    mine = 1 if made == (hand.your_team == c.team) else -1
    assert out.your_score == mine * out.stake


def test_the_play_stops_when_the_contract_is_decided_and_plays_out_on_request():
    hand = _finished(seed=5)
    state = hand.state.play
    assert hand.phase == OVER
    if hand.can_play_out:
        assert state.stop_reason in ("target reached", "target out of reach") and state.cards_left
        first = hand.outcome()
        hand.play_it_out()
        assert hand.phase == PLAY
        _play_first_legal(hand)
        assert hand.state.play.cards_left == 0
        assert hand.outcome().result == first.result  # playing on changes nothing once decided
    with pytest.raises(P.PracticeError):
        hand.play_it_out()


def test_the_record_round_trips_through_the_parser():
    hand = _finished(seed=5, played_out=True)
    record = hand.to_record(event="Tuesday practice", date="2026.12.02", player="Asha")
    back = parse_record(format_record(record))
    assert back == record
    assert [n.token for n in back.auction] == hand.calls
    assert back.contract == hand.contract
    at = hand.state.decided_at
    # played out: the record keeps every card (the library and the Review page step through the
    # whole hand), marked [PlayedOut "yes"]; the result stays the points when it was decided
    assert at is not None and at < len(hand.cards)
    assert back.played_out and '[PlayedOut "yes"]' in format_record(record)
    assert [n.token for n in back.play] == hand.cards
    assert tuple(back.play_state(upto=at).points) == hand.outcome().points
    assert tuple(back.play_state().points) == hand.outcome().points_end
    assert back.result == hand.outcome().result.declarer_points
    assert back.players[hand.seat - 1] == "Asha"
    if at is not None and at < len(hand.cards):
        assert any(" ".join(hand.cards[at:]) in n for n in back.notes)


def test_a_hand_not_played_out_is_recorded_as_the_rules_stop_it():
    hand = _finished(seed=5)
    assert not hand.played_out
    record = hand.to_record()
    assert not record.played_out and "PlayedOut" not in format_record(record)
    assert [n.token for n in record.play] == hand.cards
    assert parse_record(format_record(record)) == record


def test_a_stored_hand_reads_back_and_a_tampered_one_is_refused():
    hand = _finished(seed=5)
    moves = hand.your_moves()  # the table's serialized form: the learner's moves (with the seed)
    assert _whole(hand.replayed(moves)) == _whole(hand)
    calls = len(hand.feedback)
    mine = moves[calls:]
    with pytest.raises(FiftySixError):
        hand.replayed(moves[:calls] + mine[:1] + mine[:1] + mine[2:])  # the first card twice
    with pytest.raises(FiftySixError):
        hand.replayed(moves[:calls - 1] + mine)  # a call left out: a card where a call is due
    # the hand's own form, its moves, is refused the same way when one does not fit
    state = hand.state
    with pytest.raises(IllegalPlayError, match="auction is not over"):
        HandState.from_moves(state.deal, SYSTEM, state.options, state.cards[:1] + state.moves)
    assert HandState.from_moves(state.deal, SYSTEM, state.options, state.moves).moves == state.moves


def test_the_card_bots_play_the_same_cards_for_the_same_seed():
    a, b = _finished(seed=7, seat=1), _finished(seed=7, seat=1)
    assert a.cards == b.cards and a.card_reasons == b.card_reasons
    assert all(r for r, s in zip(a.card_reasons, a.state.play.tricks) if r)  # bots give reasons


def test_a_match_moves_the_stakes_by_the_stake_table():
    m = Match("chips", TABLE)
    totals = [12, 12]
    for seed in (5, 7, 9):
        hand = _finished(seed=seed)
        out = hand.outcome()
        assert m.record(hand.key, out.result)
        assert not m.record(hand.key, out.result)  # the same hand is counted once
        decl = out.contract.team
        moved = min(out.stake, totals[1 - decl] if out.made else totals[decl])
        totals[decl] += moved if out.made else -moved
        totals[1 - decl] -= moved if out.made else -moved
        assert list(m.totals) == totals
        if m.is_over:
            break
    assert Match.from_text(m.to_text(), TABLE).totals == m.totals
    race = Match("race", TABLE)
    hand = _finished(seed=5)
    race.record(hand.key, hand.outcome().result)
    out = hand.outcome()
    assert race.totals[out.contract.team] == out.result.score and race.totals[1 - out.contract.team] == 0
    with pytest.raises(ScoringError):
        Match("bridge", TABLE)


def test_wrong_calls_become_drill_ideas(tmp_path):
    hand = P.new_table(TABLE, SYSTEM, 1, seed=5, bot="rules")
    hand.your_call("+1H")  # breaks its promise (see above)
    _bid_like_the_bot(hand)
    store = ProgressStore(tmp_path / "p.sqlite3", learner="asha")
    n = hand.record_drills(store)
    wrong = [fb for fb in hand.feedback if not fb.right]
    assert len(wrong) >= 1
    history = store.history()
    assert len(history) == n and set(history["source"]) == {P.DRILL_SOURCE}
    # every wrong call is stored; a right call only where its idea was already being drilled
    seen: set[str] = set()
    stored = iter(history.itertuples())
    for fb in hand.feedback:
        key = f"your-call/{SYSTEM}/4p/{fb.family}"
        if not fb.right or key in seen:
            row = next(stored)
            assert (row.response, row.correct, row.template) == (fb.call, fb.right, key)
        if not fb.right:
            seen.add(key)
    assert next(stored, None) is None
    key = f"your-call/{SYSTEM}/4p/{wrong[0].family}"
    assert key in store.cards()
    assert key in history["template"].tolist()
    from datetime import timedelta

    from fiftysix.drills.schedule import utcnow
    assert key in store.due_templates(utcnow() + timedelta(days=1))  # it comes back soon


def test_double_dummy_agrees_with_the_review():
    from fiftysix.analyser.review import review
    hand = _finished(seed=5)
    dd = hand.double_dummy()
    rev = review(hand.to_record())
    assert dd.declarers == rev.dd_start
    assert dd.target == hand.contract.value
    for best in dd.best:
        if best.points is not None and best.points >= 28:
            assert best.contract == f"{min(best.points, 56)}{best.strain}"
            assert best.stake == next(w for lo, hi, w, _ in STAKES if lo <= min(best.points, 56) <= hi)


def test_learning_and_practice_modes_and_bad_settings():
    with pytest.raises(P.PracticeError):
        P.new_table(TABLE, SYSTEM, 1, seed=1, mode="cheating")
    with pytest.raises(P.PracticeError):
        P.new_table(TABLE, SYSTEM, 1, seed=1, bot="oracle")
    with pytest.raises(FiftySixError, match="unknown bidding system"):
        P.new_table(TABLE, "no-such-system", 1, seed=1)
    hand = P.new_table(TABLE, SYSTEM, 1, seed=1, bot="rules", mode="practice")
    pal = hand.palette()
    assert pal and all(isinstance(p.keeps, bool) for p in pal)
    legal = [str(c) for c in Auction(SYSTEM, TABLE).legal_calls(hand.deal.hand(1))]
    assert [p.call for p in pal] == legal
    mine = hand.deal.hand(1)
    for p in pal:  # "keeps" is the hand's fit to the meaning shown
        assert p.keeps == Auction(SYSTEM, TABLE).meaning_of(p.call, mine).constraint.holds(mine.counts())


def test_the_cost_of_a_card_is_the_reviews_cost():
    from fiftysix.analyser.review import review
    hand = _finished(seed=5)
    rev = review(hand.to_record())
    for x in rev.cards[:8]:
        got = hand.card_cost(x.index)
        assert got is not None and got.card == x.card
        assert got.cost == x.cost and set(got.best) == set(x.best)


def test_the_default_bot_calls_as_it_does_alone():
    """The page's default bot (the judge) at the table: the first bot's call is the one it
    makes for that hand on its own, and its hint and feedback agree (one decision each)."""
    from fiftysix.bots import get_bot
    hand = P.new_table(TABLE, SYSTEM, 2, seed=5)
    assert hand.bot == "default"
    hand.bots_to_call()
    alone = get_bot("default", 5).choose(Auction(SYSTEM, TABLE), hand.deal.hand(1))
    assert hand.calls[0] == str(alone.call) and hand.call_reasons[0] == alone.reason
    hint = hand.hint()
    fb = hand.your_call(hint.move)
    assert fb.bot_call == hint.move and fb.bot_reason == hint.reason and fb.right


def test_the_learners_moves_and_the_seed_give_the_hand_back():
    for seed, out in ((5, True), (7, False)):
        hand = _finished(seed=seed, played_out=out)
        moves = hand.your_moves()
        assert moves[:len(hand.feedback)] == [f.call for f in hand.feedback]
        assert (P.PLAY_OUT in moves) == hand.played_out
        assert _whole(hand.replayed(moves)) == _whole(hand)
    hand = P.new_table(TABLE, SYSTEM, 2, seed=5, bot="rules")
    _bid_like_the_bot(hand)
    hand.bots_to_play()
    hand.your_card(str(hand.legal_cards()[0]))  # mid-play
    again = hand.replayed(hand.your_moves())
    hand.bots_to_play()  # the replay moves the bots on to the learner's turn, as the page does
    assert _whole(again) == _whole(hand)
    with pytest.raises((P.PracticeError, IllegalCallError, IllegalPlayError)):
        hand.replayed(["27H"])
    with pytest.raises((P.PracticeError, IllegalCallError, IllegalPlayError)):
        hand.replayed([f.call for f in hand.feedback] + ["XX9"])


def test_a_played_out_hand_is_reviewed_and_kept_whole_in_the_library(tmp_path):
    from fiftysix.analyser.review import review
    from fiftysix.drills.library import Library
    hand = _finished(seed=5, played_out=True)
    record = hand.to_record()
    rev = review(record, max_seconds=5.0)
    assert [c.card for c in rev.cards] == hand.cards  # the review steps through every card played
    assert rev.result == hand.outcome().result.declarer_points and rev.made == hand.outcome().made
    lib = Library(tmp_path / "lib.sqlite3")
    rid = lib.add([record], "practice table").ids[0]
    back = lib.get(rid)
    assert back == record and [n.token for n in back.play] == hand.cards


def test_a_match_in_a_few_words_reads_back_the_same_and_bad_words_are_refused():
    for fmt in ("chips", "race", "games"):
        m = Match(fmt, TABLE)
        for seed in (5, 7, 9):
            hand = _finished(seed=seed)
            m.record(hand.key, hand.outcome().result)
        back = Match.from_text(m.to_text(), TABLE)
        assert back == m and back.hands == m.hands and back.totals == m.totals  # scored again, the same
    assert Match.from_text("chips", TABLE).hands == []
    h = m.hands[0]
    made = h.reason == "made"
    for bad in ("bridge", f"chips {h.key}.{h.contract}.{h.declarer}.{h.points}",  # a part missing
                f"chips {h.key}.{h.contract}.{h.declarer}.99.0",  # more than 56 points
                f"chips {h.key}.{h.contract}.{h.declarer}.{h.points}.{1 if made else 0}",  # made/failed wrong
                f"chips {h.key}.{h.contract}.{h.declarer}.{h.points}.9",  # no such result
                f"chips {h.key}.{h.contract}.{h.declarer}.{h.points}.0 " * 2,  # one hand twice
                "chips k.27Z.1.30.0"):
        with pytest.raises(ScoringError):
            Match.from_text(bad, TABLE)
