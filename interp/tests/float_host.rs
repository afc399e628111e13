//! The float layer against the host FPU and the `half` crate.
//!
//! - f32/f64 add/sub/mul/div/sqrt/fma agree bit-for-bit with the host
//!   (IEEE 754, nearest-even), through both the public entry points (host
//!   fast path) and `float::exact` (the big-integer path); NaNs compare as a
//!   class.
//! - f16/bf16: every encoding widens like `half`'s `to_f32`, and f32 values
//!   round like `half`'s `from_f32`, which is correctly rounded (it keeps a
//!   sticky bit over all 32 bits). `half`'s `from_f64` is not: it drops the
//!   low 32 bits of the f64 first, so f64 -> f16/bf16 is checked against
//!   rustc_apfloat in `float_apfloat.rs` instead.
//! - tf32 (no reference library): f32 -> tf32 against the bit-level carry
//!   trick, tf32 -> f32 exact.

use half::{bf16, f16};
use mlir_interp::float::{self, exact, Float, FloatKind, Round};
use proptest::prelude::*;

const NE: Round = Round::NearestEven;

fn f32v(x: f32) -> Float {
    float::from_bits(FloatKind::F32, u128::from(x.to_bits()))
}

fn f64v(x: f64) -> Float {
    float::from_bits(FloatKind::F64, u128::from(x.to_bits()))
}

fn same32(ours: Float, host: f32) -> bool {
    if host.is_nan() {
        float::is_nan(ours)
    } else {
        ours.bits == u128::from(host.to_bits())
    }
}

fn same64(ours: Float, host: f64) -> bool {
    if host.is_nan() {
        float::is_nan(ours)
    } else {
        ours.bits == u128::from(host.to_bits())
    }
}

/// f32 patterns: anything, or exponents close together (cancellation,
/// ties) and near the subnormal and overflow edges.
fn any_f32() -> impl Strategy<Value = f32> {
    let near = (any::<bool>(), 120u32..135, any::<u32>()).prop_map(|(s, e, m)| pack32(s, e, m));
    let edge = (any::<bool>(), prop_oneof![0u32..3, 250u32..256], any::<u32>()).prop_map(|(s, e, m)| pack32(s, e, m));
    prop_oneof![any::<u32>().prop_map(f32::from_bits), near, edge]
}

fn pack32(neg: bool, e: u32, m: u32) -> f32 {
    f32::from_bits((u32::from(neg) << 31) | (e << 23) | (m & 0x7F_FFFF))
}

fn any_f64() -> impl Strategy<Value = f64> {
    let near = (any::<bool>(), 1015u64..1030, any::<u64>()).prop_map(|(s, e, m)| pack64(s, e, m));
    let edge = (any::<bool>(), prop_oneof![0u64..3, 2040u64..2048], any::<u64>()).prop_map(|(s, e, m)| pack64(s, e, m));
    prop_oneof![any::<u64>().prop_map(f64::from_bits), near, edge]
}

fn pack64(neg: bool, e: u64, m: u64) -> f64 {
    f64::from_bits((u64::from(neg) << 63) | (e << 52) | (m & 0xF_FFFF_FFFF_FFFF))
}

fn check32(a: f32, b: f32, c: f32) -> Result<(), TestCaseError> {
    let (x, y, z) = (f32v(a), f32v(b), f32v(c));
    let ctx = format!("{a:e} {b:e} {c:e}");
    for (ours, host, name) in [
        (float::add(x, y, NE), a + b, "add"),
        (exact::add_sub_exact(x, y, NE, false), a + b, "exact add"),
        (float::sub(x, y, NE), a - b, "sub"),
        (exact::add_sub_exact(x, y, NE, true), a - b, "exact sub"),
        (float::mul(x, y, NE), a * b, "mul"),
        (exact::mul_exact(x, y, NE), a * b, "exact mul"),
        (float::div(x, y, NE), a / b, "div"),
        (exact::div_exact(x, y, NE), a / b, "exact div"),
        (float::sqrt(x, NE), a.sqrt(), "sqrt"),
        (exact::sqrt_exact(x, NE), a.sqrt(), "exact sqrt"),
        (float::fma(x, y, z, NE), a.mul_add(b, c), "fma"),
        (exact::fma_exact(x, y, z, NE), a.mul_add(b, c), "exact fma"),
        (float::rem(x, y), a % b, "rem"),
    ] {
        prop_assert!(same32(ours, host), "{name} {ctx}: {:#x} vs {host:e}", { ours.bits });
    }
    Ok(())
}

