use skat_core::solver::{bench, Solver, SolverOptions};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seed: u64 = args[1].parse().unwrap();
    let idx: usize = args[2].parse().unwrap();
    let mb: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(32);
    let p = bench::positions(idx + 1, seed)[idx];
    let mut s = Solver::new(SolverOptions {
        tt_mb: mb,
        ..SolverOptions::default()
    });
    let (vals, st) = s.analyze(&p);
    println!("{:?} {:?}", vals, st);
}
