"""The Play page: bid and play a whole hand with the bots, see the review, save it; a reload,
a second session and an illegal card leave the hand whole and the saved records safe."""
from __future__ import annotations

from fiftysix.cards import SUIT_SYMBOLS, Table, random_deal
from fiftysix.drills import practice as P
from fiftysix.drills.library import Library
from fiftysix.drills.progress import ProgressStore
from fiftysix.hand import AUCTION, OVER, PLAY
from fiftysix.records import format_record, parse_record
from fiftysix.ui import render
from tests.app_harness import open_page, texts

TABLE = Table.make(4)
LINK = {"players": "4", "pl_bot": "rules", "pl_seat": "2", "pl_seed": "5"}


def _hand(at) -> P.PracticeTable:
    return at.session_state["pl_table"]


def _whole(t: P.PracticeTable) -> tuple:
    """Everything the table holds, as it is now: its moves, the bots' reasons and the feedback."""
    return t.state.moves, tuple(t.call_reasons), tuple(t.card_reasons), tuple(t.feedback), t.played_out


def _check(t: P.PracticeTable) -> None:
    """The table hangs together: a reason for every call and card, feedback on each of the
    learner's calls, and the learner's moves (its serialized form) give it back whole."""
    assert len(t.call_reasons) == len(t.calls) and len(t.card_reasons) == len(t.cards)
    assert [f.index for f in t.feedback] == [r.index for r in t.state.auction.calls if r.seat == t.seat]
    assert _whole(t.replayed(t.your_moves())) == _whole(t)


def _ok(at) -> None:
    assert not at.exception, [e.value for e in at.exception]


def _call_buttons(at) -> list:
    return [b for b in at.button if (b.key or "").startswith("pl_call_")]


def _card_buttons(at) -> list:
    return [b for b in at.button if (b.key or "").startswith("pl_card_")]


def _bid_to_the_end(at, first: str | None = None) -> None:
    """Make the first call given, then the first call of the palette (Pass where legal) until
    the auction is over."""
    for _ in range(60):
        hand = _hand(at)
        if hand.phase != AUCTION:
            return
        assert hand.your_turn
        key = f"pl_call_{first}" if first else _call_buttons(at)[0].key
        first = None
        at.button(key=key).click().run()
        _ok(at)
    raise AssertionError("the auction never ended")


def _play_to_the_end(at) -> None:
    for _ in range(40):
        hand = _hand(at)
        if hand.phase == OVER:
            return
        assert hand.your_turn
        enabled = [b for b in _card_buttons(at) if not b.disabled]
        assert [b.key for b in enabled] == [f"pl_card_{c}" for c in hand.legal_cards()]  # only legal cards click
        enabled[0].click().run()
        _ok(at)
    raise AssertionError("the play never ended")


