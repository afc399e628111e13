#!/usr/bin/env python3
"""Extract the MLIR examples from the spec documents into fixtures.

For every example block that looks like MLIR IR in the spec documents
(/work/shared/spec by default) this writes

    fixtures/spec/<docprefix>_<NNN>.mlir

whose first line is `// from <spec file>:<line of the block's first line>`,
followed by the example text verbatim.  It then runs every fixture through
the real toolchain

    /usr/lib/llvm-22/bin/mlir-opt --allow-unregistered-dialect FILE -o /dev/null

and records the outcome in fixtures/spec/EXPECTED.tsv (name, accept|reject,
first diagnostic line with the file path stripped), and regenerates
fixtures/spec/README.md with the counts.

Modes:
    (default)          extract + classify + write EXPECTED.tsv and README.md
    --classify-only    do not touch the .mlir files; re-run mlir-opt only
    --check            re-extract into a temporary directory and compare with
                       the committed fixtures; exit 1 on any drift (no
                       mlir-opt needed, so CI can run it anywhere)

Documents with ``` fences (000, 001, 002.clean) are split on the fences.
Documents without fences (003, 004; rendered HTML dumped to text) are split
line by line: a line is code if it looks like MLIR (SSA definitions, block
labels, alias definitions, generic/custom ops with operands, type/attribute
literals such as `tensor<...>`, braces), or if it directly continues a code
line (indented, or starting with `:` `)` `]` `}` `->`); runs of code lines may
span blank lines and `//` comments.  Grammar (`::=` and its continuation
lines) is skipped everywhere, as are blocks with only comments, fences tagged
with a non-MLIR language (ebnf, c++, shell, ...).

Stdlib only; deterministic (no timestamps, sorted output).
"""

import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_SPEC_DIR = os.environ.get("MLIR_SPEC_DIR", "/work/shared/spec")
DEFAULT_OUT_DIR = os.path.join(REPO, "fixtures", "spec")
DEFAULT_MLIR_OPT = os.environ.get("MLIR_OPT", "/usr/lib/llvm-22/bin/mlir-opt")
MLIR_OPT_ARGS = ["--allow-unregistered-dialect"]  # then FILE -o /dev/null

# docprefix -> how to find the spec file in the spec dir.  002 has a gutter
# version and a .clean version; only the .clean one is used.
DOCS = [
    ("000", "fenced"),
    ("001", "fenced"),
    ("002", "fenced"),
    ("003", "unfenced"),
    ("004", "unfenced"),
]

FIXTURE_RE = re.compile(r"^(\d{3})_(\d{3})\.mlir$")


def find_spec_file(spec_dir, prefix):
    names = sorted(os.listdir(spec_dir))
    cands = [n for n in names if n.startswith(prefix + "_") and n.endswith(".txt")]
    clean = [n for n in cands if n.endswith(".clean.txt")]
    if clean:
        cands = clean
    if len(cands) != 1:
        raise SystemExit("cannot pick spec file for %s in %s: %r" % (prefix, spec_dir, cands))
    return cands[0]


# --------------------------------------------------------------------------
# Shared heuristics

NON_MLIR_LANGS = {
    "ebnf", "c", "c++", "cpp", "sh", "bash", "shell", "console", "python", "py",
    "tablegen", "td", "llvm", "json", "yaml", "text", "txt",
}


def strip_comment(line):
    i = line.find("//")
    return line if i < 0 else line[:i]


def is_grammar_line(line):
    return "::=" in strip_comment(line)


def is_comment(line):
    return line.lstrip().startswith("//")


# Lines that on their own say "this is MLIR".
_STRONG = [
    # SSA definition(s): %x = ..., %x:2 = ..., %a, %b = ...
    re.compile(r"^%[\w$.\-]+(:\d+)?(\s*,\s*%[\w$.\-]+(:\d+)?)*\s*=(?!=)"),
    # block label: ^bb0: / ^bb1(%a: i64):
    re.compile(r"^\^[\w$.\-]+\s*(\(.*\))?\s*:"),
    # attribute / type alias definition: #map = ..., !t = ...
    re.compile(r"^[#!][\w$.\-]+\s*=(?!=)"),
    # dialect attribute / type literal: #foo<...>, !foo.bar, !llvm<"...">
    re.compile(r"^[#!][A-Za-z_][\w$.\-]*(<.*)?\s*(//.*)?$"),
    # generic operation: "dialect.op"(...)
    re.compile(r'^"[\w$.\-]+"\s*\('),
    # functions / modules
    re.compile(r"^(func\.func|func|module|builtin\.module)\b\s*(@|\{|attributes\b)"),
    # custom op with an operand, symbol, successor, string or region:
    #   memref.dealloc %0, call @f, dma_start %a[..], memref.global "private",
    #   memref.alloca_scope {, cond_br %c, ^bb1
    re.compile(r'^[a-z_][\w$]*(\.[\w$]+)*\s+(%|@|\^|"|\{)'),
    re.compile(r"^[a-z_][\w$]*(\.[\w$]+)*\s+constant\s+@"),
    # type / attribute literal on its own line: tensor<...>, affine_map<...
    # (lower-case keyword only, so table rows like `inputsArrayRef<Type>` don't count)
    re.compile(r"^[a-z_][a-z0-9_.]*<"),
    # lone braces / return
    re.compile(r"^[{}]\s*(\)\s*:.*)?$"),
    re.compile(r"^return\b"),
]

