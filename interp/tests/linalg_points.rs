//! linalg's fast point loop and its kernels (`dialects/linalg/points.rs`)
//! compute what the general point loop computes: random structured ops
//! (matmul, a convolution, a max pooling, elementwise binaries, a column
//! sum, a body no kernel covers, copy, transpose, fill) on random shapes, over tensors and over
//! memref views with non-contiguous, transposed-order, negative and zero strides,
//! filled with edge values (NaN payloads, ±0, ±inf, subnormals, the largest
//! finite values, integer extremes), run both ways: the same returned bits,
//! the same outcome (result or error) and the same number of executed ops.
//! An observer, even one that does nothing, sends every op through its
//! dialect's general loop.

#[path = "common/paths.rs"]
mod paths;
use paths::{run, F32};
use proptest::prelude::*;

/// The same for f64.
const F64: [u64; 14] = [
    0x7FF8_0000_0000_0000,
    0x7FF4_0000_0000_0001,
    0xFFF8_0000_0000_0123,
    0x8000_0000_0000_0000,
    0,
    0x7FF0_0000_0000_0000,
    0xFFF0_0000_0000_0000,
    1,
    0x7FEF_FFFF_FFFF_FFFF,
    0xFFEF_FFFF_FFFF_FFFF,
    0x3FF0_0000_0000_0000,
    0xC004_0000_0000_0000,
    0x3FD5_5555_5555_5555,
    0x4340_0000_0000_0001,
];
/// i32 values where wrap-around shows.
const I32: [u32; 8] = [0, 1, 0xFFFF_FFFF, 0x7FFF_FFFF, 0x8000_0000, 7, 0xFFFF_FFF9, 0x0001_0001];

/// An element type.
#[derive(Clone, Copy, Debug)]
enum Elem {
    F32,
    F64,
    I32,
}

impl Elem {
    fn name(self) -> &'static str {
        match self {
            Elem::F32 => "f32",
            Elem::F64 => "f64",
            Elem::I32 => "i32",
        }
    }

    /// `n` elements from `seed` as a hex dense literal (little-endian bytes).
    fn hex(self, n: usize, seed: &[u16]) -> String {
        let mut s = String::from("\"0x");
        for k in 0..n {
            let pick = seed[k % seed.len()] as usize + k;
            let bytes: Vec<u8> = match self {
                Elem::F32 => F32[pick % F32.len()].to_le_bytes().to_vec(),
                Elem::F64 => F64[pick % F64.len()].to_le_bytes().to_vec(),
                Elem::I32 => I32[pick % I32.len()].wrapping_add(k as u32).to_le_bytes().to_vec(),
            };
            for b in bytes {
                s.push_str(&format!("{b:02X}"));
            }
        }
        s.push('"');
        s
    }

    fn is_float(self) -> bool {
        !matches!(self, Elem::I32)
    }
}

/// How a memref operand views its buffer.
#[derive(Clone, Copy, Debug)]
enum Layout {
    /// The whole buffer, row-major.
    Plain,
    /// Every other element of a buffer twice as large in each dim, from
    /// offset 0 or 1 in each.
    Strided(bool),
    /// The last dim backwards (a negative stride).
    Reversed,
    /// The first dim at stride 0: every index of it is the same memory
    /// (a buffer of the other dims; a one-element one for rank 1).
    Zero,
}

/// An operand: its constant, its view as the op reads it, and for the
/// output the value the function returns.
struct Built {
    defs: String,
    name: String,
    ty: String,
    whole: (String, String),
}

