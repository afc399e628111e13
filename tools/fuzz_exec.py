#!/usr/bin/env python3
"""Differential fuzzing of mlir-interp against the real toolchain.

    tools/fuzz_exec.py [--seeds N] [--start S] [--kind int|float|vector|complex|memref] [--keep DIR] [--lowered]

Generates straight-line programs of random ops on random constants:
  int      arith on integers of widths 1..64, avoiding UB;
  float    arith on f16/bf16/f32/f64;
  vector   chains of vector-dialect ops on i8/i32/f32 vectors;
  complex  complex ops on complex<f32>/complex<f64>;
  memref   chains of views (subview with rank reduction among several unit
           dims, expand_shape including of rank 0, collapse_shape,
           transpose, casts) of a constant memref, printed after each step.
Each runs through mlir-opt + mlir-runner of LLVM 22 (as
../shared/tools/oracle.sh does) and through mlir-interp (target/release if
built, else target/debug; $INTERP overrides); seeds whose stdout differs
are reported, and the exit status is 1 if any does. With --lowered,
mlir-interp also runs the LLVM-dialect program mlir-opt lowered it to, which
must print the same: the llvm dialect's paths checked on the very programs
MLIR's lowerings produce. Outputs must match byte
for byte, except the sign of NaN (the book, "Floats": x86 makes negative NaNs).
"""
import argparse, os, random, re, shutil, subprocess, sys, tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
LLVM = "/usr/lib/llvm-22"
# The default pipeline of ../shared/tools/oracle.sh; a `// PIPELINE:` line
# in a program replaces it.
DEFAULT_PIPELINE = ("normalize-memrefs,lower-affine,convert-complex-to-standard,convert-vector-to-scf,"
                    "convert-scf-to-cf,expand-strided-metadata,convert-vector-to-llvm,finalize-memref-to-llvm,"
                    "convert-math-to-llvm,convert-math-to-libm,convert-complex-to-llvm,convert-arith-to-llvm,"
                    "convert-index-to-llvm,convert-ub-to-llvm,convert-cf-to-llvm,convert-func-to-llvm,"
                    "reconcile-unrealized-casts")


def oracle(path):
    """Runs `path` through mlir-opt and mlir-runner of LLVM 22, as oracle.sh does."""
    with open(path) as f:
        lines = [l for l in f if l.startswith("// PIPELINE:")]
    pipeline = lines[0].split(":", 1)[1].strip() if lines else DEFAULT_PIPELINE
    lowered = path + ".ll.mlir"
    opt = subprocess.run([f"{LLVM}/bin/mlir-opt", path, f"--pass-pipeline=builtin.module({pipeline})", "-o", lowered],
                         capture_output=True, text=True)
    if opt.returncode != 0:
        return opt
    libs = ",".join(f"{LLVM}/lib/libmlir_{k}runner_utils.so.22.1" for k in ("", "c_"))
    return subprocess.run([f"{LLVM}/bin/mlir-runner", "-e", "main", "-entry-point-result=void",
                           f"-shared-libs={libs}", lowered], capture_output=True, text=True)
INTERP = os.environ.get("INTERP") or next(
    (p for p in (os.path.join(ROOT, "target", prof, "mlir-interp") for prof in ("release", "debug")) if os.path.exists(p)),
    os.path.join(ROOT, "target", "debug", "mlir-interp"))

INT_BIN = ["addi", "subi", "muli", "andi", "ori", "xori", "maxsi", "maxui", "minsi", "minui"]
INT_DIV = ["divsi", "divui", "ceildivsi", "ceildivui", "floordivsi", "remsi", "remui"]
SHIFTS = ["shli", "shrsi", "shrui"]
CMPI = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
FLOAT_BIN = ["addf", "subf", "mulf", "divf", "remf", "maximumf", "minimumf", "maxnumf", "minnumf"]
CMPF = ["oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une", "uno"]


def signed(v, w):
    m = 1 << w
    v %= m
    return v - m if v >= m >> 1 else v


