#!/usr/bin/env python3
"""Mutation testing of the package's JavaScript: each mutant of js-mutants.py is applied
to a copy of the built package (one text replaced in one bundle), the JS suite
(tests/js/suite.js, what every runtime runs) is run on it, and the copy restored.
Prints each mutant killed or survived; exits 1 if a mutant not listed as equivalent
survives, 2 if one no longer applies (its code moved: update the list).
  python3 scripts/mutants/js.py [PKG_DIR] [ID ...]      (about 1 s a mutant)"""
import os, shutil, subprocess, sys, tempfile

here = os.path.dirname(os.path.abspath(__file__))
ns = {}
exec(open(os.path.join(here, "js-mutants.py")).read(), ns)
args = sys.argv[1:]
pkg = args.pop(0) if args and os.path.isdir(args[0]) else os.path.join(here, "..", "..", "pkg")
only = set(args)
work = tempfile.mkdtemp(prefix="calibrank-mutants-")
copy = os.path.join(work, "pkg")
shutil.copytree(pkg, copy)
survived, stale = [], []
try:
    for mid, f, src, old, new, desc in ns["M"]:
        if only and mid not in only:
            continue
        path = os.path.join(copy, f)
        text = open(os.path.join(pkg, f)).read()
        if text.count(old) != 1:
            stale.append(mid)
            print(f"{mid} STALE ({text.count(old)} matches in {f}): {desc}")
            continue
        open(path, "w").write(text.replace(old, new))
        try:
            p = subprocess.run(["node", "--allow-natives-syntax", os.path.join(here, "js-run.mjs"), copy], capture_output=True, text=True, timeout=600)
            killed = p.returncode != 0
            fails = [l[6:] for l in p.stdout.splitlines() if l.startswith("FAIL: ")]
        finally:
            shutil.copyfile(os.path.join(pkg, f), path)
        eq = mid in ns["EQUIVALENT"]
        verdict = "killed" if killed else ("equivalent" if eq else "SURVIVED")
        if not killed and not eq:
            survived.append(mid)
        print(f"{mid} {verdict}: {desc} ({src})" + (f" by: {fails[0]}" if fails else ""))
finally:
    shutil.rmtree(work)
print(f"survived: {survived or 'none'}; stale: {stale or 'none'}")
sys.exit(1 if survived else 2 if stale else 0)
