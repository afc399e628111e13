//! Integer semantics: every arith/index integer op as a pure function of
//! its operands, generic over [`Z`] (`i128` fast path or `BigInt`, see
//! `value.rs`), returning a value, poison, or immediate UB ([`Out`]).

use crate::value::{Int, Z};
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};

/// `overflow<nsw>`.
pub const NSW: u8 = 1;
/// `overflow<nuw>`.
pub const NUW: u8 = 2;
/// `exact`.
pub const EXACT: u8 = 4;
/// `nneg`.
pub const NNEG: u8 = 8;
/// `disjoint` (`llvm.or`).
pub const DISJOINT: u8 = 32;

/// The outcome of an integer op on one element.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Out {
    /// A value.
    Val(Int),
    /// Poison (made by this op).
    Poison,
    /// Immediate undefined behaviour, with its description.
    Ub(String),
}

fn fits_s<N: Z>(w: u32, v: &N) -> Option<bool> {
    let h = N::pow2(w - 1)?;
    Some(*v >= N::from_i64(0).sub(&h) && *v < h)
}

fn fits_u<N: Z>(w: u32, v: &N) -> Option<bool> {
    Some(!v.is_neg() && *v < N::pow2(w)?)
}

fn smin<N: Z>(w: u32) -> Option<N> {
    Some(N::from_i64(0).sub(&N::pow2(w - 1)?))
}

/// Floor division; `b` nonzero.
fn div_floor<N: Z>(a: &N, b: &N) -> N {
    let q = a.div_t(b);
    if !a.rem_t(b).is_zero() && (a.is_neg() != b.is_neg()) {
        q.sub(&N::from_i64(1))
    } else {
        q
    }
}

/// `addi` with optional `nsw`/`nuw`.
#[inline]
pub fn addi<N: Z>(w: u32, a: &Int, b: &Int, fl: u8) -> Option<Out> {
    let r = N::s(a).add(&N::s(b));
    if fl & NSW != 0 && !fits_s(w, &r)? || fl & NUW != 0 && !fits_u(w, &N::u(a).add(&N::u(b)))? {
        return Some(Out::Poison);
    }
    Some(Out::Val(r.wrap(w)))
}

/// `subi` with optional `nsw`/`nuw`.
#[inline]
pub fn subi<N: Z>(w: u32, a: &Int, b: &Int, fl: u8) -> Option<Out> {
    let r = N::s(a).sub(&N::s(b));
    if fl & NSW != 0 && !fits_s(w, &r)? || fl & NUW != 0 && !fits_u(w, &N::u(a).sub(&N::u(b)))? {
        return Some(Out::Poison);
    }
    Some(Out::Val(r.wrap(w)))
}

/// `muli` with optional `nsw`/`nuw`.
#[inline]
pub fn muli<N: Z>(w: u32, a: &Int, b: &Int, fl: u8) -> Option<Out> {
    let r = N::s(a).mul(&N::s(b))?;
    if fl & NSW != 0 && !fits_s(w, &r)? || fl & NUW != 0 && !fits_u(w, &N::u(a).mul(&N::u(b))?)? {
        return Some(Out::Poison);
    }
    Some(Out::Val(r.wrap(w)))
}

/// The UB checks of signed division: zero divisor and INT_MIN / -1.
fn signed_div_ub<N: Z>(w: u32, a: &N, b: &N, what: &str) -> Option<Option<String>> {
    let sym = if what.contains("remainder") { '%' } else { '/' };
    if b.is_zero() {
        return Some(Some(format!("{what} by zero: {a} {sym} 0")));
    }
    if *a == smin::<N>(w)? && *b == N::from_i64(-1) {
        return Some(Some(format!("{what} overflow: {a} {sym} -1 does not fit in i{w}")));
    }
    Some(None)
}

/// `divsi` with optional `exact`.
#[inline]
pub fn divsi<N: Z>(w: u32, a: &Int, b: &Int, fl: u8) -> Option<Out> {
    let (a, b) = (N::s(a), N::s(b));
    if let Some(m) = signed_div_ub(w, &a, &b, "signed division")? {
        return Some(Out::Ub(m));
    }
    if fl & EXACT != 0 && !a.rem_t(&b).is_zero() {
        return Some(Out::Poison);
    }
    Some(Out::Val(a.div_t(&b).wrap(w)))
}

