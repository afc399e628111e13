#!/usr/bin/env bash
# record_exec.sh [FILE.mlir ...]: records the expected stdout of execution
# fixtures from the REAL toolchain (mlir-opt + mlir-runner of LLVM 22, via
# /work/shared/tools/oracle.sh), never from mlir-interp. With no arguments,
# re-records every fixtures/exec/<dialect>/*.mlir. Writes FILE.mlir.out next
# to each input; a file the toolchain rejects is reported and left alone.
set -euo pipefail
cd "$(dirname "$0")/.."
oracle=${ORACLE:-/work/shared/tools/oracle.sh}
[[ -x $oracle ]] || { echo "record_exec: $oracle not found" >&2; exit 2; }
if (($# == 0)); then
  mapfile -t files < <(find fixtures/exec -name '*.mlir' | sort)
else
  files=("$@")
fi
status=0
for f in "${files[@]}"; do
  if grep -q '^// NO-ORACLE:' "$f"; then
    echo "skipped $f (its expected output is hand-derived, see the file)"
    continue
  fi
  tmp=$(mktemp)
  if "$oracle" "$f" >"$tmp" 2>"$tmp.err"; then
    mv "$tmp" "$f.out"
    echo "recorded $f.out"
  else
    echo "FAILED $f:" >&2
    cat "$tmp.err" >&2
    rm -f "$tmp"
    status=1
  fi
  rm -f "$tmp.err"
done
exit $status
