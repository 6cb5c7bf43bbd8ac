//! Opponent models and max^n sets (Sturtevant and Bowling, sections 3.1 and 4).
//!
//! A [`Model`] is a player's strict preference over outcomes: `prefers(u, v)` means u is
//! preferred to v. It must be a strict partial order (irreflexive and transitive); two
//! outcomes neither of which is preferred are ones the player is indifferent between or
//! cannot rank. Two representations are given: [`GraphModel`], the paper's directed graph
//! over enumerated outcomes, kept closed under transitivity (its constructors close it and
//! reject cycles), and [`Comparator`], an implicit order given by a function, for games
//! whose outcomes cannot be enumerated (a [`Comparator::utility`] orders by a number).
//!
//! A [`MaxnSet`] is a set of outcomes (sorted, without repeats). Strict and weak domination
//! of one set over another under a model, and the consistency check of inference (a decision
//! for `chosen` over `other` is inconsistent with a model when `other` strictly dominates
//! `chosen` under it), are the free functions below.

use crate::SkatError;

/// A strict preference of one player over outcomes of type `O`.
pub trait Model<O> {
    /// Whether the modelled player strictly prefers `u` to `v`.
    fn prefers(&self, u: &O, v: &O) -> bool;

    /// Whether every outcome of `s1` is preferred to every outcome of `s2` (strict
    /// domination of sets). A model may answer faster than pair by pair (for example from
    /// each set's extremes, when its order is given by keys), never differently.
    fn dominates(&self, s1: &[O], s2: &[O]) -> bool {
        s1.iter().all(|u| s2.iter().all(|v| self.prefers(u, v)))
    }
}

impl<O, M: Model<O> + ?Sized> Model<O> for &M {
    fn prefers(&self, u: &O, v: &O) -> bool {
        (**self).prefers(u, v)
    }
    fn dominates(&self, s1: &[O], s2: &[O]) -> bool {
        (**self).dominates(s1, s2)
    }
}

/// An implicit model: `f(u, v)` says whether u is preferred to v (the caller guarantees a
/// strict partial order).
pub struct Comparator<F>(pub F);

impl<O, F: Fn(&O, &O) -> bool> Model<O> for Comparator<F> {
    fn prefers(&self, u: &O, v: &O) -> bool {
        (self.0)(u, v)
    }
}

impl Comparator<()> {
    /// The model of a player who prefers the outcome with the larger `utility`.
    pub fn utility<O, U: PartialOrd>(
        utility: impl Fn(&O) -> U,
    ) -> Comparator<impl Fn(&O, &O) -> bool> {
        Comparator(move |u: &O, v: &O| utility(u) > utility(v))
    }
}

/// The paper's opponent model: a directed graph over outcomes `0..n`, edge (u, v) when u is
/// preferred to v, closed under transitivity and without cycles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphModel {
    n: usize,
    words: usize,
    /// Row u: the bit set of outcomes v with (u, v) an edge.
    rows: Vec<u64>,
}

impl GraphModel {
    /// The model with no preference at all over `n` outcomes.
    pub fn empty(n: usize) -> GraphModel {
        let words = n.div_ceil(64).max(1);
        GraphModel {
            n,
            words,
            rows: vec![0; n * words],
        }
    }

    /// The transitive closure of `edges`; an error if an edge names an outcome `>= n` or the
    /// edges contain a cycle (no strict preference can).
    pub fn from_edges(n: usize, edges: &[(usize, usize)]) -> Result<GraphModel, SkatError> {
        let mut m = GraphModel::empty(n);
        for &(u, v) in edges {
            if u >= n || v >= n {
                return Err(SkatError::InvalidPosition(format!(
                    "edge ({u}, {v}) names an outcome outside 0..{n}"
                )));
            }
            m.set(u, v);
        }
        m.close()?;
        Ok(m)
    }

    /// The model with an edge (u, v) wherever `prefers(u, v)`, closed under transitivity.
    pub fn from_fn(
        n: usize,
        prefers: impl Fn(usize, usize) -> bool,
    ) -> Result<GraphModel, SkatError> {
        let mut m = GraphModel::empty(n);
        for u in 0..n {
            for v in 0..n {
                if u != v && prefers(u, v) {
                    m.set(u, v);
                }
            }
        }
        m.close()?;
        Ok(m)
    }

    /// The generalisation of candidate models: their intersection, (u, v) an edge exactly
    /// when it is one in every candidate (closed again, as an intersection of closed
    /// relations is). An empty list or models of different sizes is an error.
    pub fn intersection(models: &[&GraphModel]) -> Result<GraphModel, SkatError> {
        let first = models.first().ok_or_else(|| {
            SkatError::InvalidPosition("no candidate models to generalise".to_string())
        })?;
        let mut g = (*first).clone();
        for m in &models[1..] {
            if m.n != g.n {
                return Err(SkatError::InvalidPosition(format!(
                    "models over {} and {} outcomes",
                    g.n, m.n
                )));
            }
            for (a, b) in g.rows.iter_mut().zip(&m.rows) {
                *a &= *b;
            }
        }
        Ok(g)
    }

