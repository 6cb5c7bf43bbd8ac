"""Tables of several people (``/room/ID``): the lobby, a whole list played by two people and
the AI through the API and the WebSocket, and no message carrying a card its reader may not
see."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from skat import Game
from skat.web.server import BackgroundServer
from skat.web.tables import Tables

CARD = re.compile(r'"([CSHD][789TJQKA])"')


@pytest.fixture()
def server() -> Iterator[BackgroundServer]:
    with BackgroundServer(Tables(opponents=["rules"], pace=0)) as s:
        yield s


def visible_cards(state: dict[str, Any]) -> set[str]:
    """Every card code anywhere in a state's JSON."""
    return set(CARD.findall(json.dumps(state)))


def allowed_cards(state: dict[str, Any], game: Game, seat: int | None) -> set[str]:
    """What the reader of ``state`` (``seat``, None: a spectator) may know now: the cards
    played, her own hand, her skat and discard as declarer, an ouvert hand; everything once
    the game is over."""
    if game.is_over:
        return {str(c) for h in game.deal.hands for c in h} | {str(c) for c in game.deal.skat}
    seen = {str(c) for c in game.played} | {str(c) for c in game.trick}
    if seat is not None:
        seen |= {str(c) for c in game.hands[seat]}
        if game.declarer == seat:
            seen |= {str(c) for c in game.deal.skat} | {str(c) for c in game.deal.hands[seat]}
    if game.contract is not None and game.contract.ouvert and game.declarer is not None:
        seen |= {str(c) for c in game.hands[game.declarer]}
    return seen


def choose(state: dict[str, Any]) -> str:
    """A simple person: bids and holds up to 23, then plays the first legal choice."""
    if state["phase"] == "play":
        return str(next(h["card"] for h in state["hand"] if h["legal"]))
    legal = state["legal"]
    if state["phase"] == "bidding":
        low = [a for a in legal if a["kind"] == "bid" and int(a["token"]) <= 23]
        hold = [a for a in legal if a["kind"] == "hold" and state["bid"] <= 23]
        passes = [a for a in legal if a["kind"] == "pass"]
        return str((low or hold or passes)[0]["token"])
    return str(legal[0]["token"])


def test_two_people_and_the_ai_play_a_list_and_nobody_sees_hidden_cards(
    server: BackgroundServer,
) -> None:
    with httpx.Client(base_url=server.url, timeout=30) as c:
        created = c.post("/api/rooms", json={"name": "Ann", "games": 2, "seed": 4})
        assert created.status_code == 201
        rid = created.json()["state"]["room"]
        keys = {0: created.json()["token"]}
        joined = c.post(f"/api/rooms/{rid}/join", json={"name": "Bob"}).json()
        keys[joined["state"]["chair"]] = joined["token"]
        assert sorted(keys) == [0, 1]
        lobby = c.get(f"/api/rooms/{rid}").json()
        assert lobby["lobby"] and lobby["chair"] is None
        assert [s["name"] for s in lobby["seats"]] == ["Ann", "Bob", None]
        assert c.post(f"/api/rooms/{rid}/start", json={"token": keys[1]}).status_code == 403
        assert c.post(f"/api/rooms/{rid}/start", json={"token": keys[0]}).status_code == 200
        assert c.post(f"/api/rooms/{rid}/join", json={"name": "Cy"}).status_code == 409
        room = server.app.state.rooms.get(rid)
        checked = moves = 0
        for _ in range(2000):
            s = room.session
            assert s is not None
            while room.busy:  # the AI moves: wait until the table is still
                c.get(f"/api/rooms/{rid}?after={room.version}&wait=2")
            version = room.version
            states = {ch: c.get(f"/api/rooms/{rid}?token={k}").json() for ch, k in keys.items()}
            states[-1] = c.get(f"/api/rooms/{rid}").json()  # a spectator
            with s.lock:
                game = s.game.copy()
                seats = {ch: s.seat_of(ch) for ch in keys}
            assert room.version == version and all(
                st["version"] == version for st in states.values()
            )
            for ch, state in states.items():
                assert visible_cards(state) <= allowed_cards(state, game, seats.get(ch)), ch
                checked += 1
            if s.list_over:
                break
            if game.is_over:
                assert c.post(f"/api/rooms/{rid}/next", json={"token": keys[1]}).status_code == 200
                continue
            chair = next(ch for ch, st in states.items() if ch >= 0 and st["your_turn"])
            st = states[chair]
            token = choose(st)
            other = keys[1 - chair]
            assert c.post(
                f"/api/rooms/{rid}/action", json={"token": other, "action": token}
            ).status_code in (409, 422)  # not the other person's turn (or not her card)
            r = c.post(f"/api/rooms/{rid}/action", json={"token": keys[chair], "action": token})
            assert r.status_code == 200, r.text
            moves += 1
        assert room.session is not None and room.session.list_over
        assert len(room.session.sheet().rows) == 2
        assert moves > 10 and checked >= 3 * moves


