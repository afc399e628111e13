//! Vector and tensor values in one dense typed encoding: the shape, the
//! elements in row-major order as bytes (each lane encoded as memory
//! encodes it, `crate::lane`), and which elements are poison. A
//! `vector<16xf32>` is 64 bytes, not 16 boxed scalars; an `i1` tensor is a
//! byte per element; elements move between values and buffers without
//! re-encoding.

use crate::float::Float;
use crate::lane::{le_u128, put_le, Lane};
use crate::poison::PoisonRuns;
use crate::scalar::{Poison, Scalar};
use ndarray::{ArrayD, IxDyn};

/// A vector or tensor value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dense {
    shape: Box<[usize]>,
    lane: Lane,
    /// `len() * lane.bytes()` bytes; a poison element's bytes are zero, so
    /// equal values have equal bytes.
    bytes: Box<[u8]>,
    /// The poison elements and their origins, as runs of positions (a
    /// tensor that is poison everywhere is one run).
    poison: PoisonRuns,
}

/// Why scalars could not become a [`Dense`] value (an interpreter bug:
/// the verifier guarantees shapes and element types).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DenseError {
    /// The element count is not the product of the shape.
    Shape,
    /// An element does not have the value's element type.
    Kind,
    /// The host could not allocate this many bytes.
    Alloc(usize),
}

impl Dense {
    /// The elements `elems` (row-major) of shape `shape`. The lane is
    /// `lane`, or else the first non-poison element's; an all-poison value
    /// without a lane stores no bytes (every read is poison anyway).
    pub fn new(shape: &[usize], elems: &[Scalar], lane: Option<Lane>) -> Result<Dense, DenseError> {
        let mut b = Builder::new(shape, lane)?;
        for e in elems {
            b.push(e)?;
        }
        b.finish()
    }

    /// `s` in every element of shape `shape`: one encoding, repeated.
    pub fn splat(shape: &[usize], s: &Scalar, lane: Option<Lane>) -> Result<Dense, DenseError> {
        let n = shape.iter().try_fold(1usize, |n, d| n.checked_mul(*d)).ok_or(DenseError::Shape)?;
        let mut one = Builder::new(&[1], lane)?;
        one.push(s)?;
        let one = one.finish()?;
        one.repeat(shape, n)
    }

    /// The one element of `self` in each of the `n` elements of `shape`:
    /// its encoding copied in doubling runs (a memcpy-like fill, not a
    /// store per element), its poison one run.
    fn repeat(&self, shape: &[usize], n: usize) -> Result<Dense, DenseError> {
        let size = n.checked_mul(self.bytes.len()).ok_or(DenseError::Alloc(usize::MAX))?;
        let mut bytes = Vec::new();
        bytes.try_reserve_exact(size).map_err(|_| DenseError::Alloc(size))?;
        // A lane-less (all-poison) element has no bytes to repeat.
        if n > 0 {
            bytes.extend_from_slice(&self.bytes);
            while bytes.len() < size {
                let more = bytes.len().min(size - bytes.len());
                bytes.extend_from_within(..more);
            }
        }
        let mut poison = PoisonRuns::default();
        if let Some(p) = self.poison_at(0).filter(|_| n > 0) {
            poison.set(0, n, p);
        }
        Ok(Dense { shape: shape.into(), lane: self.lane, bytes: bytes.into_boxed_slice(), poison })
    }

    /// Elements given as their encoding: `bytes` holds every lane of
    /// `shape` in row-major order (none is poison).
    pub fn from_le_bytes(shape: &[usize], lane: Lane, bytes: Vec<u8>) -> Result<Dense, DenseError> {
        let n = shape.iter().try_fold(1usize, |n, d| n.checked_mul(*d)).ok_or(DenseError::Shape)?;
        if n.checked_mul(lane.bytes()) != Some(bytes.len()) {
            return Err(DenseError::Shape);
        }
        let poison = PoisonRuns::default();
        Ok(Dense { shape: shape.into(), lane, bytes: bytes.into_boxed_slice(), poison })
    }

    /// The shape.
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// Element `i` as a sign-extended `i64`, when it is an integer of at
    /// most 64 bits and not poison (`None` otherwise, or out of range).
    #[inline]
    pub fn i64_at(&self, i: usize) -> Option<i64> {
        let Lane::Int(w) = self.lane else { return None };
        if w == 0 || w > 64 || (self.has_poison() && self.poison_at(i).is_some()) {
            return None;
        }
        let n = w.div_ceil(8) as usize;
        let b = self.bytes.get(i * n..i * n + n)?;
        let mut le = [0u8; 8];
        le[..n].copy_from_slice(b);
        let sh = 64 - w;
        Some(((u64::from_le_bytes(le) << sh) as i64) >> sh)
    }

    /// The elements as sign-extended `i64`s, when they are integers of at
    /// most 64 bits and none is poison: the bulk read of integer kernels,
    /// which would otherwise build a `Scalar` per element.
    pub fn to_i64s(&self) -> Option<Vec<i64>> {
        let Lane::Int(w) = self.lane else { return None };
        if w == 0 || w > 64 || self.has_poison() {
            return None;
        }
        let sh = 64 - w;
        let ext = |u: u64| ((u << sh) as i64) >> sh;
        let b = &self.bytes;
        Some(match w.div_ceil(8) as usize {
            1 => b.iter().map(|x| ext(u64::from(*x))).collect(),
            2 => b.chunks_exact(2).map(|c| ext(u64::from(u16::from_le_bytes([c[0], c[1]])))).collect(),
            4 => b.chunks_exact(4).map(|c| ext(u64::from(u32::from_le_bytes([c[0], c[1], c[2], c[3]])))).collect(),
            n => b
                .chunks_exact(n)
                .map(|c| {
                    let mut le = [0u8; 8];
                    le[..n].copy_from_slice(c);
                    ext(u64::from_le_bytes(le))
                })
                .collect(),
        })
    }

    /// A `w`-bit integer array (`w` at most 64) of `shape` from `vals`,
    /// each wrapped to `w` bits: the bulk write matching [`Dense::to_i64s`].
    pub fn from_i64s(shape: &[usize], w: u32, vals: &[i64]) -> Result<Dense, DenseError> {
        if w == 0 || w > 64 {
            return Err(DenseError::Kind);
        }
        let total = shape.iter().try_fold(1usize, |n, d| n.checked_mul(*d)).ok_or(DenseError::Shape)?;
        if total != vals.len() {
            return Err(DenseError::Shape);
        }
        let n = w.div_ceil(8) as usize;
        let mask = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
        let size = total.saturating_mul(n);
        let mut bytes = Vec::new();
        bytes.try_reserve_exact(size).map_err(|_| DenseError::Alloc(size))?;
        for v in vals {
            bytes.extend_from_slice(&((*v as u64) & mask).to_le_bytes()[..n]);
        }
        Ok(Dense {
            shape: shape.into(),
            lane: Lane::Int(w),
            bytes: bytes.into_boxed_slice(),
            poison: PoisonRuns::default(),
        })
    }

    /// The element lane.
    pub fn lane(&self) -> Lane {
        self.lane
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }

    /// True when there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The encoded elements (a poison element's bytes are zero).
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The encoded elements, to overwrite in place: a writer keeps a
    /// poison element's bytes zero and its origin in the poison runs
    /// ([`Dense::set`] does both).
    pub(crate) fn bytes_mut(&mut self) -> &mut [u8] {
        &mut self.bytes
    }

    /// True when some element is poison.
    #[inline]
    pub fn has_poison(&self) -> bool {
        !self.poison.is_empty()
    }

