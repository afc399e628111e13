//! Sparse tensor values for direct execution: a tensor whose type has a
//! `#sparse_tensor.encoding` carries, besides its elements, the storage
//! the encoding prescribes (per level positions and coordinates, then the
//! values), because `sparse_tensor` ops expose it (`values`, `positions`,
//! `print`, `foreach`...).
//!
//! The storage is built as LLVM 22's sparse runtime builds it
//! (`SparseTensorStorage::fromCOO` and `lexInsert`): entries in level
//! coordinates, grouped level by level; a dense level stores every
//! coordinate (the ones no entry names hold zero); a loose compressed
//! level's unused pairs repeat the position reached (the runtime's choice:
//! the codegen path leaves them 0, which no op may read).

use crate::dense::{Dense, DenseError};
use crate::lane::Lane;
use crate::scalar::Scalar;
use mlir_ir::affine::AffineMap;
use mlir_ir::sparse::{LevelFormat, LevelType, SparseEncoding};
use std::cell::OnceCell;
use std::rc::Rc;

/// Why a sparse tensor could not be built or read: each becomes the op's
/// error (UB for the program's misuse, unsupported for what is not written).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SparseError {
    /// The program broke a rule of the storage (undefined behaviour).
    Ub(String),
    /// A storage scheme or value this engine does not run yet.
    Unsupported(String),
    /// The host could not allocate the elements.
    Alloc(usize),
    /// A value stored where the encoding's `explicitVal` fixes another
    /// (undefined behaviour; the values, for the message).
    NotExplicit {
        /// The value stored.
        stored: Scalar,
        /// The encoding's `explicitVal`.
        explicit: Scalar,
    },
}

/// A sparse tensor type's storage scheme for one value: the encoding and
/// the dimension and level sizes.
#[derive(Debug)]
pub struct Scheme {
    /// The encoding.
    pub enc: SparseEncoding,
    /// Dimension sizes.
    pub dim_sizes: Vec<u64>,
    /// Level sizes.
    pub lvl_sizes: Vec<u64>,
    /// The element lane.
    pub lane: Lane,
    /// The value of entries not stored (zero, or the encoding's `implicitVal`).
    pub implicit: Scalar,
    /// The value every stored entry has (the encoding's `explicitVal`).
    pub explicit: Option<Scalar>,
}

impl Scheme {
    /// The scheme of `enc` for dimension sizes `dims`; `implicit` is the
    /// value of entries not stored.
    pub fn new(enc: &SparseEncoding, dims: &[u64], lane: Lane, implicit: Scalar) -> Result<Scheme, SparseError> {
        if let Some(t) = enc.lvl_types.iter().find(|t| t.format == LevelFormat::Batch) {
            return Err(SparseError::Unsupported(format!("sparse tensors with a {} level", t.to_mlir_string())));
        }
        let lvl_sizes = lvl_sizes(&enc.dim_to_lvl, dims)?;
        Ok(Scheme { enc: enc.clone(), dim_sizes: dims.to_vec(), lvl_sizes, lane, implicit, explicit: None })
    }

    /// Checks that `v` may be stored: with an `explicitVal` every stored
    /// entry has that value (the sparsifier reads it instead of the
    /// values buffer), so storing another one is undefined.
    pub fn check_explicit(&self, v: &Scalar) -> Result<(), SparseError> {
        match &self.explicit {
            Some(x) if x != v => Err(SparseError::NotExplicit { stored: v.clone(), explicit: x.clone() }),
            _ => Ok(()),
        }
    }

    /// The level rank.
    pub fn lvl_rank(&self) -> usize {
        self.enc.lvl_types.len()
    }

    /// Whether this is a slice's scheme: a view whose storage is its
    /// source's, holding the entries inside the slice.
    pub fn is_slice(&self) -> bool {
        !self.enc.dim_slices.is_empty()
    }

    /// The type of level `l`.
    pub fn lvl_type(&self, l: usize) -> LevelType {
        self.enc.lvl_types[l]
    }

    /// Whether level `l` has a positions array.
    pub fn has_positions(&self, l: usize) -> bool {
        matches!(self.lvl_type(l).format, LevelFormat::Compressed | LevelFormat::LooseCompressed)
    }

