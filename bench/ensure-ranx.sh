#!/usr/bin/env bash
# Prints the path of a Python that can `import ranx` (for the batch benchmark), setting
# one up if needed: python3 itself when ranx is installed (user site or system), else a
# venv in target/bench-venv with ranx 0.3.21 (the version the tests match). Logs go to
# stderr; prints nothing and exits 1 if ranx cannot be installed.
set -euo pipefail
cd "$(dirname "$0")/.."
if python3 -c 'import ranx' >/dev/null 2>&1; then
  command -v python3
  exit 0
fi
VENV=target/bench-venv
if [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c 'import ranx' >/dev/null 2>&1; then
  echo "$PWD/$VENV/bin/python"
  exit 0
fi
echo "[bench] installing ranx 0.3.21 into $VENV" >&2
python3 -m venv "$VENV" >&2
"$VENV/bin/pip" install --quiet ranx==0.3.21 >&2
echo "$PWD/$VENV/bin/python"
