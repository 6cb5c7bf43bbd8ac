//! The open-handed (double-dummy) solver.
//!
//! # Values
//!
//! * **Suit and grand**: the declarer's final card points (0..=120, skat/discard included)
//!   under optimal play of both sides. Every position is treated as a plain card-point game:
//!   the early end of play that the game engine applies when a schwarz-announced (or ouvert)
//!   declarer loses a trick is ignored, so the value is always "how many points can she make".
//! * **Null**: the *time to live*: 0 if the declarer can avoid every trick, otherwise the number
//!   (1..=10, counted from the game's first trick) of the trick she is forced to take, she
//!   delaying it as long as possible and the defenders forcing it as early as possible.
//!   For [`reaches`] the null value is put on the *survival scale* [`null_survival`]: 11 for a
//!   win, else the losing trick's number, and `reaches(pos, t)` is `survival >= t`, i.e. "the
//!   declarer takes no trick before trick `t`" (`t = 11`: she wins the null game).
//!
//! # Search
//!
//! Fail-soft alpha-beta (the declarer maximises) driven by MTD(f) null-window probes
//! ([`search`]; after a successful probe the next tests a few points above it, so values are
//! mostly reached from above by the cheaper failing probes); a transposition table at trick
//! boundaries on marginal values ([`tt`], in 2 MB pages where Linux grants them):
//! payoff-similarity canonical keys (thesis ch. 7) for trick starts with three or more cards
//! per hand, exact keys below (16-byte entries, one cache line per key, fetched while the
//! certain-winner run is computed); move ordering with the fastest-cut-first term and
//! collapsing of equivalent cards ([`order`]); quick-trick static bounds plus unbeatable-trump
//! bounds for both sides at every trick start ([`bounds`], thesis ch. 5); direct solution of
//! the last two tricks ([`tables`]); optionally an exact small-endgame cache ([`endgame`]) and
//! precomputed endgame lookup tables ([`lookup`], built by [`lookup_build`]).
//! Every enhancement can be switched in [`SolverOptions`]; the value never changes. The one
//! inexact option, ProbCut ([`estimator`], `pcut`), is off by default.
//!
//! Per-node costs: x86-64 builds target x86-64-v2 (`.cargo/config.toml`), so `count_ones`
//! is one instruction; card points come from byte tables ([`layout::Layout::points_of`]);
//! hot paths avoid divisions (seat arithmetic, table sub-buckets); the move scores of a
//! follow share one per-node context (current winner, trick points), and the fastest-cut-first reply count is
//! computed only for leads (after the first card it is the same for every move). The
//! canonical key of a suit or grand position is unrolled for their fixed layouts, each
//! suit's code one look-up of a 16 K table indexed by the owners of its seven cards; the
//! last two tricks are solved by three nested loops (each player stopping at the best value
//! possible); trick starts live in their own out-of-line function, so that the nodes inside a
//! trick do not pay for its stack frame; suit and grand search each card of a trick in its
//! own loop (lead, second card, last card: the last card's winner and points are known
//! before it is played), each calling the next directly. None of this changes the search:
//! the node counts are those of the plain recursion (about 500 instructions per node at 30
//! cards).

pub mod bench;
pub mod bench_pcut;
pub mod bounds;
pub mod endgame;
pub mod estimator;
pub mod estimator_data;
pub mod estimator_net;
pub mod estimator_sim;
pub mod huge;
pub mod layout;
pub mod lookup;
pub mod lookup_bench;
pub mod lookup_build;
pub mod lookup_dense;
pub mod lookup_half;
pub mod lookup_merge;
pub mod lookup_summary;
#[cfg(test)]
mod lookup_tests;
mod lookup_walk;
pub mod null_rank;
pub mod order;
pub mod position;
pub mod ramsch;
pub mod search;
pub mod tables;
pub mod tt;

use std::time::Instant;

use crate::cards::Card;
use crate::error::SkatError;
use endgame::EgCache;
use estimator::ProbCut;
use estimator_sim::SharperEstimates;
use layout::Layout;
pub use position::Position;
use search::Searcher;
use tt::Tt;

