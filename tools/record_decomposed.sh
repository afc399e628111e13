#!/usr/bin/env bash
# record_decomposed.sh FILE.mlir...: records FILE.mlir.out for execution
# fixtures that use the linalg ops no mlir-opt pass lowers (softmax,
# pack, unpack):
# LLVM 22's transform interpreter first decomposes
# them with tools/decompose_aggregates.transform.mlir (the op's own
# decomposeOperation), then /work/shared/tools/oracle.sh lowers and runs
# the result with the file's PIPELINE, as tools/record_exec.sh does for
# the others. Such fixtures carry `// NO-ORACLE:` naming this script, so
# the live re-check (which runs the PIPELINE alone) skips them.
set -euo pipefail
cd "$(dirname "$0")/.."
B=/usr/lib/llvm-22/bin
oracle=${ORACLE:-/work/shared/tools/oracle.sh}
lib=$PWD/tools/decompose_aggregates.transform.mlir
for f in "$@"; do
  tmp=$(mktemp --suffix=.mlir)
  grep '^// PIPELINE:' "$f" > "$tmp" || true
  "$B/mlir-opt" "$f" --transform-preload-library="transform-library-paths=$lib" --transform-interpreter >> "$tmp"
  "$oracle" "$tmp" > "$f.out"
  rm -f "$tmp"
  echo "recorded $f.out"
done
