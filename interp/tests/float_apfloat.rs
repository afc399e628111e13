//! The float layer against `rustc_apfloat` (the Rust port of LLVM's
//! APFloat) for the formats it implements: f16, bf16, f32, f64, f80, f128,
//! f8E5M2 and f8E4M3FN. Random operands biased toward the edges (zeros,
//! subnormals, the top binade, near-equal exponents), every rounding mode,
//! bit-for-bit equality except that NaNs compare as a class.
//!
//! One known rustc_apfloat bug is tolerated: its `overflow_result` ignores
//! the sign, so a negative overflow rounds toward -inf to the largest
//! finite value and toward +inf to -inf, the reverse of LLVM's
//! `handleOverflow` and IEEE 754 (which mlir-interp follows). For negative
//! overflow-like results under Up/Down either answer is accepted.

use mlir_interp::float::{self, format::semantics, Float, FloatKind, Round};
use num_bigint::BigInt;
use proptest::prelude::*;
use rustc_apfloat::ieee::{BFloat, Double, Float8E4M3FN, Float8E5M2, Half, Quad, Single, X87DoubleExtended};
use rustc_apfloat::{Float as Ap, FloatConvert, Round as ApRound, Status};

fn ap_round(r: Round) -> ApRound {
    match r {
        Round::NearestEven => ApRound::NearestTiesToEven,
        Round::Down => ApRound::TowardNegative,
        Round::Up => ApRound::TowardPositive,
        Round::TowardZero => ApRound::TowardZero,
        Round::NearestAway => ApRound::NearestTiesToAway,
    }
}

fn rounding() -> impl Strategy<Value = Round> {
    prop_oneof![
        Just(Round::NearestEven),
        Just(Round::Down),
        Just(Round::Up),
        Just(Round::TowardZero),
        Just(Round::NearestAway),
    ]
}

/// Bit patterns of `kind`, biased toward the edges of the format.
fn bits(kind: FloatKind) -> impl Strategy<Value = u128> {
    let s = semantics(kind);
    let man_bits = s.precision - 1 + u32::from(s.explicit_int);
    let top = (1u128 << (s.bits - 1 - man_bits)) - 1;
    let bias = u128::try_from(1 - s.min_exp).unwrap_or(1);
    let field = prop_oneof![bias - 3..bias + 3, 0..3u128, top - 3..=top, 0..=top];
    let man_mask = (1u128 << man_bits) - 1;
    let man = prop_oneof![Just(0u128), Just(man_mask), any::<u128>().prop_map(move |m| m & man_mask)];
    (any::<bool>(), field, man).prop_map(move |(neg, e, m)| {
        let m = if s.explicit_int && e != 0 { m | 1 << 63 } else { m };
        (u128::from(neg) << (s.bits - 1)) | (e << man_bits) | m
    })
}

/// Ours equals APFloat's bits, or both are NaN.
fn same(kind: FloatKind, ours: Float, theirs: u128) -> bool {
    let t = float::from_bits(kind, theirs);
    if float::is_nan(t) {
        float::is_nan(ours)
    } else {
        ours.bits == t.bits
    }
}

/// Like [`same`], tolerating rustc_apfloat's sign-blind overflow (see the
/// module docs).
fn same_r(kind: FloatKind, ours: Float, theirs: u128, r: Round) -> bool {
    let s = semantics(kind);
    let t = float::from_bits(kind, theirs);
    let overflowish =
        |x: Float| float::is_negative(x) && (x.bits == s.encode_max(true) || float::is_inf(x) || float::is_nan(x));
    let directed = matches!(r, Round::Up | Round::Down);
    if directed && overflowish(t) {
        overflowish(ours) || float::is_nan(ours) && float::is_nan(t)
    } else {
        same(kind, ours, theirs)
    }
}