/// Operand `id` of `shape`: a tensor, or a memref viewed through `layout`
/// (its whole buffer returned as a tensor).
fn operand(id: &str, shape: &[usize], el: Elem, seed: &[u16], memref: bool, layout: Layout) -> Built {
    let dims = |s: &[usize]| s.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("x");
    let e = el.name();
    let tensor = |s: &[usize]| if s.is_empty() { format!("tensor<{e}>") } else { format!("tensor<{}x{e}>", dims(s)) };
    let mref = |s: &[usize], lay: &str| {
        if s.is_empty() {
            format!("memref<{e}{lay}>")
        } else {
            format!("memref<{}x{e}{lay}>", dims(s))
        }
    };
    let layout = if shape.is_empty() || !memref { Layout::Plain } else { layout };
    let big: Vec<usize> = match layout {
        Layout::Strided(_) => shape.iter().map(|d| 2 * d).collect(),
        Layout::Zero if shape.len() == 1 => vec![1],
        Layout::Zero => shape[1..].to_vec(),
        _ => shape.to_vec(),
    };
    let n: usize = big.iter().product();
    let (ct, mut defs) = (tensor(&big), String::new());
    defs.push_str(&format!("  %{id}_c = arith.constant dense<{}> : {ct}\n", el.hex(n, seed)));
    if !memref {
        return Built { defs, name: format!("%{id}_c"), ty: ct.clone(), whole: (format!("%{id}_c"), ct) };
    }
    let bt = mref(&big, "");
    defs.push_str(&format!("  %{id}_b = bufferization.to_buffer %{id}_c : {ct} to {bt}\n"));
    let row_major: Vec<usize> = (0..big.len()).map(|d| big[d + 1..].iter().product()).collect();
    let (name, ty) = match layout {
        Layout::Plain => (format!("%{id}_b"), bt.clone()),
        Layout::Strided(shift) => {
            let off: Vec<usize> = shape.iter().map(|_| usize::from(shift)).collect();
            let offset: usize = off.iter().zip(&row_major).map(|(o, s)| o * s).sum();
            let strides: Vec<String> = row_major.iter().map(|s| (2 * s).to_string()).collect();
            let ty = mref(shape, &format!(", strided<[{}], offset: {offset}>", strides.join(", ")));
            let list = |v: &[usize]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ");
            defs.push_str(&format!(
                "  %{id}_v = memref.subview %{id}_b[{}] [{}] [{}] : {bt} to {ty}\n",
                list(&off),
                list(shape),
                list(&vec![2; shape.len()])
            ));
            (format!("%{id}_v"), ty)
        }
        Layout::Zero => {
            let inner = if shape.len() == 1 { &[][..] } else { &row_major[..] };
            let strides: Vec<String> = std::iter::once(0).chain(inner.iter().copied()).map(|s| s.to_string()).collect();
            let ty = mref(shape, &format!(", strided<[{}]>", strides.join(", ")));
            defs.push_str(&format!(
                "  %{id}_v = memref.reinterpret_cast %{id}_b to offset: [0], sizes: [{}], strides: [{}] : {bt} to {ty}\n",
                shape.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", "),
                strides.join(", ")
            ));
            (format!("%{id}_v"), ty)
        }
        Layout::Reversed => {
            let last = shape.len() - 1;
            let offset = shape[last] - 1;
            let strides: Vec<String> = row_major
                .iter()
                .enumerate()
                .map(|(d, s)| if d == last { "-1".into() } else { s.to_string() })
                .collect();
            let ty = mref(shape, &format!(", strided<[{}], offset: {offset}>", strides.join(", ")));
            let list = |v: &[String]| v.join(", ");
            defs.push_str(&format!(
                "  %{id}_v = memref.reinterpret_cast %{id}_b to offset: [{offset}], sizes: [{}], strides: [{}] : {bt} to {ty}\n",
                list(&shape.iter().map(|d| d.to_string()).collect::<Vec<_>>()),
                list(&strides)
            ));
            (format!("%{id}_v"), ty)
        }
    };
    defs.push_str(&format!("  %{id}_t = bufferization.to_tensor %{id}_b restrict : {bt} to {ct}\n"));
    Built { defs, name, ty, whole: (format!("%{id}_t"), ct) }
}

/// The structured op under test.
#[derive(Clone, Copy, Debug)]
enum Case {
    /// `linalg.matmul` (mul-add kernel; a loop body on integers).
    Matmul,
    /// `linalg.conv_1d` (mul-add over a sliding window).
    Conv,
    /// Max pooling as a generic: `out = maximumf(out, in)` or swapped.
    Pool(bool),
    /// An elementwise binary generic: `out = f(a, b)`.
    Binary(u8),
    /// `out[j] += in[i, j]`: a reduction over the outer loop.
    ColumnSum,
    /// A body no kernel covers (index, compare, select).
    Mixed,
    /// `linalg.copy` (the bytes move).
    Copy,
    /// `linalg.transpose`.
    Transpose,
    /// `linalg.fill` with one of the edge values.
    Fill(u16),
}

