//! Python classes and functions of the open-handed solver: conversions only. Searches run
//! with the GIL released.

use std::cell::RefCell;
use std::collections::HashMap;
use std::time::Instant;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use skat_core::solver::{self, bench, Position, SolverOptions, Stats};
use skat_core::{Card, Contract};

use crate::args::{text, PathArg, Text};
use crate::cards::{hands_tuple, CardArg, HandsArg, PyCard, PyCards, PyGameType};
use crate::error::{IntoPyResult, PositionError};
use crate::game::PyContract;
use crate::state::PyGame;

/// A contract given as `Contract`, its token (`"G"`, `"NO"`) or a `GameType`.
pub struct ContractArg(pub Contract);

impl<'py> FromPyObject<'py> for ContractArg {
    fn extract_bound(ob: &Bound<'py, PyAny>) -> PyResult<Self> {
        if let Ok(k) = ob.extract::<PyContract>() {
            return Ok(ContractArg(k.0));
        }
        if let Ok(g) = ob.extract::<PyGameType>() {
            return Ok(ContractArg(Contract::plain(g.into())));
        }
        if let Ok(s) = ob.downcast::<PyString>() {
            return Ok(ContractArg(Contract::parse(&text(s)?).py_err()?));
        }
        Err(PyTypeError::new_err(format!(
            "expected a Contract, a GameType or a declaration token like \"G\", got {}",
            ob.get_type().name()?
        )))
    }
}

/// A card-play position for the open-handed solver: every hand known.
///
/// `trick` holds the cards already played to the current trick, in order, led by `leader`;
/// `declarer_points` already includes the skat or the discard.
///
/// >>> p = Position(("CJ SJ", "CA CT", "SA ST"), "G", declarer=0, leader=0)
/// >>> p
/// <Position G declarer=0 leader=0 trick=[] hands=["CJ SJ", "CA CT", "SA ST"] points=0>
/// >>> solve(p)      # both tricks: CA, CT, SA, ST and the two jacks
/// 46
#[pyclass(name = "Position", module = "skat", frozen)]
#[derive(Clone)]
pub struct PyPosition(pub Position);

#[pymethods]
impl PyPosition {
    #[new]
    #[pyo3(signature = (hands, contract, declarer, leader, trick=Vec::new(), declarer_points=0, declarer_tricks=0))]
    fn new(
        hands: HandsArg,
        contract: ContractArg,
        #[pyo3(from_py_with = "crate::args::u8_arg")] declarer: u8,
        #[pyo3(from_py_with = "crate::args::u8_arg")] leader: u8,
        trick: Vec<CardArg>,
        #[pyo3(from_py_with = "crate::args::u32_arg")] declarer_points: u32,
        #[pyo3(from_py_with = "crate::args::u32_arg")] declarer_tricks: u32,
    ) -> PyResult<Self> {
        let t: Vec<Card> = trick.into_iter().map(|c| c.0).collect();
        let p = Position::new(
            hands.0,
            contract.0,
            declarer,
            leader,
            &t,
            declarer_points,
            declarer_tricks,
        )
        .py_err()?;
        Ok(PyPosition(p))
    }

    /// The position of a game in its card-play phase.
    #[staticmethod]
    fn from_game(game: &PyGame) -> PyResult<Self> {
        Ok(PyPosition(Position::from_game(&game.0).py_err()?))
    }

    #[getter]
    fn hands(&self) -> (PyCards, PyCards, PyCards) {
        hands_tuple(self.0.hands())
    }
    #[getter]
    fn contract(&self) -> PyContract {
        PyContract(self.0.contract())
    }
    #[getter]
    fn declarer(&self) -> u8 {
        self.0.declarer()
    }
    #[getter]
    fn leader(&self) -> u8 {
        self.0.leader()
    }
    #[getter]
    fn trick(&self) -> Vec<PyCard> {
        self.0.trick().into_iter().map(PyCard).collect()
    }
    #[getter]
    fn declarer_points(&self) -> u32 {
        self.0.declarer_points()
    }
    #[getter]
    fn declarer_tricks(&self) -> u32 {
        self.0.declarer_tricks()
    }
    /// The seat to play.
    #[getter]
    fn to_move(&self) -> u8 {
        self.0.to_move()
    }
    #[getter]
    fn is_over(&self) -> bool {
        self.0.is_over()
    }
    /// The cards the seat to move may play.
    fn legal_cards(&self) -> PyCards {
        PyCards(self.0.legal_cards())
    }
    /// The position after playing `card`.
    fn play(&self, card: CardArg) -> PyResult<Self> {
        Ok(PyPosition(self.0.play(card.0).py_err()?))
    }

