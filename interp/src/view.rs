//! Memrefs as `ndarray` views: any strided memref (an allocation, or a
//! subview, transpose, reshape, reinterpret cast or other view of one) is
//! handed to the library as an `ArrayViewD<T>` / `ArrayViewMutD<T>` with
//! the memref's sizes, strides and offset, on the buffer's own storage:
//! nothing is copied. A layout given by a non-strided affine map has no
//! such view; [`MemRef::to_array`] copies it (and any memref) instead.
//!
//! The element type decides the Rust type (see [`Element`]): `i8`..`i64`
//! (`index` is `i64`), `u8`..`u64` as unsigned readings of the same widths,
//! `f32`, `f64`, `half::f16`, `half::bf16`, `Complex<f32|f64>`; `u8` and
//! `u16` also give the raw bits of one- and two-byte elements (i1 and odd
//! widths, fp4/fp6/fp8, f16/bf16). A memref of vectors adds the vector's
//! dimensions after the memref's.
//!
//! A raw view shows bytes, not MLIR values: an element never written reads
//! as zero and a stored poison as whatever bits it left. [`MemRef::check_defined`]
//! reports the first such element; call it before trusting a view.

use crate::memory::{Buffer, Lane, MemRef};
use crate::scalar::Poison;
use mlir_ir::types::FloatKind;
use ndarray::{ArrayD, ArrayViewD, ArrayViewMutD, Axis, IxDyn, ShapeBuilder};
use num_complex::Complex;

/// A Rust type MLIR elements convert to and from: the elements of a
/// [`Tensor`](crate::Tensor) argument or result, of a memref view, or of
/// an array lent as a memref. `bool` (i1), `i8`..`i64` (`index` is `i64`),
/// `u8`..`u64` (the bits of elements stored in as many bytes: unsigned
/// readings, odd-width integers, and for `u8`/`u16` the raw encodings of
/// fp4/fp6/fp8, f16 and bf16), `half::f16`, `half::bf16`, `f32`, `f64`,
/// `Complex<f32>`, `Complex<f64>`.
pub trait Element: Copy + std::fmt::Debug + 'static {
    /// True when elements stored as `lane` convert to `Self`.
    fn fits(lane: Lane) -> bool;
    /// Bytes of one element.
    const SIZE: usize;
    /// Whether every bit pattern of `SIZE` bytes is a `Self`, so that the
    /// engine's buffers can be viewed or lent in place: not `bool`, whose
    /// buffer bytes a poison store may leave other than 0 or 1.
    const IN_PLACE: bool = true;
    /// Appends the little-endian encoding.
    fn put(self, out: &mut Vec<u8>);
    /// Reads the little-endian encoding.
    fn get(b: &[u8]) -> Self;
}

macro_rules! element {
    ($t:ty, $fits:expr, |$x:ident| $to:expr, |$b:ident| $from:expr) => {
        impl Element for $t {
            fn fits(lane: Lane) -> bool {
                $fits(lane)
            }
            const SIZE: usize = std::mem::size_of::<$t>();
            fn put(self, out: &mut Vec<u8>) {
                let $x = self;
                out.extend_from_slice(&$to);
            }
            fn get($b: &[u8]) -> Self {
                $from
            }
        }
    };
}

/// The first `N` bytes of `b`.
fn arr<const N: usize>(b: &[u8]) -> [u8; N] {
    let mut a = [0u8; N];
    a.copy_from_slice(&b[..N]);
    a
}

/// Integers of `bytes` bytes, and when `raw_floats` floats of that size.
fn same_size(lane: Lane, bytes: usize, raw_floats: bool) -> bool {
    lane.bytes() == bytes
        && match lane {
            Lane::Int(_) => true,
            Lane::Float(_) => raw_floats,
            Lane::Complex(_) => false,
        }
}

impl Element for bool {
    fn fits(lane: Lane) -> bool {
        lane == Lane::Int(1)
    }
    const SIZE: usize = 1;
    const IN_PLACE: bool = false;
    fn put(self, out: &mut Vec<u8>) {
        out.push(self as u8);
    }
    fn get(b: &[u8]) -> Self {
        b[0] & 1 != 0
    }
}

