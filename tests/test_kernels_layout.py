"""The kernels' layouts: the work array's regions and a table entry's fields.

``W``'s regions (analyser/_kernels.py ``WORK``) are disjoint, fill the array and are as large
as the indices the kernels use with them reach, on every table set-up RULES.md section 2
allows and on bridge; a table entry's value word reads back what was packed.
"""
from __future__ import annotations

from fiftysix.analyser import _kernels as kernels
from fiftysix.analyser import bridge
from fiftysix.analyser.encode import card_bit, work_array
from fiftysix.analyser.solver import Position
from fiftysix.cards import TABLE_SETUPS, Table, deck_cards, random_deal

BRIDGE_SEATS, BRIDGE_CARDS, BRIDGE_HAND = 4, 52, 13
MOST_SEATS = max(max(p for p, _ in TABLE_SETUPS), BRIDGE_SEATS)
MOST_CARDS = max(max(d for _, d in TABLE_SETUPS), BRIDGE_CARDS)  # cards in a deal: the deepest search
MOST_TRICKS = max(max(TABLE_SETUPS.values()), BRIDGE_HAND)


def sizes() -> dict[str, int]:
    return {name: words for name, _, words, _ in kernels.WORK.regions if name}


def test_regions_are_disjoint_and_fill_the_work_array():
    covered = [0] * kernels.W_SIZE
    for name, start, words, _ in kernels.WORK.regions:
        assert words > 0, name
        assert 0 <= start and start + words <= kernels.W_SIZE, name
        for i in range(start, start + words):
            assert covered[i] == 0, f"{name} overlaps another region at word {i}"
            covered[i] = 1
    assert sum(covered) == kernels.W_SIZE
    names = [name for name, *_ in kernels.WORK.regions if name]
    assert len(names) == len(set(names))


def test_every_offset_is_a_row_of_the_table():
    rows = {name: start for name, start, _, _ in kernels.WORK.regions if name}
    for name, start in rows.items():
        assert getattr(kernels, name) == start, name
    # no region is placed outside the table
    consts = {n for n, v in vars(kernels).items() if n.startswith(("O_", "P_", "ST_")) and isinstance(v, int)}
    assert consts == set(rows)


def test_regions_hold_every_index_the_kernels_use():
    size = sizes()
    # per seat (the two-trick ending's levels are one per seat too)
    for name in ("O_H1", "O_H2", "O_ISMAX", "O_TLEN", "O_TMIN", "O_T2F", "O_T2SEAT", "O_T2NOPT", "O_T2NEXT",
                 "O_T2FIRST", "O_T2WSEAT", "O_T2WCARD", "O_T2TPTS", "O_T2ALPHA", "O_T2BETA", "O_T2BEST", "O_T2REL"):
        assert size[name] >= MOST_SEATS, name
    assert size["O_T2C"] >= 2 * MOST_SEATS
    # per card bit, on every deck and on bridge
    bits = [card_bit(c) for _, deck in TABLE_SETUPS for c in deck_cards(deck)]
    bits += [bridge.card_bit(s + r) for s in "SHDC" for r in "AKQJT98765432"]
    for name in ("O_SUIT", "O_PTS", "O_OWN", "O_RCOST", "O_RPROBE"):
        assert size[name] > max(bits), name
    assert max(bits) < 64  # a card is a bit of an int64
    # per suit; per points 0..3
    for name in ("O_SMASK", "O_ACC", "O_ACCB"):
        assert size[name] == 4, name
    assert size["O_PM"] == 4
    # per depth, by cards left (a deal's first trick start down to none)
    for name in ("O_REL", "O_SKIP"):
        assert size[name] >= MOST_CARDS + 1, name
    for name in ("O_MV", "O_SC"):
        assert size[name] >= (MOST_CARDS + 1) * kernels.MAX_MOVES, name
    assert kernels.MAX_MOVES >= MOST_TRICKS  # one move per kind of card in a hand, at most
    assert size["O_START"] >= (MOST_CARDS + 1) * kernels.TS_SIZE
    ts = [kernels.TS_BASE, kernels.TS_ABUCKET, kernels.TS_EXACT, kernels.TS_PBUCKET,
          kernels.TS_PKEY, kernels.TS_ALPHA, kernels.TS_BETA]
    assert sorted(ts) == list(range(kernels.TS_SIZE))
    # per trick start, by tricks left: per suit the parts k = 0 .. the suit's distinct cards
    # (at most 16 bits a suit), then the state the parts are extended from
    for name in ("O_HP", "O_HB"):
        assert size[name] >= (MOST_TRICKS + 1) * kernels.HSTRIDE, name
    hp = [kernels.HP_X, kernels.HP_SMALL, kernels.HP_HASH, kernels.HP_DONE, kernels.HP_N]
    assert len(set(hp)) == len(hp) and min(hp) > 16 and max(hp) < kernels.HP_SUIT
    assert kernels.HSTRIDE == 4 * kernels.HP_SUIT
    # the small cards' points: 8 bits per seat and suit
    assert size["O_SIG"] * 8 >= MOST_SEATS * 4
    assert size["O_CUT"] == kernels.NCUT and kernels.NCUT & (kernels.NCUT - 1) == 0


def test_work_array_is_laid_out_by_the_table():
    for (players, deck) in TABLE_SETUPS:
        tab = Table(players, deck)
        deal = random_deal(tab, seed=players + deck)
        W = work_array(Position(tab, deal.hands, None, 1).encoded(), 0)
        assert W.shape == (kernels.W_SIZE,)
        assert W[kernels.P_NSEAT] == players


def test_table_entry_fields_do_not_overlap():
    # a value word (``_pack``): 8 bits each of lower bound, upper bound and size, 20 bits of
    # rank counts, 11 of epoch, the sign bit free
    # (a payoff-similar entry's value word also holds 8 bits of its bucket's key)
    fields = [(0, 8), (kernels.V_UB, 8), (kernels.V_SIZE, 8), (kernels.V_KV, 20), (kernels.V_EPOCH, 11),
              (kernels.PV_KB, 8)]
    bits = 0
    for shift, width in fields:
        mask = ((1 << width) - 1) << shift
        assert bits & mask == 0, shift
        bits |= mask
    assert bits < 1 << 63
    # a payoff-similar entry: a head of key and value word, and a tail of the small cards'
    # points (``O_SIG``'s words) and the top cards' points (``O_TSIG``'s words)
    words = [*range(kernels.PE_SIG, kernels.PE_SIG + sizes()["O_SIG"]),
             *range(kernels.PE_TOP, kernels.PE_TOP + sizes()["O_TSIG"])]
    assert len(set(words)) == len(words) and max(words) < kernels.PE_TAIL
    # a bucket: its state word and one unused, then PBUCKET heads and PBUCKET tails
    assert kernels.PE_SIZE == 2 + kernels.PE_TAIL and kernels.PB_WORDS == kernels.PE_SIZE * (kernels.PBUCKET + 1)
    assert kernels.PB_TAILS == 2 * (kernels.PBUCKET + 1) and kernels.PBUCKET < 1 << kernels.PB_CNT


def test_a_value_word_reads_back_what_was_packed():
    # a result inside the window (2, 40) is exact: both bounds become it
    v = kernels._pack(0, 56, 17, 2, 40, 36, 0b10110_00011, 2000)
    assert (kernels._v_lb(v), kernels._v_ub(v), kernels._v_size(v), kernels._v_kv(v),
            kernels._v_epoch(v)) == (17, 17, 36, 0b10110_00011, 2000)
