#!/usr/bin/env python3
"""Check mlir-interp's tosa dialect against ARM's TOSA reference model.

Needs Python 3 with numpy and ml_dtypes, and PyPI's `tosa-tools` (the
reference model, its test generator and its result checker) in a venv:
run it with that venv's python, which has all three:

    .tosa-venv/bin/python tools/tosa_conformance.py --filter '^(add|mul)$'

(`python3 -m venv .tosa-venv && .tosa-venv/bin/pip install tosa-tools
numpy ml_dtypes` makes one.) LLVM 22's mlir-opt is needed too
(`$MLIR_OPT`, default /usr/lib/llvm-22/bin/mlir-opt).

Run mode (default). `tosa_verif_build_tests` generates positive tests for
the ops matching --filter (small tensors: --dims, default 1,4; small conv
and pooling parameters; for --tosa-version 1.0 only TOSA 1.0's extensions
unless --extension says otherwise), --limit of them per op (spread over
the data types). The filter sees the generator's op names: the conv ops
are `conv2d_TEMPLATE` and so on, so `^conv2d` (not `^conv2d$`). Tests are
generated without data (fast) and the chosen ones' data made after, by
the reference model's data generator, their constants written back into
test.tosa (while_loop's are generated again with their data). For each:

1. the reference model runs it (`tosa_reference_model --test_desc`); it
   runs again in precise mode (FP64 results, plus the bounds files of the
   DOT_PRODUCT and RESCALE_INEXACT modes) when the spec's checker is
   needed;
2. `tosa-opt --tosa-deserialize` turns test.tosa into test.mlir (its
   "WARNING: Different TOSA spec" line stripped), and LLVM 22's mlir-opt
   must accept it (else the verdict is NOT-LLVM22, the deserializer's
   newer syntax, not our failure);
3. `mlir-interp run test.mlir --arg @input-N.npy ... --out DIR` runs it.
   Arguments whose element type has no .npy form in mlir-interp (i4, i48)
   are inlined as `tosa.const`s, and results of such types widened with
   `arith.extsi` (test.run.mlir is then what ran; the note says so).
   `--generic` runs mlir-opt 22's generic form instead (to test op
   semantics before the custom syntax parses);
4. each result is compared per its `meta.compliance` mode: EXACT outputs
   and ULP outputs with ulp 0.5 (exactly rounded) bit for bit against the
   reference model's own output, any NaN matching any NaN (the spec's
   checker accepts any NaN, whatever its sign or payload); every other
   mode (ULP > 0.5, DOT_PRODUCT, FP_SPECIAL, ABS_ERROR, REDUCE_PRODUCT,
   MAX_RELATIVE, RESCALE_INEXACT, ...) with the spec's checker,
   `tosa_verify`, against the precise-mode output and bounds. A bit-exact
   mismatch says whether tosa_verify would accept it (it takes +0 for -0,
   either neighbour at a tie, a flushed subnormal).

Verdicts: PASS; MISMATCH (first differing index, both values, the mode);
UNSUPPORTED (exit 2 or 1 naming an unsupported op or custom syntax: the
engine stops an op it does not run with exit 1); REJECTED (exit 2
otherwise: mlir-opt 22 accepted the file, so we disagree); UB (exit 1
otherwise, which includes a result `--out` cannot write: a disagreement
unless the reference model said UNPREDICTABLE); INTERNAL (exit 3);
TIMEOUT (--timeout, or the fuel); REF-FAILED (the reference
model failed: not our problem); NOT-LLVM22 (mlir-opt 22 rejects the
deserialized file); SKIPPED (the harness could not make the test: the
deserializer failed). Prints a table per op and verdict and the failures;
writes OUT/results.tsv and OUT/failures.txt (one repro command a line) and
keeps each failing test's directory (OUT/gen/<op>/<test>: desc.json,
inputs, test.mlir, ref/, ours/, repro.sh); passing ones are removed
unless --keep. Exit 1 if any MISMATCH, INTERNAL, REJECTED or UB
disagreement.

Record mode (`--record DIR`): for the generated tests whose every input
and output has at most --max-elems (256) elements, write DIR/<test>.mlir,
@main without arguments (the inputs inlined as `tosa.const`, floats as hex
bit patterns so they round-trip exactly), headed by `// COMPLIANCE:` (each
result's mode) and a line naming this tool, the reference model and the
generator seed; check it with mlir-opt 22, run it through the reference
model with ../shared/tools/tosa_ref.sh (so the recording comes from the
self-contained file) and write DIR/<test>.ref/result<i>.npy; the recording
must equal the reference's output for the original test (a check of the
inlining).

`--self-test` checks the comparator on crafted arrays (NaN payloads,
-0.0, bf16 and fp8 through ml_dtypes, i48, bool, shapes) and exits.

Other options: --bin (default target/release/mlir-interp), --venv
(default $TOSA_VENV or .tosa-venv at the repo root), --seed, --tosa-version
(1.0), --jobs, --out (work dir, default /tmp/tosa_conformance),
--profile/--extension (passed to the generator), --dtype (generator's
--target-dtype), --rank (its --target-rank), --dims (its
--tensor-dim-range), --gen-arg ARG (passed through, repeatable: the
generator skips float DOT_PRODUCT tests (matmul, conv, avg_pool2d,
reduce_sum, fft) with fewer than 1000 outputs, so ask for a shape, e.g.
`--filter '^matmul$' --dtype fp32 --gen-arg=--target-shape
--gen-arg=1,34,32`; --dims is then not passed, as the generator drops
shapes outside it), --timeout (seconds per run), --keep.

Example, against the engine as built in another tree:

    .tosa-venv/bin/python tools/tosa_conformance.py --filter '.*' --limit 3 \
        --bin ../main/target/release/mlir-interp --jobs 2 --out /tmp/tc
"""

import argparse
import collections
import json
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import ml_dtypes

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MLIR_OPT = os.environ.get("MLIR_OPT", "/usr/lib/llvm-22/bin/mlir-opt")
TOOL = "tools/tosa_conformance.py"

VERDICTS = ["PASS", "MISMATCH", "UNSUPPORTED", "REJECTED", "UB", "INTERNAL", "TIMEOUT",
            "REF-FAILED", "NOT-LLVM22", "SKIPPED"]

# ---------------------------------------------------------------------------
# Comparison

# Float data types: the ml_dtypes/numpy type that decodes the bits, the width.
FLOATS = {
    "FP64": (np.float64, 64),
    "FP32": (np.float32, 32),
    "FP16": (np.float16, 16),
    "BF16": (ml_dtypes.bfloat16, 16),
    "FP8E4M3": (ml_dtypes.float8_e4m3fn, 8),
    "FP8E5M2": (ml_dtypes.float8_e5m2, 8),
    "FP8UE8M0": (ml_dtypes.float8_e8m0fnu, 8),
}
INTS = {"BOOL": 1, "INT4": 4, "INT8": 8, "INT16": 16, "INT32": 32, "INT48": 48, "INT64": 64,
        "UINT8": 8, "UINT16": 16, "SHAPE": 64}
UINT_OF_WIDTH = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}

# The dtype the spec's checker (checker/verifier.py) wants for an
# implementation result of each data type.
VERIFY_DTYPE = {
    "FP32": np.dtype("float32"), "FP16": np.dtype("float16"), "BF16": np.dtype("V2"),
    "FP8E4M3": np.dtype("V1"), "FP8E5M2": np.dtype("uint8"), "BOOL": np.dtype("bool"),
    "INT4": np.dtype("int8"), "INT8": np.dtype("int8"), "INT16": np.dtype("int16"),
    "INT32": np.dtype("int32"), "INT48": np.dtype("int64"), "INT64": np.dtype("int64"),
    "SHAPE": np.dtype("int64"),
}


def float_bits(a, width):
    """The encodings of float array `a` (any dtype of that width: float,
    ml_dtypes, void or unsigned) as unsigned integers."""
    a = np.asarray(a, order="C")
    if a.dtype.itemsize * 8 != width:
        raise ValueError(f"dtype {a.dtype} does not hold {width}-bit floats")
    return a.view(UINT_OF_WIDTH[width])


