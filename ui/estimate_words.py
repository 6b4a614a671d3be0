"""What a makeability estimate's figures count, in a player's words (the Analyse page's captions)."""
from __future__ import annotations


def makeable_words(est) -> str:
    """What the headline share counts, in words."""
    text = (f"The share of the deals in which the declarers reach {est.contract.value}, every card known "
            "and everyone playing their best (double-dummy)")
    if est.leads:
        text += (f", seat {est.seat} choosing the best opening lead in each deal, as if seeing every card. "
                 "The lead table below fixes one lead for every deal, as you must at the table")
    return text + "."


def lead_words(est) -> str:
    """Why each lead's figure differs from the headline: the headline picks the lead deal by deal."""
    ours = est.table.team_of(est.seat) == est.contract.team
    side = "at least as high as the best" if ours else "no higher than the lowest"
    return (f"Each lead here is made in every deal, as seat {est.seat} must at the table, not seeing the other "
            f"hands. The headline 'Makeable {est.rate:.0%}' instead lets seat {est.seat} pick the best lead for "
            f"{'the declarers' if ours else 'the defence'} in each deal with every card known, so it is {side} "
            "single lead's figure: the gap is what seeing the other hands would be worth on the opening lead.")
