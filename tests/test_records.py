"""The hand-record format: round trips (samples and random records), lenient reading,
and rejection of malformed files with the line and the problem named."""
from __future__ import annotations

import random
import re
from itertools import islice
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fiftysix.cards import TABLE_SETUPS, Card, Deal, Hand, Table, random_deal
from fiftysix.play import PlayState
from fiftysix.records import (
    Noted,
    Record,
    RecordError,
    build_record,
    decode_record_bytes,
    format_record,
    format_records,
    known_systems,
    parse_record,
    parse_records,
)
from fiftysix.scoring import Contract

SAMPLES = sorted((Path(__file__).resolve().parent.parent / "data" / "records").glob("*.txt"))
SETUPS = sorted(TABLE_SETUPS)  # (players, deck)


# --- a generator of random legal records (also used by test_library / test_review) --------------

def random_record(players: int, deck: int, teams: str, seed: int, *, cards: int | None = None,
                  ending: int | None = None, event: str = "", date: str = "", names: tuple[str, ...] = (),
                  system: str = "international", comments: dict[int, str] | None = None,
                  notes: tuple[str, ...] = (), auction: bool = True,
                  auction_comments: dict[int, str] | None = None, played_out: bool = False) -> Record:
    """A record with a random deal, a random contract and random legal play.

    ``cards`` cards are played (default: until the hand is decided); a play that stops
    before then gets a claimed result. ``ending``: deal only that many cards a hand, with
    the other points split between the teams as already won. ``played_out``: the play goes
    on to the last card after the hand is decided (the result stays the points then).
    """
    r = random.Random(seed)
    table = Table.make(players, deck, teams)
    deal = random_deal(table, rng=r)
    won = None
    if ending is not None:
        deal = Deal(table, tuple(Hand(h.cards[:ending]) for h in deal.hands))
        left = 56 - sum(h.points for h in deal.hands)
        cuts = sorted(r.randint(0, left) for _ in range(table.num_teams - 1))
        won = tuple(b - a for a, b in zip([0] + cuts, cuts + [left]))
    calls: tuple[Noted, ...] = ()
    if ending is None and auction:
        calls, contract = random_auction(deal, system, r, comments=auction_comments)
        trump = contract.trump
        declarer = contract.declarer
    else:
        declarer = r.randint(1, players)
        trump = r.choice([None, 0, 1, 2, 3])
        contract = Contract.make(table, r.randint(28, 56), trump, declarer, r.choice([1, 1, 1, 2, 4]))
    leader = r.choice([1, 1, 1, declarer])
    state = PlayState(deal, trump, leader=leader, target=contract.value, declarer_team=contract.team,
                      points=list(won or ()))
    played: list[Noted] = []
    while not state.is_over and (cards is None or len(played) < cards):
        c = r.choice(state.legal_cards())
        state.play(c)
        note = (comments or {}).get(len(played), "")
        played.append(Noted(str(c), note))
    got = state.points[contract.team]
    result = got if state.is_over else r.randint(got, got + state.points_out)
    if played_out:
        state.early_stop = False
        while not state.is_over:
            c = r.choice(state.legal_cards())
            state.play(c)
            played.append(Noted(str(c), (comments or {}).get(len(played), "")))
    return Record(table=table, deal=deal, event=event, date=date, players=names, system=system, won=won,
                  auction=calls, contract=contract, leader=leader, play=tuple(played), result=result, notes=notes,
                  played_out=played_out)