/// Switches for each enhancement and the transposition-table size. All are on by default
/// except `endgame_cache` (its full-window re-searches cost more than the null-window
/// re-searches they save: +5-15% time at 30 cards), `partition_search` (5-8% fewer null
/// nodes, 5-17% more time) and `bisect`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SolverOptions {
    /// Transposition table at trick boundaries.
    pub transposition_table: bool,
    /// Payoff-similarity canonical keys with valuation distance bounds (needs the table) for
    /// trick starts with at least `similarity_min_cards` cards per hand.
    pub payoff_similarity: bool,
    /// Smallest hand size at which payoff-similarity keys are used (exact keys below; thesis
    /// ch. 7: the canonical key does not pay for small endgames). Default
    /// [`search::SIMILARITY_MIN_CARDS`].
    pub similarity_min_cards: u8,
    /// Heuristic move ordering (trick value, smearing, cashing, table move).
    pub move_ordering: bool,
    /// The fastest-cut-first term (child branching factor) in the move ordering.
    pub fastest_cut_first: bool,
    /// Search one card of each group of equivalent cards.
    pub collapse_equivalent: bool,
    /// Quick-trick static bounds (suit and grand).
    pub static_bounds: bool,
    /// Static bounds from unbeatable trumps for both sides at every trick start (needs
    /// `static_bounds`).
    pub trump_bounds: bool,
    /// Direct solution of the last two tricks.
    pub endgame_tables: bool,
    /// Lowest-winning-rank partition search in null games (thesis ch. 4; needs the table;
    /// off by default: it saves nodes but costs time here): an entry also serves positions
    /// that differ only in who holds the cards below each suit's lowest card that won a trick
    /// by rank. Null trick starts then use partition entries (relative ranks, suits sorted)
    /// instead of exact and payoff-similarity keys, and the last two tricks are searched.
    pub partition_search: bool,
    /// Exact small-endgame cache (off by default: costs time): a trick start with at most
    /// [`search::ENDGAME_CACHE_K`] cards per hand that must be searched again is solved
    /// exactly (full window) and its value kept in a dedicated table (a quarter of `tt_mb`).
    pub endgame_cache: bool,
    /// MTD(f) driver: bisect the remaining interval after the first probe (otherwise step to
    /// the fail-soft value after a failing probe and a few points above it after a
    /// successful one).
    pub bisect: bool,
    /// ProbCut forward pruning with the embedded card-point estimators ([`estimator`]; suit
    /// and grand trick starts with 4..9 cards per hand below the root): the confidence in
    /// thousandths (500: 0.5), 0 for the exact search (the default). Unlike every other
    /// option this one changes values: they become estimates.
    pub pcut: u16,
    /// With ProbCut: the width in card points of each MTD(f) probe's window (thesis ch. 7's
    /// window parameter; 1, the default: zero-window probes). A cut returns its window's end,
    /// so with zero windows ProbCut's values stick to the probe thresholds (many cards tie at
    /// the value of the card searched before them); a wider window lets a probe return a
    /// value inside it, so fewer probes, each slower, and values nearer the exact ones. The
    /// exact search always probes with zero windows.
    pub pcut_window: u8,
    /// Precomputed endgame lookup tables ([`lookup`]; `None`: none, the default): trick
    /// starts with as many cards per hand as a loaded table of the game class are looked up
    /// (exact values: the node count falls, no value changes).
    pub lookup: Option<lookup::LookupRef>,
    /// Research only (thesis Fig. 8.1): an *oracle* for trick starts with at most this many
    /// cards per hand below the root's trick (0: off, the default): their exact value comes
    /// from a separate search whose nodes are not counted, i.e. what complete lookup tables
    /// of those sizes would save in nodes (not in time: the oracle is slower than a search).
    pub oracle_k: u8,
    /// Table memory in megabytes: the transposition table and, with `endgame_cache`, the
    /// endgame cache (a quarter of it; at power-of-two sizes this is exactly the part the
    /// table's power-of-two bucket count leaves unused).
    pub tt_mb: usize,
}

