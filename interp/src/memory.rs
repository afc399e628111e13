//! Memory: buffers, memref view descriptors, and the undefined-behaviour
//! checks of every access.
//!
//! A [`Buffer`] is raw bytes (each element at its natural size: an `i8` or
//! fp8 element costs one byte, `i1` and fp4 one byte too, `index` eight, a
//! `vector<4xf32>` element sixteen), an "initialized" bit per byte, and the
//! place it came from (allocation op, [`AllocKind`], freed state). A memref
//! value is a [`MemRef`]: a shared buffer plus a view descriptor (aligned
//! base byte, offset, sizes, strides, element kind), exactly the fields of
//! LLVM's memref descriptor, so every view op only rewrites the descriptor
//! and writes through any view land in the same storage. Layouts given by a
//! non-strided affine map keep the map ([`MapLayout`]) and address through it.
//!
//! Memory stores scalars (`crate::scalar`); reading and writing whole
//! values is `crate::access`, a layer above both memory and values.
//!
//! # API for other dialects
//! - `operands::elem_of`: the storage kind of an element type.
//! - [`Memory::alloc`]: a new buffer and its identity view ([`MemRef`]).
//! - [`MemRef::load`] / [`MemRef::store`] (in `crate::access`): one element (a scalar, or a
//!   `Value::Array` for vector elements) at logical indices, bounds-checked
//!   against the view and its buffer.
//! - [`MemRef::read_all`] / [`MemRef::write_all`]: the whole view as an
//!   `ArrayD<Scalar>` in logical row-major order (vector elements add their
//!   shape at the end), for tensor <-> memref and transfers.
//! - [`MemRef::element_at`] / [`MemRef::set_element_at`]: by linear element
//!   number relative to the aligned base, unchecked against the view (for
//!   runtime printers that walk strides themselves).
//!
//! Every failure is an [`Error`] at the op doing the access; undefined
//! behaviour on memory is [`ErrorKind::MemUb`], which names the allocation
//! site. Reading bytes never written gives poison whose origin is the
//! allocation op, reported only when the value is observed.

use crate::error::{Error, ErrorKind, Result};
pub use crate::lane::Lane;
pub use crate::poison::PoisonRuns;
use crate::scalar::{Packed, Poison, Scalar};
use mlir_ir::affine::AffineMap;
use mlir_ir::ir::OpId;
use mlir_ir::types::TypeId;
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

/// Where a buffer's memory comes from; decides who may free it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AllocKind {
    /// `memref.alloc` / `memref.realloc`: freed by `memref.dealloc`; a leak if never freed.
    Heap,
    /// `memref.alloca`: freed when its allocation scope returns.
    Alloca,
    /// `memref.global`: lives for the whole run.
    Global,
    /// Storage made for a tensor (`buffer_cast`, `to_buffer`): never freed by the program.
    Tensor,
    /// An array the library caller lent for one call (`crate::lend`).
    Lent,
    /// A memref argument of the entry function given on the command line
    /// (`run --arg`): the caller's, never freed by the program.
    Argument,
    /// `malloc`/`aligned_alloc` called from the llvm dialect: freed by
    /// `free`; a leak if never freed.
    Malloc,
    /// The code of a function whose address was taken: a one-byte
    /// placeholder, so each function has its own address and no data.
    Function,
}

impl AllocKind {
    fn noun(self) -> &'static str {
        match self {
            AllocKind::Heap => "heap memory",
            AllocKind::Alloca => "stack memory (memref.alloca)",
            AllocKind::Global => "a global (memref.global)",
            AllocKind::Tensor => "memory owned by a tensor",
            AllocKind::Lent => "an array lent by the caller",
            AllocKind::Argument => "an argument of the entry function",
            AllocKind::Malloc => "heap memory (malloc)",
            AllocKind::Function => "a function's code",
        }
    }
}

/// Why a buffer is no longer usable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Freed {
    /// By `memref.dealloc` (or `bufferization.dealloc`).
    Dealloc,
    /// Its `memref.alloca` scope (function or `alloca_scope`) returned.
    ScopeExit,
    /// Moved by `memref.realloc`.
    Realloc,
    /// Lent by the library caller for a call that has returned.
    Returned,
    /// By `free` (the llvm dialect).
    Free,
    /// By the sparse tensor runtime: the tensor (or reader, writer,
    /// generator) was deleted, or the array grew into a new buffer.
    SparseRuntime,
}

impl Freed {
    /// How the memory went away, for "whose memory was ..." messages.
    pub fn how(self) -> &'static str {
        match self {
            Freed::Dealloc => "freed by a dealloc",
            Freed::ScopeExit => "freed when its allocation scope returned",
            Freed::Realloc => "moved by memref.realloc",
            Freed::Returned => "lent by the caller for a call that has returned",
            Freed::Free => "freed by free",
            Freed::SparseRuntime => {
                "freed by the sparse tensor runtime (its object deleted, or the array moved as it grew)"
            }
        }
    }
}

/// The element of a memref: a scalar lane, or a vector of lanes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Elem {
    /// The scalar kind.
    pub lane: Lane,
    /// The vector shape for vector elements; empty for scalars.
    pub vshape: Vec<usize>,
    /// The element type as written (`f32`, `vector<4xi8>`), for messages.
    pub name: Rc<str>,
    /// The element type.
    pub ty: TypeId,
    /// `lane.bytes()` for a scalar element, 0 for a vector one: what the
    /// fast load and store paths ask first, worked out once.
    pub(crate) scalar_bytes: usize,
}

impl Elem {
    /// A scalar element of `lane`, of type `ty` named `name`.
    pub fn scalar(lane: Lane, name: Rc<str>, ty: TypeId) -> Elem {
        Elem::vector(lane, Vec::new(), name, ty)
    }

    /// A vector element of `vshape` lanes (a scalar one when it is empty).
    pub fn vector(lane: Lane, vshape: Vec<usize>, name: Rc<str>, ty: TypeId) -> Elem {
        let scalar_bytes = if vshape.is_empty() { lane.bytes() } else { 0 };
        Elem { lane, vshape, name, ty, scalar_bytes }
    }

    /// Lanes per element (1 for scalars).
    pub fn lanes(&self) -> usize {
        self.vshape.iter().product()
    }

    /// Bytes per element.
    pub fn bytes(&self) -> usize {
        self.lanes() * self.lane.bytes()
    }
}

/// The alignment of every buffer's storage: enough for any element type a
/// typed view reads (up to `complex<f64>`) and a cache line.
pub const STORAGE_ALIGN: usize = 64;

/// Zeroed bytes aligned to [`STORAGE_ALIGN`], so typed `ndarray` views of
/// a buffer (`crate::view`) are aligned wherever their elements are.
pub struct Storage {
    ptr: std::ptr::NonNull<u8>,
    len: usize,
    /// Allocated here (freed on drop), or lent by the caller.
    owned: bool,
}

impl Storage {
    /// No bytes (a freed buffer's storage).
    pub fn empty() -> Storage {
        // An aligned dangling pointer, as for an empty slice.
        let ptr = std::ptr::NonNull::new(std::ptr::without_provenance_mut(STORAGE_ALIGN))
            .unwrap_or(std::ptr::NonNull::dangling());
        Storage { ptr, len: 0, owned: false }
    }

