#!/usr/bin/env python3
"""Record reference tables for the formats of 8 bits or fewer from LLVM 22's
APFloat, as mlir-runner executes arith on them after the
`convert-arith-to-apfloat` lowering (each op becomes a call of
`_mlir_apfloat_add`, `_mlir_apfloat_convert`, ... in
libmlir_apfloat_wrappers, i.e. APFloat itself, rounding to nearest-even).

Usage: python3 tools/float_refs/record_apfloat.py   (needs mlir-22-tools)
Writes fixtures/float/apfloat/ (checked by interp/tests/float_llvm_refs.rs):

  NAME.ops.bin     every operand pair (a, b), a major: 4 bytes per pair, the
                   encodings of addf, subf, mulf, divf. Pairs APFloat has no
                   result for are written as 0 and skipped by the test with
                   the same rule (see `skipped`): division by zero in the
                   finite-only f4/f6 (APFloat's makeInf/makeNaN reach
                   llvm_unreachable there), and in f8E8M0FNU subtraction
                   with a negative result (no sign).
  NAME.convert.txt "f32 SOURCE-BITS RESULT" lines: truncf to NAME of every
                   rounding midpoint between adjacent values, its f32
                   neighbours, values past the largest one and tiny ones
                   (nearest-even: the APFloat runtime has no other mode,
                   so the directed modes are covered by
                   tools/float_refs/record.py's exact tables); then
                   "ext f32 CODE RESULT-BITS" lines: extf of every
                   encoding. Only f32: LLVM 22's convert-arith-to-apfloat
                   emits `arith.extui`/`arith.trunci` from i64 to i64 for
                   an f64 operand or result, which the verifier rejects,
                   so f64 conversions come from record.py alone. Inputs with no defined result (NaN/inf into
                   f4/f6, zero/negatives into f8E8M0FNU) are not asked.
                   NaN results are written as their bits; the test compares
                   NaN as a class.

Programs are generated, lowered with mlir-opt and run by mlir-runner, with
the same libraries as ../shared/tools/oracle.sh.
"""
import math
import os
import struct
import subprocess
import sys
import tempfile

BIN = "/usr/lib/llvm-22/bin"
LIB = "/usr/lib/llvm-22/lib"
PIPELINE = ("convert-arith-to-apfloat,convert-scf-to-cf,convert-vector-to-llvm,"
            "convert-arith-to-llvm,convert-index-to-llvm,convert-cf-to-llvm,convert-func-to-llvm,"
            "reconcile-unrealized-casts")
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "fixtures", "float", "apfloat")

# (name, bits, precision incl. integer bit, min normal exponent, max exponent,
#  kind): kind is "ieee", "nan" (NaN only, all-ones NaN), "fnuz" (NaN only,
#  0x80 NaN), "finite" (no NaN or inf), "e8m0".
FORMATS = [
    ("f4E2M1FN", 4, 2, 0, 2, "finite"),
    ("f6E2M3FN", 6, 4, 0, 2, "finite"),
    ("f6E3M2FN", 6, 3, -2, 4, "finite"),
    ("f8E5M2", 8, 3, -14, 15, "ieee"),
    ("f8E4M3", 8, 4, -6, 7, "ieee"),
    ("f8E4M3FN", 8, 4, -6, 8, "nan"),
    ("f8E5M2FNUZ", 8, 3, -15, 15, "fnuz"),
    ("f8E4M3FNUZ", 8, 4, -7, 7, "fnuz"),
    ("f8E4M3B11FNUZ", 8, 4, -10, 4, "fnuz"),
    ("f8E3M4", 8, 5, -2, 3, "ieee"),
    ("f8E8M0FNU", 8, 1, -127, 127, "e8m0"),
]


def decode(fmt, code):
    """The value of an encoding as a Python float (nan/inf included)."""
    name, bits, p, emin, emax, kind = fmt
    if kind == "e8m0":
        return math.nan if code == 0xFF else 2.0 ** (code - 127)
    man_bits = p - 1
    exp_bits = bits - 1 - man_bits
    neg = (code >> (bits - 1)) & 1
    field = (code >> man_bits) & ((1 << exp_bits) - 1)
    man = code & ((1 << man_bits) - 1)
    top = field == (1 << exp_bits) - 1
    if kind == "ieee" and top:
        return (-1) ** neg * (math.inf if man == 0 else math.nan)
    if kind == "nan" and top and man == (1 << man_bits) - 1:
        return math.nan
    if kind == "fnuz" and code == 1 << (bits - 1):
        return math.nan
    bias = 1 - emin
    if field == 0:
        v = man * 2.0 ** (emin - man_bits)
    else:
        v = (man | (1 << man_bits)) * 2.0 ** (field - bias - man_bits)
    return -v if neg else v