def int_values(a, width):
    """Integer (or bool) array `a` as int64 values wrapped to `width` bits,
    signed: a signless comparison (ui8 written as i8 is the same value)."""
    v = np.asarray(a, order="C").astype(np.int64) if a.dtype != np.uint64 else a.astype(np.int64)
    if width >= 64:
        return v
    if width == 1:
        return v & 1
    v = v & ((1 << width) - 1)
    return np.where(v >= (1 << (width - 1)), v - (1 << width), v)


def show(a_bits_or_vals, data_type, idx):
    """One element for a report: a float as its value and bits."""
    if data_type in FLOATS:
        dt, width = FLOATS[data_type]
        b = int(a_bits_or_vals[idx])
        val = np.array([b], UINT_OF_WIDTH[width]).view(dt)[0]
        return f"{float(val)!r} (0x{b:0{width // 4}X})"
    return str(int(a_bits_or_vals[idx]))


def compare_exact(ref, imp, data_type):
    """Bit-exact comparison of `imp` against `ref` (NaN matches any NaN).
    None when equal, else a dict: index, ref, imp, count (of differing
    elements), or a shape message."""
    ref, imp = np.asarray(ref), np.asarray(imp)
    if ref.shape != imp.shape:
        return {"msg": f"shape {list(imp.shape)}, reference {list(ref.shape)}"}
    if data_type in FLOATS:
        dt, width = FLOATS[data_type]
        rb, ib = float_bits(ref, width).ravel(), float_bits(imp, width).ravel()
        rnan = np.isnan(rb.view(dt))
        inan = np.isnan(ib.view(dt))
        bad = ~((rb == ib) | (rnan & inan))
        rv, iv = rb, ib
    elif data_type in INTS:
        w = INTS[data_type]
        rv, iv = int_values(ref, w).ravel(), int_values(imp, w).ravel()
        bad = rv != iv
    else:
        raise ValueError(f"no exact comparison for data type {data_type}")
    n = int(bad.sum())
    if n == 0:
        return None
    k = int(np.argmax(bad))
    index = tuple(int(x) for x in np.unravel_index(k, ref.shape)) if ref.shape else ()
    return {"index": list(index), "ref": show(rv, data_type, k), "imp": show(iv, data_type, k), "count": n}


def is_bit_exact_mode(info):
    """EXACT, and ULP within half a unit both ways (exactly rounded), are
    compared bit for bit; the rest need the spec's checker."""
    mode = info["mode"]
    if mode == "EXACT":
        return True
    if mode == "ULP":
        u = info.get("ulp_info", {})
        return u.get("ulp", 1) <= 0.5 and u.get("ulp_lower", 0) <= 0.5
    return False


def mode_text(info):
    """A compliance mode with its parameters: `ULP:0.5`, `ULP:0.5/1.0` (upper,
    lower), `DOT_PRODUCT:s=0,ksb=9`, `EXACT`."""
    mode = info["mode"]
    if mode == "ULP":
        u = info.get("ulp_info", {})
        t = f"ULP:{u.get('ulp')}"
        return t + (f"/{u['ulp_lower']}" if "ulp_lower" in u else "")
    for key in ("dot_product_info", "abs_error_info", "reduce_product_info", "max_relative_info",
                "rescale_inexact_info"):
        if key in info and info[key]:
            return mode + ":" + ",".join(f"{k}={v}" for k, v in info[key].items())
    return mode


def for_verifier(imp, data_type):
    """`imp` in the dtype the spec's checker reads for `data_type`."""
    want = VERIFY_DTYPE.get(data_type)
    if want is None:
        return imp
    imp = np.asarray(imp, order="C")
    if imp.dtype == want:
        return imp
    if want.kind == "V" or imp.dtype.itemsize == want.itemsize and data_type in FLOATS:
        # (A 0-d array viewed as another dtype becomes 1-d: reshape it back.)
        return imp.reshape(-1).view(want).reshape(imp.shape) if imp.dtype.itemsize == want.itemsize else imp
    return imp.astype(want)


def save_npy(path, a):
    """np.save, but void dtypes written `<V2`/`<V1` as the reference model
    writes them: tosa_verify reads bf16 and fp8e4m3 in no other form
    (numpy writes `|V2`)."""
    import io
    buf = io.BytesIO()
    np.save(buf, a)
    data = buf.getvalue()
    if a.dtype.kind == "V":
        end = data.index(b"\n")
        data = data[:end].replace(b"'|V", b"'<V", 1) + data[end:]
    with open(path, "wb") as f:
        f.write(data)


# ---------------------------------------------------------------------------
# The tools


class Tools:
    def __init__(self, args):
        v = args.venv
        self.venv = v
        self.py = os.path.join(v, "bin", "python")
        self.gen = os.path.join(v, "bin", "tosa_verif_build_tests")
        sp = self._site_packages(v)
        self.refmodel = os.path.join(sp, "bin", "tosa_reference_model")
        self.verify = os.path.join(sp, "bin", "tosa_verify")
        self.tosa_opt = os.path.join(sp, "bin", "tosa-opt")
        self.schema = os.path.join(sp, "bin", "tosa.fbs")
        self.genlib = os.path.join(sp, "tosa_reference_model", "libtosa_reference_generate_lib.so")
        self.flatc = os.path.join(sp, "bin", "flatc")
        dist = [d for d in os.listdir(sp) if d.startswith("tosa_tools-") and d.endswith(".dist-info")]
        self.version = dist[0][len("tosa_tools-"):-len(".dist-info")] if dist else "?"
        for p in (self.gen, self.refmodel, self.verify, self.tosa_opt, self.schema, self.genlib):
            if not os.path.exists(p):
                sys.exit(f"tosa_conformance: {p} missing: is {v} a venv with tosa-tools?")
        self.bin = args.bin
        self.timeout = args.timeout
        self.tosa_ref = args.tosa_ref

    @staticmethod
    def _site_packages(v):
        lib = os.path.join(v, "lib")
        for d in sorted(os.listdir(lib)) if os.path.isdir(lib) else []:
            sp = os.path.join(lib, d, "site-packages")
            if os.path.isdir(os.path.join(sp, "bin")):
                return sp
        sys.exit(f"tosa_conformance: no tosa-tools in {v} (see --venv)")

    def run(self, cmd, timeout=None, **kw):
        try:
            return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)
        except subprocess.TimeoutExpired:
            return None

    def refmodel_run(self, tdir, outdir, precise=False):
        os.makedirs(outdir, exist_ok=True)
        cmd = [self.refmodel, "--operator_fbs", self.schema, "--test_desc", os.path.join(tdir, "desc.json"),
               "--output_dir", outdir]
        if precise:
            cmd.append("--precise_mode=1")
        return self.run(cmd, timeout=600)

    def deserialize(self, tosa_file):
        with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
            f.write("module {}\n")
        try:
            r = self.run([self.tosa_opt, f"--tosa-deserialize=tosa-flatbuffer-filename={tosa_file}", f.name],
                         timeout=120)
        finally:
            os.unlink(f.name)
        if r is None or r.returncode != 0:
            return None, (r.stderr.strip() if r else "timeout")
        # The deserializer reports a version difference on stdout.
        text = "\n".join(l for l in r.stdout.splitlines() if not l.startswith("WARNING:")).strip() + "\n"
        return text, None

    def mlir_opt(self, path, generic=False):
        """None if mlir-opt 22 accepts `path`, else its first error line;
        with `generic`, (None, generic text) or (error, None)."""
        cmd = [MLIR_OPT, path] + (["--mlir-print-op-generic"] if generic else ["-o", os.devnull])
        r = self.run(cmd, timeout=120)
        if r is None:
            err = "mlir-opt timed out"
        elif r.returncode != 0:
            lines = [l for l in r.stderr.splitlines() if "error:" in l] or r.stderr.splitlines() or [
                f"exit {r.returncode} without a diagnostic"]
            err = lines[0].strip()
        else:
            err = None
        return (err, r.stdout if err is None else None) if generic else err


# ---------------------------------------------------------------------------
# The deserialized MLIR: its @main signature, inlined inputs, widened results

