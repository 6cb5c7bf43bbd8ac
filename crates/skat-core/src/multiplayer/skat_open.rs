//! Open-handed Skat card play (suit and grand) as a three-player [`Game`], with the outcome
//! preferences of declarer and defenders as partial orders.
//!
//! Skat's score is not zero-sum between the declarer and each defender: a defender's own card
//! points, the win, schneider and schwarz all matter to somebody. The outcome of a finished
//! game therefore keeps enough to tell them apart: the declarer's card points `d` (skat
//! included), her tricks `t`, and the card points `a` of the defender on her left (seat
//! declarer + 1); the other defender holds `120 - d - a`. A state is a solver [`Position`] plus
//! the left defender's points so far, so equal states have equal subtrees and outcomes.
//!
//! What each kind of player wants ([`Kind`]), as a strict order over the outcomes of one world:
//!
//! - `Win` (declarer): a higher *level*: lost schwarz < lost schneider < lost < won < won
//!   schneider < won schwarz (the win threshold is the contract's: 61, 90 or all tricks);
//!   outcomes of one level are equal to her;
//! - `Points` (declarer playing for schneider): more card points, then more tricks;
//! - `Team` (defender): a lower level of the declarer;
//! - `Min` (defender, the zero-sum assumption of PIMC): fewer declarer card points, then fewer
//!   declarer tricks;
//! - `Greedy` (defender for herself): more of her own card points.
//!
//! Within one world `Points` refines `Win` and `Min` refines `Team` (the level grows with the
//! card points and tricks there, the skat being fixed). An [`OpenModel`] is what one seat
//! assumes of another: the intersection of a set of kinds (u preferred to v when every kind
//! in the set prefers it), itself a strict partial order; the empty set prefers nothing.
//!
//! The searches see one card of each run of interchangeable cards (same follow group, equal
//! card points, adjacent among the live cards): the others have the same outcomes.

use super::models::Model;
use super::Game;
use crate::cards::Card;
use crate::error::SkatError;
use crate::solver::{representatives, Position};

/// One kind of Skat player (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Win,
    Points,
    Team,
    Min,
    Greedy,
}

impl Kind {
    /// Every kind, in bit order of [`Kind::bit`].
    pub const ALL: [Kind; 5] = [Kind::Win, Kind::Points, Kind::Team, Kind::Min, Kind::Greedy];

    /// The lower-case name (`win`, `points`, `team`, `min`, `greedy`).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Win => "win",
            Kind::Points => "points",
            Kind::Team => "team",
            Kind::Min => "min",
            Kind::Greedy => "greedy",
        }
    }

    /// The kind of a name.
    pub fn parse(s: &str) -> Result<Kind, SkatError> {
        Kind::ALL
            .into_iter()
            .find(|k| k.name() == s.trim().to_ascii_lowercase())
            .ok_or_else(|| SkatError::parse("Skat player kind (win, points, team, min, greedy)", s))
    }

    /// Whether this is a declarer's kind (`Win`, `Points`); the others are defenders'.
    pub fn is_declarer(self) -> bool {
        matches!(self, Kind::Win | Kind::Points)
    }

    /// The kind's bit in a kind mask.
    pub fn bit(self) -> u8 {
        1 << Kind::ALL.iter().position(|&k| k == self).expect("a kind")
    }

    /// The kinds of a mask, in [`Kind::ALL`] order.
    pub fn of_mask(mask: u8) -> Vec<Kind> {
        Kind::ALL
            .into_iter()
            .filter(|k| mask & k.bit() != 0)
            .collect()
    }
}

/// A finished game's outcome: declarer points, declarer tricks, left defender's points.
pub type Outcome = u32;

/// Packs an outcome.
pub fn outcome(declarer_points: u32, declarer_tricks: u32, left_points: u32) -> Outcome {
    declarer_points | declarer_tricks << 8 | left_points << 16
}