def random_auction(deal: Deal, system: str, r: random.Random, pass_odds: float = 0.7,
                   comments: dict[int, str] | None = None) -> tuple[tuple[Noted, ...], Contract]:
    """A random legal auction (bids chosen among the legal calls, truthful ones preferred)."""
    from fiftysix.bidding import Auction, fits, format_call
    while True:
        a = Auction(system, deal.table, hands=deal)
        out: list[Noted] = []
        while not a.is_over:
            hand = deal.hand(a.to_move)
            legal = a.legal_calls()
            bids = [c for c in legal if c.is_bid]
            others = [c for c in legal if not c.is_bid]
            if bids and (not others or r.random() > pass_odds):
                # the first six truthful bids: all the choice below looks at (the rest cost time alone)
                true = list(islice((c for c in bids if fits(hand, a.meaning_of(c)).ok), 6))
                pool = true if true and r.random() < 0.8 else bids
                call = r.choice(pool[:6])
            else:
                call = r.choice([c for c in others if c.kind == "pass"] * 4 + others)
            a.apply(call)
            out.append(Noted(format_call(call), (comments or {}).get(len(out), "")))
        if a.contract is not None:
            return tuple(out), a.contract


_line_text = st.text(st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\n\r"),
                     max_size=20).map(str.strip)
_name = _line_text.filter(lambda s: ";" not in s and s not in ("-", "?"))
_free_text = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\x00"), max_size=30)
_date = st.one_of(st.just(""), st.builds(lambda y, m, d: f"{y:04d}.{m:02d}.{d:02d}",
                                         st.integers(1900, 2100), st.integers(1, 12), st.integers(1, 28)))


@st.composite
def records(draw) -> Record:
    players, deck = draw(st.sampled_from(SETUPS))
    teams = draw(st.sampled_from(["alternate", "pairs"]))
    seed = draw(st.integers(0, 10 ** 9))
    hand_size = TABLE_SETUPS[(players, deck)]
    ending = draw(st.one_of(st.none(), st.integers(1, hand_size - 1)))
    names = draw(st.one_of(st.just(()), st.lists(_name, min_size=players, max_size=players).map(tuple)))
    comments = draw(st.dictionaries(st.integers(0, 20), _free_text, max_size=3))
    auction_comments = draw(st.dictionaries(st.integers(0, 6), _free_text, max_size=2))
    return random_record(players, deck, teams, seed, cards=draw(st.one_of(st.none(), st.integers(0, 30))),
                         ending=ending, event=draw(_line_text), date=draw(_date), names=names,
                         system=draw(st.sampled_from(known_systems())), comments=comments,
                         notes=tuple(draw(st.lists(_free_text, max_size=2))),
                         auction_comments=auction_comments)


# --- round trips ------------------------------------------------------------------------------

def test_there_are_samples_for_every_table_size():
    found = set()
    for path in SAMPLES:
        for rec in parse_records(path.read_text(encoding="utf-8"), path.name):
            found.add((rec.table.players, rec.table.deck))
    assert found >= set(SETUPS)


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_sample_files_round_trip(path: Path):
    text = path.read_text(encoding="utf-8")
    recs = parse_records(text, path.name)
    assert recs
    # canonical files print back byte for byte (less their % comment lines), and reading
    # the print gives the same records
    body = "".join(line for line in text.splitlines(keepends=True) if not line.startswith("%"))
    assert format_records(recs) == body
    assert parse_records(format_records(recs)) == recs
    for rec in recs:
        if rec.play:
            # the stored result is what replaying the cards gives (or a claim inside the possible range)
            state = rec.play_state()
            if state.is_over:
                assert rec.result == state.points[rec.contract.team]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(records())
def test_random_records_round_trip(rec: Record):
    text = format_record(rec)
    back = parse_record(text)
    assert back == rec
    assert format_record(back) == text


@settings(max_examples=8, deadline=None)
@given(st.lists(records(), min_size=2, max_size=4))
def test_several_records_in_one_file(recs: list[Record]):
    assert parse_records(format_records(recs)) == recs


def test_comment_escapes_survive():
    rec = random_record(4, 32, "alternate", 7, cards=4, comments={0: "a } brace, a \\ slash,\n{nested}", 3: "%"})
    back = parse_record(format_record(rec))
    assert back.play[0].comment == "a } brace, a \\ slash,\n{nested}"
    assert back.play[3].comment == "%"


# --- lenient reading --------------------------------------------------------------------------

