"""A research copy of the kernels: analyser/_kernels.py with text patches applied, imported in
its place (``fiftysix.analyser._kernels``), so that a throwaway experiment never edits the
product file. Its numba cache lives beside the copy, in a temporary folder of its own."""
from __future__ import annotations

import importlib.util
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

import fiftysix.analyser as analyser_pkg


def patched_kernels(patches: Sequence[tuple[str, str] | tuple[str, str, int]], folder: str) -> ModuleType:
    """Import the kernels with each ``(old, new)`` of ``patches`` applied (``old`` must occur
    once, or ``n`` times for ``(old, new, n)``: a kernels' change that moved it stops the run)
    as ``fiftysix.analyser._kernels``; the copy is written to ``folder`` under the temporary
    directory (rewritten only when it differs, so numba's cache of it stays valid)."""
    src = (Path(analyser_pkg.__file__).parent / "_kernels.py").read_text()
    for patch in patches:
        old, new = patch[0], patch[1]
        want = patch[2] if len(patch) == 3 else 1
        assert src.count(old) == want, f"the kernels changed: {old[:40]!r}"
        src = src.replace(old, new)
    where = Path(tempfile.gettempdir()) / folder
    where.mkdir(exist_ok=True)
    path = where / "_kernels.py"
    if not path.exists() or path.read_text() != src:
        path.write_text(src)
    spec = importlib.util.spec_from_file_location("fiftysix.analyser._kernels", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["fiftysix.analyser._kernels"] = mod
    spec.loader.exec_module(mod)
    analyser_pkg._kernels = mod  # type: ignore[attr-defined]
    return mod