    /// Forgets every element's poison (a writer about to overwrite every
    /// element); `false`, changing nothing, when the value has no bytes to
    /// write into (an all-poison value of no lane).
    pub(crate) fn unpoison_all(&mut self) -> bool {
        if self.bytes.len() != self.len().saturating_mul(self.lane.bytes()) {
            return false;
        }
        self.poison = PoisonRuns::default();
        true
    }

    /// The poison origin of element `i`, if it is poison.
    #[inline]
    pub fn poison_at(&self, i: usize) -> Option<Poison> {
        self.poison.first_in(i, 1)
    }

    /// The first poison element's origin, if any.
    pub fn first_poison(&self) -> Option<Poison> {
        self.poison.first_in(0, self.len())
    }

    /// The row-major position of the element at `idx`, if inside the shape.
    pub fn linear(&self, idx: &[usize]) -> Option<usize> {
        if idx.len() != self.shape.len() {
            return None;
        }
        idx.iter().zip(self.shape.iter()).try_fold(0usize, |acc, (&i, &n)| (i < n).then(|| acc * n + i))
    }

    /// Replaces element `i` (`i < len()`) with `s`.
    pub fn set(&mut self, i: usize, s: &Scalar) -> Result<(), DenseError> {
        let n = self.lane.bytes();
        if let Scalar::Poison(p) = s {
            self.poison.set(i, 1, *p);
            self.bytes[i * n..(i + 1) * n].fill(0);
            return Ok(());
        }
        if n == 0 {
            // All poison so far, with no lane: re-encode with the new one.
            let elems: Vec<Scalar> = (0..self.len()).map(|k| if k == i { s.clone() } else { self.get(k) }).collect();
            *self = Dense::new(&self.shape, &elems, None)?;
            return Ok(());
        }
        if Lane::of(s) != Some(self.lane) {
            return Err(DenseError::Kind);
        }
        self.lane.encode(s, &mut self.bytes[i * n..(i + 1) * n]).ok_or(DenseError::Kind)?;
        self.poison.clear(i, 1);
        Ok(())
    }

    /// Element `i` in row-major order (`i < len()`).
    #[inline]
    pub fn get(&self, i: usize) -> Scalar {
        if let Some(p) = self.poison_at(i) {
            return Scalar::Poison(p);
        }
        let n = self.lane.bytes();
        self.lane.decode(&self.bytes[i * n..(i + 1) * n])
    }

    /// The elements in row-major order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Scalar> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }

