//! The `memref` dialect on top of `memory.rs`: allocation, access, and the
//! view ops, which only rewrite the view descriptor (so writes through any
//! view reach the same buffer).
//!
//! - Offsets, sizes and strides come from the run-time descriptor; a
//!   result type is read only for what the op leaves to it (which unit dims
//!   a rank-reducing subview drops, the layout of an allocation) and is
//!   checked where the op promises it (`memref.cast`).
//! - `reinterpret_cast` takes an absolute offset and is not bounds-checked
//!   itself (SEMANTICS 28); accesses through it are checked against the buffer.
//! - `collapse_shape` of a non-contiguous group, a violated
//!   `assume_alignment`, an out-of-range `dim`, and accesses out of bounds or
//!   after free are undefined behaviour, reported with the allocation site.
//! - Atomics run sequentially; `dma_start` is a synchronous copy and
//!   `dma_wait` does nothing.

use crate::error::{Error, ErrorKind, Result};
use crate::exec::{Engine, Flow, Frame};
use crate::memory::{self, list, mem_ub, AllocKind, AllocLayout, MemRef, CONSTANT_GLOBAL};
use crate::value::{Dense, Value};
use mlir_ir::attrs::Attribute;
use mlir_ir::ir::OpId;
use mlir_ir::ops::{MemrefOp, OpKind};
use mlir_ir::types::{TypeId, TypeKind, DYNAMIC};
use std::rc::Rc;

use crate::memory::dma_copy;
use crate::operands::{elem_of, index_args, index_of, index_value, memref_arg};
use crate::sem::atomic::combine;

/// Executes one memref op.
pub fn exec(e: &mut Engine, fr: &mut Frame, op: OpId, kind: MemrefOp) -> Result<Flow> {
    use MemrefOp::*;
    match kind {
        Alloc => alloc(e, fr, op, AllocKind::Heap),
        Alloca => alloc(e, fr, op, AllocKind::Alloca),
        AllocaScope => alloca_scope(e, fr, op),
        AllocaScopeReturn | AtomicYield => Ok(Flow::Exit(e.args(fr, op))),
        AssumeAlignment => assume_alignment(e, fr, op),
        AtomicRmw => atomic_rmw(e, fr, op),
        BufferCast => buffer_cast(e, fr, op),
        TensorLoad => tensor_load(e, fr, op),
        TensorStore => tensor_store(e, fr, op),
        Cast => cast(e, fr, op),
        CollapseShape => collapse_shape(e, fr, op),
        Copy => copy(e, fr, op),
        Dealloc => dealloc(e, fr, op),
        Dim => dim(e, fr, op),
        DmaStart => dma_start(e, fr, op),
        DmaWait => Ok(Flow::Next),
        ExpandShape => expand_shape(e, fr, op),
        ExtractAlignedPointerAsIndex => aligned_pointer(e, fr, op),
        ExtractStridedMetadata => strided_metadata(e, fr, op),
        GenericAtomicRmw => generic_atomic_rmw(e, fr, op),
        GetGlobal => get_global(e, fr, op),
        Global => Ok(Flow::Next),
        Load => load(e, fr, op),
        MemorySpaceCast => memory_space_cast(e, fr, op),
        Prefetch => Ok(Flow::Next),
        Rank => rank(e, fr, op),
        Realloc => realloc(e, fr, op),
        ReinterpretCast => reinterpret_cast(e, fr, op),
        Reshape => reshape(e, fr, op),
        Store => store(e, fr, op),
        Subview => subview(e, fr, op),
        Transpose => transpose(e, fr, op),
        View => view(e, fr, op),
    }
}

// ---- operand plumbing ------------------------------------------------------

fn ub(op: OpId, msg: impl Into<String>) -> Error {
    Error::at(op, ErrorKind::Ub(msg.into()))
}

fn result_memref(e: &Engine, fr: &mut Frame, op: OpId, m: MemRef) -> Result<Flow> {
    e.assign(fr, op, Value::Memref(Rc::new(m)))
}

/// The integer attribute `name` of `op`.
fn int_attr(e: &Engine, op: OpId, name: &str) -> Option<i64> {
    match e.m.attr(op, name).map(|a| e.m.ctx.attr_kind(a)) {
        Some(Attribute::Integer { value, .. }) => value.to_i64(),
        _ => None,
    }
}

