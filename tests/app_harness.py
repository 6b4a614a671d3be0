"""Shared set-up for the app's page tests: open a page of app.py in AppTest with a clean data dir."""
from __future__ import annotations

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[1] / "app.py")
TIMEOUT = 120  # first runs compile the solver's kernels


def open_page(page: str, data_dir: Path, monkeypatch, query: dict | None = None, **state) -> AppTest:
    """Run app.py, switch to ``ui/pages/<page>.py`` and run it; ``state`` presets session state,
    ``query`` the URL's query parameters (as a reload or a shared link brings them)."""
    monkeypatch.setenv("FIFTYSIX_DATA_DIR", str(data_dir))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    for k, v in (query or {}).items():
        at.query_params[k] = v
    for k, v in state.items():
        at.session_state[k] = v
    at.run()
    at.switch_page(f"ui/pages/{page}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def texts(at: AppTest) -> str:
    """Everything shown as markdown, captions, alerts and HTML, as one string to search."""
    parts = []
    for kind in ("markdown", "caption", "success", "error", "info", "warning", "html", "subheader",
                 "metric"):
        for el in getattr(at, kind):
            parts.append(shown(getattr(el, "value", "")))
    return "\n".join(parts)


def shown(markdown: object) -> str:
    """A Markdown element's text as a reader sees it: CommonMark's backslash escapes (which
    ``ui.render.md_text`` writes before user text) taken out."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", str(markdown))