TYPE_RE = r"(?:tensor<[^>]*>|!tosa\.shape<\d+>|[\w.]+)"
ARG_RE = re.compile(r"%(\w+): (" + TYPE_RE + r")(?: \{tosa\.tensor_name = \"([^\"]*)\"\})?")
RES_RE = re.compile(r"(" + TYPE_RE + r")(?: \{tosa\.tensor_name = \"([^\"]*)\"\})?")
MAIN_RE = re.compile(r"^(\s*)func\.func @main\((.*)\) -> (.*) \{$")
NPY_ELEMS = {"i1", "i8", "i16", "i32", "i64", "f16", "f32", "f64", "bf16", "f8E4M3FN", "f8E5M2", "f8E8M0FNU"}
WIDEN = {"i4": "i8", "i48": "i64"}


def elem_of(ty):
    m = re.match(r"tensor<(?:[\d?]+x)*([\w]+)>$", ty)
    return m.group(1) if m else None


def shape_of(ty):
    m = re.match(r"tensor<((?:[\d?]+x)*)[\w]+>$", ty)
    return [int(d) for d in m.group(1).split("x")[:-1]] if m else None


def parse_main(text):
    """(line index, indent, [(arg, type, name)], [(type, name)]) of @main."""
    lines = text.splitlines()
    for i, l in enumerate(lines):
        m = MAIN_RE.match(l)
        if m:
            args = ARG_RE.findall(m.group(2))
            res = m.group(3)
            if res.startswith("(") and res.endswith(")"):
                res = res[1:-1]
            results = RES_RE.findall(res)
            return i, m.group(1), args, results
    raise ValueError("no func.func @main line in the deserialized MLIR")


def dense_literal(a, elem):
    """`a` as MLIR dense element text for element type `elem`: floats as hex
    bit patterns (exact), integers in decimal, i1 as true/false."""
    a = np.asarray(a)
    if elem in ("f32", "f16", "bf16", "f8E4M3FN", "f8E5M2", "f8E8M0FNU", "f64"):
        width = {"f64": 64, "f32": 32, "f16": 16, "bf16": 16}.get(elem, 8)
        flat = [f"0x{int(b):0{width // 4}X}" for b in float_bits(a, width).ravel()]
    elif elem == "i1":
        flat = ["true" if bool(x) else "false" for x in a.ravel()]
    elif re.fullmatch(r"u?i\d+", elem):
        flat = [str(int(x)) for x in a.ravel()]
    elif elem in ("f6E2M3FN", "f6E3M2FN", "f4E2M1FN"):
        # TOSA 1.1's block-scaled data: the generator packs it in its .npy.
        raise ValueError(f"{elem} inputs (packed in their .npy) are not handled")
    else:
        raise ValueError(f"no literal for element type {elem}")
    if a.ndim == 0:
        return flat[0]

    def nest(dims, items):
        if len(dims) == 1:
            return "[" + ", ".join(items) + "]"
        step = len(items) // dims[0]
        return "[" + ", ".join(nest(dims[1:], items[k * step:(k + 1) * step]) for k in range(dims[0])) + "]"

    if a.size == 0:
        return ""
    return nest(list(a.shape), flat)


def const_line(indent, name, ty, a):
    elem = elem_of(ty)
    if elem is None:
        raise ValueError(f"cannot inline an argument of type {ty}")
    body = dense_literal(a, elem)
    return f'{indent}%{name} = "tosa.const"() <{{values = dense<{body}> : {ty}}}> : () -> {ty}'


def rewrite_main(text, inline, widen_results):
    """`text` with the @main arguments in `inline` ({arg name: array})
    made constants at the start of the body, and the results whose
    element type is in WIDEN sign-extended (arith.extsi) to the wider type."""
    lines = text.splitlines()
    i, indent, args, results = parse_main(text)
    body_indent = indent + "  "
    keep = [(a, t, n) for a, t, n in args if a not in inline]
    consts = [const_line(body_indent, a, t, inline[a]) for a, t, n in args if a in inline]
    new_results = []
    for t, n in results:
        e = elem_of(t)
        if widen_results and e in WIDEN:
            t = t[: -len(e) - 1] + WIDEN[e] + ">"
        new_results.append((t, n))
    argtext = ", ".join(f"%{a}: {t}" + (f' {{tosa.tensor_name = "{n}"}}' if n else "") for a, t, n in keep)
    restext = ", ".join(t + (f' {{tosa.tensor_name = "{n}"}}' if n else "") for t, n in new_results)
    lines[i] = f"{indent}func.func @main({argtext}) -> ({restext}) {{"
    # The body's return (the only `return` in @main: regions yield).
    j = i + 1
    while j < len(lines) and not lines[j].startswith(indent + "}"):
        j += 1
    ret = None
    for k in range(j - 1, i, -1):
        if lines[k].strip().startswith("return "):
            ret = k
            break
    if widen_results and new_results != results:
        if ret is None:
            raise ValueError("no return in @main")
        m = re.match(r"^(\s*)return (.*) : (.*)$", lines[ret])
        ops = [o.strip() for o in m.group(2).split(",")]
        tys = [t.strip() for t in m.group(3).split(", ")]
        pre = []
        for k, ((old, _), (new, _)) in enumerate(zip(results, new_results)):
            if old != new:
                pre.append(f"{m.group(1)}%__wide{k} = arith.extsi {ops[k]} : {old} to {new}")
                ops[k], tys[k] = f"%__wide{k}", new
        lines[ret:ret + 1] = pre + [f"{m.group(1)}return {', '.join(ops)} : {', '.join(tys)}"]
    lines[i + 1:i + 1] = consts
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------
# Generating and choosing tests

DTYPE_TOKEN = re.compile(r"^(b|i\d+|f\d+|bf16|f8e4m3|f8e5m2|fp8e4m3|fp8e5m2|out\w+|acc\w+|\w*x\w*i\d+|\w*xf\d+)$")


# The extensions of TOSA 1.0 (the spec's list; MLIR 22's tosa dialect is of
# 1.0): the default --extension for --tosa-version 1.0. The generator
# makes tests of 1.1's (int64, shape, the mx block-scaled types) otherwise.
EXTENSIONS_1_0 = ["tosa-ext-int16", "tosa-ext-int4", "tosa-ext-bf16", "tosa-ext-fp8e4m3", "tosa-ext-fp8e5m2",
                  "tosa-ext-fft", "tosa-ext-variable", "tosa-ext-controlflow", "tosa-ext-doubleround",
                  "tosa-ext-inexactround", "tosa-ext-dynamic"]


def generate(args, gendir, lazy=True, filter=None):
    """The tests, their data not yet made (--lazy-data-generation: making
    every test's data takes minutes; `make_data` makes the chosen tests')."""
    cmd = [args.tools.gen, "-o", gendir]
    if lazy:
        cmd += ["--lazy-data-generation", "--generate-lib-path", args.tools.genlib]
    cmd += ["--filter", filter or args.filter, "--tosa-version", args.tosa_version, "--test-type", "positive",
            "--seed", str(args.seed)]
    # The generator drops target shapes outside the dim range.
    if "--target-shape" not in args.gen_arg:
        cmd += ["--tensor-dim-range", args.dims]
    cmd += ["--max-batch-size", "1", "--max-conv-padding", "1", "--max-conv-stride", "2",
           "--max-conv-dilation", "2", "--max-pooling-padding", "1", "--max-pooling-stride", "2",
           "--max-pooling-kernel", "2", "--max-resize-output-dim", "8", "--num-rand-permutations", "2"]
    if args.profile:
        cmd += ["--profile"] + args.profile
    ext = args.extension
    if ext is None and args.tosa_version in ("1.0", "1.0.0", "1.0.1", "1.0.2"):
        ext = EXTENSIONS_1_0
    if ext:
        cmd += ["--extension"] + ext
    if args.dtype:
        cmd += ["--target-dtype"] + args.dtype
    if args.rank:
        cmd += ["--target-rank"] + [str(r) for r in args.rank]
    cmd += args.gen_arg
    print("generating:", " ".join(shlex.quote(c) for c in cmd), flush=True)
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"tosa_conformance: the generator failed:\n{r.stdout[-2000:]}{r.stderr[-3000:]}")
    out = r.stdout + r.stderr
    tail = [l for l in out.splitlines() if "tests" in l]
    print("  " + (tail[-1] if tail else "(no summary)"), flush=True)
    # Ops the generator makes no lazy tests of (cond_if_const): with data.
    no_lazy = re.findall(r"(\w+) tests are currently not supported by lazy_data_gen", out)
    if lazy and no_lazy:
        generate(args, gendir, lazy=False, filter="^(" + "|".join(re.escape(o) for o in sorted(set(no_lazy))) + ")$")


