//! The modules' global allocator: a small cache of freed blocks in front of the system
//! allocator (dlmalloc on `wasm32-unknown-unknown`).
//!
//! A call makes and frees a few dozen small vectors (the input's tables, the stages'
//! scores and orders, the output's sections); dlmalloc's bins cost about a hundred
//! instructions per `malloc` and as many per `free`, which at N = 10 is a tenth of a
//! call. A freed block of up to 512 bytes (alignment up to 8) goes on a list of its size
//! class (16, 32, ... 512 bytes) and is handed out again by the next allocation of that
//! class, a few instructions each way. Each list keeps at most [`CAP`] blocks; beyond
//! that, blocks go back to dlmalloc, so at most about 258 KB are held back from it.
//!
//! The module is single-threaded (`wasm32-unknown-unknown` has no threads), which is what
//! makes the lists' unsynchronized state sound; the allocator is installed only there.

use std::alloc::{GlobalAlloc, Layout};
use std::cell::UnsafeCell;
use std::ptr;

/// Size classes: 16 << c bytes, c in 0..CLASSES.
const CLASSES: usize = 6;
/// Blocks kept per class.
pub const CAP: u32 = 256;
/// The alignment every cached block has (dlmalloc's own on wasm32).
const ALIGN: usize = 8;

/// The class of a layout the cache serves, if any.
#[inline]
fn class(size: usize, align: usize) -> Option<usize> {
    if align > ALIGN || size > 16 << (CLASSES - 1) {
        return None;
    }
    let s = size.max(16);
    // 16 -> 0, 17..=32 -> 1, ..., 257..=512 -> 5.
    Some((usize::BITS - (s - 1).leading_zeros()) as usize - 4)
}

struct Lists {
    head: [*mut u8; CLASSES],
    count: [u32; CLASSES],
}

/// The cache over an inner allocator `A`.
pub struct Cached<A> {
    inner: A,
    lists: UnsafeCell<Lists>,
}

impl<A> Cached<A> {
    /// An empty cache over `inner`.
    pub const fn new(inner: A) -> Self {
        Cached {
            inner,
            lists: UnsafeCell::new(Lists {
                head: [ptr::null_mut(); CLASSES],
                count: [0; CLASSES],
            }),
        }
    }
}

// SAFETY: installed only on single-threaded wasm32 (see the module docs); the native
// tests use one value per thread.
#[allow(unsafe_code)]
unsafe impl<A: Sync> Sync for Cached<A> {}

/// The layout a block of class `c` has in the inner allocator.
#[allow(unsafe_code)]
#[inline]
fn block(c: usize) -> Layout {
    // SAFETY: 16 << c is a multiple of ALIGN, a power of two, and far below isize::MAX.
    unsafe { Layout::from_size_align_unchecked(16 << c, ALIGN) }
}

