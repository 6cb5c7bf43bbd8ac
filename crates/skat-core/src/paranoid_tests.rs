//! Paranoid search against a brute force over explicit worlds: every deal of the hidden cards
//! consistent with what the declarer saw, the declarer choosing one card for all of them, a
//! defender any card it holds legally in some of them (which keeps those worlds).

use super::*;
use crate::rng::Rng;
use crate::rules::legal_cards;

#[derive(Clone, Copy)]
struct World {
    hands: [Cards; 3],
    skat: Cards,
}

#[derive(Clone)]
struct Explicit {
    gt: GameType,
    declarer: usize,
    worlds: Vec<World>,
    leader: usize,
    trick: Vec<Card>,
    points: i32,
    lost: bool,
    hidden_skat: bool,
}

impl Explicit {
    fn to_move(&self) -> usize {
        (self.leader + self.trick.len()) % 3
    }

    fn over(&self) -> bool {
        self.worlds[0].hands.iter().all(|h| h.is_empty()) || (self.gt.is_null() && self.lost)
    }

    /// The cards the player to move may play, with the worlds that allow each.
    fn options(&self) -> Vec<(Card, Vec<World>)> {
        let s = self.to_move();
        let lead = self.trick.first().copied();
        let mut all = Cards(0);
        for w in &self.worlds {
            all = all | legal_cards(self.gt, w.hands[s], lead);
        }
        all.iter()
            .map(|c| {
                let ws = self
                    .worlds
                    .iter()
                    .filter(|w| legal_cards(self.gt, w.hands[s], lead).contains(c))
                    .copied()
                    .collect();
                (c, ws)
            })
            .collect()
    }

    fn play(&self, card: Card, worlds: Vec<World>) -> Explicit {
        let s = self.to_move();
        let mut n = self.clone();
        n.worlds = worlds;
        for w in n.worlds.iter_mut() {
            w.hands[s] = w.hands[s].without(card);
        }
        n.trick.push(card);
        if n.trick.len() == 3 {
            let winner = (n.leader + trick_winner(n.gt, &n.trick)) % 3;
            if winner == n.declarer {
                n.points += n.trick.iter().map(|c| c.points() as i32).sum::<i32>();
                n.lost = true;
            }
            n.leader = winner;
            n.trick.clear();
        }
        n
    }

    fn value(&self) -> i32 {
        if self.over() {
            if self.gt.is_null() {
                return i32::from(!self.lost);
            }
            let skat = if self.hidden_skat {
                self.worlds[0].skat.points() as i32
            } else {
                0
            };
            return self.points + skat;
        }
        let maximise = self.to_move() == self.declarer;
        let vals = self
            .options()
            .into_iter()
            .map(|(c, ws)| self.play(c, ws).value());
        if maximise {
            vals.max().unwrap()
        } else {
            vals.min().unwrap()
        }
    }
}

fn subsets(cards: &[Card], k: usize) -> Vec<Cards> {
    if k == 0 {
        return vec![Cards(0)];
    }
    if cards.len() < k {
        return vec![];
    }
    let mut out: Vec<Cards> = subsets(&cards[1..], k - 1)
        .into_iter()
        .map(|s| s.with(cards[0]))
        .collect();
    out.extend(subsets(&cards[1..], k));
    out
}