MAKE_DATA = """
import json, os, sys
from generator.datagenerator import GenerateLibrary
from pathlib import Path
lib = GenerateLibrary(Path(sys.argv[1]))
for t in sys.argv[2:]:
    desc = json.load(open(os.path.join(t, "desc.json")))
    if all(os.path.exists(os.path.join(t, f)) for f in desc["ifm_file"]):
        continue
    lib.set_config(desc)
    lib.write_numpy_files(Path(t))
"""


def eager_where_needed(args, chosen, lacking):
    """Regenerate, with their data, the chosen tests of ops that have a test
    in `lacking`: lazily generated, with constants no data file holds
    (those in while_loop's regions, whose blocks' inputs are then wrong
    too)."""
    for op, tests in chosen.items():
        if not lacking & set(tests):
            continue
        eager = os.path.normpath(os.path.join(os.path.dirname(os.path.dirname(tests[0])), "..", "eager"))
        os.makedirs(eager, exist_ok=True)
        generate(args, eager, lazy=False, filter="^" + re.escape(op) + "$")
        for t in tests:
            src = os.path.join(eager, op, os.path.basename(t))
            if os.path.isdir(src):
                shutil.rmtree(t)
                shutil.copytree(src, t)
        shutil.rmtree(os.path.join(eager, op), ignore_errors=True)


def make_data(tools, tests):
    """Write the input .npy files of `tests` with the reference model's data
    generator (what tosa_verif_run_ref does for lazily generated tests),
    and put the constants' data into test.tosa, where lazy generation left
    them empty (the reference model reads them from the .npy files, but
    tosa-opt's deserializer asserts on an empty constant)."""
    for k in range(0, len(tests), 200):
        r = tools.run([tools.py, "-c", MAKE_DATA, tools.genlib] + tests[k:k + 200], timeout=1800)
        if r is None or r.returncode != 0:
            sys.exit(f"tosa_conformance: the data generator failed: {r.stderr[-3000:] if r else 'timeout'}")
    def filled(t):
        try:
            return fill_constants(tools, t)
        except Exception as x:  # left to the deserializer to report
            print(f"  {os.path.basename(t)}: constants not filled: {x}", flush=True)
            return False

    return {t for t in tests if not filled(t)}


def tosa_bytes(a, dtype):
    """Array `a` as the serializer stores a tensor of TOSA type `dtype`
    (little-endian; INT48 in 6 bytes, INT4 two to a byte, BOOL a byte)."""
    a = np.asarray(a, order="C").reshape(-1)
    if dtype == "INT4":
        v = a.astype(np.uint8) & 0xF
        if v.size % 2:
            v = np.append(v, np.uint8(0))
        return (v[0::2] | (v[1::2] << 4)).astype(np.uint8).tobytes()
    if dtype == "INT48":
        b = a.astype("<i8").view(np.uint8).reshape(-1, 8)[:, :6]
        return b.tobytes()
    if dtype == "BOOL":
        return a.astype(np.uint8).tobytes()
    width = {"INT8": 1, "INT16": 2, "INT32": 4, "INT64": 8, "SHAPE": 8, "FP32": 4, "FP16": 2, "BF16": 2,
             "FP8E4M3": 1, "FP8E5M2": 1}.get(dtype)
    if width is None or a.dtype.itemsize != width:
        raise ValueError(f"cannot store a {a.dtype} array as {dtype}")
    return a.view(UINT_OF_WIDTH[width * 8]).astype(f"<u{width}").tobytes()


def fill_constants(tools, tdir):
    desc_path = os.path.join(tdir, "desc.json")
    with open(desc_path) as f:
        desc = json.load(f)
    dg = desc.get("meta", {}).get("data_gen", {}).get("tensors", {})
    consts = {n: f for n, f in zip(desc["ifm_name"], desc["ifm_file"]) if dg.get(n, {}).get("input_type") == "CONSTANT"}
    tosa = os.path.join(tdir, desc["tosa_file"])
    work = tempfile.mkdtemp(prefix="tosa_fill_")
    try:
        r = tools.run([tools.flatc, "--json", "--strict-json", "--raw-binary", "-o", work, tools.schema, "--", tosa])
        if r is None or r.returncode != 0:
            raise RuntimeError(f"flatc --json failed: {r.stderr if r else 'timeout'}")
        jpath = os.path.join(work, os.path.splitext(os.path.basename(tosa))[0] + ".json")
        with open(jpath) as f:
            g = json.load(f)
        const_out = {o for reg in g["regions"] for b in reg["blocks"] for op in b["operators"]
                     if op["op"] in ("CONST", "CONST_SHAPE") for o in op["outputs"]}
        filled = set()
        for reg in g["regions"]:
            for b in reg["blocks"]:
                for t in b["tensors"]:
                    if t["name"] in consts and t["name"] in const_out and not t.get("data"):
                        a = np.load(os.path.join(tdir, consts[t["name"]]))
                        t["data"] = list(tosa_bytes(a, t["type"]))
                        filled.add(t["name"])
                # Lazily generated constants are also the graph's inputs.
                b["inputs"] = [n for n in b.get("inputs", []) if n not in filled]
                empty = [t["name"] for t in b["tensors"] if t["name"] in const_out and not t.get("data")
                         and int(np.prod(t.get("shape") or [])) > 0]
                if empty:
                    return False
        if not filled:
            return True
        with open(jpath, "w") as f:
            json.dump(g, f)
        r = tools.run([tools.flatc, "-b", "-o", work, tools.schema, jpath])
        if r is None or r.returncode != 0:
            raise RuntimeError(f"flatc -b failed: {r.stderr if r else 'timeout'}")
        shutil.copy(os.path.join(work, os.path.splitext(os.path.basename(tosa))[0] + ".tosa"), tosa)
        # As a test generated with its data: the constants are no inputs.
        keep = [(n, f) for n, f in zip(desc["ifm_name"], desc["ifm_file"]) if n not in filled]
        desc["ifm_name"], desc["ifm_file"] = [n for n, _ in keep], [f for _, f in keep]
        with open(desc_path, "w") as f:
            json.dump(desc, f, indent=1)
        return True
    finally:
        shutil.rmtree(work, ignore_errors=True)


def choose(gendir, limit, seed):
    """{op: [test dirs]}: at most `limit` tests of each op, spread over the
    data-type tokens of their names (round robin over the groups)."""
    chosen = {}
    if not os.path.isdir(gendir):
        return chosen
    rng = random.Random(seed)
    for op in sorted(os.listdir(gendir)):
        d = os.path.join(gendir, op)
        if not os.path.isdir(d):
            continue
        tests = sorted(t for t in os.listdir(d) if os.path.isfile(os.path.join(d, t, "desc.json")))
        groups = collections.defaultdict(list)
        for t in tests:
            toks = t[len(op):].strip("_").split("_")
            key = tuple(x for x in toks[1:] if DTYPE_TOKEN.match(x) and not x.startswith("st"))[:2]
            groups[key].append(t)
        for g in groups.values():
            rng.shuffle(g)
        keys = sorted(groups)
        rng.shuffle(keys)
        pick = []
        while len(pick) < (limit or len(tests)) and any(groups[k] for k in keys):
            for k in keys:
                if groups[k] and len(pick) < (limit or len(tests)):
                    pick.append(groups[k].pop())
        chosen[op] = [os.path.join(d, t) for t in sorted(pick)]
        # Tests not chosen are removed: the work dir holds what ran.
        for t in tests:
            if t not in pick:
                shutil.rmtree(os.path.join(d, t), ignore_errors=True)
    return chosen


# ---------------------------------------------------------------------------
# One test


def first_error(stderr):
    lines = [l.strip() for l in stderr.splitlines() if l.strip()]
    for l in lines:
        if "error" in l.lower():
            return l
    return lines[0] if lines else ""