element!(i8, |l| l == Lane::Int(8), |x| x.to_le_bytes(), |b| i8::from_le_bytes(arr(b)));
element!(i16, |l| l == Lane::Int(16), |x| x.to_le_bytes(), |b| i16::from_le_bytes(arr(b)));
element!(i32, |l| l == Lane::Int(32), |x| x.to_le_bytes(), |b| i32::from_le_bytes(arr(b)));
element!(i64, |l| l == Lane::Int(64), |x| x.to_le_bytes(), |b| i64::from_le_bytes(arr(b)));
element!(u8, |l| same_size(l, 1, true), |x| [x], |b| b[0]);
element!(u16, |l| same_size(l, 2, true), |x| x.to_le_bytes(), |b| u16::from_le_bytes(arr(b)));
element!(u32, |l| same_size(l, 4, false), |x| x.to_le_bytes(), |b| u32::from_le_bytes(arr(b)));
element!(u64, |l| same_size(l, 8, false), |x| x.to_le_bytes(), |b| u64::from_le_bytes(arr(b)));
element!(half::f16, |l| l == Lane::Float(FloatKind::F16), |x| x.to_bits().to_le_bytes(), |b| half::f16::from_bits(
    u16::from_le_bytes(arr(b))
));
element!(half::bf16, |l| l == Lane::Float(FloatKind::BF16), |x| x.to_bits().to_le_bytes(), |b| half::bf16::from_bits(
    u16::from_le_bytes(arr(b))
));
element!(f32, |l| l == Lane::Float(FloatKind::F32), |x| x.to_le_bytes(), |b| f32::from_le_bytes(arr(b)));
element!(f64, |l| l == Lane::Float(FloatKind::F64), |x| x.to_le_bytes(), |b| f64::from_le_bytes(arr(b)));
element!(
    Complex<f32>,
    |l| l == Lane::Complex(FloatKind::F32),
    |x| {
        let mut a = [0u8; 8];
        a[..4].copy_from_slice(&x.re.to_le_bytes());
        a[4..].copy_from_slice(&x.im.to_le_bytes());
        a
    },
    |b| Complex::new(f32::from_le_bytes(arr(b)), f32::from_le_bytes(arr(&b[4..])))
);
element!(
    Complex<f64>,
    |l| l == Lane::Complex(FloatKind::F64),
    |x| {
        let mut a = [0u8; 16];
        a[..8].copy_from_slice(&x.re.to_le_bytes());
        a[8..].copy_from_slice(&x.im.to_le_bytes());
        a
    },
    |b| Complex::new(f64::from_le_bytes(arr(b)), f64::from_le_bytes(arr(&b[8..])))
);

/// Why a memref has no view of the type asked for.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ViewError {
    /// The element type is not the Rust type asked for.
    #[error("a memref of {have} cannot be viewed as {want}")]
    ElementType {
        /// The memref's element type.
        have: String,
        /// The Rust type asked for.
        want: &'static str,
    },
    /// The layout is an affine map with no strided form (copy it with `to_array`).
    #[error("the layout of {0} is not strided; copy it with to_array")]
    NotStrided(String),
    /// The memory was freed.
    #[error("{0} was freed")]
    Freed(String),
    /// The view starts at an address not aligned for the type (a `memref.view` shift).
    #[error("{0} is not aligned for its element type")]
    Misaligned(String),
    /// The descriptor reaches outside its buffer.
    #[error("{0} reaches outside its buffer")]
    OutOfBounds(String),
    /// A mutable view whose elements overlap (a zero or small stride).
    #[error("{0} has overlapping elements; it has no mutable view")]
    Overlapping(String),
}

/// An element a raw view shows without an MLIR value behind it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Undefined {
    /// The element at this logical index was never written.
    Uninitialized(Vec<usize>),
    /// The element at this logical index holds poison made by this op.
    Poison(Vec<usize>, Poison),
    /// The element at this logical index cannot be read at all (freed
    /// memory, outside the buffer): the engine's message.
    Unreadable(Vec<usize>, String),
}

/// Sizes and element strides of a view, in the memref's dims then its
/// vector element's, and the element offset from the buffer's start.
struct Layout {
    shape: Vec<usize>,
    strides: Vec<isize>,
    /// Byte of logical element 0 from the start of the storage.
    first: usize,
}

impl MemRef {
    /// The layout of a typed view of `T`, checked against the buffer.
    fn layout<T: Element>(&self, b: &Buffer) -> Result<Layout, ViewError> {
        let what = || self.describe();
        if b.freed.is_some() {
            return Err(ViewError::Freed(what()));
        }
        if !T::IN_PLACE || !T::fits(self.elem.lane) {
            return Err(ViewError::ElementType { have: self.elem.name.to_string(), want: std::any::type_name::<T>() });
        }
        if self.map.is_some() {
            return Err(ViewError::NotStrided(what()));
        }
        let lanes = self.elem.lanes() as isize;
        let mut shape: Vec<usize> = self.sizes.iter().map(|d| usize::try_from(*d).unwrap_or(0)).collect();
        let mut strides: Vec<isize> = self.strides.iter().map(|s| (*s as isize).saturating_mul(lanes)).collect();
        let mut inner = 1isize;
        let vstrides: Vec<isize> = self
            .elem
            .vshape
            .iter()
            .rev()
            .map(|d| {
                let s = inner;
                inner = inner.saturating_mul(*d as isize);
                s
            })
            .collect();
        shape.extend(&self.elem.vshape);
        strides.extend(vstrides.into_iter().rev());
        let size = std::mem::size_of::<T>() as isize;
        let first = (self.base as isize).checked_add(
            (self.offset as isize).checked_mul(lanes * size).ok_or_else(|| ViewError::OutOfBounds(what()))?,
        );
        let first = first.ok_or_else(|| ViewError::OutOfBounds(what()))?;
        if shape.contains(&0) {
            // No element is ever read: the storage's start serves.
            return Ok(Layout { shape, strides, first: 0 });
        }
        if !inside(first, &shape, &strides, size, b.len()) {
            return Err(ViewError::OutOfBounds(what()));
        }
        let first = usize::try_from(first).map_err(|_| ViewError::OutOfBounds(what()))?;
        if !(b.data.as_ptr() as usize + first).is_multiple_of(std::mem::align_of::<T>()) {
            return Err(ViewError::Misaligned(what()));
        }
        Ok(Layout { shape, strides, first })
    }

