//! Imperfect Information Monte Carlo card play (IIMC, Furtak's thesis ch. 9, Algorithm 4).
//!
//! PIMC values a card by solving sampled worlds open-handed; IIMC values it by *playing the
//! game out* in each sampled world with a playout player that sees only what the seat to move
//! would see. For every world `x` (drawn from the deciding seat's view, uniformly or by
//! inference) and every legal card `m`:
//!
//! 1. the world is turned into a whole [`Game`]: each seat's original hand is its cards in `x`
//!    plus the cards it has played; the auction, the pick-up and the declaration are replayed
//!    from the view's history (a declarer who picked up the skat is given back the cards she
//!    put away as the skat she found, unless the deciding seat is that declarer and knows the
//!    real skat);
//! 2. `m` is played, then until the game is over the seat to move is shown
//!    `game.view(seat)`, **only its own information set**, and the playout player chooses its
//!    card from that view alone (a single legal card is played without asking);
//! 3. the finished game's Seeger-Fabian score of the declarer (won: value + 50, lost:
//!    -(2 × value) - 50) is the playout value, with the sign of the deciding seat's side
//!    (declarer +, defenders −).
//!
//! The card of highest weighted mean value is played; ties go to the card with fewer card
//! points, then the lower card, as in PIMC.
//!
//! # Playout players and recursion
//!
//! The playout player is PIMC ([`crate::pimc`]) with `M` worlds (RecPIMC, R1), or IIMC itself
//! (R2, R3, ...): [`Playout`] lists the worlds per level, outermost first, the last being the
//! PIMC worlds. Playout PIMC samples uniformly from the mover's view, or by inference when the
//! decision is given one and the playout levels are told to use it.
//!
//! # Determinism and the cache
//!
//! A playout decision's seed is a function of the decision's seed and of the mover's
//! information set (seat, hand, the skat she put away if she is the declarer, an ouvert hand,
//! and the cards played in order), so a playout decision depends on the information set only.
//! Decisions are cached by information set inside one top-level decision: a cache hit returns
//! exactly what the playout player would have answered, so the cache changes the speed, never
//! the result. Every (world, card) playout is independent of the others, so results do not
//! depend on the number of threads. With a time budget the number of worlds depends on the
//! machine's speed (whole worlds only: every card of a world is played out).

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use crate::action::Action;
use crate::cards::{Card, Cards};
use crate::deal::Deal;
use crate::error::SkatError;
use crate::game::{Game, Phase, View};
use crate::inference::{Inference, InferenceStats};
use crate::pimc::{
    check_threads_and_budget, check_world, higher_first, run_jobs, uniform_worlds, Pimc,
    PimcOptions,
};
use crate::sampling::{check_count, World, MAX_CANDIDATES, MAX_WORLDS};
use crate::solver::check_table_memory;

/// The playout player: `worlds[..n-1]` are the worlds of nested IIMC levels (outermost first),
/// `worlds[n-1]` those of the innermost PIMC.
#[derive(Clone, Debug, PartialEq)]
pub struct Playout {
    pub worlds: Vec<usize>,
    /// The innermost PIMC's settings (`worlds` and `threads` are replaced: one thread).
    pub pimc: PimcOptions,
    /// Whether every playout level draws its worlds by inference (when the decision has one).
    pub inference: bool,
    /// Candidate worlds weighed per playout decision with inference (0: the inference's own).
    pub candidates: usize,
}

impl Default for Playout {
    fn default() -> Playout {
        Playout {
            worlds: vec![10],
            pimc: PimcOptions {
                points: false,
                ..PimcOptions::default()
            },
            inference: false,
            candidates: 0,
        }
    }
}

/// Settings of an IIMC search.
#[derive(Clone, Debug, PartialEq)]
pub struct IimcOptions {
    /// Top-level worlds per decision (N).
    pub worlds: usize,
    /// Optional time budget per decision in seconds (whole worlds; at least one).
    pub seconds: Option<f64>,
    /// Threads that play out (world, card) pairs in parallel.
    pub threads: usize,
    /// Whether the top level draws its worlds by inference (when the decision has one).
    pub inference: bool,
    pub playout: Playout,
}

impl Default for IimcOptions {
    fn default() -> IimcOptions {
        IimcOptions {
            worlds: 20,
            seconds: None,
            threads: 1,
            inference: true,
            playout: Playout::default(),
        }
    }
}

