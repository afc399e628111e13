//! Lexer, parser and verifier on arbitrary bytes: any input gives a module
//! or a diagnostic, never a panic, a stack overflow or a hang.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let src = mlir_ir::diag::Source::new("fuzz.mlir", text.to_string());
    if let Err(d) = mlir_ir::parse_and_verify(&src) {
        // Rendering reads spans back into the text: it must not panic either.
        let _ = d.render(&src);
    }
});
