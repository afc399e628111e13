#!/usr/bin/env python3
"""Record (bless) or check the expected diagnostics of fixtures/invalid/*.mlir.

Each fixture starts with comment lines:

    // <one sentence: what is wrong>
    // EXPECT: <line>:<col>: <message>
    // FLAGS: <extra mlir-opt flags>        (optional)

The EXPECT line holds mlir-opt's FIRST diagnostic for the file, with the
"<file>:" prefix and the " error: " marker stripped.  Line numbers count the
comment lines too.

Usage:
    tools/record_invalid.py                 # bless: rewrite EXPECT lines
    tools/record_invalid.py --check         # only report mismatches
    tools/record_invalid.py [--check] FILE...   # restrict to some fixtures

The mlir-opt binary is taken from --mlir-opt, else $MLIR_OPT, else
/usr/lib/llvm-22/bin/mlir-opt, else `mlir-opt` on $PATH.

Exit status: 0 if everything matched / was recorded, 1 if any fixture
mismatched (--check), was accepted by mlir-opt, or produced no diagnostic.
Python 3 standard library only.
"""

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURE_DIR = os.path.join(ROOT, "fixtures", "invalid")
DEFAULT_MLIR_OPT = "/usr/lib/llvm-22/bin/mlir-opt"

EXPECT_RE = re.compile(r"^// EXPECT:(.*)$")
FLAGS_RE = re.compile(r"^// FLAGS:(.*)$")
SEVERITIES = ("error", "warning", "note", "remark")


def find_mlir_opt(explicit):
    for cand in (explicit, os.environ.get("MLIR_OPT"), DEFAULT_MLIR_OPT):
        if cand and os.path.isfile(cand) and os.access(cand, os.X_OK):
            return cand
    found = shutil.which("mlir-opt")
    if found:
        return found
    sys.exit("record_invalid.py: cannot find mlir-opt (use --mlir-opt or $MLIR_OPT)")


def header(lines):
    """Return (index of EXPECT line or None, list of extra flags)."""
    expect_idx = None
    flags = []
    for i, line in enumerate(lines):
        if not line.startswith("//"):
            break
        m = EXPECT_RE.match(line.rstrip("\n"))
        if m and expect_idx is None:
            expect_idx = i
        m = FLAGS_RE.match(line.rstrip("\n"))
        if m:
            flags.extend(shlex.split(m.group(1)))
    return expect_idx, flags


def first_diagnostic(mlir_opt, path, flags):
    """Run mlir-opt on PATH; return (exit status, first diagnostic or None).

    The diagnostic is "<line>:<col>: <message>" for errors, and
    "<line>:<col>: <severity>: <message>" for any other severity.
    """
    proc = subprocess.run(
        [mlir_opt, *flags, path, "-o", os.devnull],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        errors="replace",
    )
    sev = "(" + "|".join(SEVERITIES) + ")"
    located = re.compile(r"^(.*?):(\d+):(\d+): " + sev + r": (.*)$")
    unlocated = re.compile(r"^(?:.*?: )?" + sev + r": (.*)$")
    for line in proc.stderr.splitlines():
        m = located.match(line)
        if m:
            _, lineno, col, severity, msg = m.groups()
            marker = "" if severity == "error" else severity + ": "
            return proc.returncode, f"{lineno}:{col}: {marker}{msg}"
        m = unlocated.match(line)
        if m:
            severity, msg = m.groups()
            marker = "" if severity == "error" else severity + ": "
            return proc.returncode, f"0:0: {marker}{msg}"
    return proc.returncode, None


def printable(text):
    """Escape control characters (mlir-opt occasionally emits a NUL byte)."""
    return "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in text)


def read_lines(path):
    with open(path, encoding="utf-8", errors="surrogateescape", newline="") as fh:
        return fh.read().splitlines(keepends=True)


def write_lines(path, lines):
    with open(path, "w", encoding="utf-8", errors="surrogateescape", newline="") as fh:
        fh.write("".join(lines))


def process(path, mlir_opt, check, verbose):
    """Check or bless one fixture; return (problem?, updated?)."""
    rel = os.path.relpath(path, ROOT)
    lines = read_lines(path)
    expect_idx, flags = header(lines)

    if expect_idx is None:
        if check:
            print(f"NOEXPECT  {rel}: no '// EXPECT:' line")
            return True, False
        # Insert a placeholder after the description line; positions are
        # computed afterwards, so they account for the inserted line.
        at = 1 if lines and lines[0].startswith("//") else 0
        lines.insert(at, "// EXPECT: ?\n")
        write_lines(path, lines)
        expect_idx = at

    status, diag = first_diagnostic(mlir_opt, path, flags)
    if status == 0:
        print(f"ACCEPTED  {rel}: mlir-opt accepted the input (exit 0)")
        return True, False
    if diag is None:
        print(f"NODIAG    {rel}: mlir-opt exited {status} without a diagnostic")
        return True, False

    diag = printable(diag)
    old = lines[expect_idx].rstrip("\r\n")
    new = f"// EXPECT: {diag}"
    if old == new:
        if verbose:
            print(f"ok        {rel}")
        return False, False
    if check:
        print(f"MISMATCH  {rel}\n    fixture:  {old}\n    mlir-opt: {new}")
        return True, False
    eol = lines[expect_idx][len(old):] or "\n"
    lines[expect_idx] = new + eol
    write_lines(path, lines)
    print(f"recorded  {rel}: {diag}")
    return False, True


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="do not rewrite files; report mismatches and exit 1 if any")
    ap.add_argument("--mlir-opt", help="path of the mlir-opt binary")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every fixture")
    ap.add_argument("files", nargs="*", help="fixtures (default: fixtures/invalid/*.mlir)")
    args = ap.parse_args()

    mlir_opt = find_mlir_opt(args.mlir_opt)
    files = args.files or sorted(
        os.path.join(FIXTURE_DIR, f) for f in os.listdir(FIXTURE_DIR) if f.endswith(".mlir")
    )

    bad = 0
    changed = 0
    for path in files:
        problem, updated = process(path, mlir_opt, args.check, args.verbose)
        bad += problem
        changed += updated

    total = len(files)
    mode = "checked" if args.check else "recorded"
    print(f"{total} fixtures {mode}, {changed} updated, {bad} problem(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
