"""How often the Play page rebuilds the hand: Auction and PlayState constructions per click.

The page is driven in Streamlit's AppTest (4 players, rules bots, seat 2, seed 5, practice
mode so the learner's card costs are not solved): a call click in the auction, then a card
click in the play. Around each click (the callback and the page's rerun after it) every
``Auction.__init__``, ``PlayState.__init__`` and ``System.interpret`` is counted; a
construction made inside the analyser (``Position.from_deal`` for each deal the card bot
samples) is counted apart, as it is the solver's road, not a replay of the hand.

    .venv/bin/python -m bench.replays
"""
from __future__ import annotations

import collections
import sys
import tempfile
from pathlib import Path

from streamlit.testing.v1 import AppTest

from fiftysix import play as play_mod
from fiftysix.bidding import auction as auction_mod
from fiftysix.bidding.systems import base as system_base

APP = str(Path(__file__).resolve().parents[1] / "app.py")
LINK = {"players": "4", "pl_bot": "rules", "pl_seat": "2", "pl_seed": "5", "pl_mode": "practice"}
COUNTS: collections.Counter = collections.Counter()


def _counted(cls, method: str, name: str) -> None:
    original = getattr(cls, method)

    def wrapper(self, *args, **kwargs):
        caller = sys._getframe(1).f_globals.get("__name__", "")
        where = "analyser" if caller.startswith("fiftysix.analyser") else "table"
        COUNTS[(name, where)] += 1
        return original(self, *args, **kwargs)

    setattr(cls, method, wrapper)


def _buttons(at, prefix: str) -> list:
    return [b for b in at.button if (b.key or "").startswith(prefix) and not b.disabled]


def _click(at, button) -> dict[str, int]:
    COUNTS.clear()
    button.click().run()
    assert not at.exception, [e.value for e in at.exception]
    return {f"{name} ({where})": n for (name, where), n in sorted(COUNTS.items())}


def main() -> None:
    _counted(auction_mod.Auction, "__init__", "Auction")
    _counted(play_mod.PlayState, "__init__", "PlayState")
    _counted(system_base.System, "interpret", "interpret")
    with tempfile.TemporaryDirectory() as data:
        import os
        os.environ["FIFTYSIX_DATA_DIR"] = data
        at = AppTest.from_file(APP, default_timeout=300)
        for k, v in LINK.items():
            at.query_params[k] = v
        at.run()
        at.switch_page("ui/pages/play.py").run()
        call = _buttons(at, "pl_call_")
        print("one call click:", _click(at, call[0]))
        for _ in range(60):  # the first legal call (Pass where legal) until the play starts
            call = _buttons(at, "pl_call_")
            if not call:
                break
            call[0].click().run()
        cards = _buttons(at, "pl_card_")
        print("one card click:", _click(at, cards[0]))
        cards = _buttons(at, "pl_card_")
        if cards:
            print("the next card click:", _click(at, cards[0]))


if __name__ == "__main__":
    main()