    /// The elements as floats, when they are of a float format and none is
    /// poison: the lanes read straight from the bytes.
    pub fn floats(&self) -> Option<impl ExactSizeIterator<Item = Float> + '_> {
        let Lane::Float(kind) = self.lane else { return None };
        if !self.poison.is_empty() {
            return None;
        }
        Some(self.bytes.chunks_exact(self.lane.bytes()).map(move |c| Float { kind, bits: le_u128(c) }))
    }

    /// `f` over three same-shaped arrays of one float format without
    /// poison, lane by lane into that format (`vector.fma`);
    /// `None` when the operands do not qualify.
    pub fn zip3_floats(
        a: &Dense,
        b: &Dense,
        c: &Dense,
        mut f: impl FnMut(Float, Float, Float) -> Float,
    ) -> Option<Dense> {
        if a.shape != b.shape || a.shape != c.shape || a.lane != b.lane || a.lane != c.lane {
            return None;
        }
        let (xs, ys, zs) = (a.floats()?, b.floats()?, c.floats()?);
        let n = a.lane.bytes();
        let mut bytes = vec![0u8; a.bytes.len()];
        for (((x, y), z), out) in xs.zip(ys).zip(zs).zip(bytes.chunks_exact_mut(n)) {
            let r = f(x, y, z);
            if r.kind != x.kind {
                return None;
            }
            put_le(r.bits, out);
        }
        Some(a.with_bytes(a.lane, bytes))
    }

    /// The block at `base` of `shape` over this tensor's trailing dims
    /// (`crate::block`), rows copied as bytes, when every element is in
    /// bounds and none is poison; `None` sends the access down the
    /// per-element path.
    pub fn read_block(&self, base: &[i64], shape: &[usize]) -> Option<Dense> {
        let (blk, n) = self.rows(base, shape)?;
        if !self.poison.is_empty() {
            return None;
        }
        let mut out = Vec::with_capacity(blk.starts.len() * blk.len * n);
        for &start in &blk.starts {
            let at = start as usize * n;
            out.extend_from_slice(self.bytes.get(at..at + blk.len * n)?);
        }
        Dense::from_le_bytes(shape, self.lane, out).ok()
    }

    /// Writes `v` (of this tensor's lane, no poison) as the block at
    /// `base` (see [`Dense::read_block`]); false when it wrote nothing.
    pub fn write_block(&mut self, base: &[i64], v: &Dense) -> bool {
        if v.lane != self.lane || !v.poison.is_empty() {
            return false;
        }
        let Some((blk, n)) = self.rows(base, &v.shape) else { return false };
        let row = blk.len * n;
        for (&start, src) in blk.starts.iter().zip(v.bytes.chunks_exact(row)) {
            let at = start as usize * n;
            let Some(dst) = self.bytes.get_mut(at..at + row) else { return false };
            dst.copy_from_slice(src);
            self.poison.clear(at / n, blk.len);
        }
        true
    }

    /// The rows of the block at `base` of `shape` in this row-major
    /// tensor, with the lane's size in bytes.
    fn rows(&self, base: &[i64], shape: &[usize]) -> Option<(crate::block::Block, usize)> {
        let sizes: Vec<i64> = self.shape.iter().map(|d| i64::try_from(*d).ok()).collect::<Option<_>>()?;
        let strides: Vec<i64> =
            row_major_strides(&self.shape).iter().map(|s| i64::try_from(*s).ok()).collect::<Option<_>>()?;
        Some((crate::block::of(&sizes, &strides, 0, base, shape)?, self.lane.bytes()))
    }

    /// Two arrays a host lane loop takes: one shape, one lane, no poison.
    fn plain_pair(a: &Dense, b: &Dense) -> bool {
        a.shape == b.shape && a.lane == b.lane && a.poison.is_empty() && b.poison.is_empty()
    }

    /// A value of this shape whose lanes of `lane` are `bytes`, none poison.
    fn with_bytes(&self, lane: Lane, bytes: Vec<u8>) -> Dense {
        Dense { shape: self.shape.clone(), lane, bytes: bytes.into_boxed_slice(), poison: PoisonRuns::default() }
    }

    /// `a op b` lane by lane on two same-shaped f32 or f64 arrays without
    /// poison, on the host's instructions (correctly rounded, so the exact
    /// path's bits) in a loop the compiler vectorizes; a NaN lane is then
    /// recomputed by the exact path for its canonical encoding. `None`
    /// when the operands do not qualify.
    pub fn host2(a: &Dense, b: &Dense, op: crate::float::host::Bin) -> Option<Dense> {
        use crate::float::host::Bin;
        use crate::float::FloatKind;
        if !Dense::plain_pair(a, b) {
            return None;
        }
        let Lane::Float(kind @ (FloatKind::F32 | FloatKind::F64)) = a.lane else { return None };
        macro_rules! lanes {
            ($t:ty) => {{
                let (Some(x), Some(y)) = (words::<$t>(&a.bytes), words::<$t>(&b.bytes)) else { return None };
                // One loop per operation, each vectorized.
                let bytes = match op {
                    Bin::Add => zip_with(x, y, |x, y| x + y),
                    Bin::Sub => zip_with(x, y, |x, y| x - y),
                    Bin::Mul => zip_with(x, y, |x, y| x * y),
                    Bin::Div => zip_with(x, y, |x, y| x / y),
                }?;
                let nan = any_nan(words::<$t>(&bytes)?);
                Some((bytes, nan))
            }};
        }
        let (mut bytes, nan) = if kind == FloatKind::F32 { lanes!(f32) } else { lanes!(f64) }?;
        if nan {
            let n = a.lane.bytes();
            let exact = match op {
                Bin::Add => crate::float::add,
                Bin::Sub => crate::float::sub,
                Bin::Mul => crate::float::mul,
                Bin::Div => crate::float::div,
            };
            for (i, out) in bytes.chunks_exact_mut(n).enumerate() {
                let r = Float { kind, bits: le_u128(out) };
                if crate::float::is_nan(r) {
                    let (x, y) = (le_u128(&a.bytes[i * n..(i + 1) * n]), le_u128(&b.bytes[i * n..(i + 1) * n]));
                    let r = exact(Float { kind, bits: x }, Float { kind, bits: y }, crate::float::Round::NearestEven);
                    put_le(r.bits, out);
                }
            }
        }
        Some(a.with_bytes(a.lane, bytes))
    }

    /// The lanes converted to lane `to` on the host's conversions, in a
    /// loop the compiler vectorizes: integers of 8 to 64 bits extended
    /// (`how` says by sign or by zeros) or truncated to such integers, or
    /// converted to f32/f64 (Rust's `as`, which rounds to nearest-even as
    /// `sitofp`/`uitofp` do); f32 to f64 and back (nearest-even), a NaN
    /// lane recomputed by `nan` for its canonical encoding. `None` when
    /// the value has poison, the pair is another one, or `nan` gives none.
    pub fn host_cast(&self, to: Lane, how: HostCast, nan: impl Fn(Float) -> Option<Float>) -> Option<Dense> {
        use crate::float::FloatKind::{F32, F64};
        if !self.poison.is_empty() {
            return None;
        }
        let n = self.len();
        // Integer lanes as i64 (by sign) or u64 (by zeros), then to `to`.
        macro_rules! from_int {
            ($u:ty, $i:ty) => {{
                let x = words::<$u>(&self.bytes)?;
                let signed = how == HostCast::Signed;
                let wide = x.iter().map(move |&v| if signed { v as $i as i64 as u64 } else { v as u64 });
                match to {
                    Lane::Int(8) => collect_words(n, wide.map(|v| v as u8)),
                    Lane::Int(16) => collect_words(n, wide.map(|v| v as u16)),
                    Lane::Int(32) => collect_words(n, wide.map(|v| v as u32)),
                    Lane::Int(64) => collect_words(n, wide),
                    Lane::Float(F32) if signed => collect_words(n, wide.map(|v| v as i64 as f32)),
                    Lane::Float(F32) => collect_words(n, wide.map(|v| v as f32)),
                    Lane::Float(F64) if signed => collect_words(n, wide.map(|v| v as i64 as f64)),
                    Lane::Float(F64) => collect_words(n, wide.map(|v| v as f64)),
                    _ => None,
                }
            }};
        }
        // f32 <-> f64, then the NaN lanes exactly.
        macro_rules! float_to {
            ($f:ty, $t:ty, $from:expr, $to:expr) => {{
                let x = words::<$f>(&self.bytes)?;
                let mut bytes = collect_words(n, x.iter().map(|&v| v as $t))?;
                if any_nan(words::<$t>(&bytes)?) {
                    for (v, out) in x.iter().zip(bytes.chunks_exact_mut(std::mem::size_of::<$t>())) {
                        if v.is_nan() {
                            let r = nan(Float { kind: $from, bits: u128::from(v.to_bits()) })?;
                            if r.kind != $to {
                                return None;
                            }
                            put_le(r.bits, out);
                        }
                    }
                }
                Some(bytes)
            }};
        }
        let bytes = match (self.lane, to) {
            (Lane::Int(8), _) if how != HostCast::Float => from_int!(u8, i8),
            (Lane::Int(16), _) if how != HostCast::Float => from_int!(u16, i16),
            (Lane::Int(32), _) if how != HostCast::Float => from_int!(u32, i32),
            (Lane::Int(64), _) if how != HostCast::Float => from_int!(u64, i64),
            (Lane::Float(F32), Lane::Float(F64)) if how == HostCast::Float => float_to!(f32, f64, F32, F64),
            (Lane::Float(F64), Lane::Float(F32)) if how == HostCast::Float => float_to!(f64, f32, F64, F32),
            _ => None,
        }?;
        Some(self.with_bytes(to, bytes))
    }

    /// Wrapping `a op b` lane by lane on two same-shaped arrays of 8-, 16-,
    /// 32- or 64-bit integers without poison (the flagless `addi`, `subi`,
    /// `muli`, `andi`, `ori`, `xori`: two's complement wraps as the
    /// semantics do), in a loop the compiler vectorizes. `None` when the
    /// operands do not qualify.
    pub fn host_int2(a: &Dense, b: &Dense, op: IntBin) -> Option<Dense> {
        if !Dense::plain_pair(a, b) {
            return None;
        }
        macro_rules! lanes {
            ($t:ty) => {{
                let (x, y) = (words::<$t>(&a.bytes)?, words::<$t>(&b.bytes)?);
                match op {
                    IntBin::Add => zip_with(x, y, |x, y| x.wrapping_add(y)),
                    IntBin::Sub => zip_with(x, y, |x, y| x.wrapping_sub(y)),
                    IntBin::Mul => zip_with(x, y, |x, y| x.wrapping_mul(y)),
                    IntBin::And => zip_with(x, y, |x, y| x & y),
                    IntBin::Or => zip_with(x, y, |x, y| x | y),
                    IntBin::Xor => zip_with(x, y, |x, y| x ^ y),
                }
            }};
        }
        let bytes = match a.lane {
            Lane::Int(8) => lanes!(u8),
            Lane::Int(16) => lanes!(u16),
            Lane::Int(32) => lanes!(u32),
            Lane::Int(64) => lanes!(u64),
            _ => None,
        }?;
        Some(a.with_bytes(a.lane, bytes))
    }

    /// `cmpf` with predicate `pred` (`arith.cmpf`'s enum order) lane by
    /// lane on two same-shaped f32 or f64 arrays without poison, on the
    /// host's comparisons (exact: IEEE 754 orders every pair, NaN
    /// unordered), into an `i1` array. `None` when the operands do not
    /// qualify.
    // Clippy's rewrites (`x != y` for `x < y || x > y`, `partial_cmp` for
    // `!(x < y)`) would change what the predicates mean on NaN.
    #[allow(clippy::double_comparisons, clippy::neg_cmp_op_on_partial_ord)]
    pub fn host_cmpf(a: &Dense, b: &Dense, pred: u8) -> Option<Dense> {
        use crate::float::FloatKind;
        if !Dense::plain_pair(a, b) {
            return None;
        }
        let Lane::Float(kind @ (FloatKind::F32 | FloatKind::F64)) = a.lane else { return None };
        // One loop per predicate, each vectorized (the comparisons are
        // IEEE 754's: NaN is unordered, so `x < y` is false for it).
        macro_rules! lanes {
            ($t:ty) => {{
                let (Some(x), Some(y)) = (words::<$t>(&a.bytes), words::<$t>(&b.bytes)) else { return None };
                macro_rules! by {
                    ($f:expr) => {
                        collect_words(x.len(), x.iter().zip(y).map(|(&x, &y)| u8::from($f(x, y))))
                    };
                }
                match pred {
                    0 => by!(|_: $t, _: $t| false),
                    1 => by!(|x: $t, y: $t| x == y),
                    2 => by!(|x: $t, y: $t| x > y),
                    3 => by!(|x: $t, y: $t| x >= y),
                    4 => by!(|x: $t, y: $t| x < y),
                    5 => by!(|x: $t, y: $t| x <= y),
                    6 => by!(|x: $t, y: $t| x < y || x > y),
                    7 => by!(|x: $t, y: $t| x == x && y == y),
                    8 => by!(|x: $t, y: $t| !(x < y || x > y)),
                    9 => by!(|x: $t, y: $t| !(x <= y)),
                    10 => by!(|x: $t, y: $t| !(x < y)),
                    11 => by!(|x: $t, y: $t| !(x >= y)),
                    12 => by!(|x: $t, y: $t| !(x > y)),
                    13 => by!(|x: $t, y: $t| x != y),
                    14 => by!(|x: $t, y: $t| x != x || y != y),
                    _ => by!(|_: $t, _: $t| true),
                }
            }};
        }
        let bytes = if kind == FloatKind::F32 { lanes!(f32) } else { lanes!(f64) }?;
        Some(a.with_bytes(Lane::Int(1), bytes))
    }

    /// Elementwise `c ? t : f` for an `i1` array `c` without poison and
    /// same-shaped `t`, `f` of one lane (their poison elements carried);
    /// `None` when the operands do not qualify.
    pub fn select(c: &Dense, t: &Dense, f: &Dense) -> Option<Dense> {
        if c.lane != Lane::Int(1)
            || !c.poison.is_empty()
            || c.shape != t.shape
            || c.shape != f.shape
            || t.lane != f.lane
        {
            return None;
        }
        let n = t.lane.bytes();
        let carry = !t.poison.is_empty() || !f.poison.is_empty();
        if !carry {
            if let Some(bytes) = pick_words(&c.bytes, &t.bytes, &f.bytes, n) {
                let poison = PoisonRuns::default();
                return Some(Dense { shape: c.shape.clone(), lane: t.lane, bytes: bytes.into_boxed_slice(), poison });
            }
        }
        let mut bytes = Vec::with_capacity(t.bytes.len());
        let mut poison = PoisonRuns::default();
        for (i, &k) in c.bytes.iter().enumerate() {
            let src = if k & 1 != 0 { t } else { f };
            bytes.extend_from_slice(&src.bytes[i * n..(i + 1) * n]);
            if let Some(p) = src.poison_at(i).filter(|_| carry) {
                poison.set(i, 1, p);
            }
        }
        Some(Dense { shape: c.shape.clone(), lane: t.lane, bytes: bytes.into_boxed_slice(), poison })
    }

    /// The elements at row-major positions `src` (one per element of
    /// `shape`, in its row-major order), poison carried.
    pub fn gather(&self, shape: &[usize], src: impl IntoIterator<Item = usize>) -> Result<Dense, DenseError> {
        let total = shape.iter().try_fold(1usize, |n, d| n.checked_mul(*d)).ok_or(DenseError::Shape)?;
        let (n, len) = (self.lane.bytes(), self.len());
        let mut bytes = Vec::new();
        bytes.try_reserve_exact(total.saturating_mul(n)).map_err(|_| DenseError::Alloc(total.saturating_mul(n)))?;
        let mut poison = PoisonRuns::default();
        let carry = !self.poison.is_empty();
        let mut k = 0;
        for i in src {
            if i >= len || k >= total {
                return Err(DenseError::Shape);
            }
            bytes.extend_from_slice(&self.bytes[i * n..(i + 1) * n]);
            if let Some(p) = self.poison_at(i).filter(|_| carry) {
                poison.set(k, 1, p);
            }
            k += 1;
        }
        if k != total {
            return Err(DenseError::Shape);
        }
        Ok(Dense { shape: shape.into(), lane: self.lane, bytes: bytes.into_boxed_slice(), poison })
    }

    /// The same elements in row-major order under `shape` (as many elements).
    pub fn reshape(&self, shape: &[usize]) -> Result<Dense, DenseError> {
        match shape.iter().try_fold(1usize, |n, d| n.checked_mul(*d)) {
            Some(n) if n == self.len() => Ok(Dense { shape: shape.into(), ..self.clone() }),
            _ => Err(DenseError::Shape),
        }
    }

    /// The sub-array under leading position `p` (`p.len() <= rank`): its
    /// shape and the row-major positions it covers; `None` out of bounds.
    pub fn block(&self, p: &[usize]) -> Option<(&[usize], std::ops::Range<usize>)> {
        if p.len() > self.shape.len() {
            return None;
        }
        let (lead, rest) = self.shape.split_at(p.len());
        let first = p.iter().zip(lead).try_fold(0usize, |acc, (&i, &n)| (i < n).then(|| acc * n + i))?;
        let size: usize = rest.iter().product();
        Some((rest, first * size..(first + 1) * size))
    }

    /// A copy with the block under `p` (see [`Dense::block`]) replaced by
    /// the elements of `item`, which must be as many.
    pub fn with_block(&self, p: &[usize], item: &Dense) -> Result<Dense, DenseError> {
        let (_, range) = self.block(p).ok_or(DenseError::Shape)?;
        if range.len() != item.len() {
            return Err(DenseError::Shape);
        }
        let mut out = self.clone();
        if self.lane == item.lane && item.poison.is_empty() && self.poison.is_empty() {
            let n = self.lane.bytes();
            out.bytes[range.start * n..range.end * n].copy_from_slice(&item.bytes);
            return Ok(out);
        }
        for (k, i) in range.enumerate() {
            out.set(i, &item.get(k))?;
        }
        Ok(out)
    }

    /// A copy with element `positions[k]` replaced by element `k` of `src`
    /// (as many positions as `src` has elements).
    pub fn scatter(&self, positions: &[usize], src: &Dense) -> Result<Dense, DenseError> {
        let mut out = self.clone();
        out.scatter_in_place(positions, src)?;
        Ok(out)
    }

    /// Replaces element `positions[k]` with element `k` of `src` (as many
    /// positions as `src` has elements; unchanged if not). An element of
    /// another kind fails midway: the verifier rules that out.
    pub fn scatter_in_place(&mut self, positions: &[usize], src: &Dense) -> Result<(), DenseError> {
        if positions.len() != src.len() || positions.iter().any(|&i| i >= self.len()) {
            return Err(DenseError::Shape);
        }
        if self.lane == src.lane && src.poison.is_empty() && self.poison.is_empty() {
            let n = self.lane.bytes();
            for (k, &i) in positions.iter().enumerate() {
                self.bytes[i * n..(i + 1) * n].copy_from_slice(&src.bytes[k * n..(k + 1) * n]);
            }
            return Ok(());
        }
        for (k, &i) in positions.iter().enumerate() {
            self.set(i, &src.get(k))?;
        }
        Ok(())
    }

    /// The transpose: result dim `d` is dim `perm[d]`.
    pub fn transpose(&self, perm: &[usize]) -> Result<Dense, DenseError> {
        let rank = self.shape.len();
        let mut seen = vec![false; rank];
        if perm.len() != rank || perm.iter().any(|&d| d >= rank || std::mem::replace(&mut seen[d], true)) {
            return Err(DenseError::Shape);
        }
        let strides = row_major_strides(&self.shape);
        let shape: Vec<usize> = perm.iter().map(|&d| self.shape[d]).collect();
        let by: Vec<usize> = perm.iter().map(|&d| strides[d]).collect();
        self.gather(&shape, positions(&shape, &by))
    }

    /// Stretched to `dims` as numpy broadcasts: trailing dims aligned, a
    /// size-1 or missing dim repeated.
    pub fn broadcast(&self, dims: &[usize]) -> Result<Dense, DenseError> {
        let extra = dims.len().checked_sub(self.shape.len()).ok_or(DenseError::Shape)?;
        if self.len() == 1 {
            // A scalar or a single element: every element the same.
            let n = dims.iter().try_fold(1usize, |n, d| n.checked_mul(*d)).ok_or(DenseError::Shape)?;
            return self.repeat(dims, n);
        }
        let strides = row_major_strides(&self.shape);
        let mut by = vec![0usize; dims.len()];
        for (k, (&n, &s)) in self.shape.iter().zip(&strides).enumerate() {
            match (n, dims[extra + k]) {
                (1, _) => {}
                (a, b) if a == b => by[extra + k] = s,
                _ => return Err(DenseError::Shape),
            }
        }
        self.gather(dims, positions(dims, &by))
    }

    /// The elements as a standard-layout ndarray of scalars.
    pub fn to_array(&self) -> ArrayD<Scalar> {
        let elems: Vec<Scalar> = self.iter().collect();
        ArrayD::from_shape_vec(IxDyn(&self.shape), elems).unwrap_or_else(|_| unreachable!("shape matches its elements"))
    }
}

