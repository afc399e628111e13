"""Every MLIR element type numpy or ml_dtypes can hold, both ways: arrays
through a tensor identity function and scalars through a scalar one come
back with the same dtype and the same bits (every encoding of the types of
8 bits or fewer; random ones of the wider types), and arithmetic on the
way agrees with numpy's own (negation flips the sign bit, as numpy and
ml_dtypes do)."""

import ml_dtypes
import numpy as np
import pytest

import mlir_interp as mi

# (MLIR type, dtype, bits of the encoding)
TYPES = [
    ("i1", np.bool_, 1),
    ("i2", ml_dtypes.int2, 2),
    ("ui2", ml_dtypes.uint2, 2),
    ("i4", ml_dtypes.int4, 4),
    ("ui4", ml_dtypes.uint4, 4),
    ("i8", np.int8, 8),
    ("ui8", np.uint8, 8),
    ("si8", np.int8, 8),
    ("i16", np.int16, 16),
    ("ui16", np.uint16, 16),
    ("i32", np.int32, 32),
    ("ui32", np.uint32, 32),
    ("i64", np.int64, 64),
    ("ui64", np.uint64, 64),
    ("index", np.int64, 64),
    ("f16", np.float16, 16),
    ("bf16", ml_dtypes.bfloat16, 16),
    ("f32", np.float32, 32),
    ("f64", np.float64, 64),
    ("complex<f32>", np.complex64, 64),
    ("complex<f64>", np.complex128, 128),
    ("f8E4M3FN", ml_dtypes.float8_e4m3fn, 8),
    ("f8E5M2", ml_dtypes.float8_e5m2, 8),
    ("f8E4M3", ml_dtypes.float8_e4m3, 8),
    ("f8E4M3FNUZ", ml_dtypes.float8_e4m3fnuz, 8),
    ("f8E5M2FNUZ", ml_dtypes.float8_e5m2fnuz, 8),
    ("f8E4M3B11FNUZ", ml_dtypes.float8_e4m3b11fnuz, 8),
    ("f8E3M4", ml_dtypes.float8_e3m4, 8),
    ("f8E8M0FNU", ml_dtypes.float8_e8m0fnu, 8),
    ("f6E2M3FN", ml_dtypes.float6_e2m3fn, 6),
    ("f6E3M2FN", ml_dtypes.float6_e3m2fn, 6),
    ("f4E2M1FN", ml_dtypes.float4_e2m1fn, 4),
]
IDS = [t for t, _, _ in TYPES]


