//! The comb dialect against independent references: every row of
//! `fixtures/comb/refs.tsv` (CIRCT's constant folder for the ops CIRCT
//! shares, hand-derived formulas for HEIR's own ops; recorded by
//! `tools/comb_refs/record.py`) becomes `func.func @f` around the row's op,
//! called through the library API with the row's arguments.

use mlir_interp::exec::{Config, Engine};
use mlir_interp::value::{Int, Scalar, Value};
use mlir_ir::diag::Source;
use num_bigint::BigInt;

fn width(ty: &str) -> u32 {
    ty.trim_start_matches(['i', 'u', 's']).parse().expect("integer type")
}

fn result_type(op: &str) -> String {
    if op.starts_with("comb.icmp") || op.starts_with("comb.parity") || op.starts_with("comb.truth_table") {
        return "i1".into();
    }
    let tail = op.rsplit(':').next().unwrap_or("").trim();
    if op.starts_with("comb.concat") {
        return format!("i{}", tail.split(',').map(|t| width(t.trim())).sum::<u32>());
    }
    match tail.rsplit_once("->") {
        Some((_, r)) => r.trim().to_string(),
        None => tail.split(',').next().unwrap_or("").trim().to_string(),
    }
}

#[test]
fn comb_matches_circt_and_hand_derived_tables() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/comb/refs.tsv")).unwrap();
    let (mut checked, mut failures) = (0, Vec::new());
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let cols: Vec<&str> = line.split('\t').collect();
        let [source, op, tys, args, want] = cols[..] else { panic!("bad row: {line}") };
        let tys: Vec<&str> = tys.split(',').collect();
        let rty = result_type(op);
        let params: Vec<String> = tys.iter().enumerate().map(|(i, t)| format!("%a{i}: {t}")).collect();
        let module = format!("func.func @f({}) -> {rty} {{\n  %r = {op}\n  return %r : {rty}\n}}\n", params.join(", "));
        let src = Source::new("row.mlir", &module);
        let m = mlir_ir::parse_and_verify(&src).unwrap_or_else(|d| panic!("{}", d.render(&src)));
        let vals: Vec<Value> = args
            .split(',')
            .zip(&tys)
            .map(|(a, t)| Value::int(Int::from_big(width(t), &BigInt::parse_bytes(a.as_bytes(), 16).unwrap())))
            .collect();
        let mut e = Engine::load(&m, Config::default(), Box::new(std::io::sink())).unwrap();
        let got = match e.invoke("f", vals) {
            Ok(v) => match v.first().and_then(Value::scalar) {
                Some(Scalar::Int(i)) => format!("{:x}", i.to_ubig()),
                other => format!("{other:?}"),
            },
            Err(err) if matches!(err.kind, mlir_interp::error::ErrorKind::Ub(_)) => "UB".into(),
            Err(err) => format!("error: {err}"),
        };
        checked += 1;
        if got != want {
            failures.push(format!("[{source}] {op} with ({args}): expected {want}, got {got}"));
        }
    }
    assert!(checked > 2000, "only {checked} rows");
    assert!(failures.is_empty(), "{} of {checked} rows differ:\n{}", failures.len(), failures.join("\n"));
}
