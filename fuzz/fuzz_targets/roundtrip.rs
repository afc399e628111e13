//! The printer on every module the parser accepts: its generic form must
//! parse and verify again and print to the same text (a fixpoint).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let src = mlir_ir::diag::Source::new("fuzz.mlir", text.to_string());
    let Ok(m) = mlir_ir::parse_and_verify(&src) else { return };
    let once = mlir_ir::printer::print_generic(&m);
    let again = mlir_ir::diag::Source::new("printed.mlir", once.clone());
    let m2 = match mlir_ir::parse_and_verify(&again) {
        Ok(m2) => m2,
        Err(d) => panic!("printed module does not parse:\n{}\n{once}", d.render(&again)),
    };
    let twice = mlir_ir::printer::print_generic(&m2);
    assert_eq!(once, twice, "printing is not a fixpoint");
});
