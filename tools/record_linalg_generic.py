#!/usr/bin/env python3
"""Record each linalg named op beside its `linalg.generic` form.

For every OpDSL op fixture (fixtures/exec/linalg/opdsl/*.mlir) and the
hand-parsed named ops listed in EXTRA, writes fixtures/linalg_generic/OP.mlir
holding two functions of the same signature: `@named` applies the named op
to its arguments, and `@generic` is what LLVM 22's own
`mlir-opt --linalg-generalize-named-ops` turns that op into (its indexing
maps and the body its region builder makes). The property test
interp/tests/linalg_props.rs runs both on random arguments: the named op's
maps and body, as mlir-interp builds them, must do what LLVM's generic form
does. The generic text comes from mlir-opt, never from mlir-interp.

Usage: tools/record_linalg_generic.py   (needs mlir-22-tools)
"""

import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPT = "/usr/lib/llvm-22/bin/mlir-opt"
OUT = os.path.join(ROOT, "fixtures", "linalg_generic")

# Named ops the parser builds by hand (not OpDSL), on tensors: the op text
# with %in0.. as inputs and %out as the output, and the argument types.
EXTRA = {
    "matmul": ("linalg.matmul", ["tensor<3x4xf32>", "tensor<4x2xf32>"], "tensor<3x2xf32>"),
    "matmul_i8_i32": ("linalg.matmul", ["tensor<3x4xi8>", "tensor<4x2xi8>"], "tensor<3x2xi32>"),
    "matmul_unsigned_cast": (
        "linalg.matmul {cast = #linalg.type_fn<cast_unsigned>}",
        ["tensor<2x3xi8>", "tensor<3x2xi8>"],
        "tensor<2x2xi32>",
    ),
    "matmul_transposed_a": (
        "linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>,"
        " affine_map<(m, n, k) -> (m, n)>]",
        ["tensor<4x3xf32>", "tensor<4x2xf32>"],
        "tensor<3x2xf32>",
    ),
    "batch_matmul": ("linalg.batch_matmul", ["tensor<2x3x4xf32>", "tensor<2x4x2xf32>"], "tensor<2x3x2xf32>"),
    "batch_matmul_f16_f32": (
        "linalg.batch_matmul",
        ["tensor<2x2x3xf16>", "tensor<2x3x2xf16>"],
        "tensor<2x2x2xf32>",
    ),
    "batch_reduce_matmul": (
        "linalg.batch_reduce_matmul",
        ["tensor<3x2x4xf32>", "tensor<3x4x2xf32>"],
        "tensor<2x2xf32>",
    ),
    "contract_matvec": (
        "linalg.contract indexing_maps = [affine_map<(i, k) -> (k, i)>, affine_map<(i, k) -> (k)>,"
        " affine_map<(i, k) -> (i)>]",
        ["tensor<4x3xf32>", "tensor<4xf32>"],
        "tensor<3xf32>",
    ),
    "elementwise_sub": ("linalg.elementwise kind=#linalg.elementwise_kind<sub>", ["tensor<2x3xi32>"] * 2, "tensor<2x3xi32>"),
    "elementwise_max_signed": (
        "linalg.elementwise kind=#linalg.elementwise_kind<max_signed>",
        ["tensor<2x3xf32>"] * 2,
        "tensor<2x3xf32>",
    ),
    "elementwise_exp": ("linalg.elementwise kind=#linalg.elementwise_kind<exp>", ["tensor<4xf32>"], "tensor<4xf32>"),
    "elementwise_select": (
        "linalg.elementwise kind=#linalg.elementwise_kind<select>",
        ["tensor<2x3xi1>", "tensor<2x3xf32>", "tensor<2x3xf32>"],
        "tensor<2x3xf32>",
    ),
    "elementwise_broadcast_mul": (
        "linalg.elementwise kind=#linalg.elementwise_kind<mul> indexing_maps = [affine_map<(i, j) -> (i, j)>,"
        " affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>]",
        ["tensor<2x3xf32>", "tensor<3xf32>"],
        "tensor<2x3xf32>",
    ),
}


def from_fixture(path):
    """(op text, input types, output type) of an OpDSL fixture's op line."""
    for line in open(path):
        m = re.match(r"\s*%r = (linalg\.\S+(?: \{[^}]*\})?) ins\([^:]*: ([^)]*)\) outs\(%out : (\S+)\)", line)
        if m:
            return m.group(1), m.group(2).split(", "), m.group(3)
    sys.exit(f"no op line in {path}")


def function(name, op, ins, out):
    params = ", ".join(f"%in{i}: {t}" for i, t in enumerate(ins)) + f", %out: {out}"
    names = ", ".join(f"%in{i}" for i in range(len(ins)))
    return (
        f"func.func @{name}({params}) -> {out} {{\n"
        f"  %r = {op} ins({names} : {', '.join(ins)}) outs(%out : {out}) -> {out}\n"
        f"  return %r : {out}\n}}\n"
    )


def record(name, op, ins, out):
    src = function("generic", op, ins, out)
    res = subprocess.run([OPT, "--linalg-generalize-named-ops", "-"], input=src, capture_output=True, text=True)
    if res.returncode != 0:
        sys.exit(f"mlir-opt rejected {name}:\n{res.stderr}")
    text = res.stdout.rstrip()
    if "linalg.generic" not in text:
        sys.exit(f"mlir-opt did not generalize {name}:\n{text}")
    assert text.endswith("}"), text
    body = text[:-1] + "".join("  " + l + "\n" for l in function("named", op, ins, out).splitlines()) + "}\n"
    header = (
        f"// ARGS: {' '.join(ins + [out])}\n"
        f"// {op.split()[0]} (@named) beside the linalg.generic form (@generic) that\n"
        "// LLVM 22's mlir-opt --linalg-generalize-named-ops makes of it; recorded by\n"
        "// tools/record_linalg_generic.py, checked by interp/tests/linalg_props.rs.\n"
    )
    with open(os.path.join(OUT, name + ".mlir"), "w") as f:
        f.write(header + body)


def main():
    os.makedirs(OUT, exist_ok=True)
    for path in sorted(glob.glob(os.path.join(ROOT, "fixtures/exec/linalg/opdsl/*.mlir"))):
        record(os.path.basename(path)[:-5], *from_fixture(path))
    for name, spec in EXTRA.items():
        record(name, *spec)


main()
