#!/usr/bin/env bash
# record_mutants.sh: writes fixtures/mutants/*.mlir, the generic form that
# mlir-opt (LLVM 22) prints for a set of execution fixtures, so that every
# inherent attribute sits in a `<{...}>` property dictionary. They are the
# inputs of interp/tests/mutants.rs, which drops or replaces each property
# and checks that no mutant reaches an engine invariant; they hold no
# expected output.
set -euo pipefail
cd "$(dirname "$0")/.."
opt=${MLIR_OPT:-/usr/lib/llvm-22/bin/mlir-opt}
sources=(
  affine/loops_and_maps affine/translated_maps memref/views memref/affine_layouts memref/dma
  memref/expand_rank0 tensor/shapes tensor/forall tensor/gather_scatter vector/transfer
  vector/extract_insert vector/shuffle_transpose vector/mask_ops vector/contract llvm/llvm_call
  llvm/struct_global arith/cmpi_all arith/float_ops index/index_ops bufferization/clone_dealloc
  scf/forall scf/parallel
  linalg/contractions linalg/pack_unpack linalg/tensor_ops llvm/memory_ops llvm/gather_scatter
  llvm/translated_scalars llvm/intrinsics llvm/vector_ops
)
for s in "${sources[@]}"; do
  src=fixtures/exec/$s.mlir
  [[ -f $src ]] || { echo "record_mutants: no $src" >&2; exit 2; }
  out=fixtures/mutants/$(echo "$s" | tr / _).mlir
  { echo "// Generic form of $src, printed by mlir-opt 22 (tools/record_mutants.sh)."
    "$opt" --mlir-print-op-generic "$src"; } >"$out"
  echo "recorded $out"
done