def int_program(rng):
    out = ["func.func @main() {"]
    for n in range(1, 61):
        w = rng.choice([1, 2, 3, 5, 7, 8, 13, 16, 17, 31, 32, 33, 47, 63, 64])
        pick = lambda: signed(rng.choice([0, 1, -1, 2, 3, (1 << (w - 1)) - 1, -(1 << (w - 1))])
                              if rng.random() < 0.3 else rng.randrange(1 << w), w)
        a, b = pick(), pick()
        k = rng.random()
        if 0.4 <= k < 0.6:  # division: keep clear of immediate UB
            if b == 0:
                b = 1 if w > 1 else -1
            if b == -1 and a == -(1 << (w - 1)):
                a = 0
        elif 0.6 <= k < 0.75:
            b = rng.randrange(0, w)
        out.append(f"  %a{n} = arith.constant {a} : i{w}")
        out.append(f"  %b{n} = arith.constant {signed(b, w)} : i{w}")
        if k < 0.4:
            out.append(f"  %r{n} = arith.{rng.choice(INT_BIN)} %a{n}, %b{n} : i{w}")
        elif k < 0.6:
            out.append(f"  %r{n} = arith.{rng.choice(INT_DIV)} %a{n}, %b{n} : i{w}")
        elif k < 0.75:
            out.append(f"  %r{n} = arith.{rng.choice(SHIFTS)} %a{n}, %b{n} : i{w}")
        elif k < 0.85:
            out.append(f"  %r{n} = arith.cmpi {rng.choice(CMPI)}, %a{n}, %b{n} : i{w}")
            out.append(f"  vector.print %r{n} : i1")
            continue
        else:
            t = rng.choice([1, 8, 16, 32, 64])
            if t > w:
                out.append(f"  %r{n} = arith.{rng.choice(['extsi', 'extui'])} %a{n} : i{w} to i{t}")
            elif t < w:
                out.append(f"  %r{n} = arith.trunci %a{n} : i{w} to i{t}")
            else:
                out.append(f"  %r{n} = arith.addi %a{n}, %b{n} : i{w}")
            out.append(f"  vector.print %r{n} : i{t}")
            continue
        out.append(f"  vector.print %r{n} : i{w}")
    return "\n".join(out + ["  return", "}"]) + "\n"


def flit(x):
    s = repr(float(x))
    if "e" in s and "." not in s.split("e")[0]:
        m, e = s.split("e")
        s = f"{m}.0e{e}"
    return s


def float_program(rng):
    out = ["func.func @main() {"]
    width = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}
    for n in range(1, 61):
        t = rng.choice(list(width))
        def pick():
            if rng.random() < 0.2:
                return rng.choice(["0.0", "-0.0", "1.0", "-1.0", "0.5", "3.0", "1.0e-07"])
            # bf16 stays within +-1e5 (and the fixed picks are normal), so
            # no result is subnormal: on a CPU with AVX512-BF16, LLVM's
            # f32 -> bf16 conversion flushes subnormals at run time.
            scale = {"f16": 100, "bf16": 1e5}.get(t)
            if scale:
                return flit(rng.uniform(-scale, scale))
            return flit(rng.uniform(-1, 1) * 10 ** rng.randint(-40, 38))
        out.append(f"  %a{n} = arith.constant {pick()} : {t}")
        out.append(f"  %b{n} = arith.constant {pick()} : {t}")
        k = rng.random()
        if k < 0.6:
            out.append(f"  %r{n} = arith.{rng.choice(FLOAT_BIN)} %a{n}, %b{n} : {t}")
            out.append(f"  vector.print %r{n} : {t}")
        elif k < 0.8:
            out.append(f"  %r{n} = arith.cmpf {rng.choice(CMPF)}, %a{n}, %b{n} : {t}")
            out.append(f"  vector.print %r{n} : i1")
        else:
            out.append(f"  %r{n} = arith.bitcast %a{n} : {t} to i{width[t]}")
            out.append(f"  vector.print %r{n} : i{width[t]}")
    return "\n".join(out + ["  return", "}"]) + "\n"


