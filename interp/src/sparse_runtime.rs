//! LLVM 22's sparse tensor runtime library (`SparseTensorRuntime.cpp`,
//! `SparseTensor/Storage.h`, `COO.h`, `File.h`, `MapRef.h` and the random
//! numbers of `CRunnerUtils.cpp`), what `mlir-opt --sparsifier` with its
//! default `enable-runtime-library=true` calls, over the engine's memory.
//!
//! Every object the library hands out (a tensor, a file reader or writer,
//! a random generator) is a one-byte engine allocation whose address is
//! the opaque pointer; deleting the object frees that allocation, so a
//! later use is a use after free the memory model reports. A tensor's
//! positions, coordinates and values live in engine buffers the tensor
//! owns (grown as `std::vector` grows them: a new buffer, the old one
//! freed), so the memrefs `sparseValues*` and the like return point into
//! them, and the compiled code's writes through them are the tensor's.
//!
//! Ordering follows the C++ exactly where the output shows it: COO sorting
//! is libstdc++'s `std::sort` (its introsort, insertion sort and heap
//! sort, step for step: with duplicate coordinates, which value a unique
//! level keeps depends on it), and `rtrand`/`shuffle` are `std::mt19937`
//! with libstdc++'s `uniform_int_distribution` and `std::shuffle`.
//! What the C++ only `assert`s (an out-of-range or out-of-order
//! insertion, a type mismatch between the call and the tensor) is
//! reported as undefined behaviour at the call; what it checks in release
//! builds (`MLIR_SPARSETENSOR_FATAL`: a missing file, a bad header, an
//! unset `TENSOR<n>`) stops the run with the runtime's message.

use crate::error::{Error, ErrorKind, Result};
use crate::exec::Engine;
use crate::float::{self, FloatKind, Round};
use crate::lane::Lane;
use crate::memory::{self, AllocKind, Buffer, Elem, Freed, MemRef, Ptr};
use crate::scalar::Poison;
use crate::stdsort::std_sort;
use crate::value::{Int, Scalar, Value};
use mlir_ir::ir::OpId;
use mlir_ir::types::TypeId;
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;

pub(crate) mod state;

/// One byte of a value as memory holds it: defined, or poison.
type Cell = std::result::Result<u8, Poison>;

/// A primary (value) type, numbered as `PrimaryType` in LLVM 22's `Enums.h`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prim {
    /// `double`.
    F64,
    /// `float`.
    F32,
    /// `f16`.
    F16,
    /// `bf16`.
    BF16,
    /// `int64_t`.
    I64,
    /// `int32_t`.
    I32,
    /// `int16_t`.
    I16,
    /// `int8_t`.
    I8,
    /// `std::complex<double>`.
    C64,
    /// `std::complex<float>`.
    C32,
}

impl Prim {
    /// The primary type of elements of `lane`, if the runtime has one.
    fn of_lane(lane: Lane) -> Option<Prim> {
        Some(match lane {
            Lane::Float(FloatKind::F64) => Prim::F64,
            Lane::Float(FloatKind::F32) => Prim::F32,
            Lane::Float(FloatKind::F16) => Prim::F16,
            Lane::Float(FloatKind::BF16) => Prim::BF16,
            Lane::Int(64) => Prim::I64,
            Lane::Int(32) => Prim::I32,
            Lane::Int(16) => Prim::I16,
            Lane::Int(8) => Prim::I8,
            Lane::Complex(FloatKind::F64) => Prim::C64,
            Lane::Complex(FloatKind::F32) => Prim::C32,
            _ => return None,
        })
    }

    const ALL: [Prim; 10] =
        [Prim::F64, Prim::F32, Prim::F16, Prim::BF16, Prim::I64, Prim::I32, Prim::I16, Prim::I8, Prim::C64, Prim::C32];

    fn from_code(c: u64) -> Option<Prim> {
        Prim::ALL.get(usize::try_from(c).ok()?.checked_sub(1)?).copied()
    }

    fn code(self) -> u64 {
        Prim::ALL.iter().position(|p| *p == self).unwrap_or(0) as u64 + 1
    }

    fn suffix(self) -> &'static str {
        match self {
            Prim::F64 => "F64",
            Prim::F32 => "F32",
            Prim::F16 => "F16",
            Prim::BF16 => "BF16",
            Prim::I64 => "I64",
            Prim::I32 => "I32",
            Prim::I16 => "I16",
            Prim::I8 => "I8",
            Prim::C64 => "C64",
            Prim::C32 => "C32",
        }
    }

    fn from_suffix(s: &str) -> Option<Prim> {
        Prim::ALL.into_iter().find(|p| p.suffix() == s)
    }

    fn bytes(self) -> usize {
        match self {
            Prim::I8 => 1,
            Prim::F16 | Prim::BF16 | Prim::I16 => 2,
            Prim::F32 | Prim::I32 => 4,
            Prim::F64 | Prim::I64 | Prim::C32 => 8,
            Prim::C64 => 16,
        }
    }

    fn is_float(self) -> bool {
        matches!(self, Prim::F64 | Prim::F32 | Prim::F16 | Prim::BF16)
    }

    fn is_complex(self) -> bool {
        matches!(self, Prim::C64 | Prim::C32)
    }
}

/// An overhead (position or coordinate) width in bytes, from a name's
/// suffix (`0` is `index`, 64 bits) or an `OverheadType` code.
fn overhead_suffix(s: &str) -> Option<usize> {
    match s {
        "0" | "64" => Some(8),
        "32" => Some(4),
        "16" => Some(2),
        "8" => Some(1),
        _ => None,
    }
}

/// `OverheadType` (kIndex = 0, kU64, kU32, kU16, kU8) as a width in bytes.
fn overhead_code(c: u64) -> Option<usize> {
    match c {
        0 | 1 => Some(8),
        2 => Some(4),
        3 => Some(2),
        4 => Some(1),
        _ => None,
    }
}

/// A sparse runtime entry point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpFn {
    /// `_mlir_ciface_newSparseTensor`: the "swiss army knife".
    NewSparseTensor,
    /// `_mlir_ciface_sparseValues<V>`.
    Values(Prim),
    /// `_mlir_ciface_sparsePositions<P>`.
    Positions(usize),
    /// `_mlir_ciface_sparseCoordinates<C>`.
    Coordinates(usize),
    /// `_mlir_ciface_sparseCoordinatesBuffer<C>` (the AoS view).
    CoordinatesBuffer(usize),
    /// `_mlir_ciface_lexInsert<V>`.
    LexInsert(Prim),
    /// `_mlir_ciface_expInsert<V>`.
    ExpInsert(Prim),
    /// `endLexInsert`.
    EndLexInsert,
    /// `sparseLvlSize`.
    LvlSize,
    /// `sparseDimSize`.
    DimSize,
    /// `delSparseTensor`.
    DelTensor,
    /// `_mlir_ciface_createCheckedSparseTensorReader`.
    CreateReader,
    /// `_mlir_ciface_getSparseTensorReaderDimSizes`.
    ReaderDimSizes,
    /// `_mlir_ciface_getSparseTensorReaderReadToBuffers<C><V>`.
    ReadToBuffers(usize, Prim),
    /// `getSparseTensorReaderNSE`.
    ReaderNse,
    /// `delSparseTensorReader`.
    DelReader,
    /// `createSparseTensorWriter`.
    CreateWriter,
    /// `_mlir_ciface_outSparseTensorWriterMetaData`.
    WriterMetaData,
    /// `_mlir_ciface_outSparseTensorWriterNext<V>`.
    WriterNext(Prim),
    /// `delSparseTensorWriter`.
    DelWriter,
    /// `getTensorFilename`: the value of `$TENSOR<id>`.
    TensorFilename,
    /// `rtsrand(seed)`: a new `std::mt19937`.
    Srand,
    /// `rtrand(g, m)`: uniform in `[0, m]`.
    Rand,
    /// `rtdrand(g)`: deletes the generator.
    Drand,
    /// `_mlir_ciface_shuffle(memref, g)`: `iota` then `std::shuffle`.
    Shuffle,
}

impl SpFn {
    /// The entry point called `name`, if it is one.
    pub fn from_name(name: &str) -> Option<SpFn> {
        let plain = match name {
            "_mlir_ciface_newSparseTensor" => Some(SpFn::NewSparseTensor),
            "endLexInsert" => Some(SpFn::EndLexInsert),
            "sparseLvlSize" => Some(SpFn::LvlSize),
            "sparseDimSize" => Some(SpFn::DimSize),
            "delSparseTensor" => Some(SpFn::DelTensor),
            "_mlir_ciface_createCheckedSparseTensorReader" => Some(SpFn::CreateReader),
            "_mlir_ciface_getSparseTensorReaderDimSizes" => Some(SpFn::ReaderDimSizes),
            "getSparseTensorReaderNSE" => Some(SpFn::ReaderNse),
            "delSparseTensorReader" => Some(SpFn::DelReader),
            "createSparseTensorWriter" => Some(SpFn::CreateWriter),
            "_mlir_ciface_outSparseTensorWriterMetaData" => Some(SpFn::WriterMetaData),
            "delSparseTensorWriter" => Some(SpFn::DelWriter),
            "getTensorFilename" => Some(SpFn::TensorFilename),
            "rtsrand" => Some(SpFn::Srand),
            "rtrand" => Some(SpFn::Rand),
            "rtdrand" => Some(SpFn::Drand),
            // `shuffle` as a `func.func` with `llvm.emit_c_interface`,
            // called before lowering (with the memref itself).
            "_mlir_ciface_shuffle" | "shuffle" => Some(SpFn::Shuffle),
            _ => None,
        };
        if plain.is_some() {
            return plain;
        }
        let rest = name.strip_prefix("_mlir_ciface_")?;
        let pre = |p: &str| rest.strip_prefix(p);
        if let Some(s) = pre("sparseValues") {
            return Prim::from_suffix(s).map(SpFn::Values);
        }
        if let Some(s) = pre("sparsePositions") {
            return overhead_suffix(s).map(SpFn::Positions);
        }
        if let Some(s) = pre("sparseCoordinatesBuffer") {
            return overhead_suffix(s).map(SpFn::CoordinatesBuffer);
        }
        if let Some(s) = pre("sparseCoordinates") {
            return overhead_suffix(s).map(SpFn::Coordinates);
        }
        if let Some(s) = pre("lexInsert") {
            return Prim::from_suffix(s).map(SpFn::LexInsert);
        }
        if let Some(s) = pre("expInsert") {
            return Prim::from_suffix(s).map(SpFn::ExpInsert);
        }
        if let Some(s) = pre("outSparseTensorWriterNext") {
            return Prim::from_suffix(s).map(SpFn::WriterNext);
        }
        if let Some(s) = pre("getSparseTensorReaderReadToBuffers") {
            // The overhead width comes first: `...ReadToBuffers32F64`.
            let digits = s.find(|c: char| !c.is_ascii_digit())?;
            let (c, v) = s.split_at(digits);
            return Some(SpFn::ReadToBuffers(overhead_suffix(c)?, Prim::from_suffix(v)?));
        }
        None
    }
}

/// The kinds of object behind an opaque pointer.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Tensor,
    Reader,
    Writer,
    Rng,
}

impl Kind {
    fn noun(self) -> &'static str {
        match self {
            Kind::Tensor => "sparse tensor",
            Kind::Reader => "sparse tensor reader",
            Kind::Writer => "sparse tensor writer",
            Kind::Rng => "random number generator",
        }
    }
}

impl state::Runtime {
    fn kind_of(&self, addr: u64) -> Option<Kind> {
        if self.tensors.contains_key(&addr) {
            Some(Kind::Tensor)
        } else if self.readers.contains_key(&addr) {
            Some(Kind::Reader)
        } else if self.writers.contains_key(&addr) {
            Some(Kind::Writer)
        } else if self.rngs.contains_key(&addr) {
            Some(Kind::Rng)
        } else {
            None
        }
    }
}

