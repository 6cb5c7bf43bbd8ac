//! Fixed action indices and the numeric observation of full Skat, for learning environments
//! (the PettingZoo environment and the OpenSpiel game of the Python package).
//!
//! This module computes the same numbers as the reference implementation in
//! `python/skat/encoding.py`, which documents the scheme (`docs/environments.md` has the
//! tables); the Python tests compare both at every position of many random games.
//!
//! Invariants:
//! - Every index of the action space names one action, whatever the state: cards `0..32` by
//!   [`Card::index`], bids `32..95` in [`BIDS`] order, hold 95, pass 96, pick-up 97, the
//!   declarations of [`DECLARATIONS`] at `98..127`, and the discards `127..623`, one per pair
//!   of card indices `i < j` in lexicographic order. Actions no seat chooses in an
//!   environment (Kontra, Re, claims, time-outs, a declaration that also lays cards away)
//!   have no index: [`action_index`] returns `None` for them.
//! - [`legal_indices`] is ascending and fails exactly when some legal action has no index,
//!   naming the first such action in the order the engine lists them.
//! - [`observation`] reads only a [`View`], so it holds nothing the seat may not know; its
//!   [`OBSERVATION_SIZE`] numbers are laid out as [`SEGMENTS`], each in `0..=1` (one-hot
//!   entries, card sets, flags, and the two fractions `trick_points` and `tricks_done`).

use crate::action::Action;
use crate::cards::{Card, Cards};
use crate::game::{seat_totals, Actor, Move, Phase, View};
use crate::rules::{Contract, BIDS};

/// The index of the first card play (`D7`).
pub const CARD_BASE: usize = 0;
/// The index of the first bid (18).
pub const BID_BASE: usize = 32;
/// The index of holding a bid.
pub const HOLD: usize = BID_BASE + BIDS.len();
/// The index of passing.
pub const PASS: usize = HOLD + 1;
/// The index of picking up the skat.
pub const PICKUP: usize = PASS + 1;
/// The index of the first declaration of [`DECLARATIONS`].
pub const DECLARE_BASE: usize = PICKUP + 1;
/// The index of the first discard (the pair `D7 D8`).
pub const DISCARD_BASE: usize = DECLARE_BASE + DECLARATIONS.len();
/// The number of card pairs a declarer may lay away.
pub const PAIRS: usize = 32 * 31 / 2;
/// The size of the action space (623).
pub const NUM_ACTIONS: usize = DISCARD_BASE + PAIRS;

/// Every declaration token with an index: after picking up (`D H S C G N NO`), then the hand
/// games of each suit and grand (hand, schneider announced, schwarz announced, ouvert), then
/// null hand and null ouvert hand.
pub const DECLARATIONS: [&str; 29] = [
    "D", "H", "S", "C", "G", "N", "NO", "DH", "DHS", "DHZ", "DO", "HH", "HHS", "HHZ", "HO", "SH",
    "SHS", "SHZ", "SO", "CH", "CHS", "CHZ", "CO", "GH", "GHS", "GHZ", "GO", "NH", "NOH",
];

/// The segments of an observation, in order: name and length.
pub const SEGMENTS: [(&str, usize); 17] = [
    ("seat", 3),
    ("phase", 6),
    ("to_move", 3),
    ("hand", 32),
    ("skat", 32),
    ("discard", 32),
    ("open_hand", 32),
    ("highest_bid", 3 * BIDS.len()),
    ("passed", 3),
    ("declarer", 3),
    ("game_type", 6),
    ("announcements", 4),
    ("played", 3 * 32),
    ("trick", 2 * 32),
    ("leader", 3),
    ("trick_points", 3),
    ("tricks_done", 1),
];

/// Where segment `k` of [`SEGMENTS`] starts (`k == SEGMENTS.len()`: the vector's length).
const fn start(k: usize) -> usize {
    let mut at = 0;
    let mut i = 0;
    while i < k {
        at += SEGMENTS[i].1;
        i += 1;
    }
    at
}

