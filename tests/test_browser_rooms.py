"""Two people and the AI at one table in two real headless Chromium browsers, with a reload
(reconnect) in the middle of the game: the page is the same as for one person, fed over the
WebSocket."""

from __future__ import annotations

import os
from functools import partial

import httpx
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from skat.web.server import BackgroundServer
from skat.web.tables import Tables
from tests.browser import body, chrome, find_browser, wait_for

if find_browser() is None:
    if os.environ.get("CI"):
        raise RuntimeError("CI needs chromium and chromedriver: run scripts/install-browser")
    pytest.skip(
        "chromium/chromedriver not installed (run scripts/install-browser)", allow_module_level=True
    )


def my_turn(d: WebDriver) -> bool:
    return body(d, "your-turn") == "true" and body(d, "busy") == "false"


def is_body(d: WebDriver, key: str, value: str) -> bool:
    return body(d, key) == value


def hand_size_is(d: WebDriver, n: int) -> bool:
    return len(d.find_elements(By.CSS_SELECTOR, "#hand .card")) == n


def move(d: WebDriver) -> None:
    """One move by clicking: bid 18 or pass, pick up, put away the last two cards, the first
    game type, the first playable card."""
    version = body(d, "version")
    phase = body(d, "phase")
    if phase == "bidding":
        bid = d.find_elements(By.CSS_SELECTOR, '#actions button[data-token="18"]')
        (bid or d.find_elements(By.CSS_SELECTOR, '#actions button[data-token="p"]'))[0].click()
    elif phase == "discard":
        d.find_elements(By.CSS_SELECTOR, "#hand .card")[-1].click()
        d.find_elements(By.CSS_SELECTOR, "#hand .card")[-2].click()
        d.find_element(By.ID, "discard-button").click()
    elif phase == "play":
        d.find_element(By.CSS_SELECTOR, "#hand .card.legal").click()
    else:
        d.find_elements(By.CSS_SELECTOR, "#actions button")[0].click()
    wait_for(d, lambda: body(d, "version") != version, what=f"the move in {phase}")


def test_two_browsers_play_a_list_with_a_reconnect() -> None:
    ann, bob = chrome(1200, 900), chrome(1200, 900)
    try:
        with BackgroundServer(Tables(opponents=["rules"], pace=0)) as server:
            made = httpx.post(
                server.url + "/api/rooms", json={"name": "Ann", "games": 1, "seed": 3}
            ).json()
            rid = made["state"]["room"]
            # Ann is the host: her browser keeps her seat key, as the front page's button does
            ann.get(server.url + "/viewer")
            ann.execute_script(f"localStorage.setItem('skat-room-{rid}', '{made['token']}')")
            ann.get(f"{server.url}/room/{rid}")
            wait_for(ann, lambda: body(ann, "lobby") == "true", what="Ann's lobby")
            assert ann.find_element(By.ID, "start-button").is_displayed()
            bob.get(f"{server.url}/room/{rid}")  # the shared link
            wait_for(bob, lambda: body(bob, "lobby") == "true", what="Bob's lobby")
            bob.find_element(By.ID, "join-name").send_keys("Bob")
            bob.find_element(By.ID, "join-button").click()
            wait_for(bob, lambda: body(bob, "chair") == "1", what="Bob's seat")
            wait_for(ann, lambda: "Bob" in ann.find_element(By.ID, "seats").text)
            ann.find_element(By.ID, "start-button").click()
            for d in (ann, bob):
                wait_for(d, partial(is_body, d, "lobby", "false"), what="the start")
                wait_for(d, partial(hand_size_is, d, 10), what="the dealt hand")
            names = [e.text for e in bob.find_elements(By.CSS_SELECTOR, ".player .name")]
            assert any("Ann" in n for n in names) and any("AI" in n for n in names)
            reloaded = False
            for _ in range(80):
                if body(ann, "over") == "true" and body(bob, "over") == "true":
                    break
                for d in (ann, bob):
                    if my_turn(d):
                        move(d)
                if not reloaded and body(bob, "phase") == "play":
                    cards = len(bob.find_elements(By.CSS_SELECTOR, "#hand .card"))
                    bob.refresh()  # a reload: the same seat, the same hand
                    wait_for(bob, lambda: body(bob, "connected") == "true", what="reconnect")
                    wait_for(bob, partial(hand_size_is, bob, cards), what="the hand after a reload")
                    reloaded = True
                wait_for(
                    ann,
                    lambda: my_turn(ann) or my_turn(bob) or body(ann, "over") == "true",
                    seconds=30,
                    what="a person's turn or the end",
                )
            assert reloaded
            for d in (ann, bob):
                wait_for(d, partial(is_body, d, "over", "true"), what="the end")
                assert d.find_element(By.ID, "result-text").text
                rows = d.find_elements(By.CSS_SELECTOR, "#sheet tbody tr")
                assert len(rows) == 1
    finally:
        ann.quit()
        bob.quit()
