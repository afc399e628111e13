//! The library interface (`Program`, `Interpreter`, `Data`, `Tensor`,
//! `Error`): every element family in and out, signature checks, error
//! classes, captured output, limits. Expected values are worked out in
//! the comments from the programs.

use half::{bf16, f16};
use mlir_interp::{Config, Data, ErrorClass, Interpreter, Program, Tensor};
use ndarray::{array, ArrayD};
use num_complex::Complex;

fn program(text: &str) -> Program {
    Program::parse("t.mlir", text).unwrap_or_else(|e| panic!("{}", e.diagnostic))
}

fn array_of<T: mlir_interp::Element>(d: &Data) -> ArrayD<T> {
    match d {
        Data::Array(t) => t.to_array::<T>().unwrap_or_else(|e| panic!("{e}")),
        other => panic!("not an array: {other:?}"),
    }
}

/// Small floats in and out: f16 and bf16 arrays are negated (sign bit
/// flips: -1.5, 2.0), complex<f32> scalars multiplied ((1+2i)(3-i) = 5+5i),
/// an f8E4M3FN array passed as raw bits (0x38 is 1.0; adding it to itself
/// gives 2.0 = 0x40), an i1 tensor negated by xor with true.
#[test]
fn element_families() {
    let p = program(
        "func.func @neg(%a: tensor<2xf16>, %b: tensor<2xbf16>) -> (tensor<2xf16>, tensor<2xbf16>) {
  %x = arith.negf %a : tensor<2xf16>
  %y = arith.negf %b : tensor<2xbf16>
  return %x, %y : tensor<2xf16>, tensor<2xbf16>
}
func.func @cmul(%a: complex<f32>, %b: complex<f32>) -> complex<f32> {
  %m = complex.mul %a, %b : complex<f32>
  return %m : complex<f32>
}
func.func @double(%a: tensor<3xf8E4M3FN>) -> tensor<3xf8E4M3FN> {
  %s = arith.addf %a, %a : tensor<3xf8E4M3FN>
  return %s : tensor<3xf8E4M3FN>
}
func.func @not(%a: tensor<3xi1>) -> tensor<3xi1> {
  %t = arith.constant dense<true> : tensor<3xi1>
  %n = arith.xori %a, %t : tensor<3xi1>
  return %n : tensor<3xi1>
}",
    );
    let mut i = Interpreter::new(&p).unwrap();
    let a = array![f16::from_f32(1.5), f16::from_f32(-2.0)];
    let b = array![bf16::from_f32(1.5), bf16::from_f32(-2.0)];
    let r = i.call("neg", vec![Tensor::from_array(&a).into(), Tensor::from_array(&b).into()]).unwrap();
    assert_eq!(array_of::<f16>(&r[0]), array![f16::from_f32(-1.5), f16::from_f32(2.0)].into_dyn());
    assert_eq!(array_of::<bf16>(&r[1]), array![bf16::from_f32(-1.5), bf16::from_f32(2.0)].into_dyn());
    let r = i
        .call(
            "cmul",
            vec![Data::Complex32(Complex::new(1.0, 2.0)).into(), Data::Complex32(Complex::new(3.0, -1.0)).into()],
        )
        .unwrap();
    assert_eq!(r, vec![Data::Complex32(Complex::new(5.0, 5.0))]);
    let r = i.call("double", vec![Tensor::from_array(&array![0x38u8, 0x00, 0xB8]).into()]).unwrap();
    // 1.0 + 1.0 = 2.0 (0x40); 0 + 0 = 0; -1.0 + -1.0 = -2.0 (0xC0).
    assert_eq!(array_of::<u8>(&r[0]), array![0x40u8, 0x00, 0xC0].into_dyn());
    let r = i.call("not", vec![Tensor::from_array(&array![true, false, true]).into()]).unwrap();
    assert_eq!(array_of::<bool>(&r[0]), array![false, true, false].into_dyn());
}

