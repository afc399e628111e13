//! Memrefs a program returns, seen as ndarray views (`MemRef::with_view`):
//! each element type's Rust type, vector elements, the errors, the
//! checked accessor, and writes through a mutable view. Expected arrays
//! are derived by hand from the programs.

use half::{bf16, f16};
use mlir_interp::exec::{Config, Engine};
use mlir_interp::memory::MemRef;
use mlir_interp::value::{Scalar, Value};
use mlir_interp::view::{Undefined, ViewError};
use mlir_ir::diag::Source;
use mlir_ir::ir::OpId;
use ndarray::{arr1, arr2, ArrayD, IxDyn};
use num_complex::Complex;
use std::rc::Rc;

/// Runs `@main` of `text` and returns its memref results.
fn run(text: &str) -> Vec<Rc<MemRef>> {
    let src = Source::new("views.mlir", text);
    let m = mlir_ir::parse_and_verify(&src).unwrap_or_else(|d| panic!("{}", d.render(&src)));
    let mut sink = Vec::new();
    let mut e = Engine::load(&m, Config::default(), Box::new(&mut sink)).unwrap();
    let vals = e.run_entry("main").unwrap_or_else(|x| panic!("{}", x.render(&m, &src)));
    vals.into_iter()
        .map(|v| match v {
            Value::Memref(r) => r,
            other => panic!("not a memref: {other:?}"),
        })
        .collect()
}

