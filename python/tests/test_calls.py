"""Calls with numpy arrays: linalg against numpy's own results, memrefs
lent in place, memref results, printed output, the observer, and the GIL
released while the engine runs."""

import threading
import time

import numpy as np
import pytest

import mlir_interp as mi
from conftest import LOOP, REPO

LINALG = """
#id = affine_map<(i, j) -> (i, j)>
func.func @matmul(%a: tensor<4x3xf64>, %b: tensor<3x5xf64>) -> tensor<4x5xf64> {
  %z = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<4x5xf64>
  %f = linalg.fill ins(%z : f64) outs(%e : tensor<4x5xf64>) -> tensor<4x5xf64>
  %r = linalg.matmul ins(%a, %b : tensor<4x3xf64>, tensor<3x5xf64>) outs(%f : tensor<4x5xf64>) -> tensor<4x5xf64>
  return %r : tensor<4x5xf64>
}
func.func @add(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
func.func @imatmul(%a: tensor<2x2xi32>, %b: tensor<2x2xi32>, %c: tensor<2x2xi32>) -> tensor<2x2xi32> {
  %r = linalg.matmul ins(%a, %b : tensor<2x2xi32>, tensor<2x2xi32>) outs(%c : tensor<2x2xi32>) -> tensor<2x2xi32>
  return %r : tensor<2x2xi32>
}
"""


@pytest.fixture(scope="module")
def linalg():
    return mi.Interpreter(mi.Program.parse(LINALG, "linalg.mlir"))


def test_matmul_equals_numpy(linalg):
    # Small integers in f64: every product and sum is exact, so the order
    # of accumulation cannot matter and numpy's result is the reference.
    rng = np.random.default_rng(1)
    a = rng.integers(-50, 50, (4, 3)).astype(np.float64)
    b = rng.integers(-50, 50, (3, 5)).astype(np.float64)
    (c,) = linalg.call("matmul", a, b)
    assert c.dtype == np.float64 and c.shape == (4, 5)
    assert np.array_equal(c, a @ b)


def test_elementwise_add_is_bit_exact(linalg):
    # One rounding per element, as numpy does it.
    rng = np.random.default_rng(2)
    a = rng.standard_normal((8, 8)).astype(np.float32)
    b = rng.standard_normal((8, 8)).astype(np.float32)
    (c,) = linalg.call("add", a, b)
    assert c.tobytes() == (a + b).tobytes()


def test_integer_matmul_accumulates_into_its_init(linalg):
    a = np.array([[1, 2], [3, 4]], dtype=np.int32)
    c0 = np.array([[10, 20], [30, 40]], dtype=np.int32)
    (c,) = linalg.call("imatmul", a, a, c0)
    assert c.tolist() == (a @ a + c0).tolist()
    assert c0.tolist() == [[10, 20], [30, 40]], "a tensor argument is copied"


def test_tensor_arguments_may_be_views(linalg):
    big = np.arange(64, dtype=np.float32).reshape(8, 8)
    (c,) = linalg.call("add", big.T, big[::-1])
    assert np.array_equal(c, big.T + big[::-1])


SCALE = """
func.func @scale(%m: memref<4xf32>, %k: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %x = memref.load %m[%i] : memref<4xf32>
    %y = arith.mulf %x, %k : f32
    memref.store %y, %m[%i] : memref<4xf32>
  }
  return
}
func.func @iota() -> memref<3xi64> {
  %m = memref.alloc() : memref<3xi64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %c3 step %c1 {
    %v = arith.index_cast %i : index to i64
    memref.store %v, %m[%i] : memref<3xi64>
  }
  return %m : memref<3xi64>
}
func.func @sum2(%a: memref<4xf32>, %b: memref<4xf32>) {
  return
}
func.func @strided(%m: memref<2x2xf32, strided<[4, 2]>>) -> f32 {
  %c1 = arith.constant 1 : index
  %x = memref.load %m[%c1, %c1] : memref<2x2xf32, strided<[4, 2]>>
  return %x : f32
}
"""


@pytest.fixture(scope="module")
def memrefs():
    return mi.Interpreter(mi.Program.parse(SCALE, "scale.mlir"))


def test_memref_is_lent_in_place(memrefs):
    a = np.array([1, 2, 3, 4], dtype=np.float32)
    assert memrefs.call("scale", a, 2.5) == ()
    assert a.tolist() == [2.5, 5.0, 7.5, 10.0]


