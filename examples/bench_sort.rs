//! `sort_keyed` (radix from `RADIX_MIN` pairs) against the standard library's
//! `sort_unstable` on the same pairs, timed in one process: the fused (key, index)
//! pairs of benchmark workload (a), three lists of N over 1.5 N documents.
//!   cargo run --release --example bench_sort
use calibrank::fuse::{descending_key, rrf_indexed};
use calibrank::sort::{sort_keyed, Keyed};
use std::time::Instant;

/// Three seeded shuffles of 0..1.5n, the first n of each (a linear congruential
/// generator; the shape of bench/gen.mjs's lists, not its exact ids).
fn lists(n: usize) -> Vec<Vec<u32>> {
    let u = n * 3 / 2;
    let mut x: u64 = 12345;
    (0..3)
        .map(|_| {
            let mut p: Vec<u32> = (0..u as u32).collect();
            for i in (1..u).rev() {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                p.swap(i, (x >> 33) as usize % (i + 1));
            }
            p.truncate(n);
            p
        })
        .collect()
}

fn time(reps: usize, keyed: &[Keyed], sort: impl Fn(&mut [Keyed])) -> (f64, Vec<Keyed>) {
    let mut v = keyed.to_vec();
    let t = Instant::now();
    for _ in 0..reps {
        v.copy_from_slice(keyed);
        sort(&mut v);
    }
    (t.elapsed().as_secs_f64() / reps as f64, v)
}

fn main() {
    for n in [300usize, 1_000, 10_000, 100_000, 1_000_000] {
        let l = lists(n);
        let slices: Vec<&[u32]> = l.iter().map(Vec::as_slice).collect();
        let f = rrf_indexed(&slices, &[1.0; 3], "weights", 60.0, n * 3 / 2).expect("valid lists");
        let keyed: Vec<Keyed> = (0u32..)
            .zip(&f.scores)
            .filter(|(_, &s)| s > 0.0)
            .map(|(d, &s)| (descending_key(s), d))
            .collect();
        let reps = (3_000_000 / n).max(3);
        let (std, a) = time(reps, &keyed, |v| v.sort_unstable());
        let (ours, b) = time(reps, &keyed, sort_keyed);
        assert_eq!(a, b, "the same order");
        println!(
            "{} pairs: sort_unstable {:.1} us, sort_keyed {:.1} us, ratio {:.2}",
            keyed.len(),
            std * 1e6,
            ours * 1e6,
            ours / std
        );
    }
}
