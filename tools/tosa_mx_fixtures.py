# tosa_mx_fixtures.py DIR: writes the block-scaled (MX) tosa fixtures
# DIR/block_scaled_{cast_from,cast_to,matmul}.mlir: deterministic inputs
# (every encoding of each value format, edge scales, blocks at each
# format's rounding limit). Their expected results come from the reference
# model: tools/record_tosa.sh DIR/block_scaled_*.mlir. Needs numpy and
# ml_dtypes (the tosa venv has both).
import random, struct, sys
import numpy as np, ml_dtypes
out = sys.argv[1]
R = random.Random(42)
FMT = {"f4E2M1FN": (4, ml_dtypes.float4_e2m1fn), "f6E2M3FN": (6, ml_dtypes.float6_e2m3fn),
       "f6E3M2FN": (6, ml_dtypes.float6_e3m2fn), "f8E4M3FN": (8, ml_dtypes.float8_e4m3fn),
       "f8E5M2": (8, ml_dtypes.float8_e5m2)}
def hexes(rows):
    return "[" + ", ".join("[" + ", ".join("0x%X" % v for v in r) + "]" for r in rows) + "]"
def f32lit(x):
    return "0x%08X" % struct.unpack("<I", struct.pack("<f", x))[0]
def lits(rows, lit):
    return "[" + ", ".join("[" + ", ".join(lit(v) for v in r) + "]" for r in rows) + "]"
def ty(shape, e): return "tensor<" + "x".join(map(str, shape)) + "x" + e + ">"
def const(name, shape, e, body):
    return f'  %{name} = "tosa.const"() <{{values = dense<{body}> : {ty(shape, e)}}}> : () -> {ty(shape, e)}\n'

