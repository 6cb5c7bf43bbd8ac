//! Bindings of the solver thesis's stand-alone experiments ([`skat_core::research`]).

use crate::error::{IntoPyResult, SkatError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use skat_core::research::experiment::run_tree;
use skat_core::research::fcf_solver::fcf_ablation;
use skat_core::research::prefix_trees::TreeParams;

/// One synthetic prefix-value tree of `seed` searched by NegaScout and MTD(f) with iterative
/// deepening, each with and without fastest-cut-first ordering: a dict of node counts
/// (`negascout`, `negascout_fcf`, `mtdf`, `mtdf_fcf`) and the minimum proof size
/// (`min_proof`). Every search is checked to return the tree's exact value.
#[pyfunction]
#[pyo3(signature = (seed, depth=10, min_branch=4, max_branch=12, max_damage=6, max_error=4))]
pub fn prefix_tree_figures<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = "crate::args::u64_arg")] seed: u64,
    #[pyo3(from_py_with = "crate::args::u8_arg")] depth: u8,
    #[pyo3(from_py_with = "crate::args::u8_arg")] min_branch: u8,
    #[pyo3(from_py_with = "crate::args::u8_arg")] max_branch: u8,
    #[pyo3(from_py_with = "crate::args::i32_arg")] max_damage: i32,
    #[pyo3(from_py_with = "crate::args::i32_arg")] max_error: i32,
) -> PyResult<Bound<'py, PyDict>> {
    if !(1..=12).contains(&depth)
        || min_branch < 1
        || min_branch > max_branch
        || max_branch > 32
        || !(0..=100).contains(&max_damage)
        || !(0..=100).contains(&max_error)
    {
        return Err(SkatError::new_err(
            "need 1 <= depth <= 12, 1 <= min_branch <= max_branch <= 32, damage and error 0..=100",
        ));
    }
    let params = TreeParams {
        depth,
        min_branch,
        max_branch,
        max_damage,
        max_error,
    };
    let f = py.allow_threads(move || run_tree(params, seed));
    let d = PyDict::new(py);
    d.set_item("min_proof", f.min_proof)?;
    d.set_item("negascout", f.negascout)?;
    d.set_item("negascout_fcf", f.negascout_fcf)?;
    d.set_item("mtdf", f.mtdf)?;
    d.set_item("mtdf_fcf", f.mtdf_fcf)?;
    Ok(d)
}

/// Nodes of the Skat solver's `solve` on `positions` random 30-card positions (those of
/// `skat bench solver` for `seed`) with the fastest-cut-first ordering term on and off:
/// `{class: {"positions", "nodes_on", "nodes_off"}}` for suit, grand and null.
#[pyfunction]
#[pyo3(signature = (positions, seed=1))]
pub fn fcf_solver_ablation<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = "crate::args::usize_arg")] positions: usize,
    #[pyo3(from_py_with = "crate::args::u64_arg")] seed: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let r = py
        .allow_threads(move || fcf_ablation(positions, seed, || {}))
        .py_err()?;
    let d = PyDict::new(py);
    for (class, t) in r {
        let row = PyDict::new(py);
        row.set_item("positions", t.positions)?;
        row.set_item("nodes_on", t.nodes_on)?;
        row.set_item("nodes_off", t.nodes_off)?;
        d.set_item(class, row)?;
    }
    Ok(d)
}
