"""Solving and simulating: the double-dummy solver, constrained dealing, estimates, reviews."""