const SEAT: usize = start(0);
const PHASE: usize = start(1);
const TO_MOVE: usize = start(2);
const HAND: usize = start(3);
const SKAT: usize = start(4);
const DISCARD: usize = start(5);
const OPEN_HAND: usize = start(6);
const HIGHEST_BID: usize = start(7);
const PASSED: usize = start(8);
const DECLARER: usize = start(9);
const GAME_TYPE: usize = start(10);
const ANNOUNCEMENTS: usize = start(11);
const PLAYED: usize = start(12);
const TRICK: usize = start(13);
const LEADER: usize = start(14);
const TRICK_POINTS: usize = start(15);
const TRICKS_DONE: usize = start(16);

/// The length of an observation vector (512).
pub const OBSERVATION_SIZE: usize = start(SEGMENTS.len());

/// The position of `bid` in [`BIDS`].
fn bid_index(bid: u16) -> Option<usize> {
    BIDS.iter().position(|&b| b == bid)
}

/// The position of a declaration among [`DECLARATIONS`] (by its ISS token).
pub fn declaration_index(contract: Contract) -> Option<usize> {
    let token = contract.token();
    DECLARATIONS.iter().position(|&t| t == token)
}

/// The position of the pair of card indices `{i, j}` (`i != j`, both below 32) among the
/// pairs in lexicographic order.
pub fn pair_index(i: usize, j: usize) -> usize {
    let (i, j) = if i < j { (i, j) } else { (j, i) };
    // the pairs starting below i come first: 31 + 30 + ... + (32 - i)
    i * (63 - i) / 2 + (j - i - 1)
}

