"""passcheck and diff verdicts. The deliberately wrong optimizer is a
`sed` command (runs anywhere); the rest use LLVM 22's mlir-opt and
mlir-runner, including a real miscompile from fixtures/found/."""

import pytest

import mlir_interp as mi
from conftest import REPO, need_llvm

ADD = """func.func @f(%a: i32, %b: i32) -> i32 {
  %s = arith.addi %a, %b : i32
  return %s : i32
}
"""

DIV = """func.func @f(%a: i32, %b: i32) -> i32 {
  %q = arith.divsi %a, %b : i32
  return %q : i32
}
"""


def test_a_wrong_optimizer_is_a_miscompile():
    # "Optimizes" a + b into a - b: on 5 and 2, 7 becomes 3.
    r = mi.passcheck(ADD, opt="sed s/arith.addi/arith.subi/ {file}", entry="f", args=["5", "2"])
    assert r.miscompiled
    (v,) = r.verdicts
    assert v.kind == "miscompile" and v.args == ["5", "2"]
    assert "7" in v.reason and "3" in v.reason
    assert r.first_miscompile.kind == "miscompile"


def test_an_identity_optimizer_keeps_the_meaning_on_random_inputs():
    r = mi.passcheck(ADD, opt="cat {file}", entry="f", inputs=5)
    assert not r.miscompiled
    assert [v.kind for v in r.verdicts] == ["same"] * 5
    assert r.summary == "5 same"


def test_undefined_source_is_refined_by_anything():
    # The source divides by zero: whatever the target does refines it.
    r = mi.passcheck(DIV, opt="sed s/arith.divsi/arith.addi/ {file}", entry="f", args=["1", "0"])
    assert [v.kind for v in r.verdicts] == ["refines"]
    assert "division by zero" in r.verdicts[0].reason


def test_canonicalize_keeps_the_meaning():
    need_llvm()
    r = mi.passcheck(ADD, passes="canonicalize,cse", entry="f", inputs=4)
    assert not r.miscompiled and len(r.verdicts) == 4


def test_a_miscompile_found_in_llvm_22():
    # math-expand-ops makes ceil(-0.5) return +0.0 instead of -0.0; the
    # file's main prints -0 before the pass and 0 after it.
    need_llvm()
    path = REPO / "fixtures/found/math_expand_ceil_signed_zero.mlir"
    r = mi.passcheck(path, passes="math-expand-ops")
    assert r.miscompiled
    v = r.first_miscompile
    assert v.source_output == "-0\n"
    assert "-0" in v.reason


def test_diff_against_mlir_runner():
    need_llvm()
    text = "func.func @main() {\n  %a = arith.constant 41 : i32\n  %b = arith.constant 1 : i32\n" \
        "  %s = arith.addi %a, %b : i32\n  vector.print %s : i32\n  return\n}\n"
    r = mi.diff(text)
    assert r.verdict == "same" and r.first_difference is None
    assert r.interp_output == r.runner_output == "42\n"


def test_diff_of_an_undefined_program_compares_nothing():
    need_llvm()
    text = "func.func @main() {\n  %a = arith.constant 1 : i32\n  %z = arith.constant 0 : i32\n" \
        "  %q = arith.divsi %a, %z : i32\n  vector.print %q : i32\n  return\n}\n"
    r = mi.diff(text)
    assert r.verdict == "undefined"
    assert "division by zero" in r.interp_error
