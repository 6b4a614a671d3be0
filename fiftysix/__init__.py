"""The game of 56 itself: cards, play, scoring, bidding, constraints, records (no numba, no Streamlit)."""
