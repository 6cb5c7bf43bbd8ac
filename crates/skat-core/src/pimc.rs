//! Perfect Information Monte Carlo card play (Kermit's cardplay, long-thesis ch. 4).
//!
//! At a card-play decision the seat samples worlds consistent with what it knows
//! ([`crate::sampling`]), values every legal card in every world with the open-handed solver,
//! averages (weighted, when worlds carry weights) and plays the best card.
//!
//! # Payoff
//!
//! Kermit's payoff is lexicographic: **win/loss** first, then **schneider**, then **card points**
//! as a tie-break. Per world and card the solver answers, from the declarer's side:
//!
//! 1. *win*: does the declarer reach the points she needs? 61 normally; 90 if schneider was
//!    announced or if the game is only worth the bid with the schneider level (overbid
//!    otherwise); 120 if schwarz was announced or only schwarz reaches the bid (the solver
//!    counts card points, not tricks, so "schwarz" is approximated by all 120 points);
//! 2. *schneider tier*: +1 if she reaches 90, -1 if she stays at 30 or below, else 0;
//! 3. *points*: her exact final card points, searched inside the range the first two
//!    null-window tests left open (optional: [`PimcOptions::points`]).
//!
//! Null: win if the declarer takes no trick; otherwise the number of the trick she is forced
//! to take counts as the tie-break (a losing declarer delays, the defenders hurry).
//!
//! The defenders use the same quantities with the opposite sign. Averages over the worlds
//! are compared lexicographically (win rate, then schneider tier, then points; differences
//! below 1e-9 count as ties), and ties go to the lowest-valued card (fewest card points, then
//! the lowest card), so that a decided game does not throw points away for nothing.
//!
//! # Determinism
//!
//! Worlds come from an explicit seed; each world is solved exactly, so the values do not
//! depend on how many threads share the work or on the transposition tables' contents, and the
//! averages are summed in world order. With a time budget the number of worlds depends on
//! the machine's speed (and is reported).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::cards::{Card, Cards};
use crate::error::SkatError;
use crate::game::{Phase, View};
use crate::inference::{Inference, InferenceStats};
use crate::rules::{matadors, Contract};
use crate::sampling::{check_count, sample_worlds, World, MAX_WORLDS};
use crate::solver::{check_table_memory, null_survival, Position, Solver, SolverOptions};

/// Settings of a PIMC search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PimcOptions {
    /// Worlds per decision (the thesis's saturation point is 160).
    pub worlds: usize,
    /// Optional time budget per decision in seconds: worlds are solved until it is spent
    /// (at least `min(worlds, threads)` worlds, at most `worlds`).
    pub seconds: Option<f64>,
    /// Threads that solve worlds in parallel (each with its own solver).
    pub threads: usize,
    /// Exact card points as the tie-break (Kermit's step 3). Off: win and schneider only.
    pub points: bool,
    /// The solver of each thread (its `tt_mb` is per thread).
    pub solver: SolverOptions,
}

impl Default for PimcOptions {
    fn default() -> PimcOptions {
        PimcOptions {
            worlds: 160,
            seconds: None,
            threads: 1,
            points: true,
            solver: SolverOptions {
                tt_mb: 16,
                ..SolverOptions::default()
            },
        }
    }
}

/// What one card achieves in one world, from the declarer's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub win: bool,
    /// +1 declarer reaches 90, -1 she stays at 30 or below, 0 otherwise (null: 0).
    pub tier: i8,
    /// Suit and grand: the declarer's final card points (when searched exactly; otherwise the
    /// lower end of the range the tests established). Null: the survival scale (11 = no
    /// trick taken, else the number of the trick she is forced to take).
    pub points: i32,
}

/// The averaged value of one legal card, from the deciding seat's side (the defenders'
/// win rate is the declarer's loss rate).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CardValue {
    pub card: Card,
    /// Weighted share of the worlds in which the seat's side wins.
    pub win: f64,
    /// Mean schneider tier for the seat's side (+1: it makes the other side schneider).
    pub schneider: f64,
    /// Mean declarer card points (null: mean survival trick), whoever decides.
    pub points: f64,
}

