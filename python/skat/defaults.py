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

KERMIT_UNOPPOSED: float | None = 0.5
"""The win probability Kermit needs instead of :data:`KERMIT_THRESHOLD` while neither opponent
has bid or held yet (``kermit:unopposed=none``: the threshold throughout). Chosen by paired
full-game tournaments (docs/bidding.md): against cautious bidders it declares more of the
games nobody else wants and gains; against bidders like itself it is level."""

DECLARE_CANDIDATES = 0
"""How many of the learned tables' best suit and grand declarations the ``kermit`` declarer
compares by open-handed search after picking up (0: the tables decide alone)."""

DECLARE_WORLDS = 30
"""Sampled defenders' hands per compared declaration (``kermit:declare=K``)."""

PARANOID_BID_NODES = 100_000
"""Search nodes the ``kermit`` bidder gives each paranoid test of a hand game (about a tenth of
a second; 0 turns the tests off): null is mostly decided by the safe-cards rule without
search, a suit or grand game is proven sure only for the strongest hands."""

SURE_GAMES_DEALS = 100
"""Random deals of ``skat research sure-games`` (three hands each)."""

KONTRA_THRESHOLD = 0.7
"""A PIMC defender says Kontra (tables with that variant) when its side wins at least this
share of the sampled worlds after its best card. Doubling pays for the defenders once they
win more than 1/3 of the games, but at the first trick PIMC's defender estimate is optimistic:
in ``skat research kontra --games 1000 --seed 1`` the defenders won 31% of the games estimated
at 0.6-0.7 and 40% of those at 0.7-0.8, and doubling from 0.7 on gained the most
(``benchmarks/RESULTS.md``)."""

RE_THRESHOLD = 0.8
"""A PIMC declarer answers a Kontra with Re when she wins at least this share of the worlds.
Her estimate is pessimistic (in the same study she won 86% of the games estimated at
0.8-0.9), but a Kontra says that a defender holds strong cards, which the study cannot
show: the threshold stays well above the 2/3 where doubling starts to pay."""

RAMSCH_WORLDS = 20
"""The most worlds a PIMC player searches per Ramsch decision (each world is one open-handed
Ramsch search, millions of nodes at the second trick, far fewer from the fourth on)."""

RAMSCH_STUDY_PLAYER = "kermit:worlds=10,unopposed=none"
"""``skat research ramsch``: the candidate (bidding by one threshold, as Kermit did)."""
RAMSCH_STUDY_DEALS = 200
"""``skat research ramsch``: deals (four games each)."""

KONTRA_STUDY_PLAYER = "kermit:worlds=10,points=false,unopposed=none"
"""``skat research kontra``: who plays the games (bidding by one threshold)."""
KONTRA_STUDY_JUDGE = "kermit:worlds=20,points=false"
"""``skat research kontra``: whose estimates are judged."""
KONTRA_STUDY_GAMES = 300
"""``skat research kontra``: self-play games."""
KONTRA_STUDY_THRESHOLDS = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
"""``skat research kontra``: thresholds valued."""

INFERENCE_SIDES = "SD"
"""Where ``kermit`` draws its worlds by card inference: as declarer (S) and defender (D)."""

INFERENCE_CANDIDATES = 2000
"""Uniform candidate worlds weighed by inference per decision (``Inference(candidates=2000)``)."""

SOFTMAXN_WORLDS = 20
"""Worlds per endgame decision of the ``softmaxn`` player (each one soft-max^n search)."""

SOFTMAXN_ENDGAME = 5
"""The ``softmaxn`` player searches soft-max^n once every hand holds at most this many cards
(a median of 0.24 million nodes for 10 worlds at 5 cards, 3.8 million at 6: soft-max^n backs
up sets of outcomes and cannot prune as alpha-beta does); before that it plays ``kermit``'s
PIMC."""

SOFTMAXN_DECLARER = "win"
"""The ``softmaxn`` declarer's own kind: ``win`` (level: win, schneider, schwarz)."""

SOFTMAXN_DEFENDER = "team"
"""The ``softmaxn`` defender's own kind: ``team`` (the declarer's level, lower is better)."""

THRESHOLD_ESTIMATE_PLAYERS = (
    "kermit:threshold=0.5",
    "mistake:rate=0.1,threshold=0.7,unopposed=none",
    "rules",
)
"""``skat research threshold-estimate``: the three bidders (the thesis's section 8.3 cases)."""
THRESHOLD_ESTIMATE_AUCTIONS = 2000
"""``skat research threshold-estimate``: auctions bid."""
THRESHOLD_ESTIMATE_TOL = 0.02
"""``skat research threshold-estimate``: how close to the truth counts as found."""

