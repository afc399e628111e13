#!/usr/bin/env python3
"""Generate src/linalg/opdsl.rs: linalg's OpDSL named ops as data.

LLVM 22 defines about eighty linalg named ops (convolutions, pooling,
matvec, dot, the elementwise unary/binary ops, ...) in OpDSL; mlir-tblgen
turns each into C++ (`LinalgNamedStructuredOps.yamlgen.cpp.inc`, installed
by the `libmlir-22-dev` package). This script reads that file and writes
one table row per op: its iterator types, indexing maps (with the symbols
bound to `strides`/`dilations` entries), the attributes the op checks, and
its region builder as a list of steps. The parser builds each op's body
from these steps, the verifier checks by them and the engine runs by them,
so the definitions are LLVM's own rather than transcribed by hand.

Usage: tools/gen_linalg_opdsl.py > src/linalg/opdsl.rs
       tools/gen_linalg_opdsl.py --ops-rows   (the ops! rows for src/ops.rs)
"""

import re
import sys

INC = "/usr/lib/llvm-22/include/mlir/Dialect/Linalg/IR/LinalgNamedStructuredOps.yamlgen.cpp.inc"
TD = INC.replace(".cpp.inc", ".td")

# Written by hand in the parser: fill (its value is a plain operand) and
# copy (its cast is an attribute).
SKIP = {"fill", "copy"}


def class_names(td):
    """C++ class name -> op name (`Conv2DNhwcHwcfOp` -> `conv_2d_nhwc_hwcf`)."""
    return dict(re.findall(r'^def (\w+) : LinalgStructuredBase_Op<"(\w+)"', td, re.M))


def ref(text, values):
    """`block.getArgument(2)` or `value7` as a Rust `Ref`."""
    m = re.fullmatch(r"block\.getArgument\((\d+)\)", text)
    if m:
        return f"Ref::Arg({m.group(1)})"
    m = re.fullmatch(r"value(\d+)", text)
    if m and m.group(1) in values:
        return f"Ref::Val({values[m.group(1)]})"
    sys.exit(f"unknown operand {text!r}")


def ty(text):
    m = re.fullmatch(r"block\.getArgument\((\d+)\)\.getType\(\)", text)
    if m:
        return f"To::ArgType({m.group(1)})"
    m = re.fullmatch(r"helper\.getIntegerType\((\d+)\)", text)
    if m:
        return f"To::Int({m.group(1)})"
    if text == "helper.getFloat64Type()":
        return "To::F64"
    if text == "helper.getFloat32Type()":
        return "To::F32"
    sys.exit(f"unknown type {text!r}")


def camel(s):
    return "".join(p[:1].upper() + p[1:] for p in s.split("_"))


def body(section):
    """The region builder's statements as `Step`s and the yielded refs."""
    values, steps = {}, []
    for name, rhs in re.findall(r"Value value(\d+) = (helper\.[^;]*);", section):
        if m := re.fullmatch(r"helper\.buildTypeFn\(TypeFn::(\w+), (.*), (\S+), emitError\)", rhs):
            unsigned = {"cast_signed": "false", "cast_unsigned": "true"}[m.group(1)]
            steps.append(f"Step::Cast {{ unsigned: {unsigned}, to: {ty(m.group(2))}, x: {ref(m.group(3), values)} }}")
        elif m := re.fullmatch(r"helper\.buildUnaryFn\(UnaryFn::(\w+), (\S+), emitError\)", rhs):
            steps.append(f"Step::Unary(Unary::{camel(m.group(1))}, {ref(m.group(2), values)})")
        elif m := re.fullmatch(r"helper\.buildBinaryFn\(BinaryFn::(\w+), (\S+), (\S+), emitError\)", rhs):
            steps.append(
                f"Step::Binary(Binary::{camel(m.group(1))}, {ref(m.group(2), values)}, {ref(m.group(3), values)})"
            )
        elif m := re.fullmatch(r"helper\.buildTernaryFn\(TernaryFn::select, (\S+), (\S+), (\S+), emitError\)", rhs):
            a, b, c = (ref(m.group(i), values) for i in (1, 2, 3))
            steps.append(f"Step::Select({a}, {b}, {c})")
        elif m := re.fullmatch(r'helper\.constant\("(-?\d+) : i64"\)', rhs):
            steps.append(f"Step::ConstI64({m.group(1)})")
        elif m := re.fullmatch(r'helper\.constant\("([-+0-9.E]+) : f64"\)', rhs):
            steps.append(f"Step::ConstF64({float(m.group(1))!r})")
        elif m := re.fullmatch(r"helper\.index\((\d+)\)", rhs):
            steps.append(f"Step::Index({m.group(1)})")
        else:
            sys.exit(f"unknown region builder statement {rhs!r}")
        values[name] = len(steps) - 1
    yields = [ref(v, values) for v in re.findall(r"yields\.push_back\((\S+)\);", section)]
    return steps, yields


