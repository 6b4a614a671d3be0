"""A club member's browser tab without a browser: OpenID Connect sign-in, pages over the websocket.

It signs in through the provider over HTTP, then drives pages over Streamlit's own websocket
protocol (protobuf reruns with button clicks), as the frontend does. bench/load.py runs twenty of them; tests/test_club_crash.py
one, against a server it kills.

Loopback only: every address it is given is the caller's own test server on 127.0.0.1.
"""
from __future__ import annotations

import time
import urllib.parse
from dataclasses import dataclass, field

import httpx
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ClientState_pb2 import ClientState
from streamlit.proto.Common_pb2 import SInt64Array, StringArray
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState, WidgetStates
from websockets.sync.client import connect

XSRF_COOKIE = "_streamlit_xsrf"
FINISHED = ForwardMsg.ScriptFinishedStatus.Name


class ClientError(RuntimeError):
    """The server answered something a browser would not have got (a failed page, no sign-in)."""


@dataclass
class Page:
    """What one run of a page drew: its widgets by key or label, and every text on it."""

    seconds: float
    widgets: dict[str, str] = field(default_factory=dict)
    """A widget's id by its key (``dr_answer``) and by its label (``Start a session``)."""
    texts: list[str] = field(default_factory=list)
    redirect: str | None = None
    """Where ``st.login``/``st.logout`` sent the browser."""

    def has(self, text: str) -> bool:
        return any(text in t for t in self.texts)

    def id(self, key_or_label: str) -> str:
        try:
            return self.widgets[key_or_label]
        except KeyError:
            said = " | ".join(self.texts)[-400:]  # what the page said instead (an error box, a notice)
            raise ClientError(f"no widget {key_or_label!r} on the page: {sorted(self.widgets)[:30]}; "
                              f"it said: {said}") from None


def _states(page: Page, values: dict | None) -> list[WidgetState]:
    """Widget states as the frontend sends them: a number, a text, a flag, or a list of the
    chosen options (a segmented control's, as shown) or of their positions."""
    out = []
    for k, v in (values or {}).items():
        if isinstance(v, list) and all(isinstance(x, str) for x in v):  # the options as shown
            out.append(WidgetState(id=page.id(k), string_array_value=StringArray(data=v)))
        elif isinstance(v, list):
            out.append(WidgetState(id=page.id(k), int_array_value=SInt64Array(data=v)))
        else:
            field = {bool: "bool_value", int: "int_value", float: "double_value", str: "string_value"}[type(v)]
            out.append(WidgetState(id=page.id(k), **{field: v}))
    return out


def _key_of(widget_id: str) -> str | None:
    """The user's key at the end of a widget id (``$$ID-<hash>-dr_answer``)."""
    return widget_id.rsplit("-", 1)[-1] if widget_id.startswith("$$ID-") else None


