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
//! The lists are not synchronized: a `Cached` must only be used by one thread. The
//! modules are single-threaded (`wasm32-unknown-unknown` without the `atomics` feature
//! has no threads), which is where `lib.rs` installs it; natively, only the
//! single-threaded replay example (`wasm/core/examples/replay.rs`) and the tests use it.

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

// SAFETY: used from one thread only (see the module docs: the modules' wasm32 without
// atomics, the single-threaded replay example, one value per test).
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
                // SAFETY: `realloc`'s contract: `new_size` > 0 and, rounded up to
                // `layout.align()` (a power of two), does not overflow isize.
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
    use std::cell::{Cell, RefCell};
    use std::collections::HashMap;

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

    /// An inner allocator that checks its caller: every block is freed with the layout
    /// it was made with, and nothing is freed twice or leaked. Its blocks of alignment
    /// up to 8 are 8-aligned and never 16-aligned (dlmalloc on wasm32 guarantees 8 only;
    /// the system allocator here would hide a cache relying on more).
    #[derive(Default)]
    struct Checked {
        live: RefCell<HashMap<usize, Layout>>,
        /// Blocks of a class's layout freed (only the cache frees those: beyond CAP).
        class_frees: Cell<usize>,
    }

    /// The system allocation behind a block of `layout`: 16 bytes more, so that the
    /// block can start 8 bytes past a 16-aligned address.
    fn under(layout: Layout) -> Layout {
        Layout::from_size_align(layout.size() + 16, layout.align().max(16)).unwrap()
    }

    #[allow(unsafe_code)]
    unsafe impl GlobalAlloc for Checked {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            let base = System.alloc(under(layout));
            assert!(!base.is_null());
            // 8 past a 16-aligned address: 8-aligned, never 16-aligned.
            let p = if layout.align() <= 8 {
                base.add(8)
            } else {
                base
            };
            assert!(self.live.borrow_mut().insert(p as usize, layout).is_none());
            p
        }

        unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
            let made = self.live.borrow_mut().remove(&(p as usize));
            assert_eq!(made, Some(layout), "freed with another layout, or twice");
            let base = if layout.align() <= 8 { p.sub(8) } else { p };
            System.dealloc(base, under(layout));
            if layout.align() == ALIGN && layout.size() <= 512 && layout.size().is_power_of_two() {
                self.class_frees.set(self.class_frees.get() + 1);
            }
        }
    }

    fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
        move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        }
    }

    /// Random allocations, frees and reallocs through the cache: every block keeps its
    /// bytes and its alignment, no two live blocks overlap, the lists never hold more
    /// than CAP, and the inner allocator sees each of its blocks freed once, with the
    /// layout it was made with (checked by `Checked`).
    #[test]
    #[allow(unsafe_code)]
    fn blocks_keep_their_bytes_and_never_overlap() {
        let a = Cached::new(Checked::default());
        let mut next = xorshift(0x2545_f491_4f6c_dd1d);
        let mut live: Vec<(*mut u8, Layout, u8)> = Vec::new();
        let mut full = false;
        for step in 0..40_000u32 {
            let r = next();
            // Up to 600 live blocks for most of the run; between steps 20,000 and 24,000
            // up to 3,000, then back down, so that each class's list overflows CAP.
            let most = if (20_000..24_000).contains(&step) {
                3_000
            } else {
                600
            };
            let grow = if (20_000..24_000).contains(&step) {
                r % 8 != 0
            } else {
                r % 3 != 0
            };
            if live.len() < most && (grow || live.is_empty()) {
                let size = 1 + (next() % 700) as usize;
                let align = 1 << (next() % 5);
                let layout = Layout::from_size_align(size, align).unwrap();
                let zeroed = r % 7 == 0;
                let p = unsafe {
                    if zeroed {
                        a.alloc_zeroed(layout)
                    } else {
                        a.alloc(layout)
                    }
                };
                assert!(!p.is_null());
                assert_eq!(p as usize % align, 0);
                if zeroed {
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
                    assert_eq!(q as usize % layout.align(), 0);
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
            if step % 500 == 0 || step == 24_000 {
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
                full |= lists.count.contains(&CAP);
            }
        }
        assert!(full, "no list reached CAP");
        assert!(
            a.inner.class_frees.get() > 100,
            "blocks beyond CAP went back to the inner allocator: {}",
            a.inner.class_frees.get()
        );
        for (p, layout, _) in live {
            unsafe { a.dealloc(p, layout) };
        }
        // Drain the lists back to the inner allocator: then nothing is left alive there.
        let lists = unsafe { &mut *a.lists.get() };
        for c in 0..CLASSES {
            let mut h = lists.head[c];
            let mut n = 0;
            while !h.is_null() {
                let next = unsafe { *(h as *mut *mut u8) };
                unsafe { a.inner.dealloc(h, block(c)) };
                h = next;
                n += 1;
            }
            assert_eq!(n, lists.count[c]);
        }
        assert!(
            a.inner.live.borrow().is_empty(),
            "leaked: {:?}",
            a.inner.live.borrow().len()
        );
    }
}
