//! The max^n search (Luckhardt and Irani): at a node of player j, the value is the value of
//! the child whose outcome j rates highest, ties broken toward the first move.
//!
//! The value backed up is the outcome reached (its utility tuple is `utility(j, outcome)` for
//! every player j), so the table stores one outcome per state. `utility(j, o)` is player j's
//! rating of outcome `o` as the searching player models j (its own utility for itself).

use super::{Game, Table};

/// A max^n searcher with its transposition table (valid as long as `utility` is unchanged).
pub struct Maxn<'g, G: Game, U> {
    game: &'g G,
    utility: U,
    table: Table<G::State, G::Outcome>,
    buffers: Vec<Vec<G::Move>>,
    /// Nodes expanded (table misses) since creation.
    pub nodes: u64,
}

impl<'g, G: Game, U: Fn(usize, &G::Outcome) -> i64> Maxn<'g, G, U> {
    /// A searcher over `game` with the players' utilities `utility(player, outcome)`.
    pub fn new(game: &'g G, utility: U) -> Self {
        Maxn {
            game,
            utility,
            table: Table::default(),
            buffers: Vec::new(),
            nodes: 0,
        }
    }

    /// The max^n value (the outcome reached) of `s`.
    pub fn value(&mut self, s: &G::State) -> G::Outcome {
        self.search(s, 0)
    }

    /// Every move of `s` with the max^n value of its child, in move order.
    pub fn children(&mut self, s: &G::State) -> Vec<(G::Move, G::Outcome)> {
        let mut moves = Vec::new();
        self.game.moves(s, &mut moves);
        moves
            .into_iter()
            .map(|m| {
                let c = self.game.apply(s, m);
                (m, self.search(&c, 1))
            })
            .collect()
    }

    /// The move max^n plays in the non-terminal state `s`, with its value.
    pub fn best(&mut self, s: &G::State) -> (G::Move, G::Outcome) {
        let j = self.game.to_move(s);
        let mut best: Option<(G::Move, G::Outcome, i64)> = None;
        for (m, o) in self.children(s) {
            let u = (self.utility)(j, &o);
            if best.as_ref().is_none_or(|b| u > b.2) {
                best = Some((m, o, u));
            }
        }
        let (m, o, _) = best.expect("best() needs a state with a legal move");
        (m, o)
    }

    fn search(&mut self, s: &G::State, depth: usize) -> G::Outcome {
        if let Some(o) = self.game.outcome(s) {
            return o;
        }
        let cacheable = self.game.cacheable(s);
        if cacheable {
            if let Some(o) = self.table.get(s) {
                return *o;
            }
        }
        self.nodes += 1;
        let j = self.game.to_move(s);
        while self.buffers.len() <= depth {
            self.buffers.push(Vec::new());
        }
        let mut moves = std::mem::take(&mut self.buffers[depth]);
        self.game.moves(s, &mut moves);
        let mut best: Option<(G::Outcome, i64)> = None;
        for &m in &moves {
            let o = self.search(&self.game.apply(s, m), depth + 1);
            let u = (self.utility)(j, &o);
            if best.is_none_or(|b| u > b.1) {
                best = Some((o, u));
            }
        }
        self.buffers[depth] = moves;
        let o = best.expect("a non-terminal state has a legal move").0;
        if cacheable {
            self.table.insert(s.clone(), o);
        }
        o
    }
}