    /// The caller's `len` bytes at `ptr`, used in place and never freed here.
    ///
    /// # Safety
    /// `ptr` must be valid for reads (and writes, unless the buffer is
    /// read-only) of `len` bytes, with no other access, until the storage
    /// is dropped or replaced (`crate::lend` does so when the call returns).
    pub(crate) unsafe fn lent(ptr: std::ptr::NonNull<u8>, len: usize) -> Storage {
        Storage { ptr, len, owned: false }
    }

    /// `len` zero bytes, allocated fallibly and zeroed by the allocator
    /// (untouched pages cost nothing); `None` if the host refuses.
    fn zeroed(len: usize) -> Option<Storage> {
        if len == 0 {
            return Some(Storage::empty());
        }
        let layout = std::alloc::Layout::from_size_align(len, STORAGE_ALIGN).ok()?;
        // SAFETY: the layout has a nonzero size; a null result is a refusal.
        let p = unsafe { std::alloc::alloc_zeroed(layout) };
        std::ptr::NonNull::new(p).map(|ptr| Storage { ptr, len, owned: true })
    }
}

impl Drop for Storage {
    fn drop(&mut self) {
        if self.owned && self.len != 0 {
            // SAFETY: allocated in `zeroed` with this size and alignment.
            unsafe {
                std::alloc::dealloc(
                    self.ptr.as_ptr(),
                    std::alloc::Layout::from_size_align_unchecked(self.len, STORAGE_ALIGN),
                )
            }
        }
    }
}

impl std::ops::Deref for Storage {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        // SAFETY: `ptr` holds `len` initialized (zeroed) bytes owned by self.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl std::ops::DerefMut for Storage {
    fn deref_mut(&mut self) -> &mut [u8] {
        // SAFETY: as in `deref`, and `&mut self` is unique.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

/// A block of memory.
pub struct Buffer {
    pub(crate) data: Storage,
    /// One bit per byte: written at least once. Dropped once every byte
    /// has been written, so a filled buffer costs its bytes and no more.
    init: Vec<u64>,
    /// Bytes never written; 0 lets reads skip the bitmap.
    unwritten: usize,
    /// What the allocation counted against the memory budget.
    charged: usize,
    /// Bytes holding (part of) a stored poison value, with its origin.
    pub(crate) poison: PoisonRuns,
    /// The op that allocated it (or the `memref.global`).
    pub origin: OpId,
    /// Who owns it.
    pub kind: AllocKind,
    /// Set once freed.
    pub freed: Option<Freed>,
    /// Its (simulated) address, for `base@`, alignment and pointer extraction.
    pub addr: u64,
    /// Memory that must not be stored into (stores are undefined
    /// behaviour), named for the diagnostic: a `constant` global, or the
    /// buffer of a `to_buffer ... read_only`.
    pub read_only: Option<&'static str>,
}

impl std::fmt::Debug for Buffer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Buffer({} bytes at {:#x}, {:?}, freed {:?})", self.data.len(), self.addr, self.kind, self.freed)
    }
}

impl Buffer {
    /// Size in bytes.
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// True for a zero-byte buffer.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    fn is_init(&self, i: usize) -> bool {
        self.unwritten == 0 || self.init[i / 64] >> (i % 64) & 1 == 1
    }

    fn set_init(&mut self, i: usize) {
        let (w, bit) = (i / 64, 1 << (i % 64));
        if self.unwritten != 0 && self.init[w] & bit == 0 {
            self.init[w] |= bit;
            self.written(1);
        }
    }

    /// Counts `n` bytes written for the first time.
    #[inline(always)]
    fn written(&mut self, n: usize) {
        self.unwritten -= n;
        if self.unwritten == 0 {
            self.init = Vec::new();
        }
    }

    /// The bits of bytes `at..at + n` in the init bitmap's word `at / 64`,
    /// when they all lie in it.
    #[inline(always)]
    fn init_mask(at: usize, n: usize) -> Option<u64> {
        let b = at % 64;
        (n >= 1 && b + n <= 64).then(|| (u64::MAX >> (64 - n)) << b)
    }

    /// True when every byte of `at..at + n` was written.
    #[inline(always)]
    pub(crate) fn all_init(&self, at: usize, n: usize) -> bool {
        if self.unwritten == 0 {
            return true;
        }
        match Self::init_mask(at, n) {
            Some(m) => self.init[at / 64] & m == m,
            None => (at..at + n).all(|i| self.is_init(i)),
        }
    }

    /// Marks bytes `at..at + n` written.
    #[inline(always)]
    fn set_all_init(&mut self, at: usize, n: usize) {
        if self.unwritten == 0 {
            return;
        }
        match Self::init_mask(at, n) {
            Some(m) => {
                let w = &mut self.init[at / 64];
                // A first write sets all `n` bits: no population count
                // (which the baseline x86-64 target has no instruction for).
                let fresh = m & !*w;
                let new = if fresh == m { n } else { fresh.count_ones() as usize };
                *w |= m;
                if new != 0 {
                    self.written(new);
                }
            }
            None => (at..at + n).for_each(|i| self.set_init(i)),
        }
    }

    /// True when every byte is written, none holds poison and the buffer is
    /// live: each of its lanes reads as its encoding.
    #[inline]
    pub(crate) fn clean(&self) -> bool {
        self.unwritten == 0 && self.poison.is_empty() && self.freed.is_none()
    }

    /// Decodes the lane at byte `at` (the caller checked `at + lane.bytes()`
    /// against [`Buffer::len`]): poison if a byte was never written or
    /// holds stored poison.
    #[inline]
    pub fn read_lane(&self, at: usize, lane: Lane) -> Scalar {
        let n = lane.bytes();
        if let Some(p) = self.poison.first_in(at, n) {
            return Scalar::Poison(p);
        }
        if !self.all_init(at, n) {
            return Scalar::Poison(Poison(self.origin));
        }
        lane.decode(&self.data[at..at + n])
    }

    /// The `n` bytes (at most 8) at `at` as a little-endian word, when
    /// they are in range, written and defined and the buffer is live: the
    /// loads' fast path (the general reads say what else they hold).
    #[inline(always)]
    pub fn fast_word(&self, at: usize, n: usize) -> Option<u64> {
        if n > 8 || self.freed.is_some() || !self.poison.is_empty() {
            return None;
        }
        let bytes = self.data.get(at..at.checked_add(n)?)?;
        self.all_init(at, n).then(|| crate::lane::le_u128(bytes) as u64)
    }

    /// Where an `n`-byte access at byte `offset` that assumes an alignment
    /// of `1 << align` lands, when nothing about it is undefined: a live
    /// data allocation (writable for a `write`), in bounds, aligned.
    /// `None` leaves the access to the checks that say what is wrong.
    #[inline(always)]
    pub fn plain_access(&self, offset: i64, n: usize, align: u8, write: bool) -> Option<usize> {
        let at = usize::try_from(offset).ok()?;
        let fits = at.checked_add(n)? <= self.len();
        let aligned = self.addr.wrapping_add(at as u64).trailing_zeros() >= u32::from(align);
        let live = self.freed.is_none() && self.kind != AllocKind::Function && !(write && self.read_only.is_some());
        (fits && aligned && live).then_some(at)
    }

    /// Marks bytes `at..at + n` written with defined data (a library
    /// caller wrote them through a mutable view).
    pub(crate) fn mark_written(&mut self, at: usize, n: usize) {
        self.set_all_init(at, n);
        self.poison.clear(at, n);
    }

    /// Encodes `s` into the lane at byte `at` (in range, checked by the
    /// caller); `None` when the scalar does not fit the lane kind.
    #[inline]
    pub fn write_lane(&mut self, at: usize, lane: Lane, s: &Scalar) -> Option<()> {
        let n = lane.bytes();
        self.set_all_init(at, n);
        if let Scalar::Poison(p) = s {
            self.poison.set(at, n, *p);
            return Some(());
        }
        self.poison.clear(at, n);
        lane.encode(s, &mut self.data[at..at + n])
    }

    /// [`Buffer::write_lane`] of a packed scalar: an integer or float of
    /// the lane's own kind is encoded straight from its words (the store
    /// fast path), anything else through the general form.
    #[inline(always)]
    pub fn write_packed(&mut self, at: usize, lane: Lane, s: Packed) -> Option<()> {
        let bits = match (lane, s) {
            (Lane::Int(_), Packed::Int { lo, hi, .. }) => u128::from(hi) << 64 | u128::from(lo),
            (Lane::Float(k), Packed::Float { kind, lo, hi }) if kind == k => u128::from(hi) << 64 | u128::from(lo),
            _ => return self.write_lane(at, lane, &s.unpack()),
        };
        let n = lane.bytes();
        self.set_all_init(at, n);
        self.poison.clear(at, n);
        crate::lane::put_le(bits, &mut self.data[at..at + n]);
        Some(())
    }
}

impl Buffer {
    /// Byte `i` (in range): its value, or the poison it holds (never
    /// written, or part of a stored poison value).
    pub fn byte(&self, i: usize) -> std::result::Result<u8, Poison> {
        if let Some(p) = self.poison.first_in(i, 1) {
            return Err(p);
        }
        if !self.is_init(i) {
            return Err(Poison(self.origin));
        }
        Ok(self.data[i])
    }

