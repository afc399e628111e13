//! Each named linalg op equals its `linalg.generic` form, run on the same
//! random tensors: for the structural ops, the maps and body written out
//! by hand (from the op definitions of LLVM 22); for the rest, the generic
//! form LLVM 22's `mlir-opt` writes, recorded in `fixtures/linalg_generic/`. Matmul runs on f32 too, where equal
//! results also mean the same accumulation order.

use mlir_interp::{Data, ErrorClass, Interpreter, Program, Tensor};
use ndarray::{ArrayD, IxDyn};
use proptest::prelude::*;
use proptest::test_runner::{RngAlgorithm, TestRng, TestRunner};

/// Runs `@named` and `@generic` of `text` on `args`; both return one tensor.
fn both(text: &str, args: &[ArrayD<i32>]) -> (ArrayD<i32>, ArrayD<i32>) {
    let p = Program::parse("t.mlir", text).unwrap_or_else(|e| panic!("{}\n{text}", e.diagnostic));
    let mut i = Interpreter::new(&p).unwrap();
    let mut run = |f: &str| {
        let a = args.iter().map(|a| Data::Array(Tensor::from_array(a)).into()).collect();
        match &i.call(f, a).unwrap_or_else(|e| panic!("{}", e.diagnostic))[0] {
            Data::Array(t) => t.to_array::<i32>().unwrap(),
            d => panic!("not a tensor: {d:?}"),
        }
    };
    (run("named"), run("generic"))
}

fn tensor(shape: &[usize], seed: &[i32]) -> ArrayD<i32> {
    let n: usize = shape.iter().product();
    ArrayD::from_shape_vec(IxDyn(shape), (0..n).map(|k| seed[k % seed.len()].wrapping_mul(k as i32 + 1)).collect())
        .unwrap()
}

