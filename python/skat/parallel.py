"""Running independent tasks on all local cores or on a Ray cluster.

Long experiments split their work into tasks, each a picklable call ``fn(task)`` whose result
depends on the task alone (every random choice inside derives from a seed carried by the task).
:func:`run_tasks` runs them and yields ``(index, result)`` as they finish, in any order;
:func:`map_tasks` yields the results in the tasks' order. That invariant is what makes a run's
output the same on one process, on ``N`` local processes and on a cluster. Every experiment
that uses more than one process goes through these two.

- **Locally** (``ray=None``, the default): ``workers`` spawned processes (never forked: the
  Rust core's threads do not survive a fork), or the calling process itself for one worker.
  The processes share the cores: their players search with ``cores // workers`` solver
  threads (``SKAT_THREADS``) unless the environment or the initializer sets another count.
  The workers start with SIGINT blocked and then ignore it, so Ctrl-C (which a terminal sends
  to the whole process group, workers still starting up included) reaches only the caller;
  they exit by themselves when the caller is gone (killed, say), within about a second. A
  pool whose worker dies (out of memory, killed) is started again and the tasks it had not
  finished run again.
- **On Ray** (``ray="auto"`` to join the cluster this machine belongs to, ``"ray://HOST:10001"``
  for a remote one, ``"local"`` to start a private instance on this machine): each task is a
  Ray task of one CPU, at most ``workers`` in flight (default: every CPU of the cluster), and
  its players search with one solver thread (``SKAT_THREADS=1``) unless the node's environment
  or the initializer sets another count. Every
  node needs this package installed in the same version (``pip install "skat[ray]"``). Ray is
  an optional extra: nothing else in the package imports it.

``initializer(*initargs)`` runs once in each worker process before its first task (loading a
model, say); on Ray once per worker process and distinct ``(initializer, initargs)``.

>>> sorted(run_tasks(abs, [-1, 2, -3], workers=1))
[(0, 1), (1, 2), (2, 3)]
"""

from __future__ import annotations

import contextlib
import importlib
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from typing import Any, TypeVar

from skat._core import SkatError
from skat.defaults import THREADS_ENV, local_cores, threads_per_worker

T = TypeVar("T")
R = TypeVar("R")

PARENT_POLL_SECONDS = 1.0
"""How often a local worker checks that the process that started it is still there."""

RAY_LOCAL = "local"
"""The ``--ray`` address that starts a private Ray instance on this machine."""


class ParallelError(SkatError):
    """Tasks could not be run: Ray missing or unreachable, or workers dying again and again."""


def local_workers(workers: int | None) -> int:
    """The local processes ``workers`` stands for: itself, or every local core for ``None``."""
    return workers or local_cores()


def _exit_with_parent(parent: int) -> None:
    while True:
        time.sleep(PARENT_POLL_SECONDS)
        if os.getppid() != parent:
            os._exit(1)


def _worker_start(
    threads: int, initializer: Callable[..., object] | None, initargs: tuple[Any, ...]
) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # an orphaned worker would otherwise wait for tasks forever
    threading.Thread(target=_exit_with_parent, args=(os.getppid(),), daemon=True).start()
    if initializer is not None:
        initializer(*initargs)
    os.environ.setdefault(THREADS_ENV, str(threads))  # unless set: the workers share the cores


def run_tasks(
    fn: Callable[[T], R],
    tasks: Sequence[T],
    *,
    workers: int | None = None,
    ray: str | None = None,
    initializer: Callable[..., object] | None = None,
    initargs: tuple[Any, ...] = (),
) -> Iterator[tuple[int, R]]:
    """Runs ``fn`` on every task; yields ``(index, result)`` as each finishes.

    ``workers``: local processes (default: every local core), or the most Ray tasks in flight.
    An exception raised by ``fn`` propagates to the caller; the other tasks are cancelled.
    """
    if workers is not None and workers < 1:
        raise ParallelError(f"workers must be at least 1, got {workers}")
    if not tasks:
        return
    if ray is not None:
        yield from _run_ray(fn, tasks, ray, workers, initializer, initargs)
        return
    n = local_workers(workers)
    if n == 1:
        if initializer is not None:
            initializer(*initargs)
        for i, task in enumerate(tasks):
            yield i, fn(task)
        return
    yield from _run_pool(fn, tasks, n, initializer, initargs)


def _apply_chunk(fn: Callable[[T], R], chunk: Sequence[T]) -> list[R]:
    return [fn(task) for task in chunk]


