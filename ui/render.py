"""HTML for the app's card-game pictures: cards, hands, the table by seat, calls as chips.

Every function returns a string of HTML for ``st.html``; nothing here imports Streamlit,
so the pictures can be tested (and reused) without a running app. Styles live in one
``CSS`` block that each page emits once through ``ui.components.page_start``.
"""
from __future__ import annotations

import html
import math
import re
from collections.abc import Iterable, Mapping, Sequence

from fiftysix.cards import CARD_NAMES, RANKS, SUIT_NAMES, SUIT_SYMBOLS, Card, Hand, Table

RED_SUITS = (1, 2)  # hearts, diamonds
TEAM_COLOURS = ("#1f5fbf", "#c0392b", "#1e8449", "#8e44ad")

CSS = """
<style>
.fs-card{display:inline-flex;flex-direction:column;align-items:center;justify-content:center;
  width:2.2em;height:3.1em;border:1px solid #8a8a8a;border-radius:.32em;background:#fffdf7;
  box-shadow:1px 2px 3px rgba(0,0,0,.35);margin:0 -.45em 0 0;font-family:Georgia,'Times New Roman',serif;
  font-weight:700;line-height:1.0;vertical-align:middle;position:relative}
.fs-card .r{font-size:1.0em}.fs-card .s{font-size:1.15em}
.fs-card.red{color:#c8102e}.fs-card.black{color:#111}
.fs-card.dim{opacity:.35}.fs-card.hi{outline:3px solid #f5b700;outline-offset:-1px;z-index:2}
.fs-card.back{background:repeating-linear-gradient(45deg,#23408e,#23408e 4px,#2f56b8 4px,#2f56b8 8px);
  color:transparent}
.fs-card.big{width:3.0em;height:4.2em;font-size:1.15em;margin:0 .25em}
.fs-cardval{display:inline-block;text-align:center;margin:0 .35em .2em 0}
.fs-cardval .v{display:block;font:600 .8em sans-serif;margin-top:.2em}
.fs-hand{display:inline-block;white-space:nowrap;padding-right:.5em}
.fs-suit-red{color:#c8102e}.fs-suit-black{color:#111}.fs-suitrun{white-space:nowrap}
.fs-felt{position:relative;width:100%;max-width:860px;height:440px;margin:.4em auto 1em;
  background:radial-gradient(ellipse at center,#2e8b57 0%,#1d6b40 60%,#134d2d 100%);
  border-radius:48%/42%;border:10px solid #6b3e1f;box-shadow:inset 0 0 30px rgba(0,0,0,.5)}
.fs-seat{position:absolute;transform:translate(-50%,-50%);background:rgba(255,255,255,.93);
  border-radius:.5em;padding:.3em .6em .45em .5em;box-shadow:0 2px 6px rgba(0,0,0,.45);
  font:.85em sans-serif;text-align:left;min-width:8em}
.fs-seat.tomove{box-shadow:0 0 0 3px #f5b700,0 2px 6px rgba(0,0,0,.45)}
.fs-seat .lab{font-weight:700;margin-bottom:.25em;border-left:.45em solid;padding-left:.35em}
.fs-seat .fs-card{font-size:.9em}
.fs-center{position:absolute;left:50%;top:50%;transform:translate(-50%,-50%);text-align:center;
  color:#fff;font:600 1em sans-serif;text-shadow:0 1px 2px #000}
.fs-trickcard{position:absolute;transform:translate(-50%,-50%)}
.fs-call{display:inline-block;padding:.12em .55em;margin:.12em;border-radius:1em;border:1px solid #999;
  background:#f4f1e8;font:700 .95em ui-monospace,Menlo,Consolas,monospace;cursor:help;white-space:nowrap}
.fs-call.pass{background:#e8f3e8;color:#2d6a2d}.fs-call.dbl{background:#fbe3e3;color:#a61b1b}
.fs-call.final{outline:2px solid #f5b700}
.fs-calltip{display:inline-block;position:relative}
.fs-calltip>summary{list-style:none;cursor:pointer}
.fs-calltip>summary::-webkit-details-marker{display:none}
.fs-calltip .fs-tip{position:absolute;z-index:20;left:0;top:100%;width:max-content;max-width:18em;
  background:#fffbe6;color:#222;border:1px solid #d4c27a;border-radius:.35em;padding:.35em .55em;
  font:.8em/1.35 sans-serif;white-space:normal;text-align:left;box-shadow:0 2px 6px rgba(0,0,0,.25)}
.fs-auction{border-collapse:collapse;margin:.3em 0}
.fs-auction th{font:600 .8em sans-serif;padding:.2em .6em;border-bottom:2px solid}
.fs-auction td{padding:.1em .3em;text-align:center}
.fs-contract{display:inline-block;font:700 1.4em Georgia,serif;padding:.2em .7em;border-radius:.4em;
  background:#fffdf7;border:2px solid #6b3e1f;color:#111;text-shadow:none}
/* A phone stacks Streamlit's columns; rows that are a grid keep their shape: an auction keeps its
   seats side by side (KEEP_ROWS), a palette of buttons wraps four to a row (WRAP_ROWS). A phone
   has no keyboard: the keys' hints (components.key_hint) and the buttons' key badges are hidden. */
@media (max-width: 640px){
[class*="st-key-fs_keeprows"] [data-testid="stHorizontalBlock"]{flex-wrap:nowrap !important;gap:.2rem !important}
[class*="st-key-fs_keeprows"] [data-testid="stColumn"]{min-width:0 !important;width:auto !important;
  flex:1 1 0 !important}
[class*="st-key-fs_keeprows"] button{padding-left:.1rem !important;padding-right:.1rem !important;min-height:2rem}
[class*="st-key-fs_wraprows"] [data-testid="stHorizontalBlock"]{flex-wrap:wrap !important;gap:.3rem !important}
[class*="st-key-fs_wraprows"] [data-testid="stColumn"]{min-width:calc(25% - .3rem) !important;
  width:calc(25% - .3rem) !important;flex:0 0 calc(25% - .3rem) !important}
.fs-wide{display:none}
[class*="st-key-fs_keyhint"]{display:none}
button kbd[aria-label^="Shortcut"]{display:none}
.fs-calltip .fs-tip{position:fixed;left:.75rem;right:.75rem;top:auto;bottom:1rem;max-width:none;width:auto;
  font-size:.95em}
}
/* A phone: the round table has no room for the side hands, so the seats line up below the
   trick and each hand wraps within the screen instead of being clipped. */
@media (max-width: 640px){
.fs-felt{height:auto;display:flex;flex-wrap:wrap;justify-content:center;align-items:flex-start;gap:.45em;
  padding:.6em .35em;border-radius:1.2em;border-width:6px}
.fs-seat{position:static;transform:none;min-width:0;max-width:100%;box-sizing:border-box}
.fs-seat .fs-hand{white-space:normal}
.fs-trickcard{position:static;transform:none;order:-1}
.fs-center{position:static;transform:none;order:-2;width:100%}
}
</style>
"""


