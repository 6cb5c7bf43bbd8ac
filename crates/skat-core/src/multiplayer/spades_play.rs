//! Spades players, games and the inference experiment of Sturtevant and Bowling.
//!
//! A [`Player`] is a kind (what it wants), the preference it assumes for every opponent, and a
//! search: max^n (`mOT_MT`: minimise overtricks, model opponents as maximising tricks),
//! soft-max^n (`mOT_g`, or `soft:mOT_MT`) or paranoid (`paranoid:MT`). Each player searches
//! the whole hand at each of its turns with its own transposition table, kept for the hand
//! (its models do not change within a hand).
//!
//! A game deals hand after hand from one seeded generator (so every seating of the same seed
//! sees the same cards), seat `h mod 3` leads hand h, every player bids by [`rule_bid`], and
//! the game ends after the hand in which someone reaches the target (300), or after
//! `max_hands`; the highest score wins, a tie shares the win.
//!
//! The inference experiment (section 4.2): an observer at seat 0 checks every decision of the
//! two opponents against each kind. It rebuilds the decision with soft-max^n over the
//! generalised models of all players (g for itself, the intersection of the kinds not yet
//! ruled out for each opponent) and rules a kind out for this hand when the set of another
//! move strictly dominates the chosen move's set under that kind. By the paper's Lemma 2 the
//! opponent's true kind is never ruled out; `wrong` counts it if it were.

use super::maxn::Maxn;
use super::models::{inconsistent, GraphModel};
use super::paranoid::Paranoid;
use super::softmaxn::SoftMaxn;
use super::spades::{check_cards, deal, hand_score, rule_bid, Kind, Pref, SpadesHand, SpadesState};
use super::Game;
use crate::{Rng, SkatError};

/// The search a player runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Search {
    Maxn,
    SoftMaxn,
    Paranoid,
}

/// A Spades player: its kind, its model of every opponent, its search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Player {
    pub kind: Kind,
    pub model: Pref,
    pub search: Search,
}

impl Player {
    /// A player from its name: `KIND_MODEL` (`mOT_MT`; max^n, or soft-max^n when the model
    /// is `g`), `soft:KIND_MODEL`, `maxn:KIND_MODEL` or `paranoid:KIND`.
    pub fn parse(s: &str) -> Result<Player, SkatError> {
        let bad = || SkatError::parse("Spades player (e.g. mOT_MT, mOT_g, paranoid:MT)", s);
        let (search, rest) = match s.split_once(':') {
            Some(("soft", r)) => (Some(Search::SoftMaxn), r),
            Some(("maxn", r)) => (Some(Search::Maxn), r),
            Some(("paranoid", r)) => (Some(Search::Paranoid), r),
            Some(_) => return Err(bad()),
            None => (None, s),
        };
        if search == Some(Search::Paranoid) {
            let kind = Kind::parse(rest).map_err(|_| bad())?;
            return Ok(Player {
                kind,
                model: Pref::Kind(kind),
                search: Search::Paranoid,
            });
        }
        let (k, m) = rest.split_once('_').ok_or_else(bad)?;
        let kind = Kind::parse(k).map_err(|_| bad())?;
        let model = Pref::parse(m).map_err(|_| bad())?;
        let search = search.unwrap_or(if model == Pref::Generic {
            Search::SoftMaxn
        } else {
            Search::Maxn
        });
        if search == Search::Maxn && model == Pref::Generic {
            return Err(SkatError::parse(
                "Spades player (max^n needs a kind as model, not g)",
                s,
            ));
        }
        Ok(Player {
            kind,
            model,
            search,
        })
    }

    /// The canonical name (the search prefix only where it is not the default).
    pub fn name(&self) -> String {
        let base = format!("{}_{}", self.kind.name(), self.model.name());
        match (self.search, self.model) {
            (Search::Paranoid, _) => format!("paranoid:{}", self.kind.name()),
            (Search::SoftMaxn, Pref::Kind(_)) => format!("soft:{base}"),
            _ => base,
        }
    }
}

type Utility<'g> = Box<dyn Fn(usize, &u8) -> i64 + 'g>;
type OwnUtility<'g> = Box<dyn Fn(&u8) -> i64 + 'g>;

/// One player's searcher for one hand.
enum Searcher<'g> {
    Maxn(Maxn<'g, SpadesHand, Utility<'g>>),
    Soft(SoftMaxn<'g, SpadesHand, GraphModel>, Vec<f64>),
    Paranoid(Paranoid<'g, SpadesHand, OwnUtility<'g>>),
}