# ---- cast_from_block_scaled: every encoding, with edge scales
SCALES = [0x7F, 0x00, 0xFE, 0xFF, 0x70, 0x85, 0x01, 0x80]
def cast_from():
    s = "// cast_from_block_scaled: every encoding of each value format, times scales\n"
    s += "// 1, 2^-127, 2^127, NaN, 2^-15, 2^6, 2^-126, 2^1 (fp8ue8m0), in fp32 then\n"
    s += "// rounded to f32 and bf16. Recorded from the reference model.\n"
    rets, types, body = [], [], ""
    for i, (name, (bits, _)) in enumerate(FMT.items()):
        n = 1 << bits
        codes = list(range(n)) * max(1, 256 // n)
        rows = [codes[r * 64:(r + 1) * 64] for r in range(4)]
        sc = [[SCALES[(2 * r + i) % 8], SCALES[(2 * r + 1 + i) % 8]] for r in range(4)]
        body += const(f"v{i}", [4, 64], name, hexes(rows)) + const(f"s{i}", [4, 2], "f8E8M0FNU", hexes(sc))
        for o in ["f32", "bf16"]:
            body += f"  %r{i}{o} = tosa.cast_from_block_scaled %v{i}, %s{i} {{block_size = BLOCK_SIZE_32}} : ({ty([4,64],name)}, {ty([4,2],'f8E8M0FNU')}) -> {ty([4,64],o)}\n"
            rets.append(f"%r{i}{o}"); types.append(ty([4, 64], o))
    return s + f"func.func @main() -> ({', '.join(types)}) {{\n" + body + f"  return {', '.join(rets)} : {', '.join(types)}\n}}\n"

# ---- cast_to_block_scaled: blocks of every kind of magnitude
OUTMAX = {"f4E2M1FN": 7.0, "f6E2M3FN": 7.75, "f6E3M2FN": 30.0, "f8E4M3FN": 464.0, "f8E5M2": 61440.0}
def blocks(with_nan):
    bl = []
    bl.append([R.gauss(0, 1) for _ in range(32)])                       # ordinary
    bl.append([R.gauss(0, 1) * 1e30 for _ in range(32)])                # large
    bl.append([R.gauss(0, 1) * 1e-39 for _ in range(32)])               # f32 subnormals: clipped scale
    bl.append([0.0] * 16 + [-0.0] * 16)                                 # zero block: scale 2^-127
    bl.append([R.choice([1, -1]) * R.uniform(0, 3.4e38) for _ in range(32)])  # near the top
    for m in OUTMAX.values():                                            # max_abs at each out_max and beside it
        for x in [m, np.nextafter(np.float32(m), np.float32(0)), np.nextafter(np.float32(m), np.float32(1e9)), m / 2, m * 4]:
            b = [R.uniform(-1, 1) * float(x) for _ in range(31)] + [float(x) * R.choice([1, -1])]
            R.shuffle(b); bl.append(b)
    bl.append([2.0 ** R.randint(-20, 20) * R.choice([1, -1, 1.5, -1.25, 1.75]) for _ in range(32)])  # exact binary values
    bl.append([R.gauss(0, 1) * 2.0 ** R.randint(-30, 0) for _ in range(32)])  # wide range: subnormals of the output
    if with_nan:
        b = [R.gauss(0, 1) for _ in range(32)]; b[5] = float("nan"); bl.append(b)
        b = [R.gauss(0, 1) for _ in range(32)]; b[9] = float("-inf"); bl.append(b)
    return bl
def cast_to():
    s = "// cast_to_block_scaled: fp32 and bf16 blocks of every kind of magnitude\n"
    s += "// (ordinary, large, subnormal, zero, near fp32's top, the largest magnitude\n"
    s += "// at, just under and just over each format's rounding limit, exact binary\n"
    s += "// values, ranges reaching the output's subnormals; NaN and -inf blocks for\n"
    s += "// the fp8 formats, which hold NaN) to each value format and fp8ue8m0\n"
    s += "// scales. Recorded from the reference model.\n"
    rets, types, body = [], [], ""
    for wn in [False, True]:
        bl = blocks(wn)
        rows = len(bl) // 2 * 2
        bl = bl[:rows]
        shape = [rows // 2, 64]
        data = [bl[2 * r] + bl[2 * r + 1] for r in range(rows // 2)]
        tag = "n" if wn else "f"
        body += const(f"x{tag}", shape, "f32", lits(data, f32lit))
        body += f"  %b{tag} = tosa.cast %x{tag} : ({ty(shape,'f32')}) -> {ty(shape,'bf16')}\n"
        for i, name in enumerate(FMT):
            if wn and name not in ("f8E4M3FN", "f8E5M2"):
                continue
            for src in ["x", "b"]:
                it = "f32" if src == "x" else "bf16"
                v = f"%t{tag}{i}{src}"
                body += f"  {v}:2 = tosa.cast_to_block_scaled %{src}{tag} {{block_size = BLOCK_SIZE_32}} : ({ty(shape,it)}) -> ({ty(shape,name)}, {ty([shape[0],2],'f8E8M0FNU')})\n"
                rets += [f"{v}#0", f"{v}#1"]; types += [ty(shape, name), ty([shape[0], 2], "f8E8M0FNU")]
    return s + f"func.func @main() -> ({', '.join(types)}) {{\n" + body + f"  return {', '.join(rets)} : {', '.join(types)}\n}}\n"

# ---- matmul_t_block_scaled
def matmul():
    s = "// matmul_t_block_scaled: [2,3,64] x [2,4,64] and a broadcast [1,4,64] B for\n"
    s += "// each value format, random encodings (no NaN), scales around 1 with some\n"
    s += "// of A's at 2^-127 and 2^81 (that overflow in neither order of the dot\n"
    s += "// product: the reference model scales\n"
    s += "// each element before it multiplies, the pseudocode each block's sum after;\n"
    s += "// the spec bounds the dot product's error instead of fixing its bits).\n"
    s += "// Recorded from the reference model.\n"
    rets, types, body = [], [], ""
    for i, (name, (bits, _)) in enumerate(FMT.items()):
        n = 1 << bits
        def codes(shape):
            good = [c for c in range(n) if not np.isnan(np.array([c], np.uint8).view(FMT[name][1])[0].astype(np.float32))] if bits == 8 else list(range(n))
            return [[[R.choice(good) for _ in range(shape[2])] for _ in range(shape[1])] for _ in range(shape[0])]
        # A's scales reach 2^-127 and 2^81, B's stay within 2^-3..2^4: no
        # scaled product or sum overflows fp32 in either order (where one
        # does, the reference model and the pseudocode differ).
        def scales(shape, wide):
            pick = lambda: R.choice([0x00, 0xD0, 0x7F, 0x83]) if wide and R.random() < 0.3 else R.choice([0x7C, 0x7D, 0x7F, 0x80, 0x83])
            return [[[pick() for _ in range(shape[2])] for _ in range(shape[1])] for _ in range(shape[0])]
        h3 = lambda m: "[" + ", ".join(hexes(x) for x in m) + "]"
        body += const(f"a{i}", [2, 3, 64], name, h3(codes([2, 3, 64]))) + const(f"as{i}", [2, 3, 2], "f8E8M0FNU", h3(scales([2, 3, 2], True)))
        for dd in [2, 1]:
            body += const(f"b{i}d{dd}", [dd, 4, 64], name, h3(codes([dd, 4, 64]))) + const(f"bs{i}d{dd}", [dd, 4, 2], "f8E8M0FNU", h3(scales([dd, 4, 2], False)))
            body += f"  %m{i}d{dd} = tosa.matmul_t_block_scaled %a{i}, %as{i}, %b{i}d{dd}, %bs{i}d{dd} {{block_size = BLOCK_SIZE_32}} : ({ty([2,3,64],name)}, {ty([2,3,2],'f8E8M0FNU')}, {ty([dd,4,64],name)}, {ty([dd,4,2],'f8E8M0FNU')}) -> {ty([2,3,4],'f32')}\n"
            rets.append(f"%m{i}d{dd}"); types.append(ty([2, 3, 4], "f32"))
    return s + f"func.func @main() -> ({', '.join(types)}) {{\n" + body + f"  return {', '.join(rets)} : {', '.join(types)}\n}}\n"

open(f"{out}/block_scaled_cast_from.mlir", "w").write(cast_from())
open(f"{out}/block_scaled_cast_to.mlir", "w").write(cast_to())
open(f"{out}/block_scaled_matmul.mlir", "w").write(matmul())
