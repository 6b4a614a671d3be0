"""What the system would have bid: the bidding bot's call at every turn of a recorded auction.

The review in ``analyser.review`` says what each call meant and whether it told the truth;
the bot lives in ``drills`` (it has preferences, not just rules), so the comparison with
"what the system would have bid" is made here and added to the review by the front ends.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass

from fiftysix.bidding import Auction, format_call
from fiftysix.bots import DEFAULT_BOT, get_bot
from fiftysix.errors import FiftySixError
from fiftysix.records import Record, RecordError


@dataclass(frozen=True)
class SystemBid:
    """At call ``index`` (1-based): the call made, the bot's call, and its reason."""

    index: int
    seat: int
    made: str
    system: str
    reason: str
    same: bool

    def to_dict(self) -> dict:
        return asdict(self)


def system_bids(record: Record, seed: int = 0, bot: str = DEFAULT_BOT) -> tuple[SystemBid, ...]:
    """The named bot's choice at every call of ``record``'s auction, given the caller's hand
    and the auction so far (as it really went)."""
    if not record.auction:
        return ()
    auction = Auction(record.system, record.table, hands=record.deal)
    bidder = get_bot(bot, seed)
    out: list[SystemBid] = []
    for i, noted in enumerate(record.auction, start=1):
        seat = auction.to_move
        if seat is None:
            raise RecordError(f"call {i} {noted.token}: the auction is already over", record.line)
        hand = record.deal.hand(seat)
        try:
            choice = bidder.choose(auction, hand)
            suggested, reason = format_call(choice.call), choice.reason
        except FiftySixError as e:
            suggested, reason = "", f"the bot has no call here ({e})"
        out.append(SystemBid(i, seat, noted.token, suggested, reason, suggested == noted.token))
        auction.apply(noted.token, hand)
    return tuple(out)