def test_bid_play_review_and_save_a_whole_hand(tmp_path, monkeypatch):
    at = open_page("play", tmp_path, monkeypatch, query=LINK)
    hand = _hand(at)
    assert hand.deal == random_deal(TABLE, seed=5) and hand.seat == 2 and hand.bot == "rules"
    assert hand.your_turn and len(hand.calls) == 1  # seat 1 (a bot) has called
    # the palette: every legal call for seat 2's hand, each with its meaning on hover
    pal = hand.palette()
    shown = {b.key[len("pl_call_"):]: b for b in _call_buttons(at)}
    listed = at.selectbox(key=f"pl_more_{len(hand.calls)}").options  # every call, to read on a phone
    assert {o.split(":")[0].lstrip("✓ ") for o in listed} == {p.call for p in pal}
    assert set(shown) < {p.call for p in pal}  # the near ones have buttons too
    # nothing is picked in the list until the learner picks: "Call it" cannot make an unchosen bid
    assert at.selectbox(key=f"pl_more_{len(hand.calls)}").value is None
    assert at.button(key="pl_more_btn").disabled
    for p in pal:
        if p.call in shown:
            assert p.label in shown[p.call].help and p.meaning in shown[p.call].help
    # a call that breaks its promise: the feedback names the broken part at once
    broken = next(p for p in pal if not p.keeps and p.call in shown and p.call not in ("P", "X"))
    _bid_to_the_end(at, first=broken.call)
    hand = _hand(at)
    fb = hand.feedback[0]
    assert fb.call == broken.call and fb.kept is False
    assert ProgressStore(tmp_path / "progress.sqlite3", learner="player").history()["response"].iloc[0] == fb.call
    assert hand.state.auction.is_over
    _play_to_the_end(at)
    hand = _hand(at)
    out = hand.outcome()
    page = texts(at)
    assert "After the hand" in page and f"the declarers took {out.result.declarer_points} of" in page
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Contract"] == str(out.contract) and metrics["Your team"] == f"{out.your_score:+d}"
    assert "Broken promise" in page  # the review's auction panel opens at the broken promise
    [fig] = at.get("plotly_chart")
    # its title is text above it (a Plotly title is one line, cut off on a phone) and no tool bar
    assert "double-dummy total" not in fig.proto.spec and '"displayModeBar": false' in fig.proto.config
    assert any(m.value.replace("\\", "").endswith("double-dummy total through the play**") for m in at.markdown)
    assert any("Double-dummy at the start" in m.value for m in at.markdown)
    # the match counts the hand once, however often the page reruns
    at.run()
    assert len(at.session_state["pl_match_state"].hands) == 1
    at.button(key="pl_save").click().run()
    _ok(at)
    lib = Library(tmp_path / "progress.sqlite3")
    assert lib.count() == 1
    saved = lib.get(lib.list()[0].id)
    assert saved == parse_record(format_record(saved))
    assert [n.token for n in saved.auction] == hand.calls
    assert saved.contract == out.contract and saved.result == out.result.declarer_points
    assert "Saved to the hand library as record #" in texts(at)
    # the next hand moves the seed on and starts a new table; the match keeps its score
    at.button(key="pl_next").click().run()
    _ok(at)
    assert at.session_state["pl_seed"] == 6 and _hand(at).deal == random_deal(TABLE, seed=6)


def _url(at) -> dict:
    return {k: v[-1] if isinstance(v, list) else v for k, v in at.query_params.items()}


def test_a_reload_mid_hand_picks_the_hand_up_where_it_was(tmp_path, monkeypatch):
    at = open_page("play", tmp_path, monkeypatch, query=LINK)
    at.button(key=_call_buttons(at)[0].key).click().run()
    _ok(at)
    _bid_to_the_end(at)
    next(b for b in _card_buttons(at) if not b.disabled).click().run()
    _ok(at)
    first = _hand(at)
    stored = len(ProgressStore(tmp_path / "progress.sqlite3", learner="player").history())
    assert first.cards and len(first.feedback) >= 1
    # a reload (or a second tab): a fresh session with the same address
    url = _url(at)
    assert {k: url.get(k) for k in LINK} == LINK, url  # the URL holds the seat, seed, bots, table
    again = open_page("play", tmp_path, monkeypatch, query=url)
    assert _whole(_hand(again)) == _whole(first)  # the same hand, at the same point
    # the learner's calls were stored as drills once: the replay stores none again
    assert len(ProgressStore(tmp_path / "progress.sqlite3", learner="player").history()) == stored >= 1
    # moves that do not fit (a hand-edited address) start the hand again, whole
    bad = {**url, "pl_moves": url["pl_moves"].split()[0] + " 27H"}
    fresh = open_page("play", tmp_path, monkeypatch, query=bad)
    hand = _hand(fresh)
    assert not hand.feedback and hand.calls == first.calls[:1] and hand.your_turn
    assert any("could not be picked up" in i.value for i in fresh.info)
    _check(hand)
    # "Start this hand again" forgets the moves: a reload after it starts afresh too
    at.button(key="pl_restart").click().run()
    assert "pl_moves" not in _url(at) and not _hand(at).feedback


