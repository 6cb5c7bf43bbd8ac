//! Perfect Information Monte Carlo card play for Python: conversions only. Decisions run with
//! the GIL released.

use pyo3::exceptions::PyOverflowError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use skat_core::pimc::{self, CardValue, Decision, Pimc, PimcOptions};
use skat_core::sampling::World;

use crate::cards::{tuple_of, world_of, CardsArg, PyCard};
use crate::error::{ArgumentError, IntoPyResult};
use crate::game::PyContract;
use crate::inference::{stats_dict, PyInference};
use crate::solver::options_from;
use crate::state::PyView;

/// One legal card's averaged value in a PIMC decision, from the deciding seat's side.
#[pyclass(name = "CardValue", module = "skat", frozen)]
#[derive(Clone)]
pub struct PyCardValue(pub CardValue);

#[pymethods]
impl PyCardValue {
    /// The card.
    #[getter]
    fn card(&self) -> PyCard {
        PyCard(self.0.card)
    }
    /// Share of the (weighted) worlds in which the seat's side wins after this card.
    #[getter]
    fn win(&self) -> f64 {
        self.0.win
    }
    /// Mean schneider tier for the seat's side (+1: it makes the other side schneider, -1: it
    /// is made schneider).
    #[getter]
    fn schneider(&self) -> f64 {
        self.0.schneider
    }
    /// Mean final card points of the declarer (null: mean number of the trick she is forced
    /// to take, 11 when she takes none).
    #[getter]
    fn points(&self) -> f64 {
        self.0.points
    }
    fn __repr__(&self) -> String {
        format!(
            "CardValue({}, win={:.3}, schneider={:+.3}, points={:.1})",
            self.0.card, self.0.win, self.0.schneider, self.0.points
        )
    }
}

/// The result of a PIMC decision: the chosen card and every legal card's value (best first).
#[pyclass(name = "PimcDecision", module = "skat", frozen)]
pub struct PyDecision(pub Decision);

#[pymethods]
impl PyDecision {
    /// The card to play.
    #[getter]
    fn best(&self) -> PyCard {
        PyCard(self.0.best)
    }
    /// Every legal card's value, best first.
    #[getter]
    fn values(&self) -> Vec<PyCardValue> {
        self.0.values.iter().map(|v| PyCardValue(*v)).collect()
    }
    /// Worlds searched.
    #[getter]
    fn worlds(&self) -> usize {
        self.0.worlds
    }
    /// Sum of the world weights (the number of worlds when sampling uniformly).
    #[getter]
    fn weight(&self) -> f64 {
        self.0.weight
    }
    /// Solver nodes in all.
    #[getter]
    fn nodes(&self) -> u64 {
        self.0.nodes
    }
    /// Wall-clock time in seconds.
    #[getter]
    fn seconds(&self) -> f64 {
        self.0.micros as f64 / 1e6
    }
    /// What inference did (candidates, nonzero, effective, fallback, distinct), or `None`
    /// when the worlds were drawn uniformly or given.
    #[getter]
    fn inference<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.0
            .inference
            .as_ref()
            .map(|s| stats_dict(py, s))
            .transpose()
    }
    fn __repr__(&self) -> String {
        format!(
            "PimcDecision(best={}, worlds={}, seconds={:.3})",
            self.0.best,
            self.0.worlds,
            self.0.micros as f64 / 1e6
        )
    }
}

/// A given world: `(hands, skat)` or `(hands, skat, weight)` (weight None: 1). A weight too
/// large for a float counts as infinite, which the core refuses like any non-finite weight.
pub struct WorldArg(pub World, pub f64);

impl<'py> FromPyObject<'py> for WorldArg {
    fn extract_bound(ob: &Bound<'py, PyAny>) -> PyResult<Self> {
        let t = tuple_of(ob, 2..=3, "a world (hands, skat) or (hands, skat, weight)")?;
        let world = world_of(&t)?;
        let weight = match t.get_item(2) {
            Err(_) => 1.0,
            Ok(w) if w.is_none() => 1.0,
            Ok(w) => match w.extract::<f64>() {
                Err(e) if e.is_instance_of::<PyOverflowError>(ob.py()) => f64::INFINITY,
                x => x?,
            },
        };
        Ok(WorldArg(world, weight))
    }
}