/// Unpacks an outcome into (declarer points, declarer tricks, left defender's points).
pub fn unpack(o: Outcome) -> (u32, u32, u32) {
    (o & 0xff, o >> 8 & 0xff, o >> 16 & 0xff)
}

/// Declarer levels (see the module documentation), 0 (lost schwarz) ..= 5 (won schwarz).
pub const LEVELS: usize = 6;

/// The score a level is worth on a Seeger-Fabian-shaped scale (a game of value 30, +10 per
/// schneider or schwarz level; lost: -2 x value - 50, won: value + 50), from the declarer's
/// side. Used to average a set of outcomes into one number for the `Win` and `Team` kinds.
pub const LEVEL_SCORE: [f64; LEVELS] = [-150.0, -130.0, -110.0, 80.0, 90.0, 100.0];

/// The open-handed card play of one suit or grand game.
#[derive(Clone, Copy, Debug)]
pub struct SkatOpen {
    declarer: u8,
    need: u32,
}

/// A state of [`SkatOpen`]: the solver position and the left defender's card points so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenState {
    pub pos: Position,
    pub left_points: u8,
}

/// Hashes the parts that vary between the trick starts of one search (hands, leader, points,
/// tricks; the tables keep only trick starts): two words
/// instead of the position byte by byte. Equal states hash equally, as `Eq` requires.
impl std::hash::Hash for OpenState {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        let [a, b, c] = self.pos.hands().map(|x| x.bits() as u64);
        h.write_u64(a | b << 32);
        h.write_u64(
            c | (self.pos.leader() as u64) << 32
                | (self.pos.declarer_points() as u64) << 34
                | (self.pos.declarer_tricks() as u64) << 42
                | (self.left_points as u64) << 46,
        );
    }
}

impl SkatOpen {
    /// The game of `declarer` who needs `need` card points to win (the solver's threshold:
    /// 120 or more means every trick). Null is refused: it is zero-sum already.
    pub fn new(pos: &Position, need: i32) -> Result<SkatOpen, SkatError> {
        if pos.game_type().is_null() {
            return Err(SkatError::InvalidPosition(
                "soft-max^n in Skat covers suit and grand games".into(),
            ));
        }
        Ok(SkatOpen {
            declarer: pos.declarer(),
            need: need.clamp(0, 121) as u32,
        })
    }

    /// The declarer's seat.
    pub fn declarer(&self) -> u8 {
        self.declarer
    }

    /// The defender on the declarer's left, whose points the outcome keeps.
    pub fn left(&self) -> u8 {
        (self.declarer + 1) % 3
    }

    /// Whether the declarer wins with this outcome.
    pub fn won(&self, o: Outcome) -> bool {
        let (d, t, _) = unpack(o);
        if self.need >= 120 {
            t == 10
        } else {
            d >= self.need
        }
    }

    /// The declarer's level of an outcome, 0 ..= 5.
    pub fn level(&self, o: Outcome) -> usize {
        let (d, t, _) = unpack(o);
        if self.won(o) {
            if t == 10 {
                5
            } else if d >= 90 {
                4
            } else {
                3
            }
        } else if t == 0 {
            0
        } else if d <= 30 {
            1
        } else {
            2
        }
    }

    /// The card points of `seat` in an outcome (the declarer's include the skat).
    pub fn points_of(&self, seat: u8, o: Outcome) -> u32 {
        let (d, _, a) = unpack(o);
        if seat == self.declarer {
            d
        } else if seat == self.left() {
            a
        } else {
            120 - d - a
        }
    }

    /// Whether a player of `kind` at `seat` strictly prefers `u` to `v`.
    pub fn prefers(&self, kind: Kind, seat: u8, u: Outcome, v: Outcome) -> bool {
        let (du, tu, _) = unpack(u);
        let (dv, tv, _) = unpack(v);
        match kind {
            Kind::Win => self.level(u) > self.level(v),
            Kind::Points => (du, tu) > (dv, tv),
            Kind::Team => self.level(u) < self.level(v),
            Kind::Min => (du, tu) < (dv, tv),
            Kind::Greedy => self.points_of(seat, u) > self.points_of(seat, v),
        }
    }