impl Default for SolverOptions {
    fn default() -> SolverOptions {
        SolverOptions {
            transposition_table: true,
            payoff_similarity: true,
            similarity_min_cards: search::SIMILARITY_MIN_CARDS as u8,
            move_ordering: true,
            fastest_cut_first: true,
            collapse_equivalent: true,
            static_bounds: true,
            trump_bounds: true,
            endgame_tables: true,
            partition_search: false,
            endgame_cache: false,
            bisect: false,
            pcut: 0,
            pcut_window: 1,
            lookup: None,
            oracle_k: 0,
            tt_mb: 32,
        }
    }
}

impl SolverOptions {
    /// Everything switched off (plain alpha-beta with MTD(f)).
    pub fn plain() -> SolverOptions {
        SolverOptions {
            transposition_table: false,
            payoff_similarity: false,
            similarity_min_cards: search::SIMILARITY_MIN_CARDS as u8,
            move_ordering: false,
            fastest_cut_first: false,
            collapse_equivalent: false,
            static_bounds: false,
            trump_bounds: false,
            endgame_tables: false,
            partition_search: false,
            endgame_cache: false,
            bisect: false,
            pcut: 0,
            pcut_window: 1,
            lookup: None,
            oracle_k: 0,
            tt_mb: 1,
        }
    }
}

/// Search statistics of one call.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Nodes visited (every card played in the search, plus the root).
    pub nodes: u64,
    /// Wall-clock time in microseconds.
    pub micros: u64,
    /// Null-window probes (MTD(f) iterations, summed over moves for analyze).
    pub probes: u32,
    /// Transposition-table probes that found an entry.
    pub tt_hits: u64,
}

/// The result of [`Solver::solve`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveOutput {
    pub value: i32,
    pub stats: Stats,
}

/// The null survival scale: 11 for a won null game (TTL value 0), else the TTL value.
pub fn null_survival(ttl: i32) -> i32 {
    if ttl == 0 {
        11
    } else {
        ttl
    }
}

fn ttl_from_survival(s: i32) -> i32 {
    if s >= 11 {
        0
    } else {
        s
    }
}

/// A persistent solver: owns a transposition table that is kept between calls (entries are
/// valid for any position, so related positions profit).
pub struct Solver {
    options: SolverOptions,
    tt: Tt,
    eg: EgCache,
    probcut: Option<ProbCut>,
    /// Research only: ProbCut with a simulated better estimator, and its time when the
    /// current call started (left out of the call's time).
    sharper: Option<SharperEstimates>,
    sharper_micros0: u64,
}

/// The error of tables that cannot be allocated: `count` tables of `mb` megabytes each.
pub fn table_memory_error(mb: usize, count: usize) -> SkatError {
    SkatError::OutOfMemory(if count == 1 {
        format!("cannot allocate a {mb} MB transposition table")
    } else {
        format!("cannot allocate {count} transposition tables of {mb} MB (one per thread)")
    })
}

/// The bytes of a solver's tables of `tt_mb` megabytes (at least one), or None on overflow.
fn table_bytes(tt_mb: usize) -> Option<usize> {
    tt_mb.max(1).checked_mul(1 << 20)
}

/// Refuses `count` solvers of `options.tt_mb` megabytes each that would not fit in the
/// machine's memory together (a solver holds its own table; without the transposition table
/// and the endgame cache it holds no sizeable memory).
pub fn check_table_memory(options: &SolverOptions, count: usize) -> Result<(), SkatError> {
    if !options.transposition_table && !options.endgame_cache {
        return Ok(());
    }
    let fits = table_bytes(options.tt_mb).is_some_and(|b| huge::fits_in_memory(b, count.max(1)));
    if fits {
        Ok(())
    } else {
        Err(table_memory_error(options.tt_mb, count.max(1)))
    }
}