fn check_arith<T: Ap>(kind: FloatKind, a: u128, b: u128, c: u128, r: Round) -> Result<(), TestCaseError> {
    let (x, y, z) = (float::from_bits(kind, a), float::from_bits(kind, b), float::from_bits(kind, c));
    let (p, q, w) = (T::from_bits(a), T::from_bits(b), T::from_bits(c));
    let m = ap_round(r);
    let ctx = format!("{} {a:#x} {b:#x} {c:#x} {r:?}", kind.name());
    prop_assert!(same_r(kind, float::add(x, y, r), p.add_r(q, m).value.to_bits(), r), "add {}", ctx);
    prop_assert!(same_r(kind, float::sub(x, y, r), p.sub_r(q, m).value.to_bits(), r), "sub {}", ctx);
    prop_assert!(same_r(kind, float::mul(x, y, r), p.mul_r(q, m).value.to_bits(), r), "mul {}", ctx);
    prop_assert!(same_r(kind, float::div(x, y, r), p.div_r(q, m).value.to_bits(), r), "div {}", ctx);
    prop_assert!(same_r(kind, float::fma(x, y, z, r), p.mul_add_r(q, w, m).value.to_bits(), r), "fma {}", ctx);
    prop_assert!(same(kind, float::rem(x, y), p.c_fmod(q).value.to_bits()), "rem {}", ctx);
    let rti = p.round_to_integral(m).value.to_bits();
    prop_assert!(same(kind, float::round_to_integral(x, r), rti), "round_to_integral {}", ctx);
    let cmp = match p.partial_cmp(&q) {
        None => float::Ordering::Unordered,
        Some(std::cmp::Ordering::Less) => float::Ordering::Less,
        Some(std::cmp::Ordering::Equal) => float::Ordering::Equal,
        Some(std::cmp::Ordering::Greater) => float::Ordering::Greater,
    };
    prop_assert_eq!(float::compare(x, y), cmp, "compare {}", ctx);
    check_to_int(kind, x, p, &ctx)
}

fn check_to_int<T: Ap>(kind: FloatKind, x: Float, p: T, ctx: &str) -> Result<(), TestCaseError> {
    // (rustc_apfloat overflows a shift for signed width 1.)
    for width in [2usize, 8, 32, 64, 128] {
        let w = u32::try_from(width).unwrap_or(0);
        let s = p.to_i128_r(width, ApRound::TowardZero, &mut true);
        let want = (s.status & Status::INVALID_OP).is_empty().then(|| BigInt::from(s.value));
        prop_assert_eq!(float::to_int(x, w, true), want, "to_int i{} {}", width, ctx);
        let width = width - usize::from(width == 2);
        let w = u32::try_from(width).unwrap_or(0);
        let u = p.to_u128_r(width, ApRound::TowardZero, &mut true);
        let want = (u.status & Status::INVALID_OP).is_empty().then(|| BigInt::from(u.value));
        prop_assert_eq!(float::to_int(x, w, false), want, "to_int u{} {} {}", width, kind.name(), ctx);
    }
    Ok(())
}

fn check_convert<S: Ap + FloatConvert<T>, T: Ap>(
    from: FloatKind,
    to: FloatKind,
    a: u128,
    r: Round,
) -> Result<(), TestCaseError> {
    let x = float::from_bits(from, a);
    let want = S::from_bits(a).convert_r(ap_round(r), &mut false).value.to_bits();
    let got = float::convert(x, to, r);
    prop_assert!(got.is_ok(), "{:?}", got);
    let got = got.unwrap_or(float::nan(to));
    prop_assert!(
        same_r(to, got, want, r),
        "convert {} {a:#x} -> {} {r:?}: {:#x} vs {want:#x}",
        from.name(),
        to.name(),
        { got.bits }
    );
    Ok(())
}

/// Converts `a` of `$from` to every other APFloat format.
macro_rules! convert_all {
    ($S:ty, $from:expr, $a:expr, $r:expr) => {{
        check_convert::<$S, Half>($from, FloatKind::F16, $a, $r)?;
        check_convert::<$S, BFloat>($from, FloatKind::BF16, $a, $r)?;
        check_convert::<$S, Single>($from, FloatKind::F32, $a, $r)?;
        check_convert::<$S, Double>($from, FloatKind::F64, $a, $r)?;
        check_convert::<$S, X87DoubleExtended>($from, FloatKind::F80, $a, $r)?;
        check_convert::<$S, Quad>($from, FloatKind::F128, $a, $r)?;
        check_convert::<$S, Float8E5M2>($from, FloatKind::F8E5M2, $a, $r)?;
        check_convert::<$S, Float8E4M3FN>($from, FloatKind::F8E4M3FN, $a, $r)?;
    }};
}

/// One proptest per APFloat format: arithmetic and conversions.
macro_rules! oracle {
    ($name:ident, $T:ty, $kind:expr) => {
        proptest! {
            #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]
            #[test]
            fn $name(a in bits($kind), b in bits($kind), c in bits($kind), r in rounding()) {
                check_arith::<$T>($kind, a, b, c, r)?;
                convert_all!($T, $kind, a, r);
            }
        }
    };
}

oracle!(float_apfloat_f16, Half, FloatKind::F16);
oracle!(float_apfloat_bf16, BFloat, FloatKind::BF16);
oracle!(float_apfloat_f32, Single, FloatKind::F32);
oracle!(float_apfloat_f64, Double, FloatKind::F64);
oracle!(float_apfloat_f80, X87DoubleExtended, FloatKind::F80);
oracle!(float_apfloat_f128, Quad, FloatKind::F128);
oracle!(float_apfloat_f8e5m2, Float8E5M2, FloatKind::F8E5M2);
oracle!(float_apfloat_f8e4m3fn, Float8E4M3FN, FloatKind::F8E4M3FN);

