#!/usr/bin/env python3
"""Run LLVM's MLIR integration tests through mlir-interp and FileCheck.

LLVM's integration tests (`mlir/test/Integration/Dialect/<D>/CPU/*.mlir` in
an llvm-project checkout) are lit tests: their `// RUN:` lines lower the file
with mlir-opt, execute it with mlir-runner and check the printed output with
FileCheck.  A test whose meaning does not depend on the lowering should print
the same thing when mlir-interp executes the file directly.  This driver
reads each test's RUN lines, keeps the ones that execute the program, runs
mlir-interp with the same entry point instead of mlir-opt + mlir-runner, and
pipes the output into FileCheck with the test's own CHECK lines.  No upstream
test text is stored here: point the driver at a checkout (or a copy).

    tools/llvm_integration.py DIR_OR_FILE...          # table: pass/fail/skip
    tools/llvm_integration.py --oracle DIR            # also run the RUN lines
                                                      # with the real toolchain
    tools/llvm_integration.py -v FILE                 # show failure details

A test is skipped (with the reason in the table) when it needs something the
interpreter does not model: an op of another dialect (linalg, sparse_tensor,
llvm, target intrinsics...), a `REQUIRES:` feature, a runtime library other
than the runner utilities, or a RUN line that only checks compiler output.
RUN lines whose mlir-opt step runs a pass that changes the program's meaning
rather than choosing a lowering are skipped too (SEMANTIC_PASSES below).

Tests written before LLVM 22 may use ops LLVM 22 removed
(`vector.splat`, `vector.extractelement`, `vector.insertelement`) or the old
`memref.alloc(...) alignment = 64` spelling.  Unless `--no-modernize` is
given, the driver rewrites those lines mechanically into their LLVM 22
spelling (`vector.broadcast`, `vector.extract`, `vector.insert`, with an
`arith.index_cast` for a non-index position; `{alignment = 64 : i64}`), as
upstream did when it removed them; the table marks such tests `pass*`.

Exit status: 0 when no test failed, 1 otherwise, 2 on bad usage.
Python 3 standard library only.
"""

import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LLVM_BIN = "/usr/lib/llvm-22/bin"
LLVM_LIB = "/usr/lib/llvm-22/lib"

# Dialects whose ops mlir-interp executes (op prefixes as they appear in text).
RUN_DIALECTS = {
    "builtin", "func", "arith", "math", "scf", "cf", "memref", "vector",
    "tensor", "complex", "bufferization", "affine", "index", "ub",
}
# Dialects that are "not modelled" for a stated reason.
SKIP_DIALECTS = {
    "llvm": "needs llvm slice (llvm dialect ops)",
    "linalg": "uses linalg (not interpreted)",
    "sparse_tensor": "uses sparse_tensor (not interpreted)",
    "transform": "uses a transform schedule",
    "gpu": "uses gpu",
    "arm_sme": "target intrinsics (arm_sme)",
    "arm_sve": "target intrinsics (arm_sve)",
    "arm_neon": "target intrinsics (arm_neon)",
    "x86vector": "target intrinsics (x86vector)",
    "amx": "target intrinsics (amx)",
    "async": "uses async",
    "omp": "uses openmp",
    "tosa": "uses tosa",
    "shape": "uses shape",
    "emitc": "uses emitc",
    "spirv": "uses spirv",
    "test": "uses the test dialect",
}
# mlir-opt passes after which the program no longer means what the source
# says (they implement a transform schedule or rewrite semantics).
SEMANTIC_PASSES = (
    "test-transform-dialect", "sparsifier", "sparse-compiler",
    "test-vector-warp-distribute", "test-vector-distribute",
    "test-linalg", "linalg-", "test-tensor",
)
# Lowerings tried, in order, when a test's own pipeline no longer runs on
# LLVM 22 (`--oracle`).
FALLBACK_PIPELINES = (
    ("-test-lower-to-llvm", "-test-lower-to-llvm"),
    ("one-shot-bufferize + standard lowering",
     "--pass-pipeline='builtin.module(one-shot-bufferize{bufferize-function-boundaries},"
     "func.func(convert-complex-to-standard),convert-scf-to-cf,expand-strided-metadata,"
     "convert-vector-to-llvm,finalize-memref-to-llvm,convert-math-to-llvm,convert-math-to-libm,"
     "convert-complex-to-llvm,convert-arith-to-llvm,convert-index-to-llvm,convert-ub-to-llvm,"
     "convert-cf-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts)'"),
)
# Passes whose effect is the output being checked, with the reason.
CHECKED_PASSES = {
    "generate-runtime-verification":
        "checks the messages of -generate-runtime-verification's inserted checks "
        "(mlir-interp reports the same faults as undefined behaviour)",
}
# Ops LLVM 22 replaced by llvm dialect intrinsics (no mechanical rewrite).
MOVED_TO_LLVM = {
    "vector.matrix_multiply": "llvm.intr.matrix.multiply",
    "vector.flat_transpose": "llvm.intr.matrix.transpose",
}
# Runtime libraries that only provide the print functions mlir-interp models.
RUNNER_LIBS = {"%mlir_c_runner_utils", "%mlir_runner_utils"}
REMOVED_OPS = re.compile(r"\bvector\.(splat|extractelement|insertelement)\b"
                         r"|\bmemref\.alloca?\([^)]*\)\s+alignment\s*=")