def test_room_errors_are_answered(server: BackgroundServer) -> None:
    with httpx.Client(base_url=server.url, timeout=30) as c:
        assert c.get("/api/rooms/nope").status_code == 404
        assert c.get("/room/nope").status_code == 404
        assert c.post("/api/rooms", json={"name": "x" * 40}).status_code == 422
        assert c.post("/api/rooms", json={"opponents": ["nobody"]}).status_code == 422
        made = c.post("/api/rooms", json={"games": 1}).json()
        rid, host = made["state"]["room"], made["token"]
        assert c.get(f"/room/{rid}").status_code == 200
        assert (
            c.post(f"/api/rooms/{rid}/action", json={"token": host, "action": "18"}).status_code
            == 409
        )
        for _ in range(2):
            assert c.post(f"/api/rooms/{rid}/join", json={}).status_code == 200
        assert c.post(f"/api/rooms/{rid}/join", json={}).status_code == 409  # full
        assert c.post(f"/api/rooms/{rid}/start", json={"token": host}).status_code == 200
        assert c.post(f"/api/rooms/{rid}/start", json={"token": host}).status_code == 409
        assert c.post(f"/api/rooms/{rid}/action", json={"action": "18"}).status_code == 403
        assert (
            c.post(f"/api/rooms/{rid}/action", json={"token": 5, "action": "18"}).status_code == 422
        )


def test_the_websocket_pushes_each_change(server: BackgroundServer) -> None:
    with httpx.Client(base_url=server.url, timeout=30) as c:
        made = c.post("/api/rooms", json={"name": "Ann", "games": 1, "seed": 2}).json()
        rid, host = made["state"]["room"], made["token"]
        url = server.url.replace("http://", "ws://") + f"/ws/rooms/{rid}?token={host}"
        with connect(url) as ws:
            first = json.loads(ws.recv(timeout=10))
            assert first["lobby"] and first["host"] and first["chair"] == 0
            c.post(f"/api/rooms/{rid}/join", json={"name": "Bob"})
            second = json.loads(ws.recv(timeout=10))
            assert second["seats"][1]["name"] == "Bob" and second["version"] > first["version"]
            c.post(f"/api/rooms/{rid}/start", json={"token": host})
            while True:
                state = json.loads(ws.recv(timeout=10))
                if not state["lobby"]:
                    break
            assert len(state["hand"]) == 10 and state["players"][state["you"]]["name"] == "Ann"
        bad_url = server.url.replace("http://", "ws://") + "/ws/rooms/nope"
        with pytest.raises(Exception), connect(bad_url) as bad:  # noqa: B017 (refused)
            bad.recv(timeout=5)


def test_a_room_survives_a_server_restart(db_url: str) -> None:
    from skat.web.store import ListStore

    db = db_url

    def tables() -> Tables:
        return Tables(opponents=["rules"], pace=0, store=ListStore(db))

    with BackgroundServer(tables()) as first, httpx.Client(base_url=first.url, timeout=30) as c:
        made = c.post("/api/rooms", json={"name": "Ann", "games": 1, "seed": 8}).json()
        rid, ann = made["state"]["room"], made["token"]
        bob = c.post(f"/api/rooms/{rid}/join", json={"name": "Bob"}).json()["token"]
        c.post(f"/api/rooms/{rid}/start", json={"token": ann})
        room = first.app.state.rooms.get(rid)
        for _ in range(6):
            while room.busy:
                c.get(f"/api/rooms/{rid}?after={room.version}&wait=2")
            for key in (ann, bob):
                st = c.get(f"/api/rooms/{rid}?token={key}").json()
                if st["your_turn"]:
                    c.post(f"/api/rooms/{rid}/action", json={"token": key, "action": choose(st)})
                    break
        while room.busy:
            c.get(f"/api/rooms/{rid}?after={room.version}&wait=2")
        before = {k: c.get(f"/api/rooms/{rid}?token={k}").json() for k in (ann, bob)}
    with BackgroundServer(tables()) as second, httpx.Client(base_url=second.url, timeout=30) as c:
        for key, old in before.items():
            new = c.get(f"/api/rooms/{rid}?token={key}").json()
            for field in ("chair", "phase", "hand", "trick", "log", "seats", "started"):
                assert new[field] == old[field], field
        assert c.get(f"/api/sessions/room:{rid}").status_code == 404
