//! Tests of the endgame lookup tables: the file format, the row enumeration, the tentpole
//! invariant against an independent plain search, and that the search really reads them.

use super::bench::random_position;
use super::endgame::EgCache;
use super::layout::Layout;
use super::lookup::{leak, ClassTable, LookupTables, LOW_HALF, MIN_K};
use super::lookup_bench::selfcheck;
use super::lookup_build::{candidates, class_layout, revalue, rows, Builder, RowSpec};
use super::lookup_half::halve_range;
use super::search::key::canonical_key;
use super::search::Searcher;
use super::tt::Tt;
use super::{Solver, SolverOptions};
use crate::rng::Rng;
use std::collections::HashSet;

fn small_table(class: u8, n: usize, seed: u64) -> ClassTable {
    let all = rows(class, 3);
    let mut rng = Rng::new(seed);
    let mut b = Builder::new();
    let built = (0..n)
        .map(|_| {
            let r = all[rng.below(all.len() as u64) as usize];
            (r.key, b.build_row(class, &r))
        })
        .collect::<Vec<_>>();
    let mut seen = HashSet::new();
    let built = built.into_iter().filter(|r| seen.insert(r.0)).collect();
    ClassTable::from_rows(class, 3, built)
}

#[test]
fn file_round_trip_and_damage() {
    let null = small_table(2, 20, 1);
    assert_eq!(ClassTable::from_bytes(&null.to_bytes()).unwrap(), null);
    // enough rows that some share their tentpoles
    let t = small_table(1, 200, 1);
    assert!(t.iter_rows().map(|r| r.1).collect::<HashSet<_>>().len() < t.rows());
    let b = t.to_bytes();
    assert_eq!(ClassTable::from_bytes(&b).unwrap(), t);
    let mut bad = b.clone();
    bad[40] ^= 1;
    assert!(ClassTable::from_bytes(&bad)
        .unwrap_err()
        .contains("checksum"));
    assert!(ClassTable::from_bytes(&b[..b.len() - 3]).is_err());
    assert!(ClassTable::from_bytes(b"SKLX").is_err());
    // a table of another class under this class's name is refused by its keys
    let mut other = b.clone();
    other[5] = 0;
    let n = other.len() - 8;
    let h = super::lookup::fnv1a(&other[..n]);
    other[n..].copy_from_slice(&h.to_le_bytes());
    assert!(ClassTable::from_bytes(&other).is_err());
}

/// A shard without rows (its range empty or past the last row) is a table like any other:
/// an empty buffer had one padding element, read as a record (a panic writing a keyed
/// shard) or into the checksum (a dense one could not be read back).
#[test]
fn empty_shards_round_trip() {
    use super::lookup_build::{build_shard, row_count, Method};
    for class in 0..3u8 {
        let n = row_count(class, 3);
        for (start, end) in [(5, 2), (5, 5), (n, n + 10), (usize::MAX - 1, usize::MAX)] {
            let (t, _) = build_shard(class, 3, start, end, Method::default(), None).unwrap();
            assert_eq!(t.rows(), 0);
            assert_eq!(t.iter_rows().count(), 0);
            let back = ClassTable::from_bytes(&t.to_bytes()).unwrap();
            assert_eq!(back.rows(), 0);
        }
    }
    assert_eq!(
        ClassTable::from_rows(0, 3, Vec::new()).iter_rows().count(),
        0
    );
}

/// Rows with the same tentpoles share them in memory and read back unchanged.
#[test]
fn equal_rows_share_their_tentpoles() {
    let a = vec![(5u32, 3u8), (7, 9), (11, 1), (13, 2), (17, 0)];
    let rows = vec![
        (30u64, a.clone()),
        (10, a.clone()),
        (20, vec![(1, 1)]),
        (40, a),
    ];
    let t = ClassTable::from_rows(1, 3, rows.clone());
    let mut sorted = rows.clone();
    sorted.sort_by_key(|r| r.0);
    assert_eq!(t.iter_rows().collect::<Vec<_>>(), sorted);
    for (key, poles) in &rows {
        let r = t.row(*key).unwrap();
        let got: Vec<(u32, u8)> = (0..r.vals.len()).map(|i| (r.vals[i], r.value(i))).collect();
        assert_eq!(&got, poles);
    }
    assert_eq!(t.entries(), 16);
    // stored once: three records of 3 words, two lists (5 + 2 and 1 + 1 words, n each)
    let unshared = ClassTable::from_rows(1, 3, vec![(1, vec![(5, 3)]), (2, vec![(6, 3)])]);
    assert!(t.bytes() - unshared.bytes() < 4 * (4 * 3 + 8 + 3));
}

