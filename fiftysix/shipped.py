"""The data shipped inside the package: starter quiz banks, statistics, sample hand records, guides.

The repository keeps them in data/ and docs/; pyproject installs them as the resources of
``fiftysix.data`` and ``fiftysix.docs``, read here with ``importlib.resources``, so an
installed copy finds them wherever it lives (habit 19).
"""
from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable

DATA = "fiftysix.data"
DOCS = "fiftysix.docs"


def data_file(folder: str, name: str) -> Traversable:
    """One shipped data file, e.g. ``data_file("banks", "kerala.json")`` (it may not exist)."""
    return files(DATA) / folder / name


def data_files(folder: str, suffix: str) -> list[Traversable]:
    """The shipped files of ``folder`` (banks, stats, records) whose names end in ``suffix``, by name."""
    where = files(DATA) / folder
    if not where.is_dir():
        return []
    return sorted((f for f in where.iterdir() if f.is_file() and f.name.endswith(suffix)), key=lambda f: f.name)


def guide(name: str) -> str | None:
    """A shipped guide's text (``guide.md``, ``systems.md``), or None when this copy lacks it."""
    f = files(DOCS) / name
    return f.read_text(encoding="utf-8") if f.is_file() else None