    /// Whether level `l` has a coordinates array.
    pub fn has_coordinates(&self, l: usize) -> bool {
        !matches!(self.lvl_type(l).format, LevelFormat::Dense)
    }

    /// Whether every level is dense (storage is the elements in level order).
    pub fn all_dense(&self) -> bool {
        self.enc.lvl_types.iter().all(|t| t.format == LevelFormat::Dense)
    }

    /// Dimension coordinates to level coordinates (`dim2lvl`).
    pub fn to_lvl(&self, dims: &[u64]) -> Result<Vec<u64>, SparseError> {
        eval(&self.enc.dim_to_lvl, dims)
    }

    /// Level coordinates to dimension coordinates (`lvl2dim`).
    pub fn to_dim(&self, lvls: &[u64]) -> Result<Vec<u64>, SparseError> {
        match &self.enc.lvl_to_dim {
            Some(m) => eval(m, lvls),
            None => Err(SparseError::Unsupported("a sparse map without an inverse".into())),
        }
    }

    /// The levels stored as LLVM 22 assembles and disassembles them: per
    /// (loose) compressed level its positions and coordinates, an AoS COO
    /// region's positions and its coordinates as one buffer; `None` for a
    /// singleton or n:m level outside such a region.
    pub fn buffer_levels(&self) -> Option<Vec<BufferLevel>> {
        let s = self;
        let aos = s.enc.aos_coo_start();
        let mut out = Vec::new();
        for l in 0..s.lvl_rank() {
            match s.lvl_type(l).format {
                LevelFormat::Compressed | LevelFormat::LooseCompressed if l == aos => {
                    out.push(BufferLevel::Positions(l));
                    out.push(BufferLevel::AosCoordinates(l));
                    return Some(out);
                }
                LevelFormat::Compressed | LevelFormat::LooseCompressed => {
                    out.push(BufferLevel::Positions(l));
                    out.push(BufferLevel::Coordinates(l));
                }
                LevelFormat::Singleton | LevelFormat::Structured { .. } => return None,
                LevelFormat::Dense | LevelFormat::Batch => {}
            }
        }
        Some(out)
    }

    /// The level rank's number of elements, if it fits.
    fn dense_len(&self) -> Option<usize> {
        self.lvl_sizes.iter().try_fold(1usize, |a, n| a.checked_mul(usize::try_from(*n).ok()?))
    }
}

/// The level sizes of `map` on dimension sizes `dims`: a dimension
/// keeps its size, `d floordiv c` has size `size / c`, `d mod c` size `c`
/// (`SparseTensorEncodingAttr::translateShape`).
fn lvl_sizes(map: &AffineMap, dims: &[u64]) -> Result<Vec<u64>, SparseError> {
    use mlir_ir::affine::AffineExpr as E;
    map.results
        .iter()
        .map(|r| match r {
            E::Dim(d) => dims.get(*d as usize).copied(),
            E::FloorDiv(a, b) => match (&**a, &**b) {
                (E::Dim(d), E::Const(c)) if *c > 0 => dims.get(*d as usize).map(|n| n / *c as u64),
                _ => None,
            },
            E::Mod(a, b) => match (&**a, &**b) {
                (E::Dim(_), E::Const(c)) if *c > 0 => Some(*c as u64),
                _ => None,
            },
            _ => None,
        })
        .collect::<Option<Vec<u64>>>()
        .ok_or_else(|| SparseError::Unsupported(format!("the sparse map {map:?}")))
}

/// `map` applied to coordinates `x` (never negative, so `i64` holds them).
fn eval(map: &AffineMap, x: &[u64]) -> Result<Vec<u64>, SparseError> {
    let x: Vec<i64> = x.iter().map(|c| *c as i64).collect();
    let r = map.eval(&x, &[]).map_err(|e| SparseError::Ub(format!("the sparse map fails on {x:?}: {e:?}")))?;
    Ok(r.into_iter().map(|c| c as u64).collect())
}

/// One stored entry: level coordinates and value.
pub type Entry = (Box<[u64]>, Scalar);

/// The storage arrays of a sparse tensor.
#[derive(Clone, Debug, Default)]
pub struct Storage {
    /// Per level: positions (empty for a level without them).
    pub positions: Vec<Vec<u64>>,
    /// Per level: coordinates (empty for a level without them).
    pub coordinates: Vec<Vec<u64>>,
    /// The stored values.
    pub values: Vec<Scalar>,
}