impl<'g> Searcher<'g> {
    fn new(hand: &'g SpadesHand, seat: usize, p: &Player) -> Searcher<'g> {
        let prefs: [Pref; 3] = std::array::from_fn(|j| {
            if j == seat {
                Pref::Kind(p.kind)
            } else {
                p.model
            }
        });
        let own: Vec<i64> = hand
            .outcomes
            .iter()
            .map(|t| p.kind.utility(seat, &hand.bids, t))
            .collect();
        match p.search {
            Search::Maxn => {
                let table: Vec<[i64; 3]> = hand
                    .outcomes
                    .iter()
                    .map(|t| {
                        std::array::from_fn(|j| match prefs[j] {
                            Pref::Kind(k) => k.utility(j, &hand.bids, t),
                            Pref::Generic => (t[j] >= hand.bids[j]) as i64,
                        })
                    })
                    .collect();
                let u: Utility<'g> = Box::new(move |j, o| table[*o as usize][j]);
                Searcher::Maxn(Maxn::new(hand, u))
            }
            Search::SoftMaxn => {
                let models = (0..3).map(|j| hand.model(j, prefs[j])).collect();
                let score = own.iter().map(|&u| u as f64).collect();
                Searcher::Soft(SoftMaxn::new(hand, models), score)
            }
            Search::Paranoid => {
                let u: OwnUtility<'g> = Box::new(move |o| own[*o as usize]);
                Searcher::Paranoid(Paranoid::new(hand, seat, u))
            }
        }
    }

    fn decide(&mut self, s: &SpadesState) -> u8 {
        match self {
            Searcher::Maxn(m) => m.best(s).0,
            Searcher::Soft(m, score) => m.decide(s, |o| score[*o as usize]).0,
            Searcher::Paranoid(m) => m.best(s).0,
        }
    }

    fn nodes(&self) -> u64 {
        match self {
            Searcher::Maxn(m) => m.nodes,
            Searcher::Soft(m, _) => m.nodes,
            Searcher::Paranoid(m) => m.nodes,
        }
    }
}

/// Every seat's searcher for `hand`, seat `j` playing as `players[j]`.
fn searchers<'g>(hand: &'g SpadesHand, players: &[Player; 3]) -> Vec<Searcher<'g>> {
    (0..3)
        .map(|seat| Searcher::new(hand, seat, &players[seat]))
        .collect()
}

/// The seat to move in `s` and the card it plays: its only legal card, else its searcher's
/// choice. Leaves the legal cards in `moves`.
fn next_card(
    hand: &SpadesHand,
    s: &SpadesState,
    searchers: &mut [Searcher],
    moves: &mut Vec<u8>,
) -> (usize, u8) {
    let p = hand.to_move(s);
    hand.moves(s, moves);
    let c = if moves.len() == 1 {
        moves[0]
    } else {
        searchers[p].decide(s)
    };
    (p, c)
}

/// The card `player`, sitting at the leader's seat, leads in `hand`.
pub fn first_card(hand: &SpadesHand, player: &Player) -> u8 {
    let s = hand.start();
    Searcher::new(hand, hand.leader as usize, player).decide(&s)
}

/// Plays one hand to the end; returns the tricks taken and the nodes searched.
pub fn play_hand(hand: &SpadesHand, players: &[Player; 3]) -> ([u8; 3], u64) {
    let mut searchers = searchers(hand, players);
    let mut s = hand.start();
    let mut moves = Vec::new();
    while hand.outcome(&s).is_none() {
        let (_, c) = next_card(hand, &s, &mut searchers, &mut moves);
        s = hand.apply(&s, c);
    }
    (s.tricks, searchers.iter().map(Searcher::nodes).sum())
}

/// The settings of a game.
#[derive(Clone, Copy, Debug)]
pub struct GameConfig {
    /// Cards per player and hand (7 in the paper).
    pub cards: usize,
    /// The game ends after the hand in which a score reaches this (300 in the paper).
    pub target: i64,
    /// The game ends after this many hands at the latest.
    pub max_hands: u32,
}

impl Default for GameConfig {
    fn default() -> Self {
        GameConfig {
            cards: 7,
            target: 300,
            max_hands: 200,
        }
    }
}

/// The end of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub scores: [i64; 3],
    pub bags: [u32; 3],
    pub hands: u32,
    /// The seats with the highest score.
    pub winners: Vec<usize>,
    /// Nodes searched by all players.
    pub nodes: u64,
}

