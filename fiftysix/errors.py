"""The error hierarchy: every error a player can cause is a ValueError with a plain message."""
from __future__ import annotations


class FiftySixError(ValueError):
    """Base of every error raised for bad input or an illegal action."""


class NotationError(FiftySixError):
    """Text that cannot be read as a card, hand, deal, call or auction."""


class DealError(FiftySixError):
    """A deal that does not fit the table (wrong deck, sizes or copies)."""


class IllegalPlayError(FiftySixError):
    """A card that may not be played now."""


class IllegalCallError(FiftySixError):
    """A call that may not be made now."""


class ConstraintError(FiftySixError):
    """A constraint that is malformed, or a set of constraints that cannot all hold."""
