//! Card inference from the auction and the declaration (Long's thesis §4.3 and ch. 6).
//!
//! A world `w` consistent with what a seat has seen gets the weight
//! `P(w | history) ∝ P(w) · Π_i P(f_i | m) / P(f_i)` (eq. 4.7): the worlds are drawn uniformly,
//! so `P(w)` is constant, and each other player's *original* ten cards (the cards the world
//! gives her plus those she has played) are scored by the features she bid on.
//!
//! - **Features** ([`hand_features`]): the lengths of ♦ ♥ ♠ ♣ without jacks (0-7), the jacks
//!   held (a 4-bit pattern, 0-15), aces (0-4), aces and tens (0-8), kings and queens (0-8) and
//!   sevens, eights and nines (0-12): 84 feature values in all ([`FEATURE_VALUES`]).
//! - **Auction outcomes** ([`auction_outcomes`]): per seat, what the auction says about her:
//!   the value at which she passed (binned, [`bid_bin`]) and whether she had bid or held any
//!   value before that, or, for the player who won the auction, the bid she won it at; 21
//!   outcomes per seat, 63 in all ([`OUTCOMES`]). The value she passed at is the one she
//!   refused: the bid named to her when she was asked to hold it, else the next bid above the
//!   current one.
//! - **Tables** ([`BidTables`]): `log P(f | m) - log P(f)` for every outcome and feature value,
//!   learned offline from auctions of our own bidder on random deals (`skat.inference`); they
//!   hold public information only, and a seat's own cards enter at run time because only
//!   worlds consistent with them are drawn (Theorem 6.3.1).
//!
//! **The declarer** weights the defenders' original hands by their auction outcomes.
//! **A defender** weights the declarer's ten cards and two put-away cards by the 10+2
//! evaluation of the announced contract at the declarer's seat, counting only the ways in which
//! the game reaches the bid (plain, schneider or schwarz, as in the bidding tree); a hand below
//! 0.5 gets weight zero (Kermit's cut). Every split of her twelve cards into hand and discard is
//! a different world, so every discard option is weighed. The other defender's original hand
//! is weighted by her auction outcome, as the declarer does. In hand games the skat of the world
//! is taken as the skat the 10+2 evaluation sees.
//!
//! **Sampling** ([`Inference::sample`]): a large uniform candidate set is drawn, weighted, and the
//! searched worlds are drawn from it in proportion to the weights (systematic resampling; a world
//! drawn several times is searched once with its multiplicity as weight). When every candidate
//! has weight zero the sampler falls back to uniform worlds and says so in [`InferenceStats`].

use std::collections::HashMap;

use crate::action::Action;
use crate::bidding::BiddingModel;
use crate::cards::{Card, Cards};
use crate::error::SkatError;
use crate::game::{Actor, Move, View};
use crate::rng::Rng;
use crate::rules::{Contract, BIDS};
use crate::sampling::{check_count, Knowledge, World, MAX_CANDIDATES, MAX_WORLDS};

/// Feature names and their number of values, in table order.
pub const FEATURES: [(&str, usize); 9] = [
    ("diamonds", 8),
    ("hearts", 8),
    ("spades", 8),
    ("clubs", 8),
    ("jacks", 16),
    ("aces", 5),
    ("aces_tens", 9),
    ("kings_queens", 9),
    ("sevens_eights_nines", 13),
];
/// Where each feature's values start in a table row.
pub const FEATURE_OFFSETS: [usize; 9] = [0, 8, 16, 24, 32, 48, 53, 62, 71];
/// Feature values per table row.
pub const FEATURE_VALUES: usize = 84;
/// Bins of bid values: 18, 20, 22-24, 27-30, 33-36, 40-48, 50 and above.
pub const BID_BINS: usize = 7;
/// Outcomes per seat: passed without having bid (7 bins), passed after bidding (7), won (7).
pub const OUTCOMES_PER_SEAT: usize = 3 * BID_BINS;
/// All outcomes (three seats).
pub const OUTCOMES: usize = 3 * OUTCOMES_PER_SEAT;