/// The mean playout value of one legal card, from the deciding seat's side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IimcValue {
    pub card: Card,
    /// Weighted mean Seeger-Fabian score of the declarer, with the seat's side's sign.
    pub score: f64,
    /// Weighted share of the playouts the seat's side won.
    pub win: f64,
}

/// An IIMC decision with its evidence.
#[derive(Clone, Debug, PartialEq)]
pub struct IimcDecision {
    pub best: Card,
    /// Every legal card, best first.
    pub values: Vec<IimcValue>,
    pub worlds: usize,
    pub weight: f64,
    /// Games played out.
    pub playouts: u64,
    /// Playout decisions asked of the playout player (cache hits included; forced cards not).
    pub decisions: u64,
    /// Playout decisions answered from the information-set cache.
    pub cache_hits: u64,
    pub micros: u64,
    pub inference: Option<InferenceStats>,
}

/// Counters shared by the threads of one decision.
#[derive(Default)]
struct Counters {
    playouts: AtomicU64,
    decisions: AtomicU64,
    hits: AtomicU64,
}

/// The information set of a seat to move in a playout.
#[derive(Clone, PartialEq, Eq, Hash)]
struct InfoKey {
    seat: u8,
    hand: Cards,
    discard: Option<Cards>,
    open: Option<Cards>,
    played: Vec<Card>,
}

impl InfoKey {
    fn of(view: &View) -> InfoKey {
        InfoKey {
            seat: view.seat,
            hand: view.hand,
            discard: view.discard,
            open: view.open_hand,
            played: view.played.iter().map(|p| p.1).collect(),
        }
    }

    fn seed(&self, base: u64) -> u64 {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        base.hash(&mut h);
        self.hash(&mut h);
        h.finish()
    }
}

type Cache = Mutex<HashMap<InfoKey, Card>>;

/// The playout player of one thread: PIMC or a nested IIMC level.
enum Mover {
    Pimc(Pimc),
    Iimc { worlds: usize, inner: Box<Mover> },
}

impl Mover {
    fn new(levels: &[usize], pimc: PimcOptions) -> Result<Mover, SkatError> {
        match levels {
            [] => Err(SkatError::InvalidPosition(
                "a playout needs at least one level".into(),
            )),
            [m] => Ok(Mover::Pimc(Pimc::new(PimcOptions {
                worlds: *m,
                threads: 1,
                seconds: None,
                ..pimc
            })?)),
            [n, rest @ ..] => {
                if *n == 0 {
                    return Err(SkatError::InvalidPosition(
                        "worlds must be at least 1".into(),
                    ));
                }
                check_count("worlds", *n, MAX_WORLDS)?;
                Ok(Mover::Iimc {
                    worlds: *n,
                    inner: Box::new(Mover::new(rest, pimc)?),
                })
            }
        }
    }

    /// The card this playout player chooses in `view` (the seat to move's own view).
    fn choose(&self, view: &View, seed: u64, ctx: &Ctx) -> Result<Card, SkatError> {
        let inf = if ctx.playout.inference {
            ctx.inference.filter(|(i, _)| i.active(view))
        } else {
            None
        };
        match self {
            Mover::Pimc(engine) => {
                let d = match inf {
                    Some((i, cand)) => engine.decide_inferred(view, seed, i, cand)?,
                    None => engine.decide(view, seed)?,
                };
                Ok(d.best)
            }
            Mover::Iimc { worlds, inner } => {
                let (ws, _) = draw(view, *worlds, seed, inf)?;
                let cache = Cache::default();
                let counters = Counters::default();
                let (values, _, _) = evaluate(view, &ws, seed, inner, &cache, &counters, ctx)?;
                Ok(values[0].card)
            }
        }
    }
}

/// What every playout decision of one top-level decision shares.
struct Ctx<'a> {
    playout: &'a Playout,
    /// The inference and the candidates per playout decision.
    inference: Option<(&'a Inference<'a>, usize)>,
}

/// Weighted worlds and what inference did to draw them.
type Drawn = (Vec<(World, f64)>, Option<InferenceStats>);

/// `n` worlds from the view: by inference when given (weights are multiplicities), else
/// uniform.
fn draw(
    view: &View,
    n: usize,
    seed: u64,
    inference: Option<(&Inference, usize)>,
) -> Result<Drawn, SkatError> {
    match inference {
        Some((i, cand)) => {
            let (w, s) = i.sample(view, cand, n, seed)?;
            Ok((w, Some(s)))
        }
        None => Ok((uniform_worlds(view, n, seed)?, None)),
    }
}