/// A PIMC decision with its evidence.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    pub best: Card,
    /// Every legal card, best first.
    pub values: Vec<CardValue>,
    pub worlds: usize,
    /// Sum of the world weights (= `worlds` for uniform sampling).
    pub weight: f64,
    pub nodes: u64,
    pub micros: u64,
    /// What inference did (`None`: worlds drawn uniformly or given).
    pub inference: Option<InferenceStats>,
}

/// The points the declarer needs to win, in suit and grand, given her twelve cards: the
/// announced level, raised when a lower level would not reach the bid (overbid). 121 if
/// nothing reaches the bid.
pub fn win_threshold(contract: Contract, bid: u16, twelve: Cards) -> i32 {
    contract.points_needed(matadors(contract.game_type, twelve), bid)
}

/// The outcome of every legal card of the player to move in one fully known position.
/// `need` is the declarer's win threshold ([`win_threshold`]; ignored in null). With `points`
/// the exact card points are searched as a tie-break. Descending card order.
pub fn outcomes(
    solver: &mut Solver,
    pos: &Position,
    need: i32,
    points: bool,
) -> Result<(Vec<(Card, Outcome)>, u64), SkatError> {
    let reps = solver.representatives(pos);
    let null = pos.game_type().is_null();
    let mut nodes = 0u64;
    let mut done: Vec<(Card, Outcome)> = Vec::with_capacity(reps.len());
    let mut out = Vec::with_capacity(reps.len());
    let mut guess: Option<i32> = None;
    for (card, rep) in reps {
        if let Some(&(_, o)) = done.iter().find(|(c, _)| *c == rep) {
            out.push((card, o));
            continue;
        }
        let next = pos.play(rep)?;
        let o = if null {
            let r = solver.solve(&next);
            nodes += r.stats.nodes;
            let s = null_survival(r.value);
            Outcome {
                win: s >= 11,
                tier: 0,
                points: s,
            }
        } else {
            let mut test = |t: i32, nodes: &mut u64| {
                let (ok, st) = solver.reaches(&next, t);
                *nodes += st.nodes;
                ok
            };
            let win = need <= 120 && test(need, &mut nodes);
            // the range [lo, hi] the declarer's points are known to lie in
            let (mut lo, mut hi) = if win { (need, 120) } else { (0, need - 1) };
            let tier;
            if hi >= 90 && lo < 90 {
                if test(90, &mut nodes) {
                    lo = 90;
                } else {
                    hi = 89;
                }
            }
            if lo <= 30 && hi > 30 {
                if test(31, &mut nodes) {
                    lo = lo.max(31);
                } else {
                    hi = 30;
                }
            }
            if lo >= 90 {
                tier = 1;
            } else if hi <= 30 {
                tier = -1;
            } else {
                tier = 0;
            }
            let value = if points && lo < hi {
                let g = guess.unwrap_or((lo + hi) / 2).clamp(lo, hi);
                let r = solver.solve_within(&next, lo, hi, g);
                nodes += r.stats.nodes;
                r.value
            } else {
                lo
            };
            guess = Some(value);
            Outcome {
                win,
                tier,
                points: value,
            }
        };
        done.push((rep, o));
        out.push((card, o));
    }
    Ok((out, nodes))
}

/// The solver position of a world at the view's point of card play.
pub fn world_position(view: &View, world: &World) -> Result<Position, SkatError> {
    let (Some(contract), Some(declarer)) = (view.contract, view.declarer) else {
        return Err(SkatError::InvalidPosition(
            "a world position needs card play".into(),
        ));
    };
    let mut points = world.skat.points();
    let mut tricks = 0;
    for t in &view.tricks {
        if t.winner == declarer {
            tricks += 1;
            points += t.points();
        }
    }
    Position::new(
        world.hands,
        contract,
        declarer,
        view.leader,
        &view.trick,
        points,
        tricks,
    )
}

/// The declarer's twelve cards in a world: her hand, what she played, and the skat/discard.
pub(crate) fn twelve(view: &View, world: &World, declarer: u8) -> Cards {
    let mut c = world.hands[declarer as usize] | world.skat;
    for &(s, card) in &view.played {
        if s == declarer {
            c = c.with(card);
        }
    }
    c
}

