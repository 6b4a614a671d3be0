"""Call notation: every call form of RULES.md section 7, parsed and formatted.

A ``Call`` is pure syntax: ``+1H`` is read without knowing the auction; whether it is legal
now and what it promises is the auction's (and the system's) job. Input is lenient
(Unicode suits, lower case, spaces, ``NT``/``N``, ``Pass``/``P``, ``Double``/``X``,
``Redouble``/``XX``, ``↑``); output is one canonical ASCII form.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from fiftysix.cards import SUIT_SYMBOLS, SUITS
from fiftysix.errors import NotationError

MIN_BID = 28
MAX_BID = 56
MAX_COUNT = 12

# Call kinds. The value-carrying forms hold ``value``; plus/minus forms hold ``n`` (None when
# the form has no number, e.g. ``+H``); suit forms hold ``suit`` (None = no-trump / NS).
SUIT = "suit"            # 28H      number-suit
REVERSE = "reverse"      # H28      suit-number
NT = "nt"                # 32NT     number-NT
NS = "ns"                # 33NS     number-NS (Noes); value None = classic bare ``NS`` (Nos)
PLUS = "plus"            # +1H, +H  plus N in a suit / plus
SUIT_PLUS = "suit_plus"  # H+1, H+  suit plus N / suit plus
PLUS_NT = "plus_nt"      # +1NT
PLUS_NS = "plus_ns"      # +1NS, +NS (N+)
X_PLUS = "x_plus"        # 1+H, 2+H classic One Plus / X-Plus
MINUS = "minus"          # -H, -1H  classic Minus / Minus-X
PLUS_PASS = "plus_pass"  # +P       classic Plus Pass
RAISE = "raise"          # 40H^     kerala own raise (suit None: 40NS^)
FORCED = "forced"        # 28-Pass  international forced opening
PASS = "pass"
DOUBLE = "double"
REDOUBLE = "redouble"

KINDS = (SUIT, REVERSE, NT, NS, PLUS, SUIT_PLUS, PLUS_NT, PLUS_NS, X_PLUS, MINUS, PLUS_PASS,
         RAISE, FORCED, PASS, DOUBLE, REDOUBLE)
BID_KINDS = frozenset(KINDS) - {PASS, DOUBLE, REDOUBLE}


@dataclass(frozen=True, order=True)
class Call:
    """One call, as syntax. ``str`` is the canonical form; ``repr`` evaluates back."""

    kind: str
    value: int | None = None
    suit: int | None = None
    n: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise NotationError(f"unknown call kind {self.kind!r}")
        if self.value is not None and not MIN_BID <= self.value <= MAX_BID:
            raise NotationError(f"bid {self.value} is out of range: bids run {MIN_BID} to {MAX_BID}")
        if self.n is not None and not 1 <= self.n <= MAX_COUNT:
            raise NotationError(f"count {self.n} is out of range 1..{MAX_COUNT}")
        if self.suit is not None and not 0 <= self.suit < 4:
            raise NotationError(f"suit {self.suit} is out of range 0..3")

    @classmethod
    def parse(cls, text: str) -> Call:
        return parse_call(text)

    @property
    def is_bid(self) -> bool:
        """Every call but Pass, Double and Redouble."""
        return self.kind in BID_KINDS

    @property
    def names_suit(self) -> bool:
        """Does the call name a trump suit (so the caller must hold a card of it)?"""
        return self.suit is not None and self.kind in (SUIT, REVERSE, PLUS, SUIT_PLUS, X_PLUS, MINUS, RAISE)

    def __str__(self) -> str:
        return format_call(self)

    def symbol(self) -> str:
        """Display form with suit symbols: ``28♥``, ``40♥↑``."""
        s = format_call(self)
        if self.suit is not None:
            s = s.replace(SUITS[self.suit], SUIT_SYMBOLS[self.suit]).replace("^", "↑")
        return s

    def __repr__(self) -> str:
        return f"Call.parse({format_call(self)!r})"


PASS_CALL = Call(PASS)
DOUBLE_CALL = Call(DOUBLE)
REDOUBLE_CALL = Call(REDOUBLE)


# The canonical form of each kind: ``v`` the value, ``n`` the count ("" where absent), ``s``
# the suit letter ("" for none; an own raise without a suit is written NS, 40NS^).
_FORMS = {SUIT: "{v}{s}", REVERSE: "{s}{v}", NT: "{v}NT", NS: "{v}NS", PLUS: "+{n}{s}",
          SUIT_PLUS: "{s}+{n}", PLUS_NT: "+{n}NT", PLUS_NS: "+{n}NS", X_PLUS: "{n}+{s}",
          MINUS: "-{n}{s}", PLUS_PASS: "+P", RAISE: "{v}{s}^", FORCED: "{v}-Pass", PASS: "P",
          DOUBLE: "X", REDOUBLE: "XX"}


def format_call(call: Call) -> str:
    """The canonical ASCII form of a call."""
    s = SUITS[call.suit] if call.suit is not None else "NS" if call.kind == RAISE else ""
    return _FORMS[call.kind].format(v="" if call.value is None else call.value, s=s,
                                    n="" if call.n is None else call.n)


_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C",
            "↑": "^", "−": "-", "–": "-"}
_WORDS = {"PASS": "P", "DOUBLE": "X", "DBL": "X", "REDOUBLE": "XX", "RDBL": "XX", "NOES": "NS",
          "NOS": "NS", "NOTRUMP": "NT"}
_S = "([SHDC])"
_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p), k) for p, k in (
    (r"^P$", PASS), (r"^X$", DOUBLE), (r"^XX$", REDOUBLE),
    (r"^(\d+)-?P$", FORCED),
    (r"^(\d+)" + _S + r"\^$", RAISE), (r"^(\d+)NS\^$", RAISE),
    (r"^(\d+)" + _S + "$", SUIT), (r"^" + _S + r"(\d+)$", REVERSE),
    (r"^(\d+)(?:NT|N)$", NT), (r"^(\d+)NS$", NS), (r"^NS$", NS),
    (r"^\+P$", PLUS_PASS),
    (r"^\+(\d*)" + _S + "$", PLUS), (r"^" + _S + r"\+(\d*)$", SUIT_PLUS),
    (r"^\+(\d*)(?:NT|N)$", PLUS_NT), (r"^\+(\d*)NS$", PLUS_NS), (r"^N\+$", PLUS_NS),
    (r"^(\d+)\+" + _S + "$", X_PLUS), (r"^-(\d*)" + _S + "$", MINUS),
))


def _normalise(text: str) -> str:
    t = "".join(_SYMBOLS.get(ch, ch) for ch in text).upper()
    t = re.sub(r"\s+", "", t)
    for word, short in sorted(_WORDS.items(), key=lambda kv: -len(kv[0])):
        t = t.replace(word, short)
    return t


def parse_call(text: str) -> Call:
    """Read one call in any accepted spelling; raise NotationError naming the text if unreadable."""
    if not isinstance(text, str) or not text.strip():
        raise NotationError("empty call: write e.g. 28H, H28, +1H, 32NT, 33NS, P, X or XX")
    t = _normalise(text)
    for pat, kind in _PATTERNS:
        m = pat.match(t)
        if not m:
            continue
        groups = m.groups()
        value = suit = n = None
        for g in groups:
            if g is None or g == "":
                continue
            if g in "SHDC":
                suit = "SHDC".index(g)
            elif kind in (PLUS, SUIT_PLUS, PLUS_NT, PLUS_NS, X_PLUS, MINUS):
                n = int(g)
            else:
                value = int(g)
        try:
            return Call(kind, value, suit, n)
        except NotationError as e:
            raise NotationError(f"cannot read call {text!r}: {e}") from None
    raise NotationError(
        f"cannot read call {text!r}: write e.g. 28H, H28, +1H, H+1, +H, 32NT, 33NS, +1NS, +NS,"
        " 1+H, -H, +P, 40H^, 28-Pass, P, X or XX")


def parse_calls(text: str) -> list[Call]:
    """Read an auction's calls separated by spaces or commas.

    A call may itself contain spaces (``28 H``, ``+1 ♥``): tokens that do not read as a call
    on their own are joined with the following ones (up to four tokens).
    """
    tokens = text.replace(",", " ").split()
    out: list[Call] = []
    i = 0
    while i < len(tokens):
        j = i + 1
        call = _try(tokens[i:j])
        while call is None and j < min(i + 4, len(tokens)):
            j += 1
            call = _try(tokens[i:j])
        if call is None:
            raise NotationError(f"call {len(out) + 1} ({tokens[i]!r}): " + _reason(tokens[i]))
        while j < len(tokens) and _try(tokens[j:j + 1]) is None and _try(tokens[i:j + 1]) is not None:
            j += 1
            call = _try(tokens[i:j])
        out.append(call)  # type: ignore[arg-type]
        i = j
    return out


def _try(tokens: list[str]) -> Call | None:
    try:
        return parse_call("".join(tokens))
    except NotationError:
        return None


def _reason(token: str) -> str:
    try:
        parse_call(token)
    except NotationError as e:
        return str(e)
    return "unreadable"


def format_calls(calls: list[Call]) -> str:
    return " ".join(format_call(c) for c in calls)


