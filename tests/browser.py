"""Driving the web table in a real headless Chromium (Selenium): shared by the browser test and
``scripts/screenshots.py``.

Only Debian's ``chromium`` and ``chromium-driver`` are used (``scripts/install-browser``
installs them); nothing is downloaded at run time (Selenium Manager is never asked, because
the driver's path is given).
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable
from typing import Any

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

BROWSERS = ("chromium", "chromium-browser", "google-chrome")
DRIVERS = ("chromedriver", "/usr/lib/chromium/chromedriver", "/usr/bin/chromedriver")


def find_browser() -> tuple[str, str] | None:
    """Paths of a Chromium binary and its driver, or None when either is missing."""
    browser = next((p for p in map(shutil.which, BROWSERS) if p), None)
    driver = next(
        (p for p in (shutil.which(d) or (d if os.path.isfile(d) else None) for d in DRIVERS) if p),
        None,
    )
    if browser is None or driver is None:
        return None
    return browser, driver


def chrome(width: int = 1400, height: int = 950) -> WebDriver:
    """A headless Chromium driven by Debian's chromedriver."""
    found = find_browser()
    if found is None:
        raise RuntimeError("chromium and chromedriver are not installed (scripts/install-browser)")
    browser, driver = found
    opts = Options()
    opts.binary_location = browser
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        f"--window-size={width},{height}",
        "--hide-scrollbars",
        "--force-device-scale-factor=1",
    ):
        opts.add_argument(arg)
    return webdriver.Chrome(service=Service(driver), options=opts)


def phone(d: WebDriver, width: int = 390, height: int = 844) -> None:
    """Makes the page's viewport a phone's: ``width`` x ``height`` CSS px, touch-sized, with the
    page's ``<meta name="viewport">`` honoured as a mobile browser does."""
    d.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True},
    )


OVERFLOW_JS = """
const e = document.scrollingElement;
return {scroll: e.scrollWidth, client: e.clientWidth,
        width: window.innerWidth, height: window.innerHeight};
"""

# Each hand card, after the hand is scrolled into view: its box and whether the element at its
# centre is the card itself (or a part of it), i.e. a tap there reaches the card.
HAND_CARDS_JS = """
document.getElementById("hand").scrollIntoView({block: "nearest"});
return [...document.querySelectorAll("#hand .card")].map((c) => {
  const r = c.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return {card: c.dataset.card, left: r.left, top: r.top, right: r.right, bottom: r.bottom,
          width: r.width, height: r.height, hit: c.contains(hit)};
});
"""


def layout(d: WebDriver) -> tuple[dict[str, float], list[dict[str, Any]]]:
    """The page's scroll and viewport sizes, and every hand card's box (see
    :data:`HAND_CARDS_JS`)."""
    sizes = d.execute_script(OVERFLOW_JS)
    cards = d.execute_script(HAND_CARDS_JS)
    return sizes, cards


def body(d: WebDriver, key: str) -> str:
    """A ``data-`` attribute of the page's body (``phase``, ``your-turn``, ``over``, ...)."""
    value = d.find_element(By.TAG_NAME, "body").get_attribute(f"data-{key}")
    return value or ""


def wait_for(d: WebDriver, check: Callable[[], bool], seconds: float = 60, what: str = "") -> None:
    """Polls ``check`` until it holds; fails after ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except (StaleElementReferenceException, WebDriverException):
            pass
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what or check}")


def ready(d: WebDriver) -> bool:
    """The page shows a state in which the person can act (or the game is over)."""
    return body(d, "busy") == "false" and (
        body(d, "your-turn") == "true" or body(d, "over") == "true"
    )


def new_list(d: WebDriver, seed: int, games: int = 1) -> None:
    """Starts a new list from the page's form (seat forehand) and waits for its first state."""
    d.find_element(By.ID, "new-seed").clear()
    d.find_element(By.ID, "new-seed").send_keys(str(seed))
    field = d.find_element(By.ID, "new-games")
    field.clear()
    field.send_keys(str(games))
    d.find_element(By.ID, "new-list").click()
    wait_for(
        d,
        lambda: (
            f"seed {seed}" in d.find_element(By.ID, "game-info").text.lower()
            and body(d, "game") == "1"
            and ready(d)
        ),
        what="the new list",
    )


def click_and_wait(d: WebDriver, css: str) -> None:
    """Clicks the first element matching ``css`` and waits for the next state to be drawn."""
    version = body(d, "version")
    d.find_element(By.CSS_SELECTOR, css).click()
    wait_for(d, lambda: body(d, "version") != version and ready(d), what=f"after clicking {css}")


def step(d: WebDriver, max_bid: int = 30) -> str:
    """Makes one move for the person by clicking, with a simple policy: bid or hold up to
    ``max_bid``, pick up the skat, put away the two last cards, declare the first game that
    reaches the bid, play the first legal card. Returns what it did."""
    phase = body(d, "phase")
    if phase == "bidding":
        bids = d.find_elements(By.CSS_SELECTOR, "#actions button.bid")
        hold = d.find_elements(By.CSS_SELECTOR, '#actions button[data-token="y"]')
        if bids and int(bids[0].get_attribute("data-token") or "0") <= max_bid:
            token = bids[0].get_attribute("data-token")
            click_and_wait(d, "#actions button.bid")
            return f"bid {token}"
        if hold and int(d.find_element(By.ID, "contract-banner").text.split()[-1]) <= max_bid:
            click_and_wait(d, '#actions button[data-token="y"]')
            return "hold"
        click_and_wait(d, '#actions button[data-token="p"]')
        return "pass"
    if phase == "skat":
        click_and_wait(d, '#actions button[data-token="s"]')
        return "pick up"
    if phase == "discard":
        cards = d.find_elements(By.CSS_SELECTOR, "#hand .card")
        cards[-1].click()
        d.find_elements(By.CSS_SELECTOR, "#hand .card")[-2].click()
        click_and_wait(d, "#discard-button")
        return "discard"
    if phase == "declare":
        buttons = d.find_elements(By.CSS_SELECTOR, "#actions button:not(.warn)")
        token = buttons[0].get_attribute("data-token") if buttons else None
        css = f'#actions button[data-token="{token}"]' if token else "#actions button"
        click_and_wait(d, css)
        return f"declare {token}"
    if phase == "play":
        card = d.find_element(By.CSS_SELECTOR, "#hand .card.legal").get_attribute("data-card")
        click_and_wait(d, "#hand .card.legal")
        return f"play {card}"
    raise AssertionError(f"no move in phase {phase!r}")