    fn __repr__(&self) -> String {
        let h = self.0.hands();
        format!(
            "<Position {} declarer={} leader={} trick=[{}] hands=[\"{}\", \"{}\", \"{}\"] points={}>",
            self.0.contract().token(),
            self.0.declarer(),
            self.0.leader(),
            self.0.trick().iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" "),
            h[0],
            h[1],
            h[2],
            self.0.declarer_points()
        )
    }
}

/// Statistics of one solver call.
#[pyclass(name = "SearchStats", module = "skat", frozen)]
#[derive(Clone, Copy)]
pub struct PyStats(pub Stats);

#[pymethods]
impl PyStats {
    /// Nodes searched.
    #[getter]
    fn nodes(&self) -> u64 {
        self.0.nodes
    }
    /// Wall-clock time in seconds.
    #[getter]
    fn time(&self) -> f64 {
        self.0.micros as f64 / 1e6
    }
    /// Null-window probes (MTD(f) iterations).
    #[getter]
    fn probes(&self) -> u32 {
        self.0.probes
    }
    /// Transposition-table hits.
    #[getter]
    fn tt_hits(&self) -> u64 {
        self.0.tt_hits
    }
    fn __repr__(&self) -> String {
        format!(
            "SearchStats(nodes={}, time={:.6}, probes={}, tt_hits={})",
            self.0.nodes,
            self.0.micros as f64 / 1e6,
            self.0.probes,
            self.0.tt_hits
        )
    }
}

/// The switchable enhancements, by their Python keyword names.
const SWITCHES: [&str; 11] = [
    "transposition_table",
    "payoff_similarity",
    "move_ordering",
    "fastest_cut_first",
    "collapse_equivalent",
    "static_bounds",
    "trump_bounds",
    "endgame_tables",
    "partition_search",
    "endgame_cache",
    "bisect",
];

fn switch<'a>(o: &'a mut SolverOptions, name: &str) -> Option<&'a mut bool> {
    Some(match name {
        "transposition_table" => &mut o.transposition_table,
        "payoff_similarity" => &mut o.payoff_similarity,
        "partition_search" => &mut o.partition_search,
        "move_ordering" => &mut o.move_ordering,
        "fastest_cut_first" => &mut o.fastest_cut_first,
        "collapse_equivalent" => &mut o.collapse_equivalent,
        "static_bounds" => &mut o.static_bounds,
        "trump_bounds" => &mut o.trump_bounds,
        "endgame_tables" => &mut o.endgame_tables,
        "endgame_cache" => &mut o.endgame_cache,
        "bisect" => &mut o.bisect,
        _ => return None,
    })
}

/// A ProbCut confidence in [0, 1) as `SolverOptions::pcut` (thousandths).
fn pcut_thousandths(p: f64) -> PyResult<u16> {
    if !(0.0..1.0).contains(&p) {
        return Err(PositionError::new_err(format!(
            "pcut must be a confidence in [0, 1) (0: exact search), got {p}"
        )));
    }
    Ok((p * 1000.0).round() as u16)
}

/// ProbCut's MTD(f) probe window in card points, 1..=120 (`SolverOptions::pcut_window`).
fn pcut_window_arg(w: i64) -> PyResult<u8> {
    if (1..=120).contains(&w) {
        Ok(w as u8)
    } else {
        Err(PositionError::new_err(format!(
            "pcut_window must be 1..120 card points, got {w}"
        )))
    }
}

