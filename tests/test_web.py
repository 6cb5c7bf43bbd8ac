"""The web API: whole games, bad input (4xx with a message, state unchanged), slow and failing
AI players, clients that disappear, and 20 concurrent games on a real server on loopback."""

from __future__ import annotations

import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import httpx
import pytest

from skat._core import Action, Deal, Game, View
from skat.defaults import SERVE_DB
from skat.players.rules import RulesPlayer
from skat.tournament import deal_seed
from skat.web.app import Tables
from skat.web.server import BackgroundServer
from skat.web.store import ListStore


class SlowPlayer:
    """The rules player, thinking ``delay`` seconds before every move."""

    def __init__(self, delay: float = 0.4) -> None:
        self.delay = delay
        self.rules = RulesPlayer()

    def new_game(self, seat: int, seed: int) -> None:
        self.rules.new_game(seat, seed)

    def act(self, view: View) -> Action | str:
        time.sleep(self.delay)
        return self.rules.act(view)


class BrokenPlayer:
    """Raises in card play, answers nonsense in the auction."""

    def act(self, view: View) -> Action | str:
        if view.legal_actions()[0].kind == "play":
            raise RuntimeError("broken on purpose")
        return "CJ"  # never legal before card play


Client = httpx.Client


@pytest.fixture
def client() -> Iterator[Client]:
    """A client of a real server on a loopback port (rules opponents, no pauses)."""
    tables = Tables(opponents=["rules"], pace=0, workers=4, hint_worlds=20)
    with BackgroundServer(tables) as server, httpx.Client(base_url=server.url, timeout=60) as c:
        yield c


@contextmanager
def serve(tables: Tables) -> Iterator[Client]:
    with BackgroundServer(tables) as server, httpx.Client(base_url=server.url, timeout=60) as c:
        yield c


def settle(c: Client, sid: str, seconds: float = 30) -> dict[str, Any]:
    """The state once the AI players have stopped moving."""
    deadline = time.monotonic() + seconds
    state: dict[str, Any] = c.get(f"/api/sessions/{sid}").json()
    while state["busy"]:
        assert time.monotonic() < deadline, "the AI players did not finish"
        r = c.get(f"/api/sessions/{sid}", params={"after": state["version"], "wait": 5})
        assert r.status_code == 200, r.text
        state = r.json()
    return state


def choose(state: dict[str, Any], rng: random.Random) -> str:
    """A legal move from the state alone (a random policy that sometimes bids)."""
    phase = state["phase"]
    if phase == "play":
        return str(rng.choice([c["card"] for c in state["hand"] if c["legal"]]))
    if phase == "discard":
        return " ".join(c["card"] for c in rng.sample(state["hand"], 2))
    tokens = [a["token"] for a in state["legal"]]
    if phase == "bidding":
        low = [t for t in tokens if t in ("18", "20", "y")]
        return rng.choice(low) if low and rng.random() < 0.6 else "p"
    if phase == "skat":
        return "s" if rng.random() < 0.8 else rng.choice(tokens)
    return str(rng.choice(tokens))


