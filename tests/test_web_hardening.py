"""The web API against hostile clients: bodies Python cannot answer, bad languages and
numbers, bodies too large, too slow or abandoned, deleted sessions and rooms, and player specs
that name server files or multiply the work. Each case answers 4xx and changes nothing."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator, MutableMapping
from typing import Any

import httpx
import pytest

from skat.web.app import Tables
from skat.web.server import BackgroundServer
from skat.web.store import ListStore
from tests.test_web import Client, serve, settle


@pytest.fixture
def client() -> Iterator[Client]:
    """A client of a real server on a loopback port (rules opponents, no pauses)."""
    with serve(Tables(opponents=["rules"], pace=0, workers=4, hint_worlds=20)) as c:
        yield c


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
