//! tosa's quantization operators in exact integer arithmetic: `rescale`
//! and `apply_scale` (the spec's `apply_scale_32` / `apply_scale_16`), and
//! `table` (an i8 lookup, or the i16 interpolating `apply_lookup_s`).
//!
//! `INEXACT_ROUND` lets an implementation round within a bound; the exact
//! single rounding meets it (the spec says so), so it is computed as
//! `SINGLE_ROUND` here.

use super::{
    build, build_ints, enum_attr, int_at, int_scalar, ints, invalid, operand_elem, require, result_elem, signed_range,
    Elem,
};
use crate::error::Result;
use crate::exec::{Engine, Flow, Frame};
use crate::operands::dense;
use crate::value::Value;
use mlir_ir::ir::OpId;

/// `apply_scale_32`: `(value * multiplier + round) >> shift` with the
/// pseudocode's REQUIREs; `double_round` adds or takes 2^30 for shifts
/// above 31.
pub(super) fn apply_scale_32(op: OpId, value: i64, multiplier: i64, shift: i64, double_round: bool) -> Result<i64> {
    if multiplier < 0 {
        return Err(require(op, format!("apply_scale_32 multiplier {multiplier} is negative")));
    }
    if !(2..=62).contains(&shift) {
        return Err(require(op, format!("apply_scale_32 shift {shift} is outside 2..=62")));
    }
    let half = 1i128 << (shift - 1);
    if !(-half..half).contains(&i128::from(value)) {
        return Err(require(
            op,
            format!("apply_scale_32 value {value} is outside [-2^{0}, 2^{0}) for shift {shift}", shift - 1),
        ));
    }
    let mut round = half;
    if double_round && shift > 31 {
        round += if value >= 0 { 1 << 30 } else { -(1 << 30) };
    }
    let r = (i128::from(value) * i128::from(multiplier) + round) >> shift;
    Ok(r as i64)
}

/// `apply_scale_16`: a 48-bit value times a 16-bit multiplier; the result
/// must fit i32.
fn apply_scale_16(op: OpId, value: i64, multiplier: i64, shift: i64) -> Result<i64> {
    if multiplier < 0 {
        return Err(require(op, format!("apply_scale_16 multiplier {multiplier} is negative")));
    }
    if !(2..=62).contains(&shift) {
        return Err(require(op, format!("apply_scale_16 shift {shift} is outside 2..=62")));
    }
    let r = (i128::from(value) * i128::from(multiplier) + (1i128 << (shift - 1))) >> shift;
    if r < i128::from(i32::MIN) || r > i128::from(i32::MAX) {
        return Err(require(
            op,
            format!("apply_scale_16 of {value} by {multiplier} >> {shift} gives {r}, outside i32"),
        ));
    }
    Ok(r as i64)
}

/// The bit width of an integer element kind, or the error naming `what`.
fn width(op: OpId, el: Elem, what: &str) -> Result<u32> {
    match el {
        Elem::Int(w) => Ok(w),
        _ => Err(invalid(op, format!("{what} must hold integers"))),
    }
}

/// The one value of a zero-point operand (a one-element tensor).
fn one(e: &Engine, fr: &Frame, op: OpId, i: usize) -> Result<i64> {
    let d = dense(e, fr, op, i)?;
    if d.len() != 1 {
        return Err(invalid(op, format!("operand #{i} must hold one value, it holds {}", d.len())));
    }
    int_at(op, &d, 0)
}

