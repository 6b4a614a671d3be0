"""The app in a real browser: headless Chromium (Debian's ``chromium`` + ``chromium-driver``)
drives ``streamlit run app.py``, answers a drill question, analyses a deal, and saves a
screenshot of every page under test-output/screenshots/. The main ones are copied to
docs/screenshots/ for the README where missing, or always with FIFTYSIX_SCREENSHOTS=update.
Skipped, with the reason, where Chromium is missing.
"""
from __future__ import annotations

import os
import shutil

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from fiftysix.cards import Table, random_deal
from tests.browser_harness import (
    README_SHOTS,
    SHOTS,
    click_button,
    click_key,
    field,
    idle,
    open_page,
    retry_stale,
    shot,
    wait_text,
)

pytestmark = pytest.mark.browser

MAIN_PAGES = ("explain", "drill", "analyse", "analyse-best-play", "review", "coach")


# --- the tests ----------------------------------------------------------------------------

def test_answer_a_drill_question(app_url, browser, data_dir):
    open_page(browser, app_url, "drill", "Start a session")
    click_button(browser, "Start a session")
    wait_text(browser, "Question 1 of")
    idle(browser)
    choices = '[class*="st-key-dr_pick_"] button'  # the choices, as buttons with keys 1-4
    assert len(browser.find_elements(By.CSS_SELECTOR, choices)) >= 2
    retry_stale(lambda: browser.find_elements(By.CSS_SELECTOR, choices)[0].click())
    idle(browser)
    WebDriverWait(browser, 30).until(lambda d: d.find_element(By.CSS_SELECTOR, ".st-key-dr_answer button").is_enabled())
    click_key(browser, "dr_answer")
    wait_text(browser, "Next question")
    body = browser.find_element(By.TAG_NAME, "body").text
    from fiftysix.drills.progress import ProgressStore
    history = ProgressStore(data_dir / "progress.sqlite3", learner="player").history()
    assert len(history) == 1  # the answer was stored, and the feedback says what the store says
    if history["correct"].iloc[0]:
        assert f"Right: {history['response'].iloc[0]}" in body
    else:
        assert "Not quite. The answer:" in body
    shot(browser, "drill")


def test_analyse_a_deal(app_url, browser):
    open_page(browser, app_url, "analyse", "Double-dummy table")
    seed = field(browser, "Seed")
    seed.send_keys(Keys.CONTROL, "a")
    seed.send_keys("7", Keys.TAB)
    idle(browser)
    click_key(browser, "an_deal_btn")
    expected = sorted(str(c) for h in random_deal(Table.make(6), seed=7).hands for c in h)

    def dealt(drv):  # (card, drawn red?) for every card on the first felt, read in one go
        return drv.execute_script(
            "const f = document.querySelector('.fs-felt'); if (!f) return [];"
            "return Array.from(f.querySelectorAll('.fs-card[data-card]'))"
            ".map(e => [e.dataset.card, e.classList.contains('red')]);")

    WebDriverWait(browser, 120, poll_frequency=0.2).until(lambda d: sorted(c for c, _ in dealt(d)) == expected)
    wait_text(browser, "Double-dummy table")
    idle(browser)
    cards = dealt(browser)
    assert len(cards) == 48  # 6 players x 8 cards, each drawn as a card
    assert all(red == (card[1] in "HD") for card, red in cards)  # hearts and diamonds red, others black
    assert browser.find_element(By.CSS_SELECTOR, '[data-testid="stDataFrame"]').is_displayed()
    click_key(browser, "an_bp_next")
    wait_text(browser, "Seat 2 to play")
    shot(browser, "analyse")
    shot(browser, "analyse-best-play", at_heading="Step through best play")


def test_every_page_has_a_screenshot(app_url, browser, tmp_path):
    from tests.test_app_review import _record_text
    open_page(browser, app_url, "explain", "Auction")
    box = field(browser, "Auction (international), calls from seat 1, e.g. 28H P +1H")
    box.send_keys("28H P +1H", Keys.ENTER)
    wait_text(browser, "Seat 4 to call")
    idle(browser)
    shot(browser, "explain")

    open_page(browser, app_url, "review", "Hand records")
    record = tmp_path / "club.txt"
    record.write_text(_record_text()[0], encoding="utf-8")
    browser.find_element(By.CSS_SELECTOR, 'input[type="file"]').send_keys(str(record))
    wait_text(browser, "Broken promises", timeout=180)
    idle(browser)
    click_button(browser, "Next card")
    click_button(browser, "Next card")
    wait_text(browser, "Card 2 (trick 1)")
    shot(browser, "review")

    open_page(browser, app_url, "coach", "Fill in, check and add")
    call = field(browser, "Call asked about (for 'meaning' and 'which-call')")
    call.send_keys("+1H")
    field(browser, "Auction so far (from seat 1; for makeable: the whole auction)").send_keys("28H P")
    click_button(browser, "Fill in, check and add")
    wait_text(browser, "The bank is valid: 1 question(s).")
    shot(browser, "coach")

    open_page(browser, app_url, "progress", "Progress")
    shot(browser, "progress")
    open_page(browser, app_url, "rules", "Cards: power and points")
    shot(browser, "rules")

    README_SHOTS.mkdir(parents=True, exist_ok=True)
    update = os.environ.get("FIFTYSIX_SCREENSHOTS") == "update"
    for name in MAIN_PAGES:
        src = SHOTS / f"{name}.png"
        assert src.stat().st_size > 10_000, f"{name} screenshot looks empty"
        dst = README_SHOTS / f"{name}.png"
        if update or not dst.exists():  # a normal run leaves the committed README images alone
            shutil.copyfile(src, dst)


def test_enter_a_hand_and_find_it_in_the_library(app_url, browser):
    """Issue 22: a played hand entered in the app (the deal completed at random, the auction
    from the palette, a card clicked, a claim), saved, and found in the hand library."""
    open_page(browser, app_url, "enter", "Complete the rest at random")
    WebDriverWait(browser, 60, poll_frequency=0.2).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, ".st-key-en_card_JH button"))
    click_key(browser, "en_card_JH")
    click_key(browser, "en_fill")
    wait_text(browser, "Seat 1 to call")
    idle(browser)
    click_key(browser, "en_bid_btn")
    for _ in range(12):  # a click on a button redrawn meanwhile is ignored: click until it is over
        if "The auction is over" in browser.find_element(By.TAG_NAME, "body").text:
            break
        click_key(browser, "en_call_P")
    wait_text(browser, "The auction is over")
    idle(browser)
    from selenium.webdriver.common.action_chains import ActionChains
    first = browser.find_element(By.CSS_SELECTOR, '[class*="st-key-en_play_"] button')
    ActionChains(browser).double_click(first).perform()  # a double click plays one card, not a stale one
    idle(browser)
    assert not browser.find_elements(By.CSS_SELECTOR, '[data-testid="stException"]')
    wait_text(browser, "plays (click the card")
    shot(browser, "enter", at_heading="3. The play")
    click_key(browser, "en_save")
    wait_text(browser, "Saved to the hand library as record #")
    open_page(browser, app_url, "library", "record(s) match")
    assert "1 of 1 record(s) match." in browser.find_element(By.TAG_NAME, "body").text
    shot(browser, "library")
