"""The app's card pictures: red and black suits, ranks on the faces, seats in playing order."""
from __future__ import annotations

import re

from fiftysix.cards import CARD_NAMES, Card, Hand, Table
from fiftysix.ui import render


def _strip(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


def test_every_card_is_drawn_with_its_rank_suit_and_colour():
    for kind in range(32):
        html = render.card_html(kind)
        name = CARD_NAMES[kind]
        assert f'data-card="{name}"' in html
        red = name[1] in "HD"  # hearts and diamonds are red, spades and clubs black
        assert ("fs-card red" in html) == red and ("fs-card black" in html) == (not red)
        face = _strip(html)
        assert face == ("10" if name[0] == "T" else name[0]) + "♠♥♦♣"["SHDC".index(name[1])]


def test_a_hand_in_one_line_keeps_its_tens_apart():
    """Walked in Chromium: "♥J91010" ran two tens together; the ranks stand apart, as on the cards."""
    hand = Hand.parse("JJ9.J9TT..A")
    text = _strip(render.hand_text_html(hand))
    assert text == "♠J J 9 · ♥J 9 10 10 · ♦- · ♣A"
    assert [Hand.parse(".".join(part[1:].replace(" ", "").replace("10", "T").replace("-", "")
                                for part in text.split(" · ")))] == [hand]  # it reads back


def test_hand_is_fanned_in_suit_order_strongest_first():
    hand = Hand.parse("9J.T.AJ.7")  # written out of order on purpose
    names = re.findall(r'data-card="(\w\w)"', render.hand_html(hand))
    assert names == ["JS", "9S", "TH", "JD", "AD", "7C"]


def test_seats_go_anticlockwise_from_the_viewer():
    # RULES.md 1: play goes anticlockwise, so seat 2 sits on seat 1's right.
    pos = render.seat_positions(4, bottom=1)
    (_x1, y1), (x2, _y2), (_x3, y3), (x4, _y4) = (pos[s] for s in (1, 2, 3, 4))
    assert y1 > 80 and y3 < 20  # seat 1 nearest the viewer, seat 3 opposite
    assert x2 > 80 and x4 < 20  # seat 2 to the right, seat 4 to the left
    six = render.seat_positions(6, bottom=4)
    assert six[4][1] > 80 and six[5][0] > 50  # any seat can be the viewer's; the next is on the right


def test_table_shows_every_hand_once_and_the_trick():
    table = Table.make(4)
    hands = {1: Hand.parse("J.9.A.T"), 2: Hand.parse("9.J.T.A"), 3: None, 4: Hand.parse("A.T.J.9")}
    html = render.table_html(table, hands, trick=[(1, Card.parse("KS"))])
    assert html.count("data-seat=") == 4
    assert html.count('class="fs-card back"') == table.hand_size  # seat 3 face down
    assert 'data-card="KS"' in html and "fs-trickcard" in html


def test_calls_keep_the_canonical_text_and_carry_their_meaning():
    for call in ("28H", "+1NT", "H+1", "33NS", "P", "XX", "40D^"):
        assert _strip(render.call_text_html(call)) == call
    chip = render.call_chip_html("+1H", "singleton Jack of hearts", "exactly 1 heart, the top one")
    assert 'title="singleton Jack of hearts - exactly 1 heart, the top one"' in chip
    grid = render.auction_html(Table.make(6), [(1, "28H", "", ""), (2, "P", "", ""), (3, "+1H", "", "")])
    assert grid.count("<th") == 6 and _strip(grid).endswith("28HP+1H")