CANONICAL = """[Event "Club night"]
[Date "2026.11.29"]
[Table "4"]
[Deck "32"]
[Teams "alternate"]
[System "international"]
[Dealer "4"]
[Players "Anil; Biju; Chandran; Deepa"]
[Deal "JJ9.A.KQ. T.J9.AT.QK"]
"""


def _four_player_record() -> str:
    rec = random_record(4, 32, "alternate", 11, cards=8, names=("Anil", "Biju", "Chandran", "Deepa"),
                        event="Club night", date="2026.11.29", comments={1: "a false card"})
    return format_record(rec)


def test_lenient_input_reads_as_canonical():
    text = _four_player_record()
    rec = parse_record(text)
    loose = text
    loose = loose.replace("[Event", "[event").replace("[Date \"2026.11.29\"]", "[ date  \"2026-11-29\" ]")
    loose = loose.replace("[Players \"Anil; Biju; Chandran; Deepa\"]", "[Players \"Anil;Biju ; Chandran;Deepa\"]")
    deal_line = next(line for line in loose.splitlines() if line.startswith("[Deal \""))
    loose = loose.replace(deal_line, deal_line.replace('[Deal "', '[Deal "1:').lower().replace("t", "10")
                          .replace("[deal", "[Deal"))
    play_start = loose.index("[Play")
    body = loose[play_start:]
    body = re.sub(r"\b([J9ATKQ87])([SHDC])\b", lambda m: m.group(1).lower() + "♠♥♦♣"["SHDC".index(m.group(2))],
                  body.split("\n", 1)[1])
    loose = loose[:play_start] + loose[play_start:].split("\n", 1)[0] + "\n" + body
    loose = "% a comment line\n\n" + loose.replace("\n", "\r\n") + "\n\n\n"
    assert parse_record(loose) == rec


_SYMBOL = dict(zip("SHDC", "♠♥♦♣"))


def _loosen(text: str, r: random.Random) -> str:
    """The same record written loosely: tag names in any case, cards and calls in lower case,
    suit symbols and 10 for T, extra spaces and line breaks, Windows line ends."""
    out = []
    section = False
    in_comment = False
    for line in text.split("\n"):
        was_in_comment = in_comment
        i = 0
        while i < len(line):  # track braces (with their escapes) across lines
            ch = line[i]
            if ch == "\\" and in_comment:
                i += 2
                continue
            if ch == "{" and not in_comment:
                in_comment = True
            elif ch == "}" and in_comment:
                in_comment = False
            i += 1
        if was_in_comment or "{" in line:
            out.append(line)
            continue
        if line.startswith("["):
            name = line[1:line.index(" ") if " " in line else line.index("]")]
            section = name in ("Auction", "Play")
            line = "[ " + r.choice([name.lower(), name.upper(), name]) + line[1 + len(name):]
            out.append(line)
            continue
        if section:
            toks = []
            for tok in line.split():
                if r.random() < 0.5 and re.fullmatch(r"[J9ATKQ87][SHDC]", tok):
                    rank = "10" if tok[0] == "T" else tok[0]
                    tok = rank.lower() + r.choice([tok[1].lower(), _SYMBOL[tok[1]]])
                elif r.random() < 0.3:
                    tok = tok.lower()
                toks.append(tok)
            line = " " * r.randint(0, 2) + ("  \n  " if r.random() < 0.2 else " ").join(toks)
        out.append(line)
    return "\r\n".join(out)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(records(), st.integers(0, 2 ** 32))
def test_loose_text_reads_as_the_canonical_record(rec: Record, seed: int):
    assert parse_record(_loosen(format_record(rec), random.Random(seed))) == rec


def test_a_claim_needs_a_result_in_range():
    rec = random_record(6, 48, "alternate", 3, cards=5)
    text = format_record(rec)
    assert parse_record(text).result == rec.result
    state = rec.play_state()
    lo = state.points[rec.contract.team]
    hi = lo + state.points_out
    too_high = re.sub(r'\[Result "[^"]*"\]', f'[Result "{hi + 1}"]', text)
    with pytest.raises(RecordError, match=f"{lo} to {hi}"):
        parse_record(too_high)