fn ty(shape: &[usize], elem: &str) -> String {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    format!("tensor<{}x{elem}>", dims.join("x"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// `C += A * B` over `(d0, d2) x (d2, d1) -> (d0, d1)`.
    #[test]
    fn matmul_is_its_generic(m in 1usize..5, n in 1usize..5, k in 1usize..5, seed in prop::collection::vec(-9i32..9, 1..7)) {
        let (ta, tb, tc) = (ty(&[m, k], "i32"), ty(&[k, n], "i32"), ty(&[m, n], "i32"));
        let text = format!(r#"
func.func @named(%a: {ta}, %b: {tb}, %c: {tc}) -> {tc} {{
  %r = linalg.matmul ins(%a, %b : {ta}, {tb}) outs(%c : {tc}) -> {tc}
  return %r : {tc}
}}
func.func @generic(%a: {ta}, %b: {tb}, %c: {tc}) -> {tc} {{
  %r = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}} ins(%a, %b : {ta}, {tb}) outs(%c : {tc}) {{
  ^bb0(%x: i32, %y: i32, %acc: i32):
    %p = arith.muli %x, %y : i32
    %s = arith.addi %acc, %p : i32
    linalg.yield %s : i32
  }} -> {tc}
  return %r : {tc}
}}"#);
        let (x, y) = both(&text, &[tensor(&[m, k], &seed), tensor(&[k, n], &[3, -2, 5]), tensor(&[m, n], &[1])]);
        prop_assert_eq!(x, y);
    }

    /// `out[i, j] = in[perm^-1 ...]`: for `permutation = [1, 2, 0]`,
    /// out[i, j, l] = in[l, i, j], i.e. the input is read at `(d2, d0, d1)`.
    #[test]
    fn transpose_is_its_generic(a in 1usize..4, b in 1usize..4, c in 1usize..4, seed in prop::collection::vec(-50i32..50, 1..5)) {
        let (ti, to) = (ty(&[a, b, c], "i32"), ty(&[b, c, a], "i32"));
        let text = format!(r#"
func.func @named(%i: {ti}, %o: {to}) -> {to} {{
  %r = linalg.transpose ins(%i : {ti}) outs(%o : {to}) permutation = [1, 2, 0]
  return %r : {to}
}}
func.func @generic(%i: {ti}, %o: {to}) -> {to} {{
  %r = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}} ins(%i : {ti}) outs(%o : {to}) {{
  ^bb0(%x: i32, %y: i32):
    linalg.yield %x : i32
  }} -> {to}
  return %r : {to}
}}"#);
        let (x, y) = both(&text, &[tensor(&[a, b, c], &seed), tensor(&[b, c, a], &[0])]);
        prop_assert_eq!(x, y);
    }

    /// `dimensions = [1]` adds output dim 1: the input is read at `(d0, d2)`.
    #[test]
    fn broadcast_is_its_generic(a in 1usize..4, b in 1usize..4, c in 1usize..4, seed in prop::collection::vec(-50i32..50, 1..5)) {
        let (ti, to) = (ty(&[a, c], "i32"), ty(&[a, b, c], "i32"));
        let text = format!(r#"
func.func @named(%i: {ti}, %o: {to}) -> {to} {{
  %r = linalg.broadcast ins(%i : {ti}) outs(%o : {to}) dimensions = [1]
  return %r : {to}
}}
func.func @generic(%i: {ti}, %o: {to}) -> {to} {{
  %r = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}} ins(%i : {ti}) outs(%o : {to}) {{
  ^bb0(%x: i32, %y: i32):
    linalg.yield %x : i32
  }} -> {to}
  return %r : {to}
}}"#);
        let (x, y) = both(&text, &[tensor(&[a, c], &seed), tensor(&[a, b, c], &[0])]);
        prop_assert_eq!(x, y);
    }

    /// Reducing dim 0 of a 3-d tensor with `maxsi`: the init is read and
    /// written at `(d1, d2)`.
    #[test]
    fn reduce_is_its_generic(a in 1usize..4, b in 1usize..4, c in 1usize..4, seed in prop::collection::vec(-50i32..50, 1..5)) {
        let (ti, to) = (ty(&[a, b, c], "i32"), ty(&[b, c], "i32"));
        let text = format!(r#"
func.func @named(%i: {ti}, %o: {to}) -> {to} {{
  %r = linalg.reduce ins(%i : {ti}) outs(%o : {to}) dimensions = [0]
    (%x: i32, %acc: i32) {{
      %m = arith.maxsi %x, %acc : i32
      linalg.yield %m : i32
    }}
  return %r : {to}
}}
func.func @generic(%i: {ti}, %o: {to}) -> {to} {{
  %r = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>], iterator_types = ["reduction", "parallel", "parallel"]}} ins(%i : {ti}) outs(%o : {to}) {{
  ^bb0(%x: i32, %acc: i32):
    %m = arith.maxsi %x, %acc : i32
    linalg.yield %m : i32
  }} -> {to}
  return %r : {to}
}}"#);
        let (x, y) = both(&text, &[tensor(&[a, b, c], &seed), tensor(&[b, c], &[-100])]);
        prop_assert_eq!(x, y);
    }

    /// `linalg.map { arith.subi }` is the elementwise generic over identity
    /// maps; `linalg.copy` and `linalg.fill` likewise.
    #[test]
    fn map_copy_fill_are_their_generics(a in 1usize..5, b in 1usize..5, seed in prop::collection::vec(-50i32..50, 1..5)) {
        let t = ty(&[a, b], "i32");
        let id = "affine_map<(d0, d1) -> (d0, d1)>";
        let text = format!(r#"
func.func @named(%x: {t}, %y: {t}, %o: {t}) -> {t} {{
  %m = linalg.map {{ arith.subi }} ins(%x, %y : {t}, {t}) outs(%o : {t})
  %c = linalg.copy ins(%m : {t}) outs(%o : {t}) -> {t}
  %seven = arith.constant 7 : i32
  %f = linalg.fill ins(%seven : i32) outs(%o : {t}) -> {t}
  %r = arith.addi %c, %f : {t}
  return %r : {t}
}}
func.func @generic(%x: {t}, %y: {t}, %o: {t}) -> {t} {{
  %m = linalg.generic {{indexing_maps = [{id}, {id}, {id}], iterator_types = ["parallel", "parallel"]}} ins(%x, %y : {t}, {t}) outs(%o : {t}) {{
  ^bb0(%p: i32, %q: i32, %z: i32):
    %d = arith.subi %p, %q : i32
    linalg.yield %d : i32
  }} -> {t}
  %seven = arith.constant 7 : i32
  %f = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> ()>, {id}], iterator_types = ["parallel", "parallel"]}} ins(%seven : i32) outs(%o : {t}) {{
  ^bb0(%s: i32, %z: i32):
    linalg.yield %s : i32
  }} -> {t}
  %r = arith.addi %m, %f : {t}
  return %r : {t}
}}"#);
        let (x, y) = both(&text, &[tensor(&[a, b], &seed), tensor(&[a, b], &[5, -3]), tensor(&[a, b], &[0])]);
        prop_assert_eq!(x, y);
    }

    /// `conv_1d_nwc_wcf` with any strides and dilations: the input is read
    /// at `(n, w * stride + kw * dilation, c)` (LLVM 22's OpDSL definition).
    #[test]
    fn conv_1d_nwc_wcf_is_its_generic(n in 1usize..3, w in 1usize..4, f in 1usize..3, kw in 1usize..4, c in 1usize..3,
                                      stride in 1usize..4, dilation in 1usize..4, seed in prop::collection::vec(-9i32..9, 1..6)) {
        let iw = (w - 1) * stride + (kw - 1) * dilation + 1;
        let (ti, tf, to) = (ty(&[n, iw, c], "i32"), ty(&[kw, c, f], "i32"), ty(&[n, w, f], "i32"));
        let text = format!(r#"
func.func @named(%i: {ti}, %k: {tf}, %o: {to}) -> {to} {{
  %r = linalg.conv_1d_nwc_wcf {{dilations = dense<{dilation}> : tensor<1xi64>, strides = dense<{stride}> : tensor<1xi64>}} ins(%i, %k : {ti}, {tf}) outs(%o : {to}) -> {to}
  return %r : {to}
}}
func.func @generic(%i: {ti}, %k: {tf}, %o: {to}) -> {to} {{
  %r = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 * {stride} + d3 * {dilation}, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}} ins(%i, %k : {ti}, {tf}) outs(%o : {to}) {{
  ^bb0(%x: i32, %y: i32, %acc: i32):
    %p = arith.muli %x, %y : i32
    %s = arith.addi %acc, %p : i32
    linalg.yield %s : i32
  }} -> {to}
  return %r : {to}
}}"#);
        let (x, y) = both(&text, &[tensor(&[n, iw, c], &seed), tensor(&[kw, c, f], &[2, -1, 3]), tensor(&[n, w, f], &[1])]);
        prop_assert_eq!(x, y);
    }

    /// `batch_matmul` is a matmul per batch: `(b, m, k) x (b, k, n)`.
    #[test]
    fn batch_matmul_is_its_generic(b in 1usize..3, m in 1usize..4, n in 1usize..4, k in 1usize..4, seed in prop::collection::vec(-9i32..9, 1..7)) {
        let (ta, tb, tc) = (ty(&[b, m, k], "i32"), ty(&[b, k, n], "i32"), ty(&[b, m, n], "i32"));
        let text = format!(r#"
func.func @named(%a: {ta}, %b: {tb}, %c: {tc}) -> {tc} {{
  %r = linalg.batch_matmul ins(%a, %b : {ta}, {tb}) outs(%c : {tc}) -> {tc}
  return %r : {tc}
}}
func.func @generic(%a: {ta}, %b: {tb}, %c: {tc}) -> {tc} {{
  %r = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}} ins(%a, %b : {ta}, {tb}) outs(%c : {tc}) {{
  ^bb0(%x: i32, %y: i32, %acc: i32):
    %p = arith.muli %x, %y : i32
    %s = arith.addi %acc, %p : i32
    linalg.yield %s : i32
  }} -> {tc}
  return %r : {tc}
}}"#);
        let (x, y) = both(&text, &[tensor(&[b, m, k], &seed), tensor(&[b, k, n], &[3, -2, 5]), tensor(&[b, m, n], &[1])]);
        prop_assert_eq!(x, y);
    }
}