pub fn options_from(tt_mb: usize, switches: Option<&Bound<'_, PyDict>>) -> PyResult<SolverOptions> {
    if tt_mb == 0 || tt_mb > 65536 {
        return Err(PositionError::new_err(format!(
            "tt_mb must be 1..65536, got {tt_mb}"
        )));
    }
    let mut o = SolverOptions {
        tt_mb,
        ..SolverOptions::default()
    };
    if let Some(d) = switches {
        for (k, v) in d.iter() {
            let name: Text = k.extract()?;
            if &*name == "pcut" {
                o.pcut = pcut_thousandths(v.extract()?)?;
                continue;
            }
            if &*name == "pcut_window" {
                o.pcut_window = pcut_window_arg(crate::args::i64_arg(&v)?)?;
                continue;
            }
            if &*name == "tables" {
                let dir: Option<PathArg> = v.extract()?;
                o.lookup = dir.map(|d| crate::lookup::load(&d.0)).transpose()?;
                continue;
            }
            let on: bool = v.extract()?;
            match switch(&mut o, &name) {
                Some(flag) => *flag = on,
                None => {
                    let valued = "tt_mb, pcut, pcut_window, tables";
                    return Err(PyTypeError::new_err(format!(
                        "unknown solver option {name:?}; options: {valued}, {}",
                        SWITCHES.join(", ")
                    )));
                }
            }
        }
    }
    Ok(o)
}

/// A persistent open-handed solver. Its transposition table (`tt_mb` megabytes) stays warm
/// between calls; every enhancement can be switched off by keyword for measurement, e.g.
/// `Solver(payoff_similarity=False)`. `last_stats` holds the statistics of the latest call
/// of any kind (`solve`, `reaches`, `analyze`, `solve_many`). A table that cannot be
/// allocated (more memory than the machine has, or than the allocator grants) raises
/// `ArgumentError`, as do `solve_many`'s per-thread tables.
///
/// >>> solver = Solver(tt_mb=16)
/// >>> solver.solve(Position(("CJ SJ", "CA CT", "SA ST"), "G", declarer=0, leader=0))
/// 46
/// >>> solver.last_stats.nodes > 0
/// True
#[pyclass(name = "Solver", module = "skat")]
pub struct PySolver {
    inner: solver::Solver,
    last: Option<Stats>,
    last_batch: Vec<Stats>,
}

#[pymethods]
impl PySolver {
    #[new]
    #[pyo3(signature = (tt_mb=32, **switches))]
    fn new(
        #[pyo3(from_py_with = "crate::args::usize_arg")] tt_mb: usize,
        switches: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        Ok(PySolver {
            inner: solver::Solver::try_new(options_from(tt_mb, switches)?).py_err()?,
            last: None,
            last_batch: Vec::new(),
        })
    }

    /// The options as a dict (`tt_mb` and each enhancement switch).
    #[getter]
    fn options(&self) -> HashMap<String, usize> {
        let mut o = *self.inner.options();
        let mut m: HashMap<String, usize> = SWITCHES
            .iter()
            .map(|&n| {
                (
                    n.to_string(),
                    usize::from(*switch(&mut o, n).expect("known switch")),
                )
            })
            .collect();
        m.insert("tt_mb".into(), o.tt_mb);
        m
    }

    /// Statistics of the latest search call, None before the first. Every search method sets
    /// it: `solve`, `reaches` and `analyze` to the statistics of their search (`analyze`: its
    /// probes summed over the moves; a position whose play is over: 0 nodes), `solve_many` to
    /// the batch's totals (nodes, probes and table hits summed over its positions, zero for
    /// an empty batch) with the wall-clock time of the whole call. `clear` leaves it as it is.
    #[getter]
    fn last_stats(&self) -> Option<PyStats> {
        self.last.map(PyStats)
    }

    /// Per-position statistics of the latest `solve_many` call, in the order of its positions
    /// (empty before the first; `solve`, `reaches` and `analyze` leave it as it is).
    #[getter]
    fn last_batch_stats(&self) -> Vec<PyStats> {
        self.last_batch.iter().copied().map(PyStats).collect()
    }

    /// Forgets the transposition table.
    fn clear(&mut self) {
        self.inner.clear();
    }

    /// Suit and grand: the declarer's final card points under optimal play. Null: 0 if the
    /// declarer avoids every trick, else the number of the trick she is forced to take.
    fn solve(&mut self, py: Python<'_>, position: &PyPosition) -> i32 {
        let p = position.0;
        let inner = &mut self.inner;
        let out = py.allow_threads(move || inner.solve(&p));
        self.last = Some(out.stats);
        out.value
    }

    /// `solve(position) >= target` by one null-window search (null: on the survival scale,
    /// 11 = the declarer wins, t = "no trick before trick t").
    fn reaches(
        &mut self,
        py: Python<'_>,
        position: &PyPosition,
        #[pyo3(from_py_with = "crate::args::i32_arg")] target: i32,
    ) -> bool {
        let p = position.0;
        let inner = &mut self.inner;
        let (ok, stats) = py.allow_threads(move || inner.reaches(&p, target));
        self.last = Some(stats);
        ok
    }