/// Plays one game between `players` (by seat) on the deals of `seed`.
pub fn play_game(
    players: &[Player; 3],
    seed: u64,
    config: &GameConfig,
) -> Result<GameRecord, SkatError> {
    check_cards(config.cards)?;
    let mut rng = Rng::new(seed);
    let mut scores = [0i64; 3];
    let mut bags = [0u32; 3];
    let mut nodes = 0;
    let mut hands = 0;
    while hands < config.max_hands {
        let cards = deal(&mut rng, config.cards);
        let bids = cards.map(rule_bid);
        let hand = SpadesHand::new(cards, bids, (hands % 3) as u8)?;
        let (tricks, n) = play_hand(&hand, players);
        nodes += n;
        for j in 0..3 {
            let (points, b) = hand_score(bids[j], tricks[j], bags[j]);
            scores[j] += points;
            bags[j] = b;
        }
        hands += 1;
        if scores.iter().any(|&x| x >= config.target) {
            break;
        }
    }
    let top = *scores.iter().max().expect("three scores");
    let winners = (0..3).filter(|&j| scores[j] == top).collect();
    Ok(GameRecord {
        scores,
        bags,
        hands,
        winners,
        nodes,
    })
}

/// Counts of the inference experiment.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InferenceCounts {
    pub hands: u32,
    /// Opponent decisions with more than one distinct move checked.
    pub decisions: u32,
    /// Inconsistent (decision, kind) pairs found, repeats within a hand included.
    pub inferences: u32,
    /// For MT, mOT, ML: the (hand, opponent) pairs in which the kind was ruled out.
    pub ruled_out: [u32; 3],
    /// (hand, opponent) pairs in which some kind was ruled out.
    pub hands_with_inference: u32,
    /// Times an opponent's true kind was ruled out (0 when inference is sound).
    pub wrong: u32,
}

/// The generalised models for the observer's reconstruction: g for the observer (seat 0),
/// and for each opponent the intersection of the kinds still possible.
fn generalised(hand: &SpadesHand, possible: &[[bool; 3]; 3]) -> Vec<GraphModel> {
    (0..3)
        .map(|j| {
            if j == 0 {
                return hand.model(0, Pref::Generic);
            }
            let models: Vec<GraphModel> = Kind::ALL
                .iter()
                .enumerate()
                .filter(|(i, _)| possible[j][*i])
                .map(|(_, &k)| hand.model(j, Pref::Kind(k)))
                .collect();
            if models.is_empty() {
                hand.model(j, Pref::Generic)
            } else {
                let refs: Vec<&GraphModel> = models.iter().collect();
                GraphModel::intersection(&refs).expect("models of one hand")
            }
        })
        .collect()
}

/// Plays `hands` hands with `observer` at seat 0 and the two opponents at seats 1 and 2 (each
/// playing as its `Player`, whose kind is the truth inference should never rule out), and
/// counts what the observer infers. Kinds ruled out are forgotten at the end of each hand.
pub fn inference_hands(
    observer: &Player,
    opponents: &[Player; 2],
    seed: u64,
    hands: u32,
    cards: usize,
) -> Result<InferenceCounts, SkatError> {
    check_cards(cards)?;
    let players = [*observer, opponents[0], opponents[1]];
    let mut rng = Rng::new(seed);
    let mut counts = InferenceCounts::default();
    for h in 0..hands {
        let dealt = deal(&mut rng, cards);
        let bids = dealt.map(rule_bid);
        let hand = SpadesHand::new(dealt, bids, (h % 3) as u8)?;
        let mut possible = [[true; 3]; 3];
        let mut ruled = [[false; 3]; 3];
        let mut searchers = searchers(&hand, &players);
        let mut recon = SoftMaxn::new(&hand, generalised(&hand, &possible));
        let kind_models: Vec<Vec<GraphModel>> = (0..3)
            .map(|j| {
                Kind::ALL
                    .iter()
                    .map(|&k| hand.model(j, Pref::Kind(k)))
                    .collect()
            })
            .collect();
        let mut s = hand.start();
        let mut moves = Vec::new();
        while hand.outcome(&s).is_none() {
            let (p, c) = next_card(&hand, &s, &mut searchers, &mut moves);
            if p != 0 && moves.len() > 1 {
                counts.decisions += 1;
                let chosen = recon.value(&hand.apply(&s, c));
                let others: Vec<_> = moves
                    .iter()
                    .map(|&m| recon.value(&hand.apply(&s, m)))
                    .collect();
                let mut changed = false;
                for (i, model) in kind_models[p].iter().enumerate() {
                    if others.iter().any(|o| inconsistent(model, &chosen, o)) {
                        counts.inferences += 1;
                        ruled[p][i] = true;
                        if Kind::ALL[i] == players[p].kind {
                            counts.wrong += 1;
                        }
                        if possible[p][i] {
                            possible[p][i] = false;
                            changed = true;
                        }
                    }
                }
                if changed {
                    recon = SoftMaxn::new(&hand, generalised(&hand, &possible));
                }
            }
            s = hand.apply(&s, c);
        }
        for row in &ruled[1..] {
            for (i, &r) in row.iter().enumerate() {
                counts.ruled_out[i] += r as u32;
            }
            counts.hands_with_inference += row.iter().any(|&r| r) as u32;
        }
        counts.hands += 1;
    }
    Ok(counts)
}