#[test]
fn tables_must_start_at_the_smallest_size() {
    let t = small_table(2, 5, 2);
    let mut four = t.clone();
    four.k = 4;
    assert!(LookupTables::from_tables(vec![four.clone()]).is_err());
    assert!(LookupTables::from_tables(vec![t, four]).is_ok());
}

#[test]
fn rows_are_canonical_unique_and_cover_random_positions() {
    for class in 0..3u8 {
        let all = rows(class, MIN_K as u32);
        let lay = class_layout(class);
        let mut keys = HashSet::new();
        for r in all.iter() {
            assert!(keys.insert(r.key), "row listed twice");
            let (k, _) = canonical_key(lay, r.hands, r.decl as u64 | (class as u64) << 2);
            assert_eq!(k.a, r.key);
            for h in r.hands {
                assert_eq!(h.count_ones(), MIN_K as u32);
            }
        }
        let mut rng = Rng::new(3);
        for _ in 0..300 {
            let p = random_position(&mut rng, class, MIN_K as u32);
            let glay = Layout::get(p.game_type());
            let l = p.leader() as usize;
            let h = p.hands();
            let rot = [0, 1, 2].map(|j| glay.to_internal(h[(l + j) % 3]));
            let drel = (p.declarer() as usize + 3 - l) % 3;
            let (k, _) = canonical_key(glay, rot, drel as u64 | (class as u64) << 2);
            assert!(keys.contains(&k.a), "a random position's row is missing");
        }
    }
}

/// `samples` random valuations of row `r`: the tentpoles' bounds meet, at the value an
/// independent plain alpha-beta search (no table, no canonical keys, no bounds) finds.
fn assert_tentpoles_exact(
    class: u8,
    r: &RowSpec,
    poles: &[(u32, u8)],
    samples: usize,
    rng: &mut Rng,
) {
    let plain = SolverOptions::plain();
    let (mut tt, mut eg) = (Tt::tiny(), EgCache::tiny());
    let lay = class_layout(class);
    let cards = r.hands[0] | r.hands[1] | r.hands[2];
    let per: Vec<Vec<u32>> = (0..lay.ngroups)
        .map(|g| candidates(lay, g, (cards & lay.group_mask[g]).count_ones()))
        .collect();
    let run = Searcher::trump_run(lay, &r.hands, r.decl as usize);
    for _ in 0..samples {
        let sets: Vec<u32> = per
            .iter()
            .map(|c| c[rng.below(c.len() as u64) as usize])
            .collect();
        let h = revalue(lay, &r.hands, &sets);
        let (key, _) = canonical_key(lay, h, r.decl as u64 | (class as u64) << 2);
        let mut s = Searcher::new(
            lay,
            &plain,
            &mut tt,
            &mut eg,
            h,
            &[],
            0,
            r.decl as usize,
            None,
        );
        let (mut lo, mut hi) = s.trivial_bounds();
        let (v, _) = s.mtdf(lo);
        // a low half row: its best lower bound is the value
        let half = poles[0].1 & LOW_HALF != 0;
        for &(x, pv) in poles {
            assert_eq!(pv & LOW_HALF != 0, half, "a row with mixed flags");
            let pv = (pv & !LOW_HALF) as i32;
            let (dlo, dhi) = Searcher::dist(lay, key.val, x, run);
            lo = lo.max(pv + dlo);
            if !half {
                hi = hi.min(pv + dhi);
            }
        }
        if half {
            hi = lo;
        }
        assert_eq!((lo, hi), (v, v), "class {class} row {:x}", r.key);
    }
}