    /// Writes `bytes` at byte `at` (in range) as initialized data
    /// (a global's initial contents).
    pub fn write_bytes(&mut self, at: usize, bytes: &[u8]) {
        for (k, b) in bytes.iter().enumerate() {
            self.data[at + k] = *b;
            self.set_init(at + k);
        }
    }
}

/// [`Buffer::read_only`] of a `constant` global (`memref.global`,
/// `llvm.mlir.global`).
pub const CONSTANT_GLOBAL: &str = "a constant global";

/// An `!llvm.ptr` value: a byte offset from the start of a buffer (an
/// `llvm.mlir.global`'s storage), or an address with no allocation behind
/// it (`llvm.mlir.zero`'s null, offset from it by a GEP).
#[derive(Clone, Debug)]
pub struct Ptr {
    /// The allocation pointed into; `None` for null (plus `offset`).
    pub buf: Option<Rc<RefCell<Buffer>>>,
    /// Byte offset from the start of the allocation (or from address 0).
    /// Out-of-range offsets are allowed until the pointer is dereferenced.
    pub offset: i64,
}

impl PartialEq for Ptr {
    fn eq(&self, o: &Ptr) -> bool {
        let same = match (&self.buf, &o.buf) {
            (Some(a), Some(b)) => Rc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        same && self.offset == o.offset
    }
}

impl Ptr {
    /// The null pointer.
    pub fn null() -> Ptr {
        Ptr { buf: None, offset: 0 }
    }

    /// The simulated address.
    pub fn addr(&self) -> u64 {
        let base = self.buf.as_ref().map_or(0, |b| b.borrow().addr);
        base.wrapping_add(self.offset as u64)
    }

    /// The simulated address, while the caller holds `open` mutably
    /// borrowed: a pointer into that buffer (one stored into the memory it
    /// points to) cannot borrow it again, and takes its base from `open`.
    pub fn addr_in(&self, open: &Buffer) -> u64 {
        let base = match self.buf.as_ref().map(|b| b.try_borrow().map(|b| b.addr)) {
            None => 0,
            Some(Ok(a)) => a,
            Some(Err(_)) => open.addr,
        };
        base.wrapping_add(self.offset as u64)
    }
}

/// A layout given by an affine map that is not a strided form: storage is
/// the map's range, linearized row-major over `extents`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapLayout {
    /// The layout map.
    pub map: AffineMap,
    /// Values of the map's symbols (bound by `alloc(..)[%s]`).
    pub syms: Vec<i64>,
    /// Extent of each map result: storage is their product.
    pub extents: Vec<i64>,
}

/// A memref value: a buffer and a view descriptor on it.
#[derive(Clone, Debug)]
pub struct MemRef {
    /// The storage.
    pub buf: Rc<RefCell<Buffer>>,
    /// The element kind.
    pub elem: Rc<Elem>,
    /// Byte of the buffer where the aligned pointer points (`memref.view`'s shift).
    pub base: usize,
    /// Offset in elements from the aligned pointer.
    pub offset: i64,
    /// Logical sizes.
    pub sizes: Vec<i64>,
    /// Strides in elements (meaningless when `map` is set).
    pub strides: Vec<i64>,
    /// A non-strided affine-map layout, if any.
    pub map: Option<Rc<MapLayout>>,
    /// Made by a view op: not a pointer `memref.realloc` may reallocate.
    pub view: bool,
}

impl PartialEq for MemRef {
    fn eq(&self, o: &MemRef) -> bool {
        Rc::ptr_eq(&self.buf, &o.buf)
            && self.base == o.base
            && self.offset == o.offset
            && self.sizes == o.sizes
            && self.strides == o.strides
            && self.map == o.map
    }
}

/// Undefined behaviour on memory allocated by `alloc`.
pub fn mem_ub(at: OpId, alloc: OpId, msg: impl Into<String>) -> Error {
    Error::at(at, ErrorKind::MemUb { msg: msg.into(), alloc })
}

/// `[a, b, c]`.
pub fn list(v: &[i64]) -> String {
    let parts: Vec<String> = v.iter().map(i64::to_string).collect();
    format!("[{}]", parts.join(", "))
}

impl MemRef {
    /// The rank.
    pub fn rank(&self) -> usize {
        self.sizes.len()
    }

    /// `memref<4x6xf32>` with the run-time sizes.
    pub fn describe(&self) -> String {
        let mut s = String::from("memref<");
        for d in &self.sizes {
            s.push_str(&format!("{d}x"));
        }
        s.push_str(&self.elem.name);
        s.push('>');
        s
    }

    /// The allocation op of the buffer.
    pub fn origin(&self) -> OpId {
        self.buf.borrow().origin
    }

    /// Number of elements of the view; `None` on overflow or negative sizes.
    pub fn num_elements(&self) -> Option<usize> {
        self.sizes.iter().try_fold(1usize, |acc, d| acc.checked_mul(usize::try_from(*d).ok()?))
    }

    /// The element number (from the aligned base) of logical `idx`,
    /// without bounds checks; `None` on overflow or a bad map.
    pub fn linear(&self, idx: &[i64]) -> Option<i64> {
        match &self.map {
            None => {
                idx.iter().zip(&self.strides).try_fold(self.offset, |acc, (i, s)| acc.checked_add(i.checked_mul(*s)?))
            }
            Some(l) => {
                let r = l.map.eval(idx, &l.syms).ok()?;
                r.iter().zip(&l.extents).try_fold(0i64, |acc, (x, n)| acc.checked_mul(*n)?.checked_add(*x))
            }
        }
    }