_CONTINUATION_START = re.compile(r"^(:|\)|\]|\}|->)")


# Inside a grammar production only these end the production early (e.g. the
# comb.mux / comb.truth_table examples directly follow their `::=` line).
_VERY_STRONG = _STRONG[:3] + [_STRONG[4]]


def is_strong_code(line, very=False):
    s = line.strip()
    if "`" in s and not s.startswith("//"):
        return False  # backquoted tokens: assembly-format / grammar text
    return any(r.search(s) for r in (_VERY_STRONG if very else _STRONG))


# --------------------------------------------------------------------------
# Fenced documents

FENCE_RE = re.compile(r"^\s*```\s*(.*?)\s*$")


def extract_fenced(lines):
    """Yield (first_line_no, [lines]) for each kept fenced block."""
    out = []
    i = 0
    n = len(lines)
    while i < n:
        m = FENCE_RE.match(lines[i])
        if not m:
            i += 1
            continue
        info = m.group(1)
        j = i + 1
        while j < n and not re.match(r"^\s*```\s*$", lines[j]):
            j += 1
        body_start = i + 1  # 0-based index of the first body line
        body = lines[body_start:j]
        i = j + 1
        langs = set(re.findall(r"[a-z+]+", info.lower()))
        if "ebnf" in langs or ("mlir" not in langs and langs & NON_MLIR_LANGS):
            continue
        # trim blank lines at both ends
        a, b = 0, len(body)
        while a < b and not body[a].strip():
            a += 1
        while b > a and not body[b - 1].strip():
            b -= 1
        body = body[a:b]
        if not body:
            continue
        if any(is_grammar_line(l) for l in body):
            continue
        if all(is_comment(l) or not l.strip() for l in body):
            continue
        if looks_non_mlir(body):
            continue
        out.append((body_start + a + 1, body))
    return out


def looks_non_mlir(body):
    text = "\n".join(body)
    if re.search(r"#include\b|\bstd::|\$ |\bmlir-opt\b|^\s*(class|struct|void|template)\b", text, re.M):
        return True
    return False


# --------------------------------------------------------------------------
# Unfenced documents


def extract_unfenced(lines):
    blocks = []
    cur = []  # list of (index, text)
    blanks = []  # pending blank lines (index, text) inside a run
    grammar = False
    prev_code = False  # previous line (no blank in between) was code

    def flush():
        nonlocal cur, blanks
        if cur and any(is_strong_code(t) for _, t in cur):
            blocks.append((cur[0][0] + 1, [t for _, t in cur]))
        cur = []
        blanks = []

    for idx, raw in enumerate(lines):
        line = raw.rstrip("\n")
        if not line.strip():
            grammar = False
            prev_code = False
            if cur:
                blanks.append((idx, line))
            continue
        if is_grammar_line(line):
            flush()
            grammar = True
            prev_code = False
            continue
        if grammar and not is_strong_code(line, very=True):
            continue  # continuation line of a grammar production
        strong = is_strong_code(line)
        grammar = False
        cont = prev_code and (line[:1].isspace() or _CONTINUATION_START.match(line.lstrip()))
        if strong or cont or is_comment(line):
            if cur and blanks:
                cur.extend(blanks)
            blanks = []
            cur.append((idx, line))
            prev_code = True
        else:
            flush()
            prev_code = False
    flush()
    return blocks


# --------------------------------------------------------------------------


