"""Who is using the app: the one local player, or a signed-in member of a club server.

Local mode (the default): the app serves one person on this computer (it listens on
127.0.0.1 only); the sidebar's name says whose progress it is, as it always has.

Club mode: ``.streamlit/secrets.toml`` holds a ``[club]`` table next to Streamlit's own
``[auth]`` (OpenID Connect, ``st.login``). Every visitor signs in; the identity comes only
from ``st.user`` (the provider's issuer and subject), never from the page's address. A
visitor who is signed out, or whose address is not on the club's list, sees the sign-in
page and nothing else: no page runs for them, so they read no data and start no work.
See the README's "Serving a club".
"""
from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from pathlib import Path

import streamlit as st

from fiftysix.errors import FiftySixError
from fiftysix.ui.render import md_text

LOCAL_NAME = "player"
"""The local player's name until the sidebar says another."""


class ClubConfigError(FiftySixError):
    """The ``[club]`` table of secrets.toml cannot be used as it is."""


@dataclass(frozen=True)
class User:
    """Whoever the pages serve: whose progress, banks, hands and classes they read and write."""

    id: str
    """The key of the user's data: the local player's name, or ``oidc:<issuer>|<subject>``."""
    name: str
    """What the pages show (a signed-in member's name or address)."""
    email: str = ""
    club: bool = False


@dataclass(frozen=True)
class Club:
    """A club server's settings (the ``[club]`` table)."""

    name: str = "56 club"
    members: tuple[str, ...] = ()
    """Addresses (``ann@example.org``) and whole domains (``@example.org``) let in; empty: any
    account the sign-in provider accepts."""
    coaches: tuple[str, ...] = ()
    """Who may start a class, the same way; empty: any member."""
    provider: str | None = None
    """The ``[auth.<provider>]`` to sign in with; None: the ``[auth]`` table itself."""

    @classmethod
    def from_dict(cls, raw) -> Club:
        if not hasattr(raw, "get"):
            raise ClubConfigError("[club] in secrets.toml must be a table (write [club] on a line of its own)")

        def names(key: str) -> tuple[str, ...]:
            v = raw.get(key, [])
            if isinstance(v, str):
                v = [v]
            if not isinstance(v, (list, tuple)) or not all(isinstance(x, str) for x in v):
                raise ClubConfigError(f"[club] {key} must be a list of addresses, e.g. "
                                      f'{key} = ["ann@example.org", "@example.org"]')
            return tuple(x.strip().lower() for x in v if x.strip())

        name = raw.get("name", cls.name)
        provider = raw.get("provider")
        if not isinstance(name, str) or (provider is not None and not isinstance(provider, str)):
            raise ClubConfigError("[club] name and provider are text, e.g. name = \"Kochi 56 club\"")
        return cls(name.strip() or cls.name, names("members"), names("coaches"), provider or None)

    @staticmethod
    def _listed(email: str, verified: bool, names: tuple[str, ...]) -> bool:
        email = email.strip().lower()
        if not email or not verified:
            return False
        domain = "@" + email.rpartition("@")[2]
        return email in names or domain in names

    def admits(self, email: str, verified: bool = True) -> bool:
        """Whether an account may use the club's app (an unverified address never matches)."""
        return not self.members or self._listed(email, verified, self.members)

    def may_coach(self, user: User) -> bool:
        """Whether ``user`` may start a class (in local mode, the one player may)."""
        return not user.club or not self.coaches or self._listed(user.email, True, self.coaches)


def club() -> Club | None:
    """The club's settings, or None in local mode (no ``[club]`` table in secrets.toml)."""
    if not st.secrets.load_if_toml_exists():
        # a secrets file that is there but cannot be read must not turn a club server into an
        # open one: say so instead
        there = [f for f in st.get_option("secrets.files") if Path(f).is_file()]
        if there:
            raise ClubConfigError(f"{there[-1]} cannot be read as TOML: the server stays closed until it can")
        return None
    raw = st.secrets.get("club")
    if raw is None:
        return None
    if not st.secrets.get("auth"):
        raise ClubConfigError("secrets.toml has a [club] table but no [auth] table for the sign-in (README: "
                              "Serving a club): the server stays closed until it has one")
    return Club.from_dict(raw)


def _signed_in(info: dict) -> tuple[str, str, str, bool] | None:
    """(id, name, email, verified) of the signed-in account in ``st.user``, or None."""
    if info.get("is_logged_in") is not True or not info.get("sub"):
        return None
    issuer = str(info.get("iss") or info.get("provider") or "")
    email = str(info.get("email") or "")
    verified = info.get("email_verified", True) not in (False, "false")
    name = str(info.get("name") or email or info["sub"])
    return f"oidc:{issuer}|{info['sub']}", name, email, verified


def current_user() -> User | None:
    """The user the pages serve: in club mode the signed-in member (None for a visitor who is
    signed out or not on the club's list); in local mode the one player, named in the sidebar."""
    c = club()
    if c is None:
        name = str(st.session_state.get("player") or LOCAL_NAME).strip() or LOCAL_NAME
        return User(name, name)
    found = _signed_in(st.user.to_dict())
    if found is None:
        return None
    uid, name, email, verified = found
    if not c.admits(email, verified):
        return None
    return User(uid, name, email, club=True)


def is_loopback(address: str) -> bool:
    """Whether a server address listens on this computer only ("" listens everywhere)."""
    if address in ("localhost",):
        return True
    try:
        return ipaddress.ip_address(address.strip("[]")).is_loopback
    except ValueError:
        return False


def sign_in_page() -> None:
    """What a visitor to a club server sees before signing in (and nothing else)."""
    c = club()
    info = st.user.to_dict()
    st.title(md_text(c.name) if c else "56 trainer")  # the club file's text, as written
    found = _signed_in(info)
    if found is not None:  # signed in, but not on the club's list
        st.error("This account is not on the club's list of members.")
        st.text(f"Signed in as {found[2] or found[1]}. Ask the club's secretary to add you, or sign in "
                "with another account.")
        if st.button("Sign out", key="club_sign_out"):
            st.logout()
        return
    st.write("This trainer belongs to a club: sign in to drill, play and see your own progress.")
    if st.button("Sign in", key="club_sign_in", type="primary", icon=":material/login:"):
        st.login(c.provider if c else None)