/// The bin of a bid value (see [`BID_BINS`]).
pub fn bid_bin(value: u16) -> usize {
    match value {
        0..=18 => 0,
        19..=20 => 1,
        21..=24 => 2,
        25..=30 => 3,
        31..=36 => 4,
        37..=48 => 5,
        _ => 6,
    }
}

/// The feature values of ten (or any) cards, in [`FEATURES`] order.
#[inline]
pub fn hand_features(c: Cards) -> [usize; 9] {
    let b = c.0;
    let suit = |s: u32| ((b >> (8 * s)) & 0xEF).count_ones() as usize;
    [
        suit(0),
        suit(1),
        suit(2),
        suit(3),
        crate::bidding::jack_bits(c),
        (b & 0x8080_8080).count_ones() as usize,
        (b & 0x8888_8888).count_ones() as usize,
        (b & 0x6060_6060).count_ones() as usize,
        (b & 0x0707_0707).count_ones() as usize,
    ]
}

/// The next bid above `value` (18 for 0; the highest bid stays).
fn next_bid(value: u16) -> u16 {
    BIDS.iter().copied().find(|&b| b > value).unwrap_or(value)
}

/// The auction outcome index (0..[`OUTCOMES`]) of each seat after the auction in `history`;
/// `None` for a seat the auction has not yet said anything final about.
pub fn auction_outcomes(history: &[Move], declarer: Option<u8>) -> [Option<usize>; 3] {
    let mut high = [0u16; 3];
    let mut refused: [Option<u16>; 3] = [None; 3];
    let mut current = 0u16;
    let mut prev: Option<(u8, Action)> = None;
    for m in history {
        let Actor::Seat(s) = m.actor else { continue };
        let si = s as usize;
        match m.action {
            Action::Bid(v) => {
                high[si] = high[si].max(v);
                current = v;
            }
            Action::Hold => high[si] = high[si].max(current),
            Action::Pass => {
                let asked_to_hold = matches!(prev, Some((p, Action::Bid(_))) if p != s);
                refused[si] = Some(if asked_to_hold {
                    current
                } else {
                    next_bid(current)
                });
            }
            _ => break,
        }
        prev = Some((s, m.action));
    }
    let mut out = [None; 3];
    for s in 0..3usize {
        let base = s * OUTCOMES_PER_SEAT;
        out[s] = if declarer == Some(s as u8) {
            Some(base + 2 * BID_BINS + bid_bin(high[s].max(18)))
        } else {
            refused[s].map(|r| base + if high[s] > 0 { BID_BINS } else { 0 } + bid_bin(r))
        };
    }
    out
}

/// `log P(f | outcome) - log P(f)` for every auction outcome and feature value.
#[derive(Clone, Debug, PartialEq)]
pub struct BidTables {
    log_ratio: Vec<f32>,
}

impl BidTables {
    /// Tables from a row-major `OUTCOMES × FEATURE_VALUES` array of finite log ratios.
    pub fn new(log_ratio: Vec<f32>) -> Result<BidTables, SkatError> {
        if log_ratio.len() != OUTCOMES * FEATURE_VALUES {
            return Err(SkatError::InvalidCards(format!(
                "inference tables need {} values ({OUTCOMES} outcomes x {FEATURE_VALUES} \
                 feature values), got {}",
                OUTCOMES * FEATURE_VALUES,
                log_ratio.len()
            )));
        }
        if log_ratio.iter().any(|x| !x.is_finite()) {
            return Err(SkatError::InvalidCards(
                "inference tables hold a value that is not finite".into(),
            ));
        }
        Ok(BidTables { log_ratio })
    }

    /// Tables that carry no information (every ratio 1).
    pub fn uniform() -> BidTables {
        BidTables {
            log_ratio: vec![0.0; OUTCOMES * FEATURE_VALUES],
        }
    }