impl Solver {
    /// A solver with fresh tables.
    ///
    /// # Panics
    /// If the tables cannot be allocated (see [`Solver::try_new`]).
    pub fn new(options: SolverOptions) -> Solver {
        match Solver::try_new(options) {
            Ok(s) => s,
            Err(e) => panic!("{e}"),
        }
    }

    /// A solver with fresh tables of `options.tt_mb` megabytes in all, or
    /// [`SkatError::OutOfMemory`] when that memory cannot be had.
    pub fn try_new(options: SolverOptions) -> Result<Solver, SkatError> {
        let too_big = |_| table_memory_error(options.tt_mb, 1);
        let total = table_bytes(options.tt_mb)
            .ok_or(huge::AllocError)
            .map_err(too_big)?;
        let eg_bytes = if options.endgame_cache { total / 4 } else { 0 };
        let tt = if options.transposition_table {
            Tt::try_with_bytes(total - eg_bytes).map_err(too_big)?
        } else {
            Tt::tiny()
        };
        let eg = if options.endgame_cache {
            EgCache::try_with_bytes(eg_bytes).map_err(too_big)?
        } else {
            EgCache::tiny()
        };
        Ok(Solver {
            options,
            tt,
            eg,
            probcut: ProbCut::new(options.pcut),
            sharper: None,
            sharper_micros0: 0,
        })
    }

    /// A solver whose ProbCut (`options.pcut` > 0) uses a simulated estimator with `scale`
    /// (0..1) times the shipped estimator's error ([`estimator_sim`]; research only). The
    /// time it spends finding the exact values the simulation needs is left out of
    /// [`Stats::micros`]; they are kept until [`Solver::forget_exact_values`]. Holds two
    /// tables of `options.tt_mb` (the simulation's exact solver has its own):
    /// [`SkatError::OutOfMemory`] when they cannot be had.
    pub fn with_sharper_estimates(options: SolverOptions, scale: f32) -> Result<Solver, SkatError> {
        check_table_memory(&options, 2)?;
        let mut s = Solver::try_new(options)?;
        s.sharper = Some(SharperEstimates::new(scale, options)?);
        Ok(s)
    }

    /// Forgets the exact values of a simulated estimator (no-op without one).
    pub fn forget_exact_values(&mut self) {
        if let Some(s) = &mut self.sharper {
            s.forget();
        }
    }

    /// Changes the ProbCut confidence (thousandths) and, with a simulated estimator, its
    /// error scale, keeping the tables and the exact values found so far (research only: a
    /// grid of confidences and scales shares those values position by position).
    pub fn retune_probcut(&mut self, pcut: u16, scale: Option<f32>) {
        self.options.pcut = pcut;
        self.probcut = ProbCut::new(pcut);
        if let (Some(s), Some(scale)) = (&mut self.sharper, scale) {
            s.set_scale(scale);
        }
    }

    pub fn options(&self) -> &SolverOptions {
        &self.options
    }

