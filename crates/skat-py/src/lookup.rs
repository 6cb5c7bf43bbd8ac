//! Bindings of the endgame lookup tables (`skat_core::solver::lookup*`): building shards,
//! joining them, reading a directory's summary, the benchmark and the exactness check. The
//! Python side (`skat.tables`) schedules shards, keeps the progress bar and the files.

use std::path::{Path, PathBuf};

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use skat_core::solver::lookup::{self, LookupRef, CLASS_NAMES, MAX_K, MIN_K};
use skat_core::solver::lookup_build::Method;
use skat_core::solver::{lookup_bench, lookup_build, lookup_half, lookup_summary, SolverOptions};

use crate::args::{PathArg, Text};
use crate::error::{IntoPyResult, TablesError};

fn class_index(cls: &str) -> PyResult<u8> {
    lookup::class_by_name(cls).ok_or_else(|| {
        TablesError::new_err(format!(
            "unknown table class {cls:?}; classes: {}",
            CLASS_NAMES.join(", ")
        ))
    })
}

fn check_k(k: u32) -> PyResult<()> {
    if (MIN_K as u32..=MAX_K as u32).contains(&k) {
        Ok(())
    } else {
        Err(TablesError::new_err(format!(
            "cards per hand must be {MIN_K}..{MAX_K}, got {k}"
        )))
    }
}

/// The tables of a directory (read once per process).
pub fn load(dir: &Path) -> PyResult<LookupRef> {
    lookup::load_dir(dir).map_err(TablesError::new_err)
}

/// Number of rows of a class (`"suit"`, `"grand"`, `"null"`) with `k` cards per hand.
#[pyfunction]
pub fn lookup_row_count(
    py: Python<'_>,
    cls: Text,
    #[pyo3(from_py_with = "crate::args::u32_arg")] k: u32,
) -> PyResult<usize> {
    let c = class_index(&cls)?;
    check_k(k)?;
    py.allow_threads(|| lookup_build::try_row_count(c, k))
        .map_err(TablesError::new_err)
}

/// Builds rows `start..end` of a class and size (`prune`: remove redundant tentpoles;
/// `walk`: tentpoles from hard-edge walks, else greedy; `half`: store low halves where
/// smaller; `tables`: a directory of smaller null tables the null searches read); returns the
/// shard (a partial table file's bytes) and the work counters.
#[pyfunction]
#[pyo3(signature = (cls, k, start, end, prune=false, walk=true, half=true, tables=None))]
#[allow(clippy::too_many_arguments)]
pub fn lookup_build_range<'py>(
    py: Python<'py>,
    cls: Text,
    #[pyo3(from_py_with = "crate::args::u32_arg")] k: u32,
    #[pyo3(from_py_with = "crate::args::usize_arg")] start: usize,
    #[pyo3(from_py_with = "crate::args::usize_arg")] end: usize,
    prune: bool,
    walk: bool,
    half: bool,
    tables: Option<PathArg>,
) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyDict>)> {
    let c = class_index(&cls)?;
    check_k(k)?;
    let method = Method { prune, walk, half };
    let smaller = match tables {
        Some(dir) => Some(load(&dir.0)?),
        None => None,
    };
    let (bytes, st) = py
        .allow_threads(|| {
            let (table, st) = lookup_build::build_shard(c, k, start, end, method, smaller)?;
            Ok::<_, String>((table.to_bytes(), st))
        })
        .map_err(TablesError::new_err)?;
    let d = PyDict::new(py);
    d.set_item("rows", st.rows)?;
    d.set_item("valuations", st.valuations)?;
    d.set_item("tentpoles", st.tentpoles)?;
    d.set_item("half_rows", st.half_rows)?;
    d.set_item("nodes", st.nodes)?;
    Ok((PyBytes::new(py, &bytes), d))
}