/// Integers of any width: i128 max + 1 wraps to min; in i200,
/// (2^150 + 1)^2 = 2^300 + 2^151 + 1 is 2^151 + 1 mod 2^200, positive and
/// too wide for an i128; an unsigned-range argument fits (255 as i8 is
/// -1); an index is an integer.
#[test]
fn integers_of_any_width() {
    let p = program(
        "func.func @inc(%a: i128) -> i128 {
  %c1 = arith.constant 1 : i128
  %s = arith.addi %a, %c1 : i128
  return %s : i128
}
func.func @sq(%a: i200) -> i200 {
  %m = arith.muli %a, %a : i200
  return %m : i200
}
func.func @id8(%a: i8, %n: index) -> (i8, index) {
  return %a, %n : i8, index
}",
    );
    let mut i = Interpreter::new(&p).unwrap();
    assert_eq!(i.call("inc", vec![Data::Int(i128::MAX).into()]).unwrap(), vec![Data::Int(i128::MIN)]);
    let x = (num_bigint::BigInt::from(1) << 150) + 1;
    let want = (num_bigint::BigInt::from(1) << 151) + 1;
    assert_eq!(i.call("sq", vec![Data::Wide(x).into()]).unwrap(), vec![Data::Wide(want)]);
    assert_eq!(
        i.call("id8", vec![Data::Int(255).into(), Data::Int(7).into()]).unwrap(),
        vec![Data::Int(-1), Data::Int(7)]
    );
}

/// Memrefs copied in and out, a dynamic shape sized by the array, and
/// what the program printed kept for the caller: the sum 1+2+3+4 = 10.
#[test]
fn memrefs_and_printed_output() {
    let p = program(
        "func.func @sum(%m: memref<?x2xi32>) -> memref<?x2xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = memref.dim %m, %c0 : memref<?x2xi32>
  %z = arith.constant 0 : i32
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%a = %z) -> (i32) {
    %t = scf.for %j = %c0 to %c2 step %c1 iter_args(%b = %a) -> (i32) {
      %x = memref.load %m[%i, %j] : memref<?x2xi32>
      %y = arith.addi %b, %x : i32
      memref.store %y, %m[%i, %j] : memref<?x2xi32>
      scf.yield %y : i32
    }
    scf.yield %t : i32
  }
  vector.print %s : i32
  return %m : memref<?x2xi32>
}",
    );
    let mut i = Interpreter::new(&p).unwrap();
    let r = i.call("sum", vec![Tensor::from_array(&array![[1i32, 2], [3, 4]]).into()]).unwrap();
    // Running sums stored in place: 1, 3, 6, 10.
    assert_eq!(array_of::<i32>(&r[0]), array![[1i32, 3], [6, 10]].into_dyn());
    assert_eq!(i.take_printed(), "10\n");
    assert_eq!(i.take_printed(), "");
}

