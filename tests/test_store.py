"""Saving and resuming lists: Session snapshots, the store in SQLite and PostgreSQL, and a
server restart."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import httpx
import pytest

from skat.players.rules import RulesPlayer
from skat.ui.common import UiError
from skat.ui.session import Session
from skat.web.server import BackgroundServer
from skat.web.store import ListStore, StoreError, db_target
from skat.web.tables import Tables


def _drive(s: Session, me: RulesPlayer, moves: int) -> None:
    """Plays ``moves`` of the person's moves (rules player), the AI moving in between; deals
    the next game when one ends."""
    for _ in range(moves):
        s.advance()
        if s.game.is_over:
            if s.list_over:
                return
            s.next_game()
            me.new_game(s.human_seat, 0)
            continue
        s.act(me.act(s.view()))


def _same(a: Session, b: Session) -> None:
    assert a.index == b.index
    assert [g.to_iss() for g in a.finished] == [g.to_iss() for g in b.finished]
    assert a.game.to_iss() == b.game.to_iss()
    assert a.sheet().as_dict() == b.sheet().as_dict()
    assert a.can_undo == b.can_undo and a.waiting_for_human == b.waiting_for_human


@pytest.mark.parametrize("moves", [0, 1, 5, 12, 25, 40])
def test_a_restored_session_is_the_same_and_plays_on_the_same(moves: int) -> None:
    a = Session(seat=1, opponents=["rules"], seed=3, games=3, ai_seconds=None)
    me = RulesPlayer()
    me.new_game(a.human_seat, 0)
    _drive(a, me, moves)
    data = json.loads(json.dumps(a.snapshot()))  # through JSON, as the store keeps it
    b = Session.restore(data)
    _same(a, b)
    twin = RulesPlayer()
    twin.new_game(b.human_seat, 0)
    _drive(a, me, 15)
    _drive(b, twin, 15)
    _same(a, b)


def test_a_restored_rated_list_keeps_its_setting_and_bad_snapshots_are_refused() -> None:
    a = Session(seat=0, opponents=["rules"], seed=4, games=1, undo=False)
    assert not Session.restore(a.snapshot()).undo_allowed
    with pytest.raises(UiError):
        Session.restore({"settings": {}})
    bad = a.snapshot()
    bad["index"] = 7
    with pytest.raises(UiError):
        Session.restore(bad)


def test_store_round_trip_and_urls(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    store = ListStore(f"sqlite:///{path}")
    store.save("a", {"k": [1, 2]})
    store.save("a", {"k": [3]})
    store.close()
    again = ListStore(str(path))
    assert again.load("a") == {"k": [3]} and again.count() == 1
    again.delete("a")
    assert again.load("a") is None
    assert db_target("sqlite:///").target == ":memory:"
    assert db_target("postgresql://ann:pw@h:5432/skat?sslmode=require").where == (
        "postgresql://ann:***@h:5432/skat?sslmode=require"
    )
    for bad in ("mysql://host/db", "postgresql://host", "postgresql://host/"):
        with pytest.raises(StoreError):
            db_target(bad)
    with pytest.raises(StoreError, match="cannot connect"):
        ListStore(f"postgresql://nobody@/skat?host={tmp_path}/no-such-socket-dir")
    (tmp_path / "junk").write_text("not a database" * 100)
    with pytest.raises(StoreError):
        ListStore(str(tmp_path / "junk")).save("x", {})


def test_a_list_survives_a_server_restart(db_url: str) -> None:
    db = db_url

    def tables() -> Tables:
        return Tables(opponents=["rules"], pace=0, store=ListStore(db))

    with BackgroundServer(tables()) as server, httpx.Client(base_url=server.url) as c:
        state = c.post("/api/sessions", json={"seed": 9, "games": 2}).json()
        sid = state["id"]
        for _ in range(6):
            while state["busy"]:
                state = c.get(f"/api/sessions/{sid}?after={state['version']}&wait=10").json()
            if state["over"]:
                break
            token = (
                next(h["card"] for h in state["hand"] if h["legal"])
                if state["phase"] == "play"
                else state["legal"][-1]["token"]
            )
            state = c.post(f"/api/sessions/{sid}/action", json={"action": token}).json()
        while state["busy"]:
            state = c.get(f"/api/sessions/{sid}?after={state['version']}&wait=10").json()
        before = c.get(f"/api/sessions/{sid}").json()
    with BackgroundServer(tables()) as server, httpx.Client(base_url=server.url) as c:
        after = c.get(f"/api/sessions/{sid}").json()
        for key in ("game", "phase", "hand", "trick", "log", "bid", "declarer", "sheet"):
            assert after[key] == before[key], key
        assert c.get("/api/sessions/unknown").status_code == 404
        assert c.delete(f"/api/sessions/{sid}").status_code == 204
        assert c.get(f"/api/sessions/{sid}").status_code == 404
    if "://" not in db:
        assert os.path.getsize(db) > 0


def test_postgres_store_is_shared_and_reconnects(postgres_url: str) -> None:
    import psycopg

    a, b = ListStore(postgres_url), ListStore(postgres_url)
    assert a.kind == "postgresql" and "***" not in a.where  # no password in this URL
    a.save("s1", {"k": [1]})
    assert b.load("s1") == {"k": [1]}  # two servers of one deployment see each other's lists
    b.save("s1", {"k": [2]})
    assert a.load("s1") == {"k": [2]} and a.count() == 1
    # the database drops every connection (a restart): the next operation connects again
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    a.save("s2", {"k": [3]})
    assert b.load("s2") == {"k": [3]}
    a.delete("s1")
    assert b.load("s1") is None and b.count() == 1
    a.close()
    b.close()


def test_servers_starting_together_share_one_new_database(postgres_url: str) -> None:
    # CREATE TABLE IF NOT EXISTS run at once by several servers races in PostgreSQL (a
    # unique violation in its catalogue): every server must still start
    import threading

    barrier = threading.Barrier(8)
    stores: list[ListStore] = []
    errors: list[Exception] = []

    def start() -> None:
        barrier.wait()
        try:
            stores.append(ListStore(postgres_url))
        except StoreError as e:
            errors.append(e)

    threads = [threading.Thread(target=start) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and len(stores) == 8
    stores[0].save("x", {"k": 1})
    assert all(s.load("x") == {"k": 1} for s in stores)
    for s in stores:
        s.close()


def test_a_database_that_goes_away_answers_503_and_the_list_plays_on(
    tmp_path: Path, postgres_server: Any
) -> None:
    from pgserver.postgres_server import get_server

    pg = get_server(tmp_path / "pgdata", cleanup_mode="stop")  # its own server, to stop
    store = ListStore(pg.get_uri())
    with (
        BackgroundServer(Tables(opponents=["rules"], pace=0, store=store)) as server,
        httpx.Client(base_url=server.url, timeout=30) as c,
    ):
        state = c.post("/api/sessions", json={"seed": 3, "games": 1}).json()
        assert store.count() == 1
        pg.cleanup()  # the database server stops
        assert c.get("/api/sessions/somebody-else").status_code == 503
        sid = state["id"]
        while state["busy"]:
            state = c.get(f"/api/sessions/{sid}?after={state['version']}&wait=10").json()
        state = c.post(f"/api/sessions/{sid}/action", json={"action": state["legal"][-1]["token"]})
        assert state.status_code == 200  # the list in memory plays on, unsaved
        assert any("could not be saved" in n for n in state.json()["notes"])
    store.close()


def test_list_statistics_follow_the_score_sheet() -> None:
    from skat.ui.stats import family, list_stats, plot_stats

    s = Session(seat=0, opponents=["rules"], seed=6, games=3, ai_seconds=None)
    me = RulesPlayer()
    me.new_game(s.human_seat, 0)
    _drive(s, me, 200)
    sheet = s.sheet()
    stats = list_stats(sheet)
    assert stats["games_played"] == len(sheet.rows) == 3
    for chair, p in enumerate(stats["players"]):
        won, lost = sheet.tally(chair)
        assert (p["won"], p["lost"], p["total"]) == (won, lost, sheet.totals[chair])
        assert sum(p["types"].values()) == p["declared"] == won + lost
    assert stats["running_totals"][-1] == list(sheet.totals)
    assert stats["passed"] + sum(p["declared"] for p in stats["players"]) == 3
    assert [family(c) for c in ("Grand hand", "Null ouvert", "Clubs", "")] == [
        "grand",
        "null",
        "suit",
        None,
    ]
    assert plot_stats(stats)[:8] == b"\x89PNG\r\n\x1a\n"


def test_stats_endpoints() -> None:
    with (
        BackgroundServer(Tables(opponents=["rules"], pace=0)) as server,
        httpx.Client(base_url=server.url, timeout=60) as c,
    ):
        sid = c.post("/api/sessions", json={"seed": 2, "games": 2}).json()["id"]
        data = c.get(f"/api/sessions/{sid}/stats").json()
        assert data["games"] == 2 and len(data["players"]) == 3
        png = c.get(f"/api/sessions/{sid}/stats.png")
        assert png.status_code == 200 and png.headers["content-type"] == "image/png"
        assert c.get("/api/sessions/nope/stats").status_code == 404


def test_two_different_opponents_keep_their_chairs_when_restored() -> None:
    a = Session(seat=1, opponents=["rules", "random"], seed=3, games=1)
    b = Session.restore(a.snapshot())
    assert [b._slots[c].spec for c in (2, 0)] == ["rules", "random"]
    assert b.names == a.names