/// The runtime's own check failing (`MLIR_SPARSETENSOR_FATAL`: message on
/// stderr, `exit(1)`).
fn fatal(op: OpId, msg: impl Into<String>) -> Error {
    Error::at(op, ErrorKind::RuntimeFatal(msg.into()))
}

fn ub(op: OpId, msg: impl Into<String>) -> Error {
    Error::at(op, ErrorKind::Ub(msg.into()))
}

fn bad_arg(op: OpId, name: &str) -> Error {
    Error::at(
        op,
        ErrorKind::BadInput(format!("@{name} is declared with parameters its runtime definition does not take")),
    )
}

/// A growable array the runtime owns (a `std::vector`), in an engine buffer.
struct Arr {
    buf: Rc<RefCell<Buffer>>,
    len: usize,
    /// Element size in bytes.
    w: usize,
}

impl Arr {
    fn new(e: &mut Engine, op: OpId, w: usize) -> Result<Arr> {
        Ok(Arr { buf: e.mem.new_buffer(op, 0, AllocKind::Tensor, 64)?, len: 0, w })
    }

    fn cap(&self) -> usize {
        self.buf.borrow().len() / self.w
    }

    /// Room for `extra` more elements, moving to a bigger buffer (and
    /// freeing the old one, as `std::vector` does) when full.
    fn reserve(&mut self, e: &mut Engine, op: OpId, extra: usize) -> Result<()> {
        let need = self.len.checked_add(extra).ok_or_else(|| fatal(op, "sparse tensor array size overflows"))?;
        if need <= self.cap() {
            return Ok(());
        }
        let cap = need.max(self.cap().saturating_mul(2)).max(4);
        let bytes = cap.checked_mul(self.w).ok_or_else(|| fatal(op, "sparse tensor array size overflows"))?;
        let nb = e.mem.new_buffer(op, bytes, AllocKind::Tensor, 64)?;
        copy_cells(&self.buf, 0, &nb, 0, self.len * self.w);
        let old = std::mem::replace(&mut self.buf, nb);
        e.mem.release(&old, Freed::SparseRuntime);
        e.sparse.dead.push(old);
        Ok(())
    }

    fn push(&mut self, e: &mut Engine, op: OpId, v: &[Cell]) -> Result<()> {
        self.reserve(e, op, 1)?;
        write_cells(&mut self.buf.borrow_mut(), self.len * self.w, v);
        self.len += 1;
        Ok(())
    }

    /// Appends `n` zero elements (`values.insert(end, n, 0)`).
    fn push_zeros(&mut self, e: &mut Engine, op: OpId, n: u64) -> Result<()> {
        let n = usize::try_from(n).map_err(|_| fatal(op, "sparse tensor array size overflows"))?;
        self.reserve(e, op, n)?;
        let at = self.len * self.w;
        self.buf.borrow_mut().write_bytes(at, &vec![0; n * self.w]);
        self.len += n;
        Ok(())
    }

    /// Appends `n` copies of the integer `v`, checking it fits the element.
    fn push_int(&mut self, e: &mut Engine, op: OpId, v: u64, n: u64, what: &str) -> Result<()> {
        if self.w < 8 && v >> (8 * self.w) != 0 {
            return Err(ub(
                op,
                format!("{what} {v} does not fit the sparse tensor's {}-bit overhead type", 8 * self.w),
            ));
        }
        let n = usize::try_from(n).map_err(|_| fatal(op, "sparse tensor array size overflows"))?;
        self.reserve(e, op, n)?;
        let bytes = &v.to_le_bytes()[..self.w];
        let mut b = self.buf.borrow_mut();
        for k in 0..n {
            b.write_bytes((self.len + k) * self.w, bytes);
        }
        self.len += n;
        Ok(())
    }

    /// Element `i` (below the length: what the C++ indexes past is
    /// reported).
    fn get(&self, op: OpId, i: usize) -> Result<Vec<Cell>> {
        self.check(op, i)?;
        let b = self.buf.borrow();
        Ok((i * self.w..(i + 1) * self.w).map(|k| b.byte(k)).collect())
    }

    fn set(&self, op: OpId, i: usize, v: &[Cell]) -> Result<()> {
        self.check(op, i)?;
        write_cells(&mut self.buf.borrow_mut(), i * self.w, v);
        Ok(())
    }

    fn check(&self, op: OpId, i: usize) -> Result<()> {
        if i < self.len {
            Ok(())
        } else {
            Err(ub(
                op,
                format!("the sparse runtime indexes element {i} of one of its arrays, which holds {}", self.len),
            ))
        }
    }

    /// Element `i` as an unsigned integer.
    fn int(&self, op: OpId, i: usize, what: &str) -> Result<u64> {
        cells_u64(op, &self.get(op, i)?, what)
    }

    fn set_int(&self, i: usize, v: u64) {
        self.buf.borrow_mut().write_bytes(i * self.w, &v.to_le_bytes()[..self.w]);
    }

    /// Frees the buffer (the tensor is deleted).
    fn free(self, e: &mut Engine) {
        e.mem.release(&self.buf, Freed::SparseRuntime);
        e.sparse.dead.push(self.buf);
    }
}

fn write_cells(b: &mut Buffer, at: usize, v: &[Cell]) {
    for (k, c) in v.iter().enumerate() {
        match c {
            Ok(x) => b.write_bytes(at + k, &[*x]),
            Err(p) => {
                b.write_lane(at + k, Lane::Int(8), &Scalar::Poison(*p));
            }
        }
    }
}

fn copy_cells(src: &Rc<RefCell<Buffer>>, from: usize, dst: &Rc<RefCell<Buffer>>, to: usize, n: usize) {
    let cells: Vec<Cell> = {
        let s = src.borrow();
        (from..from + n).map(|k| s.byte(k)).collect()
    };
    write_cells(&mut dst.borrow_mut(), to, &cells);
}

/// Little-endian unsigned integer of defined bytes; poison is observed.
fn cells_u64(op: OpId, v: &[Cell], what: &str) -> Result<u64> {
    let mut x = 0u64;
    for (k, c) in v.iter().enumerate().take(8) {
        match c {
            Ok(b) => x |= u64::from(*b) << (8 * k),
            Err(p) => return Err(Error::at(op, ErrorKind::Poison { what: format!("read as {what}"), origin: p.0 })),
        }
    }
    Ok(x)
}

fn int_cells(v: u64, w: usize) -> Vec<Cell> {
    v.to_le_bytes()[..w].iter().map(|b| Ok(*b)).collect()
}

/// Level types (`LevelType` bits: format in bits 16-31, properties below).
mod lt {
    pub const DENSE: u64 = 0x1_0000;
    pub const COMPRESSED: u64 = 0x4_0000;
    pub const SINGLETON: u64 = 0x8_0000;
    pub const LOOSE: u64 = 0x10_0000;
    pub const N_OUT_OF_M: u64 = 0x20_0000;

    pub fn format(t: u64) -> u64 {
        t & 0xffff_0000
    }
    pub fn is_unique(t: u64) -> bool {
        t & 1 == 0
    }
    pub fn is_ordered(t: u64) -> bool {
        t & 2 == 0
    }
}

/// The dim2lvl map of `MapRef`: a permutation, or per level a dimension,
/// its `floordiv` or its `mod` by a constant (a block map, as `Enums.h`'s
/// `encodeDim` packs it). The library never maps levels back to
/// dimensions in LLVM 22 (`lvl2dim` only sizes the level rank).
#[derive(Clone)]
struct Map {
    dim2lvl: Vec<u64>,
    perm: bool,
}

impl Map {
    fn new(dim_rank: usize, dim2lvl: Vec<u64>) -> Map {
        let mut seen = vec![false; dim_rank];
        let perm = dim_rank == dim2lvl.len()
            && dim2lvl.iter().all(|x| {
                let ok = (*x as usize) < dim_rank && !seen[*x as usize];
                if ok {
                    seen[*x as usize] = true;
                }
                ok
            });
        Map { dim2lvl, perm }
    }

    /// Dimension coordinates to level coordinates (`pushforward`).
    fn forward(&self, op: OpId, dims: &[u64], lvl_rank: usize) -> Result<Vec<u64>> {
        let at = |i: u64| {
            dims.get(i as usize).copied().ok_or_else(|| ub(op, format!("the sparse map refers to dimension {i}")))
        };
        (0..lvl_rank)
            .map(|l| {
                let x =
                    *self.dim2lvl.get(l).ok_or_else(|| ub(op, format!("the sparse map has no entry for level {l}")))?;
                if self.perm {
                    return at(x);
                }
                let (i, c) = (x & 0xfffff, (x >> 20) & 0xfffff);
                match x >> 60 {
                    1 => at(i)?.checked_div(c).ok_or_else(|| ub(op, "the sparse map divides by zero")),
                    2 => at(i)?.checked_rem(c).ok_or_else(|| ub(op, "the sparse map divides by zero")),
                    _ => at(x),
                }
            })
            .collect()
    }
}

/// A `SparseTensorStorage<P, C, V>`.
struct Tensor {
    dim_sizes: Vec<u64>,
    lvl_sizes: Vec<u64>,
    lvl_types: Vec<u64>,
    pos_w: usize,
    crd_w: usize,
    val: Prim,
    positions: Vec<Arr>,
    coordinates: Vec<Arr>,
    values: Arr,
    crd_buffer: Option<Arr>,
    cursor: Vec<u64>,
    all_dense: bool,
}

/// An element of a `SparseTensorCOO`: coordinates and value.
#[derive(Clone)]
struct CooElem {
    coords: Vec<u64>,
    val: Vec<Cell>,
}

/// A `SparseTensorCOO<V>`.
struct Coo {
    elems: Vec<CooElem>,
    sorted: bool,
}

impl Coo {
    fn add(&mut self, coords: Vec<u64>, val: Vec<Cell>) {
        if let Some(last) = self.elems.last() {
            if self.sorted {
                self.sorted = last.coords < coords;
            }
        }
        self.elems.push(CooElem { coords, val });
    }

    fn sort(&mut self) {
        if !self.sorted {
            std_sort(&mut self.elems, &|a: &CooElem, b: &CooElem| a.coords < b.coords);
            self.sorted = true;
        }
    }
}

/// What `newSparseTensor` is asked to build the tensor from.
struct Shape {
    dim_sizes: Vec<u64>,
    lvl_sizes: Vec<u64>,
    lvl_types: Vec<u64>,
    pos_w: usize,
    crd_w: usize,
    val: Prim,
}

impl Tensor {
    /// The tensor with empty overhead arrays (the private constructor),
    /// then the public one's start: `positions[l] = {0}` for
    /// (loose) compressed levels.
    fn empty(e: &mut Engine, op: OpId, s: Shape, init: bool) -> Result<Tensor> {
        let rank = s.lvl_sizes.len();
        if rank == 0 || s.dim_sizes.is_empty() {
            return Err(ub(op, "a sparse tensor of rank 0"));
        }
        for (l, t) in s.lvl_types.iter().enumerate() {
            let ok = match lt::format(*t) {
                lt::DENSE | lt::N_OUT_OF_M => *t & 0xffff == 0,
                lt::COMPRESSED | lt::SINGLETON | lt::LOOSE => true,
                _ => false,
            };
            if !ok {
                return Err(fatal(op, format!("unsupported level type {t:#x} at level {l}")));
            }
        }
        let mut positions = Vec::new();
        let mut coordinates = Vec::new();
        for _ in 0..rank {
            positions.push(Arr::new(e, op, s.pos_w)?);
            coordinates.push(Arr::new(e, op, s.crd_w)?);
        }
        let values = Arr::new(e, op, s.val.bytes())?;
        let all_dense = s.lvl_types.iter().all(|t| lt::format(*t) == lt::DENSE);
        let mut t = Tensor {
            dim_sizes: s.dim_sizes,
            lvl_sizes: s.lvl_sizes,
            lvl_types: s.lvl_types,
            pos_w: s.pos_w,
            crd_w: s.crd_w,
            val: s.val,
            positions,
            coordinates,
            values,
            crd_buffer: None,
            cursor: vec![0; rank],
            all_dense,
        };
        for l in 0..rank {
            if init && matches!(t.format(l), lt::COMPRESSED | lt::LOOSE) {
                t.positions[l].push_int(e, op, 0, 1, "position")?;
            }
        }
        Ok(t)
    }