/// The program: the op on fresh operands, returning the output (all of
/// its buffer, for a memref).
fn program(case: Case, el: Elem, sizes: [usize; 3], seed: &[u16], memref: bool, lays: [Layout; 3]) -> String {
    let [m, n, k] = sizes;
    let e = el.name();
    let (ins, out_shape, head): (Vec<Vec<usize>>, Vec<usize>, String) = match case {
        Case::Matmul => (vec![vec![m, k], vec![k, n]], vec![m, n], "linalg.matmul".into()),
        Case::Copy => (vec![vec![m, n]], vec![m, n], "linalg.copy".into()),
        Case::Transpose => (vec![vec![n, m]], vec![m, n], "linalg.transpose".into()),
        Case::Fill(_) => (vec![], vec![m, n], "linalg.fill".into()),
        Case::Conv => (vec![vec![m + k - 1], vec![k]], vec![m], "linalg.conv_1d".into()),
        Case::Pool(_) | Case::Binary(_) | Case::ColumnSum | Case::Mixed => {
            let (maps, iters, ins, out) = match case {
                Case::Pool(_) => (
                    "affine_map<(d0, d1) -> (d0 + d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>",
                    "\"parallel\", \"reduction\"",
                    vec![vec![m + k - 1], vec![k]],
                    vec![m],
                ),
                Case::ColumnSum => (
                    "affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>",
                    "\"reduction\", \"parallel\"",
                    vec![vec![m, n]],
                    vec![n],
                ),
                _ => (
                    "affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>",
                    "\"parallel\", \"parallel\"",
                    vec![vec![m, n], vec![n, m]],
                    vec![m, n],
                ),
            };
            (ins, out, format!("linalg.generic {{indexing_maps = [{maps}], iterator_types = [{iters}]}}"))
        }
    };
    let body = match case {
        Case::Pool(swap) => {
            let (x, y) = if swap { ("%x", "%o") } else { ("%o", "%x") };
            format!("^bb0(%x: {e}, %w: {e}, %o: {e}):\n    %r = arith.maximumf {x}, {y} : {e}\n    linalg.yield %r : {e}\n")
        }
        Case::ColumnSum => format!("^bb0(%x: {e}, %o: {e}):\n    %r = arith.addf %x, %o : {e}\n    linalg.yield %r : {e}\n"),
        Case::Binary(f) => {
            let f = ["addf", "subf", "mulf", "divf", "maximumf", "minnumf"][f as usize % 6];
            format!("^bb0(%a: {e}, %b: {e}, %o: {e}):\n    %r = arith.{f} %a, %b : {e}\n    linalg.yield %r : {e}\n")
        }
        Case::Mixed => format!(
            "^bb0(%a: {e}, %b: {e}, %o: {e}):\n    %i = linalg.index 1 : index\n    %ii = arith.index_cast %i : index to i32\n    \
             %f = arith.sitofp %ii : i32 to {e}\n    %p = arith.mulf %a, %f : {e}\n    %s = arith.subf %p, %b : {e}\n    \
             %c = arith.cmpf olt, %s, %o : {e}\n    %r = arith.select %c, %s, %o : {e}\n    linalg.yield %r : {e}\n"
        ),
        Case::Matmul | Case::Conv | Case::Copy | Case::Transpose | Case::Fill(_) => String::new(),
    };
    let names = ["a", "b"];
    let built: Vec<Built> =
        ins.iter().enumerate().map(|(i, s)| operand(names[i], s, el, &seed[i..], memref, lays[i])).collect();
    let out = operand("o", &out_shape, el, &seed[2..], memref, lays[2]);
    let mut text = String::from("func.func @main() -> (");
    text.push_str(&out.whole.1);
    text.push_str(") {\n");
    for b in built.iter().chain([&out]) {
        text.push_str(&b.defs);
    }
    let mut in_names: Vec<&str> = built.iter().map(|b| b.name.as_str()).collect();
    let mut in_tys: Vec<&str> = built.iter().map(|b| b.ty.as_str()).collect();
    if let Case::Fill(pick) = case {
        let p = pick as usize;
        let value = match el {
            Elem::F32 => format!("0x{:08X}", F32[p % F32.len()]),
            Elem::F64 => format!("0x{:016X}", F64[p % F64.len()]),
            Elem::I32 => format!("{}", I32[p % I32.len()] as i32),
        };
        text.push_str(&format!("  %fill = arith.constant {value} : {e}\n"));
        in_names.push("%fill");
        in_tys.push(e);
    }
    let result = if memref || matches!(case, Case::Transpose) { String::new() } else { format!(" -> {}", out.ty) };
    let result = if matches!(case, Case::Transpose) { format!(" permutation = [1, 0]{result}") } else { result };
    let def = if memref { "  ".to_string() } else { "  %r = ".to_string() };
    text.push_str(&format!(
        "{def}{head} ins({} : {}) outs({} : {}){}",
        in_names.join(", "),
        in_tys.join(", "),
        out.name,
        out.ty,
        if body.is_empty() { result.clone() } else { String::new() }
    ));
    if !body.is_empty() {
        text.push_str(&format!(" {{\n  {body}  }}{result}"));
    }
    text.push('\n');
    let ret = if memref { out.whole.0 } else { "%r".into() };
    text.push_str(&format!("  return {ret} : {}\n}}\n", out.whole.1));
    text
}

