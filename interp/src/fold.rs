//! Reductions and contractions of dense lanes on the host's instructions:
//! `vector.multi_reduction` and `vector.contract` without a per-lane
//! `Scalar`. Each folds in exactly the order the general path does (every
//! position of the source or the iteration space in row-major order, into
//! its output lane), with the same operations: f32/f64 `+` and `*` are
//! correctly rounded on the host, and a NaN result is recomputed by the
//! exact path for its canonical encoding; `maximumf`/`minimumf` compare
//! as `sem::fp::maximumf` does; integers wrap. Anything else (another
//! kind, lane or width, poison) is `None`: the caller's general path.

use crate::dense::{words, Dense, Word};
use crate::float::{self, Float, FloatKind, Round};
use crate::lane::Lane;

/// How a reduction combines two lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Comb {
    /// `add`: float or wrapping integer.
    Add,
    /// `mul`: float or wrapping integer.
    Mul,
    /// `maximumf`.
    Maximum,
    /// `minimumf`.
    Minimum,
    /// `and`.
    And,
    /// `or`.
    Or,
    /// `xor`.
    Xor,
    /// `minsi`.
    MinS,
    /// `maxsi`.
    MaxS,
    /// `minui`.
    MinU,
    /// `maxui`.
    MaxU,
}

/// Calls `f(a, b, c)` for every position of `shape` in row-major order,
/// `a`, `b`, `c` the offsets that `strides` give it (the sums of index
/// times stride).
#[inline(always)]
fn walk(shape: &[usize], strides: [&[usize]; 3], mut f: impl FnMut(usize, usize, usize)) {
    let total: usize = shape.iter().product();
    if total == 0 {
        return;
    }
    let rank = shape.len();
    let (inner, [sa, sb, sc]) = match rank {
        0 => (1, [0; 3]),
        _ => (shape[rank - 1], strides.map(|s| s[rank - 1])),
    };
    let mut idx = vec![0usize; rank.saturating_sub(1)];
    let mut off = [0usize; 3];
    loop {
        let [mut a, mut b, mut c] = off;
        for _ in 0..inner {
            f(a, b, c);
            (a, b, c) = (a + sa, b + sb, c + sc);
        }
        // The odometer over the outer dims.
        let mut d = idx.len();
        loop {
            if d == 0 {
                return;
            }
            d -= 1;
            idx[d] += 1;
            for (o, s) in off.iter_mut().zip(strides) {
                *o += s[d];
            }
            if idx[d] < shape[d] {
                break;
            }
            for (o, s) in off.iter_mut().zip(strides) {
                *o -= shape[d] * s[d];
            }
            idx[d] = 0;
        }
    }
}

/// An f32 or f64 lane as the host and the exact path see it.
trait HostFloat: Word + PartialEq + std::ops::Add<Output = Self> + std::ops::Mul<Output = Self> {
    fn exact(self) -> Float;
    fn host(f: Float) -> Self;
    fn max_bits(a: Self, b: Self, max: bool) -> Self;
}

macro_rules! host_float {
    ($t:ty, $k:expr, $wide:expr) => {
        impl HostFloat for $t {
            fn exact(self) -> Float {
                Float { kind: $k, bits: u128::from(self.to_bits()) }
            }
            fn host(f: Float) -> Self {
                <$t>::from_bits(f.bits as _)
            }
            fn max_bits(a: Self, b: Self, max: bool) -> Self {
                let r = float::host::maximum(u64::from(a.to_bits()), u64::from(b.to_bits()), max, $wide);
                <$t>::from_bits(r as _)
            }
        }
    };
}
host_float!(f32, FloatKind::F32, false);
host_float!(f64, FloatKind::F64, true);

/// `x + y` (`mul` false) or `x * y`, as the exact path rounds and encodes it.
#[inline(always)]
fn arith<T: HostFloat>(x: T, y: T, mul: bool) -> T {
    let r = if mul { x * y } else { x + y };
    #[allow(clippy::eq_op)]
    if r != r {
        let ne = Round::NearestEven;
        let (a, b) = (x.exact(), y.exact());
        return T::host(if mul { float::mul(a, b, ne) } else { float::add(a, b, ne) });
    }
    r
}

