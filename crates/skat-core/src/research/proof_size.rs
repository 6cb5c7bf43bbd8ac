//! The minimum minimax proof-tree size (solver thesis Fig. 3.2, `MPT_SIZE`): the fewest nodes
//! an alpha-beta search with the best possible move order visits to prove a tree's value.
//!
//! With exact node values known (prefix-value trees, or any tree with negamax values):
//! `MPT(v, a, b)` is 0 when `a >= b`, 1 at a leaf; at an *all* node (`f(v) <= a`) 1 plus every
//! child's `MPT(w, -b, -a)`; at a *cut* node (`f(v) >= b`) 1 plus the cheapest cutting child
//! (`-f(w) >= b`); at a *PV* node 1 plus, over the children `w` with `-f(w) = f(v)`, the least
//! `MPT(w, -b, -a) + sum over x != w of MPT(x, -b, -f(v))` (best child first, the others
//! searched with the raised alpha). The root is `MPT(root, -inf, inf)`.
//!
//! The minimum over cutting children is found by branch and bound: each child is measured
//! with the budget of the best one so far, and a subtree stops counting once it reaches its
//! budget, so the result is exact but most of a cut node's alternatives are abandoned early.
//! Cutting children are tried fewest-children first.

use super::prefix_trees::{GameTree, Node};

/// Larger than any value of the trees searched here.
pub const INF: i32 = 1 << 20;

/// `MPT_SIZE(root, -inf, inf)`.
pub fn min_proof_size<T: GameTree>(t: &T) -> u64 {
    mpt(t, &t.root(), -INF, INF, u64::MAX)
}

/// `min(MPT_SIZE(n, alpha, beta), budget)`.
pub fn mpt<T: GameTree>(t: &T, n: &Node, alpha: i32, beta: i32, budget: u64) -> u64 {
    if alpha >= beta || budget == 0 {
        return 0;
    }
    let mut kids = Vec::new();
    t.children(n, &mut kids);
    if kids.is_empty() {
        return 1;
    }
    let f = n.value;
    if f <= alpha {
        if t.proof_lower_bound(n, true) >= budget {
            return budget;
        }
        let mut sum = 1u64;
        let mut rest: u64 = kids.iter().map(|w| t.proof_lower_bound(w, false)).sum();
        for w in &kids {
            rest -= t.proof_lower_bound(w, false);
            if sum.saturating_add(rest) >= budget {
                return budget;
            }
            sum += mpt(t, w, -beta, -alpha, budget - sum - rest);
            if sum.saturating_add(rest) >= budget {
                return budget;
            }
            if sum >= budget {
                return budget;
            }
        }
        return sum;
    }
    if f >= beta {
        let mut cutting: Vec<(usize, Node)> = kids
            .iter()
            .filter(|w| -w.value >= beta)
            .map(|w| (t.degree(w), *w))
            .collect();
        cutting.sort_by_key(|&(d, w)| (d, std::cmp::Reverse(-w.value)));
        let mut best = budget;
        for (_, w) in &cutting {
            if 1 + t.proof_lower_bound(w, true) >= best {
                continue;
            }
            let s = 1 + mpt(t, w, -beta, -alpha, best - 1);
            best = best.min(s);
        }
        return best;
    }
    let raised: Vec<u64> = kids
        .iter()
        .map(|x| mpt(t, x, -beta, -f, u64::MAX))
        .collect();
    let total: u64 = raised.iter().sum();
    let best = kids
        .iter()
        .zip(&raised)
        .filter(|(w, _)| -w.value == f)
        .map(|(w, r)| mpt(t, w, -beta, -alpha, u64::MAX) + total - r)
        .min()
        .expect("a PV node has a child with its value");
    (1 + best).min(budget)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::research::prefix_trees::{ExplicitTree, PrefixTree, Shape, TreeParams};

    /// The fewest nodes plain alpha-beta visits from `n` with window `(alpha, beta)`, over
    /// every order of the children at every node (children's costs depend only on their own
    /// window, so each node's orders are enumerated independently).
    fn brute<T: GameTree>(t: &T, n: &Node, alpha: i32, beta: i32) -> u64 {
        let mut kids = Vec::new();
        t.children(n, &mut kids);
        if kids.is_empty() {
            return 1;
        }
        let mut order: Vec<usize> = (0..kids.len()).collect();
        let mut best = u64::MAX;
        permute(&mut order, 0, &mut |ord| {
            let (mut a, mut size) = (alpha, 1u64);
            for &i in ord {
                size += brute(t, &kids[i], -beta, -a);
                let v = -kids[i].value;
                if v >= beta {
                    break;
                }
                a = a.max(v);
            }
            best = best.min(size);
        });
        best
    }

    fn permute(v: &mut Vec<usize>, k: usize, f: &mut dyn FnMut(&[usize])) {
        if k == v.len() {
            f(v);
            return;
        }
        for i in k..v.len() {
            v.swap(k, i);
            permute(v, k + 1, f);
            v.swap(k, i);
        }
    }

    #[test]
    fn hand_built_trees() {
        use Shape::*;
        // One leaf: 1 node.
        assert_eq!(min_proof_size(&ExplicitTree::new(&Leaf(4))), 1);
        // Root with two leaves: both must be seen (value exact needs the other bounded).
        let t = ExplicitTree::new(&Inner(0, vec![Leaf(-3), Leaf(2)]));
        assert_eq!(min_proof_size(&t), 3);
        // Depth 2: best child first proves its value with both leaves; the other child is
        // refuted by one leaf (cut): 1 + 3 + 2 = 6.
        let t = ExplicitTree::new(&Inner(
            0,
            vec![
                Inner(0, vec![Leaf(3), Leaf(-2)]),
                Inner(0, vec![Leaf(1), Leaf(5)]),
            ],
        ));
        assert_eq!(min_proof_size(&t), 6);
        assert_eq!(brute(&t, &t.root(), -INF, INF), 6);
    }

    #[test]
    fn equals_brute_force_over_move_orders() {
        let p = TreeParams {
            depth: 4,
            min_branch: 1,
            max_branch: 3,
            max_damage: 3,
            max_error: 2,
        };
        for seed in 0..40 {
            let t = PrefixTree::new(p, seed);
            assert_eq!(
                min_proof_size(&t),
                brute(&t, &t.root(), -INF, INF),
                "seed {seed}"
            );
        }
    }

    #[test]
    fn budget_caps_the_size() {
        let p = TreeParams {
            depth: 5,
            ..TreeParams::default()
        };
        let t = PrefixTree::new(p, 3);
        let full = min_proof_size(&t);
        assert!(full > 10);
        assert_eq!(mpt(&t, &t.root(), -INF, INF, full), full);
        assert_eq!(mpt(&t, &t.root(), -INF, INF, 10), 10);
    }
}
