//! Hand-built game trees: an explicit tree whose leaves name outcomes, each outcome a tuple of
//! per-player scores. Used to check the searches on the paper's small examples.

use super::Game;

/// One node of an [`ExplicitTree`].
#[derive(Clone, Debug)]
pub enum Node {
    /// A decision of `player` between the subtrees rooted at `children` (node indices).
    Inner { player: usize, children: Vec<usize> },
    /// A terminal node reaching outcome `outcome` (an index into the tree's outcome list).
    Leaf { outcome: usize },
}

/// A game tree given node by node; node 0 is the root. States are node indices, moves are
/// child positions (0 = leftmost), outcomes are indices into `scores`.
#[derive(Clone, Debug)]
pub struct ExplicitTree {
    pub players: usize,
    pub nodes: Vec<Node>,
    /// `scores[o][j]`: player j's score in outcome o.
    pub scores: Vec<Vec<i64>>,
}

impl ExplicitTree {
    /// A tree from nested leaves: builds from `(player, children)` inner nodes and score-tuple
    /// leaves, one outcome per distinct score tuple.
    pub fn build(players: usize, root: &Spec) -> ExplicitTree {
        let mut t = ExplicitTree {
            players,
            nodes: Vec::new(),
            scores: Vec::new(),
        };
        t.add(root);
        t
    }

    fn add(&mut self, spec: &Spec) -> usize {
        let id = self.nodes.len();
        match spec {
            Spec::Leaf(scores) => {
                let o = match self.scores.iter().position(|s| s == scores) {
                    Some(o) => o,
                    None => {
                        self.scores.push(scores.clone());
                        self.scores.len() - 1
                    }
                };
                self.nodes.push(Node::Leaf { outcome: o });
            }
            Spec::Inner(player, kids) => {
                self.nodes.push(Node::Inner {
                    player: *player,
                    children: Vec::new(),
                });
                let ids: Vec<usize> = kids.iter().map(|k| self.add(k)).collect();
                self.nodes[id] = Node::Inner {
                    player: *player,
                    children: ids,
                };
            }
        }
        id
    }

    /// Player j's score in outcome o.
    pub fn score(&self, j: usize, o: usize) -> i64 {
        self.scores[o][j]
    }
}

/// A tree written as nested values: an inner node of a player, or a leaf's score tuple.
#[derive(Clone, Debug)]
pub enum Spec {
    Inner(usize, Vec<Spec>),
    Leaf(Vec<i64>),
}

impl Game for ExplicitTree {
    type State = usize;
    type Move = usize;
    type Outcome = usize;

    fn players(&self) -> usize {
        self.players
    }
    fn to_move(&self, s: &usize) -> usize {
        match &self.nodes[*s] {
            Node::Inner { player, .. } => *player,
            Node::Leaf { .. } => 0,
        }
    }
    fn moves(&self, s: &usize, out: &mut Vec<usize>) {
        out.clear();
        if let Node::Inner { children, .. } = &self.nodes[*s] {
            out.extend(0..children.len());
        }
    }
    fn apply(&self, s: &usize, m: usize) -> usize {
        match &self.nodes[*s] {
            Node::Inner { children, .. } => children[m],
            Node::Leaf { .. } => *s,
        }
    }
    fn outcome(&self, s: &usize) -> Option<usize> {
        match &self.nodes[*s] {
            Node::Leaf { outcome } => Some(*outcome),
            Node::Inner { .. } => None,
        }
    }
}
