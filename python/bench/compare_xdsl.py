"""Times mlir_interp and xDSL's interpreter (`xdsl-run`) on the same
program in the same run, and probes what each runs: prints a Markdown
table for the README. Needs `pip install xdsl` beside mlir_interp.

    python python/bench/compare_xdsl.py
"""

import pathlib
import subprocess
import sys
import tempfile
import time

FIB = (pathlib.Path(__file__).resolve().parents[1] / "examples/fib.mlir").read_text()

# Each probe: a @main returning one value, and what a correct run gives.
PROBES = {
    "i64 arithmetic, scf, func.call (fib 20)": (FIB, "6765"),
    "division by zero reported as UB": (
        "func.func @main() -> i32 {\n  %a = arith.constant 1 : i32\n  %z = arith.constant 0 : i32\n"
        "  %q = arith.divsi %a, %z : i32\n  return %q : i32\n}\n",
        "UB",
    ),
    "out-of-bounds memref.load reported as UB": (
        "func.func @main() -> f32 {\n  %c4 = arith.constant 4 : index\n  %m = memref.alloc() : memref<4xf32>\n"
        "  %x = memref.load %m[%c4] : memref<4xf32>\n  return %x : f32\n}\n",
        "UB",
    ),
    "f16 rounding (0.1 + 0.2 in f16 = 0.2998046875)": (
        "func.func @main() -> f16 {\n  %a = arith.constant 0.1 : f16\n  %b = arith.constant 0.2 : f16\n"
        "  %s = arith.addf %a, %b : f16\n  return %s : f16\n}\n",
        "0.2998046875",
    ),
    "bf16 arithmetic (1 + 2^-8 in bf16 = 1.0)": (
        "func.func @main() -> bf16 {\n  %a = arith.constant 1.0 : bf16\n  %b = arith.constant 0.00390625 : bf16\n"
        "  %s = arith.addf %a, %b : bf16\n  return %s : bf16\n}\n",
        "1.0",
    ),
    "i4 wrap-around (7 + 1 = -8)": (
        "func.func @main() -> i4 {\n  %a = arith.constant 7 : i4\n  %b = arith.constant 1 : i4\n"
        "  %s = arith.addi %a, %b : i4\n  return %s : i4\n}\n",
        "-8",
    ),
    "vector dialect (vector.reduction)": (
        "func.func @main() -> i32 {\n  %v = arith.constant dense<[1, 2, 3]> : vector<3xi32>\n"
        "  %r = vector.reduction <add>, %v : vector<3xi32> into i32\n  return %r : i32\n}\n",
        "6",
    ),
    "linalg.matmul on tensors": (
        "func.func @main() -> i32 {\n  %a = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>\n"
        "  %z = arith.constant dense<0> : tensor<2x2xi32>\n"
        "  %c = linalg.matmul ins(%a, %a : tensor<2x2xi32>, tensor<2x2xi32>) outs(%z : tensor<2x2xi32>) -> tensor<2x2xi32>\n"
        "  %i = arith.constant 1 : index\n  %r = tensor.extract %c[%i, %i] : tensor<2x2xi32>\n  return %r : i32\n}\n",
        "22",
    ),
}


def ours(path):
    """mlir_interp in a fresh Python process: (seconds, what it returned)."""
    code = (
        "import mlir_interp as mi\n"
        f"p = mi.Program.from_file({str(path)!r})\n"
        "try:\n    print(mi.Interpreter(p).call('main')[0])\n"
        "except mi.UndefinedBehavior:\n    print('UB')\n"
    )
    return timed([sys.executable, "-c", code])


def xdsl(path):
    """xdsl-run: (seconds, what it returned)."""
    return timed(["xdsl-run", "--verbose", str(path)])


def call_times():
    """The call of @main alone, parsed beforehand, in this process: (ours, xDSL's) seconds, best of 3."""
    import mlir_interp as mi
    from xdsl.interpreter import Interpreter
    from xdsl.interpreters import register_implementations
    from xdsl.parser import Parser
    from xdsl.tools.xdsl_run import xDSLRunMain

    def best(f):
        ts = []
        for _ in range(3):
            t = time.perf_counter()
            f()
            ts.append(time.perf_counter() - t)
        return min(ts)

    ours = mi.Interpreter(mi.Program.parse(FIB))
    ctx = xDSLRunMain(args=[]).ctx
    module = Parser(ctx, FIB).parse_module()
    theirs = Interpreter(module)
    register_implementations(theirs, ctx)
    return best(lambda: ours.call("main")), best(lambda: theirs.call_op("main", ()))


def timed(cmd):
    t = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    dt = time.perf_counter() - t
    out = p.stdout.strip().splitlines()
    if p.returncode != 0:
        # The exception's own line (unindented, naming an Error), not the traceback's.
        lines = [ln for ln in p.stderr.splitlines() if ln[:1].isalpha() and "Error" in ln.split(":")[0]] or ["?"]
        return dt, f"fails: {lines[0].strip()[:110]}"
    return dt, (out[-1] if out else "")


def main():
    with tempfile.TemporaryDirectory() as d:
        rows = []
        fib = pathlib.Path(d) / "fib.mlir"
        fib.write_text(FIB)
        # Best of three each, interleaved, in this one run.
        t_ours = min(ours(fib)[0] for _ in range(3))
        t_xdsl = min(xdsl(fib)[0] for _ in range(3))
        print(f"fib(20), wall time of a fresh process, best of 3: mlir_interp {t_ours:.2f} s, "
              f"xdsl-run {t_xdsl:.2f} s ({t_xdsl / t_ours:.0f}x)")
        c_ours, c_xdsl = call_times()
        print(f"fib(20), the call alone in one process, best of 3: mlir_interp {c_ours * 1e3:.1f} ms, "
              f"xDSL {c_xdsl * 1e3:.0f} ms ({c_xdsl / c_ours:.0f}x)")
        print()
        print("| program | expected | mlir_interp | xdsl-run |")
        print("| --- | --- | --- | --- |")
        for name, (text, want) in PROBES.items():
            f = pathlib.Path(d) / "probe.mlir"
            f.write_text(text)
            a, b = ours(f)[1], xdsl(f)[1]
            rows.append((name, want, a, b))
            print(f"| {name} | {want} | {a} | {b} |")


if __name__ == "__main__":
    main()