/// Orders card values best first for the side `side` (+1 declarer, -1 defenders):
/// win rate, schneider tier, then the declarer's points with the side's sign (differences
/// below 1e-9 are ties), then the cheaper card, then the lower card.
fn best_first(a: &CardValue, b: &CardValue, side: f64) -> std::cmp::Ordering {
    let keys = [
        (a.win, b.win),
        (a.schneider, b.schneider),
        (side * a.points, side * b.points),
    ];
    higher_first(&keys, a.card, b.card)
}

/// Orders two cards by their values, higher first: the first pair of `keys` (the first
/// card's value, the second's) that differs by more than 1e-9 decides; on a tie the card
/// with fewer card points, then the lower card, comes first.
pub(crate) fn higher_first(keys: &[(f64, f64)], a: Card, b: Card) -> std::cmp::Ordering {
    const EPS: f64 = 1e-9;
    for &(x, y) in keys {
        if x > y + EPS {
            return std::cmp::Ordering::Less;
        }
        if x < y - EPS {
            return std::cmp::Ordering::Greater;
        }
    }
    a.points().cmp(&b.points()).then(a.cmp(&b))
}

/// [`sample_worlds`], each world of weight 1.
pub(crate) fn uniform_worlds(
    view: &View,
    n: usize,
    seed: u64,
) -> Result<Vec<(World, f64)>, SkatError> {
    Ok(sample_worlds(view, n, seed)?
        .into_iter()
        .map(|w| (w, 1.0))
        .collect())
}

/// Checks one given world of a decision: its weight is a finite non-negative number and it
/// gives the view's seat the hand the seat holds.
pub(crate) fn check_world(view: &View, world: &World, weight: f64) -> Result<(), SkatError> {
    if !(weight.is_finite() && weight >= 0.0) {
        return Err(SkatError::InvalidPosition(format!(
            "world weight {weight} is not a finite non-negative number"
        )));
    }
    if world.hands[view.seat as usize] != view.hand {
        return Err(SkatError::InvalidPosition(
            "a world disagrees with the seat's own hand".into(),
        ));
    }
    Ok(())
}

/// Checks an engine's thread count (1..=256) and optional time budget (a positive number of
/// seconds).
pub(crate) fn check_threads_and_budget(
    threads: usize,
    seconds: Option<f64>,
) -> Result<(), SkatError> {
    let bad = |msg: &str| Err(SkatError::InvalidPosition(msg.into()));
    if !(1..=256).contains(&threads) {
        return bad("threads must be between 1 and 256");
    }
    if seconds.is_some_and(|s| !(s.is_finite() && s > 0.0)) {
        return bad("seconds must be a positive number");
    }
    Ok(())
}

/// Runs jobs `0..n` on the workers, each on a thread of its own (on this thread when there is
/// one worker): every worker takes the lowest job not yet taken, until none is left, `stop`
/// holds for the job it has taken (that job is not run) or a job it ran failed. The answers
/// in job order, `None` for a job not run.
pub(crate) fn run_jobs<W: Send, R: Send>(
    workers: &[Mutex<W>],
    n: usize,
    stop: impl Fn(usize) -> bool + Sync,
    job: impl Fn(&mut W, usize) -> Result<R, SkatError> + Sync,
) -> Vec<Option<Result<R, SkatError>>> {
    let next = AtomicUsize::new(0);
    let results: Vec<Mutex<Option<Result<R, SkatError>>>> =
        (0..n).map(|_| Mutex::new(None)).collect();
    let work = |worker: &Mutex<W>| {
        let mut worker = worker.lock().expect("worker lock");
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= n || stop(i) {
                break;
            }
            let r = job(&mut worker, i);
            let failed = r.is_err();
            *results[i].lock().expect("result lock") = Some(r);
            if failed {
                break;
            }
        }
    };
    if workers.len() <= 1 {
        work(&workers[0]);
    } else {
        std::thread::scope(|scope| {
            for w in workers {
                scope.spawn(|| work(w));
            }
        });
    }
    results
        .into_iter()
        .map(|r| r.into_inner().expect("result lock"))
        .collect()
}

