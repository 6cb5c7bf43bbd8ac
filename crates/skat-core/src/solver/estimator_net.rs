//! A small neural estimator of the declarer's remaining card points: one network per game
//! class (suit, grand) shared by all of the class's slots, the alternative to one linear
//! model per slot ([`super::estimator`]).
//!
//! The network reads the same sparse constellation features as the linear models, plus one
//! input for the slot (hand size and leader's role), all 0/1: the estimate is
//! `bias + sum of wl[f] + sum_j w2[j] max(z_j, 0)` over the active inputs `f`, a linear
//! ("wide") part beside one hidden ReLU layer `z = b1 + sum of W1[f]` over the active inputs
//! from [`DEEP_FROM`] on: the constellations and the slot. The cards' single locations (the
//! first [`DEEP_FROM`] inputs, 32 of a position's 41 to 43) feed only the linear part, which
//! makes an estimate about four times cheaper; the constellations hold those locations too. Sharing one network across the slots lets every slot learn from the
//! positions of all the others, which is what makes it more accurate than the per-slot
//! linear models on the same data. Each slot keeps its own held-out error deviation `sigma`
//! (0: the slot has no model).
//!
//! File format (`SKE2`, little-endian): the magic, the network count (u32); per network its
//! class (0 suit, 1 grand), the hidden width (1..=[`MAX_HIDDEN`]) and two zero bytes, the
//! input count (u32, the class's dimension plus [`CLASS_SLOTS`]), the slots' sigmas
//! ([`CLASS_SLOTS`] f32, slot `(k - MIN_K) * 3 + role`), the bias, `b1` and `w2` (f32 each),
//! then per input its `wl` and its `W1` row (1 + hidden f32; zeros below [`DEEP_FROM`]).

use super::estimator::{dim, MAX_K, MIN_K};

/// Slots of one class: hand sizes x leader roles.
pub const CLASS_SLOTS: usize = (MAX_K - MIN_K + 1) as usize * 3;
/// Inputs below this (every card's own location) feed only the linear part.
pub const DEEP_FROM: u32 = 128;
/// The widest hidden layer a file may have.
pub const MAX_HIDDEN: usize = 128;

pub(crate) const MAGIC: &[u8; 4] = b"SKE2";

/// One class's network.
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    pub hidden: usize,
    pub sigma: [f32; CLASS_SLOTS],
    pub bias: f32,
    pub b1: Vec<f32>,
    pub w2: Vec<f32>,
    /// The linear weight of each input.
    pub wl: Vec<f32>,
    /// Each input's `W1` row (`hidden` values), row after row.
    pub w1: Vec<f32>,
}

fn take<'a>(b: &'a [u8], at: &mut usize, n: usize) -> Result<&'a [u8], String> {
    let s = b
        .get(*at..*at + n)
        .ok_or("estimator file ends early".to_string())?;
    *at += n;
    Ok(s)
}

fn floats(b: &[u8], at: &mut usize, n: usize) -> Result<Vec<f32>, String> {
    let s = take(b, at, 4 * n)?;
    let v: Vec<f32> = s
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    if v.iter().all(|x| x.is_finite()) {
        Ok(v)
    } else {
        Err("estimator file with a non-finite weight".into())
    }
}

/// The slot index of a class's network.
#[inline]
pub fn class_slot(k: u32, role: usize) -> Option<usize> {
    ((MIN_K..=MAX_K).contains(&k) && role < 3).then(|| (k - MIN_K) as usize * 3 + role)
}

impl Net {
    /// Inputs of a class's network.
    pub fn inputs(class: u8) -> usize {
        dim(class) + CLASS_SLOTS
    }

