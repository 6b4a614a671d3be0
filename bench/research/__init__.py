"""Research tools, not timing benchmarks: replay or re-judge bench/bots.py logs with a constant changed.

``python -m bench.research.rejudge`` and ``python -m bench.research.replay``; their findings go in
bench/RESULTS.md's research log and docs/bots.md.
"""
