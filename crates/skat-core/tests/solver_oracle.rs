//! The solver against the plain minimax oracle on random small positions (up to 4 cards per
//! hand, start and mid-trick, all six game types), with every enhancement on, off, and each
//! one off alone.

mod common;

use common::{best_of, option_sets, oracle, random_position};
use skat_core::solver::{null_survival, Solver};
use skat_core::{GameType, Rng};

#[test]
fn solver_matches_minimax_on_small_positions() {
    let sets = option_sets();
    let mut solvers: Vec<(&str, Solver)> =
        sets.iter().map(|(n, o)| (*n, Solver::new(*o))).collect();
    let mut rng = Rng::new(20240601);
    let mut count = 0;
    for round in 0..1700 {
        for gt in GameType::ALL {
            let k = 1 + (round % 4);
            let mid = rng.below(3) as usize;
            let pos = random_position(&mut rng, k, gt, mid);
            let want = oracle(&pos);
            for (name, s) in solvers.iter_mut() {
                // keep tables between positions for the default set, clear for the others
                if *name != "default" {
                    s.clear();
                }
                let got = s.solve(&pos).value;
                assert_eq!(got, want, "{name}: {pos:?}");
            }
            let (moves, _) = solvers[0].1.analyze(&pos);
            assert_eq!(moves.len() as u32, pos.legal_cards().len());
            assert_eq!(best_of(&pos, &moves), want, "analyze {pos:?} {moves:?}");
            for (c, v) in &moves {
                assert_eq!(*v, oracle(&pos.play(*c).unwrap()), "analyze {c} in {pos:?}");
            }
            let targets: &[i32] = if gt.is_null() {
                &[1, 3, 6, 8, 9, 10, 11]
            } else {
                &[31, 61, 90, 120]
            };
            for &t in targets {
                let truth = if gt.is_null() {
                    null_survival(want) >= t
                } else {
                    want >= t
                };
                assert_eq!(
                    solvers[0].1.reaches(&pos, t).0,
                    truth,
                    "reaches {t} {pos:?}"
                );
                assert_eq!(
                    solvers[1].1.reaches(&pos, t).0,
                    truth,
                    "plain reaches {t} {pos:?}"
                );
            }
            count += 1;
        }
    }
    assert!(count >= 10_000);
}