    /// The key by which a player of `kind` at `seat` orders outcomes: `prefers(kind, seat, u,
    /// v)` exactly when `key(kind, seat, u) > key(kind, seat, v)`.
    pub fn key(&self, kind: Kind, seat: u8, o: Outcome) -> i32 {
        let (d, t, _) = unpack(o);
        let (d, t) = (d as i32, t as i32);
        match kind {
            Kind::Win => self.level(o) as i32,
            Kind::Team => -(self.level(o) as i32),
            Kind::Points => d * 16 + t,
            Kind::Min => -(d * 16 + t),
            Kind::Greedy => self.points_of(seat, o) as i32,
        }
    }

    /// What an outcome is worth to a player of `kind` at `seat`: a number that grows with
    /// the kind's preference (its level's [`LEVEL_SCORE`] with the card points as a tie-break
    /// for `Win` and `Team`; the card points for the others).
    pub fn utility(&self, kind: Kind, seat: u8, o: Outcome) -> f64 {
        let (d, t, _) = unpack(o);
        let tie = d as f64 / 1000.0;
        match kind {
            Kind::Win => LEVEL_SCORE[self.level(o)] + tie,
            Kind::Team => -LEVEL_SCORE[self.level(o)] - tie,
            Kind::Points => d as f64 + t as f64 / 1000.0,
            Kind::Min => -(d as f64) - t as f64 / 1000.0,
            Kind::Greedy => self.points_of(seat, o) as f64,
        }
    }

    /// The state of a position whose left defender holds `left_points` so far.
    pub fn state(&self, pos: Position, left_points: u32) -> OpenState {
        OpenState {
            pos,
            left_points: left_points as u8,
        }
    }
}

impl Game for SkatOpen {
    type State = OpenState;
    type Move = Card;
    type Outcome = Outcome;

    fn players(&self) -> usize {
        3
    }

    fn to_move(&self, s: &OpenState) -> usize {
        s.pos.to_move() as usize
    }

    /// One card of each run of interchangeable cards ([`representatives`]): the others lead
    /// to the same outcomes.
    fn moves(&self, s: &OpenState, out: &mut Vec<Card>) {
        out.clear();
        out.extend(
            representatives(&s.pos)
                .into_iter()
                .filter(|(c, rep)| c == rep)
                .map(|(c, _)| c),
        );
    }

    fn apply(&self, s: &OpenState, m: Card) -> OpenState {
        let completes = s.pos.trick_len() == 2;
        let pos = s.pos.play(m).expect("a legal card");
        let mut left_points = s.left_points;
        if completes && pos.leader() == self.left() {
            let trick: u32 = s.pos.trick().iter().map(|c| c.points() as u32).sum();
            left_points += (trick + m.points() as u32) as u8;
        }
        OpenState { pos, left_points }
    }

    fn outcome(&self, s: &OpenState) -> Option<Outcome> {
        s.pos.is_over().then(|| {
            outcome(
                s.pos.declarer_points(),
                s.pos.declarer_tricks(),
                s.left_points as u32,
            )
        })
    }

    fn cacheable(&self, s: &OpenState) -> bool {
        s.pos.trick_len() == 0
    }
}

/// What one seat assumes of another in [`SkatOpen`]: the intersection of the kinds in
/// `mask` (no preference at all when the mask is empty).
#[derive(Clone, Copy, Debug)]
pub struct OpenModel {
    pub game: SkatOpen,
    pub seat: u8,
    pub mask: u8,
}

impl OpenModel {
    fn kinds(&self) -> impl Iterator<Item = Kind> + '_ {
        Kind::ALL.into_iter().filter(|k| self.mask & k.bit() != 0)
    }
}