/// The integer binary ops [`Dense::host_int2`] runs on host words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntBin {
    /// Wrapping `+`.
    Add,
    /// Wrapping `-`.
    Sub,
    /// Wrapping `*`.
    Mul,
    /// `&`.
    And,
    /// `|`.
    Or,
    /// `^`.
    Xor,
}

/// Lane words a host loop computes on.
pub(crate) trait Word: Copy {}
impl Word for f32 {}
impl Word for f64 {}
impl Word for u8 {}
impl Word for u16 {}
impl Word for u32 {}
impl Word for u64 {}

/// `b` as a slice of words, when it is aligned for them and the host is
/// little-endian (lanes are encoded little-endian): what the allocator
/// gives a value's bytes in practice. `None` sends the caller to its
/// lane-by-lane path.
#[inline]
pub(crate) fn words<T: Word>(b: &[u8]) -> Option<&[T]> {
    if cfg!(target_endian = "big") {
        return None;
    }
    // SAFETY: every bit pattern is a valid `T` (floats and unsigned
    // integers), and `align_to` only hands out the aligned middle.
    let (head, mid, tail) = unsafe { b.align_to::<T>() };
    (head.is_empty() && tail.is_empty()).then_some(mid)
}

/// How [`Dense::host_cast`] reads its lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostCast {
    /// Integers by sign (`extsi`, `index_cast`, `trunci`, `sitofp`).
    Signed,
    /// Integers by zeros (`extui`, `index_castui`, `uitofp`).
    Unsigned,
    /// Floats (`extf`, `truncf`).
    Float,
}