    /// `Σ_i log P(f_i | outcome) / P(f_i)` for the original hand `hand`.
    #[inline]
    pub fn log_weight(&self, outcome: usize, hand: Cards) -> f64 {
        let row = &self.log_ratio[outcome * FEATURE_VALUES..(outcome + 1) * FEATURE_VALUES];
        let f = hand_features(hand);
        let mut z = 0.0f32;
        for i in 0..9 {
            z += row[FEATURE_OFFSETS[i] + f[i]];
        }
        z as f64
    }
}

/// Which sides use inference: as declarer ("S", soloist) and as defender ("D").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sides {
    pub declarer: bool,
    pub defender: bool,
}

impl Sides {
    /// Parses `SD`, `S`, `D` or `NI`.
    pub fn parse(text: &str) -> Result<Sides, SkatError> {
        match text.trim().to_ascii_uppercase().as_str() {
            "SD" | "DS" => Ok(Sides {
                declarer: true,
                defender: true,
            }),
            "S" => Ok(Sides {
                declarer: true,
                defender: false,
            }),
            "D" => Ok(Sides {
                declarer: false,
                defender: true,
            }),
            "NI" | "" => Ok(Sides {
                declarer: false,
                defender: false,
            }),
            other => Err(SkatError::InvalidPosition(format!(
                "inference must be SD, S, D or NI, got {other:?}"
            ))),
        }
    }

    pub fn name(&self) -> &'static str {
        match (self.declarer, self.defender) {
            (true, true) => "SD",
            (true, false) => "S",
            (false, true) => "D",
            (false, false) => "NI",
        }
    }
}

/// What the sampler did for one decision.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InferenceStats {
    /// Uniform candidate worlds drawn and weighted.
    pub candidates: usize,
    /// Candidates with a weight above zero.
    pub nonzero: usize,
    /// Effective sample size of the weights, `(Σw)² / Σw²` (0 when all are zero).
    pub effective: f64,
    /// Every candidate had weight zero: uniform worlds were used instead.
    pub fallback: bool,
    /// Distinct worlds handed to the search.
    pub distinct: usize,
}

/// Where the hidden cards are, according to a set of uniform candidate worlds with and without
/// the inference weights (holders: seats 0-2, 3 = the skat).
#[derive(Clone, Debug, PartialEq)]
pub struct HolderOdds {
    /// The cards the seat cannot see, in card order.
    pub cards: Vec<Card>,
    /// Per card: the weighted share of candidates giving it to each holder.
    pub weighted: Vec<[f64; 4]>,
    /// Per card: the plain share of candidates giving it to each holder.
    pub uniform: Vec<[f64; 4]>,
    /// Every candidate weighed zero: `weighted` is the uniform share (what the sampler uses).
    pub fallback: bool,
}

/// What a view's history says, prepared once per decision.
struct Context {
    seat: u8,
    declarer: u8,
    contract: Contract,
    bid: u16,
    played_by: [Cards; 3],
    outcomes: [Option<usize>; 3],
}

/// The inference of one seat: tables, the bidding evaluation and the sides that use them.
pub struct Inference<'a> {
    pub tables: &'a BidTables,
    /// The 10+2 evaluation for defender-side inference (without it the defender weighs only
    /// the other defender's bids).
    pub model: Option<&'a BiddingModel>,
    pub sides: Sides,
}

