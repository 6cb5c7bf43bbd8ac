//! Three-player Spades, the perfect-information version of Sturtevant and Bowling: rules of one
//! hand as a [`Game`], the rule-based bidder, the scoring, and the player types' preferences.
//!
//! Cards are `u8` in `0..52`: suit `c / 13` (clubs, diamonds, hearts, spades) and rank
//! `c % 13` (`0` is the two, `12` the ace); text is suit letter then rank (`SA`, `HT`, `D9`).
//! Each player holds `cards` cards (7 in the paper) dealt from the full deck; the others are
//! not in play. Players must follow the suit led when they can; spades are trump and may be led
//! at any time; the trick goes to the highest spade, else the highest card of the suit led.
//!
//! An outcome of a hand is the split of its tricks among the three players, numbered in
//! [`SpadesHand::outcomes`]; the state carries the tricks taken so far, so equal states have
//! equal subtrees. Cards of one hand that no live card separates (all cards of the suit between
//! them were played in earlier tricks or never dealt) are interchangeable: only the lowest of
//! such a run is generated, which changes no outcome.
//!
//! Player types (section 2 and 4.3 of the paper): MT maximises its tricks; mOT makes its bid
//! with as few overtricks as it can (all misses equally bad); ML makes its bid first, then
//! makes as many opponents as it can miss theirs. The generic model g only knows that a player
//! prefers making its bid to missing it; it is the generalisation (intersection) of the three.

use super::models::GraphModel;
use super::Game;
use crate::{Rng, SkatError};

/// A player type: how it ranks the outcomes of a hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Maximise tricks.
    MT,
    /// Minimise overtricks (having made the bid).
    MOT,
    /// Make the bid, then make opponents miss theirs.
    ML,
}

impl Kind {
    /// Every kind, in the order MT, mOT, ML.
    pub const ALL: [Kind; 3] = [Kind::MT, Kind::MOT, Kind::ML];

    /// The paper's name: `MT`, `mOT` or `ML`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::MT => "MT",
            Kind::MOT => "mOT",
            Kind::ML => "ML",
        }
    }

    /// The kind of a name (`MT`, `mOT`, `ML`; case-insensitive).
    pub fn parse(s: &str) -> Result<Kind, SkatError> {
        match s.to_ascii_lowercase().as_str() {
            "mt" => Ok(Kind::MT),
            "mot" => Ok(Kind::MOT),
            "ml" => Ok(Kind::ML),
            _ => Err(SkatError::parse("Spades player type (MT, mOT, ML)", s)),
        }
    }

    /// Player j's utility of a trick split under this kind (larger is better).
    pub fn utility(self, j: usize, bids: &[u8; 3], tricks: &[u8; 3]) -> i64 {
        let made = tricks[j] >= bids[j];
        match self {
            Kind::MT => tricks[j] as i64,
            Kind::MOT => {
                if made {
                    100 - (tricks[j] - bids[j]) as i64
                } else {
                    0
                }
            }
            Kind::ML => {
                let missed = (0..3).filter(|&k| k != j && tricks[k] < bids[k]).count() as i64;
                10 * made as i64 + missed
            }
        }
    }
}

/// What one player is assumed to prefer: a kind, or the generic model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pref {
    Kind(Kind),
    /// Making the bid is better than missing it; nothing else.
    Generic,
}

impl Pref {
    /// `g` or a kind's name.
    pub fn parse(s: &str) -> Result<Pref, SkatError> {
        if s.eq_ignore_ascii_case("g") {
            Ok(Pref::Generic)
        } else {
            Kind::parse(s).map(Pref::Kind)
        }
    }

    /// The name (`g` for the generic model).
    pub fn name(self) -> &'static str {
        match self {
            Pref::Kind(k) => k.name(),
            Pref::Generic => "g",
        }
    }
}

/// The card with text `s` (`SA`, `HT`, `D9`, `C2`).
pub fn parse_card(s: &str) -> Result<u8, SkatError> {
    let b = s.as_bytes();
    if b.len() != 2 {
        return Err(SkatError::parse("Spades card", s));
    }
    let suit = match b[0].to_ascii_uppercase() {
        b'C' => 0,
        b'D' => 1,
        b'H' => 2,
        b'S' => 3,
        _ => return Err(SkatError::parse("Spades card", s)),
    };
    let rank = match "23456789TJQKA".find(b[1].to_ascii_uppercase() as char) {
        Some(r) => r as u8,
        None => return Err(SkatError::parse("Spades card", s)),
    };
    Ok(suit * 13 + rank)
}

/// The hand (a bit per card) with text `text`: cards separated by white space, none twice.
pub fn parse_hand(text: &str) -> Result<u64, SkatError> {
    let mut bits = 0u64;
    for c in text.split_whitespace() {
        let b = 1u64 << parse_card(c)?;
        if bits & b != 0 {
            return Err(SkatError::InvalidCards(format!(
                "card {c} twice in {text:?}"
            )));
        }
        bits |= b;
    }
    Ok(bits)
}

