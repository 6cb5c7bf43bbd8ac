use skat_core::solver::{bench, Solver, SolverOptions};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seed: u64 = args[1].parse().unwrap();
    let idx: usize = args[2].parse().unwrap();
    let p = bench::positions(idx + 1, seed)[idx];
    println!("{:?}", p);
    let mut s = Solver::new(SolverOptions::default());
    let (vals, st) = s.analyze(&p);
    println!("{:?} {:?}", vals, st);
}