impl PartialEq for SparseTensor {
    /// Equal shapes and equal entries in storage order.
    fn eq(&self, o: &SparseTensor) -> bool {
        self.scheme.dim_sizes == o.scheme.dim_sizes && self.entries() == o.entries()
    }
}

/// One buffer of a sparse tensor's assembled form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BufferLevel {
    /// The positions of level `l`.
    Positions(usize),
    /// The coordinates of level `l`.
    Coordinates(usize),
    /// The coordinates of levels `l..` interleaved per entry.
    AosCoordinates(usize),
}

/// A sparse tensor value: its scheme, its storage, and the entries
/// inserted since the storage was last finalized (`tensor.insert` before
/// `sparse_tensor.load ... hasInserts`).
#[derive(Clone, Debug)]
pub struct SparseTensor {
    /// The storage scheme.
    pub scheme: Rc<Scheme>,
    storage: Storage,
    pending: Vec<Entry>,
    dense: OnceCell<Rc<Dense>>,
}

impl SparseTensor {
    /// An empty tensor (no entry stored; an all-dense one stores zeros).
    pub fn empty(scheme: Rc<Scheme>) -> Result<SparseTensor, SparseError> {
        SparseTensor::from_entries(scheme, &[])
    }

    /// The tensor storing `entries` (level coordinates, in storage order:
    /// sorted, or as inserted for unordered levels), as `fromCOO` builds it.
    pub fn from_entries(scheme: Rc<Scheme>, entries: &[Entry]) -> Result<SparseTensor, SparseError> {
        if scheme.explicit.is_some() && !scheme.all_dense() {
            entries.iter().try_for_each(|(_, v)| scheme.check_explicit(v))?;
        }
        let storage = build(&scheme, entries)?;
        Ok(SparseTensor { scheme, storage, pending: Vec::new(), dense: OnceCell::new() })
    }

    /// The storage; pending insertions are not in it until [`Self::finalize`].
    pub fn storage(&self) -> &Storage {
        &self.storage
    }

    /// The tensor with storage `storage` as given (`sparse_tensor.assemble`).
    pub fn from_storage(scheme: Rc<Scheme>, storage: Storage) -> SparseTensor {
        SparseTensor { scheme, storage, pending: Vec::new(), dense: OnceCell::new() }
    }

    /// Whether insertions await `sparse_tensor.load ... hasInserts`.
    pub fn has_pending(&self) -> bool {
        !self.pending.is_empty()
    }

    /// Inserts `v` at dimension coordinates `dims`. The insertion order
    /// the level types allow is the runtime's `lexInsert` rule: strictly
    /// increasing level coordinates, except where a level is non-unique
    /// (repeats allowed) or unordered (any order); breaking it is UB.
    pub fn insert(&mut self, dims: &[u64], v: Scalar) -> Result<(), SparseError> {
        for (d, (c, n)) in dims.iter().zip(&self.scheme.dim_sizes).enumerate() {
            if c >= n {
                return Err(SparseError::Ub(format!(
                    "insertion at dimension {d} coordinate {c}, outside the dimension size {n}"
                )));
            }
        }
        self.scheme.check_explicit(&v)?;
        let lvl = self.scheme.to_lvl(dims)?.into_boxed_slice();
        self.dense = OnceCell::new();
        if self.scheme.all_dense() {
            // Every coordinate is stored: an insertion overwrites in place.
            let i = lvl.iter().zip(&self.scheme.lvl_sizes).fold(0u64, |a, (c, n)| a * n + c);
            self.storage.values[i as usize] = v;
            return Ok(());
        }
        let last = match self.pending.last() {
            Some((c, _)) => Some(c.clone()),
            None => self.last_stored(),
        };
        if let Some(prev) = last {
            self.check_order(&prev, &lvl)?;
        }
        self.pending.push((lvl, v));
        Ok(())
    }

    /// The level coordinates of the last stored entry, if any.
    fn last_stored(&self) -> Option<Box<[u64]>> {
        walk(&self.scheme, &self.storage).pop().map(|(c, _)| c)
    }