/// Checks a number of cards per player and hand: 1 to 9 (three hands from 52 cards, with the
/// search tables sized for at most nine).
pub fn check_cards(cards: usize) -> Result<(), SkatError> {
    if (1..=9).contains(&cards) {
        Ok(())
    } else {
        Err(SkatError::InvalidCards(format!(
            "Spades needs 1 to 9 cards per player, not {cards}"
        )))
    }
}

/// The text of card `c`.
pub fn card_name(c: u8) -> String {
    let suit = b"CDHS"[(c / 13) as usize] as char;
    let rank = b"23456789TJQKA"[(c % 13) as usize] as char;
    format!("{suit}{rank}")
}

const SUIT: u64 = (1 << 13) - 1;

fn suit_mask(c: u8) -> u64 {
    SUIT << (13 * (c / 13))
}

/// The winner's position in a complete trick (0 = the leader).
pub fn trick_winner(trick: &[u8; 3]) -> usize {
    let mut best = 0;
    for i in 1..3 {
        let (a, b) = (trick[best], trick[i]);
        let beats = if b / 13 == a / 13 { b > a } else { b / 13 == 3 };
        if beats {
            best = i;
        }
    }
    best
}

/// Hands with at least this many half tricks round an odd count up, weaker ones down.
pub const BID_ROUND_UP_FROM: u32 = 5;

/// The rule-based bidder every player uses, counting half tricks in a hand (a bit set of
/// cards): a spade ace, king or queen 2, any other spade 1; in another suit the ace 2, the
/// king 2 in a suit of at most four cards, the queen 1 in a suit of at most three. The bid is
/// the half tricks halved, rounded up, and at least one.
pub fn rule_bid(hand: u64) -> u8 {
    let mut halves = 0u32;
    for suit in 0..4u8 {
        let cards = (hand >> (13 * suit)) & SUIT;
        let len = cards.count_ones();
        let has = |rank: u8| cards >> rank & 1 == 1;
        if suit == 3 {
            let honours = [12, 11, 10].iter().filter(|&&r| has(r)).count() as u32;
            halves += 2 * honours + (len - honours);
        } else {
            halves += 2 * has(12) as u32;
            if has(11) && len <= 4 {
                halves += 2;
            }
            if has(10) && len <= 3 {
                halves += 1;
            }
        }
    }
    let tricks = if halves >= BID_ROUND_UP_FROM {
        halves.div_ceil(2)
    } else {
        halves / 2
    };
    tricks.max(1) as u8
}

/// One hand's points and the overtricks carried afterwards: a made bid scores 10 per trick bid
/// plus 1 per overtrick, and every 10 accumulated overtricks cost 100 (and leave the count); a
/// missed bid scores -10 per trick bid.
pub fn hand_score(bid: u8, tricks: u8, bags: u32) -> (i64, u32) {
    if tricks < bid {
        return (-10 * bid as i64, bags);
    }
    let over = (tricks - bid) as u32;
    let mut points = 10 * bid as i64 + over as i64;
    let mut bags = bags + over;
    while bags >= 10 {
        points -= 100;
        bags -= 10;
    }
    (points, bags)
}

/// Three hands of `cards` cards each drawn from a shuffled deck.
pub fn deal(rng: &mut Rng, cards: usize) -> [u64; 3] {
    let mut deck: Vec<u8> = (0..52).collect();
    for i in (1..52).rev() {
        let k = rng.below(i as u64 + 1) as usize;
        deck.swap(i, k);
    }
    let mut hands = [0u64; 3];
    for (p, hand) in hands.iter_mut().enumerate() {
        for &c in &deck[p * cards..(p + 1) * cards] {
            *hand |= 1 << c;
        }
    }
    hands
}

/// A node of a hand: cards left, the trick in progress, who led it, the tricks taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpadesState {
    pub left: [u64; 3],
    pub trick: [u8; 3],
    pub trick_len: u8,
    pub leader: u8,
    pub tricks: [u8; 3],
}

impl std::hash::Hash for SpadesState {
    /// Three words: the hands, with the leader, the trick and the tricks taken packed into the
    /// unused high bits of the last.
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        let extra = self.leader as u64
            | (self.trick_len as u64) << 2
            | (self.tricks[0] as u64) << 4
            | (self.tricks[1] as u64) << 8
            | (self.trick[0] as u64 ^ (self.trick[1] as u64) << 3) << 12;
        h.write_u64(self.left[0]);
        h.write_u64(self.left[1]);
        h.write_u64(self.left[2] ^ extra << 52);
    }
}

