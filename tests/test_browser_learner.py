"""The learner's defects of issue 45 in a real browser: Back goes back, /explain is the Explain
page, a hand-typed deck in the address is kept.

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

from tests.browser_harness import idle, open_page, wait_text

pytestmark = pytest.mark.browser


def _where(drv) -> tuple[str, dict[str, str]]:
    u = urlparse(drv.current_url)
    return u.path, {k: v[-1] for k, v in parse_qs(u.query).items()}


def _sidebar(drv, page: str) -> None:
    """Go to a page by its link in the sidebar, as a learner does."""
    link = next(a for a in drv.find_elements(By.CSS_SELECTOR, '[data-testid="stSidebarNav"] a')
                if a.text.strip().endswith(page))
    _moved(drv, link.click)


def _back(drv) -> None:
    _moved(drv, drv.back)


def _moved(drv, step) -> None:
    """Take a step that changes the page's address and wait until it has: a fixed sleep lost
    the race on a loaded machine (the next assertion read the address before it changed)."""
    before = drv.current_url
    step()
    WebDriverWait(drv, 30).until(lambda d: d.current_url != before)
    if drv.current_url != "data:,":
        idle(drv)
        time.sleep(0.3)  # Streamlit may still replace the address with the page's own parameters


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
    # one entry per page (waited for: the entry is pushed as the page's script starts)
    WebDriverWait(browser, 30).until(lambda d: d.execute_script("return history.length") >= start + 2)
    assert browser.execute_script("return history.length") == start + 2
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
    # walked again: every page's corner offered a developer's "Deploy" button (to Streamlit's cloud)
    header = browser.find_element(By.CSS_SELECTOR, '[data-testid="stHeader"]')
    assert header.is_displayed() and "Deploy" not in header.text
    assert not browser.find_elements(By.CSS_SELECTOR, '[data-testid="stAppDeployButton"]')


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


def _click(drv, css: str, index: int = 0) -> None:
    """Click the ``index``-th shown element; when a rerun replaced it meanwhile, find it again."""
    for attempt in range(6):
        try:
            el = [e for e in drv.find_elements(By.CSS_SELECTOR, css) if e.is_displayed()][index]
            drv.execute_script("arguments[0].scrollIntoView({block: 'center'});", el)
            el.click()
            break
        except (StaleElementReferenceException, IndexError):
            if attempt == 5:
                raise
            time.sleep(0.5)
    idle(drv)


def _fits_the_screen(drv) -> None:
    width, inner = drv.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    assert width <= inner, (width, inner)  # nothing makes the page scroll sideways


def test_a_beginner_on_a_phone_walks_the_loop(app_url, browser, data_dir):
    """The learner's loop at 390 px, as walked for issue 45: an auction keeps its seats side by
    side, the palette wraps four to a row, a call's meaning opens on a tap; a drill answer is
    graded, taken back, answered again, and the summary says when each idea comes back."""
    from fiftysix.drills.progress import ProgressStore
    browser.set_window_size(390, 844)
    try:
        browser.get(app_url + "/explain?players=6&player=walker&ex_text=28H+P+%2B1H")
        wait_text(browser, "Seat 4 to call")
        idle(browser)
        _fits_the_screen(browser)
        # walked: at phone width the six seats stacked into one column, calls under them
        heads = browser.execute_script(
            "return Array.from(document.querySelectorAll('[class*=\"st-key-fs_keeprows\"] [data-testid=\"stColumn\"]'))"
            ".slice(0, 6).map(c => [Math.round(c.getBoundingClientRect().top), c.getBoundingClientRect().right])")
        assert len({top for top, _ in heads}) == 1 and max(r for _, r in heads) <= 390, heads
        # walked: the palette's buttons stood one to a row, sixteen screens of them
        tops = browser.execute_script(
            "return Array.from(document.querySelectorAll('.st-key-fs_wraprows_plus button'))"
            ".filter(b => b.getBoundingClientRect().width > 0).map(b => Math.round(b.getBoundingClientRect().top));")
        rows = {t: tops.count(t) for t in tops}
        assert len(tops) == 16 and set(rows.values()) == {4}, rows  # 16 buttons, 4 to a row
        _click(browser, ".st-key-ex_mean_plus button")
        wait_text(browser, "exactly 1 heart")  # the meanings, opened by a tap
        # walked again: the card grid put 24 cards across 390 px, each cell's "37% 0.4" ran into the next;
        # each cell now has room for its figures (wider than "100%" at 11 px, taller than two lines)
        cell = WebDriverWait(browser, 120).until(lambda d: d.execute_script(
            "const g = document.querySelector('.st-key-ex_grid .js-plotly-plot');"
            "if (!g || !g._fullLayout || !g.data) return null; const f = g._fullLayout, h = g.data[0];"
            "return [f.xaxis._length / h.x.length, f.yaxis._length / h.y.length];"))
        assert cell[0] >= 36 and cell[1] >= 26, cell
        _fits_the_screen(browser)

        browser.get(app_url + "/drill?player=walker&dr_len=3&dr_types=meaning")
        wait_text(browser, "Start a session")
        idle(browser)
        _click(browser, ".st-key-dr_go button")
        wait_text(browser, "Question 1 of 3")
        idle(browser)
        _fits_the_screen(browser)
        for n in range(3):
            _click(browser, '[class*="st-key-dr_pick_"] button', 0)
            _click(browser, ".st-key-dr_answer button")
            WebDriverWait(browser, 60).until(lambda d: "Right:" in d.find_element(By.TAG_NAME, "body").text
                                             or "Not quite" in d.find_element(By.TAG_NAME, "body").text)
            if "Not quite" in browser.find_element(By.TAG_NAME, "body").text:  # take it back, answer again
                right = [i for i, b in enumerate(browser.find_elements(By.CSS_SELECTOR, '[class*="st-key-dr_pick_"] button'))
                         if "✓" in b.text]
                _click(browser, ".st-key-dr_undo_feedback button")
                wait_text(browser, "Your last answer was taken back")
                _click(browser, '[class*="st-key-dr_pick_"] button', right[0])
                _click(browser, ".st-key-dr_answer button")
            wait_text(browser, "How well did you know it?")
            _fits_the_screen(browser)
            _click(browser, ".st-key-dr_grade_easy button")
        wait_text(browser, "Session summary")
        idle(browser)
        history = ProgressStore(data_dir / "progress.sqlite3", learner="walker").history()
        assert list(history["rating"]) == [4, 4, 4] and history["correct"].all()  # Easy, each once
        body = browser.find_element(By.TAG_NAME, "body").text
        assert "The next review falls due in " in body
        # walked: the summary's 'comes back' column was off the phone's screen, far right
        col = browser.execute_script(
            "const h = Array.from(document.querySelectorAll('[data-testid=\"stDataFrame\"] *'))"
            ".find(e => e.textContent === 'comes back'); return h ? h.getBoundingClientRect().right : null;")
        assert col is not None and col <= 390, col

        # walked again: on the Progress (and Analyse) page Plotly's tool bar sat over each chart's
        # title at a phone's width, and a long title was cut off: the titles are text above the charts
        browser.get(app_url + "/progress?player=walker")
        wait_text(browser, "Reviews due in the next 30 days")
        idle(browser)
        WebDriverWait(browser, 60).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".js-plotly-plot")) >= 3)
        assert not browser.find_elements(By.CSS_SELECTOR, ".js-plotly-plot .modebar-btn")
        inside = browser.execute_script(
            "return Array.from(document.querySelectorAll('.js-plotly-plot .gtitle')).map(e => e.textContent)")
        assert not any(inside), inside  # no title inside a plot
        _fits_the_screen(browser)
    finally:
        browser.set_window_size(1400, 1900)


def _hint_shown(drv, key: str) -> bool:
    """Whether the keyboard hint ``key`` (components.key_hint) is on the screen."""
    box = WebDriverWait(drv, 60).until(lambda d: d.find_elements(By.CSS_SELECTOR, f".st-key-fs_keyhint_{key}"))
    return box[0].is_displayed() and box[0].size["height"] > 0


def test_a_phone_shows_no_keyboard_hints_and_the_levels_fit(app_url, browser):
    """Walked at 390 px: the Drill and the Problems page said "Keys: 1-4 pick a choice" and "keys
    2-4" on a phone, which has no keyboard; the problems' levels table scrolled sideways for its
    last column. The hints stay at a desktop's width."""
    try:
        browser.set_window_size(1400, 1900)
        browser.get(app_url + "/drill?players=4&player=thumbs&dr_len=3")
        wait_text(browser, "Start a session")
        idle(browser)
        _click(browser, ".st-key-dr_go button")
        wait_text(browser, "Question 1 of 3")
        idle(browser)
        assert _hint_shown(browser, "dr_ask")  # a desktop: the keys are named
        assert [k for k in browser.find_elements(By.CSS_SELECTOR, "button kbd") if k.is_displayed()]
        browser.set_window_size(390, 844)
        time.sleep(0.5)
        assert not _hint_shown(browser, "dr_ask")
        assert "Keys: 1-4" not in browser.find_element(By.TAG_NAME, "body").text
        # walked again: each choice still wore its key's badge ("1", ..., "Enter") on a phone
        assert not [k for k in browser.find_elements(By.CSS_SELECTOR, "button kbd") if k.is_displayed()]
        _fits_the_screen(browser)

        browser.get(app_url + "/problems?players=4&player=thumbs")
        wait_text(browser, "Pick a card.")
        idle(browser)
        assert not _hint_shown(browser, "pr_pick")
        assert "Keys: " not in browser.find_element(By.TAG_NAME, "body").text
        _click(browser, '[data-testid="stExpander"] summary')  # Levels and scores
        grid = WebDriverWait(browser, 30).until(lambda d: d.execute_script(
            "const s = document.querySelector('[data-testid=\"stExpander\"] [data-testid=\"stDataFrame\"] .dvn-scroller');"
            "return s && s.clientWidth > 0 ? [s.scrollWidth, s.clientWidth] : null;"))
        assert grid[0] <= grid[1], grid  # every column on the screen, no sideways scroll
        _fits_the_screen(browser)
        browser.set_window_size(1400, 1900)
        time.sleep(0.5)
        assert _hint_shown(browser, "pr_pick")
    finally:
        browser.set_window_size(1400, 1900)