    /// The solve value after each legal card of the player to move, as a dict.
    fn analyze<'py>(
        &mut self,
        py: Python<'py>,
        position: &PyPosition,
    ) -> PyResult<Bound<'py, PyDict>> {
        let p = position.0;
        let inner = &mut self.inner;
        let (moves, stats) = py.allow_threads(move || inner.analyze(&p));
        self.last = Some(stats);
        moves_dict(py, moves)
    }

    /// Solves many positions on `threads` threads (each with its own table of this solver's
    /// size, cleared per position so the results do not depend on the thread count; this
    /// solver's own table is not used). Sets `last_stats` to the batch's totals and
    /// `last_batch_stats` to the statistics of each position.
    #[pyo3(signature = (positions, threads=2))]
    fn solve_many(
        &mut self,
        py: Python<'_>,
        positions: Vec<PyPosition>,
        #[pyo3(from_py_with = "crate::args::usize_arg")] threads: usize,
    ) -> PyResult<Vec<i32>> {
        let ps: Vec<Position> = positions.into_iter().map(|p| p.0).collect();
        let o = *self.inner.options();
        let start = Instant::now();
        let out = py
            .allow_threads(move || solver::solve_many(&ps, o, threads))
            .py_err()?;
        let mut total = Stats::default();
        for s in out.iter().map(|o| o.stats) {
            total.nodes += s.nodes;
            total.probes += s.probes;
            total.tt_hits += s.tt_hits;
        }
        total.micros = start.elapsed().as_micros() as u64;
        self.last = Some(total);
        self.last_batch = out.iter().map(|o| o.stats).collect();
        Ok(out.into_iter().map(|o| o.value).collect())
    }
}

thread_local! {
    static DEFAULT: RefCell<Option<solver::Solver>> = const { RefCell::new(None) };
}

fn with_default<T: Send>(py: Python<'_>, f: impl FnOnce(&mut solver::Solver) -> T + Send) -> T {
    // One default solver per thread, created on first use, its table kept between calls.
    DEFAULT.with(|cell| {
        let mut slot = cell.borrow_mut();
        let s = slot.get_or_insert_with(|| {
            solver::Solver::new(SolverOptions {
                tt_mb: 16,
                ..SolverOptions::default()
            })
        });
        py.allow_threads(move || f(s))
    })
}

/// The declarer's final card points under optimal open-handed play (null: time to live).
///
/// The module-level `solve`, `reaches` and `analyze` share one hidden solver per thread and
/// keep no statistics; for node counts and times use a `Solver` and its `last_stats`.
#[pyfunction]
pub fn solve(py: Python<'_>, position: &PyPosition) -> i32 {
    let p = position.0;
    with_default(py, move |s| s.solve(&p).value)
}

/// `solve(position) >= target`, by a null-window search (no statistics kept: see `solve`).
#[pyfunction]
pub fn reaches(
    py: Python<'_>,
    position: &PyPosition,
    #[pyo3(from_py_with = "crate::args::i32_arg")] target: i32,
) -> bool {
    let p = position.0;
    with_default(py, move |s| s.reaches(&p, target).0)
}

fn moves_dict(py: Python<'_>, moves: Vec<(Card, i32)>) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    for (c, v) in moves {
        d.set_item(PyCard(c), v)?;
    }
    Ok(d)
}

/// The solve value after each legal card of the player to move, as a dict (no statistics
/// kept: see `solve`).
#[pyfunction]
pub fn analyze<'py>(py: Python<'py>, position: &PyPosition) -> PyResult<Bound<'py, PyDict>> {
    let p = position.0;
    let moves = with_default(py, move |s| s.analyze(&p).0);
    moves_dict(py, moves)
}

fn summary<'py>(py: Python<'py>, s: &bench::Summary) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("count", s.count)?;
    d.set_item("median_ms", s.median_us / 1000.0)?;
    d.set_item("mean_ms", s.mean_us / 1000.0)?;
    d.set_item("p95_ms", s.p95_us / 1000.0)?;
    d.set_item("median_nodes", s.median_nodes)?;
    d.set_item("mean_nodes", s.mean_nodes)?;
    d.set_item("p95_nodes", s.p95_nodes)?;
    Ok(d)
}