/// An argument type of an `// ARGS:` line: `tensor<2x3xf32>`, `tensor<f32>`
/// or a scalar `i32`, as (shape, element type, is a tensor).
fn arg_type(t: &str) -> (Vec<usize>, &str, bool) {
    let Some(inner) = t.strip_prefix("tensor<").and_then(|s| s.strip_suffix('>')) else {
        return (Vec::new(), t, false);
    };
    let mut parts: Vec<&str> = inner.split('x').collect();
    let elem = parts.pop().unwrap();
    (parts.iter().map(|d| d.parse().unwrap()).collect(), elem, true)
}

/// A random element: mostly small values, sometimes the extremes of the
/// type (wrapping integers, signed zeros, infinities, NaN).
fn element(elem: &str, r: &mut TestRng) -> Data {
    let pick = r.random_range(0..10u32);
    let small = r.random_range(-16i32..=16);
    match elem {
        "i1" => Data::Bool(r.random::<bool>()),
        "i8" => Data::Int(if pick == 0 { r.random::<i8>() as i128 } else { (small * 3) as i128 }),
        "i32" => Data::Int(match pick {
            0 => [i32::MIN, i32::MAX, -1][r.random_range(0..3)] as i128,
            1 => r.random::<i32>() as i128,
            _ => small as i128,
        }),
        _ => {
            let x = match pick {
                0 => [-0.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 1e-30, 65504.0][r.random_range(0..6)],
                _ => small as f64 / 4.0,
            };
            match elem {
                "f16" => Data::F16(half::f16::from_f64(x)),
                "f32" => Data::F32(x as f32),
                "f64" => Data::F64(x),
                e => panic!("no random {e}"),
            }
        }
    }
}

