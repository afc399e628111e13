#!/usr/bin/env bash
# record_tosa.sh [FILE.mlir ...]: records the expected results of tosa
# fixtures from ARM's TOSA reference model (the specification's executable,
# PyPI tosa-tools, through /work/shared/tools/tosa_ref.sh), never from
# mlir-interp. Each FILE.mlir has a `@main` without arguments returning
# tensors; its results go to FILE.mlir.ref/result_N.npy. With no arguments,
# re-records every fixtures/tosa/*.mlir. A fixture the reference model
# calls UNPREDICTABLE (a failed REQUIRE) belongs in fixtures/ub instead.
# Needs TOSA_VENV (default: .tosa-venv at the repo root) holding tosa-tools.
set -euo pipefail
cd "$(dirname "$0")/.."
export TOSA_VENV=${TOSA_VENV:-$PWD/.tosa-venv}
ref=${TOSA_REF:-/work/shared/tools/tosa_ref.sh}
if (($# == 0)); then
  mapfile -t files < <(find fixtures/tosa -name '*.mlir' | sort)
else
  files=("$@")
fi
status=0
for f in "${files[@]}"; do
  tmp=$(mktemp -d)
  if "$ref" "$f" "$tmp" >/dev/null 2>"$tmp/err"; then
    rm -rf "$f.ref" && mkdir -p "$f.ref"
    cp "$tmp"/result_*.npy "$f.ref/"
    echo "recorded $f.ref"
  else
    echo "FAILED $f:" >&2
    cat "$tmp/err" >&2
    grep -E "REQUIRE|ERROR_IF|Graph result" "$tmp/ref.log" >&2 || true
    status=1
  fi
  rm -rf "$tmp"
done
exit $status