/// Static values of `name` with each [`DYNAMIC`] taken from the next operand.
fn mixed(e: &Engine, fr: &Frame, op: OpId, name: &str, next: &mut usize) -> Result<Vec<i64>> {
    let mut out = e.i64s(op, name)?;
    for v in out.iter_mut().filter(|v| **v == DYNAMIC) {
        *v = index_of(e, op, e.arg(fr, op, *next)?, "used as a memref offset, size or stride")?;
        *next += 1;
    }
    Ok(out)
}

/// The `[[0, 1], [2]]` reassociation of `op`, decoded at load.
fn reassociation(e: &Engine, op: OpId) -> Rc<[Vec<usize>]> {
    Rc::clone(&e.aux[op.0 as usize].groups)
}

/// Shape, element type and layout of a ranked memref type.
fn memref_type(e: &Engine, op: OpId, ty: TypeId) -> Result<(Vec<i64>, TypeId, Option<mlir_ir::attrs::AttrId>)> {
    match e.m.ctx.type_kind(ty) {
        TypeKind::MemRef { shape, elem, layout, .. } => Ok((shape.clone(), *elem, *layout)),
        _ => Err(Error::unverified(op, "expected a ranked memref type")),
    }
}

/// Static strides and offset of a ranked memref type, if strided.
fn type_strides(e: &Engine, ty: TypeId) -> Option<(Vec<i64>, i64)> {
    mlir_ir::layout::strides_and_offset(&e.m.ctx, ty)
}

// ---- allocation ------------------------------------------------------------

/// How an allocation of type `ty` lays out its elements (`syms`: the
/// layout map's symbol values).
fn alloc_layout(e: &Engine, op: OpId, ty: TypeId, syms: Vec<i64>) -> Result<AllocLayout> {
    let (shape, _, layout) = memref_type(e, op, ty)?;
    let Some(l) = layout else { return Ok(AllocLayout::Identity) };
    match e.m.ctx.attr_kind(l) {
        Attribute::AffineMap(map) if map.is_identity() => Ok(AllocLayout::Identity),
        Attribute::AffineMap(map) if map.num_syms > 0 || type_strides(e, ty).is_none() => {
            if map.num_dims as usize != shape.len() || map.num_syms as usize != syms.len() {
                return Err(Error::unverified(op, "layout map does not match the allocation"));
            }
            Ok(AllocLayout::Map { map: map.clone(), syms })
        }
        _ => match type_strides(e, ty) {
            Some((strides, offset)) if !strides.contains(&DYNAMIC) && offset != DYNAMIC => {
                if strides == mlir_ir::layout::canonical_strides(&shape) && offset == 0 {
                    Ok(AllocLayout::Identity)
                } else {
                    Ok(AllocLayout::Strided { strides, offset })
                }
            }
            _ => Err(Error::at(op, ErrorKind::Unsupported("allocation with a dynamic layout".into()))),
        },
    }
}

/// `memref.alloc(%d)[%s]` / `memref.alloca`.
fn alloc(e: &mut Engine, fr: &mut Frame, op: OpId, kind: AllocKind) -> Result<Flow> {
    let ty = e.result_type(op, 0);
    let (mut shape, elem_ty, _) = memref_type(e, op, ty)?;
    let ndyn = shape.iter().filter(|d| **d == DYNAMIC).count();
    let nops = e.m.operands(op).len();
    let dyns = index_args(e, fr, op, 0..ndyn, "used as an allocation size")?;
    let syms = index_args(e, fr, op, ndyn..nops, "used as a layout symbol")?;
    let mut it = dyns.into_iter();
    for d in shape.iter_mut().filter(|d| **d == DYNAMIC) {
        *d = it.next().ok_or_else(|| Error::unverified(op, "missing dynamic size"))?;
    }
    let layout = alloc_layout(e, op, ty, syms)?;
    let elem = elem_of(e, op, elem_ty)?;
    let align = int_attr(e, op, "alignment").and_then(|a| u64::try_from(a).ok()).unwrap_or(0);
    let m = e.mem.alloc(op, elem, shape, layout, kind, align)?;
    result_memref(e, fr, op, m)
}