def ensure_precise(tools, tdir, note):
    pdir = os.path.join(tdir, "precise")
    if not os.path.isdir(pdir):
        r = tools.refmodel_run(tdir, pdir, precise=True)
        if r is None or r.returncode != 0:
            note.append("precise-mode reference run failed")
            return None
    return pdir


def spec_check(tools, tdir, desc, name, imp, data_type, note):
    """Run tosa_verify on `imp`: True compliant, False not, None unknown.
    Appends its message to `note`."""
    pdir = ensure_precise(tools, tdir, note)
    if pdir is None:
        return None
    k = desc["ofm_name"].index(name)
    ref_file = os.path.join(pdir, desc["ofm_file"][k])
    imp_file = os.path.join(tdir, "ours", f"verify_{desc['ofm_file'][k]}")
    save_npy(imp_file, for_verifier(imp, data_type))
    cmd = [tools.verify, "--test_desc", os.path.join(tdir, "desc.json"), "--imp_result_file", imp_file,
           "--ref_result_file", ref_file, "--ofm_name", name]
    bnd = os.path.join(pdir, "bounds_" + desc["ofm_file"][k])
    if os.path.exists(bnd):
        cmd += ["--bnd_result_file", bnd]
    r = tools.run(cmd, timeout=300)
    if r is None:
        note.append("tosa_verify timed out")
        return None
    if r.returncode == 0:
        return True
    msg = [l.strip() for l in (r.stdout + r.stderr).splitlines() if "[Verifier]" in l or "deviance" in l]
    if r.returncode == 2:
        note.append("tosa_verify: " + (msg[-1] if msg else "non-compliant"))
        return False
    note.append("tosa_verify error: " + first_error(r.stdout + r.stderr))
    return None


def run_test(args, tdir):
    try:
        return run_test_unguarded(args, tdir)
    except Exception as x:  # a harness bug or a test it cannot handle
        return {"op": os.path.basename(os.path.dirname(tdir)), "test": os.path.basename(tdir), "dir": tdir,
                "verdict": "SKIPPED", "detail": f"harness: {type(x).__name__}: {x}", "mode": "", "repro": ""}


def run_test_unguarded(args, tdir):
    tools = args.tools
    name = os.path.basename(tdir)
    op = os.path.basename(os.path.dirname(tdir))
    res = {"op": op, "test": name, "dir": tdir, "verdict": None, "detail": "", "mode": "", "repro": ""}
    with open(os.path.join(tdir, "desc.json")) as f:
        desc = json.load(f)
    comp = desc.get("meta", {}).get("compliance", {}).get("tensors", {})
    res["mode"] = " ".join(f"{n}={mode_text(comp[n])}" for n in desc["ofm_name"] if n in comp)

    # 1. The reference model.
    r = tools.refmodel_run(tdir, os.path.join(tdir, "ref"))
    ref_rc = None if r is None else r.returncode
    ref_msg = "timeout" if r is None else first_error(r.stderr + r.stdout)

    # 2. The MLIR, and mlir-opt 22's opinion of it.
    text, err = tools.deserialize(os.path.join(tdir, desc["tosa_file"]))
    if text is None:
        res.update(verdict="SKIPPED", detail=f"tosa-opt could not deserialize: {err}")
        return res
    mlir = os.path.join(tdir, "test.mlir")
    with open(mlir, "w") as f:
        f.write(text)
    opt_err = tools.mlir_opt(mlir)

    # 3. Ours.
    note = []
    _, _, fargs, fresults = parse_main(text)
    ifm = dict(zip(desc["ifm_name"], desc["ifm_file"]))
    inline, npys = {}, []
    for i, (a, t, n) in enumerate(fargs):
        f = ifm.get(n) or (desc["ifm_file"][i] if i < len(desc["ifm_file"]) else None)
        if f is None:
            res.update(verdict="SKIPPED", detail=f"no input file for argument %{a} ({n})")
            return res
        if elem_of(t) in NPY_ELEMS:
            npys.append(os.path.join(tdir, f))
        else:
            inline[a] = np.load(os.path.join(tdir, f))
    widen = any(elem_of(t) in WIDEN for t, _ in fresults)
    run_file = mlir
    if inline or widen:
        run_file = os.path.join(tdir, "test.run.mlir")
        with open(run_file, "w") as f:
            f.write(rewrite_main(text, inline, widen))
        kinds = "/".join(sorted({elem_of(t) for a, t, n in fargs if a in inline}))
        note.append("ran test.run.mlir: " + ", ".join(
            ([f"{kinds} inputs inlined"] if inline else []) + (["results widened with arith.extsi"] if widen else [])))
    if args.generic:
        if opt_err is not None:
            res.update(verdict="NOT-LLVM22", detail=f"mlir-opt 22: {opt_err}")
            return res
        err, generic = tools.mlir_opt(run_file, generic=True)
        if err is not None:
            res.update(verdict="SKIPPED", detail=f"mlir-opt 22 rejects the harness's rewrite: {err}")
            return res
        run_file = os.path.join(tdir, "test.generic.mlir")
        with open(run_file, "w") as f:
            f.write(generic)
    outdir = os.path.join(tdir, "ours")
    shutil.rmtree(outdir, ignore_errors=True)
    cmd = [tools.bin, "run", run_file] + [x for p in npys for x in ("--arg", "@" + p)] + ["--out", outdir]
    if args.timeout:
        cmd += ["--timeout", str(args.timeout)]
    res["repro"] = " ".join(shlex.quote(c) for c in cmd)
    r = tools.run(cmd, timeout=(args.timeout or 60) + 30)
    ours_msg = ""
    if r is None:
        ours = "TIMEOUT"
    else:
        ours_msg = first_error(r.stderr)
        low = r.stderr.lower()
        unsupported = "not supported" in low or "unsupported" in low
        if r.returncode == 0:
            ours = "OK"
        elif r.returncode == 3:
            ours = "INTERNAL"
        elif unsupported and r.returncode in (1, 2):
            ours = "UNSUPPORTED"
        elif r.returncode == 2:
            ours = "REJECTED"
        elif r.returncode == 1 and ("timeout" in low or "timed out" in low or "fuel" in low):
            ours = "TIMEOUT"
        elif r.returncode == 1:
            ours = "UB"
        else:
            ours = "INTERNAL"
            ours_msg = f"exit {r.returncode}: {ours_msg}"
    if ours == "UNSUPPORTED":
        m = re.search(r"'((?:tosa|arith|func)\.\w+)'", r.stderr)
        ours_msg = m.group(1) if m else ours_msg
    elif ours in ("REJECTED", "UB", "INTERNAL") and r is not None:
        # The source line under the diagnostic names the op.
        lines = r.stderr.splitlines()
        at = next((k for k, l in enumerate(lines) if "error" in l), None)
        m = re.search(r"(?:= |^\s*)\"?(tosa\.\w+)\"?[ (]", lines[at + 1]) if at is not None and at + 1 < len(
            lines) else None
        if m and m.group(1) not in ours_msg:
            ours_msg += f" [{m.group(1)}]"

    def finish(verdict, detail):
        if note:
            detail = (detail + "; " if detail else "") + "; ".join(note)
        res.update(verdict=verdict, detail=detail)
        return res

    if opt_err is not None:
        return finish("NOT-LLVM22", f"mlir-opt 22: {opt_err} (ours: {ours}{': ' + ours_msg if ours_msg else ''})")
    if ref_rc != 0:
        if ours == "UB" and ref_rc == 1:
            res["ub_agrees"] = True
            return finish("UB", f"{ours_msg} (the reference model: UNPREDICTABLE, agreed)")
        return finish("REF-FAILED", f"reference model exit {ref_rc}: {ref_msg} (ours: {ours})")
    if ours != "OK":
        return finish(ours, ours_msg)

    # 4. Compare.
    for i, (ty, rname) in enumerate(fresults):
        oname = rname if rname in desc["ofm_name"] else desc["ofm_name"][i]
        k = desc["ofm_name"].index(oname)
        info = comp.get(oname, {"mode": "EXACT"})
        data_type = info.get("data_type") or "?"
        ref = np.load(os.path.join(tdir, "ref", desc["ofm_file"][k]))
        mine_path = os.path.join(outdir, f"result{i}.npy")
        if not os.path.exists(mine_path):
            return finish("MISMATCH", f"{oname}: no result{i}.npy written")
        imp = np.load(mine_path)
        if data_type not in FLOATS and data_type not in INTS:
            data_type = {"f": "FP32"}.get(ref.dtype.kind, "INT64")
        mt = mode_text(info)
        if is_bit_exact_mode(info):
            d = compare_exact(ref, imp, data_type)
            if d is None:
                continue
            detail = f"{oname} [{mt}, {data_type}]: " + (
                d["msg"] if "msg" in d else
                f"at {d['index']}: ours {d['imp']}, reference {d['ref']} ({d['count']} of {ref.size} differ)")
            if "msg" not in d and data_type in FLOATS:
                ok = spec_check(tools, tdir, desc, oname, imp, data_type, note)
                if ok:
                    note.append("tosa_verify accepts it")
            return finish("MISMATCH", detail)
        ok = spec_check(tools, tdir, desc, oname, imp, data_type, note)
        if ok is None:
            return finish("MISMATCH", f"{oname} [{mt}]: the spec's checker could not run")
        if not ok:
            d = compare_exact(ref, imp, data_type) if np.shape(ref) == np.shape(imp) else None
            where = (f"; first difference from the reference's output at {d['index']}: ours {d['imp']}, "
                     f"reference {d['ref']}" if d and "index" in d else "")
            return finish("MISMATCH", f"{oname} [{mt}, {data_type}]: non-compliant{where}")
    return finish("PASS", "")


