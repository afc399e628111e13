#!/usr/bin/env python3
"""Discardable-attribute campaign against mlir-opt 22.

Usage: tools/discardable_attrs.py [--bin PATH] [--jobs N] [--sample K] [FILTER...]

Every op of an execution fixture's generic form (fixtures/exec, printed by
mlir-opt) gets extra entries in its attribute dictionary: every name the
engine's source spells as a string literal (the attribute names it reads,
among others), all at once, with one value per run (unit, a string, an
integer, an array). mlir-opt then reads the mutant back: an entry it
rejects is taken off its op, and so is one it turns into a property (it
changes the op's meaning), until it accepts the program. What is left
either stays in the dictionary, where it is discardable, or was dropped by
mlir-opt (a property name with a value that does not convert, on an op
that also wrote `<{...}>`): either way the program means what it meant,
so mlir-interp must print exactly what it prints for the unmutated
program and end the same way (both runs are ours, on this host, so
fixtures that depend on the host's libm take part). FILTER keeps the
fixtures whose path contains one of the strings; XFAIL fixtures are
skipped. `--sample K` keeps every K-th (fixture, value) pair, a fixed
selection (CI's quick run).

Prints one line per fixture and value (`ok`, `INTERNAL`, `DIFF` or why it
was skipped) and the totals; each failing mutant is written to
`$OUT` (default /tmp/discardable_attrs). Exit 1 if any mutant is INTERNAL
or DIFF. Needs mlir-opt 22 (--mlir-opt, $MLIR_OPT or the Debian path).
Python 3 standard library only.
"""

import argparse
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VALUES = ["", '"zz"', "3 : i64", "[1, 2]"]


def engine_names():
    """Every identifier-like string literal of the engine's dialects."""
    names = set()
    for d in ["interp/src/dialects", "interp/src"]:
        base = os.path.join(ROOT, d)
        for dirpath, _, files in os.walk(base):
            if d == "interp/src" and dirpath != base:
                continue
            for f in files:
                if f.endswith(".rs") and (d != "interp/src" or f in ("exec.rs", "code.rs")):
                    text = open(os.path.join(dirpath, f)).read()
                    names.update(re.findall(r'"([a-z][A-Za-z_]{1,30})"', text))
    return sorted(names)


def type_colon(line):
    """Where the ` : type` of a generic op line starts, at top level."""
    s = line.lstrip()
    if not (s.startswith('"') or s.startswith("})") or re.match(r'%[\w#:]+(, %[\w#:]+)* = "', s)):
        return None
    depth, quoted, i = 0, False, 0
    while i < len(line):
        c = line[i]
        if quoted:
            if c == "\\":
                i += 1
            elif c == '"':
                quoted = False
        elif c == '"':
            quoted = True
        elif c in "([{<":
            depth += 1
        elif c == ">" and i > 0 and line[i - 1] == "-":
            pass
        elif c in ")]}>":
            depth -= 1
        elif c == ":" and depth == 0 and line[i - 1 : i + 2] == " : ":
            return i - 1
        i += 1
    return None


def op_name(line):
    """The op name a generic op line starts, if it starts one."""
    m = re.match(r'\s*(?:%[\w#:]+(?:, %[\w#:]+)* = )?"([\w.]+)"\(', line)
    return m.group(1) if m else None


def with_entries(line, entries):
    """`line` with `entries` added to its op's attribute dictionary."""
    at = type_colon(line)
    body = ", ".join(entries)
    before = line[:at]
    if before.endswith("}") and not before.endswith("}>") and not before.endswith("})"):
        return before[:-1] + ", " + body + "}" + line[at:]
    return before + " {" + body + "}" + line[at:]


def run_ours(binary, text, extra):
    r = subprocess.run([binary, "run", "-", *extra], input=text.encode(), capture_output=True, timeout=120)
    return r.returncode, r.stdout.decode(errors="replace"), r.stderr.decode(errors="replace")


