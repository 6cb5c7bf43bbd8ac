//! Solver benchmarks: random start-of-card-play positions (30 cards: random deal, random
//! declarer and game type, the skat as her discard, forehand to lead), measured single
//! threaded per game class for `solve`, `reaches(61)` (null: `reaches(11)`, "wins") and
//! `analyze` (as worlds per second), plus ablations (each enhancement off) and a
//! deterministic node-count signature. Plain structs; the CLI prints them.

use super::{check_table_memory, Position, Solver, SolverOptions};
use crate::cards::Cards;
use crate::deal::Deal;
use crate::rng::Rng;
use crate::rules::{Contract, GameType};
use crate::SkatError;

/// The most positions one benchmark or experiment draws. Far beyond any useful run (a few
/// hundred take minutes), it keeps a mistaken count from asking for more memory than a machine
/// has: the positions, or their measurements, are held together.
pub const MAX_POSITIONS: usize = 10_000_000;

/// `n` as a count of positions (or of what `what` names): at most [`MAX_POSITIONS`].
pub fn check_positions(what: &str, n: usize) -> Result<usize, SkatError> {
    crate::sampling::check_count(what, n, MAX_POSITIONS)
}

/// Random start-of-card-play positions from a seed.
pub fn positions(n: usize, seed: u64) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| {
            let deal = Deal::random(rng.next_u64());
            let declarer = rng.below(3) as u8;
            let gt = GameType::ALL[rng.below(6) as usize];
            start_position(&deal, declarer, gt)
        })
        .collect()
}

/// The start of card play of `deal` with the skat as the declarer's discard.
pub fn start_position(deal: &Deal, declarer: u8, gt: GameType) -> Position {
    let dp = if gt.is_null() { 0 } else { deal.skat.points() };
    Position::new(deal.hands, Contract::plain(gt), declarer, 0, &[], dp, 0)
        .expect("a deal gives a valid position")
}

/// A random game type of a table class (0 suit: one of the four trump suits, 1 grand, 2 null).
pub fn random_game_type(rng: &mut Rng, class: u8) -> GameType {
    match class {
        0 => GameType::ALL[rng.below(4) as usize],
        1 => GameType::Grand,
        _ => GameType::Null,
    }
}

/// A random start-of-trick position of a table class (0 suit, 1 grand, 2 null) with `k` cards
/// per hand: a random deal, declarer and game type of the class, the skat as her discard,
/// then uniformly random legal cards (a null game that ends early is dealt again).
pub fn random_position(rng: &mut Rng, class: u8, k: u32) -> Position {
    loop {
        let deal = Deal::random(rng.next_u64());
        let decl = rng.below(3) as u8;
        let gt = random_game_type(rng, class);
        let mut pos = start_position(&deal, decl, gt);
        while pos.cards_per_hand() > k || !pos.trick().is_empty() {
            let legal: Vec<_> = pos.legal_cards().iter().collect();
            if legal.is_empty() {
                // a null game ends at the declarer's first trick: deal again
                break;
            }
            let c = legal[rng.below(legal.len() as u64) as usize];
            pos = pos.play(c).expect("a legal card");
        }
        if pos.cards_per_hand() == k && pos.trick().is_empty() {
            return pos;
        }
    }
}

/// Time (µs) and node statistics over a sample.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    pub count: usize,
    pub median_us: f64,
    pub mean_us: f64,
    pub p95_us: f64,
    pub median_nodes: f64,
    pub mean_nodes: f64,
    pub p95_nodes: f64,
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[i]
}

impl Summary {
    pub fn of(samples: &[(u64, u64)]) -> Summary {
        if samples.is_empty() {
            return Summary::default();
        }
        let mut t: Vec<f64> = samples.iter().map(|s| s.0 as f64).collect();
        let mut n: Vec<f64> = samples.iter().map(|s| s.1 as f64).collect();
        t.sort_by(|a, b| a.partial_cmp(b).unwrap());
        n.sort_by(|a, b| a.partial_cmp(b).unwrap());
        let len = samples.len() as f64;
        Summary {
            count: samples.len(),
            median_us: quantile(&t, 0.5),
            mean_us: t.iter().sum::<f64>() / len,
            p95_us: quantile(&t, 0.95),
            median_nodes: quantile(&n, 0.5),
            mean_nodes: n.iter().sum::<f64>() / len,
            p95_nodes: quantile(&n, 0.95),
        }
    }
}

