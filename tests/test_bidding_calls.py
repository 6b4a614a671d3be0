from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fiftysix.bidding import Call, format_call, parse_call, parse_calls
from fiftysix.bidding import calls as K
from fiftysix.errors import NotationError

# Every form of the RULES.md 7 notation table, in a loose spelling, with its canonical form.
SPELLINGS = [
    ("28H", "28H"), ("28♥", "28H"), ("28 h", "28H"), ("H28", "H28"), ("♥28", "H28"),
    ("32NT", "32NT"), ("32 nt", "32NT"), ("32N", "32NT"), ("33NS", "33NS"), ("33 ns", "33NS"),
    ("+1H", "+1H"), ("+2♥", "+2H"), ("+ 3 h", "+3H"), ("H+1", "H+1"), ("♥+1", "H+1"),
    ("+H", "+H"), ("+♥", "+H"), ("H+", "H+"), ("♥+", "H+"), ("+1NT", "+1NT"), ("+1N", "+1NT"),
    ("+2NS", "+2NS"), ("+NS", "+NS"), ("N+", "+NS"), ("n+", "+NS"), ("NS", "NS"),
    ("1+H", "1+H"), ("2+♦", "2+D"), ("-H", "-H"), ("-♣", "-C"), ("-1C", "-1C"), ("+P", "+P"),
    ("40H^", "40H^"), ("40♥↑", "40H^"), ("40ns^", "40NS^"), ("28-Pass", "28-Pass"),
    ("28 - pass", "28-Pass"), ("P", "P"), ("Pass", "P"), ("pass", "P"), ("X", "X"),
    ("Double", "X"), ("XX", "XX"), ("Redouble", "XX"), ("redouble", "XX"),
]


@pytest.mark.parametrize("text,canon", SPELLINGS)
def test_every_spelling_reads_to_one_canonical_form(text, canon):
    c = parse_call(text)
    assert format_call(c) == canon == str(c)
    assert eval(repr(c), {"Call": Call}) == c


def test_call_fields():
    assert parse_call("+2H") == Call(K.PLUS, None, 1, 2)
    assert parse_call("H28") == Call(K.REVERSE, 28, 1)
    assert parse_call("40D^") == Call(K.RAISE, 40, 2)
    assert parse_call("2+D").n == 2 and parse_call("-C").n is None
    assert parse_call("28H").symbol() == "28♥" and parse_call("40H^").symbol() == "40♥↑"
    assert parse_call("P").is_bid is False and parse_call("28-Pass").is_bid


@pytest.mark.parametrize("bad", ["", "27H", "57H", "28Z", "+0H", "hello", "28", "++H", "X X X"])
def test_unreadable_calls_name_the_text(bad):
    with pytest.raises(NotationError):
        parse_call(bad)


def test_auction_text_allows_spaces_inside_calls():
    assert [str(c) for c in parse_calls("28 H P +1 ♥ X X P 40 H ^")] == \
        ["28H", "P", "+1H", "X", "X", "P", "40H^"]
    assert [str(c) for c in parse_calls("28H, XX, 30NS")] == ["28H", "XX", "30NS"]
    with pytest.raises(NotationError, match="call 2"):
        parse_calls("28H Q")


def _calls() -> st.SearchStrategy[Call]:
    v = st.integers(28, 56)
    s = st.integers(0, 3)
    n = st.one_of(st.none(), st.integers(1, 12))
    return st.one_of(
        st.builds(Call, st.sampled_from([K.SUIT, K.REVERSE]), v, s),
        st.builds(Call, st.just(K.NT), v),
        st.builds(Call, st.just(K.NS), st.one_of(st.none(), v)),
        st.builds(lambda k, s_, n_: Call(k, None, s_, n_), st.sampled_from([K.PLUS, K.SUIT_PLUS, K.MINUS]), s, n),
        st.builds(lambda s_, n_: Call(K.X_PLUS, None, s_, n_), s, st.integers(1, 12)),
        st.builds(lambda k, n_: Call(k, None, None, n_), st.sampled_from([K.PLUS_NT, K.PLUS_NS]), n),
        st.builds(Call, st.just(K.RAISE), v, st.one_of(st.none(), s)),
        st.builds(Call, st.just(K.FORCED), v),
        st.sampled_from([Call(K.PASS), Call(K.DOUBLE), Call(K.REDOUBLE), Call(K.PLUS_PASS)]),
    )


@settings(max_examples=300, deadline=None)
@given(_calls())
def test_round_trip(call):
    assert parse_call(format_call(call)) == call
    assert parse_call(call.symbol()) == call
    assert parse_call(format_call(call).lower()) == call


@settings(max_examples=60, deadline=None)
@given(st.lists(_calls(), max_size=12))
def test_auction_text_round_trip(calls):
    text = " ".join(format_call(c) for c in calls)
    assert parse_calls(text) == calls