/// `c[i] ? t[i] : f[i]` over lanes of `n` bytes (1, 2, 4 or 8) as whole
/// words, a loop that vectorizes; `None` for other widths or unaligned
/// bytes.
fn pick_words(c: &[u8], t: &[u8], f: &[u8], n: usize) -> Option<Vec<u8>> {
    macro_rules! pick {
        ($t:ty) => {{
            let (t, f) = (words::<$t>(t)?, words::<$t>(f)?);
            // A mask of all ones or all zeros, not a branch: vectorizes.
            let lanes = c.iter().zip(t).zip(f).map(|((&c, &t), &f)| {
                let m = (<$t>::from(c) & 1).wrapping_neg();
                (t & m) | (f & !m)
            });
            collect_words(c.len(), lanes)
        }};
    }
    match n {
        1 => pick!(u8),
        2 => pick!(u16),
        4 => pick!(u32),
        8 => pick!(u64),
        _ => None,
    }
}

/// `f(x[i], y[i])` lane by lane, as bytes; monomorphized per `f` so that
/// it vectorizes. `None` when `y` is shorter than `x`.
#[inline(always)]
fn zip_with<T: Word>(x: &[T], y: &[T], f: impl Fn(T, T) -> T) -> Option<Vec<u8>> {
    if y.len() < x.len() {
        return None;
    }
    collect_words(x.len(), x.iter().zip(y).map(|(&x, &y)| f(x, y)))
}

/// The bytes of the `n` words `lanes` yields, written once into a buffer
/// that is not zeroed first (zeroing cost as much as the arithmetic of a
/// one-instruction lane loop). `None` when `lanes` yields fewer than `n`
/// or the allocation is not aligned for `T`.
#[inline(always)]
fn collect_words<T: Word>(n: usize, lanes: impl Iterator<Item = T>) -> Option<Vec<u8>> {
    use std::mem::MaybeUninit;
    let len = n.checked_mul(std::mem::size_of::<T>())?;
    let mut out: Vec<u8> = Vec::with_capacity(len);
    let spare = out.spare_capacity_mut().get_mut(..len)?;
    // SAFETY: any initialized bytes are a valid `T` and the reverse
    // (`Word`); `align_to_mut` hands out only the aligned middle.
    let (head, mid, tail) = unsafe { spare.align_to_mut::<MaybeUninit<T>>() };
    if !head.is_empty() || !tail.is_empty() || cfg!(target_endian = "big") {
        return None;
    }
    if fill(mid, lanes) != n {
        return None;
    }
    // SAFETY: the loop wrote all `n` words, which are the first `len` bytes.
    unsafe { out.set_len(len) };
    Some(out)
}

/// Writes `lanes` into `out` in order, returning how many it wrote: the
/// loop of every host lane loop, compiled for AVX2 when the CPU has it
/// (twice the lanes per instruction of the baseline's SSE2), else as is.
/// The lanes are the same either way: the loops hold no fused
/// multiply-add (Rust does not contract `x * y + z`), and the IEEE
/// operations round alike.
#[inline(always)]
fn fill<T, I: Iterator<Item = T>>(out: &mut [std::mem::MaybeUninit<T>], lanes: I) -> usize {
    #[inline(always)]
    fn each<T, I: Iterator<Item = T>>(out: &mut [std::mem::MaybeUninit<T>], lanes: I) -> usize {
        let mut written = 0;
        for (o, v) in out.iter_mut().zip(lanes) {
            o.write(v);
            written += 1;
        }
        written
    }
    #[cfg(target_arch = "x86_64")]
    {
        #[target_feature(enable = "avx2")]
        fn avx2<T, I: Iterator<Item = T>>(out: &mut [std::mem::MaybeUninit<T>], lanes: I) -> usize {
            each(out, lanes)
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2.
            return unsafe { avx2(out, lanes) };
        }
    }
    each(out, lanes)
}

/// Whether any of `x` is NaN (the one value unequal to itself), in a
/// loop [`fill`]'s way: AVX2 where the CPU has it.
#[inline(always)]
fn any_nan<T: Word + PartialEq>(x: &[T]) -> bool {
    #[inline(always)]
    fn each<T: Word + PartialEq>(x: &[T]) -> bool {
        #[allow(clippy::eq_op)]
        x.iter().fold(false, |nan, r| nan | (r != r))
    }
    #[cfg(target_arch = "x86_64")]
    {
        #[target_feature(enable = "avx2")]
        fn avx2<T: Word + PartialEq>(x: &[T]) -> bool {
            each(x)
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2.
            return unsafe { avx2(x) };
        }
    }
    each(x)
}

