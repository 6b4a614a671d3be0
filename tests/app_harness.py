"""Shared set-up for the app's tests: a page of app.py in AppTest with a clean data dir, or the
app served on a free port (``serving``) for a browser or an HTTP client."""
from __future__ import annotations

import re
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[1] / "app.py")
TIMEOUT = 120  # first runs compile the solver's kernels


CLUB_SECRETS = {
    "auth": {"redirect_uri": "http://127.0.0.1:8501/oauth2callback", "cookie_secret": "x" * 32,
             "client_id": "fiftysix", "client_secret": "s", "server_metadata_url":
             "http://127.0.0.1:9/.well-known/openid-configuration"},
    "club": {"name": "Test club"},
}
"""A club server's secrets.toml (ui/club.py), as AppTest's ``secrets``."""


def member(sub: str, name: str | None = None, email: str | None = None) -> dict:
    """``st.user`` of a signed-in club member, as the provider's ID token gives it."""
    return {"is_logged_in": True, "iss": "http://idp.test", "sub": sub, "name": name or sub.title(),
            "email": email or f"{sub}@club.test", "email_verified": True}


def open_page(page: str, data_dir: Path, monkeypatch, query: dict | None = None, club: dict | None = None,
              user: dict | None = None, **state) -> AppTest:
    """Run app.py, switch to ``ui/pages/<page>.py`` and run it; ``state`` presets session state,
    ``query`` the URL's query parameters (as a reload or a shared link brings them); ``club`` the
    secrets of a club server (``CLUB_SECRETS``) and ``user`` who is signed in there (``member``)."""
    monkeypatch.setenv("FIFTYSIX_DATA_DIR", str(data_dir))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    if club is not None:
        at.secrets.update(club)
        at.user = dict(user or {})
    for k, v in (query or {}).items():
        at.query_params[k] = v
    for k, v in state.items():
        at.session_state[k] = v
    at.run()
    if club is not None and any(b.key in ("club_sign_in", "club_sign_out") for b in at.button):
        return at  # signed out, or not on the club's list: the sign-in page, and no other
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


def free_port() -> int:
    """A loopback port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serving(cmd: Sequence[str | Path], port: int, log: Path, cwd: Path, env: dict[str, str],
            timeout: float = 120) -> Iterator[str]:
    """Run the server command ``cmd`` (listening on 127.0.0.1:``port``, output to ``log``); yield its
    URL once Streamlit's health check answers ``ok``; stop it afterwards."""
    with log.open("w") as out:
        proc = subprocess.Popen([str(c) for c in cmd], cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + timeout
            while True:
                try:
                    with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
                        if r.read().strip() == b"ok":
                            break
                except OSError:
                    pass
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"the app did not start: {log.read_text()[-3000:]}")
                time.sleep(0.5)
            yield url
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