/// `divui` with optional `exact`.
#[inline]
pub fn divui<N: Z>(w: u32, a: &Int, b: &Int, fl: u8) -> Option<Out> {
    let (a, b) = (N::u(a), N::u(b));
    if b.is_zero() {
        return Some(Out::Ub(format!("unsigned division by zero: {a} / 0")));
    }
    if fl & EXACT != 0 && !a.rem_t(&b).is_zero() {
        return Some(Out::Poison);
    }
    Some(Out::Val(a.div_t(&b).wrap(w)))
}

/// `ceildivsi`: quotient rounded toward +inf.
#[inline]
pub fn ceildivsi<N: Z>(w: u32, a: &Int, b: &Int) -> Option<Out> {
    let (a, b) = (N::s(a), N::s(b));
    if let Some(m) = signed_div_ub(w, &a, &b, "signed ceiling division")? {
        return Some(Out::Ub(m));
    }
    let q = a.div_t(&b);
    let up = !a.rem_t(&b).is_zero() && a.is_neg() == b.is_neg();
    Some(Out::Val(if up { q.add(&N::from_i64(1)) } else { q }.wrap(w)))
}

/// `ceildivui`.
#[inline]
pub fn ceildivui<N: Z>(w: u32, a: &Int, b: &Int) -> Option<Out> {
    let (a, b) = (N::u(a), N::u(b));
    if b.is_zero() {
        return Some(Out::Ub(format!("unsigned ceiling division by zero: {a} / 0")));
    }
    let q = a.div_t(&b);
    Some(Out::Val(if a.rem_t(&b).is_zero() { q } else { q.add(&N::from_i64(1)) }.wrap(w)))
}

/// `floordivsi`: quotient rounded toward -inf.
#[inline]
pub fn floordivsi<N: Z>(w: u32, a: &Int, b: &Int) -> Option<Out> {
    let (a, b) = (N::s(a), N::s(b));
    if let Some(m) = signed_div_ub(w, &a, &b, "signed floor division")? {
        return Some(Out::Ub(m));
    }
    Some(Out::Val(div_floor(&a, &b).wrap(w)))
}

/// `remsi`: remainder with the dividend's sign.
#[inline]
pub fn remsi<N: Z>(w: u32, a: &Int, b: &Int) -> Option<Out> {
    let (a, b) = (N::s(a), N::s(b));
    if let Some(m) = signed_div_ub(w, &a, &b, "signed remainder")? {
        return Some(Out::Ub(m));
    }
    Some(Out::Val(a.rem_t(&b).wrap(w)))
}

/// `remui`.
#[inline]
pub fn remui<N: Z>(w: u32, a: &Int, b: &Int) -> Option<Out> {
    let (a, b) = (N::u(a), N::u(b));
    if b.is_zero() {
        return Some(Out::Ub(format!("unsigned remainder by zero: {a} % 0")));
    }
    Some(Out::Val(a.rem_t(&b).wrap(w)))
}

/// `andi`/`ori`/`xori` on the encodings.
#[inline]
pub fn bitwise(
    a: &Int,
    b: &Int,
    f: impl Fn(u128, u128) -> u128,
    g: impl Fn(&num_bigint::BigInt, &num_bigint::BigInt) -> num_bigint::BigInt,
) -> Int {
    match (a.bits128(), b.bits128()) {
        (Some(x), Some(y)) => Int::from_u128(a.width(), f(x, y)),
        _ => Int::from_big(a.width(), &g(&a.to_ubig(), &b.to_ubig())),
    }
}

/// The shift amount if it is below the width; `None` means poison.
fn shift_amount<N: Z>(w: u32, b: &Int) -> Option<u32> {
    let s = N::u(b);
    if s >= N::from_i64(i64::from(w)) {
        return None;
    }
    s.to_u32()
}

/// `shli` with optional `nsw`/`nuw`; an amount >= width is poison.
#[inline]
pub fn shli<N: Z>(w: u32, a: &Int, b: &Int, fl: u8) -> Option<Out> {
    let Some(s) = shift_amount::<N>(w, b) else { return Some(Out::Poison) };
    let p = N::pow2(s)?;
    let r = N::s(a).mul(&p)?;
    if fl & NSW != 0 && !fits_s(w, &r)? || fl & NUW != 0 && !fits_u(w, &N::u(a).mul(&p)?)? {
        return Some(Out::Poison);
    }
    Some(Out::Val(r.wrap(w)))
}

