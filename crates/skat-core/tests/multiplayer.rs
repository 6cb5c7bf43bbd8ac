//! Max^n, paranoid and soft-max^n on the paper's small examples and on small Spades hands
//! (against searches without move pruning or tables), opponent models, Spades rules and
//! scoring, and the soundness of inference (Sturtevant and Bowling, Lemma 2).

use skat_core::multiplayer::maxn::Maxn;
use skat_core::multiplayer::models::{
    inconsistent, strictly_dominates, weakly_dominates, Comparator, GraphModel, MaxnSet, Model,
};
use skat_core::multiplayer::paranoid::Paranoid;
use skat_core::multiplayer::softmaxn::SoftMaxn;
use skat_core::multiplayer::spades::*;
use skat_core::multiplayer::spades_play::*;
use skat_core::multiplayer::tree::{ExplicitTree, Spec};
use skat_core::multiplayer::Game;
use skat_core::Rng;

fn leaf(v: &[i64]) -> Spec {
    Spec::Leaf(v.to_vec())
}

/// Figure 1 of the paper: Player 1 (index 0) at the root, Player 2 at (a), (b), (c). The text
/// fixes (a) = (1, 3, 5) over a right child worth 1 to Player 2, (b) taking its right child,
/// worth 3 to Player 1, and a tie for Player 2 at (c) between 6 and 1 for Player 1; the other
/// numbers are ours.
fn figure1() -> ExplicitTree {
    ExplicitTree::build(
        3,
        &Spec::Inner(
            0,
            vec![
                Spec::Inner(1, vec![leaf(&[1, 3, 5]), leaf(&[3, 1, 4])]),
                Spec::Inner(1, vec![leaf(&[5, 2, 1]), leaf(&[3, 4, 2])]),
                Spec::Inner(1, vec![leaf(&[6, 4, 0]), leaf(&[1, 4, 5])]),
            ],
        ),
    )
}

#[test]
fn maxn_on_figure_1() {
    let t = figure1();
    let mut m = Maxn::new(&t, |j, o: &usize| t.score(j, *o));
    let kids: Vec<Vec<i64>> = m
        .children(&0)
        .iter()
        .map(|(_, o)| t.scores[*o].clone())
        .collect();
    assert_eq!(kids, vec![vec![1, 3, 5], vec![3, 4, 2], vec![6, 4, 0]]);
    let (mv, o) = m.best(&0);
    assert_eq!((mv, t.scores[o].clone()), (2, vec![6, 4, 0]));
}

#[test]
fn paranoid_on_figure_1() {
    // Player 2 minimises Player 1: (a) 1, (b) 3, (c) 1, so Player 1 takes (b).
    let t = figure1();
    let mut p = Paranoid::new(&t, 0, |o: &usize| t.score(0, *o));
    assert_eq!(p.best(&0), (1, 3));
    // For root Player 2 at node (a): Player 2 maximises its own score there.
    let mut q = Paranoid::new(&t, 1, |o: &usize| t.score(1, *o));
    assert_eq!(q.value(&1), 3);
}

#[test]
fn softmaxn_keeps_ties_on_figure_1() {
    let t = figure1();
    let models: Vec<_> = (0..3)
        .map(|j| {
            Comparator(move |u: &usize, v: &usize| figure1().score(j, *u) > figure1().score(j, *v))
        })
        .collect();
    let mut s = SoftMaxn::new(&t, models);
    let sets: Vec<Vec<Vec<i64>>> = s
        .children(&0)
        .iter()
        .map(|(_, set)| {
            set.outcomes()
                .iter()
                .map(|o| t.scores[*o].clone())
                .collect()
        })
        .collect();
    assert_eq!(sets[0], vec![vec![1, 3, 5]]);
    assert_eq!(sets[1], vec![vec![3, 4, 2]]);
    let mut c = sets[2].clone();
    c.sort();
    assert_eq!(c, vec![vec![1, 4, 5], vec![6, 4, 0]]);
    // The mean for Player 1 is 3.5 at (c) and 3 at (b).
    let (mv, _) = s.decide(&0, |o| t.score(0, *o) as f64);
    assert_eq!(mv, 2);
}

/// Figure 2: Players 1 and 2 bid one trick each; Player 2 chooses at (a), (b), (c) between two
/// trick splits (tricks of Player 1, Player 2, Player 3).
fn figure2() -> ExplicitTree {
    ExplicitTree::build(
        3,
        &Spec::Inner(
            0,
            vec![
                Spec::Inner(1, vec![leaf(&[1, 2, 0]), leaf(&[0, 1, 2])]),
                Spec::Inner(1, vec![leaf(&[0, 2, 1]), leaf(&[1, 1, 1])]),
                Spec::Inner(1, vec![leaf(&[1, 2, 0]), leaf(&[1, 1, 1])]),
            ],
        ),
    )
}