    /// Forgets every table entry.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.eg.clear();
    }

    /// Bytes of the transposition table and the endgame cache.
    pub fn table_bytes(&self) -> usize {
        self.tt.bytes() + self.eg.bytes()
    }

    fn searcher<'s>(&'s mut self, pos: &Position) -> Searcher<'s> {
        let lay = Layout::get(pos.game_type());
        let hands = pos.hands();
        let ih = [
            lay.to_internal(hands[0]),
            lay.to_internal(hands[1]),
            lay.to_internal(hands[2]),
        ];
        let trick: Vec<u8> = pos.trick().iter().map(|&c| lay.bit(c)).collect();
        self.tt
            .set_mode(if search::partitioned(&self.options, pos.game_type()) {
                tt::MODE_PARTITION
            } else {
                tt::MODE_BOUNDS
            });
        Searcher::new(
            lay,
            &self.options,
            &mut self.tt,
            &mut self.eg,
            ih,
            &trick,
            pos.leader() as usize,
            pos.declarer() as usize,
            self.probcut,
        )
        .with_sharper_estimates(self.sharper.as_mut())
    }

    /// The start of a call: its time, and the simulated estimator's time so far.
    fn start_clock(&mut self) -> Instant {
        self.sharper_micros0 = self.sharper.as_ref().map_or(0, |s| s.micros());
        Instant::now()
    }

    fn finish(&self, start: Instant, nodes: u64, probes: u32, hits0: u64) -> Stats {
        Stats {
            nodes,
            micros: (start.elapsed().as_micros() as u64).saturating_sub(
                self.sharper.as_ref().map_or(0, |s| s.micros()) - self.sharper_micros0,
            ),
            probes,
            tt_hits: self.tt.hits - hits0,
        }
    }

    /// The exact value of the position (see the module documentation).
    pub fn solve(&mut self, pos: &Position) -> SolveOutput {
        let start = self.start_clock();
        let hits0 = self.tt.hits;
        if let Some(v) = pos.final_value() {
            return SolveOutput {
                value: v,
                stats: self.finish(start, 0, 0, hits0),
            };
        }
        let null = pos.game_type().is_null();
        let mut s = self.searcher(pos);
        let (lo, hi) = s.trivial_bounds();
        let guess = if null { hi } else { (lo + hi) / 2 };
        let (v, probes) = s.mtdf(guess);
        let nodes = s.nodes;
        let value = if null {
            ttl_from_survival(v)
        } else {
            v + pos.declarer_points() as i32
        };
        SolveOutput {
            value,
            stats: self.finish(start, nodes, probes, hits0),
        }
    }

    /// The exact value of a suit or grand position already known to lie in `[lo, hi]`
    /// (declarer's final card points), searched by MTD(f) inside those bounds starting at
    /// `guess`. Cheaper than [`Solver::solve`] when earlier tests narrowed the range; the
    /// bounds must be true (use [`Solver::reaches`] to establish them). In null the bounds
    /// are ignored and this is `solve`.
    pub fn solve_within(&mut self, pos: &Position, lo: i32, hi: i32, guess: i32) -> SolveOutput {
        if pos.game_type().is_null() || pos.final_value().is_some() {
            return self.solve(pos);
        }
        let start = self.start_clock();
        let hits0 = self.tt.hits;
        let dp = pos.declarer_points() as i32;
        let mut s = self.searcher(pos);
        let (v, probes) = s.mtdf_in(lo - dp, hi - dp, guess - dp);
        let nodes = s.nodes;
        SolveOutput {
            value: v + dp,
            stats: self.finish(start, nodes, probes, hits0),
        }
    }

    /// For each legal card of the player to move, the card whose subtree it shares (cards
    /// equivalent under the solver's collapsing rule map to one representative; without
    /// `collapse_equivalent` every card is its own). Descending card order.
    pub fn representatives(&self, pos: &Position) -> Vec<(Card, Card)> {
        if !self.options.collapse_equivalent {
            return pos.legal_cards().iter().map(|c| (c, c)).collect();
        }
        representatives(pos)
    }

    /// Whether the value reaches `target`: suit/grand `solve(pos) >= target`; null
    /// `null_survival(solve(pos)) >= target`. One null-window search.
    pub fn reaches(&mut self, pos: &Position, target: i32) -> (bool, Stats) {
        let start = self.start_clock();
        let hits0 = self.tt.hits;
        let null = pos.game_type().is_null();
        if let Some(v) = pos.final_value() {
            let ok = if null {
                null_survival(v) >= target
            } else {
                v >= target
            };
            return (ok, self.finish(start, 0, 0, hits0));
        }
        let t = if null {
            target
        } else {
            target - pos.declarer_points() as i32
        };
        let mut s = self.searcher(pos);
        let ok = s.test(t);
        let nodes = s.nodes;
        (ok, self.finish(start, nodes, 1, hits0))
    }

    /// The value after each legal card of the player to move (every legal card, equivalent
    /// ones included), in descending card order. Empty when the game is over.
    pub fn analyze(&mut self, pos: &Position) -> (Vec<(Card, i32)>, Stats) {
        let start = self.start_clock();
        let hits0 = self.tt.hits;
        if pos.is_over() {
            return (Vec::new(), self.finish(start, 0, 0, hits0));
        }
        let null = pos.game_type().is_null();
        let dp = pos.declarer_points() as i32;
        let mut s = self.searcher(pos);
        let lay = s.lay;
        let (raw, probes) = s.analyze();
        let nodes = s.nodes;
        let mut out: Vec<(Card, i32)> = raw
            .into_iter()
            .map(|(c, v)| {
                (
                    lay.card(c),
                    if null { ttl_from_survival(v) } else { v + dp },
                )
            })
            .collect();
        out.sort_by_key(|m| std::cmp::Reverse(m.0));
        (out, self.finish(start, nodes, probes, hits0))
    }
}

