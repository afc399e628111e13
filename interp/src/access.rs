//! Element access: values (`crate::value`) in and out of memrefs, with
//! the undefined-behaviour checks of `crate::memory`: one element at
//! logical indices (a scalar, or a `Value::Array` for vector elements),
//! by linear element number (for runtime printers), straight into a frame
//! slot (the engine's fast path), and whole views as arrays. Above both
//! memory (which stores scalars) and values (which hold memrefs).

use crate::dense::{Builder, DenseError};
use crate::error::{Error, ErrorKind, Result};
use crate::memory::{mem_ub, Lane, MemRef};
use crate::value::{Dense, Scalar, Value};
use mlir_ir::ir::OpId;
use std::rc::Rc;

/// Advances a row-major odometer over `sizes` (wraps after the last index).
fn next_index(idx: &mut [i64], sizes: &[i64]) {
    for d in (0..idx.len()).rev() {
        idx[d] += 1;
        if idx[d] < sizes[d] {
            return;
        }
        idx[d] = 0;
    }
}

impl MemRef {
    fn read_at(&self, byte: usize) -> Value {
        let b = self.buf.borrow();
        let lane = self.elem.lane;
        if self.elem.vshape.is_empty() {
            return Value::from_scalar(b.read_lane(byte, lane));
        }
        let lanes: Vec<Scalar> = (0..self.elem.lanes()).map(|k| b.read_lane(byte + k * lane.bytes(), lane)).collect();
        match Dense::new(&self.elem.vshape, &lanes, Some(lane)) {
            Ok(a) => Value::Array(Rc::new(a)),
            Err(_) => Value::Opaque,
        }
    }

    fn write_at(&self, at: OpId, byte: usize, v: &Value, what: &str) -> Result<()> {
        let mut b = self.buf.borrow_mut();
        if let Some(protected) = b.read_only {
            return Err(mem_ub(at, b.origin, format!("{what} into {protected}")));
        }
        let lane = self.elem.lane;
        let bad = || Error::unverified(at, format!("value does not fit an element of type {}", self.elem.name));
        match v {
            Value::Scalar(_) | Value::Wide(_) if self.elem.vshape.is_empty() => {
                b.write_lane(byte, lane, &v.scalar().ok_or_else(bad)?).ok_or_else(bad)
            }
            Value::Array(a) if a.shape() == self.elem.vshape.as_slice() => {
                for (k, s) in a.iter().enumerate() {
                    b.write_lane(byte + k * lane.bytes(), lane, &s).ok_or_else(bad)?;
                }
                Ok(())
            }
            _ => Err(bad()),
        }
    }

    /// The element at logical `idx` (`what` names the access in messages).
    #[inline]
    pub fn load(&self, at: OpId, idx: &[i64], what: &str) -> Result<Value> {
        // A float or an integer of at most 64 bits becomes its slot value
        // directly, not through the general `Scalar` (linalg's point loop
        // and the dialects' loads).
        if idx.len() == self.sizes.len() {
            if let Some(p) = self.fast_bits(idx.iter().map(|i| Some(*i))).and_then(|(bits, lane)| lane.packed(bits)) {
                return Ok(Value::Scalar(p));
            }
        }
        if let Some(s) = self.load_scalar(idx) {
            return Ok(Value::from_scalar(s));
        }
        let byte = self.locate(at, idx, what)?;
        Ok(self.read_at(byte))
    }

    /// Writes the element at logical `idx`.
    #[inline]
    pub fn store(&self, at: OpId, idx: &[i64], v: &Value, what: &str) -> Result<()> {
        if let Value::Scalar(s) = v {
            if self.store_scalar(idx, *s) {
                return Ok(());
            }
        }
        let byte = self.locate(at, idx, what)?;
        self.write_at(at, byte, v, what)
    }

    /// The encoding of the scalar element at the indices `idx` yields (as
    /// many as the rank; `None` for one that is not a plain number), and
    /// its lane, when nothing needs reporting: an identity-or-strided view
    /// of a live buffer without poison, in bounds, the element's bytes
    /// written, at most 64 bits wide. `None` sends the access down the
    /// checked path. The engine's fast `memref.load`: one pass over the
    /// indices, nothing copied or allocated.
    #[inline(always)]
    pub fn fast_bits(&self, idx: impl Iterator<Item = Option<i64>>) -> Option<(u64, Lane)> {
        let (byte, eb) = self.plain_lin(idx)?;
        Some((self.buf.borrow().fast_word(byte, eb)?, self.elem.lane))
    }

    /// The element number `lin` from the aligned base, checked only against
    /// the buffer (runtime printers walk offset and strides themselves).
    pub fn element_at(&self, at: OpId, lin: i64, what: &str) -> Result<Value> {
        self.check_live(at, what)?;
        let byte = self.byte_of(at, lin, what, &[])?;
        Ok(self.read_at(byte))
    }

    /// Writes element number `lin` from the aligned base (see [`MemRef::element_at`]).
    pub fn set_element_at(&self, at: OpId, lin: i64, v: &Value, what: &str) -> Result<()> {
        self.check_live(at, what)?;
        let byte = self.byte_of(at, lin, what, &[])?;
        self.write_at(at, byte, v, what)
    }