def test_an_illegal_card_click_changes_nothing(tmp_path, monkeypatch):
    at = open_page("play", tmp_path, monkeypatch, query=LINK)
    _bid_to_the_end(at)
    for _ in range(20):
        hand = _hand(at)
        if hand.phase != PLAY:
            break
        legal = set(hand.legal_cards())
        illegal = [b for b in _card_buttons(at) if b.disabled]
        if illegal:
            before = _whole(_hand(at))
            assert all(b.key[len("pl_card_"):] not in {str(c) for c in legal} for b in illegal)
            # the browser draws it disabled; a click that reaches the server anyway (a stale
            # page, a forged message) is refused there: AppTest's own check is stepped round
            illegal[0]._value = True
            at.run()
            _ok(at)
            assert _whole(_hand(at)) == before  # Streamlit drops it, or the page refuses it
            assert all("cannot be played" in e.value for e in at.error)  # and says why, if it got that far
            break
        _card_buttons(at)[0].click().run()
        if _hand(at).phase == PLAY:  # learning mode: the cost of the card just played
            mine = [i for i, (s, _) in enumerate(_hand(at).state.play.plays, 1) if s == 2][-1]
            cost = _hand(at).card_cost(mine)
            assert (f"cost your team {cost.cost} point(s)" if cost.cost else "was a best card") in texts(at)
    else:
        raise AssertionError("no turn with a card that may not be played")
    _check(_hand(at))


def test_two_sessions_keep_their_own_hands_and_both_saves(tmp_path, monkeypatch):
    one = open_page("play", tmp_path, monkeypatch, query=LINK)
    two = open_page("play", tmp_path, monkeypatch, query={**LINK, "pl_seed": "7"})
    for at in (one, two):
        _bid_to_the_end(at)
        _play_to_the_end(at)
    assert _hand(one).deal != _hand(two).deal
    one.button(key="pl_save").click().run()
    two.button(key="pl_save").click().run()
    _ok(one)
    _ok(two)
    assert Library(tmp_path / "progress.sqlite3").count() == 2
    _check(_hand(one))
    _check(_hand(two))


def _face_up(at) -> int:
    felt = next(h.value for h in at.html if "fs-felt" in h.value)
    return felt.count('data-card="')


def test_learning_shows_every_hand_and_hints_practice_only_yours(tmp_path, monkeypatch):
    at = open_page("play", tmp_path, monkeypatch, query={**LINK, "pl_mode": "learning"})
    assert _face_up(at) == 32  # 4 hands of 8, face up
    hand = _hand(at)
    at.button(key="pl_hint_call").click().run()
    _ok(at)
    hint = hand.hint()
    assert any(f"would call **{hint.move}**" in i.value for i in at.info)
    # the palette marks the calls the hand keeps
    keeps = {p.call for p in hand.palette() if p.keeps}
    marked = {b.key[len("pl_call_"):] for b in _call_buttons(at) if b.label.startswith("✓ ")}
    assert marked and marked <= keeps
    at = open_page("play", tmp_path, monkeypatch, query={**LINK, "pl_mode": "practice"})
    assert _face_up(at) == 8  # only the learner's hand
    assert not [b for b in at.button if b.key == "pl_hint_call"]
    assert not any(b.label.startswith("✓ ") for b in _call_buttons(at))


def test_a_coach_link_opens_the_deal_written_in_it(tmp_path, monkeypatch):
    deal = random_deal(TABLE, seed=11)
    at = open_page("play", tmp_path, monkeypatch,
                   query={"players": "4", "pl_from": "written", "pl_deal": str(deal), "pl_seat": "3",
                          "pl_bot": "rules"})
    hand = _hand(at)
    assert hand.deal == deal and hand.seat == 3 and hand.source == "a deal written out"
    at = open_page("play", tmp_path, monkeypatch,
                   query={"players": "4", "pl_from": "written", "pl_deal": "JJ9.A.KQ. nonsense"})
    _ok(at)
    assert any("The deal cannot be used" in e.value for e in at.error) and "pl_table" not in at.session_state


def test_a_hand_from_the_library_is_dealt_again(tmp_path, monkeypatch):
    at = open_page("play", tmp_path, monkeypatch, query={**LINK, "pl_from": "library"})
    assert any("hand library is empty" in i.value for i in at.info)
    monkeypatch.setenv("FIFTYSIX_DATA_DIR", str(tmp_path))
    hand = P.new_table(Table.make(6), "kerala", 1, seed=3, bot="rules")
    hand.advance()
    while hand.phase != OVER:
        if hand.phase == AUCTION:
            hand.your_call(hand.hint().move)
        else:
            hand.your_card(str(hand.legal_cards()[0]))
        hand.advance()
    Library().add([hand.to_record()], "test")
    at = open_page("play", tmp_path, monkeypatch, query={**LINK, "pl_from": "library"})
    _ok(at)
    got = _hand(at)
    assert got.deal == hand.deal and got.system == "kerala" and got.table == Table.make(6)
    assert got.source.startswith("library record #")