fn check64(a: f64, b: f64, c: f64) -> Result<(), TestCaseError> {
    let (x, y, z) = (f64v(a), f64v(b), f64v(c));
    let ctx = format!("{a:e} {b:e} {c:e}");
    for (ours, host, name) in [
        (exact::add_sub_exact(x, y, NE, false), a + b, "exact add"),
        (exact::add_sub_exact(x, y, NE, true), a - b, "exact sub"),
        (exact::mul_exact(x, y, NE), a * b, "exact mul"),
        (exact::div_exact(x, y, NE), a / b, "exact div"),
        (exact::sqrt_exact(x, NE), a.sqrt(), "exact sqrt"),
        (exact::fma_exact(x, y, z, NE), a.mul_add(b, c), "exact fma"),
        (float::fma(x, y, z, NE), a.mul_add(b, c), "fma"),
        (float::rem(x, y), a % b, "rem"),
    ] {
        prop_assert!(same64(ours, host), "{name} {ctx}: {:#x} vs {host:e}", { ours.bits });
    }
    let narrow = float::convert(x, FloatKind::F32, NE).unwrap_or(float::nan(FloatKind::F32));
    prop_assert!(same32(narrow, a as f32), "f64 -> f32 {ctx}");
    prop_assert!(same64(float::convert(f32v(a as f32), FloatKind::F64, NE).unwrap_or(x), f64::from(a as f32)));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 20000, failure_persistence: None, ..ProptestConfig::default() })]
    #[test]
    fn float_host_f32_ops(a in any_f32(), b in any_f32(), c in any_f32()) {
        check32(a, b, c)?;
    }

    #[test]
    fn float_host_f64_ops(a in any_f64(), b in any_f64(), c in any_f64()) {
        check64(a, b, c)?;
    }

    #[test]
    fn float_host_decimal_f64(x in any_f64()) {
        // Rust's float formatting is shortest-round-trip and its parser is
        // correctly rounded: both directions must agree with ours.
        let text = format!("{x:e}");
        if x.is_finite() {
            let ours = float::parse_decimal(FloatKind::F64, &text);
            prop_assert_eq!(ours.map(|f| f.bits), Ok(u128::from(x.to_bits())), "{}", text);
            prop_assert_eq!(float::to_f64(f64v(x)).to_bits(), x.to_bits());
        }
    }
}

#[test]
fn float_half_decode_every_encoding() {
    for b in 0..=u16::MAX {
        let (h, g) = (f16::from_bits(b).to_f32(), bf16::from_bits(b).to_f32());
        let ours_h = float::convert(float::from_bits(FloatKind::F16, u128::from(b)), FloatKind::F32, NE);
        let ours_g = float::convert(float::from_bits(FloatKind::BF16, u128::from(b)), FloatKind::F32, NE);
        assert!(ours_h.is_ok_and(|o| same32(o, h)), "f16 {b:#06x}");
        assert!(ours_g.is_ok_and(|o| same32(o, g)), "bf16 {b:#06x}");
    }
}

/// Every f32 whose bits below the target's last place are one of the
/// rounding-relevant patterns (zero, just above zero, just below half,
/// half, just above half, all ones), for every sign, exponent and kept
/// mantissa: `cut` is the number of dropped bits for normal results.
fn rounding_probes(cut: u32) -> impl Iterator<Item = u32> {
    let half = 1u32 << (cut - 1);
    let lows = [0, 1, half - 1, half, half + 1, (1 << cut) - 1];
    (0..(1u32 << (32 - cut))).flat_map(move |hi| lows.map(|lo| (hi << cut) | lo))
}

#[test]
fn float_half_round_from_f32() {
    for bits in rounding_probes(13) {
        let x = f32::from_bits(bits);
        let ours = float::convert(f32v(x), FloatKind::F16, NE).map(|f| f.bits);
        let want = f16::from_f32(x);
        let ok = if want.is_nan() {
            ours.as_ref().is_ok_and(|o| o & 0x7C00 == 0x7C00 && o & 0x3FF != 0)
        } else {
            ours == Ok(u128::from(want.to_bits()))
        };
        assert!(ok, "f16 {x:e} ({bits:#x}): {ours:?} vs {:#x}", want.to_bits());
    }
    for bits in rounding_probes(16) {
        let x = f32::from_bits(bits);
        let ours = float::convert(f32v(x), FloatKind::BF16, NE).map(|f| f.bits);
        let want = bf16::from_f32(x);
        let ok = if want.is_nan() {
            ours.as_ref().is_ok_and(|o| o & 0x7F80 == 0x7F80 && o & 0x7F != 0)
        } else {
            ours == Ok(u128::from(want.to_bits()))
        };
        assert!(ok, "bf16 {x:e} ({bits:#x}): {ours:?} vs {:#x}", want.to_bits());
    }
}

#[test]
fn float_half_from_f64_is_not_a_reference() {
    // 1 + 2^-11 + 2^-40 is just above the f16 midpoint between 1 and
    // 1 + 2^-10; `half::f16::from_f64` drops the 2^-40 and ties to 1.0.
    let x = 1.0 + 2f64.powi(-11) + 2f64.powi(-40);
    let ours = float::convert(f64v(x), FloatKind::F16, NE).map(float::to_f64);
    assert_eq!(ours, Ok(1.0 + 2f64.powi(-10)));
    assert_eq!(f16::from_f64(x).to_f64(), 1.0, "half's from_f64 now rounds correctly: use it as a reference");
}

/// tf32 is f32 with a 10-bit mantissa, so rounding f32 to it is the
/// classic carry trick on the bits (nearest-even; carries into the exponent
/// give the next binade or inf).
#[test]
fn float_tf32_round_from_f32() {
    for bits in rounding_probes(13) {
        let x = f32::from_bits(bits);
        let ours = float::convert(f32v(x), FloatKind::TF32, NE).map(|f| f.bits);
        if x.is_nan() {
            assert!(ours.is_ok_and(|o| float::is_nan(float::from_bits(FloatKind::TF32, o))));
            continue;
        }
        let want = (bits + 0xFFF + ((bits >> 13) & 1)) >> 13;
        assert_eq!(ours, Ok(u128::from(want)), "tf32 {x:e} ({bits:#x})");
        let back = float::convert(float::from_bits(FloatKind::TF32, u128::from(want)), FloatKind::F32, NE);
        assert_eq!(back.map(|f| f.bits), Ok(u128::from(want << 13)), "tf32 {want:#x} widens exactly");
    }
}
