//! The `bufferization` dialect: the bridge between tensor values and
//! memref storage.
//!
//! Aliasing model (tensors are values, memrefs are storage):
//! - `to_tensor %m` snapshots the memref's current contents into a tensor
//!   value. The op doc promises that a `restrict` tensor does not alias any
//!   other tensor ("restrict is similar to the C++ restrict keyword. Such
//!   tensors are guaranteed to not alias with any tensors in the program",
//!   D144021), so in a correct program no write reaches the memory while the
//!   tensor is still used, and a snapshot reads exactly what the bufferized
//!   program reads. A later write through an alias while the tensor is live
//!   violates that contract, but the engine does not know a tensor's last
//!   use, and reporting every later write would flag correct programs that
//!   reuse the buffer after the tensor is dead; such writes are allowed and
//!   the tensor keeps the snapshot. `writable` lets the bufferizer write
//!   tensor-side updates into the memref in place (one-shot-bufferize does),
//!   or not: reading the memref after such updates is bufferization-dependent,
//!   and here it keeps its old contents (value semantics).
//! - `to_buffer` / `to_memref %t` gives fresh storage holding the tensor
//!   (owned by the tensor side: freeing it is UB, as for
//!   `memref.buffer_cast`); writes to it never change `%t`. With
//!   `read_only` the program promises that "the buffer returned by this op
//!   (or an alias created from the returned buffer) will not be written to"
//!   (op doc): bufferization may then share the tensor's buffer, so a write
//!   through it or any view of it is reported as undefined behaviour.
//! - `alloc_tensor` is a tensor value: poison elements (the doc leaves its
//!   contents undefined) or a copy of `copy`; `size_hint` and the memory
//!   space only matter to a sparse/bufferizing compiler.
//! - `clone` is a new heap allocation (it lowers to `memref.alloc` +
//!   `memref.copy`), so it must be freed like one.
//! - `dealloc` frees the base buffer of each memref whose condition holds,
//!   once per buffer even when several listed memrefs alias it, except a
//!   buffer that a retained memref aliases; result `i` tells whether retained
//!   memref `i` aliases a memref whose condition holds. Aliasing is "same
//!   underlying buffer". Freeing what is not a live heap allocation is memory
//!   UB, reported by memory.rs.
//! - `materialize_in_destination` returns the source for a tensor
//!   destination and copies it into a memref destination (shape mismatch is
//!   UB).

use crate::error::{Error, ErrorKind, Result};
use crate::exec::{Engine, Flow, Frame};
use crate::memory::{AllocKind, AllocLayout, MemRef};
use crate::value::{Dense, Int, Value};
use mlir_ir::attrs::Attribute;
use mlir_ir::ir::OpId;
use mlir_ir::ops::BufferizationOp;
use mlir_ir::types::{TypeId, TypeKind, DYNAMIC};
use std::rc::Rc;

use crate::operands::{as_memref, elem_of, empty_tensor, index_args, memref_arg};

/// Executes one bufferization op.
pub fn exec(e: &mut Engine, fr: &mut Frame, op: OpId, kind: BufferizationOp) -> Result<Flow> {
    use BufferizationOp::*;
    match kind {
        ToTensor => to_tensor(e, fr, op),
        ToBuffer | ToMemref => to_buffer(e, fr, op),
        AllocTensor => alloc_tensor(e, fr, op),
        Clone => clone(e, fr, op),
        Dealloc => dealloc(e, fr, op),
        DeallocTensor => Ok(Flow::Next),
        MaterializeInDestination => materialize(e, fr, op),
    }
}

/// The tensor value of operand `i`.
fn tensor_arg(e: &Engine, fr: &Frame, op: OpId, i: usize) -> Result<Rc<Dense>> {
    match e.arg(fr, op, i)? {
        Value::Array(a) => Ok(a.clone()),
        _ => Err(Error::unverified(op, format!("operand #{i} is not a tensor"))),
    }
}

/// `to_tensor %m [restrict] [writable]`: a snapshot of the contents.
fn to_tensor(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let m = memref_arg(e, fr, op, 0)?;
    let arr = m.read_all(op, "bufferization.to_tensor")?;
    e.assign(fr, op, Value::Array(Rc::new(arr)))
}

/// How storage of memref type `ty` is laid out: static strides are kept; a
/// dynamic layout admits any strides, so the identity is one valid choice.
fn layout_of(e: &Engine, ty: TypeId) -> AllocLayout {
    let identity = match e.m.ctx.type_kind(ty) {
        TypeKind::MemRef { layout: None, .. } | TypeKind::UnrankedMemRef { .. } => true,
        TypeKind::MemRef { layout: Some(l), .. } => {
            matches!(e.m.ctx.attr_kind(*l), Attribute::AffineMap(m) if m.is_identity())
        }
        _ => true,
    };
    if identity {
        return AllocLayout::Identity;
    }
    match mlir_ir::layout::strides_and_offset(&e.m.ctx, ty) {
        Some((strides, offset)) if !strides.contains(&DYNAMIC) && offset != DYNAMIC => {
            AllocLayout::Strided { strides, offset }
        }
        _ => AllocLayout::Identity,
    }
}

/// The element type of a (ranked or unranked) memref result type.
fn memref_elem(op: OpId, ty: &TypeKind) -> Result<TypeId> {
    match ty {
        TypeKind::MemRef { elem, .. } | TypeKind::UnrankedMemRef { elem, .. } => Ok(*elem),
        _ => Err(Error::unverified(op, "result is not a memref")),
    }
}