def test_a_coach_deal_from_a_record_file_or_a_bank_question(tmp_path, monkeypatch):
    from fiftysix import shipped
    from fiftysix.cards import Hand
    from fiftysix.drills import banks
    from tests.test_app_review import _record_text
    text, _ = _record_text()
    at = open_page("play", tmp_path, monkeypatch, query={"pl_from": "written", "pl_bot": "rules"})
    assert any("Write the deal above" in i.value for i in at.info)
    at.file_uploader(key="pl_upload").upload("club.txt", text.encode(), "text/plain").run()
    _ok(at)
    at.button(key="pl_use").click().run()
    _ok(at)
    hand = _hand(at)
    assert hand.deal == parse_record(text).deal and hand.table == TABLE  # the record's table is taken
    bank = shipped.data_file("banks", "international.json").read_text(encoding="utf-8")
    q = next(q for q in banks.import_text(bank, "json", "international.json").questions if q.context.hand)
    at.file_uploader(key="pl_upload").upload("international.json", bank.encode(), "application/json").run()
    _ok(at)
    at.button(key="pl_use").click().run()
    _ok(at)
    hand = _hand(at)
    assert hand.seat == q.context.seat and hand.deal.hand(hand.seat) == Hand.parse(q.context.hand)
    assert hand.table == q.context.table and hand.system == q.context.system


def test_the_link_to_send_opens_the_same_deal_at_the_same_seat(tmp_path, monkeypatch):
    from urllib.parse import parse_qsl
    at = open_page("play", tmp_path, monkeypatch, query={"pl_seat": "4", "pl_seed": "9", "pl_bot": "rules"})
    hand = _hand(at)
    link = next(c.value for c in at.code if c.value.startswith("play?"))
    sent = dict(parse_qsl(link.split("?", 1)[1]))
    other = open_page("play", tmp_path / "class", monkeypatch, query=sent)
    got = _hand(other)
    assert (got.deal, got.seat, got.table, got.system, got.bot) == (hand.deal, 4, hand.table, hand.system, "rules")
    assert got.source == "a deal written out" and got.calls == hand.calls  # the same bots' calls: same seed


# --- what a newcomer needs to read the table ---------------------------------------------------

def _parent_block(at, key):
    """The block that holds the widget with ``key`` (a column, a container...), or the element
    ``key`` itself when it is not a string."""
    def walk(node):
        for child in getattr(node, "children", {}).values():
            if (getattr(child, "key", None) == key) if isinstance(key, str) else child is key:
                return node
            found = walk(child)
            if found is not None:
                return found
        return None
    return walk(at.main)


def test_the_buttons_of_a_row_wrap_so_a_phone_shows_several_a_line(tmp_path, monkeypatch):
    # Streamlit stacks columns one under the other below 640 px: a palette drawn in columns
    # became 40 rows of one button on a 390 px phone. A horizontal container wraps instead.
    at = open_page("play", tmp_path, monkeypatch, query=LINK)
    for key in (_call_buttons(at)[0].key, _call_buttons(at)[-1].key):
        block = _parent_block(at, key)
        assert block.proto.flex_container.direction == block.proto.FlexContainer.Direction.HORIZONTAL, block.proto
        assert block.proto.flex_container.wrap
    _bid_to_the_end(at)
    block = _parent_block(at, _card_buttons(at)[0].key)
    assert block.proto.flex_container.direction == block.proto.FlexContainer.Direction.HORIZONTAL
    assert block.proto.flex_container.wrap
    # the play's four figures too: in columns they took four screen lines between table and cards
    figures = [m for m in at.metric if m.label in ("Contract", "Declarers have", "Defenders have", "Trick")]
    assert len(figures) == 4
    for m in figures:
        block = _parent_block(at, m)
        assert block.proto.flex_container.direction == block.proto.FlexContainer.Direction.HORIZONTAL
        assert block.proto.flex_container.wrap