/// One hand of three-player Spades with known bids: the game the players search.
#[derive(Clone, Debug)]
pub struct SpadesHand {
    pub hands: [u64; 3],
    pub bids: [u8; 3],
    pub leader: u8,
    pub cards: u8,
    /// Every split of the tricks, (t0, t1, t2) with t0 + t1 + t2 = cards, indexed by outcome.
    pub outcomes: Vec<[u8; 3]>,
    index: Vec<u8>,
}

impl SpadesHand {
    /// The hand with these cards, bids and first leader; every hand must hold the same number
    /// of cards (1 to 9), no card twice.
    pub fn new(hands: [u64; 3], bids: [u8; 3], leader: u8) -> Result<SpadesHand, SkatError> {
        let cards = hands[0].count_ones();
        if hands
            .iter()
            .any(|h| h.count_ones() != cards || h >> 52 != 0)
            || !(1..=9).contains(&cards)
            || hands[0] & hands[1] != 0
            || hands[0] & hands[2] != 0
            || hands[1] & hands[2] != 0
            || leader > 2
        {
            return Err(SkatError::InvalidCards(
                "Spades hands need 1 to 9 distinct cards each, as many in every hand, and a \
                 leader in 0..3"
                    .to_string(),
            ));
        }
        let n = cards as u8;
        let mut outcomes = Vec::new();
        let mut index = vec![u8::MAX; 100];
        for t0 in 0..=n {
            for t1 in 0..=n - t0 {
                index[t0 as usize * 10 + t1 as usize] = outcomes.len() as u8;
                outcomes.push([t0, t1, n - t0 - t1]);
            }
        }
        Ok(SpadesHand {
            hands,
            bids,
            leader,
            cards: n,
            outcomes,
            index,
        })
    }

    /// The state before the first card.
    pub fn start(&self) -> SpadesState {
        SpadesState {
            left: self.hands,
            trick: [0; 3],
            trick_len: 0,
            leader: self.leader,
            tricks: [0; 3],
        }
    }

    /// The outcome index of a trick split.
    pub fn outcome_of(&self, tricks: &[u8; 3]) -> u8 {
        self.index[tricks[0] as usize * 10 + tricks[1] as usize]
    }

    /// The cards player `to_move()` may play in `s` (a bit set): the suit led if held.
    pub fn legal(&self, s: &SpadesState) -> u64 {
        let p = self.to_move(s);
        let hand = s.left[p];
        if s.trick_len == 0 {
            return hand;
        }
        let follow = hand & suit_mask(s.trick[0]);
        if follow != 0 {
            follow
        } else {
            hand
        }
    }

    /// Player j's preference under `pref` as a graph over this hand's outcomes.
    pub fn model(&self, j: usize, pref: Pref) -> GraphModel {
        let o = &self.outcomes;
        let b = &self.bids;
        GraphModel::from_fn(o.len(), |u, v| match pref {
            Pref::Kind(k) => k.utility(j, b, &o[u]) > k.utility(j, b, &o[v]),
            Pref::Generic => o[u][j] >= b[j] && o[v][j] < b[j],
        })
        .expect("a utility order has no cycle")
    }
}

impl Game for SpadesHand {
    type State = SpadesState;
    type Move = u8;
    type Outcome = u8;

    fn players(&self) -> usize {
        3
    }

    fn to_move(&self, s: &SpadesState) -> usize {
        (s.leader + s.trick_len) as usize % 3
    }

    fn moves(&self, s: &SpadesState, out: &mut Vec<u8>) {
        out.clear();
        let legal = self.legal(s);
        let mut live = s.left[0] | s.left[1] | s.left[2];
        for &c in &s.trick[..s.trick_len as usize] {
            live |= 1 << c;
        }
        let mut rest = legal;
        while rest != 0 {
            let c = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            let below = live & suit_mask(c) & ((1u64 << c) - 1);
            let equivalent = below != 0 && legal >> (63 - below.leading_zeros()) & 1 == 1;
            if !equivalent {
                out.push(c);
            }
        }
    }

    fn apply(&self, s: &SpadesState, c: u8) -> SpadesState {
        let p = self.to_move(s);
        let mut t = *s;
        t.left[p] &= !(1u64 << c);
        t.trick[t.trick_len as usize] = c;
        t.trick_len += 1;
        if t.trick_len == 3 {
            let w = (t.leader as usize + trick_winner(&t.trick)) % 3;
            t.tricks[w] += 1;
            t.leader = w as u8;
            t.trick_len = 0;
            t.trick = [0; 3];
        }
        t
    }

    /// Only states between tricks: a state in the middle of a trick has one parent.
    fn cacheable(&self, s: &SpadesState) -> bool {
        s.trick_len == 0
    }

    fn outcome(&self, s: &SpadesState) -> Option<u8> {
        if s.trick_len == 0 && (s.left[0] | s.left[1] | s.left[2]) == 0 {
            Some(self.outcome_of(&s.tricks))
        } else {
            None
        }
    }
}