#[allow(unsafe_code)]
unsafe impl<A: GlobalAlloc> GlobalAlloc for Cached<A> {
    #[inline(never)]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let Some(c) = class(layout.size(), layout.align()) else {
            return self.inner.alloc(layout);
        };
        let lists = &mut *self.lists.get();
        let head = lists.head[c];
        if head.is_null() {
            return self.inner.alloc(block(c));
        }
        // A free block's first word links to the next one.
        lists.head[c] = *(head as *mut *mut u8);
        lists.count[c] -= 1;
        head
    }

    #[inline(never)]
    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        let Some(c) = class(layout.size(), layout.align()) else {
            return self.inner.dealloc(p, layout);
        };
        let lists = &mut *self.lists.get();
        if lists.count[c] >= CAP {
            return self.inner.dealloc(p, block(c));
        }
        *(p as *mut *mut u8) = lists.head[c];
        lists.head[c] = p;
        lists.count[c] += 1;
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if class(layout.size(), layout.align()).is_none() {
            return self.inner.alloc_zeroed(layout);
        }
        let p = self.alloc(layout);
        if !p.is_null() {
            ptr::write_bytes(p, 0, layout.size());
        }
        p
    }

    unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let old = class(layout.size(), layout.align());
        let new = class(new_size, layout.align());
        match (old, new) {
            (None, None) => self.inner.realloc(p, layout, new_size),
            (Some(a), Some(b)) if a == b => p,
            _ => {
                let new_layout = Layout::from_size_align_unchecked(new_size, layout.align());
                let q = self.alloc(new_layout);
                if !q.is_null() {
                    ptr::copy_nonoverlapping(p, q, layout.size().min(new_size));
                    self.dealloc(p, layout);
                }
                q
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::alloc::System;

    #[test]
    fn classes_cover_their_sizes() {
        assert_eq!(class(1, 1), Some(0));
        assert_eq!(class(16, 8), Some(0));
        assert_eq!(class(17, 8), Some(1));
        assert_eq!(class(32, 4), Some(1));
        assert_eq!(class(33, 8), Some(2));
        assert_eq!(class(512, 8), Some(5));
        assert_eq!(class(513, 8), None);
        assert_eq!(class(16, 16), None);
        for size in 1..=512 {
            let c = class(size, 8).unwrap();
            assert!(
                16 << c >= size && (c == 0 || 16 << (c - 1) < size),
                "size {size}"
            );
        }
    }

    /// Random allocations, frees and reallocs through the cache: every block keeps its
    /// bytes, no two live blocks overlap, and the lists never hold more than CAP.
    #[test]
    #[allow(unsafe_code)]
    fn blocks_keep_their_bytes_and_never_overlap() {
        let a = Cached::new(System);
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut live: Vec<(*mut u8, Layout, u8)> = Vec::new();
        for step in 0..20_000u32 {
            let r = next();
            if live.len() < 600 && (r % 3 != 0 || live.is_empty()) {
                let size = 1 + (next() % 700) as usize;
                let align = 1 << (next() % 5);
                let layout = Layout::from_size_align(size, align).unwrap();
                let p = unsafe {
                    if r % 7 == 0 {
                        a.alloc_zeroed(layout)
                    } else {
                        a.alloc(layout)
                    }
                };
                assert!(!p.is_null());
                assert_eq!(p as usize % align, 0);
                if r % 7 == 0 {
                    assert!(unsafe { std::slice::from_raw_parts(p, size) }
                        .iter()
                        .all(|&b| b == 0));
                }
                let tag = step as u8;
                unsafe { ptr::write_bytes(p, tag, size) };
                live.push((p, layout, tag));
            } else {
                let i = (next() % live.len() as u64) as usize;
                let (p, layout, tag) = live.swap_remove(i);
                assert!(unsafe { std::slice::from_raw_parts(p, layout.size()) }
                    .iter()
                    .all(|&b| b == tag));
                if r % 5 == 0 {
                    let new_size = 1 + (next() % 700) as usize;
                    let q = unsafe { a.realloc(p, layout, new_size) };
                    assert!(!q.is_null());
                    let kept = layout.size().min(new_size);
                    assert!(unsafe { std::slice::from_raw_parts(q, kept) }
                        .iter()
                        .all(|&b| b == tag));
                    let nl = Layout::from_size_align(new_size, layout.align()).unwrap();
                    unsafe { ptr::write_bytes(q, tag, new_size) };
                    live.push((q, nl, tag));
                } else {
                    unsafe { a.dealloc(p, layout) };
                }
            }
            // No two live blocks overlap.
            if step % 500 == 0 {
                let mut spans: Vec<(usize, usize)> = live
                    .iter()
                    .map(|&(p, l, _)| (p as usize, p as usize + l.size()))
                    .collect();
                spans.sort_unstable();
                assert!(
                    spans.windows(2).all(|w| w[0].1 <= w[1].0),
                    "overlapping blocks at step {step}"
                );
                let lists = unsafe { &*a.lists.get() };
                assert!(lists.count.iter().all(|&n| n <= CAP));
            }
        }
        for (p, layout, _) in live {
            unsafe { a.dealloc(p, layout) };
        }
        // Drain the lists back to the system allocator.
        let lists = unsafe { &mut *a.lists.get() };
        for c in 0..CLASSES {
            let mut h = lists.head[c];
            let mut n = 0;
            while !h.is_null() {
                let next = unsafe { *(h as *mut *mut u8) };
                unsafe { System.dealloc(h, block(c)) };
                h = next;
                n += 1;
            }
            assert_eq!(n, lists.count[c]);
        }
    }
}
