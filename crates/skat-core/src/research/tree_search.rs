//! NegaScout and MTD(f) with iterative deepening on a [`GameTree`], counting nodes, with and
//! without fastest-cut-first (FCF) move ordering (solver thesis sections 3.6 and 3.8).
//!
//! Both searches are fail-soft and share one transposition table keyed by node key: an entry
//! holds the draft it was searched to, the bounds proven at that draft, and the last value
//! found (any draft), which orders the moves of the next pass. Passes run at drafts
//! `1..=depth`; the last one reaches every leaf, so its value is the exact root value.
//!
//! Move order at a node searched with window `(alpha, beta)`:
//! * **without FCF**: children with a value from an earlier search first, best value (from
//!   this node's side) first; then the others in random order (their random keys);
//! * **with FCF** (Th 3.6.1: ascending `S_i / P_i` minimises the expected nodes at a cut
//!   node): `P_i` is 1 when the child's earlier value already reaches `beta`, else 0 (`S/0 =
//!   inf`); `S_i` is the child's number of moves. Children with `P_i = 1` come first,
//!   fewest moves first (ties: better value first); then the rest as without FCF.
//!
//! Nodes counted: every node evaluated at the horizon or expanded, over all passes and all
//! MTD(f) probes; a node answered by the table alone is not counted.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::prefix_trees::{GameTree, Node};
use super::proof_size::INF;

/// The estimated chance that a child whose earlier value is `margin` above `beta` (from the
/// parent's side) reaches it: a logistic curve in the margin, half at `-0.5` (integer values:
/// a margin of 0 reaches beta), scale [`CUT_SCALE`] (about the spread of the errors of the
/// previous pass's value).
fn cut_probability(margin: f64) -> f64 {
    let p = 1.0 / (1.0 + (-(margin + 0.5) / CUT_SCALE).exp());
    p.max(1e-9)
}

pub const CUT_SCALE: f64 = 1.5;

/// The two search algorithms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    NegaScout,
    Mtdf,
}

/// Keys are already random: the table hashes them by identity.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, _: &[u8]) {
        unreachable!("only u64 keys")
    }
    fn write_u64(&mut self, k: u64) {
        self.0 = k;
    }
}

#[derive(Clone, Copy)]
struct Entry {
    draft: u8,
    lower: i32,
    upper: i32,
    last: i32,
}

/// The outcome of one iterative-deepening search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchResult {
    pub value: i32,
    pub nodes: u64,
}

struct Searcher<'a, T: GameTree> {
    tree: &'a T,
    fcf: bool,
    table: HashMap<u64, Entry, BuildHasherDefault<KeyHasher>>,
    nodes: u64,
}

impl<T: GameTree> Searcher<'_, T> {
    fn ordered(&self, n: &Node, beta: i32) -> Vec<Node> {
        let mut kids = Vec::new();
        self.tree.children(n, &mut kids);
        // (class, score): smaller first.
        let mut keyed: Vec<((u8, f64), Node)> = kids
            .into_iter()
            .map(|c| {
                let k = match self.table.get(&c.key) {
                    Some(e) => {
                        let v = -e.last as f64;
                        if self.fcf {
                            let p = cut_probability(v - beta as f64);
                            (1, self.tree.degree(&c) as f64 / p)
                        } else {
                            (1, -v)
                        }
                    }
                    None => (2, (c.key >> 11) as f64),
                };
                (k, c)
            })
            .collect();
        keyed.sort_by(|a, b| a.0.partial_cmp(&b.0).expect("scores are finite"));
        keyed.into_iter().map(|(_, c)| c).collect()
    }

    /// A table answer for `(alpha, beta)` at `draft`, if the entry settles it.
    fn probe(&self, n: &Node, draft: u8, alpha: i32, beta: i32) -> Option<i32> {
        let e = self.table.get(&n.key)?;
        if e.draft < draft {
            return None;
        }
        if e.lower >= beta || e.lower == e.upper {
            return Some(e.lower);
        }
        if e.upper <= alpha {
            return Some(e.upper);
        }
        None
    }

    fn store(&mut self, n: &Node, draft: u8, alpha: i32, beta: i32, v: i32) {
        let e = self.table.entry(n.key).or_insert(Entry {
            draft,
            lower: -INF,
            upper: INF,
            last: v,
        });
        if e.draft != draft {
            *e = Entry {
                draft,
                lower: -INF,
                upper: INF,
                last: v,
            };
        }
        e.last = v;
        if v > alpha {
            e.lower = e.lower.max(v);
        }
        if v < beta {
            e.upper = e.upper.min(v);
        }
    }

    /// The horizon: a leaf's exact value or an interior node's estimate.
    fn horizon(&mut self, n: &Node, draft: u8) -> Option<i32> {
        if draft == 0 || self.tree.degree(n) == 0 {
            self.nodes += 1;
            let v = self.tree.estimate(n);
            let exact = if self.tree.degree(n) == 0 { u8::MAX } else { 0 };
            self.table.insert(
                n.key,
                Entry {
                    draft: exact,
                    lower: v,
                    upper: v,
                    last: v,
                },
            );
            return Some(v);
        }
        None
    }

    /// Fail-soft alpha-beta of `n` in the window `(alpha, beta)`; with `scout` NegaScout:
    /// every child after the first is tested with a null window first and searched again with
    /// the full window only when the test lands inside it.
    fn window_search(&mut self, n: &Node, draft: u8, alpha: i32, beta: i32, scout: bool) -> i32 {
        if let Some(v) = self.probe(n, draft, alpha, beta) {
            return v;
        }
        if let Some(v) = self.horizon(n, draft) {
            return v;
        }
        self.nodes += 1;
        let (mut a, mut best) = (alpha, -INF);
        for (i, c) in self.ordered(n, beta).into_iter().enumerate() {
            let mut v;
            if i == 0 || !scout {
                v = -self.window_search(&c, draft - 1, -beta, -a, scout);
            } else {
                v = -self.window_search(&c, draft - 1, -a - 1, -a, scout);
                if a < v && v < beta {
                    v = -self.window_search(&c, draft - 1, -beta, -v, scout);
                }
            }
            best = best.max(v);
            a = a.max(v);
            if a >= beta {
                break;
            }
        }
        self.store(n, draft, alpha, beta, best);
        best
    }

    fn mtdf(&mut self, root: &Node, draft: u8, guess: i32) -> i32 {
        let (mut lower, mut upper, mut g) = (-INF, INF, guess);
        while lower < upper {
            let b = if g == lower { g + 1 } else { g };
            g = self.window_search(root, draft, b - 1, b, false);
            if g < b {
                upper = g;
            } else {
                lower = g;
            }
        }
        g
    }
}

