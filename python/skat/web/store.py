"""Lists of the web table kept on disk, so that a list survives a server restart.

One SQLite database (``skat serve --db FILE``; default ``skat-tables.sqlite`` in the
directory the server runs in): a table ``lists`` with one row per browser session, its id,
the time of its last change and the session's :meth:`~skat.ui.session.Session.snapshot` as
JSON (settings, finished games as ISS records, the current game's moves). The web tables save
a session after every change and load it, by id, when a request names a session that is not
in memory (after a restart, or after it was dropped for being idle), replaying its games.

``--db`` takes a file name, ``sqlite:///PATH`` or ``:memory:``; other database URLs are
refused (only SQLite is built in). One connection, used under a lock, serves every thread.

>>> store = ListStore(":memory:")
>>> store.save("abc", {"x": 1}); store.load("abc"), store.load("nope")
({'x': 1}, None)
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from typing import Any

from skat import defaults
from skat._core import SkatError

DEFAULT_DB = defaults.SERVE_DB

_SCHEMA = """
CREATE TABLE IF NOT EXISTS lists (
    id TEXT PRIMARY KEY,
    updated REAL NOT NULL,
    snapshot TEXT NOT NULL
)
"""


class StoreError(SkatError):
    """A database the table cannot use (an unknown URL, a file that is not SQLite)."""


def sqlite_path(url: str) -> str:
    """The SQLite file (or ``:memory:``) of a ``--db`` value."""
    if url.startswith("sqlite:///"):
        return url[len("sqlite:///") :] or ":memory:"
    if "://" in url:
        raise StoreError(f"{url.split('://')[0]}: only SQLite databases are built in (sqlite:///)")
    return url


class ListStore:
    """Saved lists by session id (thread-safe)."""

    def __init__(self, url: str = DEFAULT_DB) -> None:
        self.path = sqlite_path(url)
        self.lock = threading.Lock()
        try:
            self.db = sqlite3.connect(self.path, check_same_thread=False)
            with self.db:
                self.db.execute(_SCHEMA)
        except sqlite3.Error as e:
            raise StoreError(f"{self.path}: cannot use it as the table's database: {e}") from e

    def save(self, sid: str, snapshot: dict[str, Any]) -> None:
        """Writes (or replaces) the snapshot of session ``sid``."""
        text = json.dumps(snapshot, separators=(",", ":"))
        with self.lock, self.db:
            self.db.execute(
                "INSERT OR REPLACE INTO lists (id, updated, snapshot) VALUES (?, ?, ?)",
                (sid, time.time(), text),
            )

    def load(self, sid: str) -> dict[str, Any] | None:
        """The snapshot of session ``sid``, or None."""
        with self.lock:
            row = self.db.execute("SELECT snapshot FROM lists WHERE id = ?", (sid,)).fetchone()
        if row is None:
            return None
        data: dict[str, Any] = json.loads(row[0])
        return data

    def delete(self, sid: str) -> None:
        """Forgets session ``sid``."""
        with self.lock, self.db:
            self.db.execute("DELETE FROM lists WHERE id = ?", (sid,))

    def count(self) -> int:
        """How many lists are saved."""
        with self.lock:
            return int(self.db.execute("SELECT COUNT(*) FROM lists").fetchone()[0])

    def close(self) -> None:
        with self.lock:
            self.db.close()


__all__ = ["DEFAULT_DB", "ListStore", "StoreError", "sqlite_path"]