    /// `newEmpty`: an all-dense tensor gets its zero values.
    fn new_empty(e: &mut Engine, op: OpId, s: Shape) -> Result<Tensor> {
        let mut t = Tensor::empty(e, op, s, true)?;
        if t.all_dense {
            let n = t.lvl_sizes.iter().try_fold(1u64, |a, x| a.checked_mul(*x));
            let n = n.ok_or_else(|| fatal(op, "the dense size of the sparse tensor overflows"))?;
            t.values.push_zeros(e, op, n)?;
        }
        Ok(t)
    }

    /// `newFromCOO`: sorts the COO and builds the levels from it.
    fn from_coo(e: &mut Engine, op: OpId, s: Shape, coo: &mut Coo) -> Result<Tensor> {
        let mut t = Tensor::empty(e, op, s, true)?;
        coo.sort();
        let n = coo.elems.len();
        t.build(e, op, &coo.elems, 0, n, 0)?;
        Ok(t)
    }

    fn rank(&self) -> usize {
        self.lvl_sizes.len()
    }

    fn format(&self, l: usize) -> u64 {
        lt::format(self.lvl_types[l])
    }

    fn is_dense(&self, l: usize) -> bool {
        self.format(l) == lt::DENSE
    }

    /// `fromCOO`: the elements `lo..hi` (sorted) at level `l`.
    fn build(&mut self, e: &mut Engine, op: OpId, el: &[CooElem], mut lo: usize, hi: usize, l: usize) -> Result<()> {
        if l == self.rank() {
            return self.values.push(e, op, &el[lo].val);
        }
        let mut full = 0;
        while lo < hi {
            let c = el[lo].coords[l];
            let mut seg = lo + 1;
            if lt::is_unique(self.lvl_types[l]) {
                while seg < hi && el[seg].coords[l] == c {
                    seg += 1;
                }
            }
            self.append_crd(e, op, l, full, c)?;
            full = c + 1;
            self.build(e, op, el, lo, seg, l + 1)?;
            lo = seg;
        }
        self.finalize_segment(e, op, l, full, 1)
    }

    /// `appendCrd`: a coordinate at a sparse level; zeros (or empty
    /// segments below) up to it at a dense one.
    fn append_crd(&mut self, e: &mut Engine, op: OpId, l: usize, full: u64, crd: u64) -> Result<()> {
        if !self.is_dense(l) {
            return self.coordinates[l].push_int(e, op, crd, 1, "coordinate");
        }
        if crd < full {
            return Err(ub(op, format!("insertion at dense level {l} coordinate {crd}, which was already filled")));
        }
        if crd == full {
            return Ok(());
        }
        if l + 1 == self.rank() {
            self.values.push_zeros(e, op, crd - full)
        } else {
            self.finalize_segment(e, op, l + 1, 0, crd - full)
        }
    }

    /// `finalizeSegment`: closes `count` segments of level `l`.
    fn finalize_segment(&mut self, e: &mut Engine, op: OpId, l: usize, full: u64, count: u64) -> Result<()> {
        if count == 0 {
            return Ok(());
        }
        match self.format(l) {
            lt::COMPRESSED => {
                let pos = self.coordinates[l].len as u64;
                self.positions[l].push_int(e, op, pos, count, "position")
            }
            lt::LOOSE => {
                // Pairs for the empty segments and one more for the next:
                // the last element always stays unused.
                let pos = self.coordinates[l].len as u64;
                let n = count.checked_mul(2).ok_or_else(|| fatal(op, "sparse tensor array size overflows"))?;
                self.positions[l].push_int(e, op, pos, n, "position")
            }
            lt::SINGLETON | lt::N_OUT_OF_M => Ok(()),
            _ => {
                let sz = self.lvl_sizes[l];
                if sz < full {
                    return Err(ub(op, format!("level {l} coordinate {} outside the level size {sz}", full - 1)));
                }
                let count = count.checked_mul(sz - full).ok_or_else(|| fatal(op, "integer overflow"))?;
                if l + 1 == self.rank() {
                    self.values.push_zeros(e, op, count)
                } else {
                    self.finalize_segment(e, op, l + 1, 0, count)
                }
            }
        }
    }

    /// `endPath`: finishes the insertion path below level `diff`.
    fn end_path(&mut self, e: &mut Engine, op: OpId, diff: usize) -> Result<()> {
        let rank = self.rank();
        for l in (diff..rank).rev() {
            self.finalize_segment(e, op, l, self.cursor[l] + 1, 1)?;
        }
        Ok(())
    }

    /// `insPath`: continues the insertion path from level `diff` down.
    fn ins_path(
        &mut self,
        e: &mut Engine,
        op: OpId,
        coords: &[u64],
        diff: usize,
        mut full: u64,
        val: &[Cell],
    ) -> Result<()> {
        for (l, &c) in coords.iter().enumerate().take(self.rank()).skip(diff) {
            self.append_crd(e, op, l, full, c)?;
            full = 0;
            self.cursor[l] = c;
        }
        self.values.push(e, op, val)
    }

    /// `lexDiff`: the first level where `coords` moves on from the cursor.
    fn lex_diff(&self, op: OpId, coords: &[u64]) -> Result<usize> {
        for l in 0..self.rank() {
            let (crd, cur, t) = (coords[l], self.cursor[l], self.lvl_types[l]);
            if crd > cur || (crd == cur && !lt::is_unique(t)) || (crd < cur && !lt::is_ordered(t)) {
                return Ok(l);
            }
            if crd < cur {
                return Err(ub(op, format!(
                    "non-lexicographic insertion: level coordinates {coords:?} come before the previous insertion's {:?}",
                    self.cursor
                )));
            }
        }
        Err(ub(op, format!("duplicate insertion at level coordinates {coords:?}")))
    }

    /// `lexInsert`.
    fn lex_insert(&mut self, e: &mut Engine, op: OpId, coords: &[u64], val: &[Cell]) -> Result<()> {
        for (l, (c, n)) in coords.iter().zip(&self.lvl_sizes).enumerate() {
            if c >= n {
                return Err(ub(op, format!("insertion at level {l} coordinate {c}, outside the level size {n}")));
            }
        }
        if self.all_dense {
            let idx = coords.iter().zip(&self.lvl_sizes).fold(0u64, |a, (c, n)| a * n + c);
            return self.values.set(op, idx as usize, val);
        }
        let (mut diff, mut full) = (0, 0);
        if self.values.len != 0 {
            diff = self.lex_diff(op, coords)?;
            self.end_path(e, op, diff + 1)?;
            full = self.cursor[diff] + 1;
        }
        self.ins_path(e, op, coords, diff, full, val)
    }

    /// `endLexInsert`.
    fn end_lex_insert(&mut self, e: &mut Engine, op: OpId) -> Result<()> {
        if self.all_dense {
            return Ok(());
        }
        if self.values.len == 0 {
            self.finalize_segment(e, op, 0, 0, 1)
        } else {
            self.end_path(e, op, 0)
        }
    }

    /// `sortInPlace` (an unordered COO): `std::sort` of the element
    /// indices, then the cycle walk of `applyPerm`, whose saved first
    /// coordinate passes through the position type `P`.
    fn sort_in_place(&mut self, op: OpId) -> Result<()> {
        let nnz = self.values.len;
        let rank = self.rank();
        let mut crds = vec![Vec::with_capacity(nnz); rank];
        for (l, c) in crds.iter_mut().enumerate() {
            if self.coordinates[l].len < nnz {
                return Err(ub(op, format!("sorting a COO tensor whose level {l} has fewer coordinates than values")));
            }
            for i in 0..nnz {
                c.push(self.coordinates[l].int(op, i, "a coordinate")?);
            }
        }
        let mut idx: Vec<usize> = (0..nnz).collect();
        std_sort(&mut idx, &|a: &usize, b: &usize| {
            for c in &crds {
                if c[*a] != c[*b] {
                    return c[*a] < c[*b];
                }
            }
            false
        });
        let pmask = if self.pos_w >= 8 { u64::MAX } else { (1u64 << (8 * self.pos_w)) - 1 };
        for i in 0..nnz {
            let mut cur = i;
            if i == idx[cur] {
                continue;
            }
            let saved: Vec<u64> = crds.iter().map(|c| c[i] & pmask).collect();
            let val = self.values.get(op, i)?;
            while i != idx[cur] {
                let next = idx[cur];
                for c in crds.iter_mut() {
                    c[cur] = c[next];
                }
                let v = self.values.get(op, next)?;
                self.values.set(op, cur, &v)?;
                idx[cur] = cur;
                cur = next;
            }
            for (c, s) in crds.iter_mut().zip(&saved) {
                c[cur] = *s;
            }
            self.values.set(op, cur, &val)?;
            idx[cur] = cur;
        }
        for (l, c) in crds.iter().enumerate() {
            for (i, x) in c.iter().enumerate() {
                self.coordinates[l].set_int(i, *x);
            }
        }
        Ok(())
    }

    /// The coordinates of levels `lvl..` interleaved per element (the AoS
    /// view `getCoordinatesBuffer` builds afresh on every call).
    fn coordinates_buffer(&mut self, e: &mut Engine, op: OpId, lvl: usize) -> Result<&Arr> {
        let mut b = Arr::new(e, op, self.crd_w)?;
        for i in 0..self.values.len {
            for l in lvl..self.rank() {
                if i >= self.coordinates[l].len {
                    return Err(ub(op, format!("the AoS coordinates of level {l} of a tensor with no coordinate {i}")));
                }
                let c = self.coordinates[l].get(op, i)?;
                b.push(e, op, &c)?;
            }
        }
        if let Some(old) = self.crd_buffer.replace(b) {
            old.free(e);
        }
        Ok(self.crd_buffer.as_ref().unwrap_or(&self.values))
    }

    /// Frees every array (`delSparseTensor`).
    fn free(self, e: &mut Engine) {
        for a in self.positions.into_iter().chain(self.coordinates).chain(std::iter::once(self.values)) {
            a.free(e);
        }
        if let Some(b) = self.crd_buffer {
            b.free(e);
        }
    }
}

/// What a `.mtx` header's field says the values are.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ValueKind {
    Pattern,
    Real,
    Integer,
    Complex,
    /// FROSTT (`.tns`) files do not say.
    Undefined,
}

/// A `SparseTensorReader`: the header read, the file's text kept for the
/// elements.
struct Reader {
    name: String,
    text: Vec<u8>,
    pos: usize,
    kind: ValueKind,
    rank: usize,
    nse: u64,
    /// The dimension sizes, in an engine buffer (`getSparseTensorReaderDimSizes`
    /// returns a memref of them); none when read for direct execution.
    dims: Option<Arr>,
    dim_sizes: Vec<u64>,
}

impl Reader {
    /// `fgets` into the 1025-byte line buffer: the rest of the line (at
    /// most 1024 bytes), newline included.
    fn read_line(&mut self, op: OpId) -> Result<Vec<u8>> {
        if self.pos >= self.text.len() {
            return Err(fatal(op, format!("Cannot read next line of {}", self.name)));
        }
        let rest = &self.text[self.pos..];
        let mut n = rest.iter().position(|b| *b == b'\n').map_or(rest.len(), |k| k + 1);
        n = n.min(1024);
        let line = rest[..n].to_vec();
        self.pos += n;
        Ok(line)
    }

