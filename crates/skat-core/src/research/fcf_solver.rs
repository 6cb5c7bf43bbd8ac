//! Fastest-cut-first in the real solver: the nodes of `solve` on random 30-card positions
//! (those of [`crate::solver::bench::positions`]) with the fastest-cut-first term of the move
//! ordering on and off, everything else as by default; each position is solved from an empty
//! table by both, and both must agree on its value.

use crate::solver::bench::{check_positions, class_of, positions};
use crate::solver::{Solver, SolverOptions};
use crate::SkatError;

/// Summed nodes of one game class: (positions, nodes with FCF, nodes without).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FcfTotals {
    pub positions: u64,
    pub nodes_on: u64,
    pub nodes_off: u64,
}

/// Totals for "suit", "grand" and "null", in that order. `progress` is called after each
/// position. An error for more than [`MAX_POSITIONS`](crate::solver::bench::MAX_POSITIONS) positions.
pub fn fcf_ablation(
    n: usize,
    seed: u64,
    mut progress: impl FnMut(),
) -> Result<[(&'static str, FcfTotals); 3], SkatError> {
    check_positions("positions", n)?;
    let on = SolverOptions::default();
    let off = SolverOptions {
        fastest_cut_first: false,
        ..on
    };
    let (mut s_on, mut s_off) = (Solver::new(on), Solver::new(off));
    let mut out = [
        ("suit", FcfTotals::default()),
        ("grand", FcfTotals::default()),
        ("null", FcfTotals::default()),
    ];
    for p in positions(n, seed) {
        s_on.clear();
        s_off.clear();
        let a = s_on.solve(&p);
        let b = s_off.solve(&p);
        assert_eq!(a.value, b.value, "the ordering never changes the value");
        let row = &mut out
            .iter_mut()
            .find(|(c, _)| *c == class_of(p.game_type()))
            .expect("three classes")
            .1;
        row.positions += 1;
        row.nodes_on += a.stats.nodes;
        row.nodes_off += b.stats.nodes;
        progress();
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_every_position_once() {
        let mut calls = 0;
        let r = fcf_ablation(6, 3, || calls += 1).unwrap();
        assert_eq!(calls, 6);
        assert_eq!(r.iter().map(|(_, t)| t.positions).sum::<u64>(), 6);
        for (_, t) in r {
            assert_eq!(t.positions == 0, t.nodes_on == 0);
        }
    }
}