def encodings(dtype, bits, n=64):
    """Every encoding of a small type; `n` random ones of a wide one."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return np.array([False, True])
    if bits <= 8:
        return np.arange(2**bits, dtype=np.uint8).view(dtype)
    raw = np.random.default_rng(bits).integers(0, 256, size=n * dtype.itemsize, dtype=np.uint8)
    return raw.view(dtype)


def same_bits(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


@pytest.mark.parametrize("mlir,dtype,bits", TYPES, ids=IDS)
def test_arrays_round_trip(mlir, dtype, bits):
    x = encodings(dtype, bits)
    n = x.shape[0]
    p = mi.Program.parse(
        f"func.func @id(%a: tensor<{n}x{mlir}>) -> tensor<{n}x{mlir}> {{\n"
        f"  return %a : tensor<{n}x{mlir}>\n}}\n"
    )
    (y,) = mi.Interpreter(p).call("id", x)
    assert same_bits(y, x), (y, x)


@pytest.mark.parametrize("mlir,dtype,bits", TYPES, ids=IDS)
def test_scalars_round_trip(mlir, dtype, bits):
    p = mi.Program.parse(f"func.func @id(%a: {mlir}) -> {mlir} {{\n  return %a : {mlir}\n}}\n")
    interp = mi.Interpreter(p)
    for x in encodings(dtype, bits)[:16]:
        (y,) = interp.call("id", x)
        assert isinstance(y, np.generic) and same_bits(y, x), (y, x)


# Real float formats with a sign (f8E8M0FNU has none).
NEGATABLE = [(t, d, b) for t, d, b in TYPES if t.startswith(("f", "bf")) and t != "f8E8M0FNU"]


@pytest.mark.parametrize("mlir,dtype,bits", NEGATABLE, ids=[t for t, _, _ in NEGATABLE])
def test_negation_agrees_with_numpy(mlir, dtype, bits):
    # Every encoding of the small formats; negf is exact, so numpy's and
    # ml_dtypes' negation is the reference. NaNs are left out: which NaN
    # -NaN is differs between the fnuz formats' conventions.
    x = encodings(dtype, bits)
    x = x[~np.isnan(x.astype(np.float64))]
    n = x.shape[0]
    p = mi.Program.parse(
        f"func.func @neg(%a: tensor<{n}x{mlir}>) -> tensor<{n}x{mlir}> {{\n"
        f"  %n = arith.negf %a : tensor<{n}x{mlir}>\n  return %n : tensor<{n}x{mlir}>\n}}\n"
    )
    (y,) = mi.Interpreter(p).call("neg", x)
    assert same_bits(y, -x)


def test_signless_takes_either_signedness():
    # i8 holds bits: uint8 255 is the i8 -1, and the result reads it signed.
    p = mi.Program.parse("func.func @id(%a: tensor<2xi8>) -> tensor<2xi8> {\n  return %a : tensor<2xi8>\n}\n")
    (y,) = mi.Interpreter(p).call("id", np.array([255, 1], dtype=np.uint8))
    assert y.dtype == np.int8 and y.tolist() == [-1, 1]


def test_narrow_integers_compute():
    # i4: 7 + 1 wraps to -8; ui4 reads the same bits as 8.
    p = mi.Program.parse(
        "func.func @inc(%a: tensor<2xi4>) -> tensor<2xi4> {\n"
        "  %one = arith.constant dense<1> : tensor<2xi4>\n"
        "  %r = arith.addi %a, %one : tensor<2xi4>\n  return %r : tensor<2xi4>\n}\n"
    )
    (y,) = mi.Interpreter(p).call("inc", np.array([7, -3], dtype=ml_dtypes.int4))
    assert y.dtype == ml_dtypes.int4 and y.astype(np.int8).tolist() == [-8, -2]


def test_python_numbers_round_like_numpy():
    p = mi.Program.parse(
        "func.func @f(%a: f32, %b: bf16, %c: f8E4M3FN, %d: complex<f32>) -> (f32, bf16, f8E4M3FN, complex<f32>) {\n"
        "  return %a, %b, %c, %d : f32, bf16, f8E4M3FN, complex<f32>\n}\n"
    )
    a, b, c, d = mi.Interpreter(p).call("f", 0.1, 0.1, 0.3, 0.1 + 0.2j)
    assert same_bits(a, np.float32(0.1))
    assert same_bits(b, ml_dtypes.bfloat16(0.1))
    assert same_bits(c, ml_dtypes.float8_e4m3fn(0.3))
    assert same_bits(d, np.complex64(0.1 + 0.2j))


def test_wide_and_unsigned_integers():
    # i128 has no dtype: a Python int; ui8's 0xFF is 255; i3 is a Python int.
    p = mi.Program.parse(
        "func.func @f(%a: i128, %b: ui8, %c: i3) -> (i128, ui8, i3) {\n"
        "  %one = arith.constant 1 : i128\n  %s = arith.addi %a, %one : i128\n"
        "  return %s, %b, %c : i128, ui8, i3\n}\n"
    )
    s, b, c = mi.Interpreter(p).call("f", 2**100, 255, -4)
    assert s == 2**100 + 1 and type(s) is int
    assert b == 255 and b.dtype == np.uint8
    assert c == -4


def test_integer_that_does_not_fit():
    p = mi.Program.parse("func.func @f(%a: i8) -> i8 {\n  return %a : i8\n}\n")
    with pytest.raises(mi.ArgumentError, match="300 does not fit i8"):
        mi.Interpreter(p).call("f", 300)


def test_wrong_dtype_is_refused_not_cast():
    p = mi.Program.parse("func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {\n  return %a : tensor<2xf32>\n}\n")
    with pytest.raises(mi.ArgumentError, match="float64"):
        mi.Interpreter(p).call("f", np.zeros(2))
    with pytest.raises(mi.ArgumentError, match="bfloat16"):
        mi.Interpreter(p).call("f", np.zeros(2, dtype=ml_dtypes.bfloat16))


def test_lists_convert_to_the_parameter_dtype():
    p = mi.Program.parse("func.func @f(%a: tensor<3xi16>) -> tensor<3xi16> {\n  return %a : tensor<3xi16>\n}\n")
    (y,) = mi.Interpreter(p).call("f", [1, -2, 3])
    assert y.dtype == np.int16 and y.tolist() == [1, -2, 3]


def test_poison_result():
    p = mi.Program.parse("func.func @f() -> i32 {\n  %p = ub.poison : i32\n  return %p : i32\n}\n")
    (y,) = mi.Interpreter(p).call("f")
    assert y is mi.poison