    /// Fails if the buffer was freed.
    pub fn check_live(&self, at: OpId, what: &str) -> Result<()> {
        let b = self.buf.borrow();
        match b.freed {
            None => Ok(()),
            Some(how) => {
                let when = how.how();
                Err(mem_ub(
                    at,
                    b.origin,
                    format!("use after free: {what} through {} whose memory was {when}", self.describe()),
                ))
            }
        }
    }

    /// The byte address of element number `lin`, checked against the buffer.
    pub(crate) fn byte_of(&self, at: OpId, lin: i64, what: &str, idx: &[i64]) -> Result<usize> {
        let b = self.buf.borrow();
        let eb = self.elem.bytes();
        let byte = usize::try_from(lin)
            .ok()
            .and_then(|l| l.checked_mul(eb))
            .and_then(|x| x.checked_add(self.base))
            .filter(|x| x.checked_add(eb).is_some_and(|end| end <= b.len()));
        byte.ok_or_else(|| {
            mem_ub(
                at,
                b.origin,
                format!(
                    "out-of-bounds {what}: index {} of {} is element {lin} from the base, outside its buffer of {} bytes",
                    list(idx),
                    self.describe(),
                    b.len()
                ),
            )
        })
    }

    /// The byte address of logical `idx`, checked against the view's extent,
    /// the buffer, and its liveness.
    pub fn locate(&self, at: OpId, idx: &[i64], what: &str) -> Result<usize> {
        self.check_live(at, what)?;
        if idx.len() != self.rank() {
            return Err(Error::unverified(at, format!("{} indices for a memref of rank {}", idx.len(), self.rank())));
        }
        if idx.iter().zip(&self.sizes).any(|(i, n)| *i < 0 || i >= n) {
            return Err(mem_ub(
                at,
                self.origin(),
                format!("out-of-bounds {what}: index {} outside {}", list(idx), self.describe()),
            ));
        }
        let lin = self
            .linear(idx)
            .ok_or_else(|| mem_ub(at, self.origin(), format!("{what}: address of index {} overflows", list(idx))))?;
        self.byte_of(at, lin, what, idx)
    }

    /// The byte, from the buffer's start, of the element at the indices
    /// `idx` yields (`None` for one that is not a plain number) in a
    /// strided view of scalars, when they are in bounds and the address
    /// does not overflow; the buffer itself is not looked at. The caller
    /// passes as many indices as the rank. With the byte, the element's
    /// size (worked out once per access).
    #[inline(always)]
    pub(crate) fn plain_lin(&self, idx: impl Iterator<Item = Option<i64>>) -> Option<(usize, usize)> {
        let eb = self.elem.scalar_bytes;
        if self.map.is_some() || eb == 0 {
            return None;
        }
        let mut lin = self.offset;
        for ((i, &n), &s) in idx.zip(&self.sizes).zip(&self.strides) {
            let i = i?;
            // Sizes are never negative: one unsigned compare checks both ends.
            if i as u64 >= n as u64 {
                return None;
            }
            lin = lin.checked_add(i.checked_mul(s)?)?;
        }
        Some((usize::try_from(lin).ok()?.checked_mul(eb)?.checked_add(self.base)?, eb))
    }

    /// The byte of logical `idx` in a strided view of scalars when a read
    /// is plainly fine (live, in bounds, no overflow), with the buffer
    /// borrowed once; `None` sends the access down the checked path, which
    /// reports what is wrong.
    #[inline(always)]
    pub(crate) fn plain_byte(&self, b: &Buffer, idx: &[i64]) -> Option<usize> {
        if b.freed.is_some() || idx.len() != self.sizes.len() {
            return None;
        }
        let (byte, eb) = self.plain_lin(idx.iter().map(|i| Some(*i)))?;
        (byte.checked_add(eb)? <= b.len()).then_some(byte)
    }

    /// [`MemRef::load`] of a scalar when nothing needs reporting.
    #[inline(always)]
    pub(crate) fn load_scalar(&self, idx: &[i64]) -> Option<Scalar> {
        let b = self.buf.borrow();
        let byte = self.plain_byte(&b, idx)?;
        Some(b.read_lane(byte, self.elem.lane))
    }

    /// [`MemRef::store`] of a scalar when nothing needs reporting; false
    /// when it did not store.
    #[inline(always)]
    pub(crate) fn store_scalar(&self, idx: &[i64], s: Packed) -> bool {
        idx.len() == self.sizes.len() && self.fast_store(idx.iter().map(|i| Some(*i)), s)
    }

    /// `MemRef::store_scalar` at the indices `idx` yields (as many as
    /// the rank; `None` for one that is not a plain number): the engine's
    /// fast `memref.store`, one pass over the indices.
    #[inline(always)]
    pub fn fast_store(&self, idx: impl Iterator<Item = Option<i64>>, s: Packed) -> bool {
        let Some((byte, eb)) = self.plain_lin(idx) else { return false };
        let mut b = self.buf.borrow_mut();
        let fits = byte.checked_add(eb).is_some_and(|end| end <= b.len());
        fits && b.freed.is_none() && b.read_only.is_none() && b.write_packed(byte, self.elem.lane, s).is_some()
    }

    /// Every logical index of the view in row-major order.
    pub fn indices(&self) -> impl Iterator<Item = Vec<i64>> {
        let sizes = self.sizes.clone();
        let total = self.num_elements().unwrap_or(0);
        let mut cur = vec![0i64; sizes.len()];
        (0..total).map(move |k| {
            let out = cur.clone();
            if k + 1 < total {
                for d in (0..sizes.len()).rev() {
                    cur[d] += 1;
                    if cur[d] < sizes[d] {
                        break;
                    }
                    cur[d] = 0;
                }
            }
            out
        })
    }

    /// A view of the same memory with a new descriptor.
    pub fn derived(&self, offset: i64, sizes: Vec<i64>, strides: Vec<i64>) -> MemRef {
        MemRef { offset, sizes, strides, map: None, view: true, ..self.clone() }
    }

    /// `subview`: offsets, sizes and strides per source dim, keeping dims
    /// `keep` (rank reduction drops the others, which have size 1). Errs
    /// with a description when the window leaves the source or overflows.
    pub fn subview(
        &self,
        offs: &[i64],
        sizes: &[i64],
        strides: &[i64],
        keep: &[usize],
    ) -> std::result::Result<MemRef, String> {
        let r = self.rank();
        if offs.len() != r || sizes.len() != r || strides.len() != r || keep.iter().any(|d| *d >= r) {
            return Err(format!("subview of rank {} does not match its source of rank {r}", offs.len()));
        }
        for d in 0..r {
            let (o, n, s) = (offs[d], sizes[d], strides[d]);
            let last = if n > 0 { (n - 1).checked_mul(s).and_then(|x| x.checked_add(o)) } else { Some(o) };
            let ok =
                o >= 0 && n >= 0 && o <= self.sizes[d] && last.is_some_and(|l| l >= 0 && (n == 0 || l < self.sizes[d]));
            if !ok {
                return Err(format!(
                    "out-of-bounds subview: offsets {}, sizes {}, strides {} outside {}",
                    list(offs),
                    list(sizes),
                    list(strides),
                    self.describe()
                ));
            }
        }
        let overflow = || "subview offset overflows".to_string();
        let mut offset = self.offset;
        for (o, s) in offs.iter().zip(&self.strides) {
            offset = o.checked_mul(*s).and_then(|x| x.checked_add(offset)).ok_or_else(overflow)?;
        }
        let new_strides: Vec<i64> = strides
            .iter()
            .zip(&self.strides)
            .map(|(a, b)| a.checked_mul(*b).ok_or_else(overflow))
            .collect::<std::result::Result<_, _>>()?;
        let out_sizes = keep.iter().map(|d| sizes[*d]).collect();
        let out_strides = keep.iter().map(|d| new_strides[*d]).collect();
        Ok(self.derived(offset, out_sizes, out_strides))
    }

