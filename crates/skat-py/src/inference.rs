//! Bindings of card inference (`skat_core::inference`): conversions only.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use skat_core::inference::{self, BidTables, Inference, InferenceStats, Sides};
use skat_core::sampling::{check_count, World, MAX_CANDIDATES};

use crate::args::Text;
use crate::bidding::PyBiddingTables;
use crate::cards::{hands_tuple, tuple_of, world_of, CardsArg, PyCard, PyCards};
use crate::error::{ArgumentError, IntoPyResult, InvalidCardsError};
use crate::state::PyView;

type PyWorld = ((PyCards, PyCards, PyCards), PyCards);
type HolderOddsOut = (Vec<(PyCard, [f64; 4], [f64; 4])>, bool);
type Draw<'py> = (Vec<(PyWorld, f64)>, Bound<'py, PyDict>);

/// The statistics of one inference draw as a dict.
pub fn stats_dict<'py>(py: Python<'py>, s: &InferenceStats) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("candidates", s.candidates)?;
    d.set_item("nonzero", s.nonzero)?;
    d.set_item("effective", s.effective)?;
    d.set_item("fallback", s.fallback)?;
    d.set_item("distinct", s.distinct)?;
    Ok(d)
}

/// Compiled inference: the auction tables (`log P(f | outcome) - log P(f)`, float32
/// little-endian, outcomes x feature values), the 10+2 evaluation for the defenders (or
/// `None`), the sides that use it (`"SD"`, `"S"`, `"D"`, `"NI"`) and the number of uniform
/// candidate worlds drawn per decision. `skat.inference` builds it from a tables file.
#[pyclass(name = "Inference", module = "skat._core", frozen)]
pub struct PyInference {
    tables: BidTables,
    model: Option<Py<PyBiddingTables>>,
    sides: Sides,
    candidates: usize,
}

impl PyInference {
    /// Runs `f` with the core inference borrowed from this object.
    pub fn with<R>(&self, py: Python<'_>, f: impl FnOnce(&Inference, usize) -> R) -> R {
        let model = self.model.as_ref().map(|m| &m.bind(py).get().0);
        let inf = Inference {
            tables: &self.tables,
            model,
            sides: self.sides,
        };
        f(&inf, self.candidates)
    }
}

/// A world to weigh: `(hands, skat)`.
pub struct WorldIn(World);

impl<'py> FromPyObject<'py> for WorldIn {
    fn extract_bound(ob: &Bound<'py, PyAny>) -> PyResult<Self> {
        let t = tuple_of(ob, 2..=2, "a world (hands, skat)")?;
        Ok(WorldIn(world_of(&t)?))
    }
}

fn worlds_from(list: Vec<WorldIn>) -> Vec<World> {
    list.into_iter().map(|w| w.0).collect()
}

