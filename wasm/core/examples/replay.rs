//! Replays calls captured by `bench/capture.mjs` from the package's JavaScript (the bytes it writes before
//! `cr_call`) natively, for `valgrind --tool=callgrind`: the module's share of a call's
//! instructions, without the JavaScript around it.
//!   replay OP INPUT.bin CALLS [NEW_CONFIG.bin]...
//! Each NEW_CONFIG.bin (a captured PIPELINE_NEW input) makes a pipeline first, handles 1,
//! 2, ... in order, as in the process the calls were captured from. `REPLAY_TEXTS=FILE`:
//! the held texts the JavaScript's import answered with (cap-c1000-texts.bin).
//! Allocator: the system's, or the module's (`--features replay-dlmalloc`: dlmalloc, as
//! std uses on wasm32; `--features replay-cached`: with wasm/shared's cache in front, as
//! the module has it).
use calibrank_wasm_core::cr_call;
use calibrank_wasm_shared::native::{output, set_input};

#[cfg(all(feature = "replay-dlmalloc", not(feature = "replay-cached")))]
#[global_allocator]
static ALLOC: dlmalloc::GlobalDlmalloc = dlmalloc::GlobalDlmalloc;
#[cfg(feature = "replay-cached")]
#[global_allocator]
static ALLOC: calibrank_wasm_shared::alloc::Cached<dlmalloc::GlobalDlmalloc> =
    calibrank_wasm_shared::alloc::Cached::new(dlmalloc::GlobalDlmalloc);

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let op: u32 = args[1].parse().expect("OP");
    let input = std::fs::read(&args[2]).expect("INPUT.bin");
    let calls: usize = args[3].parse().expect("CALLS");
    for cfg in &args[4..] {
        let b = std::fs::read(cfg).expect("config");
        set_input(&b);
        cr_call(10, b.len() as u32);
        assert_eq!(output().0, 0, "PIPELINE_NEW failed");
    }
    if let Ok(f) = std::env::var("REPLAY_TEXTS") {
        calibrank_wasm_core::native::set_pool_texts(Some(std::fs::read(f).expect("REPLAY_TEXTS")));
    }
    for _ in 0..calls {
        set_input(&input);
        cr_call(op, input.len() as u32);
    }
    let (status, bytes) = output();
    eprintln!("status {status}, {} output bytes", bytes.len());
}
