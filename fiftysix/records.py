"""The hand-record format: a PBN-like text file holding one or more played hands.

A record is a block of tags ``[Name "value"]`` with two sections, ``[Auction]`` and
``[Play]``, whose calls and cards follow on the lines after the tag. Commentary on any
call or card is written in braces right after it; braces between tags are comments on the
whole record. Records are separated by a blank line. ``docs/records.md`` has the full
description and examples.

``parse_records`` reads a file and checks every record completely - the deal against the
table, the auction replayed under its system, the play replayed card by card - and raises
``RecordError`` naming the line and the problem at the first fault, so a bad file is
never half-loaded. ``format_records`` writes the one canonical form, and
``parse_records(format_records(rs)) == rs``.
"""
from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace

from fiftysix import bidding
from fiftysix.cards import CARD_NAMES, TOTAL_POINTS, Card, Deal, Table
from fiftysix.errors import FiftySixError, IllegalPlayError, NotationError
from fiftysix.hand import AUCTION, OVER, HandState
from fiftysix.play import PlayState
from fiftysix.scoring import Contract
from fiftysix.textio import size_text, write_atomic

TAG_ORDER = ("Event", "Date", "Table", "Deck", "Teams", "System", "Dealer", "Players",
             "Deal", "Won", "Auction", "Contract", "Declarer", "PlayedOut", "Play", "Result")
"""Every tag the format knows, in the order ``format_record`` writes them."""
SECTIONS = ("Auction", "Play")
_TAGS = {t.lower(): t for t in TAG_ORDER}


class RecordError(NotationError):
    """A hand-record file that cannot be read: the message names the line and the problem."""

    def __init__(self, message: str, line: int | None = None, source: str = "") -> None:
        where = ""
        if source and line is not None:
            where = f"{source} line {line}: "
        elif line is not None:
            where = f"line {line}: "
        elif source:
            where = f"{source}: "
        super().__init__(where + message)
        self.line = line
        self.source = source
        self.problem = message


@dataclass(frozen=True)
class Noted:
    """A call or a card in canonical notation, with the commentary written after it."""

    token: str
    comment: str = ""


@dataclass(frozen=True)
class Record:
    """One hand: table, deal, names, the auction, the contract, the play and the result.

    ``contract`` is the auction's final contract (or the ``Contract``/``Declarer`` tags of a
    record without an auction). ``won`` is set for an ending (a partial deal): the card
    points each team had already won. ``result`` is the declaring team's card points at
    the end of the record: what the play gave, or what was claimed when the play stops
    before the hand is decided. ``played_out``: the play went on past the moment the
    contract was decided, to the last card (the ``PlayedOut`` tag); ``result`` is then still
    the declarers' points when it was decided, which is what scores (RULES.md 4).
    """

    table: Table
    deal: Deal
    event: str = ""
    date: str = ""
    players: tuple[str, ...] = ()
    system: str = "international"
    won: tuple[int, ...] | None = None
    auction: tuple[Noted, ...] = ()
    contract: Contract | None = None
    leader: int = 1
    play: tuple[Noted, ...] = ()
    result: int | None = None
    notes: tuple[str, ...] = ()
    played_out: bool = False
    line: int = field(default=0, compare=False)
    """Line of the record's first tag in the file it came from (0 when built in code)."""

    def __post_init__(self) -> None:
        if not any(self.players):
            object.__setattr__(self, "players", ())

    @property
    def is_ending(self) -> bool:
        return not self.deal.is_complete

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(Card.parse(n.token) for n in self.play)

    @property
    def made(self) -> bool | None:
        """Did the declarers reach their target? None without a contract or a result."""
        if self.contract is None or self.result is None:
            return None
        return self.result >= self.contract.value

    def player(self, seat: int) -> str:
        """The name in ``seat``, or ``seat N`` when the record gives none."""
        self.table.check_seat(seat)
        if self.players and self.players[seat - 1]:
            return self.players[seat - 1]
        return f"seat {seat}"

    def hand(self, upto: int | None = None) -> HandState:
        """The hand as one state after its auction and the first ``upto`` cards (all of them by
        default); a played-out record plays on past the moment the contract was decided."""
        h = HandState(self.deal, self.system, leader=self.leader, won=self.won,
                      contract=None if self.auction else self.contract)
        for n in self.auction:
            h.apply(bidding.parse_call(n.token))
        for n in self.play[:upto]:
            if h.can_play_on and self.played_out:
                h.play_on()
            h.apply(Card.parse(n.token))
        return h

    def play_state(self, upto: int | None = None, early_stop: bool = True) -> PlayState:
        """The play through the first ``upto`` cards (all of them by default); ``early_stop``
        False: a play stopped where the contract was decided is not over."""
        if self.contract is None:
            raise RecordError("this record has no contract, so its play cannot be replayed")
        state = self.hand(upto).play
        assert state is not None
        if not early_stop and state.stopped_early:
            state.play_on()
        return state