/// `shrui` with optional `exact`.
#[inline]
pub fn shrui<N: Z>(w: u32, a: &Int, b: &Int, fl: u8) -> Option<Out> {
    let Some(s) = shift_amount::<N>(w, b) else { return Some(Out::Poison) };
    let (a, p) = (N::u(a), N::pow2(s)?);
    if fl & EXACT != 0 && !a.rem_t(&p).is_zero() {
        return Some(Out::Poison);
    }
    Some(Out::Val(a.div_t(&p).wrap(w)))
}

/// `shrsi` with optional `exact`.
#[inline]
pub fn shrsi<N: Z>(w: u32, a: &Int, b: &Int, fl: u8) -> Option<Out> {
    let Some(s) = shift_amount::<N>(w, b) else { return Some(Out::Poison) };
    let (a, p) = (N::s(a), N::pow2(s)?);
    if fl & EXACT != 0 && !a.rem_t(&p).is_zero() {
        return Some(Out::Poison);
    }
    Some(Out::Val(div_floor(&a, &p).wrap(w)))
}

/// `maxsi`.
#[inline]
pub fn maxsi<N: Z>(_w: u32, a: &Int, b: &Int) -> Option<Out> {
    Some(Out::Val(if N::s(a) >= N::s(b) { a } else { b }.clone()))
}

/// `maxui`.
#[inline]
pub fn maxui<N: Z>(_w: u32, a: &Int, b: &Int) -> Option<Out> {
    Some(Out::Val(if N::u(a) >= N::u(b) { a } else { b }.clone()))
}

/// `minsi`.
#[inline]
pub fn minsi<N: Z>(_w: u32, a: &Int, b: &Int) -> Option<Out> {
    Some(Out::Val(if N::s(a) <= N::s(b) { a } else { b }.clone()))
}

/// `minui`.
#[inline]
pub fn minui<N: Z>(_w: u32, a: &Int, b: &Int) -> Option<Out> {
    Some(Out::Val(if N::u(a) <= N::u(b) { a } else { b }.clone()))
}

/// `addui_extended`: the sum and the carry bit.
#[inline]
pub fn addui_extended<N: Z>(w: u32, a: &Int, b: &Int) -> Option<(Int, Int)> {
    let r = N::u(a).add(&N::u(b));
    Some((r.wrap(w), Int::bool(!fits_u(w, &r)?)))
}

/// `mulsi_extended`: low and high halves of the signed product.
#[inline]
pub fn mulsi_extended<N: Z>(w: u32, a: &Int, b: &Int) -> Option<(Int, Int)> {
    let p = N::s(a).mul(&N::s(b))?;
    Some((p.wrap(w), div_floor(&p, &N::pow2(w)?).wrap(w)))
}

/// `mului_extended`: low and high halves of the unsigned product.
#[inline]
pub fn mului_extended<N: Z>(w: u32, a: &Int, b: &Int) -> Option<(Int, Int)> {
    let p = N::u(a).mul(&N::u(b))?;
    Some((p.wrap(w), p.div_t(&N::pow2(w)?).wrap(w)))
}

/// `cmpi` / `index.cmp` with predicate `p` in enum order
/// (eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge); i1 true is -1 when signed.
#[inline]
pub fn cmpi<N: Z>(_w: u32, p: u8, a: &Int, b: &Int) -> Option<bool> {
    let s = || (N::s(a), N::s(b));
    let u = || (N::u(a), N::u(b));
    Some(match p {
        0 => a == b,
        1 => a != b,
        2 => s().0 < s().1,
        3 => s().0 <= s().1,
        4 => s().0 > s().1,
        5 => s().0 >= s().1,
        6 => u().0 < u().1,
        7 => u().0 <= u().1,
        8 => u().0 > u().1,
        _ => u().0 >= u().1,
    })
}

/// `extsi` (also `index_cast`, which sign-extends or truncates).
#[inline]
pub fn extsi<N: Z>(_w: u32, a: &Int, to: u32) -> Option<Out> {
    Some(Out::Val(N::s(a).wrap(to)))
}