impl Inference<'_> {
    /// The seat's knowledge (which validates the view: card play only) and what the
    /// weights need from the auction and the tricks.
    fn prepare(view: &View) -> Result<(Knowledge, Context), SkatError> {
        let k = Knowledge::from_view(view)?;
        let mut played_by = [Cards::EMPTY; 3];
        for &(s, c) in &view.played {
            played_by[s as usize] = played_by[s as usize].with(c);
        }
        let ctx = Context {
            seat: view.seat,
            declarer: k.declarer,
            contract: k.contract,
            bid: view.bid,
            played_by,
            outcomes: auction_outcomes(&view.history, Some(k.declarer)),
        };
        Ok((k, ctx))
    }

    /// Whether this seat's side uses inference in this view.
    pub fn active(&self, view: &View) -> bool {
        match view.declarer {
            Some(d) if d == view.seat => self.sides.declarer,
            Some(_) => self.sides.defender,
            None => false,
        }
    }

    fn bid_factor(&self, ctx: &Context, world: &World, s: u8) -> f64 {
        match ctx.outcomes[s as usize] {
            Some(o) => self
                .tables
                .log_weight(o, world.hands[s as usize] | ctx.played_by[s as usize]),
            None => 0.0,
        }
    }

    fn weight_in(&self, ctx: &Context, world: &World) -> f64 {
        if ctx.seat == ctx.declarer {
            if !self.sides.declarer {
                return 1.0;
            }
            let mut z = 0.0;
            for s in 0..3u8 {
                if s != ctx.declarer {
                    z += self.bid_factor(ctx, world, s);
                }
            }
            return z.exp();
        }
        if !self.sides.defender {
            return 1.0;
        }
        let mut w = 1.0;
        if let Some(model) = self.model {
            let d = ctx.declarer as usize;
            let hand = world.hands[d] | ctx.played_by[d];
            let e = model.declared_win(hand, world.skat, &ctx.contract, d, ctx.bid);
            if e < 0.5 {
                return 0.0;
            }
            w = e;
        }
        let partner = 3 - ctx.seat - ctx.declarer;
        w * self.bid_factor(ctx, world, partner).exp()
    }

    /// The weight of each world (unnormalised): exactly zero for a world the seat's
    /// knowledge rules out (own cards, played cards, shown voids, an open hand, her own
    /// discard: see [`Knowledge::consistent`]) or the declaration rules out (the game cannot
    /// reach the bid, or its 10+2 value is below 0.5), else positive.
    pub fn weights(&self, view: &View, worlds: &[World]) -> Result<Vec<f64>, SkatError> {
        let (k, ctx) = Self::prepare(view)?;
        Ok(worlds
            .iter()
            .map(|w| {
                if k.consistent(w) {
                    self.weight_in(&ctx, w)
                } else {
                    0.0
                }
            })
            .collect())
    }

    /// Where the hidden cards are among `candidates` uniform candidates drawn from `seed`
    /// (the candidates [`Knowledge::sample_many`] draws), weighted and unweighted.
    pub fn holder_odds(
        &self,
        view: &View,
        candidates: usize,
        seed: u64,
    ) -> Result<HolderOdds, SkatError> {
        check_count("candidates", candidates, MAX_CANDIDATES)?;
        let (k, ctx) = Self::prepare(view)?;
        let cards: Vec<Card> = k.deck.unknown().iter().collect();
        let mut weighted = vec![[0.0; 4]; cards.len()];
        let mut uniform = vec![[0.0; 4]; cards.len()];
        let mut total = 0.0;
        let worlds = k.sample_many(candidates.max(1), seed);
        for w in &worlds {
            let x = self.weight_in(&ctx, w);
            total += x;
            for (i, &c) in cards.iter().enumerate() {
                let h = (0..3).find(|&s| w.hands[s].contains(c)).unwrap_or(3);
                weighted[i][h] += x;
                uniform[i][h] += 1.0;
            }
        }
        let n = worlds.len() as f64;
        for u in &mut uniform {
            u.iter_mut().for_each(|v| *v /= n);
        }
        let fallback = !(total > 0.0 && total.is_finite());
        if fallback {
            weighted.clone_from(&uniform);
        } else {
            for w in &mut weighted {
                w.iter_mut().for_each(|v| *v /= total);
            }
        }
        Ok(HolderOdds {
            cards,
            weighted,
            uniform,
            fallback,
        })
    }

    /// `worlds` draws for the search from `candidates` uniform candidates weighted by
    /// inference, merged into distinct weighted worlds (weights are multiplicities).
    pub fn sample(
        &self,
        view: &View,
        candidates: usize,
        worlds: usize,
        seed: u64,
    ) -> Result<(Vec<(World, f64)>, InferenceStats), SkatError> {
        check_count("candidates", candidates, MAX_CANDIDATES)?;
        check_count("worlds", worlds, MAX_WORLDS)?;
        let (k, ctx) = Self::prepare(view)?;
        let mut rng = Rng::new(seed);
        let cand: Vec<World> = (0..candidates.max(1)).map(|_| k.sample(&mut rng)).collect();
        let w: Vec<f64> = cand.iter().map(|c| self.weight_in(&ctx, c)).collect();
        let total: f64 = w.iter().sum();
        let squares: f64 = w.iter().map(|x| x * x).sum();
        let nonzero = w.iter().filter(|&&x| x > 0.0).count();
        let mut stats = InferenceStats {
            candidates: cand.len(),
            nonzero,
            effective: if squares > 0.0 {
                total * total / squares
            } else {
                0.0
            },
            fallback: false,
            distinct: 0,
        };
        let mut drawn: Vec<World> = Vec::with_capacity(worlds);
        if !(total > 0.0 && total.is_finite()) {
            stats.fallback = true;
            drawn.extend(cand.iter().cycle().take(worlds));
        } else {
            // systematic resampling: one uniform offset, `worlds` evenly spaced pointers
            let step = total / worlds as f64;
            let mut pointer = rng.unit() * step;
            let mut acc = 0.0;
            for (c, &x) in cand.iter().zip(&w) {
                acc += x;
                while pointer < acc && drawn.len() < worlds {
                    drawn.push(*c);
                    pointer += step;
                }
            }
            // rounding can leave the last pointer just past the total
            while drawn.len() < worlds {
                let last = w.iter().rposition(|&x| x > 0.0).expect("a positive weight");
                drawn.push(cand[last]);
            }
        }
        let mut index: HashMap<World, usize> = HashMap::new();
        let mut out: Vec<(World, f64)> = Vec::new();
        for d in drawn {
            match index.get(&d) {
                Some(&i) => out[i].1 += 1.0,
                None => {
                    index.insert(d, out.len());
                    out.push((d, 1.0));
                }
            }
        }
        stats.distinct = out.len();
        Ok((out, stats))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::Deal;
    use crate::game::Game;

    fn auction(tokens: &[&str], seed: u64) -> Game {
        let mut g = Game::new(Deal::random(seed));
        for t in tokens {
            g.apply_token(t).unwrap();
        }
        g
    }

    #[test]
    fn features_count_what_they_say() {
        let c = Cards::parse("CJ HJ CA CT C7 SA SK SQ H9 D8").unwrap();
        // lengths D H S C, jacks (clubs = bit 3, hearts = bit 1), aces, A+T, K+Q, 7-8-9
        assert_eq!(hand_features(c), [1, 1, 3, 3, 0b1010, 2, 3, 2, 3]);
        let mut total = 0;
        for (i, (_, n)) in FEATURES.iter().enumerate() {
            assert_eq!(FEATURE_OFFSETS[i], total);
            total += n;
        }
        assert_eq!(total, FEATURE_VALUES);
    }

    #[test]
    fn outcomes_follow_the_auction() {
        // middlehand bids 18 and 20, forehand holds both, middlehand passes (refuses 22);
        // rearhand passes at once (refuses 22); forehand wins at 20
        let g = auction(&["18", "y", "20", "y", "p", "p"], 1);
        let o = auction_outcomes(&g.view(0).history, g.declarer());
        assert_eq!(g.declarer(), Some(0));
        assert_eq!(o[0], Some(2 * BID_BINS + bid_bin(20)));
        assert_eq!(o[1], Some(OUTCOMES_PER_SEAT + BID_BINS + bid_bin(22)));
        assert_eq!(o[2], Some(2 * OUTCOMES_PER_SEAT + bid_bin(22)));
        // forehand refuses to hold 18: middlehand then faces rearhand
        let g = auction(&["18", "p", "p"], 2);
        let o = auction_outcomes(&g.view(0).history, g.declarer());
        assert_eq!(g.declarer(), Some(1));
        assert_eq!(o[0], Some(bid_bin(18)));
        assert_eq!(o[1], Some(OUTCOMES_PER_SEAT + 2 * BID_BINS + bid_bin(18)));
        assert_eq!(o[2], Some(2 * OUTCOMES_PER_SEAT + bid_bin(20)));
        // two passes, forehand plays at 18
        let g = auction(&["p", "p", "18"], 3);
        let o = auction_outcomes(&g.view(0).history, g.declarer());
        assert_eq!(o[1], Some(OUTCOMES_PER_SEAT + bid_bin(18)));
        assert_eq!(o[2], Some(2 * OUTCOMES_PER_SEAT + bid_bin(18)));
        assert_eq!(o[0], Some(2 * BID_BINS + bid_bin(18)));
    }

    #[test]
    fn sides_parse() {
        for s in ["SD", "S", "D", "NI"] {
            assert_eq!(Sides::parse(s).unwrap().name(), s);
        }
        assert!(Sides::parse("X").is_err());
    }

    /// Deal 5 after an auction won at 18, the skat picked up, a discard and clubs declared.
    fn declared_after_pickup() -> Game {
        let mut g = auction(&["18", "p", "p"], 5);
        g.apply_token("s").unwrap();
        let d = g.legal_actions()[0];
        g.apply(d).unwrap();
        g.apply_token("C").unwrap();
        g
    }

    #[test]
    fn uniform_tables_give_uniform_weights_and_resampling_keeps_counts() {
        let g = declared_after_pickup();
        let t = BidTables::uniform();
        for seat in 0..3u8 {
            let v = g.view(seat);
            let inf = Inference {
                tables: &t,
                model: None,
                sides: Sides::parse("SD").unwrap(),
            };
            let (worlds, stats) = inf.sample(&v, 500, 40, 9).unwrap();
            assert!(!stats.fallback);
            assert_eq!(stats.nonzero, 500);
            assert!((stats.effective - 500.0).abs() < 1e-6);
            let n: f64 = worlds.iter().map(|w| w.1).sum();
            assert_eq!(n, 40.0);
            let odds = inf.holder_odds(&v, 300, 4).unwrap();
            assert!(!odds.fallback && !odds.cards.is_empty());
            for (w, u) in odds.weighted.iter().zip(&odds.uniform) {
                assert!((u.iter().sum::<f64>() - 1.0).abs() < 1e-9);
                for h in 0..4 {
                    assert!((w[h] - u[h]).abs() < 1e-9);
                }
            }
            let cand = Knowledge::from_view(&v).unwrap().sample_many(10, 1);
            for w in inf.weights(&v, &cand).unwrap() {
                assert!((w - 1.0).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn counts_beyond_the_limits_are_refused_before_any_allocation() {
        let g = declared_after_pickup();
        let t = BidTables::uniform();
        let inf = Inference {
            tables: &t,
            model: None,
            sides: Sides::parse("SD").unwrap(),
        };
        let v = g.view(0);
        // these asked for terabytes (the process aborted) or overflowed a capacity (a panic)
        for huge in [MAX_CANDIDATES + 1, 1 << 40, usize::MAX] {
            assert!(inf.sample(&v, huge, 10, 1).is_err());
            assert!(inf.holder_odds(&v, huge, 1).is_err());
        }
        for huge in [MAX_WORLDS + 1, 1 << 40, usize::MAX] {
            assert!(inf.sample(&v, 10, huge, 1).is_err());
        }
    }
}
