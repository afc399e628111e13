//! Running one program down a fast path and down the general path: an
//! observer, even one that watches nothing, sends every op through its
//! dialect's general loop, so the same program run with and without one
//! must return the same bits (or error) and count the same ops.

use mlir_interp::exec::{Config, Engine, Observer};
use mlir_ir::diag::Source;

/// Watches nothing; its presence alone selects the general paths.
struct Nothing;
impl Observer for Nothing {}

/// The returned values (as the engine shows them, bits included) or the
/// rendered error, and the op count, of `text`'s `@main`, with an observer
/// when `observed`; panics with the program when it does not verify.
pub fn run(text: &str, observed: bool) -> (String, u64) {
    let src = Source::new("paths.mlir", text);
    let m = mlir_ir::parse_and_verify(&src).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
    let mut e = Engine::load(&m, Config::default(), Box::new(std::io::sink())).expect("load");
    if observed {
        e.observer = Some(Box::new(Nothing));
    }
    let outcome = match e.run_entry("main") {
        Ok(vals) => format!("{vals:?}"),
        Err(err) => err.render(&m, &src),
    };
    (outcome, e.steps())
}

/// f32 encodings where rounding, NaN propagation and signed zeros differ:
/// the edge values the fast-path tests fill their operands with.
// Not every test that runs both paths uses it.
#[allow(dead_code)]
pub const F32: [u32; 16] = [
    0x7FC0_0000,
    0x7FA0_0001,
    0xFFC0_0123,
    0x8000_0000,
    0x0000_0000,
    0x7F80_0000,
    0xFF80_0000,
    0x0000_0001,
    0x807F_FFFF,
    0x7F7F_FFFF,
    0xFF7F_FFFF,
    0x3F80_0000,
    0xC020_0000,
    0x3EAA_AAAB,
    0x4B80_0001,
    0x3380_0000,
];