/// The row-major strides, in elements, of `shape`.
pub fn row_major_strides(shape: &[usize]) -> Vec<usize> {
    let mut out = vec![1usize; shape.len()];
    for d in (0..shape.len().saturating_sub(1)).rev() {
        out[d] = out[d + 1].saturating_mul(shape[d + 1]);
    }
    out
}

/// For each index of `shape` in row-major order, `Σ index[d] · by[d]`: the
/// source positions of a strided walk (transpose, broadcast, slices).
pub fn positions<'a>(shape: &'a [usize], by: &'a [usize]) -> impl Iterator<Item = usize> + 'a {
    let total: usize = shape.iter().product();
    let mut idx = vec![0usize; shape.len()];
    let mut at = 0usize;
    (0..total).map(move |_| {
        let here = at;
        for d in (0..idx.len()).rev() {
            idx[d] += 1;
            at += by[d];
            if idx[d] < shape[d] {
                break;
            }
            at -= by[d] * idx[d];
            idx[d] = 0;
        }
        here
    })
}

/// Builds a [`Dense`] value element by element, row-major, without an
/// intermediate vector of scalars.
#[derive(Debug)]
pub struct Builder {
    shape: Box<[usize]>,
    total: usize,
    /// Elements pushed so far.
    n: usize,
    lane: Option<Lane>,
    bytes: Vec<u8>,
    poison: PoisonRuns,
}

impl Builder {
    /// A builder for `shape`'s elements; `lane` when the element type is
    /// known, else the first non-poison element decides.
    pub fn new(shape: &[usize], lane: Option<Lane>) -> Result<Builder, DenseError> {
        let total = shape.iter().try_fold(1usize, |n, d| n.checked_mul(*d)).ok_or(DenseError::Shape)?;
        let mut bytes = Vec::new();
        if let Some(l) = lane {
            let size = total.saturating_mul(l.bytes());
            bytes.try_reserve_exact(size).map_err(|_| DenseError::Alloc(size))?;
        }
        Ok(Builder { shape: shape.into(), total, n: 0, lane, bytes, poison: PoisonRuns::default() })
    }

    /// Appends the next element.
    #[inline]
    pub fn push(&mut self, s: &Scalar) -> Result<(), DenseError> {
        // The common case, a defined lane of the known kind up to 64 bits:
        // its little-endian bytes straight onto the end.
        let word = match (self.lane, s) {
            (Some(Lane::Float(k)), Scalar::Float(f)) if f.kind == k => Some({ f.bits } as u64),
            (Some(Lane::Int(w)), Scalar::Int(i)) if i.width() == w => i.word(),
            _ => None,
        };
        if let (Some(x), Some(lane), true) = (word, self.lane, self.n < self.total) {
            // Constant sizes, so each is a plain store rather than a memcpy call.
            match lane.bytes() {
                1 => self.bytes.push(x as u8),
                2 => self.bytes.extend_from_slice(&(x as u16).to_le_bytes()),
                4 => self.bytes.extend_from_slice(&(x as u32).to_le_bytes()),
                8 => self.bytes.extend_from_slice(&x.to_le_bytes()),
                _ => return self.push_slow(s),
            }
            self.n += 1;
            return Ok(());
        }
        self.push_slow(s)
    }

    fn push_slow(&mut self, s: &Scalar) -> Result<(), DenseError> {
        if self.n == self.total {
            return Err(DenseError::Shape);
        }
        let i = self.n;
        self.n += 1;
        if let Scalar::Poison(p) = s {
            self.poison.set(i, 1, *p);
            if let Some(l) = self.lane {
                self.bytes.resize(self.bytes.len() + l.bytes(), 0);
            }
            return Ok(());
        }
        let lane = match self.lane {
            Some(l) => l,
            None => {
                // The first defined element: earlier ones were all poison.
                let l = Lane::of(s).ok_or(DenseError::Kind)?;
                self.lane = Some(l);
                let size = self.total.saturating_mul(l.bytes());
                self.bytes = Vec::new();
                self.bytes.try_reserve_exact(size).map_err(|_| DenseError::Alloc(size))?;
                self.bytes.resize(i * l.bytes(), 0);
                l
            }
        };
        if Lane::of(s) != Some(lane) {
            return Err(DenseError::Kind);
        }
        let at = self.bytes.len();
        self.bytes.resize(at + lane.bytes(), 0);
        lane.encode(s, &mut self.bytes[at..]).ok_or(DenseError::Kind)
    }

