//! Dynamic sizes of linalg operands against the loop ranges, case by case
//! as LLVM's own integration test of `-generate-runtime-verification` for
//! linalg (`mlir/test/Integration/Dialect/Linalg/CPU/runtime-verification.mlir`,
//! LLVM 22) has them: the same functions, called with the same tensors,
//! fail where that test expects a runtime-verification error (the first
//! one it expects for the call, naming the same dimension and operand)
//! and run where it expects none. Broadcasts through constant indices
//! (`(0, d1)`), a reversed index (`3 - i`) and empty tensors included.

use mlir_interp::{Data, ErrorClass, Interpreter, Program, Tensor};
use ndarray::{ArrayD, IxDyn};

/// The test's functions, unchanged but for layout.
const FUNCS: &str = r#"#identity1D = affine_map<(d0) -> (d0)>
func.func @simple_add(%arg0: tensor<?xf32>, %arg1: tensor<?xf32>) -> (tensor<?xf32>) {
    %0 = linalg.generic {indexing_maps = [#identity1D, #identity1D], iterator_types = ["parallel"]} ins(%arg0 : tensor<?xf32>) outs(%arg1 : tensor<?xf32>) {
      ^bb0(%gen_arg1: f32, %gen_arg2: f32) :
        %tmp1 = arith.addf %gen_arg1, %gen_arg2 : f32
        linalg.yield %tmp1 : f32
    } -> tensor<?xf32>
    return %0 : tensor<?xf32>
}
#broadcastD0 = affine_map<(d0, d1) -> (0, d1)>
#broadcastD1 = affine_map<(d0, d1) -> (d0, 0)>
#identity2D = affine_map<(d0, d1) -> (d0, d1)>
func.func @broadcast_add(%arg0: tensor<?x?xf32>, %arg1: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %arg0, %c0 : tensor<?x?xf32>
  %dim_0 = tensor.dim %arg1, %c0 : tensor<?x?xf32>
  %0 = arith.maxui %dim, %dim_0 : index
  %c1 = arith.constant 1 : index
  %dim_1 = tensor.dim %arg0, %c1 : tensor<?x?xf32>
  %dim_2 = tensor.dim %arg1, %c1 : tensor<?x?xf32>
  %1 = arith.maxui %dim_1, %dim_2 : index
  %dim_3 = tensor.dim %arg0, %c0 : tensor<?x?xf32>
  %2 = arith.cmpi eq, %dim_3, %c1 : index
  %3 = scf.if %2 -> (tensor<?x?xf32>) {
    %dim_7 = tensor.dim %arg0, %c1 : tensor<?x?xf32>
    %12 = tensor.empty(%0, %dim_7) : tensor<?x?xf32>
    %13 = linalg.generic {indexing_maps = [#broadcastD0, #identity2D], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<?x?xf32>) outs(%12 : tensor<?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<?x?xf32>
    scf.yield %13 : tensor<?x?xf32>
  } else {
    scf.yield %arg0 : tensor<?x?xf32>
  }
  %dim_4 = tensor.dim %3, %c1 : tensor<?x?xf32>
  %4 = arith.cmpi eq, %dim_4, %c1 : index
  %5 = scf.if %4 -> (tensor<?x?xf32>) {
    %dim_7 = tensor.dim %3, %c0 : tensor<?x?xf32>
    %12 = tensor.empty(%dim_7, %1) : tensor<?x?xf32>
    %13 = linalg.generic {indexing_maps = [#broadcastD1, #identity2D], iterator_types = ["parallel", "parallel"]} ins(%3 : tensor<?x?xf32>) outs(%12 : tensor<?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<?x?xf32>
    scf.yield %13 : tensor<?x?xf32>
  } else {
    scf.yield %3 : tensor<?x?xf32>
  }
  %dim_5 = tensor.dim %arg1, %c0 : tensor<?x?xf32>
  %6 = arith.cmpi eq, %dim_5, %c1 : index
  %7 = scf.if %6 -> (tensor<?x?xf32>) {
    %dim_7 = tensor.dim %arg1, %c1 : tensor<?x?xf32>
    %12 = tensor.empty(%0, %dim_7) : tensor<?x?xf32>
    %13 = linalg.generic {indexing_maps = [#broadcastD0, #identity2D], iterator_types = ["parallel", "parallel"]} ins(%arg1 : tensor<?x?xf32>) outs(%12 : tensor<?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<?x?xf32>
    scf.yield %13 : tensor<?x?xf32>
  } else {
    scf.yield %arg1 : tensor<?x?xf32>
  }
  %dim_6 = tensor.dim %7, %c1 : tensor<?x?xf32>
  %8 = arith.cmpi eq, %dim_6, %c1 : index
  %9 = scf.if %8 -> (tensor<?x?xf32>) {
    %dim_7 = tensor.dim %7, %c0 : tensor<?x?xf32>
    %12 = tensor.empty(%dim_7, %1) : tensor<?x?xf32>
    %13 = linalg.generic {indexing_maps = [#broadcastD1, #identity2D], iterator_types = ["parallel", "parallel"]} ins(%7 : tensor<?x?xf32>) outs(%12 : tensor<?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<?x?xf32>
    scf.yield %13 : tensor<?x?xf32>
  } else {
    scf.yield %7 : tensor<?x?xf32>
  }
  %10 = tensor.empty(%0, %1) : tensor<?x?xf32>
  %11 = linalg.generic {indexing_maps = [#identity2D, #identity2D, #identity2D], iterator_types = ["parallel", "parallel"]} ins(%5, %9 : tensor<?x?xf32>, tensor<?x?xf32>) outs(%10 : tensor<?x?xf32>) {
  ^bb0(%in: f32, %in_7: f32, %out: f32):
    %12 = arith.addf %in, %in_7 : f32
    linalg.yield %12 : f32
  } -> tensor<?x?xf32>
  return %11 : tensor<?x?xf32>
}
func.func @matmul_generic(%arg0: tensor<?x?xf32>, %arg1: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %cf0 = arith.constant 0.0 : f32
  %ci0 = arith.constant 0 : index
  %ci1 = arith.constant 1 : index
  %d0 = tensor.dim %arg0, %ci0 : tensor<?x?xf32>
  %d1 = tensor.dim %arg1, %ci1 : tensor<?x?xf32>
  %splat = tensor.splat %cf0[%d0, %d1] : tensor<?x?xf32>
  %0 = linalg.generic {iterator_types = ["parallel", "parallel", "reduction"], indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]} ins(%arg0, %arg1 : tensor<?x?xf32>, tensor<?x?xf32>) outs(%splat : tensor<?x?xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %1 = arith.mulf %in, %in_0 : f32
    %2 = arith.addf %out, %1 : f32
    linalg.yield %2 : f32
  } -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
func.func @matmul_named(%arg0: tensor<?x?xf32>, %arg1: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %cf0 = arith.constant 0.0 : f32
  %ci0 = arith.constant 0 : index
  %ci1 = arith.constant 1 : index
  %d0 = tensor.dim %arg0, %ci0 : tensor<?x?xf32>
  %d1 = tensor.dim %arg1, %ci1 : tensor<?x?xf32>
  %splat = tensor.splat %cf0[%d0, %d1] : tensor<?x?xf32>
  %0 = linalg.matmul  ins(%arg0, %arg1 : tensor<?x?xf32>, tensor<?x?xf32>) outs(%splat : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
func.func @conv(%arg0: tensor<16x29xf32>, %arg1: tensor<3x4xf32>) -> (tensor<5x7xf32>) {
  %c0 = arith.constant 0.0 : f32
  %splat = tensor.splat %c0 : tensor<5x7xf32>
  %result = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0 * 3 + d2, d1 * 4 + d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%arg0, %arg1 : tensor<16x29xf32>, tensor<3x4xf32>) outs(%splat : tensor<5x7xf32>) {
  ^bb0(%in: f32, %in_64: f32, %out: f32):
    %5 = arith.mulf %in, %in_64 : f32
    %6 = arith.addf %out, %5 : f32
    linalg.yield %6 : f32
  } -> tensor<5x7xf32>
  return %result : tensor<5x7xf32>
}
func.func @reverse_from_3(%arg0: tensor<?xf32>) -> (tensor<?xf32>) {
  %cf0 = arith.constant 0.0 : f32
  %ci0 = arith.constant 0 : index
  %d0 = tensor.dim %arg0, %ci0 : tensor<?xf32>
  %splat = tensor.splat %cf0[%d0] : tensor<?xf32>
  %result = linalg.generic {indexing_maps = [affine_map<(i) -> (3 - i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%arg0: tensor<?xf32>) outs(%splat: tensor<?xf32>) {
    ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<?xf32>
  return %result : tensor<?xf32>
}
func.func @fill_empty_1d(%arg0: tensor<?xf32>) -> (tensor<?xf32>) {
  %c0 = arith.constant 0.0 : f32
  %0 = linalg.fill ins(%c0 : f32) outs(%arg0 : tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
func.func @fill_empty_2d(%arg0: tensor<?x?xf32>) -> (tensor<?x?xf32>) {
  %c0 = arith.constant 0.0 : f32
  %0 = linalg.fill ins(%c0 : f32) outs(%arg0 : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
"#;

/// A zero-filled f32 tensor of `shape` (the test's `dense<0.0>` constants).
fn zeros(shape: &[usize]) -> Data {
    Data::Array(Tensor::from_array(&ArrayD::<f32>::zeros(IxDyn(shape))))
}

#[test]
fn mismatched_dynamic_sizes_fail_where_llvms_runtime_verification_does() {
    let p = Program::parse("runtime-verification.mlir", FUNCS).unwrap_or_else(|e| panic!("{}", e.diagnostic));
    let incompatible = |d: usize, k: usize| format!("dimension #{d} of input/output operand #{k} is incompatible");
    // (function, argument shapes, the error expected if any)
    type Case<'a> = (&'a str, Vec<&'a [usize]>, Option<String>);
    let cases: Vec<Case> = vec![
        ("simple_add", vec![&[5], &[5]], None),
        ("simple_add", vec![&[5], &[4]], Some(incompatible(0, 1))),
        ("simple_add", vec![&[4], &[5]], Some(incompatible(0, 1))),
        ("broadcast_add", vec![&[1, 1], &[1, 1]], None),
        ("broadcast_add", vec![&[1, 1], &[4, 5]], None),
        ("broadcast_add", vec![&[4, 4], &[1, 4]], None),
        ("broadcast_add", vec![&[1, 4], &[4, 5]], Some(incompatible(1, 1))),
        ("broadcast_add", vec![&[5, 4], &[4, 5]], Some(incompatible(0, 1))),
        ("matmul_generic", vec![&[5, 4], &[4, 5]], None),
        ("matmul_generic", vec![&[4, 5], &[4, 5]], Some(incompatible(0, 1))),
        ("matmul_named", vec![&[5, 4], &[4, 5]], None),
        ("matmul_named", vec![&[4, 5], &[4, 5]], Some(incompatible(0, 1))),
        ("conv", vec![&[16, 29], &[3, 4]], None),
        ("reverse_from_3", vec![&[4]], None),
        (
            "reverse_from_3",
            vec![&[5]],
            Some("unexpected negative result on dimension #0 of input/output operand #0".into()),
        ),
        ("fill_empty_1d", vec![&[0]], None),
        ("fill_empty_2d", vec![&[0, 5]], None),
    ];
    for (f, shapes, want) in cases {
        let mut i = Interpreter::new(&p).unwrap();
        let got = i.call(f, shapes.iter().map(|s| zeros(s).into()).collect());
        match (&got, &want) {
            (Ok(_), None) => {}
            (Err(e), Some(w)) if e.class == ErrorClass::UndefinedBehavior && e.message.contains(w.as_str()) => {}
            _ => panic!("@{f}{shapes:?}: want {want:?}, got {:?}", got.map_err(|e| e.diagnostic)),
        }
    }
}