/// One game class (suit, grand, null).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClassRow {
    pub class: &'static str,
    pub solve: Summary,
    /// `reaches(61)` in suit and grand, `reaches(11)` (the declarer wins) in null.
    pub reaches: Summary,
    pub analyze: Summary,
    /// 1e6 / mean analyze time: all-move evaluations per second (the thesis's unit).
    pub worlds_per_sec: f64,
}

/// `solve` totals with one enhancement switched off.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AblationRow {
    pub name: &'static str,
    pub class: &'static str,
    pub nodes: u64,
    pub micros: u64,
    /// Change against all enhancements on (positive: the enhancement saves this much).
    pub nodes_saved_pct: f64,
    pub time_saved_pct: f64,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    pub positions: usize,
    pub seed: u64,
    pub rows: Vec<ClassRow>,
    pub ablations: Vec<AblationRow>,
    pub signature: u64,
}

pub fn class_of(gt: GameType) -> &'static str {
    gt.class_name()
}

/// The game classes of the benchmark rows, in order.
pub const CLASSES: [&str; 3] = ["suit", "grand", "null"];

/// The row of a game type in [`CLASSES`].
pub fn class_index(gt: GameType) -> usize {
    match class_of(gt) {
        "suit" => 0,
        "grand" => 1,
        _ => 2,
    }
}

/// Runs `f` with both solvers on position number `i` (each cleared first), in an order that
/// alternates with `i`: the second search of a position runs a little faster (warm caches
/// and branch history), so every other position starts with the other solver. The results
/// are in solver order.
pub fn paired<R>(
    solvers: &mut [Solver; 2],
    i: usize,
    mut f: impl FnMut(&mut Solver) -> R,
) -> [R; 2] {
    let mut out: [Option<R>; 2] = [None, None];
    for k in [i % 2, 1 - i % 2] {
        solvers[k].clear();
        out[k] = Some(f(&mut solvers[k]));
    }
    let [a, b] = out;
    [a.unwrap(), b.unwrap()]
}

/// The enhancements that can be switched off, by name (the endgame cache, off by default, is
/// toggled).
pub fn ablations(base: SolverOptions) -> Vec<(&'static str, SolverOptions)> {
    vec![
        (
            "move ordering",
            SolverOptions {
                move_ordering: false,
                fastest_cut_first: false,
                ..base
            },
        ),
        (
            "fastest-cut-first",
            SolverOptions {
                fastest_cut_first: false,
                ..base
            },
        ),
        (
            "payoff-similarity",
            SolverOptions {
                payoff_similarity: false,
                ..base
            },
        ),
        (
            "trump bounds",
            SolverOptions {
                trump_bounds: false,
                ..base
            },
        ),
        (
            "static bounds",
            SolverOptions {
                static_bounds: false,
                ..base
            },
        ),
        (
            "endgame tables",
            SolverOptions {
                endgame_tables: false,
                ..base
            },
        ),
        (
            "endgame cache toggled",
            SolverOptions {
                endgame_cache: !base.endgame_cache,
                ..base
            },
        ),
        (
            "equivalent cards",
            SolverOptions {
                collapse_equivalent: false,
                ..base
            },
        ),
        (
            "partition search (null) toggled",
            SolverOptions {
                partition_search: !base.partition_search,
                ..base
            },
        ),
    ]
}