/// Every valuation of sampled rows: the tentpoles' bounds meet, at the value an independent
/// plain alpha-beta search (no table, no canonical keys, no bounds) finds.
#[test]
fn tentpoles_give_every_valuation_exactly() {
    for class in 0..3u8 {
        let all = rows(class, 3);
        let mut rng = Rng::new(10 + class as u64);
        // with the hard-edge walks (the default) and without
        let (mut walked, mut greedy) = (Builder::new(), Builder::new());
        greedy.walk = false;
        // (the tentpole counts compared in full rows)
        (walked.half, greedy.half) = (false, false);
        for _ in 0..6 {
            let r = all[rng.below(all.len() as u64) as usize];
            for b in [&mut walked, &mut greedy] {
                let poles = b.build_row(class, &r);
                // a random sample of the row's valuations (all of them for small rows)
                assert_tentpoles_exact(class, &r, &poles, 60, &mut rng);
            }
        }
        // the walks find far fewer tentpoles (null rows have one either way)
        if class < 2 {
            assert!(
                walked.stats.tentpoles * 3 < greedy.stats.tentpoles,
                "{:?} {:?}",
                walked.stats,
                greedy.stats
            );
        }
    }
}

/// Pruned tentpoles keep every valuation exact, with far fewer tentpoles.
#[test]
fn pruned_tentpoles_stay_exact() {
    for class in 0..2u8 {
        let all = rows(class, 3);
        let mut rng = Rng::new(20 + class as u64);
        // the greedy tentpoles, which the prune thins most
        let (mut full, mut pruned) = (Builder::new(), Builder::new());
        (full.walk, full.half) = (false, false);
        (pruned.walk, pruned.half) = (false, false);
        pruned.prune = true;
        for _ in 0..8 {
            let r = all[rng.below(all.len() as u64) as usize];
            let before = full.build_row(class, &r).len();
            let poles = pruned.build_row(class, &r);
            assert!(poles.len() <= before);
            assert_tentpoles_exact(class, &r, &poles, 40, &mut rng);
        }
        assert!(pruned.stats.tentpoles * 3 < full.stats.tentpoles);
    }
}