/// The moment a time budget of `seconds` from `start` runs out; `None` without a budget or when
/// the moment is too far away to be represented (such a budget never runs out).
pub(crate) fn deadline(start: Instant, seconds: Option<f64>) -> Option<Instant> {
    let d = Duration::try_from_secs_f64(seconds?.max(0.0)).ok()?;
    start.checked_add(d)
}

/// A reusable PIMC engine: one solver per thread, kept between decisions.
pub struct Pimc {
    options: PimcOptions,
    solvers: Vec<Mutex<Solver>>,
}

impl Pimc {
    /// Builds the engine; rejects worlds outside 1..=[`MAX_WORLDS`], a thread count outside
    /// 1..=256 and a time budget that is not a positive number, and gives
    /// [`SkatError::OutOfMemory`] when the threads' tables cannot be allocated.
    pub fn new(options: PimcOptions) -> Result<Pimc, SkatError> {
        let bad = |msg: &str| Err(SkatError::InvalidPosition(msg.into()));
        if options.worlds == 0 {
            return bad("worlds must be at least 1");
        }
        check_count("worlds", options.worlds, MAX_WORLDS)?;
        check_threads_and_budget(options.threads, options.seconds)?;
        // one table per thread: refused as a whole when together they exceed the memory
        check_table_memory(&options.solver, options.threads)?;
        Ok(Pimc {
            options,
            solvers: (0..options.threads)
                .map(|_| Solver::try_new(options.solver).map(Mutex::new))
                .collect::<Result<_, _>>()?,
        })
    }

    pub fn options(&self) -> &PimcOptions {
        &self.options
    }

    /// Decides with worlds sampled uniformly from what the view's seat knows.
    pub fn decide(&self, view: &View, seed: u64) -> Result<Decision, SkatError> {
        let worlds = uniform_worlds(view, self.options.worlds, seed)?;
        self.decide_worlds(view, &worlds)
    }

    /// Decides with worlds drawn by inference: `candidates` uniform worlds weighted by
    /// `inference`, `worlds` of them drawn in proportion (see [`Inference::sample`]). A side
    /// that does not use inference samples uniformly, exactly as [`Pimc::decide`].
    pub fn decide_inferred(
        &self,
        view: &View,
        seed: u64,
        inference: &Inference,
        candidates: usize,
    ) -> Result<Decision, SkatError> {
        if !inference.active(view) {
            return self.decide(view, seed);
        }
        let start = Instant::now();
        let (worlds, stats) = inference.sample(view, candidates, self.options.worlds, seed)?;
        let mut d = self.decide_worlds(view, &worlds)?;
        d.inference = Some(stats);
        d.micros = start.elapsed().as_micros() as u64;
        Ok(d)
    }