    /// `transpose`: result dim `i` is source dim `perm[i]`.
    pub fn transposed(&self, perm: &[usize]) -> MemRef {
        let sizes = perm.iter().map(|d| self.sizes[*d]).collect();
        let strides = perm.iter().map(|d| self.strides[*d]).collect();
        self.derived(self.offset, sizes, strides)
    }

    /// `expand_shape`: source dim `g` becomes the dims `groups[g]` of `out`.
    pub fn expanded(&self, groups: &[Vec<usize>], out: &[i64]) -> std::result::Result<MemRef, String> {
        if groups.len() != self.rank() {
            return Err("reassociation does not match the source rank".into());
        }
        // Only a rank-0 source leaves dims outside every group: unit dims
        // with stride 1, as expand-strided-metadata gives them (LLVM 22).
        let mut strides = vec![1i64; out.len()];
        for (g, dims) in groups.iter().enumerate() {
            let prod = dims.iter().try_fold(1i64, |a, d| out.get(*d).and_then(|n| a.checked_mul(*n)));
            if prod != Some(self.sizes[g]) {
                let parts: Vec<i64> = dims.iter().filter_map(|d| out.get(*d).copied()).collect();
                return Err(format!(
                    "memref.expand_shape: dim {g} of size {} cannot expand to {}",
                    self.sizes[g],
                    list(&parts)
                ));
            }
            let mut s = self.strides[g];
            for d in dims.iter().rev() {
                strides[*d] = s;
                s = s.checked_mul(out[*d]).ok_or("expand_shape stride overflows")?;
            }
        }
        Ok(self.derived(self.offset, out.to_vec(), strides))
    }

    /// `collapse_shape`: the dims of each group merge; each group must be
    /// contiguous at run time. The merged stride is, as
    /// expand-strided-metadata computes it, the smallest stride of the dims
    /// not of size 1 (statically, per `unit`, or at run time), else
    /// `fallback[g]` (the result type's static stride), else the innermost.
    pub fn collapsed(
        &self,
        groups: &[Vec<usize>],
        unit: &[bool],
        fallback: &[Option<i64>],
    ) -> std::result::Result<MemRef, String> {
        let mut sizes = Vec::with_capacity(groups.len());
        let mut strides = Vec::with_capacity(groups.len());
        for (g, dims) in groups.iter().enumerate() {
            if dims.iter().any(|d| *d >= self.rank()) {
                return Err("reassociation names a dim past the rank".into());
            }
            let size = dims
                .iter()
                .try_fold(1i64, |a, d| a.checked_mul(self.sizes[*d]))
                .ok_or("collapse_shape size overflows")?;
            let empty = dims.iter().any(|d| self.sizes[*d] == 0);
            // Size-1 dims take no part: their stride is never used.
            let live: Vec<usize> = dims.iter().copied().filter(|d| self.sizes[*d] != 1).collect();
            for w in live.windows(2) {
                let (a, b) = (w[0], w[1]);
                if !empty && Some(self.strides[a]) != self.strides[b].checked_mul(self.sizes[b]) {
                    return Err(format!(
                        "memref.collapse_shape of a non-contiguous group {}: sizes {}, strides {}",
                        list(&dims.iter().map(|d| *d as i64).collect::<Vec<_>>()),
                        list(&dims.iter().map(|d| self.sizes[*d]).collect::<Vec<_>>()),
                        list(&dims.iter().map(|d| self.strides[*d]).collect::<Vec<_>>())
                    ));
                }
            }
            // The innermost non-unit dim's stride, as MLIR's
            // computeCollapsedLayoutMap takes it (with negative strides it
            // is not the smallest).
            let non_unit = dims
                .iter()
                .rev()
                .find(|d| !unit.get(**d).copied().unwrap_or(false) && self.sizes[**d] != 1)
                .map(|d| self.strides[*d]);
            let stride = match (non_unit, fallback.get(g).copied().flatten()) {
                (Some(s), _) | (None, Some(s)) => s,
                (None, None) => dims.last().map(|d| self.strides[*d]).unwrap_or(1),
            };
            sizes.push(size);
            strides.push(stride);
        }
        Ok(self.derived(self.offset, sizes, strides))
    }

    /// The aligned pointer as an integer (simulated address).
    pub fn aligned_addr(&self) -> u64 {
        self.buf.borrow().addr + self.base as u64
    }

    /// True when the view covers its elements densely in row-major order
    /// (identity-like strides; size-1 dims may have any stride).
    pub fn is_contiguous(&self) -> bool {
        if self.map.is_some() {
            return false;
        }
        let mut expect = 1i64;
        for (n, s) in self.sizes.iter().zip(&self.strides).rev() {
            if *n != 1 && *s != expect {
                return false;
            }
            expect = match expect.checked_mul(*n) {
                Some(v) => v,
                None => return false,
            };
        }
        true
    }
}

/// The largest index space an affine-map layout is sized over.
pub const MAX_MAP_ELEMENTS: usize = 1 << 26;

/// The memory state of a run: addresses, live heap allocations (for the
/// leak check), alloca scopes, materialized globals, and the `--max-memory`
/// budget that every allocation of run-time storage is checked against.
#[derive(Debug, Default)]
pub struct Memory {
    /// The `--max-memory` limit in bytes, resolved once (reading the host's
    /// memory size per check made calls 35x slower); 0 in a `Memory::default()`
    /// means no limit.
    limit: usize,
    /// Bytes of memref buffers freed explicitly (heap and alloca) plus call
    /// frames: what the budget counts without asking the host.
    tracked: usize,
    /// Bytes of live buffers (heap, stack, globals) and their peak.
    buffer_bytes: usize,
    peak_buffer_bytes: usize,
    next_addr: u64,
    /// Live heap allocations by address: origin op and size.
    live: BTreeMap<u64, (OpId, usize)>,
    /// Open allocation scopes, innermost last: their allocas.
    scopes: Vec<Vec<Rc<RefCell<Buffer>>>>,
    /// Globals by their `memref.global` op.
    pub globals: FxHashMap<OpId, Rc<RefCell<Buffer>>>,
    /// Every buffer by address, with its size, for pointers made from
    /// integers (`llvm.inttoptr`, a pointer loaded from memory): an
    /// address inside (or one past) an allocation gets that allocation.
    by_addr: BTreeMap<u64, (std::rc::Weak<RefCell<Buffer>>, usize)>,
    /// Registry size after the last sweep of dropped buffers.
    swept: usize,
    /// `malloc`ed buffers until `free`: a program may keep such memory
    /// only as an integer or as bytes in memory.
    held: FxHashMap<u64, Rc<RefCell<Buffer>>>,
}

/// Simulated addresses start here and are aligned to at least this.
const BASE_ADDR: u64 = 0x1000_0000;
const MIN_ALIGN: u64 = 64;

/// Requests at least this large also consult the host's resident set size,
/// which sees storage the budget does not track (vectors, tensors).
const LARGE: usize = 1 << 20;

/// Half of physical memory (or 8 GiB where that cannot be read): room for
/// the host while bounding any program.
pub fn default_limit() -> usize {
    let total = std::fs::read_to_string("/proc/meminfo").ok().and_then(|s| {
        let line = s.lines().find(|l| l.starts_with("MemTotal:"))?;
        line.split_whitespace().nth(1)?.parse::<usize>().ok()?.checked_mul(1024)
    });
    total.map_or(8 << 30, |t| t / 2)
}

/// The process's resident set size in bytes, where the host reports it.
fn resident_bytes() -> Option<usize> {
    let s = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: usize = s.split_whitespace().nth(1)?.parse().ok()?;
    pages.checked_mul(4096)
}

/// Integers whose all-zero bit pattern is the value 0.
trait ZeroBits: Copy {}
impl ZeroBits for u64 {}

/// `n` zeros, allocated fallibly and zeroed by the allocator (as `vec![0; n]`
/// is: untouched pages cost nothing), so a memref's size costs memory only
/// where the program writes.
fn try_zeroed<T: ZeroBits>(at: OpId, n: usize) -> Result<Vec<T>> {
    let fail = || {
        let bytes = n.saturating_mul(std::mem::size_of::<T>());
        Error::at(at, ErrorKind::Resource(format!("the host could not allocate {bytes} bytes for a memref")))
    };
    if n == 0 || std::mem::size_of::<T>() == 0 {
        return Ok(Vec::new());
    }
    let layout = std::alloc::Layout::array::<T>(n).map_err(|_| fail())?;
    // SAFETY: the layout has a nonzero size; a null pointer (refusal) is
    // checked; the memory is zeroed, and all-zero bits are a valid `T`
    // (`ZeroBits`); it was allocated by the global allocator with `T`'s
    // layout for `n` elements, as `Vec::from_raw_parts` requires.
    unsafe {
        let p = std::alloc::alloc_zeroed(layout) as *mut T;
        if p.is_null() {
            return Err(fail());
        }
        Ok(Vec::from_raw_parts(p, n, n))
    }
}

impl Memory {
    /// Empty memory with a budget of `limit` bytes (0: [`default_limit`]).
    pub fn with_limit(limit: usize) -> Memory {
        let limit = if limit == 0 { default_limit() } else { limit };
        Memory { limit, ..Memory::default() }
    }

