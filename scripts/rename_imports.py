"""Rewrite a file's imports of the project's layers to their installed names.

The distribution installs one top-level package, ``fiftysix``; the repository keeps its
layers in top-level folders (analyser/, bots/, drills/, stats/, ui/), installed as
``fiftysix.analyser`` and so on (pyproject's package-dir). Old-style imports
(``from analyser import solver``, ``drills.bots.judge``) are rewritten in place:

    python scripts/rename_imports.py FILE...
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

LAYERS = ("analyser", "bots", "drills", "stats", "ui")
_LAYER = "|".join(LAYERS)
_RULES = [
    # drills.bots moved to the bots layer
    (re.compile(r"(?<![\w.])drills\.bots\b"), "fiftysix.bots"),
    (re.compile(r"^(\s*)from drills import bots\b", re.MULTILINE), r"\1from fiftysix import bots"),
    # import X.y as z / from X(.y) import z
    (re.compile(rf"^(\s*)(from|import)\s+({_LAYER})\b", re.MULTILINE), r"\1\2 fiftysix.\3"),
    # dotted module names inside strings: "ui.cli", "analyser.solver.x", "drills.bots"
    (re.compile(rf"([\"'])({_LAYER})\.(?=[a-z_])"), r"\1fiftysix.\2."),
    # python -m stats.summary and the like in shell text
    (re.compile(rf"(-m\s+)({_LAYER})\.(?=[a-z_])"), r"\1fiftysix.\2."),
]


def rewrite(text: str) -> str:
    for pattern, repl in _RULES:
        text = pattern.sub(repl, text)
    return text.replace("fiftysix.fiftysix.", "fiftysix.")


def main(argv: list[str]) -> int:
    for name in argv:
        path = Path(name)
        old = path.read_text(encoding="utf-8")
        new = rewrite(old)
        if new != old:
            path.write_text(new, encoding="utf-8")
            print(f"rewrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