#[pymethods]
impl PyInference {
    #[new]
    #[pyo3(
        signature = (log_ratio, model=None, sides=Text::from("SD"), candidates=2000),
        text_signature = "(log_ratio, model=None, sides='SD', candidates=2000)"
    )]
    fn new(
        log_ratio: Vec<u8>,
        model: Option<Py<PyBiddingTables>>,
        sides: Text,
        #[pyo3(from_py_with = "crate::args::usize_arg")] candidates: usize,
    ) -> PyResult<Self> {
        if !log_ratio.len().is_multiple_of(4) {
            return Err(InvalidCardsError::new_err(
                "inference tables: the array is not float32 data",
            ));
        }
        let floats: Vec<f32> = log_ratio
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        if candidates == 0 {
            return Err(ArgumentError::new_err("candidates must be at least 1"));
        }
        check_count("candidates", candidates, MAX_CANDIDATES).py_err()?;
        Ok(PyInference {
            tables: BidTables::new(floats).py_err()?,
            model,
            sides: Sides::parse(&sides).py_err()?,
            candidates,
        })
    }

    /// The sides that use inference: "SD", "S", "D" or "NI".
    #[getter]
    fn sides(&self) -> &'static str {
        self.sides.name()
    }
    /// Uniform candidate worlds weighted per decision.
    #[getter]
    fn candidates(&self) -> usize {
        self.candidates
    }

    /// The (unnormalised) weight of each world `(hands, skat)` for the view's seat; worlds
    /// must agree with the view, as `sample_worlds` draws them.
    fn weights(&self, py: Python<'_>, view: &PyView, worlds: Vec<WorldIn>) -> PyResult<Vec<f64>> {
        let w = worlds_from(worlds);
        let v = &view.0;
        self.with(py, |inf, _| py.allow_threads(|| inf.weights(v, &w)))
            .py_err()
    }

    /// Where the hidden cards are among `candidates` uniform candidates drawn from `seed`
    /// (those `sample_worlds(view, candidates, seed)` gives): per hidden card, the weighted
    /// and the plain share of candidates giving it to seats 0, 1, 2 and the skat; and whether
    /// every candidate weighed zero (then the weighted shares are the plain ones).
    fn holder_odds(
        &self,
        py: Python<'_>,
        view: &PyView,
        #[pyo3(from_py_with = "crate::args::usize_arg")] candidates: usize,
        #[pyo3(from_py_with = "crate::args::u64_arg")] seed: u64,
    ) -> PyResult<HolderOddsOut> {
        let v = &view.0;
        let odds = self
            .with(py, |inf, _| {
                py.allow_threads(|| inf.holder_odds(v, candidates, seed))
            })
            .py_err()?;
        let rows = odds
            .cards
            .iter()
            .zip(odds.weighted.iter().zip(&odds.uniform))
            .map(|(&c, (w, u))| (PyCard(c), *w, *u))
            .collect();
        Ok((rows, odds.fallback))
    }

    /// Draws `n` worlds by inference from `seed` (merged: `(hands, skat, weight)` with the
    /// multiplicity as weight) and the draw's statistics.
    fn sample<'py>(
        &self,
        py: Python<'py>,
        view: &PyView,
        #[pyo3(from_py_with = "crate::args::usize_arg")] n: usize,
        #[pyo3(from_py_with = "crate::args::u64_arg")] seed: u64,
    ) -> PyResult<Draw<'py>> {
        let v = &view.0;
        let (worlds, stats) = self
            .with(py, |inf, cand| {
                py.allow_threads(|| inf.sample(v, cand, n.max(1), seed))
            })
            .py_err()?;
        let out = worlds
            .into_iter()
            .map(|(w, x)| ((hands_tuple(w.hands), PyCards(w.skat)), x))
            .collect();
        Ok((out, stats_dict(py, &stats)?))
    }
}

/// The inference feature values of some cards: lengths of D H S C without jacks, the jack
/// pattern (bit 0 = DJ ... bit 3 = CJ), aces, aces and tens, kings and queens, 7-8-9.
#[pyfunction]
pub fn hand_features(cards: CardsArg) -> Vec<usize> {
    inference::hand_features(cards.0).to_vec()
}

/// Each seat's auction outcome index (see `inference_layout`), or `None`, from a view's
/// history.
#[pyfunction]
pub fn auction_outcomes(view: &PyView) -> Vec<Option<usize>> {
    inference::auction_outcomes(&view.0.history, view.0.declarer).to_vec()
}

/// The shape of the inference tables: features with their sizes and offsets, the number of
/// outcomes and bid bins.
#[pyfunction]
pub fn inference_layout(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("features", inference::FEATURES.to_vec())?;
    d.set_item("offsets", inference::FEATURE_OFFSETS.to_vec())?;
    d.set_item("feature_values", inference::FEATURE_VALUES)?;
    d.set_item("outcomes", inference::OUTCOMES)?;
    d.set_item("outcomes_per_seat", inference::OUTCOMES_PER_SEAT)?;
    d.set_item("bid_bins", inference::BID_BINS)?;
    Ok(d)
}

/// The bin (0-6) of a bid value in the inference outcomes.
#[pyfunction]
pub fn bid_bin(#[pyo3(from_py_with = "crate::args::u16_arg")] value: u16) -> usize {
    inference::bid_bin(value)
}
