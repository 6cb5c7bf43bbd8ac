//! Tests of the 10+2 evaluation on a synthetic model whose tables are deterministic
//! functions of the cell: the thesis's index examples, probability ranges and order, the tree
//! against a brute-force evaluation, and declarations against every choice.

use std::collections::HashMap;

use super::model::sigmoid;
use super::*;
use crate::cards::Suit;
use crate::rules::matadors;

fn cards(s: &str) -> Cards {
    Cards::parse(s).unwrap()
}

/// A random hand of ten cards and a discard of two other cards.
fn random_hand(rng: &mut crate::rng::Rng) -> (Cards, Cards) {
    let mut all: Vec<Card> = Card::all().collect();
    rng.shuffle(&mut all);
    let hand: Cards = all[..10].iter().copied().collect();
    let discard: Cards = all[10..12].iter().copied().collect();
    (hand, discard)
}

/// A model whose tables are small deterministic functions of the cell, so that every
/// feature matters.
pub(crate) fn synthetic() -> BiddingModel {
    let mut parts = HashMap::new();
    let f = |n: usize, a: f32| -> Vec<f32> {
        (0..n)
            .map(|i| ((i * 2654435761usize) % 1000) as f32 / 1000.0 * a - a / 2.0)
            .collect()
    };
    parts.insert("suit_side".into(), f(SUIT_SIDE_CELLS * 2, 4.0));
    parts.insert("suit_trump".into(), f(SUIT_TRUMP_CELLS * 2, 4.0));
    parts.insert("grand_side".into(), f(GRAND_SIDE_CELLS * 2, 4.0));
    parts.insert("grand_trump".into(), f(GRAND_TRUMP_CELLS * 2, 4.0));
    let w = vec![
        -0.5, 0.3, 0.2, 0.4, 0.1, 0.02, -0.1, 0.1, //
        -2.0, 0.3, 0.2, 0.4, 0.1, 0.02, -0.1, 0.1, //
        -4.0, 0.3, 0.2, 0.4, 0.1, 0.02, -0.1, 0.1,
    ];
    parts.insert("suit_weights".into(), w.clone());
    parts.insert("grand_weights".into(), w);
    let nl: Vec<f32> = (0..512)
        .map(|i| -((i * 7919) % 100) as f32 / 60.0)
        .collect();
    parts.insert("null_log".into(), nl);
    parts.insert(
        "null_cal".into(),
        vec![0.5, 1.0, -0.1, 0.2, -0.5, 1.2, 0.0, 0.1],
    );
    BiddingModel::from_parts(&parts).unwrap()
}

#[test]
fn index_functions_follow_the_thesis_examples() {
    // ♣*(♣7 ♣8 ♣J ♥J ♥A) = 3 and the trump pattern 1 + 2 + 2^10 + 2^8 = 1283
    let c = cards("C7 C8 CJ HJ HA");
    assert_eq!(side7(c, Suit::Clubs as usize), 3);
    assert_eq!(side7(c, Suit::Clubs as usize) | (jack_bits(c) << 7), 1283);
    assert_eq!(side7(cards("SA"), Suit::Spades as usize), 64);
    assert_eq!(side7(cards("ST"), Suit::Spades as usize), 32);
    assert_eq!(side7(cards("SQ SK"), Suit::Spades as usize), 8 + 16);
    assert_eq!(
        null_config(cards("D7 DA"), Suit::Diamonds as usize),
        1 + 128
    );
}

#[test]
fn probabilities_stay_in_range_and_ordered() {
    let m = synthetic();
    let mut rng = crate::rng::Rng::new(5);
    for _ in 0..300 {
        let (hand, discard) = random_hand(&mut rng);
        for kind in 0..7 {
            for seat in 0..3 {
                let [w, s, z] = m.probs(hand, discard, kind, seat);
                assert!((0.0..=1.0).contains(&w) && s <= w && z <= s && z >= 0.0);
            }
        }
    }
    assert!(m
        .win_probability(cards("CA"), cards("C7 C8"), 0, 0)
        .is_err());
    assert!(m
        .win_probability(cards("CA CK CQ C9 C8 C7 SA SK SQ S9"), cards("HA HK"), 7, 0)
        .is_err());
}

#[test]
fn null_ouvert_is_never_rated_above_null() {
    // the synthetic tables rate null ouvert above null on many hands; the model must not
    let m = synthetic();
    let mut rng = crate::rng::Rng::new(9);
    let mut clamped = 0;
    for _ in 0..500 {
        let (hand, discard) = random_hand(&mut rng);
        for seat in 0..3 {
            let null = m.probs(hand, discard, NULL, seat)[0];
            let ouvert = m.probs(hand, discard, NULL + 1, seat)[0];
            assert!(ouvert <= null);
            let table = sigmoid(m.null_table_logit(hand, 1, seat));
            if table > null {
                clamped += 1;
                assert_eq!(ouvert, null);
            }
        }
    }
    assert!(clamped > 0, "the synthetic model never needed the clamp");
}