    /// `lexDiff`'s rule between the previous insertion `prev` and `next`.
    fn check_order(&self, prev: &[u64], next: &[u64]) -> Result<(), SparseError> {
        for (l, (p, n)) in prev.iter().zip(next).enumerate() {
            let t = self.scheme.lvl_type(l);
            if n > p || (n == p && t.nonunique) || (n < p && t.nonordered) {
                return Ok(());
            }
            if n < p {
                return Err(SparseError::Ub(format!(
                    "non-lexicographic insertion: level coordinates {next:?} come before the previous insertion's {prev:?}"
                )));
            }
        }
        Err(SparseError::Ub(format!("duplicate insertion at level coordinates {next:?}")))
    }

    /// Ends the insertions (`sparse_tensor.load ... hasInserts`): the
    /// stored entries and the pending ones, in order, become the storage.
    pub fn finalize(&mut self) -> Result<(), SparseError> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let mut entries = walk(&self.scheme, &self.storage);
        entries.append(&mut self.pending);
        self.storage = build(&self.scheme, &entries)?;
        Ok(())
    }

    /// The stored entries in storage order (dense levels' zeros included),
    /// then the pending ones.
    pub fn entries(&self) -> Vec<Entry> {
        let mut v = walk(&self.scheme, &self.storage);
        v.extend(self.pending.iter().cloned());
        v
    }

    /// The number of stored values (`sparse_tensor.number_of_entries`).
    pub fn nse(&self) -> usize {
        self.storage.values.len()
    }

    /// The elements as a dense tensor of the dimension shape.
    pub fn dense(&self) -> Result<Rc<Dense>, SparseError> {
        if let Some(d) = self.dense.get() {
            return Ok(d.clone());
        }
        let s = &self.scheme;
        let shape: Vec<usize> = s.dim_sizes.iter().map(|n| *n as usize).collect();
        let alloc = |e: DenseError| match e {
            DenseError::Alloc(b) => SparseError::Alloc(b),
            e => SparseError::Unsupported(format!("the elements of this sparse tensor: {e:?}")),
        };
        let mut d = Dense::splat(&shape, &s.implicit, Some(s.lane)).map_err(alloc)?;
        for (lvl, v) in self.entries() {
            let dims = s.to_dim(&lvl)?;
            let i = dims.iter().zip(&shape).try_fold(0usize, |a, (c, n)| {
                let c = usize::try_from(*c).ok().filter(|c| c < n)?;
                a.checked_mul(*n)?.checked_add(c)
            });
            let i = i.ok_or_else(|| SparseError::Ub(format!("a stored entry at {dims:?} is outside the shape")))?;
            d.set(i, &v).map_err(alloc)?;
        }
        let d = Rc::new(d);
        let _ = self.dense.set(d.clone());
        Ok(d)
    }

    /// The coordinates of levels `from..` interleaved per entry (the AoS
    /// COO buffer `sparse_tensor.coordinates_buffer` returns).
    pub fn aos_coordinates(&self, from: usize) -> Vec<u64> {
        let n = self.nse();
        let cs = &self.storage.coordinates[from..];
        (0..n).flat_map(|i| cs.iter().map(move |c| c.get(i).copied().unwrap_or(0))).collect()
    }
}

/// The storage of `entries` (level coordinates in storage order): the
/// runtime's `fromCOO`. On a unique level equal coordinates merge, and the
/// first entry's value is kept (the runtime's choice).
fn build(s: &Scheme, entries: &[Entry]) -> Result<Storage, SparseError> {
    let rank = s.lvl_rank();
    let mut st = Storage { positions: vec![Vec::new(); rank], coordinates: vec![Vec::new(); rank], values: Vec::new() };
    if s.all_dense() {
        let n = s.dense_len().ok_or(SparseError::Alloc(usize::MAX))?;
        st.values = vec![zero(s.lane); n];
        for (c, v) in entries {
            let i = c.iter().zip(&s.lvl_sizes).fold(0u64, |a, (c, n)| a * n + c);
            st.values[i as usize] = v.clone();
        }
        return Ok(st);
    }
    for l in 0..rank {
        if s.has_positions(l) {
            st.positions[l].push(0);
        }
    }
    let mut b = Build { s, st };
    b.level(entries, 0, entries.len(), 0)?;
    Ok(b.st)
}

/// The zero of `lane` (the bytes all zero).
pub fn zero(lane: Lane) -> Scalar {
    lane.decode(&vec![0u8; lane.bytes()])
}

