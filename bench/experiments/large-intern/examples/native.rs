//! The same interning natively, on ids of the benchmark's form (3 lists of 100,000 drawn
//! from 150,000): `cargo run --release --example native`.
fn main() {
    let n = 100_000usize;
    let u = n + n / 2;
    let mut s = 0x9e37_79b9u32;
    let mut rng = || {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        s
    };
    let (mut buf, mut ends) = (Vec::new(), Vec::new());
    for _ in 0..3 {
        let mut a: Vec<usize> = (0..u).collect();
        for i in 0..n {
            let j = i + (rng() as usize) % (u - i);
            a.swap(i, j);
        }
        for &d in &a[..n] {
            buf.extend_from_slice(format!("docs/{}/chunk-{}.md#L{}", d % 97, d, (d * 31) % 400 + 1).as_bytes());
            ends.push(buf.len() as u32);
        }
    }
    let (mut docs, mut first, mut slots) = (vec![0u32; ends.len()], Vec::new(), Vec::new());
    for _ in 0..5 {
        let t = std::time::Instant::now();
        let d = large_intern::intern(&buf, &ends, &mut docs, &mut first, &mut slots);
        println!("{} entries, {d} distinct, interned in {:?}", ends.len(), t.elapsed());
    }
}
