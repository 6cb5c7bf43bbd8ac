//! Payoff-similarity (thesis ch. 7) checked on the values themselves: two positions with the
//! same canonical form (per follow group, the same owners of the remaining cards in power
//! order) but other remaining ranks are solved exactly, and the declarer's points of the
//! first may exceed the second's by at most the sum of the positive card-value differences
//! of the paired cards (`up`) and fall short by at most the sum of the negative ones
//! (`down`): the bound the transposition table widens other valuations' entries by.

mod common;

use common::oracle;
use skat_core::solver::layout::Layout;
use skat_core::solver::search::Searcher;
use skat_core::solver::Position;
use skat_core::{Card, Cards, Contract, GameType, Rng};

/// The cards of each follow group of the layout, in ascending power.
fn groups(lay: &Layout) -> Vec<Vec<Card>> {
    (0..lay.ngroups)
        .map(|g| {
            (0..32u8)
                .filter(|&b| lay.group_of[b as usize] as usize == g)
                .map(|b| lay.card(b))
                .collect()
        })
        .collect()
}

/// A random start-of-trick position with `k` cards per hand, and a payoff-similar one: in
/// each group the same owners in power order, on a random other set of ranks of that group.
fn similar_pair(rng: &mut Rng, k: usize, gt: GameType) -> (Position, Position, i32, i32) {
    let lay = Layout::get(gt);
    let mut deck: Vec<Card> = Card::all().collect();
    rng.shuffle(&mut deck);
    let owner = |c: Card, deck: &[Card]| deck.iter().position(|&x| x == c).map(|i| i / k);
    let mut hands = [Cards::EMPTY; 3];
    let mut other = [Cards::EMPTY; 3];
    let (mut up, mut down) = (0, 0);
    for g in groups(lay) {
        // the remaining cards of the group, most powerful first, with their owners
        let live: Vec<(Card, usize)> = g
            .iter()
            .rev()
            .filter_map(|&c| match owner(c, deck.as_slice()) {
                Some(o) if o < 3 => Some((c, o)),
                _ => None,
            })
            .collect();
        // another set of ranks of the same size, most powerful first
        let mut pick = g.clone();
        rng.shuffle(&mut pick);
        let mut pick: Vec<Card> = pick[..live.len()].to_vec();
        pick.sort_by_key(|c| std::cmp::Reverse(g.iter().position(|x| x == c).unwrap()));
        for (&(c, o), &d) in live.iter().zip(pick.iter()) {
            hands[o] = hands[o].with(c);
            other[o] = other[o].with(d);
            let diff = c.points() as i32 - d.points() as i32;
            if diff > 0 {
                up += diff;
            } else {
                down -= diff;
            }
        }
    }
    let declarer = rng.below(3) as u8;
    let leader = rng.below(3) as u8;
    let c = Contract::plain(gt);
    (
        Position::new(hands, c, declarer, leader, &[], 0, 0).unwrap(),
        Position::new(other, c, declarer, leader, &[], 0, 0).unwrap(),
        up,
        down,
    )
}

#[test]
fn similar_positions_differ_within_the_signed_distance() {
    let mut rng = Rng::new(77);
    let (mut pairs, mut at_up, mut at_down) = (0, 0, 0);
    for round in 0..3000 {
        let gt = [GameType::Grand, GameType::Clubs, GameType::Diamonds][round % 3];
        let k = 2 + round % 3;
        let (s, t, up, down) = similar_pair(&mut rng, k, gt);
        if up == 0 && down == 0 {
            continue;
        }
        let (vs, vt) = (oracle(&s), oracle(&t));
        assert!(
            vs - vt <= up && vt - vs <= down,
            "{vs} vs {vt}, up {up} down {down}: {s:?} {t:?}"
        );
        // the solver's own distance on its valuation words (the live cards, groups in layout
        // order) agrees
        let lay = Layout::get(gt);
        let val = |p: &Position| lay.to_internal(p.hands()[0] | p.hands()[1] | p.hands()[2]);
        let (iu, id) = Searcher::dist(lay, val(&s), val(&t));
        assert_eq!((iu, id), (up, down), "{s:?} {t:?}");
        pairs += 1;
        at_up += usize::from(vs - vt == up);
        at_down += usize::from(vt - vs == down);
    }
    // the bound is attained on both sides (it is not a loose one that any test would pass)
    assert!(pairs > 2000, "{pairs}");
    assert!(at_up > 50 && at_down > 50, "{at_up} {at_down}");
}