    /// `fscanf`'s skipping of white space.
    fn skip_ws(&mut self) {
        while self.pos < self.text.len() && self.text[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }

    /// `fscanf("%63s")`.
    fn word(&mut self) -> Option<String> {
        self.skip_ws();
        let start = self.pos;
        while self.pos < self.text.len() && !self.text[self.pos].is_ascii_whitespace() && self.pos - start < 63 {
            self.pos += 1;
        }
        (self.pos > start).then(|| String::from_utf8_lossy(&self.text[start..self.pos]).into_owned())
    }

    fn open(e: &mut Engine, op: OpId, name: &str) -> Result<Reader> {
        let mut dims = Arr::new(e, op, 8)?;
        let mut r = Reader::parse(op, name)?;
        for d in &r.dim_sizes {
            dims.push_int(e, op, *d, 1, "dimension size")?;
        }
        r.dims = Some(dims);
        Ok(r)
    }

    /// The file `name` with its header read.
    fn parse(op: OpId, name: &str) -> Result<Reader> {
        let text = std::fs::read(name).map_err(|_| fatal(op, format!("Cannot find file {name}")))?;
        let mut r = Reader {
            name: name.to_string(),
            text,
            pos: 0,
            kind: ValueKind::Undefined,
            rank: 0,
            nse: 0,
            dims: None,
            dim_sizes: Vec::new(),
        };
        if name.contains(".mtx") {
            r.mme_header(op)?;
        } else if name.contains(".tns") {
            r.frostt_header(op)?;
        } else {
            return Err(fatal(op, format!("Unknown format {name}")));
        }
        Ok(r)
    }

    fn mme_header(&mut self, op: OpId) -> Result<()> {
        let mut w = Vec::new();
        for _ in 0..5 {
            match self.word() {
                Some(s) => w.push(s.to_ascii_lowercase()),
                None => return Err(fatal(op, format!("Corrupt header in {}", self.name))),
            }
        }
        self.skip_ws();
        self.kind = match w[3].as_str() {
            "pattern" => ValueKind::Pattern,
            "real" => ValueKind::Real,
            "integer" => ValueKind::Integer,
            "complex" => ValueKind::Complex,
            _ => return Err(fatal(op, format!("Unexpected header field value in {}", self.name))),
        };
        let symmetric = w[4] == "symmetric";
        if w[0] != "%%matrixmarket" || w[1] != "matrix" || w[2] != "coordinate" || (w[4] != "general" && !symmetric) {
            return Err(fatal(op, format!("Cannot find a general sparse matrix in {}", self.name)));
        }
        // LLVM 22's reader reads only the stored triangle of a symmetric
        // matrix (File.h no longer mirrors it): so does this one.
        let line = loop {
            let l = self.read_line(op)?;
            if l.first() != Some(&b'%') {
                break l;
            }
        };
        let mut p = 0;
        let mut v = [0u64; 3];
        for x in v.iter_mut() {
            *x = scan_u64(&line, &mut p).ok_or_else(|| fatal(op, format!("Cannot find size in {}", self.name)))?;
        }
        self.rank = 2;
        self.nse = v[2];
        self.dim_sizes = vec![v[0], v[1]];
        Ok(())
    }

    fn frostt_header(&mut self, op: OpId) -> Result<()> {
        let line = loop {
            let l = self.read_line(op)?;
            if l.first() != Some(&b'#') {
                break l;
            }
        };
        let mut p = 0;
        let meta = |p: &mut usize| {
            scan_u64(&line, p).ok_or_else(|| fatal(op, format!("Cannot find metadata in {}", self.name)))
        };
        let rank = meta(&mut p)?;
        self.nse = meta(&mut p)?;
        if rank > 510 {
            return Err(fatal(op, format!("rank {rank} of {} exceeds the reader's 510 dimensions", self.name)));
        }
        self.rank = rank as usize;
        for _ in 0..rank {
            self.skip_ws();
            let mut q = self.pos;
            let d = scan_u64(&self.text, &mut q)
                .ok_or_else(|| fatal(op, format!("Cannot find dimension size {}", self.name)))?;
            self.pos = q;
            self.dim_sizes.push(d);
        }
        self.read_line(op)?;
        self.kind = ValueKind::Undefined;
        Ok(())
    }

    /// `canReadAs`.
    fn can_read_as(&self, v: Prim) -> bool {
        match self.kind {
            ValueKind::Pattern => true,
            ValueKind::Integer | ValueKind::Undefined => !v.is_complex(),
            ValueKind::Real => v.is_float(),
            ValueKind::Complex => v.is_complex(),
        }
    }

    /// One element line: 1-based coordinates, then the value (`strtod`).
    fn element(&mut self, op: OpId, v: Prim) -> Result<(Vec<u64>, Vec<Cell>)> {
        let line = self.read_line(op)?;
        let mut p = 0;
        let coords = (0..self.rank).map(|_| strtoul(&line, &mut p).wrapping_sub(1)).collect();
        let val = if self.kind == ValueKind::Pattern {
            from_doubles(op, v, 1.0, 1.0)?
        } else if v.is_complex() {
            let re = self.double(op, &line, &mut p)?;
            let im = self.double(op, &line, &mut p)?;
            from_doubles(op, v, re, im)?
        } else {
            from_doubles(op, v, self.double(op, &line, &mut p)?, 0.0)?
        };
        Ok((coords, val))
    }
}

impl Reader {
    fn double(&self, op: OpId, line: &[u8], p: &mut usize) -> Result<f64> {
        strtod(line, p)
            .ok_or_else(|| Error::at(op, ErrorKind::Unsupported(format!("a hexadecimal float value in {}", self.name))))
    }
}

/// `sscanf("%" PRIu64)` from `s` at `*p`: white space, an optional sign,
/// decimal digits (negation wraps, as `strtoull`'s does).
fn scan_u64(s: &[u8], p: &mut usize) -> Option<u64> {
    let mut q = *p;
    while q < s.len() && s[q].is_ascii_whitespace() {
        q += 1;
    }
    let neg = match s.get(q) {
        Some(b'-') => {
            q += 1;
            true
        }
        Some(b'+') => {
            q += 1;
            false
        }
        _ => false,
    };
    let start = q;
    let mut v: u64 = 0;
    let mut over = false;
    while q < s.len() && s[q].is_ascii_digit() {
        match v.checked_mul(10).and_then(|x| x.checked_add(u64::from(s[q] - b'0'))) {
            Some(x) => v = x,
            None => over = true,
        }
        q += 1;
    }
    if q == start {
        return None;
    }
    *p = q;
    let v = if over { u64::MAX } else { v };
    Some(if neg && !over { v.wrapping_neg() } else { v })
}

/// `strtoul(s, &end, 10)`: 0 with `end` unmoved when there are no digits.
fn strtoul(s: &[u8], p: &mut usize) -> u64 {
    scan_u64(s, p).unwrap_or(0)
}

/// `strtod`: decimal, `inf`/`infinity` and `nan`; 0 with `end` unmoved
/// when nothing converts; `None` for a hexadecimal float, which is not
/// read here.
fn strtod(s: &[u8], p: &mut usize) -> Option<f64> {
    let mut q = *p;
    while q < s.len() && s[q].is_ascii_whitespace() {
        q += 1;
    }
    let start = q;
    if matches!(s.get(q), Some(b'+' | b'-')) {
        q += 1;
    }
    let neg = s.get(start) == Some(&b'-');
    let lower: Vec<u8> = s[q..].iter().take(8).map(u8::to_ascii_lowercase).collect();
    let sign = |x: f64| if neg { -x } else { x };
    if lower.starts_with(b"infinity") || lower.starts_with(b"inf") {
        *p = q + if lower.starts_with(b"infinity") { 8 } else { 3 };
        return Some(sign(f64::INFINITY));
    }
    if lower.starts_with(b"nan") {
        q += 3;
        if s.get(q) == Some(&b'(') {
            if let Some(k) = s[q..].iter().position(|b| *b == b')') {
                q += k + 1;
            }
        }
        *p = q;
        return Some(sign(f64::NAN));
    }
    if lower.starts_with(b"0x") && s.get(q + 2).is_some_and(|b| b.is_ascii_hexdigit() || *b == b'.') {
        return None;
    }
    let digits_start = q;
    let mut any = false;
    while q < s.len() && s[q].is_ascii_digit() {
        q += 1;
        any = true;
    }
    if s.get(q) == Some(&b'.') {
        q += 1;
        while q < s.len() && s[q].is_ascii_digit() {
            q += 1;
            any = true;
        }
    }
    if !any {
        return Some(0.0);
    }
    if matches!(s.get(q), Some(b'e' | b'E')) {
        let mut r = q + 1;
        if matches!(s.get(r), Some(b'+' | b'-')) {
            r += 1;
        }
        if s.get(r).is_some_and(u8::is_ascii_digit) {
            while r < s.len() && s[r].is_ascii_digit() {
                r += 1;
            }
            q = r;
        }
    }
    *p = q;
    let text = std::str::from_utf8(&s[digits_start..q]).unwrap_or("0");
    // Rust's parse rounds correctly, as glibc's strtod does.
    Some(sign(text.parse::<f64>().unwrap_or(0.0)))
}

/// The bytes of a value of type `v` made from `re` (and `im`), as the C++
/// converts a `double` to `V` (through `float` for f16 and bf16).
fn from_doubles(op: OpId, v: Prim, re: f64, im: f64) -> Result<Vec<Cell>> {
    let f = |x: f64, k: FloatKind| -> u128 {
        let d = float::from_bits(FloatKind::F64, u128::from(x.to_bits()));
        let via = if matches!(k, FloatKind::F16 | FloatKind::BF16) {
            float::convert(d, FloatKind::F32, Round::NearestEven).unwrap_or(d)
        } else {
            d
        };
        float::convert(via, k, Round::NearestEven).map(|r| r.bits).unwrap_or(0)
    };
    let int = |x: f64, bits: u32| -> Result<u128> {
        let t = x.trunc();
        let lim = 2f64.powi(bits as i32 - 1);
        if !(t >= -lim && t < lim) {
            return Err(ub(
                op,
                format!("the value {x} read from a file does not fit the tensor's i{bits} element type"),
            ));
        }
        Ok((t as i64 as u128) & ((1u128 << bits) - 1))
    };
    let (bits, w): (u128, usize) = match v {
        Prim::F64 => (u128::from(re.to_bits()), 8),
        Prim::F32 => (f(re, FloatKind::F32), 4),
        Prim::F16 => (f(re, FloatKind::F16), 2),
        Prim::BF16 => (f(re, FloatKind::BF16), 2),
        Prim::I64 => (int(re, 64)?, 8),
        Prim::I32 => (int(re, 32)?, 4),
        Prim::I16 => (int(re, 16)?, 2),
        Prim::I8 => (int(re, 8)?, 1),
        Prim::C64 => (u128::from(re.to_bits()) | u128::from(im.to_bits()) << 64, 16),
        Prim::C32 => (f(re, FloatKind::F32) | f(im, FloatKind::F32) << 32, 8),
    };
    Ok(bits.to_le_bytes()[..w].iter().map(|b| Ok(*b)).collect())
}

/// A `SparseTensorWriter`: stdout (an empty file name) or a file.
struct Writer {
    file: Option<std::fs::File>,
    name: String,
}

impl Writer {
    /// `createSparseTensorWriter`: file `name`, or stdout when empty; the
    /// format line written.
    fn open(e: &mut Engine, op: OpId, name: String) -> Result<Writer> {
        let file = if name.is_empty() {
            None
        } else {
            let f = std::fs::File::create(&name)
                .map_err(|err| fatal(op, format!("cannot open {name} for writing: {err}")))?;
            Some(f)
        };
        let mut w = Writer { file, name: if name.is_empty() { "stdout".into() } else { name } };
        w.write(e, op, b"# extended FROSTT format\n")?;
        Ok(w)
    }