/// Kermit's card play: sample worlds consistent with what the seat knows, value every legal
/// card in each world with the open-handed solver (win, then schneider, then card points),
/// average and pick the best. One solver (transposition table of `tt_mb` MB) per thread,
/// kept between decisions; the solver's enhancement switches can be given by keyword as for
/// `Solver`.
///
/// >>> import skat
/// >>> game = skat.Game(skat.Deal.random(seed=7))
/// >>> for token in ["18", "p", "p", "s", "CK.CQ", "G"]:   # middlehand declares grand
/// ...     game.apply(token)
/// >>> engine = Pimc(worlds=40, threads=2)
/// >>> decision = engine.decide(game.view(game.to_move), seed=1)   # forehand leads
/// >>> decision.worlds, len(decision.values), decision.best
/// (40, 10, Card("CA"))
#[pyclass(name = "Pimc", module = "skat", frozen)]
pub struct PyPimc(Pimc);

#[pymethods]
impl PyPimc {
    #[new]
    #[pyo3(signature = (worlds=160, threads=1, points=true, tt_mb=16, seconds=None, **switches))]
    fn new(
        #[pyo3(from_py_with = "crate::args::usize_arg")] worlds: usize,
        #[pyo3(from_py_with = "crate::args::usize_arg")] threads: usize,
        points: bool,
        #[pyo3(from_py_with = "crate::args::usize_arg")] tt_mb: usize,
        seconds: Option<f64>,
        switches: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        Ok(PyPimc(
            Pimc::new(PimcOptions {
                worlds,
                seconds,
                threads,
                points,
                solver: options_from(tt_mb, switches)?,
            })
            .py_err()?,
        ))
    }

    #[getter]
    fn worlds(&self) -> usize {
        self.0.options().worlds
    }
    #[getter]
    fn threads(&self) -> usize {
        self.0.options().threads
    }
    #[getter]
    fn points(&self) -> bool {
        self.0.options().points
    }
    #[getter]
    fn seconds(&self) -> Option<f64> {
        self.0.options().seconds
    }

    /// Decides the card for `view.seat` (who must be to move in card play). Worlds are
    /// sampled uniformly from `seed`, or given as `worlds`: a list of `(hands, skat)` or
    /// `(hands, skat, weight)` where `hands` are the three hands still held and `skat` the
    /// skat or discard; or drawn by `inference` (a `skat._core.Inference`) when given.
    #[pyo3(signature = (view, seed=0, worlds=None, inference=None))]
    fn decide(
        &self,
        py: Python<'_>,
        view: &PyView,
        #[pyo3(from_py_with = "crate::args::u64_arg")] seed: u64,
        worlds: Option<Vec<WorldArg>>,
        inference: Option<&PyInference>,
    ) -> PyResult<PyDecision> {
        if let Some(inf) = inference {
            if worlds.is_some() {
                return Err(ArgumentError::new_err(
                    "give either worlds or inference, not both",
                ));
            }
            let v = &view.0;
            let d = inf
                .with(py, |i, cand| {
                    py.allow_threads(|| self.0.decide_inferred(v, seed, i, cand))
                })
                .py_err()?;
            return Ok(PyDecision(d));
        }
        let v = view.0.clone();
        let given: Option<Vec<(World, f64)>> =
            worlds.map(|list| list.into_iter().map(|w| (w.0, w.1)).collect());
        let d = py
            .allow_threads(|| match given {
                None => self.0.decide(&v, seed),
                Some(w) => self.0.decide_worlds(&v, &w),
            })
            .py_err()?;
        Ok(PyDecision(d))
    }
}

/// The card points the declarer needs to win a suit or grand game with her twelve cards at
/// `bid`: 61, or 90 / 120 when that level is announced or is the first that reaches the bid;
/// 121 when no level reaches it; 0 for null. The rule the Monte Carlo players use.
#[pyfunction]
pub fn win_threshold(
    contract: &PyContract,
    #[pyo3(from_py_with = "crate::args::u16_arg")] bid: u16,
    twelve: CardsArg,
) -> i32 {
    pimc::win_threshold(contract.0, bid, twelve.0)
}
