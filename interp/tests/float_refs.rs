//! The float layer against tables recorded from ml_dtypes by
//! `tools/float_refs/record.py` (see its header for how they were made and
//! where ml_dtypes and APFloat disagree): every encoding of every format of
//! 8 bits or fewer, the rounding midpoints, and every operand pair of
//! add/sub/mul/div for the fp8 formats. The rounded tables hold the exact
//! single rounding, which the script checked against ml_dtypes' casts and
//! listed where ml_dtypes double-rounds.

use std::path::PathBuf;

use mlir_interp::float::{self, Float, FloatKind, Round};

fn fixture(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fixtures/float").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Data lines, split on spaces, with the format resolved.
fn rows(text: &str) -> impl Iterator<Item = (FloatKind, Vec<&str>)> {
    text.lines().filter(|l| !l.starts_with('#') && !l.is_empty()).map(|l| {
        let mut words = l.split(' ');
        let name = words.next().unwrap_or_default();
        let kind = FloatKind::from_name(name).unwrap_or_else(|| panic!("unknown format {name}"));
        (kind, words.collect())
    })
}

fn hex(s: &str) -> u128 {
    u128::from_str_radix(s, 16).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn f64_of(s: &str) -> f64 {
    f64::from_bits(hex(s) as u64)
}

#[test]
fn float_decode_every_small_encoding() {
    let mut formats = 0;
    for (kind, values) in rows(&fixture("decode.txt")) {
        assert_eq!(values.len(), 1 << kind.bit_width(), "{}", kind.name());
        for (bits, want) in values.iter().enumerate() {
            let x = float::from_bits(kind, bits as u128);
            if *want == "nan" {
                assert!(float::is_nan(x), "{} {bits:#x} should be NaN", kind.name());
            } else {
                let got = float::to_f64(x);
                assert_eq!(got.to_bits(), hex(want) as u64, "{} {bits:#x}: {got}", kind.name());
            }
        }
        formats += 1;
    }
    assert_eq!(formats, 11);
}

/// Whether an error is one of the documented disagreements: inf into a
/// format without inf or NaN, zero or negative into f8E8M0FNU.
fn expected_error(kind: FloatKind, x: f64) -> bool {
    let s = float::format::semantics(kind);
    (!float::has_nan(kind) && !x.is_finite()) || (!s.has_zero && x <= 0.0)
}

/// The columns of `round.txt`.
const MODES: [Round; 5] = [Round::NearestEven, Round::Down, Round::Up, Round::TowardZero, Round::NearestAway];

#[test]
fn float_round_midpoints_every_mode() {
    let mut checked = 0;
    for (kind, w) in rows(&fixture("round.txt")) {
        let x = f64_of(w[0]);
        let input = float::from_bits(FloatKind::F64, u128::from(x.to_bits()));
        assert_eq!(w.len(), 1 + MODES.len());
        for (mode, want) in MODES.iter().zip(&w[1..]) {
            let ctx = || format!("{} {x:e} {mode:?}", kind.name());
            match float::convert(input, kind, *mode) {
                Err(e) => assert!(expected_error(kind, x), "{}: {e}", ctx()),
                Ok(got) if *want == "nan" => assert!(float::is_nan(got), "{}: {got:?}", ctx()),
                Ok(got) => assert_eq!({ got.bits }, hex(want), "{}", ctx()),
            }
            checked += 1;
        }
    }
    assert!(checked > 10000);
}

type Op = fn(Float, Float, Round) -> Float;

#[test]
fn float_fp8_arith_every_pair_like_ml_dtypes() {
    let ops: [(&str, Op); 4] = [("add", float::add), ("sub", float::sub), ("mul", float::mul), ("div", float::div)];
    let fp8 = FloatKind::ALL.iter().filter(|k| k.bit_width() == 8);
    for &kind in fp8 {
        for (name, op) in ops {
            check_table(kind, name, op);
        }
    }
}

fn check_table(kind: FloatKind, name: &str, op: Op) {
    let text = fixture(&format!("arith/{}.{name}.txt", kind.name()));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 256);
    for (a, line) in lines.iter().enumerate() {
        for b in 0..256usize {
            let want = hex(&line[2 * b..2 * b + 2]);
            let (x, y) = (float::from_bits(kind, a as u128), float::from_bits(kind, b as u128));
            let got = op(x, y, Round::NearestEven);
            let ctx = || format!("{} {name} {a:#04x} {b:#04x}", kind.name());
            if float::is_nan(float::from_bits(kind, want)) {
                assert!(float::is_nan(got), "{}: want NaN, got {:#04x}", ctx(), { got.bits });
            } else {
                assert_eq!({ got.bits }, want, "{}", ctx());
            }
        }
    }
}