    fn write(&mut self, e: &mut Engine, op: OpId, text: &[u8]) -> Result<()> {
        let r = match &mut self.file {
            Some(f) => f.write_all(text),
            None => e.out.write_all(text),
        };
        r.map_err(|err| Error::at(op, ErrorKind::Unsupported(format!("cannot write {}: {err}", self.name))))
    }
}

/// `std::mt19937`.
pub struct Mt19937 {
    s: [u32; 624],
    i: usize,
}

impl Mt19937 {
    /// Seeded as `std::mt19937(seed)` (the seed taken modulo 2^32).
    pub fn new(seed: u64) -> Mt19937 {
        let mut s = [0u32; 624];
        s[0] = seed as u32;
        for k in 1..624 {
            let prev = s[k - 1];
            s[k] = 1_812_433_253u32.wrapping_mul(prev ^ (prev >> 30)).wrapping_add(k as u32);
        }
        Mt19937 { s, i: 624 }
    }

    /// The next 32-bit output.
    pub fn next_u32(&mut self) -> u32 {
        if self.i >= 624 {
            for k in 0..624 {
                let y = (self.s[k] & 0x8000_0000) | (self.s[(k + 1) % 624] & 0x7fff_ffff);
                let mut v = self.s[(k + 397) % 624] ^ (y >> 1);
                if y & 1 != 0 {
                    v ^= 0x9908_b0df;
                }
                self.s[k] = v;
            }
            self.i = 0;
        }
        let mut y = self.s[self.i];
        self.i += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// libstdc++'s `uniform_int_distribution<uint64_t>(0, m)` on this
    /// 32-bit generator: Lemire's method below 2^32 - 1, one draw at
    /// 2^32 - 1, and for wider ranges the recursive upscaling.
    pub fn uniform(&mut self, m: u64) -> u64 {
        const RANGE: u64 = u32::MAX as u64;
        if m < RANGE {
            let r = m + 1;
            let mut prod = u64::from(self.next_u32()) * r;
            let mut low = prod as u32;
            if u64::from(low) < r {
                let threshold = (r as u32).wrapping_neg() % (r as u32);
                while low < threshold {
                    prod = u64::from(self.next_u32()) * r;
                    low = prod as u32;
                }
            }
            prod >> 32
        } else if m == RANGE {
            u64::from(self.next_u32())
        } else {
            loop {
                let high = (RANGE + 1).wrapping_mul(self.uniform(m / (RANGE + 1)));
                let v = high.wrapping_add(u64::from(self.next_u32()));
                if !(v > m || v < high) {
                    return v;
                }
            }
        }
    }

    /// libstdc++'s `std::shuffle` of `v` with this generator: swaps
    /// drawn two at a time from one number when the range allows.
    pub fn shuffle(&mut self, v: &mut [u64]) {
        let n = v.len() as u64;
        if n == 0 {
            return;
        }
        if u64::from(u32::MAX) / n >= n {
            let mut i = 1usize;
            if n.is_multiple_of(2) {
                let j = self.uniform(1) as usize;
                v.swap(i, j);
                i += 1;
            }
            while i < v.len() {
                let b0 = i as u64 + 1;
                let b1 = b0 + 1;
                let x = self.uniform(b0 * b1 - 1);
                v.swap(i, (x / b1) as usize);
                i += 1;
                v.swap(i, (x % b1) as usize);
                i += 1;
            }
            return;
        }
        for i in 1..v.len() {
            let j = self.uniform(i as u64) as usize;
            v.swap(i, j);
        }
    }
}

impl Tensor {
    /// The sizes of overhead storage at level `l` given its parent's
    /// (`assembledSize`).
    fn assembled(&self, op: OpId, parent: u64, l: usize) -> Result<u64> {
        let pos = |i: u64| self.positions[l].int(op, i as usize, "a position");
        match self.format(l) {
            lt::COMPRESSED => pos(parent),
            lt::LOOSE => pos(parent.wrapping_mul(2).wrapping_sub(1)),
            lt::SINGLETON | lt::N_OUT_OF_M => Ok(parent),
            _ => parent.checked_mul(self.lvl_sizes[l]).ok_or_else(|| fatal(op, "integer overflow")),
        }
    }

    /// The tensor of `kPack`: level buffers copied from the addresses in
    /// `bufs` (positions and coordinates per (loose) compressed level, a
    /// trailing COO's coordinates as one AoS buffer, then the values).
    fn pack(e: &mut Engine, op: OpId, s: Shape, bufs: &Ptr, name: &str) -> Result<Tensor> {
        let mut t = Tensor::empty(e, op, s, false)?;
        let rank = t.rank();
        let mut k = 0;
        let mut next = |e: &mut Engine| -> Result<Ptr> {
            let p = Ptr { buf: bufs.buf.clone(), offset: bufs.offset + 8 * k };
            k += 1;
            let a = read_raw(e, op, &p, 0, 8, &format!("@{name} reading its buffer pointers"))?;
            Ok(e.mem.resolve(cells_u64(op, &a, "a buffer pointer")?))
        };
        let what = format!("@{name} reading a level buffer");
        let copy = |e: &mut Engine, a: &mut Arr, src: &Ptr, n: u64| -> Result<()> {
            e.charge(op, n)?;
            for i in 0..n {
                let v = read_raw(e, op, src, i as i64, a.w, &what)?;
                a.push(e, op, &v)?;
            }
            Ok(())
        };
        let (mut trail, mut parent) = (0, 1u64);
        for l in 0..rank {
            let f = t.format(l);
            let loose = f == lt::LOOSE;
            if !lt::is_unique(t.lvl_types[l]) && (f == lt::COMPRESSED || loose) {
                trail = rank - l;
                break;
            }
            match f {
                lt::COMPRESSED | lt::LOOSE => {
                    let (pp, cp) = (next(e)?, next(e)?);
                    let np = if loose { parent.saturating_mul(2) } else { parent.saturating_add(1) };
                    let mut pa = std::mem::replace(&mut t.positions[l], Arr::new(e, op, 1)?);
                    copy(e, &mut pa, &pp, np)?;
                    t.positions[l] = pa;
                    let nc = t.positions[l].int(op, np.wrapping_sub(1) as usize, "a position")?;
                    let mut ca = std::mem::replace(&mut t.coordinates[l], Arr::new(e, op, 1)?);
                    copy(e, &mut ca, &cp, nc)?;
                    t.coordinates[l] = ca;
                }
                lt::SINGLETON | lt::N_OUT_OF_M => {
                    return Err(Error::at(
                        op,
                        ErrorKind::Unsupported(format!(
                            "assembling a sparse tensor whose level {l} is singleton or n:m without a COO before it (the runtime library does not)"
                        )),
                    ))
                }
                _ => {}
            }
            parent = t.assembled(op, parent, l)?;
        }
        if trail != 0 {
            let start = rank - trail;
            let loose = t.format(start) == lt::LOOSE;
            let (pp, aos) = (next(e)?, next(e)?);
            let np = if loose { parent.saturating_mul(2) } else { parent.saturating_add(1) };
            let mut pa = std::mem::replace(&mut t.positions[start], Arr::new(e, op, 1)?);
            copy(e, &mut pa, &pp, np)?;
            t.positions[start] = pa;
            // The length passes through the position type `P`.
            let len = t.positions[start].int(op, np.wrapping_sub(1) as usize, "a position")?;
            let cw = t.crd_w;
            e.charge(op, len.saturating_mul(trail as u64))?;
            for l in start..rank {
                for n in 0..len {
                    let at = (l - start) as u64 + n * trail as u64;
                    let v = read_raw(e, op, &aos, at as i64, cw, &what)?;
                    t.coordinates[l].push(e, op, &v)?;
                }
            }
            parent = t.assembled(op, parent, start)?;
        }
        let vp = next(e)?;
        let mut va = std::mem::replace(&mut t.values, Arr::new(e, op, 1)?);
        copy(e, &mut va, &vp, parent)?;
        t.values = va;
        Ok(t)
    }
}

/// The `w` bytes of element `i` of the array at `p`.
fn read_raw(e: &Engine, op: OpId, p: &Ptr, i: i64, w: usize, what: &str) -> Result<Vec<Cell>> {
    let off =
        i.checked_mul(w as i64).and_then(|x| x.checked_add(p.offset)).ok_or_else(|| ub(op, "address overflow"))?;
    let at = Value::Ptr(Ptr { buf: p.buf.clone(), offset: off });
    let (buf, k) = crate::operands::place(e, op, &at, w, what)?;
    let b = buf.borrow();
    Ok((k..k + w).map(|x| b.byte(x)).collect())
}

/// The bytes of element `idx` of memref `m`.
fn read_elem(op: OpId, m: &MemRef, idx: &[i64], what: &str) -> Result<Vec<Cell>> {
    let at = m.locate(op, idx, what)?;
    let w = m.elem.bytes();
    let b = m.buf.borrow();
    Ok((at..at + w).map(|k| b.byte(k)).collect())
}

/// Writes element `idx` of memref `m`.
fn write_elem(op: OpId, m: &MemRef, idx: &[i64], v: &[Cell], what: &str) -> Result<()> {
    let at = m.locate(op, idx, what)?;
    let (ro, origin) = {
        let b = m.buf.borrow();
        (b.read_only, b.origin)
    };
    if let Some(why) = ro {
        return Err(memory::mem_ub(op, origin, format!("{what} writes into {why}")));
    }
    write_cells(&mut m.buf.borrow_mut(), at, v);
    Ok(())
}

/// The entries of a 1-d memref as unsigned integers.
fn read_ints(op: OpId, m: &MemRef, what: &str) -> Result<Vec<u64>> {
    let n = m.sizes.first().copied().unwrap_or(0);
    (0..n).map(|i| read_elem(op, m, &[i], what).and_then(|c| cells_u64(op, &c, what))).collect()
}

/// A NUL-terminated string at `p`.
fn c_string(e: &Engine, op: OpId, p: &Value, what: &str) -> Result<String> {
    let (buf, start) = crate::operands::place(e, op, p, 1, what)?;
    let b = buf.borrow();
    let mut out = Vec::new();
    for i in start..b.len() {
        match b.byte(i) {
            Ok(0) => return Ok(String::from_utf8_lossy(&out).into_owned()),
            Ok(c) => out.push(c),
            Err(p) => {
                return Err(Error::at(
                    op,
                    ErrorKind::Poison { what: format!("read as a file name by {what}"), origin: p.0 },
                ))
            }
        }
    }
    Err(memory::mem_ub(op, b.origin, format!("{what} reads a file name past the end of its allocation (no NUL byte)")))
}

/// The arguments of one call, read as the C function takes them.
struct Args<'a> {
    op: OpId,
    name: &'a str,
    args: &'a [Value],
    /// A type for the element records of runtime views (nothing reads it).
    ty: TypeId,
}

impl Args<'_> {
    fn arg(&self, i: usize) -> Result<&Value> {
        self.args.get(i).ok_or_else(|| bad_arg(self.op, self.name))
    }

    fn int(&self, i: usize) -> Result<u64> {
        let v = self.arg(i)?.as_int().ok_or_else(|| bad_arg(self.op, self.name))?;
        Ok(v.bits128().map_or_else(|| v.to_u64().unwrap_or(0), |b| b as u64))
    }

    fn ptr(&self, i: usize) -> Result<Ptr> {
        match self.arg(i)? {
            Value::Ptr(p) => Ok(p.clone()),
            _ => Err(bad_arg(self.op, self.name)),
        }
    }