    /// The value, once every element was pushed.
    pub fn finish(self) -> Result<Dense, DenseError> {
        if self.n != self.total {
            return Err(DenseError::Shape);
        }
        let lane = self.lane.unwrap_or(Lane::Int(0));
        let mut bytes = self.bytes;
        bytes.resize(self.total * lane.bytes(), 0);
        Ok(Dense { shape: self.shape, lane, bytes: bytes.into_boxed_slice(), poison: self.poison })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::float::FloatKind;
    use crate::scalar::Int;
    use mlir_ir::ir::OpId;

    fn f32s(xs: &[f32]) -> Vec<Scalar> {
        xs.iter().map(|x| Scalar::Float(Float { kind: FloatKind::F32, bits: u128::from(x.to_bits()) })).collect()
    }

    /// Integer lanes up to 64 bits read out and write back as `i64`s, as
    /// the per-element `Scalar` path encodes them.
    #[test]
    fn integers_travel_in_bulk_as_i64() {
        // i4 -8 and 7, i48 and i64 extremes: sign-extended out, wrapped in.
        for (w, vals) in
            [(4u32, vec![-8i64, 7, -1, 0]), (48, vec![-(1 << 47), (1 << 47) - 1]), (64, vec![i64::MIN, i64::MAX])]
        {
            let d = Dense::from_i64s(&[vals.len()], w, &vals).unwrap();
            assert_eq!(d.lane(), Lane::Int(w));
            assert_eq!(d.to_i64s().unwrap(), vals);
            assert!(vals.iter().enumerate().all(|(i, v)| d.i64_at(i) == Some(*v)));
            let back: Vec<Scalar> = vals.iter().map(|v| Scalar::Int(Int::from_i128(w, i128::from(*v)))).collect();
            assert_eq!(d, Dense::new(&[vals.len()], &back, Some(Lane::Int(w))).unwrap());
        }
        // 300 wraps to 44 in i8; a float array has no integer view.
        assert_eq!(Dense::from_i64s(&[1], 8, &[300]).unwrap().to_i64s().unwrap(), vec![44]);
        assert!(Dense::new(&[1], &f32s(&[1.0]), None).unwrap().to_i64s().is_none());
    }

    /// A `vector<2x2xf32>` is 16 bytes, little-endian lanes in row-major order.
    #[test]
    fn f32_lanes_are_their_bits() {
        let d = Dense::new(&[2, 2], &f32s(&[1.0, -0.0, f32::NAN, 2.5]), None).unwrap();
        assert_eq!(d.bytes().len(), 16);
        assert_eq!(&d.bytes()[4..8], &(-0.0f32).to_bits().to_le_bytes());
        assert_eq!(d.get(2), f32s(&[f32::NAN])[0]);
        assert_eq!(d.to_array().shape(), &[2, 2]);
    }

    /// Odd widths take whole bytes; wide integers round-trip; poison keeps
    /// its origin and zero bytes.
    #[test]
    fn ints_and_poison_round_trip() {
        let elems = vec![
            Scalar::Int(Int::from_i128(17, -5)),
            Scalar::Poison(Poison(OpId(7))),
            Scalar::Int(Int::from_i128(17, 65535)),
        ];
        let d = Dense::new(&[3], &elems, None).unwrap();
        assert_eq!(d.lane(), Lane::Int(17));
        assert_eq!(d.bytes().len(), 9);
        assert_eq!(&d.bytes()[3..6], &[0, 0, 0]);
        assert_eq!(d.iter().collect::<Vec<_>>(), elems);
        assert_eq!(d.first_poison(), Some(Poison(OpId(7))));
        let wide = vec![Scalar::Int(Int::from_i128(300, -7))];
        assert_eq!(Dense::new(&[1], &wide, None).unwrap().get(0), wide[0]);
    }

    /// All poison without a lane still reads back as poison; with the
    /// type's lane it has room for later elements.
    #[test]
    fn all_poison() {
        let p = Scalar::Poison(Poison(OpId(1)));
        let d = Dense::splat(&[4], &p, None).unwrap();
        assert!(d.iter().all(|s| s == p));
        let t = Dense::splat(&[4], &p, Some(Lane::Float(FloatKind::F16))).unwrap();
        assert_eq!(t.bytes().len(), 8);
    }

    /// Lane kernels agree with the scalar walk, and decline what they
    /// cannot do (poison conditions, mixed formats).
    #[test]
    fn kernels() {
        let a = Dense::new(&[3], &f32s(&[1.0, -2.0, 0.5]), None).unwrap();
        let b = Dense::new(&[3], &f32s(&[3.0, 4.0, -0.0]), None).unwrap();
        let r = Dense::zip3_floats(&a, &b, &a, |x, y, z| {
            let [x, y, z] = [x, y, z].map(|v| f32::from_bits({ v.bits } as u32));
            Float { kind: FloatKind::F32, bits: u128::from(x.mul_add(y, z).to_bits()) }
        })
        .unwrap();
        assert_eq!(r, Dense::new(&[3], &f32s(&[4.0, -10.0, 0.5]), None).unwrap());
        let bit = |b: i128| Scalar::Int(Int::from_i128(1, b));
        let c = Dense::new(&[3], &[bit(1), bit(0), bit(1)], None).unwrap();
        let p = Dense::new(
            &[3],
            &[f32s(&[9.0])[0].clone(), Scalar::Poison(Poison(OpId(3))), f32s(&[7.0])[0].clone()],
            None,
        )
        .unwrap();
        let s = Dense::select(&c, &p, &b).unwrap();
        assert_eq!(s, Dense::new(&[3], &f32s(&[9.0, 4.0, 7.0]), None).unwrap());
        let s = Dense::select(&Dense::new(&[3], &[bit(0), bit(1), bit(0)], None).unwrap(), &p, &b).unwrap();
        assert_eq!(s.get(1), Scalar::Poison(Poison(OpId(3))));
        let pc = Dense::new(&[3], &[bit(0), Scalar::Poison(Poison(OpId(1))), bit(0)], None).unwrap();
        assert!(Dense::select(&pc, &a, &b).is_none());
        assert!(Dense::zip3_floats(&a, &b, &p, |x, _, _| x).is_none());
    }

    /// `set` keeps the encoding: defined over poison, poison over defined,
    /// and a first defined element into an all-poison value without a lane.
    #[test]
    fn set_elements() {
        let p = Scalar::Poison(Poison(OpId(2)));
        let mut d = Dense::splat(&[2, 2], &p, None).unwrap();
        assert_eq!(d.linear(&[1, 0]), Some(2));
        assert_eq!(d.linear(&[0, 2]), None);
        d.set(2, &f32s(&[1.5])[0]).unwrap();
        assert_eq!(d.lane(), Lane::Float(FloatKind::F32));
        assert_eq!(d.get(2), f32s(&[1.5])[0]);
        assert_eq!(d.get(0), p);
        for i in [0, 1, 3] {
            d.set(i, &f32s(&[0.0])[0]).unwrap();
        }
        assert_eq!(d, Dense::new(&[2, 2], &f32s(&[0.0, 0.0, 1.5, 0.0]), None).unwrap());
        d.set(1, &p).unwrap();
        assert_eq!(d.first_poison(), Some(Poison(OpId(2))));
        assert_eq!(d.set(0, &Scalar::Int(Int::from_i128(32, 1))), Err(DenseError::Kind));
    }

    /// Structural ops agree with ndarray's on the same elements: blocks,
    /// transposes and broadcasts, poison carried.
    #[test]
    fn structure_matches_ndarray() {
        let xs: Vec<Scalar> = (0..24).map(|i| Scalar::Int(Int::from_i128(16, i))).collect();
        let mut xs2 = xs.clone();
        xs2[5] = Scalar::Poison(Poison(OpId(4)));
        for elems in [xs, xs2] {
            let d = Dense::new(&[2, 3, 4], &elems, None).unwrap();
            let a = d.to_array();
            let (shape, r) = d.block(&[1, 2]).unwrap();
            assert_eq!((shape, r.clone()), (&[4usize][..], 20..24));
            assert!(d.block(&[2]).is_none());
            for perm in [[0, 1, 2], [2, 0, 1], [1, 2, 0], [2, 1, 0]] {
                let t = d.transpose(&perm).unwrap();
                let v = a.view().permuted_axes(ndarray::IxDyn(&perm));
                assert_eq!(t.to_array(), v.to_owned(), "{perm:?}");
            }
            let b = Dense::new(&[3, 1], &elems[..3], None).unwrap();
            let want = b.to_array().broadcast(ndarray::IxDyn(&[2, 3, 5])).unwrap().to_owned();
            assert_eq!(b.broadcast(&[2, 3, 5]).unwrap().to_array(), want);
            assert_eq!(b.broadcast(&[2, 4, 5]), Err(DenseError::Shape));
            let item = Dense::new(&[4], &elems[..4], None).unwrap();
            let w = d.with_block(&[0, 1], &item).unwrap();
            assert_eq!((4..8).map(|i| w.get(i)).collect::<Vec<_>>(), elems[..4].to_vec());
            assert_eq!(d.reshape(&[6, 4]).unwrap().get(5), d.get(5));
            let s = d.scatter(&[23, 0], &item.gather(&[2], [3, 0]).unwrap()).unwrap();
            assert_eq!((s.get(23), s.get(0), s.get(1)), (elems[3].clone(), elems[0].clone(), d.get(1)));
            assert_eq!(d.scatter(&[24], &item.gather(&[1], [0]).unwrap()), Err(DenseError::Shape));
        }
    }

    /// Shapes must hold the elements, and every element the one lane.
    #[test]
    fn errors() {
        assert_eq!(Dense::new(&[3], &f32s(&[1.0]), None), Err(DenseError::Shape));
        let mixed = vec![f32s(&[1.0])[0].clone(), Scalar::Int(Int::from_i128(32, 1))];
        assert_eq!(Dense::new(&[2], &mixed, None), Err(DenseError::Kind));
        let narrow = vec![Scalar::Int(Int::from_i128(8, 1)), Scalar::Int(Int::from_i128(16, 1))];
        assert_eq!(Dense::new(&[2], &narrow, None), Err(DenseError::Kind));
    }
}

/// The host lane loops (`host2`, `host_cmpf`, word-wise `select`) give the
/// bits of the exact lane-by-lane path on edge values: NaN payloads of
/// both signs, zeros, infinities, subnormals, the largest finite values.
#[cfg(test)]
mod host_lanes {
    use super::*;
    use crate::float::host::Bin;
    use crate::float::{FloatKind, Round};
    use proptest::prelude::*;