impl Model<Outcome> for OpenModel {
    fn prefers(&self, u: &Outcome, v: &Outcome) -> bool {
        self.mask != 0
            && self
                .kinds()
                .all(|k| self.game.prefers(k, self.seat, *u, *v))
    }

    /// Each kind orders by a key, so s1 dominates s2 under all of them exactly when, for each
    /// kind, s1's smallest key exceeds s2's largest.
    fn dominates(&self, s1: &[Outcome], s2: &[Outcome]) -> bool {
        if s1.is_empty() || s2.is_empty() {
            return true;
        }
        self.mask != 0
            && self.kinds().all(|k| {
                let key = |o: &Outcome| self.game.key(k, self.seat, *o);
                s1.iter().map(key).min() > s2.iter().map(key).max()
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Cards;
    use crate::multiplayer::softmaxn::SoftMaxn;
    use crate::rng::Rng;
    use crate::rules::{Contract, GameType};
    use crate::solver::solve;

    /// A random start-of-trick position with `k` cards per hand (suit or grand).
    pub(crate) fn random_position(rng: &mut Rng, k: usize) -> Position {
        let mut cards: Vec<Card> = Cards::ALL.iter().collect();
        rng.shuffle(&mut cards);
        let hands: [Cards; 3] =
            std::array::from_fn(|i| cards[i * k..(i + 1) * k].iter().copied().collect());
        let gt = GameType::ALL[rng.below(5) as usize];
        let declarer = rng.below(3) as u8;
        let leader = rng.below(3) as u8;
        // the cards out of play count for the declarer as if they were her skat and tricks
        let rest: Cards = cards[3 * k..].iter().copied().collect();
        let d = rest.points() / 2;
        Position::new(
            hands,
            Contract::new(gt, false, false, false, false).unwrap(),
            declarer,
            leader,
            &[],
            d,
            (10 - k as u32) / 2,
        )
        .unwrap()
    }

    fn models(g: SkatOpen, kinds: [u8; 3]) -> Vec<OpenModel> {
        (0..3u8)
            .map(|s| OpenModel {
                game: g,
                seat: s,
                mask: kinds[s as usize],
            })
            .collect()
    }

    #[test]
    fn kinds_parse_and_name() {
        for k in Kind::ALL {
            assert_eq!(Kind::parse(k.name()).unwrap(), k);
        }
        assert!(Kind::parse("nice").is_err());
        assert_eq!(
            Kind::of_mask(Kind::Win.bit() | Kind::Greedy.bit()),
            vec![Kind::Win, Kind::Greedy]
        );
    }

    #[test]
    fn outcomes_round_trip_and_levels() {
        let mut rng = Rng::new(1);
        let pos = random_position(&mut rng, 3);
        let g = SkatOpen::new(&pos, 61).unwrap();
        assert_eq!(unpack(outcome(75, 6, 20)), (75, 6, 20));
        assert_eq!(g.level(outcome(10, 0, 50)), 0);
        assert_eq!(g.level(outcome(30, 2, 50)), 1);
        assert_eq!(g.level(outcome(60, 5, 30)), 2);
        assert_eq!(g.level(outcome(61, 5, 30)), 3);
        assert_eq!(g.level(outcome(90, 8, 10)), 4);
        assert_eq!(g.level(outcome(120, 10, 0)), 5);
        let d = g.declarer();
        let o = outcome(70, 6, 20);
        assert_eq!(
            g.points_of(d, o) + g.points_of((d + 1) % 3, o) + g.points_of((d + 2) % 3, o),
            120
        );
    }

    /// With a declarer who wants points and defenders who want her to have few, soft-max^n
    /// is minimax: every outcome of the root's set has the solver's exact card points.
    #[test]
    fn zero_sum_models_give_the_solver_value() {
        let mut rng = Rng::new(7);
        for _ in 0..30 {
            let k = 2 + rng.below(3) as usize;
            let pos = random_position(&mut rng, k);
            let g = SkatOpen::new(&pos, 61).unwrap();
            let d = g.declarer() as usize;
            let mut kinds = [Kind::Min.bit(); 3];
            kinds[d] = Kind::Points.bit();
            let mut s = SoftMaxn::new(&g, models(g, kinds));
            let set = s.value(&g.state(pos, 0));
            let exact = solve(&pos) as u32;
            assert!(!set.is_empty());
            for &o in set.outcomes() {
                assert_eq!(unpack(o).0, exact, "{pos:?}");
            }
        }
    }

    /// The models of a kind mask are strict partial orders: irreflexive and transitive over
    /// the outcomes reachable in a small game.
    #[test]
    fn models_are_strict_partial_orders() {
        let mut rng = Rng::new(3);
        let pos = random_position(&mut rng, 3);
        let g = SkatOpen::new(&pos, 61).unwrap();
        let mut s = SoftMaxn::new(&g, models(g, [0; 3]));
        let all = s.value(&g.state(pos, 0));
        let os = all.outcomes();
        assert!(os.len() > 3);
        for mask in 1..32u8 {
            for seat in 0..3 {
                let m = OpenModel {
                    game: g,
                    seat,
                    mask,
                };
                for u in os {
                    assert!(!m.prefers(u, u));
                    for v in os {
                        for w in os {
                            if m.prefers(u, v) && m.prefers(v, w) {
                                assert!(m.prefers(u, w));
                            }
                        }
                    }
                }
            }
        }
    }

    /// The keyed domination test agrees with the pair-by-pair definition.
    #[test]
    fn keyed_domination_matches_pairs() {
        let mut rng = Rng::new(9);
        let pos = random_position(&mut rng, 3);
        let g = SkatOpen::new(&pos, 61).unwrap();
        let mut s = SoftMaxn::new(&g, models(g, [0; 3]));
        let all: Vec<Outcome> = s.value(&g.state(pos, 0)).outcomes().to_vec();
        let mut checked = 0;
        for _ in 0..3000 {
            let pick = |rng: &mut Rng| -> Vec<Outcome> {
                let n = 1 + rng.below(3) as usize;
                (0..n)
                    .map(|_| all[rng.below(all.len() as u64) as usize])
                    .collect()
            };
            let (a, b) = (pick(&mut rng), pick(&mut rng));
            let mask = rng.below(32) as u8;
            let m = OpenModel {
                game: g,
                seat: rng.below(3) as u8,
                mask,
            };
            let pairs = a.iter().all(|u| b.iter().all(|v| m.prefers(u, v)));
            assert_eq!(m.dominates(&a, &b), pairs);
            checked += pairs as usize;
        }
        assert!(checked > 40, "{checked}");
    }

    /// With no preferences anywhere, the root set is every reachable outcome, and every
    /// outcome's points add up.
    #[test]
    fn empty_models_keep_every_outcome() {
        let mut rng = Rng::new(5);
        let pos = random_position(&mut rng, 2);
        let g = SkatOpen::new(&pos, 61).unwrap();
        let mut s = SoftMaxn::new(&g, models(g, [0; 3]));
        let set = s.value(&g.state(pos, 0));
        let in_play = pos.points_in_play();
        for &o in set.outcomes() {
            let (d, _, a) = unpack(o);
            assert!(d >= pos.declarer_points() && d <= pos.declarer_points() + in_play);
            assert!(d + a <= 120);
        }
        // the declarer's extreme points are reachable
        let max_d = set.outcomes().iter().map(|&o| unpack(o).0).max().unwrap();
        let mut kinds = [Kind::Points.bit(); 3];
        kinds[g.declarer() as usize] = Kind::Points.bit();
        let mut all_help = SoftMaxn::new(&g, models(g, kinds));
        let best = all_help.value(&g.state(pos, 0));
        assert!(best.outcomes().iter().all(|&o| unpack(o).0 == max_d));
    }
}
