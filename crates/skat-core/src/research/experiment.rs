//! One synthetic tree's figures: the minimum proof size and the nodes of NegaScout and MTD(f),
//! each with and without fastest-cut-first ordering, all checked to return the tree's exact
//! value (0 at the root, by construction).

use super::prefix_trees::{PrefixTree, TreeParams};
use super::proof_size::min_proof_size;
use super::tree_search::{search, Algorithm};

/// The figures of one tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeFigures {
    pub min_proof: u64,
    pub negascout: u64,
    pub negascout_fcf: u64,
    pub mtdf: u64,
    pub mtdf_fcf: u64,
}

/// Searches the tree of `seed` four ways. Panics if a search misses the exact value (that
/// would be a bug in the search, not a property of the tree).
pub fn run_tree(params: TreeParams, seed: u64) -> TreeFigures {
    let t = PrefixTree::new(params, seed);
    let run = |algo, fcf| {
        let r = search(&t, params.depth, algo, fcf);
        assert_eq!(r.value, 0, "{algo:?} fcf={fcf} missed the tree's value");
        r.nodes
    };
    TreeFigures {
        min_proof: min_proof_size(&t),
        negascout: run(Algorithm::NegaScout, false),
        negascout_fcf: run(Algorithm::NegaScout, true),
        mtdf: run(Algorithm::Mtdf, false),
        mtdf_fcf: run(Algorithm::Mtdf, true),
    }
}