fn case() -> impl Strategy<Value = Case> {
    prop_oneof![
        Just(Case::Matmul),
        Just(Case::Conv),
        any::<bool>().prop_map(Case::Pool),
        (0u8..6).prop_map(Case::Binary),
        Just(Case::ColumnSum),
        Just(Case::Mixed),
        Just(Case::Copy),
        Just(Case::Transpose),
        any::<u16>().prop_map(Case::Fill),
    ]
}

fn layout() -> impl Strategy<Value = Layout> {
    prop_oneof![
        Just(Layout::Plain),
        any::<bool>().prop_map(Layout::Strided),
        Just(Layout::Reversed),
        Just(Layout::Zero)
    ]
}

fn elem() -> impl Strategy<Value = Elem> {
    prop_oneof![Just(Elem::F32), Just(Elem::F64), Just(Elem::I32)]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// Both loops agree on bits, outcome and op count.
    #[test]
    fn fast_loop_and_kernels_equal_the_general_loop(
        case in case(),
        el in elem(),
        sizes in [1usize..6, 1usize..6, 1usize..5],
        seed in prop::collection::vec(0u16..64, 3..9),
        memref in any::<bool>(),
        lays in [layout(), layout(), layout()],
    ) {
        // Integer bodies exist for matmul and convolution only (named ops
        // pick arith's integer ops); the generics here are float bodies.
        let int_ok = matches!(case, Case::Matmul | Case::Conv | Case::Copy | Case::Transpose | Case::Fill(_));
        let el = if el.is_float() || int_ok { el } else { Elem::F32 };
        let text = program(case, el, sizes, &seed, memref, lays);
        let fast = run(&text, false);
        let general = run(&text, true);
        prop_assert_eq!(&fast, &general, "{}", text);
    }
}

/// An output that was never written, read by a reduction body: both loops
/// report the same undefined behaviour at the same op; and a written-only
/// output of fresh memory is defined everywhere the loops write.
#[test]
fn unwritten_outputs_fail_alike() {
    let read = r#"
func.func @main() -> f32 {
  %a = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %m = bufferization.to_buffer %a : tensor<3xf32> to memref<3xf32>
  %o = memref.alloc() : memref<f32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%m : memref<3xf32>) outs(%o : memref<f32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  }
  %r = memref.load %o[] : memref<f32>
  return %r : f32
}
"#;
    let (fast, general) = (run(read, false), run(read, true));
    assert!(fast.0.contains("never written"), "{}", fast.0);
    assert_eq!(fast, general);
    let written = read.replace("%s = arith.addf %x, %acc : f32", "%s = arith.addf %x, %x : f32");
    let (fast, general) = (run(&written, false), run(&written, true));
    // 3 + 3 = 6, the last point's value: 0x40C00000.
    assert!(fast.0.contains("lo: 1086324736"), "{}", fast.0);
    assert_eq!(fast, general);
}

/// A tensor output from `tensor.empty` that every point writes comes out
/// without poison; one the loops write only in part keeps it elsewhere.
#[test]
fn empty_outputs_lose_their_poison_where_written() {
    let text = r#"
func.func @main() -> tensor<2x3xf32> {
  %a = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %e = tensor.empty() : tensor<2x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %x : f32
    linalg.yield %s : f32
  } -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
"#;
    let (fast, general) = (run(text, false), run(text, true));
    assert!(fast.0.contains("PoisonRuns({})"), "{}", fast.0);
    assert_eq!(fast, general);
    let part = text.replace(
        "affine_map<(d0, d1) -> (d0, d1)>], iterator_types",
        "affine_map<(d0, d1) -> (d0, d1 + 1)>], iterator_types",
    );
    let part = part.replace("ins(%a : tensor<2x3xf32>)", "ins(%s2 : tensor<2x2xf32>)").replace(
        "  %e = tensor.empty()",
        "  %s2 = tensor.extract_slice %a[0, 0] [2, 2] [1, 1] : tensor<2x3xf32> to tensor<2x2xf32>\n  %e = tensor.empty()",
    );
    let (fast, general) = (run(&part, false), run(&part, true));
    assert!(!fast.0.contains("PoisonRuns({})"), "{}", fast.0);
    assert_eq!(fast, general);
}