def map_tasks(
    fn: Callable[[T], R],
    tasks: Sequence[T],
    *,
    workers: int | None = None,
    ray: str | None = None,
    chunksize: int = 1,
) -> Iterator[R]:
    """:func:`run_tasks`, with the results in the order of ``tasks``: each is yielded as soon
    as it and every task before it are done. ``chunksize`` tasks go to a worker at a time
    (for many small tasks).

    >>> list(map_tasks(abs, [-1, 2, -3], workers=1, chunksize=2))
    [1, 2, 3]
    """
    if chunksize < 1:
        raise ParallelError(f"chunksize must be at least 1, got {chunksize}")
    chunks = [tasks[i : i + chunksize] for i in range(0, len(tasks), chunksize)]
    ready: dict[int, list[R]] = {}
    next_chunk = 0
    for i, results in run_tasks(partial(_apply_chunk, fn), chunks, workers=workers, ray=ray):
        ready[i] = results
        while next_chunk in ready:
            yield from ready.pop(next_chunk)
            next_chunk += 1


@contextlib.contextmanager
def _sigint_blocked() -> Iterator[None]:
    """Blocks SIGINT in this thread (a Ctrl-C meanwhile arrives when the block ends)."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _run_pool(
    fn: Callable[[T], R],
    tasks: Sequence[T],
    workers: int,
    initializer: Callable[..., object] | None,
    initargs: tuple[Any, ...],
) -> Iterator[tuple[int, R]]:
    context = multiprocessing.get_context("spawn")
    pending = set(range(len(tasks)))
    restarts = 0
    while pending:
        broken = False
        size = min(workers, len(pending))
        pool = ProcessPoolExecutor(
            size,
            context,
            initializer=_worker_start,
            initargs=(threads_per_worker(size), initializer, initargs),
        )
        try:
            with _sigint_blocked():  # the workers are spawned here and inherit the mask
                futures: dict[Future[R], int] = {
                    pool.submit(fn, tasks[i]): i for i in sorted(pending)
                }
            waiting = set(futures)
            while waiting and not broken:
                done, waiting = wait(waiting, return_when=FIRST_COMPLETED)
                for fut in sorted(done, key=lambda f: futures[f]):
                    try:
                        result = fut.result()
                    except BrokenProcessPool:
                        broken = True
                        continue
                    i = futures[fut]
                    pending.discard(i)
                    yield i, result
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
        if broken:
            restarts += 1
            if restarts > len(tasks):
                raise ParallelError(f"worker processes died {restarts} times; giving up")


_RAY_READY: set[tuple[str, str]] = set()


def _ray_call(
    fn: Callable[[Any], Any],
    initializer: Callable[..., object] | None,
    initargs: tuple[Any, ...],
    task: Any,
) -> Any:
    if initializer is not None:
        key = (f"{initializer.__module__}.{initializer.__qualname__}", repr(initargs))
        if key not in _RAY_READY:
            initializer(*initargs)
            _RAY_READY.add(key)
    os.environ.setdefault(THREADS_ENV, "1")  # unless set: the task holds one CPU
    return fn(task)


def _run_ray(
    fn: Callable[[T], R],
    tasks: Sequence[T],
    address: str,
    workers: int | None,
    initializer: Callable[..., object] | None,
    initargs: tuple[Any, ...],
) -> Iterator[tuple[int, R]]:
    try:
        ray: Any = importlib.import_module("ray")  # optional, and untyped: used as Any
    except ImportError:
        raise ParallelError('--ray needs Ray: pip install "skat[ray]"') from None
    started = False
    if not ray.is_initialized():
        try:
            if address == RAY_LOCAL:
                ray.init(
                    num_cpus=local_workers(workers),
                    include_dashboard=False,
                    log_to_driver=False,
                    configure_logging=False,
                )
            else:
                ray.init(address=address, log_to_driver=False, configure_logging=False)
        except Exception as e:  # Ray raises many kinds; all mean "no cluster here"
            raise ParallelError(f"cannot start or reach Ray at {address!r}: {e}") from e
        started = True
    try:
        cap = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
        remote = ray.remote(num_cpus=1)(_ray_call)
        queue = list(range(len(tasks)))[::-1]
        running: dict[Any, int] = {}
        while queue or running:
            while queue and len(running) < cap:
                i = queue.pop()
                running[remote.remote(fn, initializer, initargs, tasks[i])] = i
            done, _ = ray.wait(list(running), num_returns=1)
            for ref in done:
                i = running.pop(ref)
                yield i, ray.get(ref)
    finally:
        if started:
            ray.shutdown()
