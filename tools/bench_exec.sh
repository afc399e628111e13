#!/usr/bin/env bash
# bench_exec.sh: runs the execution benchmarks (fixtures/bench/*.mlir: call-,
# loop- and branch-heavy) on the release binary and reports executed ops per
# second. A benchmark, not a timed test: numbers depend on the machine.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p mlir-interp >/dev/null
for f in fixtures/bench/*.mlir; do
  printf '%-32s ' "$f"
  target/release/mlir-interp run --stats "$f" 2>&1 >/dev/null | sed 's/^mlir-interp: //'
done
