"""The record viewer: its API (every game of the ISS sample, errors answered 4xx) and the page
in a real headless Chromium (open a file, step through a game, see the analysis)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

import skat
from skat.web.server import BackgroundServer
from skat.web.tables import Tables
from skat.web.viewer import RecordLibrary
from tests.browser import body, chrome, find_browser, wait_for

SAMPLE = Path(__file__).parent / "data" / "iss" / "iss-sample.sgf"


@pytest.fixture(scope="module")
def client() -> Iterator[httpx.Client]:
    tables = Tables(opponents=["rules"], pace=0)
    with BackgroundServer(tables) as server, httpx.Client(base_url=server.url, timeout=60) as c:
        yield c


def _upload(client: httpx.Client, text: str, name: str = "f.iss") -> dict[str, Any]:
    r = client.post(f"/api/records?name={name}", content=text.encode())
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def test_every_sample_game_is_listed_and_replayed(client: httpx.Client) -> None:
    lines = [line.strip() for line in SAMPLE.read_text().splitlines() if line.strip()]
    data = _upload(client, SAMPLE.read_text(), "iss-sample.sgf")
    games = data["games"]
    assert isinstance(games, list) and len(games) == len(lines) and data["errors"] == []
    for i, line in enumerate(lines):
        g = skat.Game.from_iss(line)
        detail = client.get(f"/api/records/{data['id']}/games/{i + 1}").json()
        assert detail["record"] == g.to_iss()
        assert [c["card"] for c in detail["cards"]] == [str(c) for c in g.played]
        assert [{c["card"] for c in h} for h in detail["hands"]] == [
            {str(c) for c in h} for h in g.deal.hands
        ]
        names = dict(g.header)
        assert detail["names"] == [names.get(f"P{s}", str(s)) for s in range(3)]
        assert detail["contract"] == (None if g.contract is None else str(g.contract))


def test_cards_carry_their_trick_and_seat(client: httpx.Client) -> None:
    g = skat.random_game(5)
    data = _upload(client, g.to_iss())
    detail = client.get(f"/api/records/{data['id']}/games/1").json()
    for t, (leader, cards, winner) in enumerate(g.tricks):
        mine = [c for c in detail["cards"] if c["trick"] == t + 1]
        assert [c["card"] for c in mine] == [str(c) for c in cards]
        assert [c["seat"] for c in mine] == [(leader + i) % 3 for i in range(len(cards))]
        assert {c["winner"] for c in mine} == {winner}


def test_analysis_matches_the_post_game_analysis(client: httpx.Client) -> None:
    from skat.ui.analysis import analyze_game

    g = skat.random_game(8)
    data = _upload(client, g.to_iss())
    r = client.get(f"/api/records/{data['id']}/games/1/analysis?wait=60")
    assert r.status_code == 200
    expected = analyze_game(g).as_dict(None, [str(s) for s in range(3)])
    assert r.json()["moves"] == expected["moves"]


def test_bad_requests_are_answered_and_change_nothing(client: httpx.Client) -> None:
    data = _upload(client, skat.random_game(1).to_iss() + "\nnot a record\n(;GM[Skat]MV[x];)\n")
    assert [e["line"] for e in data["errors"]] == [2, 3]
    fid = data["id"]
    assert client.get(f"/api/records/{fid}/games/2").status_code == 404
    assert client.get(f"/api/records/{fid}/games/0").status_code == 404
    assert client.get("/api/records/unknown").status_code == 404
    assert client.get(f"/api/records/{fid}/games/1/analysis?wait=-1").status_code == 400
    assert client.post("/api/records", content=b"").status_code == 422
    assert client.post("/api/records", content=b"\xff\xfe garbage").status_code == 422
    assert client.get(f"/api/records/{fid}").json()["games"] == data["games"]


def test_the_library_keeps_at_most_its_files_and_bytes() -> None:
    lib = RecordLibrary(max_files=2, max_bytes=10_000)
    record = skat.random_game(2).to_iss()
    ids = [lib.upload(record)["id"] for _ in range(3)]
    assert list(lib.files) == ids[1:]
    with pytest.raises(skat.SkatError):
        lib.upload(record * 100)
    lib.close()


def test_analyses_wait_in_a_bounded_queue(monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncio
    import threading

    import skat.web.viewer as viewer
    from skat.ui.analysis import analyze_game
    from skat.web.tables import ApiError

    release = threading.Event()
    real = analyze_game

    def slow(game: skat.Game) -> Any:
        release.wait(30)
        return real(game)

    monkeypatch.setattr(viewer, "analyze_game", slow)
    lib = RecordLibrary(max_pending=2)
    fid = lib.upload("\n".join(skat.random_game(s).to_iss() for s in range(4)))["id"]

    async def ask(n: int) -> Any:
        return await lib.analysis(fid, n, wait=0.01)

    assert asyncio.run(ask(1)) is None and asyncio.run(ask(2)) is None  # both pending
    assert asyncio.run(ask(1)) is None  # asking again queues nothing new
    with pytest.raises(ApiError, match="busy") as refused:
        asyncio.run(ask(3))
    assert refused.value.status == 503 and 3 not in lib.files[fid].analyses
    release.set()
    lib.files[fid].analyses[2].result(timeout=30)
    done = asyncio.run(lib.analysis(fid, 3, wait=30))
    assert done is not None and done["status"] == "done"
    lib.close()


# ----- in the browser -------------------------------------------------------------------

browser = pytest.mark.skipif(
    find_browser() is None and not os.environ.get("CI"),
    reason="chromium/chromedriver not installed (run scripts/install-browser)",
)


@browser
def test_open_a_file_and_step_through_a_game(tmp_path: Path) -> None:
    from skat.ui.analysis import analyze_game

    game = skat.random_game(4)
    path = tmp_path / "one.iss"
    path.write_text(game.to_iss() + "\n")
    d: WebDriver = chrome()
    try:
        with BackgroundServer(Tables(opponents=["rules"], pace=0)) as server:
            d.get(server.url + "/viewer")
            d.find_element(By.ID, "file-input").send_keys(str(path))
            wait_for(d, lambda: body(d, "loaded") == "true", what="the file")
            wait_for(d, lambda: len(d.find_elements(By.CSS_SELECTOR, "#seat-0 .card")) >= 10)
            visible = ".seat .card:not(.gone)"
            assert len(d.find_elements(By.CSS_SELECTOR, visible)) == 30
            wait_for(
                d,
                lambda: len(d.find_elements(By.CSS_SELECTOR, "#moves li")) > 0,
                what="the analysis",
            )
            for k in range(1, 5):
                d.find_element(By.ID, "next").click()
                assert body(d, "step") == str(k)
                assert len(d.find_elements(By.CSS_SELECTOR, visible)) == 30 - k
            trick = d.find_elements(By.CSS_SELECTOR, "#trick-cards .card")
            assert [c.get_attribute("data-card") for c in trick] == [str(game.played[3])]
            verdict = d.find_element(By.ID, "verdict").text.splitlines()[0]
            assert verdict == analyze_game(game).moves[3].describe()
            d.find_element(By.TAG_NAME, "body").send_keys("\ue012")  # arrow left
            assert body(d, "step") == "3"
            d.find_element(By.ID, "last").click()
            assert body(d, "step") == str(len(game.played))
            d.save_screenshot(str(tmp_path / "viewer.png"))
    finally:
        d.quit()