def extract_all(spec_dir):
    """Return sorted list of (fixture_name, content)."""
    result = []
    for prefix, kind in DOCS:
        fname = find_spec_file(spec_dir, prefix)
        with open(os.path.join(spec_dir, fname), encoding="utf-8") as f:
            lines = f.read().split("\n")
        if kind == "fenced":
            blocks = extract_fenced(lines)
        else:
            blocks = extract_unfenced(lines)
        for k, (lineno, body) in enumerate(blocks, 1):
            name = "%s_%03d.mlir" % (prefix, k)
            content = "// from %s:%d\n%s\n" % (fname, lineno, "\n".join(l.rstrip() for l in body))
            result.append((name, content))
    return result


def write_fixtures(out_dir, fixtures):
    os.makedirs(out_dir, exist_ok=True)
    wanted = {n for n, _ in fixtures}
    for n in sorted(os.listdir(out_dir)):
        if FIXTURE_RE.match(n) and n not in wanted:
            os.remove(os.path.join(out_dir, n))
    for name, content in fixtures:
        path = os.path.join(out_dir, name)
        old = None
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                old = f.read()
        if old != content:
            with open(path, "w", encoding="utf-8") as f:
                f.write(content)


def list_fixtures(out_dir):
    return sorted(n for n in os.listdir(out_dir) if FIXTURE_RE.match(n))


def run_mlir_opt(mlir_opt, path, extra=None):
    args = [mlir_opt] + (MLIR_OPT_ARGS if extra is None else extra) + [path, "-o", "/dev/null"]
    try:
        p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    except subprocess.TimeoutExpired:
        return False, "timeout"
    err = p.stderr.decode("utf-8", "replace")
    if p.returncode == 0:
        return True, ""
    diag = None
    lines = [l for l in err.split("\n") if l.strip()]
    for l in lines:
        if l.startswith(path + ":"):
            diag = l[len(path) + 1:]
            break
    if diag is None:
        diag = lines[0].replace(path, os.path.basename(path)) if lines else "exit status %d" % p.returncode
    if p.returncode < 0:
        diag = "crash (signal %d): %s" % (-p.returncode, diag)
    return False, diag.replace("\t", " ").strip()


