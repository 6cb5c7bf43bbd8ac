//! Imperfect Information Monte Carlo card play for Python: conversions only. Decisions run
//! with the GIL released.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use skat_core::iimc::{Iimc, IimcDecision, IimcOptions, IimcValue, Playout};
use skat_core::pimc::PimcOptions;

use crate::cards::PyCard;
use crate::error::IntoPyResult;
use crate::inference::{stats_dict, PyInference};
use crate::solver::options_from;
use crate::state::PyView;

/// One legal card's mean playout value in an IIMC decision, from the deciding seat's side.
#[pyclass(name = "IimcValue", module = "skat", frozen)]
#[derive(Clone)]
pub struct PyIimcValue(pub IimcValue);

#[pymethods]
impl PyIimcValue {
    /// The card.
    #[getter]
    fn card(&self) -> PyCard {
        PyCard(self.0.card)
    }
    /// Weighted mean Seeger-Fabian score of the declarer over the playouts, with the sign of
    /// the seat's side (declarer +, defenders -).
    #[getter]
    fn score(&self) -> f64 {
        self.0.score
    }
    /// Weighted share of the playouts the seat's side won.
    #[getter]
    fn win(&self) -> f64 {
        self.0.win
    }
    fn __repr__(&self) -> String {
        format!(
            "IimcValue({}, score={:+.2}, win={:.3})",
            self.0.card, self.0.score, self.0.win
        )
    }
}

/// The result of an IIMC decision: the chosen card and every legal card's value (best first).
#[pyclass(name = "IimcDecision", module = "skat", frozen)]
pub struct PyIimcDecision(pub IimcDecision);

#[pymethods]
impl PyIimcDecision {
    /// The card to play.
    #[getter]
    fn best(&self) -> PyCard {
        PyCard(self.0.best)
    }
    /// Every legal card's value, best first.
    #[getter]
    fn values(&self) -> Vec<PyIimcValue> {
        self.0.values.iter().map(|v| PyIimcValue(*v)).collect()
    }
    /// Top-level worlds played out (0 when only one card was legal).
    #[getter]
    fn worlds(&self) -> usize {
        self.0.worlds
    }
    /// Sum of the top-level world weights.
    #[getter]
    fn weight(&self) -> f64 {
        self.0.weight
    }
    /// Games played out at the top level.
    #[getter]
    fn playouts(&self) -> u64 {
        self.0.playouts
    }
    /// Playout decisions asked of the playout player (forced cards not counted).
    #[getter]
    fn decisions(&self) -> u64 {
        self.0.decisions
    }
    /// Playout decisions answered from the information-set cache.
    #[getter]
    fn cache_hits(&self) -> u64 {
        self.0.cache_hits
    }
    /// Wall-clock time in seconds.
    #[getter]
    fn seconds(&self) -> f64 {
        self.0.micros as f64 / 1e6
    }
    /// What the top level's inference did, or `None` when its worlds were drawn uniformly.
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
            "IimcDecision(best={}, worlds={}, playouts={}, seconds={:.3})",
            self.0.best,
            self.0.worlds,
            self.0.playouts,
            self.0.micros as f64 / 1e6
        )
    }
}

/// Recursive Monte Carlo card play (IIMC): every legal card is valued by finishing the game in
/// `worlds` sampled worlds, the seat to move at every later card choosing from its own view
/// only. `inner` lists the worlds of the playout player's levels, outermost first: `[10]` is
/// PIMC with 10 worlds (R1), `[4, 10]` an IIMC with 4 worlds over PIMC with 10 (R2). The
/// playout PIMC uses `points` and `tt_mb` (and the solver switches given by keyword). A
/// decision given an `Inference` draws the top-level worlds by it when `top_inference`, and
/// every playout level's when `inner_inference` (`inner_candidates` candidate worlds per
/// playout decision, 0: the inference's own). `threads` play out (world, card) pairs in
/// parallel; `seconds` is an optional time budget per decision.
///
/// >>> import skat
/// >>> game = skat.Game(skat.Deal.random(seed=7))
/// >>> for token in ["18", "p", "p", "s", "CK.CQ", "G"]:   # middlehand declares grand
/// ...     game.apply(token)
/// >>> for _ in range(24):                                 # eight tricks, first cards
/// ...     game.apply(game.legal_actions()[0])
/// >>> engine = Iimc(worlds=4, inner=[3])
/// >>> decision = engine.decide(game.view(game.to_move), seed=1)
/// >>> decision.worlds, decision.playouts == 4 * len(decision.values)
/// (4, True)
#[pyclass(name = "Iimc", module = "skat", frozen)]
pub struct PyIimc(Iimc);

#[pymethods]
impl PyIimc {
    #[new]
    #[pyo3(signature = (
        worlds=20, inner=vec![10], threads=1, seconds=None, points=false, tt_mb=16,
        top_inference=true, inner_inference=false, inner_candidates=0, **switches
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        #[pyo3(from_py_with = "crate::args::usize_arg")] worlds: usize,
        #[pyo3(from_py_with = "crate::args::usize_list_arg")] inner: Vec<usize>,
        #[pyo3(from_py_with = "crate::args::usize_arg")] threads: usize,
        seconds: Option<f64>,
        points: bool,
        #[pyo3(from_py_with = "crate::args::usize_arg")] tt_mb: usize,
        top_inference: bool,
        inner_inference: bool,
        #[pyo3(from_py_with = "crate::args::usize_arg")] inner_candidates: usize,
        switches: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let pimc = PimcOptions {
            points,
            solver: options_from(tt_mb, switches)?,
            ..PimcOptions::default()
        };
        Ok(PyIimc(
            Iimc::new(IimcOptions {
                worlds,
                seconds,
                threads,
                inference: top_inference,
                playout: Playout {
                    worlds: inner,
                    pimc,
                    inference: inner_inference,
                    candidates: inner_candidates,
                },
            })
            .py_err()?,
        ))
    }

    #[getter]
    fn worlds(&self) -> usize {
        self.0.options().worlds
    }
    #[getter]
    fn inner(&self) -> Vec<usize> {
        self.0.options().playout.worlds.clone()
    }
    #[getter]
    fn threads(&self) -> usize {
        self.0.options().threads
    }
    #[getter]
    fn seconds(&self) -> Option<f64> {
        self.0.options().seconds
    }
    #[getter]
    fn points(&self) -> bool {
        self.0.options().playout.pimc.points
    }

    /// Decides the card for `view.seat` (who must be to move in card play), worlds drawn from
    /// `seed` (uniformly, or by `inference` as the constructor's flags say).
    #[pyo3(signature = (view, seed=0, inference=None))]
    fn decide(
        &self,
        py: Python<'_>,
        view: &PyView,
        #[pyo3(from_py_with = "crate::args::u64_arg")] seed: u64,
        inference: Option<&PyInference>,
    ) -> PyResult<PyIimcDecision> {
        let v = &view.0;
        let d = match inference {
            Some(inf) => inf.with(py, |i, cand| {
                py.allow_threads(|| self.0.decide(v, seed, Some((i, cand))))
            }),
            None => py.allow_threads(|| self.0.decide(v, seed, None)),
        }
        .py_err()?;
        Ok(PyIimcDecision(d))
    }
}