/// Rows `start..end` of the complete suit or grand table file `path`, each as its low half
/// where that is smaller; returns the shard (a partial table file's bytes) and the counters
/// (rows, half_rows, tentpoles_before, tentpoles_after).
#[pyfunction]
pub fn lookup_halve_range<'py>(
    py: Python<'py>,
    path: PathArg,
    #[pyo3(from_py_with = "crate::args::usize_arg")] start: usize,
    #[pyo3(from_py_with = "crate::args::usize_arg")] end: usize,
) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyDict>)> {
    let (bytes, st) = py.allow_threads(|| {
        let (t, st) =
            lookup_half::halve_range(&path.0, start, end).map_err(TablesError::new_err)?;
        PyResult::Ok((t.to_bytes(), st))
    })?;
    let d = PyDict::new(py);
    d.set_item("rows", st.rows)?;
    d.set_item("half_rows", st.half_rows)?;
    d.set_item("tentpoles_before", st.tentpoles_before)?;
    d.set_item("tentpoles_after", st.tentpoles_after)?;
    Ok((PyBytes::new(py, &bytes), d))
}

/// Joins shard files of one class and size into the table file `out`; returns its row and
/// entry counts.
#[pyfunction]
pub fn lookup_merge(py: Python<'_>, parts: Vec<PathArg>, out: PathArg) -> PyResult<(usize, usize)> {
    let parts: Vec<PathBuf> = parts.into_iter().map(|p| p.0).collect();
    py.allow_threads(|| lookup::merge_files(&parts, &out.0))
        .map_err(TablesError::new_err)
}

/// One dict per table of a directory: class, cards per hand, rows, entries (tentpoles),
/// bytes in memory, and whether the table has every row of its class and size.
#[pyfunction]
pub fn lookup_info<'py>(py: Python<'py>, dir: PathArg) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let t = py
        .allow_threads(|| lookup_summary::summarise_dir(&dir.0))
        .map_err(TablesError::new_err)?;
    let mut out = Vec::new();
    for ct in t {
        let d = PyDict::new(py);
        d.set_item("class", CLASS_NAMES[ct.class as usize])?;
        d.set_item("cards", ct.k)?;
        d.set_item("rows", ct.rows)?;
        d.set_item("entries", ct.entries)?;
        d.set_item("memory_bytes", ct.memory_bytes)?;
        d.set_item("complete", ct.complete)?;
        out.push(d);
    }
    Ok(out)
}

/// A table file's or shard's header (`lookup_summary::FileHeader`), read without its body.
#[pyfunction]
pub fn lookup_file_header<'py>(py: Python<'py>, path: PathArg) -> PyResult<Bound<'py, PyDict>> {
    let h = lookup_summary::FileHeader::read(&path.0).map_err(TablesError::new_err)?;
    let d = PyDict::new(py);
    d.set_item("version", h.version)?;
    d.set_item("class", CLASS_NAMES[h.class as usize])?;
    d.set_item("cards", h.k)?;
    d.set_item("first", h.first)?;
    d.set_item("rows", h.rows)?;
    d.set_item("entries", h.entries)?;
    Ok(d)
}

/// The solver without and with the tables of `tables` (or, with `oracle` K > 0 instead,
/// the research oracle for trick starts with at most K cards per hand) on the benchmark's
/// random 30-card positions: one dict per class (see `skat bench solver --tables/--oracle`).
#[pyfunction]
#[pyo3(signature = (positions, seed, tables=None, oracle=0, tt_mb=32))]
pub fn lookup_benchmark<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = "crate::args::usize_arg")] positions: usize,
    #[pyo3(from_py_with = "crate::args::u64_arg")] seed: u64,
    tables: Option<PathArg>,
    #[pyo3(from_py_with = "crate::args::u8_arg")] oracle: u8,
    #[pyo3(from_py_with = "crate::args::usize_arg")] tt_mb: usize,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    if tables.is_some() == (oracle > 0) {
        return Err(TablesError::new_err(
            "give either a tables directory or an oracle size",
        ));
    }
    if oracle > 9 {
        return Err(TablesError::new_err(format!(
            "the oracle's cards per hand must be 1..9, got {oracle}"
        )));
    }
    let with = SolverOptions {
        lookup: tables.map(|t| load(&t.0)).transpose()?,
        oracle_k: oracle,
        ..crate::solver::options_from(tt_mb, None)?
    };
    let rows = py
        .allow_threads(|| lookup_bench::run(positions, seed, with))
        .py_err()?;
    let mut out = Vec::new();
    for r in rows {
        let d = PyDict::new(py);
        d.set_item("class", r.class)?;
        d.set_item("positions", r.positions)?;
        d.set_item("solve_nodes", r.solve_nodes.to_vec())?;
        d.set_item("solve_micros", r.solve_micros.to_vec())?;
        d.set_item("analyze_nodes", r.analyze_nodes.to_vec())?;
        d.set_item("analyze_micros", r.analyze_micros.to_vec())?;
        d.set_item("mismatches", r.mismatches)?;
        out.push(d);
    }
    Ok(out)
}

