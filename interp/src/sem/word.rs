//! Integer semantics on machine words: the integer ops of widths 1 to 64
//! on their zero-extended encodings in a `u64`, for the translated fast
//! path. Each function answers only the plain case (a wrapped result) and
//! returns `None` whenever the general semantics in [`super::int`] must
//! decide: poison from a flag or an oversized shift, immediate UB from a
//! division. The tests check every i8 pair and random wider ones against
//! [`super::int`], so the two cannot drift apart.

use super::int::{EXACT, NNEG, NSW, NUW};

/// A binary integer op the fast path computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bin {
    /// `addi`
    Add,
    /// `subi`
    Sub,
    /// `muli`
    Mul,
    /// `divui`
    DivU,
    /// `divsi`
    DivS,
    /// `remui`
    RemU,
    /// `remsi`
    RemS,
    /// `andi`
    And,
    /// `ori`
    Or,
    /// `xori`
    Xor,
    /// `shli`
    Shl,
    /// `shrui`
    ShrU,
    /// `shrsi`
    ShrS,
    /// `maxsi`
    MaxS,
    /// `maxui`
    MaxU,
    /// `minsi`
    MinS,
    /// `minui`
    MinU,
}

/// An integer cast the fast path computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cast {
    /// `extsi`, `index_cast`: sign-extend or truncate.
    Signed,
    /// `extui`, `index_castui`: zero-extend or truncate (`nneg` aside).
    Unsigned,
    /// `trunci` (`nsw`/`nuw` aside).
    Trunc,
}

/// The low `w` bits set.
#[inline(always)]
pub fn mask(w: u32) -> u64 {
    u64::MAX >> (64 - w)
}

/// The signed reading of a `w`-bit encoding.
#[inline(always)]
pub fn sext(w: u32, a: u64) -> i64 {
    ((a << (64 - w)) as i64) >> (64 - w)
}

/// True when `v` is a `w`-bit signed value.
#[inline(always)]
fn fits_s(w: u32, v: i128) -> bool {
    let h = 1i128 << (w - 1);
    (-h..h).contains(&v)
}

/// True when `v` is a `w`-bit unsigned value.
#[inline(always)]
fn fits_u(w: u32, v: i128) -> bool {
    v >= 0 && v <= i128::from(mask(w))
}

/// The plain result of `f` on `w`-bit encodings `a`, `b` with flags `fl`,
/// or `None` when it is poison or UB (or flags make it so).
#[inline(always)]
pub fn bin(f: Bin, w: u32, fl: u8, a: u64, b: u64) -> Option<u64> {
    // Sign extension only where an arm reads the signed value: done for
    // every op up front, it was a tenth of a plain op's instructions.
    let (sa, sb) = (|| sext(w, a), || sext(w, b));
    let r = match f {
        // Without flags the wrapped result is all there is to compute.
        Bin::Add if fl == 0 => a.wrapping_add(b),
        Bin::Sub if fl == 0 => a.wrapping_sub(b),
        Bin::Add => arith(w, fl, i128::from(sa()) + i128::from(sb()), i128::from(a) + i128::from(b))?,
        Bin::Sub => arith(w, fl, i128::from(sa()) - i128::from(sb()), i128::from(a) - i128::from(b))?,
        Bin::Mul => mul(w, fl, sa(), sb(), a, b)?,
        Bin::DivU => exact(fl, a.checked_rem(b)?, a / b)?,
        Bin::DivS => exact(fl, (signed_ok(w, sa(), sb())? % sb()) as u64, (sa() / sb()) as u64)?,
        Bin::RemU => a.checked_rem(b)?,
        Bin::RemS => (signed_ok(w, sa(), sb())? % sb()) as u64,
        Bin::And => a & b,
        Bin::Or => a | b,
        Bin::Xor => a ^ b,
        Bin::Shl => shl(w, fl, a, b)?,
        Bin::ShrU => exact(fl, a & mask_below(shift(w, b)?), a >> shift(w, b)?)?,
        Bin::ShrS => exact(fl, a & mask_below(shift(w, b)?), (sa() >> shift(w, b)?) as u64)?,
        Bin::MaxS => {
            if sa() >= sb() {
                a
            } else {
                b
            }
        }
        Bin::MaxU => a.max(b),
        Bin::MinS => {
            if sa() <= sb() {
                a
            } else {
                b
            }
        }
        Bin::MinU => a.min(b),
    };
    Some(r & mask(w))
}

/// The wrapped sum or difference, `None` when `nsw`/`nuw` make it poison.
#[inline(always)]
fn arith(w: u32, fl: u8, signed: i128, unsigned: i128) -> Option<u64> {
    if fl & NSW != 0 && !fits_s(w, signed) || fl & NUW != 0 && !fits_u(w, unsigned) {
        return None;
    }
    Some(signed as u64)
}

