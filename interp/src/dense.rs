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
        Some(Dense {
            shape: a.shape.clone(),
            lane: a.lane,
            bytes: bytes.into_boxed_slice(),
            poison: PoisonRuns::default(),
        })
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
        let mut bytes = Vec::with_capacity(t.bytes.len());
        let mut poison = PoisonRuns::default();
        let carry = !t.poison.is_empty() || !f.poison.is_empty();
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