def split_pipe(cmd):
    """Splits a shell command at top-level `|` (quotes respected)."""
    parts, cur, quote = [], [], None
    for ch in cmd:
        if quote:
            cur.append(ch)
            if ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
            cur.append(ch)
        elif ch == "|":
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur).strip())
    return [p for p in parts if p]


def lit_commands(text):
    """Returns the RUN commands of a lit test, substitutions applied.

    Handles `\\` continuations and `DEFINE:`/`REDEFINE:` of `%{name}`, in
    file order (a RUN line sees the definitions above it)."""
    defs, runs = {}, []
    pending = None  # (kind, name, accumulated text)
    for line in text.splitlines():
        m = re.match(r"^\s*//\s*(RUN|DEFINE|REDEFINE):(.*)$", line)
        if pending is not None:
            if m is None or m.group(1) not in ("RUN", "DEFINE", "REDEFINE"):
                pending = None
                continue
            body = m.group(2)
        elif m:
            kind, body = m.group(1), m.group(2)
            if kind == "RUN":
                pending = ["RUN", None, ""]
            else:
                dm = re.match(r"\s*%\{([^}]+)\}\s*=(.*)$", body)
                if not dm:
                    continue
                pending = [kind, dm.group(1), ""]
                body = dm.group(2)
        else:
            continue
        cont = body.rstrip().endswith("\\")
        pending[2] += " " + (body.rstrip()[:-1] if cont else body)
        if not cont:
            kind, name, value = pending
            value = value.strip()
            if kind == "RUN":
                runs.append(expand(value, defs))
            else:
                defs[name] = value
            pending = None
    return runs


def expand(cmd, defs):
    for _ in range(10):
        new = re.sub(r"%\{([^}]+)\}", lambda m: defs.get(m.group(1), m.group(0)), cmd)
        if new == cmd:
            break
        cmd = new
    return cmd


def code_lines(text):
    for line in text.splitlines():
        yield re.sub(r"//.*$", "", line)


def dialects_used(text):
    found = {}
    # An op name starts a statement or follows `=` (attribute names such as
    # `llvm.emit_c_interface` follow `{` or `,` and are not ops).
    op = re.compile(r'(?:^\s*|=\s*)"?([a-z_][a-z0-9_]*)\.([a-z_][a-z0-9_.]*)\b')
    for line in code_lines(text):
        for m in op.finditer(line):
            d = m.group(1)
            if d in ("affine_map", "affine_set") or d[0].isdigit():
                continue
            found.setdefault(d, m.group(1) + "." + m.group(2))
    return found


def static_skip(text):
    """Returns why the test cannot run here, or None."""
    for line in text.splitlines():
        m = re.match(r"^\s*//\s*REQUIRES:(.*)$", line)
        if m:
            return "requires " + m.group(1).strip()
    for old, new in MOVED_TO_LLVM.items():
        if re.search(r"\b" + re.escape(old) + r"\b", "\n".join(code_lines(text))):
            return f"needs llvm slice ({old} is {new} since LLVM 22)"
    used = dialects_used(text)
    for d, example in sorted(used.items()):
        if d in SKIP_DIALECTS:
            return f"{SKIP_DIALECTS[d]}: {example}"
    for d, example in sorted(used.items()):
        if d not in RUN_DIALECTS:
            return f"uses unmodelled op {example}"
    return None