KEEP_HISTORY_JS = """<script>
(() => {
  // Browser Back must go back. Streamlit pushes a new history entry whenever it drops a query
  // parameter of the page it is on: a value a widget refuses or holds by default, one the page
  // clears, or the parameters of a page being left (just before it pushes the next page). Back
  // then landed on an entry that was rewritten again, or on the page left without its state.
  // Here a drop rewrites the entry it corrects instead of adding one; and when the next page
  // follows at once, the page left keeps the address it had. A change of page, or a value
  // added or changed, is still a step in history.
  const h = window.history;
  if (h.__fiftysixKeepsHistory) return;
  h.__fiftysixKeepsHistory = true;
  const pairs = (search) => [...new URLSearchParams(search)].map(([k, v]) => k + "=" + v);
  const onlyDrops = (from, to) => {
    const had = new Set(pairs(from)), has = pairs(to);
    return has.length < had.size && has.every((p) => had.has(p));
  };
  const push = h.pushState.bind(h), replace = h.replaceState.bind(h);
  let dropped = null;  // the address a drop just rewrote, and when
  h.replaceState = (state, title, url) => { dropped = null; return replace(state, title, url); };
  h.pushState = (state, title, url) => {
    const here = window.location, to = url == null ? null : new URL(url, here.href);
    if (to && to.origin === here.origin && to.pathname === here.pathname) {
      if (onlyDrops(here.search, to.search)) {
        const was = here.href;
        replace(state, title, url);
        dropped = {url: was, at: Date.now()};
        return undefined;
      }
    } else if (dropped && Date.now() - dropped.at < 5000) {
      replace(h.state, "", dropped.url);  // the page left keeps its address for Back
    }
    dropped = null;
    return push(state, title, url);
  };
  // The first page of a visit may have pushed such a drop before this script ran: step back
  // onto the address typed in (the page redraws in place, rewriting that entry) so that the
  // next Back leaves the app's page.
  const nav = (performance.getEntriesByType("navigation") || [])[0];
  if (nav && nav.type !== "back_forward" && h.length > 1) {
    const opened = new URL(nav.name);
    if (opened.pathname === window.location.pathname && onlyDrops(opened.search, window.location.search)) {
      h.back();
    }
  }
})();
</script>"""
"""A script for ``st.html(..., unsafe_allow_javascript=True)``: the page's history gets one
entry per page visited, and Back brings each page back with the address it had."""


