//! Synthetic prefix-value game trees (solver thesis, section 3.7) and the trait the tree
//! searches of [`super::tree_search`] and [`super::proof_size`] run on.
//!
//! A node's *prefix value* `p` is its negamax value from the side to move. Every interior node
//! draws a branching factor `b` uniformly in `min_branch..=max_branch`, one child with damage
//! `d = 0` and the others with `d` uniform in `-max_damage..=0`; a child's value is
//! `-p(parent) - d`. Since one move of every node has zero damage, `max_w -p(w) = p(v)`: the
//! prefix value *is* the exact negamax value at every node (thesis Th 3.7.3), so a search's
//! answer can be checked without searching the whole tree.
//!
//! Trees are lazy: a node is its random key, its value and its depth; its children are
//! generated from the key on demand (the same children every time), so a depth-10 tree with
//! about 8^10 leaves is never materialised. The heuristic evaluation of a node above the
//! leaves is its exact value plus an integer error uniform in `-max_error..=max_error`, fixed
//! per node (the same in every pass of iterative deepening).

use crate::rng::Rng;

/// One node of a game tree: `key` identifies it (and seeds its children in a synthetic tree),
/// `value` is its exact negamax value from the side to move, `depth` its distance from the
/// root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    pub key: u64,
    pub value: i32,
    pub depth: u8,
}

/// What the searches need of a game tree.
pub trait GameTree {
    fn root(&self) -> Node;
    /// Appends the children of `n` to `out` (nothing for a leaf).
    fn children(&self, n: &Node, out: &mut Vec<Node>);
    /// The number of children of `n`, without generating them (the fastest-cut-first
    /// ordering's `S_i`; in a card game, the count of legal replies).
    fn degree(&self, n: &Node) -> usize;
    /// The heuristic value of an interior node searched to depth 0 (exact at a leaf).
    fn estimate(&self, n: &Node) -> i32;
    /// A lower bound on the size of any proof that `n` fails low (`all`: every child
    /// refuted) or high (one child refuting): at least the node itself.
    fn proof_lower_bound(&self, n: &Node, all: bool) -> u64 {
        let _ = (n, all);
        1
    }
}

/// The parameters of a synthetic tree (thesis section 3.8: depth 10, branching 4..12,
/// errors -4..4, edge values -6..0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeParams {
    pub depth: u8,
    pub min_branch: u8,
    pub max_branch: u8,
    pub max_damage: i32,
    pub max_error: i32,
}

impl Default for TreeParams {
    fn default() -> TreeParams {
        TreeParams {
            depth: 10,
            min_branch: 4,
            max_branch: 12,
            max_damage: 6,
            max_error: 4,
        }
    }
}

/// A lazily generated prefix-value tree, fixed by its parameters and seed.
#[derive(Clone, Copy, Debug)]
pub struct PrefixTree {
    pub params: TreeParams,
    root_key: u64,
}

fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl PrefixTree {
    /// The tree of `seed` (the root's value is 0).
    pub fn new(params: TreeParams, seed: u64) -> PrefixTree {
        assert!(params.min_branch >= 1 && params.min_branch <= params.max_branch);
        PrefixTree {
            params,
            root_key: mix(seed ^ 0x5052_4546_4958),
        }
    }

    fn is_leaf(&self, n: &Node) -> bool {
        n.depth >= self.params.depth
    }
}

impl GameTree for PrefixTree {
    fn root(&self) -> Node {
        Node {
            key: self.root_key,
            value: 0,
            depth: 0,
        }
    }

    fn children(&self, n: &Node, out: &mut Vec<Node>) {
        if self.is_leaf(n) {
            return;
        }
        let mut rng = Rng::new(n.key);
        let span = (self.params.max_branch - self.params.min_branch) as u64 + 1;
        let b = self.params.min_branch as u64 + rng.below(span);
        let zero = rng.below(b);
        for i in 0..b {
            let d = if i == zero {
                0
            } else {
                -(rng.below(self.params.max_damage as u64 + 1) as i32)
            };
            out.push(Node {
                key: mix(n.key ^ mix(i + 1)),
                value: -n.value - d,
                depth: n.depth + 1,
            });
        }
    }

    fn degree(&self, n: &Node) -> usize {
        if self.is_leaf(n) {
            return 0;
        }
        let mut rng = Rng::new(n.key);
        let span = (self.params.max_branch - self.params.min_branch) as u64 + 1;
        self.params.min_branch as usize + rng.below(span) as usize
    }

    fn estimate(&self, n: &Node) -> i32 {
        if self.is_leaf(n) {
            return n.value;
        }
        let e = self.params.max_error;
        n.value + (mix(n.key ^ 0xE770_E770) % (2 * e as u64 + 1)) as i32 - e
    }

