// The core module exports its function table (`__indirect_function_table`): js/core/held-texts.js
// puts the function that writes the held texts into one slot of it (see `host` in
// src/pipeline/texts.rs), so that the module imports nothing.
fn main() {
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo:rustc-cdylib-link-arg=--export-table");
    }
}
