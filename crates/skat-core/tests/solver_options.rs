//! The switches added or changed by the speed work, against the plain minimax oracle: the
//! payoff-similarity table (on by default from three cards per hand; here also at every size),
//! the unbeatable-trump bounds, the exact endgame cache and null partition search, each on
//! and off, with kept and cleared tables, for `solve`, `analyze` and `reaches`.

mod common;

use common::{oracle, random_position};
use skat_core::solver::{Solver, SolverOptions};
use skat_core::{GameType, Rng};

fn sets() -> Vec<(&'static str, SolverOptions)> {
    let d = SolverOptions {
        tt_mb: 4,
        ..SolverOptions::default()
    };
    vec![
        ("default", d),
        (
            "no-ps",
            SolverOptions {
                payoff_similarity: false,
                ..d
            },
        ),
        (
            "ps",
            SolverOptions {
                payoff_similarity: true,
                similarity_min_cards: 0,
                ..d
            },
        ),
        (
            "no-trump-bounds",
            SolverOptions {
                trump_bounds: false,
                ..d
            },
        ),
        (
            "ps-no-trump-bounds",
            SolverOptions {
                payoff_similarity: true,
                similarity_min_cards: 0,
                trump_bounds: false,
                ..d
            },
        ),
        (
            "eg-cache",
            SolverOptions {
                endgame_cache: true,
                ..d
            },
        ),
        (
            "eg-cache-ps",
            SolverOptions {
                endgame_cache: true,
                payoff_similarity: true,
                similarity_min_cards: 0,
                ..d
            },
        ),
        (
            "eg-cache-no-tt",
            SolverOptions {
                endgame_cache: true,
                transposition_table: false,
                ..d
            },
        ),
        (
            "eg-cache-no-tables-no-bounds",
            SolverOptions {
                endgame_cache: true,
                endgame_tables: false,
                static_bounds: false,
                move_ordering: false,
                ..d
            },
        ),
        (
            "partition",
            SolverOptions {
                partition_search: true,
                ..d
            },
        ),
        (
            "partition-no-collapse-no-ordering",
            SolverOptions {
                partition_search: true,
                collapse_equivalent: false,
                move_ordering: false,
                ..d
            },
        ),
        (
            "partition-eg-cache-no-tables",
            SolverOptions {
                partition_search: true,
                endgame_cache: true,
                endgame_tables: false,
                ..d
            },
        ),
        (
            "eg-cache-on-off",
            SolverOptions {
                endgame_cache: !SolverOptions::default().endgame_cache,
                ..d
            },
        ),
    ]
}

#[test]
fn switches_match_minimax_on_small_positions() {
    let mut solvers: Vec<(&str, Solver)> =
        sets().iter().map(|(n, o)| (*n, Solver::new(*o))).collect();
    let mut rng = Rng::new(777);
    for round in 0..600 {
        for gt in GameType::ALL {
            let k = 1 + (round % 4);
            let mid = rng.below(3) as usize;
            let pos = random_position(&mut rng, k, gt, mid);
            let want = oracle(&pos);
            for (i, (name, s)) in solvers.iter_mut().enumerate() {
                if i % 2 == 1 {
                    s.clear();
                }
                assert_eq!(s.solve(&pos).value, want, "{name}: {pos:?}");
                if !gt.is_null() {
                    for t in [31, 61, 90] {
                        assert_eq!(s.reaches(&pos, t).0, want >= t, "{name} {t}: {pos:?}");
                    }
                }
                if round % 3 == 0 {
                    for (c, v) in s.analyze(&pos).0 {
                        assert_eq!(v, oracle(&pos.play(c).unwrap()), "{name} {c}: {pos:?}");
                    }
                }
            }
        }
    }
}

#[test]
fn switches_agree_on_larger_positions() {
    let mut rng = Rng::new(4242);
    let mut solvers: Vec<(&str, Solver)> =
        sets().iter().map(|(n, o)| (*n, Solver::new(*o))).collect();
    for i in 0..48 {
        let gt = GameType::ALL[i % 6];
        // 6 and 7 cards per hand: the default switches between canonical and exact keys
        let pos = random_position(&mut rng, 6 + i / 36, gt, i % 3);
        let mut vals = Vec::new();
        for (_, s) in solvers.iter_mut() {
            s.clear();
            vals.push(s.solve(&pos).value);
            vals.push(s.analyze(&pos).0.iter().map(|m| m.1).sum::<i32>());
        }
        assert!(vals.chunks(2).all(|c| c == &vals[..2]), "{pos:?} {vals:?}");
    }
}

#[test]
fn null_partition_search_agrees_on_full_deals() {
    // whole null deals (7 to 10 cards per hand, start- and mid-trick) with partition search
    // on and off, with a kept table (entries of earlier deals must never match wrongly) and
    // a cleared one
    let mut rng = Rng::new(77);
    let base = SolverOptions {
        tt_mb: 4,
        partition_search: true,
        ..SolverOptions::default()
    };
    let mut on_kept = Solver::new(base);
    let mut on = Solver::new(base);
    let mut off = Solver::new(SolverOptions {
        partition_search: false,
        ..base
    });
    for gt in [GameType::Null, GameType::Null, GameType::Grand] {
        for i in 0..100 {
            let pos = random_position(&mut rng, 7 + i % 4, gt, i % 3);
            on.clear();
            off.clear();
            let want = off.solve(&pos).value;
            assert_eq!(on.solve(&pos).value, want, "{pos:?}");
            assert_eq!(on_kept.solve(&pos).value, want, "{pos:?}");
            let a = off.analyze(&pos).0;
            on.clear();
            assert_eq!(on.analyze(&pos).0, a, "{pos:?}");
            assert_eq!(on_kept.analyze(&pos).0, a, "{pos:?}");
        }
    }
}
