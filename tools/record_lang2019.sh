#!/usr/bin/env bash
# record_lang2019.sh [FILE.mlir ...]: records the expected stdout of the
# 2019-language programs in fixtures/lang2019 from the REAL toolchain:
# mlir-interp translates each program to today's syntax
# (`print --lang 2019 --generic`), and that text runs through mlir-opt +
# mlir-runner of LLVM 22 (/work/shared/tools/oracle.sh). mlir-interp's own
# execution never writes a recording. With no arguments, re-records every
# fixtures/lang2019/*.mlir; files marked `// NO-ORACLE:` are skipped (their
# .out is derived by hand, as the file explains). Needs a release build.
set -euo pipefail
cd "$(dirname "$0")/.."
oracle=${ORACLE:-/work/shared/tools/oracle.sh}
interp=${MLIR_INTERP:-target/release/mlir-interp}
[[ -x $oracle ]] || { echo "record_lang2019: $oracle not found" >&2; exit 2; }
[[ -x $interp ]] || { echo "record_lang2019: build $interp first" >&2; exit 2; }
if (($# == 0)); then
  mapfile -t files < <(find fixtures/lang2019 -name '*.mlir' | sort)
else
  files=("$@")
fi
status=0
for f in "${files[@]}"; do
  if grep -q '^// NO-ORACLE:' "$f"; then
    echo "skipped $f (its expected output is hand-derived, see the file)"
    continue
  fi
  modern=$(mktemp --suffix=.mlir)
  out=$(mktemp)
  # oracle.sh reads PIPELINE/ENTRY directives from the file it runs.
  grep -E '^// (PIPELINE|ENTRY):' "$f" >"$modern" || true
  if "$interp" print --lang 2019 --generic "$f" >>"$modern" && "$oracle" "$modern" >"$out"; then
    mv "$out" "$f.out"
    echo "recorded $f.out"
  else
    echo "FAILED $f" >&2
    rm -f "$out"
    status=1
  fi
  rm -f "$modern"
done
exit $status