    /// The limit in force.
    pub fn limit(&self) -> usize {
        if self.limit == 0 {
            usize::MAX
        } else {
            self.limit
        }
    }

    /// Checks that `bytes` more bytes of run-time storage (`what`, for the
    /// message) fit in the `--max-memory` budget.
    pub fn reserve(&self, at: OpId, bytes: usize, what: &str) -> Result<()> {
        let limit = self.limit();
        let mut used = self.tracked;
        if bytes >= LARGE {
            used = used.max(resident_bytes().unwrap_or(0));
        }
        if used.saturating_add(bytes) > limit {
            return Err(Error::at(
                at,
                ErrorKind::MemoryLimit(format!(
                    "{what} needs {bytes} bytes, but {used} of the {limit}-byte memory limit are in use"
                )),
            ));
        }
        Ok(())
    }

    /// Reserves and counts `bytes` of storage freed later with [`Memory::untrack`]
    /// (a call frame).
    #[inline]
    pub fn track(&mut self, at: OpId, bytes: usize, what: &str) -> Result<()> {
        // A call frame is small: only the count and the limit matter.
        let used = self.tracked.saturating_add(bytes);
        if bytes >= LARGE || used > self.limit() {
            self.reserve(at, bytes, what)?;
        }
        self.tracked = used;
        Ok(())
    }

    /// The bytes tracked and the allocation scopes open (what a run that
    /// ends, by an error or not, must give back).
    #[cfg(test)]
    pub(crate) fn balance(&self) -> (usize, usize) {
        (self.tracked, self.scopes.len())
    }

    /// The most bytes live buffers (heap, stack, globals) held at once.
    pub fn peak_buffer_bytes(&self) -> usize {
        self.peak_buffer_bytes
    }

    /// Gives back what [`Memory::track`] counted.
    pub fn untrack(&mut self, bytes: usize) {
        self.tracked = self.tracked.saturating_sub(bytes);
    }

    /// A buffer on the caller's `storage`, every byte defined (the
    /// caller's data), read-only if `read_only` names why.
    pub(crate) fn lent_buffer(
        &mut self,
        at: OpId,
        storage: Storage,
        read_only: Option<&'static str>,
    ) -> Rc<RefCell<Buffer>> {
        if self.next_addr == 0 {
            self.next_addr = BASE_ADDR;
        }
        let addr = self.next_addr.div_ceil(STORAGE_ALIGN as u64).saturating_mul(STORAGE_ALIGN as u64);
        self.next_addr = addr.saturating_add(storage.len() as u64).saturating_add(MIN_ALIGN);
        let len = storage.len();
        let rc = Rc::new(RefCell::new(Buffer {
            data: storage,
            init: Vec::new(),
            unwritten: 0,
            charged: 0,
            poison: PoisonRuns::default(),
            origin: at,
            kind: AllocKind::Lent,
            freed: None,
            addr,
            read_only,
        }));
        self.register(&rc, len);
        rc
    }

    /// Records `b` (of `len` bytes) for [`Memory::resolve`].
    fn register(&mut self, b: &Rc<RefCell<Buffer>>, len: usize) {
        let addr = b.borrow().addr;
        self.by_addr.insert(addr, (Rc::downgrade(b), len));
        // Forget dropped buffers now and then: a loop allocating views
        // must not grow the registry without bound.
        if self.by_addr.len() > 2 * self.swept + 1024 {
            self.by_addr.retain(|_, (w, _)| w.strong_count() > 0);
            self.swept = self.by_addr.len();
        }
    }

    /// The pointer with address `addr`: into the allocation that holds it
    /// (one past the end included, freed ones too, so that a use is
    /// reported as a use after free), else an address with no allocation.
    pub fn resolve(&self, addr: u64) -> Ptr {
        if let Some((base, (w, len))) = self.by_addr.range(..=addr).next_back() {
            if let Some(b) = w.upgrade() {
                if addr - base <= *len as u64 {
                    return Ptr { buf: Some(b), offset: (addr - base) as i64 };
                }
            }
        }
        Ptr { buf: None, offset: addr as i64 }
    }

    /// A `malloc`: `bytes` uninitialized bytes aligned to `align`, kept
    /// alive until [`Memory::free`].
    pub fn malloc(&mut self, at: OpId, bytes: usize, align: u64) -> Result<Rc<RefCell<Buffer>>> {
        let b = self.new_buffer_exact(at, bytes, AllocKind::Malloc, align)?;
        let addr = b.borrow().addr;
        self.held.insert(addr, b.clone());
        Ok(b)
    }

    /// `free(p)`: null is a no-op; anything but the start of a live
    /// `malloc`ed block is undefined behaviour.
    pub fn free(&mut self, at: OpId, p: &Ptr) -> Result<()> {
        let Some(b) = &p.buf else {
            if p.offset == 0 {
                return Ok(());
            }
            return Err(Error::at(at, ErrorKind::Ub(format!("free of {:#x}, which is not an allocation", p.offset))));
        };
        let (origin, kind, freed) = {
            let x = b.borrow();
            (x.origin, x.kind, x.freed)
        };
        if freed == Some(Freed::Free) {
            return Err(mem_ub(at, origin, "double free: the memory was already freed"));
        }
        if freed.is_some() {
            return Err(mem_ub(at, origin, "free of memory that is no longer allocated"));
        }
        if kind != AllocKind::Malloc && kind != AllocKind::Heap {
            return Err(mem_ub(at, origin, format!("free of {}", kind.noun())));
        }
        if p.offset != 0 {
            return Err(mem_ub(at, origin, format!("free of a pointer {} bytes into its allocation", p.offset)));
        }
        self.release(b, Freed::Free);
        self.held.remove(&b.borrow().addr);
        Ok(())
    }