/// Runs the whole benchmark single threaded. `ablation_positions` limits the positions used
/// for the ablation table (each row re-solves them; 0 = skip).
/// Its solvers' tables (one, two at a time for the ablation) are allocated fallibly:
/// [`SkatError::OutOfMemory`] when they cannot be had.
pub fn run(
    n: usize,
    seed: u64,
    options: SolverOptions,
    ablation_positions: usize,
) -> Result<Report, SkatError> {
    check_positions("positions", n)?;
    check_positions("ablation positions", ablation_positions)?;
    check_table_memory(&options, if ablation_positions > 0 { 2 } else { 1 })?;
    let pos = positions(n, seed);
    let mut solver = Solver::try_new(options)?;
    let mut samples: Vec<[Vec<(u64, u64)>; 3]> = vec![Default::default(); 3];
    for p in &pos {
        let ci = class_index(p.game_type());
        solver.clear();
        let s = solver.solve(p).stats;
        samples[ci][0].push((s.micros, s.nodes));
        solver.clear();
        let target = if p.game_type().is_null() { 11 } else { 61 };
        let s = solver.reaches(p, target).1;
        samples[ci][1].push((s.micros, s.nodes));
        solver.clear();
        let s = solver.analyze(p).1;
        samples[ci][2].push((s.micros, s.nodes));
    }
    // the ablation's solvers come in pairs of their own
    drop(solver);
    let rows = CLASSES
        .iter()
        .enumerate()
        .map(|(ci, &class)| {
            let analyze = Summary::of(&samples[ci][2]);
            ClassRow {
                class,
                solve: Summary::of(&samples[ci][0]),
                reaches: Summary::of(&samples[ci][1]),
                worlds_per_sec: if analyze.mean_us > 0.0 {
                    1e6 / analyze.mean_us
                } else {
                    0.0
                },
                analyze,
            }
        })
        .collect();
    let mut ablations_out = Vec::new();
    if ablation_positions > 0 {
        let sub = &pos[..ablation_positions.min(pos.len())];
        // each row is timed against its own run of the full search, position by position
        // (the two solvers alternate), so that a machine whose speed drifts during the
        // benchmark shifts both sides of a comparison alike
        let paired: Vec<_> = ablations(options)
            .into_iter()
            .map(|(name, o)| Ok((name, paired_totals(sub, options, o)?)))
            .collect::<Result<_, SkatError>>()?;
        // the "all on" row: its nodes (identical in every pairing) and its median time
        let mut base = vec![(0u64, 0u64); CLASSES.len()];
        for (ci, b) in base.iter_mut().enumerate() {
            let mut times: Vec<u64> = paired.iter().map(|(_, (on, _))| on[ci].1).collect();
            times.sort_unstable();
            let nodes = paired.first().map_or(0, |(_, (on, _))| on[ci].0);
            *b = (nodes, times.get(times.len() / 2).copied().unwrap_or(0));
        }
        let mut rows = vec![("all on", (base.clone(), base))];
        rows.extend(paired);
        for (name, (on, off)) in rows {
            for (ci, &class) in CLASSES.iter().enumerate() {
                let (bn, bt) = on[ci];
                let (n, us) = off[ci];
                ablations_out.push(AblationRow {
                    name,
                    class,
                    nodes: n,
                    micros: us,
                    nodes_saved_pct: if n > 0 {
                        100.0 * (n as f64 - bn as f64) / n as f64
                    } else {
                        0.0
                    },
                    time_saved_pct: if us > 0 {
                        100.0 * (us as f64 - bt as f64) / us as f64
                    } else {
                        0.0
                    },
                });
            }
        }
    }
    Ok(Report {
        positions: n,
        seed,
        rows,
        ablations: ablations_out,
        signature: signature(),
    })
}

/// (nodes, µs) of `solve` summed per class.
type ClassTotals = Vec<(u64, u64)>;

/// The totals of `solve` per class for the options `on` and `off`, the two solvers
/// alternating position by position (and which goes first, too).
fn paired_totals(
    pos: &[Position],
    on: SolverOptions,
    off: SolverOptions,
) -> Result<(ClassTotals, ClassTotals), SkatError> {
    let mut solvers = [Solver::try_new(on)?, Solver::try_new(off)?];
    let mut t = [
        vec![(0u64, 0u64); CLASSES.len()],
        vec![(0u64, 0u64); CLASSES.len()],
    ];
    for (i, p) in pos.iter().enumerate() {
        let ci = class_index(p.game_type());
        let stats = paired(&mut solvers, i, |s| s.solve(p).stats);
        for (tk, st) in t.iter_mut().zip(stats) {
            tk[ci].0 += st.nodes;
            tk[ci].1 += st.micros;
        }
    }
    let [a, b] = t;
    Ok((a, b))
}

