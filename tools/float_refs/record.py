#!/usr/bin/env python3
"""Record reference tables for the small float formats from ml_dtypes.

Usage: pip install ml_dtypes && python3 tools/float_refs/record.py
Writes fixtures/float/ (checked by interp/tests/float_refs.rs):

  decode.txt            one line per format: name, then for every encoding
                        0 .. 2^bits-1 the value as float64 bit pattern (hex),
                        or "nan".
  round.txt             "name f64-bits ne down up tz na" lines: every
                        midpoint between adjacent finite values (and its
                        float64 neighbours), values past the largest finite
                        one, tiny values, rounded once from float64 under
                        nearest-even (checked against ml_dtypes, see below)
                        and under the other four modes (ml_dtypes has only
                        nearest-even: these come from the exact rounder
                        alone, with APFloat's directed overflow rule).
  ml_dtypes_disagreements.txt
                        where ml_dtypes' own cast differs from that.
  arith/NAME.OP.txt     for each fp8 format and OP in add sub mul div:
                        256 lines (lhs encoding), each 256 two-digit hex
                        results (rhs encoding). NaN results are written as
                        the format's canonical NaN; the test compares NaN as
                        a class (payload and sign differ between hosts).

How the results are computed. ml_dtypes casts float64 to these formats, so
each operation is done in float64 and cast (add, sub and mul of two fp8
values are exact in float64; div is not always). ml_dtypes' casts are not
always single roundings (see below), so the script also rounds every finite
exact value itself: exact rationals (fractions.Fraction, so division is
exact too) rounded to the nearest of the format's values as decoded above,
ties to the even encoding, with APFloat's overflow rule (beyond the largest
value: inf, NaN where there is no inf, saturation where there is no NaN).
That exact reference is what the tables hold; every place where ml_dtypes'
cast differs from it is listed in ml_dtypes_disagreements.txt. Non-finite
operands and division by zero take ml_dtypes' result.

Where ml_dtypes and APFloat (which mlir-interp follows) disagree, and what
the Rust test does:
  * Double rounding in ml_dtypes 0.6.0: its float64 cast goes through
    float32, so a float64 just below a midpoint becomes the midpoint and
    then ties to even (0.0029296874999999996 -> 0x02 in f8E4M3FN, exact
    0x01; SEMANTICS.md item 19, ml_dtypes PR #401), in every format, and
    float64 values below float32's range become 0 (NaN in E8M0). The
    tables hold the exact rounding; the disagreement file counts the cases
    per format and operation and shows a few of each. (With ml_dtypes
    0.6.0 the fp8 add/sub/mul/div tables agree everywhere except E8M0:
    the double rounding never changes an fp8 sum, product or quotient.)
  * f8E8M0FNU: ties round up (its one significand bit is odd), in both.
    Zero results (a - a, underflow): ml_dtypes gives NaN, APFloat's
    normalize gives the smallest value 2^-127 (0x00); the tables hold
    APFloat's. Negative results are NaN in both (APFloat would crash).
  * NaN or inf into f4E2M1FN/f6*: ml_dtypes maps NaN to a zero of the
    opposite sign and saturates inf; APFloat has no defined result
    (llvm#185351) and mlir-interp reports an error, which the test accepts
    for exactly these inputs (and for zero/negatives into f8E8M0FNU).
  * NaN sign and payload: ml_dtypes keeps the host's (x86 makes -NaN for
    inf - inf); APFloat gives +NaN. NaN results are written as the
    format's canonical NaN and compared as a class.
"""
import bisect
import math
import os
from fractions import Fraction

import ml_dtypes
import numpy as np

FORMATS = [  # (MLIR name, ml_dtypes type, bits, canonical NaN or None)
    ("f4E2M1FN", ml_dtypes.float4_e2m1fn, 4, None),
    ("f6E2M3FN", ml_dtypes.float6_e2m3fn, 6, None),
    ("f6E3M2FN", ml_dtypes.float6_e3m2fn, 6, None),
    ("f8E5M2", ml_dtypes.float8_e5m2, 8, 0x7E),
    ("f8E4M3", ml_dtypes.float8_e4m3, 8, 0x7C),
    ("f8E4M3FN", ml_dtypes.float8_e4m3fn, 8, 0x7F),
    ("f8E5M2FNUZ", ml_dtypes.float8_e5m2fnuz, 8, 0x80),
    ("f8E4M3FNUZ", ml_dtypes.float8_e4m3fnuz, 8, 0x80),
    ("f8E4M3B11FNUZ", ml_dtypes.float8_e4m3b11fnuz, 8, 0x80),
    ("f8E3M4", ml_dtypes.float8_e3m4, 8, 0x78),
    ("f8E8M0FNU", ml_dtypes.float8_e8m0fnu, 8, 0xFF),
]

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "fixtures", "float")


