//! Helpers shared by the engine's property tests.

use mlir_interp::exec::{Config, Engine};
use mlir_interp::value::{Scalar, Value};
use ndarray::ArrayD;

/// Runs `body` (which defines `%r` of type `rty`) as `@main` and returns
/// `%r`, an array of integer lanes; panics with the program on any failure.
pub fn run_int_array(body: &str, rty: &str) -> ArrayD<i64> {
    let text = format!("func.func @main() -> {rty} {{\n{body}  return %r : {rty}\n}}\n");
    let src = mlir_ir::diag::Source::new("prop.mlir", &text);
    let m = mlir_ir::parse_and_verify(&src).unwrap_or_else(|d| panic!("{}\n{text}", d.render(&src)));
    let mut sink = Vec::new();
    let mut e = Engine::load(&m, Config::default(), Box::new(&mut sink)).unwrap();
    let vals = e.run_entry("main").unwrap_or_else(|x| panic!("{}\n{text}", x.render(&m, &src)));
    let Some(Value::Array(a)) = vals.into_iter().next() else { panic!("no array result\n{text}") };
    a.to_array().map(|s| match s {
        Scalar::Int(i) => i.to_i64().unwrap(),
        other => panic!("non-integer lane {other:?}\n{text}"),
    })
}
