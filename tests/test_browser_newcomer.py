"""The app in a real browser as a newcomer meets it: settings that survive a reload, the Drill
page by keyboard, the start button after "nothing is due", and a phone-width table.

Uses the server and browser of tests/conftest.py and the helpers of ``tests.browser_harness`` (skipped the same way where
Chromium is missing).
"""
from __future__ import annotations

import time
from urllib.parse import parse_qs, urlparse

import pytest
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from tests.browser_harness import click_button, field, idle, open_page, shot, wait_text

pytestmark = pytest.mark.browser


def _params(drv) -> dict[str, str]:
    return {k: v[-1] for k, v in parse_qs(urlparse(drv.current_url).query).items()}


def _type(drv, label: str, text: str) -> None:
    box = field(drv, label)
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys(text, Keys.ENTER)
    idle(drv)


def test_a_reload_keeps_the_sidebar_and_the_player(app_url, browser):
    open_page(browser, app_url, "rules", "Cards: power and points")
    _type(browser, "Player name", "ravi")
    WebDriverWait(browser, 20).until(lambda d: _params(d).get("player") == "ravi")
    browser.refresh()
    wait_text(browser, "Cards: power and points")
    idle(browser)
    assert field(browser, "Player name").get_attribute("value") == "ravi"
    # a shared link to another page carries the same settings
    browser.get(app_url + "/progress?player=ravi&system=kerala")
    wait_text(browser, "No answers recorded for ravi yet")
    idle(browser)
    values = browser.execute_script(
        "const s = document.querySelector('[data-testid=\"stSidebar\"]');"
        "return Array.from(s.querySelectorAll('input, [data-baseweb=\"select\"]'))"
        ".map(i => i.value || i.textContent);")
    assert "kerala" in values and "ravi" in values, values


def _choice_buttons(drv):
    return [b for b in drv.find_elements(By.CSS_SELECTOR, '[class*="st-key-dr_pick_"] button')]


def test_the_drill_by_keyboard(app_url, browser, data_dir):
    browser.get(app_url + "/drill?player=keys&dr_len=3")
    wait_text(browser, "Start a session")
    idle(browser)
    click_button(browser, "Start a session")
    wait_text(browser, "Question 1 of 3")
    idle(browser)
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys("2")  # pick the second choice
    # the pick shows as the primary button once the rerun it starts is drawn (slow on a busy machine)
    WebDriverWait(browser, 60, ignored_exceptions=(StaleElementReferenceException, IndexError)).until(
        lambda d: _choice_buttons(d)[1].get_attribute("data-testid") == "stBaseButton-primary")
    idle(browser)
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ENTER)  # answer
    WebDriverWait(browser, 60).until(lambda d: "Right:" in d.find_element(By.TAG_NAME, "body").text
                                     or "Not quite" in d.find_element(By.TAG_NAME, "body").text)
    idle(browser)
    from fiftysix.drills.progress import ProgressStore
    history = ProgressStore(data_dir / "progress.sqlite3", learner="keys").history()
    assert len(history) == 1
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ENTER)  # next question
    wait_text(browser, "Question 2 of 3")


def test_after_nothing_is_due_the_next_click_starts_a_session(app_url, browser):
    browser.get(app_url + "/drill?player=nobody&dr_new=0&dr_len=3")
    wait_text(browser, "Start a session")
    idle(browser)
    click_button(browser, "Start a session")
    wait_text(browser, "Nothing is due")
    idle(browser)
    toggle = browser.find_element(By.CSS_SELECTOR, ".st-key-dr_practise label")
    toggle.click()
    idle(browser)
    click_button(browser, "Start a session")  # one click, not two
    wait_text(browser, "Question 1 of 3", timeout=60)


def test_a_phone_sees_every_hand(app_url, browser):
    browser.set_window_size(390, 844)
    try:
        browser.get(app_url + "/analyse?players=8")
        wait_text(browser, "Deal in notation")

        def seats(drv):
            return drv.execute_script(
                "const f = document.querySelector('.fs-felt'); if (!f) return null;"
                "const r = f.getBoundingClientRect();"
                "return {felt: [r.left, r.right, f.scrollWidth, f.clientWidth], width: window.innerWidth,"
                " seats: Array.from(f.querySelectorAll('.fs-seat')).map(s => {"
                "  const b = s.getBoundingClientRect(); return [b.left, b.right, s.querySelectorAll('.fs-card').length]})};")

        got = WebDriverWait(browser, 60).until(lambda d: (s := seats(d)) and len(s["seats"]) == 8 and s)
        time.sleep(0.5)
        got = seats(browser)
        shot(browser, "analyse-phone")
        width = got["width"]
        assert got["felt"][2] <= got["felt"][3] + 1  # nothing sticks out of the table sideways
        for left, right, cards in got["seats"]:
            assert 0 <= left and right <= width, (left, right, width)  # every hand on the screen
            assert cards == 8
    finally:
        browser.set_window_size(1400, 1900)