    /// Parses an `SKE2` file into its networks (at most one per class).
    pub fn parse(b: &[u8]) -> Result<[Option<Net>; 2], String> {
        if b.len() < 8 || &b[..4] != MAGIC {
            return Err("not a network estimator file (expected the SKE2 header)".into());
        }
        let mut at = 4;
        let u32_at = |at: &mut usize| -> Result<u32, String> {
            let s = take(b, at, 4)?;
            Ok(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
        };
        let n = u32_at(&mut at)?;
        let mut nets: [Option<Net>; 2] = [None, None];
        for _ in 0..n {
            let h = take(b, &mut at, 4)?;
            let (class, hidden) = (h[0], h[1] as usize);
            if class > 1 || nets[class as usize].is_some() {
                return Err(format!("bad or repeated network class {class}"));
            }
            if !(1..=MAX_HIDDEN).contains(&hidden) || h[2] != 0 || h[3] != 0 {
                return Err(format!("bad hidden width {hidden}"));
            }
            let inputs = u32_at(&mut at)? as usize;
            if inputs != Net::inputs(class) {
                return Err(format!(
                    "network with {inputs} inputs, the class has {}",
                    Net::inputs(class)
                ));
            }
            let s = floats(b, &mut at, CLASS_SLOTS)?;
            if s.iter().any(|&x| x < 0.0) {
                return Err("network with a negative sigma".into());
            }
            let mut sigma = [0f32; CLASS_SLOTS];
            sigma.copy_from_slice(&s);
            let bias = floats(b, &mut at, 1)?[0];
            let b1 = floats(b, &mut at, hidden)?;
            let w2 = floats(b, &mut at, hidden)?;
            let rows = floats(b, &mut at, inputs * (1 + hidden))?;
            let wl = rows.iter().step_by(1 + hidden).copied().collect();
            let w1 = rows
                .chunks_exact(1 + hidden)
                .flat_map(|r| r[1..].iter().copied())
                .collect();
            nets[class as usize] = Some(Net {
                hidden,
                sigma,
                bias,
                b1,
                w2,
                wl,
                w1,
            });
        }
        if at != b.len() {
            return Err("trailing bytes after the last network".into());
        }
        if nets.iter().all(|n| n.is_none()) {
            return Err("network estimator file without a network".into());
        }
        Ok(nets)
    }

    /// The estimate for the active `features` of a position of slot `slot` of `class`.
    #[inline]
    pub fn estimate(&self, class: u8, slot: usize, features: &[u32]) -> f32 {
        let h = self.hidden;
        let slot_input = (dim(class) + slot) as u32;
        let inputs = || features.iter().chain(std::iter::once(&slot_input));
        let mut e = self.bias;
        for &f in inputs() {
            e += self.wl[f as usize];
        }
        // the hidden units in blocks of LANES, each block's sums kept in registers while the
        // inputs' rows are added (a remainder block is summed unit by unit)
        let mut j = 0;
        while j + LANES <= h {
            let mut acc: [f32; LANES] = self.b1[j..j + LANES].try_into().unwrap();
            for &f in inputs().filter(|&&f| f >= DEEP_FROM) {
                let at = f as usize * h + j;
                let row: &[f32; LANES] = self.w1[at..at + LANES].try_into().unwrap();
                for (a, x) in acc.iter_mut().zip(row) {
                    *a += x;
                }
            }
            for (a, w2) in acc.iter().zip(&self.w2[j..j + LANES]) {
                e += a.max(0.0) * w2;
            }
            j += LANES;
        }
        for j in j..h {
            let z = inputs()
                .filter(|&&f| f >= DEEP_FROM)
                .fold(self.b1[j], |z, &f| z + self.w1[f as usize * h + j]);
            e += z.max(0.0) * self.w2[j];
        }
        e
    }
}

/// Hidden units summed together in registers.
const LANES: usize = 16;

#[cfg(test)]
mod tests {
    use super::*;

    /// A file with one network whose weights are simple functions of their position.
    pub(crate) fn net_file(class: u8, hidden: usize) -> Vec<u8> {
        let inputs = Net::inputs(class);
        let mut out = MAGIC.to_vec();
        out.extend(1u32.to_le_bytes());
        out.extend([class, hidden as u8, 0, 0]);
        out.extend((inputs as u32).to_le_bytes());
        let mut push = |x: f32| out.extend(x.to_le_bytes());
        for s in 0..CLASS_SLOTS {
            push(1.0 + s as f32 / 10.0);
        }
        push(2.5);
        for j in 0..hidden {
            push(j as f32 / 4.0 - 1.0);
        }
        for j in 0..hidden {
            push(if j % 2 == 0 { 0.5 } else { -0.25 });
        }
        for i in 0..inputs {
            push((i % 7) as f32 / 100.0);
            for j in 0..hidden {
                push(((i + 3 * j) % 11) as f32 / 50.0 - 0.1);
            }
        }
        out
    }

    #[test]
    fn the_estimate_is_the_network_written_out() {
        // widths below, at and beyond whole blocks of lanes
        for hidden in [5, 16, 37] {
            let b = net_file(1, hidden);
            let nets = Net::parse(&b).unwrap();
            let net = nets[1].as_ref().unwrap();
            assert!(nets[0].is_none());
            let feats = [3u32, 40, 1000, 17000];
            let slot = class_slot(7, 2).unwrap();
            // the same sums by the definition
            let inputs: Vec<usize> = feats
                .iter()
                .map(|&f| f as usize)
                .chain([dim(1) + slot])
                .collect();
            let mut want = 2.5f64;
            for &i in &inputs {
                want += (i % 7) as f64 / 100.0;
            }
            for j in 0..hidden {
                let mut z = j as f64 / 4.0 - 1.0;
                for &i in inputs.iter().filter(|&&i| i >= DEEP_FROM as usize) {
                    z += ((i + 3 * j) % 11) as f64 / 50.0 - 0.1;
                }
                want += z.max(0.0) * if j % 2 == 0 { 0.5 } else { -0.25 };
            }
            let got = net.estimate(1, slot, &feats);
            assert!(
                (got as f64 - want).abs() < 1e-3,
                "{hidden}: {got} vs {want}"
            );
            assert_eq!(net.sigma[slot], 1.0 + slot as f32 / 10.0);
        }
    }

    #[test]
    fn bad_files_are_refused() {
        let b = net_file(0, 3);
        assert!(Net::parse(&b).is_ok());
        assert!(Net::parse(&b[..b.len() - 1]).is_err());
        let mut extra = b.clone();
        extra.push(0);
        assert!(Net::parse(&extra).is_err());
        let mut wide = b.clone();
        wide[9] = 0; // hidden width 0
        assert!(Net::parse(&wide).is_err());
        let mut nan = b.clone();
        let at = nan.len() - 4;
        nan[at..].copy_from_slice(&f32::NAN.to_le_bytes());
        assert!(Net::parse(&nan).is_err());
        assert!(Net::parse(b"SKE2\0\0\0\0").is_err());
    }
}