SOFTMAXN_STUDY_OBSERVER = "softmaxn:worlds=10,points=false,unopposed=none"
"""``skat research softmaxn``: the observer whose inference is judged."""
SOFTMAXN_STUDY_LINEUPS = (
    "softmaxn:declarer=points,defender=greedy,infer=false,worlds=10,points=false,unopposed=none",
    "softmaxn:declarer=win,defender=min,infer=false,worlds=10,points=false,unopposed=none",
)
"""``skat research softmaxn``: the opponents' line-ups, each of known kinds."""
SOFTMAXN_STUDY_GAMES = 100
"""``skat research softmaxn``: games per line-up."""

IIMC_WORLDS = 20
"""Top-level worlds per decision of the ``iimc`` player (``Iimc(worlds=20)``)."""

IIMC_SEED = 1
IIMC_DEALS = 10
IIMC_BIDDER = "kermit:worlds=1,threads=1,unopposed=none"
"""Who bids and declares in ``skat research iimc`` (cheap: only its auctions are used)."""
IIMC_DEFENDERS = "kermit:worlds=20,points=false"

IIMC_INNER = "pimc:worlds=10;points=false"
"""The ``iimc`` player's playout player: PIMC with 10 worlds, no card-point tie-break (a playout
needs the card only, and the tie-break costs about five times as much)."""

RK_N = 20
"""Top-level worlds of Recursive Kermit (``rk:n=20``; the thesis's RK_{160,10} is ``n=160``)."""

RK_M = 10
"""Worlds of the playout Kermit of Recursive Kermit (``rk:m=10``)."""

RK_INNER_CANDIDATES = 200
"""Candidate worlds weighed by inference per playout decision of Recursive Kermit (a playout
decision is asked many times more often than a top-level one)."""

DEFAULT_OPPONENT = "kermit:worlds=60,points=false"
"""The AI opponents' spec when none is given: the strongest player at a pace a person can wait
for (60 worlds per card, no card-point tie-break: about a second for a first-trick lead on two
cores instead of several)."""


def local_cores() -> int:
    """The local CPU count (at least 1): the default worker processes of every long command."""
    return max(1, os.cpu_count() or 1)