/// A random argument of type `t`.
fn argument(t: &str, r: &mut TestRng) -> Data {
    let (shape, elem, is_tensor) = arg_type(t);
    if !is_tensor {
        return element(elem, r);
    }
    let xs: Vec<Data> = (0..shape.iter().product::<usize>()).map(|_| element(elem, r)).collect();
    macro_rules! array {
        ($variant:ident) => {
            Tensor::from_array(
                &ArrayD::from_shape_vec(
                    IxDyn(&shape),
                    xs.iter().map(|d| if let Data::$variant(x) = d { *x } else { unreachable!() }).collect(),
                )
                .unwrap(),
            )
        };
    }
    Data::Array(match elem {
        "i1" => array!(Bool),
        "i8" => Tensor::from_array(
            &ArrayD::from_shape_vec(
                IxDyn(&shape),
                xs.iter().map(|d| if let Data::Int(x) = d { *x as i8 } else { 0 }).collect(),
            )
            .unwrap(),
        ),
        "i32" => Tensor::from_array(
            &ArrayD::from_shape_vec(
                IxDyn(&shape),
                xs.iter().map(|d| if let Data::Int(x) = d { *x as i32 } else { 0 }).collect(),
            )
            .unwrap(),
        ),
        "f16" => array!(F16),
        "f32" => array!(F32),
        "f64" => array!(F64),
        e => panic!("no random tensor of {e}"),
    })
}

/// Every named op of LLVM 22 that `mlir-opt --linalg-generalize-named-ops`
/// rewrites (the OpDSL ops, matmul and its variants, contract,
/// elementwise) equals that generic form, recorded beside it in
/// `fixtures/linalg_generic/` by `tools/record_linalg_generic.py`, on
/// random arguments: the same bits, or undefined behaviour in both (an
/// integer division by zero).
#[test]
fn named_ops_equal_llvms_generic_forms() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/linalg_generic");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert!(files.len() >= 90, "fixtures/linalg_generic has {} files", files.len());
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let types: Vec<&str> =
            text.lines().next().and_then(|l| l.strip_prefix("// ARGS: ")).unwrap().split(' ').collect();
        let p = Program::parse(&path.display().to_string(), &text).unwrap_or_else(|e| panic!("{}", e.diagnostic));
        let mut runner =
            TestRunner::new(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() });
        let outcome = runner.run(&any::<u64>(), |seed| {
            let mut r =
                TestRng::from_seed(RngAlgorithm::ChaCha, &[seed.to_le_bytes(), [0; 8], [0; 8], [0; 8]].concat());
            let args: Vec<Data> = types.iter().map(|t| argument(t, &mut r)).collect();
            let mut i = Interpreter::new(&p).unwrap();
            let mut run = |f: &str| i.call(f, args.iter().cloned().map(Into::into).collect());
            match (run("named"), run("generic")) {
                (Ok(x), Ok(y)) => prop_assert_eq!(x, y, "{:?}", args),
                (Err(x), Err(y)) if x.class == ErrorClass::UndefinedBehavior && y.class == x.class => {}
                (x, y) => prop_assert!(
                    false,
                    "named {:?}\ngeneric {:?}\non {:?}",
                    x.map_err(|e| e.diagnostic),
                    y.map_err(|e| e.diagnostic),
                    args
                ),
            }
            Ok(())
        });
        if let Err(e) = outcome {
            panic!("{}: {e}", path.display());
        }
    }
}