/// The whole game of a world: original hands rebuilt from the world and the played cards, the
/// view's history replayed. Its state at card play equals the view's, with the world's cards.
pub fn world_game(view: &View, world: &World) -> Result<Game, SkatError> {
    let bad = |msg: &str| SkatError::InvalidPosition(msg.into());
    let declarer = view
        .declarer
        .ok_or_else(|| bad("a world game needs card play"))?;
    if view.phase != Phase::Playing {
        return Err(bad("a world game needs card play"));
    }
    let mut hands = world.hands;
    for &(s, c) in &view.played {
        hands[s as usize] = hands[s as usize].with(c);
    }
    let mut skat = world.skat;
    if view.picked_up {
        // the skat she found: known to the declarer herself; else the cards she put away
        let found = match (view.seat == declarer, view.skat) {
            (true, Some(s)) => s,
            _ => world.skat,
        };
        let d = declarer as usize;
        hands[d] = (hands[d] | world.skat) - found;
        skat = found;
    }
    // the view's table variants, so that its Kontra and Re replay (and count in the score)
    let mut g = Game::with_variants(Deal::new(hands, skat)?, view.variants);
    let mut discarded = false;
    for m in &view.history {
        match m.action {
            Action::Discard(_) | Action::Declare(_, Some(_)) => discarded = true,
            Action::Declare(k, None) if view.picked_up && !discarded => {
                g.apply_by(m.actor, Action::Discard(world.skat))?;
                g.apply_by(m.actor, Action::Declare(k, None))?;
                discarded = true;
                continue;
            }
            _ => {}
        }
        g.apply_by(m.actor, m.action)?;
    }
    if g.phase() != Phase::Playing || g.hands() != world.hands || g.skat() != world.skat {
        return Err(bad("the world disagrees with the view's history"));
    }
    Ok(g)
}

/// Plays `card` in `game`, then finishes the game with `mover` deciding every card from the
/// mover's own view. The declarer's Seeger-Fabian score.
fn playout(
    mut game: Game,
    card: Card,
    seed: u64,
    mover: &Mover,
    cache: &Cache,
    counters: &Counters,
    ctx: &Ctx,
) -> Result<i32, SkatError> {
    game.apply(Action::Play(card))?;
    let mut legal = Vec::with_capacity(10);
    while !game.is_over() {
        game.legal_actions_into(&mut legal);
        let action = if legal.len() == 1 {
            legal[0]
        } else {
            let seat = game.to_move().expect("a seat to move in card play");
            let view = game.view(seat);
            let key = InfoKey::of(&view);
            counters.decisions.fetch_add(1, Ordering::Relaxed);
            let cached = cache.lock().expect("cache lock").get(&key).copied();
            let c = match cached {
                Some(c) => {
                    counters.hits.fetch_add(1, Ordering::Relaxed);
                    c
                }
                None => {
                    let c = mover.choose(&view, key.seed(seed), ctx)?;
                    cache.lock().expect("cache lock").insert(key, c);
                    c
                }
            };
            Action::Play(c)
        };
        game.apply(action)?;
    }
    counters.playouts.fetch_add(1, Ordering::Relaxed);
    let r = game.result().expect("a finished game has a result");
    let d = r.declarer.expect("card play has a declarer");
    Ok(r.scores[d as usize])
}

/// The legal cards of the view's seat to move (descending card order).
fn legal_cards(view: &View) -> Result<Vec<Card>, SkatError> {
    if view.phase != Phase::Playing || view.to_move != Some(view.seat) {
        return Err(SkatError::InvalidPosition(
            "IIMC decides card play for the seat to move".into(),
        ));
    }
    let mut cards: Vec<Card> = view
        .legal
        .iter()
        .filter_map(|a| match a {
            Action::Play(c) => Some(*c),
            _ => None,
        })
        .collect();
    if cards.is_empty() {
        // after a hidden card of a record ("??") the seat has nothing it may play
        return Err(SkatError::InvalidPosition(
            "IIMC: the seat to move has no card it may play".into(),
        ));
    }
    cards.sort_by(|a, b| b.cmp(a));
    Ok(cards)
}

/// Orders values best first: higher score, then higher win share, then fewer card points,
/// then the lower card.
fn best_first(a: &IimcValue, b: &IimcValue) -> std::cmp::Ordering {
    higher_first(&[(a.score, b.score), (a.win, b.win)], a.card, b.card)
}