def threads_per_worker(workers: int) -> int:
    """Solver threads of each of ``workers`` processes sharing the local cores (at least 1)."""
    return max(1, local_cores() // workers)


def default_threads() -> int:
    """Solver threads for a new player: ``SKAT_THREADS`` if set, else the CPU count, at most
    :data:`THREADS_MAX` (so that a machine with more cores still gets a player)."""
    env = os.environ.get(THREADS_ENV, "")
    if env.strip().isdigit() and int(env) > 0:
        return min(int(env), THREADS_MAX)
    return min(local_cores(), THREADS_MAX)


# ----- play, serve, tournament -----------------------------------------------------------------

PLAY_GAMES = 3
"""Games in a ``skat play`` list: one round in which each player deals once."""

PLAY_SEAT = 0
"""The person's seat in the first game of a ``skat play`` list (forehand)."""

LANG = "en"
"""The language of the words shown to people when none is asked for (``skat play --lang``, the
web table's ``?lang=``, the score sheet and the record viewer): English."""

WATCH_PLAYERS = "rules,rules,rules"
"""The players of ``skat play --watch``."""

SERVE_HOST = "127.0.0.1"
SERVE_PORT = 0
"""0: a free port, chosen by the system and printed."""

SERVE_PACE = 0.5
"""Seconds between two AI cards in the browser."""

SERVE_DB = "skat-tables.sqlite"
"""Where ``skat serve`` saves every list (a SQLite file in the directory it runs in)."""

TOURNAMENT_DEALS = 100
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
# The PettingZoo environment's loop is tens of times slower than the Python API's: a run of
# it plays the Python API's games divided by this.
BENCH_ENV_GAMES_DIVISOR = 20
BENCH_BIDDING_HANDS = 200
BENCH_INFERENCE_POSITIONS = 100
BENCH_INFERENCE_CANDIDATES = 10_000

# ----- training and reports --------------------------------------------------------------------

TRAIN_SEED = 1
TRAIN_WORLDS = 8
"""PIMC worlds per decision in generated training games (small, to keep generation affordable)."""

ESTIMATOR_POSITIONS = 800_000
"""Positions per game class and hand size of ``skat train estimators`` (three slots each)."""

ESTIMATOR_CAP = 5.0
"""The residual cap (card points) in the gradient of the shipped "LRbdd" estimators."""

ESTIMATOR_STEPS = 300
"""Full-batch Adam steps per estimator slot."""

ESTIMATOR_HIDDEN = 64
"""Hidden width of the shipped estimator networks (one per game class; 0: per-slot linear)."""

ESTIMATOR_EPOCHS = 16
"""Passes over the training positions when fitting the estimator networks."""

ESTIMATOR_DECAY = 0.7746
"""The factor by which the estimator networks' learning rate shrinks after each pass (0.6 every
two passes)."""

KNN_THRESHOLD = 51.0
"""Open-handed card points a kind must be predicted to reach for the ``knn`` player to bid it."""

KNN_K = 25
"""Neighbours of a k-NN bidding model made by ``skat train knn``."""

KNN_DEALS = 2000
"""Labelled deals of ``skat train knn`` (15 labelled hands each)."""

SELFPLAY_PLAYERS = "kermit:worlds=10,points=false,unopposed=none"
"""The player of every seat in ``skat train selfplay``: Kermit's bidding by one threshold (the
auctions the packaged bidding model learned from), cheap PIMC card play."""

SELFPLAY_SHARD_GAMES = 1000
"""Games per shard file of a self-play run."""

SELFPLAY_CHUNK_GAMES = 50
"""Games per task handed to a worker in a self-play run."""

TRAIN_HELD_OUT = 0.2
SWEEP_PLAYER = "kermit:worlds=20,points=false,unopposed=none"
"""The candidate of ``skat research thresholds`` (one threshold, the one swept)."""

SWEEP_OPPONENTS = ("rules", "kermit:worlds=20,points=false,unopposed=none")
SWEEP_THRESHOLDS = (0.5, 0.55, 0.6, 0.65, 0.7, 0.75)
SWEEP_DEALS = 200

CURVE_SIZES = (7_000, 25_000, 50_000, 100_000, 200_000)
"""Training-set sizes of ``skat train curve``."""

CURVE_HELD_OUT = 0.1
"""Test share of ``skat train curve``."""

TRAIN_BIDDER = "kermit:worlds=1,threads=1,unopposed=none"
"""The player whose auctions the inference tables learn (by one threshold: the auctions the
packaged tables learned from)."""

TRAIN_SMOOTHING = 30.0
"""Prior weight of the inference tables' smoothing."""

REPORT_SEED = 0
REPORT_SIDES = INFERENCE_SIDES
REPORT_CANDIDATES = INFERENCE_CANDIDATES
REPORT_SOLVER_GAMES = 1000
REPORT_PIMC_GAMES = 0
REPORT_PIMC_WORLDS = 40

# ----- opponent modelling (PIPMA, mistake, tracker, count) -------------------------------------

PIPMA_TT_MB = 16
"""Transposition table of the post-mortem analysis's solver, in MB (one per game analysed)."""

ANALYZE_WORKERS = 1
"""Worker processes of ``skat analyze``."""

MISTAKE_RATE = 0.1
"""The ``mistake`` player's target mistake rate m when none is given."""

MISTAKE_TRICK_SHARES = (478, 450, 478, 516, 460, 489, 379, 290, 169, 0)
"""The ``mistake`` player's mistake opportunities in tricks 1..10, as counted by PIPMA over
1,200 games against kermit (worlds=8): the weights of its calibrated D(m)."""

TRACKER_CAP = 0.75
"""The highest bidding threshold the ``tracker`` moves to."""

COUNT_MIN_OPPORTUNITIES = 10
"""Mistake opportunities an opponent needs before the ``count`` uses its mistake rate."""

MODEL_RESET_GAMES = 36
"""Games after which the ``rm36`` variants of ``tracker`` and ``count`` forget everything."""

# ----- learning environments (skat.env, skat.openspiel) -----------------------------------------

ENV_SEED = 0
"""The seed of the PettingZoo environment's deals until ``reset(seed=...)`` gives one."""

OPENSPIEL_GAMES = 100
"""Games of ``python -m skat.openspiel`` (ISMCTS against two random bots)."""

OPENSPIEL_SIMULATIONS = 100
"""ISMCTS simulations per decision in ``python -m skat.openspiel``."""

OPENSPIEL_SEED = 1
"""The seed of ``python -m skat.openspiel``."""

# ----- research: synthetic trees, Kuhn poker, game properties (skat.research) ----------------

RESEARCH_SEED = 1
"""The seed of ``skat research synthetic`` and ``properties`` when none is given."""

CFR_TOLERANCE = 1e-4
"""The exploitability (sum of both best-response gains) at which CFR+ stops in Kuhn poker."""

SYNTHETIC_TOLERANCE = 1e-3
"""CFR+'s stopping exploitability on synthetic trees (payoffs are +-1; results move by less
than 0.001 from 1e-3 to 1e-4 at five times the time)."""

CFR_MAX_ITERATIONS = 20_000
"""The most CFR+ iterations per game."""

PIMC_TIES = "uniform"
"""How the research PIMC player splits ties between equally good actions."""

PIMC_RULE = "average"
"""How the research PIMC player scores actions over worlds (average value or vote)."""

SYNTHETIC_DEPTH = 8
"""Moves from the chance node to the leaves of a synthetic tree (the thesis's depth)."""

SYNTHETIC_WORLDS = 8
"""Private worlds per player of a synthetic tree (the thesis's W)."""

SYNTHETIC_TREES = 10
"""Trees per parameter triple of ``skat research synthetic`` (the thesis used 10,000)."""

SYNTHETIC_STEPS = 5
"""Grid points per axis of ``skat research synthetic``."""

PROPERTIES_GAMES = 100
"""Games per game type of ``skat research properties`` (the thesis used 10,000)."""

PROPERTIES_SAMPLES = 100
"""Pre-terminal samples per game of ``skat research properties`` (the thesis used 1,000)."""

PROPERTIES_ROLLOUTS = 10
"""Disambiguation rollouts per game of ``skat research properties``."""

BCD_TREES = 1000
"""Trees per grid cell of ``skat research bcd`` (the thesis used several thousand)."""

BCD_SEED = 1
"""The seed of ``skat research bcd``."""

BCD_LEVELS = 5
"""Recursion levels of ``skat research bcd``: R0 (PIMC) .. R5."""

BCD_CORR = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)
BCD_BIAS = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)
BCD_DIS = (0.0, 0.3, 0.6, 0.8)
"""The grid of ``skat research bcd``: Fig. 9.1's panels are dis 0, 0.3, 0.6 and 0.8."""