/// A small position: `k` cards a hand, declarer `declarer`, forehand leads; the hidden skat
/// in a hand game. Returns the true deal, the implicit state and the explicit worlds.
fn small(seed: u64, k: usize, hand_game: bool) -> (World, ParanoidState, Explicit) {
    let mut rng = Rng::new(seed);
    let mut deck: Vec<Card> = Card::all().collect();
    rng.shuffle(&mut deck);
    let gt = GameType::ALL[rng.below(6) as usize];
    let declarer = rng.below(3) as usize;
    let mut hands = [Cards(0); 3];
    for (i, &c) in deck[..3 * k].iter().enumerate() {
        hands[i % 3] = hands[i % 3].with(c);
    }
    let skat: Cards = deck[3 * k..3 * k + 2]
        .iter()
        .fold(Cards(0), |s, &c| s.with(c));
    let truth = World { hands, skat };
    let (a, b) = other_defenders(declarer as u8);
    let unknown = hands[a] | hands[b] | if hand_game { skat } else { Cards(0) };
    let mut cards = [unknown; 3];
    cards[declarer] = hands[declarer];
    let points = if hand_game || gt.is_null() {
        0
    } else {
        skat.points() as i32
    };
    let state = ParanoidState {
        game_type: gt,
        declarer: declarer as u8,
        cards,
        counts: [k as u32; 3],
        unknown,
        hidden_skat: if hand_game { 2 } else { 0 },
        leader: 0,
        trick: [None; 3],
        points,
        lost: false,
    };
    let pool: Vec<Card> = unknown.iter().collect();
    let mut worlds = Vec::new();
    for ha in subsets(&pool, k) {
        let rest: Vec<Card> = (unknown - ha).iter().collect();
        for hb in subsets(&rest, k) {
            let mut h = [Cards(0); 3];
            h[declarer] = hands[declarer];
            h[a] = ha;
            h[b] = hb;
            worlds.push(World {
                hands: h,
                skat: unknown - ha - hb,
            });
        }
    }
    let explicit = Explicit {
        gt,
        declarer,
        worlds,
        leader: 0,
        trick: Vec::new(),
        points,
        lost: false,
        hidden_skat: hand_game,
    };
    (truth, state, explicit)
}

fn check(seed: u64, k: usize, hand_game: bool, moves_before: usize) {
    let (mut truth, mut state, mut ex) = small(seed, k, hand_game);
    let mut rng = Rng::new(seed ^ 0xABCD);
    for _ in 0..moves_before {
        if ex.over() {
            break;
        }
        let s = ex.to_move();
        let legal: Vec<Card> = legal_cards(ex.gt, truth.hands[s], ex.trick.first().copied())
            .iter()
            .collect();
        let c = legal[rng.below(legal.len() as u64) as usize];
        let opts = ex.options();
        let (_, ws) = opts.into_iter().find(|(o, _)| *o == c).unwrap();
        assert!(state.moves().contains(c));
        ex = ex.play(c, ws);
        state = state.play(c).unwrap();
        truth.hands[s] = truth.hands[s].without(c);
    }
    if ex.over() {
        return;
    }
    let explicit_moves: Vec<Card> = ex.options().into_iter().map(|(c, _)| c).collect();
    assert_eq!(
        state.moves().iter().collect::<Vec<_>>(),
        explicit_moves,
        "seed {seed}"
    );
    let (v, _) = paranoid_value(&state);
    assert_eq!(
        v,
        ex.value(),
        "seed {seed} k {k} hand {hand_game} {:?}",
        state.game_type
    );
    assert!(paranoid_reaches(&state, v));
    assert!(!paranoid_reaches(&state, v + 1));
}

#[test]
fn exact_against_brute_force_from_the_start() {
    for seed in 0..60 {
        check(seed, 3, seed % 2 == 0, 0);
    }
}

#[test]
fn exact_against_brute_force_after_some_cards() {
    for seed in 100..120 {
        check(seed, 4, seed % 2 == 0, 2 + (seed % 5) as usize);
    }
}

#[test]
fn exact_on_four_card_hands() {
    for seed in 200..204 {
        check(seed, 4, seed % 3 == 0, 0);
    }
}

#[test]
fn never_above_the_open_handed_value_of_the_true_deal() {
    use crate::rules::Contract;
    use crate::solver::{solve, Position};
    for seed in 300..320 {
        let (truth, state, _) = small(seed, 3, false);
        if state.game_type.is_null() {
            continue;
        }
        let dp = truth.skat.points();
        let p = Position::new(
            truth.hands,
            Contract::plain(state.game_type),
            state.declarer,
            0,
            &[],
            dp,
            0,
        );
        let Ok(p) = p else { continue };
        assert!(paranoid_value(&state).0 <= solve(&p), "seed {seed}");
    }
}

#[test]
fn start_checks_its_cards() {
    let hand = Cards(0x3FF);
    assert!(ParanoidState::start(GameType::Grand, 0, hand, None).is_ok());
    assert!(ParanoidState::start(GameType::Grand, 0, Cards(0x1FF), None).is_err());
    assert!(ParanoidState::start(GameType::Grand, 0, hand, Some(Cards(0x3))).is_err());
    let s = ParanoidState::start(GameType::Grand, 1, hand, Some(Cards(0xC00))).unwrap();
    assert_eq!(s.unknown.len(), 20);
    assert_eq!(s.points, Cards(0xC00).points() as i32);
}