def values(dtype, bits):
    """Every encoding of the format, as float64."""
    codes = np.arange(1 << bits, dtype=np.uint8)
    return codes.view(dtype).astype(np.float64)


def cast(dtype, xs):
    """ml_dtypes' float64 -> format cast: encodings and NaN flags."""
    with np.errstate(all="ignore"):
        y = np.asarray(xs, dtype=np.float64).astype(dtype)
    return y.view(np.uint8).copy(), np.isnan(y.astype(np.float64))


def hex64(x):
    return "nan" if np.isnan(x) else "%016x" % np.float64(x).view(np.uint64)


class Exact:
    """Single rounding of exact rationals to one format, from its decoded
    values: nearest, ties to the even encoding, APFloat's overflow rule."""

    def __init__(self, name, dtype, bits, qnan):
        vals = values(dtype, bits)
        self.qnan = qnan
        self.code = {}
        for c, v in enumerate(vals):
            if np.isfinite(v):
                self.code.setdefault((abs(Fraction(float(v))), math.copysign(1, v) < 0), c)
        mags = sorted({k[0] for k in self.code if k[0] >= 0})
        self.mags = mags
        self.signed = any(k[1] for k in self.code)
        self.e8m0 = name == "f8E8M0FNU"
        top, below = mags[-1], mags[-2]
        # The value the next encoding would have: 2^(emax+1) or E4M3FN's 480.
        self.virtual = 2 * top if self.e8m0 else top + (top - below)
        inf = np.isinf(vals)
        self.inf = int(np.argmax(inf)) if inf.any() else None

    def enc(self, mag, neg):
        if mag == 0 and neg and (0, True) not in self.code:
            neg = False  # FNUZ: no negative zero
        return self.code[(mag, neg)]

    def overflow(self, neg, mode):
        """APFloat's handleOverflow: inf (NaN where there is none) when
        rounding to nearest or away from zero, else the largest value."""
        away = mode in ("ne", "na") or mode == ("down" if neg else "up")
        if self.inf is None and self.qnan is None or not away:
            return self.enc(self.mags[-1], neg)
        if self.inf is not None:
            return self.inf + (0x80 if neg else 0)
        return self.qnan

    def round(self, q, zero_neg, mode="ne"):
        """`q` rounded under `mode` (ne down up tz na); `zero_neg` is the
        sign of an exact zero."""
        neg = q < 0 if q != 0 else zero_neg
        if neg and not self.signed and q != 0:
            return self.qnan
        m = abs(q)
        if m >= self.virtual:
            return self.overflow(neg, mode)
        i = bisect.bisect_left(self.mags, m)
        if i < len(self.mags) and self.mags[i] == m:
            return self.enc(m, neg)
        if i == 0:
            return self.enc(self.mags[0], False)  # E8M0 below 2^-127
        lo = self.mags[i - 1]
        hi = self.mags[i] if i < len(self.mags) else self.virtual
        if not self.goes_up(lo, hi, m, neg, mode):
            return self.enc(lo, neg)
        return self.overflow(neg, mode) if hi == self.virtual else self.enc(hi, neg)

    def goes_up(self, lo, hi, m, neg, mode):
        """Whether `lo < m < hi` rounds to `hi`. Nearest-even ties go to the
        even encoding (past the largest value: up unless the largest value's
        encoding is even, as in E4M3FN); E8M0 ties always go up (its one
        significand bit is odd)."""
        mid = (lo + hi) / 2
        if mode in ("tz", "down", "up"):
            return mode == ("down" if neg else "up")
        if m != mid:
            return m > mid
        return mode == "na" or self.e8m0 or self.enc(lo, False) & 1 == 1


def record_decode(lines):
    for name, dtype, bits, _ in FORMATS:
        lines.append(" ".join([name] + [hex64(v) for v in values(dtype, bits)]))


def probes(vals):
    """Midpoints, their float64 neighbours, beyond-max and tiny values."""
    fin = np.unique(np.abs(vals[np.isfinite(vals)]))
    mids = (fin[:-1] + fin[1:]) / 2
    top = fin[-1]
    extra = [top * 1.03, top * 1.0625, top * 1.1, top * 2, 1e300, np.inf, fin[1] / 3, 1e-300]
    xs = np.concatenate([mids, np.nextafter(mids, 0), np.nextafter(mids, np.inf), extra])
    return np.concatenate([xs, -xs])


