"""A club server signed into for real: headless Chromium, ``streamlit run app.py`` with a club's
secrets.toml, and a real OpenID Connect provider on loopback (oidc-provider-mock: it issues
signed ID tokens through the authorization-code flow, with a form where the test types who it
is). Two members signed in at once drill and each sees only their own progress; a visitor who
is signed out, or has signed out, sees the sign-in page and nothing else.
Skipped, with the reason, where Chromium is missing (as tests/test_browser.py).
"""
from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import sys
from pathlib import Path

import pytest

from tests.app_harness import serving
from tests.browser_harness import (
    ROOT,
    chromium,
    click_button,
    click_key,
    free_port,
    idle,
    retry_stale,
    shot,
    wait_text,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]
webdriver = pytest.importorskip("selenium.webdriver")
oidc_mock = pytest.importorskip("oidc_provider_mock", reason="the club sign-in test needs oidc-provider-mock "
                                                              "(pip install -e '.[test]')")
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

SECRETS = """
[auth]
redirect_uri = "{app}/oauth2callback"
cookie_secret = "a-test-cookie-secret-of-some-length-0123456789"
client_id = "fiftysix-club"
client_secret = "fiftysix-club-secret"
server_metadata_url = "{idp}/.well-known/openid-configuration"

[club]
name = "Loopback 56 club"
members = ["@club.test"]
"""


@pytest.fixture(scope="module")
def idp():
    """The OpenID Connect provider, on a free loopback port in this process's thread."""
    with oidc_mock.run_server_in_thread(port=free_port()) as server:
        yield f"http://127.0.0.1:{server.server_port}"


@pytest.fixture(scope="module")
def club(tmp_path_factory, idp):
    """``streamlit run app.py`` as a club server: (address, data folder)."""
    port = free_port()
    app = f"http://127.0.0.1:{port}"
    folder = tmp_path_factory.mktemp("club")
    secrets = folder / "secrets.toml"
    secrets.write_text(SECRETS.format(app=app, idp=idp))
    data = folder / "data"
    cmd = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true", "--server.port", str(port),
           "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none",
           "--secrets.files", str(secrets)]
    with serving(cmd, port, folder / "streamlit.log", ROOT, {**os.environ, "FIFTYSIX_DATA_DIR": str(data)}, timeout=60):
        yield app, data


def _browser():
    return chromium("fiftysix-club-")


@pytest.fixture(scope="module")
def two_browsers():
    """Two browsers with their own cookies: two members at once."""
    made = [_browser(), _browser()]
    try:
        yield [d for d, _ in made]
    finally:
        for drv, profile in made:
            drv.quit()
            shutil.rmtree(profile, ignore_errors=True)


def sign_in(drv, app: str, who: str) -> None:
    """Open the app, press Sign in, say who you are at the provider, come back signed in."""
    drv.get(app + "/")
    wait_text(drv, "Sign in")
    idle(drv)
    assert "Drill" not in drv.find_element(By.TAG_NAME, "body").text  # no page but the sign-in one
    click_button(drv, "Sign in")
    WebDriverWait(drv, 60).until(lambda d: d.find_elements(By.NAME, "sub"))  # the provider's form
    box = drv.find_element(By.NAME, "sub")
    box.send_keys(who)
    box.submit()
    wait_text(drv, "Signed in as")
    wait_text(drv, who)
    idle(drv)


def drill(drv, app: str, answers: int) -> None:
    """A session of a starter bank's questions, ``answers`` of them answered."""
    drv.get(app + "/drill?dr_source=bank&dr_bank=international&dr_len=5")
    wait_text(drv, "Start a session")
    idle(drv)
    click_button(drv, "Start a session")
    choices = '[class*="st-key-dr_pick_"] button'
    for i in range(answers):
        wait_text(drv, f"Question {i + 1} of")
        idle(drv)
        retry_stale(lambda: drv.find_elements(By.CSS_SELECTOR, choices)[0].click())
        idle(drv)
        click_key(drv, "dr_answer")
        wait_text(drv, "Next question")
        if i + 1 < answers:
            click_key(drv, "dr_next")


