//! Linear estimators of the declarer's remaining card points, and the ProbCut test that uses
//! them (solver thesis ch. 7.3-7.4).
//!
//! An estimator serves one *slot*: a game class (suit or grand), a number of cards per hand
//! `k` in [`MIN_K`]..=[`MAX_K`] at a trick start, and the leader's role relative to the
//! declarer (0 the declarer, 1 the defender on her left, 2 the one on her right). Its estimate
//! is `bias + sum of w[f]` over the active features `f` of the position, on the marginal
//! scale of the search (the declarer's card points from the cards still in the hands). Every
//! feature is a *constellation*: the joint location of a few cards, each card's location
//! being the declarer, her left or right defender, or "out" (played, or in the skat):
//!
//! * every card by itself (32 x 4 locations);
//! * suit: the four jacks with the trump ace and ten (4^6), the trump counts of the three
//!   hands (capped); grand: the four jacks (4^4), the jack counts of the three hands;
//! * each plain suit, all seven cards together (4^7; one weight table shared by the suits,
//!   so that the suits relabel), and its ace and ten with the defenders' trump holdings and
//!   the declarer's count of the suit.
//!
//! The features are read off the solver's internal layout (groups ascending in power, the
//! trumps on top), so they cost a few table look-ups at a trick start.
//!
//! The weights come from `skat train estimators` (least squares on positions labelled by the
//! exact solver, with the residual capped in the gradient: the thesis's "LRbdd"), stored in
//! the little-endian file format of [`Estimator::from_bytes`]. A file may instead hold one
//! small network per class over the same features ([`super::estimator_net`], `SKE2`). The
//! build embeds `crates/skat-core/data/estimators.bin`; a file without slots means "no
//! estimator" and ProbCut then never cuts.
//!
//! ProbCut ([`ProbCut`]): with confidence `P` the search at a trick start of a slot takes
//! the estimate `e` (clamped to the node's static bounds) and its slot's residual standard
//! deviation `s`; if the whole interval `e +- z s`, `z` the two-sided normal quantile of `P`,
//! lies at or above beta the node fails high, at or below alpha it fails low; otherwise it
//! is searched as usual (the interval never narrows the window). Larger `P`: wider
//! intervals, fewer cuts, smaller errors.

use std::sync::OnceLock;

use super::estimator_net::{self, class_slot, Net};
use super::estimator_sim::SharperEstimates;
use super::layout::Layout;

/// Smallest and largest cards per hand of a slot.
pub const MIN_K: u32 = 4;
pub const MAX_K: u32 = 9;
/// Feature-table lengths of the two classes.
pub const SUIT_DIM: usize = 128 + 4096 + 324 + 16384 + 192;
pub const GRAND_DIM: usize = 128 + 256 + 125 + 16384 + 192;
/// Most active features of a position (32 cards, then at most 10 constellations).
pub const MAX_ACTIVE: usize = 44;

const MAGIC: &[u8; 4] = b"SKE1";

/// The number of slots: 2 classes x 6 hand sizes x 3 leader roles.
pub const SLOTS: usize = 2 * (MAX_K - MIN_K + 1) as usize * 3;

/// The slot number of (class: 0 suit, 1 grand; cards per hand; leader role), if any.
pub fn slot_index(class: u8, k: u32, role: usize) -> Option<usize> {
    if class > 1 || !(MIN_K..=MAX_K).contains(&k) || role > 2 {
        return None;
    }
    Some((class as usize * (MAX_K - MIN_K + 1) as usize + (k - MIN_K) as usize) * 3 + role)
}

/// The feature-table length of a class.
pub fn dim(class: u8) -> usize {
    if class == 0 {
        SUIT_DIM
    } else {
        GRAND_DIM
    }
}

/// One slot's linear model.
#[derive(Clone, Debug, PartialEq)]
pub struct Slot {
    pub bias: f32,
    /// Standard deviation of the (clamped) estimate's error on held-out positions.
    pub sigma: f32,
    pub weights: Vec<f32>,
}

/// The estimators of every slot that has one.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Estimator {
    slots: Vec<Option<Slot>>,
    /// Per class, a network that serves every slot of the class it has a sigma for.
    nets: [Option<Net>; 2],
}