/// For each legal card of the player to move, the card whose subtree it shares: cards of one
/// run (same follow group, equal card points, no live card of another seat between them in
/// power) are interchangeable, with identical outcomes (trick winners and points) in every line
/// of play, so each maps to the highest card of its run. Descending card order.
pub fn representatives(pos: &Position) -> Vec<(Card, Card)> {
    let legal = pos.legal_cards();
    let lay = Layout::get(pos.game_type());
    let hands = pos.hands();
    let p = pos.to_move() as usize;
    let live = lay.to_internal(hands[0] | hands[1] | hands[2] | pos.trick_cards());
    let reps = order::representatives(lay, lay.to_internal(legal), lay.to_internal(hands[p]), live);
    let mut out: Vec<(Card, Card)> = legal
        .iter()
        .map(|c| (c, lay.card(reps[lay.bit(c) as usize])))
        .collect();
    out.sort_by_key(|m| std::cmp::Reverse(m.0));
    out
}

/// Solves one position with a fresh default solver.
pub fn solve(pos: &Position) -> i32 {
    Solver::new(SolverOptions {
        tt_mb: 16,
        ..SolverOptions::default()
    })
    .solve(pos)
    .value
}

/// `reaches` with a fresh default solver.
pub fn reaches(pos: &Position, target: i32) -> bool {
    Solver::new(SolverOptions {
        tt_mb: 16,
        ..SolverOptions::default()
    })
    .reaches(pos, target)
    .0
}

/// `analyze` with a fresh default solver.
pub fn analyze(pos: &Position) -> Vec<(Card, i32)> {
    Solver::new(SolverOptions {
        tt_mb: 16,
        ..SolverOptions::default()
    })
    .analyze(pos)
    .0
}

/// Solves many positions on `threads` threads (each with its own table of `options.tt_mb`).
/// The table is cleared before each position, so values *and* statistics (except times) do
/// not depend on the thread count. Results are in input order. [`SkatError::OutOfMemory`]
/// when the threads' tables cannot be had.
pub fn solve_many(
    positions: &[Position],
    options: SolverOptions,
    threads: usize,
) -> Result<Vec<SolveOutput>, SkatError> {
    let threads = threads.max(1).min(positions.len().max(1));
    let chunk = positions.len().div_ceil(threads).max(1);
    let used = positions.len().div_ceil(chunk);
    check_table_memory(&options, used)?;
    let mut out = vec![
        SolveOutput {
            value: 0,
            stats: Stats::default()
        };
        positions.len()
    ];
    let mut failure = None;
    std::thread::scope(|scope| {
        let handles: Vec<_> = positions
            .chunks(chunk)
            .zip(out.chunks_mut(chunk))
            .map(|(ps, os)| {
                scope.spawn(move || -> Result<(), SkatError> {
                    let mut solver = Solver::try_new(options)?;
                    for (p, o) in ps.iter().zip(os.iter_mut()) {
                        solver.clear();
                        *o = solver.solve(p);
                    }
                    Ok(())
                })
            })
            .collect();
        for h in handles {
            match h.join() {
                Ok(Ok(())) => {}
                Ok(Err(e)) => failure = Some(e),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
    });
    match failure {
        Some(e) => Err(e),
        None => Ok(out),
    }
}