# ---------------------------------------------------------------------------
# Reporting


def is_failure(r):
    v = r["verdict"]
    return v in ("MISMATCH", "INTERNAL", "REJECTED") or (v == "UB" and not r.get("ub_agrees"))


def report(results, out):
    ops = sorted({r["op"] for r in results})
    used = [v for v in VERDICTS if any(r["verdict"] == v for r in results)]
    w = max([len(o) for o in ops] + [6])
    print()
    print(f"{'op':<{w}} " + " ".join(f"{v:>11}" for v in used) + f" {'total':>6}")
    for o in ops:
        rs = [r for r in results if r["op"] == o]
        print(f"{o:<{w}} " + " ".join(f"{sum(r['verdict'] == v for r in rs) or '.':>11}" for v in used)
              + f" {len(rs):>6}")
    print(f"{'total':<{w}} " + " ".join(f"{sum(r['verdict'] == v for r in results):>11}" for v in used)
          + f" {len(results):>6}")
    # Per verdict: the distinct reasons.
    for v in used:
        if v == "PASS":
            continue
        reasons = collections.Counter()
        for r in results:
            if r["verdict"] == v:
                # Grouped by message: without the file's path, our outcome
                # (NOT-LLVM22) and the harness's notes.
                key = re.sub(r"\S+\.mlir:\d+:\d+: ", "", r["detail"])
                key = re.sub(r" \(ours:.*$", "", key) if v == "NOT-LLVM22" else key
                key = key.split("; ran test.run.mlir")[0].strip()
                reasons[key[:200]] += 1
        print(f"\n{v}:")
        for reason, n in reasons.most_common(12 if v not in ("MISMATCH", "REJECTED", "INTERNAL", "UB") else 50):
            print(f"  {n:4d}  {reason}")
    with open(os.path.join(out, "results.tsv"), "w") as f:
        f.write("op\ttest\tverdict\tmode\tdetail\n")
        for r in results:
            f.write("\t".join([r["op"], r["test"], r["verdict"], r["mode"], r["detail"].replace("\t", " ")]) + "\n")
    fails = [r for r in results if is_failure(r)]
    with open(os.path.join(out, "failures.txt"), "w") as f:
        for r in fails:
            f.write(f"{r['verdict']} {r['test']}: {r['detail']}\n  {r['repro']}\n")
    if fails:
        print(f"\n{len(fails)} failing tests (repro commands in {out}/failures.txt):")
        for r in fails[:40]:
            print(f"  {r['verdict']} {r['test']} [{r['mode']}]: {r['detail']}\n    {r['repro']}")
    print(f"\nresults: {out}/results.tsv")
    return 1 if fails else 0


# ---------------------------------------------------------------------------
# Record mode


def record(args, chosen):
    tools = args.tools
    os.makedirs(args.record, exist_ok=True)
    counts = collections.Counter()
    for op, tests in chosen.items():
        for tdir in tests:
            name = os.path.basename(tdir)
            why = record_one(args, tools, tdir, name)
            counts[re.split(r"[: ]", why)[0]] += 1
            print(f"  {name}: {why}", flush=True)
    print("\n" + ", ".join(f"{k}: {n}" for k, n in sorted(counts.items())))
    return 0 if counts.keys() <= {"recorded", "skipped"} else 1


def record_one(args, tools, tdir, name):
    with open(os.path.join(tdir, "desc.json")) as f:
        desc = json.load(f)
    comp = desc.get("meta", {}).get("compliance", {}).get("tensors", {})
    big = [s for s in desc.get("test_details", {}).get("output_shapes", []) if int(np.prod(s)) > args.max_elems]
    inputs = {n: np.load(os.path.join(tdir, f)) for n, f in zip(desc["ifm_name"], desc["ifm_file"])}
    big += [n for n, a in inputs.items() if a.size > args.max_elems]
    if big:
        return f"skipped: more than {args.max_elems} elements"
    text, err = tools.deserialize(os.path.join(tdir, desc["tosa_file"]))
    if text is None:
        return f"skipped: tosa-opt could not deserialize: {err}"
    if any(f"tensor<" in t and "?" in t for _, t, _ in parse_main(text)[2]):
        return "skipped: dynamic shapes"
    _, _, fargs, fresults = parse_main(text)
    inline = {a: inputs[n] for a, t, n in fargs}
    body = rewrite_main(text, inline, widen_results=False)
    modes = []
    for i, (t, n) in enumerate(fresults):
        info = comp.get(n)
        modes.append(f"result{i}=" + (mode_text(info) if info else "EXACT"))
    head = (f"// COMPLIANCE: {' '.join(modes)}\n"
            f"// Recorded by {TOOL} from ARM's TOSA reference model (tosa-tools {tools.version}), generator seed "
            f"{args.seed}, test {name}.\n")
    path = os.path.join(args.record, f"{name}.mlir")
    tmp = path + ".tmp.mlir"
    with open(tmp, "w") as f:
        f.write(head + body)
    err = tools.mlir_opt(tmp)
    if err:
        os.unlink(tmp)
        return f"NOT-LLVM22: {err}"
    # The reference model on the self-contained file.
    refdir = tempfile.mkdtemp(prefix="tosa_rec_")
    env = dict(os.environ, TOSA_VENV=tools.venv)
    r = tools.run(["bash", tools.tosa_ref, tmp, refdir], timeout=300, env=env)
    if r is None or r.returncode != 0:
        os.unlink(tmp)
        shutil.rmtree(refdir, ignore_errors=True)
        return f"REF-FAILED: {first_error(r.stderr) if r else 'timeout'}"
    # It must agree with the reference model on the original test.
    orig = tools.refmodel_run(tdir, os.path.join(tdir, "ref"))
    if orig is None or orig.returncode != 0:
        os.unlink(tmp)
        shutil.rmtree(refdir, ignore_errors=True)
        return "REF-FAILED: the original test failed in the reference model"
    outs = []
    for i, (t, n) in enumerate(fresults):
        got = np.load(os.path.join(refdir, f"result_{i}.npy"))
        k = desc["ofm_name"].index(n) if n in desc["ofm_name"] else i
        want = np.load(os.path.join(tdir, "ref", desc["ofm_file"][k]))
        dt = comp.get(n, {}).get("data_type") or ("FP32" if want.dtype.kind == "f" else "INT64")
        d = compare_exact(want, got, dt)
        if d is not None:
            os.unlink(tmp)
            shutil.rmtree(refdir, ignore_errors=True)
            return f"INLINING-DIFFERS: result{i}: {d}"
        outs.append(got)
    os.replace(tmp, path)
    rdir = os.path.join(args.record, f"{name}.ref")
    shutil.rmtree(rdir, ignore_errors=True)
    os.makedirs(rdir)
    for i, a in enumerate(outs):
        np.save(os.path.join(rdir, f"result{i}.npy"), a)
    shutil.rmtree(refdir, ignore_errors=True)
    return f"recorded ({len(outs)} results)"