def mlir_opt_version(mlir_opt):
    try:
        p = subprocess.run([mlir_opt, "--version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        for l in p.stdout.decode().split("\n"):
            if "version" in l.lower():
                return l.strip()
    except OSError:
        pass
    return "unknown"


def classify(out_dir, mlir_opt):
    if not os.access(mlir_opt, os.X_OK):
        raise SystemExit("mlir-opt not found at %s (install mlir-22-tools or set MLIR_OPT)" % mlir_opt)
    rows = []
    needs_unreg = []
    for name in list_fixtures(out_dir):
        path = os.path.abspath(os.path.join(out_dir, name))
        ok, diag = run_mlir_opt(mlir_opt, path)
        rows.append((name, "accept" if ok else "reject", diag))
        if ok:
            ok2, _ = run_mlir_opt(mlir_opt, path, extra=[])
            if not ok2:
                needs_unreg.append(name)
    version = mlir_opt_version(mlir_opt)
    with open(os.path.join(out_dir, "EXPECTED.tsv"), "w", encoding="utf-8") as f:
        f.write(
            "# columns: fixture<TAB>accept|reject<TAB>first mlir-opt diagnostic (rejects only; file path "
            "stripped, line numbers count the '// from' header line); command: "
            "%s %s FILE -o /dev/null (%s); regenerate: tools/extract_spec_examples.py\n"
            % (mlir_opt, " ".join(MLIR_OPT_ARGS), version)
        )
        for name, verdict, diag in rows:
            f.write("%s\t%s\t%s\n" % (name, verdict, diag) if diag else "%s\t%s\n" % (name, verdict))
    write_readme(out_dir, rows, needs_unreg, mlir_opt, version)
    return rows


def write_readme(out_dir, rows, needs_unreg, mlir_opt, version):
    per_doc = {}
    for name, verdict, _ in rows:
        d = per_doc.setdefault(name[:3], [0, 0])
        d[0 if verdict == "accept" else 1] += 1
    acc = sum(v[0] for v in per_doc.values())
    rej = sum(v[1] for v in per_doc.values())
    lines = [
        "# Spec examples",
        "",
        "Every block of MLIR found in the spec documents (`/work/shared/spec`), one",
        "file per block: `<doc>_<NNN>.mlir`, first line `// from <spec file>:<line>`,",
        "then the example verbatim (grammar productions, non-MLIR snippets and",
        "comment-only blocks are skipped). Many are fragments (a bare type or",
        "attribute, ops using undefined values, pre-2020 syntax), so a reject is",
        "not a bug in the fixture: it is what the reference toolchain says.",
        "",
        "`EXPECTED.tsv` records, for each file, whether",
        "`%s %s FILE -o /dev/null` (%s)" % (mlir_opt, " ".join(MLIR_OPT_ARGS), version),
        "accepts it, and for rejects the first diagnostic (path stripped; line numbers",
        "include the `// from` header line).",
        "",
        "Regenerate (do not edit by hand):",
        "",
        "    tools/extract_spec_examples.py                 # extract + classify",
        "    tools/extract_spec_examples.py --classify-only # re-run mlir-opt only",
        "    tools/extract_spec_examples.py --check         # CI: fail if fixtures drifted from the spec",
        "",
        "| doc | examples | accept | reject |",
        "|---|---|---|---|",
    ]
    for d in sorted(per_doc):
        a, r = per_doc[d]
        lines.append("| %s | %d | %d | %d |" % (d, a + r, a, r))
    lines.append("| all | %d | %d | %d |" % (acc + rej, acc, rej))
    lines.append("")
    if needs_unreg:
        lines.append(
            "Accepted only thanks to `--allow-unregistered-dialect` (%d): %s."
            % (len(needs_unreg), ", ".join("`%s`" % n[:-5] for n in needs_unreg))
        )
        lines.append("")
    lines += [
        "`LANG2019.tsv` (kept by hand, not by this script) classifies the 2019",
        "document's examples (`002_*`) as mlir-interp reads them with `--lang 2019`:",
        "a program that runs, a fragment inside a wrapper, or the document's own",
        "error; `interp/tests/lang2019.rs` checks it.",
        "",
    ]
    with open(os.path.join(out_dir, "README.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines))


def check(spec_dir, out_dir):
    fixtures = extract_all(spec_dir)
    tmp = tempfile.mkdtemp(prefix="spec-fixtures-")
    try:
        write_fixtures(tmp, fixtures)
        new = set(list_fixtures(tmp))
        old = set(list_fixtures(out_dir)) if os.path.isdir(out_dir) else set()
        problems = []
        for n in sorted(new - old):
            problems.append("missing fixture (in spec, not committed): %s" % n)
        for n in sorted(old - new):
            problems.append("stale fixture (committed, no longer extracted): %s" % n)
        for n in sorted(new & old):
            with open(os.path.join(tmp, n), encoding="utf-8") as f:
                a = f.read()
            with open(os.path.join(out_dir, n), encoding="utf-8") as f:
                b = f.read()
            if a != b:
                diff = difflib.unified_diff(
                    b.splitlines(), a.splitlines(), "committed/" + n, "extracted/" + n, lineterm="", n=1
                )
                problems.append("content differs: %s\n%s" % (n, "\n".join(list(diff)[:20])))
        exp = os.path.join(out_dir, "EXPECTED.tsv")
        if os.path.exists(exp):
            with open(exp, encoding="utf-8") as f:
                listed = [l.split("\t")[0] for l in f.read().split("\n") if l and not l.startswith("#")]
            if listed != sorted(new):
                problems.append("EXPECTED.tsv does not list exactly the extracted fixtures (run --classify-only)")
        else:
            problems.append("EXPECTED.tsv missing")
        if problems:
            print("spec fixtures drifted (%d problem(s)); regenerate with tools/extract_spec_examples.py" % len(problems))
            for p in problems:
                print("  " + p)
            return 1
        print("spec fixtures up to date (%d files)" % len(new))
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--check", action="store_true", help="compare committed fixtures with a fresh extraction; exit 1 on drift")
    g.add_argument("--classify-only", action="store_true", help="only re-run mlir-opt and rewrite EXPECTED.tsv/README.md")
    ap.add_argument("--spec-dir", default=DEFAULT_SPEC_DIR)
    ap.add_argument("--out-dir", default=DEFAULT_OUT_DIR)
    ap.add_argument("--mlir-opt", default=DEFAULT_MLIR_OPT)
    a = ap.parse_args()
    if a.check:
        return check(a.spec_dir, a.out_dir)
    if not a.classify_only:
        fixtures = extract_all(a.spec_dir)
        write_fixtures(a.out_dir, fixtures)
    rows = classify(a.out_dir, a.mlir_opt)
    acc = sum(1 for r in rows if r[1] == "accept")
    print("%d fixtures: %d accept, %d reject" % (len(rows), acc, len(rows) - acc))
    return 0


if __name__ == "__main__":
    sys.exit(main())