/// Arguments are checked against the signature, and every failure is a
/// classified error with a message naming what is wrong.
#[test]
fn mismatches_and_error_classes() {
    let p = program(
        "func.func @f(%t: tensor<2x2xf32>, %x: i8) -> f32 {
  %c0 = arith.constant 0 : index
  %e = tensor.extract %t[%c0, %c0] : tensor<2x2xf32>
  return %e : f32
}
func.func @fn() -> (() -> ()) {
  %f = func.constant @g : () -> ()
  return %f : () -> ()
}
func.func @g() {
  return
}
func.func @spin() {
  cf.br ^bb1
^bb1:
  cf.br ^bb1
}
func.func @p() -> i32 {
  %p = ub.poison : i32
  return %p : i32
}",
    );
    let mut i = Interpreter::new(&p).unwrap();
    let good = || Tensor::from_array(&ndarray::Array2::<f32>::zeros((2, 2)));
    let class_and_message = |r: Result<Vec<Data>, mlir_interp::Error>| {
        let e = r.unwrap_err();
        (e.class, e.message)
    };
    let wrong_shape = Tensor::from_array(&ndarray::Array2::<f32>::zeros((3, 2)));
    assert_eq!(
        class_and_message(i.call("f", vec![wrong_shape.into(), Data::Int(1).into()])),
        (
            ErrorClass::BadArgument,
            "argument #0 of 'f' (tensor<2x2xf32>): an array of shape [3, 2] does not fit tensor<2x2xf32>".into()
        )
    );
    let wrong_elem = Tensor::from_array(&ndarray::Array2::<f64>::zeros((2, 2)));
    assert_eq!(
        class_and_message(i.call("f", vec![wrong_elem.into(), Data::Int(1).into()])),
        (
            ErrorClass::BadArgument,
            "argument #0 of 'f' (tensor<2x2xf32>): an array of f64 does not fit tensor<2x2xf32>".into()
        )
    );
    assert_eq!(
        class_and_message(i.call("f", vec![good().into(), Data::Int(300).into()])),
        (ErrorClass::BadArgument, "argument #1 of 'f' (i8): 300 does not fit i8".into())
    );
    assert_eq!(
        class_and_message(i.call("f", vec![good().into()])),
        (ErrorClass::BadArgument, "'f' takes 2 argument(s), 1 given".into())
    );
    assert_eq!(class_and_message(i.call("nope", vec![])), (ErrorClass::BadArgument, "no function named 'nope'".into()));
    assert_eq!(
        class_and_message(i.call("fn", vec![])),
        (ErrorClass::NoLibraryForm, "a result of type () -> () (a function) has no library form".into())
    );
    assert_eq!(i.call("p", vec![]).unwrap(), vec![Data::Poison]);
    // A result of the wrong Rust type is refused, not reinterpreted.
    let r = i.call("f", vec![good().into(), Data::Int(1).into()]).unwrap();
    assert_eq!(r, vec![Data::F32(0.0)]);
    let t = Tensor::from_array(&array![1.0f32]);
    assert_eq!(t.to_array::<i32>().unwrap_err().class, ErrorClass::NoLibraryForm);
    // Fuel: an endless loop ends as a limit at the branch.
    let mut limited =
        Interpreter::with_config(&p, Config { max_steps: Some(1000), ..Interpreter::default_config() }).unwrap();
    let e = limited.call("spin", vec![]).unwrap_err();
    assert_eq!(e.class, ErrorClass::Limit);
    assert_eq!(e.location.map(|l| l.line), Some(16));
    assert!(e.diagnostic.starts_with("t.mlir:16:"), "{}", e.diagnostic);
    // An array result with a poison element cannot become an ndarray.
    let q = program(
        "func.func @v() -> vector<2xi32> {
  %p = ub.poison : i32
  %z = arith.constant dense<0> : vector<2xi32>
  %c1 = arith.constant 1 : index
  %v = vector.insert %p, %z [1] : i32 into vector<2xi32>
  return %v : vector<2xi32>
}",
    );
    let r = Interpreter::new(&q).unwrap().call("v", vec![]).unwrap();
    let Data::Array(t) = &r[0] else { panic!("{r:?}") };
    assert_eq!(t.to_array::<i32>().unwrap_err().message, "the element at [1] is poison");
}

/// `call_then` hands a memref result over in place, as an `ndarray` view
/// on the engine's buffer, before the call's memory is given back; other
/// results come as `Data`.
#[test]
fn memref_results_in_place() {
    use mlir_interp::Returned;
    let p = program(
        "func.func @two() -> (memref<2x3xf32>, i32) {
  %m = memref.alloc() : memref<2x3xf32>
  %x = arith.constant 1.5 : f32
  linalg.fill ins(%x : f32) outs(%m : memref<2x3xf32>)
  %n = arith.constant 7 : i32
  return %m, %n : memref<2x3xf32>, i32
}",
    );
    let mut i = Interpreter::new(&p).unwrap();
    let (sum, shape, n) = i
        .call_then("two", vec![], |r| {
            let Returned::Memref(m) = &r[0] else { panic!("a memref result") };
            let (sum, shape) = m.with_view::<f32, _>(|v| (v.sum(), v.shape().to_vec())).unwrap();
            let Returned::Data(n) = &r[1] else { panic!("a scalar result") };
            (sum, shape, n.clone())
        })
        .unwrap();
    assert_eq!((sum, shape, n), (9.0, vec![2, 3], Data::Int(7)));
    // Errors are the same as call's.
    let err = i.call_then("nope", vec![], |_| ()).unwrap_err();
    assert_eq!(err.class, ErrorClass::BadArgument);
}