KEEP_ROWS = "fs_keeprows"
"""Key prefix of a Streamlit container whose columns stay side by side on a phone (CSS)."""
WRAP_ROWS = "fs_wraprows"
"""Key prefix of a Streamlit container whose columns wrap four to a row on a phone (CSS)."""


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)


_MD_PUNCT = re.compile(r"[!-/:-@\[-`{-~]")


def md_text(text: object) -> str:
    """``text`` from a user, a file or a URL, escaped for any Streamlit element that reads
    Markdown (``st.markdown``, captions, alerts, widget and button labels): every ASCII
    punctuation character gets a backslash (CommonMark's escape), so no link, image,
    emphasis, strikethrough, HTML, math or colour directive can form; line breaks stay."""
    s = _MD_PUNCT.sub(lambda m: "\\" + m.group(0), str(text))
    return "  \n".join(s.splitlines()) if "\n" in s or "\r" in s else s


def plot_text(text: object) -> str:
    """``text`` for a Plotly label or title: Plotly reads a few HTML tags there (links among
    them) and decodes entities, so ``<``, ``>`` and ``&`` are written as entities."""
    return html.escape(str(text), quote=False)


_CARD_TOKEN = re.compile(r"(?<![\w+^-])([J9ATKQ87])([SHDC])(?![\w+^])")


def card_words(text: object) -> str:
    """Cards written in the engine's notation (``AS``, ``TD``, ``9H``) as a player reads them:
    ``A♠``, ``10♦``, ``9♥``; the rest of the text as it is. Calls (``29S``, ``+1H``, ``H+1``)
    are not cards and stay."""
    def one(m: re.Match[str]) -> str:
        rank, suit = m.group(1), m.group(2)
        return ("10" if rank == "T" else rank) + SUIT_SYMBOLS["SHDC".index(suit)]
    return _CARD_TOKEN.sub(one, str(text))


def is_red(suit: int) -> bool:
    return suit in RED_SUITS


def suit_symbol_html(suit: int) -> str:
    """A suit symbol in its colour."""
    cls = "fs-suit-red" if is_red(suit) else "fs-suit-black"
    return f'<span class="{cls}">{SUIT_SYMBOLS[suit]}</span>'


def face_rank(card: Card) -> str:
    """The rank as printed on a card's face: ``10`` for the ten, else the notation letter."""
    r = RANKS[card.rank]
    return "10" if r == "T" else r


