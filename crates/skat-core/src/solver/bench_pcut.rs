//! The ProbCut benchmark: the same random 30-card positions analysed (every legal card's
//! value) by the exact solver and by the solver with ProbCut, one after the other with the
//! order alternating position by position ([`paired`]: the second finds the position's data
//! in the CPU caches, about 12% faster on null positions, where both search the same nodes),
//! so that neither order nor a drifting machine favours one side. Per class: worlds per second
//! of each, the *decision agreement* (the share of positions where the best card of the
//! ProbCut analysis, for the player to move, is one of the exact best cards), the *decision
//! loss* (the mean exact value, in card points for the player to move, given up by playing
//! ProbCut's best card instead of an exact best one: 0 where they agree, small where the
//! cards were nearly tied) and the mean absolute error of the card values in card points
//! (null is never cut: its rows agree exactly).
//!
//! [`run_grid`] does this for many confidences and simulated error scales at once, position by
//! position; every configuration's rows are those its own [`run`] would give, up to timing.

use super::bench::{check_positions, class_index, paired, positions, CLASSES};
use super::{check_table_memory, Position, Solver, SolverOptions, Stats};
use crate::cards::Card;
use crate::sampling::check_count;
use crate::SkatError;

/// The most times [`run_grid`] repeats each configuration (each repeat keeps its own tally).
pub const MAX_REPEATS: usize = 1000;

/// One class's comparison.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PcutRow {
    pub class: &'static str,
    pub positions: usize,
    pub exact_worlds_per_sec: f64,
    pub worlds_per_sec: f64,
    pub decision_agreement: f64,
    pub decision_loss: f64,
    pub mean_abs_error: f64,
    pub exact_nodes: u64,
    pub nodes: u64,
}

/// A card value as the player to move ranks it, higher better (the declarer maximises her
/// card points, the defenders minimise them; null values are times to live: the declarer
/// wants 0, no trick, or a late trick).
fn mover_key(pos: &Position, v: i32) -> i32 {
    let v = if pos.game_type().is_null() {
        super::null_survival(v)
    } else {
        v
    };
    if pos.to_move() == pos.declarer() {
        v
    } else {
        -v
    }
}

/// The best cards of an analysis for the player to move.
pub fn best_cards(pos: &Position, values: &[(Card, i32)]) -> Vec<Card> {
    let key = |v: i32| mover_key(pos, v);
    let best = values.iter().map(|&(_, v)| key(v)).max().unwrap_or(0);
    values
        .iter()
        .filter(|&&(_, v)| key(v) == best)
        .map(|&(c, _)| c)
        .collect()
}

/// Per class: the sums of one comparison's times, agreements, losses and errors, turned into
/// rows at the end.
struct Tally {
    rows: Vec<PcutRow>,
    micros: [[u64; 2]; 3],
}

impl Tally {
    fn new() -> Tally {
        Tally {
            rows: CLASSES
                .iter()
                .map(|&class| PcutRow {
                    class,
                    ..PcutRow::default()
                })
                .collect(),
            micros: [[0; 2]; 3],
        }
    }

    /// One position: the exact analysis `(ev, es)` and the ProbCut one `(cv, cs)`.
    fn add(
        &mut self,
        p: &Position,
        exact: (&[(Card, i32)], &Stats),
        cut: (&[(Card, i32)], &Stats),
    ) {
        let ((ev, es), (cv, cs)) = (exact, cut);
        let ci = class_index(p.game_type());
        let r = &mut self.rows[ci];
        r.positions += 1;
        self.micros[ci][0] += es.micros;
        self.micros[ci][1] += cs.micros;
        r.exact_nodes += es.nodes;
        r.nodes += cs.nodes;
        // ProbCut's card judged by the exact values: it agrees when it gives up nothing
        let chosen = best_cards(p, cv)[0];
        let exact = |c: Card| ev.iter().find(|x| x.0 == c).map(|x| mover_key(p, x.1));
        let best = ev.iter().map(|x| mover_key(p, x.1)).max();
        let loss = best.zip(exact(chosen)).map_or(0, |(b, v)| b - v);
        r.decision_agreement += (loss == 0) as u8 as f64;
        r.decision_loss += loss as f64;
        let err: i32 = ev.iter().zip(cv).map(|(x, y)| (x.1 - y.1).abs()).sum();
        r.mean_abs_error += err as f64 / ev.len().max(1) as f64;
    }