def test_result_must_match_the_play():
    rec = random_record(4, 32, "alternate", 5)
    text = format_record(rec)
    wrong = (rec.result + 1) % 57
    bad = re.sub(r'\[Result "[^"]*"\]', f'[Result "{wrong}"]', text)
    with pytest.raises(RecordError, match="the play gives the declarers"):
        parse_record(bad)


# --- rejection ---------------------------------------------------------------------------------

def _line_of(text: str, needle: str) -> int:
    return text[:text.index(needle)].count("\n") + 1


def test_unknown_tag_names_the_line():
    text = _four_player_record()
    bad = text.replace('[Table "4"]', '[Table "4"]\n[Vulnerable "None"]')
    with pytest.raises(RecordError) as e:
        parse_records(bad, "x.txt")
    assert e.value.line == _line_of(bad, "[Vulnerable")
    assert "x.txt line" in str(e.value) and "unknown tag [Vulnerable]" in str(e.value)


@pytest.mark.parametrize("deal, problem", [
    ("JJ9.A.KQ. T.J9.AT.QK", "hand"),                  # too few hands / wrong sizes
    ("JJJ9AT.JJ.9.A 9ATT.99A.JJ.9 AT.AT.ATT9.JJ 9.T.J9A.JT99AT", "appears 3 times"),
    ("JJ9A.JJ9A.. 9ATT.9ATT.. ..JJ9A.JJ9A ..9ATT.9ATT", None),  # fine
    ("JJ9K.JJ9A.. 9ATT.9ATT.. ..JJ9A.JJ9A ..9ATT.9ATT", "not in the 32-card deck"),
    ("JJ9X.JJ9A.. 9ATT.9ATT.. ..JJ9A.JJ9A ..9ATT.9ATT", "unknown rank"),
])
def test_bad_deal(deal: str, problem: str | None):
    text = f'[Table "4"]\n[Deck "32"]\n[Deal "{deal}"]\n'
    if problem is None:
        assert parse_record(text).deal == Deal.parse(deal, Table.make(4))
        return
    with pytest.raises(RecordError) as e:
        parse_record(text)
    assert e.value.line == 3
    assert problem in str(e.value)


def test_illegal_card_names_the_line_and_the_card():
    rec = next(r for r in (random_record(4, 32, "alternate", s, cards=9) for s in range(50)) if len(r.play) == 9)
    text = format_record(rec)
    state = rec.play_state(upto=5)
    seat = state.to_move
    hand = state.hands[seat - 1]
    led = state.led_suit
    # a card that seat does not hold, or one that revokes
    wrong = next(Card(k) for k in Table.make(4).kinds() if k not in hand)
    if led is not None:
        revoke = [c for c in hand if c.suit != led]
        if revoke and hand.suit_length(led):
            wrong = revoke[0]
    lines = text.split("\n")
    play_at = lines.index(f'[Play "{rec.leader}"]')
    # card 6 is on the second play line, second card
    row = lines[play_at + 2].split(" ")
    row[1] = str(wrong)
    lines[play_at + 2] = " ".join(row)
    with pytest.raises(RecordError) as e:
        parse_records("\n".join(lines))
    assert e.value.line == play_at + 3
    assert "card 6 of the play is illegal" in str(e.value)


@pytest.mark.parametrize("calls, problem, line", [
    ("28S P 28H P\nP P", "higher than the standing bid", 5),
    ("28S P\n29S {no spade in this hand} P P P", "hold no card of", 6),
    ("28S P 27H P\nP P", "out of range", 5),
])
def test_illegal_call_is_reported(calls: str, problem: str, line: int):
    text = ('[Table "4"]\n[Deck "32"]\n[Deal "JJ9A.JJ9A.. 9ATT.9ATT.. ..JJ9A.JJ9A ..9ATT.9ATT"]\n'
            '[Auction]\n' + calls + '\n')
    with pytest.raises(RecordError) as e:
        parse_records(text)
    assert e.value.line == line
    assert "call 3" in str(e.value) and problem in str(e.value)


