//! The ProbCut benchmark: the same random 30-card positions analysed (every legal card's
//! value) by the exact solver and by the solver with ProbCut, one after the other with the
//! order alternating position by position (the second finds the position's data in the CPU
//! caches: about 12% faster on null positions, where both search the same nodes), so that
//! neither order nor a drifting machine favours one side. Per class: worlds per second
//! of each, the *decision agreement* (the share of positions where the best card of the
//! ProbCut analysis, for the player to move, is one of the exact best cards) and the mean
//! absolute error of the card values in card points (null is never cut: its rows agree
//! exactly).

use super::bench::{class_of, positions};
use super::{Position, Solver, SolverOptions};
use crate::cards::Card;

/// One class's comparison.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PcutRow {
    pub class: &'static str,
    pub positions: usize,
    pub exact_worlds_per_sec: f64,
    pub worlds_per_sec: f64,
    pub decision_agreement: f64,
    pub mean_abs_error: f64,
    pub exact_nodes: u64,
    pub nodes: u64,
}

/// The best cards of an analysis for the player to move (the declarer maximises).
pub fn best_cards(pos: &Position, values: &[(Card, i32)]) -> Vec<Card> {
    let decl = pos.to_move() == pos.declarer();
    // null values are times to live: the declarer wants 0 (no trick) or a late trick
    let key = |v: i32| -> i32 {
        let v = if pos.game_type().is_null() {
            super::null_survival(v)
        } else {
            v
        };
        if decl {
            v
        } else {
            -v
        }
    };
    let best = values.iter().map(|&(_, v)| key(v)).max().unwrap_or(0);
    values
        .iter()
        .filter(|&&(_, v)| key(v) == best)
        .map(|&(c, _)| c)
        .collect()
}

/// Compares exact and ProbCut analyses on `n` positions from `seed` (`options.pcut` > 0).
pub fn run(n: usize, seed: u64, options: SolverOptions) -> Vec<PcutRow> {
    let pos = positions(n, seed);
    let mut exact = Solver::new(SolverOptions { pcut: 0, ..options });
    let mut cut = Solver::new(options);
    let classes = ["suit", "grand", "null"];
    let mut acc = vec![(0usize, 0u64, 0u64, 0usize, 0.0f64, 0u64, 0u64); 3];
    for (i, p) in pos.iter().enumerate() {
        let ci = classes
            .iter()
            .position(|&c| c == class_of(p.game_type()))
            .unwrap();
        exact.clear();
        cut.clear();
        // the solver that runs second finds the position's data in the caches: alternate
        let ((ev, es), (cv, cs)) = if i % 2 == 0 {
            let e = exact.analyze(p);
            (e, cut.analyze(p))
        } else {
            let c = cut.analyze(p);
            (exact.analyze(p), c)
        };
        let a = &mut acc[ci];
        a.0 += 1;
        a.1 += es.micros;
        a.2 += cs.micros;
        let chosen = best_cards(p, &cv)[0];
        a.3 += best_cards(p, &ev).contains(&chosen) as usize;
        let err: i32 = ev.iter().zip(&cv).map(|(x, y)| (x.1 - y.1).abs()).sum();
        a.4 += err as f64 / ev.len().max(1) as f64;
        a.5 += es.nodes;
        a.6 += cs.nodes;
    }
    classes
        .iter()
        .zip(acc)
        .map(|(&class, a)| {
            let per_sec = |micros: u64| {
                if micros > 0 {
                    a.0 as f64 * 1e6 / micros as f64
                } else {
                    0.0
                }
            };
            let share = |x: f64| if a.0 > 0 { x / a.0 as f64 } else { 0.0 };
            PcutRow {
                class,
                positions: a.0,
                exact_worlds_per_sec: per_sec(a.1),
                worlds_per_sec: per_sec(a.2),
                decision_agreement: share(a.3 as f64),
                mean_abs_error: share(a.4),
                exact_nodes: a.5,
                nodes: a.6,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probcut_keeps_bounds_consistent_with_every_option() {
        // debug builds check the bounds of every node (window.rs)
        for endgame_cache in [false, true] {
            let rows = run(
                10,
                9,
                SolverOptions {
                    pcut: 300,
                    tt_mb: 4,
                    endgame_cache,
                    ..SolverOptions::default()
                },
            );
            assert_eq!(rows.iter().map(|r| r.positions).sum::<usize>(), 10);
        }
    }

    #[test]
    fn without_an_estimator_slot_probcut_changes_nothing_in_null() {
        let rows = run(
            12,
            4,
            SolverOptions {
                pcut: 500,
                tt_mb: 4,
                ..SolverOptions::default()
            },
        );
        let null = rows.iter().find(|r| r.class == "null").unwrap();
        assert_eq!(null.exact_nodes, null.nodes);
        assert_eq!(null.mean_abs_error, 0.0);
        if null.positions > 0 {
            assert_eq!(null.decision_agreement, 1.0);
        }
        assert_eq!(rows.iter().map(|r| r.positions).sum::<usize>(), 12);
    }
}
