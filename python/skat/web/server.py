"""Running the web app: ``skat serve`` in the foreground, or a server in a background thread
(tests, screenshots).

>>> import httpx
>>> from skat.web.tables import Tables
>>> with BackgroundServer(Tables(opponents=["rules"], pace=0)) as server:
...     page = httpx.get(server.url)
>>> server.url.startswith("http://127.0.0.1:"), page.status_code
(True, 200)
"""

from __future__ import annotations

import socket
import threading
import time
from types import TracebackType

import uvicorn
from rich.console import Console
from rich.markup import escape

from skat._core import SkatError
from skat.players import PlayerSpecError, make_player
from skat.ui.common import DEFAULT_OPPONENT, split_specs
from skat.web.app import Tables, create_app
from skat.web.store import ListStore, StoreError

__all__ = ["BackgroundServer", "ServeError", "bind", "serve"]


class ServeError(SkatError):
    """The server cannot start: a bad option or an address it cannot listen on."""


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` (port 0: a free port chosen by the system)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP explicitly: asyncio sets TCP_NODELAY only on sockets that say so
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    sock.setblocking(False)
    return sock


def _url(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def serve(
    host: str = "127.0.0.1",
    port: int = 0,
    opponents: str = "",
    pace: float = 0.5,
    console: Console | None = None,
    db: str = ":memory:",
) -> int:
    """Serves the table until Ctrl-C; prints the address. Returns the exit status (0);
    :class:`ServeError` (nothing served) for bad options or an address it cannot listen on."""
    out = console if console is not None else Console()
    specs = split_specs(opponents) or [DEFAULT_OPPONENT]
    if len(specs) > 2:
        raise ServeError("--opponents takes one spec or two")
    try:
        for spec in specs:
            make_player(spec)
    except PlayerSpecError as e:
        raise ServeError(f"--opponents: {e}") from e
    if pace < 0:
        raise ServeError("--pace must not be negative")
    try:
        sock = bind(host, port)
    except OSError as e:
        raise ServeError(f"cannot listen on {host}:{port}: {e}") from e
    try:
        store = ListStore(db)
    except StoreError as e:
        sock.close()
        raise ServeError(str(e)) from e
    tables = Tables(opponents=specs, pace=pace, store=store)
    app = create_app(tables)
    url = _url(sock)
    out.print(
        f"Skat table at [bold]{url}/[/bold] (opponents {escape(', '.join(specs))}),"
        f" record viewer at {url}/viewer; lists saved in {escape(store.where)}; Ctrl-C stops",
        soft_wrap=True,
    )
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=2)
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        tables.close()
        app.state.library.close()
        app.state.rooms.close()
        store.close()
        sock.close()
    return 0


class BackgroundServer:
    """The app served by uvicorn on a loopback port in a daemon thread (a context manager).

    ``url`` is the base address (no trailing slash); leaving the ``with`` block stops it.
    """

    def __init__(self, tables: Tables, host: str = "127.0.0.1", port: int = 0) -> None:
        self.tables = tables
        self.sock = bind(host, port)
        self.url = _url(self.sock)
        self.app = create_app(tables)
        config = uvicorn.Config(self.app, log_level="warning", lifespan="off")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )

    def __enter__(self) -> BackgroundServer:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started and time.monotonic() < deadline:
            time.sleep(0.02)
        if not self.server.started:
            raise RuntimeError("the web server did not start")
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.tables.close()
        self.app.state.library.close()
        self.app.state.rooms.close()
        self.sock.close()