    /// Number of outcomes.
    pub fn len(&self) -> usize {
        self.n
    }

    /// Whether there are no outcomes.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// Every edge (u, v), in order of u then v.
    pub fn edges(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for u in 0..self.n {
            for v in 0..self.n {
                if self.has(u, v) {
                    out.push((u, v));
                }
            }
        }
        out
    }

    /// The outcomes v that u is preferred to, as a bit set when `n <= 64`.
    pub fn row_bits(&self, u: usize) -> u64 {
        self.rows[u * self.words]
    }

    fn has(&self, u: usize, v: usize) -> bool {
        self.rows[u * self.words + v / 64] >> (v % 64) & 1 == 1
    }

    fn set(&mut self, u: usize, v: usize) {
        self.rows[u * self.words + v / 64] |= 1 << (v % 64);
    }

    /// Warshall's transitive closure; then a cycle shows as a self-loop.
    fn close(&mut self) -> Result<(), SkatError> {
        let w = self.words;
        for k in 0..self.n {
            let row_k: Vec<u64> = self.rows[k * w..(k + 1) * w].to_vec();
            for u in 0..self.n {
                if self.has(u, k) {
                    for (x, y) in self.rows[u * w..(u + 1) * w].iter_mut().zip(&row_k) {
                        *x |= *y;
                    }
                }
            }
        }
        match (0..self.n).find(|&u| self.has(u, u)) {
            Some(u) => Err(SkatError::InvalidPosition(format!(
                "the preference has a cycle through outcome {u}"
            ))),
            None => Ok(()),
        }
    }
}

impl Model<usize> for GraphModel {
    fn prefers(&self, u: &usize, v: &usize) -> bool {
        self.has(*u, *v)
    }
}

impl Model<u8> for GraphModel {
    fn prefers(&self, u: &u8, v: &u8) -> bool {
        self.has(*u as usize, *v as usize)
    }
}

/// A set of max^n values (outcomes), sorted and without repeats.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MaxnSet<O>(std::sync::Arc<[O]>);

impl<O: Copy + Ord> MaxnSet<O> {
    /// The set of one outcome.
    pub fn single(o: O) -> MaxnSet<O> {
        MaxnSet(std::sync::Arc::from([o]))
    }

    /// The set of the given outcomes.
    pub fn from_outcomes(mut v: Vec<O>) -> MaxnSet<O> {
        v.sort_unstable();
        v.dedup();
        MaxnSet(v.into())
    }

    /// The union with `other`.
    pub fn union(&self, other: &MaxnSet<O>) -> MaxnSet<O> {
        if self.0 == other.0 {
            return self.clone();
        }
        let mut v = Vec::with_capacity(self.0.len() + other.0.len());
        let (mut i, mut j) = (0, 0);
        while i < self.0.len() && j < other.0.len() {
            let (a, b) = (self.0[i], other.0[j]);
            if a < b {
                v.push(a);
                i += 1;
            } else if b < a {
                v.push(b);
                j += 1;
            } else {
                v.push(a);
                i += 1;
                j += 1;
            }
        }
        v.extend_from_slice(&self.0[i..]);
        v.extend_from_slice(&other.0[j..]);
        MaxnSet(v.into())
    }

    /// The outcomes, in increasing order.
    pub fn outcomes(&self) -> &[O] {
        &self.0
    }

    /// Number of outcomes.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether `o` is in the set.
    pub fn contains(&self, o: &O) -> bool {
        self.0.binary_search(o).is_ok()
    }

    /// Whether every outcome of `self` is in `other`.
    pub fn is_subset(&self, other: &MaxnSet<O>) -> bool {
        self.0.iter().all(|o| other.contains(o))
    }
}

/// `s1` strictly dominates `s2` under `model`: every u1 of s1 is preferred to every u2 of s2.
pub fn strictly_dominates<O, M: Model<O> + ?Sized>(
    model: &M,
    s1: &MaxnSet<O>,
    s2: &MaxnSet<O>,
) -> bool {
    model.dominates(&s1.0, &s2.0)
}

/// `s1` weakly dominates `s2` under `model`: no u2 of s2 is preferred to any u1 of s1, and
/// some u1 is preferred to some u2.
pub fn weakly_dominates<O, M: Model<O> + ?Sized>(
    model: &M,
    s1: &MaxnSet<O>,
    s2: &MaxnSet<O>,
) -> bool {
    let none_worse =
        s1.0.iter()
            .all(|u1| s2.0.iter().all(|u2| !model.prefers(u2, u1)));
    none_worse
        && s1
            .0
            .iter()
            .any(|u1| s2.0.iter().any(|u2| model.prefers(u1, u2)))
}

/// The consistency check of inference: choosing the move whose set is `chosen` over the one
/// whose set is `other` is inconsistent with `model` when `other` strictly dominates `chosen`.
pub fn inconsistent<O, M: Model<O> + ?Sized>(
    model: &M,
    chosen: &MaxnSet<O>,
    other: &MaxnSet<O>,
) -> bool {
    strictly_dominates(model, other, chosen)
}