    fn finish(mut self) -> Vec<PcutRow> {
        for (r, us) in self.rows.iter_mut().zip(self.micros) {
            let n = r.positions as f64;
            let per_sec = |t: u64| if t > 0 { n * 1e6 / t as f64 } else { 0.0 };
            r.exact_worlds_per_sec = per_sec(us[0]);
            r.worlds_per_sec = per_sec(us[1]);
            if r.positions > 0 {
                r.decision_agreement /= n;
                r.decision_loss /= n;
                r.mean_abs_error /= n;
            }
        }
        self.rows
    }
}

/// Compares exact and ProbCut analyses on `n` positions from `seed` (`options.pcut` > 0).
/// With `error_scale`, ProbCut uses a simulated estimator with that many times the shipped
/// error ([`super::estimator_sim`]): each position is then analysed once by both solvers
/// before the timed pair, so that the timed ProbCut analysis finds every exact value its
/// simulation needs already known (their cost is not counted) and neither solver finds the
/// position warmer in the CPU caches than the other.
pub fn run(
    n: usize,
    seed: u64,
    options: SolverOptions,
    error_scale: Option<f32>,
) -> Result<Vec<PcutRow>, SkatError> {
    let scales = error_scale.map(|s| [s]);
    let mut grid = run_grid(
        n,
        seed,
        options,
        &[options.pcut],
        scales.as_ref().map(|s| &s[..]),
        1,
        |_| true,
    )?;
    Ok(grid.swap_remove(0).swap_remove(0))
}