/// `memref.alloca_scope { .. }`: allocas inside die when it returns.
fn alloca_scope(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let r = e.region(op, 0)?;
    e.mem.push_scope();
    let out = e.run_region(fr, r, Vec::new());
    e.mem.pop_scope();
    let (_, vals) = out?;
    e.assign_all(fr, op, vals)
}

/// `memref.dealloc %m`.
fn dealloc(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let m = memref_arg(e, fr, op, 0)?;
    e.mem.dealloc(op, &m)?;
    Ok(Flow::Next)
}

/// `memref.realloc %m(%n)`: a new heap buffer keeping the common prefix;
/// the old one is freed.
fn realloc(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let src = memref_arg(e, fr, op, 0)?;
    let ty = e.result_type(op, 0);
    let (shape, elem_ty, _) = memref_type(e, op, ty)?;
    let n = match shape.first() {
        Some(&DYNAMIC) => index_of(e, op, e.arg(fr, op, 1)?, "used as a realloc size")?,
        Some(&n) => n,
        None => return Err(Error::unverified(op, "realloc of a rank-0 memref")),
    };
    let elem = elem_of(e, op, elem_ty)?;
    let align = int_attr(e, op, "alignment").and_then(|a| u64::try_from(a).ok()).unwrap_or(0);
    let dst = crate::operands::realloc(e, op, &src, elem, n, align)?;
    result_memref(e, fr, op, dst)
}

/// `memref.global`s by symbol name, materialized on first use.
fn get_global(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let name = match e.m.attr(op, "name").map(|a| e.m.ctx.attr_kind(a)) {
        Some(Attribute::SymbolRef { root, .. }) => root.clone(),
        _ => return Err(Error::unverified(op, "get_global without a name")),
    };
    let g = find_global(e, &name)
        .ok_or_else(|| Error::unverified(op, format!("no memref.global @{}", String::from_utf8_lossy(&name))))?;
    let ty = e.result_type(op, 0);
    let (shape, elem_ty, _) = memref_type(e, op, ty)?;
    let elem = Rc::new(elem_of(e, op, elem_ty)?);
    let buf = match e.mem.globals.get(&g) {
        Some(b) => b.clone(),
        None => {
            let b = materialize_global(e, g, &shape, &elem)?;
            e.mem.globals.insert(g, b.clone());
            b
        }
    };
    let strides = mlir_ir::layout::canonical_strides(&shape);
    let m = MemRef { buf, elem, base: 0, offset: 0, sizes: shape, strides, map: None, view: false };
    result_memref(e, fr, op, m)
}