/// Library errors speak of the configuration, not of command-line flags.
#[test]
fn limits_name_no_flags() {
    let p = program(
        "func.func @f(%n: i64) -> i64 {
  %r = func.call @f(%n) : (i64) -> i64
  return %r : i64
}",
    );
    let cfg = Config { max_call_depth: 50, ..Interpreter::default_config() };
    let err = Interpreter::with_config(&p, cfg).unwrap().call("f", vec![Data::Int(1).into()]).unwrap_err();
    assert_eq!(err.class, ErrorClass::Limit);
    assert_eq!(err.message, "call depth limit of 50 exceeded");
    assert!(!err.diagnostic.contains("--"), "{}", err.diagnostic);
}

/// `Debug` of a tensor shows its shape, element type and elements.
#[test]
fn tensors_debug_readably() {
    let t = Tensor::from_array(&array![[1.0f32, 2.0], [3.0, 4.0]]);
    assert_eq!(format!("{t:?}"), "Tensor { shape: [2, 2], elem: f32, elements: [1.0, 2.0, 3.0, 4.0] }");
    let p = program("func.func @v() -> tensor<20xi8> {\n  %c = arith.constant dense<3> : tensor<20xi8>\n  return %c : tensor<20xi8>\n}");
    let r = Interpreter::new(&p).unwrap().call("v", vec![]).unwrap();
    let Data::Array(t) = &r[0] else { panic!("an array") };
    let text = format!("{t:?}");
    assert!(text.starts_with("Tensor { shape: [20], elem: i8, elements: [3, 3,"), "{text}");
    assert!(text.ends_with(", ... (20 in all)] }"), "{text}");
}

/// What signatures mention is reachable from `mlir_interp` alone.
#[test]
fn the_crate_reexports_what_its_signatures_use() {
    let a: mlir_interp::ndarray::ArrayD<mlir_interp::half::f16> =
        mlir_interp::ndarray::ArrayD::from_elem(mlir_interp::ndarray::IxDyn(&[2]), mlir_interp::half::f16::ONE);
    let t = Tensor::from_array(&a);
    assert_eq!(t.to_array::<mlir_interp::half::f16>().unwrap(), a);
    let _: Option<mlir_interp::OpId> = None;
    let _ = mlir_interp::num_complex::Complex::new(1.0f32, 2.0);
}

/// `Config::interrupt` stops an endless loop: the poll is asked every
/// 2^16 units of fuel, says "stop" on its third call, and the run ends
/// as a limit at the loop's op. Also the op name and notes of an error:
/// a load past the end of a 4-element alloc names `memref.load` and
/// notes the `memref.alloc` on line 3.
#[test]
fn interrupts_and_error_details() {
    use std::sync::atomic::{AtomicU32, Ordering};
    use std::sync::Arc;
    let p = program(
        "func.func @spin() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %big = arith.constant 1000000000000 : index
  scf.for %i = %c0 to %big step %c1 {
  }
  return
}",
    );
    let polls = Arc::new(AtomicU32::new(0));
    let seen = polls.clone();
    let stop = mlir_interp::Interrupt(Arc::new(move || seen.fetch_add(1, Ordering::Relaxed) >= 2));
    let cfg = Config { interrupt: Some(stop), ..Interpreter::default_config() };
    let err = Interpreter::with_config(&p, cfg).unwrap().call("spin", vec![]).unwrap_err();
    assert_eq!((err.class, err.message.as_str()), (ErrorClass::Limit, "run interrupted"));
    assert_eq!(polls.load(Ordering::Relaxed), 3);
    assert!(err.location.is_some());

    let p = program(
        "func.func @oob() -> f32 {
  %c4 = arith.constant 4 : index
  %m = memref.alloc() : memref<4xf32>
  %x = memref.load %m[%c4] : memref<4xf32>
  memref.dealloc %m : memref<4xf32>
  return %x : f32
}",
    );
    let err = Interpreter::new(&p).unwrap().call("oob", vec![]).unwrap_err();
    assert_eq!(err.class, ErrorClass::UndefinedBehavior);
    assert_eq!(err.detail.op.as_deref(), Some("memref.load"));
    assert_eq!(err.location.as_ref().map(|l| l.line), Some(4));
    let notes = &err.detail.notes;
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert_eq!(notes[0].0.line, 3);
    assert!(notes[0].1.contains("memref.alloc"), "{}", notes[0].1);
}