def card_html(card: int, *, dim: bool = False, highlight: bool = False, big: bool = False,
              back: bool = False) -> str:
    """One card drawn as a card: rank over suit symbol, red or black; title = canonical name."""
    if back:
        return '<span class="fs-card back" title="a hidden card"><span class="r">?</span></span>'
    c = Card(card)
    classes = ["fs-card", "red" if is_red(c.suit) else "black"]
    if dim:
        classes.append("dim")
    if highlight:
        classes.append("hi")
    if big:
        classes.append("big")
    return (f'<span class="{" ".join(classes)}" title="{CARD_NAMES[c]} - {_esc(c.name)}" '
            f'data-card="{CARD_NAMES[c]}"><span class="r">{face_rank(c)}</span>'
            f'<span class="s">{SUIT_SYMBOLS[c.suit]}</span></span>')


def hand_html(hand: Hand | Iterable[int], *, highlight: Iterable[int] = (), dim: Iterable[int] = (),
              hidden: int = 0) -> str:
    """A hand as a fan of cards in S H D C order, strongest first; ``hidden`` face-down cards."""
    hi, dm = {int(c) for c in highlight}, {int(c) for c in dim}
    cards = sorted(int(c) for c in hand)
    parts = [card_html(c, highlight=c in hi, dim=c in dm) for c in cards]
    parts += [card_html(0, back=True) for _ in range(hidden)]
    if not parts:
        return '<span class="fs-hand"><i>no cards</i></span>'
    return f'<span class="fs-hand">{"".join(parts)}</span>'


def hand_text_html(hand: Hand) -> str:
    """A one-line hand with coloured suit symbols, the ranks as on the cards and apart, so that
    tens never run together: ♠J J 9 · ♥J 9 10 10 · ♦K Q · ♣-."""
    out = []
    for s in range(4):
        ranks = " ".join(face_rank(c) for c in hand.suit_cards(s)) or "-"
        out.append(f'<span class="fs-suitrun">{suit_symbol_html(s)}{_esc(ranks)}</span>')
    return " · ".join(out)


def seat_positions(players: int, bottom: int = 1) -> dict[int, tuple[float, float]]:
    """Where each seat sits round the table, as (left %, top %) with ``bottom`` nearest the viewer.

    Play goes anticlockwise, so the next seat after the bottom one is on the viewer's right.
    """
    pos = {}
    for seat in range(1, players + 1):
        k = (seat - bottom) % players
        theta = math.radians(270 + 360 * k / players)
        pos[seat] = (50 + 40 * math.cos(theta), 50 - 38 * math.sin(theta))
    return pos


def seat_label(table: Table, seat: int) -> str:
    team = table.team_of(seat)
    return f"Seat {seat} · {table.team_name(team)}"


def table_html(table: Table, hands: Mapping[int, Hand | None], *, bottom: int = 1,
               to_move: int | None = None, trick: Sequence[tuple[int, int]] = (),
               center: str = "", notes: Mapping[int, str] | None = None,
               highlight: Iterable[int] = (), hidden: Mapping[int, int] | None = None) -> str:
    """The table seen from above: every seat's hand in its place, the trick in the middle.

    ``hands`` maps seat -> Hand (``None`` draws the hand face down: ``hidden[seat]`` cards,
    a full hand by default); ``trick`` is the (seat, card) pairs on the table now;
    ``center`` is HTML for the middle (a contract).
    """
    hi = list(highlight)
    pos = seat_positions(table.players, bottom)
    parts = ['<div class="fs-felt">']
    for seat in table.seats:
        left, top = pos[seat]
        colour = TEAM_COLOURS[table.team_of(seat) % len(TEAM_COLOURS)]
        hand = hands.get(seat)
        if hand is None:
            body = hand_html((), hidden=(hidden or {}).get(seat, table.hand_size))
            pts = ""
        else:
            body = hand_html(hand, highlight=hi if seat == to_move else ())
            pts = f" · {hand.points} pts"
        note = f'<div style="margin-top:.2em">{notes[seat]}</div>' if notes and seat in notes else ""
        cls = "fs-seat tomove" if seat == to_move else "fs-seat"
        parts.append(f'<div class="{cls}" style="left:{left:.1f}%;top:{top:.1f}%" data-seat="{seat}">'
                     f'<div class="lab" style="border-color:{colour}">{_esc(seat_label(table, seat))}{pts}'
                     f'</div>{body}{note}</div>')
    for seat, card in trick:
        left, top = pos[seat]
        tl, tt = 50 + (left - 50) * 0.42, 50 + (top - 50) * 0.42
        parts.append(f'<div class="fs-trickcard" style="left:{tl:.1f}%;top:{tt:.1f}%">'
                     f'{card_html(card, big=True)}</div>')
    if center:
        parts.append(f'<div class="fs-center">{center}</div>')
    parts.append("</div>")
    return "".join(parts)