def term(t, syms):
    """`d1 * s2` or `d4` as `(dim, scale)`, scale `One`, `Stride(i)` or `Dilation(i)`."""
    m = re.fullmatch(r"d(\d+)(?: \* s(\d+))?", t.strip())
    if not m:
        sys.exit(f"unknown map term {t!r}")
    if m.group(2) is None:
        return (int(m.group(1)), "One")
    s = syms[int(m.group(2))]
    if s is None:
        sys.exit(f"symbol s{m.group(2)} is not bound to an attribute")
    return (int(m.group(1)), s)


def maps(section, syms):
    """Per operand, per result, the list of terms."""
    out = []
    for text in re.findall(r'parseAttribute\("affine_map<\([^)]*\)(?:\[[^\]]*\])? -> \((.*?)\)>"', section):
        results = [r for r in text.split(", ") if r] if text else []
        out.append([[term(t, syms) for t in r.split(" + ")] for r in results])
    return out


def rust_maps(ms):
    term = lambda t: f"({t[0]}, Scale::{t[1]})"
    return "&[" + ", ".join("&[" + ", ".join("&[" + ", ".join(map(term, r)) + "]" for r in m) + "]" for m in ms) + "]"


def symbols(section):
    """Symbol position -> `Scale::Stride(i)` etc., or None for a free one."""
    m = re.search(r"getSymbolBindings\(\w+ self\) \{(.*?)return exprs;", section, re.S)
    if not m:
        return []
    syms = []
    for line in m.group(1).splitlines():
        if "getAffineSymbolExpr" in line:
            syms.append(None)
        elif g := re.search(r"self\.get(Strides|Dilations)\(\)\.getValues<int64_t>\(\)\[(\d+)\]", line):
            syms.append(f"{g.group(1)[:-1]}({g.group(2)})")
    return syms


def parse():
    """One record per OpDSL op (fill and copy excepted)."""
    inc, names = open(INC).read(), class_names(open(TD).read())
    sections = re.split(r"// Implementation of (\w+)\n", inc)[1:]
    ops = []
    for cls, section in zip(sections[::2], sections[1::2]):
        name = names[cls]
        if name in SKIP:
            continue
        op = {"name": name, "cls": cls}
        op["args"] = int(re.search(rf"{cls}::getNumRegionArgs\(\) {{ return (\d+); }}", section).group(1))
        op["poly"] = "getMultiDimIdentityMap(\n    getNumParallelLoops()" in section
        op["iters"], op["maps"] = "", []
        if not op["poly"]:
            its = re.search(r"getIteratorTypesArray\(\) \{\s*return SmallVector<utils::IteratorType>\{(.*?)\};", section, re.S)
            op["iters"] = "".join("r" if "reduction" in i else "p" for i in its.group(1).split(","))
            op["maps"] = maps(section, symbols(section))
        op["attrs"] = [(a, int(n)) for a, n in re.findall(
            r'getAttrOfType<DenseElementsAttr>\("(\w+)"\).*?getShape\(\) != ArrayRef<int64_t>\{ (\d+) \}', section, re.S)]
        op["steps"], op["yields"] = body(section)
        op["section"] = section
        ops.append(op)
    return ops


def rust_table(ops):
    rows = []
    for op in ops:
        attr_rows = "&[" + ", ".join(f'("{a}", {n})' for a, n in op["attrs"]) + "]"
        rows.append(
            f"    OpDsl {{\n        name: \"linalg.{op['name']}\",\n        args: {op['args']},\n        iters: \"{op['iters']}\",\n"
            f"        maps: {rust_maps(op['maps'])},\n        attrs: {attr_rows},\n"
            f"        body: &[{', '.join(op['steps'])}],\n        yields: &[{', '.join(op['yields'])}],\n    }},"
        )
    print("//! linalg's OpDSL named ops (LLVM 22), one row each. Generated by")
    print("//! `tools/gen_linalg_opdsl.py` from LLVM 22's")
    print("//! `LinalgNamedStructuredOps.yamlgen.cpp.inc`; regenerate, do not edit.")
    print()
    print("use super::{Binary, OpDsl, Ref, Scale, Step, To, Unary};")
    print()
    print("/// Every OpDSL op but `fill` and `copy` (which the parser builds by hand).")
    print("#[rustfmt::skip]")
    print("pub static OPS: &[OpDsl] = &[")
    print("\n".join(rows))
    print("];")


def main():
    ops = parse()
    if "--ops-rows" in sys.argv:
        for op in ops:
            n = op["name"]
            print(f'        Linalg{camel(n)} / {camel(n)} = "linalg.{n}", 0, LinalgOpDsl;')
    elif "--fixtures" in sys.argv:
        import linalg_fixtures

        linalg_fixtures.write_all(ops, sys.argv[sys.argv.index("--fixtures") + 1])
    else:
        rust_table(ops)


main()