    /// With `r` levels below `n` and every node below it having at least `min_branch`
    /// children: a refuting proof needs one child's all-proof, an all-proof every child's
    /// refutation (`n`'s own degree is known).
    fn proof_lower_bound(&self, n: &Node, all: bool) -> u64 {
        let r = self.params.depth.saturating_sub(n.depth);
        if r == 0 {
            return 1;
        }
        let m = self.params.min_branch as u64;
        // (cut, all) bounds for `k` levels below.
        let (mut cut, mut al) = (1u64, 1u64);
        for _ in 1..r {
            let (c, a) = (1 + al, 1 + m.saturating_mul(cut));
            cut = c;
            al = a;
        }
        if all {
            1 + (self.degree(n) as u64).saturating_mul(cut)
        } else {
            1 + al
        }
    }
}

/// An explicit tree given by its leaf values (for tests and small hand-built examples): node
/// values are computed by negamax, estimates of interior nodes are given.
#[derive(Clone, Debug)]
pub struct ExplicitTree {
    kids: Vec<Vec<usize>>,
    values: Vec<i32>,
    estimates: Vec<i32>,
    depths: Vec<u8>,
}

/// A hand-built tree: a leaf with its value, or an interior node with its heuristic estimate
/// and its children.
#[derive(Clone, Debug)]
pub enum Shape {
    Leaf(i32),
    Inner(i32, Vec<Shape>),
}

impl ExplicitTree {
    pub fn new(shape: &Shape) -> ExplicitTree {
        let mut t = ExplicitTree {
            kids: Vec::new(),
            values: Vec::new(),
            estimates: Vec::new(),
            depths: Vec::new(),
        };
        t.add(shape, 0);
        t
    }

    fn add(&mut self, s: &Shape, depth: u8) -> usize {
        let id = self.kids.len();
        self.kids.push(Vec::new());
        self.values.push(0);
        self.estimates.push(0);
        self.depths.push(depth);
        match s {
            Shape::Leaf(v) => {
                self.values[id] = *v;
                self.estimates[id] = *v;
            }
            Shape::Inner(e, children) => {
                assert!(!children.is_empty(), "an inner node has children");
                let ids: Vec<usize> = children.iter().map(|c| self.add(c, depth + 1)).collect();
                self.values[id] = ids.iter().map(|&c| -self.values[c]).max().unwrap();
                self.estimates[id] = *e;
                self.kids[id] = ids;
            }
        }
        id
    }

    fn node(&self, id: usize) -> Node {
        Node {
            key: id as u64,
            value: self.values[id],
            depth: self.depths[id],
        }
    }

    /// The number of nodes.
    pub fn len(&self) -> usize {
        self.kids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.kids.is_empty()
    }
}

impl GameTree for ExplicitTree {
    fn root(&self) -> Node {
        self.node(0)
    }

    fn children(&self, n: &Node, out: &mut Vec<Node>) {
        out.extend(self.kids[n.key as usize].iter().map(|&c| self.node(c)));
    }

    fn degree(&self, n: &Node) -> usize {
        self.kids[n.key as usize].len()
    }

    fn estimate(&self, n: &Node) -> i32 {
        self.estimates[n.key as usize]
    }
}

/// The plain negamax value of `n` searched to `draft` plies (estimates at the horizon): the
/// reference the searches are checked against.
pub fn negamax<T: GameTree>(t: &T, n: &Node, draft: u8) -> i32 {
    let mut kids = Vec::new();
    t.children(n, &mut kids);
    if kids.is_empty() {
        return n.value;
    }
    if draft == 0 {
        return t.estimate(n);
    }
    kids.iter()
        .map(|c| -negamax(t, c, draft - 1))
        .max()
        .unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> TreeParams {
        TreeParams {
            depth: 4,
            min_branch: 2,
            max_branch: 4,
            ..TreeParams::default()
        }
    }

    #[test]
    fn prefix_value_is_the_negamax_value_everywhere() {
        for seed in 0..20 {
            let t = PrefixTree::new(small(), seed);
            let mut stack = vec![t.root()];
            while let Some(n) = stack.pop() {
                assert_eq!(negamax(&t, &n, 10), n.value);
                let mut kids = Vec::new();
                t.children(&n, &mut kids);
                assert_eq!(kids.len(), t.degree(&n));
                stack.extend(kids);
            }
        }
    }

    #[test]
    fn children_are_reproducible_and_in_range() {
        let p = TreeParams::default();
        let t = PrefixTree::new(p, 7);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        t.children(&t.root(), &mut a);
        t.children(&t.root(), &mut b);
        assert_eq!(a, b);
        assert!((4..=12).contains(&a.len()));
        assert!(a.iter().any(|c| c.value == 0));
        for c in &a {
            assert!((0..=6).contains(&c.value));
            let e = t.estimate(c);
            assert!((c.value - 4..=c.value + 4).contains(&e));
        }
    }

    #[test]
    fn explicit_tree_values() {
        use Shape::*;
        let t = ExplicitTree::new(&Inner(
            0,
            vec![
                Inner(0, vec![Leaf(3), Leaf(-2)]),
                Inner(0, vec![Leaf(1), Leaf(5)]),
            ],
        ));
        // children: max(-3, 2) = 2 and max(-1, -5) = -1; root max(-2, 1) = 1
        assert_eq!(t.root().value, 1);
        assert_eq!(t.len(), 7);
    }
}
