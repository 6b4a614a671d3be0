"""The game of 56 itself: cards, play, scoring, bidding, constraints, records (no numba, no Streamlit)."""

__version__ = "0.1.0"
"""The distribution's version (pyproject reads it from here)."""