_SUIT_IN_CALL = re.compile(r"(NT|NS|[SHDC])")


def call_pieces(call: str) -> list[str]:
    """A call's text cut so that each suit letter is a piece of its own (NT and NS stay whole)."""
    return [p for p in _SUIT_IN_CALL.split(call) if p]


def call_text_html(call: str) -> str:
    """A call in canonical ASCII with its suit letter coloured (the text stays canonical)."""
    out = []
    for piece in call_pieces(call):
        if len(piece) == 1 and piece in "SHDC":
            cls = "fs-suit-red" if piece in "HD" else "fs-suit-black"
            out.append(f'<span class="{cls}">{piece}</span>')
        else:
            out.append(_esc(piece))
    return "".join(out)


def call_chip_html(call: str, label: str = "", sentence: str = "", *, final: bool = False) -> str:
    """A call as a chip that explains itself: hovering shows its label and meaning (the title),
    and a tap or click opens them under the chip (phones have no hover)."""
    kind = "pass" if call.upper() in ("P", "PASS") else "dbl" if call.upper() in ("X", "XX") else ""
    tip = " - ".join(t for t in (label, sentence) if t)
    cls = " ".join(x for x in ("fs-call", kind, "final" if final else "") if x)
    chip = f'<span class="{cls}" title="{_esc(tip)}" data-call="{_esc(call)}">{call_text_html(call)}</span>'
    if not tip:
        return chip
    words = f"<b>{_esc(label)}</b>" + (f": {_esc(sentence)}" if sentence else "") if label else _esc(sentence)
    return (f'<details class="fs-calltip"><summary>{chip}</summary>'
            f'<span class="fs-tip" role="tooltip">{words}</span></details>')


def auction_html(table: Table, calls: Sequence[tuple[int, str, str, str]], *, first: int = 1,
                 mark: int | None = None) -> str:
    """The auction as a grid, one column per seat from ``first``: (seat, call, label, sentence)
    rows; ``mark`` outlines the call with that index (0-based)."""
    n = table.players
    heads = []
    for i in range(n):
        seat = (first - 1 + i) % n + 1
        colour = TEAM_COLOURS[table.team_of(seat) % len(TEAM_COLOURS)]
        heads.append(f'<th style="border-color:{colour}">Seat {seat}</th>')
    rows: list[list[str]] = []
    col = 0
    if calls:
        col = (calls[0][0] - first) % n
    row = [""] * col
    for i, (seat, call, label, sentence) in enumerate(calls):
        row.append(call_chip_html(call, label, sentence, final=i == mark))
        if len(row) == n:
            rows.append(row)
            row = []
    if row:
        rows.append(row + [""] * (n - len(row)))
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
    return f'<table class="fs-auction"><tr>{"".join(heads)}</tr>{body}</table>'


def contract_html(text: str, who: str = "") -> str:
    """The final contract as a plaque, e.g. 40H by seat 3."""
    extra = f'<div style="font:.8em sans-serif;margin-top:.2em">{_esc(who)}</div>' if who else ""
    return f'<span class="fs-contract">{call_text_html(text)}{extra}</span>'


def card_values_html(values: Mapping[int, int], best: int | None = None) -> str:
    """Legal cards with what each is worth (e.g. points for the side to move) under it."""
    parts = []
    for card, v in sorted(values.items(), key=lambda kv: (-kv[1], int(kv[0]))):
        parts.append(f'<span class="fs-cardval">{card_html(card, highlight=card == best)}'
                     f'<span class="v">{_esc(v)}</span></span>')
    return "".join(parts)


def suit_name(suit: int | None) -> str:
    return "no-trump" if suit is None else SUIT_NAMES[suit]
