//! Half rows of the endgame lookup tables (thesis ch. 8.5).
//!
//! A complete row's tentpoles bound every valuation `y` of the row from both sides, and the
//! bounds meet: `max_i (v_i + dist_lo(y, x_i)) = V(y) = min_i (v_i + dist_hi(y, x_i))` (with
//! the trivial bounds `0..points in play` taking part). Either side alone therefore determines
//! the row. The *low half* keeps a subset of the tentpoles whose best lower bound, together
//! with the trivial lower bound 0, still reaches `V(y)` for every `y`; the lookup then treats
//! that lower bound as exact ([`crate::solver::lookup::LOW_HALF`]). The walks' tentpoles are
//! mostly pairs of a walk's low and high end, so the low half keeps about half of them.
//!
//! Invariant: [`low_half`] returns a half only if every valuation it was given is reached by
//! the half's lower bounds. The values come from the full row ([`row_values`]) and exist
//! only where its bounds meet, so a row that is not complete is left as it is.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use super::layout::Layout;
use super::lookup::{ClassTable, LOW_HALF};
use super::lookup_build::{
    class_layout, rank_sets, trivial_bounds, try_rows, valuations, BuiltRow,
};
use super::search::Searcher;

/// The exact value of every valuation of a row from its full tentpoles (`vals`: every
/// valuation with its trivial bounds; the tentpoles the most useful first, so that the scan
/// is usually short); `None` if the bounds do not meet somewhere.
pub fn row_values(
    lay: &Layout,
    vals: &[(u32, i32, i32)],
    poles: &[(u32, u8)],
    run: i32,
) -> Option<Vec<i32>> {
    vals.iter()
        .map(|&(y, lo0, hi0)| {
            let (mut lo, mut hi) = (lo0, hi0);
            for &(x, v) in poles {
                let (dlo, dhi) = Searcher::dist(lay, y, x, run);
                lo = lo.max(v as i32 + dlo);
                hi = hi.min(v as i32 + dhi);
                if lo >= hi {
                    break;
                }
            }
            (lo == hi).then_some(lo)
        })
        .collect()
}

/// The row's tentpoles as stored: its low half where that is smaller (see [`low_half`]),
/// else `poles` unchanged.
pub fn halve(
    lay: &Layout,
    vals: &[(u32, i32, i32)],
    poles: Vec<(u32, u8)>,
    run: i32,
) -> Vec<(u32, u8)> {
    row_values(lay, vals, &poles, run)
        .and_then(|values| low_half(lay, vals, &values, &poles, run))
        .unwrap_or(poles)
}

/// The low half of a row's tentpoles, every value flagged [`LOW_HALF`], if it is smaller
/// than the full row. `vals`: every valuation of the row with its trivial bounds; `values`:
/// their exact values; `poles`: the full row (unflagged, the most useful first); `run`: the
/// row's trump run ([`Searcher::trump_run`]).
pub fn low_half(
    lay: &Layout,
    vals: &[(u32, i32, i32)],
    values: &[i32],
    poles: &[(u32, u8)],
    run: i32,
) -> Option<Vec<(u32, u8)>> {
    if lay.game_type.is_null() || poles.len() < 2 {
        return None;
    }
    let lower = |y: u32, j: usize| poles[j].1 as i32 + Searcher::dist(lay, y, poles[j].0, run).0;
    // the half so far; the member that reached the last valuation is tried first
    let mut half: Vec<usize> = Vec::new();
    let mut in_half = vec![false; poles.len()];
    let mut last = 0;
    for (&(y, lo0, _), &v) in vals.iter().zip(values) {
        if v == lo0 || (!half.is_empty() && lower(y, half[last]) == v) {
            continue;
        }
        if let Some(i) = half.iter().position(|&j| lower(y, j) == v) {
            last = i;
            continue;
        }
        // a tentpole outside the half that reaches the value (the full row has one)
        let j = (0..poles.len()).find(|&j| !in_half[j] && lower(y, j) == v)?;
        half.push(j);
        in_half[j] = true;
        last = half.len() - 1;
        if half.len() >= poles.len() {
            return None;
        }
    }
    if half.is_empty() {
        // the trivial lower bound is every valuation's value: one tentpole keeps the row
        half.push(0);
    }
    half.sort_unstable();
    Some(
        half.iter()
            .map(|&j| (poles[j].0, poles[j].1 | LOW_HALF))
            .collect(),
    )
}

/// Counters of a conversion to half rows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HalveStats {
    pub rows: u64,
    pub half_rows: u64,
    pub tentpoles_before: u64,
    pub tentpoles_after: u64,
}

/// The table file a conversion works on, read once per process.
static OPEN: Mutex<Option<(PathBuf, Arc<ClassTable>)>> = Mutex::new(None);

fn open(path: &Path) -> Result<Arc<ClassTable>, String> {
    let mut g = OPEN.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((p, t)) = g.as_ref() {
        if p == path {
            return Ok(t.clone());
        }
    }
    *g = None;
    let t = Arc::new(ClassTable::read_file(path)?);
    *g = Some((path.to_path_buf(), t.clone()));
    Ok(t)
}

/// Rows `start..end` (in the builder's row order) of a complete suit or grand table file,
/// each as its low half where that is smaller (rows already halved stay as they are), as a
/// partial table.
pub fn halve_range(
    path: &Path,
    start: usize,
    end: usize,
) -> Result<(ClassTable, HalveStats), String> {
    let table = open(path)?;
    let (class, k) = (table.class, table.k as u32);
    if class == 2 {
        return Err("null tables have one tentpole a row: nothing to halve".into());
    }
    let lay = class_layout(class);
    let all = try_rows(class, k)?;
    let end = end.min(all.len());
    let mut st = HalveStats::default();
    let mut out: Vec<BuiltRow> = Vec::with_capacity(end.saturating_sub(start));
    for r in &all[start.min(end)..end] {
        let row = table
            .row(r.key)
            .ok_or_else(|| format!("{}: a row is missing", path.display()))?;
        let poles = row.entries();
        st.rows += 1;
        st.tentpoles_before += poles.len() as u64;
        let after = if row.low_half() {
            poles
        } else {
            let run = Searcher::trump_run(lay, &r.hands, r.decl as usize);
            let vals = valuations(lay, class, r, &rank_sets(lay, r));
            halve(lay, &trivial_bounds(&vals), poles, run)
        };
        st.half_rows += (after[0].1 & LOW_HALF != 0) as u64;
        st.tentpoles_after += after.len() as u64;
        out.push((r.key, after));
    }
    Ok((ClassTable::from_rows(class, table.k, out), st))
}