def campaign(opt, binary, names, path, value):
    src = open(path).read()
    args = []
    for l in src.splitlines():
        l = l.strip()
        if l.startswith("// ARGS:"):
            args += l[len("// ARGS:") :].split()
        elif l.startswith("// ENTRY:"):
            args += ["-e", l[len("// ENTRY:") :].strip()]
        elif l.startswith("// XFAIL:"):
            return ("skipped", "XFAIL")
    g = subprocess.run([opt, "--mlir-print-op-generic", path], capture_output=True, text=True)
    if g.returncode != 0:
        return ("skipped", "mlir-opt rejects it")
    base = g.stdout
    rc0, out0, _ = run_ours(binary, base, args)
    lines = base.splitlines()
    want = {}
    for i, l in enumerate(lines):
        if type_colon(l) is not None:
            present = set(re.findall(r"\w+", l))
            want[i] = [n for n in names if n not in present]
    entry = lambda n: n if value == "" else f"{n} = {value}"
    for _ in range(200):
        mut = list(lines)
        for i, ns in want.items():
            if ns:
                mut[i] = with_entries(lines[i], [entry(n) for n in ns])
        text = "\n".join(mut) + "\n"
        r = subprocess.run([opt, "--mlir-print-op-generic", "-"], input=text, capture_output=True, text=True)
        if r.returncode != 0:
            m = re.search(r"<stdin>:(\d+):\d+: error: (.*)", r.stderr)
            if not m:
                return ("skipped", "mlir-opt's error has no location")
            ln, msg = int(m.group(1)) - 1, m.group(2)
            named = [n for n in want.get(ln, []) if re.search(r"[`'\" {]" + re.escape(n) + r"[`'\" =}]", msg)]
            if named:
                # The same op elsewhere rejects the same names.
                op = op_name(lines[ln])
                for i in want:
                    if i == ln or (op and op_name(lines[i]) == op):
                        want[i] = [n for n in want[i] if n not in named]
            elif want.get(ln):
                want[ln] = want[ln][: len(want[ln]) // 2]
            else:
                return ("skipped", "mlir-opt: " + msg)
            continue
        printed = r.stdout.splitlines()
        if len(printed) != len(mut):
            return ("skipped", "mlir-opt printed another number of lines")
        promoted = False
        for i, ns in want.items():
            m = re.search(r"<\{(.*?)\}>", printed[i])
            props = m.group(1) if m else ""
            now = [n for n in ns if re.search(r"(^|[ ,{])" + re.escape(n) + r"( =|,|$)", props)]
            if now:
                want[i] = [n for n in ns if n not in now]
                promoted = True
        if promoted:
            continue
        rc, out, err = run_ours(binary, text, args)
        count = sum(len(v) for v in want.values())
        if rc == 3 or "internal error" in err:
            return ("INTERNAL", err[:600], text)
        if rc != rc0 or out != out0:
            return ("DIFF", f"exit {rc0} -> {rc}\n{err[:600]}", text)
        return ("ok", f"{count} attributes")
    return ("skipped", "no mutant mlir-opt accepts")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "target/release/mlir-interp"))
    ap.add_argument("--mlir-opt", default=os.environ.get("MLIR_OPT", "/usr/lib/llvm-22/bin/mlir-opt"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--sample", type=int, default=1, help="keep every K-th (fixture, value) pair")
    ap.add_argument("filters", nargs="*")
    a = ap.parse_args()
    out_dir = os.environ.get("OUT", "/tmp/discardable_attrs")
    os.makedirs(out_dir, exist_ok=True)
    names = engine_names()
    files = sorted(
        os.path.join(d, f) for d, _, fs in os.walk(os.path.join(ROOT, "fixtures/exec")) for f in fs if f.endswith(".mlir")
    )
    files = [f for f in files if not a.filters or any(x in f for x in a.filters)]
    jobs = [(f, v) for f in files for v in VALUES][:: max(a.sample, 1)]
    totals = {}
    with ThreadPoolExecutor(a.jobs) as ex:
        results = ex.map(lambda j: campaign(a.mlir_opt, a.bin, names, *j), jobs)
        for (f, v), res in zip(jobs, results):
            totals[res[0]] = totals.get(res[0], 0) + 1
            print(res[0], os.path.relpath(f, ROOT), repr(v), res[1], flush=True)
            if len(res) > 2:
                name = f"{os.path.basename(f)}.{VALUES.index(v)}.mlir"
                open(os.path.join(out_dir, name), "w").write(res[2])
    print(" ".join(f"{k}: {n}" for k, n in sorted(totals.items())))
    sys.exit(1 if totals.get("INTERNAL") or totals.get("DIFF") else 0)


main()