    /// Decides over the given weighted worlds (each must agree with the view: its hands are
    /// the cards still held, its skat the skat or discard).
    pub fn decide_worlds(
        &self,
        view: &View,
        worlds: &[(World, f64)],
    ) -> Result<Decision, SkatError> {
        let start = Instant::now();
        if view.phase != Phase::Playing || view.to_move != Some(view.seat) {
            return Err(SkatError::InvalidPosition(
                "PIMC decides card play for the seat to move".into(),
            ));
        }
        let (Some(declarer), Some(contract)) = (view.declarer, view.contract) else {
            return Err(SkatError::InvalidPosition(
                "PIMC decides the card play of a declared game, not of a Ramsch".into(),
            ));
        };
        if worlds.is_empty() {
            return Err(SkatError::InvalidPosition("no worlds to search".into()));
        }
        let mut positions = Vec::with_capacity(worlds.len());
        for (w, weight) in worlds {
            check_world(view, w, *weight)?;
            let pos = world_position(view, w)?;
            let need = win_threshold(contract, view.bid, twelve(view, w, declarer));
            positions.push((pos, need));
        }
        let n = positions.len();
        let deadline = deadline(start, self.options.seconds);
        let min_worlds = n.min(self.options.threads);
        let results = run_jobs(
            &self.solvers[..self.options.threads.min(n)],
            n,
            |i| i >= min_worlds && deadline.is_some_and(|d| Instant::now() >= d),
            |solver, i| {
                let (pos, need) = &positions[i];
                outcomes(solver, pos, *need, self.options.points)
            },
        );
        // aggregate in world order over the contiguous prefix that was solved
        let mut legal: Vec<Card> = Vec::new();
        let mut sums: Vec<[f64; 3]> = Vec::new();
        let (mut used, mut weight, mut nodes) = (0usize, 0.0f64, 0u64);
        let side = if view.seat == declarer { 1.0 } else { -1.0 };
        for (i, slot) in results.into_iter().enumerate() {
            let Some(r) = slot else {
                break;
            };
            let (outs, nd) = r?;
            if legal.is_empty() {
                legal = outs.iter().map(|&(c, _)| c).collect();
                sums = vec![[0.0; 3]; legal.len()];
            }
            let w = worlds[i].1;
            for (k, &(_, o)) in outs.iter().enumerate() {
                let win = if o.win == (side > 0.0) { 1.0 } else { 0.0 };
                sums[k][0] += w * win;
                sums[k][1] += w * side * o.tier as f64;
                sums[k][2] += w * o.points as f64;
            }
            used += 1;
            weight += w;
            nodes += nd;
        }
        let norm = if weight > 0.0 { 1.0 / weight } else { 0.0 };
        let mut values: Vec<CardValue> = legal
            .iter()
            .zip(&sums)
            .map(|(&card, s)| CardValue {
                card,
                win: s[0] * norm,
                schneider: s[1] * norm,
                points: s[2] * norm,
            })
            .collect();
        values.sort_by(|a, b| best_first(a, b, side));
        Ok(Decision {
            best: values[0].card,
            values,
            worlds: used,
            weight,
            nodes,
            micros: start.elapsed().as_micros() as u64,
            inference: None,
        })
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::action::Action;
    use crate::deal::Deal;
    use crate::game::Game;
    use crate::rules::GameType;

    /// A game in card play after random legal auction actions (the first seed from `seed` on,
    /// in steps of 1000, whose auction finds a declarer).
    pub(crate) fn playing_game(seed: u64) -> Game {
        let mut s = seed;
        loop {
            let mut rng = crate::rng::Rng::new(s);
            let mut g = Game::new(Deal::random_with(&mut rng));
            while !g.is_over() && g.phase() != Phase::Playing {
                let acts = g.legal_actions();
                let a = acts[rng.below(acts.len() as u64) as usize];
                g.apply(a).unwrap();
            }
            if g.phase() == Phase::Playing {
                return g;
            }
            s += 1000;
        }
    }

    /// Applies up to `steps` legal actions of `g`, each drawn from `rng`, stopping when the
    /// game is over.
    pub(crate) fn play_randomly(g: &mut Game, rng: &mut crate::rng::Rng, steps: u64) {
        for _ in 0..steps {
            if g.is_over() {
                break;
            }
            let a = g.legal_actions();
            g.apply(a[rng.below(a.len() as u64) as usize]).unwrap();
        }
    }

    #[test]
    fn thresholds() {
        let c = Contract::plain(GameType::Grand);
        let jacks = Cards::parse("CJ SJ HJ DJ").unwrap();
        assert_eq!(win_threshold(c, 18, jacks), 61);
        // grand with four jacks: (4+1)*24 = 120; schneider level 144; schwarz 168
        assert_eq!(win_threshold(c, 130, jacks), 90);
        assert_eq!(win_threshold(c, 150, jacks), 120);
        assert_eq!(win_threshold(c, 200, jacks), 121);
        let hs = Contract::new(GameType::Grand, true, true, false, false).unwrap();
        assert_eq!(win_threshold(hs, 18, jacks), 90);
    }

    #[test]
    fn thread_count_and_table_do_not_change_decisions() {
        for seed in 0..6u64 {
            let mut g = playing_game(seed);
            // play a couple of cards so that mid-trick positions appear too
            for _ in 0..(seed % 3) {
                let a = g.legal_actions()[0];
                g.apply(a).unwrap();
            }
            let seat = g.to_move().unwrap();
            let view = g.view(seat);
            let opts = PimcOptions {
                worlds: 6,
                ..PimcOptions::default()
            };
            let one = Pimc::new(opts).unwrap().decide(&view, seed).unwrap();
            let two = Pimc::new(PimcOptions { threads: 2, ..opts })
                .unwrap()
                .decide(&view, seed)
                .unwrap();
            assert_eq!(one.values, two.values);
            assert_eq!(one.best, two.best);
            assert_eq!(one.worlds, 6);
            let legal: Cards = view
                .legal
                .iter()
                .filter_map(|a| match a {
                    Action::Play(c) => Some(*c),
                    _ => None,
                })
                .collect();
            assert!(legal.contains(one.best));
            assert_eq!(one.values.len(), legal.len() as usize);
        }
    }

    #[test]
    fn outcomes_agree_with_analyze() {
        for seed in 0..8u64 {
            let g = playing_game(100 + seed);
            let pos = Position::from_game(&g).unwrap();
            let mut solver = Solver::new(SolverOptions {
                tt_mb: 4,
                ..SolverOptions::default()
            });
            let (exact, _) = solver.analyze(&pos);
            let (outs, _) = outcomes(&mut solver, &pos, 61, true).unwrap();
            assert_eq!(exact.len(), outs.len());
            for ((c1, v), (c2, o)) in exact.iter().zip(&outs) {
                assert_eq!(c1, c2);
                if pos.game_type().is_null() {
                    assert_eq!(o.points, null_survival(*v));
                    assert_eq!(o.win, *v == 0);
                } else {
                    assert_eq!(o.points, *v);
                    assert_eq!(o.win, *v >= 61);
                    let tier = if *v >= 90 {
                        1
                    } else if *v <= 30 {
                        -1
                    } else {
                        0
                    };
                    assert_eq!(o.tier, tier);
                }
            }
        }
    }

    #[test]
    fn a_ramsch_is_refused_not_a_panic() {
        let v = crate::variants::Variants::parse("ramsch").unwrap();
        let mut g = Game::with_variants(Deal::random(3), v);
        for t in ["p", "p", "p"] {
            g.apply_token(t).unwrap();
        }
        assert!(g.is_ramsch());
        while g.phase() != Phase::Playing {
            let a = g.legal_actions()[0];
            g.apply(a).unwrap();
        }
        let view = g.view(g.to_move().unwrap());
        let truth = World {
            hands: g.hands(),
            skat: g.skat(),
        };
        let pimc = Pimc::new(PimcOptions {
            worlds: 2,
            ..PimcOptions::default()
        })
        .unwrap();
        let e = pimc.decide_worlds(&view, &[(truth, 1.0)]).unwrap_err();
        assert!(e.to_string().contains("Ramsch"), "{e}");
        assert!(pimc.decide(&view, 1).is_err());
    }

    #[test]
    fn a_time_budget_too_long_for_an_instant_never_runs_out() {
        // such budgets panicked converting to a Duration or adding it to the start
        let g = playing_game(11);
        let view = g.view(g.to_move().unwrap());
        for seconds in [1e19, 1e300, f64::MAX] {
            let pimc = Pimc::new(PimcOptions {
                worlds: 2,
                seconds: Some(seconds),
                ..PimcOptions::default()
            })
            .unwrap();
            assert_eq!(pimc.decide(&view, 1).unwrap().worlds, 2);
        }
        assert!(deadline(Instant::now(), Some(1.0)).is_some());
        assert!(deadline(Instant::now(), Some(1e300)).is_none());
    }

    #[test]
    fn a_world_count_beyond_the_limit_is_refused() {
        let with = |worlds| {
            Pimc::new(PimcOptions {
                worlds,
                ..PimcOptions::default()
            })
        };
        assert!(with(MAX_WORLDS).is_ok());
        for worlds in [MAX_WORLDS + 1, 1 << 40, usize::MAX] {
            let e = with(worlds).err().expect("refused");
            assert!(e.to_string().contains("at most"), "{e}");
        }
    }

    #[test]
    fn perfect_information_world_matches_the_true_position() {
        let g = playing_game(7);
        let seat = g.to_move().unwrap();
        let view = g.view(seat);
        let w = World {
            hands: g.hands(),
            skat: g.skat(),
        };
        let pos = world_position(&view, &w).unwrap();
        assert_eq!(pos, Position::from_game(&g).unwrap());
    }
}