@pytest.mark.parametrize("cut", ["mid-tag", "mid-comment", "mid-play", "mid-auction"])
def test_truncated_file(cut: str):
    rec = random_record(6, 48, "alternate", 4, comments={3: "this comment is long enough to cut"})
    text = format_records([random_record(4, 32, "alternate", 1), rec])
    if cut == "mid-tag":
        at = text.rindex('[Deal "') + 20
    elif cut == "mid-comment":
        at = text.rindex("long enough")
    elif cut == "mid-play":
        at = text.rindex("[Result") - 10
    else:
        text = ('[Table "4"]\n[Deck "32"]\n[Deal "JJ9A.JJ9A.. 9ATT.9ATT.. ..JJ9A.JJ9A ..9ATT.9ATT"]\n'
                '[Auction]\n28S P P\n')
        at = len(text)
    with pytest.raises(RecordError) as e:
        parse_records(text[:at])
    assert e.value.line is not None and e.value.line >= 2


def test_ten_megabytes_of_garbage():
    r = random.Random(56)
    junk = bytes(r.getrandbits(8) for _ in range(1 << 16)) * 160  # 10 MB
    with pytest.raises(RecordError):
        parse_records(decode_record_bytes(junk, "junk.bin"), "junk.bin")
    printable = "".join(r.choice("abc xyz[]{}\"JH 9S\n%") for _ in range(1 << 16)) * 160
    with pytest.raises(RecordError):
        parse_records(printable, "junk.txt")
    good = format_record(random_record(4, 32, "alternate", 2))
    with pytest.raises(RecordError):
        parse_records(good + "\n\n" + printable, "junk.txt")


def test_empty_file_and_no_deal():
    with pytest.raises(RecordError, match="no records"):
        parse_records("   \n% only a comment\n")
    with pytest.raises(RecordError, match="no \\[Deal"):
        parse_records('[Event "x"]\n')


def test_repeated_tag_in_one_record():
    text = _four_player_record()
    with pytest.raises(RecordError, match="appears twice"):
        parse_records(text + "\n" + text)  # no blank line between the records
    assert len(parse_records(text + "\n\n" + text)) == 2


def test_the_documented_example_reads():
    doc = (Path(__file__).resolve().parent.parent / "docs" / "records.md").read_text(encoding="utf-8")
    block = doc.split("```\n", 2)[1]
    rec = parse_record(block, "docs/records.md")
    assert rec.players[0] == "Anil" and str(rec.contract) == "28S" and rec.result == 28 and rec.made
    assert rec.auction[0].comment == "Jack and three more spades"
    assert rec.notes == ("Made with nothing to spare.",)


def test_build_record_from_what_a_player_entered():
    """The 'Enter a hand' page's record: auction and play as entered, a claim where the play
    stops early, checked as a file is."""
    from fiftysix.cards import random_deal
    from fiftysix.errors import FiftySixError
    from fiftysix.play import PlayState
    from fiftysix.records import build_record
    table = Table.make(4)
    deal = random_deal(table, seed=0)
    calls = ["28H", "P", "P", "P"]
    state = PlayState(deal, 1, leader=1, early_stop=False)
    cards = []
    for _ in range(8):
        c = state.legal_cards()[0]
        cards.append(str(c))
        state.play(c)
    r = build_record(table, deal, "international", calls, cards, result=state.points[0] + 10,
                     event="Club", date="2026.12.01", players=["Anil", "", "", ""])
    assert str(r.contract) == "28H" and r.contract.declarer == 1
    assert [n.token for n in r.play] == cards and r.result == state.points[0] + 10
    assert r.player(1) == "Anil" and r.player(2) == "seat 2"
    assert parse_record(format_record(r)) == r
    with pytest.raises(FiftySixError, match="the auction is not over"):
        build_record(table, deal, "international", ["28H", "P"])
    with pytest.raises(FiftySixError, match="no \\[Result"):
        build_record(table, deal, "international", calls, cards)  # stopped early without a claim
    with pytest.raises(FiftySixError, match="call 2"):
        build_record(table, deal, "international", ["28H", "27S"])