def reference(ex, x, ml_code, ml_nan):
    """The exact rounding of float64 `x`, or ml_dtypes' for inf/NaN."""
    if not np.isfinite(x):
        return ex.qnan if ml_nan else int(ml_code)
    return ex.round(Fraction(float(x)), math.copysign(1, x) < 0)


def same(ex, want, ml_code, ml_nan):
    return (ml_nan and want == ex.qnan) or (not ml_nan and int(ml_code) == want)


MODES = ["ne", "down", "up", "tz", "na"]


def record_round(lines, notes):
    for name, dtype, bits, qnan in FORMATS:
        ex = Exact(name, dtype, bits, qnan)
        xs = probes(values(dtype, bits))
        codes, nan = cast(dtype, xs)
        show = lambda c: "nan" if c == qnan and qnan is not None else "%02x" % c
        for x, c, n in zip(xs, codes, nan):
            want = reference(ex, x, c, n)
            if not same(ex, want, c, n):
                notes.append("%s cast %r: ml_dtypes %s, exact %02x" % (name, float(x), "nan" if n else "%02x" % c, want))
            directed = [reference_mode(ex, x, c, n, mode) for mode in MODES[1:]]
            lines.append(" ".join([name, hex64(x)] + [show(w) for w in [want] + directed]))


def reference_mode(ex, x, ml_code, ml_nan, mode):
    """Like `reference` under a directed or ties-away mode (exact only)."""
    if not np.isfinite(x):
        return ex.qnan if ml_nan else int(ml_code)
    return ex.round(Fraction(float(x)), math.copysign(1, x) < 0, mode)


def exact_op(op, a, b):
    fa, fb = Fraction(float(a)), Fraction(float(b))
    if op == "add":
        return fa + fb
    if op == "sub":
        return fa - fb
    return fa * fb if op == "mul" else fa / fb


def op_table(name, dtype, op, qnan, notes):
    ex = Exact(name, dtype, 8, qnan)
    v = values(dtype, 8)
    a, b = np.meshgrid(v, v, indexing="ij")
    with np.errstate(all="ignore"):
        r = {"add": a + b, "sub": a - b, "mul": a * b, "div": a / b}[op]
    codes, nan = cast(dtype, r)
    out = np.zeros((256, 256), dtype=np.uint8)
    for i in range(256):
        for j in range(256):
            x, y, ml, n = a[i, j], b[i, j], codes[i, j], nan[i, j]
            if np.isfinite(x) and np.isfinite(y) and not (op == "div" and y == 0):
                want = ex.round(exact_op(op, x, y), math.copysign(1, r[i, j]) < 0)
            else:
                want = qnan if n else int(ml)
            if not same(ex, want, ml, n):
                notes.append("%s %s %02x %02x: ml_dtypes %s, exact %02x" % (name, op, i, j, "nan" if n else "%02x" % ml, want))
            out[i, j] = want
    return out


def record_arith(notes):
    os.makedirs(os.path.join(OUT, "arith"), exist_ok=True)
    for name, dtype, bits, qnan in FORMATS:
        if bits != 8:
            continue
        for op in ["add", "sub", "mul", "div"]:
            codes = op_table(name, dtype, op, qnan, notes)
            rows = ["".join("%02x" % c for c in row) for row in codes]
            with open(os.path.join(OUT, "arith", "%s.%s.txt" % (name, op)), "w") as f:
                f.write("\n".join(rows) + "\n")


def write(fname, header, lines):
    with open(os.path.join(OUT, fname), "w") as f:
        f.write("\n".join(header + lines) + "\n")


def summarize(notes, shown=4):
    """Counts per (format, operation) and the first few cases of each."""
    groups = {}
    for n in notes:
        groups.setdefault(" ".join(n.split(" ")[:2]), []).append(n)
    out = ["# %d cases where ml_dtypes' float64 cast is not the exact rounding" % len(notes)]
    for key, cases in groups.items():
        out.append("# %s: %d cases" % (key, len(cases)))
        out.extend(cases[:shown])
    return out


def main():
    os.makedirs(OUT, exist_ok=True)
    header = ["# recorded by tools/float_refs/record.py with ml_dtypes %s, numpy %s"
              % (ml_dtypes.__version__, np.__version__)]
    decode, rnd, notes = [], [], []
    record_decode(decode)
    record_round(rnd, notes)
    record_arith(notes)
    write("decode.txt", header, decode)
    write("round.txt", header, rnd)
    write("ml_dtypes_disagreements.txt", header, summarize(notes))


if __name__ == "__main__":
    main()