def answers_shown(drv, app: str, query: str = "") -> str:
    """The Progress page's count of answers (its "Answers" figure)."""
    drv.get(app + "/progress" + query)
    wait_text(drv, "Accuracy")
    idle(drv)

    def answers(d) -> str:
        for m in d.find_elements(By.CSS_SELECTOR, '[data-testid="stMetric"]'):
            label, _, value = m.text.partition("\n")
            if label.strip() == "Answers":
                return value.strip()
        return ""
    WebDriverWait(drv, 60).until(answers)
    return answers(drv)


def test_two_members_signed_in_at_once_see_only_their_own_progress(club, two_browsers):
    app, data = club
    ann, bob = two_browsers
    sign_in(ann, app, "ann@club.test")
    sign_in(bob, app, "bob@club.test")
    drill(ann, app, 2)
    drill(bob, app, 1)
    assert answers_shown(ann, app) == "2"
    assert answers_shown(bob, app) == "1"
    with sqlite3.connect(Path(data) / "progress.sqlite3") as con:
        rows = dict(con.execute("SELECT learner, COUNT(*) FROM reviews GROUP BY learner").fetchall())
    assert sorted(rows.values()) == [1, 2] and all(k.startswith("oidc:") and k.endswith(("|ann@club.test",
                                                                                        "|bob@club.test"))
                                                   for k in rows)
    # the address cannot make Bob anyone else
    assert answers_shown(bob, app, "?player=" + next(k for k, n in rows.items() if n == 2)) == "1"
    shot(ann, "club-progress")


def test_a_signed_out_visitor_sees_no_data(club, two_browsers):
    app, _ = club
    ann = two_browsers[0]
    ann.delete_all_cookies()  # whatever an earlier test left: this test signs in for itself
    sign_in(ann, app, "ann@club.test")
    ann.get(app + "/progress")
    wait_text(ann, "Signed in as")
    idle(ann)
    click_button(ann, "Sign out")
    # Streamlit ends the session at the provider too where it offers that (OpenID Connect's
    # end_session_endpoint): the provider asks, and sends the browser back to the app
    WebDriverWait(ann, 60, ignored_exceptions=(StaleElementReferenceException,)).until(
        lambda d: "End session" in d.find_element(By.TAG_NAME, "body").text
        or "Sign in" in d.find_element(By.TAG_NAME, "body").text)
    for button in ann.find_elements(By.XPATH, "//button[normalize-space()='End session']"):
        with contextlib.suppress(StaleElementReferenceException):  # gone: the page has moved on
            button.click()
    wait_text(ann, "Sign in")  # back in the app, signed out
    for page in ("", "progress", "drill", "analyse?players=8"):
        ann.get(app + "/" + page)
        wait_text(ann, "Sign in")
        idle(ann)
        body = ann.find_element(By.TAG_NAME, "body").text
        assert "Loopback 56 club" in body and "Signed in as" not in body
        assert not ann.find_elements(By.CSS_SELECTOR, '[data-testid="stMetricValue"]')
        assert not ann.find_elements(By.CSS_SELECTOR, '[data-testid="stDataFrame"]')
        labels = [b.text.split("\n")[-1] for b in ann.find_elements(By.CSS_SELECTOR, '[data-testid="stMain"] button')
                  if b.is_displayed() and b.text.strip()]
        assert labels == ["Sign in"], labels  # the page's one button (Streamlit's own toolbar aside)
    shot(ann, "club-sign-in")


def test_an_account_not_on_the_list_is_turned_away(club, two_browsers):
    app, _ = club
    bob = two_browsers[1]
    bob.delete_all_cookies()  # signed out
    bob.get(app + "/")
    wait_text(bob, "Sign in")
    idle(bob)
    click_button(bob, "Sign in")
    WebDriverWait(bob, 60).until(lambda d: d.find_elements(By.NAME, "sub"))
    box = bob.find_element(By.NAME, "sub")
    box.send_keys("eve@elsewhere.test")
    box.submit()
    wait_text(bob, "not on the club's list")
    idle(bob)
    body = bob.find_element(By.TAG_NAME, "body").text
    assert "Drill" not in body and "Bidding system" not in body  # no page, no sidebar: only this notice
