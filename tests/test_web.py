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
from collections.abc import Iterator, MutableMapping
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


@pytest.fixture
def server() -> Iterator[BackgroundServer]:
    """A real server on a loopback port (rules opponents, no pauses, lists saved in memory)."""
    tables = Tables(opponents=["rules"], pace=0, workers=2, store=ListStore(":memory:"))
    with BackgroundServer(tables) as s:
        yield s


def test_bodies_python_cannot_answer_get_400_and_create_nothing(server: BackgroundServer) -> None:
    """A lone surrogate (JSON may escape one, UTF-8 cannot encode it) and nesting deeper than
    the parser's recursion were 500s; a room named with a surrogate was kept and answered 500
    from then on."""
    c = httpx.Client(base_url=server.url, timeout=30)
    rid = c.post("/api/rooms", json={}).json()["state"]["room"]
    bad = [
        b'{"name": "Ann\\ud800"}',
        b'{"variants": "\\udfff"}',
        b'{"action": "\\ud800", "token": "x"}',
        b"[" * 5000 + b"]" * 5000,
        b'{"a": ' * 2000 + b"1" + b"}" * 2000,
    ]
    for body in bad:
        for path in ("/api/sessions", "/api/rooms", f"/api/rooms/{rid}/join"):
            r = c.post(path, content=body)
            assert r.status_code == 400 and r.json()["error"], (path, body[:30], r.text)
    assert len(server.app.state.rooms.rooms) == 1 and not server.tables.sessions
    seats = c.get(f"/api/rooms/{rid}").json()["seats"]
    assert [s["person"] for s in seats] == [True, False, False]
    # a surrogate pair is one character: accepted
    r = c.post(f"/api/rooms/{rid}/join", content=b'{"name": "Bob \\ud83d\\ude00"}')
    assert r.status_code == 200 and r.json()["state"]["seats"][1]["name"] == "Bob \U0001f600"
    c.close()


def test_a_bad_language_refuses_the_request_before_anything_changes(
    server: BackgroundServer,
) -> None:
    """``?lang=xx`` was read only for the answer: the session or room was made, the move
    applied, the chair taken, and the client got 400."""
    c = httpx.Client(base_url=server.url, timeout=30)
    bad = {"lang": "xx"}
    assert c.post("/api/sessions", params=bad, json={}).status_code == 400
    assert c.post("/api/rooms", params=bad, json={}).status_code == 400
    assert not server.tables.sessions and not server.app.state.rooms.rooms
    rid = c.post("/api/rooms", json={}).json()["state"]["room"]
    assert c.post(f"/api/rooms/{rid}/join", params=bad, json={}).status_code == 400
    assert not c.get(f"/api/rooms/{rid}").json()["seats"][1]["person"]
    sid = c.post("/api/sessions", json={"seed": 5, "seat": 0}).json()["id"]
    before = settle(c, sid)
    assert before["your_turn"]
    move = before["legal"][0]["token"]
    r = c.post(f"/api/sessions/{sid}/action", params=bad, json={"action": move})
    assert r.status_code == 400 and "lang" in r.json()["error"]
    assert c.get(f"/api/sessions/{sid}").json() == before
    c.close()


def test_numbers_in_the_query_and_path_are_checked_before_int(server: BackgroundServer) -> None:
    """``int()`` refuses digits that ``str.isdigit`` accepts (``²``) and more than 4300 digits:
    both were 500s."""
    c = httpx.Client(base_url=server.url, timeout=30)
    sid = c.post("/api/sessions", json={"seed": 5}).json()["id"]
    long = "9" * 5000
    for path, params in [
        (f"/api/sessions/{sid}", {"after": "\u00b2"}),
        (f"/api/sessions/{sid}", {"after": "\u0661"}),
        (f"/api/sessions/{sid}", {"after": long}),
        (f"/api/sessions/{sid}/analysis", {"game": "\u00b2"}),
        (f"/api/sessions/{sid}/analysis", {"game": long}),
    ]:
        r = c.get(path, params=params)
        assert r.status_code == 400 and r.json()["error"], (path, params, r.text)
    for path in [
        f"/api/sessions/{sid}/games/{long}.iss",
        f"/api/records/x/games/{long}",
        f"/api/records/x/games/{long}/analysis",
        f"/api/sessions/{sid}/games/-1.iss",
    ]:
        r = c.get(path)
        assert r.status_code == 404 and r.json()["error"], (path[:60], r.text)
    assert c.get(f"/api/sessions/{sid}/games/1.iss").status_code == 404  # not finished yet
    c.close()


