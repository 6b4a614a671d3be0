"""The learner's defects of issue 45 in a real browser: Back goes back, /explain is the Explain
page, a hand-typed deck in the address is kept.

Uses the server and browser of tests/conftest.py and the helpers of ``tests.browser_harness`` (skipped the same way where
Chromium is missing).
"""
from __future__ import annotations

import time
from urllib.parse import parse_qs, urlparse

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from tests.browser_harness import idle, open_page, wait_text

pytestmark = pytest.mark.browser


def _where(drv) -> tuple[str, dict[str, str]]:
    u = urlparse(drv.current_url)
    return u.path, {k: v[-1] for k, v in parse_qs(u.query).items()}


def _sidebar(drv, page: str) -> None:
    """Go to a page by its link in the sidebar, as a learner does."""
    link = next(a for a in drv.find_elements(By.CSS_SELECTOR, '[data-testid="stSidebarNav"] a')
                if a.text.strip().endswith(page))
    link.click()
    idle(drv)
    time.sleep(0.5)


def _back(drv) -> None:
    drv.back()
    time.sleep(0.5)
    idle(drv)


def test_back_goes_back_and_each_page_keeps_its_address(app_url, browser):
    """Walked in Chromium: Back from the Drill page showed the Explain page without its auction
    (Streamlit pushed the Explain address with the auction dropped), and Back after a typed
    address with a default deck stayed on the page (it rewrote its own entry)."""
    browser.get("data:,")
    open_page(browser, app_url, "explain", "Auction")
    _type_auction(browser, "28H P")
    start = browser.execute_script("return history.length")
    _sidebar(browser, "Drill")
    wait_text(browser, "Start a session")
    _sidebar(browser, "Rules")
    wait_text(browser, "Cards: power and points")
    assert browser.execute_script("return history.length") == start + 2  # one entry per page
    _back(browser)
    assert _where(browser)[0] == "/drill"
    _back(browser)
    path, params = _where(browser)
    assert path == "/" and params.get("ex_text") == "28H P"  # the Explain page as it was left
    wait_text(browser, "Seat 3 to call")
    _back(browser)
    assert browser.current_url == "data:,"

    # an address typed by hand with the usual deck (a value Streamlit drops from the address)
    browser.get(app_url + "/drill?players=8&deck=64")
    wait_text(browser, "Start a session")
    idle(browser)
    time.sleep(1)
    _sidebar(browser, "Progress")
    _back(browser)
    assert _where(browser)[0] == "/drill"
    _back(browser)  # one Back leaves the page, not two
    assert browser.current_url == "data:,"


def _type_auction(drv, text: str) -> None:
    box = drv.find_element(By.CSS_SELECTOR, 'input[aria-label^="Auction ("]')
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys(text, Keys.ENTER)
    idle(drv)


def test_the_explain_address_opens_the_explain_page(app_url, browser):
    """Walked in Chromium: /explain opened a "Page not found" dialog although the sidebar says Explain."""
    browser.get(app_url + "/explain?ex_text=28H+P")
    wait_text(browser, "Seat 3 to call")
    idle(browser)
    assert "Page not found" not in browser.find_element(By.TAG_NAME, "body").text
    assert _where(browser) == ("/explain", {"ex_text": "28H P"})


def test_a_hand_typed_deck_is_kept(app_url, browser):
    """Walked in Chromium: the address kept the shown label (deck=48+cards), so deck=48 was ignored."""
    browser.get(app_url + "/rules?players=4&deck=48&teams=pairs")
    wait_text(browser, "Cards: power and points")
    idle(browser)
    values = browser.execute_script(
        "return Object.fromEntries(Array.from(document.querySelectorAll('[data-testid=\"stSidebar\"] input'))"
        ".map(e => [e.getAttribute('aria-label'), e.value]));")
    assert (values["Players"], values["Cards in the deck"], values["Teams"]) == ("4", "48", "pairs"), values
    WebDriverWait(browser, 10).until(lambda d: _where(d)[1] == {"players": "4", "deck": "48", "teams": "pairs"})
