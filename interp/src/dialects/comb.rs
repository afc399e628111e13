//! HEIR's `comb` dialect: combinational logic on integers of any width, in
//! two-state simulation (every bit is 0 or 1, so the `bin` flag changes
//! nothing). Semantics are pure functions on [`Int`]; widths up to 128 bits
//! compute on `u128`, wider ones on big integers.
//!
//! Choices the dialect's documentation leaves open (the book, docs/src/semantics/comb.md):
//! - `ceq`/`cne` (SystemVerilog case equality) and `weq`/`wne` (wildcard
//!   equality) differ from `eq`/`ne` only on `x`/`z` bits, which two-state
//!   simulation does not have, so they are `eq`/`ne`.
//! - `nand`, `nor`, `xnor` are variadic: the inverse of `and`, `or`, `xor` of
//!   all operands (`xnor %a, %b, %c` = `~(a ^ b ^ c)`).
//! - `lut` is the integer form of CGGI's `lut_lincomb`, which HEIR lowers it
//!   to: the index is `Σ coefficients[i] × inputs[i]` (inputs unsigned,
//!   coefficients signed i8, computed without wrapping), and the result is
//!   `lookupTable[index]`. An index outside the table is undefined behaviour.
//! - `truth_table`: the inputs form the index MSB first (the first operand is
//!   the most significant bit); bit `index` of the table is the result.
//! - A poison operand makes the result poison (`mux` only looks at the
//!   chosen operand and the condition).

use crate::error::{Error, ErrorKind, Result};
use crate::exec::{Engine, Flow, Frame};
use crate::value::{Int, Poison, Scalar, Value};
use mlir_ir::attrs::Attribute;
use mlir_ir::ir::OpId;
use mlir_ir::ops::CombOp;
use num_bigint::BigInt;
use num_traits::{One, Zero};

/// Executes one comb op.
pub fn exec(e: &mut Engine, fr: &mut Frame, op: OpId, kind: CombOp) -> Result<Flow> {
    let pred = e.aux[op.0 as usize].pred;
    match kind {
        CombOp::Add => variadic(e, fr, op, add),
        CombOp::Mul => variadic(e, fr, op, mul),
        CombOp::And => variadic(e, fr, op, |a, b| bitwise(a, b, Bit::And)),
        CombOp::Or => variadic(e, fr, op, |a, b| bitwise(a, b, Bit::Or)),
        CombOp::Xor => variadic(e, fr, op, |a, b| bitwise(a, b, Bit::Xor)),
        CombOp::Nand => variadic_inv(e, fr, op, |a, b| bitwise(a, b, Bit::And)),
        CombOp::Nor => variadic_inv(e, fr, op, |a, b| bitwise(a, b, Bit::Or)),
        CombOp::Xnor => variadic_inv(e, fr, op, |a, b| bitwise(a, b, Bit::Xor)),
        CombOp::Inv => unary(e, fr, op, |a| Ok(inv(a))),
        CombOp::Parity => unary(e, fr, op, |a| Ok(parity(a))),
        CombOp::Concat => ints(e, fr, op, |xs| Ok(concat(xs))),
        CombOp::Extract => {
            let (low, w) = (low_bit(e, op)?, result_width(e, op)?);
            unary(e, fr, op, |a| Ok(extract(a, low, w)))
        }
        CombOp::Replicate => {
            let w = result_width(e, op)?;
            unary(e, fr, op, |a| replicate(a, w).ok_or_else(|| Error::unverified(op, "replicate width mismatch")))
        }
        CombOp::Icmp => ints(e, fr, op, |xs| match xs {
            [a, b] => icmp(pred, a, b)
                .map(Int::bool)
                .ok_or_else(|| Error::unverified(op, format!("unknown predicate {pred}"))),
            _ => Err(Error::unverified(op, "icmp takes two operands")),
        }),
        CombOp::Mux => mux(e, fr, op),
        CombOp::TruthTable => {
            let table = int_attr(e, op, "lookupTable")?;
            ints(e, fr, op, |xs| Ok(Int::bool(truth_table(&table, xs))))
        }
        CombOp::Lut => {
            let (coeffs, table) = (e.i64s(op, "coefficients")?, e.i64s(op, "lookupTable")?);
            ints(e, fr, op, |xs| lut(&coeffs, &table, xs).map_err(|m| Error::at(op, ErrorKind::Ub(m))))
        }
    }
}