fn read_u32(b: &[u8], at: &mut usize) -> Result<u32, String> {
    let s = b.get(*at..*at + 4).ok_or("estimator file ends early")?;
    *at += 4;
    Ok(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

fn read_f32(b: &[u8], at: &mut usize) -> Result<f32, String> {
    Ok(f32::from_bits(read_u32(b, at)?))
}

impl Estimator {
    /// Parses the file format: `SKE1`, the slot count (u32), then per slot its class, cards
    /// per hand and role (one byte each, then a zero byte), sigma and bias (f32) and the
    /// weight count (u32, the class's dimension) followed by the weights (f32). All
    /// little-endian.
    /// An `SKE2` file holds networks instead ([`Net::parse`]).
    pub fn from_bytes(b: &[u8]) -> Result<Estimator, String> {
        if b.len() >= 4 && &b[..4] == estimator_net::MAGIC {
            return Ok(Estimator {
                slots: vec![None; SLOTS],
                nets: Net::parse(b)?,
            });
        }
        if b.len() < 8 || &b[..4] != MAGIC {
            return Err("not an estimator file (expected the SKE1 header)".into());
        }
        let mut at = 4;
        let n = read_u32(b, &mut at)?;
        let mut slots = vec![None; SLOTS];
        for _ in 0..n {
            let h = b.get(at..at + 4).ok_or("estimator file ends early")?;
            at += 4;
            let (class, k, role) = (h[0], h[1] as u32, h[2] as usize);
            let i = slot_index(class, k, role)
                .ok_or_else(|| format!("bad slot: class {class}, {k} cards, role {role}"))?;
            let sigma = read_f32(b, &mut at)?;
            let bias = read_f32(b, &mut at)?;
            let len = read_u32(b, &mut at)? as usize;
            if len != dim(class) {
                return Err(format!(
                    "slot with {len} weights, the class has {}",
                    dim(class)
                ));
            }
            if !(sigma.is_finite() && sigma > 0.0 && bias.is_finite()) {
                return Err("slot with a non-finite or non-positive sigma".into());
            }
            let mut weights = Vec::with_capacity(len);
            for _ in 0..len {
                weights.push(read_f32(b, &mut at)?);
            }
            slots[i] = Some(Slot {
                bias,
                sigma,
                weights,
            });
        }
        if at != b.len() {
            return Err("trailing bytes after the last slot".into());
        }
        Ok(Estimator {
            slots,
            nets: [None, None],
        })
    }

    /// The number of slots with a model.
    pub fn slot_count(&self) -> usize {
        let by_net: usize = self
            .nets
            .iter()
            .flatten()
            .map(|n| n.sigma.iter().filter(|&&s| s > 0.0).count())
            .sum();
        self.slots.iter().filter(|s| s.is_some()).count() + by_net
    }

    /// Whether no slot has a model.
    pub fn is_empty(&self) -> bool {
        self.slot_count() == 0
    }

    /// The model of a slot.
    #[inline]
    pub fn slot(&self, class: u8, k: u32, role: usize) -> Option<&Slot> {
        self.slots.get(slot_index(class, k, role)?)?.as_ref()
    }

    /// The estimate and sigma at a trick start (internal hands), if the slot has a model.
    #[inline]
    pub fn estimate(
        &self,
        lay: &Layout,
        hands: &[u32; 3],
        decl: usize,
        leader: usize,
    ) -> Option<(f32, f32)> {
        let class = class_of(lay)?;
        let k = hands[leader].count_ones();
        let role = (leader + 3 - decl) % 3;
        if !self.has_model(class, k, role) {
            return None;
        }
        let mut f = [0u32; MAX_ACTIVE];
        let n = features(lay, hands, decl, &mut f);
        self.estimate_features(class, k, role, &f[..n])
    }

    /// Whether slot (class, cards per hand, leader role) has a model.
    #[inline]
    fn has_model(&self, class: u8, k: u32, role: usize) -> bool {
        self.sigma(class, k, role).is_some()
    }

    /// The error deviation of slot (class, cards per hand, leader role), if it has a model.
    #[inline]
    pub fn sigma(&self, class: u8, k: u32, role: usize) -> Option<f32> {
        match self.nets.get(class as usize)? {
            Some(net) => class_slot(k, role)
                .map(|s| net.sigma[s])
                .filter(|&s| s > 0.0),
            None => self.slot(class, k, role).map(|s| s.sigma),
        }
    }

    /// The estimate and sigma from a position's active features (as [`features`] gives
    /// them), if the slot has a model.
    #[inline]
    pub fn estimate_features(
        &self,
        class: u8,
        k: u32,
        role: usize,
        features: &[u32],
    ) -> Option<(f32, f32)> {
        if let Some(net) = self.nets.get(class as usize)?.as_ref() {
            let slot = class_slot(k, role)?;
            let sigma = net.sigma[slot];
            return (sigma > 0.0).then(|| (net.estimate(class, slot, features), sigma));
        }
        let s = self.slot(class, k, role)?;
        let e = features
            .iter()
            .fold(s.bias, |e, &i| e + s.weights[i as usize]);
        Some((e, s.sigma))
    }
}

/// The estimator embedded in the build (`crates/skat-core/data/estimators.bin`).
pub fn builtin() -> &'static Estimator {
    static EST: OnceLock<Estimator> = OnceLock::new();
    EST.get_or_init(|| {
        Estimator::from_bytes(include_bytes!("../../data/estimators.bin"))
            .expect("the embedded estimator file is valid")
    })
}

/// 0 suit, 1 grand, `None` null.
#[inline]
pub fn class_of(lay: &Layout) -> Option<u8> {
    if lay.game_type.is_null() {
        None
    } else if lay.trump_group == 4 {
        Some(1)
    } else {
        Some(0)
    }
}

/// The active feature indices of a start-of-trick position (suit or grand) into `out`;
/// returns how many. Locations are relative to the declarer: 0 her, 1 left, 2 right, 3 out.
pub fn features(lay: &Layout, hands: &[u32; 3], decl: usize, out: &mut [u32; MAX_ACTIVE]) -> usize {
    let h = [hands[decl], hands[(decl + 1) % 3], hands[(decl + 2) % 3]];
    let mut loc = [3u32; 32];
    for (r, &m) in h.iter().enumerate() {
        let mut m = m;
        while m != 0 {
            let b = m.trailing_zeros();
            m &= m - 1;
            loc[b as usize] = r as u32;
        }
    }
    let mut n = 0;
    let mut push = |i: u32| {
        out[n] = i;
        n += 1;
    };
    for (c, &l) in loc.iter().enumerate() {
        push(c as u32 * 4 + l);
    }
    // the jacks are the top four internal bits in suit and grand alike
    let jacks = 0xF000_0000u32;
    let jack_code = loc[28] + 4 * loc[29] + 16 * loc[30] + 64 * loc[31];
    let cnt = |m: u32, r: usize| (h[r] & m).count_ones();
    let grand = lay.trump_group == 4;
    let (plain, off3, off4) = if grand {
        push(128 + jack_code);
        let (d, l, r) = (cnt(jacks, 0), cnt(jacks, 1), cnt(jacks, 2));
        push(384 + (d * 5 + l) * 5 + r);
        (4, 509, 509 + 16384)
    } else {
        // the jacks with the trump ace and ten (bits 27 and 26)
        push(128 + jack_code + 256 * loc[27] + 1024 * loc[26]);
        let t = lay.trumps;
        let (d, l, r) = (cnt(t, 0).min(8), cnt(t, 1).min(5), cnt(t, 2).min(5));
        push(4224 + (d * 6 + l) * 6 + r);
        (3, 4548, 4548 + 16384)
    };
    let trumps = lay.trumps;
    let lt = (h[1] & trumps != 0) as u32;
    let rt = (h[2] & trumps != 0) as u32;
    for s in 0..plain {
        let base = 7 * s;
        let mut code = 0;
        for i in (0..7).rev() {
            code = code * 4 + loc[base + i];
        }
        push(off3 + code);
        let d = cnt(0x7Fu32 << base, 0);
        let (ace, ten) = (loc[base + 6], loc[base + 5]);
        push(off4 + (((ten * 4 + ace) * 2 + lt) * 2 + rt) * 3 + d.min(2));
    }
    n
}

/// The standard normal distribution function (Abramowitz and Stegun 7.1.26 for erf, error
/// below 1e-6).
fn normal_cdf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs() / std::f64::consts::SQRT_2);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let erf = 1.0 - poly * (-(x * x) / 2.0).exp();
    let erf = if x < 0.0 { -erf } else { erf };
    0.5 * (1.0 + erf)
}