/// The wrapped product (64-bit operands' products fit in 128 bits).
#[inline(always)]
fn mul(w: u32, fl: u8, sa: i64, sb: i64, a: u64, b: u64) -> Option<u64> {
    if fl == 0 {
        return Some(a.wrapping_mul(b));
    }
    let s = i128::from(sa) * i128::from(sb);
    let u = u128::from(a) * u128::from(b);
    if fl & NSW != 0 && !fits_s(w, s) || fl & NUW != 0 && u > u128::from(mask(w)) {
        return None;
    }
    Some(s as u64)
}

/// `sa`, unless signed division of `sa` by `sb` is UB (by zero, or
/// INT_MIN / -1, which MLIR also reports for the remainder).
#[inline(always)]
fn signed_ok(w: u32, sa: i64, sb: i64) -> Option<i64> {
    let smin = -(1i128 << (w - 1));
    if sb == 0 || (i128::from(sa) == smin && sb == -1) {
        return None;
    }
    Some(sa)
}

/// `v`, unless `exact` is set and `lost` (the bits or remainder an exact
/// op would drop) is nonzero.
#[inline(always)]
fn exact(fl: u8, lost: u64, v: u64) -> Option<u64> {
    if fl & EXACT != 0 && lost != 0 {
        return None;
    }
    Some(v)
}

/// A shift amount below the width; larger ones are poison.
#[inline(always)]
fn shift(w: u32, b: u64) -> Option<u32> {
    if b >= u64::from(w) {
        return None;
    }
    Some(b as u32)
}

/// The low `s` bits set (`s` < 64).
#[inline(always)]
fn mask_below(s: u32) -> u64 {
    (1u64 << s) - 1
}

/// `shli`; with `nsw`/`nuw` the shifted-out bits must be copies of the
/// sign (the value times 2^s must fit).
#[inline(always)]
fn shl(w: u32, fl: u8, a: u64, b: u64) -> Option<u64> {
    let s = shift(w, b)?;
    if fl & NSW != 0 && !fits_s(w, i128::from(sext(w, a)) << s) || fl & NUW != 0 && !fits_u(w, i128::from(a) << s) {
        return None;
    }
    Some(a << s)
}

/// `cmpi` predicate `p` (eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge).
#[inline(always)]
pub fn cmp(p: u8, w: u32, a: u64, b: u64) -> bool {
    let (sa, sb) = (sext(w, a), sext(w, b));
    match p {
        0 => a == b,
        1 => a != b,
        2 => sa < sb,
        3 => sa <= sb,
        4 => sa > sb,
        5 => sa >= sb,
        6 => a < b,
        7 => a <= b,
        8 => a > b,
        _ => a >= b,
    }
}

