//! Measuring the endgame lookup tables against the table-free solver.
//!
//! * [`run`]: the benchmark's random 30-card positions ([`super::bench::positions`]) solved
//!   and analysed with and without tables (or with the research oracle, which gives the
//!   nodes complete tables of a size would save), the order alternating position by position
//!   ([`super::bench::paired`]); per class the nodes and the time of each. Values must agree
//!   (a mismatch is counted, never hidden).
//! * [`check`]: random positions with few cards per hand
//!   ([`super::bench::random_position`]), solved with and without tables: the exactness test.

use super::bench::{
    check_positions, class_index, paired, positions, random_game_type, random_position, CLASSES,
};
use super::layout::Layout;
use super::lookup::{leak, ClassTable, LookupRef, LookupTables, MIN_K};
use super::lookup_build::{candidates, class_layout, revalue, try_rows, Builder, RowSpec};
use super::{check_table_memory, Position, Solver, SolverOptions};
use crate::rng::Rng;
use crate::rules::Contract;
use crate::SkatError;

/// One class's comparison over the benchmark positions.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LookupRow {
    pub class: &'static str,
    pub positions: usize,
    /// `solve` and `analyze`: nodes and microseconds without / with tables.
    pub solve_nodes: [u64; 2],
    pub solve_micros: [u64; 2],
    pub analyze_nodes: [u64; 2],
    pub analyze_micros: [u64; 2],
    /// Positions where a value differed (must be 0).
    pub mismatches: usize,
}

/// Compares the default solver (`tt_mb` of table) with the solver of `with` (lookup tables,
/// or the research oracle) on `n` benchmark positions from `seed`.
/// [`SkatError::OutOfMemory`] when the two solvers' tables cannot be had.
pub fn run(n: usize, seed: u64, with: SolverOptions) -> Result<Vec<LookupRow>, SkatError> {
    let base = SolverOptions {
        tt_mb: with.tt_mb,
        ..SolverOptions::default()
    };
    check_positions("positions", n)?;
    check_table_memory(&base, 2)?;
    let mut solvers = [Solver::try_new(base)?, Solver::try_new(with)?];
    let mut rows: Vec<LookupRow> = CLASSES
        .iter()
        .map(|&class| LookupRow {
            class,
            ..LookupRow::default()
        })
        .collect();
    for (i, p) in positions(n, seed).iter().enumerate() {
        let r = &mut rows[class_index(p.game_type())];
        r.positions += 1;
        let s = paired(&mut solvers, i, |s| s.solve(p));
        let a = paired(&mut solvers, i, |s| s.analyze(p));
        if s[0].value != s[1].value || a[0].0 != a[1].0 {
            r.mismatches += 1;
        }
        for j in 0..2 {
            r.solve_nodes[j] += s[j].stats.nodes;
            r.solve_micros[j] += s[j].stats.micros;
            r.analyze_nodes[j] += a[j].1.nodes;
            r.analyze_micros[j] += a[j].1.micros;
        }
    }
    Ok(rows)
}

/// Solves `count` random positions of `class`, with hand sizes cycling through
/// `k_min..=k_max`, with and without `tables`; returns (positions, value mismatches).
pub fn check(
    tables: LookupRef,
    class: u8,
    count: usize,
    seed: u64,
    k_min: u32,
    k_max: u32,
) -> (usize, usize) {
    let mut rng = Rng::new(seed);
    let [mut plain, mut with] = checking_solvers(tables);
    let mut bad = 0;
    for i in 0..count {
        let k = k_min + (i as u32) % (k_max - k_min + 1);
        let p = random_position(&mut rng, class, k);
        plain.clear();
        with.clear();
        if plain.solve(&p).value != with.solve(&p).value {
            bad += 1;
        }
    }
    (count, bad)
}

/// The two solvers of the exactness checks: without and with `tables` (small tables of
/// their own: the positions are small).
fn checking_solvers(tables: LookupRef) -> [Solver; 2] {
    let base = SolverOptions {
        tt_mb: 4,
        ..SolverOptions::default()
    };
    [
        Solver::new(base),
        Solver::new(SolverOptions {
            lookup: Some(tables),
            ..base
        }),
    ]
}

/// The exactness test of the table builder on a sample: builds `nrows` random rows of
/// `class` with 3 cards per hand into an in-memory table, then solves `npos` positions, each
/// a random valuation of a random built row with a random leader seat (and trump suit), with
/// and without the table. Returns (positions, value mismatches, rows built) and the nodes
/// searched without and with the table; an error for more than [`MAX_POSITIONS`](crate::solver::bench::MAX_POSITIONS) rows.
pub fn selfcheck(class: u8, nrows: usize, npos: usize, seed: u64) -> Result<SelfCheck, SkatError> {
    check_positions("rows", nrows)?;
    let k = MIN_K as u32;
    let mut rng = Rng::new(seed);
    let all = try_rows(class, k).map_err(SkatError::OutOfMemory)?;
    let mut picked: Vec<RowSpec> = (0..nrows)
        .map(|_| all[rng.below(all.len() as u64) as usize])
        .collect();
    picked.sort_unstable_by_key(|r| r.key);
    picked.dedup_by_key(|r| r.key);
    let mut b = Builder::new();
    let built = picked
        .iter()
        .map(|r| (r.key, b.build_row(class, r)))
        .collect();
    let table = LookupTables::from_tables(vec![ClassTable::from_rows(class, k as u8, built)])
        .expect("one table of the smallest size");
    let tables = leak(table);
    let [mut plain, mut with] = checking_solvers(tables);
    let lay = class_layout(class);
    let mut out = SelfCheck {
        positions: npos,
        rows: picked.len(),
        ..SelfCheck::default()
    };
    for _ in 0..npos {
        let r = &picked[rng.below(picked.len() as u64) as usize];
        let all_cards = r.hands[0] | r.hands[1] | r.hands[2];
        let sets: Vec<u32> = (0..lay.ngroups)
            .map(|g| {
                let c = candidates(lay, g, (all_cards & lay.group_mask[g]).count_ones());
                c[rng.below(c.len() as u64) as usize]
            })
            .collect();
        let rot = revalue(lay, &r.hands, &sets);
        let leader = rng.below(3) as usize;
        let gt = random_game_type(&mut rng, class);
        let glay = Layout::get(gt);
        let mut hands = [crate::cards::Cards::EMPTY; 3];
        for (j, &h) in rot.iter().enumerate() {
            hands[(leader + j) % 3] = glay.to_external(h);
        }
        let decl = ((leader + r.decl as usize) % 3) as u8;
        let p = Position::new(hands, Contract::plain(gt), decl, leader as u8, &[], 0, 0)
            .expect("a valid position");
        plain.clear();
        with.clear();
        let (a, b) = (plain.solve(&p), with.solve(&p));
        out.mismatches += (a.value != b.value) as usize;
        out.nodes[0] += a.stats.nodes;
        out.nodes[1] += b.stats.nodes;
    }
    Ok(out)
}

/// The result of [`selfcheck`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SelfCheck {
    pub positions: usize,
    pub mismatches: usize,
    pub rows: usize,
    /// Nodes searched without / with the table.
    pub nodes: [u64; 2],
}
