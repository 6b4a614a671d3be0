"""The shape of the project's packages: the import graph, and every module saying its job.

The import graph has no circle, and no layer imports a higher one. The layers, as
docs/architecture.md draws them (arrows point one way):
ui (with app.py) -> stats -> drills -> bots -> analyser -> fiftysix. The repository's layer
folders (analyser/, bots/, ...) are installed as ``fiftysix.analyser`` and so on; the game
itself is the rest of ``fiftysix``. The graph is read from the source
with ``ast`` (nothing is imported), every ``import`` and ``from ... import`` counted, those
inside functions too; an import under ``if TYPE_CHECKING:`` never runs, so it counts for the
layers but not for circles.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("fiftysix", "analyser", "bots", "drills", "stats", "ui")
"""Lowest first: a module may import its own layer and those before it, never one after."""


def _module_name(path: Path) -> str:
    """The installed name: analyser/solver.py is ``fiftysix.analyser.solver``."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    if parts[0] != "fiftysix":
        parts.insert(0, "fiftysix")
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    found = {_module_name(p): p for layer in LAYERS for p in sorted((ROOT / layer).rglob("*.py"))}
    found["app"] = ROOT / "app.py"
    return found


def _layer(module: str) -> int:
    """The layer's rank (app.py is the Streamlit face: ui; the rest of ``fiftysix`` is the game)."""
    if module == "app":
        return LAYERS.index("ui")
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in LAYERS:
        return LAYERS.index(parts[1])
    return LAYERS.index("fiftysix")


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(module: str, path: Path, modules: dict[str, Path]) -> list[tuple[str, int, bool]]:
    """(imported project module, line, runs) for each import in ``path``; ``runs`` is False for
    one under ``if TYPE_CHECKING:``."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out: list[tuple[str, int, bool]] = []

    def target(name: str) -> str | None:
        while name and name not in modules:  # "fiftysix.cards.Card" -> "fiftysix.cards"
            name = name.rpartition(".")[0]
        return name or None

    def visit(node: ast.AST, runs: bool) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.body:
                visit(child, False)
            for child in node.orelse:
                visit(child, runs)
            return
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # a relative import: from the package, up level - 1
                up = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                base = ".".join(up + ([base] if base else []))
            names = [f"{base}.{a.name}" for a in node.names] if base else [a.name for a in node.names]
        else:
            names = []
        for n in names:
            t = target(n)
            if t is not None and t != module:
                out.append((t, node.lineno, runs))
        for child in ast.iter_child_nodes(node):
            visit(child, runs)

    visit(ast.parse(path.read_text(encoding="utf-8"), str(path)), True)
    return out


def _graph() -> tuple[dict[str, Path], dict[str, list[tuple[str, int, bool]]]]:
    modules = _modules()
    return modules, {m: _imports(m, p, modules) for m, p in modules.items()}


def test_the_graph_is_read_from_every_package():
    # a guard for the reader itself: it finds the modules and the imports that are known to exist
    modules, edges = _graph()
    assert {LAYERS[_layer(m)] for m in modules} == set(LAYERS)
    assert len(modules) > 60
    assert ("fiftysix.cards", True) in {(t, r) for t, _, r in edges["fiftysix.play"]}
    assert "fiftysix.analyser.simulate" in {t for t, _, _ in edges["fiftysix.drills.generate"]}  # inside a function
    assert ("fiftysix.play", False) in {(t, r) for t, _, r in edges["fiftysix.scoring"]}  # TYPE_CHECKING


def test_no_layer_imports_a_higher_one():
    _, edges = _graph()
    upward = [f"{m} (line {line}) imports {t}: {LAYERS[_layer(m)]} may not import {LAYERS[_layer(t)]}"
              for m, es in edges.items() for t, line, _ in es if _layer(t) > _layer(m)]
    assert upward == []


def test_the_import_graph_has_no_circle():
    _, edges = _graph()
    runs = {m: sorted({t for t, _, r in es if r}) for m, es in edges.items()}
    circles: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def walk(m: str) -> None:
        state[m] = 1
        path.append(m)
        for t in runs[m]:
            if state.get(t) == 1:
                circles.append(path[path.index(t):] + [t])
            elif t not in state:
                walk(t)
        path.pop()
        state[m] = 2

    for m in sorted(runs):
        if m not in state:
            walk(m)
    assert [" -> ".join(c) for c in circles] == []


def _summary_problem(doc: str | None) -> str | None:
    """What is wrong with a module docstring's first line as a statement of the module's job
    (STYLE.md: "Every module's first docstring line says its job"), or None."""
    if not doc or not doc.strip():
        return "no module docstring"
    lines = doc.strip().splitlines()
    first = lines[0].strip()
    if len(lines) > 1 and lines[1].strip():
        return f"the first line runs on into the next one: {first!r}"
    if not first.endswith("."):
        return f"the first line is not a sentence ending in '.': {first!r}"
    words = re.sub(r"``[^`]*``", " ", first)
    while re.search(r"\([^()]*\)", words):  # asides and citations, innermost first
        words = re.sub(r"\([^()]*\)", " ", words)
    if len(re.findall(r"[A-Za-z]+", words)) < 3:
        return f"the first line is only a name or a citation: {first!r}"
    return None


def test_the_docstring_rule_tells_a_statement_from_a_name():
    assert _summary_problem("Card play: tricks, legal cards, and the play of a hand.") is None
    assert _summary_problem("The ``basic`` bidding system (RULES.md 7.5).\n\nMore.\n") is None
    assert _summary_problem(None) == "no module docstring"
    assert _summary_problem("   ") == "no module docstring"
    assert "only a name" in _summary_problem("``basic`` (RULES.md 7.5, seeds 002 and 003).")
    assert "not a sentence" in _summary_problem("Subcommands over the bots")
    assert "runs on" in _summary_problem("Subcommands: ``bid`` and\n``play``.")


def test_every_module_says_its_job_in_its_first_docstring_line():
    problems = []
    for path in _modules().values():
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"), str(path)))
        problem = _summary_problem(doc)
        if problem:
            problems.append(f"{path.relative_to(ROOT)}: {problem}")
    assert problems == []


def test_no_page_script_shows_a_stray_string():
    """Streamlit's "magic" draws every bare expression of a page script, a string too: an
    attribute docstring under a module constant showed on the Coach page as a paragraph (found
    walking it in Chromium, issue 46). A page's module docstring is its only bare string."""
    stray = []
    for path in [ROOT / "app.py", *sorted((ROOT / "ui" / "pages").glob("*.py"))]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        stray += [f"{path.name}:{n.lineno}" for i, n in enumerate(tree.body) if i and isinstance(n, ast.Expr)
                  and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str)]
    assert stray == []