# --- a hand played out after the contract was decided ([PlayedOut "yes"]) ----------------------

def _played_out(players: int, deck: int) -> tuple[Record, Record]:
    """A played-out record whose contract was decided before the last card, and the same
    hand recorded as the rules stop it."""
    for seed in range(200):
        rec = random_record(players, deck, "alternate", seed, played_out=True)
        early = random_record(players, deck, "alternate", seed)
        if len(early.play) < len(rec.play):
            return rec, early
    raise AssertionError("no hand decided early")


@pytest.mark.parametrize("players, deck", SETUPS)
def test_a_played_out_hand_keeps_every_card_and_round_trips(players: int, deck: int):
    rec, early = _played_out(players, deck)
    assert rec.play[:len(early.play)] == early.play
    text = format_record(rec)
    assert '[PlayedOut "yes"]' in text
    back = parse_record(text)
    assert back == rec and format_record(back) == text
    assert len(back.play) == rec.table.players * rec.table.hand_size  # every card, to the last one
    # RULES.md 4: "The hand stops early as soon as the declaring team has reached its target, or
    # can no longer reach it": the result is the points when it was decided, not at the end
    assert back.result == early.result
    assert back.made == (early.result >= rec.contract.value)
    full = back.play_state()  # replays past the stop without complaint
    assert full.is_over and full.stop_reason == "all cards"
    # without the tag the same cards are refused as before: a card after the stop is an error
    with pytest.raises(RecordError, match=f"card {len(early.play) + 1} of the play is illegal"):
        parse_record(text.replace('[PlayedOut "yes"]\n', ""))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SETUPS), st.sampled_from(["alternate", "pairs"]), st.integers(0, 10 ** 9),
       st.dictionaries(st.integers(0, 60), _free_text, max_size=3))
def test_random_played_out_records_round_trip(setup, teams, seed, comments):
    rec = random_record(*setup, teams, seed, played_out=True, comments=comments)
    text = format_record(rec)
    assert parse_record(text) == rec
    assert parse_records(format_records([rec, rec])) == [rec, rec]


def test_played_out_tag_faults_name_the_line():
    rec, _ = _played_out(4, 32)
    text = format_record(rec)
    lines = text.split("\n")
    tag_line = lines.index('[PlayedOut "yes"]') + 1
    with pytest.raises(RecordError, match=r'\[PlayedOut "maybe"\]: write "yes"') as e:
        parse_record(text.replace('[PlayedOut "yes"]', '[PlayedOut "maybe"]'))
    assert e.value.line == tag_line
    cut = "\n".join(lines[:-2] + [" ".join(lines[-2].split(" ")[:-1]), lines[-1]])  # the last card left off
    with pytest.raises(RecordError, match="a hand played out gives every card"):
        parse_record(cut)
    # the result is the points when the contract was decided: the end's total is refused
    end = rec.play_state().points[rec.contract.team]
    if end != rec.result:
        with pytest.raises(RecordError, match="the play gives the declarers"):
            parse_record(re.sub(r'\[Result "[^"]*"\]', f'[Result "{end}"]', text))
    no_play = "\n".join(x for x in lines if not x.startswith("[Play ") and x not in lines[tag_line:-1])
    with pytest.raises(RecordError, match=r'\[PlayedOut "yes"\] needs the play'):
        parse_record(no_play)
    # "no" is the default and reads as a record that stops where the rules stop it
    early = random_record(4, 32, "alternate", 0)
    assert parse_record(format_record(early).replace("[Play ", '[PlayedOut "no"]\n[Play ', 1)) == early


def test_build_record_keeps_a_played_out_hand():
    rec, _ = _played_out(6, 48)
    built = build_record(rec.table, rec.deal, rec.system, [n.token for n in rec.auction], [n.token for n in rec.play],
                         leader=rec.leader, played_out=True)
    assert built.played_out and built.play == rec.play and built.result == rec.result