def test_a_call_the_hand_keeps_is_readable_on_its_green_button(tmp_path, monkeypatch):
    # learning mode marks the calls the hand keeps with a primary (green) button: a red suit
    # letter on it could not be read, so it is written plain there (red on the white ones)
    at = open_page("play", tmp_path, monkeypatch, query=LINK)
    primary = [b for b in _call_buttons(at) if b.proto.type == "primary"]
    secondary = [b for b in _call_buttons(at) if b.proto.type != "primary"]
    assert any(b.label.endswith(("H", "D")) or "D+" in b.label or "H+" in b.label for b in primary)
    assert all(":red[" not in b.label and b.label.startswith("✓ ") for b in primary)
    assert any(":red[" in b.label for b in secondary)


def test_the_play_says_what_each_side_needs_and_the_trick_in_words(tmp_path, monkeypatch):
    at = open_page("play", tmp_path, monkeypatch, query=LINK)
    _bid_to_the_end(at)
    hand = _hand(at)
    c = hand.contract
    page = texts(at)
    beat = 56 - c.value + 1
    assert f"must take {c.value} of the 56 card points" in page
    assert f"need{'s' if c.team != hand.your_team else ''} {beat} to beat it." in page
    metrics = {m.label: m.value for m in at.metric}
    state = hand.state.play
    assert metrics["Declarers have"] == f"{state.points[c.team]} of {c.value}"
    assert metrics["Defenders have"] == f"{sum(state.points) - state.points[c.team]} of {beat}"
    # the trick on the table in words, with who played each card (a phone stacks the seats)
    words = [x.value for x in at.caption if x.value.startswith("Trick ")]
    assert words and "your turn" in words[0]
    for seat, card in state.current:
        assert f"seat {seat} {render.face_rank(card)}{SUIT_SYMBOLS[card.suit]}" in words[0]
    # play on until a trick has cards from the bots and the learner: each is named
    for _ in range(12):
        next(b for b in _card_buttons(at) if not b.disabled).click().run()
        _ok(at)
        hand = _hand(at)
        if hand.phase != PLAY:
            break
        state = hand.state.play
        words = [x.value for x in at.caption if x.value.startswith("Trick ")]
        assert words[0].startswith(f"Trick {len(state.tricks) + 1}")
        for seat, card in state.current:
            who = "you" if seat == hand.seat else f"seat {seat}"
            assert f"{who} {render.face_rank(card)}{SUIT_SYMBOLS[card.suit]}" in words[0]


def test_save_twice_then_play_it_out_and_save_the_whole_hand(tmp_path, monkeypatch):
    at = open_page("play", tmp_path, monkeypatch, query={**LINK, "pl_seed": "8"})
    _bid_to_the_end(at)
    _play_to_the_end(at)
    hand = _hand(at)
    assert hand.can_play_out  # seat 2's table at seed 8 is decided before the last card
    # a lost hand is told in a warning, not in the red box kept for what went wrong
    assert hand.outcome().your_score < 0
    assert not at.error and any("your team loses" in w.value for w in at.warning)
    at.button(key="pl_save").click().run()
    at.button(key="pl_save").click().run()  # a double click: the first record's number stays
    _ok(at)
    lib = Library(tmp_path / "progress.sqlite3")
    assert lib.count() == 1
    assert "Saved to the hand library as record #1." in texts(at)
    assert "in the hand library already" not in texts(at)
    # play it out: a new record (every card), not the one saved
    at.button(key="pl_play_out").click().run()
    _ok(at)
    _play_to_the_end(at)
    hand = _hand(at)
    assert hand.played_out and hand.state.play.cards_left == 0
    assert "Saved to the hand library as record #" not in texts(at)
    at.button(key="pl_save").click().run()
    _ok(at)
    assert lib.count() == 2 and "Saved to the hand library as record #2." in texts(at)
    whole = lib.get(2)
    assert whole.played_out and [n.token for n in whole.play] == hand.cards and len(whole.play) == 32
    assert whole.result == hand.outcome().result.declarer_points
    # the review on the page steps through every card of the hand
    at.button(key="plr_last").click().run()
    _ok(at)
    assert any(m.value.startswith("Card 32 (trick 8)") for m in at.markdown)