/// The fixed index of an action, or `None` for the actions outside the action space.
pub fn action_index(action: &Action) -> Option<usize> {
    match *action {
        Action::Play(c) => Some(CARD_BASE + c.index() as usize),
        Action::Bid(b) => bid_index(b).map(|i| BID_BASE + i),
        Action::Hold => Some(HOLD),
        Action::Pass => Some(PASS),
        Action::PickUp => Some(PICKUP),
        Action::Declare(k, None) => declaration_index(k).map(|i| DECLARE_BASE + i),
        Action::Discard(cards) if cards.len() == 2 => {
            let mut it = cards.iter();
            match (it.next(), it.next()) {
                (Some(a), Some(b)) => {
                    Some(DISCARD_BASE + pair_index(a.index() as usize, b.index() as usize))
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// The indices of `legal` (a state's legal actions), ascending; `Err` with the first action
/// that has no index.
pub fn legal_indices(legal: &[Action]) -> Result<Vec<usize>, Action> {
    let mut out = Vec::with_capacity(legal.len());
    for a in legal {
        out.push(action_index(a).ok_or(*a)?);
    }
    out.sort_unstable();
    Ok(out)
}

/// Per seat, the highest value it bid or held (`None`: neither) and whether it passed, from
/// a history (moves by the table are skipped; a pass in the Schieberamsch skat round counts).
pub fn auction(history: &[Move]) -> ([Option<u16>; 3], [bool; 3]) {
    let mut highest = [None; 3];
    let mut passed = [false; 3];
    let mut current = 0;
    for m in history {
        let Actor::Seat(seat) = m.actor else {
            continue;
        };
        let seat = seat as usize % 3;
        match m.action {
            Action::Bid(b) => {
                current = b;
                highest[seat] = Some(current);
            }
            Action::Hold => highest[seat] = Some(current),
            Action::Pass => passed[seat] = true,
            _ => {}
        }
    }
    (highest, passed)
}

fn phase_index(phase: Phase) -> usize {
    match phase {
        Phase::Bidding => 0,
        Phase::SkatDecision => 1,
        Phase::Discarding => 2,
        Phase::Declaring => 3,
        Phase::Playing => 4,
        Phase::Over => 5,
    }
}

/// Sets the 32 entries from `base` of the cards in `cards`.
fn put_cards(out: &mut [f32; OBSERVATION_SIZE], base: usize, cards: Cards) {
    for c in cards.iter() {
        out[base + c.index() as usize] = 1.0;
    }
}

/// Sets entry `base + k` for a seat or position `k` below `len` (anything else is ignored:
/// the engine never gives one).
fn put_one(out: &mut [f32; OBSERVATION_SIZE], base: usize, len: usize, k: usize) {
    if k < len {
        out[base + k] = 1.0;
    }
}

fn put_card(out: &mut [f32; OBSERVATION_SIZE], base: usize, card: Card) {
    out[base + card.index() as usize] = 1.0;
}

/// What `view.seat` knows, as [`OBSERVATION_SIZE`] numbers in the layout of [`SEGMENTS`].
pub fn observation(view: &View) -> [f32; OBSERVATION_SIZE] {
    let mut out = [0.0f32; OBSERVATION_SIZE];
    put_one(&mut out, SEAT, 3, view.seat as usize);
    put_one(&mut out, PHASE, 6, phase_index(view.phase));
    if let Some(s) = view.to_move {
        put_one(&mut out, TO_MOVE, 3, s as usize);
    }
    put_cards(&mut out, HAND, view.hand);
    for (base, cards) in [
        (SKAT, view.skat),
        (DISCARD, view.discard),
        (OPEN_HAND, view.open_hand),
    ] {
        if let Some(cards) = cards {
            put_cards(&mut out, base, cards);
        }
    }
    let (highest, passed) = auction(&view.history);
    for seat in 0..3 {
        if let Some(i) = highest[seat].and_then(bid_index) {
            out[HIGHEST_BID + seat * BIDS.len() + i] = 1.0;
        }
        out[PASSED + seat] = if passed[seat] { 1.0 } else { 0.0 };
    }
    if let Some(d) = view.declarer {
        put_one(&mut out, DECLARER, 3, d as usize);
    }
    if let Some(k) = view.contract {
        put_one(&mut out, GAME_TYPE, 6, k.game_type as usize);
        for (i, flag) in [k.hand, k.schneider, k.schwarz, k.ouvert]
            .into_iter()
            .enumerate()
        {
            out[ANNOUNCEMENTS + i] = if flag { 1.0 } else { 0.0 };
        }
    }
    for &(seat, card) in &view.played {
        if seat < 3 {
            put_card(&mut out, PLAYED + 32 * seat as usize, card);
        }
    }
    for (position, &card) in view.trick.iter().take(2).enumerate() {
        put_card(&mut out, TRICK + 32 * position, card);
    }
    if view.phase == Phase::Playing {
        put_one(&mut out, LEADER, 3, view.leader as usize);
    }
    let (points, _) = seat_totals(&view.tricks);
    for (seat, &p) in points.iter().enumerate() {
        // a float32 quotient, as NumPy divides a float32 array by 120
        out[TRICK_POINTS + seat] = p as f32 / 120.0f32;
    }
    // the fraction in double precision, then rounded once to float32
    out[TRICKS_DONE] = (view.tricks.len() as f64 / 10.0) as f32;
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::Deal;
    use crate::game::Game;
    use crate::rng::Rng;
    use crate::rules::GameType;
    use crate::variants::Variants;

    fn segment(name: &str) -> std::ops::Range<usize> {
        let k = SEGMENTS.iter().position(|&(n, _)| n == name).unwrap();
        start(k)..start(k + 1)
    }

    fn play(game: &mut Game, tokens: &[&str]) {
        for t in tokens {
            game.apply_token(t).unwrap();
        }
    }

    #[test]
    fn the_layout_and_the_action_space_have_their_sizes() {
        assert_eq!(OBSERVATION_SIZE, 512);
        assert_eq!((HOLD, PASS, PICKUP, DECLARE_BASE), (95, 96, 97, 98));
        assert_eq!((DISCARD_BASE, NUM_ACTIONS), (127, 623));
        assert_eq!(segment("highest_bid"), 140..329);
        assert_eq!(segment("tricks_done"), 511..512);
    }

    #[test]
    fn pairs_are_numbered_in_lexicographic_order() {
        let mut k = 0;
        for i in 0..32 {
            for j in i + 1..32 {
                assert_eq!(pair_index(i, j), k);
                assert_eq!(pair_index(j, i), k);
                k += 1;
            }
        }
        assert_eq!(k, PAIRS);
        let ca_sk = Action::parse("CA.SK").unwrap();
        assert_eq!(action_index(&ca_sk), Some(586));
        assert_eq!(action_index(&Action::parse("CA.D7").unwrap()), Some(157));
    }

    #[test]
    fn every_declaration_has_one_index() {
        let mut seen = Vec::new();
        for hand in [false, true] {
            for k in Contract::all(hand) {
                let i = declaration_index(k).unwrap_or_else(|| panic!("{k}"));
                assert_eq!(DECLARATIONS[i], k.token());
                seen.push(i);
            }
        }
        seen.sort_unstable();
        assert_eq!(seen, (0..DECLARATIONS.len()).collect::<Vec<_>>());
        assert_eq!(action_index(&Action::parse("GO").unwrap()), Some(124));
        assert_eq!(action_index(&Action::parse("NOH").unwrap()), Some(126));
        // a declaration that lays cards away at the same time, Kontra, claims: no index
        for t in ["G.CK.CQ", "KO", "RK", "SC", "RE", "TI.1", "??"] {
            assert_eq!(action_index(&Action::parse(t).unwrap()), None, "{t}");
        }
    }

    #[test]
    fn indices_of_cards_bids_and_the_auction_moves() {
        assert_eq!(action_index(&Action::parse("D7").unwrap()), Some(0));
        assert_eq!(action_index(&Action::parse("CA").unwrap()), Some(31));
        assert_eq!(action_index(&Action::Bid(18)), Some(32));
        assert_eq!(action_index(&Action::Bid(264)), Some(94));
        assert_eq!(action_index(&Action::Bid(19)), None);
        let fresh = Game::new(Deal::random(1));
        let legal = legal_indices(&fresh.legal_actions()).unwrap();
        let want: Vec<usize> = (32..95).chain([PASS]).collect();
        assert_eq!(legal, want);
    }

    #[test]
    fn legal_indices_name_the_first_action_without_an_index() {
        let kontra = Variants::parse("kontra").unwrap();
        let mut game = Game::with_variants(Deal::random(7), kontra);
        play(&mut game, &["18", "y", "p", "p", "s", "CA.SK", "G"]);
        // seat 0 declares and leads; seat 1 may say Kontra before its first card
        play(&mut game, &["D7"]);
        let legal = game.legal_actions();
        assert!(legal.contains(&Action::Kontra));
        assert_eq!(legal_indices(&legal), Err(Action::Kontra));
        assert_eq!(legal_indices(&[]), Ok(vec![]));
    }

    /// Random positions of random games (the seat to move picks uniformly), every seat's view.
    fn random_views(games: u64, variants: Variants) -> Vec<View> {
        let mut views = Vec::new();
        let mut rng = Rng::new(11);
        for g in 0..games {
            let mut game = Game::with_variants(Deal::random(g), variants);
            while !game.is_over() {
                views.extend((0..3).map(|s| game.view(s)));
                let legal: Vec<Action> = game.legal_actions();
                let a = legal[rng.below(legal.len() as u64) as usize];
                game.apply(a).unwrap();
            }
            views.extend((0..3).map(|s| game.view(s)));
        }
        views
    }

    #[test]
    fn observations_are_in_range_and_one_hot_where_they_should_be() {
        let ramsch = Variants::parse("kontra schieberamsch").unwrap();
        let mut views = random_views(40, Variants::NONE);
        views.extend(random_views(40, ramsch));
        for v in &views {
            let o = observation(v);
            assert!(o.iter().all(|&x| (0.0..=1.0).contains(&x)));
            let count = |name: &str| o[segment(name)].iter().sum::<f32>();
            assert_eq!(count("seat"), 1.0);
            assert_eq!(o[v.seat as usize], 1.0);
            assert_eq!(count("phase"), 1.0);
            assert_eq!(count("to_move"), f32::from(u8::from(v.to_move.is_some())));
            assert_eq!(count("hand"), v.hand.len() as f32);
            assert_eq!(count("played"), v.played.len() as f32);
            assert_eq!(count("trick"), v.trick.len().min(2) as f32);
            assert_eq!(
                count("leader"),
                f32::from(u8::from(v.phase == Phase::Playing))
            );
            assert_eq!(
                count("game_type"),
                f32::from(u8::from(v.contract.is_some()))
            );
            for seat in 0..3 {
                let row = &o[HIGHEST_BID + seat * 63..HIGHEST_BID + (seat + 1) * 63];
                assert!(row.iter().sum::<f32>() <= 1.0);
            }
            let won: u32 = v.tricks.iter().map(|t| t.points()).sum();
            let total: f32 = o[segment("trick_points")].iter().sum();
            assert!((total * 120.0 - won as f32).abs() < 1e-3);
            assert_eq!(o[TRICKS_DONE], (v.tricks.len() as f64 / 10.0) as f32);
        }
    }

    #[test]
    fn a_declarer_sees_her_skat_and_discard_and_a_defender_does_not() {
        let mut game = Game::new(Deal::random(7));
        play(
            &mut game,
            &["18", "y", "p", "p", "s", "CA.SK", "G", "D7", "DK"],
        );
        let (od, of) = (observation(&game.view(0)), observation(&game.view(1)));
        let sum = |o: &[f32; OBSERVATION_SIZE], name: &str| o[segment(name)].iter().sum::<f32>();
        assert_eq!((sum(&od, "hand"), sum(&of, "hand")), (9.0, 9.0));
        assert_eq!((sum(&od, "skat"), sum(&of, "skat")), (2.0, 0.0));
        assert_eq!((sum(&od, "discard"), sum(&of, "discard")), (2.0, 0.0));
        let d7 = Card::parse("D7").unwrap().index() as usize;
        let dk = Card::parse("DK").unwrap().index() as usize;
        assert_eq!(of[PLAYED + d7], 1.0);
        assert_eq!(of[PLAYED + 32 + dk], 1.0);
        assert_eq!(of[TRICK + d7], 1.0);
        assert_eq!(of[TRICK + 32 + dk], 1.0);
        // the auction: seat 1 bid 18, seat 0 held it, seats 1 and 2 passed
        assert_eq!(of[HIGHEST_BID + 63], 1.0);
        assert_eq!(of[HIGHEST_BID], 1.0);
        assert_eq!(of[PASSED..PASSED + 3], [0.0, 1.0, 1.0]);
        assert_eq!(of[GAME_TYPE + GameType::Grand as usize], 1.0);
        assert_eq!(of[ANNOUNCEMENTS..ANNOUNCEMENTS + 4], [0.0; 4]);
    }

    #[test]
    fn an_ouvert_hand_game_shows_the_announcements_and_the_open_hand() {
        let mut game = Game::new(Deal::random(7));
        play(&mut game, &["18", "y", "p", "p", "GO"]);
        let o = observation(&game.view(2));
        assert_eq!(o[ANNOUNCEMENTS..ANNOUNCEMENTS + 4], [1.0; 4]);
        assert_eq!(o[segment("open_hand")].iter().sum::<f32>(), 10.0);
        assert_eq!(o[DECLARER], 1.0);
    }

    #[test]
    fn a_passed_out_game_is_over_with_three_passes() {
        let mut game = Game::new(Deal::random(3));
        play(&mut game, &["p", "p", "p"]);
        let o = observation(&game.view(0));
        assert_eq!(o[PHASE + 5], 1.0);
        assert_eq!(o[segment("to_move")], [0.0; 3]);
        assert_eq!(o[PASSED..PASSED + 3], [1.0; 3]);
        assert_eq!(legal_indices(&game.legal_actions()), Ok(vec![]));
    }
}