# ---------------------------------------------------------------------------
# Self-test


FAKE_SUT = r"""
import json, os, sys
import numpy as np
# A stand-in for `mlir-interp run FILE --arg @X ... --out DIR`: it answers
# with the reference model's output of FILE's test (test dir = FILE's dir),
# as mlir-interp would write it, spoiled per $FAKE_SUT_MODE.
argv = sys.argv[1:]
mode = os.environ.get("FAKE_SUT_MODE", "right")
if mode == "unsupported":
    sys.stderr.write("x.mlir:3:10: error: custom syntax of 'tosa.add' is not supported yet\n"); sys.exit(2)
if mode == "rejected":
    sys.stderr.write("x.mlir:3:10: error: 'tosa.add' op operands don't have matching shapes\n"); sys.exit(2)
if mode == "ub":
    sys.stderr.write("x.mlir:3:10: error: undefined behavior: shift out of range\n"); sys.exit(1)
if mode == "internal":
    sys.stderr.write("mlir-interp: internal error, please report it with the input: boom\n"); sys.exit(3)
tdir = os.path.dirname(argv[1])
out = argv[argv.index("--out") + 1]
desc = json.load(open(os.path.join(tdir, "desc.json")))
os.makedirs(out, exist_ok=True)
for i, f in enumerate(desc["ofm_file"]):
    a = np.load(os.path.join(tdir, "ref", f))
    if a.dtype.kind == "V":
        a = a.view({1: np.uint8, 2: np.uint16}[a.dtype.itemsize])
    a = np.array(a)
    if mode == "wrong" and a.size:
        k = a.size // 2
        flat = a.reshape(-1)
        if a.dtype.kind == "f":
            flat[k] = -flat[k] if flat[k] != 0 else 1
        elif a.dtype.kind == "b":
            flat[k] = not flat[k]
        elif a.dtype in (np.uint16, np.uint8) and desc["meta"]["compliance"]["tensors"][desc["ofm_name"][i]]["data_type"].startswith(("BF", "FP")):
            sign = 0x80 if a.dtype == np.uint8 else 0x8000
            # A nonzero value changes sign; a zero becomes a normal number.
            flat[k] = flat[k] ^ sign if flat[k] & (sign - 1) else (0x30 if sign == 0x80 else 0x3F80)
        else:
            flat[k] += 1
    np.save(os.path.join(out, f"result{i}.npy"), a)
"""


def self_test_e2e(venv):
    """Runs generated tests end to end with a fake mlir-interp (FAKE_SUT):
    each verdict must come out as its answer implies."""
    fails = []
    work = tempfile.mkdtemp(prefix="tosa_selftest_")
    try:
        script = os.path.join(work, "fake_sut.py")
        with open(script, "w") as f:
            f.write(FAKE_SUT)
        fake = os.path.join(work, "fake-mlir-interp")
        with open(fake, "w") as f:
            f.write(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} {shlex.quote(script)} \"$@\"\n")
        os.chmod(fake, 0o755)
        args = argparse.Namespace(venv=venv, bin=fake, timeout=30, tosa_ref="", filter="^(add|cast|mul)$",
                                  tosa_version="1.0", seed=1, dims="1,3", profile=None, extension=None,
                                  limit=8,
                                  dtype=["fp32", "bf16", "int32"], rank=[2], gen_arg=[], generic=False)
        args.tools = Tools(args)
        gendir = os.path.join(work, "gen")
        os.makedirs(gendir)
        generate(args, gendir)
        chosen = choose(gendir, 8, 1)
        tests = [t for ts in chosen.values() for t in ts]
        eager_where_needed(args, chosen, make_data(args.tools, tests))
        want = {"right": "PASS", "wrong": "MISMATCH", "unsupported": "UNSUPPORTED", "rejected": "REJECTED",
                "ub": "UB", "internal": "INTERNAL"}
        seen_modes = collections.Counter()
        for t in tests:
            for mode, verdict in want.items():
                os.environ["FAKE_SUT_MODE"] = mode
                r = run_test(args, t)
                if r["verdict"] == "REF-FAILED" or r["verdict"] == "NOT-LLVM22":
                    break
                seen_modes[(r["mode"].split("=", 1)[-1].split(":")[0], mode, r["verdict"])] += 1
                if r["verdict"] != verdict:
                    fails.append(f"{os.path.basename(t)} answered {mode}: {r['verdict']} {r['detail']}")
        os.environ.pop("FAKE_SUT_MODE", None)
        for (m, mode, v), n in sorted(seen_modes.items()):
            if mode in ("right", "wrong"):
                print(f"  e2e: {n} {m} tests answered {mode}: {v}")
        if not tests:
            fails.append("the generator made no tests")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return fails