/// `tosa.rescale %input, %multiplier, %shift, %input_zp, %output_zp`.
pub(super) fn rescale(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let x = dense(e, fr, op, 0)?;
    let (mult, shift) = (dense(e, fr, op, 1)?, dense(e, fr, op, 2)?);
    let (izp, ozp) = (one(e, fr, op, 3)?, one(e, fr, op, 4)?);
    let iw = width(op, operand_elem(e, op, 0)?, "the input")?;
    let ow = width(op, result_elem(e, op, 0)?, "the output")?;
    let scale32 = e.flag(op, "scale32");
    let double_round = enum_attr(e, op, "rounding_mode", "SINGLE_ROUND") == "DOUBLE_ROUND";
    let per_channel = e.flag(op, "per_channel");
    let (iu, ou) = (e.flag(op, "input_unsigned"), e.flag(op, "output_unsigned"));
    let unsigned_of = |v: i64, w: u32| (v as u64 & if w >= 64 { u64::MAX } else { (1u64 << w) - 1 }) as i64;
    let (izp, ozp) = (if iu { unsigned_of(izp, iw) } else { izp }, if ou { unsigned_of(ozp, ow) } else { ozp });
    // The ERROR_IFs on types and zero points.
    let zp_ok = |w: u32, unsigned: bool, zp: i64| w == 8 || zp == 0 || (w == 16 && unsigned && zp == 32768);
    let checks = [
        (!zp_ok(iw, iu, izp), format!("input_zp {izp} is not allowed for this input type")),
        (!zp_ok(ow, ou, ozp), format!("output_zp {ozp} is not allowed for this output type")),
        (scale32 && iw == 48, "scale32 with an i48 input".to_owned()),
        (!scale32 && double_round, "DOUBLE_ROUND without scale32".to_owned()),
        (iu && ou, "both input_unsigned and output_unsigned".to_owned()),
        (ow == 32 && iu, "input_unsigned with an i32 output".to_owned()),
        ((iw == 32 || iw == 48) && ou, "output_unsigned with an i32 or i48 input".to_owned()),
        ((iw == 32 || iw == 48) && iu, "input_unsigned with an i32 or i48 input".to_owned()),
        (ow == 32 && ou, "output_unsigned with an i32 output".to_owned()),
        (per_channel && x.shape().is_empty(), "per_channel on a rank-0 input".to_owned()),
    ];
    if let Some((_, msg)) = checks.iter().find(|(bad, _)| *bad) {
        return Err(invalid(op, msg));
    }
    let channels = if per_channel { x.shape().last().copied().unwrap_or(1) } else { 1 };
    if mult.len() != channels || shift.len() != channels {
        return Err(invalid(
            op,
            format!("{} multipliers and {} shifts for {channels} channel(s)", mult.len(), shift.len()),
        ));
    }
    let (lo, hi) = if ou { (0, (1i64 << ow) - 1) } else { signed_range(ow) };
    e.charge(op, x.len() as u64)?;
    let (ms, ss) = (ints(op, &mult)?, ints(op, &shift)?);
    let mut out = ints(op, &x)?;
    for (k, slot) in out.iter_mut().enumerate() {
        let value = if iu { unsigned_of(*slot, iw) } else { *slot } - izp;
        let c = if per_channel { k % channels } else { 0 };
        let (m, s) = (ms[c], ss[c]);
        let r = if scale32 { apply_scale_32(op, value, m, s, double_round)? } else { apply_scale_16(op, value, m, s)? };
        let r = i128::from(r) + i128::from(ozp);
        if r < i128::from(i32::MIN) || r > i128::from(i32::MAX) {
            return Err(require(op, format!("adding the output zero point {ozp} gives {r}, outside i32")));
        }
        *slot = (r as i64).clamp(lo, hi);
    }
    let v = build_ints(e, op, 0, x.shape(), &out)?;
    e.assign(fr, op, v)
}

/// `tosa.apply_scale %value, %multiplier, %shift {rounding_mode}`: the
/// scaling helper as an op (elementwise, i32 or i48 values).
pub(super) fn apply_scale(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let (x, m, s) = (dense(e, fr, op, 0)?, dense(e, fr, op, 1)?, dense(e, fr, op, 2)?);
    let double_round = enum_attr(e, op, "rounding_mode", "SINGLE_ROUND") == "DOUBLE_ROUND";
    let iw = width(op, operand_elem(e, op, 0)?, "the value")?;
    let ow = width(op, result_elem(e, op, 0)?, "the result")?;
    if m.shape() != x.shape() || s.shape() != x.shape() {
        return Err(invalid(op, "value, multiplier and shift must have one shape"));
    }
    e.charge(op, x.len() as u64)?;
    let mut elems = Vec::with_capacity(x.len());
    for k in 0..x.len() {
        let (v, mm, sh) = (int_at(op, &x, k)?, int_at(op, &m, k)?, int_at(op, &s, k)?);
        let r = if iw > 32 { apply_scale_16(op, v, mm, sh)? } else { apply_scale_32(op, v, mm, sh, double_round)? };
        elems.push(int_scalar(ow, r));
    }
    // On scalars (as tosa-to-linalg emits it in a body) the result is one.
    let scalar = matches!(e.m.ctx.type_kind(e.result_type(op, 0)), mlir_ir::types::TypeKind::Integer { .. });
    let v = match elems.first() {
        Some(r) if scalar => Value::from_scalar(r.clone()),
        _ => build(e, op, 0, x.shape(), elems)?,
    };
    e.assign(fr, op, v)
}

/// `tosa.table %input, %table`: i8 inputs index a 256-entry i8 table at
/// `value + 128`; i16 inputs interpolate a 513-entry i16 table
/// (`apply_lookup_s`), giving i32.
pub(super) fn table(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let (x, t) = (dense(e, fr, op, 0)?, dense(e, fr, op, 1)?);
    let iw = width(op, operand_elem(e, op, 0)?, "the input")?;
    let ow = width(op, result_elem(e, op, 0)?, "the output")?;
    let size = if iw == 8 { 256 } else { 513 };
    if t.len() != size {
        return Err(require(op, format!("the table holds {} entries, not {size}", t.len())));
    }
    let entries: Vec<i64> = (0..size).map(|k| int_at(op, &t, k)).collect::<Result<_>>()?;
    e.charge(op, x.len() as u64)?;
    let mut elems = Vec::with_capacity(x.len());
    for k in 0..x.len() {
        let v = int_at(op, &x, k)?;
        let r = if iw == 8 {
            entries[(v + 128) as usize]
        } else {
            let c = v.clamp(-32768, 32767);
            let index = ((c + 32768) >> 7) as usize;
            let fraction = c & 0x7f;
            let (base, next) = (entries[index], entries[index + 1]);
            let slope = next - base;
            if !(-32768..=32767).contains(&slope) {
                return Err(require(
                    op,
                    format!("table slope {slope} between entries {index} and {} is outside i16", index + 1),
                ));
            }
            (base << 7) + slope * fraction
        };
        elems.push(int_scalar(ow, r));
    }
    let v = build(e, op, 0, x.shape(), elems)?;
    e.assign(fr, op, v)
}
