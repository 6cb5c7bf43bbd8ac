//! World sampling for Python: conversions only.

use pyo3::prelude::*;
use skat_core::sampling::Knowledge;

use crate::cards::{hands_tuple, PyCards};
use crate::error::IntoPyResult;
use crate::state::PyView;

type PyWorld = ((PyCards, PyCards, PyCards), PyCards);

/// `n` worlds (three hands and the skat) drawn exactly uniformly from those consistent with
/// what the view's seat knows during card play (own cards, played cards, shown voids, an ouvert
/// hand, her own discard), reproducible from `seed`.
#[pyfunction]
#[pyo3(signature = (view, n, seed=0))]
pub fn sample_worlds(
    py: Python<'_>,
    view: &PyView,
    #[pyo3(from_py_with = "crate::args::usize_arg")] n: usize,
    #[pyo3(from_py_with = "crate::args::u64_arg")] seed: u64,
) -> PyResult<Vec<PyWorld>> {
    let v = &view.0;
    let worlds = py
        .allow_threads(move || skat_core::sampling::sample_worlds(v, n, seed))
        .py_err()?;
    Ok(worlds
        .into_iter()
        .map(|w| (hands_tuple(w.hands), PyCards(w.skat)))
        .collect())
}

/// The number of worlds consistent with what the view's seat knows during card play.
#[pyfunction]
pub fn count_worlds(view: &PyView) -> PyResult<f64> {
    Ok(Knowledge::from_view(&view.0).py_err()?.deck.count())
}
