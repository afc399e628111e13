//! LLVM dialect vectors beyond the fixtures: `llvm.intr.vector.insert` and
//! `vector.extract` (LangRef: a piece reaching past the end gives poison;
//! a scalable piece's position is scaled by vscale), and vectors of
//! pointers (a GEP lane that leaves its allocation under `inbounds` is a
//! poison pointer, harmless while its gather lane is masked off).

use mlir_interp::{Data, ErrorClass, Interpreter, Program};

fn call(text: &str, vscale: u32) -> Result<Vec<Data>, mlir_interp::Error> {
    let p = Program::parse("t.mlir", text).unwrap_or_else(|e| panic!("{}", e.diagnostic));
    let mut cfg = Interpreter::default_config();
    cfg.vscale = vscale;
    let mut i = Interpreter::with_config(&p, cfg).unwrap();
    i.call("f", vec![])
}

fn i32s(d: &Data) -> Vec<i32> {
    match d {
        Data::Array(t) => t.to_array::<i32>().unwrap_or_else(|e| panic!("{e}")).iter().copied().collect(),
        other => panic!("not an array: {other:?}"),
    }
}

const EIGHT: &str = "%v = llvm.mlir.constant(dense<[1, 2, 3, 4, 5, 6, 7, 8]> : vector<8xi32>) : vector<8xi32>";

/// `@f` returning `%r` of type `ty`, computed by `body` from `%v` = [1..8].
fn on_eight(ty: &str, body: &str) -> String {
    format!("llvm.func @f() -> {ty} {{\n  {EIGHT}\n  {body}\n  llvm.return %r : {ty}\n}}")
}

/// Extracting lanes 4..8 of [1..8] gives [5, 6, 7, 8]; inserting [-1, -2]
/// at 2 replaces lanes 2 and 3.
#[test]
fn fixed_pieces() {
    let r =
        call(&on_eight("vector<4xi32>", "%r = llvm.intr.vector.extract %v[4] : vector<4xi32> from vector<8xi32>"), 1)
            .unwrap();
    assert_eq!(i32s(&r[0]), [5, 6, 7, 8]);
    let body = "%p = llvm.mlir.constant(dense<[-1, -2]> : vector<2xi32>) : vector<2xi32>
  %r = llvm.intr.vector.insert %p, %v[2] : vector<2xi32> into vector<8xi32>";
    let r = call(&on_eight("vector<8xi32>", body), 1).unwrap();
    assert_eq!(i32s(&r[0]), [1, 2, -1, -2, 5, 6, 7, 8]);
}

/// A scalable piece's position counts in units of vscale: position 2 of
/// a vector<[2]xi32> taken from the step vector <[4]> starts at lane 2 *
/// vscale and has 2 * vscale lanes.
#[test]
fn scalable_piece_position_scales_with_vscale() {
    let text = on_eight("vector<[2]xi32>", "%r = llvm.intr.vector.extract %v[2] : vector<[2]xi32> from vector<8xi32>");
    // mlir-opt rejects a scalable piece of a fixed vector: so does the verifier.
    let p = Program::parse("t.mlir", &text);
    assert!(p.is_err());
    let text = "llvm.func @f() -> vector<[2]xi32> {
  %s = llvm.intr.stepvector : vector<[4]xi32>
  %e = llvm.intr.vector.extract %s[2] : vector<[2]xi32> from vector<[4]xi32>
  llvm.return %e : vector<[2]xi32>
}";
    // vscale 2: [0..8) and the piece starts at lane 2 * 2 = 4: [4, 5, 6, 7].
    assert_eq!(i32s(&call(text, 2).unwrap()[0]), [4, 5, 6, 7]);
    // vscale 1: [0..4) and the piece starts at lane 2: [2, 3].
    assert_eq!(i32s(&call(text, 1).unwrap()[0]), [2, 3]);
}

/// A piece past the end makes the whole result poison (LangRef), not
/// immediate UB: the library hands the value back and names its poison.
#[test]
fn piece_past_the_end_is_poison() {
    let r =
        call(&on_eight("vector<4xi32>", "%r = llvm.intr.vector.extract %v[8] : vector<4xi32> from vector<8xi32>"), 1)
            .unwrap();
    let Data::Array(t) = &r[0] else { panic!("not an array: {:?}", r[0]) };
    let e = t.to_array::<i32>().unwrap_err();
    assert_eq!(e.class, ErrorClass::NoLibraryForm);
    assert!(e.diagnostic.contains("the element at [0] is poison"), "{}", e.diagnostic);
}

/// A position that is not a multiple of the piece's length is rejected
/// by LLVM's verifier (mlir-opt accepts it): our verifier rejects it, so
/// it is bad input, never the program's undefined behaviour.
#[test]
fn misplaced_piece_is_invalid() {
    for (ty, body) in [
        ("vector<4xi32>", "%r = llvm.intr.vector.extract %v[2] : vector<4xi32> from vector<8xi32>"),
        (
            "vector<8xi32>",
            "%p = llvm.mlir.constant(dense<[-1, -2, -3, -4]> : vector<4xi32>) : vector<4xi32>
  %r = llvm.intr.vector.insert %p, %v[6] : vector<4xi32> into vector<8xi32>",
        ),
    ] {
        let e = Program::parse("t.mlir", &on_eight(ty, body)).err().expect("verifier accepted it");
        assert_eq!(e.class, ErrorClass::BadProgram, "{}", e.diagnostic);
        assert!(e.diagnostic.contains("is not a multiple of the piece's 4 lanes"), "{}", e.diagnostic);
    }
}

/// Lane 2 of an inbounds vector GEP leaves its 4-element allocation (a
/// poison pointer); masked off, the gather takes the passthru 9 there.
#[test]
fn masked_off_poison_pointer_is_harmless() {
    let r = call(
        "llvm.func @f() -> vector<4xi32> {
  %c4 = llvm.mlir.constant(4 : i64) : i64
  %buf = llvm.alloca %c4 x i32 {alignment = 16 : i64} : (i64) -> !llvm.ptr
  %v = llvm.mlir.constant(dense<[10, 11, 12, 13]> : vector<4xi32>) : vector<4xi32>
  llvm.store %v, %buf {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr
  %idx = llvm.mlir.constant(dense<[3, 0, 6, 1]> : vector<4xi64>) : vector<4xi64>
  %ptrs = llvm.getelementptr inbounds %buf[%idx] : (!llvm.ptr, vector<4xi64>) -> vector<4x!llvm.ptr>, i32
  %m = llvm.mlir.constant(dense<[true, true, false, true]> : vector<4xi1>) : vector<4xi1>
  %pass = llvm.mlir.constant(dense<9> : vector<4xi32>) : vector<4xi32>
  %g = llvm.intr.masked.gather %ptrs, %m, %pass {alignment = 4 : i32} : (vector<4x!llvm.ptr>, vector<4xi1>, vector<4xi32>) -> vector<4xi32>
  llvm.return %g : vector<4xi32>
}",
        1,
    )
    .unwrap();
    assert_eq!(i32s(&r[0]), [13, 10, 9, 11]);
}
