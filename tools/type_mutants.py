#!/usr/bin/env python3
"""Type-mutation campaign against mlir-opt 22.

Usage: tools/type_mutants.py [--bin PATH] [--jobs N] [--cap N] [--sample K] [FILTER...]

For each single-line op of an execution fixture's generic form (fixtures/
exec, printed by mlir-opt), a copy is inserted before it with its result
type replaced (ten types of other kinds) or one operand replaced by an
in-scope value of another type, the signature changed to match; the
first --cap ops of each name are mutated (default 3). Each mutant goes
through mlir-opt and through `mlir-interp run`: the interpreter must never
end in an internal error (exit 3), whatever mlir-opt says; a mutant mlir-opt
rejects should be rejected here (exit 2) with its message. Prints the
internal errors and the mutants accepted here that mlir-opt rejects, each
grouped by op and mlir-opt's message (largest groups first), and the
verdict totals; each such mutant, and each that mlir-opt accepts but
mlir-interp rejects, is written to $OUT (default /tmp/type_mutants), with
the op and the rejecting side's message on its first line.
Exit 1 if any mutant is an internal error or is accepted here while
mlir-opt rejects it, except the classes of KNOWN_OPEN (counted as "known
open", each with its reason). `--sample K` keeps every K-th mutant (a fixed
selection: CI's quick run). FILTER keeps the fixtures whose path contains
one of the strings. Python 3 standard library only.
"""

import os, re, subprocess, sys, collections, random
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPT = os.environ.get("MLIR_OPT", "/usr/lib/llvm-22/bin/mlir-opt")
BIN = os.path.join(ROOT, "target/release/mlir-interp")
POOL = ["f32", "i32", "index", "i1", "tensor<*xf32>", "tensor<2xf32>", "memref<4xf32>", "vector<4xi32>", "!llvm.ptr", "complex<f32>"]
TERMS = re.compile(r"(return|yield|\.br|cond_br|switch|condition|unreachable|terminator|scf\.reduce|in_parallel|llvm\.resume)$")
OPLINE = re.compile(r'^(\s*)(?:(%[\w]+) = )?"([\w.]+)"\((.*?)\)(.*) : \((.*?)\) -> (.*)$')
BBARGS = re.compile(r"^\s*\^bb\d+\((.*)\):")
CAP = 3
# Disagreements left open, by op and a regex on mlir-opt's message (or on
# ours, for the internal errors of programs mlir-opt accepts), with why;
# they are counted apart and do not fail the run. The book: docs/src/fixtures.md.
KNOWN_OPEN = []


def split_top(s):
    out, depth, frm = [], 0, 0
    for i, c in enumerate(s):
        if c in "<([{":
            depth += 1
        elif c in ">)]}" and not (c == ">" and i > 0 and s[i - 1] == "-"):
            depth -= 1
        elif c == "," and depth == 0:
            out.append(s[frm:i].strip())
            frm = i + 1
    if s[frm:].strip():
        out.append(s[frm:].strip())
    return out


def mutants_of(path, seen):
    src = open(path).read()
    args = []
    for l in src.splitlines():
        l = l.strip()
        if l.startswith("// ARGS:"):
            args += l[8:].split()
        if l.startswith("// ENTRY:"):
            args += ["-e", l[9:].strip()]
        if l.startswith("// XFAIL:"):
            return []
    g = subprocess.run([OPT, "--mlir-print-op-generic", path], capture_output=True, text=True)
    if g.returncode != 0:
        return []
    lines = g.stdout.splitlines()
    scope = []  # (indent, name, type)
    out = []
    rnd = random.Random(path)
    for i, l in enumerate(lines):
        ind = len(l) - len(l.lstrip())
        scope = [v for v in scope if v[0] <= ind]
        m = BBARGS.match(l)
        if m:
            for a in split_top(m.group(1)):
                if ":" in a:
                    n, t = a.split(":", 1)
                    scope.append((ind + 2, n.strip(), t.strip()))
            continue
        m = OPLINE.match(l)
        if not m or "({" in l:
            continue
        sp, res, op, opnds, mid, intys, outtys = m.groups()
        if res and outtys and not outtys.startswith("("):
            scope_add = (ind, res, outtys.strip())
        else:
            scope_add = None
        if TERMS.search(op) or seen[op] >= CAP:
            if scope_add:
                scope.append(scope_add)
            continue
        seen[op] += 1
        ops = split_top(opnds)
        tys = split_top(intys)
        if len(ops) == len(tys):
            # Result type swaps.
            if res and not outtys.startswith("("):
                for t in POOL:
                    if t != outtys.strip():
                        dup = f'{sp}%tm_r = "{op}"({opnds}){mid} : ({intys}) -> {t}'
                        out.append((path, args, op, f"result {t}", lines[:i] + [dup] + lines[i:]))
            # Operand swaps.
            for k, (o, t) in enumerate(zip(ops, tys)):
                cands = {}
                for (_, n, vt) in scope:
                    if vt != t and vt not in cands:
                        cands[vt] = n
                for vt, n in rnd.sample(sorted(cands.items()), min(3, len(cands))):
                    nops = list(ops)
                    ntys = list(tys)
                    nops[k], ntys[k] = n, vt
                    r = "%tm_r = " if res else ""
                    dup = f'{sp}{r}"{op}"({", ".join(nops)}){mid} : ({", ".join(ntys)}) -> {outtys}'
                    out.append((path, args, op, f"operand {k} {vt}", lines[:i] + [dup] + lines[i:]))
        if scope_add:
            scope.append(scope_add)
    return out