#[test]
fn a_transposed_subview_is_viewed_in_place() {
    let r = run(r#"
func.func @main() -> memref<3x2xf32, strided<[1, 4], offset: 1>> {
  %m = memref.alloc() : memref<3x4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f32
  scf.for %i = %c0 to %c3 step %c1 iter_args(%x = %one) -> (f32) {
    %y = scf.for %j = %c0 to %c4 step %c1 iter_args(%z = %x) -> (f32) {
      memref.store %z, %m[%i, %j] : memref<3x4xf32>
      %n = arith.addf %z, %one : f32
      scf.yield %n : f32
    }
    scf.yield %y : f32
  }
  %s = memref.subview %m[0, 1] [2, 3] [1, 1] : memref<3x4xf32> to memref<2x3xf32, strided<[4, 1], offset: 1>>
  %t = memref.transpose %s (i, j) -> (j, i) : memref<2x3xf32, strided<[4, 1], offset: 1>> to memref<3x2xf32, strided<[1, 4], offset: 1>>
  return %t : memref<3x2xf32, strided<[1, 4], offset: 1>>
}"#);
    // %m holds 1..12 row by row; the subview is rows 0-1, columns 1-3.
    let want = arr2(&[[2.0f32, 6.0], [3.0, 7.0], [4.0, 8.0]]).into_dyn();
    let m = &r[0];
    let (same, ptr) = m.with_view::<f32, _>(|v| (v == want.view(), v.as_ptr() as usize)).unwrap();
    assert!(same);
    assert_eq!(ptr, m.storage_ptr() as usize + 4, "element 0 is element 1 of the allocation");
    assert_eq!(m.check_defined(), Ok(()));
    assert_eq!(m.to_array::<f32>().unwrap(), want);
}

#[test]
fn element_types_map_to_rust_types() {
    let r = run(r#"
func.func @main() -> (memref<2xf16>, memref<2xbf16>, memref<1xcomplex<f32>>, memref<2xi1>, memref<1xf8E4M3FN>, memref<2xindex>, memref<2xvector<3xi32>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %h = memref.alloc() : memref<2xf16>
  %hv = arith.constant 1.5 : f16
  %hw = arith.constant -2.0 : f16
  memref.store %hv, %h[%c0] : memref<2xf16>
  memref.store %hw, %h[%c1] : memref<2xf16>
  %b = memref.alloc() : memref<2xbf16>
  %bv = arith.constant 0.5 : bf16
  memref.store %bv, %b[%c0] : memref<2xbf16>
  memref.store %bv, %b[%c1] : memref<2xbf16>
  %z = memref.alloc() : memref<1xcomplex<f32>>
  %zv = complex.constant [1.0 : f32, -3.0 : f32] : complex<f32>
  memref.store %zv, %z[%c0] : memref<1xcomplex<f32>>
  %p = memref.alloc() : memref<2xi1>
  %t = arith.constant true
  %f = arith.constant false
  memref.store %t, %p[%c0] : memref<2xi1>
  memref.store %f, %p[%c1] : memref<2xi1>
  %e = memref.alloc() : memref<1xf8E4M3FN>
  %ev = arith.constant 1.0 : f8E4M3FN
  memref.store %ev, %e[%c0] : memref<1xf8E4M3FN>
  %x = memref.alloc() : memref<2xindex>
  %m1 = arith.constant -1 : index
  memref.store %m1, %x[%c0] : memref<2xindex>
  memref.store %c1, %x[%c1] : memref<2xindex>
  %v = memref.alloc() : memref<2xvector<3xi32>>
  %v0 = arith.constant dense<[1, 2, 3]> : vector<3xi32>
  %v1 = arith.constant dense<[4, 5, 6]> : vector<3xi32>
  memref.store %v0, %v[%c0] : memref<2xvector<3xi32>>
  memref.store %v1, %v[%c1] : memref<2xvector<3xi32>>
  return %h, %b, %z, %p, %e, %x, %v : memref<2xf16>, memref<2xbf16>, memref<1xcomplex<f32>>, memref<2xi1>, memref<1xf8E4M3FN>, memref<2xindex>, memref<2xvector<3xi32>>
}"#);
    let own = |m: &MemRef| m.to_array::<f16>().unwrap();
    assert_eq!(own(&r[0]), arr1(&[f16::from_f32(1.5), f16::from_f32(-2.0)]).into_dyn());
    assert_eq!(r[1].to_array::<bf16>().unwrap(), arr1(&[bf16::from_f32(0.5); 2]).into_dyn());
    assert_eq!(r[2].to_array::<Complex<f32>>().unwrap(), arr1(&[Complex::new(1.0f32, -3.0)]).into_dyn());
    // i1 is one byte, 0 or 1; f8E4M3FN 1.0 is 0x38 (exponent bias 7).
    assert_eq!(r[3].to_array::<u8>().unwrap(), arr1(&[1u8, 0]).into_dyn());
    assert_eq!(r[4].to_array::<u8>().unwrap(), arr1(&[0x38u8]).into_dyn());
    assert_eq!(r[5].to_array::<i64>().unwrap(), arr1(&[-1i64, 1]).into_dyn());
    assert_eq!(r[5].to_array::<u64>().unwrap(), arr1(&[u64::MAX, 1]).into_dyn());
    let vecs = ArrayD::from_shape_vec(IxDyn(&[2, 3]), vec![1i32, 2, 3, 4, 5, 6]).unwrap();
    assert_eq!(r[6].to_array::<i32>().unwrap(), vecs);
    // The wrong type is refused, naming both.
    let err = r[0].with_view::<f32, _>(|_| ()).unwrap_err();
    assert!(matches!(&err, ViewError::ElementType { have, want: "f32" } if have == "f16"), "{err}");
    assert!(r[4].with_view::<i8, _>(|_| ()).is_err(), "fp8 is raw bits (u8), not an integer");
}

#[test]
fn non_strided_layouts_are_copied_and_shifted_views_refused() {
    let r = run(r#"
#tiled = affine_map<(i) -> (i mod 2, i floordiv 2)>
func.func @main() -> (memref<4xi32, #tiled>, memref<2xi32>) {
  %m = memref.alloc() : memref<4xi32, #tiled>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %v = arith.index_cast %i : index to i32
    memref.store %v, %m[%i] : memref<4xi32, #tiled>
  }
  %bytes = memref.alloc() : memref<16xi8>
  %s = memref.view %bytes[%c1][] : memref<16xi8> to memref<2xi32>
  return %m, %s : memref<4xi32, #tiled>, memref<2xi32>
}"#);
    assert!(matches!(r[0].with_view::<i32, _>(|_| ()), Err(ViewError::NotStrided(_))));
    assert_eq!(r[0].to_array::<i32>().unwrap(), arr1(&[0, 1, 2, 3]).into_dyn());
    assert!(matches!(r[1].with_view::<i32, _>(|_| ()), Err(ViewError::Misaligned(_))));
}

#[test]
fn undefined_elements_are_reported_and_mutable_views_write_through() {
    let r = run(r#"
func.func @main() -> memref<2x2xi32> {
  %m = memref.alloc() : memref<2x2xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = arith.constant 7 : i32
  memref.store %k, %m[%c0, %c0] : memref<2x2xi32>
  %p = ub.poison : i32
  memref.store %p, %m[%c0, %c1] : memref<2x2xi32>
  memref.store %k, %m[%c1, %c0] : memref<2x2xi32>
  return %m : memref<2x2xi32>
}"#);
    let m = &r[0];
    match m.check_defined() {
        Err(Undefined::Poison(idx, _)) => assert_eq!(idx, vec![0, 1]),
        other => panic!("{other:?}"),
    }
    m.with_view_mut::<i32, _>(|mut v| {
        v[[0, 1]] = 5;
        v[[1, 1]] = 42;
    })
    .unwrap();
    assert_eq!(m.check_defined(), Ok(()), "what the view wrote counts as written");
    let loaded = m.load(OpId(0), &[1, 1], "test").unwrap();
    assert!(matches!(loaded.scalar(), Some(Scalar::Int(i)) if i.to_i64() == Some(42)));
    assert_eq!(m.to_array::<i32>().unwrap(), arr2(&[[7, 5], [7, 42]]).into_dyn());
}

#[test]
fn a_freed_memref_has_no_view() {
    let r = run(r#"
func.func @main() -> memref<2xi32> {
  %m = memref.alloc() : memref<2xi32>
  memref.dealloc %m : memref<2xi32>
  return %m : memref<2xi32>
}"#);
    assert!(matches!(r[0].with_view::<i32, _>(|_| ()), Err(ViewError::Freed(_))));
    match r[0].check_defined() {
        Err(Undefined::Unreadable(idx, msg)) => {
            assert_eq!(idx, vec![0]);
            assert!(msg.contains("use after free"), "{msg}");
        }
        other => panic!("{other:?}"),
    }
}

/// Loads `text` and calls `name` with `args` (arrays lent in place)
/// through the library's interface.
fn call_lending(text: &str, name: &str, args: Vec<mlir_interp::Arg<'_>>) -> Result<Vec<mlir_interp::Data>, String> {
    let p = mlir_interp::Program::parse("lend.mlir", text).map_err(|e| e.diagnostic)?;
    let mut i = mlir_interp::Interpreter::new(&p).map_err(|e| e.diagnostic)?;
    i.call(name, args).map_err(|e| e.diagnostic)
}

const SCALE: &str = r#"
func.func @scale(%m: memref<?x?xf32, strided<[?, ?], offset: ?>>, %k: f32) -> memref<?x?xf32, strided<[?, ?], offset: ?>> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = memref.dim %m, %c0 : memref<?x?xf32, strided<[?, ?], offset: ?>>
  %c = memref.dim %m, %c1 : memref<?x?xf32, strided<[?, ?], offset: ?>>
  scf.for %i = %c0 to %r step %c1 {
    scf.for %j = %c0 to %c step %c1 {
      %x = memref.load %m[%i, %j] : memref<?x?xf32, strided<[?, ?], offset: ?>>
      %y = arith.mulf %x, %k : f32
      memref.store %y, %m[%i, %j] : memref<?x?xf32, strided<[?, ?], offset: ?>>
    }
  }
  return %m : memref<?x?xf32, strided<[?, ?], offset: ?>>
}
func.func @first(%m: memref<2x3xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %x = memref.load %m[%c0, %c0] : memref<2x3xi32>
  return %x : i32
}
func.func @poke(%m: memref<2x3xi32>) {
  %c0 = arith.constant 0 : index
  %k = arith.constant 9 : i32
  memref.store %k, %m[%c0, %c0] : memref<2x3xi32>
  return
}"#;

#[test]
fn lent_arrays_are_memref_arguments_in_place() {
    use mlir_interp::{Data, Lent};
    // A transposed, reversed view: negative and non-unit strides.
    let mut a = ndarray::Array2::<f32>::from_shape_fn((2, 3), |(i, j)| (3 * i + j) as f32);
    let mut v = a.view_mut().reversed_axes();
    v.invert_axis(ndarray::Axis(0));
    let out =
        call_lending(SCALE, "scale", vec![Lent::from_view_mut(v.into_dyn()).into(), Data::F32(2.0).into()]).unwrap();
    assert_eq!(a, arr2(&[[0.0f32, 2.0, 4.0], [6.0, 8.0, 10.0]]), "the program wrote the caller's array");
    // The memref it returned (the lent view) comes back as a copy of its
    // elements, read before the array was given back: a's transpose,
    // rows reversed.
    let Data::Array(t) = &out[0] else { panic!("{out:?}") };
    assert_eq!(t.to_array::<f32>().unwrap(), arr2(&[[4.0f32, 10.0], [2.0, 8.0], [0.0, 6.0]]).into_dyn());
}

#[test]
fn lent_arrays_must_fit_the_parameter_and_read_only_ones_stay_so() {
    use mlir_interp::{Data, Lent};
    let b = ndarray::Array2::<i32>::from_shape_fn((2, 3), |(i, j)| (10 * i + j) as i32 + 1);
    let got = call_lending(SCALE, "first", vec![Lent::from_view(b.view().into_dyn()).into()]).unwrap();
    assert_eq!(got, vec![Data::Int(1)]);
    // A transposed array does not fit the identity layout of memref<2x3xi32>.
    let t = ndarray::Array2::<i32>::zeros((3, 2));
    let err = call_lending(SCALE, "first", vec![Lent::from_view(t.t().into_dyn()).into()]).unwrap_err();
    assert!(
        err.contains(
            "argument #0 of 'first' (memref<2x3xi32>): an array of shape [2, 3] and strides [1, 2] does not fit"
        ),
        "{err}"
    );
    let wrong = ndarray::Array2::<f32>::zeros((2, 3));
    let err = call_lending(SCALE, "first", vec![Lent::from_view(wrong.view().into_dyn()).into()]).unwrap_err();
    assert!(err.contains("argument #0 of 'first' (memref<2x3xi32>): an array of f32 does not fit"), "{err}");
    // bool has bit patterns a buffer may hold that are no bool: never lent.
    let flags = ndarray::Array2::<bool>::from_elem((2, 3), true);
    let err = call_lending(SCALE, "first", vec![Lent::from_view(flags.view().into_dyn()).into()]).unwrap_err();
    assert!(err.contains("an array of bool does not fit"), "{err}");
    let err = call_lending(SCALE, "poke", vec![Lent::from_view(b.view().into_dyn()).into()]).unwrap_err();
    assert!(err.contains("read-only by the caller"), "{err}");
    assert_eq!(b[[0, 0]], 1);
}

#[test]
fn a_strided_affine_map_layout_is_viewed_through_its_strides() {
    // (i, j) -> (j * 2 + i): a column-major 2x3 array, a strided form.
    let r = run(r#"
#colmajor = affine_map<(i, j) -> (j * 2 + i)>
func.func @main() -> memref<2x3xi32, #colmajor> {
  %m = memref.alloc() : memref<2x3xi32, #colmajor>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c3 step %c1 {
      %t = arith.muli %i, %c3 : index
      %k = arith.addi %t, %j : index
      %v = arith.index_cast %k : index to i32
      memref.store %v, %m[%i, %j] : memref<2x3xi32, #colmajor>
    }
  }
  return %m : memref<2x3xi32, #colmajor>
}"#);
    let (same, strides) = r[0]
        .with_view::<i32, _>(|v| (v == arr2(&[[0, 1, 2], [3, 4, 5]]).into_dyn().view(), v.strides().to_vec()))
        .unwrap();
    assert!(same);
    assert_eq!(strides, vec![1, 2], "the view walks the buffer in column-major order");
}