/// The decision when only one card is legal: nothing is played out.
fn forced(card: Card, start: Instant) -> IimcDecision {
    IimcDecision {
        best: card,
        values: vec![IimcValue {
            card,
            score: 0.0,
            win: 0.0,
        }],
        worlds: 0,
        weight: 0.0,
        playouts: 0,
        decisions: 0,
        cache_hits: 0,
        micros: start.elapsed().as_micros() as u64,
        inference: None,
    }
}

/// Single-threaded evaluation of every legal card over `worlds` (nested levels).
fn evaluate(
    view: &View,
    worlds: &[(World, f64)],
    seed: u64,
    mover: &Mover,
    cache: &Cache,
    counters: &Counters,
    ctx: &Ctx,
) -> Result<(Vec<IimcValue>, usize, f64), SkatError> {
    let cards = legal_cards(view)?;
    let games = worlds
        .iter()
        .map(|(w, _)| world_game(view, w))
        .collect::<Result<Vec<_>, _>>()?;
    let mut scores = vec![vec![0i32; cards.len()]; worlds.len()];
    if cards.len() > 1 {
        for (i, g) in games.iter().enumerate() {
            for (k, &c) in cards.iter().enumerate() {
                scores[i][k] = playout(g.clone(), c, seed, mover, cache, counters, ctx)?;
            }
        }
    }
    Ok(aggregate(view, &cards, worlds, &scores))
}

/// Weighted means over the worlds, best first; the number of worlds and their weight.
fn aggregate(
    view: &View,
    cards: &[Card],
    worlds: &[(World, f64)],
    scores: &[Vec<i32>],
) -> (Vec<IimcValue>, usize, f64) {
    let side = if view.declarer == Some(view.seat) {
        1.0
    } else {
        -1.0
    };
    let mut sums = vec![(0.0f64, 0.0f64); cards.len()];
    let mut weight = 0.0;
    for (row, (_, w)) in scores.iter().zip(worlds) {
        for (k, &s) in row.iter().enumerate() {
            let v = side * s as f64;
            sums[k].0 += w * v;
            sums[k].1 += if v > 0.0 { *w } else { 0.0 };
        }
        weight += w;
    }
    let norm = if weight > 0.0 { 1.0 / weight } else { 0.0 };
    let mut values: Vec<IimcValue> = cards
        .iter()
        .zip(&sums)
        .map(|(&card, &(s, win))| IimcValue {
            card,
            score: s * norm,
            win: win * norm,
        })
        .collect();
    values.sort_by(best_first);
    (values, scores.len(), weight)
}

/// A reusable IIMC engine: one playout player per thread, kept between decisions.
pub struct Iimc {
    options: IimcOptions,
    movers: Vec<Mutex<Mover>>,
}

