"""The linters are part of the build: ruff's default rules and mypy's checks (pyproject's
[tool.ruff] and [tool.mypy]: strict for the game and the analyser, default strictness above).

A finding fails the suite with the linter's own report. mypy runs through scripts/typecheck.py,
which lays out the installed package for it (mypy cannot follow pyproject's package-dir).
"""
from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(*cmd: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *cmd], cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)


def test_ruff_finds_nothing():
    r = _run("-m", "ruff", "check", "--output-format", "concise", ".")
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.slow
def test_mypy_finds_nothing():
    r = _run("scripts/typecheck.py")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Success: no issues found" in r.stdout


def test_the_typecheck_layout_is_the_installed_one():
    """scripts/typecheck.py links the layer folders where the wheel puts them (a layer missing
    from the layout would be checked as nothing, silently)."""
    spec = importlib.util.spec_from_file_location("typecheck", ROOT / "scripts" / "typecheck.py")
    assert spec is not None and spec.loader is not None
    typecheck = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(typecheck)
    links = typecheck.stage()
    for layer in ("analyser", "bots", "drills", "stats", "ui"):
        assert links[f"fiftysix/{layer}"] == ROOT / layer
        assert (typecheck.STAGE / "fiftysix" / layer / "__init__.py").resolve() == ROOT / layer / "__init__.py"
    assert links["fiftysix/cards.py"] == ROOT / "fiftysix" / "cards.py"