/// `fromCOO`'s recursion over the levels.
struct Build<'s> {
    s: &'s Scheme,
    st: Storage,
}

impl Build<'_> {
    /// The entries `lo..hi` (one parent) at level `l`.
    fn level(&mut self, el: &[Entry], mut lo: usize, hi: usize, l: usize) -> Result<(), SparseError> {
        if l == self.s.lvl_rank() {
            self.st.values.push(el[lo].1.clone());
            return Ok(());
        }
        let mut full = 0;
        while lo < hi {
            let c = el[lo].0[l];
            if c >= self.s.lvl_sizes[l] {
                return Err(SparseError::Ub(format!(
                    "level {l} coordinate {c} outside the level size {}",
                    self.s.lvl_sizes[l]
                )));
            }
            let mut seg = lo + 1;
            if !self.s.lvl_type(l).nonunique {
                while seg < hi && el[seg].0[l] == c {
                    seg += 1;
                }
            }
            self.append_crd(l, full, c)?;
            full = c + 1;
            self.level(el, lo, seg, l + 1)?;
            lo = seg;
        }
        self.finalize_segment(l, full, 1)
    }

    /// A coordinate at a sparse level; the skipped coordinates' zeros (or
    /// empty segments below) at a dense one.
    fn append_crd(&mut self, l: usize, full: u64, crd: u64) -> Result<(), SparseError> {
        if self.s.has_coordinates(l) {
            self.st.coordinates[l].push(crd);
            return Ok(());
        }
        if crd < full {
            return Err(SparseError::Ub(format!("level {l} coordinate {crd} stored twice")));
        }
        self.fill(l, crd - full)
    }

    /// `count` empty coordinates of dense level `l`.
    fn fill(&mut self, l: usize, count: u64) -> Result<(), SparseError> {
        if count == 0 {
            return Ok(());
        }
        if l + 1 == self.s.lvl_rank() {
            let z = zero(self.s.lane);
            self.st.values.extend(std::iter::repeat_n(z, count as usize));
            Ok(())
        } else {
            self.finalize_segment(l + 1, 0, count)
        }
    }

    /// Closes `count` segments of level `l`.
    fn finalize_segment(&mut self, l: usize, full: u64, count: u64) -> Result<(), SparseError> {
        if count == 0 {
            return Ok(());
        }
        let here = self.st.coordinates[l].len() as u64;
        match self.s.lvl_type(l).format {
            LevelFormat::Compressed => {
                self.st.positions[l].extend(std::iter::repeat_n(here, count as usize));
                Ok(())
            }
            // Pairs for the empty segments and one more for the next.
            LevelFormat::LooseCompressed => {
                self.st.positions[l].extend(std::iter::repeat_n(here, 2 * count as usize));
                Ok(())
            }
            LevelFormat::Singleton | LevelFormat::Structured { .. } => Ok(()),
            LevelFormat::Dense | LevelFormat::Batch => {
                let sz = self.s.lvl_sizes[l];
                let n = count.checked_mul(sz - full.min(sz)).ok_or(SparseError::Alloc(usize::MAX))?;
                self.fill(l, n)
            }
        }
    }
}

/// The stored entries of `st` in storage order, with their level
/// coordinates (dense levels enumerate every coordinate).
pub fn walk(s: &Scheme, st: &Storage) -> Vec<Entry> {
    let mut out = Vec::with_capacity(st.values.len());
    let mut crd = vec![0u64; s.lvl_rank()];
    walk_level(s, st, 0, 0, &mut crd, &mut out);
    out
}