def skipped(fmt, a, b, op):
    """Pairs with no APFloat result (the test applies the same rule)."""
    kind = fmt[5]
    if kind == "finite" and op == "div":
        return decode(fmt, b) == 0
    if kind == "e8m0" and op == "sub":
        return a != 0xFF and b != 0xFF and a < b
    return False


OPS = ["add", "sub", "mul", "div"]
ARITH = {"add": "addf", "sub": "subf", "mul": "mulf", "div": "divf"}


def ops_program(fmt):
    name, bits = fmt[0], fmt[1]
    n = 1 << bits
    ity = "i%d" % bits
    lines = ["func.func @main() {",
             "  %c0 = arith.constant 0 : index",
             "  %c1 = arith.constant 1 : index",
             "  %%n = arith.constant %d : index" % n,
             "  %none = arith.constant 0 : i64",
             "  scf.for %i = %c0 to %n step %c1 {",
             "    scf.for %j = %c0 to %n step %c1 {",
             "      %%ai = arith.index_cast %%i : index to %s" % ity,
             "      %%bi = arith.index_cast %%j : index to %s" % ity,
             "      %%a = arith.bitcast %%ai : %s to %s" % (ity, name),
             "      %%b = arith.bitcast %%bi : %s to %s" % (ity, name)]
    for op in OPS:
        guard = guard_ir(fmt, op)
        lines += ["      " + g for g in guard[0]]
        lines += ["      %%r%s = scf.if %s -> (i64) {" % (op, guard[1]),
                  "        %%v%s = arith.%s %%a, %%b : %s" % (op, ARITH[op], name),
                  "        %%w%s = arith.bitcast %%v%s : %s to %s" % (op, op, name, ity),
                  "        %%x%s = arith.extui %%w%s : %s to i64" % (op, op, ity),
                  "        scf.yield %%x%s : i64" % op,
                  "      } else {",
                  "        scf.yield %none : i64",
                  "      }",
                  "      vector.print %%r%s : i64 punctuation <comma>" % op]
    lines += ["    }", "    vector.print punctuation <newline>", "  }", "  return", "}"]
    return "\n".join(lines) + "\n"


def guard_ir(fmt, op):
    """IR computing an i1 that is true when the pair has a result."""
    bits, kind = fmt[1], fmt[5]
    if kind == "finite" and op == "div":
        mag = (1 << (bits - 1)) - 1
        return (["%%k%s = arith.constant %d : index" % (op, mag),
                 "%%m%s = arith.andi %%j, %%k%s : index" % (op, op),
                 "%%g%s = arith.cmpi ne, %%m%s, %%c0 : index" % (op, op)], "%%g%s" % op)
    if kind == "e8m0" and op == "sub":
        return (["%%k%s = arith.constant 255 : index" % op,
                 "%%ge%s = arith.cmpi uge, %%i, %%j : index" % op,
                 "%%na%s = arith.cmpi eq, %%i, %%k%s : index" % (op, op),
                 "%%nb%s = arith.cmpi eq, %%j, %%k%s : index" % (op, op),
                 "%%o1%s = arith.ori %%ge%s, %%na%s : i1" % (op, op, op),
                 "%%g%s = arith.ori %%o1%s, %%nb%s : i1" % (op, op, op)], "%%g%s" % op)
    return (["%%g%s = arith.constant true" % op], "%%g%s" % op)


def run(program):
    with tempfile.TemporaryDirectory() as d:
        src, low = os.path.join(d, "p.mlir"), os.path.join(d, "l.mlir")
        with open(src, "w") as f:
            f.write(program)
        subprocess.run([BIN + "/mlir-opt", src, "--pass-pipeline=builtin.module(%s)" % PIPELINE, "-o", low],
                       check=True)
        libs = "%s/libmlir_runner_utils.so.22.1,%s/libmlir_c_runner_utils.so.22.1" % (LIB, LIB)
        r = subprocess.run([BIN + "/mlir-runner", "-e", "main", "-entry-point-result=void",
                            "-shared-libs=" + libs, low], check=True, capture_output=True, text=True)
        return r.stdout


def record_ops(fmt):
    out = run(ops_program(fmt))
    rows = [l for l in out.split("\n") if l.strip()]
    n = 1 << fmt[1]
    assert len(rows) == n, (fmt[0], len(rows))
    data = bytearray()
    for a, row in enumerate(rows):
        vals = [int(x) for x in row.replace(" ", "").strip(",").split(",")]
        assert len(vals) == 4 * n, (fmt[0], a, len(vals))
        data += bytes(v & 0xFF for v in vals)
    with open(os.path.join(OUT, "%s.ops.bin" % fmt[0]), "wb") as f:
        f.write(data)


