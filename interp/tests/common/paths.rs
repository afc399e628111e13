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