def test_a_hand_typed_choice_in_the_address_is_kept_by_its_short_code(app_url, browser):
    """Walked: the address kept a choice's shown words (dr_source=a+question+bank), so a hand-typed
    dr_source=bank was ignored. It is honoured now, a choice writes its short code, and a value
    that is no choice is said in one line, without a traceback."""
    browser.get(app_url + "/drill?players=4&dr_source=bank&dr_bank=kerala")
    wait_text(browser, "Start a session")
    idle(browser)
    box = browser.find_element(By.CSS_SELECTOR, ".st-key-dr_bank")
    assert "Starter: kerala" in box.get_attribute("textContent") + " ".join(
        i.get_attribute("value") or "" for i in box.find_elements(By.TAG_NAME, "input"))
    _click(browser, ".st-key-dr_source button", 0)  # new deals: the default, out of the address
    WebDriverWait(browser, 10).until(lambda d: "dr_source" not in _where(d)[1])
    _click(browser, ".st-key-dr_source button", 1)  # a question bank
    WebDriverWait(browser, 10).until(lambda d: _where(d)[1].get("dr_source") == "bank")
    browser.get(app_url + "/drill?players=4&dr_source=library&dr_len=3")
    wait_text(browser, "is not a choice here (generated, bank), so it is left out.")
    idle(browser)
    assert not browser.find_elements(By.CSS_SELECTOR, '[data-testid="stException"]')
    assert _where(browser)[1].get("dr_len") == "3" and "dr_source" not in _where(browser)[1]