/// `extui` with optional `nneg` (also `index_castui`).
#[inline]
pub fn extui<N: Z>(_w: u32, a: &Int, to: u32, fl: u8) -> Option<Out> {
    if fl & NNEG != 0 && N::s(a).is_neg() {
        return Some(Out::Poison);
    }
    Some(Out::Val(N::u(a).wrap(to)))
}

/// `trunci` with optional `nsw`/`nuw`.
#[inline]
pub fn trunci<N: Z>(_w: u32, a: &Int, to: u32, fl: u8) -> Option<Out> {
    if fl & NSW != 0 && !fits_s(to, &N::s(a))? || fl & NUW != 0 && !fits_u(to, &N::u(a))? {
        return Some(Out::Poison);
    }
    Some(Out::Val(N::u(a).wrap(to)))
}

/// `absi`: wraps, so the most negative value is its own absolute value.
pub fn absi(a: &Int) -> Int {
    let v = a.to_sbig();
    Int::from_big(a.width(), &v.abs())
}

/// Leading zero bits; the width for 0.
pub fn ctlz(a: &Int) -> Int {
    let len = a.to_ubig().bits();
    Int::from_u128(a.width(), u128::from(u64::from(a.width()).saturating_sub(len)))
}

/// Trailing zero bits; the width for 0.
pub fn cttz(a: &Int) -> Int {
    let n = a.to_ubig().trailing_zeros().unwrap_or(u64::from(a.width()));
    Int::from_u128(a.width(), u128::from(n))
}

/// Set bits.
pub fn ctpop(a: &Int) -> Int {
    let n: u64 = a.to_ubig().magnitude().iter_u64_digits().map(|d| u64::from(d.count_ones())).sum();
    Int::from_u128(a.width(), u128::from(n))
}

/// `ipowi(a, b)` on `w`-bit integers: `a^b` modulo 2^w for `b >= 0`
/// (`a^0` is 1); for `b < 0`, 1 and -1 give `1/a^|b|`, any other
/// non-zero `a` gives 0 and `a = 0` is a division by zero (`None`).
pub fn ipowi(a: &Int, b: &Int) -> Option<Int> {
    let w = a.width();
    let (x, n) = (a.to_sbig(), b.to_sbig());
    if !n.is_negative() {
        let m = BigInt::one() << w;
        return Some(Int::from_big(w, &x.modpow(&n, &m)));
    }
    if Zero::is_zero(&x) {
        return None;
    }
    let r = if x.is_one() {
        BigInt::one()
    } else if x == -BigInt::one() {
        if n.bit(0) {
            -BigInt::one()
        } else {
            BigInt::one()
        }
    } else {
        BigInt::zero()
    };
    Some(Int::from_big(w, &r))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Int;

    fn i(w: u32, v: i128) -> Int {
        Int::from_i128(w, v)
    }

    #[test]
    fn integer_ops() {
        assert_eq!(absi(&i(8, -128)), i(8, -128));
        assert_eq!(absi(&i(8, -5)), i(8, 5));
        assert_eq!(ctlz(&i(8, 0)), i(8, 8));
        assert_eq!(ctlz(&i(8, 1)), i(8, 7));
        assert_eq!(ctlz(&i(200, 1)), i(200, 199));
        assert_eq!(cttz(&i(8, 0)), i(8, 8));
        assert_eq!(cttz(&i(8, -128)), i(8, 7));
        assert_eq!(ctpop(&i(8, -1)), i(8, 8));
        assert_eq!(ctpop(&i(300, -1)), i(300, 300));
    }

    #[test]
    fn ipowi_rules() {
        assert_eq!(ipowi(&i(8, 3), &i(8, 5)), Some(i(8, 243 - 256)));
        assert_eq!(ipowi(&i(8, 0), &i(8, 0)), Some(i(8, 1)));
        assert_eq!(ipowi(&i(8, 0), &i(8, -1)), None);
        assert_eq!(ipowi(&i(8, -1), &i(8, -3)), Some(i(8, -1)));
        assert_eq!(ipowi(&i(8, -1), &i(8, -4)), Some(i(8, 1)));
        assert_eq!(ipowi(&i(8, 1), &i(8, -4)), Some(i(8, 1)));
        assert_eq!(ipowi(&i(8, 2), &i(8, -1)), Some(i(8, 0)));
        assert_eq!(ipowi(&i(1, -1), &i(1, 0)), Some(i(1, 1)));
    }
}
