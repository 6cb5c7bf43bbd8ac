"""End to end in a real headless browser: Debian's Chromium plays a whole game by clicking.

The browser and its driver come from Debian (``scripts/install-browser``, run by
``scripts/check``); the test skips only outside CI when they cannot be found, and fails in CI.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import httpx
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver

from skat._core import Game
from skat.web.server import BackgroundServer
from skat.web.tables import Tables
from tests.browser import (
    body,
    chrome,
    click_and_wait,
    find_browser,
    layout,
    new_list,
    phone,
    ready,
    step,
    wait_for,
)

if find_browser() is None:
    if os.environ.get("CI"):
        raise RuntimeError("CI needs chromium and chromedriver: run scripts/install-browser")
    pytest.skip(
        "chromium/chromedriver not installed (run scripts/install-browser)", allow_module_level=True
    )


@pytest.fixture(scope="module")
def driver() -> Iterator[WebDriver]:
    d = chrome()
    try:
        yield d
    finally:
        d.quit()


def test_play_a_whole_game_by_clicking(driver: WebDriver) -> None:
    d = driver
    with BackgroundServer(Tables(opponents=["rules"], pace=0, hint_worlds=30)) as server:
        d.get(server.url + "/")
        wait_for(d, lambda: ready(d), what="the first state")
        new_list(d, seed=11, games=1)  # a fresh list of one game, from the header's form
        assert len(d.find_elements(By.CSS_SELECTOR, "#hand .card")) == 10
        moves: list[str] = []
        hinted = False
        while body(d, "over") != "true":
            legal = d.find_elements(By.CSS_SELECTOR, "#hand .card.legal")
            if body(d, "phase") == "play" and len(legal) > 1 and not hinted:
                d.find_element(By.ID, "hint-button").click()
                wait_for(d, lambda: bool(d.find_elements(By.CSS_SELECTOR, "#hint tr.best")))
                rows = d.find_elements(By.CSS_SELECTOR, "#hint .hint-table tr")[1:]
                assert len(rows) == len(legal)
                assert "win" in d.find_element(By.ID, "hint").text
                suggested = d.find_elements(By.CSS_SELECTOR, "#hand .card.suggested")
                assert len(suggested) == 1
                hinted = True
            moves.append(step(d))
            assert len(moves) < 40, moves
        assert hinted
        assert any(m.startswith("declare") for m in moves), moves  # this seed: we declare
        result = d.find_element(By.ID, "result-text").text
        assert result.startswith("You win") or result.startswith("You lose"), result
        lines = [li.text for li in d.find_elements(By.CSS_SELECTOR, "#valuation li")]
        assert any("Seeger-Fabian" in line for line in lines), lines
        sheet_rows = d.find_elements(By.CSS_SELECTOR, "#sheet tbody tr")
        assert len(sheet_rows) == 1
        cells = [td.text for td in sheet_rows[0].find_elements(By.TAG_NAME, "td")]
        assert cells[0] == "1" and cells[1].startswith("You:")
        assert not d.find_element(By.ID, "next-game").is_displayed()  # a list of one game
        # the analysis
        d.find_element(By.ID, "analysis-button").click()
        wait_for(
            d,
            lambda: len(d.find_elements(By.CSS_SELECTOR, "#analysis-table tbody tr")) > 0,
            what="the analysis",
        )
        summary = d.find_element(By.ID, "analysis-summary").text
        assert "With every card known" in summary and "Your" in summary
        # the download links give the game as an ISS record
        href = d.find_element(By.ID, "download-game").get_attribute("href")
        assert href
        record = httpx.get(href).text
        game = Game.from_iss(record.strip())
        assert game.is_over and game.declarer == 0
        n_rows = len(d.find_elements(By.CSS_SELECTOR, "#analysis-table tbody tr"))
        assert n_rows == len(game.played)
        # the list statistics: a row per player and the plot
        d.find_element(By.ID, "stats-button").click()
        wait_for(d, lambda: d.find_element(By.ID, "stats").is_displayed(), what="the statistics")
        rows = d.find_elements(By.CSS_SELECTOR, "#stats-table tbody tr")
        assert len(rows) == 3
        assert rows[0].find_element(By.TAG_NAME, "td").text == "You"
        wait_for(
            d,
            lambda: bool(
                d.execute_script("return document.getElementById('stats-plot').naturalWidth")
            ),
            what="the statistics plot",
        )


def key_and_wait(d: WebDriver, *keys: str) -> None:
    """Sends ``keys`` to the page and waits for the next state to be drawn."""
    version = body(d, "version")
    page = d.find_element(By.TAG_NAME, "body")
    for k in keys:
        page.send_keys(k)
    wait_for(d, lambda: body(d, "version") != version and ready(d), what=f"after keys {keys}")


def test_play_a_whole_game_with_the_keyboard(driver: WebDriver) -> None:
    d = driver
    with BackgroundServer(Tables(opponents=["rules"], pace=0)) as server:
        d.get(server.url + "/")
        wait_for(d, lambda: ready(d), what="the first state")
        new_list(d, seed=11, games=1)
        first = d.find_element(By.CSS_SELECTOR, '#actions button[data-key="1"]')
        assert first.get_attribute("data-token") == "18"
        key_and_wait(d, "1")  # bid 18 with the number key
        moves = 0
        while body(d, "over") != "true":
            phase = body(d, "phase")
            if phase == "play":
                legal = [
                    c.get_attribute("data-card")
                    for c in d.find_elements(By.CSS_SELECTOR, "#hand .card.legal")
                ]
                page = d.find_element(By.TAG_NAME, "body")
                page.send_keys(Keys.ARROW_RIGHT)
                focused = d.find_element(By.CSS_SELECTOR, "#hand .card.focused")
                assert focused.get_attribute("data-card") == legal[0]
                if len(legal) > 1:  # the cursor walks over the legal cards only
                    page.send_keys(Keys.ARROW_RIGHT)
                    focused = d.find_element(By.CSS_SELECTOR, "#hand .card.focused")
                    assert focused.get_attribute("data-card") == legal[1]
                played = focused.get_attribute("data-card")
                key_and_wait(d, Keys.ENTER)
                assert played not in [
                    c.get_attribute("data-card")
                    for c in d.find_elements(By.CSS_SELECTOR, "#hand .card")
                ]
            elif phase == "discard":
                page = d.find_element(By.TAG_NAME, "body")
                page.send_keys(Keys.ARROW_LEFT, " ", Keys.ARROW_LEFT, " ")
                assert len(d.find_elements(By.CSS_SELECTOR, "#hand .card.selected")) == 2
                key_and_wait(d, Keys.ENTER)
            elif phase == "bidding":
                key_and_wait(d, "p")
            else:  # pick up the skat, then the first game type
                key_and_wait(d, "1")
            moves += 1
            assert moves < 40
        assert not d.find_elements(By.CSS_SELECTOR, "#hand .card")


def test_take_back_a_card_and_concede(driver: WebDriver) -> None:
    d = driver
    with BackgroundServer(Tables(opponents=["rules"], pace=0)) as server:
        d.get(server.url + "/")
        wait_for(d, lambda: ready(d), what="the first state")
        new_list(d, seed=11, games=1)
        assert not d.find_element(By.ID, "undo-button").is_displayed()
        while body(d, "phase") != "play":
            step(d)
        hand = [
            c.get_attribute("data-card") for c in d.find_elements(By.CSS_SELECTOR, "#hand .card")
        ]
        step(d)  # play a card
        assert len(d.find_elements(By.CSS_SELECTOR, "#hand .card")) == len(hand) - 1
        click_and_wait(d, "#undo-button")
        wait_for(d, lambda: len(d.find_elements(By.CSS_SELECTOR, "#hand .card")) == len(hand))
        assert "took back" in d.find_element(By.ID, "message").text
        assert d.find_element(By.ID, "concede-button").is_displayed()
        d.find_element(By.ID, "concede-button").click()  # accepted when certain, else refused
        wait_for(
            d,
            lambda: (
                body(d, "over") == "true" or "not certain" in d.find_element(By.ID, "message").text
            ),
            what="the answer to the concession",
        )
        # a rated list: no taking back
        d.find_element(By.ID, "new-rated").click()
        new_list(d, seed=12, games=1)
        while body(d, "phase") != "play":
            step(d)
        step(d)
        assert not d.find_element(By.ID, "undo-button").is_displayed()


def test_an_illegal_click_shows_a_message(driver: WebDriver) -> None:
    d = driver
    with BackgroundServer(Tables(opponents=["rules"], pace=0)) as server:
        d.get(server.url + "/")
        wait_for(d, lambda: ready(d), what="the first state")
        new_list(d, seed=12)
        # play until a card of the hand is not playable (following suit), then click it
        for _ in range(40):
            if body(d, "over") == "true":
                pytest.skip("no illegal card came up in this deal")
            if body(d, "phase") == "play":
                blocked = d.find_elements(By.CSS_SELECTOR, "#hand .card:not(.legal)")
                if blocked:
                    version = body(d, "version")
                    blocked[0].click()
                    message = d.find_element(By.ID, "message")
                    wait_for(d, message.is_displayed, what="the message")
                    assert "not playable" in message.text
                    assert body(d, "version") == version
                    return
            step(d)
        raise AssertionError("the game did not end")


def _check_phone_layout(d: WebDriver, cards_expected: int) -> None:
    sizes, cards = layout(d)
    assert sizes["width"] == 390 and sizes["height"] == 844, sizes
    assert sizes["scroll"] <= sizes["client"], f"horizontal scrolling: {sizes}"
    assert len(cards) == cards_expected, cards
    for c in cards:
        inside = c["left"] >= 0 and c["right"] <= sizes["width"]
        inside = inside and c["top"] >= 0 and c["bottom"] <= sizes["height"]
        assert inside, f"card {c['card']} is not on the screen: {c}"
        assert c["width"] >= 40 and c["height"] >= 44, f"card {c['card']} is too small: {c}"
        assert c["hit"], f"a tap at the centre of {c['card']} does not reach it: {c}"


def test_phone_width_shows_the_whole_hand_without_horizontal_scrolling() -> None:
    """At 390 x 844 CSS px: no horizontal scrolling, every card of the hand on the screen at
    once and tappable (the element at its centre is the card), in the auction, when putting
    two cards away and in card play; a tap on a card plays it."""
    d = chrome(390, 844)
    try:
        phone(d)
        with BackgroundServer(Tables(opponents=["rules"], pace=0)) as server:
            d.get(server.url + "/")
            wait_for(d, lambda: ready(d), what="the first state")
            new_list(d, seed=11)
            assert body(d, "phase") == "bidding"
            _check_phone_layout(d, 10)
            seen = {"bidding"}
            while body(d, "over") != "true" and len(seen) < 3:
                step(d)
                phase = body(d, "phase")
                if phase == "discard" and phase not in seen:
                    _check_phone_layout(d, 12)
                    seen.add(phase)
                elif phase == "play" and phase not in seen:
                    _check_phone_layout(d, len(d.find_elements(By.CSS_SELECTOR, "#hand .card")))
                    seen.add(phase)
            assert seen == {"bidding", "discard", "play"}, seen  # this seed: we declare
            # a tap on a legal card plays it
            legal = d.find_elements(By.CSS_SELECTOR, "#hand .card.legal")
            before = len(d.find_elements(By.CSS_SELECTOR, "#hand .card"))
            played = legal[0].get_attribute("data-card")
            legal[0].click()
            wait_for(
                d,
                lambda: (
                    played
                    not in [
                        c.get_attribute("data-card")
                        for c in d.find_elements(By.CSS_SELECTOR, "#hand .card")
                    ]
                ),
                what="the tapped card to be played",
            )
            assert len(d.find_elements(By.CSS_SELECTOR, "#hand .card")) == before - 1
            wait_for(d, lambda: ready(d), what="the next state")
            sizes, _ = layout(d)
            assert sizes["scroll"] <= sizes["client"], sizes
    finally:
        d.quit()


def test_kontra_and_a_ramsch_by_clicking(driver: WebDriver) -> None:
    """A list with Kontra and Ramsch chosen in the form: the person passes every auction,
    says Kontra with the button as a defender, then plays a Ramsch (this seed: the second
    game is passed by all three)."""
    from selenium.webdriver.support.select import Select

    d = driver
    with BackgroundServer(Tables(opponents=["rules"], pace=0, hint_worlds=10)) as server:
        d.get(server.url + "/")
        wait_for(d, lambda: ready(d), what="the first state")
        d.find_element(By.ID, "new-kontra").click()
        Select(d.find_element(By.ID, "new-ramsch")).select_by_value("ramsch")
        new_list(d, seed=5, games=2)
        said = False
        while body(d, "over") != "true":
            if d.find_elements(By.CSS_SELECTOR, "#actions button.kontra"):
                click_and_wait(d, "#actions button.kontra")
                said = True
                assert "Kontra" in d.find_element(By.ID, "contract-banner").text
                continue
            step(d, max_bid=0)
        assert said
        lines = [li.text for li in d.find_elements(By.CSS_SELECTOR, "#valuation li")]
        assert any(line.startswith("Kontra: ") for line in lines), lines
        click_and_wait(d, "#next-game")
        while body(d, "over") != "true":
            if body(d, "phase") == "play":
                assert "Ramsch" in d.find_element(By.ID, "contract-banner").text
            step(d, max_bid=0)
        result = d.find_element(By.ID, "result-text").text
        assert result.startswith("Ramsch: ") or "Durchmarsch" in result, result
        lines = [li.text for li in d.find_elements(By.CSS_SELECTOR, "#valuation li")]
        assert lines[0].startswith("Ramsch: card points"), lines