class Tab:
    """One open tab of the app: a websocket session with the member's cookies."""

    def __init__(self, app: str, cookies: dict[str, str], timeout: float = 120.0) -> None:
        self.app = app
        self.timeout = timeout
        host = urllib.parse.urlparse(app).netloc
        jar = "; ".join(f"{k}={v}" for k, v in cookies.items())
        self.ws = connect(f"ws://{host}/_stcore/stream", origin=app,
                          additional_headers={"Cookie": jar} if jar else None,
                          subprotocols=["streamlit", cookies[XSRF_COOKIE]] if XSRF_COOKIE in cookies
                          else ["streamlit"],
                          open_timeout=timeout, max_size=None)
        self.path = ""
        self.query = ""

    def close(self) -> None:
        self.ws.close()

    def open(self, path: str, query: str = "") -> Page:
        """Load a page (``drill``, ``progress``) with a query string, as typing its address does."""
        self.path, self.query = path, query
        return self._run([])

    def click(self, key_or_label: str, page: Page, values: dict | None = None) -> Page:
        """Click a button of ``page`` (found by key or label) and wait for the page's new run;
        ``values`` sets other widgets first (key -> int, float, text or bool), as a form sends them."""
        return self._run([*_states(page, values), WidgetState(id=page.id(key_or_label), trigger_value=True)])

    def set(self, page: Page, values: dict) -> Page:
        """Change widgets of ``page`` (key -> value) and wait for the page's new run."""
        return self._run(_states(page, values))

    def _run(self, widgets: list[WidgetState]) -> Page:
        msg = BackMsg(rerun_script=ClientState(query_string=self.query, page_name=self.path,
                                               widget_states=WidgetStates(widgets=widgets)))
        t0 = time.perf_counter()
        self.ws.send(msg.SerializeToString())
        page = Page(0.0)
        deadline = time.time() + self.timeout
        while True:
            data = self.ws.recv(timeout=max(0.1, deadline - time.time()))
            fwd = ForwardMsg()
            fwd.ParseFromString(data)
            kind = fwd.WhichOneof("type")
            if kind == "delta" and fwd.delta.WhichOneof("type") == "new_element":
                _read_element(fwd.delta.new_element, page)
            elif kind == "auth_redirect":
                page.redirect = fwd.auth_redirect.url
            elif kind == "page_not_found":
                raise ClientError(f"no page {self.path!r}")
            elif kind == "script_finished":
                status = FINISHED(fwd.script_finished)
                if status == "FINISHED_SUCCESSFULLY":
                    page.seconds = time.perf_counter() - t0
                    failed = [t for t in page.texts if t.startswith("Traceback")]
                    if page.redirect is None and failed:
                        raise ClientError("the page failed: " + " | ".join(failed)[:500])
                    return page
                if status == "FINISHED_EARLY_FOR_RERUN":
                    page = Page(0.0, redirect=page.redirect)  # st.rerun(): the run that counts follows
                    continue
                raise ClientError(f"the page ended with {status}")
            if time.time() > deadline:
                raise ClientError("the page did not finish in time")


def _read_element(el, page: Page) -> None:
    kind = el.WhichOneof("type")
    if kind is None:
        return
    obj = getattr(el, kind)
    if kind == "exception":
        page.texts.append("Traceback: " + obj.message)
        return
    wid, label = getattr(obj, "id", ""), getattr(obj, "label", "")
    if wid:
        page.widgets[label] = wid
        key = _key_of(wid)
        if key:
            page.widgets[key] = wid
    for attr in ("body", "label", "value"):
        text = getattr(obj, attr, None)
        if isinstance(text, str) and text:
            page.texts.append(text)


def sign_in(app: str, who: str, timeout: float = 120.0) -> dict[str, str]:
    """Sign ``who`` in at the club server ``app`` through its provider (oidc-provider-mock's
    form), as a browser does; return the cookies of the signed-in member."""
    with httpx.Client(timeout=timeout) as http:
        http.get(app + "/_stcore/health")  # the XSRF cookie, as the page's first health check sets it
        tab = Tab(app, dict(http.cookies), timeout)
        try:
            page = tab.open("")
            page = tab.click("Sign in", page)
        finally:
            tab.close()
        if not page.redirect:
            raise ClientError("the Sign in button did not send the browser to the provider")
        r = http.get(urllib.parse.urljoin(app + "/", page.redirect))
        for _ in range(10):  # the app's login, the provider's form, the app's callback
            if r.status_code in (301, 302, 303, 307, 308):
                r = http.get(urllib.parse.urljoin(str(r.url), r.headers["location"]))
            elif r.status_code == 200 and 'name="sub"' in r.text:
                r = http.post(str(r.url), data={"sub": who})
            else:
                break
        cookies = dict(http.cookies)
    if not any(k.startswith("_streamlit_user") for k in cookies):
        raise ClientError(f"{who} was not signed in (last answer {r.status_code} from {r.url})")
    return cookies
