//! Variadic arguments: `llvm.intr.vastart`, `llvm.va_arg`,
//! `llvm.intr.vacopy` and `llvm.intr.vaend`.
//!
//! A `va_list` is modelled as the simplest ABI has it (a `char *`, as on
//! i386 or Apple's arm64): the list's memory holds one pointer to the next
//! argument. `vastart` lays the call's extra arguments out in an area of
//! their own, each at its type's store layout in a slot of a multiple of 8
//! bytes aligned to at least 8, and stores a pointer to the first; `va_arg`
//! reads a value of its type from the next slot and advances the pointer;
//! `vacopy` copies the pointer; `vaend` stores poison in the list, so a
//! later `va_arg` through it is reported. x86-64's 24-byte `va_list` (a
//! register save area, then the stack) yields the same values whenever
//! `va_arg` reads the types that were passed; reading another type is not
//! defined by LangRef and differs between targets, and here reads the
//! slot's bytes. The area lives until the variadic function returns;
//! `va_arg` through a list that outlives it is undefined behaviour
//! (reported as a pointer into no allocation, the area being gone).

use super::common::layout;
use super::mem;
use crate::error::{Error, ErrorKind, Result};
use crate::exec::{Engine, Flow, Frame};
use crate::memory::{AllocKind, Ptr};
use crate::value::Value;
use mlir_ir::ir::OpId;
use mlir_ir::types::TypeId;

/// Every slot is aligned to at least this and is a multiple of it long.
const SLOT: u64 = 8;

/// The offset of the slot of a `ty` at or after byte `at`, and the byte
/// just past it.
fn slot(e: &Engine, op: OpId, ty: TypeId, at: u64) -> Result<(u64, u64)> {
    let l = layout(e, op, ty)?;
    let align = l.align.max(SLOT);
    let too_big = || Error::at(op, ErrorKind::Resource("variadic arguments this large".into()));
    let start = at.checked_next_multiple_of(align).ok_or_else(too_big)?;
    let end = l.alloc.checked_next_multiple_of(SLOT).and_then(|n| start.checked_add(n)).ok_or_else(too_big)?;
    Ok((start, end))
}

/// The type of operand `i` of `op` (a pointer, the verifier has checked).
fn ptr_type(e: &Engine, op: OpId, i: usize) -> Result<TypeId> {
    e.operand_type(op, i).ok_or_else(|| Error::unverified(op, "missing va_list operand"))
}

/// `llvm.intr.vastart %list`: points the list at the first extra argument
/// of the running call (laid out at the first `vastart` of the call).
pub(super) fn start(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let list = e.arg(fr, op, 0)?.clone();
    let pty = ptr_type(e, op, 0)?;
    // The verifier has rejected a vastart outside a variadic function.
    let Some(va) = e.va_args() else { return Err(Error::unverified(op, "vastart outside a variadic call")) };
    let area = match &va.area {
        Some(a) => a.clone(),
        None => {
            let args = std::mem::take(&mut va.args);
            let area = lay_out(e, op, &args)?;
            if let Some(va) = e.va_args() {
                va.area = Some(area.clone());
            }
            area
        }
    };
    mem::store_typed(e, op, &list, pty, &area, "llvm.intr.vastart")?;
    Ok(Flow::Next)
}

/// A new area holding `args` in their slots: a pointer to its start.
fn lay_out(e: &mut Engine, op: OpId, args: &[(TypeId, Value)]) -> Result<Value> {
    let mut at = 0;
    let mut slots = Vec::with_capacity(args.len());
    for (ty, _) in args {
        let (start, end) = slot(e, op, *ty, at)?;
        slots.push(start);
        at = end;
    }
    let bytes = usize::try_from(at).map_err(|_| Error::at(op, ErrorKind::Resource("variadic arguments".into())))?;
    let buf = e.mem.new_buffer_exact(op, bytes, AllocKind::Alloca, 16)?;
    {
        let mut b = buf.borrow_mut();
        for ((ty, v), start) in args.iter().zip(slots) {
            // In range: the slots were sized from these types.
            mem::write(e, op, &mut b, start as usize, *ty, v)?;
        }
    }
    Ok(Value::Ptr(Ptr { buf: Some(buf), offset: 0 }))
}

/// `llvm.va_arg %list : (!llvm.ptr) -> T`: the next argument, read as a
/// `T`; the list moves past its slot.
pub(super) fn arg(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let list = e.arg(fr, op, 0)?.clone();
    let pty = ptr_type(e, op, 0)?;
    let ty = e.result_type(op, 0);
    let next = mem::load_typed(e, op, &list, pty, "llvm.va_arg")?;
    let Value::Ptr(p) = &next else {
        // Poison: a list no `vastart` initialized, or one `vaend` ended.
        let v = mem::load_typed(e, op, &next, ty, "llvm.va_arg")?;
        return e.assign(fr, op, v);
    };
    let at = u64::try_from(p.offset).unwrap_or(u64::MAX);
    let (start, end) = slot(e, op, ty, at)?;
    let offset =
        |x: u64| i64::try_from(x).map_err(|_| Error::at(op, ErrorKind::Ub("llvm.va_arg past any argument".into())));
    let here = Value::Ptr(Ptr { buf: p.buf.clone(), offset: offset(start)? });
    let v = mem::load_typed(e, op, &here, ty, "llvm.va_arg")?;
    let after = Value::Ptr(Ptr { buf: p.buf.clone(), offset: offset(end)? });
    mem::store_typed(e, op, &list, pty, &after, "llvm.va_arg")?;
    e.assign(fr, op, v)
}

/// `llvm.intr.vacopy %src to %dst`: `dst` continues where `src` is.
pub(super) fn copy(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let (dst, src) = (e.arg(fr, op, 0)?.clone(), e.arg(fr, op, 1)?.clone());
    let (dty, sty) = (ptr_type(e, op, 0)?, ptr_type(e, op, 1)?);
    let next = mem::load_typed(e, op, &src, sty, "llvm.intr.vacopy")?;
    mem::store_typed(e, op, &dst, dty, &next, "llvm.intr.vacopy")?;
    Ok(Flow::Next)
}

/// `llvm.intr.vaend %list`: the list may not be used again (before another
/// `vastart` or `vacopy`), so it is made poison.
pub(super) fn end(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let list = e.arg(fr, op, 0)?.clone();
    let pty = ptr_type(e, op, 0)?;
    mem::store_typed(e, op, &list, pty, &Value::poison(op), "llvm.intr.vaend")?;
    Ok(Flow::Next)
}
