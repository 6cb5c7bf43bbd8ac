"""Lists of the web table kept in a database, so that a list survives a server restart.

``skat serve --db URL`` names the database: a SQLite file (a plain path, ``sqlite:///PATH``,
or ``:memory:`` for nothing kept; default ``skat-tables.sqlite`` in the directory the server
runs in), or a PostgreSQL server (``postgresql://USER:PASSWORD@HOST/DB``, needing the
``postgres`` extra) that several servers of a shared deployment can use at once. Either holds
one table ``lists`` with one row per browser session or room: its id, the time of its last
change and the session's :meth:`~skat.ui.session.Session.snapshot` as JSON (settings,
finished games as ISS records, the current game's moves). The web tables save a session after
every change and load it, by id, when a request names a session that is not in memory (after
a restart, on another server of the deployment, or after it was dropped for being idle).

Invariants: every operation is one statement and commits on its own, so a saved snapshot is
whole or absent; one connection, used under a lock, serves every thread; a PostgreSQL
connection that was lost (the database restarted) is opened again once per operation; every
database failure reaches the caller as a :class:`StoreError`.

>>> store = ListStore(":memory:")
>>> store.save("abc", {"x": 1}); store.load("abc"), store.load("nope")
({'x': 1}, None)
>>> db_target("postgres://ann:secret@db.example/skat").where
'postgresql://ann:***@db.example/skat'
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any, Protocol
from urllib.parse import urlsplit, urlunsplit

from skat import defaults
from skat._core import SkatError

DEFAULT_DB = defaults.SERVE_DB

_SQLITE_SCHEMA = """
CREATE TABLE IF NOT EXISTS lists (
    id TEXT PRIMARY KEY,
    updated REAL NOT NULL,
    snapshot TEXT NOT NULL
)
"""

_POSTGRES_SCHEMA = """
CREATE TABLE IF NOT EXISTS lists (
    id TEXT PRIMARY KEY,
    updated DOUBLE PRECISION NOT NULL,
    snapshot TEXT NOT NULL
)
"""

_POSTGRES_SCHEMES = ("postgresql", "postgres")


class StoreError(SkatError):
    """A database the table cannot use (an unknown URL, a file that is not SQLite, a
    PostgreSQL server that cannot be reached) or an operation that failed on it."""


@dataclass(frozen=True)
class DbTarget:
    """A parsed ``--db`` value: ``kind`` is ``"sqlite"`` (``target`` the file or
    ``:memory:``) or ``"postgresql"`` (``target`` the connection URL); ``where`` names it for
    people, without a password."""

    kind: str
    target: str
    where: str


def _redact(url: str) -> str:
    """``url`` with its password replaced by ``***``, and the scheme spelled ``postgresql``."""
    parts = urlsplit(url)
    netloc = parts.netloc
    if parts.password:
        user, _, host = netloc.rpartition("@")
        netloc = f"{user.split(':', 1)[0]}:***@{host}"
    return urlunsplit(("postgresql", netloc, parts.path, parts.query, ""))


def db_target(url: str) -> DbTarget:
    """Parses a ``--db`` value; an unknown scheme raises :class:`StoreError`."""
    if url.startswith("sqlite:///"):
        path = url[len("sqlite:///") :] or ":memory:"
        return DbTarget("sqlite", path, path)
    if "://" not in url:
        return DbTarget("sqlite", url, url)
    scheme = url.split("://", 1)[0].lower()
    if scheme in _POSTGRES_SCHEMES:
        if not urlsplit(url).path.strip("/") and "dbname=" not in url:
            raise StoreError(f"{_redact(url)}: name the database, postgresql://HOST/DATABASE")
        return DbTarget("postgresql", url, _redact(url))
    raise StoreError(
        f"{scheme}: the table keeps lists in SQLite (a file, sqlite:///PATH) or PostgreSQL"
        " (postgresql://...)"
    )


def postgres_driver() -> Any:
    """The ``psycopg`` module, or a :class:`StoreError` naming the extra to install."""
    try:
        import psycopg
    except ImportError:
        raise StoreError(
            "PostgreSQL needs the psycopg driver: pip install 'skat[postgres]'"
        ) from None
    return psycopg


class _Backend(Protocol):
    def save(self, sid: str, updated: float, text: str) -> None: ...
    def load(self, sid: str) -> str | None: ...
    def delete(self, sid: str) -> None: ...
    def count(self) -> int: ...
    def close(self) -> None: ...


class _Sqlite:
    def __init__(self, path: str) -> None:
        try:
            self.db = sqlite3.connect(path, check_same_thread=False)
            with self.db:
                self.db.execute(_SQLITE_SCHEMA)
        except sqlite3.Error as e:
            raise StoreError(f"{path}: cannot use it as the table's database: {e}") from e

    def save(self, sid: str, updated: float, text: str) -> None:
        with self.db:
            self.db.execute(
                "INSERT OR REPLACE INTO lists (id, updated, snapshot) VALUES (?, ?, ?)",
                (sid, updated, text),
            )

    def load(self, sid: str) -> str | None:
        row = self.db.execute("SELECT snapshot FROM lists WHERE id = ?", (sid,)).fetchone()
        return None if row is None else str(row[0])

    def delete(self, sid: str) -> None:
        with self.db:
            self.db.execute("DELETE FROM lists WHERE id = ?", (sid,))

    def count(self) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM lists").fetchone()[0])

    def close(self) -> None:
        self.db.close()


class _Postgres:
    def __init__(self, url: str, where: str) -> None:
        self.pg = postgres_driver()
        self.url = url
        self.where = where
        self.conn: Any = None
        try:
            self._run(_POSTGRES_SCHEMA, ())
        except StoreError:
            # servers starting together can race on CREATE TABLE IF NOT EXISTS (a unique
            # violation in PostgreSQL's catalogue): by now the other one made the table
            self._run(_POSTGRES_SCHEMA, ())

    def _connect(self) -> Any:
        try:
            return self.pg.connect(self.url, autocommit=True, connect_timeout=10)
        except self.pg.Error as e:
            raise StoreError(f"{self.where}: cannot connect: {_one_line(e)}") from None

    def _run(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        """Runs one statement, opening the connection again once if it was lost."""
        for attempt in (0, 1):
            if self.conn is None or self.conn.closed:
                self.conn = self._connect()
            try:
                cur = self.conn.execute(sql, params)
                return list(cur.fetchall()) if cur.description is not None else []
            except self.pg.OperationalError as e:
                self._drop()
                if attempt:
                    raise StoreError(f"{self.where}: {_one_line(e)}") from None
            except self.pg.Error as e:
                raise StoreError(f"{self.where}: {_one_line(e)}") from None
        raise AssertionError("unreachable")

    def _drop(self) -> None:
        if self.conn is not None:
            with suppress(self.pg.Error):
                self.conn.close()
        self.conn = None

    def save(self, sid: str, updated: float, text: str) -> None:
        self._run(
            "INSERT INTO lists (id, updated, snapshot) VALUES (%s, %s, %s) ON CONFLICT (id)"
            " DO UPDATE SET updated = EXCLUDED.updated, snapshot = EXCLUDED.snapshot",
            (sid, updated, text),
        )

    def load(self, sid: str) -> str | None:
        rows = self._run("SELECT snapshot FROM lists WHERE id = %s", (sid,))
        return None if not rows else str(rows[0][0])

    def delete(self, sid: str) -> None:
        self._run("DELETE FROM lists WHERE id = %s", (sid,))

    def count(self) -> int:
        return int(self._run("SELECT COUNT(*) FROM lists", ())[0][0])

    def close(self) -> None:
        self._drop()


def _one_line(e: BaseException) -> str:
    return " ".join(str(e).split()) or type(e).__name__


class ListStore:
    """Saved lists by session id (thread-safe), in SQLite or PostgreSQL (see the module)."""

    def __init__(self, url: str = DEFAULT_DB) -> None:
        target = db_target(url)
        self.kind = target.kind
        #: the database for people (a file, or a URL without its password)
        self.where = target.where
        self.lock = threading.Lock()
        self._db: _Backend = (
            _Sqlite(target.target)
            if target.kind == "sqlite"
            else _Postgres(target.target, target.where)
        )

    @contextmanager
    def _guard(self, op: str) -> Iterator[None]:
        """Holds the lock around one operation; SQLite's errors become :class:`StoreError`
        (the PostgreSQL backend raises it itself)."""
        with self.lock:
            try:
                yield
            except sqlite3.Error as e:
                raise StoreError(f"{self.where}: {op} failed: {_one_line(e)}") from e

    def save(self, sid: str, snapshot: dict[str, Any]) -> None:
        """Writes (or replaces) the snapshot of session ``sid``."""
        text = json.dumps(snapshot, separators=(",", ":"))
        with self._guard("save"):
            self._db.save(sid, time.time(), text)

    def load(self, sid: str) -> dict[str, Any] | None:
        """The snapshot of session ``sid``, or None."""
        with self._guard("load"):
            text = self._db.load(sid)
        if text is None:
            return None
        data: dict[str, Any] = json.loads(text)
        return data

    def delete(self, sid: str) -> None:
        """Forgets session ``sid``."""
        with self._guard("delete"):
            self._db.delete(sid)

    def count(self) -> int:
        """How many lists are saved."""
        with self._guard("count"):
            return self._db.count()

    def close(self) -> None:
        with self.lock:
            self._db.close()


__all__ = ["DEFAULT_DB", "DbTarget", "ListStore", "StoreError", "db_target", "postgres_driver"]