/// Decimal literals: `digits[.digits]e[-]exp`, long and short.
fn literal() -> impl Strategy<Value = String> {
    ("[0-9]{1,40}", "[0-9]{0,30}", -5000i32..5000, any::<bool>(), any::<bool>()).prop_map(|(i, f, e, neg, dot)| {
        let sign = if neg { "-" } else { "" };
        let e = if e.abs() < 4000 { e % 400 } else { e };
        if dot {
            format!("{sign}{i}.{f}e{e}")
        } else {
            format!("{sign}{i}{f}e{e}")
        }
    })
}

fn check_parse<T: Ap>(kind: FloatKind, text: &str) -> Result<(), TestCaseError> {
    let want = T::from_str_r(text, ApRound::NearestTiesToEven).map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
    let got = float::parse_decimal(kind, text).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert!(
        same(kind, got, want.value.to_bits()),
        "{} {text}: {:#x} vs {:#x}",
        kind.name(),
        { got.bits },
        want.value.to_bits()
    );
    Ok(())
}

fn check_from_int<T: Ap>(kind: FloatKind, v: i128, r: Round) -> Result<(), TestCaseError> {
    let want = T::from_i128_r(v, ap_round(r)).value.to_bits();
    let got = float::from_int(&BigInt::from(v), kind, r).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert!(same_r(kind, got, want, r), "{} {v} {r:?}", kind.name());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, failure_persistence: None, ..ProptestConfig::default() })]
    #[test]
    fn float_apfloat_decimal_literals(text in literal()) {
        check_parse::<Half>(FloatKind::F16, &text)?;
        check_parse::<BFloat>(FloatKind::BF16, &text)?;
        check_parse::<Single>(FloatKind::F32, &text)?;
        check_parse::<Double>(FloatKind::F64, &text)?;
        check_parse::<X87DoubleExtended>(FloatKind::F80, &text)?;
        check_parse::<Quad>(FloatKind::F128, &text)?;
        check_parse::<Float8E5M2>(FloatKind::F8E5M2, &text)?;
        check_parse::<Float8E4M3FN>(FloatKind::F8E4M3FN, &text)?;
    }

    #[test]
    fn float_apfloat_from_int(v in prop_oneof![any::<i128>(), any::<i64>().prop_map(i128::from), -70000i128..70000], r in rounding()) {
        check_from_int::<Half>(FloatKind::F16, v, r)?;
        check_from_int::<BFloat>(FloatKind::BF16, v, r)?;
        check_from_int::<Single>(FloatKind::F32, v, r)?;
        check_from_int::<Double>(FloatKind::F64, v, r)?;
        check_from_int::<X87DoubleExtended>(FloatKind::F80, v, r)?;
        check_from_int::<Quad>(FloatKind::F128, v, r)?;
        check_from_int::<Float8E5M2>(FloatKind::F8E5M2, v, r)?;
        check_from_int::<Float8E4M3FN>(FloatKind::F8E4M3FN, v, r)?;
    }
}

/// Pairs whose product lands around the subnormal range of `kind` (the
/// rounding point moves into the low bits of a double-width product).
fn tiny_product(kind: FloatKind) -> impl Strategy<Value = (u128, u128)> {
    let s = semantics(kind);
    let man_bits = s.precision - 1 + u32::from(s.explicit_int);
    let bias = i64::from(1 - s.min_exp);
    let p = i64::from(s.precision);
    let man_mask = (1u128 << man_bits) - 1;
    (1..bias, -3..p + 3, any::<u128>(), any::<u128>(), any::<bool>()).prop_map(move |(e1, k, m1, m2, neg)| {
        let e2 = bias + (i64::from(s.min_exp) - p + k) - (e1 - bias);
        let int = if s.explicit_int { 1u128 << 63 } else { 0 };
        let pack = |e: i64, m: u128| (u128::try_from(e).unwrap_or(1) << man_bits) | (m & man_mask) | int;
        (pack(e1, m1) | u128::from(neg) << (s.bits - 1), pack(e2, m2))
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]
    #[test]
    fn float_apfloat_tiny_products(
        (a, b) in tiny_product(FloatKind::F80),
        (c, d) in tiny_product(FloatKind::F128),
        (g, h) in tiny_product(FloatKind::F64),
        r in rounding(),
    ) {
        check_arith::<X87DoubleExtended>(FloatKind::F80, a, b, a, r)?;
        check_arith::<Quad>(FloatKind::F128, c, d, c, r)?;
        check_arith::<Double>(FloatKind::F64, g, h, g, r)?;
    }
}
