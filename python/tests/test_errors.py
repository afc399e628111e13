"""Exceptions: one class per error kind, each with its location, op and
notes; limits; Ctrl-C interrupting a long run with KeyboardInterrupt."""

import os
import signal
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import mlir_interp as mi
from conftest import LOOP

OOB = """func.func @oob() -> f32 {
  %c4 = arith.constant 4 : index
  %m = memref.alloc() : memref<4xf32>
  %x = memref.load %m[%c4] : memref<4xf32>
  memref.dealloc %m : memref<4xf32>
  return %x : f32
}
"""


def test_out_of_bounds_load_is_undefined_behavior_at_its_line():
    with pytest.raises(mi.UndefinedBehavior) as e:
        mi.Interpreter(mi.Program.parse(OOB, "oob.mlir")).call("oob")
    err = e.value
    assert isinstance(err, mi.Error)
    assert (err.location.file, err.location.line, err.location.column) == ("oob.mlir", 4, 8)
    assert err.op == "memref.load"
    assert err.message == "undefined behavior: out-of-bounds load: index [4] outside memref<4xf32>"
    # The note: where the memory was allocated (line 3, the memref.alloc).
    assert len(err.notes) == 1 and err.notes[0].location.line == 3
    assert "memref.alloc" in err.notes[0].message
    assert str(err).startswith("oob.mlir:4:8: error: undefined behavior")


def test_division_by_zero():
    p = mi.Program.parse("func.func @d(%a: i32, %b: i32) -> i32 {\n  %q = arith.divsi %a, %b : i32\n  return %q : i32\n}\n")
    with pytest.raises(mi.UndefinedBehavior, match="division by zero") as e:
        mi.Interpreter(p).call("d", 1, 0)
    assert e.value.location.line == 2 and e.value.op == "arith.divsi"


def test_poison_observed_names_its_origin():
    p = mi.Program.parse(
        "func.func @f(%a: i8) -> i8 {\n"
        "  %c = arith.constant 8 : i8\n"
        "  %p = arith.shli %a, %c : i8\n"
        "  %b = arith.trunci %p : i8 to i1\n"
        "  cf.cond_br %b, ^t, ^f\n"
        "^t:\n  return %a : i8\n"
        "^f:\n  return %a : i8\n}\n"
    )
    with pytest.raises(mi.UndefinedBehavior) as e:
        mi.Interpreter(p).call("f", 1)
    # The branch observes the poison that the over-wide shift on line 3 made.
    assert e.value.location.line == 5
    assert [n.location.line for n in e.value.notes] == [3]


def test_invalid_ir_has_mlir_opts_location():
    with pytest.raises(mi.InvalidIR) as e:
        mi.Program.parse("func.func @f() {\n  %x = arith.addi %y, %y : i32\n  return\n}\n", "bad.mlir")
    # mlir-opt: "bad.mlir:2:19: error: use of undeclared SSA value name"
    assert (e.value.location.line, e.value.location.column) == (2, 19)
    assert "undeclared SSA value" in e.value.message


def test_verifier_errors_are_invalid_ir():
    with pytest.raises(mi.InvalidIR) as e:
        mi.Program.parse("func.func @f() -> i32 {\n  return\n}\n")
    assert e.value.location.line == 2


def test_from_file_of_a_missing_file():
    with pytest.raises(OSError):
        mi.Program.from_file("/nonexistent/x.mlir")


def test_unsupported_op_when_executed():
    p = mi.Program.parse('func.func @f() {\n  "foo.bar"() : () -> ()\n  return\n}\n')
    with pytest.raises(mi.Unsupported) as e:
        mi.Interpreter(p).call("f")
    assert e.value.location.line == 2 and e.value.op == "foo.bar"


def test_failed_assert_is_undefined_behavior_with_output():
    p = mi.Program.parse(
        "func.func @f(%c: i1) {\n  %one = arith.constant 1 : i32\n  vector.print %one : i32\n"
        '  cf.assert %c, "c must hold"\n  return\n}\n'
    )
    with pytest.raises(mi.UndefinedBehavior, match="c must hold") as e:
        mi.Interpreter(p).call("f", False)
    assert e.value.output == "1\n"
    assert e.value.location.line == 4




def test_max_steps():
    i = mi.Interpreter(mi.Program.parse(LOOP), max_steps=1000)
    assert i.call("spin", 10) == (10,)
    with pytest.raises(mi.LimitExceeded, match="step limit of 1000"):
        i.call("spin", 10**6)


def test_timeout():
    i = mi.Interpreter(mi.Program.parse(LOOP), timeout=0.05)
    with pytest.raises(mi.LimitExceeded, match="time limit"):
        i.call("spin", 10**12)


def test_max_memory():
    p = mi.Program.parse(
        "func.func @f() {\n  %m = memref.alloc() : memref<1000000xf64>\n  memref.dealloc %m : memref<1000000xf64>\n  return\n}\n"
    )
    mi.Interpreter(p).call("f")
    with pytest.raises(mi.LimitExceeded, match="memory limit") as e:
        mi.Interpreter(p, max_memory=1 << 20).call("f")
    assert e.value.location.line == 2


def test_call_depth():
    p = mi.Program.parse("func.func @f(%n: i64) -> i64 {\n  %r = func.call @f(%n) : (i64) -> i64\n  return %r : i64\n}\n")
    with pytest.raises(mi.LimitExceeded, match="call depth"):
        mi.Interpreter(p).call("f", 1)


def test_argument_errors():
    i = mi.Interpreter(mi.Program.parse(LOOP))
    with pytest.raises(mi.ArgumentError, match="no function named 'nope'"):
        i.call("nope")
    with pytest.raises(mi.ArgumentError, match="takes 1 argument"):
        i.call("spin")
    with pytest.raises(mi.ArgumentError, match="str"):
        i.call("spin", "ten")
    with pytest.raises(mi.ArgumentError, match="shape"):
        mi.Interpreter(mi.Program.parse(
            "func.func @f(%a: tensor<3xf32>) {\n  return\n}\n")).call("f", np.zeros(4, np.float32))


def test_the_classes_are_distinct():
    kinds = [mi.UndefinedBehavior, mi.InvalidIR, mi.Unsupported, mi.LimitExceeded, mi.InternalError, mi.ArgumentError]
    for k in kinds:
        assert issubclass(k, mi.Error)
        assert [o for o in kinds if issubclass(k, o)] == [k]
    # An interpreter bug is never undefined behaviour.
    assert not issubclass(mi.InternalError, mi.UndefinedBehavior)


def test_ctrl_c_interrupts_a_long_run():
    # A child process spins for hours; SIGINT must end it within seconds
    # with KeyboardInterrupt, as a pure-Python loop would.
    child = textwrap.dedent(
        f"""
        import sys, mlir_interp as mi
        i = mi.Interpreter(mi.Program.parse({LOOP!r}))
        print("ready", flush=True)
        try:
            i.call("spin", 10**15)
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            sys.exit(7)
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", child], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "ready"
        import time

        time.sleep(0.3)
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 7 and out.strip() == "interrupted"
