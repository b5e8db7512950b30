//! Writes the golden vectors: `cargo run --example golden > tests/golden/vectors.json`.
fn main() {
    match calibrank::lab::golden::generate() {
        Ok(v) => println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default()),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
