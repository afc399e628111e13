#!/usr/bin/env python3
"""Records reference results for the comb dialect into fixtures/comb/refs.tsv.

Two independent sources, never mlir-interp:
- CIRCT (`pip install circt`): for the ops CIRCT's comb dialect shares with
  HEIR's (add, mul, and, or, xor, concat, extract, replicate, parity, mux,
  icmp with all 14 predicates), each case becomes an `hw.module` of
  constants that CIRCT's canonicalizer folds; the folded `hw.output`
  constants are the expected results.
- Hand-derived formulas (below, one line each, from the HEIR dialect doc)
  for the HEIR-only ops: inv, nand, nor, xnor, truth_table, lut.

Each row: source, the op's MLIR text over %a0.. (types included), the
argument types, the arguments and the expected result (hex, unsigned), or
`UB` when the op has no defined result. `--check` re-folds every row and
fails if the committed file differs (CI runs it). tests/comb_refs.rs (interp crate)
builds `func.func @f` around each row and runs it.
"""
import random
import sys
from pathlib import Path

WIDTHS = [1, 3, 8, 64, 65, 128, 200, 1000]
ICMP = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge", "ceq", "cne", "weq", "wne"]
rng = random.Random(20261121)


def values(w, n):
    """Edge values (limb boundaries, sign bit, all ones) then random ones."""
    m = (1 << w) - 1
    edge = {0, 1, m, 1 << (w - 1), (1 << (w - 1)) - 1}
    for k in (63, 64, 127, 128):
        if k < w:
            edge |= {(1 << k) - 1, 1 << k}
    vals = sorted(edge)
    return vals + [rng.getrandbits(w) for _ in range(n)]


def tuples(w, arity, n):
    vs = values(w, 4)
    out = [tuple(rng.choice(vs) for _ in range(arity)) for _ in range(n)]
    out.append(tuple([(1 << w) - 1] * arity))  # all ones: maximal carries
    return out