#[test]
fn tree_matches_brute_force_and_counts_leaves() {
    let m = synthetic();
    let mut rng = crate::rng::Rng::new(11);
    for _ in 0..3 {
        let (hand, _) = random_hand(&mut rng);
        let seat = rng.below(3) as usize;
        for bid in [18u16, 24, 36, 48, 72] {
            let tree = m.evaluate(hand, seat, &[bid]).unwrap();
            assert!(tree.leaves <= 92_862);
            // brute force: every skat, discard and kind, the leaf rule written out plainly
            let skats = pairs(!hand);
            let leaf = |h: Cards, d: Cards, kind: usize, hand_game: bool| -> f64 {
                if kind >= NULL {
                    let o = kind - NULL;
                    let v = [[23, 46], [35, 59]][usize::from(hand_game)][o];
                    let cheaper = [[23, 46], [35, 59]][usize::from(hand_game)][0];
                    if v < bid as i32 || (o == 1 && cheaper >= bid as i32) {
                        return 0.0;
                    }
                    return m.probs(h, d, kind, seat)[0];
                }
                let mut c = Contract::plain(GameType::ALL[kind]);
                c.hand = hand_game;
                let mats = matadors(c.game_type, h | d);
                let p = m.probs(h, d, kind, seat);
                let b = bid as i32;
                if c.value(mats, false, false) >= b {
                    p[0]
                } else if c.value(mats, true, false) >= b {
                    p[1]
                } else if c.value(mats, true, true) >= b {
                    p[2]
                } else {
                    0.0
                }
            };
            let mut pick = 0.0;
            let mut hand_sum = [0.0; 7];
            for &s in &skats {
                let twelve = hand | s;
                let mut best = 0.0f64;
                for d in pairs(twelve) {
                    for kind in 0..7 {
                        best = best.max(leaf(twelve - d, d, kind, false));
                    }
                }
                pick += best;
                for (kind, h) in hand_sum.iter_mut().enumerate() {
                    *h += leaf(hand, s, kind, true);
                }
            }
            let n = skats.len() as f64;
            let hand_best = hand_sum.iter().cloned().fold(0.0, f64::max) / n;
            let want = (pick / n).max(hand_best);
            assert!(
                (tree.values[0] - want).abs() < 1e-6,
                "bid {bid}: tree {} brute force {want}",
                tree.values[0]
            );
        }
    }
}

#[test]
fn best_pickup_is_the_maximum_over_all_choices() {
    let m = synthetic();
    let twelve = cards("CJ SJ HA HT HK H9 H8 SA ST C7 D7 D8");
    let best = m.best_pickup(twelve, 1, 18).unwrap();
    for d in pairs(twelve) {
        for c in pickup_contracts() {
            if let Some((ev, _)) = m.score(twelve - d, d, &c, 1, 18) {
                assert!(ev <= best.expected_score + 1e-9);
            }
        }
    }
}

#[test]
fn pickup_declarations_list_every_declarable_choice_in_order() {
    let m = synthetic();
    let twelve = cards("CJ SJ HA HT HK H9 H8 SA ST C7 D7 D8");
    for bid in [18, 46, 60] {
        let all = m.pickup_declarations(twelve, 1, bid).unwrap();
        let mut expected = Vec::new();
        for d in pairs(twelve) {
            for c in pickup_contracts() {
                if let Some((ev, win)) = m.score(twelve - d, d, &c, 1, bid) {
                    expected.push((d, c, ev, win));
                }
            }
        }
        let got: Vec<_> = all
            .iter()
            .map(|x| (x.discard.unwrap(), x.contract, x.expected_score, x.win))
            .collect();
        assert_eq!(got, expected);
        let best = m.best_pickup(twelve, 1, bid).unwrap();
        let first_max = all
            .iter()
            .fold(None, |b: Option<&Declaration>, x| match b {
                Some(b) if b.expected_score >= x.expected_score => Some(b),
                _ => Some(x),
            })
            .unwrap();
        assert_eq!(&best, first_max);
    }
    assert!(m.pickup_declarations(cards("CJ SJ"), 1, 18).is_err());
}

#[test]
fn expected_score_accounts_for_overbids_and_announcements() {
    let m = synthetic();
    let hand = cards("CJ SJ HA HT HK H9 H8 SA ST C7");
    let d = cards("D7 D8");
    let plain = Contract::plain(GameType::Hearts);
    // with 2, game 3 = 30: at bid 30 fine, at bid 33 only schneider reaches it
    let (_, w30) = m.score(hand, d, &plain, 0, 30).unwrap();
    let (_, w33) = m.score(hand, d, &plain, 0, 33).unwrap();
    let p = m.probs(hand, d, 1, 0);
    assert!((w30 - p[0]).abs() < 1e-9);
    assert!((w33 - p[1]).abs() < 1e-9);
    let null = Contract::plain(GameType::Null);
    assert!(m.score(hand, d, &null, 0, 24).is_none());
}
