"""Shared helpers: the reference toolchain (LLVM 22's mlir-opt and
mlir-runner), which the passcheck and diff tests need; under CI=true a
missing toolchain fails instead of skipping, as the Rust suites do."""

import os
import pathlib

import pytest

MLIR_OPT = pathlib.Path(os.environ.get("MLIR_OPT", "/usr/lib/llvm-22/bin/mlir-opt"))
REPO = pathlib.Path(__file__).resolve().parents[2]


def need_llvm():
    """Skips (or fails under CI) when mlir-opt 22 is absent."""
    if MLIR_OPT.exists():
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"{MLIR_OPT} not found (CI must run these tests)")
    pytest.skip(f"{MLIR_OPT} not found")

# Counts to %n one addi at a time: a run as long as its argument asks.
LOOP = """func.func @spin(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %c0) -> (index) {
    %b = arith.addi %a, %c1 : index
    scf.yield %b : index
  }
  return %r : index
}
"""