#[test]
fn figure_2_maxn_depends_on_the_model_and_softmaxn_finds_the_safe_move() {
    let t = figure2();
    let tricks = |j: usize, o: &usize| t.score(j, *o);
    let made = |j: usize, o: &usize| (tricks(j, o) >= 1) as i64;
    // Player 2 maximising tricks: (a) and (c) both give Player 1 its trick; ties go left.
    let mut mt = Maxn::new(
        &t,
        |j, o: &usize| if j == 1 { tricks(1, o) } else { made(j, o) },
    );
    let v: Vec<[i64; 2]> = mt
        .children(&0)
        .iter()
        .map(|(_, o)| [t.score(0, *o), t.score(1, *o)])
        .collect();
    assert_eq!(v, vec![[1, 2], [0, 2], [1, 2]]);
    assert_eq!(mt.best(&0).0, 0);
    // Player 2 minimising overtricks: Player 1 makes its bid at (b) and (c).
    let mot = |o: &usize| {
        if tricks(1, o) >= 1 {
            100 - (tricks(1, o) - 1)
        } else {
            0
        }
    };
    let mut m2 = Maxn::new(&t, |j, o: &usize| if j == 1 { mot(o) } else { made(j, o) });
    let v: Vec<i64> = m2
        .children(&0)
        .iter()
        .map(|(_, o)| t.score(0, *o))
        .collect();
    assert_eq!(v, vec![0, 1, 1]);
    // Soft-max^n with the generic model (Player 2 only wants its bid): both outcomes survive
    // at every node, and only (c) guarantees Player 1 its trick.
    let g = |j: usize| {
        move |u: &usize, v: &usize| figure2().score(j, *u) >= 1 && figure2().score(j, *v) < 1
    };
    let mut s = SoftMaxn::new(
        &t,
        vec![Comparator(g(0)), Comparator(g(1)), Comparator(g(2))],
    );
    for (_, set) in s.children(&0) {
        assert_eq!(set.len(), 2);
    }
    let (mv, set) = s.decide(&0, |o| made(0, o) as f64);
    assert_eq!(mv, 2);
    assert!(set.outcomes().iter().all(|o| tricks(0, o) == 1));
}

/// The relations the text states for Table 3 (the sets are ours, built to satisfy them).
#[test]
fn domination_as_in_table_3() {
    let set = |v: &[[i64; 3]]| MaxnSet::from_outcomes(v.to_vec());
    let a = set(&[[3, 9, 2]]);
    let b = set(&[[5, 4, 7], [2, 6, 8]]);
    let c = set(&[[4, 5, 9], [3, 2, 1]]);
    let d = set(&[[0, 0, 0], [10, 10, 10]]);
    let player = |j: usize| Comparator::utility(move |v: &[i64; 3]| v[j]);
    assert!(weakly_dominates(&player(0), &c, &a));
    assert!(!strictly_dominates(&player(0), &c, &a));
    assert!(strictly_dominates(&player(1), &a, &b));
    assert!(strictly_dominates(&player(1), &a, &c));
    assert!(strictly_dominates(&player(2), &b, &a));
    assert!(!strictly_dominates(&player(2), &b, &c));
    assert!(!weakly_dominates(&player(2), &b, &c));
    // (d) spans the whole range 0..10: it neither dominates nor is strictly dominated.
    for j in 0..3 {
        for s in [&a, &b, &c] {
            assert!(!strictly_dominates(&player(j), &d, s));
            assert!(!strictly_dominates(&player(j), s, &d));
        }
    }
    // Inconsistency is strict domination of the chosen set by the other.
    assert!(inconsistent(&player(1), &b, &a));
    assert!(!inconsistent(&player(1), &a, &b));
}