/// New storage of type `ty` and `sizes`, owned by `kind`.
fn storage(e: &mut Engine, op: OpId, ty: TypeId, sizes: Vec<i64>, kind: AllocKind) -> Result<MemRef> {
    let elem_ty = memref_elem(op, e.m.ctx.type_kind(ty))?;
    let elem = elem_of(e, op, elem_ty)?;
    let layout = layout_of(e, ty);
    e.mem.alloc(op, elem, sizes, layout, kind, 0)
}

/// `to_buffer %t` / `to_memref %t`: fresh tensor-owned storage holding `%t`.
fn to_buffer(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let t = tensor_arg(e, fr, op, 0)?;
    let ty = e.result_type(op, 0);
    let elem_ty = memref_elem(op, e.m.ctx.type_kind(ty))?;
    let m = crate::operands::tensor_storage(e, op, elem_ty, layout_of(e, ty), &t, "bufferization.to_buffer")?;
    m.buf.borrow_mut().read_only =
        e.m.attr(op, "read_only").map(|_| "memory that bufferization.to_buffer marked read_only");
    e.assign(fr, op, Value::Memref(Rc::new(m)))
}

/// `alloc_tensor(%d..) [copy(%t)] [size_hint = %n]`: a tensor of the
/// result shape, a copy of `%t`, or poison elements (undefined contents).
fn alloc_tensor(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let seg = e.segments(op)?;
    let ndyn = seg.first().copied().unwrap_or(0);
    if seg.get(1).copied().unwrap_or(0) > 0 {
        let t = e.arg(fr, op, ndyn)?.clone();
        return e.assign(fr, op, t);
    }
    let shape = match e.m.ctx.type_kind(e.result_type(op, 0)) {
        TypeKind::RankedTensor { shape, .. } => shape.clone(),
        _ => return Err(Error::unverified(op, "alloc_tensor of a non-tensor type")),
    };
    let mut dyns = index_args(e, fr, op, 0..ndyn, "used as a tensor size")?.into_iter();
    let mut dims = Vec::with_capacity(shape.len());
    for d in shape {
        let n =
            if d == DYNAMIC { dyns.next().ok_or_else(|| Error::unverified(op, "missing dynamic size"))? } else { d };
        let n =
            usize::try_from(n).map_err(|_| Error::at(op, ErrorKind::Ub(format!("tensor with negative size {n}"))))?;
        dims.push(n);
    }
    let t = empty_tensor(e, op, &dims)?;
    e.assign(fr, op, t)
}

/// `clone %m`: a new heap allocation with the same contents.
fn clone(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let m = memref_arg(e, fr, op, 0)?;
    let arr = m.read_all(op, "bufferization.clone")?;
    let out = storage(e, op, e.result_type(op, 0), m.sizes.clone(), AllocKind::Heap)?;
    out.write_all(op, &arr, "bufferization.clone")?;
    e.assign(fr, op, Value::Memref(Rc::new(out)))
}

/// `dealloc (%m.. : ..) if (%c..) retain (%r.. : ..)`.
fn dealloc(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let seg = e.segments(op)?;
    let (nm, nc, nr) = (seg.first().copied().unwrap_or(0), seg.get(1).copied().unwrap_or(0), seg.get(2).copied());
    let nr = nr.unwrap_or(0);
    if nm != nc {
        return Err(Error::unverified(op, format!("{nm} memrefs with {nc} conditions")));
    }
    let args = e.args(fr, op);
    let mems = args[..nm].iter().map(|v| as_memref(op, v)).collect::<Result<Vec<_>>>()?;
    let mut conds = Vec::with_capacity(nc);
    for v in &args[nm..nm + nc] {
        e.observe(op, v, "used as a dealloc condition")?;
        conds.push(v.as_int().is_some_and(|i| i.is_nonzero()));
    }
    let retained = args[nm + nc..nm + nc + nr].iter().map(|v| as_memref(op, v)).collect::<Result<Vec<_>>>()?;
    let same = |a: &MemRef, b: &MemRef| Rc::ptr_eq(&a.buf, &b.buf);
    let results: Vec<Value> = retained
        .iter()
        .map(|r| Value::int(Int::bool(mems.iter().zip(&conds).any(|(m, c)| *c && same(m, r)))))
        .collect();
    let mut freed: Vec<&Rc<MemRef>> = Vec::new();
    for (m, c) in mems.iter().zip(&conds) {
        if !c || retained.iter().any(|r| same(m, r)) || freed.iter().any(|f| same(f, m)) {
            continue;
        }
        // The base of the allocation is freed, whichever view was listed.
        let base = MemRef { view: false, base: 0, ..(**m).clone() };
        e.mem.dealloc(op, &base)?;
        freed.push(m);
    }
    e.assign_all(fr, op, results)
}

/// `materialize_in_destination %src in [restrict] [writable] %dst`.
fn materialize(e: &Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let src = tensor_arg(e, fr, op, 0)?;
    match e.arg(fr, op, 1)? {
        Value::Memref(m) => {
            m.write_all(op, &src, "bufferization.materialize_in_destination")?;
            Ok(Flow::Next)
        }
        Value::Array(d) if d.shape() == src.shape() => e.assign(fr, op, Value::Array(src)),
        Value::Array(d) => Err(Error::at(
            op,
            ErrorKind::Ub(format!(
                "materialize_in_destination: source of shape {:?} into a destination of shape {:?}",
                src.shape(),
                d.shape()
            )),
        )),
        _ => Err(Error::unverified(op, "destination is not a tensor or memref")),
    }
}
