"""Driving the app in a real browser: headless Chromium (Debian's ``chromium`` + ``chromium-driver``)
through selenium. The fixtures that start the app and the browser are in tests/conftest.py."""
from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.app_harness import free_port

__all__ = [
    "CHROMIUM",
    "DRIVER",
    "FLAGS",
    "README_SHOTS",
    "ROOT",
    "SHOTS",
    "chromium",
    "click_button",
    "click_key",
    "field",
    "free_port",
    "idle",
    "open_page",
    "retry_stale",
    "shot",
    "wait_text",
]

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
DRIVER = "/usr/bin/chromedriver"
SHOTS = ROOT / "test-output" / "screenshots"
README_SHOTS = ROOT / "docs" / "screenshots"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--window-size=1400,1900", "--hide-scrollbars")


def chromium(prefix: str = "fiftysix-chromium-") -> tuple:
    """Headless Chromium with a fresh profile folder of its own: (driver, profile folder)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for f in FLAGS:
        opts.add_argument(f)
    profile = tempfile.mkdtemp(prefix=prefix)
    opts.add_argument(f"--user-data-dir={profile}")
    drv = webdriver.Chrome(service=Service(DRIVER), options=opts)
    drv.set_page_load_timeout(60)
    return drv, profile


def have_chromium() -> bool:
    """Whether the browser tests can run here (else they are skipped, with the reason)."""
    return os.path.exists(CHROMIUM) and os.path.exists(DRIVER)


def idle(drv, timeout: float = 120) -> None:
    """Wait until the script has finished running (no 'Running...' status widget)."""
    time.sleep(0.3)  # let a rerun begin before looking for its end
    WebDriverWait(drv, timeout, poll_frequency=0.1).until(
        lambda d: not d.find_elements(By.CSS_SELECTOR, '[data-testid="stStatusWidget"]'))
    time.sleep(0.1)


def wait_text(drv, text: str, timeout: float = 120) -> None:
    try:
        # a page that navigates meanwhile replaces its body: look again (the next poll)
        WebDriverWait(drv, timeout, poll_frequency=0.25, ignored_exceptions=(StaleElementReferenceException,)).until(
            lambda d: text in d.find_element(By.TAG_NAME, "body").text)
    except TimeoutException:
        shot(drv, "failure")
        raise AssertionError(f"{text!r} never appeared on the page") from None


def open_page(drv, url: str, page: str, expect: str) -> None:
    drv.get(url + "/" + ("" if page == "explain" else page))
    wait_text(drv, expect)
    idle(drv)


def retry_stale(action) -> None:
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
    retry_stale(go)
    idle(drv)


def click_key(drv, key: str, timeout: float = 60) -> None:
    """Click the button of the widget with this Streamlit key, once a rerun has drawn it (a message
    drawn early in the same run may be on the page before the button is)."""
    def go() -> None:
        b = WebDriverWait(drv, timeout, poll_frequency=0.2).until(
            lambda d: d.find_element(By.CSS_SELECTOR, f".st-key-{key} button"), f"no button with key {key!r}")
        drv.execute_script("arguments[0].scrollIntoView({block: 'center'});", b)
        b.click()
    retry_stale(go)
    idle(drv)


def field(drv, label: str, timeout: float = 60):
    """The text or number box with this label, once a run has drawn it (on a loaded machine the
    page's text can be on screen a moment before its widgets: a fresh clone's suite failed once
    looking for Analyse's Seed box right after the page's heading had appeared)."""
    css = f'input[aria-label="{label}"], textarea[aria-label="{label}"]'
    return WebDriverWait(drv, timeout, poll_frequency=0.2).until(
        lambda d: d.find_element(By.CSS_SELECTOR, css), f"no box labelled {label!r}")


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