/// Runs the solver benchmark (single thread, GIL released) and returns it as a dict.
#[pyfunction]
#[pyo3(signature = (positions=100, seed=1, ablation_positions=40, tt_mb=32))]
pub fn solver_benchmark<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = "crate::args::usize_arg")] positions: usize,
    #[pyo3(from_py_with = "crate::args::u64_arg")] seed: u64,
    #[pyo3(from_py_with = "crate::args::usize_arg")] ablation_positions: usize,
    #[pyo3(from_py_with = "crate::args::usize_arg")] tt_mb: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let o = options_from(tt_mb, None)?;
    let r = py
        .allow_threads(move || bench::run(positions, seed, o, ablation_positions))
        .py_err()?;
    let d = PyDict::new(py);
    d.set_item("positions", r.positions)?;
    d.set_item("seed", r.seed)?;
    d.set_item("signature", r.signature)?;
    let rows = r
        .rows
        .iter()
        .map(|row| -> PyResult<Bound<'py, PyDict>> {
            let x = PyDict::new(py);
            x.set_item("class", row.class)?;
            x.set_item("solve", summary(py, &row.solve)?)?;
            x.set_item("reaches", summary(py, &row.reaches)?)?;
            x.set_item("analyze", summary(py, &row.analyze)?)?;
            x.set_item("worlds_per_sec", row.worlds_per_sec)?;
            Ok(x)
        })
        .collect::<PyResult<Vec<_>>>()?;
    d.set_item("classes", rows)?;
    let abl = r
        .ablations
        .iter()
        .map(|a| -> PyResult<Bound<'py, PyDict>> {
            let x = PyDict::new(py);
            x.set_item("switched_off", a.name)?;
            x.set_item("class", a.class)?;
            x.set_item("nodes", a.nodes)?;
            x.set_item("ms", a.micros as f64 / 1000.0)?;
            x.set_item("nodes_saved_pct", a.nodes_saved_pct)?;
            x.set_item("time_saved_pct", a.time_saved_pct)?;
            Ok(x)
        })
        .collect::<PyResult<Vec<_>>>()?;
    d.set_item("ablations", abl)?;
    Ok(d)
}

/// Total nodes over the fixed signature position set (identical for any thread count).
#[pyfunction]
#[pyo3(signature = (threads=1))]
pub fn solver_signature(
    py: Python<'_>,
    #[pyo3(from_py_with = "crate::args::usize_arg")] threads: usize,
) -> u64 {
    py.allow_threads(move || bench::signature_threads(threads))
}

/// Labelled training positions for the card-point estimators (`skat train estimators`):
/// `count` random start-of-trick positions of `game_class` ("suit" or "grand") with `cards`
/// cards per hand, from `seed`. Returns little-endian arrays as bytes: `features` (u32,
/// `width` per position), `role` (u8: the leader relative to the declarer), `value`, `lo`
/// and `hi` (i32: the exact remaining declarer points and the static bounds on them).
#[pyfunction]
pub fn estimator_samples<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = "crate::args::u64_arg")] seed: u64,
    #[pyo3(from_py_with = "crate::args::usize_arg")] count: usize,
    game_class: Text,
    #[pyo3(from_py_with = "crate::args::u32_arg")] cards: u32,
) -> PyResult<Bound<'py, PyDict>> {
    let class = estimator_class(&game_class)?;
    if !(1..=10).contains(&cards) {
        return Err(PositionError::new_err(format!(
            "cards per hand must be 1..10, got {cards}"
        )));
    }
    let s = py
        .allow_threads(move || solver::estimator_data::samples(seed, count, class, cards))
        .py_err()?;
    let width = s.first().map_or(0, |x| x.features.len());
    let mut feats = Vec::with_capacity(s.len() * width * 4);
    let (mut role, mut value, mut lo, mut hi) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for x in &s {
        for f in &x.features {
            feats.extend(f.to_le_bytes());
        }
        role.push(x.role);
        value.extend(x.value.to_le_bytes());
        lo.extend(x.lo.to_le_bytes());
        hi.extend(x.hi.to_le_bytes());
    }
    let d = PyDict::new(py);
    d.set_item("width", width)?;
    d.set_item("features", pyo3::types::PyBytes::new(py, &feats))?;
    d.set_item("role", pyo3::types::PyBytes::new(py, &role))?;
    d.set_item("value", pyo3::types::PyBytes::new(py, &value))?;
    d.set_item("lo", pyo3::types::PyBytes::new(py, &lo))?;
    d.set_item("hi", pyo3::types::PyBytes::new(py, &hi))?;
    Ok(d)
}