def circt_cases():
    """(text, types, args, result_type) cases for CIRCT to fold."""
    cases = []
    for w in WIDTHS:
        t = f"i{w}"
        for op in ["add", "mul", "and", "or", "xor"]:
            for arity in (1, 2, 3):
                for args in tuples(w, arity, 4):
                    ops = ", ".join(f"%a{i}" for i in range(arity))
                    cases.append((f"comb.{op} {ops} : {t}", [t] * arity, args, t))
        for p in ICMP:
            for args in tuples(w, 2, 4) + [(v, v) for v in values(w, 1)[:3]]:
                cases.append((f"comb.icmp {p} %a0, %a1 : {t}", [t, t], args, "i1"))
        for args in tuples(w, 1, 6):
            cases.append((f"comb.parity %a0 : {t}", [t], args, "i1"))
        for args in tuples(w, 2, 3):
            for c in (0, 1):
                cases.append((f"comb.mux %a0, %a1, %a2 : {t}", ["i1", t, t], (c,) + args, t))
        for k in (2, 3):
            for args in tuples(w, 1, 2):
                cases.append((f"comb.replicate %a0 : ({t}) -> i{w * k}", [t], args, f"i{w * k}"))
        for low in sorted(x for x in {0, 1, w // 2, w - 1} if x < w):
            for rw in sorted({1, w - low}):
                for args in tuples(w, 1, 2):
                    cases.append((f"comb.extract %a0 from {low} : ({t}) -> i{rw}", [t], args, f"i{rw}"))
        other = rng.choice(WIDTHS)
        for args in tuples(w, 1, 3):
            b = rng.getrandbits(other)
            cases.append((f"comb.concat %a0, %a1 : {t}, i{other}", [t, f"i{other}"], args + (b,), f"i{w + other}"))
    return cases


def fold_with_circt(cases):
    import circt
    from circt.ir import Context, Module
    from circt.passmanager import PassManager

    results = []
    with Context() as ctx:
        circt.register_dialects(ctx)
        for i in range(0, len(cases), 200):
            chunk = cases[i:i + 200]
            body, outs, otys = [], [], []
            for j, (text, tys, args, rty) in enumerate(chunk):
                names = []
                for k, (ty, v) in enumerate(zip(tys, args)):
                    body.append(f"  %c{j}_{k} = hw.constant {v} : {ty}")
                    names.append(f"%c{j}_{k}")
                op = text
                for k in reversed(range(len(tys))):
                    op = op.replace(f"%a{k}", names[k])
                body.append(f"  %r{j} = {op}")
                outs.append(f"%r{j}")
                otys.append(rty)
            ports = ", ".join(f"out o{j} : {t}" for j, t in enumerate(otys))
            text = f"hw.module @m({ports}) {{\n" + "\n".join(body) + f"\n  hw.output {', '.join(outs)} : {', '.join(otys)}\n}}"
            m = Module.parse(text)
            PassManager.parse("builtin.module(canonicalize)").run(m.operation)
            consts, output = {}, None
            for line in str(m).splitlines():
                line = line.strip()
                if "= hw.constant" in line:
                    name, rest = line.split(" = hw.constant ")
                    val, ty = rest.rsplit(" : ", 1) if " : " in rest else (rest, "i1")
                    val = {"true": "1", "false": "0"}.get(val.strip(), val.strip())
                    w = int(ty.strip()[1:])
                    consts[name] = int(val) % (1 << w)
                elif line.startswith("hw.output"):
                    output = [x.strip() for x in line[len("hw.output"):].split(":")[0].split(",")]
            if output is None or any(o not in consts for o in output):
                sys.exit(f"CIRCT did not fold chunk {i}: {m}")
            results += [consts[o] for o in output]
    return results


def hand_cases():
    """HEIR-only ops, with results from the dialect doc's definitions."""
    rows = []
    for w in WIDTHS:
        t, m = f"i{w}", (1 << w) - 1
        for args in tuples(w, 1, 5):
            rows.append((f"comb.inv %a0 : {t}", [t], args, args[0] ^ m))  # every bit flipped
        for op, f in [("nand", lambda a, b: a & b), ("nor", lambda a, b: a | b), ("xnor", lambda a, b: a ^ b)]:
            for arity in (1, 2, 3):
                for args in tuples(w, arity, 3):
                    acc = args[0]
                    for x in args[1:]:
                        acc = f(acc, x)
                    ops = ", ".join(f"%a{i}" for i in range(arity))
                    rows.append((f"comb.{op} {ops} : {t}", [t] * arity, args, acc ^ m))  # inverse of and/or/xor
    for n in (1, 2, 3, 5):
        for _ in range(6):
            table = rng.getrandbits(1 << n)
            ins = tuple(rng.getrandbits(1) for _ in range(n))
            index = int("".join(map(str, ins)), 2)  # first input is the MSB
            ops = ", ".join(f"%a{i}" for i in range(n))
            rows.append((f"comb.truth_table {ops} -> {table} : ui{1 << n}", ["i1"] * n, ins, (table >> index) & 1))
    for n in (1, 2, 3):
        for _ in range(8):
            coeffs = [rng.choice([1, 2, 3, 4, 8]) for _ in range(n)]
            ins = tuple(rng.randrange(4) for _ in range(n))
            table = [rng.randrange(-128, 128) for _ in range(64)]
            index = sum(c * x for c, x in zip(coeffs, ins))  # Σ coefficients[i] × inputs[i]
            cs = ", ".join(map(str, coeffs))
            ts = ", ".join(map(str, table))
            ops = ", ".join(f"%a{i}" for i in range(n))
            tys = ", ".join(["i8"] * n)
            text = f"comb.lut {ops} {{coefficients = array<i8: {cs}>, lookupTable = array<i8: {ts}>}} : ({tys}) -> i8"
            rows.append((text, ["i8"] * n, ins, table[index] % 256))
    table = ", ".join(str(i) for i in range(16))
    rows.append((f"comb.lut %a0 {{coefficients = array<i8: 1>, lookupTable = array<i8: {table}>}} : (i8) -> i8",
                 ["i8"], (16,), "UB"))  # index 16 is past the 16-entry table
    return rows


def main():
    out = Path(__file__).resolve().parents[2] / "fixtures" / "comb" / "refs.tsv"
    circt_rows = circt_cases()
    folded = fold_with_circt(circt_rows)
    lines = ["# source\top\targ types\targs (hex)\tresult (hex) -- recorded by tools/comb_refs/record.py"]
    for (text, tys, args, _), r in zip(circt_rows, folded):
        lines.append("\t".join(["circt", text, ",".join(tys), ",".join(f"{a:x}" for a in args), f"{r:x}"]))
    for text, tys, args, r in hand_cases():
        res = r if isinstance(r, str) else f"{r:x}"
        lines.append("\t".join(["hand", text, ",".join(tys), ",".join(f"{a:x}" for a in args), res]))
    text = "\n".join(lines) + "\n"
    if "--check" in sys.argv:
        if out.read_text() != text:
            sys.exit(f"{out} is stale: CIRCT or the generator now gives different rows (re-record it)")
        print(f"{out}: {len(lines) - 1} cases still match CIRCT")
        return
    out.write_text(text)
    print(f"wrote {len(lines) - 1} cases to {out}")


if __name__ == "__main__":
    main()