def parse_run(cmd):
    """Classifies one RUN command.

    Returns ("exec", entry, result, filecheck_args, opt_stages) for a RUN
    line that executes the program, or ("skip", reason)."""
    stages = split_pipe(cmd)
    opt, runner, check = [], None, None
    for st in stages:
        words = shlex.split(st)
        if not words:
            continue
        tool = os.path.basename(words[0])
        if tool == "mlir-opt":
            opt.append(words)
        elif tool in ("mlir-runner", "mlir-cpu-runner"):
            runner = words
        elif tool == "FileCheck":
            check = words
        elif tool == "not":
            return ("skip", "expects a failing command")
        else:
            return ("skip", f"runs {tool}")
    if runner is None:
        return ("skip", "checks compiler output, not execution")
    if check is None:
        return ("skip", "output is not checked")
    flags = [w.lstrip("-") for words in opt for w in words[1:]]
    erased = "test-transform-dialect-erase-schedule" in flags
    if any(f.startswith("transform-interpreter") for f in flags) and not erased:
        return ("skip", "runs a transform schedule on the program")
    for words in opt:
        for w in words[1:]:
            flag = w.lstrip("-")
            if flag == "test-transform-dialect-erase-schedule" or flag.startswith("transform-interpreter"):
                continue
            for p, why in CHECKED_PASSES.items():
                if flag.startswith(p):
                    return ("skip", why)
            if any(flag.startswith(p) or p in flag for p in SEMANTIC_PASSES):
                return ("skip", f"pipeline changes semantics: {w}")
    entry, result = "main", "void"
    i = 1
    while i < len(runner):
        w = runner[i]
        if w in ("-e", "--e") and i + 1 < len(runner):
            entry = runner[i + 1]
            i += 1
        elif w.startswith("-e="):
            entry = w[3:]
        elif re.match(r"^--?entry-point-result=", w):
            result = w.split("=", 1)[1]
        elif re.match(r"^--?entry-point-result$", w) and i + 1 < len(runner):
            result = runner[i + 1]
            i += 1
        elif re.match(r"^--?shared-libs=", w):
            for lib in w.split("=", 1)[1].split(","):
                if lib and not is_runner_lib(lib):
                    return ("skip", f"needs runtime library {lib}")
        i += 1
    fc_args = [a for a in check[1:] if a != "%s"]
    return ("exec", entry, result, fc_args, opt)


def is_runner_lib(lib):
    """The runner utilities, as lit names them now or did before LLVM 20
    (`%mlir_lib_dir/libmlir_c_runner_utils%shlibext`)."""
    if lib in RUNNER_LIBS:
        return True
    name = os.path.basename(lib)
    return re.match(r"^lib(mlir_c_runner_utils|mlir_runner_utils)(%shlibext|\.so[.\d]*)$", name) is not None


def erase_schedule(text):
    """Removes the top-level `module attributes {transform.with_named_sequence}`
    block, as `-test-transform-dialect-erase-schedule` does; None if absent."""
    lines = text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        if re.match(r"^module\s+attributes\s*\{\s*transform\.with_named_sequence", line):
            depth, j = 0, i
            while j < len(lines):
                code = re.sub(r"//.*$", "", lines[j])
                depth += code.count("{") - code.count("}")
                j += 1
                if depth == 0:
                    return "".join(lines[:i] + lines[j:])
            return None
    return None


def modernize(text):
    """Rewrites ops LLVM 22 removed into their replacements, line by line."""
    aliases = dict(re.findall(r"^(![A-Za-z_][\w.$]*)\s*=\s*(vector<[^>]*>)", text, re.M))
    out, n = [], 0

    def vtype(t):
        return aliases.get(t.strip(), t.strip())

    def elem(t):
        body = vtype(t)[len("vector<"):-1]
        return body.split("x")[-1] if "x" in body else body

    for line in text.splitlines(keepends=True):
        nl = "\n" if line.endswith("\n") else ""
        s = line[: len(line) - len(nl)]
        ind = re.match(r"^\s*", s).group(0)
        # `memref.alloc(...) alignment = 64 : T`: an old custom syntax.
        s = re.sub(r"(\bmemref\.alloca?\([^)]*\))\s+alignment\s*=\s*(\d+)\s*:",
                   r"\1 {alignment = \2 : i64} :", s)
        line = s + nl
        m = re.match(r"^(\s*%[\w.$-]+\s*=\s*)vector\.splat\s+(%[\w.$-]+)\s*:\s*(\S.*?)\s*$", s)
        if m:
            out.append(f"{m.group(1)}vector.broadcast {m.group(2)} : {elem(m.group(3))} to {m.group(3)}{nl}")
            continue
        m = re.match(r"^(\s*%[\w.$-]+\s*=\s*)vector\.extractelement\s+(%[\w.$-]+)\[(.*?)\]\s*:\s*(\S.*?)\s*$", s)
        if m:
            pos, pre = index_operand(m.group(3), ind, n)
            n += 1
            out.append(pre)
            out.append(f"{m.group(1)}vector.extract {m.group(2)}[{pos}] : {elem(m.group(4))} from {m.group(4)}{nl}")
            continue
        m = re.match(r"^(\s*%[\w.$-]+\s*=\s*)vector\.insertelement\s+(%[\w.$-]+)\s*,\s*(%[\w.$-]+)\[(.*?)\]\s*:\s*(\S.*?)\s*$", s)
        if m:
            pos, pre = index_operand(m.group(4), ind, n)
            n += 1
            out.append(pre)
            out.append(f"{m.group(1)}vector.insert {m.group(2)}, {m.group(3)}[{pos}] : {elem(m.group(5))} into {m.group(5)}{nl}")
            continue
        out.append(line)
    return "".join(out)


