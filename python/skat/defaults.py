"""Every default setting in one place: players, the command line, benchmarks and training.

Player classes, the ``skat`` command's options and help texts, and the benchmark functions
read their defaults from here, so that a default is changed in exactly one place and the help
never disagrees with the code. Where the Rust binding has a default of its own (``Pimc``,
``Solver``, ``Inference``), the value here is the same (the binding is the reference: see
``crates/skat-py/src``). This module imports nothing from the package, so anything may read it.

>>> WORLDS, PIMC_TT_MB, SOLVER_TT_MB
(160, 16, 32)
"""

from __future__ import annotations

import os

# ----- players ---------------------------------------------------------------------------------

WORLDS = 160
"""PIMC worlds per card-play decision: the thesis's saturation point (``Pimc(worlds=160)``)."""

PIMC_TT_MB = 16
"""Transposition table per solver thread of a PIMC player, in MB (``Pimc(tt_mb=16)``)."""

SOLVER_TT_MB = 32
"""Transposition table of a stand-alone open-handed solver, in MB (``Solver(tt_mb=32)``,
``solver_benchmark(tt_mb=32)``)."""

TT_MB_MAX = 65536
"""The largest transposition table the core accepts, in MB (it accepts ``1 .. 65536``)."""

THREADS_ENV = "SKAT_THREADS"
"""The environment variable that sets the solver threads of new players."""

KERMIT_THRESHOLD = 0.6
"""Kermit bids while its win probability at the next bid is at least this (Kermit's B)."""

INFERENCE_SIDES = "SD"
"""Where ``kermit`` draws its worlds by card inference: as declarer (S) and defender (D)."""

INFERENCE_CANDIDATES = 2000
"""Uniform candidate worlds weighed by inference per decision (``Inference(candidates=2000)``)."""

DEFAULT_OPPONENT = "kermit:worlds=60,points=false"
"""The AI opponents' spec when none is given: the strongest player at a pace a person can wait
for (60 worlds per card, no card-point tie-break: about a second for a first-trick lead on two
cores instead of several)."""


def default_threads() -> int:
    """Solver threads for a new player: ``SKAT_THREADS`` if set, else the CPU count."""
    env = os.environ.get(THREADS_ENV, "")
    if env.strip().isdigit() and int(env) > 0:
        return int(env)
    return max(1, os.cpu_count() or 1)


# ----- play, serve, tournament -----------------------------------------------------------------

PLAY_GAMES = 3
"""Games in a ``skat play`` list: one round in which each player deals once."""

WATCH_PLAYERS = "rules,rules,rules"
"""The players of ``skat play --watch``."""

SERVE_HOST = "127.0.0.1"
SERVE_PORT = 0
"""0: a free port, chosen by the system and printed."""

SERVE_PACE = 0.5
"""Seconds between two AI cards in the browser."""

TOURNAMENT_DEALS = 100
TOURNAMENT_WORKERS = 1
TOURNAMENT_MODE = "cardplay"
TOURNAMENT_BIDDER = "rules"

# ----- benchmarks ------------------------------------------------------------------------------

BENCH_SEED = 1
BENCH_REPEAT = 5
"""Timed runs of the rules, bidding and inference benchmarks (the median is reported)."""

BENCH_SOLVER_REPEAT = 1
BENCH_SOLVER_POSITIONS = 100
BENCH_ABLATION_POSITIONS = 40
BENCH_PIMC_DEALS = 10
BENCH_PIMC_THREADS = 1
BENCH_PIMC_GAMES = 1
BENCH_RULES_GAMES = 2000
BENCH_BIDDING_HANDS = 200
BENCH_INFERENCE_POSITIONS = 100
BENCH_INFERENCE_CANDIDATES = 10_000

# ----- training and reports --------------------------------------------------------------------

TRAIN_SEED = 1
TRAIN_WORLDS = 8
"""PIMC worlds per decision in generated training games (small, to keep generation affordable)."""

TRAIN_WORKERS = 1
TRAIN_HELD_OUT = 0.2
TRAIN_BIDDER = "kermit:worlds=1,threads=1"
"""The player whose auctions the inference tables learn."""

TRAIN_SMOOTHING = 30.0
"""Prior weight of the inference tables' smoothing."""

REPORT_SEED = 0
REPORT_SIDES = INFERENCE_SIDES
REPORT_CANDIDATES = INFERENCE_CANDIDATES
REPORT_SOLVER_GAMES = 1000

# ----- limits ----------------------------------------------------------------------------------

WORLDS_MAX = 100_000
"""The most worlds per decision a player or benchmark accepts."""

THREADS_MAX = 1024
"""The most solver threads a player or benchmark accepts."""

CANDIDATES_MAX = 10_000_000
"""The most inference candidate worlds per decision accepted."""

PREFIX_TREES = 100
"""Synthetic prefix-value trees searched by ``skat research prefix-trees`` (the thesis: 500)."""

PREFIX_TREES_DEPTH = 10
"""Their depth (the thesis's section 3.8: 10)."""

PREFIX_TREES_SEED = 1
"""The seed of the first tree of ``skat research prefix-trees`` (tree i uses seed + i)."""