// ---- semantics (pure) ------------------------------------------------------

/// A bitwise combining function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bit {
    /// `&`.
    And,
    /// `|`.
    Or,
    /// `^`.
    Xor,
}

fn mask(width: u32) -> BigInt {
    (BigInt::one() << width) - 1
}

/// `a + b` modulo 2^width.
pub fn add(a: &Int, b: &Int) -> Int {
    match (a.bits128(), b.bits128()) {
        (Some(x), Some(y)) => Int::from_u128(a.width(), x.wrapping_add(y)),
        _ => Int::from_big(a.width(), &(a.to_ubig() + b.to_ubig())),
    }
}

/// `a × b` modulo 2^width.
pub fn mul(a: &Int, b: &Int) -> Int {
    match (a.bits128(), b.bits128()) {
        (Some(x), Some(y)) => Int::from_u128(a.width(), x.wrapping_mul(y)),
        _ => Int::from_big(a.width(), &(a.to_ubig() * b.to_ubig())),
    }
}

/// `a op b` bit by bit.
pub fn bitwise(a: &Int, b: &Int, f: Bit) -> Int {
    if let (Some(x), Some(y)) = (a.bits128(), b.bits128()) {
        let r = match f {
            Bit::And => x & y,
            Bit::Or => x | y,
            Bit::Xor => x ^ y,
        };
        return Int::from_u128(a.width(), r);
    }
    let (x, y) = (a.to_ubig(), b.to_ubig());
    let r = match f {
        Bit::And => x & y,
        Bit::Or => x | y,
        Bit::Xor => x ^ y,
    };
    Int::from_big(a.width(), &r)
}

/// Every bit flipped.
pub fn inv(a: &Int) -> Int {
    match a.bits128() {
        Some(x) => Int::from_u128(a.width(), !x),
        None => Int::from_big(a.width(), &(a.to_ubig() ^ mask(a.width()))),
    }
}

/// XOR of all bits, as an i1.
pub fn parity(a: &Int) -> Int {
    let ones = match a.bits128() {
        Some(x) => u64::from(x.count_ones()),
        None => a.to_ubig().iter_u64_digits().map(|d| u64::from(d.count_ones())).sum(),
    };
    Int::bool(ones % 2 == 1)
}

/// The operands side by side, the first in the most significant bits.
pub fn concat(xs: &[Int]) -> Int {
    let width: u32 = xs.iter().map(Int::width).sum();
    let mut acc = BigInt::zero();
    for x in xs {
        acc = (acc << x.width()) | x.to_ubig();
    }
    Int::from_big(width, &acc)
}

/// Bits `low .. low + width` of `a` (the verifier keeps them inside `a`).
pub fn extract(a: &Int, low: u32, width: u32) -> Int {
    match a.bits128() {
        Some(x) => Int::from_u128(width, x.checked_shr(low).unwrap_or(0)),
        None => Int::from_big(width, &(a.to_ubig() >> low)),
    }
}

/// `a` repeated to fill `width` bits; `None` if `width` is not a multiple.
pub fn replicate(a: &Int, width: u32) -> Option<Int> {
    let w = a.width();
    if w == 0 || !width.is_multiple_of(w) {
        return None;
    }
    let copies = vec![a.clone(); (width / w) as usize];
    Some(concat(&copies))
}

/// `comb.icmp` with predicate number `pred` (order of the dialect's enum:
/// eq ne slt sle sgt sge ult ule ugt uge ceq cne weq wne).
pub fn icmp(pred: u8, a: &Int, b: &Int) -> Option<bool> {
    use std::cmp::Ordering::*;
    let s = || a.to_sbig().cmp(&b.to_sbig());
    let u = || a.to_ubig().cmp(&b.to_ubig());
    Some(match pred {
        0 | 10 | 12 => a == b,
        1 | 11 | 13 => a != b,
        2 => s() == Less,
        3 => s() != Greater,
        4 => s() == Greater,
        5 => s() != Less,
        6 => u() == Less,
        7 => u() != Greater,
        8 => u() == Greater,
        9 => u() != Less,
        _ => return None,
    })
}