def _raw(server: BackgroundServer, data: bytes, timeout: float = 5) -> bytes:
    """Sends ``data`` on a fresh connection and returns the first bytes of the answer."""
    host, port = server.sock.getsockname()[:2]
    with socket.create_connection((host, port), timeout=timeout) as s:
        s.sendall(data)
        return s.recv(4096)


def test_bodies_too_large_or_too_slow_are_refused_without_waiting_for_them(
    server: BackgroundServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Content-Length over the limit is answered 413 at once (the body was read whole into
    memory first); a body that never arrives in full is answered 408 after BODY_SECONDS."""
    from skat.web import app

    for path in ("/api/sessions", "/api/records"):
        head = f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000000\r\n\r\n"
        answer = _raw(server, head.encode())
        assert answer.startswith(b"HTTP/1.1 413"), answer[:80]
    monkeypatch.setattr(app, "BODY_SECONDS", 0.3)
    head = "POST /api/sessions HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"
    answer = _raw(server, head.encode())
    assert answer.startswith(b"HTTP/1.1 408"), answer[:80]
    assert not server.tables.sessions


def test_a_client_gone_before_its_body_is_answered_not_raised() -> None:
    """A disconnect while the body is read was an unhandled ClientDisconnect (a traceback in
    the server's log for every such client)."""
    import asyncio

    from skat.web.app import create_app

    app = create_app(Tables(opponents=["rules"], pace=0, workers=1))
    sent: list[MutableMapping[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.disconnect"}

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/api/sessions",
        "raw_path": b"/api/sessions",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"content-length", b"10")],
        "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 2),
    }
    asyncio.run(app(scope, receive, send))
    assert sent[0]["status"] == 400
    app.state.tables.close()
    app.state.library.close()
    app.state.rooms.close()


def test_deleting_a_session_never_deletes_a_room_and_is_final() -> None:
    """``DELETE /api/sessions/room:RID`` named the saved room's key and deleted it (204); a
    session deleted while its AI players moved was saved again by their worker and came back
    on the next request."""
    tables = Tables(opponents=["rules"], pace=0.05, workers=2, store=ListStore(":memory:"))
    with serve(tables) as c:
        rid = c.post("/api/rooms", json={"name": "Ann"}).json()["state"]["room"]
        store = tables.store
        assert store is not None and store.load(f"room:{rid}") is not None
        r = c.delete(f"/api/sessions/room:{rid}")
        assert r.status_code == 404 and r.json()["error"]
        assert store.load(f"room:{rid}") is not None
        sid = c.post("/api/sessions", json={"seat": 2, "seed": 1}).json()["id"]
        assert c.delete(f"/api/sessions/{sid}").status_code == 204
        time.sleep(0.5)  # the AI players' worker finishes its moves
        assert store.load(sid) is None
        assert c.get(f"/api/sessions/{sid}").status_code == 404


def test_client_specs_may_not_name_a_directory_or_multiply_the_work(client: Client) -> None:
    """``tables`` names a directory on the server (its existence showed in the answer);
    ``inner`` nests a spec the limits never saw, and ``n``, ``m``, ``candidates`` and the other
    multipliers had no limit: one request could start AI moves of hours."""
    for spec in [
        "pimc:tables=/etc",
        "pimc:tables=/nonexistent",
        "iimc:inner=pimc:worlds=100000",
        "rk:n=100000",
        "rk:m=1000",
        "rk:inner_candidates=1000000",
        "kermit:candidates=1000000",
        "kermit:declare_worlds=100000",
        "softmaxn:soft_worlds=100000",
    ]:
        r = client.post("/api/sessions", json={"opponents": [spec]})
        assert r.status_code == 422, (spec, r.text)
        assert "/etc" not in r.json()["error"] or "names a file" in r.json()["error"]
    for spec in ["rk:n=20,m=10", "iimc:worlds=20", "softmaxn", "kermit:candidates=2000"]:
        r = client.post("/api/sessions", json={"opponents": [spec]})
        assert r.status_code == 201, (spec, r.text)
        assert client.delete(f"/api/sessions/{r.json()['id']}").status_code == 204
