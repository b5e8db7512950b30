//! The heap under the modules' allocator cache: dlmalloc, over wasm memory grown in
//! geometric steps.
//!
//! The standard library's allocator on `wasm32-unknown-unknown` is dlmalloc too, but it
//! grows the memory by what each request needs (64 KiB granularity): a call that builds
//! 100 MB of tables grows the memory some 1,700 times. Each `memory.grow` replaces the
//! memory's `ArrayBuffer` and tells the engine about more external memory, and V8 answers
//! with a full garbage collection of the JavaScript heap, whose cost is the caller's heap
//! size: with 300,000 hits in the caller's heap, the first `fuseMultiQuery` of them took
//! 9.2 s, of which 5.7 s were collections, against 2.0 s for the same call once the memory
//! had grown (docs/performance-history.md, "Growing the memory"). Here each growth takes at least
//! half of what the memory already has (at least 1 MiB), so reaching any size takes a few
//! dozen growths at most; when that step does not fit under the 4 GiB of wasm32, an
//! eighth of it is tried, then the exact request, before failing. Pages grown but not
//! used yet are not touched, so they cost no resident memory. (A columnar call, which
//! knows its document count before it starts, has the memory grown once for all its
//! tables instead: `make_room` in lib.rs. Doubling the memory at each growth was tried
//! and not kept: the memory could end at twice what a call needs, which a runtime that
//! caps an isolate's memory, Cloudflare Workers' 128 MB, counts.)

#[cfg(target_arch = "wasm32")]
pub use wasm::{Grow, Heap};

/// A wasm page.
pub const PAGE: usize = 64 * 1024;

/// The growths to try for a request of `want` pages when the memory has `have`: half of
/// it (at least 1 MiB), an eighth of it when that does not fit under 4 GiB, then the
/// request alone.
pub fn steps(want: usize, have: usize) -> [usize; 3] {
    [want.max(have / 2).max(16), want.max(have / 8), want]
}

#[cfg(target_arch = "wasm32")]
mod wasm {
    use super::{steps, PAGE};
    use core::arch::wasm32;
    use dlmalloc::{Allocator, Dlmalloc};
    use std::alloc::{GlobalAlloc, Layout};
    use std::cell::UnsafeCell;
    use std::ptr;

    /// dlmalloc's system allocator: wasm memory, grown by [`steps`].
    pub struct Grow;

    // SAFETY: hands dlmalloc fresh regions at the end of the memory, which nothing else
    // allocates from (the input and output buffers are the allocator's own blocks), and
    // releases nothing (wasm memory cannot shrink).
    #[allow(unsafe_code)]
    unsafe impl Allocator for Grow {
        fn alloc(&self, size: usize) -> (*mut u8, usize, u32) {
            let want = size.div_ceil(PAGE);
            let have = wasm32::memory_size(0);
            for pages in steps(want, have) {
                let prev = wasm32::memory_grow(0, pages);
                if prev != usize::MAX {
                    let base = prev * PAGE;
                    let bytes = pages * PAGE;
                    // The region may end at the top of the address space, where a pointer
                    // one past its end would wrap to 0: the last bytes are left out, as
                    // dlmalloc's own wasm system allocator does.
                    let bytes = if base.wrapping_add(bytes) == 0 {
                        bytes - 16
                    } else {
                        bytes
                    };
                    return (base as *mut u8, bytes, 0);
                }
            }
            (ptr::null_mut(), 0, 0)
        }

        fn remap(&self, _ptr: *mut u8, _old: usize, _new: usize, _can_move: bool) -> *mut u8 {
            ptr::null_mut()
        }

        fn free_part(&self, _ptr: *mut u8, _old: usize, _new: usize) -> bool {
            false
        }

        fn free(&self, _ptr: *mut u8, _size: usize) -> bool {
            false
        }

        fn can_release_part(&self, _flags: u32) -> bool {
            false
        }

        fn allocates_zeros(&self) -> bool {
            true
        }

        fn page_size(&self) -> usize {
            PAGE
        }
    }

    /// dlmalloc over [`Grow`], as a global allocator (under the cache of [`crate::alloc`]).
    pub struct Heap(UnsafeCell<Dlmalloc<Grow>>);

    impl Heap {
        /// An empty heap.
        pub const fn new() -> Self {
            Heap(UnsafeCell::new(Dlmalloc::new_with_allocator(Grow)))
        }
    }

    impl Default for Heap {
        fn default() -> Self {
            Self::new()
        }
    }

    // SAFETY: the modules are single-threaded (wasm32 without the `atomics` feature, where
    // lib.rs installs it), so the heap is never used from two threads.
    #[allow(unsafe_code)]
    unsafe impl Sync for Heap {}

    #[allow(unsafe_code)]
    unsafe impl GlobalAlloc for Heap {
        #[inline]
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            failed_if_null(
                (*self.0.get()).malloc(layout.size(), layout.align()),
                layout.size(),
            )
        }

        #[inline]
        unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
            (*self.0.get()).free(p, layout.size(), layout.align())
        }

        #[inline]
        unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
            failed_if_null(
                (*self.0.get()).calloc(layout.size(), layout.align()),
                layout.size(),
            )
        }

        #[inline]
        unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            failed_if_null(
                (*self.0.get()).realloc(p, layout.size(), layout.align(), new_size),
                new_size,
            )
        }
    }

    /// `p`, after noting a failed request of `bytes` when it is null (the caller then
    /// traps: `crate::out_of_memory`).
    #[inline]
    fn failed_if_null(p: *mut u8, bytes: usize) -> *mut u8 {
        if p.is_null() {
            crate::note_out_of_memory(bytes);
        }
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Growths until the memory holds `need` pages, one request of `chunk` pages at a
    /// time (as a growing vector or many tables ask), under a 4 GiB (65,536-page) memory.
    fn growths(need: usize, chunk: usize) -> (usize, usize) {
        let (mut have, mut free, mut count) = (17usize, 0usize, 0);
        let mut used = 0;
        while used < need {
            if free < chunk {
                let grown = steps(chunk, have)
                    .into_iter()
                    .find(|&p| have + p <= 65_536)
                    .expect("the request fits");
                have += grown;
                free += grown;
                count += 1;
            }
            free -= chunk;
            used += chunk;
        }
        (count, have)
    }

    #[test]
    fn any_size_is_reached_in_few_growths() {
        // 106 MiB in requests of one page: 1,700 growths before, a dozen now.
        let (count, have) = growths(1_700, 1);
        assert!(count <= 13, "{count} growths");
        assert!(have <= 17 + 2 * 1_700, "{have} pages for 1,700");
        // 3.5 GiB in 16 MiB requests: the geometric step stops fitting near the top and
        // the exact request takes over; never more than the address space.
        let (count, have) = growths(57_344, 256);
        assert!(count <= 40, "{count} growths");
        assert!(have <= 65_536);
    }

    #[test]
    fn the_step_is_half_the_memory_then_the_request() {
        assert_eq!(steps(1, 17), [16, 2, 1]);
        assert_eq!(steps(1, 1_000), [500, 125, 1]);
        assert_eq!(steps(3_000, 1_000), [3_000, 3_000, 3_000]);
    }
}
