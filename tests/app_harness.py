"""Shared set-up for the app's page tests: open a page of app.py in AppTest with a clean data dir."""
from __future__ import annotations

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
            parts.append(str(getattr(el, "value", "")))
    return "\n".join(parts)