    /// A new buffer of `bytes` bytes, none initialized.
    pub fn new_buffer(&mut self, at: OpId, bytes: usize, kind: AllocKind, align: u64) -> Result<Rc<RefCell<Buffer>>> {
        self.allocate(at, bytes, kind, align, false)
    }

    /// A new buffer whose address is aligned to `align` and to nothing
    /// larger (below a page): memory whose real alignment is known (a
    /// `malloc`, an `llvm.alloca`), so an access that assumes more
    /// alignment than it has is caught rather than lucky.
    pub fn new_buffer_exact(
        &mut self,
        at: OpId,
        bytes: usize,
        kind: AllocKind,
        align: u64,
    ) -> Result<Rc<RefCell<Buffer>>> {
        self.allocate(at, bytes, kind, align, true)
    }

    fn allocate(
        &mut self,
        at: OpId,
        bytes: usize,
        kind: AllocKind,
        align: u64,
        exact: bool,
    ) -> Result<Rc<RefCell<Buffer>>> {
        let meta = bytes.div_ceil(64) * 8;
        self.reserve(at, bytes.saturating_add(meta), "the allocation")?;
        let data = Storage::zeroed(bytes).ok_or_else(|| {
            Error::at(at, ErrorKind::Resource(format!("the host could not allocate {bytes} bytes for a memref")))
        })?;
        let init = try_zeroed::<u64>(at, bytes.div_ceil(64))?;
        if matches!(kind, AllocKind::Heap | AllocKind::Malloc | AllocKind::Alloca) {
            self.tracked += bytes + meta;
        }
        let align = if exact { align.max(1) } else { align.max(MIN_ALIGN) }.next_power_of_two();
        if self.next_addr == 0 {
            self.next_addr = BASE_ADDR;
        }
        let mut addr = self.next_addr.div_ceil(align).saturating_mul(align);
        if exact && align < 4096 && addr % (2 * align) == 0 {
            addr += align;
        }
        self.next_addr = addr.saturating_add(bytes as u64).saturating_add(MIN_ALIGN);
        if matches!(kind, AllocKind::Heap | AllocKind::Malloc | AllocKind::Alloca | AllocKind::Global) {
            self.buffer_bytes += bytes;
            self.peak_buffer_bytes = self.peak_buffer_bytes.max(self.buffer_bytes);
        }
        let charged =
            if matches!(kind, AllocKind::Heap | AllocKind::Malloc | AllocKind::Alloca) { bytes + meta } else { 0 };
        let buf = Buffer {
            data,
            init,
            unwritten: bytes,
            charged,
            poison: PoisonRuns::default(),
            origin: at,
            kind,
            freed: None,
            addr,
            read_only: None,
        };
        let rc = Rc::new(RefCell::new(buf));
        self.register(&rc, bytes);
        match kind {
            AllocKind::Heap | AllocKind::Malloc => {
                self.live.insert(addr, (at, bytes));
            }
            AllocKind::Alloca => match self.scopes.last_mut() {
                Some(s) => s.push(rc.clone()),
                None => return Err(Error::unverified(at, "memref.alloca outside any allocation scope")),
            },
            AllocKind::Global | AllocKind::Tensor | AllocKind::Lent | AllocKind::Argument | AllocKind::Function => {}
        }
        Ok(rc)
    }

    /// Allocates storage for `sizes` elements of `elem` with the given layout
    /// (`None`: identity) and returns its view.
    pub fn alloc(
        &mut self,
        at: OpId,
        elem: Elem,
        sizes: Vec<i64>,
        layout: AllocLayout,
        kind: AllocKind,
        align: u64,
    ) -> Result<MemRef> {
        if let Some(d) = sizes.iter().find(|d| **d < 0) {
            return Err(Error::at(at, ErrorKind::Ub(format!("allocation with negative size {d}"))));
        }
        let too_big =
            || Error::at(at, ErrorKind::Unsupported(format!("allocation of {} elements overflows", list(&sizes))));
        let count = sizes.iter().try_fold(1usize, |acc, d| acc.checked_mul(*d as usize)).ok_or_else(too_big)?;
        let (strides, offset, map, elems) = match layout {
            AllocLayout::Identity => (mlir_ir::layout::canonical_strides(&sizes), 0, None, count),
            AllocLayout::Strided { strides, offset } => {
                // Storage reaches the furthest element the strides address
                // (negative strides reach down from the offset instead).
                let mut last = offset;
                for (n, s) in sizes.iter().zip(&strides) {
                    if *n > 0 && *s > 0 {
                        last = (n - 1).checked_mul(*s).and_then(|x| x.checked_add(last)).ok_or_else(too_big)?;
                    }
                }
                let elems = if count == 0 { 0 } else { usize::try_from(last + 1).map_err(|_| too_big())? };
                (strides, offset, None, elems)
            }
            AllocLayout::Map { map, syms } => {
                let extents = map_extents(at, &map, &syms, &sizes)?;
                let elems =
                    extents.iter().try_fold(1usize, |acc, d| acc.checked_mul(*d as usize)).ok_or_else(too_big)?;
                let elems = if count == 0 { 0 } else { elems };
                let l = MapLayout { map, syms, extents };
                (Vec::new(), 0, Some(Rc::new(l)), elems)
            }
        };
        let bytes = elems.checked_mul(elem.bytes()).ok_or_else(too_big)?;
        let buf = self.new_buffer(at, bytes, kind, align)?;
        Ok(MemRef { buf, elem: Rc::new(elem), base: 0, offset, sizes, strides, map, view: false })
    }

    /// Frees the heap allocation `m` refers to (`memref.dealloc`). A view
    /// (subview, cast, reinterpret cast, ...) frees the allocation it views,
    /// as the lowering frees the descriptor's allocated pointer: MLIR's op
    /// documentation dropped its "not on an alias" rule (D144090), and its
    /// own buffer deallocation emits `memref.dealloc %subview`.
    pub fn dealloc(&mut self, at: OpId, m: &MemRef) -> Result<()> {
        let mut b = m.buf.borrow_mut();
        let origin = b.origin;
        if b.freed == Some(Freed::Dealloc) {
            return Err(mem_ub(at, origin, format!("double free: {} was already deallocated", m.describe())));
        }
        if b.freed.is_some() {
            drop(b);
            return m.check_live(at, "dealloc");
        }
        if b.kind != AllocKind::Heap {
            return Err(mem_ub(at, origin, format!("dealloc of {}, which is {}", m.describe(), b.kind.noun())));
        }
        b.freed = Some(Freed::Dealloc);
        self.tracked = self.tracked.saturating_sub(b.charged);
        self.buffer_bytes = self.buffer_bytes.saturating_sub(b.data.len());
        b.data = Storage::empty();
        b.init = Vec::new();
        b.poison = PoisonRuns::default();
        self.live.remove(&b.addr);
        Ok(())
    }

