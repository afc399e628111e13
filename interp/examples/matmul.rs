//! Calls an MLIR matrix multiply on `ndarray` inputs: `a` and `b` are
//! copied in as tensors, `c` is lent as a memref and written in place.
//! Checks the result against ndarray's own product.
//!
//! Run: `cargo run --release --example matmul`

use mlir_interp::{Data, Interpreter, Lent, Program, Tensor};
use ndarray::Array2;

const MATMUL: &str = "
func.func @matmul(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %c: memref<?x?xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %a, %c0 : tensor<?x?xf32>
  %k = tensor.dim %a, %c1 : tensor<?x?xf32>
  %m = tensor.dim %b, %c1 : tensor<?x?xf32>
  %total = scf.for %i = %c0 to %n step %c1 iter_args(%t0 = %zero) -> (f32) {
    %row = scf.for %j = %c0 to %m step %c1 iter_args(%t1 = %t0) -> (f32) {
      %dot = scf.for %p = %c0 to %k step %c1 iter_args(%acc = %zero) -> (f32) {
        %x = tensor.extract %a[%i, %p] : tensor<?x?xf32>
        %y = tensor.extract %b[%p, %j] : tensor<?x?xf32>
        %acc2 = math.fma %x, %y, %acc : f32
        scf.yield %acc2 : f32
      }
      memref.store %dot, %c[%i, %j] : memref<?x?xf32>
      %t2 = arith.addf %t1, %dot : f32
      scf.yield %t2 : f32
    }
    scf.yield %row : f32
  }
  return %total : f32
}
";

fn main() -> Result<(), mlir_interp::Error> {
    let program = Program::parse("matmul.mlir", MATMUL)?;
    let mut interp = Interpreter::new(&program)?;
    let a = Array2::from_shape_fn((3, 4), |(i, j)| (i * 4 + j) as f32 * 0.5);
    let b = Array2::from_shape_fn((4, 2), |(i, j)| i as f32 - j as f32);
    let mut c = Array2::<f32>::zeros((3, 2));
    let results = interp.call(
        "matmul",
        vec![
            Tensor::from_array(&a).into(),
            Tensor::from_array(&b).into(),
            Lent::from_view_mut(c.view_mut().into_dyn()).into(),
        ],
    )?;
    let want = a.dot(&b);
    println!("c =\n{c}");
    // Every product and sum here is exact in f32, so fma and dot agree.
    assert_eq!(c, want, "the interpreter's product differs from ndarray's");
    assert_eq!(results, vec![Data::F32(want.sum())]);
    println!("sum of c = {}", want.sum());
    Ok(())
}
