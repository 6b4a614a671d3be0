"""The app in a real browser: headless Chromium (Debian's ``chromium`` + ``chromium-driver``)
drives ``streamlit run app.py``, answers a drill question, analyses a deal, and saves a
screenshot of every page under test-output/screenshots/. The main ones are copied to
docs/screenshots/ for the README where missing, or always with FIFTYSIX_SCREENSHOTS=update.
Skipped, with the reason, where Chromium is missing.
"""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
DRIVER = "/usr/bin/chromedriver"
SHOTS = ROOT / "test-output" / "screenshots"
README_SHOTS = ROOT / "docs" / "screenshots"
MAIN_PAGES = ("explain", "drill", "analyse", "analyse-best-play", "review", "coach")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--window-size=1400,1900", "--hide-scrollbars")

if not (os.path.exists(CHROMIUM) and os.path.exists(DRIVER)):
    pytest.skip(f"headless browser test needs {CHROMIUM} and {DRIVER} "
                "(apt-get install chromium chromium-driver; .ci/run installs them)", allow_module_level=True)
webdriver = pytest.importorskip("selenium.webdriver", reason="the browser test needs selenium (pip install -e '.[test]')")
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from fiftysix.cards import Table, random_deal


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("data")


@pytest.fixture(scope="module")
def app_url(tmp_path_factory, data_dir):
    """``streamlit run app.py`` on a free port with a fresh data folder; stopped afterwards."""
    port = _free_port()
    env = {**os.environ, "FIFTYSIX_DATA_DIR": str(data_dir)}
    log = open(tmp_path_factory.mktemp("log") / "streamlit.log", "w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
         "--server.port", str(port), "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false",
         "--server.fileWatcherType", "none"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    (SHOTS / "failure.png").unlink(missing_ok=True)
    try:
        deadline = time.time() + 60
        while True:
            try:
                with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
                    if r.read().strip() == b"ok":
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.time() > deadline:
                pytest.fail(f"streamlit did not start (see {log.name})")
            time.sleep(0.5)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


@pytest.fixture(scope="module")
def browser():
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for f in FLAGS:
        opts.add_argument(f)
    profile = tempfile.mkdtemp(prefix="fiftysix-chromium-")
    opts.add_argument(f"--user-data-dir={profile}")
    drv = webdriver.Chrome(service=Service(DRIVER), options=opts)
    drv.set_page_load_timeout(60)
    try:
        yield drv
    finally:
        drv.quit()
        shutil.rmtree(profile, ignore_errors=True)


# --- driving Streamlit ----------------------------------------------------------------------

def idle(drv, timeout: float = 120) -> None:
    """Wait until the script has finished running (no 'Running...' status widget)."""
    time.sleep(0.3)  # let a rerun begin before looking for its end
    WebDriverWait(drv, timeout, poll_frequency=0.1).until(
        lambda d: not d.find_elements(By.CSS_SELECTOR, '[data-testid="stStatusWidget"]'))
    time.sleep(0.1)


def wait_text(drv, text: str, timeout: float = 120) -> None:
    try:
        WebDriverWait(drv, timeout, poll_frequency=0.25).until(
            lambda d: text in d.find_element(By.TAG_NAME, "body").text)
    except TimeoutException:
        shot(drv, "failure")
        raise AssertionError(f"{text!r} never appeared on the page") from None


def open_page(drv, url: str, page: str, expect: str) -> None:
    drv.get(url + "/" + ("" if page == "explain" else page))
    wait_text(drv, expect)
    idle(drv)


def _retry_stale(action) -> None:
    """Run a click; when a rerun replaced the element meanwhile, find it again (up to 5 times)."""
    for attempt in range(5):
        try:
            action()
            return
        except StaleElementReferenceException:
            if attempt == 4:
                raise
            time.sleep(0.3)


def click_button(drv, label: str) -> None:
    """Click the (first visible) button whose text contains ``label``."""
    def go() -> None:
        for b in drv.find_elements(By.TAG_NAME, "button"):
            if label in b.text and b.is_displayed() and b.is_enabled():
                drv.execute_script("arguments[0].scrollIntoView({block: 'center'});", b)
                b.click()
                return
        raise AssertionError(f"no button {label!r} on the page")
    _retry_stale(go)
    idle(drv)


def click_key(drv, key: str) -> None:
    """Click the button of the widget with this Streamlit key."""
    def go() -> None:
        b = drv.find_element(By.CSS_SELECTOR, f".st-key-{key} button")
        drv.execute_script("arguments[0].scrollIntoView({block: 'center'});", b)
        b.click()
    _retry_stale(go)
    idle(drv)


def field(drv, label: str):
    return drv.find_element(By.CSS_SELECTOR, f'input[aria-label="{label}"], textarea[aria-label="{label}"]')


def shot(drv, name: str, at_heading: str | None = None) -> Path:
    """Save a screenshot: the top of the page, or scrolled so ``at_heading`` is at the top."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    if at_heading is None:
        drv.execute_script("window.scrollTo(0, 0);")
        for el in drv.find_elements(By.CSS_SELECTOR, '[data-testid="stMain"], section.main'):
            drv.execute_script("arguments[0].scrollTop = 0;", el)
    else:
        heading = drv.find_element(By.XPATH, f"//h3[contains(., '{at_heading}')]")
        drv.execute_script("arguments[0].scrollIntoView({block: 'start'});", heading)
        time.sleep(0.5)
    path = SHOTS / f"{name}.png"
    drv.save_screenshot(str(path))
    return path


# --- the tests ----------------------------------------------------------------------------

def test_answer_a_drill_question(app_url, browser, data_dir):
    open_page(browser, app_url, "drill", "Start a session")
    click_button(browser, "Start a session")
    wait_text(browser, "Question 1 of")
    idle(browser)
    choices = '[class*="st-key-dr_pick_"] button'  # the choices, as buttons with keys 1-4
    assert len(browser.find_elements(By.CSS_SELECTOR, choices)) >= 2
    _retry_stale(lambda: browser.find_elements(By.CSS_SELECTOR, choices)[0].click())
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