/// The `memref.global` op named `name` (searching nested modules too).
fn find_global(e: &Engine, name: &[u8]) -> Option<OpId> {
    let m = e.m;
    let mut stack = vec![m.top?];
    while let Some(container) = stack.pop() {
        for &r in m.regions(container) {
            for &b in &m.region(r).blocks {
                for &o in &m.block(b).ops {
                    match m.op(o).name.kind {
                        OpKind::BuiltinModule => stack.push(o),
                        OpKind::MemrefGlobal => {
                            if let Some(Attribute::String { value, .. }) =
                                m.attr(o, "sym_name").map(|a| m.ctx.attr_kind(a))
                            {
                                if **value == *name {
                                    return Some(o);
                                }
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
    }
    None
}

/// The buffer of global `g`, holding its initial value.
fn materialize_global(
    e: &mut Engine,
    g: OpId,
    shape: &[i64],
    elem: &Rc<memory::Elem>,
) -> Result<Rc<std::cell::RefCell<memory::Buffer>>> {
    let init = e.m.attr(g, "initial_value");
    let count = shape.iter().try_fold(1usize, |acc, d| acc.checked_mul(usize::try_from(*d).ok()?));
    let count = count.ok_or_else(|| Error::unverified(g, "global of dynamic or overflowing shape"))?;
    let bytes = count.checked_mul(elem.bytes()).ok_or_else(|| Error::unverified(g, "global too large"))?;
    let align = int_attr(e, g, "alignment").and_then(|a| u64::try_from(a).ok()).unwrap_or(0);
    let buf = e.mem.new_buffer(g, bytes, AllocKind::Global, align)?;
    let view = MemRef {
        buf: buf.clone(),
        elem: elem.clone(),
        base: 0,
        offset: 0,
        sizes: shape.to_vec(),
        strides: mlir_ir::layout::canonical_strides(shape),
        map: None,
        view: false,
    };
    match init.map(|a| (a, e.m.ctx.attr_kind(a))) {
        None => {
            return Err(Error::at(g, ErrorKind::Unsupported("external memref.global (no initial value)".into())));
        }
        Some((_, Attribute::Unit)) => {}
        Some((a, _)) => {
            let v = e.attr_value(g, a, elem.ty)?;
            let want = shape_usize(shape);
            let arr = match (&v, v.scalar()) {
                (Value::Array(arr), _) => arr.reshape(&want),
                (_, Some(s)) => Dense::splat(&want, &s, None),
                _ => return Err(Error::unverified(g, "bad global initializer")),
            }
            .map_err(|_| Error::unverified(g, "global initializer does not match its type"))?;
            view.write_all(g, &arr, "global initialization")?;
        }
    }
    buf.borrow_mut().read_only = e.m.attr(g, "constant").map(|_| CONSTANT_GLOBAL);
    Ok(buf)
}

fn shape_usize(shape: &[i64]) -> Vec<usize> {
    shape.iter().map(|d| usize::try_from(*d).unwrap_or(0)).collect()
}

/// `memref.buffer_cast %t`: fresh storage holding the tensor's elements
/// (owned by the tensor side: freeing it is undefined behaviour).
fn buffer_cast(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let Value::Array(t) = e.arg(fr, op, 0)?.clone() else {
        return Err(Error::unverified(op, "buffer_cast of a non-tensor value"));
    };
    let ty = e.result_type(op, 0);
    let (elem_ty, layout) = match e.m.ctx.type_kind(ty) {
        TypeKind::MemRef { elem, .. } => (*elem, alloc_layout(e, op, ty, Vec::new())?),
        TypeKind::UnrankedMemRef { elem, .. } => (*elem, AllocLayout::Identity),
        _ => return Err(Error::unverified(op, "buffer_cast to a non-memref type")),
    };
    let m = crate::operands::tensor_storage(e, op, elem_ty, layout, &t, "buffer_cast")?;
    result_memref(e, fr, op, m)
}

/// `memref.tensor_load %m`: the memref's current contents as a tensor.
fn tensor_load(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let m = memref_arg(e, fr, op, 0)?;
    let arr = m.read_all(op, "tensor_load")?;
    e.assign(fr, op, Value::Array(Rc::new(arr)))
}

/// `memref.tensor_store %t, %m`: copies the tensor into the memref.
fn tensor_store(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let Value::Array(t) = e.arg(fr, op, 0)?.clone() else {
        return Err(Error::unverified(op, "tensor_store of a non-tensor value"));
    };
    let m = memref_arg(e, fr, op, 1)?;
    m.write_all(op, &t, "tensor_store")?;
    Ok(Flow::Next)
}

// ---- access ----------------------------------------------------------------

/// `memref.load %m[%i, %j]` (`nontemporal` changes nothing here).
fn load(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let m = memref_arg(e, fr, op, 0)?;
    let n = e.m.operands(op).len();
    let idx = index_args(e, fr, op, 1..n, "used as a load index")?;
    let v = m.load(op, &idx, "load")?;
    e.assign(fr, op, v)
}

/// `memref.store %v, %m[%i, %j]`: poison is stored as poison.
fn store(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let v = e.arg(fr, op, 0)?.clone();
    let m = memref_arg(e, fr, op, 1)?;
    let n = e.m.operands(op).len();
    let idx = index_args(e, fr, op, 2..n, "used as a store index")?;
    m.store(op, &idx, &v, "store")?;
    Ok(Flow::Next)
}

/// `memref.copy %src, %dst`: shapes must agree at run time.
fn copy(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let src = memref_arg(e, fr, op, 0)?;
    let dst = memref_arg(e, fr, op, 1)?;
    if src.sizes != dst.sizes {
        return Err(mem_ub(
            op,
            dst.origin(),
            format!("memref.copy between different shapes: {} to {}", src.describe(), dst.describe()),
        ));
    }
    e.charge(op, src.num_elements().unwrap_or(0) as u64)?;
    let data = src.read_all(op, "copy")?;
    dst.write_all(op, &data, "copy")?;
    Ok(Flow::Next)
}

/// `memref.dim %m, %i`: an index past the rank is undefined behaviour.
fn dim(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let m = memref_arg(e, fr, op, 0)?;
    let i = index_of(e, op, e.arg(fr, op, 1)?, "used as a dim index")?;
    let d = usize::try_from(i).ok().and_then(|i| m.sizes.get(i)).copied().ok_or_else(|| {
        ub(op, format!("memref.dim index {i} out of range for {} of rank {}", m.describe(), m.rank()))
    })?;
    e.assign(fr, op, index_value(e, d))
}

/// `memref.rank %m`.
fn rank(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let m = memref_arg(e, fr, op, 0)?;
    e.assign(fr, op, index_value(e, m.rank() as i64))
}

/// `memref.atomic_rmw kind %v, %m[%i]`: stores `kind(old, %v)`, returns old.
fn atomic_rmw(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let kind = int_attr(e, op, "kind").ok_or_else(|| Error::unverified(op, "atomic_rmw without a kind"))?;
    let v = e.arg(fr, op, 0)?.clone();
    let m = memref_arg(e, fr, op, 1)?;
    let n = e.m.operands(op).len();
    let idx = index_args(e, fr, op, 2..n, "used as an atomic_rmw index")?;
    let old = m.load(op, &idx, "atomic_rmw")?;
    let (Some(cur), Some(x)) = (old.scalar(), v.scalar()) else {
        return Err(Error::unverified(op, "atomic_rmw on a non-scalar element"));
    };
    let new = combine(op, kind, &cur, &x)?;
    m.store(op, &idx, &Value::from_scalar(new), "atomic_rmw")?;
    e.assign(fr, op, old)
}

/// `memref.generic_atomic_rmw %m[%i] { ^bb0(%cur): .. atomic_yield %new }`.
fn generic_atomic_rmw(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let m = memref_arg(e, fr, op, 0)?;
    let n = e.m.operands(op).len();
    let idx = index_args(e, fr, op, 1..n, "used as an atomic index")?;
    let old = m.load(op, &idx, "generic_atomic_rmw")?;
    let r = e.region(op, 0)?;
    let (term, mut vals) = e.run_region(fr, r, vec![old.clone()])?;
    let new = vals.pop().ok_or_else(|| Error::unverified(term, "memref.atomic_yield without a value"))?;
    m.store(op, &idx, &new, "generic_atomic_rmw")?;
    e.assign(fr, op, old)
}

/// `memref.dma_start %src[..], %dst[..], %n, %tag[..] (, %stride, %per)`:
/// copies `%n` elements now, walking both views in row-major order from the
/// given indices; with a stride, the source is read `%per` elements every
/// `%stride` elements. The tag is left alone and `dma_wait` does nothing.
fn dma_start(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let src = memref_arg(e, fr, op, 0)?;
    let sr = src.rank();
    let src_idx = index_args(e, fr, op, 1..1 + sr, "used as a dma index")?;
    let dst = memref_arg(e, fr, op, 1 + sr)?;
    let dr = dst.rank();
    let dst_idx = index_args(e, fr, op, 2 + sr..2 + sr + dr, "used as a dma index")?;
    let count = index_of(e, op, e.arg(fr, op, 2 + sr + dr)?, "used as a dma size")?;
    let tag = memref_arg(e, fr, op, 3 + sr + dr)?;
    let tag_end = 4 + sr + dr + tag.rank();
    let tag_idx = index_args(e, fr, op, 4 + sr + dr..tag_end, "used as a dma tag index")?;
    tag.locate(op, &tag_idx, "dma tag")?;
    let rest = index_args(e, fr, op, tag_end..e.m.operands(op).len(), "used as a dma stride")?;
    dma_copy(op, (&src, &src_idx), (&dst, &dst_idx), count, &rest)?;
    Ok(Flow::Next)
}

// ---- views -----------------------------------------------------------------

fn strided_only(op: OpId, m: &MemRef, what: &str) -> Result<()> {
    if m.map.is_some() {
        return Err(Error::at(op, ErrorKind::Unsupported(format!("{what} of a memref with a non-strided layout"))));
    }
    Ok(())
}

/// `memref.cast`: the same descriptor; static sizes, strides and offset of
/// a ranked result type must hold at run time.
fn cast(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let m = memref_arg(e, fr, op, 0)?;
    let ty = e.result_type(op, 0);
    if let TypeKind::MemRef { shape, .. } = e.m.ctx.type_kind(ty) {
        let tname = mlir_ir::printer::type_to_string(&e.m.ctx, ty);
        if shape.len() != m.rank() {
            return Err(mem_ub(op, m.origin(), format!("memref.cast of a rank-{} memref to {tname}", m.rank())));
        }
        for (d, (s, r)) in shape.iter().zip(&m.sizes).enumerate() {
            if *s != DYNAMIC && s != r {
                return Err(mem_ub(
                    op,
                    m.origin(),
                    format!("memref.cast to {tname}: dim {d} has size {r} at run time"),
                ));
            }
        }
        if m.map.is_none() {
            if let Some((strides, offset)) = type_strides(e, ty) {
                let bad_stride = strides.iter().zip(&m.strides).position(|(s, r)| *s != DYNAMIC && s != r);
                if let Some(d) = bad_stride {
                    return Err(mem_ub(
                        op,
                        m.origin(),
                        format!("memref.cast to {tname}: stride {d} is {} at run time", m.strides[d]),
                    ));
                }
                if offset != DYNAMIC && offset != m.offset {
                    return Err(mem_ub(
                        op,
                        m.origin(),
                        format!("memref.cast to {tname}: offset is {} at run time", m.offset),
                    ));
                }
            }
            if let Some(d) = identity_mismatch(e, ty, &m) {
                return Err(mem_ub(
                    op,
                    m.origin(),
                    format!(
                        "memref.cast to {tname}: the identity layout needs a contiguous view, but stride {d} is {} for sizes {:?}",
                        m.strides[d], m.sizes
                    ),
                ));
            }
        }
    }
    e.assign(fr, op, Value::Memref(m))
}

/// The first dimension whose stride breaks the identity layout `ty`
/// claims (row-major, contiguous), when it has no layout attribute. With
/// dynamic sizes the type's strides are dynamic too, so the static check
/// above passes them; but lowered code trusts an identity layout to be
/// contiguous (`memref.copy` of two such memrefs is one `memcpy`), so a
/// strided view cast to one reads other elements: the cast is invalid.
/// Strides of dimensions of size 1 never address anything and do not count.
fn identity_mismatch(e: &Engine, ty: TypeId, m: &MemRef) -> Option<usize> {
    let TypeKind::MemRef { layout: None, .. } = e.m.ctx.type_kind(ty) else { return None };
    let mut want: i64 = 1;
    for d in (0..m.rank()).rev() {
        if m.sizes[d] > 1 && m.strides[d] != want {
            return Some(d);
        }
        want = want.checked_mul(m.sizes[d])?;
    }
    None
}

/// `memref.memory_space_cast`: the same memory.
fn memory_space_cast(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let m = memref_arg(e, fr, op, 0)?;
    e.assign(fr, op, Value::Memref(m))
}

/// `memref.assume_alignment %m, N`: the address of the first element must
/// be a multiple of N (its violation is reported rather than made poison).
fn assume_alignment(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let m = memref_arg(e, fr, op, 0)?;
    let align = int_attr(e, op, "alignment").unwrap_or(1);
    let first = (m.offset as i128) * (m.elem.bytes() as i128) + i128::from(m.aligned_addr());
    if align > 0 && first.rem_euclid(i128::from(align)) != 0 {
        return Err(mem_ub(
            op,
            m.origin(),
            format!(
                "memref.assume_alignment violated: {} starts at address {:#x} (offset {} elements of {} bytes), not a multiple of {align}",
                m.describe(),
                first,
                m.offset,
                m.elem.bytes()
            ),
        ));
    }
    if e.m.op(op).results.len > 0 {
        return e.assign(fr, op, Value::Memref(m));
    }
    Ok(Flow::Next)
}

/// `memref.subview %m[offsets][sizes][strides]`, rank-reducing when the
/// result type has fewer dims.
fn subview(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let m = memref_arg(e, fr, op, 0)?;
    strided_only(op, &m, "memref.subview")?;
    let mut next = 1;
    let offs = mixed(e, fr, op, "static_offsets", &mut next)?;
    let sizes = mixed(e, fr, op, "static_sizes", &mut next)?;
    let strides = mixed(e, fr, op, "static_strides", &mut next)?;
    if offs.len() != m.rank() || sizes.len() != m.rank() || strides.len() != m.rank() {
        return Err(Error::unverified(op, "subview operands do not match the source rank"));
    }
    let ty = e.result_type(op, 0);
    let (res_shape, _, _) = memref_type(e, op, ty)?;
    let keep = if res_shape.len() == m.rank() {
        (0..m.rank()).collect()
    } else {
        let src_ty = e.operand_type(op, 0).ok_or_else(|| Error::unverified(op, "subview without a source"))?;
        dropped_dims(e, op, src_ty, ty)?
    };
    let v = m.subview(&offs, &sizes, &strides, &keep).map_err(|msg| mem_ub(op, m.origin(), msg))?;
    result_memref(e, fr, op, v)
}

/// Which dims a rank-reducing subview keeps: the types decide, as in
/// MLIR (`mlir_ir::layout::memref_rank_reduction` on the static sizes, the
/// inferred strides of the source type times the static steps, and the
/// result type's strides), so the verifier and the engine agree.
fn dropped_dims(e: &Engine, op: OpId, src_ty: TypeId, ty: TypeId) -> Result<Vec<usize>> {
    use mlir_ir::layout::{dyn_mul, memref_rank_reduction};
    let cannot = || Error::unverified(op, "cannot tell which unit dims the rank-reducing subview drops");
    let (src_strides, _) = type_strides(e, src_ty).ok_or_else(cannot)?;
    let (res_strides, _) = type_strides(e, ty).ok_or_else(cannot)?;
    let sizes = e.i64s(op, "static_sizes")?;
    let steps = e.i64s(op, "static_strides")?;
    let strides: Vec<i64> = src_strides.iter().zip(&steps).map(|(a, b)| dyn_mul(*a, *b)).collect();
    memref_rank_reduction(&sizes, &strides, &res_strides).ok_or_else(cannot)
}

/// `memref.view %buf[%shift][%sizes]`: reinterprets bytes of a 1-D i8 memref.
fn view(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let src = memref_arg(e, fr, op, 0)?;
    let shift = index_of(e, op, e.arg(fr, op, 1)?, "used as a view byte shift")?;
    let ty = e.result_type(op, 0);
    let (mut shape, elem_ty, _) = memref_type(e, op, ty)?;
    let n = e.m.operands(op).len();
    let mut dyns = index_args(e, fr, op, 2..n, "used as a view size")?.into_iter();
    for d in shape.iter_mut().filter(|d| **d == DYNAMIC) {
        *d = dyns.next().ok_or_else(|| Error::unverified(op, "missing view size"))?;
    }
    let first = usize::try_from(src.offset).ok().and_then(|o| o.checked_add(src.base));
    let base = first.and_then(|f| usize::try_from(shift).ok().and_then(|s| f.checked_add(s)));
    let base = base.ok_or_else(|| {
        mem_ub(op, src.origin(), format!("memref.view with byte shift {shift} before the start of {}", src.describe()))
    })?;
    let elem = Rc::new(elem_of(e, op, elem_ty)?);
    let strides = mlir_ir::layout::canonical_strides(&shape);
    let m = MemRef { buf: src.buf.clone(), elem, base, offset: 0, sizes: shape, strides, map: None, view: true };
    result_memref(e, fr, op, m)
}

/// `memref.reinterpret_cast %m to offset: [..], sizes: [..], strides: [..]`:
/// the offset is absolute from the base; nothing is checked until an access.
fn reinterpret_cast(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let m = memref_arg(e, fr, op, 0)?;
    let mut next = 1;
    let offs = mixed(e, fr, op, "static_offsets", &mut next)?;
    let sizes = mixed(e, fr, op, "static_sizes", &mut next)?;
    let strides = mixed(e, fr, op, "static_strides", &mut next)?;
    let offset = *offs.first().ok_or_else(|| Error::unverified(op, "reinterpret_cast without an offset"))?;
    result_memref(e, fr, op, m.derived(offset, sizes, strides))
}

/// `memref.reshape %m(%shape)`: sizes read from a 1-D memref; the source
/// must be contiguous.
fn reshape(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let m = memref_arg(e, fr, op, 0)?;
    let shape_m = memref_arg(e, fr, op, 1)?;
    let n = shape_m.sizes.first().copied().unwrap_or(0);
    let mut sizes = Vec::new();
    for i in 0..n {
        let v = shape_m.load(op, &[i], "reshape shape read")?;
        sizes.push(index_of(e, op, &v, "used as a reshape size")?);
    }
    if !m.is_contiguous() {
        return Err(mem_ub(op, m.origin(), format!("memref.reshape of non-contiguous {}", m.describe())));
    }
    let total: Option<i64> = sizes.iter().try_fold(1i64, |a, d| a.checked_mul(*d));
    if total != m.num_elements().and_then(|x| i64::try_from(x).ok()) {
        return Err(mem_ub(op, m.origin(), format!("memref.reshape of {} to sizes {}", m.describe(), list(&sizes))));
    }
    let strides = mlir_ir::layout::canonical_strides(&sizes);
    result_memref(e, fr, op, m.derived(m.offset, sizes, strides))
}

/// `memref.expand_shape %m [[0, 1], [2]] output_shape [..]`.
fn expand_shape(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let m = memref_arg(e, fr, op, 0)?;
    strided_only(op, &m, "memref.expand_shape")?;
    let groups = reassociation(e, op);
    let mut next = 1;
    let out = mixed(e, fr, op, "static_output_shape", &mut next)?;
    let v = m.expanded(&groups, &out).map_err(|msg| mem_ub(op, m.origin(), msg))?;
    result_memref(e, fr, op, v)
}

/// `memref.collapse_shape %m [[0, 1], [2]]`: each group must be contiguous
/// at run time (SEMANTICS 29).
fn collapse_shape(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let m = memref_arg(e, fr, op, 0)?;
    strided_only(op, &m, "memref.collapse_shape")?;
    let groups = reassociation(e, op);
    let src_ty = e.operand_type(op, 0).ok_or_else(|| Error::unverified(op, "missing operand"))?;
    let (src_shape, _, _) = memref_type(e, op, src_ty)?;
    let res_ty = e.result_type(op, 0);
    let res_strides = type_strides(e, res_ty).map(|(s, _)| s);
    let unit: Vec<bool> = src_shape.iter().map(|d| *d == 1).collect();
    let fallback: Vec<Option<i64>> = (0..groups.len())
        .map(|g| res_strides.as_ref().and_then(|r| r.get(g)).copied().filter(|s| *s != DYNAMIC))
        .collect();
    let v = m.collapsed(&groups, &unit, &fallback).map_err(|msg| mem_ub(op, m.origin(), msg))?;
    result_memref(e, fr, op, v)
}

/// `memref.transpose %m (d0, d1) -> (d1, d0)`.
fn transpose(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let m = memref_arg(e, fr, op, 0)?;
    strided_only(op, &m, "memref.transpose")?;
    let perm = match e.m.attr(op, "permutation").map(|a| e.m.ctx.attr_kind(a)) {
        Some(Attribute::AffineMap(map)) => map
            .results
            .iter()
            .map(|r| match r {
                mlir_ir::affine::AffineExpr::Dim(d) if (*d as usize) < m.rank() => Ok(*d as usize),
                _ => Err(Error::unverified(op, "permutation is not a permutation of the dims")),
            })
            .collect::<Result<Vec<usize>>>()?,
        _ => return Err(Error::unverified(op, "transpose without a permutation")),
    };
    result_memref(e, fr, op, m.transposed(&perm))
}

/// `memref.extract_strided_metadata`: base (rank 0), offset, sizes, strides.
fn strided_metadata(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let m = memref_arg(e, fr, op, 0)?;
    strided_only(op, &m, "memref.extract_strided_metadata")?;
    let base = MemRef { offset: 0, sizes: Vec::new(), strides: Vec::new(), map: None, view: true, ..(*m).clone() };
    let mut vals = vec![Value::Memref(Rc::new(base)), index_value(e, m.offset)];
    vals.extend(m.sizes.iter().map(|s| index_value(e, *s)));
    vals.extend(m.strides.iter().map(|s| index_value(e, *s)));
    e.assign_all(fr, op, vals)
}

/// `memref.extract_aligned_pointer_as_index`: the simulated address.
fn aligned_pointer(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let m = memref_arg(e, fr, op, 0)?;
    let a = i64::try_from(m.aligned_addr()).map_err(|_| Error::unverified(op, "address out of range"))?;
    e.assign(fr, op, index_value(e, a))
}
