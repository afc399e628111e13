#!/usr/bin/env bash
# fuzz.sh TARGET SECONDS [JOBS]: runs one cargo-fuzz target (parse,
# roundtrip, run) for SECONDS with a fixed seed, its corpus seeded from every
# .mlir under fixtures/ and the MLIR token dictionary. Needs nightly Rust and
# cargo-fuzz (`cargo install cargo-fuzz`). FUZZ_SEED picks libFuzzer's seed
# (default 1). A crash leaves its input under
# fuzz/artifacts/TARGET/ and exits non-zero; turn it into a regression
# fixture (fixtures/fuzz/, run by interp/tests/hostile.rs).
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: fuzz.sh parse|roundtrip|run SECONDS}
secs=${2:-60}
corpus=fuzz/corpus/$target
mkdir -p "$corpus"
# Seeds: every fixture, plus the regression inputs of earlier crashes.
find fixtures -name '*.mlir' -size -64k | while read -r f; do
  cp "$f" "$corpus/seed-$(echo "$f" | tr '/' '_')"
done
cargo +nightly fuzz build --release "$target"
cargo +nightly fuzz run --release "$target" "$corpus" -- \
  -dict=fuzz/dict/mlir.dict -seed="${FUZZ_SEED:-1}" -max_total_time="$secs" -max_len=65536 \
  -rss_limit_mb=4096 -timeout=30 -print_final_stats=1