    /// The memref of rank `rank` and `w`-byte elements whose descriptor
    /// argument `i` points to.
    fn memref(&self, e: &Engine, i: usize, rank: i64, w: usize) -> Result<MemRef> {
        // A call not lowered yet (a `func.func` declaration taking a
        // memref, run as written) passes the memref itself.
        if let Value::Memref(m) = self.arg(i)? {
            if m.rank() as i64 != rank || m.elem.bytes() != w {
                return Err(bad_arg(self.op, self.name));
            }
            return Ok((**m).clone());
        }
        let lane = match w {
            16 => Lane::Complex(FloatKind::F64),
            _ => Lane::Int(8 * w as u32),
        };
        let elem = Elem::scalar(lane, "i8".into(), self.ty);
        crate::descriptor::read_ranked(e, self.op, rank, &self.ptr(i)?, elem, &format!("@{}", self.name))
    }

    fn what(&self) -> String {
        format!("@{}", self.name)
    }
}

fn index(v: u64) -> Value {
    Value::int(Int::from_u128(64, u128::from(v)))
}

/// Makes `v` the memref descriptor at `out`: `{arr, arr, 0, [len], [1]}`
/// (`aliasIntoMemref`: the memref points into the runtime's array).
fn write_out(e: &Engine, a: &Args, out: usize, arr: &Arr) -> Result<()> {
    let (b, at) = crate::operands::place(e, a.op, a.arg(out)?, 40, &format!("@{}'s result memref", a.name))?;
    let addr = arr.buf.borrow().addr;
    let mut bb = b.borrow_mut();
    for (k, v) in [addr, addr, 0, arr.len as u64, 1].into_iter().enumerate() {
        bb.write_lane(at + 8 * k, Lane::Int(64), &Scalar::Int(Int::from_u128(64, u128::from(v))));
    }
    Ok(())
}

/// A new object's handle: a fresh one-byte allocation.
fn new_handle(e: &mut Engine, op: OpId) -> Result<(u64, Value)> {
    let buf = e.mem.new_buffer(op, 1, AllocKind::Tensor, 16)?;
    let addr = buf.borrow().addr;
    e.sparse.handles.insert(addr, buf.clone());
    Ok((addr, Value::Ptr(Ptr { buf: Some(buf), offset: 0 })))
}

/// The address of the object of kind `k` that argument `i` points to.
fn handle(e: &Engine, a: &Args, i: usize, k: Kind) -> Result<u64> {
    let p = a.ptr(i)?;
    let what = a.what();
    let Some(buf) = &p.buf else {
        return Err(ub(a.op, format!("{what} called with {:#x} as its {}: no object is there", p.offset, k.noun())));
    };
    let (addr, freed, origin) = {
        let b = buf.borrow();
        (b.addr, b.freed.is_some(), b.origin)
    };
    if freed {
        if let Some(by) = e.sparse.freed_by.get(&addr) {
            let msg = format!("use after free: {what} called with a {} already deleted by @{by}", k.noun());
            return Err(memory::mem_ub(a.op, origin, msg));
        }
    }
    match (p.offset, e.sparse.kind_of(addr)) {
        (0, Some(found)) if found == k => Ok(addr),
        (0, Some(found)) => {
            Err(ub(a.op, format!("{what} called with a {} where it takes a {}", found.noun(), k.noun())))
        }
        _ => Err(ub(a.op, format!("{what} called with a pointer that is not a {} the runtime made", k.noun()))),
    }
}

/// Deletes the object at `addr`: its handle is freed.
fn free_handle(e: &mut Engine, addr: u64, by: &'static str) {
    if let Some(b) = e.sparse.handles.remove(&addr) {
        e.mem.release(&b, Freed::SparseRuntime);
        e.sparse.dead.push(b);
    }
    e.sparse.freed_by.insert(addr, by);
}

/// Runs `f` on the object of `kind` that argument `i` names, taken out of
/// its `table` meanwhile (so `f` may use the engine).
fn with_object<T, R>(
    e: &mut Engine,
    a: &Args,
    i: usize,
    kind: Kind,
    table: for<'a, 'p> fn(&'a mut Engine<'p>) -> &'a mut FxHashMap<u64, Box<T>>,
    f: impl FnOnce(&mut Engine, &mut T) -> Result<R>,
) -> Result<R> {
    let addr = handle(e, a, i, kind)?;
    let Some(mut x) = table(e).remove(&addr) else { return Err(Error::unverified(a.op, "runtime object vanished")) };
    let out = f(e, &mut x);
    table(e).insert(addr, x);
    out
}

/// Runs `f` on the tensor argument `i`.
fn with_tensor<R>(
    e: &mut Engine,
    a: &Args,
    i: usize,
    f: impl FnOnce(&mut Engine, &mut Tensor) -> Result<R>,
) -> Result<R> {
    with_object(e, a, i, Kind::Tensor, |e| &mut e.sparse.tensors, f)
}

/// Runs `f` on the reader argument `i`.
fn with_reader<R>(
    e: &mut Engine,
    a: &Args,
    i: usize,
    f: impl FnOnce(&mut Engine, &mut Reader) -> Result<R>,
) -> Result<R> {
    with_object(e, a, i, Kind::Reader, |e| &mut e.sparse.readers, f)
}

/// Runs `f` on the writer argument `i`.
fn with_writer<R>(
    e: &mut Engine,
    a: &Args,
    i: usize,
    f: impl FnOnce(&mut Engine, &mut Writer) -> Result<R>,
) -> Result<R> {
    with_object(e, a, i, Kind::Writer, |e| &mut e.sparse.writers, f)
}

/// The type check the C++ makes by overloading: the call's element or
/// overhead type must be the tensor's.
fn same(op: OpId, what: &str, called: impl std::fmt::Display, has: impl std::fmt::Display) -> Result<()> {
    let (c, h) = (called.to_string(), has.to_string());
    if c == h {
        Ok(())
    } else {
        Err(ub(op, format!("{what} called for {c} on a sparse tensor of {h}")))
    }
}

fn level(op: OpId, what: &str, t: &Tensor, l: u64) -> Result<usize> {
    usize::try_from(l)
        .ok()
        .filter(|l| *l < t.rank())
        .ok_or_else(|| ub(op, format!("{what} of level {l} of a sparse tensor with {} levels", t.rank())))
}

/// How `std::ostream` prints a float (`%g`): `crate::runtime::format_g`,
/// passed in by the module that calls this one.
pub type FormatG = fn(float::Float) -> String;

/// Calls sparse runtime entry point `f`, declared as `name` with parameter
/// types `ins`, with `args`; the writer prints floats with `fmt_g`.
pub fn call(
    e: &mut Engine,
    op: OpId,
    f: SpFn,
    name: &str,
    args: &[Value],
    ins: &[TypeId],
    fmt_g: FormatG,
) -> Result<Vec<Value>> {
    let ty = match ins.first() {
        Some(t) => *t,
        None if args.is_empty() => return Err(bad_arg(op, name)),
        None => return Err(bad_arg(op, name)),
    };
    let a = Args { op, name, args, ty };
    let what = a.what();
    match f {
        SpFn::NewSparseTensor => new_sparse_tensor(e, &a),
        SpFn::Values(v) => with_tensor(e, &a, 1, |e, t| {
            same(op, &what, v.suffix(), t.val.suffix())?;
            write_out(e, &a, 0, &t.values).map(|()| Vec::new())
        }),
        SpFn::Positions(w) => with_tensor(e, &a, 1, |e, t| {
            same(op, &what, format!("{}-bit positions", 8 * w), format!("{}-bit positions", 8 * t.pos_w))?;
            let l = level(op, &what, t, a.int(2)?)?;
            write_out(e, &a, 0, &t.positions[l]).map(|()| Vec::new())
        }),
        SpFn::Coordinates(w) => with_tensor(e, &a, 1, |e, t| {
            same(op, &what, format!("{}-bit coordinates", 8 * w), format!("{}-bit coordinates", 8 * t.crd_w))?;
            let l = level(op, &what, t, a.int(2)?)?;
            write_out(e, &a, 0, &t.coordinates[l]).map(|()| Vec::new())
        }),
        SpFn::CoordinatesBuffer(w) => with_tensor(e, &a, 1, |e, t| {
            same(op, &what, format!("{}-bit coordinates", 8 * w), format!("{}-bit coordinates", 8 * t.crd_w))?;
            let l = level(op, &what, t, a.int(2)?)?;
            e.charge(op, (t.values.len * (t.rank() - l)) as u64)?;
            let b = t.coordinates_buffer(e, op, l)?;
            write_out(e, &a, 0, b).map(|()| Vec::new())
        }),
        SpFn::LexInsert(v) => {
            let cm = a.memref(e, 1, 1, 8)?;
            let vm = a.memref(e, 2, 0, v.bytes())?;
            with_tensor(e, &a, 0, |e, t| {
                same(op, &what, v.suffix(), t.val.suffix())?;
                let coords = (0..t.rank() as i64)
                    .map(|i| read_elem(op, &cm, &[i], &what).and_then(|c| cells_u64(op, &c, "a level coordinate")))
                    .collect::<Result<Vec<_>>>()?;
                let val = read_elem(op, &vm, &[], &what)?;
                t.lex_insert(e, op, &coords, &val).map(|()| Vec::new())
            })
        }
        SpFn::ExpInsert(v) => exp_insert(e, &a, v),
        SpFn::EndLexInsert => with_tensor(e, &a, 0, |e, t| t.end_lex_insert(e, op).map(|()| Vec::new())),
        SpFn::LvlSize => with_tensor(e, &a, 0, |_, t| {
            let l = level(op, &what, t, a.int(1)?)?;
            Ok(vec![index(t.lvl_sizes[l])])
        }),
        SpFn::DimSize => with_tensor(e, &a, 0, |_, t| {
            let d = a.int(1)?;
            let n = usize::try_from(d).ok().and_then(|d| t.dim_sizes.get(d)).copied().ok_or_else(|| {
                ub(op, format!("{what} of dimension {d} of a sparse tensor with {} dimensions", t.dim_sizes.len()))
            })?;
            Ok(vec![index(n)])
        }),
        SpFn::DelTensor => {
            let addr = handle(e, &a, 0, Kind::Tensor)?;
            if let Some(t) = e.sparse.tensors.remove(&addr) {
                t.free(e);
            }
            free_handle(e, addr, "delSparseTensor");
            Ok(Vec::new())
        }
        SpFn::CreateReader => create_reader(e, &a),
        SpFn::ReaderDimSizes => with_reader(e, &a, 1, |e, r| {
            let dims = r.dims.as_ref().ok_or_else(|| Error::unverified(op, "a reader without its sizes"))?;
            write_out(e, &a, 0, dims).map(|()| Vec::new())
        }),
        SpFn::ReadToBuffers(cw, v) => read_to_buffers(e, &a, cw, v),
        SpFn::ReaderNse => with_reader(e, &a, 0, |_, r| Ok(vec![index(r.nse)])),
        SpFn::DelReader => {
            let addr = handle(e, &a, 0, Kind::Reader)?;
            if let Some(dims) = e.sparse.readers.remove(&addr).and_then(|r| r.dims) {
                dims.free(e);
            }
            free_handle(e, addr, "delSparseTensorReader");
            Ok(Vec::new())
        }
        SpFn::CreateWriter => {
            let name = c_string(e, op, a.arg(0)?, &what)?;
            let w = Writer::open(e, op, name)?;
            let (addr, h) = new_handle(e, op)?;
            e.sparse.writers.insert(addr, Box::new(w));
            Ok(vec![h])
        }
        SpFn::WriterMetaData => {
            let (rank, nse) = (a.int(1)?, a.int(2)?);
            let m = a.memref(e, 3, 1, 8)?;
            with_writer(e, &a, 0, |e, w| {
                if rank == 0 {
                    return Err(ub(op, format!("{what} with a dimension rank of 0")));
                }
                let mut s = format!("{rank} {nse}\n");
                for d in 0..rank {
                    let x = cells_u64(op, &read_elem(op, &m, &[d as i64], &what)?, "a dimension size")?;
                    s.push_str(&x.to_string());
                    s.push(if d + 1 == rank { '\n' } else { ' ' });
                }
                w.write(e, op, s.as_bytes()).map(|()| Vec::new())
            })
        }
        SpFn::WriterNext(v) => {
            let rank = a.int(1)?;
            let cm = a.memref(e, 2, 1, 8)?;
            let vm = a.memref(e, 3, 0, v.bytes())?;
            with_writer(e, &a, 0, |e, w| {
                let mut s = Vec::new();
                for d in 0..rank {
                    let c = cells_u64(op, &read_elem(op, &cm, &[d as i64], &what)?, "a coordinate")?;
                    s.extend_from_slice(format!("{} ", c.wrapping_add(1)).as_bytes());
                }
                let val = read_elem(op, &vm, &[], &what)?;
                push_value(op, v, &val, fmt_g, &mut s)?;
                s.push(b'\n');
                w.write(e, op, &s).map(|()| Vec::new())
            })
        }
        SpFn::DelWriter => {
            let addr = handle(e, &a, 0, Kind::Writer)?;
            if let Some(mut w) = e.sparse.writers.remove(&addr) {
                let r = match &mut w.file {
                    Some(f) => f.flush(),
                    None => e.out.flush(),
                };
                r.map_err(|err| Error::at(op, ErrorKind::Unsupported(format!("cannot write {}: {err}", w.name))))?;
            }
            free_handle(e, addr, "delSparseTensorWriter");
            Ok(Vec::new())
        }
        SpFn::TensorFilename => {
            let id = a.int(0)?;
            if let Some(p) = e.sparse.filenames.get(&id) {
                return Ok(vec![Value::Ptr(p.clone())]);
            }
            let var = format!("TENSOR{id}");
            let v =
                std::env::var_os(&var).ok_or_else(|| fatal(op, format!("Environment variable {var} is not set")))?;
            let mut bytes = v.into_encoded_bytes();
            bytes.push(0);
            let buf = e.mem.new_buffer(op, bytes.len(), AllocKind::Global, 16)?;
            {
                let mut b = buf.borrow_mut();
                b.write_bytes(0, &bytes);
                b.read_only = Some("the environment string getTensorFilename returned");
            }
            let p = Ptr { buf: Some(buf), offset: 0 };
            e.sparse.filenames.insert(id, p.clone());
            Ok(vec![Value::Ptr(p)])
        }
        SpFn::Srand => {
            let seed = a.int(0)?;
            let (addr, h) = new_handle(e, op)?;
            e.sparse.rngs.insert(addr, Box::new(Mt19937::new(seed)));
            Ok(vec![h])
        }
        SpFn::Rand => {
            let addr = handle(e, &a, 0, Kind::Rng)?;
            let m = a.int(1)?;
            let g = e.sparse.rngs.get_mut(&addr).ok_or_else(|| Error::unverified(op, "generator vanished"))?;
            Ok(vec![index(g.uniform(m))])
        }
        SpFn::Drand => {
            let addr = handle(e, &a, 0, Kind::Rng)?;
            e.sparse.rngs.remove(&addr);
            free_handle(e, addr, "rtdrand");
            Ok(Vec::new())
        }
        SpFn::Shuffle => {
            let m = a.memref(e, 0, 1, 8)?;
            let addr = handle(e, &a, 1, Kind::Rng)?;
            let n = m.sizes.first().copied().unwrap_or(0).max(0) as u64;
            e.charge(op, n)?;
            let mut v: Vec<u64> = (0..n).collect();
            let g = e.sparse.rngs.get_mut(&addr).ok_or_else(|| Error::unverified(op, "generator vanished"))?;
            g.shuffle(&mut v);
            for (i, x) in v.iter().enumerate() {
                write_elem(op, &m, &[i as i64], &int_cells(*x, 8), &what)?;
            }
            Ok(Vec::new())
        }
    }
}

