//! Per-position solver statistics at 30 cards (the benchmark's positions, null games
//! skipped): `solve` value, nodes and probes, the nodes of the two proofs that bound it
//! (`reaches(v)`, then `reaches(v + 1)` on the warm table), and `analyze` probes, nodes, time
//! and values. A diagnostic for search work:
//!
//! `cargo run --release --example solver_probe -p skat-core -- [N] [seed] [on|off] [tt_mb] [min_k]`
//! (`off` switches payoff-similarity off; `min_k` sets `similarity_min_cards`).

use skat_core::solver::{bench, Solver, SolverOptions};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(60);
    let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let mut opt = SolverOptions::default();
    if args.get(3).map(|s| s == "off").unwrap_or(false) {
        opt.payoff_similarity = false;
    }
    if let Some(mb) = args.get(4).and_then(|s| s.parse().ok()) {
        opt.tt_mb = mb;
    }
    if let Some(k) = args.get(5).and_then(|s| s.parse().ok()) {
        opt.similarity_min_cards = k;
    }
    let mut s = Solver::new(opt);
    let (mut an, mut at, mut sn, mut st) = (0u64, 0u64, 0u64, 0u64);
    for (i, p) in bench::positions(n, seed).iter().enumerate() {
        let class = bench::class_of(p.game_type());
        if class == "null" {
            continue;
        }
        s.clear();
        let so = s.solve(p);
        sn += so.stats.nodes;
        st += so.stats.micros;
        s.clear();
        let lower = s.reaches(p, so.value).1.nodes;
        let upper = s.reaches(p, so.value + 1).1.nodes;
        s.clear();
        let (values, a) = s.analyze(p);
        an += a.nodes;
        at += a.micros;
        let vals: Vec<i32> = values.iter().map(|x| x.1).collect();
        println!(
            "{i:3} {class:5} v={:3} solve {:8} nodes {:3} probes | proofs >=v {lower:8} <v+1 {upper:8} | analyze {:3} probes {:9} nodes {:7} us {vals:?}",
            so.value, so.stats.nodes, so.stats.probes, a.probes, a.nodes, a.micros
        );
    }
    println!("total: solve {sn} nodes {st} us; analyze {an} nodes {at} us");
}