def vector_program(rng):
    """A chain of vector ops over a pool of typed values; every result is printed."""
    # multi_reduction needs its own lowering pass before the oracle's default pipeline.
    out = ["// PIPELINE: func.func(lower-vector-multi-reduction),normalize-memrefs,lower-affine,"
           "convert-vector-to-scf,convert-scf-to-cf,expand-strided-metadata,convert-vector-to-llvm,"
           "finalize-memref-to-llvm,convert-arith-to-llvm,convert-index-to-llvm,convert-ub-to-llvm,"
           "convert-cf-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts",
           "func.func @main() {"]
    pool = []  # (name, shape, elem)
    inserted = set()  # results of insert_strided_slice
    n = [0]

    def fresh():
        n[0] += 1
        return f"%v{n[0]}"

    def vt(shape, elem):
        return f"vector<{'x'.join(map(str, shape))}x{elem}>" if shape else f"vector<{elem}>"

    def scalar_lit(elem):
        if elem == "f32":
            return flit(rng.choice([rng.uniform(-8, 8), float(rng.randint(-4, 4)), rng.uniform(-1, 1) * 10 ** rng.randint(-3, 3)]))
        w = int(elem[1:])
        return str(signed(rng.randrange(1 << w), w))

    def emit(line, shape, elem, printed=True):
        name = line.split(" = ")[0].strip()
        out.append("  " + line)
        if printed:
            out.append(f"  vector.print {name} : {vt(shape, elem) if shape is not None else elem}")
        if shape is not None:
            pool.append((name, shape, elem))

    def const(shape, elem):
        count = 1
        for d in shape:
            count *= d
        vals = [scalar_lit(elem) for _ in range(count)]
        r = fresh()
        def nest(vs, dims):
            if not dims:
                return vs[0]
            step = len(vs) // dims[0]
            return "[" + ", ".join(nest(vs[i * step:(i + 1) * step], dims[1:]) for i in range(dims[0])) + "]"
        emit(f"{r} = arith.constant dense<{nest(vals, shape)}> : {vt(shape, elem)}", shape, elem, printed=False)

    shapes = [[4], [8], [3], [2, 4], [4, 4], [2, 3, 4], [4, 2], [16]]
    for elem in ("i32", "f32", "i8"):
        for _ in range(3):
            const(rng.choice(shapes), elem)
    n_consts = len(out) - 2

    class NoCandidate(Exception):
        pass

    def pick(pred=lambda v: True, need=True):
        cands = [v for v in pool if pred(v)]
        if not cands and need:
            raise NoCandidate
        return rng.choice(cands) if cands else None

    INT_K = ["add", "mul", "minsi", "maxsi", "minui", "maxui", "and", "or", "xor"]
    FLT_K = ["add", "mul", "minimumf", "maximumf", "minnumf", "maxnumf"]
    for _ in range(30):
        try:
            op = rng.choice(["arith", "broadcast", "transpose", "shape_cast", "extract_strided", "insert_strided",
                             "shuffle", "extract", "insert", "reduction", "multi_reduction", "interleave",
                             "deinterleave", "outerproduct", "fma", "bitcast", "contract", "step_mask", "from_elements"])
            r = fresh()
            if op == "arith":
                a = pick(lambda v: v[1])
                b = pick(lambda v: v[1] == a[1] and v[2] == a[2])
                f = rng.choice(["addf", "mulf", "subf", "minimumf", "maxnumf"] if a[2] == "f32" else ["addi", "muli", "subi", "maxsi", "minui", "xori"])
                emit(f"{r} = arith.{f} {a[0]}, {b[0]} : {vt(a[1], a[2])}", a[1], a[2])
            elif op == "broadcast":
                a = pick(lambda v: len(v[1]) <= 2)
                shape = [rng.choice([2, 3])] + a[1]
                emit(f"{r} = vector.broadcast {a[0]} : {vt(a[1], a[2])} to {vt(shape, a[2])}", shape, a[2])
            elif op == "transpose":
                a = pick(lambda v: len(v[1]) >= 2)
                if not a:
                    continue
                perm = list(range(len(a[1])))
                rng.shuffle(perm)
                shape = [a[1][p] for p in perm]
                emit(f"{r} = vector.transpose {a[0]}, {perm} : {vt(a[1], a[2])} to {vt(shape, a[2])}", shape, a[2])
            elif op == "shape_cast":
                a = pick(lambda v: v[1])
                count = 1
                for d in a[1]:
                    count *= d
                divs = [d for d in range(1, count + 1) if count % d == 0]
                d0 = rng.choice(divs)
                shape = [count] if rng.random() < 0.4 else [d0, count // d0]
                emit(f"{r} = vector.shape_cast {a[0]} : {vt(a[1], a[2])} to {vt(shape, a[2])}", shape, a[2])
            elif op == "extract_strided":
                a = pick(lambda v: v[1])
                # LLVM 22 folds a partial-rank extract of an insert_strided_slice
                # wrongly (fixtures/exec/vector/strided_slice_partial.mlir).
                k = len(a[1]) if a[0] in inserted else rng.randint(1, len(a[1]))
                sizes = [rng.randint(1, d) for d in a[1][:k]]
                offs = [rng.randint(0, d - s) for d, s in zip(a[1], sizes)]
                shape = sizes + a[1][k:]
                emit(f"{r} = vector.extract_strided_slice {a[0]} {{offsets = {offs}, sizes = {sizes}, strides = {[1] * k}}}"
                     f" : {vt(a[1], a[2])} to {vt(shape, a[2])}", shape, a[2])
            elif op == "insert_strided":
                d = pick(lambda v: v[1])
                k = rng.randint(0, len(d[1]) - 1)  # leading dims dropped from the source
                src_shape = [rng.randint(1, x) for x in d[1][k:]]
                src = pick(lambda v: v[1] == src_shape and v[2] == d[2])
                if not src:
                    continue
                offs = [rng.randint(0, x - 1) for x in d[1][:k]] + [rng.randint(0, x - s) for x, s in zip(d[1][k:], src_shape)]
                inserted.add(r)
                emit(f"{r} = vector.insert_strided_slice {src[0]}, {d[0]} {{offsets = {offs}, strides = {[1] * len(src_shape)}}}"
                     f" : {vt(src_shape, d[2])} into {vt(d[1], d[2])}", d[1], d[2])
            elif op == "shuffle":
                a = pick(lambda v: len(v[1]) == 1)
                b = pick(lambda v: len(v[1]) == 1 and v[2] == a[2])
                total = a[1][0] + b[1][0]
                mask = [rng.randrange(total) for _ in range(rng.randint(1, 8))]
                emit(f"{r} = vector.shuffle {a[0]}, {b[0]} {mask} : {vt(a[1], a[2])}, {vt(b[1], b[2])}", [len(mask)], a[2])
            elif op == "extract":
                a = pick(lambda v: v[1])
                k = rng.randint(1, len(a[1]))
                pos = [rng.randrange(d) for d in a[1][:k]]
                shape = a[1][k:]
                ty = vt(shape, a[2]) if shape else a[2]
                out.append(f"  {r} = vector.extract {a[0]}{pos} : {ty} from {vt(a[1], a[2])}")
                out.append(f"  vector.print {r} : {ty}")
                if shape:
                    pool.append((r, shape, a[2]))
            elif op == "insert":
                d = pick(lambda v: v[1])
                s = fresh()
                out.append(f"  {s} = arith.constant {scalar_lit(d[2])} : {d[2]}")
                pos = [rng.randrange(x) for x in d[1]]
                emit(f"{r} = vector.insert {s}, {d[0]}{pos} : {d[2]} into {vt(d[1], d[2])}", d[1], d[2])
            elif op == "reduction":
                a = pick(lambda v: len(v[1]) == 1)
                kind = rng.choice(FLT_K if a[2] == "f32" else INT_K)
                if rng.random() < 0.5:
                    acc = fresh()
                    out.append(f"  {acc} = arith.constant {scalar_lit(a[2])} : {a[2]}")
                    out.append(f"  {r} = vector.reduction <{kind}>, {a[0]}, {acc} : {vt(a[1], a[2])} into {a[2]}")
                else:
                    out.append(f"  {r} = vector.reduction <{kind}>, {a[0]} : {vt(a[1], a[2])} into {a[2]}")
                out.append(f"  vector.print {r} : {a[2]}")
            elif op == "multi_reduction":
                a = pick(lambda v: len(v[1]) >= 2)
                if not a:
                    continue
                dims = sorted(rng.sample(range(len(a[1])), rng.randint(1, len(a[1]) - 1)))
                shape = [d for i, d in enumerate(a[1]) if i not in dims]
                acc = pick(lambda v: v[1] == shape and v[2] == a[2])
                if not acc:
                    continue
                kind = rng.choice(["add", "mul", "maxsi", "xor"] if a[2] != "f32" else ["add", "mul", "maximumf"])
                emit(f"{r} = vector.multi_reduction <{kind}>, {a[0]}, {acc[0]} {dims} : {vt(a[1], a[2])} to {vt(shape, a[2])}", shape, a[2])
            elif op == "interleave":
                a = pick(lambda v: v[1])
                b = pick(lambda v: v[1] == a[1] and v[2] == a[2])
                shape = a[1][:-1] + [a[1][-1] * 2]
                emit(f"{r} = vector.interleave {a[0]}, {b[0]} : {vt(a[1], a[2])} -> {vt(shape, a[2])}", shape, a[2])
            elif op == "deinterleave":
                a = pick(lambda v: v[1] and v[1][-1] % 2 == 0)
                if not a:
                    continue
                shape = a[1][:-1] + [a[1][-1] // 2]
                out.append(f"  {r}:2 = vector.deinterleave {a[0]} : {vt(a[1], a[2])} -> {vt(shape, a[2])}")
                for i in range(2):
                    out.append(f"  vector.print {r}#{i} : {vt(shape, a[2])}")
                    pool.append((f"{r}#{i}", shape, a[2]))
            elif op == "outerproduct":
                a = pick(lambda v: len(v[1]) == 1)
                b = pick(lambda v: len(v[1]) == 1 and v[2] == a[2])
                shape = [a[1][0], b[1][0]]
                acc = pick(lambda v: v[1] == shape and v[2] == a[2], need=False)
                tail = f", {acc[0]}" if acc else ""
                emit(f"{r} = vector.outerproduct {a[0]}, {b[0]}{tail} : {vt(a[1], a[2])}, {vt(b[1], b[2])}", shape, a[2])
            elif op == "fma":
                a = pick(lambda v: v[1] and v[2] == "f32")
                b = pick(lambda v: v[1] == a[1] and v[2] == "f32")
                c = pick(lambda v: v[1] == a[1] and v[2] == "f32")
                emit(f"{r} = vector.fma {a[0]}, {b[0]}, {c[0]} : {vt(a[1], 'f32')}", a[1], "f32")
            elif op == "bitcast":
                a = pick(lambda v: v[1] and v[2] in ("i32", "f32"))
                if a[2] == "f32":
                    emit(f"{r} = vector.bitcast {a[0]} : {vt(a[1], 'f32')} to {vt(a[1], 'i32')}", a[1], "i32")
                else:
                    shape = a[1][:-1] + [a[1][-1] * 4]
                    emit(f"{r} = vector.bitcast {a[0]} : {vt(a[1], 'i32')} to {vt(shape, 'i8')}", shape, "i8")
            elif op == "contract":
                a = pick(lambda v: len(v[1]) == 2)
                if not a:
                    continue
                m, k = a[1]
                b = pick(lambda v: len(v[1]) == 2 and v[1][0] == k and v[2] == a[2])
                if not b:
                    continue
                nn = b[1][1]
                c = pick(lambda v: v[1] == [m, nn] and v[2] == a[2])
                if not c:
                    continue
                out.append("  " + r + " = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, "
                           "affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], "
                           "iterator_types = [\"parallel\", \"parallel\", \"reduction\"], kind = #vector.kind<add>} "
                           f"{a[0]}, {b[0]}, {c[0]} : {vt(a[1], a[2])}, {vt(b[1], a[2])} into {vt([m, nn], a[2])}")
                out.append(f"  vector.print {r} : {vt([m, nn], a[2])}")
                pool.append((r, [m, nn], a[2]))
            elif op == "step_mask":
                a = pick(lambda v: len(v[1]) == 1)
                b = pick(lambda v: v[1] == a[1] and v[2] == a[2])
                c, st, msk = fresh(), fresh(), fresh()
                out.append(f"  {c} = arith.constant {rng.randint(0, a[1][0])} : index")
                out.append(f"  {msk} = vector.create_mask {c} : {vt(a[1], 'i1')}")
                out.append(f"  vector.print {msk} : {vt(a[1], 'i1')}")
                out.append(f"  {st} = vector.step : {vt(a[1], 'index')}")
                out.append(f"  vector.print {st} : {vt(a[1], 'index')}")
                emit(f"{r} = arith.select {msk}, {a[0]}, {b[0]} : {vt(a[1], 'i1')}, {vt(a[1], a[2])}", a[1], a[2])
            elif op == "from_elements":
                elem = rng.choice(["i32", "f32", "i8"])
                shape = rng.choice([[3], [2, 2]])
                names = []
                for _ in range(shape[0] * (shape[1] if len(shape) > 1 else 1)):
                    s = fresh()
                    out.append(f"  {s} = arith.constant {scalar_lit(elem)} : {elem}")
                    names.append(s)
                emit(f"{r} = vector.from_elements {', '.join(names)} : {vt(shape, elem)}", shape, elem)
        except NoCandidate:
            continue
    if rng.random() < 0.5:
        return "\n".join(out + ["  return", "}"]) + "\n"
    # Half the programs take the starting vectors as arguments, so that the
    # lowering runs on them rather than mlir-opt's folders.
    consts = [l for l in out[2:2 + n_consts]]
    names = [l.split(" = ")[0].strip() for l in consts]
    types = [l.rsplit(" : ", 1)[1] for l in consts]
    body = [out[0], f"func.func @body({', '.join(f'{a}: {t}' for a, t in zip(names, types))}) {{"]
    body += out[2 + n_consts:] + ["  return", "}", "func.func @main() {"] + consts
    body.append(f"  func.call @body({', '.join(names)}) : ({', '.join(types)}) -> ()")
    return "\n".join(body + ["  return", "}"]) + "\n"


def complex_program(rng):
    """Random complex arithmetic on complex<f32>/complex<f64>; re and im printed.

    The operands reach the ops as function arguments: mlir-opt folds ops on
    constants while converting them (math.log1p folds to the host's log1p,
    while its lowering computes log(1 + x)), and the lowering is what is
    being compared here."""
    unary = ["neg", "conj", "exp", "expm1", "log", "log1p", "sqrt", "rsqrt", "sin", "cos", "tan", "tanh", "sign"]
    binary = ["add", "sub", "mul", "div", "pow"]
    real = ["abs", "angle"]
    consts, params, args, body = [], [], [], []
    for n in range(1, 41):
        t = rng.choice(["f32", "f64"])
        def part():
            if rng.random() < 0.15:
                return rng.choice(["0.0", "-0.0", "1.0", "-1.0", "2.0"])
            return flit(rng.uniform(-1, 1) * 10 ** rng.randint(-3, 3))
        ct = f"complex<{t}>"
        for v in ("a", "b"):
            consts.append(f"  %{v}{n} = complex.constant [{part()} : {t}, {part()} : {t}] : {ct}")
            params.append(f"%{v}{n}: {ct}")
            args.append((f"%{v}{n}", ct))
        k = rng.random()
        if k < 0.35:
            body.append(f"  %r{n} = complex.{rng.choice(binary)} %a{n}, %b{n} : {ct}")
        elif k < 0.8:
            body.append(f"  %r{n} = complex.{rng.choice(unary)} %a{n} : {ct}")
        elif k < 0.9:
            body.append(f"  %x{n} = complex.{rng.choice(real)} %a{n} : {ct}")
            body.append(f"  vector.print %x{n} : {t}")
            continue
        else:
            body.append(f"  %x{n} = complex.{rng.choice(['eq', 'neq'])} %a{n}, %b{n} : {ct}")
            body.append(f"  vector.print %x{n} : i1")
            continue
        body.append(f"  %re{n} = complex.re %r{n} : {ct}")
        body.append(f"  %im{n} = complex.im %r{n} : {ct}")
        body.append(f"  vector.print %re{n} : {t}")
        body.append(f"  vector.print %im{n} : {t}")
    call = (f"  func.call @body({', '.join(a for a, _ in args)}) : "
            f"({', '.join(t for _, t in args)}) -> ()")
    out = [f"func.func @body({', '.join(params)}) {{"] + body + ["  return", "}", "func.func @main() {"] + consts + [call]
    return "\n".join(out + ["  return", "}"]) + "\n"


def memref_type(sizes, strides, offset, identity):
    dims = "".join(f"{n}x" for n in sizes)
    if identity:
        return f"memref<{dims}i64>"
    off = f", offset: {offset}" if offset else ""
    return f"memref<{dims}i64, strided<[{', '.join(map(str, strides))}]{off}>>"


def memref_program(rng):
    """Random chains of memref views on a constant global, each printed.

    The shapes exercise what differential fuzzing found wrong before:
    rank-reducing subviews where several unit dims could be dropped (the
    result strides decide which), expand_shape of rank-0 memrefs, and casts
    to static strides after them."""
    rank = rng.randint(1, 3)
    sizes = [rng.randint(1, 4) for _ in range(rank)]
    total = 1
    for n in sizes:
        total *= n
    strides = [1] * rank
    for d in range(rank - 2, -1, -1):
        strides[d] = strides[d + 1] * sizes[d + 1]
    offset, identity = 0, True
    def nest(flat, shape):
        if not shape:
            return str(flat[0])
        step = len(flat) // shape[0]
        return "[" + ", ".join(nest(flat[i * step:(i + 1) * step], shape[1:]) for i in range(shape[0])) + "]"

    gtype = memref_type(sizes, strides, 0, True)
    data = nest([i * 7 - 20 for i in range(total)], sizes)
    # normalize-memrefs (first in the default pipeline) rewrites strided
    # layouts into wrong casts in LLVM 22; expand-strided-metadata lowers them.
    pipeline = DEFAULT_PIPELINE.replace("normalize-memrefs,", "")
    lines = [f"// PIPELINE: {pipeline}",
             f"memref.global \"private\" constant @g : {gtype} = dense<{data}>",
             "func.func private @printMemrefI64(memref<*xi64>)",
             "func.func @main() {",
             f"  %v0 = memref.get_global @g : {gtype}"]
    n = 0
    cur = "%v0"

    def show(name, ty):
        nonlocal n
        n += 1
        lines.append(f"  %u{n} = memref.cast {name} : {ty} to memref<*xi64>")
        lines.append(f"  call @printMemrefI64(%u{n}) : (memref<*xi64>) -> ()")

    for step in range(rng.randint(2, 6)):
        ty = memref_type(sizes, strides, offset, identity)
        k = rng.random()
        n += 1
        new = f"%v{n}"
        if k < 0.45 and sizes:
            offs, szs, steps = [], [], []
            for size in sizes:
                o = rng.randint(0, size - 1)
                sz = rng.choice([1, 1, rng.randint(1, size - o)])
                # A non-unit step on a unit slice crashes LLVM 22's
                # expand-strided-metadata (SubViewOp::getDroppedDims): rare.
                t = rng.randint(1, max(1, (size - 1 - o) // max(1, sz - 1))) if sz > 1 else rng.choice([1] * 9 + [2])
                offs.append(o); szs.append(sz); steps.append(t)
            nstr = [s * t for s, t in zip(strides, steps)]
            noff = offset + sum(o * s for o, s in zip(offs, strides))
            units = [d for d in range(len(sizes)) if szs[d] == 1]
            drop = set(d for d in units if rng.random() < 0.6)
            keep = [d for d in range(len(sizes)) if d not in drop]
            ksz, kst = [szs[d] for d in keep], [nstr[d] for d in keep]
            rty = memref_type(ksz, kst, noff, False)
            lines.append(f"  {new} = memref.subview {cur}[{', '.join(map(str, offs))}] [{', '.join(map(str, szs))}] "
                         f"[{', '.join(map(str, steps))}] : {ty} to {rty}")
            sizes, strides, offset, identity = ksz, kst, noff, False
        elif k < 0.7:
            # Expand one dim into two factors, or a rank-0 memref into unit dims.
            if not sizes:
                out = [1] * rng.randint(1, 3)
                reassoc, nsizes, nstrides = "[]", out, [1] * len(out)
            else:
                d = rng.randrange(len(sizes))
                a = rng.choice([f for f in range(1, sizes[d] + 1) if sizes[d] % f == 0])
                b = sizes[d] // a
                nsizes = sizes[:d] + [a, b] + sizes[d + 1:]
                nstrides = strides[:d] + [strides[d] * b, strides[d]] + strides[d + 1:]
                groups, i = [], 0
                for e in range(len(sizes)):
                    g = [i, i + 1] if e == d else [i]
                    i += len(g)
                    groups.append("[" + ", ".join(map(str, g)) + "]")
                reassoc = "[" + ", ".join(groups) + "]"
            # MLIR asks the layout's affine map: strided<[1]> is the identity.
            identity = identity or (strides == [1] and offset == 0)
            rty = memref_type(nsizes, nstrides, offset, identity)
            lines.append(f"  {new} = memref.expand_shape {cur} {reassoc} output_shape "
                         f"[{', '.join(map(str, nsizes))}] : {ty} into {rty}")
            sizes, strides = nsizes, nstrides
        elif k < 0.85 and len(sizes) >= 2:
            p = list(range(len(sizes)))
            rng.shuffle(p)
            nsizes, nstrides = [sizes[i] for i in p], [strides[i] for i in p]
            rty = memref_type(nsizes, nstrides, offset, False)
            perm = ", ".join(f"d{i}" for i in p)
            dims = ", ".join(f"d{i}" for i in range(len(sizes)))
            lines.append(f"  {new} = memref.transpose {cur} ({dims}) -> ({perm}) : {ty} to {rty}")
            sizes, strides, identity = nsizes, nstrides, False
        else:
            # To fully dynamic strides and back to the static type: the
            # run-time strides must match the static ones.
            dyn = memref_type(sizes, ["?"] * len(sizes), "?", False)
            lines.append(f"  %d{n} = memref.cast {cur} : {ty} to {dyn}")
            lines.append(f"  {new} = memref.cast %d{n} : {dyn} to {ty}")
        cur = new
        show(cur, memref_type(sizes, strides, offset, identity))
    return "\n".join(lines + ["  return", "}"]) + "\n"


def norm(out):
    return re.sub(r"base@ = 0x[0-9a-f]+", "base@ = 0x?", out.replace("-nan", "nan"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=50)
    ap.add_argument("--start", type=int, default=0, help="first seed")
    ap.add_argument("--kind", choices=["int", "float", "vector", "complex", "memref"], default="int")
    ap.add_argument("--keep", help="directory to keep failing programs in")
    ap.add_argument("--lowered", action="store_true", help="also run the program mlir-opt lowered to the llvm dialect")
    args = ap.parse_args()
    gen = {"int": int_program, "float": float_program, "vector": vector_program, "complex": complex_program,
           "memref": memref_program}[args.kind]
    bad = 0
    with tempfile.TemporaryDirectory() as d:
        for seed in range(args.start, args.start + args.seeds):
            prog = gen(random.Random(seed))
            path = os.path.join(d, f"{args.kind}_{seed}.mlir")
            with open(path, "w") as f:
                f.write(prog)
            want = oracle(path)
            if want.returncode != 0:
                # First lines only: LLVM's crash reports run to pages.
                head = "\n".join(want.stderr.splitlines()[:3])
                print(f"seed {seed}: the toolchain rejected the program:\n{head}", file=sys.stderr)
                continue
            runs = [("", path)] + ([(" (lowered)", path + ".ll.mlir")] if args.lowered else [])
            failed = False
            for what, p in runs:
                got = subprocess.run([INTERP, "run", p], capture_output=True, text=True)
                # NaN signs and printMemref base addresses are not compared
                # (the book, "Floats": x86 makes negative NaNs; addresses differ per run).
                if norm(got.stdout) != norm(want.stdout) or got.returncode != 0:
                    failed = True
                    why = (": " + got.stderr.splitlines()[0]) if got.stderr else ""
                    print(f"seed {seed}: output differs{what}{why}")
            if failed:
                bad += 1
                if args.keep:
                    os.makedirs(args.keep, exist_ok=True)
                    with open(os.path.join(args.keep, os.path.basename(path)), "w") as f:
                        f.write(prog)
                    if args.lowered:
                        shutil.copy(path + ".ll.mlir", args.keep)
    print(f"{args.seeds} programs, {bad} differing")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