impl Iimc {
    /// Builds the engine; rejects worlds outside 1..=[`MAX_WORLDS`] at any level, more than
    /// [`MAX_CANDIDATES`] playout candidates, a thread count outside 1..=256 and a time budget
    /// that is not a positive number, and gives [`SkatError::OutOfMemory`] when the threads'
    /// tables cannot be allocated.
    pub fn new(options: IimcOptions) -> Result<Iimc, SkatError> {
        let bad = |msg: &str| Err(SkatError::InvalidPosition(msg.into()));
        if options.worlds == 0 || options.playout.worlds.contains(&0) {
            return bad("worlds must be at least 1");
        }
        check_count("worlds", options.worlds, MAX_WORLDS)?;
        check_count(
            "playout candidates",
            options.playout.candidates,
            MAX_CANDIDATES,
        )?;
        check_threads_and_budget(options.threads, options.seconds)?;
        // each thread's innermost PIMC holds one table
        check_table_memory(&options.playout.pimc.solver, options.threads)?;
        let movers = (0..options.threads)
            .map(|_| Mover::new(&options.playout.worlds, options.playout.pimc).map(Mutex::new))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Iimc { options, movers })
    }

    pub fn options(&self) -> &IimcOptions {
        &self.options
    }

    /// Decides the card of `view.seat` (to move in card play). Top-level worlds are drawn by
    /// `inference` when given, the top level uses it and the seat's side is active in it,
    /// else uniformly; playout levels use it when [`Playout::inference`] says so.
    pub fn decide(
        &self,
        view: &View,
        seed: u64,
        inference: Option<(&Inference, usize)>,
    ) -> Result<IimcDecision, SkatError> {
        let start = Instant::now();
        let top = if self.options.inference {
            inference.filter(|(i, _)| i.active(view))
        } else {
            None
        };
        let cards = legal_cards(view)?;
        if cards.len() == 1 {
            return Ok(forced(cards[0], start));
        }
        let (worlds, stats) = draw(view, self.options.worlds, seed, top)?;
        let mut d = self.decide_worlds(view, &worlds, seed, inference)?;
        d.inference = stats;
        d.micros = start.elapsed().as_micros() as u64;
        Ok(d)
    }

    /// Decides over the given weighted worlds (each must agree with the view); `seed` seeds
    /// the playout decisions.
    pub fn decide_worlds(
        &self,
        view: &View,
        worlds: &[(World, f64)],
        seed: u64,
        inference: Option<(&Inference, usize)>,
    ) -> Result<IimcDecision, SkatError> {
        let start = Instant::now();
        let cards = legal_cards(view)?;
        if cards.len() == 1 {
            return Ok(forced(cards[0], start));
        }
        if worlds.is_empty() {
            return Err(SkatError::InvalidPosition("no worlds to play out".into()));
        }
        let mut games = Vec::with_capacity(worlds.len());
        for (w, weight) in worlds {
            check_world(view, w, *weight)?;
            games.push(world_game(view, w)?);
        }
        let inference = inference.map(|(i, cand)| {
            let c = self.options.playout.candidates;
            (i, if c > 0 { c } else { cand })
        });
        let ctx = Ctx {
            playout: &self.options.playout,
            inference,
        };
        let counters = Counters::default();
        let cache = Cache::default();
        let n = worlds.len();
        let per = cards.len();
        let deadline = crate::pimc::deadline(start, self.options.seconds);
        let mut results = run_jobs(
            &self.movers[..self.options.threads.min(n * per)],
            n * per,
            |j| j / per >= 1 && deadline.is_some_and(|d| Instant::now() >= d),
            |mover, j| {
                let (i, k) = (j / per, j % per);
                let g = games[i].clone();
                playout(g, cards[k], seed, mover, &cache, &counters, &ctx)
            },
        );
        // whole worlds only, in world order, over the contiguous prefix that was played out
        let mut scores: Vec<Vec<i32>> = Vec::new();
        for chunk in results.chunks_mut(per) {
            let mut row = Vec::with_capacity(per);
            for slot in chunk {
                match slot.take() {
                    Some(r) => row.push(r?),
                    None => break,
                }
            }
            if row.len() < per {
                break;
            }
            scores.push(row);
        }
        let used = &worlds[..scores.len()];
        let (values, count, weight) = aggregate(view, &cards, used, &scores);
        Ok(IimcDecision {
            best: values[0].card,
            values,
            worlds: count,
            weight,
            playouts: counters.playouts.load(Ordering::Relaxed),
            decisions: counters.decisions.load(Ordering::Relaxed),
            cache_hits: counters.hits.load(Ordering::Relaxed),
            micros: start.elapsed().as_micros() as u64,
            inference: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pimc::tests::{play_randomly, playing_game};
    use crate::rng::Rng;
    use crate::sampling::Knowledge;
    use crate::variants::Variants;

    fn small() -> IimcOptions {
        IimcOptions {
            worlds: 3,
            playout: Playout {
                worlds: vec![2],
                ..Playout::default()
            },
            ..IimcOptions::default()
        }
    }

    #[test]
    fn world_games_rebuild_the_view_for_every_seat() {
        let mut rng = Rng::new(5);
        for seed in 0..80u64 {
            // half of the games with Kontra, Re and Bock, said whenever the random play can
            let plain = playing_game(seed);
            let mut g = if seed % 2 == 0 {
                plain
            } else {
                let variants = Variants::parse("kontra bock").unwrap();
                let mut g = Game::with_variants(*plain.deal(), variants);
                for m in plain.history() {
                    g.apply_by(m.actor, m.action).unwrap();
                }
                let legal = g.legal_actions();
                if let Some(&a) = legal.iter().find(|a| !matches!(a, Action::Play(_))) {
                    g.apply(a).unwrap();
                }
                g
            };
            let steps = rng.below(25);
            play_randomly(&mut g, &mut rng, steps);
            if g.is_over() {
                continue;
            }
            let truth = World {
                hands: g.hands(),
                skat: g.skat(),
            };
            for seat in 0..3u8 {
                let view = g.view(seat);
                // the true world rebuilds the same game state
                let w = world_game(&view, &truth).unwrap();
                assert_eq!(w.played(), g.played());
                assert_eq!(w.to_move(), g.to_move());
                assert_eq!(w.declarer_points(), g.declarer_points());
                // every sampled world rebuilds a game whose public view is the seat's view
                for x in Knowledge::from_view(&view).unwrap().sample_many(5, seed) {
                    let wg = world_game(&view, &x).unwrap();
                    let v = wg.view(seat);
                    assert_eq!(v.hand, view.hand);
                    assert_eq!(v.played, view.played);
                    assert_eq!(v.legal, view.legal);
                    assert_eq!(v.discard, view.discard);
                    assert_eq!(v.history, view.history);
                }
            }
        }
    }

    #[test]
    fn decisions_are_legal_and_independent_of_threads() {
        for seed in 0..4u64 {
            let mut g = playing_game(50 + seed);
            for _ in 0..(15 + seed * 3) {
                if g.is_over() {
                    break;
                }
                let a = g.legal_actions()[0];
                g.apply(a).unwrap();
            }
            if g.is_over() {
                continue;
            }
            let view = g.view(g.to_move().unwrap());
            let one = Iimc::new(small())
                .unwrap()
                .decide(&view, seed, None)
                .unwrap();
            let two = Iimc::new(IimcOptions {
                threads: 2,
                ..small()
            })
            .unwrap()
            .decide(&view, seed, None)
            .unwrap();
            assert_eq!(one.values, two.values);
            let legal = legal_cards(&view).unwrap();
            assert!(legal.contains(&one.best));
            if legal.len() > 1 {
                assert_eq!(one.worlds, 3);
                assert_eq!(one.playouts, 3 * legal.len() as u64);
            }
        }
    }

    #[test]
    fn nested_levels_play_legal_cards() {
        let mut g = playing_game(77);
        for _ in 0..21 {
            if g.is_over() {
                break;
            }
            let a = g.legal_actions()[0];
            g.apply(a).unwrap();
        }
        if !g.is_over() {
            let view = g.view(g.to_move().unwrap());
            let opts = IimcOptions {
                worlds: 2,
                playout: Playout {
                    worlds: vec![2, 2],
                    ..Playout::default()
                },
                ..IimcOptions::default()
            };
            let d = Iimc::new(opts).unwrap().decide(&view, 1, None).unwrap();
            assert!(legal_cards(&view).unwrap().contains(&d.best));
        }
    }

    #[test]
    fn bad_options_are_refused() {
        assert!(Iimc::new(IimcOptions {
            worlds: 0,
            ..small()
        })
        .is_err());
        let mut o = small();
        o.playout.worlds = vec![];
        assert!(Iimc::new(o).is_err());
        assert!(Iimc::new(IimcOptions {
            threads: 0,
            ..small()
        })
        .is_err());
        // counts that could not be allocated (the process aborted)
        assert!(Iimc::new(IimcOptions {
            worlds: MAX_WORLDS + 1,
            ..small()
        })
        .is_err());
        for levels in [vec![1 << 40], vec![1 << 40, 2], vec![2, usize::MAX]] {
            let mut o = small();
            o.playout.worlds = levels;
            assert!(Iimc::new(o).is_err());
        }
        let mut o = small();
        o.playout.candidates = MAX_CANDIDATES + 1;
        assert!(Iimc::new(o).is_err());
    }

    #[test]
    fn a_time_budget_too_long_for_an_instant_never_runs_out() {
        let mut g = playing_game(9);
        while g.played().len() < 20 && !g.is_over() {
            let a = g.legal_actions()[0];
            g.apply(a).unwrap();
        }
        if g.is_over() {
            g = playing_game(10);
        }
        let view = g.view(g.to_move().unwrap());
        for seconds in [1e19, 1e300] {
            let iimc = Iimc::new(IimcOptions {
                seconds: Some(seconds),
                ..small()
            })
            .unwrap();
            assert!(iimc.decide(&view, 1, None).is_ok());
        }
    }

    #[test]
    fn a_seat_without_a_legal_card_is_refused_not_a_panic() {
        // a record's hidden card ("??") leaves the seat to move nothing it may play
        let mut g = playing_game(5);
        let seat = g.to_move().unwrap();
        g.apply_by(crate::game::Actor::Seat(seat), Action::Hidden)
            .unwrap();
        let view = g.view(seat);
        assert!(view.legal.is_empty());
        let iimc = Iimc::new(small()).unwrap();
        assert!(iimc.decide(&view, 1, None).is_err());
        let truth = World {
            hands: g.hands(),
            skat: g.skat(),
        };
        assert!(iimc.decide_worlds(&view, &[(truth, 1.0)], 1, None).is_err());
    }
}