# --- reading: tokens ----------------------------------------------------------------------

_TOKEN_RE = re.compile(r"""
    (?P<nl>\n)
  | (?P<ws>[ \t\r\f\v\ufeff]+)
  | (?P<pct>%[^\n]*)
  | (?P<tag>\[[ \t]*(?P<name>[A-Za-z][A-Za-z0-9_-]*)[ \t]*
        (?:"(?P<value>(?:[^"\\\n]|\\.)*)"[ \t]*)?\])
  | (?P<brace>\{(?P<comment>(?:[^}\\]|\\.)*)\})
  | (?P<word>[^\s\[\]{}%"]+)
  | (?P<bad>.)
""", re.VERBOSE | re.DOTALL)


@dataclass
class _Tok:
    kind: str  # tag, brace, word, blank
    line: int
    name: str = ""
    value: str | None = None  # None: a tag written without a value

    @property
    def text(self) -> str:
        """The text of a brace or word token (those always have one)."""
        return self.value or ""


_ESC_RE = re.compile(r"\\(.)", re.DOTALL)


def _unescape(text: str) -> str:
    return _ESC_RE.sub(lambda m: m.group(1), text)


def _escape_value(text: str) -> str:
    """A tag value on one line: quotes and backslashes escaped, line breaks as spaces."""
    t = text.replace("\\", "\\\\").replace('"', '\\"')
    return t.replace("\r\n", " ").replace("\n", " ").replace("\r", " ")


def _escape_comment(text: str) -> str:
    return text.replace("\\", "\\\\").replace("}", "\\}").replace("{", "\\{")


def _tokens(text: str, source: str) -> Iterator[_Tok]:
    """Tags, comments, words and blank lines, each with its line number."""
    line = 1
    content_on_line = False
    pending_blank = False
    for m in _TOKEN_RE.finditer(text):
        if m.group("nl") is not None:
            if not content_on_line:
                pending_blank = True
            line += 1
            content_on_line = False
            continue
        if m.group("ws") is not None or m.group("pct") is not None:
            continue
        if pending_blank:
            yield _Tok("blank", line)
            pending_blank = False
        content_on_line = True
        if m.group("tag") is not None:
            bad = _CONTROL.search(m.group("value") or "")
            if bad:
                raise RecordError(f"control character {bad.group()!r} in the value of tag [{m.group('name')}]",
                                  line, source)
            yield _Tok("tag", line, m.group("name"), None if m.group("value") is None else _unescape(m.group("value")))
        elif m.group("brace") is not None:
            body = m.group("comment")
            yield _Tok("brace", line, value=_unescape(body))
            line += body.count("\n")
        elif m.group("word") is not None:
            yield _Tok("word", line, value=m.group("word"))
        else:
            ch = m.group("bad")
            if ch == "{":
                raise RecordError("a comment opened with { is never closed with }", line, source)
            if ch == "[":
                raise RecordError("a tag opened with [ is not closed on the same line, or is not of the form"
                                  ' [Name "value"]', line, source)
            if ch == '"':
                raise RecordError('a quoted value outside a tag: write tags as [Name "value"]', line, source)
            raise RecordError(f"unexpected {ch!r}", line, source)