def f64_bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def f32_of_bits(b):
    return struct.unpack("<f", struct.pack("<I", b))[0]


def next_f64(x, up):
    return math.nextafter(x, math.inf if up else -math.inf)


def next_f32(x, up):
    b = f32_bits(x)
    if x == 0:
        return f32_of_bits(1) if up else -f32_of_bits(1)
    step = 1 if (x > 0) == up else -1
    return f32_of_bits(b + step)


def probes(fmt):
    """Midpoints of adjacent finite values and their neighbours in f64 and
    f32, values past the largest, tiny values; both signs. (Only the f32
    ones can be recorded, see the header.)"""
    vals = sorted({abs(decode(fmt, c)) for c in range(1 << fmt[1]) if math.isfinite(decode(fmt, c))})
    mids = [(a + b) / 2 for a, b in zip(vals, vals[1:])]
    top = vals[-1]
    extra = [top * 1.03, top * 1.0625, top * 1.1, top * 2, 1e30, vals[1] / 3, 1e-30, vals[-1], vals[1]]
    xs64, xs32 = [], []
    for m in mids + extra:
        xs64 += [m, next_f64(m, False), next_f64(m, True)]
        if m < 3.4e38:  # past f32's range (E8M0) there is nothing to ask
            m32 = f32_of_bits(f32_bits(m))
            xs32 += [m32, next_f32(m32, False), next_f32(m32, True)]
    kind = fmt[5]
    sign = [1] if kind == "e8m0" else [1, -1]
    xs64 = [s * x for x in xs64 for s in sign if x > 0 or kind != "e8m0"]
    xs32 = [s * x for x in xs32 for s in sign if x > 0 or kind != "e8m0"]
    if kind != "finite":
        xs64 += [math.inf, -math.inf] if kind != "e8m0" else [math.inf]
        xs32 += [math.inf, -math.inf] if kind != "e8m0" else [math.inf]
    return xs64, xs32


def convert_program(fmt, xs64, xs32):
    name, bits = fmt[0], fmt[1]
    ity = "i%d" % bits
    lines = ["func.func @main() {"]
    k = 0
    for src, xs, sbits in (("f32", xs32, f32_bits),):
        w = 32
        for x in xs:
            lines += ["  %%s%d = arith.constant %d : i%d" % (k, sbits(x) - (1 << w if sbits(x) >> (w - 1) else 0), w),
                      "  %%f%d = arith.bitcast %%s%d : i%d to %s" % (k, k, w, src),
                      "  %%t%d = arith.truncf %%f%d : %s to %s" % (k, k, src, name),
                      "  %%u%d = arith.bitcast %%t%d : %s to %s" % (k, k, name, ity),
                      "  %%v%d = arith.extui %%u%d : %s to i64" % (k, k, ity),
                      "  vector.print %%v%d : i64" % k]
            k += 1
    for dst in ("f32",):
        w = 32
        for c in range(1 << bits):
            lines += ["  %%c%d = arith.constant %d : %s" % (k, c - (1 << bits if c >> (bits - 1) else 0), ity),
                      "  %%g%d = arith.bitcast %%c%d : %s to %s" % (k, k, ity, name),
                      "  %%e%d = arith.extf %%g%d : %s to %s" % (k, k, name, dst),
                      "  %%h%d = arith.bitcast %%e%d : %s to i%d" % (k, k, dst, w),
                      "  vector.print %%h%d : i%d" % (k, w)]
            k += 1
    lines += ["  return", "}"]
    return "\n".join(lines) + "\n"


def record_convert(fmt):
    xs64, xs32 = probes(fmt)
    out = [l for l in run(convert_program(fmt, xs64, xs32)).split("\n") if l.strip()]
    n = 1 << fmt[1]
    assert len(out) == len(xs32) + n, (fmt[0], len(out))
    lines = ["# %s: truncf (nearest-even) and extf through APFloat, by tools/float_refs/record_apfloat.py" % fmt[0]]
    it = iter(out)
    for x in xs32:
        lines.append("f32 %x %x" % (f32_bits(x), int(next(it)) & 0xFF))
    for dst, w in (("f32", 32),):
        for c in range(n):
            lines.append("ext %s %x %x" % (dst, c, int(next(it)) & ((1 << w) - 1)))
    with open(os.path.join(OUT, "%s.convert.txt" % fmt[0]), "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    os.makedirs(OUT, exist_ok=True)
    only = sys.argv[1:]
    for fmt in FORMATS:
        if only and fmt[0] not in only:
            continue
        record_ops(fmt)
        record_convert(fmt)
        print("recorded", fmt[0])


if __name__ == "__main__":
    main()