/// The fixed positions of the signature: the first 24 start-of-play deals (seed 1) that are
/// still running after the first three tricks played with the lowest legal card (7 cards per
/// hand).
pub fn signature_positions() -> Vec<Position> {
    let mut out = Vec::new();
    for p in positions(200, 1) {
        if out.len() == 24 {
            break;
        }
        let mut q = p;
        for _ in 0..9 {
            if q.is_over() {
                break;
            }
            let c = q.legal_cards().lowest().unwrap();
            q = q.play(c).unwrap();
        }
        if !q.is_over() {
            out.push(q);
        }
    }
    out
}

/// Total nodes of `solve` + `reaches` + `analyze` over the signature positions with default
/// options and a fresh table for every call: identical on every machine and thread count.
pub fn signature() -> u64 {
    signature_threads(1)
}

/// [`signature`] computed on `threads` threads (the same number for any thread count).
pub fn signature_threads(threads: usize) -> u64 {
    let options = SolverOptions {
        tt_mb: 8,
        ..SolverOptions::default()
    };
    let pos = signature_positions();
    let threads = threads.max(1);
    let chunk = pos.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = pos
            .chunks(chunk)
            .map(|ps| {
                scope.spawn(move || {
                    let mut solver = Solver::new(options);
                    let mut total = 0u64;
                    for p in ps {
                        solver.clear();
                        total += solver.solve(p).stats.nodes;
                        solver.clear();
                        let t = if p.game_type().is_null() { 11 } else { 61 };
                        total += solver.reaches(p, t).1.nodes;
                        solver.clear();
                        total += solver.analyze(p).1.nodes;
                    }
                    total
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    })
}

/// All cards of a deal (for sanity checks).
pub fn all_cards(p: &Position) -> Cards {
    let h = p.hands();
    h[0] | h[1] | h[2]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_beyond_the_limit_are_refused_before_anything_is_drawn() {
        for n in [MAX_POSITIONS + 1, usize::MAX] {
            let e = run(n, 1, SolverOptions::default(), 0).unwrap_err();
            assert!(matches!(e, SkatError::TooMany(_)), "{e}");
            let e = run(1, 1, SolverOptions::default(), n).unwrap_err();
            assert!(e
                .to_string()
                .starts_with("ablation positions must be at most"));
        }
        assert_eq!(
            check_positions("positions", MAX_POSITIONS),
            Ok(MAX_POSITIONS)
        );
    }

    #[test]
    fn ablation_rows_pair_each_switch_with_the_full_search() {
        let r = run(8, 3, SolverOptions::default(), 4).unwrap();
        let names: Vec<&str> = ablations(SolverOptions::default())
            .iter()
            .map(|a| a.0)
            .collect();
        assert_eq!(r.ablations.len(), (names.len() + 1) * CLASSES.len());
        let again = run(8, 3, SolverOptions::default(), 4).unwrap();
        for (ci, &class) in CLASSES.iter().enumerate() {
            let base = &r.ablations[ci];
            assert_eq!((base.name, base.class), ("all on", class));
            assert_eq!(base.nodes_saved_pct, 0.0);
            // node counts are deterministic: the same in a second run, and the full search's
            // count is the one every row is compared with
            assert_eq!(again.ablations[ci].nodes, base.nodes);
            for row in r.ablations.iter().filter(|a| a.class == class) {
                let expected = if row.nodes > 0 {
                    100.0 * (row.nodes as f64 - base.nodes as f64) / row.nodes as f64
                } else {
                    0.0
                };
                assert!(
                    (row.nodes_saved_pct - expected).abs() < 1e-9,
                    "{}",
                    row.name
                );
            }
        }
        let switched: Vec<&str> = r.ablations.iter().map(|a| a.name).collect();
        for n in names {
            assert!(switched.contains(&n), "{n}");
        }
    }
}