/// An estimator class by name: 0 suit, 1 grand.
fn estimator_class(name: &str) -> PyResult<u8> {
    match name {
        "suit" => Ok(0),
        "grand" => Ok(1),
        _ => Err(PositionError::new_err(format!(
            "game_class must be \"suit\" or \"grand\", got {name:?}"
        ))),
    }
}

/// The estimators' layout: feature-table length per class and the hand sizes of the slots.
#[pyfunction]
pub fn estimator_layout(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    use solver::estimator as e;
    let d = PyDict::new(py);
    d.set_item("suit_dim", e::SUIT_DIM)?;
    d.set_item("grand_dim", e::GRAND_DIM)?;
    d.set_item("min_cards", e::MIN_K)?;
    d.set_item("max_cards", e::MAX_K)?;
    d.set_item("deep_from", solver::estimator_net::DEEP_FROM)?;
    d.set_item("builtin_slots", e::builtin().slot_count())?;
    Ok(d)
}

/// Checks an estimator file (the format `skat train estimators` writes); raises on a bad one.
#[pyfunction]
pub fn check_estimators(data: &[u8]) -> PyResult<()> {
    solver::estimator::Estimator::from_bytes(data)
        .map(|_| ())
        .map_err(PositionError::new_err)
}

/// The estimates of an estimator file's model (`None`: the one embedded in the build) for slot
/// (class, cards per hand, leader role) on rows of `width` active features (little-endian u32
/// each, as `estimator_samples` gives them), unclamped; raises on a bad file, a slot without a
/// model or a feature out of range.
#[pyfunction]
#[pyo3(signature = (data, cls, cards, role, features, width))]
pub fn estimator_estimates(
    data: Option<&[u8]>,
    cls: Text,
    #[pyo3(from_py_with = "crate::args::u32_arg")] cards: u32,
    #[pyo3(from_py_with = "crate::args::usize_arg")] role: usize,
    features: &[u8],
    #[pyo3(from_py_with = "crate::args::usize_arg")] width: usize,
) -> PyResult<Vec<f32>> {
    use solver::estimator as e;
    let loaded;
    let est = match data {
        Some(bytes) => {
            loaded = e::Estimator::from_bytes(bytes).map_err(PositionError::new_err)?;
            &loaded
        }
        None => e::builtin(),
    };
    let class = estimator_class(&cls)?;
    if width == 0 || !features.len().is_multiple_of(4 * width) {
        return Err(PositionError::new_err(
            "features are not rows of the given width",
        ));
    }
    let feats: Vec<u32> = features
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    if feats.iter().any(|&f| f as usize >= e::dim(class)) {
        return Err(PositionError::new_err("a feature index is out of range"));
    }
    feats
        .chunks_exact(width)
        .map(|row| {
            est.estimate_features(class, cards, role, row)
                .map(|(v, _)| v)
                .ok_or_else(|| PositionError::new_err("the slot has no model"))
        })
        .collect()
}

/// ProbCut against the exact solver: `positions` random 30-card positions from `seed`
/// analysed by both (single thread), per class (see `skat bench solver --pcut`); with
/// `error_scale` (0..1), ProbCut uses a simulated estimator with that many times the shipped
/// error (`skat bench solver --pcut-error`); `pcut_window`: ProbCut's MTD(f) probe window
/// (`skat bench solver --pcut-window`).
#[pyfunction]
#[pyo3(signature = (positions, seed, pcut, tt_mb=32, error_scale=None, pcut_window=1))]
pub fn probcut_benchmark<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = "crate::args::usize_arg")] positions: usize,
    #[pyo3(from_py_with = "crate::args::u64_arg")] seed: u64,
    pcut: f64,
    #[pyo3(from_py_with = "crate::args::usize_arg")] tt_mb: usize,
    error_scale: Option<f64>,
    #[pyo3(from_py_with = "crate::args::i64_arg")] pcut_window: i64,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let scale = error_scale.map(error_scale_arg).transpose()?;
    let o = SolverOptions {
        pcut: benchmark_pcut(pcut)?,
        pcut_window: pcut_window_arg(pcut_window)?,
        ..options_from(tt_mb, None)?
    };
    let rows = py
        .allow_threads(move || solver::bench_pcut::run(positions, seed, o, scale))
        .py_err()?;
    pcut_rows(py, &rows)
}