/// A value as `std::ostream <<` prints it: `%g` floats (f16 and bf16
/// through `float`), decimal integers, `int8_t` as its character,
/// complex numbers as `(re,im)`.
fn push_value(op: OpId, v: Prim, val: &[Cell], fmt_g: FormatG, out: &mut Vec<u8>) -> Result<()> {
    let bits = val.iter().enumerate().try_fold(0u128, |acc, (k, c)| match c {
        Ok(b) => Ok(acc | u128::from(*b) << (8 * k)),
        Err(p) => Err(Error::at(
            op,
            ErrorKind::Poison { what: "written to a file by the sparse runtime".into(), origin: p.0 },
        )),
    })?;
    let g = |k: FloatKind, b: u128| fmt_g(float::from_bits(k, b));
    let text = match v {
        Prim::F64 => g(FloatKind::F64, bits),
        Prim::F32 => g(FloatKind::F32, bits),
        Prim::F16 => g(FloatKind::F16, bits),
        Prim::BF16 => g(FloatKind::BF16, bits),
        Prim::I64 => (bits as u64 as i64).to_string(),
        Prim::I32 => (bits as u32 as i32).to_string(),
        Prim::I16 => (bits as u16 as i16).to_string(),
        Prim::I8 => {
            out.push(bits as u8);
            return Ok(());
        }
        Prim::C64 => format!("({},{})", g(FloatKind::F64, bits & u128::from(u64::MAX)), g(FloatKind::F64, bits >> 64)),
        Prim::C32 => {
            format!("({},{})", g(FloatKind::F32, bits & 0xffff_ffff), g(FloatKind::F32, (bits >> 32) & 0xffff_ffff))
        }
    };
    out.extend_from_slice(text.as_bytes());
    Ok(())
}

/// `_mlir_ciface_newSparseTensor`.
fn new_sparse_tensor(e: &mut Engine, a: &Args) -> Result<Vec<Value>> {
    let op = a.op;
    let what = a.what();
    let ints = |e: &Engine, i: usize| -> Result<Vec<u64>> { read_ints(op, &a.memref(e, i, 1, 8)?, &what) };
    let (dim_sizes, lvl_sizes, lvl_types, dim2lvl) = (ints(e, 0)?, ints(e, 1)?, ints(e, 2)?, ints(e, 3)?);
    // The lvl2dim map (argument 4) only matters to the level-to-dimension
    // direction, which LLVM 22's library never takes.
    ints(e, 4)?;
    let (pos_tp, crd_tp, val_tp, action) = (a.int(5)? as u32, a.int(6)? as u32, a.int(7)? as u32, a.int(8)? as u32);
    if lvl_types.len() != lvl_sizes.len() {
        return Err(ub(op, format!("{what} with {} level types for {} levels", lvl_types.len(), lvl_sizes.len())));
    }
    // `kIndex` is rewritten to `kU64` before the type dispatch.
    let (p, c) = (pos_tp.max(1), crd_tp.max(1));
    let val = Prim::from_code(u64::from(val_tp));
    let supported = match (overhead_code(u64::from(p)), overhead_code(u64::from(c)), val) {
        (Some(_), Some(_), Some(Prim::F64 | Prim::F32)) => true,
        (Some(_), Some(_), Some(Prim::C64 | Prim::C32)) => p == 1 && c == 1,
        (Some(_), Some(_), Some(_)) => p == c,
        _ => false,
    };
    let (Some(pos_w), Some(crd_w), Some(val), true) =
        (overhead_code(u64::from(p)), overhead_code(u64::from(c)), val, supported)
    else {
        return Err(Error::at(
            op,
            ErrorKind::RuntimeUnsupported(format!("unsupported combination of types: <P={p}, C={c}, V={val_tp}>")),
        ));
    };
    let shape = |dim_sizes: Vec<u64>| Shape {
        dim_sizes,
        lvl_sizes: lvl_sizes.clone(),
        lvl_types: lvl_types.clone(),
        pos_w,
        crd_w,
        val,
    };
    let t = match action {
        0 => Tensor::new_empty(e, op, shape(dim_sizes))?,
        1 => {
            let lvl_rank = lvl_sizes.len();
            let (dims, coo) = with_reader(e, a, 9, |e, r| {
                let map = Map::new(r.rank, dim2lvl.clone());
                read_coo(e, op, r, &map, &lvl_sizes, lvl_rank, val)
            })?;
            let mut coo = coo;
            e.charge(op, coo.elems.len() as u64)?;
            Tensor::from_coo(e, op, shape(dims), &mut coo)?
        }
        2 => {
            let bufs = a.ptr(9)?;
            Tensor::pack(e, op, shape(dim_sizes), &bufs, a.name)?
        }
        3 => {
            return with_tensor(e, a, 9, |e, t| {
                same(op, &what, val.suffix(), t.val.suffix())?;
                e.charge(op, t.values.len as u64)?;
                t.sort_in_place(op)?;
                Ok(vec![a.arg(9)?.clone()])
            })
        }
        _ => return Err(fatal(op, format!("unknown action: {action}"))),
    };
    let (addr, h) = new_handle(e, op)?;
    e.sparse.tensors.insert(addr, Box::new(t));
    Ok(vec![h])
}

/// `readCOO`: every element of the file, its coordinates mapped to levels.
fn read_coo(
    e: &mut Engine,
    op: OpId,
    r: &mut Reader,
    map: &Map,
    lvl_sizes: &[u64],
    lvl_rank: usize,
    v: Prim,
) -> Result<(Vec<u64>, Coo)> {
    if r.pos == usize::MAX {
        return Err(ub(op, format!("reading {} a second time (the reader closed it)", r.name)));
    }
    e.charge(op, r.nse)?;
    let mut coo = Coo { elems: Vec::new(), sorted: true };
    for _ in 0..r.nse {
        let (dims, val) = r.element(op, v)?;
        let lvls = map.forward(op, &dims, lvl_rank)?;
        if let Some(l) = (0..lvl_rank).find(|l| lvls[*l] >= lvl_sizes[*l]) {
            return Err(ub(
                op,
                format!(
                    "element at {:?} of {} lies outside the tensor (level {l} coordinate {} of size {})",
                    dims.iter().map(|d| d.wrapping_add(1)).collect::<Vec<_>>(),
                    r.name,
                    lvls[l],
                    lvl_sizes[l]
                ),
            ));
        }
        coo.add(lvls, val);
    }
    r.pos = usize::MAX;
    Ok((r.dim_sizes.clone(), coo))
}

/// The elements of tensor file `name` (`.mtx` or `.tns`) as the runtime's
/// reader reads them, for direct execution of `sparse_tensor.new`: the
/// dimension sizes, then each element's 0-based dimension coordinates
/// and value (of element lane `lane`), in file order.
pub(crate) fn read_tensor_file(op: OpId, name: &str, lane: crate::lane::Lane) -> Result<TensorFile> {
    let v = Prim::of_lane(lane)
        .ok_or_else(|| Error::at(op, ErrorKind::Unsupported(format!("reading {lane:?} elements from a file"))))?;
    let mut r = Reader::parse(op, name)?;
    if !r.can_read_as(v) {
        return Err(fatal(op, format!("Tensor element type {} not compatible with values in file {name}", v.code())));
    }
    let mut out = Vec::new();
    for _ in 0..r.nse {
        let (dims, val) = r.element(op, v)?;
        let bytes: Vec<u8> = val.into_iter().map(|c| c.unwrap_or(0)).collect();
        out.push((dims, lane.decode(&bytes)));
    }
    Ok((r.dim_sizes, out))
}

