//! Interning every entry's id in the module: open addressing over a 64-bit multiply hash
//! of 8-byte words, the table holding `(hash, distinct index + 1)` pairs; a hit compares
//! the bytes with the first occurrence's. What the package's `Map` interning was
//! measured against (README.md here).
#![allow(static_mut_refs, clippy::missing_safety_doc)]

/// `buf`: every entry's id in UTF-8, `ends[k]` the end of entry k. Writes `docs[k]`, the
/// distinct index of entry k, and `first`, the entry of each distinct id's first
/// occurrence; returns how many distinct ids there are.
pub fn intern(buf: &[u8], ends: &[u32], docs: &mut [u32], first: &mut Vec<u32>, slots: &mut Vec<u64>) -> usize {
    let n = ends.len();
    let size = (2 * n).max(8).next_power_of_two();
    slots.clear();
    slots.resize(size, 0);
    let mask = size - 1;
    first.clear();
    let mut start = 0usize;
    for k in 0..n {
        let end = ends[k] as usize;
        let id = &buf[start..end];
        let h = hash(id);
        let mut at = (h as usize) & mask;
        let d = loop {
            let s = slots[at];
            if s == 0 {
                let d = first.len() as u32;
                slots[at] = (u64::from(h) << 32) | u64::from(d + 1);
                first.push(k as u32);
                break d;
            }
            if (s >> 32) as u32 == h {
                let e = (s as u32 - 1) as usize;
                let fk = first[e] as usize;
                let fs = if fk == 0 { 0 } else { ends[fk - 1] as usize };
                if &buf[fs..ends[fk] as usize] == id {
                    break e as u32;
                }
            }
            at = (at + 1) & mask;
        };
        docs[k] = d;
        start = end;
    }
    first.len()
}

fn hash(b: &[u8]) -> u32 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h: u64 = K ^ (b.len() as u64);
    let mut words = b.chunks_exact(8);
    for w in &mut words {
        let x = u64::from_le_bytes(w.try_into().unwrap());
        h = (h ^ x).wrapping_mul(K);
        h ^= h >> 29;
    }
    let mut x = 0u64;
    for (i, &v) in words.remainder().iter().enumerate() {
        x |= u64::from(v) << (8 * i);
    }
    h = (h ^ x).wrapping_mul(K);
    (h ^ (h >> 32)) as u32
}

static mut BUF: Vec<u8> = Vec::new();
static mut ENDS: Vec<u32> = Vec::new();
static mut DOCS: Vec<u32> = Vec::new();
static mut FIRST: Vec<u32> = Vec::new();
static mut SLOTS: Vec<u64> = Vec::new();

/// Room for `nbytes` of ids and `n` entries.
#[no_mangle]
pub unsafe extern "C" fn alloc(nbytes: u32, n: u32) {
    BUF = vec![0; nbytes as usize];
    ENDS = vec![0; n as usize];
    DOCS = vec![0; n as usize];
}
#[no_mangle]
pub unsafe extern "C" fn buf_ptr() -> *mut u8 {
    BUF.as_mut_ptr()
}
#[no_mangle]
pub unsafe extern "C" fn ends_ptr() -> *mut u32 {
    ENDS.as_mut_ptr()
}
/// Interns the entries written at `buf_ptr` / `ends_ptr`; returns the distinct count.
#[no_mangle]
pub unsafe extern "C" fn run() -> u32 {
    intern(&BUF, &ENDS, &mut DOCS, &mut FIRST, &mut SLOTS) as u32
}