/// Low half rows keep every valuation exact with fewer tentpoles, whether the builder makes
/// them or a complete table is converted; a row with some entries flagged is refused.
#[test]
fn half_rows_stay_exact_and_are_smaller() {
    for class in 0..2u8 {
        let all = rows(class, 3);
        let (mut full, mut half) = (Builder::new(), Builder::new());
        full.half = false;
        let mut rng = Rng::new(30 + class as u64);
        let range = 1000..1040;
        let mut built = Vec::new();
        for r in &all[range.clone()] {
            let f = full.build_row(class, r);
            let h = half.build_row(class, r);
            assert!(h.len() <= f.len());
            assert_tentpoles_exact(class, r, &h, 30, &mut rng);
            built.push((r.key, f));
        }
        assert!(half.stats.half_rows > 0, "{:?}", half.stats);
        assert!(half.stats.tentpoles * 4 < full.stats.tentpoles * 3);
        // the same rows converted from a file of full rows
        let dir = std::env::temp_dir().join(format!("skat-half-{}-{class}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.skt");
        std::fs::write(&path, ClassTable::from_rows(class, 3, built).to_bytes()).unwrap();
        let (t, st) = halve_range(&path, range.start, range.end).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!((st.rows, st.tentpoles_before), (40, full.stats.tentpoles));
        assert!(st.tentpoles_after < st.tentpoles_before && st.half_rows > 0);
        let back = ClassTable::from_bytes(&t.to_bytes()).unwrap();
        for r in &all[range.clone()] {
            let poles = back.row(r.key).unwrap().entries();
            assert_tentpoles_exact(class, r, &poles, 30, &mut rng);
        }
        // the second entry of a half row unflagged in the file (the values are the last
        // bytes before the checksum): refused
        let rows_back: Vec<_> = back.iter_rows().collect();
        let i = rows_back
            .iter()
            .position(|r| r.1.len() > 1 && r.1[0].1 & LOW_HALF != 0);
        let i = i.expect("a half row with two tentpoles");
        let before: usize = rows_back[..i].iter().map(|r| r.1.len()).sum();
        let mut mixed = back.to_bytes();
        let n = mixed.len() - 8;
        mixed[n - back.entries() + before + 1] &= !LOW_HALF;
        let h = super::lookup::fnv1a(&mixed[..n]);
        mixed[n..].copy_from_slice(&h.to_le_bytes());
        assert!(ClassTable::from_bytes(&mixed)
            .unwrap_err()
            .contains("flagged"));
    }
}

/// The search reads the tables: a table with one value changed changes a solved value
/// (so the exactness checks can fail), and the built table changes none.
#[test]
fn the_search_uses_the_tables() {
    let c = selfcheck(1, 40, 400, 7).unwrap();
    assert_eq!(c.mismatches, 0);
    assert!(c.nodes[1] * 3 < c.nodes[0], "{:?}", c.nodes);
    let t = small_table(1, 1, 4);
    let (key, mut wrong) = t.iter_rows().next().unwrap();
    // every tentpole raised by 7 points: consistent bounds, wrong values
    for e in wrong.iter_mut() {
        e.1 += 7;
    }
    let damaged = leak(
        LookupTables::from_tables(vec![ClassTable::from_rows(1, 3, vec![(key, wrong)])]).unwrap(),
    );
    let row = rows(1, 3).iter().find(|r| r.key == key).copied().unwrap();
    let lay = class_layout(1);
    let glay = Layout::get(crate::rules::GameType::Grand);
    let hands = row.hands.map(|h| glay.to_external(h));
    let p = super::Position::new(
        hands,
        crate::rules::Contract::plain(crate::rules::GameType::Grand),
        row.decl,
        0,
        &[],
        0,
        0,
    )
    .unwrap();
    let _ = lay;
    let exact = Solver::new(SolverOptions::default()).solve(&p).value;
    let with = Solver::new(SolverOptions {
        lookup: Some(damaged),
        ..SolverOptions::default()
    })
    .solve(&p)
    .value;
    assert_ne!(exact, with);
}

#[test]
fn dense_null_tables_hold_the_values_of_the_keyed_ones() {
    use super::lookup_build::{build_range, build_shard, row_count, Method};
    let mut null3: Option<super::lookup::LookupRef> = None;
    for k in [3u32, 4] {
        let n = row_count(2, k);
        assert_eq!(n, rows(2, k).len());
        // every row of null-3; a sample of null-4's ranges
        let ranges: Vec<(usize, usize)> = if k == 3 {
            vec![(0, n)]
        } else {
            vec![(0, 3000), (n / 2, n / 2 + 3000), (n - 3000, n)]
        };
        let mut parts = Vec::new();
        for &(a, z) in &ranges {
            let (dense, _) = build_shard(2, k, a, z, Method::default(), None).unwrap();
            assert_eq!(dense.rows(), z - a);
            if let Some(t) = null3 {
                // the searches reading null-3 find the same values
                let (with, _) = build_shard(2, k, a, z, Method::default(), Some(t)).unwrap();
                assert_eq!(with.to_bytes(), dense.to_bytes());
            }
            // the same rows built from the listed rows, keyed: the same value for every key
            let listed: std::collections::HashMap<u64, RowSpec> =
                rows(2, k).iter().map(|r| (r.key, *r)).collect();
            let keyed: std::collections::HashMap<u64, u8> = {
                let mut b = Builder::new();
                dense
                    .iter_rows()
                    .map(|(key, _)| (key, b.build_row(2, &listed[&key])[0].1))
                    .collect()
            };
            for (key, poles) in dense.iter_rows() {
                assert_eq!(poles, vec![(0, keyed[&key])]);
                assert_eq!(dense.row(key).map(|r| r.value(0)), Some(keyed[&key]));
            }
            parts.push(dense);
        }
        if k == 3 {
            let (keyed, _) = build_range(2, 3, 0, n, Method::default()).unwrap();
            let whole = ClassTable::from_bytes(&parts[0].to_bytes()).expect("a dense file");
            for (key, poles) in keyed {
                assert_eq!(whole.row(key).map(|r| r.value(0)), Some(poles[0].1));
            }
            assert!(whole.dense().is_some_and(|d| d.complete()));
            null3 = Some(leak(
                LookupTables::from_tables(vec![whole]).expect("null-3"),
            ));
        }
    }
}
