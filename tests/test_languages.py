"""The table in German: the words of the state, hints and analyses with ``?lang=de``, every
action and result phrased, and the page in German with German card faces in a browser."""

from __future__ import annotations

import os
import re

import httpx
import pytest
from selenium.webdriver.common.by import By

import skat
from skat._core import Action, Contract
from skat.players import make_player
from skat.ui import german, words
from skat.ui.analysis import analyze_game
from skat.ui.common import UiError
from skat.web.server import BackgroundServer
from skat.web.tables import Tables
from tests.browser import body, chrome, find_browser, new_list, ready, wait_for

ENGLISH = re.compile(r"\b(bids?|passes|holds?|plays|declares?|wins?|loses?|won|lost|trick)\b")


def test_every_contract_action_and_result_has_german_words() -> None:
    for token in ("D", "HH", "SHS", "CHZ", "G", "GO", "N", "NH", "NO", "NOH"):
        text = words.contract_text(Contract.parse(token), "de")
        assert not re.search(r"\b(hand|announced|Clubs|Spades|Hearts|Diamonds)\b", text), text
    for token in ("18", "y", "p", "s", "CJ.ST", "GH", "HA"):
        a = Action(token)
        for you in (True, False):
            text = words.action_phrase(a, you, "de")
            assert text and not ENGLISH.search(text), text
    for seed in range(30):
        g = skat.random_game(seed)
        r = g.result
        assert r is not None
        for you in (True, False):
            line = words.result_sentence(r, german.DU, you, "de")
            assert not ENGLISH.search(line), line
        for line in words.valuation_lines(r, "de"):
            assert not ENGLISH.search(line.replace("Seeger-Fabian", "")), line
        assert len(words.valuation_lines(r, "de")) == len(words.valuation_lines(r, "en"))
    with pytest.raises(UiError):
        words.check_lang("fr")


def test_the_analysis_in_german_says_the_same_verdicts() -> None:
    from skat.match import play

    g = play([make_player("rules") for _ in range(3)], skat.Deal.random(9), seed=9)
    a = analyze_game(g)
    for m in a.moves:
        de, en = words.move_text(m, "de"), words.move_text(m, "en")
        assert ("erzwungen" in de) == ("forced" in en)
        assert ("verschenkt" in de) == ("gave away" in en)
    assert len(words.analysis_summary(a, None, None, "de")) == len(a.summary(None, None))


def test_the_api_speaks_the_readers_language() -> None:
    with (
        BackgroundServer(Tables(opponents=["rules"], pace=0)) as server,
        httpx.Client(base_url=server.url, timeout=60) as c,
    ):
        state = c.post("/api/sessions?lang=de", json={"seed": 3, "games": 1}).json()
        sid = state["id"]
        assert state["lang"] == "de"
        assert [p["position"] for p in state["players"]] == list(german.SEAT_NAMES)
        while not state["over"]:
            if state["busy"]:
                state = c.get(
                    f"/api/sessions/{sid}?lang=de&after={state['version']}&wait=10"
                ).json()
                continue
            token = (
                next(h["card"] for h in state["hand"] if h["legal"])
                if state["phase"] == "play"
                else state["legal"][-1]["token"]
            )
            state = c.post(f"/api/sessions/{sid}/action?lang=de", json={"action": token}).json()
        assert state["log"] and all(not ENGLISH.search(e["text"]) for e in state["log"])
        assert not ENGLISH.search(state["result"]["text"])
        english = c.get(f"/api/sessions/{sid}").json()
        assert english["result"]["text"] != state["result"]["text"]
        assert c.get(f"/api/sessions/{sid}?lang=xx").status_code == 400


@pytest.mark.skipif(
    find_browser() is None and not os.environ.get("CI"),
    reason="chromium/chromedriver not installed (run scripts/install-browser)",
)
def test_the_page_in_german_with_german_cards() -> None:
    d = chrome()
    try:
        with BackgroundServer(Tables(opponents=["rules"], pace=0)) as server:
            d.get(server.url + "/")
            wait_for(d, lambda: ready(d), what="the first state")
            d.execute_script("localStorage.setItem('skat-lang', 'de')")
            d.execute_script("localStorage.setItem('skat-faces', 'german')")
            d.refresh()
            wait_for(d, lambda: ready(d), what="the page in German")
            new_list(d, seed=11, games=1)
            assert d.find_element(By.ID, "new-list").text == "Neue Liste"
            assert d.find_element(By.TAG_NAME, "html").get_attribute("lang") == "de"
            assert body(d, "faces") == "german"
            assert len(d.find_elements(By.CSS_SELECTOR, "#hand .card .suit svg")) == 10
            ranks = {e.text for e in d.find_elements(By.CSS_SELECTOR, "#hand .card .rank")}
            assert not ranks & {"J", "Q"}
            status = d.find_element(By.ID, "status").text
            assert status and not ENGLISH.search(status), status
            d.save_screenshot("/tmp/skat-german.png")
    finally:
        d.quit()


def test_the_terminal_words_have_the_same_keys_and_fields_in_both_languages() -> None:
    import string

    from skat.ui.terminal_words import TERMINAL_WORDS

    en, de = TERMINAL_WORDS["en"], TERMINAL_WORDS["de"]
    assert en.keys() == de.keys()

    def fields(text: str) -> set[str]:
        return {f for _, f, _, _ in string.Formatter().parse(text) if f}

    for key in en:
        assert fields(en[key]) == fields(de[key]), key
