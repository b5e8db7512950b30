#!/usr/bin/env python3
"""What a module's bytes are spent on: twiggy's per-item sizes (of the cargo build, which
keeps the name section) summed by area. Usage: bench/wasm-breakdown.py FILE.wasm
(needs `cargo install twiggy`). The shipped module is this build after wasm-opt, which
strips the names and shrinks code by about a fifth; the shares carry over."""
import csv, collections, io, re, subprocess, sys

def area(name):
    n = re.sub(r"\[[0-9a-f]+\]", "", name)
    if "data segment" in n: return "data (strings, tables)"
    if "names" in n and "subsection" in n: return "name section (stripped in the package)"
    if "core::slice::sort" in n: return "std sort (one copy per comparator)"
    if "wasm_shared::decode" in n or "as Decode>" in n: return "configuration decoding (wasm/shared decode.rs)"
    if "wasm_shared::jsonw" in n or "as ToJson>" in n: return "result JSON (wasm/shared jsonw.rs)"
    if "serde" in n or "Deserialize" in n or "Visitor" in n or "Serialize" in n: return "serde (configuration decoding, result JSON)"
    if "flt2dec" in n or "fmt" in n or "zmij" in n or "ryu" in n or "dec2flt" in n: return "number formatting and parsing"
    if "dlmalloc" in n or "rdl_" in n or "raw_vec" in n: return "allocator"
    if "hashbrown" in n or "btree" in n.lower(): return "hash / B-tree maps"
    if n.startswith("calibrank_wasm_shared"): return "boundary (wasm/shared)"
    if n.startswith("calibrank_wasm_core") or n.startswith("calibrank_wasm_lab"): return "operations (wasm/core, wasm/lab)"
    m = re.match(r"^(?:<)?calibrank::(?:lab::)?(\w+)", n)
    if m: return "calibrank::" + m.group(1)
    if "unicode" in n or "lower" in n or "upper" in n: return "unicode tables and case mapping"
    if "libm" in n: return "libm"
    return "other (std, glue)"

out = subprocess.run(["twiggy", "top", "-n", "100000", "-f", "csv", sys.argv[1]], capture_output=True, text=True, check=True).stdout
sizes = collections.Counter()
total = 0
for r in csv.DictReader(io.StringIO(out)):
    sizes[area(r["Name"])] += int(r["ShallowSize"])
    total += int(r["ShallowSize"])
print(f"| area | bytes | share |\n|---|---:|---:|")
for k, v in sizes.most_common():
    print(f"| {k} | {v:,} | {100 * v / total:.1f} % |")
print(f"| total | {total:,} | |")