    /// The address where the buffer's storage starts (a view of element 0
    /// lies `base + offset * element bytes` after it): lets a caller check
    /// that views share the memref's memory.
    pub fn storage_ptr(&self) -> *const u8 {
        self.buf.borrow().data.as_ptr()
    }

    /// Calls `f` with a view of the memref's elements as `T`, on its own
    /// storage (no copy). The raw view does not report uninitialized or
    /// poisoned elements: see [`MemRef::check_defined`].
    pub fn with_view<T: Element, R>(&self, f: impl FnOnce(ArrayViewD<'_, T>) -> R) -> Result<R, ViewError> {
        let b = self.buf.borrow();
        let l = self.layout::<T>(&b)?;
        let (ptr, abs) = low_corner::<T>(b.data.as_ptr(), &l);
        // SAFETY: `layout` checked that every element lies inside the
        // buffer's storage and is aligned for `T`; every bit pattern is a
        // valid `T` (integers, floats, complex of floats); the buffer stays
        // borrowed (no engine write) for as long as the view lives.
        let mut v = unsafe { ArrayViewD::from_shape_ptr(IxDyn(&l.shape).strides(IxDyn(&abs)), ptr as *const T) };
        invert_negative(&mut v, &l.strides);
        Ok(f(v))
    }

    /// Calls `f` with a mutable view of the memref's elements as `T`, on
    /// its own storage. Every element of the view counts as written
    /// afterwards (defined, not poison), since `f` may have written it.
    pub fn with_view_mut<T: Element, R>(&self, f: impl FnOnce(ArrayViewMutD<'_, T>) -> R) -> Result<R, ViewError> {
        let mut b = self.buf.borrow_mut();
        if b.read_only.is_some() {
            return Err(ViewError::Overlapping(format!("{} (read-only memory)", self.describe())));
        }
        let l = self.layout::<T>(&b)?;
        if overlaps(&l) {
            return Err(ViewError::Overlapping(self.describe()));
        }
        let (ptr, abs) = low_corner::<T>(b.data.as_mut_ptr(), &l);
        // SAFETY: as in `with_view`; the elements do not overlap (checked)
        // and the buffer is borrowed mutably while the view lives.
        let mut v = unsafe { ArrayViewMutD::from_shape_ptr(IxDyn(&l.shape).strides(IxDyn(&abs)), ptr as *mut T) };
        invert_negative(&mut v, &l.strides);
        let r = f(v);
        let size = std::mem::size_of::<T>();
        for_each_byte_offset(&l, size, |at| b.mark_written(at, size));
        Ok(r)
    }

    /// The memref's elements as `T` in logical row-major order, copied:
    /// works for every layout, strided or not.
    pub fn to_array<T: Element>(&self) -> Result<ArrayD<T>, ViewError> {
        if self.map.is_none() {
            return self.with_view::<T, _>(|v| v.to_owned());
        }
        let b = self.buf.borrow();
        if b.freed.is_some() {
            return Err(ViewError::Freed(self.describe()));
        }
        if !T::IN_PLACE || !T::fits(self.elem.lane) || !self.elem.vshape.is_empty() {
            return Err(ViewError::ElementType { have: self.elem.name.to_string(), want: std::any::type_name::<T>() });
        }
        let size = std::mem::size_of::<T>();
        let mut out = Vec::with_capacity(self.num_elements().unwrap_or(0));
        for idx in self.indices() {
            let byte = self.linear(&idx).and_then(|l| usize::try_from(l).ok()).and_then(|l| l.checked_mul(size));
            let at = byte.and_then(|x| x.checked_add(self.base)).filter(|at| at + size <= b.len());
            let at = at.ok_or_else(|| ViewError::OutOfBounds(self.describe()))?;
            // SAFETY: `at..at + size` is inside the storage (checked); any
            // bit pattern is a valid `T`; the read may be unaligned.
            out.push(unsafe { std::ptr::read_unaligned(b.data.as_ptr().add(at) as *const T) });
        }
        let shape: Vec<usize> = self.sizes.iter().map(|d| usize::try_from(*d).unwrap_or(0)).collect();
        ArrayD::from_shape_vec(IxDyn(&shape), out).map_err(|_| ViewError::OutOfBounds(self.describe()))
    }

    /// The first element (in row-major order) a raw view would show
    /// without an MLIR value behind it: never written, or poison.
    pub fn check_defined(&self) -> Result<(), Undefined> {
        let b = self.buf.borrow();
        let bytes = self.elem.bytes();
        for idx in self.indices() {
            let logical = || idx.iter().map(|i| *i as usize).collect::<Vec<_>>();
            let at = match self.locate(mlir_ir::ir::OpId(0), &idx, "read") {
                Ok(at) => at,
                Err(e) => return Err(Undefined::Unreadable(logical(), e.kind.to_string())),
            };
            if let Some(p) = b.poison.first_in(at, bytes) {
                return Err(Undefined::Poison(logical(), p));
            }
            if !b.all_init(at, bytes) {
                return Err(Undefined::Uninitialized(logical()));
            }
        }
        Ok(())
    }
}

/// True when every element of a non-empty view starting at byte `first`
/// lies in `0..len` (checked arithmetic: a reinterpret cast may hold any
/// numbers).
fn inside(first: isize, shape: &[usize], strides: &[isize], size: isize, len: usize) -> bool {
    let Some((below, above)) = reach(shape, strides, size as usize) else { return false };
    let end = (first as usize).checked_add(above).and_then(|e| e.checked_add(size as usize));
    first >= 0 && first as usize >= below && end.is_some_and(|e| e <= len)
}

/// The bytes a view's elements (`size` bytes each, `strides` in elements)
/// reach below and above its element 0: the negative strides' extent and
/// the positive ones'. `(0, 0)` for an empty view; `None` on overflow.
pub(crate) fn reach(shape: &[usize], strides: &[isize], size: usize) -> Option<(usize, usize)> {
    if shape.contains(&0) {
        return Some((0, 0));
    }
    let (mut below, mut above) = (0usize, 0usize);
    for (n, s) in shape.iter().zip(strides) {
        let r = (n - 1).checked_mul(s.unsigned_abs())?.checked_mul(size)?;
        let side = if *s < 0 { &mut below } else { &mut above };
        *side = side.checked_add(r)?;
    }
    Some((below, above))
}

/// The lowest-address element of the view and the strides' magnitudes:
/// ndarray builds a view from there with non-negative strides, and the
/// negative axes are flipped afterwards.
fn low_corner<T>(base: *const u8, l: &Layout) -> (*const u8, Vec<usize>) {
    let below = reach(&l.shape, &l.strides, std::mem::size_of::<T>()).map_or(0, |r| r.0);
    // SAFETY (for the caller): `layout` checked `low` is inside the storage.
    let ptr = base.wrapping_add(l.first).wrapping_sub(below);
    (ptr, l.strides.iter().map(|s| s.unsigned_abs()).collect())
}

/// Flips the axes whose stride is negative (built from the low corner).
fn invert_negative<S: ndarray::RawData>(v: &mut ndarray::ArrayBase<S, IxDyn>, strides: &[isize]) {
    for (d, s) in strides.iter().enumerate() {
        if *s < 0 {
            v.invert_axis(Axis(d));
        }
    }
}

/// True when two elements of the view share storage: some stride is
/// smaller than what the smaller-strided axes span.
fn overlaps(l: &Layout) -> bool {
    let mut axes: Vec<(usize, usize)> =
        l.shape.iter().zip(&l.strides).filter(|(n, _)| **n > 1).map(|(n, s)| (s.unsigned_abs(), *n)).collect();
    axes.sort();
    let mut span = 1usize;
    for (s, n) in axes {
        if s < span {
            return true;
        }
        span = s.saturating_mul(n);
    }
    false
}

/// Calls `f` with the byte offset of every element of the view.
fn for_each_byte_offset(l: &Layout, size: usize, mut f: impl FnMut(usize)) {
    if l.shape.contains(&0) {
        return;
    }
    let mut idx = vec![0usize; l.shape.len()];
    loop {
        let off: isize = idx.iter().zip(&l.strides).map(|(i, s)| *i as isize * s).sum();
        f((l.first as isize + off * size as isize) as usize);
        let mut d = l.shape.len();
        loop {
            if d == 0 {
                return;
            }
            d -= 1;
            idx[d] += 1;
            if idx[d] < l.shape[d] {
                break;
            }
            idx[d] = 0;
        }
    }
}