/// A ProbCut benchmark's confidence: as `pcut_thousandths`, and above 0.
fn benchmark_pcut(p: f64) -> PyResult<u16> {
    match pcut_thousandths(p)? {
        0 => Err(PositionError::new_err(
            "pcut must be above 0 for this benchmark",
        )),
        t => Ok(t),
    }
}

/// A simulated estimator's error scale, in 0..1.
fn error_scale_arg(e: f64) -> PyResult<f32> {
    if (0.0..=1.0).contains(&e) {
        Ok(e as f32)
    } else {
        Err(PositionError::new_err(format!(
            "error_scale must lie in 0..1, got {e}"
        )))
    }
}

/// One comparison's class rows as dictionaries (the keys of `skat bench solver --pcut`).
fn pcut_rows<'py>(
    py: Python<'py>,
    rows: &[solver::bench_pcut::PcutRow],
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    rows.iter()
        .map(|r| {
            let x = PyDict::new(py);
            x.set_item("class", r.class)?;
            x.set_item("positions", r.positions)?;
            x.set_item("exact_worlds_per_sec", r.exact_worlds_per_sec)?;
            x.set_item("worlds_per_sec", r.worlds_per_sec)?;
            x.set_item("decision_agreement", r.decision_agreement)?;
            x.set_item("decision_loss", r.decision_loss)?;
            x.set_item("mean_abs_error", r.mean_abs_error)?;
            x.set_item("exact_nodes", r.exact_nodes)?;
            x.set_item("nodes", r.nodes)?;
            Ok(x)
        })
        .collect()
}

/// The ProbCut benchmark for every confidence of `pcuts` and, with `error_scales`, every
/// simulated error scale (configurations pcut-major), `repeat` runs each, position by position
/// so that a position's exact values serve all of them (`skat research pcut-error`):
/// `[configuration][run]` lists of class rows. `progress(positions_done)` is called after each
/// position; an exception from it (or Ctrl-C) stops the benchmark and is raised.
#[pyfunction]
#[pyo3(signature = (positions, seed, pcuts, error_scales=None, repeat=1, tt_mb=32, progress=None))]
#[allow(clippy::too_many_arguments)]
pub fn probcut_grid<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = "crate::args::usize_arg")] positions: usize,
    #[pyo3(from_py_with = "crate::args::u64_arg")] seed: u64,
    pcuts: Vec<f64>,
    error_scales: Option<Vec<f64>>,
    #[pyo3(from_py_with = "crate::args::usize_arg")] repeat: usize,
    #[pyo3(from_py_with = "crate::args::usize_arg")] tt_mb: usize,
    progress: Option<PyObject>,
) -> PyResult<Vec<Vec<Vec<Bound<'py, PyDict>>>>> {
    let cuts = pcuts
        .into_iter()
        .map(benchmark_pcut)
        .collect::<PyResult<Vec<u16>>>()?;
    let scales = error_scales
        .map(|v| {
            v.into_iter()
                .map(error_scale_arg)
                .collect::<PyResult<Vec<f32>>>()
        })
        .transpose()?;
    if repeat == 0 {
        return Err(PositionError::new_err("repeat must be at least 1"));
    }
    let o = options_from(tt_mb, None)?;
    let mut failure: Option<PyErr> = None;
    let grid = py.allow_threads(|| {
        solver::bench_pcut::run_grid(
            positions,
            seed,
            o,
            &cuts,
            scales.as_deref(),
            repeat,
            |done| {
                Python::with_gil(|py| {
                    let r = py.check_signals().and_then(|()| match &progress {
                        Some(f) => f.call1(py, (done,)).map(|_| ()),
                        None => Ok(()),
                    });
                    match r {
                        Ok(()) => true,
                        Err(e) => {
                            failure = Some(e);
                            false
                        }
                    }
                })
            },
        )
    });
    if let Some(e) = failure {
        return Err(e);
    }
    let grid = grid.py_err()?;
    grid.iter()
        .map(|runs| runs.iter().map(|rows| pcut_rows(py, rows)).collect())
        .collect()
}