    /// The whole view as a dense value in logical row-major order; vector
    /// elements append their shape.
    pub fn read_all(&self, at: OpId, what: &str) -> Result<Dense> {
        self.check_live(at, what)?;
        let (lane, lanes) = (self.elem.lane, self.elem.lanes());
        let mut shape: Vec<usize> = self.sizes.iter().map(|d| usize::try_from(*d).unwrap_or(0)).collect();
        shape.extend_from_slice(&self.elem.vshape);
        let mut out = Builder::new(&shape, Some(lane)).map_err(|x| self.dense_error(at, what, x))?;
        let mut idx = vec![0i64; self.sizes.len()];
        for _ in 0..self.num_elements().unwrap_or(0) {
            let byte = self.locate(at, &idx, what)?;
            let b = self.buf.borrow();
            for k in 0..lanes {
                out.push(&b.read_lane(byte + k * lane.bytes(), lane)).map_err(|x| self.dense_error(at, what, x))?;
            }
            drop(b);
            next_index(&mut idx, &self.sizes);
        }
        out.finish().map_err(|x| self.dense_error(at, what, x))
    }

    /// The block of scalar elements at `base` of `shape` over the view's
    /// trailing dims (`crate::block`), as one value, when nothing about it
    /// needs reporting: a strided view of a live buffer whose every byte is
    /// written and none poison, every element in bounds. Rows are copied
    /// as bytes. `None` sends the access down the per-element path, which
    /// reports what is wrong or reads the poison.
    pub fn read_block(&self, base: &[i64], shape: &[usize]) -> Option<Dense> {
        let (blk, eb) = self.block(base, shape)?;
        let b = self.buf.borrow();
        if !b.clean() {
            return None;
        }
        self.block_bytes(&blk, eb, b.len())?;
        let mut out = Vec::with_capacity(blk.starts.len() * blk.len * eb);
        for &start in &blk.starts {
            // In range: `block_bytes` bounded every element.
            let at = self.base + start as usize * eb;
            if blk.step == 1 {
                out.extend_from_slice(&b.data[at..at + blk.len * eb]);
            } else {
                for k in 0..blk.len as i64 {
                    let at = (at as i64 + k * blk.step * eb as i64) as usize;
                    out.extend_from_slice(&b.data[at..at + eb]);
                }
            }
        }
        Dense::from_le_bytes(shape, self.elem.lane, out).ok()
    }

    /// Writes `v` (shaped like a block of [`MemRef::read_block`], of the
    /// element's lane, no poison) at `base`, when nothing about it needs
    /// reporting: a strided view of a live, writable buffer, every element
    /// in bounds. False when it wrote nothing: the per-element path then
    /// stores or reports.
    pub fn write_block(&self, base: &[i64], v: &Dense) -> bool {
        if v.lane() != self.elem.lane || v.has_poison() {
            return false;
        }
        let Some((blk, eb)) = self.block(base, v.shape()) else { return false };
        let mut b = self.buf.borrow_mut();
        if b.freed.is_some() || b.read_only.is_some() || self.block_bytes(&blk, eb, b.len()).is_none() {
            return false;
        }
        let row = blk.len * eb;
        for (&start, src) in blk.starts.iter().zip(v.bytes().chunks_exact(row)) {
            let at = self.base + start as usize * eb;
            if blk.step == 1 {
                b.data[at..at + row].copy_from_slice(src);
                b.mark_written(at, row);
            } else {
                for (k, lane) in src.chunks_exact(eb).enumerate() {
                    let at = (at as i64 + k as i64 * blk.step * eb as i64) as usize;
                    b.data[at..at + eb].copy_from_slice(lane);
                    b.mark_written(at, eb);
                }
            }
        }
        true
    }

    /// The rows of the block at `base` of `shape` in a strided view of
    /// scalars, with the element's size.
    fn block(&self, base: &[i64], shape: &[usize]) -> Option<(crate::block::Block, usize)> {
        let eb = self.elem.scalar_bytes;
        if self.map.is_some() || eb == 0 || !self.elem.vshape.is_empty() {
            return None;
        }
        Some((crate::block::of(&self.sizes, &self.strides, self.offset, base, shape)?, eb))
    }

    /// `Some` when every element of `blk` lies in a buffer of `len` bytes.
    fn block_bytes(&self, blk: &crate::block::Block, eb: usize, len: usize) -> Option<()> {
        let byte = |lin: i64| usize::try_from(lin).ok()?.checked_mul(eb)?.checked_add(self.base);
        byte(blk.lo)?;
        (byte(blk.hi)?.checked_add(eb)? <= len).then_some(())
    }

    /// The error for a dense value `what` could not build.
    fn dense_error(&self, at: OpId, what: &str, e: DenseError) -> Error {
        match e {
            DenseError::Alloc(bytes) => Error::at(
                at,
                ErrorKind::Resource(format!("the host could not allocate {bytes} bytes to {what} {}", self.describe())),
            ),
            e => {
                Error::unverified(at, format!("{what}: the elements of {} do not fit its type: {e:?}", self.describe()))
            }
        }
    }

    /// Writes `arr` (shaped like [`MemRef::read_all`]'s result) into the view.
    pub fn write_all(&self, at: OpId, arr: &Dense, what: &str) -> Result<()> {
        self.check_live(at, what)?;
        let mut shape: Vec<usize> = self.sizes.iter().map(|d| usize::try_from(*d).unwrap_or(0)).collect();
        shape.extend_from_slice(&self.elem.vshape);
        if arr.shape() != shape.as_slice() {
            return Err(mem_ub(
                at,
                self.origin(),
                format!("{what}: a value of shape {:?} does not match {}", arr.shape(), self.describe()),
            ));
        }
        let lanes = self.elem.lanes();
        let mut idx = vec![0i64; self.sizes.len()];
        for k in 0..self.num_elements().unwrap_or(0) {
            let v = if self.elem.vshape.is_empty() {
                Value::from_scalar(arr.get(k))
            } else {
                let part = arr.gather(&self.elem.vshape, k * lanes..(k + 1) * lanes);
                Value::Array(Rc::new(part.map_err(|x| self.dense_error(at, what, x))?))
            };
            self.store(at, &idx, &v, what)?;
            next_index(&mut idx, &self.sizes);
        }
        Ok(())
    }
}
