"""Benchmarks that print figures and ratios against a yardstick measured in the same run.

Run them from the repository root as modules of the installed project's checkout, e.g.
``.venv/bin/python -m bench.solver``; their figures go in bench/RESULTS.md, whose first section
holds the current figures of every benchmark, the dated runs below it, oldest first. Tools that
change production constants to study the bots are in bench/research/.
"""