def self_test(venv=None):
    fails, count = [], [0]

    def check(what, got, want):
        count[0] += 1
        if got != want:
            fails.append(f"{what}: got {got!r}, want {want!r}")

    f32 = lambda *b: np.array(b, np.uint32).view(np.float32)
    eq = lambda r, i, t: compare_exact(r, i, t) is None
    # NaN matches any NaN (sign, payload, quiet or signalling).
    check("f32 nan payload", eq(f32(0x7FC00000), f32(0xFFC00001), "FP32"), True)
    check("f32 snan vs qnan", eq(f32(0x7F800001), f32(0x7FC00000), "FP32"), True)
    check("f32 nan vs inf", eq(f32(0x7FC00000), f32(0x7F800000), "FP32"), False)
    check("f32 nan vs 1", eq(f32(0x3F800000), f32(0x7FC00000), "FP32"), False)
    # -0.0 is not +0.0 bit for bit.
    check("f32 -0 vs +0", eq(np.float32([0.0]), np.float32([-0.0]), "FP32"), False)
    check("f32 1 ulp", eq(f32(0x3F800000), f32(0x3F800001), "FP32"), False)
    d = compare_exact(f32(0, 0x3F800000, 0, 0).reshape(2, 2), f32(0, 0x3F800000, 0x80000000, 0).reshape(2, 2),
                      "FP32")
    check("f32 first index", (d["index"], d["count"], d["imp"], d["ref"]), ([1, 0], 1, "-0.0 (0x80000000)",
                                                                          "0.0 (0x00000000)"))
    # f16 as float16.
    h = lambda *b: np.array(b, np.uint16).view(np.float16)
    check("f16 nan payloads", eq(h(0x7E00), h(0xFE01), "FP16"), True)
    check("f16 -0", eq(h(0x0000), h(0x8000), "FP16"), False)
    # bf16: the reference writes |V2, mlir-interp <u2, ml_dtypes bfloat16.
    bfv = lambda *b: np.array(b, np.uint16).view("V2")
    check("bf16 V2 vs u2", eq(bfv(0x3F80, 0x7FC0), np.array([0x3F80, 0x7FC1], np.uint16), "BF16"), True)
    check("bf16 ml_dtypes", eq(np.array([1.0, -0.0], ml_dtypes.bfloat16), bfv(0x3F80, 0x8000), "BF16"), True)
    check("bf16 differs", eq(bfv(0x3F80), np.array([0x3F81], np.uint16), "BF16"), False)
    d = compare_exact(bfv(0x3F80), np.array([0x3F81], np.uint16), "BF16")
    check("bf16 shows", d["imp"], "1.0078125 (0x3F81)")
    # fp8: e4m3fn has NaN only at S.1111.111; e5m2 is IEEE-like.
    e4 = lambda *b: np.array(b, np.uint8).view("V1")
    check("e4m3 nan", eq(e4(0x7F), np.array([0xFF], np.uint8), "FP8E4M3"), True)
    check("e4m3 0x7E is 448 not nan", eq(e4(0x7E), np.array([0x7F], np.uint8), "FP8E4M3"), False)
    check("e4m3 ml_dtypes", eq(np.array([448.0], ml_dtypes.float8_e4m3fn), e4(0x7E), "FP8E4M3"), True)
    check("e5m2 nan payloads", eq(np.array([0x7E], np.uint8), np.array([0xFD], np.uint8), "FP8E5M2"), True)
    check("e5m2 inf is not nan", eq(np.array([0x7C], np.uint8), np.array([0x7D], np.uint8), "FP8E5M2"), False)
    # Integers: signless within the width (ui8 written as i8), i48 in int64.
    check("i8 vs u8 bits", eq(np.array([-1], np.int8), np.array([255], np.uint8), "INT8"), True)
    check("i16 differs", eq(np.array([1, 2], np.int16), np.array([1, 3], np.int16), "INT16"), False)
    check("i48 wraps", eq(np.array([-1], np.int64), np.array([(1 << 48) - 1], np.int64), "INT48"), True)
    check("i48 differs", eq(np.array([1 << 40], np.int64), np.array([1 << 41], np.int64), "INT48"), False)
    check("bool", eq(np.array([True, False]), np.array([True, True]), "BOOL"), False)
    check("bool same", eq(np.array([True, False]), np.array([1, 0], np.uint8), "BOOL"), True)
    check("shape", "msg" in compare_exact(np.zeros((2, 2), np.int32), np.zeros((4,), np.int32), "INT32"), True)
    check("rank 0", eq(np.array(5, np.int32), np.array(5, np.int32), "INT32"), True)
    # Modes.
    check("mode ULP 0.5 exact", is_bit_exact_mode({"mode": "ULP", "ulp_info": {"ulp": 0.5}}), True)
    check("mode ULP 0.5/1 not", is_bit_exact_mode({"mode": "ULP", "ulp_info": {"ulp": 0.5, "ulp_lower": 1.0}}),
          False)
    check("mode ULP 1 not", is_bit_exact_mode({"mode": "ULP", "ulp_info": {"ulp": 1.0}}), False)
    check("mode DOT", is_bit_exact_mode({"mode": "DOT_PRODUCT"}), False)
    # The checker's dtypes.
    check("verify bf16", for_verifier(np.array([0x3F80], np.uint16), "BF16").dtype, np.dtype("V2"))
    check("verify e4m3", for_verifier(np.array([0x38], np.uint8), "FP8E4M3").dtype, np.dtype("V1"))
    check("verify i48", for_verifier(np.array([1], np.int64), "INT48").dtype, np.dtype("int64"))
    check("verify rank 0", for_verifier(np.array(0x3F80, np.uint16), "BF16").shape, ())
    # Literals.
    check("dense f32", dense_literal(f32(0x3F800000, 0x7FC00000).reshape(1, 2), "f32"), "[[0x3F800000, 0x7FC00000]]")
    check("dense bf16", dense_literal(bfv(0x3F80), "bf16"), "[0x3F80]")
    check("dense i1", dense_literal(np.array([[True], [False]]), "i1"), "[[true], [false]]")
    check("dense i4", dense_literal(np.array([-8, 7], np.int8), "i4"), "[-8, 7]")
    check("dense rank0", dense_literal(np.array(3, np.int32), "i32"), "3")
    src = ('module {\n  func.func @main(%arg0: tensor<2xi48> {tosa.tensor_name = "input-0"}, %arg1: tensor<2xf32> '
           '{tosa.tensor_name = "input-1"}) -> (tensor<2xi48> {tosa.tensor_name = "result-0"}) {\n'
           '    %0 = tosa.add %arg0, %arg0 : (tensor<2xi48>, tensor<2xi48>) -> tensor<2xi48>\n'
           '    return %0 : tensor<2xi48>\n  }\n}\n')
    out = rewrite_main(src, {"arg0": np.array([1, -2], np.int64)}, True)
    check("rewrite", out.splitlines()[1:6], [
        '  func.func @main(%arg1: tensor<2xf32> {tosa.tensor_name = "input-1"}) -> '
        '(tensor<2xi64> {tosa.tensor_name = "result-0"}) {',
        '    %arg0 = "tosa.const"() <{values = dense<[1, -2]> : tensor<2xi48>}> : () -> tensor<2xi48>',
        '    %0 = tosa.add %arg0, %arg0 : (tensor<2xi48>, tensor<2xi48>) -> tensor<2xi48>',
        '    %__wide0 = arith.extsi %0 : tensor<2xi48> to tensor<2xi64>',
        '    return %__wide0 : tensor<2xi64>'])
    if venv and os.path.isdir(venv):
        e2e = self_test_e2e(venv)
        count[0] += 1
        fails += e2e
    else:
        print(f"(the end-to-end part needs tosa-tools: no venv at {venv}, see --venv)")
    for f in fails:
        print("FAIL", f)
    print(f"self-test: {count[0] - len(fails)} passed, {len(fails)} failed")
    return 1 if fails else 0


# ---------------------------------------------------------------------------


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--venv", default=os.environ.get("TOSA_VENV", os.path.join(ROOT, ".tosa-venv")))
    p.add_argument("--bin", default=os.path.join(ROOT, "target/release/mlir-interp"))
    p.add_argument("--filter", default="^(add|sub|mul|abs)$", help="op-name regex for the generator")
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("--tosa-version", default="1.0")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--out", default="/tmp/tosa_conformance", help="work dir (emptied first)")
    p.add_argument("--limit", type=int, default=8, help="tests per op (0: all)")
    p.add_argument("--profile", nargs="*", help="generator --profile (tosa-pro-int tosa-pro-fp)")
    p.add_argument("--extension", nargs="*", help="generator --extension (e.g. none, tosa-ext-bf16 ...)")
    p.add_argument("--dtype", nargs="*", help="generator --target-dtype")
    p.add_argument("--rank", type=int, nargs="*", help="generator --target-rank")
    p.add_argument("--dims", default="1,4", help="generator --tensor-dim-range")
    p.add_argument("--gen-arg", action="append", default=[], help="extra generator argument (repeatable)")
    p.add_argument("--timeout", type=int, default=60, help="seconds per mlir-interp run")
    p.add_argument("--generic", action="store_true", help="run mlir-opt 22's generic form of each test")
    p.add_argument("--keep", action="store_true", help="keep the directories of passing tests")
    p.add_argument("--record", metavar="DIR", help="write self-contained fixtures into DIR")
    p.add_argument("--max-elems", type=int, default=256, help="record: largest tensor kept")
    p.add_argument("--tosa-ref", default=os.path.join(os.path.dirname(ROOT), "shared", "tools", "tosa_ref.sh"))
    p.add_argument("--self-test", action="store_true", help="check the comparator and exit")
    args = p.parse_args()
    if args.self_test:
        return self_test(os.path.abspath(args.venv))
    args.venv = os.path.abspath(args.venv)
    args.tools = Tools(args)
    if not args.record and not os.path.exists(args.bin):
        sys.exit(f"tosa_conformance: no {args.bin} (cargo build --release, or --bin)")
    if args.record and not os.path.exists(args.tosa_ref):
        sys.exit(f"tosa_conformance: no {args.tosa_ref} (--tosa-ref)")
    out = os.path.abspath(args.out)
    shutil.rmtree(out, ignore_errors=True)
    gendir = os.path.join(out, "gen")
    os.makedirs(gendir)
    generate(args, gendir)
    chosen = choose(gendir, args.limit, args.seed)
    lacking = make_data(args.tools, [t for ts in chosen.values() for t in ts])
    eager_where_needed(args, chosen, lacking)
    if args.record:
        return record(args, chosen)
    tests = [t for ts in chosen.values() for t in ts]
    print(f"running {len(tests)} tests of {len(chosen)} ops, {args.jobs} at a time", flush=True)
    results = []
    with ThreadPoolExecutor(max(1, args.jobs)) as ex:
        for r in ex.map(lambda t: run_test(args, t), tests):
            results.append(r)
            if r["verdict"] in ("PASS", "UNSUPPORTED") or not is_failure(r):
                if not (args.keep or r["verdict"] in ("NOT-LLVM22", "REF-FAILED", "SKIPPED")):
                    shutil.rmtree(r["dir"], ignore_errors=True)
            else:
                with open(os.path.join(r["dir"], "repro.sh"), "w") as f:
                    f.write(f"# {r['verdict']}: {r['detail']}\n{r['repro']}\n")
            print(f"  {r['verdict']:<11} {r['test']}" + (f": {r['detail'][:160]}" if r["detail"] else ""),
                  flush=True)
    return report(results, out)


if __name__ == "__main__":
    sys.exit(main())