/// `out[o(p)] = out[o(p)] <c> src[p]` for every position `p` of `src` in
/// row-major order, `o(p)` the sum of `p`'s indices times `ostrides` (0
/// on the reduced dims), `out` starting as `acc`: `vector.multi_reduction`
/// without a mask. `None` when the operands or the kind do not qualify.
pub fn reduce(src: &Dense, acc: &Dense, ostrides: &[usize], c: Comb) -> Option<Dense> {
    if src.lane() != acc.lane() || src.has_poison() || acc.has_poison() || ostrides.len() != src.shape().len() {
        return None;
    }
    let strides = crate::dense::row_major_strides(src.shape());
    let reach = src
        .shape()
        .iter()
        .zip(ostrides)
        .try_fold(0usize, |t, (n, s)| t.checked_add(n.checked_sub(1)?.checked_mul(*s)?));
    let lanes = acc.bytes().len() / acc.lane().bytes().max(1);
    if reach.is_none_or(|r| r >= lanes) {
        return None;
    }
    let mut out = acc.bytes().to_vec();
    let z = vec![0usize; strides.len()];
    // One walk per kind, each with its operation inlined.
    macro_rules! go {
        ($x:ident, $o:ident, $f:expr) => {
            walk(src.shape(), [&strides, ostrides, &z], |s, d, _| $o[d] = $f($o[d], $x[s]))
        };
    }
    macro_rules! floats {
        ($t:ty) => {{
            let (x, o) = (words::<$t>(src.bytes())?, words_mut::<$t>(&mut out)?);
            match c {
                Comb::Add => go!(x, o, |a, b| arith::<$t>(a, b, false)),
                Comb::Mul => go!(x, o, |a, b| arith::<$t>(a, b, true)),
                Comb::Maximum => go!(x, o, |a, b| <$t>::max_bits(a, b, true)),
                Comb::Minimum => go!(x, o, |a, b| <$t>::max_bits(a, b, false)),
                _ => return None,
            }
        }};
    }
    macro_rules! ints {
        ($u:ty, $i:ty) => {{
            let (x, o) = (words::<$u>(src.bytes())?, words_mut::<$u>(&mut out)?);
            match c {
                Comb::Add => go!(x, o, |a: $u, b| a.wrapping_add(b)),
                Comb::Mul => go!(x, o, |a: $u, b| a.wrapping_mul(b)),
                Comb::And => go!(x, o, |a: $u, b| a & b),
                Comb::Or => go!(x, o, |a: $u, b| a | b),
                Comb::Xor => go!(x, o, |a: $u, b| a ^ b),
                Comb::MinU => go!(x, o, |a: $u, b| a.min(b)),
                Comb::MaxU => go!(x, o, |a: $u, b| a.max(b)),
                Comb::MinS => go!(x, o, |a: $u, b| (a as $i).min(b as $i) as $u),
                Comb::MaxS => go!(x, o, |a: $u, b| (a as $i).max(b as $i) as $u),
                _ => return None,
            }
        }};
    }
    match src.lane() {
        Lane::Float(FloatKind::F32) => floats!(f32),
        Lane::Float(FloatKind::F64) => floats!(f64),
        Lane::Int(8) => ints!(u8, i8),
        Lane::Int(16) => ints!(u16, i16),
        Lane::Int(32) => ints!(u32, i32),
        Lane::Int(64) => ints!(u64, i64),
        _ => return None,
    }
    Dense::from_le_bytes(acc.shape(), acc.lane(), out).ok()
}

/// `out[c(p)] = out[c(p)] + lhs[a(p)] * rhs[b(p)]` for every point `p`
/// of the iteration space `space` in row-major order, `a`, `b`, `c` the
/// operands' offsets by `strides`: `vector.contract` with `add` on f32 or
/// f64 lanes of one type, no mask. `out` starts as `acc`, or for the dot
/// lowering (`dot`) as +0 with `acc` added at the end. `None` when the
/// operands do not qualify.
pub fn contract(
    lhs: &Dense,
    rhs: &Dense,
    acc: &Dense,
    space: &[usize],
    strides: [&[usize]; 3],
    dot: bool,
) -> Option<Dense> {
    let lane = acc.lane();
    if lhs.lane() != lane || rhs.lane() != lane || lhs.has_poison() || rhs.has_poison() || acc.has_poison() {
        return None;
    }
    if strides.iter().any(|s| s.len() != space.len()) {
        return None;
    }
    let mut out = if dot { vec![0u8; acc.bytes().len()] } else { acc.bytes().to_vec() };
    fn run<T: HostFloat>(
        l: &[u8],
        r: &[u8],
        a: &[u8],
        out: &mut [u8],
        space: &[usize],
        s: [&[usize]; 3],
        dot: bool,
    ) -> Option<()> {
        let (x, y, o) = (words::<T>(l)?, words::<T>(r)?, words_mut::<T>(out)?);
        // Every offset in range (the strides come from the shapes; checked
        // here all the same, as the largest offset each walk reaches).
        let reach = |len: usize, s: &[usize]| {
            let top =
                space.iter().zip(s).try_fold(0usize, |t, (n, s)| t.checked_add(n.checked_sub(1)?.checked_mul(*s)?));
            top.is_some_and(|t| t < len)
        };
        if !reach(x.len(), s[0]) || !reach(y.len(), s[1]) || !reach(o.len(), s[2]) {
            return None;
        }
        walk(space, s, |i, j, k| o[k] = arith(o[k], arith(x[i], y[j], true), false));
        if dot {
            for (o, a) in o.iter_mut().zip(words::<T>(a)?) {
                *o = arith(*o, *a, false);
            }
        }
        Some(())
    }
    match lane {
        Lane::Float(FloatKind::F32) => {
            run::<f32>(lhs.bytes(), rhs.bytes(), acc.bytes(), &mut out, space, strides, dot)?
        }
        Lane::Float(FloatKind::F64) => {
            run::<f64>(lhs.bytes(), rhs.bytes(), acc.bytes(), &mut out, space, strides, dot)?
        }
        _ => return None,
    }
    Dense::from_le_bytes(acc.shape(), lane, out).ok()
}

/// `b` as a mutable slice of words (see `dense::words`).
fn words_mut<T: Word>(b: &mut [u8]) -> Option<&mut [T]> {
    if cfg!(target_endian = "big") {
        return None;
    }
    // SAFETY: every bit pattern is a valid `T` (floats and unsigned
    // integers), and `align_to_mut` only hands out the aligned middle.
    let (head, mid, tail) = unsafe { b.align_to_mut::<T>() };
    (head.is_empty() && tail.is_empty()).then_some(mid)
}