def one(job):
    path, args, op, what, lines = job
    text = "\n".join(lines) + "\n"
    o = subprocess.run([OPT, "-"], input=text, capture_output=True, text=True)
    try:
        r = subprocess.run([BIN, "run", "-", "--timeout", "10", *args], input=text.encode(), capture_output=True, timeout=60)
        rc, err = r.returncode, r.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        rc, err = -1, "timeout"
    m = re.search(r"error: (.*)", o.stderr)
    return path, op, what, o.returncode == 0, (m.group(1) if m else ""), rc, err, text


def main():
    global BIN, OPT, CAP
    import argparse
    ap = argparse.ArgumentParser(description="Type-mutation campaign against mlir-opt 22.")
    ap.add_argument("--bin", default=BIN)
    ap.add_argument("--mlir-opt", default=OPT)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--cap", type=int, default=CAP)
    ap.add_argument("--sample", type=int, default=1, help="keep every K-th mutant")
    ap.add_argument("--show", type=int, default=40, help="groups to print of each kind")
    ap.add_argument("filters", nargs="*")
    a = ap.parse_args()
    BIN, OPT, CAP = a.bin, a.mlir_opt, a.cap
    out_dir = os.environ.get("OUT", "/tmp/type_mutants")
    os.makedirs(out_dir, exist_ok=True)
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(ROOT + "/fixtures/exec") for f in fs if f.endswith(".mlir"))
    files = [f for f in files if not a.filters or any(x in f for x in a.filters)]
    seen = collections.Counter()
    jobs = []
    for f in files:
        jobs += mutants_of(f, seen)
    jobs = jobs[:: max(a.sample, 1)]
    print(len(jobs), "mutants of", len(seen), "ops", flush=True)
    stats = collections.Counter()
    internal = collections.Counter()
    accepted = collections.Counter()
    n = 0

    def keep(kind, op, msg_o, text):
        nonlocal n
        n += 1
        open(os.path.join(out_dir, f"{n}.mlir"), "w").write(f"// {kind}: {op}: {msg_o}\n{text}")

    with ThreadPoolExecutor(a.jobs) as pool:
        for path, op, what, ok_o, msg_o, rc, err, text in pool.map(one, jobs):
            # Types and numbers vary within a class; the words do not.
            group = (op, re.sub(r"'[^']*'|\d+", "_", msg_o) or "(mlir-opt accepts)")
            known = (rc == 3 or "internal error" in err or (not ok_o and rc != 2)) and any(
                re.fullmatch(kop, op) and re.search(kmsg, msg_o) for kop, kmsg, _ in KNOWN_OPEN
            )
            if known:
                stats["known open"] += 1
            elif rc == 3 or "internal error" in err:
                keep("internal", op, msg_o, text)
                internal[group] += 1
                stats["internal error"] += 1
            elif rc == -1:
                stats["timeout"] += 1
            elif ok_o and rc != 2:
                stats["both accept"] += 1
            elif not ok_o and rc == 2:
                stats["both reject"] += 1
                if msg_o not in err:
                    stats["both reject, another message"] += 1
            elif ok_o:
                keep("rejected", op, err.strip().splitlines()[0] if err.strip() else "", text)
                stats["we reject, mlir-opt accepts"] += 1
            else:
                keep("accepted", op, msg_o, text)
                accepted[group] += 1
                stats["we accept, mlir-opt rejects"] += 1
    for title, groups in [("internal errors", internal), ("accepted here, rejected by mlir-opt", accepted)]:
        if groups:
            print(f"{sum(groups.values())} {title}, {len(groups)} groups:")
        for (op, msg), c in groups.most_common(a.show):
            print(f"  {c:5} {op}: {msg}")
        if len(groups) > a.show:
            print(f"  ... {len(groups) - a.show} more groups")
    print(", ".join(f"{k}: {v}" for k, v in sorted(stats.items())))
    sys.exit(1 if stats["internal error"] or stats["we accept, mlir-opt rejects"] else 0)


main()