def test_read_only_array_is_lent_read_only(memrefs):
    a = np.array([1, 2, 3, 4], dtype=np.float32)
    a.flags.writeable = False
    with pytest.raises(mi.UndefinedBehavior) as e:
        memrefs.call("scale", a, 2.0)
    assert e.value.op == "memref.store" and e.value.location.line == 9
    assert a.tolist() == [1, 2, 3, 4]


def test_memref_result_comes_back_as_an_array(memrefs):
    (m,) = memrefs.call("iota")
    assert m.dtype == np.int64 and m.tolist() == [0, 1, 2]


def test_one_array_lent_twice_is_refused(memrefs):
    a = np.zeros(4, dtype=np.float32)
    with pytest.raises(mi.ArgumentError, match="cannot be lent"):
        memrefs.call("sum2", a, a)


def test_strided_view_lent_to_strided_memref(memrefs):
    # Every other column of a 4x4 array steps [8, 2] elements, not the
    # [4, 2] that @strided declares: refused. Of a 2x4 array it steps
    # [4, 2]: element [1, 1] is base[1, 2] = 6.
    base = np.arange(16, dtype=np.float32).reshape(4, 4)
    view = base[::2, ::2]
    with pytest.raises(mi.ArgumentError):
        memrefs.call("strided", view)
    base = np.arange(8, dtype=np.float32).reshape(2, 4)
    (x,) = memrefs.call("strided", base[:, ::2])
    assert x == np.float32(6.0)


PRINT = """
func.func @main() {
  %a = arith.constant 7 : i32
  %v = arith.constant dense<[1.5, -2.0]> : vector<2xf32>
  vector.print %a : i32
  vector.print %v : vector<2xf32>
  return
}
"""


def test_run_returns_what_the_program_prints():
    # vector.print's format (mlir-runner's): a scalar, then ( a, b ).
    assert mi.run(PRINT) == "7\n( 1.5, -2 )\n"


def test_run_reads_a_path(tmp_path):
    f = tmp_path / "p.mlir"
    f.write_text(PRINT)
    assert mi.run(f) == "7\n( 1.5, -2 )\n"
    assert mi.run(str(f)) == "7\n( 1.5, -2 )\n"


def test_run_passes_arguments():
    text = "func.func @twice(%x: i64) {\n  %y = arith.addi %x, %x : i64\n  vector.print %y : i64\n  return\n}\n"
    assert mi.run(text, "twice", [21]) == "42\n"


FIB = (REPO / "python/examples/fib.mlir").read_text()


def test_observer_sees_every_executed_op():
    seen = []
    p = mi.Program.parse(FIB, "fib.mlir")
    (r,) = mi.Interpreter(p, observer=seen.append).call("fib", 10)
    assert r == 55
    # fib(10) makes 177 calls: 88 inner ones add (one addi each) and call twice.
    names = [d["op"] for d in seen]
    assert names.count("arith.addi") == 88
    assert names.count("func.call") == 176
    add = next(d for d in seen if d["op"] == "arith.addi")
    # An op's location is its name's, as mlir-opt reports it: line 14 of
    # fib.mlir, after the four spaces and "%s = ".
    assert (add["line"], add["column"]) == (14, 10)
    assert add["results"] == ["1"]  # the first addi: fib(1) + fib(0)
    assert set(add) == {"op", "line", "column", "results"}


def test_an_observer_that_raises_stops_the_run():
    def stop(d):
        if d["op"] == "func.call":
            raise RuntimeError("seen enough")

    p = mi.Program.parse(FIB)
    with pytest.raises(RuntimeError, match="seen enough"):
        mi.Interpreter(p, observer=stop).call("fib", 5)




def test_the_gil_is_released_during_a_call():
    # Another Python thread runs while the engine spins.
    ticks = []
    done = threading.Event()

    def count():
        while not done.is_set():
            ticks.append(1)
            time.sleep(0.001)

    t = threading.Thread(target=count)
    interp = mi.Interpreter(mi.Program.parse(LOOP))
    t.start()
    try:
        (r,) = interp.call("spin", 3_000_000)
    finally:
        done.set()
        t.join()
    assert r == 3_000_000
    assert len(ticks) > 5


def test_printed_output_is_kept_per_interpreter():
    i = mi.Interpreter(mi.Program.parse(PRINT))
    i.call("main")
    i.call("main")
    assert i.take_printed() == "7\n( 1.5, -2 )\n" * 2
    assert i.take_printed() == ""
