"""The room WebSocket (``/ws/rooms/ID``) against hostile and unlucky clients: unknown rooms and
bad languages are closed with the codes the page reads, a room dropped from memory closes its
sockets, and messages, abrupt disconnects and many sockets neither stop the pushes nor make
them disagree with the HTTP state."""

from __future__ import annotations

import json
import socket
import struct
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from skat.web.server import BackgroundServer
from skat.web.store import ListStore
from skat.web.tables import Tables


@pytest.fixture
def server() -> Iterator[BackgroundServer]:
    with BackgroundServer(Tables(opponents=["rules"], pace=0, store=ListStore(":memory:"))) as s:
        yield s


def ws_url(server: BackgroundServer, path: str) -> str:
    return server.url.replace("http://", "ws://") + path


def close_code(url: str) -> int | None:
    """The code a socket on ``url`` is closed with before it gets any message."""
    with connect(url, open_timeout=10) as ws, pytest.raises(ConnectionClosed) as closed:
        ws.recv(timeout=10)
    return closed.value.rcvd.code if closed.value.rcvd else None


def test_unknown_rooms_and_bad_languages_are_closed_with_the_code_the_page_reads(
    server: BackgroundServer,
) -> None:
    """The page stops reconnecting and says the table is gone on close code 4404; the handshake
    was refused (HTTP 403) instead, which a browser sees as 1006, so it retried every second
    forever."""
    with httpx.Client(base_url=server.url, timeout=30) as c:
        rid = c.post("/api/rooms", json={}).json()["state"]["room"]
    for rid_path in ["nope", "%00", "a" * 4000, "%C3%A9%F0%9F%98%80", "%2e%2e", "12345"]:
        assert close_code(ws_url(server, f"/ws/rooms/{rid_path}")) == 4404, rid_path[:20]
    for path in ["/ws/rooms/", "/ws/rooms/..%2F..%2Fetc", f"/ws/rooms/{rid}/x"]:
        with pytest.raises(InvalidStatus) as refused:  # no such route: the handshake is refused
            connect(ws_url(server, path), open_timeout=10)
        assert refused.value.response.status_code == 403, path
    assert close_code(ws_url(server, f"/ws/rooms/{rid}?lang=xx")) == 4400
    with connect(ws_url(server, f"/ws/rooms/{rid}?lang=de&token=%ff")) as ws:
        assert json.loads(ws.recv(timeout=10))["room"] == rid


@pytest.mark.parametrize("saved", [True, False])
def test_a_room_dropped_while_idle_closes_its_sockets(saved: bool) -> None:
    """A room dropped from memory after ``idle_seconds`` kept its sockets open on the dropped
    object: they never learnt that the room was gone, and with a store, where the next request
    opens the room again as a new object, they never saw another change."""
    tables = Tables(opponents=["rules"], pace=0, store=ListStore(":memory:") if saved else None)
    with BackgroundServer(tables) as server, httpx.Client(base_url=server.url, timeout=30) as c:
        rid = c.post("/api/rooms", json={"name": "Ann"}).json()["state"]["room"]
        rooms = server.app.state.rooms
        with connect(ws_url(server, f"/ws/rooms/{rid}")) as ws:
            assert json.loads(ws.recv(timeout=10))["lobby"]
            rooms.idle_seconds = 0.0
            assert c.post("/api/rooms", json={}).status_code == 201  # sweeps the idle rooms
            rooms.idle_seconds = 3600.0
            assert rid not in rooms.rooms
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1001
        if not saved:  # the page reconnects and is told that the table is gone
            assert close_code(ws_url(server, f"/ws/rooms/{rid}")) == 4404
            assert c.post(f"/api/rooms/{rid}/join", json={}).status_code == 404
            return
        with connect(ws_url(server, f"/ws/rooms/{rid}")) as ws:  # opens it again
            assert json.loads(ws.recv(timeout=10))["seats"][0]["name"] == "Ann"
            assert c.post(f"/api/rooms/{rid}/join", json={"name": "Bob"}).status_code == 200
            assert json.loads(ws.recv(timeout=10))["seats"][1]["name"] == "Bob"


def _reset(ws: ClientConnection) -> None:
    """Drops the connection without a closing handshake (a TCP reset)."""
    ws.socket.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    ws.socket.close()


def test_many_sockets_get_the_same_states_as_http_whatever_their_clients_send(
    server: BackgroundServer,
) -> None:
    """Forty sockets on one room while a game is played through the HTTP API: clients that
    send text, binary, invalid JSON or a megabyte (all ignored) and clients that vanish
    mid-push change nothing for the others; each remaining socket ends on exactly the HTTP
    state of its reader, and the server answers HTTP afterwards."""
    with ExitStack() as stack:
        c = stack.enter_context(httpx.Client(base_url=server.url, timeout=30))
        made = c.post("/api/rooms", json={"name": "Ann", "games": 1, "seed": 11}).json()
        rid, host = made["state"]["room"], made["token"]
        queries = ["", f"?token={host}", "?token=nobody&lang=de"]
        sockets = [
            stack.enter_context(connect(ws_url(server, f"/ws/rooms/{rid}{queries[i % 3]}")))
            for i in range(40)
        ]
        _play_and_check(server, c, rid, host, queries, sockets)


def _play_and_check(
    server: BackgroundServer,
    c: httpx.Client,
    rid: str,
    host: str,
    queries: list[str],
    sockets: list[ClientConnection],
) -> None:
    junk: list[str | bytes] = ["hello", "{not json", json.dumps({"action": "18"}), b"\x00\xff"]
    for i, ws in enumerate(sockets):
        assert json.loads(ws.recv(timeout=10))["lobby"]
        ws.send(junk[i % len(junk)])
    sockets[0].send("x" * (1 << 20))
    assert c.post(f"/api/rooms/{rid}/start", json={"token": host}).status_code == 200
    for ws in sockets[-5:]:
        _reset(ws)
    room = server.app.state.rooms.get(rid)
    for _ in range(30):  # the host plays her first legal choice whenever it is her turn
        while room.busy:
            c.get(f"/api/rooms/{rid}?after={room.version}&wait=5")
        state: dict[str, Any] = c.get(f"/api/rooms/{rid}?token={host}").json()
        if state["over"]:
            break
        if state["phase"] == "play":
            move = next(h["card"] for h in state["hand"] if h["legal"])
        else:
            move = state["legal"][0]["token"]
        r = c.post(f"/api/rooms/{rid}/action", json={"token": host, "action": move})
        assert r.status_code == 200, r.text
    while room.busy:
        c.get(f"/api/rooms/{rid}?after={room.version}&wait=5")
    final = room.version
    for i, ws in enumerate(sockets[:-5]):
        last = -1
        while last != final:
            got = json.loads(ws.recv(timeout=10))
            assert got["version"] >= last
            last = got["version"]
        assert got == c.get(f"/api/rooms/{rid}{queries[i % 3]}").json(), i
    assert c.get(f"/api/rooms/{rid}").status_code == 200
    assert c.post("/api/rooms", json={}).status_code == 201