    const F32: [u32; 14] = [
        0x7FC0_0000,
        0x7FA0_0001,
        0xFFC0_0123,
        0x8000_0000,
        0,
        0x7F80_0000,
        0xFF80_0000,
        1,
        0x807F_FFFF,
        0x7F7F_FFFF,
        0xFF7F_FFFF,
        0x3F80_0000,
        0xC020_0000,
        0x3EAA_AAAB,
    ];
    const F64: [u64; 9] = [
        0x7FF8_0000_0000_0000,
        0xFFF4_0000_0000_0001,
        0x8000_0000_0000_0000,
        0,
        0x7FF0_0000_0000_0000,
        1,
        0x7FEF_FFFF_FFFF_FFFF,
        0x3FF0_0000_0000_0000,
        0xBFD5_5555_5555_5555,
    ];

    fn array(kind: FloatKind, picks: &[usize]) -> Dense {
        let elems: Vec<Scalar> = picks
            .iter()
            .map(|p| {
                let bits = if kind == FloatKind::F32 {
                    u128::from(F32[p % F32.len()])
                } else {
                    u128::from(F64[p % F64.len()])
                };
                Scalar::Float(Float { kind, bits })
            })
            .collect();
        Dense::new(&[elems.len()], &elems, Some(Lane::Float(kind))).unwrap()
    }

    proptest! {
        #[test]
        fn host_lanes_are_the_exact_lanes(
            f64s in any::<bool>(),
            // Up to 200 lanes: past a whole pass of the widest unrolled
            // loop (AVX2, four registers of 32 `i1` or `u8` lanes), so
            // both the vector body and its remainder run.
            pairs in prop::collection::vec((0usize..64, 0usize..64, any::<bool>()), 1..200),
            pred in 0u8..16,
        ) {
            let kind = if f64s { FloatKind::F64 } else { FloatKind::F32 };
            let a = array(kind, &pairs.iter().map(|p| p.0).collect::<Vec<_>>());
            let b = array(kind, &pairs.iter().map(|p| p.1).collect::<Vec<_>>());
            for (op, exact) in [
                (Bin::Add, crate::float::add as fn(Float, Float, Round) -> Float),
                (Bin::Sub, crate::float::sub),
                (Bin::Mul, crate::float::mul),
                (Bin::Div, crate::float::div),
            ] {
                let host = Dense::host2(&a, &b, op).expect("f32/f64 arrays qualify");
                for i in 0..a.len() {
                    let (Scalar::Float(x), Scalar::Float(y)) = (a.get(i), b.get(i)) else { unreachable!() };
                    prop_assert_eq!(host.get(i), Scalar::Float(exact(x, y, Round::NearestEven)), "{:?} lane {}", op, i);
                }
            }
            let cmp = Dense::host_cmpf(&a, &b, pred).expect("f32/f64 arrays qualify");
            for i in 0..a.len() {
                let (Scalar::Float(x), Scalar::Float(y)) = (a.get(i), b.get(i)) else { unreachable!() };
                prop_assert_eq!(cmp.get(i), Scalar::Int(crate::scalar::Int::bool(crate::sem::fp::cmpf(pred, x, y))));
            }
            // Integers of every host width: arithmetic modulo 2^w.
            for w in [8u32, 16, 32, 64] {
                let mask = u128::MAX >> (128 - w);
                let ints = |pick: fn(&(usize, usize, bool)) -> usize| -> Dense {
                    let elems: Vec<Scalar> = pairs
                        .iter()
                        .map(|p| {
                            let v = (pick(p) as u128).wrapping_mul(0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C835) & mask;
                            Scalar::Int(crate::scalar::Int::from_u128(w, v))
                        })
                        .collect();
                    Dense::new(&[elems.len()], &elems, Some(Lane::Int(w))).unwrap()
                };
                let (x, y) = (ints(|p| p.0), ints(|p| p.1));
                for (op, f) in [
                    (IntBin::Add, (|a: u128, b: u128| a.wrapping_add(b)) as fn(u128, u128) -> u128),
                    (IntBin::Sub, |a, b| a.wrapping_sub(b)),
                    (IntBin::Mul, |a, b| a.wrapping_mul(b)),
                    (IntBin::And, |a, b| a & b),
                    (IntBin::Or, |a, b| a | b),
                    (IntBin::Xor, |a, b| a ^ b),
                ] {
                    let host = Dense::host_int2(&x, &y, op).expect("host widths qualify");
                    for i in 0..x.len() {
                        let (Scalar::Int(p), Scalar::Int(q)) = (x.get(i), y.get(i)) else { unreachable!() };
                        let want = crate::scalar::Int::from_u128(w, f(p.bits128().unwrap_or(0), q.bits128().unwrap_or(0)) & mask);
                        prop_assert_eq!(host.get(i), Scalar::Int(want), "{:?} i{} lane {}", op, w, i);
                    }
                }
            }
            let conds: Vec<Scalar> = pairs.iter().map(|p| Scalar::Int(crate::scalar::Int::bool(p.2))).collect();
            let c = Dense::new(&[conds.len()], &conds, Some(Lane::Int(1))).unwrap();
            let picked = Dense::select(&c, &a, &b).expect("qualifies");
            for (i, p) in pairs.iter().enumerate() {
                prop_assert_eq!(picked.get(i), if p.2 { a.get(i) } else { b.get(i) });
            }
        }
    }

    proptest! {
        /// Host casts give the exact path's lanes: integers of every host
        /// width to every other and to f32/f64, by sign and by zeros, and
        /// f32 <-> f64 on edge values (NaN lanes recomputed exactly).
        #[test]
        fn host_casts_are_the_exact_casts(
            words in prop::collection::vec(any::<u64>(), 1..70),
            picks in prop::collection::vec(0usize..64, 1..70),
        ) {
            use crate::float::FloatKind::{F32 as K32, F64 as K64};
            use crate::scalar::Int;
            let lanes = [Lane::Int(8), Lane::Int(16), Lane::Int(32), Lane::Int(64), Lane::Float(K32), Lane::Float(K64)];
            for from in [8u32, 16, 32, 64] {
                let mask = if from == 64 { u64::MAX } else { (1u64 << from) - 1 };
                let elems: Vec<Scalar> = words.iter().map(|w| Scalar::Int(Int::from_u128(from, u128::from(w & mask)))).collect();
                let src = Dense::new(&[elems.len()], &elems, Some(Lane::Int(from))).unwrap();
                for to in lanes {
                    for how in [HostCast::Signed, HostCast::Unsigned] {
                        let host = src.host_cast(to, how, |_| None).expect("host pairs qualify");
                        for (i, x) in elems.iter().enumerate() {
                            let Scalar::Int(x) = x else { unreachable!() };
                            let v = if how == HostCast::Signed {
                                x.to_sbig()
                            } else {
                                num_bigint::BigInt::from(x.bits128().unwrap_or(0))
                            };
                            let want = match to {
                                Lane::Int(w) => Scalar::Int(Int::from_big(w, &v)),
                                Lane::Float(k) => Scalar::Float(crate::float::from_int(&v, k, Round::NearestEven).unwrap()),
                                Lane::Complex(_) => unreachable!(),
                            };
                            prop_assert_eq!(host.get(i), want, "i{} to {:?} {:?} lane {}", from, to, how, i);
                        }
                    }
                }
            }
            for (from, to) in [(K32, K64), (K64, K32)] {
                let src = array(from, &picks);
                let exact = |f: Float| crate::float::convert(f, to, Round::NearestEven).ok();
                let host = src.host_cast(Lane::Float(to), HostCast::Float, exact).expect("f32/f64 qualify");
                for i in 0..src.len() {
                    let Scalar::Float(x) = src.get(i) else { unreachable!() };
                    prop_assert_eq!(host.get(i), Scalar::Float(exact(x).unwrap()), "{:?} lane {}", from, i);
                }
            }
        }
    }
}
