//! Bindings of the Ramsch card play search (`skat_core::ramsch_pimc`).

use pyo3::prelude::*;
use pyo3::types::PyDict;
use skat_core::{ramsch_pimc, Card};

use crate::cards::PyCard;
use crate::error::IntoPyResult;
use crate::state::PyView;

/// PIMC for a Ramsch: the seat to move (``view.seat``) values each legal card over
/// ``worlds`` worlds drawn from ``seed``, each searched open-handed and paranoid (the exact
/// Ramsch score from seven cards per hand on, its own card points before); returns
/// ``{"best": Card, "values": [(Card, mean score), ...], "worlds": n, "nodes": n}``. A search
/// from the first trick visits millions of nodes per world.
#[pyfunction]
#[pyo3(signature = (view, worlds, seed=0))]
pub fn ramsch_decide<'py>(
    py: Python<'py>,
    view: &PyView,
    #[pyo3(from_py_with = "crate::args::usize_arg")] worlds: usize,
    #[pyo3(from_py_with = "crate::args::u64_arg")] seed: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let v = view.0.clone();
    let d = py
        .allow_threads(|| ramsch_pimc::decide(&v, worlds, seed))
        .py_err()?;
    decision_dict(py, d.best, &d.values, d.worlds, d.nodes)
}

/// A Monte Carlo decision as `{"best": Card, "values": [(Card, mean), ...], "worlds": n,
/// "nodes": n}`.
pub(crate) fn decision_dict<'py>(
    py: Python<'py>,
    best: Card,
    values: &[(Card, f64)],
    worlds: usize,
    nodes: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    out.set_item("best", PyCard(best))?;
    let values: Vec<(PyCard, f64)> = values.iter().map(|&(c, v)| (PyCard(c), v)).collect();
    out.set_item("values", values)?;
    out.set_item("worlds", worlds)?;
    out.set_item("nodes", nodes)?;
    Ok(out)
}