/// Iterative deepening over drafts `1..=depth` (the tree's depth) with `algo`, FCF on or off.
pub fn search<T: GameTree>(tree: &T, depth: u8, algo: Algorithm, fcf: bool) -> SearchResult {
    let mut s = Searcher {
        tree,
        fcf,
        table: HashMap::default(),
        nodes: 0,
    };
    let root = tree.root();
    let mut value = tree.estimate(&root);
    for draft in 1..=depth.max(1) {
        value = match algo {
            Algorithm::NegaScout => s.window_search(&root, draft, -INF, INF, true),
            Algorithm::Mtdf => s.mtdf(&root, draft, value),
        };
    }
    SearchResult {
        value,
        nodes: s.nodes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::research::prefix_trees::{negamax, ExplicitTree, PrefixTree, Shape, TreeParams};
    use crate::research::proof_size::min_proof_size;

    const ALL: [(Algorithm, bool); 4] = [
        (Algorithm::NegaScout, false),
        (Algorithm::NegaScout, true),
        (Algorithm::Mtdf, false),
        (Algorithm::Mtdf, true),
    ];

    #[test]
    fn every_search_finds_the_negamax_value_at_every_draft() {
        let p = TreeParams {
            depth: 5,
            min_branch: 2,
            max_branch: 5,
            ..TreeParams::default()
        };
        for seed in 0..30 {
            let t = PrefixTree::new(p, seed);
            for draft in 1..=5 {
                let want = negamax(&t, &t.root(), draft);
                for (algo, fcf) in ALL {
                    // The last pass's value is the value at that draft.
                    let got = search(&t, draft, algo, fcf).value;
                    assert_eq!(got, want, "seed {seed} draft {draft} {algo:?} fcf {fcf}");
                }
            }
            assert_eq!(negamax(&t, &t.root(), 5), 0);
        }
    }

    #[test]
    fn hand_built_tree() {
        use Shape::*;
        let t = ExplicitTree::new(&Inner(
            0,
            vec![
                Inner(-1, vec![Leaf(3), Leaf(-2), Leaf(0)]),
                Inner(2, vec![Leaf(1), Leaf(5)]),
                Inner(0, vec![Inner(0, vec![Leaf(-4)]), Leaf(6)]),
            ],
        ));
        // Children: max(-3, 2, 0) = 2, max(-1, -5) = -1, max(-4, -6) = -4 (its first child
        // is max(4) = 4); root max(-2, 1, 4) = 4.
        assert_eq!(t.root().value, 4);
        for (algo, fcf) in ALL {
            let r = search(&t, 3, algo, fcf);
            assert_eq!(r.value, 4);
            // A pass at full depth visits at least a minimum proof tree.
            assert!(r.nodes >= min_proof_size(&t));
        }
    }

    #[test]
    fn default_trees_are_solved_exactly() {
        let p = TreeParams {
            depth: 6,
            ..TreeParams::default()
        };
        let t = PrefixTree::new(p, 11);
        let mpt = min_proof_size(&t);
        for (algo, fcf) in ALL {
            let r = search(&t, 6, algo, fcf);
            assert_eq!(r.value, 0, "{algo:?} {fcf}");
            assert!(r.nodes >= mpt, "{algo:?} {fcf}: {} < {mpt}", r.nodes);
        }
    }
}