/// Entries below parent position `parent` of level `l`.
fn walk_level(s: &Scheme, st: &Storage, l: usize, parent: usize, crd: &mut Vec<u64>, out: &mut Vec<Entry>) {
    if l == s.lvl_rank() {
        if let Some(v) = st.values.get(parent) {
            out.push((crd.clone().into_boxed_slice(), v.clone()));
        }
        return;
    }
    let pos = &st.positions[l];
    let at = |i: usize| pos.get(i).map_or(0, |p| *p as usize);
    let (lo, hi) = match s.lvl_type(l).format {
        LevelFormat::Dense | LevelFormat::Batch => {
            let n = s.lvl_sizes[l] as usize;
            for c in 0..n {
                crd[l] = c as u64;
                walk_level(s, st, l + 1, parent * n + c, crd, out);
            }
            return;
        }
        LevelFormat::Compressed => (at(parent), at(parent + 1)),
        LevelFormat::LooseCompressed => (at(2 * parent), at(2 * parent + 1)),
        LevelFormat::Singleton => (parent, parent + 1),
        // `n` of every `m` coordinates are stored: a fixed count per parent.
        LevelFormat::Structured { n, m } => {
            let k = (s.lvl_sizes[l] / u64::from(m.max(1)) * u64::from(n)) as usize;
            (parent * k, parent * k + k)
        }
    };
    for p in lo..hi {
        crd[l] = st.coordinates[l].get(p).copied().unwrap_or(0);
        walk_level(s, st, l + 1, p, crd, out);
    }
}

/// Whether `v` is stored when a dense tensor converts to a sparse one
/// (`genIsNonzero`: `cmpf une` with zero, so NaN is stored and -0 is not).
pub fn is_nonzero(v: &Scalar) -> bool {
    match v {
        Scalar::Int(i) => i.to_i64() != Some(0),
        Scalar::Float(f) => !crate::float::is_zero(*f),
        Scalar::Complex(c) => {
            let (re, im) = c.parts();
            !crate::float::is_zero(re) || !crate::float::is_zero(im)
        }
        Scalar::Poison(_) => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mlir_ir::affine::AffineExpr;

    fn scheme(lts: &[LevelFormat], map: Vec<AffineExpr>, dims: &[u64]) -> Rc<Scheme> {
        let lt = |format| LevelType { format, nonunique: false, nonordered: false, soa: false };
        let m = AffineMap { num_dims: dims.len() as u32, num_syms: 0, results: map };
        let enc = SparseEncoding {
            lvl_types: lts.iter().map(|f| lt(*f)).collect(),
            lvl_to_dim: mlir_ir::sparse::infer_lvl_to_dim(&m),
            dim_to_lvl: m,
            pos_width: 0,
            crd_width: 0,
            explicit_val: None,
            implicit_val: None,
            dim_slices: Vec::new(),
        };
        let lane = Lane::Int(32);
        Rc::new(Scheme::new(&enc, dims, lane, zero(lane)).unwrap())
    }

    fn int(v: i128) -> Scalar {
        Scalar::Int(crate::scalar::Int::from_i128(32, v))
    }

    /// CSR of [[0, 1, 0, 2], [0, 0, 0, 0], [3, 0, 0, 4]]: the row pointer
    /// repeats at the empty row (the textbook CSR the runtime builds).
    #[test]
    fn csr_storage_is_the_textbook_one() {
        use LevelFormat::*;
        let s = scheme(&[Dense, Compressed], vec![AffineExpr::Dim(0), AffineExpr::Dim(1)], &[3, 4]);
        let e = |i: u64, j: u64, v| (vec![i, j].into_boxed_slice(), int(v));
        let t = SparseTensor::from_entries(s.clone(), &[e(0, 1, 1), e(0, 3, 2), e(2, 0, 3), e(2, 3, 4)]).unwrap();
        assert_eq!(t.storage().positions[1], vec![0, 2, 2, 4]);
        assert_eq!(t.storage().coordinates[1], vec![1, 3, 0, 3]);
        assert_eq!(walk(&s, t.storage()).len(), 4);
    }

    /// An out-of-order insertion into a CSR tensor is UB; into a
    /// non-unique level a repeat is allowed.
    #[test]
    fn insertion_order_follows_lex_insert() {
        use LevelFormat::*;
        let s = scheme(&[Dense, Compressed], vec![AffineExpr::Dim(0), AffineExpr::Dim(1)], &[3, 4]);
        let mut t = SparseTensor::empty(s).unwrap();
        t.insert(&[1, 2], int(5)).unwrap();
        assert!(matches!(t.insert(&[1, 1], int(6)), Err(SparseError::Ub(_))));
        assert!(matches!(t.insert(&[1, 2], int(6)), Err(SparseError::Ub(_))));
        t.insert(&[2, 0], int(7)).unwrap();
        t.finalize().unwrap();
        assert_eq!(t.storage().positions[1], vec![0, 0, 1, 2]);
    }
}