/// `sparse_tensor.out` run directly: the text the lowered writer calls
/// write (`createSparseTensorWriter`, the metadata with `nse` as
/// `number_of_entries` gives it, one line per entry in `entries`' order),
/// to file `name` or stdout when it is empty.
#[allow(clippy::too_many_arguments)]
pub(crate) fn write_tensor_file(
    e: &mut Engine,
    op: OpId,
    name: String,
    dims: &[u64],
    nse: usize,
    entries: &[(Vec<u64>, Scalar)],
    lane: Lane,
    fmt_g: FormatG,
) -> Result<()> {
    let v = Prim::of_lane(lane)
        .ok_or_else(|| Error::at(op, ErrorKind::Unsupported(format!("writing {lane:?} elements to a file"))))?;
    let mut w = Writer::open(e, op, name)?;
    let mut s = format!("{} {nse}\n", dims.len()).into_bytes();
    let dims: Vec<String> = dims.iter().map(u64::to_string).collect();
    s.extend_from_slice(dims.join(" ").as_bytes());
    s.push(b'\n');
    let mut cells = vec![0u8; lane.bytes()];
    for (c, x) in entries {
        for d in c {
            s.extend_from_slice(format!("{} ", d.wrapping_add(1)).as_bytes());
        }
        lane.encode(x, &mut cells).ok_or_else(|| Error::unverified(op, "a stored value of another type"))?;
        let val: Vec<Cell> = cells.iter().map(|b| Ok(*b)).collect();
        push_value(op, v, &val, fmt_g, &mut s)?;
        s.push(b'\n');
    }
    w.write(e, op, &s)?;
    let r = match &mut w.file {
        Some(f) => f.flush(),
        None => e.out.flush(),
    };
    r.map_err(|err| Error::at(op, ErrorKind::Unsupported(format!("cannot write {}: {err}", w.name))))
}

/// A tensor file's dimension sizes and elements (dimension coordinates, value).
pub(crate) type TensorFile = (Vec<u64>, Vec<(Vec<u64>, crate::scalar::Scalar)>);

/// `_mlir_ciface_createCheckedSparseTensorReader`.
fn create_reader(e: &mut Engine, a: &Args) -> Result<Vec<Value>> {
    let (op, what) = (a.op, a.what());
    let name = c_string(e, op, a.arg(0)?, &what)?;
    let shape = read_ints(op, &a.memref(e, 1, 1, 8)?, &what)?;
    let vt = a.int(2)?;
    let v = Prim::from_code(vt).ok_or_else(|| fatal(op, format!("unknown primary type {vt}")))?;
    let r = Reader::open(e, op, &name)?;
    if !r.can_read_as(v) {
        return Err(fatal(op, format!("Tensor element type {} not compatible with values in file {name}", v.code())));
    }
    let fits = shape.len() == r.rank && shape.iter().zip(&r.dim_sizes).all(|(s, d)| *s == 0 || s == d);
    if !fits {
        return Err(ub(
            op,
            format!(
                "{what}: the tensor type's shape {shape:?} does not match the dimension sizes {:?} in {name}",
                r.dim_sizes
            ),
        ));
    }
    let (addr, h) = new_handle(e, op)?;
    e.sparse.readers.insert(addr, Box::new(r));
    Ok(vec![h])
}

/// `_mlir_ciface_getSparseTensorReaderReadToBuffers<C><V>`: level
/// coordinates (AoS, truncated to `C` as read) and values into the
/// program's buffers; whether they came sorted.
fn read_to_buffers(e: &mut Engine, a: &Args, cw: usize, v: Prim) -> Result<Vec<Value>> {
    let (op, what) = (a.op, a.what());
    let d2l = read_ints(op, &a.memref(e, 1, 1, 8)?, &what)?;
    let l2d = read_ints(op, &a.memref(e, 2, 1, 8)?, &what)?;
    let cm = a.memref(e, 3, 1, cw)?;
    let vm = a.memref(e, 4, 1, v.bytes())?;
    // One entry of dim2lvl per level (a block map's lvl2dim has one per
    // dimension): the level rank.
    let lvl_rank = d2l.len();
    let _ = l2d;
    let mask = if cw >= 8 { u64::MAX } else { (1u64 << (8 * cw)) - 1 };
    let sorted = with_reader(e, a, 0, |e, r| {
        let map = Map::new(r.rank, d2l);
        if r.pos == usize::MAX {
            return Err(ub(op, format!("reading {} a second time (the reader closed it)", r.name)));
        }
        e.charge(op, r.nse)?;
        let mut sorted = false;
        let mut prev: Vec<u64> = Vec::new();
        // The first element is read even when the file declares none.
        for n in 0..r.nse.max(1) {
            let (dims, val) = r.element(op, v)?;
            let dims: Vec<u64> = dims.iter().map(|d| d & mask).collect();
            let lvls: Vec<u64> = map.forward(op, &dims, lvl_rank)?.iter().map(|x| x & mask).collect();
            for (l, x) in lvls.iter().enumerate() {
                let at = (n as i64).saturating_mul(lvl_rank as i64).saturating_add(l as i64);
                write_elem(op, &cm, &[at], &int_cells(*x, cw), &what)?;
            }
            write_elem(op, &vm, &[n as i64], &val, &what)?;
            if sorted {
                if let Some(l) = (0..lvl_rank).find(|l| prev[*l] != lvls[*l]) {
                    sorted = prev[l] < lvls[l];
                }
            }
            if n == 0 {
                sorted = true;
            }
            prev = lvls;
        }
        r.pos = usize::MAX;
        Ok(sorted)
    })?;
    Ok(vec![Value::int(Int::from_u128(1, u128::from(sorted)))])
}

/// `_mlir_ciface_expInsert<V>`: the expanded row's `added` entries
/// (sorted in place) inserted in order, each value and filled flag
/// cleared after.
fn exp_insert(e: &mut Engine, a: &Args, v: Prim) -> Result<Vec<Value>> {
    let (op, what) = (a.op, a.what());
    let cm = a.memref(e, 1, 1, 8)?;
    let vm = a.memref(e, 2, 1, v.bytes())?;
    let fm = a.memref(e, 3, 1, 1)?;
    let am = a.memref(e, 4, 1, 8)?;
    let count = a.int(5)?;
    with_tensor(e, a, 0, |e, t| {
        same(op, &what, v.suffix(), t.val.suffix())?;
        if count == 0 {
            return Ok(Vec::new());
        }
        e.charge(op, count)?;
        let mut added = (0..count as i64)
            .map(|i| read_elem(op, &am, &[i], &what).and_then(|c| cells_u64(op, &c, "an added coordinate")))
            .collect::<Result<Vec<_>>>()?;
        added.sort_unstable();
        for (i, x) in added.iter().enumerate() {
            write_elem(op, &am, &[i as i64], &int_cells(*x, 8), &what)?;
        }
        let rank = t.rank();
        let last = rank - 1;
        let expsz = vm.sizes.first().copied().unwrap_or(0).max(0) as u64;
        let zero = vec![Ok(0u8); v.bytes()];
        for (i, c) in added.iter().enumerate() {
            if *c >= expsz {
                return Err(ub(op, format!("{what}: added coordinate {c} outside the expanded size {expsz}")));
            }
            write_elem(op, &cm, &[last as i64], &int_cells(*c, 8), &what)?;
            let coords = (0..rank as i64)
                .map(|k| read_elem(op, &cm, &[k], &what).and_then(|x| cells_u64(op, &x, "a level coordinate")))
                .collect::<Result<Vec<_>>>()?;
            let val = read_elem(op, &vm, &[*c as i64], &what)?;
            if i == 0 {
                t.lex_insert(e, op, &coords, &val)?;
            } else {
                if coords[last] >= t.lvl_sizes[last] {
                    return Err(ub(
                        op,
                        format!(
                            "insertion at level {last} coordinate {c}, outside the level size {}",
                            t.lvl_sizes[last]
                        ),
                    ));
                }
                t.ins_path(e, op, &coords, last, added[i - 1] + 1, &val)?;
            }
            write_elem(op, &vm, &[*c as i64], &zero, &what)?;
            write_elem(op, &fm, &[*c as i64], &[Ok(0)], &what)?;
        }
        Ok(Vec::new())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lcg(s: &mut u64) -> u64 {
        *s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        *s >> 33
    }

    /// FNV-1a hashes of the order libstdc++'s `std::sort` (GCC 12) leaves
    /// `(key, index)` pairs in, compared by key only, for six key
    /// patterns full of duplicates at sizes around the 16-element
    /// threshold and beyond; made by a C++ program generating the same
    /// cases (the same LCG), compiled with g++ 12.
    const LIBSTDCXX: [u64; 78] = [
        11126444148914698056,
        12195995521320448702,
        17505163608161117308,
        13226730881336893653,
        12777149209946601001,
        13276173210084741004,
        9060196862800852216,
        4457495889598023837,
        15730791239029099651,
        16218984957041363397,
        2162536099289328897,
        3392403159045795471,
        7602056276830842637,
        11126444148914698056,
        12195995521320448702,
        8637538703190335550,
        615731795747517251,
        11781115280397994855,
        9195899126206097896,
        15082381375221973218,
        2099419919066550173,
        15648660194338831911,
        10730216328730346437,
        16260575327375700559,
        4071295502287955719,
        16220269862089120257,
        11125488673309971922,
        10948618271141811064,
        5207486127770002680,
        9501163887763895889,
        1179027249142990453,
        16458129483100736332,
        5118879527572725924,
        17587258126437224227,
        9465044608546408829,
        11956015315711863239,
        709809157149377525,
        8675531762356569515,
        13556793005463820699,
        11126444148914698056,
        12198861948134627104,
        3428414724160593522,
        99913424558980059,
        15734177250596884713,
        10099904716030139336,
        17385329483273425962,
        14822073215617103895,
        3703693555119675593,
        13733206820176708237,
        91771867577992535,
        8481047737606366159,
        3804215019696776587,
        11126444148914698056,
        12195995521320448702,
        8637538703190335550,
        615731795747517251,
        12142191458066772073,
        5036946713153761986,
        14074308581311334692,
        4726372687102659331,
        4342150641277792007,
        1494447923934049643,
        9451109056036632721,
        12134223775326807227,
        7884124110981860555,
        11126444148914698056,
        12195995521320448702,
        17806936565205200806,
        8127365743941558121,
        7212208835539021209,
        10732146522304880316,
        981834868947853892,
        17715127754245703387,
        16616909137077258857,
        1910741378083388541,
        7667723755242574615,
        13497670123298672559,
        1231476099432486099,
    ];

    #[test]
    fn std_sort_orders_equal_keys_as_libstdcxx() {
        let sizes = [2usize, 3, 15, 16, 17, 18, 31, 32, 33, 100, 257, 1000, 5000];
        let mut k = 0;
        for pat in 0..6u64 {
            for n in sizes {
                let mut s = 1234 + pat * 7 + n as u64;
                let mut v: Vec<(u64, u64)> = (0..n as u64)
                    .map(|i| {
                        let n = n as u64;
                        let key = match pat {
                            0 => lcg(&mut s) % 7,
                            1 => i / 3,
                            2 => (n - i) / 2,
                            3 => {
                                if i < n / 2 {
                                    i
                                } else {
                                    n - i
                                }
                            }
                            4 => 5,
                            _ => (i % 10) * (lcg(&mut s) % 3),
                        };
                        (key, i)
                    })
                    .collect();
                std_sort(&mut v, &|a: &(u64, u64), b: &(u64, u64)| a.0 < b.0);
                let h = v.iter().fold(1469598103934665603u64, |h, p| (h ^ p.1).wrapping_mul(1099511628211));
                assert_eq!(h, LIBSTDCXX[k], "pattern {pat}, {n} elements");
                k += 1;
            }
        }
    }

    /// The first outputs of `std::mt19937` with its default seed 5489
    /// (the 10000th is 4123659995, as the C++ standard requires).
    #[test]
    fn mt19937_matches_the_standard() {
        let mut g = Mt19937::new(5489);
        let first = g.next_u32();
        assert_eq!(first, 3499211612);
        for _ in 1..9999 {
            g.next_u32();
        }
        assert_eq!(g.next_u32(), 4123659995);
    }
}