/// [`run`] for every confidence of `pcuts` (thousandths) and, with `scales`, every simulated
/// error scale (configurations pcut-major), `repeat` times each: `[configuration][repeat]`
/// rows. The positions are the outer loop: each is compared under every configuration and
/// repeat in turn, and with `scales` the exact values its simulations need are found once for
/// all of them. `progress(positions done)` after each position; it returns false to stop
/// early (the rows then cover the positions done). An error for more than [`MAX_POSITIONS`](crate::solver::bench::MAX_POSITIONS)
/// positions or [`MAX_REPEATS`] repeats.
pub fn run_grid(
    n: usize,
    seed: u64,
    options: SolverOptions,
    pcuts: &[u16],
    scales: Option<&[f32]>,
    repeat: usize,
    mut progress: impl FnMut(usize) -> bool,
) -> Result<Vec<Vec<Vec<PcutRow>>>, SkatError> {
    check_positions("positions", n)?;
    check_count("repeats", repeat, MAX_REPEATS)?;
    let configs: Vec<(u16, Option<f32>)> = match scales {
        Some(scales) => pcuts
            .iter()
            .flat_map(|&p| scales.iter().map(move |&s| (p, Some(s))))
            .collect(),
        None => pcuts.iter().map(|&p| (p, None)).collect(),
    };
    if configs.is_empty() {
        return Ok(Vec::new());
    }
    // the ProbCut solver's confidence and scale are set per configuration below; with
    // scales it holds a second table for its simulation
    check_table_memory(&options, if scales.is_some() { 3 } else { 2 })?;
    let mut solvers = [
        Solver::try_new(SolverOptions { pcut: 0, ..options })?,
        match scales {
            Some(_) => Solver::with_sharper_estimates(options, 1.0)?,
            None => Solver::try_new(options)?,
        },
    ];
    let mut tallies: Vec<Vec<Tally>> = configs
        .iter()
        .map(|_| (0..repeat).map(|_| Tally::new()).collect())
        .collect();
    for (i, p) in positions(n, seed).iter().enumerate() {
        solvers[1].forget_exact_values();
        for (&(pcut, scale), tally) in configs.iter().zip(tallies.iter_mut()) {
            solvers[1].retune_probcut(pcut, scale);
            for t in tally.iter_mut() {
                if scale.is_some() {
                    for s in solvers.iter_mut() {
                        s.clear();
                        s.analyze(p);
                    }
                }
                let [(ev, es), (cv, cs)] = paired(&mut solvers, i, |s| s.analyze(p));
                t.add(p, (&ev, &es), (&cv, &cs));
            }
        }
        if !progress(i + 1) {
            break;
        }
    }
    Ok(tallies
        .into_iter()
        .map(|runs| runs.into_iter().map(Tally::finish).collect())
        .collect())
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
                None,
            )
            .unwrap();
            assert_eq!(rows.iter().map(|r| r.positions).sum::<usize>(), 10);
            for r in rows.iter().filter(|r| r.positions > 0) {
                // a disagreement costs at least a point, an agreement nothing
                assert!(r.decision_loss >= 0.0);
                assert!(r.decision_loss >= 1.0 - r.decision_agreement - 1e-9);
                if r.decision_agreement == 1.0 {
                    assert_eq!(r.decision_loss, 0.0);
                }
            }
        }
    }

    #[test]
    fn a_grid_gives_each_configuration_what_its_own_run_gives() {
        // the exact values shared between configurations are the ones each would find alone
        let options = SolverOptions {
            tt_mb: 4,
            ..SolverOptions::default()
        };
        let (pcuts, scales) = ([300u16, 600], [1.0f32, 0.4]);
        let grid = run_grid(10, 5, options, &pcuts, Some(&scales), 2, |_| true).unwrap();
        assert_eq!(grid.len(), 4);
        let key = |rows: &[PcutRow]| -> Vec<(usize, u64, u64, u64, u64, u64)> {
            rows.iter()
                .map(|r| {
                    let bits = |x: f64| x.to_bits();
                    (
                        r.positions,
                        r.exact_nodes,
                        r.nodes,
                        bits(r.decision_agreement),
                        bits(r.decision_loss),
                        bits(r.mean_abs_error),
                    )
                })
                .collect()
        };
        for (k, runs) in grid.iter().enumerate() {
            let (pcut, scale) = (pcuts[k / 2], scales[k % 2]);
            let alone = run(10, 5, SolverOptions { pcut, ..options }, Some(scale)).unwrap();
            assert_eq!(runs.len(), 2);
            for rows in runs {
                assert_eq!(key(rows), key(&alone), "pcut {pcut} scale {scale}");
            }
        }
        // stopping early covers the positions done
        let part = run_grid(10, 5, options, &[500], None, 1, |done| done < 3).unwrap();
        assert_eq!(part[0][0].iter().map(|r| r.positions).sum::<usize>(), 3);
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
            Some(0.5),
        )
        .unwrap();
        let null = rows.iter().find(|r| r.class == "null").unwrap();
        assert_eq!(null.exact_nodes, null.nodes);
        assert_eq!(null.mean_abs_error, 0.0);
        assert_eq!(null.decision_loss, 0.0);
        if null.positions > 0 {
            assert_eq!(null.decision_agreement, 1.0);
        }
        assert_eq!(rows.iter().map(|r| r.positions).sum::<usize>(), 12);
    }

    #[test]
    fn a_simulated_exact_estimator_keeps_every_value_exact() {
        // at error scale 0 the estimate is the exact value and the interval has no width:
        // a node is cut only where its exact value lies outside the window, so every card
        // value of the analysis stays exact (while far fewer nodes are searched)
        // value of the analysis stays exact (while far fewer nodes are searched); with wide
        // probe windows too, where a probe's value inside its window settles the search
        for pcut_window in [1, 5, 30] {
            let rows = run(
                16,
                3,
                SolverOptions {
                    pcut: 500,
                    pcut_window,
                    tt_mb: 4,
                    ..SolverOptions::default()
                },
                Some(0.0),
            )
            .unwrap();
            for r in rows.iter().filter(|r| r.positions > 0 && r.class != "null") {
                assert_eq!(r.mean_abs_error, 0.0, "{} {pcut_window}", r.class);
                assert_eq!(r.decision_agreement, 1.0, "{} {pcut_window}", r.class);
                assert!(r.nodes < r.exact_nodes, "{} {pcut_window}", r.class);
            }
            assert!(rows.iter().any(|r| r.positions > 0 && r.class != "null"));
        }
    }

    #[test]
    fn the_exact_search_ignores_the_probcut_window() {
        // without ProbCut every probe keeps a zero window: same values, same nodes
        for p in positions(12, 8) {
            let mut plain = Solver::new(SolverOptions {
                tt_mb: 4,
                ..SolverOptions::default()
            });
            let mut wide = Solver::new(SolverOptions {
                tt_mb: 4,
                pcut_window: 20,
                ..SolverOptions::default()
            });
            let (a, sa) = plain.analyze(&p);
            let (b, sb) = wide.analyze(&p);
            assert_eq!(a, b);
            assert_eq!(sa.nodes, sb.nodes);
        }
    }
}