/// The `to`-bit result of casting the `from`-bit `a`, or `None` when a
/// flag makes it poison.
#[inline(always)]
pub fn cast(f: Cast, fl: u8, from: u32, to: u32, a: u64) -> Option<u64> {
    let s = sext(from, a);
    let r = match f {
        Cast::Signed => s as u64,
        Cast::Unsigned if fl & NNEG != 0 && s < 0 => return None,
        Cast::Unsigned => a,
        Cast::Trunc if fl & NSW != 0 && !fits_s(to, i128::from(s)) => return None,
        Cast::Trunc if fl & NUW != 0 && !fits_u(to, i128::from(a)) => return None,
        Cast::Trunc => a,
    };
    Some(r & mask(to))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scalar::int_op;
    use crate::sem::int::*;
    use crate::value::Int;
    use proptest::prelude::*;

    const ALL: [Bin; 17] = [
        Bin::Add,
        Bin::Sub,
        Bin::Mul,
        Bin::DivU,
        Bin::DivS,
        Bin::RemU,
        Bin::RemS,
        Bin::And,
        Bin::Or,
        Bin::Xor,
        Bin::Shl,
        Bin::ShrU,
        Bin::ShrS,
        Bin::MaxS,
        Bin::MaxU,
        Bin::MinS,
        Bin::MinU,
    ];
    const FLAGS: [u8; 5] = [0, NSW, NUW, NSW | NUW, EXACT];

    /// The general semantics' answer as the fast path would give it.
    fn general(f: Bin, w: u32, fl: u8, a: u64, b: u64) -> Option<u64> {
        let (x, y) = (&Int::from_u128(w, u128::from(a)), &Int::from_u128(w, u128::from(b)));
        let bitwise = |g: fn(u128, u128) -> u128| Some(Out::Val(Int::from_u128(w, g(x.bits128()?, y.bits128()?))));
        let out = match f {
            Bin::Add => int_op!(w, addi(x, y, fl)),
            Bin::Sub => int_op!(w, subi(x, y, fl)),
            Bin::Mul => int_op!(w, muli(x, y, fl)),
            Bin::DivU => int_op!(w, divui(x, y, fl)),
            Bin::DivS => int_op!(w, divsi(x, y, fl)),
            Bin::RemU => int_op!(w, remui(x, y)),
            Bin::RemS => int_op!(w, remsi(x, y)),
            Bin::And => bitwise(|p, q| p & q),
            Bin::Or => bitwise(|p, q| p | q),
            Bin::Xor => bitwise(|p, q| p ^ q),
            Bin::Shl => int_op!(w, shli(x, y, fl)),
            Bin::ShrU => int_op!(w, shrui(x, y, fl)),
            Bin::ShrS => int_op!(w, shrsi(x, y, fl)),
            Bin::MaxS => int_op!(w, maxsi(x, y)),
            Bin::MaxU => int_op!(w, maxui(x, y)),
            Bin::MinS => int_op!(w, minsi(x, y)),
            Bin::MinU => int_op!(w, minui(x, y)),
        };
        match out? {
            Out::Val(v) => Some(v.bits128()? as u64),
            Out::Poison | Out::Ub(_) => None,
        }
    }

    fn general_cast(f: Cast, fl: u8, from: u32, to: u32, a: u64) -> Option<u64> {
        let x = &Int::from_u128(from, u128::from(a));
        let out = match f {
            Cast::Signed => int_op!(from, extsi(x, to)),
            Cast::Unsigned => int_op!(from, extui(x, to, fl)),
            Cast::Trunc => int_op!(from, trunci(x, to, fl)),
        };
        match out? {
            Out::Val(v) => Some(v.bits128()? as u64),
            Out::Poison | Out::Ub(_) => None,
        }
    }

    fn general_cmp(p: u8, w: u32, a: u64, b: u64) -> bool {
        let (x, y) = (&Int::from_u128(w, u128::from(a)), &Int::from_u128(w, u128::from(b)));
        int_op!(w, cmpi(p, x, y)).unwrap()
    }

    #[test]
    fn every_i8_and_i1_pair_agrees_with_the_general_semantics() {
        for w in [1u32, 3, 8] {
            for a in 0..=mask(w) {
                for b in 0..=mask(w) {
                    for f in ALL {
                        for fl in FLAGS {
                            assert_eq!(bin(f, w, fl, a, b), general(f, w, fl, a, b), "{f:?} i{w} {a} {b} flags {fl}");
                        }
                    }
                    for p in 0..10 {
                        assert_eq!(cmp(p, w, a, b), general_cmp(p, w, a, b), "cmpi {p} i{w} {a} {b}");
                    }
                }
                for to in [1u32, 4, 8, 16] {
                    for fl in [0, NNEG, NSW, NUW] {
                        for f in [Cast::Signed, Cast::Unsigned, Cast::Trunc] {
                            if f == Cast::Trunc && to > w {
                                continue;
                            }
                            assert_eq!(cast(f, fl, w, to, a), general_cast(f, fl, w, to, a), "{f:?} {a} i{w} to i{to}");
                        }
                    }
                }
            }
        }
    }

    /// Values near the edges, where wide ops go wrong.
    fn edgy(w: u32) -> impl Strategy<Value = u64> {
        let m = mask(w);
        prop_oneof![
            0..=m,
            Just(0u64),
            Just(1),
            Just(m),
            Just(m >> 1),
            Just((m >> 1) + 1),
            (0..8u64).prop_map(move |k| k.min(m))
        ]
    }

    proptest! {
        #[test]
        fn wide_words_agree_with_the_general_semantics(
            w in prop_oneof![Just(16u32), Just(32), Just(63), Just(64), 9..64u32],
            seed in any::<(u64, u64)>(),
            fi in 0..17usize,
            fl in 0..5usize,
            p in 0..10u8,
            pick in any::<(bool, bool)>(),
        ) {
            let m = mask(w);
            let small = |x: u64| x % 80;
            let a = if pick.0 { seed.0 & m } else { small(seed.0) & m };
            let b = if pick.1 { seed.1 & m } else { small(seed.1) & m };
            let (f, flags) = (ALL[fi], FLAGS[fl]);
            prop_assert_eq!(bin(f, w, flags, a, b), general(f, w, flags, a, b), "{:?} i{} {} {}", f, w, a, b);
            prop_assert_eq!(cmp(p, w, a, b), general_cmp(p, w, a, b));
            for to in [1u32, 8, 32, 64] {
                prop_assert_eq!(cast(Cast::Signed, 0, w, to, a), general_cast(Cast::Signed, 0, w, to, a));
                prop_assert_eq!(cast(Cast::Unsigned, NNEG, w, to, a), general_cast(Cast::Unsigned, NNEG, w, to, a));
                if to <= w {
                    prop_assert_eq!(cast(Cast::Trunc, flags, w, to, a), general_cast(Cast::Trunc, flags, w, to, a));
                }
            }
        }

        #[test]
        fn edge_values_agree(w in prop_oneof![Just(32u32), Just(64)], a in edgy(64), b in edgy(64), fi in 0..17usize, fl in 0..5usize) {
            let (a, b) = (a & mask(w), b & mask(w));
            prop_assert_eq!(bin(ALL[fi], w, FLAGS[fl], a, b), general(ALL[fi], w, FLAGS[fl], a, b));
        }
    }
}