/// Bit `index` of `table`, the index made of the i1 inputs MSB first.
pub fn truth_table(table: &Int, inputs: &[Int]) -> bool {
    let index = inputs.iter().fold(0u64, |acc, x| (acc << 1) | u64::from(x.is_nonzero()));
    table.to_ubig().bit(index)
}

/// `lookupTable[Σ coefficients[i] × inputs[i]]` as an i8.
pub fn lut(coeffs: &[i64], table: &[i64], inputs: &[Int]) -> std::result::Result<Int, String> {
    if coeffs.len() != inputs.len() {
        return Err(format!("lut has {} coefficients for {} inputs", coeffs.len(), inputs.len()));
    }
    let index: BigInt = coeffs.iter().zip(inputs).map(|(c, x)| BigInt::from(*c) * x.to_ubig()).sum();
    let entry = usize::try_from(&index).ok().and_then(|i| table.get(i));
    match entry {
        Some(v) => Ok(Int::from_i128(8, i128::from(*v))),
        None => Err(format!("lut index {index} outside a lookupTable of {} entries", table.len())),
    }
}

// ---- plumbing ----------------------------------------------------------------

/// The integer operands of `op`, or the first poison among them.
fn int_args(e: &Engine, fr: &Frame, op: OpId) -> Result<std::result::Result<Vec<Int>, Poison>> {
    let mut xs = Vec::with_capacity(e.m.operands(op).len());
    for i in 0..e.m.operands(op).len() {
        match e.arg(fr, op, i)?.scalar() {
            Some(Scalar::Int(x)) => xs.push(x),
            Some(Scalar::Poison(p)) => return Ok(Err(p)),
            _ => return Err(Error::unverified(op, format!("operand #{i} is not an integer"))),
        }
    }
    Ok(Ok(xs))
}

/// Runs `f` on all integer operands and assigns its result (poison in, poison out).
fn ints(e: &Engine, fr: &mut Frame, op: OpId, f: impl FnOnce(&[Int]) -> Result<Int>) -> Result<Flow> {
    let v = match int_args(e, fr, op)? {
        Ok(xs) => Value::int(f(&xs)?),
        Err(p) => Value::from_scalar(Scalar::Poison(p)),
    };
    e.assign(fr, op, v)
}

fn unary(e: &Engine, fr: &mut Frame, op: OpId, f: impl FnOnce(&Int) -> Result<Int>) -> Result<Flow> {
    ints(e, fr, op, |xs| match xs {
        [a] => f(a),
        _ => Err(Error::unverified(op, "expected one operand")),
    })
}

fn fold(op: OpId, xs: &[Int], f: impl Fn(&Int, &Int) -> Int) -> Result<Int> {
    let (first, rest) = xs.split_first().ok_or_else(|| Error::unverified(op, "requires at least one operand"))?;
    Ok(rest.iter().fold(first.clone(), |acc, x| f(&acc, x)))
}

fn variadic(e: &Engine, fr: &mut Frame, op: OpId, f: impl Fn(&Int, &Int) -> Int) -> Result<Flow> {
    ints(e, fr, op, |xs| fold(op, xs, f))
}

fn variadic_inv(e: &Engine, fr: &mut Frame, op: OpId, f: impl Fn(&Int, &Int) -> Int) -> Result<Flow> {
    ints(e, fr, op, |xs| fold(op, xs, f).map(|r| inv(&r)))
}

/// `mux %c, %t, %f`: the chosen operand, whatever its type.
fn mux(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let c = e.arg(fr, op, 0)?;
    let v = match c.scalar() {
        Some(Scalar::Poison(p)) => Value::from_scalar(Scalar::Poison(p)),
        Some(Scalar::Int(c)) => e.arg(fr, op, if c.is_nonzero() { 1 } else { 2 })?.clone(),
        _ => return Err(Error::unverified(op, "mux condition is not an i1")),
    };
    e.assign(fr, op, v)
}