#[test]
fn sure_winners_prove_strong_hand_games_at_once() {
    let grand = Cards::parse("CJ SJ HA HT HK HQ H9 SA ST DA").unwrap();
    assert!(hand_game_all_tricks(GameType::Grand, grand).unwrap());
    // (in a heart game the missing jacks outrank her hearts)
    assert!(!hand_game_all_tricks(GameType::Hearts, grand).unwrap());
    let strong = Cards::parse("CJ SJ HJ DJ CA CT CK SA ST HA").unwrap();
    for seat in 0..3 {
        assert_eq!(
            hand_game_reaches_within(GameType::Grand, seat, strong, 61, 1000).unwrap(),
            Some(true)
        );
    }
    assert_eq!(
        hand_game_reaches_within(GameType::Grand, 0, strong, 120, 10).unwrap(),
        Some(true)
    );
}

#[test]
fn hand_game_tests() {
    // Without trumps worth the name a grand is never sure.
    let weak = Cards::parse("C7 C8 C9 S7 S8 S9 H7 H8 D7 D8").unwrap();
    assert!(!hand_game_reaches(GameType::Grand, 0, weak, 61).unwrap());
    assert!(hand_game_reaches(GameType::Grand, 0, weak, 0).unwrap());
    assert!(hand_game_reaches(GameType::Grand, 0, Cards(0x1FF), 61).is_err());
}

#[test]
fn keeping_filter_matches_the_brute_force() {
    let mut checked = 0;
    for seed in 300..340 {
        let (_, state, ex) = small(seed, 3, seed % 2 == 0);
        if ex.to_move() != ex.declarer {
            continue;
        }
        let v = ex.value();
        let keep = paranoid_keeping(&state, v).expect("her own value is guaranteed");
        let expect = ex
            .options()
            .into_iter()
            .filter(|(c, ws)| ex.play(*c, ws.clone()).value() >= v)
            .fold(Cards(0), |k, (c, _)| k.with(c));
        assert_eq!(keep, expect, "seed {seed}");
        assert!(!keep.is_empty());
        assert_eq!(paranoid_keeping(&state, v + 1), None, "seed {seed}");
        checked += 1;
    }
    assert!(
        checked >= 10,
        "only {checked} positions with the declarer to move"
    );
}

/// The null safe-cards rule agrees with the plain search (without the rule) on random null
/// positions: ten-card starts of hand and pick-up games from every seat, and the trick
/// starts after random first tricks, wherever the plain search finishes within its budget.
#[test]
fn the_null_rule_agrees_with_the_plain_search() {
    use crate::paranoid_null::null_rule;
    let mut rng = Rng::new(77);
    let (mut decided, mut compared, mut both) = (0, 0, 0);
    for _ in 0..120 {
        let mut deck: Vec<Card> = Card::all().collect();
        rng.shuffle(&mut deck);
        let hand = deck[..10].iter().fold(Cards(0), |h, &c| h.with(c));
        let skat = deck[10..12].iter().fold(Cards(0), |h, &c| h.with(c));
        for seat in 0..3u8 {
            let known = if seat == 1 { Some(skat) } else { None };
            let mut s = ParanoidState::start(GameType::Null, seat, hand, known).unwrap();
            for trick in 0..3 {
                if trick > 0 {
                    // a random trick
                    for _ in 0..3 {
                        if s.is_over() {
                            break;
                        }
                        let m: Vec<Card> = s.moves().iter().collect();
                        s = s.play(m[rng.below(m.len() as u64) as usize]).unwrap();
                    }
                }
                if s.is_over() {
                    break;
                }
                let rule = null_rule(&s);
                decided += rule.is_some() as u32;
                let mut p = Paranoid {
                    null_rule: false,
                    budget: 300_000,
                    ..Paranoid::default()
                };
                let v = p.search(&s, 0, 1);
                if !p.out_of_budget {
                    compared += 1;
                    if let Some(r) = rule {
                        both += 1;
                        assert_eq!(r, v, "{hand} seat {seat} after {trick} tricks");
                    }
                }
            }
        }
    }
    // the rule decides most positions, and is checked on many
    assert!(decided > 250 && both > 200, "{decided} {compared} {both}");
}