@dataclass
class _Raw:
    """One record's tokens, grouped: tag values, section items, record comments."""

    line: int
    tags: dict[str, tuple[str | None, int]] = field(default_factory=dict)
    sections: dict[str, list[tuple[str, str, int]]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def _group(text: str, source: str) -> list[_Raw]:
    raws: list[_Raw] = []
    cur: _Raw | None = None
    section: str | None = None
    last_item: list[tuple[str, str, int]] | None = None  # the section list whose last item takes a comment
    for tok in _tokens(text, source):
        if tok.kind == "blank":
            cur, section, last_item = None, None, None
            continue
        if tok.kind == "tag":
            name = _TAGS.get(tok.name.lower())
            if name is None:
                raise RecordError(f"unknown tag [{tok.name}]; the tags are {', '.join(TAG_ORDER)}", tok.line, source)
            if cur is None:
                cur = _Raw(tok.line)
                raws.append(cur)
            if name in cur.tags:
                raise RecordError(f"tag [{name}] appears twice in one record (put a blank line between records)",
                                  tok.line, source)
            cur.tags[name] = (tok.value, tok.line)
            if name in SECTIONS:
                section = name
                cur.sections[name] = []
                last_item = cur.sections[name]
            else:
                section, last_item = None, None
            continue
        if cur is None:
            what = "a comment" if tok.kind == "brace" else repr(tok.text[:40])
            raise RecordError(f"{what} before any tag: a record begins with a tag such as [Event \"...\"]",
                              tok.line, source)
        if tok.kind == "brace":
            if last_item:
                tok_text, old, ln = last_item[-1]
                last_item[-1] = (tok_text, old + ("\n" if old else "") + tok.text, ln)
            else:
                cur.notes.append(tok.text)
            continue
        # a word
        if section is None:
            raise RecordError(f"{tok.text[:40]!r} is outside the [Auction] and [Play] sections;"
                              " put tag values in quotes", tok.line, source)
        cur.sections[section].append((tok.text, "", tok.line))
    return raws


# --- reading: one record --------------------------------------------------------------------

def _tag(raw: _Raw, name: str) -> tuple[str | None, int]:
    return raw.tags.get(name, (None, raw.line))


def _int_tag(raw: _Raw, name: str, source: str, default: int | None = None) -> int | None:
    value, line = _tag(raw, name)
    if value is None or not value.strip():
        return default
    v = value.strip()
    if not re.fullmatch(r"\d{1,3}", v):
        raise RecordError(f"[{name} \"{value}\"] should be a number", line, source)
    return int(v)


_DATE_RE = re.compile(r"^(\d{4}|\?{4})[.\-/](\d{1,2}|\?\?)[.\-/](\d{1,2}|\?\?)$")


def _parse_date(value: str, line: int, source: str) -> str:
    v = value.strip()
    if not v:
        return ""
    m = _DATE_RE.match(v)
    if not m:
        raise RecordError(f"[Date \"{value}\"]: write the date as YYYY.MM.DD (?? for unknown parts)", line, source)
    y, mo, d = m.groups()
    mo = mo if mo == "??" else f"{int(mo):02d}"
    d = d if d == "??" else f"{int(d):02d}"
    if (mo != "??" and not 1 <= int(mo) <= 12) or (d != "??" and not 1 <= int(d) <= 31):
        raise RecordError(f"[Date \"{value}\"]: no such month or day", line, source)
    return f"{y}.{mo}.{d}"


def known_systems() -> tuple[str, ...]:
    """The bidding systems a record may name: those registered in ``fiftysix.bidding``."""
    return tuple(bidding.SYSTEM_NAMES)


def _parse_one(raw: _Raw, source: str) -> Record:
    """One record from its tags and sections: each part read by its own reader, in order."""
    unknown_value = [n for n in raw.tags if n not in SECTIONS and raw.tags[n][0] is None]
    if unknown_value:
        n = unknown_value[0]
        raise RecordError(f"[{n}] needs a value in quotes, e.g. [{n} \"...\"]", raw.tags[n][1], source)
    table, names, deal_text, deal_line = _read_table(raw, source)
    deal, won = _read_deal(raw, table, deal_text, deal_line, source)
    event, date, system = _read_header(raw, source)
    leader = _read_leader(raw, table, source)
    state, auction, contract = _read_auction(raw, table, deal, system, leader, won, source)
    played_out = _read_played_out(raw, source)
    play = _read_play(raw, state, contract, source, played_out)
    res_v, res_line = _tag(raw, "Result")
    if res_v is None and play:
        res_line = raw.sections["Play"][-1][2]
    result = _parse_result(res_v, res_line, contract, state.play if play and state is not None else None, won,
                           source)
    return Record(table=table, deal=deal, event=event, date=date, players=names, system=system, won=won,
                  auction=auction, contract=contract, leader=leader, play=play, result=result,
                  notes=tuple(raw.notes), played_out=played_out, line=raw.line)


def _read_played_out(raw: _Raw, source: str) -> bool:
    """[PlayedOut "yes"]: the play went on to the last card after the contract was decided."""
    v, line = _tag(raw, "PlayedOut")
    if v is None:
        return False
    word = v.strip().lower()
    if word not in ("yes", "no"):
        raise RecordError(f'[PlayedOut "{v}"]: write "yes" (the play went on to the last card after the'
                          ' contract was decided) or "no"', line, source)
    if word == "yes" and not raw.sections.get("Play"):
        raise RecordError('[PlayedOut "yes"] needs the play: give every card after [Play]', line, source)
    return word == "yes"


def _read_table(raw: _Raw, source: str) -> tuple[Table, tuple[str, ...], str, int]:
    """[Table], [Deck], [Teams], [Players], [Dealer]: the table, the players' names, and the
    deal's text and line (the table size may come from the deal)."""
    players = _int_tag(raw, "Table", source)
    names_v, names_line = _tag(raw, "Players")
    names: tuple[str, ...] = ()
    if names_v is not None and names_v.strip():
        names = tuple("" if p.strip() in ("-", "?") else p.strip() for p in names_v.split(";"))
    deal_v, deal_line = _tag(raw, "Deal")
    if deal_v is None or not deal_v.strip():
        raise RecordError("the record has no [Deal \"...\"] tag (or it is empty)", raw.line, source)
    deal_text = re.sub(r"^\s*\d\s*:", "", deal_v)  # accept a PBN-style "1:" prefix
    if players is None:
        players = len(deal_text.split()) if deal_text.split() else 0
        if names and len(names) != players:
            players = len(names)
    deck = _int_tag(raw, "Deck", source)
    teams_v = _tag(raw, "Teams")[0]
    teams = (teams_v or "alternate").strip().lower() or "alternate"
    try:
        table = Table.make(players, deck, teams)
    except FiftySixError as e:
        msg = str(e)
        which = "Teams" if "team" in msg else ("Deck" if "deck" in msg and "Deck" in raw.tags else "Table")
        line = raw.tags[which][1] if which in raw.tags else deal_line
        raise RecordError(msg, line, source) from None
    if names and len(names) != table.players:
        raise RecordError(f"[Players] names {len(names)} player(s); the table has {table.players} seats"
                          " (separate the names with ';')", names_line, source)
    dealer = _tag(raw, "Dealer")
    if dealer[0] is not None and dealer[0].strip():
        d = dealer[0].strip()
        if d != str(table.players) and not (names and d == names[-1]):
            raise RecordError(f"[Dealer \"{d}\"]: seats are numbered from the dealer's right, so the dealer"
                              f" is seat {table.players}", dealer[1], source)
    return table, names, deal_text, deal_line


def _read_deal(raw: _Raw, table: Table, deal_text: str, deal_line: int,
               source: str) -> tuple[Deal, tuple[int, ...] | None]:
    """[Deal] and [Won]: the hands, and for an ending the points each team has won already."""
    try:
        deal = Deal.parse(deal_text, table, partial=True)
    except FiftySixError as e:
        raise RecordError(f"[Deal]: {e}", deal_line, source) from None
    if len(deal.hands[0]) == 0:
        raise RecordError("[Deal]: every hand is empty", deal_line, source)
    won_v, won_line = _tag(raw, "Won")
    if deal.is_complete:
        if won_v is not None and any(int(x) for x in re.findall(r"\d+", won_v)):
            raise RecordError("[Won] is for endings: a full deal starts with no points won", won_line, source)
        return deal, None
    parts = (won_v or "").replace(",", " ").split()
    if not parts:
        parts = ["0"] * table.num_teams
    if len(parts) != table.num_teams or not all(p.isdigit() for p in parts):
        raise RecordError(f"[Won \"{won_v}\"]: give the card points already won by each of the"
                          f" {table.num_teams} teams, e.g. \"{' '.join(['0'] * table.num_teams)}\"",
                          won_line, source)
    won = tuple(int(p) for p in parts)
    out = sum(h.points for h in deal.hands)
    if sum(won) + out != TOTAL_POINTS:
        raise RecordError(f"[Won \"{won_v}\"]: the points won ({sum(won)}) and the points still in the hands"
                          f" ({out}) must add up to {TOTAL_POINTS}", won_line, source)
    return deal, won


def _read_header(raw: _Raw, source: str) -> tuple[str, str, str]:
    """[Event], [Date] and [System]."""
    event = (_tag(raw, "Event")[0] or "").strip()
    date_v, date_line = _tag(raw, "Date")
    date = _parse_date(date_v or "", date_line, source)
    sys_v, sys_line = _tag(raw, "System")
    system = (sys_v or "international").strip().lower() or "international"
    known = known_systems()
    if system not in known:
        raise RecordError(f"unknown system {sys_v!r}: use one of {', '.join(known)}", sys_line, source)
    return event, date, system


def _read_auction(raw: _Raw, table: Table, deal: Deal, system: str, leader: int, won: tuple[int, ...] | None,
                  source: str) -> tuple[HandState | None, tuple[Noted, ...], Contract | None]:
    """The [Auction] section, each call made in turn on the hand's state, and the [Contract] /
    [Declarer] tags: (the hand, or None without an auction or a contract; the calls; the contract)."""
    auction_items = raw.sections.get("Auction", [])
    if "Auction" in raw.tags:
        v, line = raw.tags["Auction"]
        if v is not None and v.strip() not in ("", "1"):
            raise RecordError(f"[Auction \"{v}\"]: seat 1 always calls first", line, source)
    auction: tuple[Noted, ...] = ()
    state: HandState | None = None
    if auction_items:
        if not deal.is_complete:
            raise RecordError("an auction needs the full deal, but [Deal] is an ending", auction_items[0][2], source)
        try:
            state = HandState(deal, system, leader=leader)
        except FiftySixError as e:
            raise RecordError(f"[System \"{system}\"]: {e}", auction_items[0][2], source) from None
        auction = _make_calls(state, auction_items, source)
    contract = _contract_tags(raw, table, None if state is None else state.contract, bool(auction_items), source)
    if state is None and contract is not None:
        state = HandState(deal, system, leader=leader, won=won, contract=contract)
    return state, auction, contract


def _make_calls(state: HandState, items: Sequence[tuple[str, str, int]], source: str) -> tuple[Noted, ...]:
    """Make the calls (token, comment, line) in turn; return them in canonical notation.
    Raises RecordError naming the line of the first illegal call."""
    out: list[Noted] = []
    for n, (tok, comment, line) in enumerate(items, start=1):
        if state.phase != AUCTION:
            raise RecordError(f"call {n} {tok!r}: the auction is already over", line, source)
        seat = state.to_move
        try:
            call = bidding.parse_call(tok)
        except FiftySixError as e:
            raise RecordError(f"call {n} {tok!r}: {e}", line, source) from None
        try:
            state.apply(call)
        except FiftySixError as e:
            raise RecordError(f"illegal {e}" if str(e).startswith("call ") else
                              f"call {n} {tok!r} by seat {seat} is illegal: {e}", line, source) from None
        out.append(Noted(bidding.format_call(call), comment))
    return tuple(out)


def _read_leader(raw: _Raw, table: Table, source: str) -> int:
    """[Play "leader"]: the seat that leads the first trick (1 when not given)."""
    lead_v, lead_line = _tag(raw, "Play")
    if lead_v is None or not lead_v.strip():
        return 1
    if not lead_v.strip().isdigit() or not 1 <= int(lead_v) <= table.players:
        raise RecordError(f"[Play \"{lead_v}\"]: the value is the seat that leads the first trick,"
                          f" 1..{table.players}", lead_line, source)
    return int(lead_v)


def _read_play(raw: _Raw, state: HandState | None, contract: Contract | None, source: str,
               played_out: bool = False) -> tuple[Noted, ...]:
    """The [Play] section, each card played in turn on the hand's state under the rules. The
    play stops where the contract is decided; a played-out record's cards go on from there, to
    the last card."""
    play_items = raw.sections.get("Play", [])
    if not play_items:
        return ()
    if contract is None or state is None:
        raise RecordError("the play needs a contract: give an [Auction] or [Contract] and [Declarer]",
                          play_items[0][2], source)
    play: list[Noted] = []
    for n, (tok, comment, line) in enumerate(play_items, start=1):
        try:
            card = Card.parse(tok)
        except FiftySixError as e:
            raise RecordError(f"card {n} of the play: {e}", line, source) from None
        try:
            if played_out and state.can_play_on:
                state.play_on()
            state.apply(card)
        except IllegalPlayError as e:
            raise RecordError(f"card {n} of the play is illegal: {e}", line, source) from None
        play.append(Noted(CARD_NAMES[card], comment))
    if played_out and state.phase != OVER:
        raise RecordError(f'[PlayedOut "yes"] but the play stops after card {len(play)}: a hand played out'
                          ' gives every card to the last one', play_items[-1][2], source)
    return tuple(play)


def _contract_tags(raw: _Raw, table: Table, from_auction: Contract | None, has_auction: bool,
                   source: str) -> Contract | None:
    items = raw.sections.get("Auction") or [("", "", raw.line)]
    auction_line = items[-1][2]
    cv, cline = _tag(raw, "Contract")
    dv, dline = _tag(raw, "Declarer")
    given: Contract | None = None
    if cv is not None and cv.strip():
        if dv is None or not dv.strip():
            if from_auction is None:
                raise RecordError("[Contract] needs a [Declarer \"seat\"] tag too", cline, source)
            seat = from_auction.declarer
        else:
            if not dv.strip().isdigit() or not 1 <= int(dv) <= table.players:
                raise RecordError(f"[Declarer \"{dv}\"]: give the final bidder's seat, 1..{table.players}",
                                  dline, source)
            seat = int(dv)
        try:
            given = Contract.parse(cv, table, seat)
        except FiftySixError as e:
            raise RecordError(f"[Contract]: {e}", cline, source) from None
    elif dv is not None and dv.strip() and not has_auction:
        raise RecordError("[Declarer] needs a [Contract \"...\"] tag too", dline, source)
    if has_auction:
        if from_auction is None:
            raise RecordError("the auction is not over: is the file cut short?", auction_line, source)
        if given is not None and given != from_auction:
            raise RecordError(f"[Contract \"{cv}\"] by seat {given.declarer} does not match the auction,"
                              f" which ends in {from_auction} by seat {from_auction.declarer}", cline, source)
        return from_auction
    return given


def _parse_result(value: str | None, line: int, contract: Contract | None, state: PlayState | None,
                  won: tuple[int, ...] | None, source: str) -> int | None:
    claimed: int | None = None
    word = ""
    if value is not None and value.strip():
        m = re.fullmatch(r"\s*(\d{1,2})\s*(made|failed|down|make|fail)?\s*", value, re.IGNORECASE)
        if not m:
            raise RecordError(f"[Result \"{value}\"]: give the declaring team's card points, e.g. \"34 made\"",
                              line, source)
        claimed = int(m.group(1))
        word = (m.group(2) or "").lower()
        if claimed > TOTAL_POINTS:
            raise RecordError(f"[Result \"{value}\"]: card points run from 0 to {TOTAL_POINTS}", line, source)
        if contract is None:
            raise RecordError("[Result] needs a contract: give an [Auction] or [Contract] and [Declarer]",
                              line, source)
        if word and (word in ("made", "make")) != (claimed >= contract.value):
            raise RecordError(f"[Result \"{value}\"]: {claimed} points {'makes' if claimed >= contract.value else 'fails'}"
                              f" a contract of {contract.value}", line, source)
    if state is None:
        if claimed is not None and won is not None and contract is not None:
            lo = won[contract.team]
            hi = lo + TOTAL_POINTS - sum(won)
            if not lo <= claimed <= hi:
                raise RecordError(f"[Result]: the declarers can end with {lo} to {hi} points, not {claimed}",
                                  line, source)
        return claimed
    assert contract is not None
    return _scored_points(state, contract.team, claimed, value, line, source)


def _scored_points(state: PlayState, team: int, claimed: int | None, value: str | None, line: int | None,
                   source: str) -> int:
    """The declarers' points the record scores: the points when the play decided the contract
    (a claim must agree), else the claim, within what the cards left allow."""
    if state.decided_points is not None:
        got = state.decided_points[team]
        if claimed is not None and claimed != got:
            raise RecordError(f"[Result \"{value}\"] but the play gives the declarers {got} points", line, source)
        return got
    got = state.points[team]
    hi = got + state.points_out
    if claimed is None:
        raise RecordError("the play stops before the hand is decided and there is no [Result \"...\"]"
                          " (a claim): is the file cut short?", line, source)
    if not got <= claimed <= hi:
        raise RecordError(f"[Result \"{value}\"]: after the play recorded the declarers can end with"
                          f" {got} to {hi} points", line, source)
    return claimed


# --- reading: public ---------------------------------------------------------------------------

MAX_FILE_BYTES = 64 * 1024 * 1024


def decode_record_bytes(data: bytes, source: str = "") -> str:
    """Bytes of a record file as text; anything but UTF-8 text is a RecordError."""
    _check_size(len(data), source)
    if b"\x00" in data:
        raise RecordError("this is not a text file (it holds NUL bytes)", data[:data.index(b"\x00")].count(b"\n") + 1,
                          source)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        raise RecordError(f"the file is not UTF-8 text (bad byte at offset {e.start})", line, source) from None


def _check_size(size: int, source: str) -> None:
    if size > MAX_FILE_BYTES:
        raise RecordError(f"the file is {size_text(size)}; record files are at most {size_text(MAX_FILE_BYTES)}",
                          None, source)


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
"""Control characters: never in a tag value; a NUL nowhere (it is binary, not text)."""


def parse_records(text: str, source: str = "") -> list[Record]:
    """Read every record in ``text``; the first fault raises RecordError (nothing is returned).
    A NUL anywhere, or a control character in a tag value, is refused, not stored."""
    _check_size(len(text), source)
    if "\x00" in text:
        raise RecordError("this is not a text file (it holds NUL bytes)", text.count("\n", 0, text.index("\x00")) + 1,
                          source)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")  # Windows and old Mac line ends
    raws = _group(text, source)
    if not raws:
        raise RecordError("no records found: a record begins with a tag such as [Event \"...\"]", None, source)
    return [_parse_one(r, source) for r in raws]


def parse_record(text: str, source: str = "") -> Record:
    """Read a text holding exactly one record."""
    rs = parse_records(text, source)
    if len(rs) != 1:
        raise RecordError(f"expected one record, found {len(rs)}", rs[1].line, source)
    return rs[0]


def read_records(path: str) -> list[Record]:
    """Read a record file (UTF-8)."""
    with open(path, "rb") as f:
        _check_size(os.fstat(f.fileno()).st_size, str(path))  # the real size, not what was read
        data = f.read(MAX_FILE_BYTES + 1)
    return parse_records(decode_record_bytes(data, str(path)), str(path))


# --- writing ----------------------------------------------------------------------------------

def _noted_lines(items: Sequence[Noted], per_line: int) -> list[str]:
    lines: list[str] = []
    for start in range(0, len(items), per_line):
        parts = []
        for n in items[start:start + per_line]:
            parts.append(n.token + (" {" + _escape_comment(n.comment) + "}" if n.comment else ""))
        lines.append(" ".join(parts))
    return lines


def format_record(record: Record) -> str:
    """The canonical text of one record (no trailing blank line)."""
    t = record.table
    lines: list[str] = []

    def tag(name: str, value: object) -> None:
        lines.append(f'[{name} "{_escape_value(str(value))}"]')

    if record.event:
        tag("Event", record.event)
    if record.date:
        tag("Date", record.date)
    tag("Table", t.players)
    tag("Deck", t.deck)
    tag("Teams", t.teams)
    tag("System", record.system)
    tag("Dealer", t.players)
    if record.players and any(record.players):
        tag("Players", "; ".join(p or "-" for p in record.players))
    tag("Deal", record.deal)
    if record.won is not None:
        tag("Won", " ".join(str(w) for w in record.won))
    if record.auction:
        lines.append("[Auction]")
        lines.extend(_noted_lines(record.auction, t.players))
    if record.contract is not None:
        tag("Contract", record.contract)
        tag("Declarer", record.contract.declarer)
    if record.played_out:
        tag("PlayedOut", "yes")
    if record.play:
        tag("Play", record.leader)
        lines.extend(_noted_lines(record.play, t.players))
    elif record.leader != 1:
        tag("Play", record.leader)
    if record.result is not None:
        made = record.made
        tag("Result", f"{record.result}" + ("" if made is None else (" made" if made else " failed")))
    for note in record.notes:
        lines.append("{" + _escape_comment(note) + "}")
    return "\n".join(lines)


def format_records(records: Iterable[Record]) -> str:
    """The canonical text of a file of records: one blank line between records."""
    return "\n\n".join(format_record(r) for r in records) + "\n"


def write_records(path: str, records: Iterable[Record]) -> None:
    """Write a record file atomically (readers see the old file or the new one)."""
    write_atomic(path, format_records(records))


def with_comment(record: Record, section: str, index: int, comment: str) -> Record:
    """A copy of ``record`` with ``comment`` on call/card ``index`` (0-based) of ``section``."""
    items = list(record.auction if section == "Auction" else record.play)
    items[index] = Noted(items[index].token, comment)
    return replace(record, auction=tuple(items)) if section == "Auction" else replace(record, play=tuple(items))


def record_of(state: HandState, *, result: int | None = None, event: str = "", date: str = "",
              players: Sequence[str] = (), notes: Sequence[str] = ()) -> Record:
    """The record of a hand as it stands: its calls, its cards (a hand played on past the
    decision keeps every card, marked played out) and the declarers' points when the contract
    was decided. ``result`` is a claim, for a play that stops before the contract is decided.
    A hand whose auction or play is unfinished raises RecordError saying what is missing."""
    if state.phase == AUCTION and state.calls:
        raise RecordError("the auction is not over yet: finish it (three passes, or the system's end)")
    play = state.play
    contract = state.contract if state.calls or state.auction is None else None
    score: int | None = result
    if play is not None and contract is not None and state.cards:
        at = state.decided_at
        if state.played_on and state.phase != OVER:
            raise RecordError(f"the contract was decided after card {at}: give every card to the last one"
                              f" (a hand played out), or take back the cards after card {at}")
        score = _scored_points(play, contract.team, result, None if result is None else str(result), None, "")
    elif result is not None and contract is None:
        raise RecordError("[Result] needs a contract: give an [Auction] or [Contract] and [Declarer]")
    names = tuple(p.strip() for p in players)
    return Record(table=state.table, deal=state.deal, event=event.strip(), date=date.strip(),
                  players=names if any(names) else (), system=state.system.name, won=state.won,
                  auction=tuple(Noted(bidding.format_call(c)) for c in state.calls), contract=contract,
                  leader=state.leader,
                  play=tuple(Noted(CARD_NAMES[c]) for c in state.cards), result=score, notes=tuple(notes),
                  played_out=state.played_on)


def build_record(table: Table, deal: Deal, system: str = "international", auction: Sequence[str] = (),
                 play: Sequence[str] = (), *, leader: int = 1, result: int | None = None, event: str = "",
                 date: str = "", players: Sequence[str] = (), notes: Sequence[str] = (),
                 played_out: bool = False) -> Record:
    """A record from what a player entered: the calls from seat 1 and the cards in playing
    order (the play may stop early: then ``result`` is the declarers' points agreed, a claim;
    ``played_out``: the cards go on past the moment the contract was decided, to the last).
    Each call and card is made on the hand's state, as a file's are; RecordError names the
    problem."""
    state = HandState(deal, system, leader=leader)
    for i, call in enumerate(auction, start=1):
        try:
            state.apply(bidding.parse_call(call))
        except FiftySixError as e:
            raise RecordError(f"call {i} {call}: {e}") from None
    if play and state.contract is None:
        raise RecordError("the play needs a contract: enter the auction first")
    for i, card in enumerate(play, start=1):
        try:
            if played_out and state.can_play_on:
                state.play_on()
            state.apply(Card.parse(card))
        except FiftySixError as e:
            raise RecordError(f"card {i} of the play is illegal: {e}") from None
    return record_of(state, result=result, event=event, date=date, players=players, notes=notes)
