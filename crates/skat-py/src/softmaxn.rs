//! Bindings of soft-max^n card play in Skat (`skat_core::softmaxn_pimc`).

use pyo3::prelude::*;
use pyo3::types::PyDict;
use skat_core::multiplayer::skat_open::Kind;
use skat_core::softmaxn_pimc::{self, SoftOptions};

use crate::args::Text;
use crate::error::IntoPyResult;
use crate::ramsch::decision_dict;
use crate::state::PyView;

/// Soft-max^n over ``worlds`` sampled worlds for the seat to move in a suit or grand game,
/// once every hand holds at most ``endgame`` cards at a trick's start. ``kind`` is the seat's
/// own preference (``win`` or ``points`` as declarer, ``team``, ``min`` or ``greedy`` as
/// defender; default ``win``/``team``); ``infer`` rules out opponents' kinds from their cards;
/// ``generic=False`` models the opponents as PIMC does (declarer ``points``, defenders
/// ``min``), without inference.
/// Returns ``{"best": Card, "values": [(Card, mean utility), ...], "worlds": n, "nodes": n,
/// "models": [[kind, ...] per seat], "ruled_out": [(seat, kind), ...]}``.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (view, worlds, seed=0, endgame=5, kind=None, infer=true, generic=true))]
pub fn softmaxn_decide<'py>(
    py: Python<'py>,
    view: &PyView,
    #[pyo3(from_py_with = "crate::args::usize_arg")] worlds: usize,
    #[pyo3(from_py_with = "crate::args::u64_arg")] seed: u64,
    #[pyo3(from_py_with = "crate::args::u32_arg")] endgame: u32,
    kind: Option<Text>,
    infer: bool,
    generic: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let kind = kind.map(|k| Kind::parse(&k)).transpose().py_err()?;
    let options = SoftOptions {
        worlds,
        endgame,
        kind,
        infer,
        generic,
    };
    let v = view.0.clone();
    let d = py
        .allow_threads(|| softmaxn_pimc::decide(&v, &options, seed))
        .py_err()?;
    let out = decision_dict(py, d.best, &d.values, d.worlds, d.nodes)?;
    let models: Vec<Vec<&str>> = d
        .models
        .iter()
        .map(|ks| ks.iter().map(|k| k.name()).collect())
        .collect();
    out.set_item("models", models)?;
    let ruled: Vec<(u8, &str)> = d.ruled_out.iter().map(|(s, k)| (*s, k.name())).collect();
    out.set_item("ruled_out", ruled)?;
    Ok(out)
}