def index_operand(pos, ind, n):
    """`%i : i32` -> (a fresh index value, the index_cast line defining it)."""
    pos = pos.strip()
    if not pos:
        return "", ""
    m = re.match(r"^(%[\w.$-]+)\s*:\s*(\S+)$", pos)
    if not m or m.group(2) == "index":
        return (m.group(1) if m else pos), ""
    name = f"%__modernized_idx{n}"
    return name, f"{ind}{name} = arith.index_cast {m.group(1)} : {m.group(2)} to index\n"


def run_interp(args, path, text, entry, result, fc_args):
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as tmp:
        tmp.write(text)
        src = tmp.name
    try:
        cmd = [args.interp, "run", src, "-e", entry, f"--entry-point-result={result}"]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
        fc = subprocess.run([args.filecheck, path] + fc_args, input=p.stdout,
                            capture_output=True, text=True, timeout=args.timeout)
        detail = ""
        if p.returncode != 0:
            detail = p.stderr.replace(src, os.path.basename(path)).strip()
        if fc.returncode != 0:
            detail = (detail + "\n" + fc.stderr).strip()
        return p.returncode == 0 and fc.returncode == 0, detail
    except subprocess.TimeoutExpired:
        return False, f"timed out after {args.timeout}s"
    finally:
        os.unlink(src)


def run_oracle(args, path, text, cmd):
    """Runs one RUN line with the real toolchain (sanity check of the test)."""
    libs = {
        "%mlir_c_runner_utils": f"{LLVM_LIB}/libmlir_c_runner_utils.so.22.1",
        "%mlir_runner_utils": f"{LLVM_LIB}/libmlir_runner_utils.so.22.1",
    }
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as tmp:
        tmp.write(text)
        src = tmp.name
    try:
        c = cmd.replace("%s", shlex.quote(src))
        c = re.sub(r"%mlir_(?:lib|integration_test)_dir/lib(mlir_c_runner_utils|mlir_runner_utils)%shlibext",
                   lambda m: "%" + m.group(1), c)
        for k, v in libs.items():
            c = c.replace(k, v)
        c = re.sub(r"(^|\|)\s*mlir-cpu-runner\b", r"\1 mlir-runner", c)
        c = re.sub(r"(^|\|)\s*(mlir-opt|mlir-runner|FileCheck)\b",
                   lambda m: f"{m.group(1)} {LLVM_BIN}/{m.group(2)}", c)
        c = c.replace(f"{LLVM_BIN}/FileCheck {shlex.quote(src)}", f"{LLVM_BIN}/FileCheck {shlex.quote(path)}")
        p = subprocess.run(["bash", "-o", "pipefail", "-c", c], capture_output=True,
                           text=True, timeout=args.timeout)
        return p.returncode == 0, p.stderr.replace(src, os.path.basename(path)).strip()
    except subprocess.TimeoutExpired:
        return False, f"timed out after {args.timeout}s"
    finally:
        os.unlink(src)


