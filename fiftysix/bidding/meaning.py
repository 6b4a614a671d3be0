"""What a call means: a short label, a full sentence, and a constraint on the caller's hand.

The explainer, the quiz generator, the bidding bot and the dealer all read this one object,
so the words can never disagree with what a simulation assumes.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fiftysix.cards import Hand
from fiftysix.constraints import TRUE, Constraint, Fit, from_dict
from fiftysix.constraints import fits as _fits


@dataclass(frozen=True)
class Meaning:
    """``label``: a few words ("singleton Jack of hearts"); ``sentence``: the full promise;
    ``constraint``: the same promise as bounds on the caller's hand (TRUE = promises nothing)."""

    label: str
    sentence: str
    constraint: Constraint = TRUE

    @property
    def promises_nothing(self) -> bool:
        return self.constraint == TRUE

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "sentence": self.sentence, "constraint": self.constraint.to_dict()}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Meaning:
        return cls(d["label"], d["sentence"], from_dict(d["constraint"]))


def promise_text(meaning: Meaning) -> str:
    """What a call promises, in the words of its constraint."""
    text = meaning.constraint.describe()
    return "nothing about the hand" if text == "nothing" else text


def fits(hand: Hand, meaning: Meaning | Constraint) -> Fit:
    """Does ``hand`` keep the promise? ``Fit.broken`` lists the parts it breaks, in words."""
    c = meaning.constraint if isinstance(meaning, Meaning) else meaning
    return _fits(hand, c)