def play_to_end(c: Client, sid: str, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    state = settle(c, sid)
    while not state["over"]:
        assert state["your_turn"], state
        r = c.post(f"/api/sessions/{sid}/action", json={"action": choose(state, rng)})
        assert r.status_code == 200, r.text
        state = settle(c, sid)
    return state


def test_a_whole_list_with_hint_analysis_and_records(client: Client) -> None:
    r = client.post("/api/sessions", json={"seat": 1, "games": 2, "seed": 11})
    assert r.status_code == 201
    state = r.json()
    sid = state["id"]
    assert state["you"] == 1 and state["games"] == 2
    deal = Deal.random(deal_seed(11, 0))
    assert [c["card"] for c in state["hand"]] and {c["card"] for c in state["hand"]} == {
        str(c) for c in deal.hands[1]
    }
    state = settle(client, sid)
    hint = client.get(f"/api/sessions/{sid}/hint")
    assert hint.status_code == 200 and hint.json()["text"].startswith("The AI would")
    assert client.get(f"/api/sessions/{sid}/analysis").status_code == 409
    assert client.post(f"/api/sessions/{sid}/next").status_code == 409
    state = play_to_end(client, sid, 1)
    assert state["result"]["valuation"]["lines"] and len(state["sheet"]["rows"]) == 1
    assert state["sheet"]["totals"] == [
        state["result"]["scores"][(chair - 0) % 3] for chair in range(3)
    ]
    record = client.get(f"/api/sessions/{sid}/games/1.iss")
    assert record.status_code == 200 and "attachment" in record.headers["content-disposition"]
    game = Game.from_iss(record.text.strip())
    assert game.deal == deal and game.is_over
    analysis = client.get(f"/api/sessions/{sid}/analysis", params={"wait": 60})
    assert analysis.status_code == 200
    a = analysis.json()
    assert a["contract"] is not None and a["game"] == 1 and a["you"] == 1
    assert len(a["moves"]) == len(game.played) and a["names"][1] == "You"
    assert a["summary"][0].startswith("With every card known")
    assert client.get(f"/api/sessions/{sid}/games/2.iss").status_code == 404
    r = client.post(f"/api/sessions/{sid}/next")
    assert r.status_code == 200 and r.json()["game"] == 2 and r.json()["you"] == 0
    state = play_to_end(client, sid, 2)
    assert state["list_over"] and len(state["sheet"]["rows"]) == 2
    assert client.post(f"/api/sessions/{sid}/next").status_code == 409
    lines = client.get(f"/api/sessions/{sid}/records.iss").text.splitlines()
    assert len(lines) == 2 and "P0[You]" in lines[1] and "P1[You]" in lines[0]
    assert client.delete(f"/api/sessions/{sid}").status_code == 204
    assert client.get(f"/api/sessions/{sid}").status_code == 404


def test_a_card_play_hint_values_every_legal_card(client: Client) -> None:
    sid = client.post("/api/sessions", json={"seat": 0, "seed": 3}).json()["id"]
    rng = random.Random(3)
    state = settle(client, sid)
    while not state["over"] and not (
        state["phase"] == "play" and sum(c["legal"] for c in state["hand"]) > 1
    ):
        client.post(f"/api/sessions/{sid}/action", json={"action": choose(state, rng)})
        state = settle(client, sid)
    if state["over"]:
        pytest.skip("this deal never reached card play")
    hint = client.get(f"/api/sessions/{sid}/hint").json()
    legal = {c["card"] for c in state["hand"] if c["legal"]}
    assert {c["card"] for c in hint["cards"]} == legal
    assert all(0 <= c["win"] <= 1 for c in hint["cards"]) and hint["worlds"] > 0
    assert hint["action"] == hint["cards"][0]["card"]


def test_bad_input_gets_4xx_with_a_message_and_changes_nothing(client: Client) -> None:
    assert client.get("/api/sessions/nope").status_code == 404
    assert "no session" in client.get("/api/sessions/nope").json()["error"]
    assert client.post("/api/sessions/nope/action", json={"action": "p"}).status_code == 404
    assert client.get("/api/sessions/nope/hint").status_code == 404
    assert client.get("/api/sessions/nope/records.iss").status_code == 404
    assert client.delete("/api/sessions/nope").status_code == 404
    for body, status in [
        (b"{nope", 400),
        (b"[1, 2]", 400),
        (b'"text"', 400),
        (b'{"seat": 5}', 422),
        (b'{"seat": "0"}', 422),
        (b'{"games": 0}', 422),
        (b'{"seed": -1}', 422),
        (b'{"opponents": ["nobody"]}', 422),
        (b'{"opponents": ["tests.test_web:SlowPlayer"]}', 422),
        (b'{"opponents": ["/tmp/x.py:Player"]}', 422),
        (b'{"opponents": ["pimc:worlds=100000"]}', 422),
        (b'{"opponents": ["rules:depth=3"]}', 422),
        (b'{"opponents": [1]}', 422),
        (b'{"opponents": ["rules", "rules", "rules"]}', 422),
        (b"\xff\xfe", 400),
        (b"x" * 20000, 413),
    ]:
        r = client.post("/api/sessions", content=body)
        assert r.status_code == status, (body[:40], r.status_code, r.text)
        assert r.json()["error"], body
    sid = client.post("/api/sessions", json={"seed": 5, "seat": 0}).json()["id"]
    before = settle(client, sid)
    assert before["your_turn"]
    for body, status in [
        (b"{nope", 400),
        (b"[]", 400),
        (b"{}", 422),
        (b'{"action": 18}', 422),
        (b'{"action": ""}', 422),
        (b'{"action": "CJ"}', 422),
        (b'{"action": "17"}', 422),
        (b'{"action": "GHZO.XX"}', 422),
        (b'{"action": "s"}', 422),
    ]:
        r = client.post(f"/api/sessions/{sid}/action", content=body)
        assert r.status_code == status, (body, r.status_code, r.text)
        assert r.json()["error"]
    for path, params in [
        (f"/api/sessions/{sid}", {"after": "x"}),
        (f"/api/sessions/{sid}", {"after": "1", "wait": "-3"}),
        (f"/api/sessions/{sid}", {"after": "1", "wait": "1e9"}),
        (f"/api/sessions/{sid}/analysis", {"game": "0"}),
        (f"/api/sessions/{sid}/analysis", {"wait": "soon"}),
    ]:
        r = client.get(path, params=params)
        assert r.status_code == 400 and r.json()["error"], (path, params, r.text)
    assert client.get(f"/api/sessions/{sid}/games/1.iss").status_code == 404
    assert client.get("/api/nothing").status_code == 404
    assert client.put(f"/api/sessions/{sid}/action").status_code == 405
    after = client.get(f"/api/sessions/{sid}").json()
    assert after == before


def test_random_requests_never_get_a_server_error(client: Client) -> None:
    """A seeded stream of malformed and out-of-place requests to every route of a live session
    and room: each is answered (4xx or 2xx, never 5xx) and the server keeps serving."""
    rng = random.Random(11)
    sid = client.post("/api/sessions", json={}).json()["id"]
    room = client.post("/api/rooms", json={}).json()
    rid, token = room["state"]["room"], room["token"]
    values: list[Any] = [None, True, 0, -1, 2**70, 1.5, "", "p", "18", "y", "s", "CJ", "G.CK.CQ"]
    values += [[], ["rules"], {}, {"a": 1}, "é" * 3, "0" * 5000, token, sid]
    keys = ["action", "token", "seat", "opponents", "name", "games", "seed", "variants", "chair"]
    posts = [f"/api/sessions/{sid}/{p}" for p in ("action", "next", "undo", "claim", "concede")]
    posts += ["/api/sessions", "/api/rooms", "/api/records"]
    posts += [f"/api/rooms/{rid}/{p}" for p in ("join", "start", "action", "next")]
    gets = [f"/api/sessions/{sid}{p}" for p in ("", "/hint", "/analysis", "/records.iss")]
    gets += [f"/api/sessions/{sid}/games/1.iss", f"/api/sessions/{sid}/stats", f"/api/rooms/{rid}"]
    raw = [b"{", b"\xff\xfe", b"[]", b"null", b"1e999", b'{"action": "\\ud800"}']
    for _ in range(300):
        if rng.random() < 0.6:
            path = rng.choice(posts)
            if rng.random() < 0.2:
                r = client.post(path, content=rng.choice(raw))
            else:
                body = {rng.choice(keys): rng.choice(values) for _ in range(rng.randint(0, 3))}
                r = client.post(path, json=body)
        else:
            path = rng.choice(gets)
            keys_get = ("after", "wait", "game", "lang", "worlds")
            params = {rng.choice(keys_get): str(rng.choice(values))[:40] for _ in range(2)}
            r = client.get(path, params=params)
        assert r.status_code < 500, (path, r.status_code, r.text[:200])
    assert client.get(f"/api/sessions/{sid}").status_code == 200


def test_moves_out_of_turn_are_refused_while_the_ai_thinks() -> None:
    tables = Tables(opponents=["tests.test_web:SlowPlayer:delay=0.3"], pace=0, workers=2)
    with serve(tables) as c:
        state = c.post("/api/sessions", json={"seat": 2, "seed": 4}).json()
        sid = state["id"]
        assert state["busy"] and not state["your_turn"]
        r = c.post(f"/api/sessions/{sid}/action", json={"action": "p"})
        assert r.status_code == 409 and "not your turn" in r.json()["error"]
        assert c.get(f"/api/sessions/{sid}/hint").status_code == 409
        settled = settle(c, sid)
        assert settled["your_turn"] and settled["log"]


def test_slow_and_failing_ai_players_are_replaced_for_the_move() -> None:
    tables = Tables(
        opponents=["tests.test_web:SlowPlayer:delay=2", "tests.test_web:BrokenPlayer"],
        pace=0,
        ai_seconds=0.2,
        workers=2,
    )
    with serve(tables) as c:
        sid = c.post("/api/sessions", json={"seat": 0, "seed": 8}).json()["id"]
        state = play_to_end(c, sid, 8)
        notes = " ".join(tables.sessions[sid].session.notes)
        assert "more than 0.2 s" in notes and "illegal action" in notes
        assert state["over"] and state["sheet"]["rows"]


def test_the_server_survives_clients_that_disappear() -> None:
    tables = Tables(opponents=["rules"], pace=0.05, idle_seconds=1.0, workers=2)
    with BackgroundServer(tables) as server, httpx.Client(base_url=server.url) as c:
        sid = c.post("/api/sessions", json={"seed": 9, "seat": 1}).json()["id"]
        host, port = server.sock.getsockname()[:2]
        # a long poll whose client hangs up at once
        s = socket.create_connection((host, port))
        s.sendall(f"GET /api/sessions/{sid}?after=999&wait=5 HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        s.close()
        # a request whose body never arrives in full
        s = socket.create_connection((host, port))
        s.sendall(
            f"POST /api/sessions/{sid}/action HTTP/1.1\r\nHost: x\r\n"
            'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"act'.encode()
        )
        s.close()
        # a hint request that times out on the client's side
        state = settle(c, sid)
        if state["your_turn"]:
            with suppress(httpx.TimeoutException):
                c.get(f"/api/sessions/{sid}/hint", timeout=0.001)
        # the session still plays on, and the server still answers everyone
        state = play_to_end(c, sid, 9)
        assert state["over"]
        # an abandoned session expires (idle for longer than idle_seconds)
        time.sleep(1.2)
        other = c.post("/api/sessions", json={"seed": 10}).json()["id"]
        assert c.get(f"/api/sessions/{sid}").status_code == 404
        assert c.get(f"/api/sessions/{other}").status_code == 200


def test_twenty_concurrent_games_on_loopback() -> None:
    """Load: 20 browser sessions play to the end at once through HTTP, without errors and
    each with its own deal."""
    n = 20
    errors: list[str] = []
    results: dict[int, tuple[dict[str, Any], dict[str, Any], str]] = {}
    tables = Tables(opponents=["rules"], pace=0, max_sessions=50)
    t0 = time.monotonic()
    with BackgroundServer(tables) as server:

        def one(i: int) -> None:
            try:
                with httpx.Client(base_url=server.url, timeout=30) as c:
                    r = c.post(
                        "/api/sessions",
                        json={"seed": 1000 + i, "seat": i % 3, "games": 1, "opponents": ["rules"]},
                    )
                    assert r.status_code == 201, r.text
                    first = r.json()
                    final = play_to_end(c, first["id"], i)
                    record = c.get(f"/api/sessions/{first['id']}/records.iss")
                    assert record.status_code == 200
                    results[i] = (first, final, record.text)
            except Exception as e:
                errors.append(f"session {i}: {type(e).__name__}: {e}")

        threads = [threading.Thread(target=one, args=(i,)) for i in range(n)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
    seconds = time.monotonic() - t0
    assert not errors, errors
    assert len(results) == n
    for i, (first, final, record) in results.items():
        seed, seat = 1000 + i, i % 3
        deal = Deal.random(deal_seed(seed, 0))
        assert {c["card"] for c in first["hand"]} == {str(c) for c in deal.hands[seat]}
        assert first["seed"] == seed and first["you"] == seat
        game = Game.from_iss(record.strip())
        assert game.deal == deal and game.is_over
        assert f"P{seat}[You]" in record
        assert game.result is not None
        assert final["result"]["scores"] == list(game.result.scores)
        for k in range(3):
            shown = {c["card"] for c in final["result"]["hands"][k]}
            assert shown == {str(c) for c in deal.hands[k]}
    assert seconds < 120


def test_skat_serve_prints_its_address_and_serves_the_page(tmp_path: Path) -> None:
    """The real command: a free port by default, printed; the page and the API answer; the
    list is saved in the default database file where the server runs."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "skat.cli", "serve", "--opponents", "rules", "--pace", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert m, line
        url = m.group(0)
        page = httpx.get(url, timeout=10)
        assert page.status_code == 200 and "<title>Skat</title>" in page.text
        for asset in ("app.js", "style.css"):
            assert httpx.get(url + "static/" + asset, timeout=10).status_code == 200
        r = httpx.post(url + "api/sessions", json={"seed": 1}, timeout=10)
        assert r.status_code == 201 and r.json()["games"] == 3
        assert ListStore(str(tmp_path / SERVE_DB)).load(r.json()["id"]) is not None
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise
    assert proc.returncode == 0, proc.stderr.read() if proc.stderr else ""
    bad = subprocess.run(
        [sys.executable, "-m", "skat.cli", "serve", "--opponents", "nobody"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2 and "available" in bad.stderr
