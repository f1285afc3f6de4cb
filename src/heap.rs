//! The wasm module's allocator: talc, with memory grown in steps of at least a quarter of its
//! current size.
//!
//! talc's own wasm source grows the memory by exactly what the failing allocation needs. Each
//! `memory.grow` replaces the JS `ArrayBuffer` over the memory and is reported to the JS
//! engine's garbage collector as new external memory, and V8 answers growth with full
//! collections: a first 100k-message builder run grew the memory ~700 times and ran ~700 full
//! garbage collections (several times slower than the same run once the memory had grown).
//! Growing by at least a quarter of the current size makes that a few dozen steps, at the cost
//! of at most a quarter of the memory held in reserve. (bench/README.md, "Cold and warm".)
//!
//! This is the crate's only unsafe code: implementing talc's `Source` means extending the heap
//! with memory the allocator is told it owns.
#![allow(unsafe_code)]

use core::alloc::Layout;
use core::arch::wasm32::{memory_grow, memory_size};
use core::ptr::NonNull;

use talc::base::binning::Binning;
use talc::base::{Talc, CHUNK_UNIT};
use talc::cell::TalcSyncCell;
use talc::source::Source;
use talc::wasm::WasmBinning;

/// A wasm page: 64 KiB.
const PAGE: usize = 64 * 1024;

/// The smallest growth, in pages (1 MiB).
const MIN_PAGES: usize = 16;

/// The global allocator type: talc with [`GrowGeometric`].
pub(crate) type Heap = TalcSyncCell<GrowGeometric, WasmBinning>;

/// The global allocator.
pub(crate) const fn new() -> Heap {
    TalcSyncCell::new_wasm(GrowGeometric { end: None })
}

/// talc's `WasmGrowAndExtend`, growing the memory by at least a quarter of its size (and at
/// least [`MIN_PAGES`]) instead of by exactly the pages the allocation needs; near the 4 GiB
/// limit, by what it needs.
#[derive(Debug)]
pub(crate) struct GrowGeometric {
    /// The end of the heap, once there is one.
    end: Option<NonNull<u8>>,
}

// SAFETY: `acquire` neither allocates nor touches the allocator it is called from other than
// through `talc`; it hands talc only memory just added by `memory.grow`, which nothing else in
// the module uses (Rust's stack and statics live below the initial memory size).
unsafe impl Source for GrowGeometric {
    fn acquire<B: Binning>(talc: &mut Talc<Self, B>, layout: Layout) -> Result<(), ()> {
        // What the allocation needs, with room for talc's chunk tag, tail and alignment (talc's
        // own computation is private; this bound is a little above it).
        let needed = layout.size() + 3 * CHUNK_UNIT + layout.align();
        let needed_pages = needed.div_ceil(PAGE);
        let wanted = needed_pages.max(memory_size(0) / 4).max(MIN_PAGES);
        let (previous, pages) = match memory_grow(0, wanted) {
            usize::MAX => match memory_grow(0, needed_pages) {
                usize::MAX => return Err(()),
                previous => (previous, needed_pages),
            },
            previous => (previous, wanted),
        };
        let base = (previous * PAGE) as *mut u8;
        let bytes = pages * PAGE;
        // Saturating: memory that reaches the end of the 32-bit address space (4 GiB) ends at
        // the last address instead of wrapping to null.
        let new_end = base.wrapping_add(bytes.min(usize::MAX - previous * PAGE));
        if let Some(old_end) = talc.source.end.take() {
            if old_end.as_ptr() == base {
                // SAFETY: `old_end` is this heap's end, and `base..new_end` was just added to
                // the memory by `memory.grow`: no one else uses it.
                talc.source.end = Some(unsafe { talc.extend(old_end, new_end) });
                return Ok(());
            }
        }
        // SAFETY: as above, `base..base + bytes` is fresh memory owned by no one else.
        talc.source.end = unsafe { talc.claim(base, bytes) };
        Ok(())
    }
}