def test_the_auction_says_who_your_partners_are_and_whose_bid_stands(tmp_path, monkeypatch):
    at = open_page("play", tmp_path, monkeypatch, query=LINK)
    page = texts(at)
    assert "You sit in seat 2, team even: your partner is seat 4." in page
    a = _hand(at).state.auction
    standing = a.standing_contract()
    if standing is None:
        assert "No one has bid yet." in page
    else:
        side = "your team" if standing.team == 1 else "the opponents"
        assert f"The highest bid so far is {standing} by seat {standing.declarer} ({side})." in page
    six = open_page("play", tmp_path, monkeypatch, query={**LINK, "players": "6", "pl_seat": "3"})
    assert "You sit in seat 3, team odd: your partners are seats 1, 5." in texts(six)


def test_the_bots_reasons_come_with_what_a_bot_sees(tmp_path, monkeypatch):
    at = open_page("play", tmp_path, monkeypatch, query=LINK)
    assert _hand(at).call_reasons[0]  # seat 1, a bot, has called with a reason
    assert "Each bot sees only its own hand" in texts(at)
    _bid_to_the_end(at)
    hand = _hand(at)
    assert any(hand.card_reasons)  # seat 1 led: a bot's card with its reason
    page = texts(at)
    assert "The card bots do not peek" in page and "5 of the 8 deals it tried" in page
    shown = [m.value for m in at.markdown if m.value.startswith("Card ")]
    assert shown and all("deals consistent with what seat" in x or "only card" in x or "cheapest" in x for x in shown)


def test_a_red_card_that_cannot_be_played_looks_greyed_like_the_others(tmp_path, monkeypatch):
    # a disabled button greys its text, but a :red[] label stayed red: the learner's hearts and
    # diamonds looked playable while another suit was led
    at = open_page("play", tmp_path, monkeypatch, query=LINK)
    _bid_to_the_end(at)
    seen_disabled_red = seen_live_red = False
    for _ in range(12):
        hand = _hand(at)
        if hand.phase != PLAY:
            break
        legal = {str(c) for c in hand.legal_cards()}
        for b in _card_buttons(at):
            card = b.key[len("pl_card_"):]
            red = card[-1] in "HD"
            assert b.disabled == (card not in legal)
            assert (":red[" in b.label) == (red and not b.disabled), (card, b.label)
            seen_disabled_red |= red and b.disabled
            seen_live_red |= red and not b.disabled
        next(b for b in _card_buttons(at) if not b.disabled).click().run()
        _ok(at)
    assert seen_disabled_red and seen_live_red


def test_a_reload_after_the_hand_keeps_the_match_score(tmp_path, monkeypatch):
    at = open_page("play", tmp_path, monkeypatch, query=LINK)
    _bid_to_the_end(at)
    _play_to_the_end(at)
    m = at.session_state["pl_match_state"]
    assert len(m.hands) == 1
    url = _url(at)
    assert url.get("pl_mt") == m.to_text()
    again = open_page("play", tmp_path, monkeypatch, query=url)  # a reload: a fresh session, the same address
    _ok(again)
    back = again.session_state["pl_match_state"]
    assert back == m and back.hands == m.hands  # the same hand, counted once, the same score
    assert {x.label: x.value for x in again.metric}["Hands"] == "1"
    # the next hand on the reloaded page: the match goes on with its score
    again.button(key="pl_next").click().run()
    _ok(again)
    assert "Match (chips) after 1 hand(s)" in texts(again)
    # an address whose match does not read starts a new match, with no error
    bad = open_page("play", tmp_path, monkeypatch, query={**url, "pl_mt": "chips garbage"})
    _ok(bad)
    assert len(bad.session_state["pl_match_state"].hands) == 1 and not bad.error


def _bottom_seat(felt: str) -> int:
    """The seat drawn lowest on a table (the viewer's own seat)."""
    import re
    seats = [(float(top), int(seat)) for top, seat in re.findall(r'top:([\d.]+)%" data-seat="(\d+)"', felt)]
    return max(seats)[1]


def test_every_table_after_the_hand_is_drawn_from_the_learners_seat(tmp_path, monkeypatch):
    # the review's card-by-card table put seat 1 at the bottom: the learner in seat 2 found
    # their own hand on the right, unlike every other table on the page
    at = open_page("play", tmp_path, monkeypatch, query=LINK)
    _bid_to_the_end(at)
    _play_to_the_end(at)
    felts = [x.value for x in [*at.html, *at.markdown] if '<div class="fs-felt">' in x.value]
    assert len(felts) >= 2  # the hand as dealt, and the review's stepper
    assert all(_bottom_seat(f) == 2 for f in felts)