fn result_width(e: &Engine, op: OpId) -> Result<u32> {
    e.int_width(e.result_type(op, 0)).ok_or_else(|| Error::unverified(op, "result is not an integer"))
}

fn low_bit(e: &Engine, op: OpId) -> Result<u32> {
    match e.m.attr(op, "lowBit").map(|a| e.m.ctx.attr_kind(a)) {
        Some(Attribute::Integer { value, .. }) => {
            value.to_i64().and_then(|v| u32::try_from(v).ok()).ok_or_else(|| Error::unverified(op, "bad 'lowBit'"))
        }
        _ => Err(Error::unverified(op, "requires attribute 'lowBit'")),
    }
}

fn int_attr(e: &Engine, op: OpId, name: &str) -> Result<Int> {
    let a = e.m.attr(op, name).ok_or_else(|| Error::unverified(op, format!("requires attribute '{name}'")))?;
    let ty = match e.m.ctx.attr_kind(a) {
        Attribute::Integer { ty, .. } => *ty,
        _ => return Err(Error::unverified(op, format!("'{name}' is not an integer attribute"))),
    };
    match e.attr_value(op, a, ty)?.as_int() {
        Some(i) => Ok(i),
        _ => Err(Error::unverified(op, format!("'{name}' is not an integer attribute"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn big(w: u32, v: &str) -> Int {
        Int::from_big(w, &v.parse::<BigInt>().unwrap())
    }

    #[test]
    fn carries_cross_limbs() {
        let a = big(65, "18446744073709551615"); // 2^64 - 1
        assert_eq!(add(&a, &Int::from_u128(65, 1)).to_ubig(), BigInt::one() << 64u32);
        let m = big(200, "-1");
        assert_eq!(add(&m, &Int::from_u128(200, 1)).to_ubig(), BigInt::zero());
        assert_eq!(mul(&m, &m).to_ubig(), BigInt::one());
    }

    #[test]
    fn concat_puts_the_first_operand_high() {
        let r = concat(&[Int::from_u128(4, 0xA), Int::from_u128(8, 0x5C), Int::bool(true)]);
        assert_eq!((r.width(), r.bits128()), (13, Some(0b1_0100_1011_1001)));
        assert_eq!(extract(&r, 1, 8).bits128(), Some(0x5C));
        assert_eq!(replicate(&Int::from_u128(3, 0b101), 9).and_then(|r| r.bits128()), Some(0b101_101_101));
    }

    #[test]
    fn truth_table_reads_inputs_msb_first() {
        // 6 = 0b0110: XOR of two inputs; index = 2*a + b.
        let t = Int::from_u128(4, 6);
        let f = |a, b| truth_table(&t, &[Int::bool(a), Int::bool(b)]);
        assert_eq!([f(false, false), f(false, true), f(true, false), f(true, true)], [false, true, true, false]);
        // 2 = 0b0010: true only at index 1, i.e. a = 0, b = 1.
        assert!(truth_table(&Int::from_u128(4, 2), &[Int::bool(false), Int::bool(true)]));
    }

    #[test]
    fn lut_indexes_by_linear_combination() {
        let table: Vec<i64> = (0..16).map(|i| i * 3).collect();
        let r = lut(&[1, 4], &table, &[Int::from_u128(8, 3), Int::from_u128(8, 2)]);
        assert_eq!(r.map(|x| x.bits128()), Ok(Some(33))); // index 3 + 8 = 11
        assert!(lut(&[1], &table, &[Int::from_u128(8, 16)]).is_err());
        assert!(lut(&[-1], &table, &[Int::from_u128(8, 1)]).is_err());
    }

    #[test]
    fn icmp_predicates() {
        let (a, b) = (Int::from_i128(8, -1), Int::from_u128(8, 1));
        let all: Vec<bool> = (0..14).map(|p| icmp(p, &a, &b).unwrap()).collect();
        assert_eq!(all, [false, true, true, true, false, false, false, false, true, true, false, true, false, true]);
        assert_eq!(icmp(14, &a, &b), None);
    }
}