BCD_HEIGHT = 8
BCD_WORLDS = 8
"""Plies and worlds per player of a BCD tree (the thesis's 8 and 8 x 8)."""


# ----- limits ----------------------------------------------------------------------------------

WORLDS_MAX = 100_000
"""The most worlds per decision a player or benchmark accepts."""

THREADS_MAX = 256
"""The most solver threads a player or benchmark accepts (the compiled engines' limit); a
default thread count above it (``SKAT_THREADS``, the CPU count) is capped to it."""

CANDIDATES_MAX = 10_000_000
"""The most inference candidate worlds per decision accepted."""

POSITIONS_MAX = 10_000_000
"""The most positions a solver benchmark or experiment draws at once (the binding's
``skat._core.MAX_POSITIONS``: they are held together, and more would only ask for memory a
machine does not have)."""

# ----- research: soft-max^n and three-player Spades (skat.research.spades) --------------------

SPADES_CARDS = 7
"""Cards per player and hand (the paper's seven; the binding's default)."""

SPADES_TARGET = 300
"""A Spades game ends after the hand in which a score reaches this (the binding's default)."""

SPADES_MAX_HANDS = 200
"""A Spades game ends after this many hands at the latest (the binding's default)."""

SPADES_GAMES = 10
"""Seeds per row of ``skat research spades --table 2|4`` (each played in all six seatings;
the paper used 100), or hands per opponent pair with ``--table inference`` (the paper: 100)."""

SPADES_SEED = 1
"""The seed of ``skat research spades``."""

SPADES_OBSERVER = "mOT_g"
"""The player who infers the opponents' kinds in the inference experiment."""
PCUT_ERROR_PCUTS = (0.3, 0.4, 0.5, 0.6, 0.7)
"""ProbCut confidences of ``skat research pcut-error``."""

PCUT_ERROR_SCALES = (1.0, 0.8, 0.65, 0.5, 0.35, 0.2)
"""Error scales of its simulated estimators (1: the shipped estimator)."""

PCUT_ERROR_POSITIONS = 1000
"""Random 30-card positions per comparison (as ``skat bench solver --pcut``)."""

PREFIX_TREES = 100
"""Synthetic prefix-value trees searched by ``skat research prefix-trees`` (the thesis: 500)."""

PREFIX_TREES_DEPTH = 10
"""Their depth (the thesis's section 3.8: 10)."""

PREFIX_TREES_SEED = 1
"""The seed of the first tree of ``skat research prefix-trees`` (tree i uses seed + i)."""

TABLES_ENV = "SKAT_TABLES"
"""Environment variable naming the default endgame lookup-table directory (``skat tables
build``): players and the solver bench read it when no ``tables=DIR`` / ``--tables`` is given.
Unset: no tables (everything works without them)."""

TABLES_SHARD_ROWS = 4000
"""Rows per shard of a suit or grand table build (the unit of parallel work and of
resuming)."""

TABLES_NULL_SHARD_ROWS = 1_000_000
"""Rows per shard of a null table build: a null row is one search of microseconds and half a
byte, so its shards are larger (null-6: 988 shards of about 4 CPU-seconds)."""

TABLES_CHECK_POSITIONS = 10_000
"""Random positions per game class that ``skat tables check`` solves with and without the
tables (the count the exactness requirement names)."""

TABLES_SEED = 1
"""The seed of the rows ``skat tables build --estimate`` times and of the positions ``skat
tables check`` solves."""