/// Solves `count` random positions of `class` with `k_min..=k_max` cards per hand with and
/// without the tables; returns (positions, value mismatches).
#[pyfunction]
pub fn lookup_check(
    py: Python<'_>,
    tables: PathArg,
    cls: Text,
    #[pyo3(from_py_with = "crate::args::usize_arg")] count: usize,
    #[pyo3(from_py_with = "crate::args::u64_arg")] seed: u64,
    #[pyo3(from_py_with = "crate::args::u32_arg")] k_min: u32,
    #[pyo3(from_py_with = "crate::args::u32_arg")] k_max: u32,
) -> PyResult<(usize, usize)> {
    let c = class_index(&cls)?;
    if !(1..=10).contains(&k_min) || k_min > k_max || k_max > 10 {
        return Err(TablesError::new_err(format!(
            "cards per hand must satisfy 1 <= k_min <= k_max <= 10, got {k_min}..{k_max}"
        )));
    }
    let t = load(&tables.0)?;
    Ok(py.allow_threads(|| lookup_bench::check(t, c, count, seed, k_min, k_max)))
}

/// The builder's exactness test on a sample (3 cards per hand): builds `rows` random rows of
/// `class`, then solves `positions` random valuations of them (random leader seat and trump
/// suit) with and without the table; returns a dict: positions, mismatches, rows, and the
/// nodes searched without and with the table.
#[pyfunction]
pub fn lookup_selfcheck<'py>(
    py: Python<'py>,
    cls: Text,
    #[pyo3(from_py_with = "crate::args::usize_arg")] rows: usize,
    #[pyo3(from_py_with = "crate::args::usize_arg")] positions: usize,
    #[pyo3(from_py_with = "crate::args::u64_arg")] seed: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let c = class_index(&cls)?;
    if rows == 0 {
        return Err(TablesError::new_err("rows must be at least 1"));
    }
    let r = py
        .allow_threads(|| lookup_bench::selfcheck(c, rows, positions, seed))
        .py_err()?;
    let d = PyDict::new(py);
    d.set_item("positions", r.positions)?;
    d.set_item("mismatches", r.mismatches)?;
    d.set_item("rows", r.rows)?;
    d.set_item("nodes", r.nodes.to_vec())?;
    Ok(d)
}

/// The cost of building a class and size, measured on `sample` random rows (built and
/// discarded, one thread): a dict with rows, seconds_per_row, tentpoles_per_row and
/// valuations_per_row (`prune`, `walk` and `half` as in `lookup_build_range`).
#[pyfunction]
#[pyo3(signature = (cls, k, sample, seed, prune=false, walk=true, half=true))]
#[allow(clippy::too_many_arguments)]
pub fn lookup_estimate<'py>(
    py: Python<'py>,
    cls: Text,
    #[pyo3(from_py_with = "crate::args::u32_arg")] k: u32,
    #[pyo3(from_py_with = "crate::args::usize_arg")] sample: usize,
    #[pyo3(from_py_with = "crate::args::u64_arg")] seed: u64,
    prune: bool,
    walk: bool,
    half: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let c = class_index(&cls)?;
    check_k(k)?;
    let method = Method { prune, walk, half };
    let (rows, per, poles, vals) = py
        .allow_threads(|| lookup_build::estimate(c, k, sample.max(1), seed, method))
        .map_err(TablesError::new_err)?;
    let d = PyDict::new(py);
    d.set_item("rows", rows)?;
    d.set_item("seconds_per_row", per)?;
    d.set_item("tentpoles_per_row", poles)?;
    d.set_item("valuations_per_row", vals)?;
    Ok(d)
}