#[test]
fn graph_models_are_closed_and_acyclic() {
    let m = GraphModel::from_edges(4, &[(0, 1), (1, 2), (2, 3)]).unwrap();
    assert_eq!(
        m.edges(),
        vec![(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    );
    assert!(m.prefers(&0usize, &3usize));
    assert!(GraphModel::from_edges(3, &[(0, 1), (1, 2), (2, 0)]).is_err());
    assert!(GraphModel::from_edges(3, &[(0, 5)]).is_err());
    let other = GraphModel::from_edges(4, &[(0, 3), (1, 3), (2, 1)]).unwrap();
    let g = GraphModel::intersection(&[&m, &other]).unwrap();
    // other closes (2, 1), (1, 3) to (2, 3), which m has too.
    assert_eq!(g.edges(), vec![(0, 3), (1, 3), (2, 3)]);
    assert!(GraphModel::intersection(&[]).is_err());
}

/// Figures 3 and 4: two tricks, Player 1 bids one. Maximising tricks ranks 2 > 1 > 0 tricks,
/// minimising overtricks 1 > 2 > 0; their generalisation only prefers making the bid.
#[test]
fn figures_3_and_4_generalisation() {
    let cards = |s: &str| {
        s.split_whitespace()
            .map(|c| 1u64 << parse_card(c).unwrap())
            .fold(0, |a, b| a | b)
    };
    let hand = SpadesHand::new(
        [cards("SA SK"), cards("H2 H3"), cards("D2 D3")],
        [1, 1, 0],
        0,
    )
    .unwrap();
    assert_eq!(hand.outcomes.len(), 6);
    let mine = |o: usize| hand.outcomes[o][0];
    let mt = hand.model(0, Pref::Kind(Kind::MT));
    let mot = hand.model(0, Pref::Kind(Kind::MOT));
    for u in 0..6 {
        for v in 0..6 {
            assert_eq!(mt.prefers(&u, &v), mine(u) > mine(v));
            let rank = |o: usize| [0, 2, 1][mine(o) as usize];
            assert_eq!(mot.prefers(&u, &v), rank(u) > rank(v));
        }
    }
    let g = GraphModel::intersection(&[&mt, &mot]).unwrap();
    assert_eq!(g, hand.model(0, Pref::Generic));
    assert_eq!(g.edges().len(), 9);
    let ml = hand.model(0, Pref::Kind(Kind::ML));
    assert_eq!(GraphModel::intersection(&[&mt, &mot, &ml]).unwrap(), g);
}

#[test]
fn spades_rules_and_scoring() {
    let c = |s: &str| parse_card(s).unwrap();
    assert_eq!(card_name(c("HT")), "HT");
    assert!(parse_card("X1").is_err());
    // Highest of the suit led, unless trumped; the highest spade wins.
    assert_eq!(trick_winner(&[c("H9"), c("HK"), c("DA")]), 1);
    assert_eq!(trick_winner(&[c("H9"), c("HK"), c("S2")]), 2);
    assert_eq!(trick_winner(&[c("S9"), c("HA"), c("S3")]), 0);
    // The paper's examples: bid 3, take 3 -> 30, take 5 -> 32, take 2 -> -30.
    assert_eq!(hand_score(3, 3, 0), (30, 0));
    assert_eq!(hand_score(3, 5, 0), (32, 2));
    assert_eq!(hand_score(3, 2, 4), (-30, 4));
    // The tenth overtrick costs 100.
    assert_eq!(hand_score(2, 4, 8), (22 - 100, 0));
    assert_eq!(hand_score(1, 4, 9), (13 - 100, 2));
    // Bidding: spade A, K (2 each), S5 (1), HA (2), DK in a suit of two (2): 9 halves, odd
    // and at least BID_ROUND_UP_FROM, so 5; SA and HQ in a suit of one: 3 halves, so 1.
    let bits = |v: &[&str]| v.iter().fold(0u64, |a, s| a | 1 << c(s));
    assert_eq!(BID_ROUND_UP_FROM, 5);
    assert_eq!(
        rule_bid(bits(&["SA", "SK", "S5", "HA", "DK", "D2", "C3"])),
        5
    );
    assert_eq!(rule_bid(bits(&["SA", "HQ", "D2"])), 1);
    assert_eq!(rule_bid(bits(&["SA", "HA", "CK", "C2", "S4"])), 4);
    assert_eq!(rule_bid(1 << c("C2")), 1);
}

#[test]
fn following_suit() {
    let bits = |s: &str| {
        s.split_whitespace()
            .map(|x| 1u64 << parse_card(x).unwrap())
            .fold(0, |a, b| a | b)
    };
    let hand =
        SpadesHand::new([bits("H9 S2"), bits("HK D4"), bits("DA C7")], [1, 1, 1], 0).unwrap();
    let s = hand.apply(&hand.start(), parse_card("H9").unwrap());
    assert_eq!(hand.legal(&s), bits("HK"));
    let s = hand.apply(&s, parse_card("HK").unwrap());
    assert_eq!(hand.legal(&s), bits("DA C7"));
    let s = hand.apply(&s, parse_card("C7").unwrap());
    assert_eq!((s.leader, s.tricks), (1, [0, 1, 0]));
}

/// Spades with every legal card generated and no table: the reference for the pruned search.
struct Plain(SpadesHand);

impl Game for Plain {
    type State = SpadesState;
    type Move = u8;
    type Outcome = u8;
    fn players(&self) -> usize {
        3
    }
    fn to_move(&self, s: &SpadesState) -> usize {
        self.0.to_move(s)
    }
    fn moves(&self, s: &SpadesState, out: &mut Vec<u8>) {
        out.clear();
        let mut l = self.0.legal(s);
        while l != 0 {
            out.push(l.trailing_zeros() as u8);
            l &= l - 1;
        }
    }
    fn apply(&self, s: &SpadesState, m: u8) -> SpadesState {
        self.0.apply(s, m)
    }
    fn outcome(&self, s: &SpadesState) -> Option<u8> {
        self.0.outcome(s)
    }
    fn cacheable(&self, _s: &SpadesState) -> bool {
        false
    }
}

fn random_hand(rng: &mut Rng, cards: usize) -> SpadesHand {
    let d = deal(rng, cards);
    SpadesHand::new(d, d.map(rule_bid), rng.below(3) as u8).unwrap()
}

#[test]
fn pruned_searches_equal_plain_ones() {
    let mut rng = Rng::new(11);
    for _ in 0..40 {
        let hand = random_hand(&mut rng, 4);
        let plain = Plain(hand.clone());
        let s = hand.start();
        let kinds = [Kind::MT, Kind::MOT, Kind::ML];
        let u = |j: usize, o: &u8| kinds[j].utility(j, &hand.bids, &hand.outcomes[*o as usize]);
        assert_eq!(
            Maxn::new(&hand, u).value(&s),
            Maxn::new(&plain, u).value(&s)
        );
        let own = |o: &u8| u(0, o);
        assert_eq!(
            Paranoid::new(&hand, 0, own).value(&s),
            Paranoid::new(&plain, 0, own).value(&s)
        );
        let models = |p: Pref| (0..3).map(|j| hand.model(j, p)).collect::<Vec<_>>();
        for p in [Pref::Generic, Pref::Kind(Kind::MOT)] {
            assert_eq!(
                SoftMaxn::new(&hand, models(p)).value(&s),
                SoftMaxn::new(&plain, models(p)).value(&s)
            );
        }
    }
}

/// Lemma 1 in practice: the max^n value of players whose utilities refine the generic model
/// lies in the soft-max^n set computed with the generic model, at the root and after each move.
#[test]
fn softmaxn_sets_contain_maxn_values() {
    let mut rng = Rng::new(5);
    for i in 0..30 {
        let hand = random_hand(&mut rng, 5);
        let kinds = [
            Kind::ALL[i % 3],
            Kind::ALL[(i / 3) % 3],
            Kind::ALL[(i / 9) % 3],
        ];
        let u = |j: usize, o: &u8| kinds[j].utility(j, &hand.bids, &hand.outcomes[*o as usize]);
        let mut m = Maxn::new(&hand, u);
        let mut soft = SoftMaxn::new(
            &hand,
            (0..3).map(|j| hand.model(j, Pref::Generic)).collect(),
        );
        let s = hand.start();
        assert!(soft.value(&s).contains(&m.value(&s)));
        for ((_, o), (_, set)) in m.children(&s).iter().zip(soft.children(&s)) {
            assert!(set.contains(o));
        }
    }
}

#[test]
fn players_parse_and_games_end() {
    for name in ["mOT_MT", "MT_mOT", "mOT_g", "soft:ML_MT", "paranoid:MT"] {
        assert_eq!(Player::parse(name).unwrap().name(), name);
    }
    for bad in ["mOT", "MT_g:x", "maxn:MT_g", "x:MT_MT", "MT_XY"] {
        assert!(Player::parse(bad).is_err(), "{bad}");
    }
    let p = ["mOT_MT", "MT_mOT", "paranoid:MT"].map(|n| Player::parse(n).unwrap());
    let config = GameConfig {
        cards: 4,
        target: 100,
        max_hands: 200,
    };
    let r = play_game(&p, 3, &config).unwrap();
    assert!(r.scores.iter().any(|&x| x >= 100) || r.hands == 200);
    assert!(r
        .winners
        .iter()
        .all(|&w| r.scores[w] == *r.scores.iter().max().unwrap()));
    assert_eq!(play_game(&p, 3, &config).unwrap(), r);
}

/// Lemma 2: when every player's preferences refine the generalised model, inference never
/// rules out an opponent's true kind; and it does rule out other kinds.
#[test]
fn inference_is_sound() {
    let observer = Player::parse("mOT_g").unwrap();
    let mut inferred = 0;
    for (i, a) in Kind::ALL.iter().enumerate() {
        for (k, b) in Kind::ALL.iter().enumerate() {
            let opponents = [
                Player::parse(&format!("{}_{}", a.name(), b.name())).unwrap(),
                Player::parse(&format!("soft:{}_g", b.name())).unwrap(),
            ];
            let c = inference_hands(&observer, &opponents, (10 * i + k) as u64, 12, 5).unwrap();
            assert_eq!(c.wrong, 0);
            assert_eq!(c.hands, 12);
            inferred += c.inferences;
        }
    }
    assert!(inferred > 0);
}
