//! Unit tests of the float layer: the format table, the SEMANTICS.md
//! examples, overflow under each rounding mode, and the special operands.

use num_bigint::BigInt;

use super::*;
use FloatKind as K;

fn f(kind: FloatKind, bits: u128) -> Float {
    from_bits(kind, bits)
}

fn dec(kind: FloatKind, text: &str) -> Float {
    parse_decimal(kind, text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn cvt(a: Float, to: FloatKind, r: Round) -> Float {
    convert(a, to, r).unwrap_or_else(|e| panic!("{a:?}: {e}"))
}

fn f64v(x: f64) -> Float {
    f(K::F64, u128::from(x.to_bits()))
}

fn bits_of(kind: FloatKind, x: f64) -> u128 {
    cvt(f64v(x), kind, Round::NearestEven).bits
}

/// (format, largest finite, smallest normal, smallest positive) as f64.
const LIMITS: &[(FloatKind, f64, f64, f64)] = &[
    (K::F4E2M1FN, 6.0, 1.0, 0.5),
    (K::F6E2M3FN, 7.5, 1.0, 0.125),
    (K::F6E3M2FN, 28.0, 0.25, 0.0625),
    (K::F8E5M2, 57344.0, 6.103515625e-05, 1.52587890625e-05),
    (K::F8E4M3, 240.0, 0.015625, 0.001953125),
    (K::F8E4M3FN, 448.0, 0.015625, 0.001953125),
    (K::F8E5M2FNUZ, 57344.0, 3.0517578125e-05, 7.62939453125e-06),
    (K::F8E4M3FNUZ, 240.0, 0.0078125, 0.0009765625),
    (K::F8E4M3B11FNUZ, 30.0, 0.0009765625, 0.0001220703125),
    (K::F8E3M4, 15.5, 0.25, 0.015625),
    (K::F8E8M0FNU, 1.7014118346046923e38, 5.877471754111438e-39, 5.877471754111438e-39),
    (K::BF16, 3.3895313892515355e38, 1.1754943508222875e-38, 9.183549615799121e-41),
    (K::F16, 65504.0, 6.103515625e-05, 5.960464477539063e-08),
    (K::TF32, 3.4011621342146535e38, 1.1754943508222875e-38, 1.1479437019748901e-41),
    (K::F32, 3.4028234663852886e38, 1.1754943508222875e-38, 1.401298464324817e-45),
    (K::F64, f64::MAX, f64::MIN_POSITIVE, 5e-324),
];

#[test]
fn float_limits_of_every_format() {
    for &(kind, max, min_normal, min_pos) in LIMITS {
        let s = format::semantics(kind);
        assert_eq!(to_f64(f(kind, s.encode_max(false))), max, "{}", kind.name());
        assert_eq!(to_f64(f(kind, s.encode_fin(false, 1 << (s.precision - 1), s.min_lsb()))), min_normal);
        let smallest = if s.has_zero { 1 } else { 0 };
        assert_eq!(to_f64(f(kind, smallest)), min_pos, "{}", kind.name());
        assert!(is_normal(f(kind, s.encode_fin(false, 1 << (s.precision - 1), s.min_lsb()))));
    }
}

#[test]
fn float_wide_format_limits() {
    let s80 = format::semantics(K::F80);
    assert_eq!(s80.encode_max(false), 0x7FFE_FFFF_FFFF_FFFF_FFFF);
    assert_eq!({ nan(K::F80).bits }, 0x7FFF_C000_0000_0000_0000);
    assert_eq!(s80.encode_inf(true), 0xFFFF_8000_0000_0000_0000);
    let s128 = format::semantics(K::F128);
    assert_eq!(s128.encode_max(false), 0x7FFE_FFFF_FFFF_FFFF_FFFF_FFFF_FFFF_FFFF);
    assert_eq!({ nan(K::F128).bits }, 0x7FFF_8000_0000_0000_0000_0000_0000_0000);
    assert_eq!({ dec(K::F80, "1").bits }, 0x3FFF_8000_0000_0000_0000);
    assert_eq!({ dec(K::F128, "1").bits }, 0x3FFF_0000_0000_0000_0000_0000_0000_0000);
    assert_eq!({ dec(K::TF32, "1").bits }, 0x1FC00);
    assert_eq!({ nan(K::TF32).bits }, 0x3FE00);
}

#[test]
fn float_canonical_nans() {
    let expect: &[(FloatKind, u128)] = &[
        (K::F32, 0x7FC0_0000),
        (K::F64, 0x7FF8_0000_0000_0000),
        (K::F16, 0x7E00),
        (K::BF16, 0x7FC0),
        (K::F8E5M2, 0x7E),
        (K::F8E4M3, 0x7C),
        (K::F8E3M4, 0x78),
        (K::F8E4M3FN, 0x7F),
        (K::F8E4M3FNUZ, 0x80),
        (K::F8E5M2FNUZ, 0x80),
        (K::F8E4M3B11FNUZ, 0x80),
        (K::F8E8M0FNU, 0xFF),
    ];
    for &(kind, bits) in expect {
        assert_eq!({ nan(kind).bits }, bits, "{}", kind.name());
        assert!(is_nan(nan(kind)));
    }
    assert!(!has_nan(K::F4E2M1FN) && !is_nan(nan(K::F4E2M1FN)));
}

#[test]
fn float_semantics_md_e4m3fn() {
    assert_eq!(to_f64(dec(K::F8E4M3FN, "464")), 448.0);
    assert!(is_nan(dec(K::F8E4M3FN, "465")));
    assert_eq!({ dec(K::F8E4M3FN, "-465").bits }, 0xFF);
    assert!(is_nan(cvt(f64v(f64::INFINITY), K::F8E4M3FN, Round::NearestEven)));
    assert_eq!(to_f64(cvt(f64v(-431.99999999999994), K::F8E4M3FN, Round::NearestEven)), -416.0);
    assert_eq!(to_f64(f(K::F8E4M3FN, 1)), 2f64.powi(-9));
    // Directed rounding: the top binade's all-ones pattern is NaN, so 479
    // rounds down to 448 and anything that would reach 480 overflows.
    assert_eq!(to_f64(cvt(f64v(479.0), K::F8E4M3FN, Round::TowardZero)), 448.0);
    assert_eq!(to_f64(cvt(f64v(1e6), K::F8E4M3FN, Round::TowardZero)), 448.0);
    assert!(is_nan(cvt(f64v(449.0), K::F8E4M3FN, Round::Up)));
    assert_eq!(to_f64(cvt(f64v(-1e6), K::F8E4M3FN, Round::Up)), -448.0);
}

#[test]
fn float_semantics_md_e5m2_and_bf16() {
    assert_eq!(to_f64(dec(K::F8E5M2, "58000")), 57344.0);
    assert!(is_inf(dec(K::F8E5M2, "61440")));
    assert_eq!(to_f64(dec(K::F8E5M2, "61439")), 57344.0);
    assert_eq!(to_f64(cvt(f64v(1e9), K::F8E5M2, Round::TowardZero)), 57344.0);
    assert_eq!(to_f64(cvt(f64v(1e9), K::F8E5M2, Round::Down)), 57344.0);
    assert!(is_inf(cvt(f64v(57345.0), K::F8E5M2, Round::Up)));
    let x = 1.0 + 2f64.powi(-8) + 2f64.powi(-40);
    assert_eq!(to_f64(cvt(f64v(x), K::BF16, Round::NearestEven)), 1.0078125);
}

#[test]
fn float_semantics_md_fnuz() {
    for kind in [K::F8E4M3FNUZ, K::F8E5M2FNUZ, K::F8E4M3B11FNUZ] {
        assert_eq!({ cvt(f64v(-0.0), kind, Round::NearestEven).bits }, 0);
        assert!(is_nan(f(kind, 0x80)));
        assert_eq!({ cvt(f64v(-1e-30), kind, Round::NearestEven).bits }, 0, "tiny negatives give +0");
        assert_eq!({ cvt(f64v(f64::NEG_INFINITY), kind, Round::NearestEven).bits }, 0x80);
        assert_eq!({ neg(f(kind, 0)).bits }, 0);
        assert_eq!({ mul(f(kind, 0), f(kind, 0xB8), Round::NearestEven).bits }, 0);
    }
    assert!(is_nan(dec(K::F8E4M3FNUZ, "256")));
    assert_eq!(to_f64(cvt(f64v(256.0), K::F8E4M3FNUZ, Round::TowardZero)), 240.0);
}

#[test]
fn float_semantics_md_f4_f6() {
    assert_eq!(to_f64(dec(K::F4E2M1FN, "100")), 6.0);
    assert_eq!(to_f64(dec(K::F4E2M1FN, "-7")), -6.0);
    assert_eq!(to_f64(cvt(f64v(1e300), K::F6E3M2FN, Round::NearestEven)), 28.0);
    assert_eq!(convert(f64v(f64::NAN), K::F4E2M1FN, Round::NearestEven), Err(FloatError::NoNan(K::F4E2M1FN)));
    assert!(convert(f64v(f64::INFINITY), K::F6E2M3FN, Round::NearestEven).is_err());
    let v: Vec<f64> = (0..16).map(|b| to_f64(f(K::F4E2M1FN, b))).collect();
    assert_eq!(v[..8], [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0]);
    // Division by zero saturates (implementation-defined; APFloat crashes).
    assert_eq!(to_f64(div(f(K::F4E2M1FN, 2), f(K::F4E2M1FN, 0), Round::NearestEven)), 6.0);
}

#[test]
fn float_semantics_md_e8m0() {
    let k = K::F8E8M0FNU;
    assert!(is_nan(f(k, 0xFF)));
    assert!(is_nan(cvt(f(k, 0xFF), K::F32, Round::NearestEven)));
    assert_eq!(to_f64(f(k, 0)), 2f64.powi(-127));
    assert_eq!(to_f64(f(k, 127)), 1.0);
    assert_eq!(to_f64(dec(k, "1.5")), 2.0, "ties round up: the only significand bit is odd");
    assert_eq!(to_f64(dec(k, "1.4")), 1.0);
    assert_eq!(to_f64(dec(k, "3")), 4.0);
    assert!(parse_decimal(k, "0").is_err() && parse_decimal(k, "-2").is_err());
    let err = convert(f64v(-1.5), k, Round::NearestEven).err().map(|e| e.to_string());
    assert_eq!(err.as_deref(), Some("-1.5 is not representable in f8E8M0FNU (no zero, no sign)"));
    assert!(convert(f64v(-0.0), k, Round::NearestEven).is_err());
    assert!(from_int(&BigInt::from(-4), k, Round::NearestEven).is_err());
    assert_eq!({ cvt(f64v(2f64.powi(127)), k, Round::NearestEven).bits }, 0xFE);
    assert!(is_nan(cvt(f64v(2f64.powi(128)), k, Round::NearestEven)));
    assert_eq!({ cvt(f64v(1e-300), k, Round::NearestEven).bits }, 0);
    // a - a has no zero to land on: APFloat gives the smallest value.
    assert_eq!({ sub(f(k, 130), f(k, 130), Round::NearestEven).bits }, 0);
    assert!(is_nan(sub(f(k, 127), f(k, 130), Round::NearestEven)));
}

#[test]
fn float_subnormals_round_once() {
    // Half of the smallest E4M3FN subnormal ties to even (zero); above it
    // rounds up.
    assert_eq!(bits_of(K::F8E4M3FN, 2f64.powi(-10)), 0);
    assert_eq!(bits_of(K::F8E4M3FN, 2f64.powi(-10) * 1.0000001), 1);
    assert_eq!(bits_of(K::F8E4M3FN, 3.0 * 2f64.powi(-10)), 2);
    assert_eq!(bits_of(K::F16, -2f64.powi(-25)), 0x8000);
    assert_eq!({ cvt(f64v(2f64.powi(-30)), K::F16, Round::Up).bits }, 1);
    assert_eq!({ cvt(f64v(-2f64.powi(-30)), K::F16, Round::Up).bits }, 0x8000);
}

#[test]
fn float_decimal_literals() {
    assert_eq!({ dec(K::F32, "0.1").bits }, u128::from(0.1f32.to_bits()));
    assert_eq!({ dec(K::F64, "-1.5e-3").bits }, u128::from((-1.5e-3f64).to_bits()));
    assert_eq!({ dec(K::F64, "7").bits }, u128::from(7f64.to_bits()));
    assert_eq!({ dec(K::F64, "1.").bits }, u128::from(1f64.to_bits()));
    assert_eq!({ dec(K::F64, ".5").bits }, u128::from(0.5f64.to_bits()));
    assert_eq!({ dec(K::F64, "1e-400").bits }, 0);
    assert_eq!({ dec(K::F64, "-1e-99999999999").bits }, 1 << 63);
    assert!(is_inf(dec(K::F64, "1e99999999999")));
    assert_eq!({ dec(K::F64, "00000000000000000000000001e2").bits }, u128::from(100f64.to_bits()));
    // 2^-1075 plus a hair rounds up to the smallest subnormal.
    let hair = "2.4703282292062328e-324";
    assert_eq!({ dec(K::F64, hair).bits }, 1);
    assert_eq!({ dec(K::F64, "2.4703282292062327e-324").bits }, 0);
    let long = format!("1.{}1", "0".repeat(5000));
    assert_eq!({ dec(K::F64, &long).bits }, u128::from(1f64.to_bits()));
    for bad in ["", ".", "e5", "1e", "1e+", "--1", "1.2.3", "0x10", "1 "] {
        assert!(parse_decimal(K::F32, bad).is_err(), "{bad:?}");
    }
    assert!(is_nan(dec(K::F32, "nan")) && is_inf(dec(K::F32, "-inf")));
}

#[test]
fn float_nan_signs_follow_apfloat() {
    let k = K::F32;
    let neg_nan = f(k, 0xFFC0_0001);
    let one = dec(k, "1");
    let inf = dec(k, "inf");
    // The NaN operand's sign survives (lhs first), payload is canonical.
    assert_eq!({ sub(one, neg_nan, Round::NearestEven).bits }, 0xFFC0_0000);
    assert_eq!({ mul(neg_nan, one, Round::NearestEven).bits }, 0xFFC0_0000);
    assert_eq!({ add(f(k, 0x7F80_0001), neg_nan, Round::Down).bits }, 0x7FC0_0000);
    // Invalid operations give the positive default NaN.
    assert_eq!({ sub(inf, inf, Round::NearestEven).bits }, 0x7FC0_0000);
    assert_eq!({ mul(f(k, 0x8000_0000), inf, Round::NearestEven).bits }, 0x7FC0_0000);
    assert_eq!({ sqrt(dec(k, "-4"), Round::NearestEven).bits }, 0x7FC0_0000);
    assert_eq!({ fma(inf, f(k, 0), neg_nan, Round::NearestEven).bits }, 0x7FC0_0000);
    // NanOnly division by zero: NaN with the quotient's sign.
    assert_eq!({ div(f(K::F8E4M3FN, 0x38), f(K::F8E4M3FN, 0x80), Round::NearestEven).bits }, 0xFF);
}

#[test]
fn float_zero_signs() {
    let k = K::F16;
    let (one, pz, nz) = (dec(k, "1"), f(k, 0), f(k, 0x8000));
    assert_eq!({ sub(one, one, Round::NearestEven).bits }, 0);
    assert_eq!({ sub(one, one, Round::Down).bits }, 0x8000);
    assert_eq!({ add(nz, nz, Round::NearestEven).bits }, 0x8000);
    assert_eq!({ add(nz, pz, Round::NearestEven).bits }, 0);
    assert_eq!({ sqrt(nz, Round::NearestEven).bits }, 0x8000);
    assert_eq!({ fma(one, nz, nz, Round::NearestEven).bits }, 0x8000);
    assert_eq!({ fma(one, one, neg(one), Round::Down).bits }, 0x8000);
    assert_eq!({ round_to_integral(dec(k, "-0.25"), Round::Up).bits }, 0x8000);
}

#[test]
fn float_rem_is_fmod() {
    let k = K::F32;
    let r = |a: &str, b: &str| to_f64(rem(dec(k, a), dec(k, b)));
    assert_eq!(r("25152", "39040"), 25152.0);
    assert_eq!(r("7668", "25152"), 7668.0);
    assert_eq!(r("-7.5", "2"), -1.5);
    assert_eq!(r("7.5", "-2"), 1.5);
    assert_eq!({ rem(dec(k, "-4"), dec(k, "2")).bits }, 0x8000_0000);
    assert_eq!(r("1e38", "3"), (1e38f32 % 3.0) as f64);
    assert!(is_nan(rem(dec(k, "1"), f(k, 0))));
    assert_eq!(r("1", "inf"), 1.0);
    let d = |a: f64, b: f64| to_f64(rem(f64v(a), f64v(b)));
    assert_eq!(d(1e308, 3e-308), 1e308 % 3e-308);
    assert_eq!(d(5e-324, 1e308), 5e-324);
}

#[test]
fn float_integers() {
    let k = K::F32;
    let i = |x: &str, w: u32, s: bool| to_int(dec(k, x), w, s);
    assert_eq!(i("-0.5", 8, false), Some(BigInt::from(0)));
    assert_eq!(i("-1", 8, false), None);
    assert_eq!(i("255.9", 8, false), Some(BigInt::from(255)));
    assert_eq!(i("256", 8, false), None);
    assert_eq!(i("-128.7", 8, true), Some(BigInt::from(-128)));
    assert_eq!(i("-129", 8, true), None);
    assert_eq!(i("127.99", 8, true), Some(BigInt::from(127)));
    assert_eq!(i("nan", 32, true), None);
    assert_eq!(i("-inf", 64, true), None);
    assert_eq!(i("1e30", 128, false), Some(BigInt::from(1_000_000_015_047_466_219_876_688_855_040u128)));
    let big = BigInt::from(u128::MAX);
    assert!(is_inf(from_int(&big, K::F32, Round::NearestEven).unwrap_or(nan(k))));
    assert_eq!(to_f64(from_int(&big, K::F64, Round::TowardZero).unwrap_or(nan(k))), 2f64.powi(128) - 2f64.powi(75));
    assert_eq!(from_int(&BigInt::from(16_777_217), k, Round::NearestEven), Ok(dec(k, "16777216")));
    assert_eq!(from_int(&BigInt::from(16_777_217), k, Round::Up), Ok(dec(k, "16777218")));
    assert_eq!(to_f64(from_int(&BigInt::from(-1000), K::F4E2M1FN, Round::NearestEven).unwrap_or(nan(k))), -6.0);
}

#[test]
fn float_round_to_integral_modes() {
    let k = K::BF16;
    let r = |x: &str, m: Round| to_f64(round_to_integral(dec(k, x), m));
    assert_eq!(r("2.5", Round::NearestEven), 2.0);
    assert_eq!(r("2.5", Round::NearestAway), 3.0);
    assert_eq!(r("-2.5", Round::NearestAway), -3.0);
    assert_eq!(r("-2.5", Round::Down), -3.0);
    assert_eq!(r("-2.5", Round::Up), -2.0);
    assert_eq!(r("2.75", Round::TowardZero), 2.0);
    assert_eq!(r("0.5", Round::NearestEven), 0.0);
    assert_eq!(r("1e30", Round::Up), to_f64(dec(k, "1e30")));
    assert!(is_nan(round_to_integral(nan(k), Round::Up)));
    assert_eq!(to_f64(round_to_integral(f(K::F4E2M1FN, 0x3), Round::NearestEven)), 2.0);
}

#[test]
fn float_compare_and_predicates() {
    let k = K::F8E4M3;
    assert_eq!(compare(f(k, 0), f(k, 0x80)), Ordering::Equal);
    assert_eq!(compare(dec(k, "-1"), dec(k, "0.5")), Ordering::Less);
    assert_eq!(compare(dec(k, "-inf"), dec(k, "-240")), Ordering::Less);
    assert_eq!(compare(f(k, 1), f(k, 2)), Ordering::Less);
    assert_eq!(compare(dec(k, "8"), f(k, 1)), Ordering::Greater);
    assert_eq!(compare(nan(k), nan(k)), Ordering::Unordered);
    assert!(!is_normal(f(k, 1)) && is_normal(f(k, 8)) && !is_normal(f(k, 0)));
    assert!(is_negative(f(k, 0x80)) && !is_negative(f(K::F8E4M3FNUZ, 0x80)));
    assert_eq!({ abs(f(k, 0xC0)).bits }, 0x40);
    assert_eq!({ neg(f(k, 0x40)).bits }, 0xC0);
    assert_eq!({ from_bits(K::F4E2M1FN, 0xFF).bits }, 0xF);
    assert!(is_nan(neg(f(K::F8E8M0FNU, 3))));
    // Pseudo-denormals, unnormals and pseudo-NaNs of x87.
    assert!(is_nan(f(K::F80, 0x4000_0000_0000_0000_0001)));
    assert!(is_nan(f(K::F80, 0x7FFF_0000_0000_0000_0000)));
    assert_eq!(to_f64(f(K::F80, 0x0000_8000_0000_0000_0000)), 0.0);
}

#[test]
fn float_arith_small_formats() {
    let k = K::F8E4M3FN;
    let g = |x: &str| dec(k, x);
    assert!(is_nan(add(g("448"), g("448"), Round::NearestEven)));
    assert_eq!(to_f64(add(g("448"), g("448"), Round::TowardZero)), 448.0);
    assert_eq!(to_f64(mul(g("3"), g("0.5"), Round::NearestEven)), 1.5);
    assert_eq!(to_f64(div(g("1"), g("3"), Round::NearestEven)), 0.34375);
    assert_eq!(to_f64(div(g("1"), g("3"), Round::Up)), 0.34375);
    assert_eq!(to_f64(div(g("1"), g("3"), Round::Down)), 0.3125);
    assert_eq!(to_f64(sqrt(g("2"), Round::NearestEven)), 1.375);
    assert_eq!(to_f64(sqrt(g("2"), Round::Down)), 1.375);
    assert_eq!(to_f64(sqrt(g("2"), Round::Up)), 1.5);
    assert_eq!(to_f64(fma(g("3"), g("3"), g("-8"), Round::NearestEven)), 1.0);
    // f64 arithmetic in other modes goes through the exact path.
    let one = f64v(1.0);
    let tiny = f64v(2f64.powi(-60));
    assert_eq!({ add(one, tiny, Round::Up).bits }, u128::from(1f64.to_bits() + 1));
    assert_eq!({ sub(one, tiny, Round::TowardZero).bits }, u128::from(1f64.to_bits() - 1));
}

/// The host shortcuts of `compare`, `is_nan`, `is_zero` and `is_negative`
/// on f32/f64 agree with decoding the encodings, on the special values
/// and their neighbours.
#[test]
fn host_classification_matches_decoding() {
    let edges32: Vec<u128> = [
        0u32,
        1,
        0x007F_FFFF,
        0x0080_0000,
        0x3F80_0000,
        0x7F7F_FFFF,
        0x7F80_0000,
        0x7F80_0001,
        0x7FC0_0000,
        0x7FFF_FFFF,
    ]
    .iter()
    .flat_map(|b| [*b, b | 0x8000_0000])
    .map(u128::from)
    .collect();
    let edges64: Vec<u128> = [
        0u64,
        1,
        0x000F_FFFF_FFFF_FFFF,
        0x3FF0_0000_0000_0000,
        0x7FF0_0000_0000_0000,
        0x7FF0_0000_0000_0001,
        0x7FF8_0000_0000_0000,
    ]
    .iter()
    .flat_map(|b| [*b, b | 1 << 63])
    .map(u128::from)
    .collect();
    for (k, edges) in [(K::F32, edges32), (K::F64, edges64)] {
        for &x in &edges {
            let a = f(k, x);
            assert_eq!(is_nan(a), matches!(val(a), Val::Nan { .. }), "{x:#x}");
            assert_eq!(is_zero(a), matches!(val(a), Val::Zero { .. }), "{x:#x}");
            let neg = match val(a) {
                Val::Nan { neg } | Val::Inf { neg } | Val::Zero { neg } | Val::Fin { neg, .. } => neg,
            };
            assert_eq!(is_negative(a), neg, "{x:#x}");
            for &y in &edges {
                let b = f(k, y);
                // The decoding path compare takes for every other format.
                let want = match (key(val(a)), key(val(b))) {
                    (Some(p), Some(q)) => match cmp_keys(p, q) {
                        std::cmp::Ordering::Less => Ordering::Less,
                        std::cmp::Ordering::Equal => Ordering::Equal,
                        std::cmp::Ordering::Greater => Ordering::Greater,
                    },
                    _ => Ordering::Unordered,
                };
                assert_eq!(compare(a, b), want, "{} {x:#x} vs {y:#x}", k.name());
            }
        }
    }
}

/// The host's integer-to-float conversion agrees with the exact one on
/// the integers where rounding matters (ties around 2^24 and 2^53, the
/// extremes) and on a spread of others.
#[test]
fn host_int_to_float_matches_exact_rounding() {
    let mut vals: Vec<u64> = vec![0, 1, u64::MAX, i64::MAX as u64, i64::MIN as u64, 3 << 62];
    for base in [1u64 << 24, 1 << 25, 1 << 53, 1 << 54, 1 << 63] {
        for d in 0..6u64 {
            vals.extend([base + d, base - d, base.wrapping_neg().wrapping_add(d)]);
        }
    }
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..2000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        vals.push(x >> (x % 64));
    }
    for v in vals {
        for (k, signed) in [(K::F32, true), (K::F32, false), (K::F64, true), (K::F64, false)] {
            let exact = if signed { BigInt::from(v as i64) } else { BigInt::from(v) };
            let want = from_int(&exact, k, Round::NearestEven).unwrap();
            assert_eq!(host::from_word(k, v, signed), Some(want.bits), "{v:#x} {} signed {signed}", k.name());
        }
    }
}