def run_test(args, path):
    """Returns (status, note, details) for one upstream test file."""
    with open(path, encoding="utf-8") as f:
        original = f.read()
    text, note = original, ""
    if REMOVED_OPS.search(original):
        if args.no_modernize:
            return "skip", "uses ops removed in LLVM 22 (" + REMOVED_OPS.search(original).group(0) + ")", ""
        text = modernize(original)
        note = "modernized"
    commands = lit_commands(original)
    if not commands:
        return "skip", "no RUN line", ""
    # A transform schedule that every RUN line erases (after at most running
    # its rewrite patterns, which only choose a lowering) is not part of the
    # program.
    oracle_text = text
    if all("test-transform-dialect-erase-schedule" in c for c in commands):
        erased = erase_schedule(text)
        if erased is not None:
            text = erased
            note = ", ".join(x for x in (note, "schedule erased") if x)
    why = static_skip(text)
    if why:
        return "skip", why, ""
    ran, failures, skipped, oracle_fail = 0, [], [], []
    oracle_note = "toolchain agrees"
    for cmd in commands:
        parsed = parse_run(cmd)
        if parsed[0] == "skip":
            skipped.append(parsed[1])
            continue
        _, entry, result, fc_args, opt = parsed
        ran += 1
        ok, detail = run_interp(args, path, text, entry, result, fc_args)
        if not ok:
            failures.append(detail)
        if args.oracle:
            ok, detail = run_oracle(args, path, oracle_text, cmd)
            if not ok:
                # Pipelines of tests older than LLVM 22 can miss passes it
                # now needs; a standard lowering stands in for them.
                keep = " ".join(w for words in opt for w in words
                                if re.match(r"^--?(test-vector-[\w-]+|expand-realloc)$", w))
                tail = (f" | mlir-runner -e {entry} -entry-point-result={result} "
                        f"-shared-libs=%mlir_c_runner_utils,%mlir_runner_utils "
                        f"| FileCheck %s {shlex.join(fc_args)}")
                for name, pipe in FALLBACK_PIPELINES:
                    ok, _ = run_oracle(args, path, text, f"mlir-opt %s {keep} {pipe}{tail}")
                    if ok:
                        oracle_note = f"toolchain agrees (through {name})"
                        break
            if not ok:
                oracle_fail.append(detail)
    if ran == 0:
        return "skip", "; ".join(sorted(set(skipped))) or "nothing to run", ""
    extra = []
    if note:
        extra.append(note)
    if skipped:
        extra.append(f"{len(skipped)} RUN line(s) skipped: " + "; ".join(sorted(set(skipped))))
    if args.oracle:
        extra.append("toolchain FAILS" if oracle_fail else oracle_note)
    failures = list(dict.fromkeys(failures))
    details = "\n".join(failures + [f"[toolchain] {d}" for d in dict.fromkeys(oracle_fail)])
    if failures:
        first = failures[0].splitlines()[0] if failures[0] else "FileCheck failed"
        return "fail", "; ".join([first] + extra), details
    return ("pass*" if "modernized" in note else "pass"), "; ".join(extra), details


def collect(paths, recursive):
    files = []
    for p in paths:
        if os.path.isdir(p):
            if recursive:
                for d, _, names in os.walk(p):
                    files += [os.path.join(d, n) for n in names if n.endswith(".mlir")]
            else:
                files += [os.path.join(p, n) for n in os.listdir(p) if n.endswith(".mlir")]
        else:
            files.append(p)
    return sorted(files)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="+", help="test files or directories")
    ap.add_argument("--interp", default=os.path.join(ROOT, "target/release/mlir-interp"))
    ap.add_argument("--filecheck", default=os.environ.get("FILECHECK", f"{LLVM_BIN}/FileCheck"))
    ap.add_argument("--oracle", action="store_true",
                    help="also run each RUN line with the real toolchain")
    ap.add_argument("--no-modernize", action="store_true",
                    help="skip tests using ops removed in LLVM 22 instead of rewriting them")
    ap.add_argument("-r", "--recursive", action="store_true")
    ap.add_argument("--timeout", type=int, default=120)
    ap.add_argument("-v", "--verbose", action="store_true", help="print failure details")
    args = ap.parse_args()
    for tool in (args.interp, args.filecheck):
        if not os.access(tool, os.X_OK):
            print(f"llvm_integration: {tool} not found or not executable", file=sys.stderr)
            return 2
    files = collect(args.paths, args.recursive)
    if not files:
        print("llvm_integration: no .mlir files", file=sys.stderr)
        return 2
    common = os.path.commonpath(files) if len(files) > 1 else os.path.dirname(files[0])
    counts = {}
    width = max(len(os.path.relpath(f, common)) for f in files)
    for f in files:
        status, note, details = run_test(args, f)
        counts[status] = counts.get(status, 0) + 1
        print(f"{status:6} {os.path.relpath(f, common):{width}}  {note}")
        if args.verbose and details:
            print("       " + details.replace("\n", "\n       "))
    print("\n" + ", ".join(f"{k}: {v}" for k, v in sorted(counts.items())) + f" (of {len(files)})")
    return 1 if counts.get("fail") else 0


if __name__ == "__main__":
    sys.exit(main())