    /// Marks `b` freed for reason `how` (scope exit, realloc) and forgets it.
    pub fn release(&mut self, b: &Rc<RefCell<Buffer>>, how: Freed) {
        let mut b = b.borrow_mut();
        if b.freed.is_none() {
            b.freed = Some(how);
            self.tracked = self.tracked.saturating_sub(b.charged);
            if matches!(b.kind, AllocKind::Heap | AllocKind::Malloc | AllocKind::Alloca | AllocKind::Global) {
                self.buffer_bytes = self.buffer_bytes.saturating_sub(b.data.len());
            }
            b.data = Storage::empty();
            b.init = Vec::new();
            b.poison = PoisonRuns::default();
            self.live.remove(&b.addr);
        }
    }

    /// Opens an allocation scope (a function body, `memref.alloca_scope`).
    pub fn push_scope(&mut self) {
        self.scopes.push(Vec::new());
    }

    /// Closes the innermost allocation scope, freeing its allocas.
    pub fn pop_scope(&mut self) {
        if let Some(bufs) = self.scopes.pop() {
            for b in bufs {
                self.release(&b, Freed::ScopeExit);
            }
        }
    }

    /// How many allocas the innermost scope holds (`llvm.intr.stacksave`).
    pub fn stack_mark(&self) -> usize {
        self.scopes.last().map_or(0, Vec::len)
    }

    /// Frees the innermost scope's allocas made after `mark`
    /// (`llvm.intr.stackrestore`).
    pub fn stack_restore(&mut self, mark: usize) {
        let Some(scope) = self.scopes.last_mut() else { return };
        let later = scope.split_off(mark.min(scope.len()));
        for b in later {
            self.release(&b, Freed::ScopeExit);
        }
    }

    /// Heap allocations never freed: origin op and size in bytes, by address.
    pub fn leaks(&self) -> Vec<(OpId, usize)> {
        self.live.values().copied().collect()
    }
}

/// How `Memory::alloc` lays out the elements.
#[derive(Clone, Debug)]
pub enum AllocLayout {
    /// Row-major.
    Identity,
    /// Explicit static strides and offset.
    Strided {
        /// Strides in elements.
        strides: Vec<i64>,
        /// Offset in elements.
        offset: i64,
    },
    /// An affine map with its symbol values.
    Map {
        /// The map.
        map: AffineMap,
        /// Symbol values.
        syms: Vec<i64>,
    },
}

/// The extent of each result of `map` over the index space `sizes`: one
/// more than its largest value (the storage the builtin doc sizes from the
/// map's range). A result that goes negative is undefined behaviour.
fn map_extents(at: OpId, map: &AffineMap, syms: &[i64], sizes: &[i64]) -> Result<Vec<i64>> {
    let bad = |msg: String| Error::at(at, ErrorKind::Ub(msg));
    let mut ext = vec![1i64; map.results.len()];
    let total = sizes.iter().try_fold(1usize, |acc, d| acc.checked_mul(*d as usize)).unwrap_or(usize::MAX);
    if total == 0 {
        return Ok(vec![0; map.results.len()]);
    }
    // The extents come from visiting every index: cap the work.
    if total > MAX_MAP_ELEMENTS {
        return Err(Error::at(
            at,
            ErrorKind::Unsupported(format!(
                "affine-map layout over {total} elements (the interpreter sizes such layouts by visiting every index, up to {MAX_MAP_ELEMENTS})"
            )),
        ));
    }
    let mut idx = vec![0i64; sizes.len()];
    for _ in 0..total {
        let r = map.eval(&idx, syms).map_err(|e| bad(format!("layout map {map}: {e}")))?;
        for (k, v) in r.iter().enumerate() {
            if *v < 0 {
                return Err(bad(format!("layout map {map} gives negative position {v} at index {}", list(&idx))));
            }
            ext[k] = ext[k].max(v + 1);
        }
        for d in (0..sizes.len()).rev() {
            idx[d] += 1;
            if idx[d] < sizes[d] {
                break;
            }
            idx[d] = 0;
        }
    }
    Ok(ext)
}

/// The copy of a `dma_start` (memref or affine): `count` elements from
/// `src` at its index to `dst` at its index, row-major; `stride` is empty
/// or `[stride, elements per stride]` applied to the source.
pub fn dma_copy(op: OpId, src: (&MemRef, &[i64]), dst: (&MemRef, &[i64]), count: i64, stride: &[i64]) -> Result<()> {
    let (stride, per) = match stride {
        [s, p] if *p > 0 => (*s, *p),
        [] => (count.max(1), count.max(1)),
        _ => {
            let msg = format!("dma_start with stride and elements per stride {}", list(stride));
            return Err(Error::at(op, ErrorKind::Ub(msg)));
        }
    };
    let s0 = position(src.0, src.1);
    let d0 = position(dst.0, dst.1);
    for k in 0..count.max(0) {
        let s = s0.saturating_add((k / per).saturating_mul(stride)).saturating_add(k % per);
        let v = src.0.load(op, &unposition(src.0, s), "dma_start read")?;
        dst.0.store(op, &unposition(dst.0, d0.saturating_add(k)), &v, "dma_start write")?;
    }
    Ok(())
}

/// The row-major position of `idx` in the view's index space.
fn position(m: &MemRef, idx: &[i64]) -> i64 {
    idx.iter().zip(&m.sizes).fold(0i64, |acc, (i, n)| acc.saturating_mul(*n).saturating_add(*i))
}

/// The logical index at row-major position `p` (out-of-range positions
/// give an index past the first dimension, which the access then reports).
fn unposition(m: &MemRef, mut p: i64) -> Vec<i64> {
    let mut idx = vec![0i64; m.rank()];
    for d in (1..m.rank()).rev() {
        let n = m.sizes[d].max(1);
        idx[d] = p.rem_euclid(n);
        p = p.div_euclid(n);
    }
    if let Some(first) = idx.first_mut() {
        *first = p;
    }
    idx
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::float::FloatKind;
    use crate::scalar::Int;
    use num_bigint::BigInt;

    #[test]
    fn lanes_have_natural_sizes() {
        assert_eq!(Lane::Int(1).bytes(), 1);
        assert_eq!(Lane::Int(8).bytes(), 1);
        assert_eq!(Lane::Int(17).bytes(), 3);
        assert_eq!(Lane::Float(FloatKind::F4E2M1FN).bytes(), 1);
        assert_eq!(Lane::Float(FloatKind::F8E4M3FN).bytes(), 1);
        assert_eq!(Lane::Float(FloatKind::F80).bytes(), 10);
        assert_eq!(Lane::Complex(FloatKind::F32).bytes(), 8);
    }

    #[test]
    fn ints_round_trip_through_bytes() {
        let mut b = Buffer {
            data: Storage::zeroed(64).unwrap(),
            init: vec![0; 1],
            unwritten: 64,
            charged: 0,
            poison: PoisonRuns::default(),
            origin: OpId(0),
            kind: AllocKind::Heap,
            freed: None,
            addr: 0,
            read_only: None,
        };
        assert_eq!(b.read_lane(0, Lane::Int(32)), Scalar::Poison(Poison(OpId(0))));
        let x = Scalar::Int(Int::from_i128(17, -5));
        b.write_lane(3, Lane::Int(17), &x);
        assert_eq!(b.read_lane(3, Lane::Int(17)), x);
        let w = Scalar::Int(Int::from_big(300, &BigInt::from(-7)));
        b.write_lane(8, Lane::Int(300), &w);
        assert_eq!(b.read_lane(8, Lane::Int(300)), w);
    }
}