/// The interval half-width in standard deviations for confidence `p` in (0, 1): the `z`
/// with `P(|N(0,1)| <= z) = p`.
pub fn probcut_z(p: f64) -> f64 {
    let target = (1.0 + p.clamp(1e-6, 1.0 - 1e-9)) / 2.0;
    let (mut lo, mut hi) = (0.0f64, 10.0f64);
    for _ in 0..80 {
        let mid = (lo + hi) / 2.0;
        if normal_cdf(mid) < target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / 2.0
}

/// The ProbCut test of a search: the embedded estimators and the interval half-width in
/// standard deviations, built once per solver.
#[derive(Clone, Copy, Debug)]
pub struct ProbCut {
    est: &'static Estimator,
    z: f32,
}

impl ProbCut {
    /// ProbCut at confidence `pcut` thousandths with the embedded estimators; `None` for 0
    /// or when the build has no estimators.
    pub fn new(pcut: u16) -> Option<ProbCut> {
        let est = builtin();
        (pcut > 0 && !est.is_empty()).then(|| ProbCut {
            est,
            z: probcut_z(pcut as f64 / 1000.0) as f32,
        })
    }

    /// At a trick start whose value lies in `[lo, hi]`: `alpha` (fail low) or `beta` (fail
    /// high) when the estimate's interval lies entirely on that side of the window, `None`
    /// (search the node) otherwise or without a model for the slot. With `sharper`, the
    /// estimate and its deviation are those of the simulated better model.
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    pub fn cut(
        &self,
        lay: &Layout,
        hands: &[u32; 3],
        decl: usize,
        leader: usize,
        alpha: i32,
        beta: i32,
        lo: i32,
        hi: i32,
        sharper: Option<&mut SharperEstimates>,
    ) -> Option<i32> {
        let class = class_of(lay)?;
        let k = hands[leader].count_ones();
        let role = (leader + 3 - decl) % 3;
        let sigma = self.est.sigma(class, k, role)?;
        let scale = sharper.as_ref().map_or(1.0, |s| s.scale());
        let half = self.z * scale * sigma;
        // the clamped estimate lies in [lo, hi]: where no estimate there could clear the
        // window, none is computed (the decision is the same)
        if (hi as f32) - half < beta as f32 && (lo as f32) + half > alpha as f32 {
            return None;
        }
        let mut f = [0u32; MAX_ACTIVE];
        let n = features(lay, hands, decl, &mut f);
        let (mut e, _) = self.est.estimate_features(class, k, role, &f[..n])?;
        if let Some(s) = sharper {
            e = s.estimate(e, sigma, lay, hands, decl, leader);
        }
        let e = e.clamp(lo as f32, hi as f32);
        if e - half >= beta as f32 {
            Some(beta)
        } else if e + half <= alpha as f32 {
            Some(alpha)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::rules::GameType;
    use crate::solver::layout::tests::random_hands;

    #[test]
    fn the_normal_quantile_is_right() {
        assert!((probcut_z(0.5) - 0.6745).abs() < 1e-3);
        assert!((probcut_z(0.95) - 1.95996).abs() < 1e-3);
        assert!(probcut_z(0.1) < probcut_z(0.8));
    }

    #[test]
    fn features_stay_in_range_and_are_distinct_per_group() {
        let mut rng = Rng::new(5);
        for gt in [GameType::Clubs, GameType::Hearts, GameType::Grand] {
            let lay = Layout::get(gt);
            let class = class_of(lay).unwrap();
            for _ in 0..2000 {
                let hands = random_hands(&mut rng);
                let mut f = [0u32; MAX_ACTIVE];
                let n = features(lay, &hands, rng.below(3) as usize, &mut f);
                assert_eq!(n, if class == 0 { 32 + 2 + 6 } else { 32 + 2 + 8 });
                assert!(f[..n].iter().all(|&i| (i as usize) < dim(class)));
                // one card-location feature per card
                let mut cards_seen = [false; 32];
                for &i in &f[..32] {
                    assert!(!cards_seen[(i / 4) as usize]);
                    cards_seen[(i / 4) as usize] = true;
                }
            }
        }
    }

    /// One slot in the file format (what `skat train estimators` writes).
    fn one_slot_file(class: u8, k: u8, role: u8, slot: &Slot) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend(1u32.to_le_bytes());
        out.extend([class, k, role, 0]);
        out.extend(slot.sigma.to_le_bytes());
        out.extend(slot.bias.to_le_bytes());
        out.extend((slot.weights.len() as u32).to_le_bytes());
        for w in &slot.weights {
            out.extend(w.to_le_bytes());
        }
        out
    }

    #[test]
    fn the_file_format_parses_and_rejects_bad_input() {
        let slot = Slot {
            bias: 3.5,
            sigma: 4.0,
            weights: (0..GRAND_DIM).map(|i| i as f32 / 100.0).collect(),
        };
        let b = one_slot_file(1, 7, 2, &slot);
        let back = Estimator::from_bytes(&b).unwrap();
        assert_eq!(back.slot_count(), 1);
        assert_eq!(back.slot(1, 7, 2), Some(&slot));
        assert!(back.slot(0, 7, 2).is_none());
        assert!(Estimator::from_bytes(&b[..b.len() - 1]).is_err());
        assert!(Estimator::from_bytes(b"SKE0\0\0\0\0").is_err());
        let mut extra = b.clone();
        extra.push(0);
        assert!(Estimator::from_bytes(&extra).is_err());
        // a grand-sized slot labelled suit, and a hand size without slots
        assert!(Estimator::from_bytes(&one_slot_file(0, 7, 2, &slot)).is_err());
        assert!(Estimator::from_bytes(&one_slot_file(1, 3, 2, &slot)).is_err());
        assert!(Estimator::default().is_empty());
    }

    #[test]
    fn the_embedded_file_parses() {
        let _ = builtin();
    }
}
