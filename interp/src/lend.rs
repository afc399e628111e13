//! The library caller's arrays as memref arguments, in place: an
//! `ndarray` view lent to [`Engine::invoke_lending_then`] becomes a memref on
//! the caller's own memory for the duration of the call (what the
//! program stores there, the caller sees), then is given back: a memref
//! the program kept (returned it, or stored it) is then use-after-free.
//! A read-only view's memory is read-only to the program (a store is
//! undefined behaviour). The view's shape and strides must fit the
//! function's memref parameter type (static sizes, static strides and
//! offset of its layout); no copy is ever made.

use crate::error::{Error, ErrorKind, Result};
use crate::exec::Engine;
use crate::memory::{Freed, Lane, MemRef, Storage};
use crate::operands::elem_of;
use crate::value::Value;
use crate::view::{reach, Element};
use mlir_ir::ir::OpId;
use mlir_ir::layout::strides_and_offset;
use mlir_ir::types::{TypeKind, DYNAMIC};
use ndarray::{ArrayViewD, ArrayViewMutD};
use std::marker::PhantomData;
use std::ptr::NonNull;
use std::rc::Rc;

/// A caller's `ndarray` array lent to a call as a memref argument, in
/// place: what the program stores there, the caller sees; no copy is made.
/// When the call returns the memory is given back, and a memref the
/// program kept on it is then use-after-free. A read-only loan's memory is
/// read-only to the program (a store is undefined behaviour). The array's
/// shape and strides must fit the parameter's memref type (its static
/// sizes, strides and offset), and its element type the memref's.
pub struct Lent<'a> {
    /// The lowest-address element.
    low: NonNull<u8>,
    /// Bytes from `low` to logical element 0.
    first: usize,
    /// Bytes from `low` past the highest-address element.
    span: usize,
    shape: Vec<usize>,
    /// Strides in elements.
    strides: Vec<isize>,
    size: usize,
    fits: fn(Lane) -> bool,
    type_name: &'static str,
    read_only: bool,
    _borrow: PhantomData<&'a mut [u8]>,
}

impl<'a> Lent<'a> {
    /// Lends `v` read-only.
    pub fn from_view<T: Element>(v: ArrayViewD<'a, T>) -> Lent<'a> {
        Lent::new::<T>(v.as_ptr() as *mut u8, v.shape(), v.strides(), true)
    }

    /// Lends `v` for reading and writing.
    pub fn from_view_mut<T: Element>(mut v: ArrayViewMutD<'a, T>) -> Lent<'a> {
        let (shape, strides) = (v.shape().to_vec(), v.strides().to_vec());
        Lent::new::<T>(v.as_mut_ptr() as *mut u8, &shape, &strides, false)
    }

    fn new<T: Element>(ptr: *mut u8, shape: &[usize], strides: &[isize], read_only: bool) -> Lent<'a> {
        let size = std::mem::size_of::<T>();
        // An ndarray view lies within one allocation, so its reach fits.
        let (below, above) = reach(shape, strides, size).unwrap_or((0, 0));
        let span = if shape.contains(&0) { 0 } else { below + above + size };
        // The view's elements all lie in its allocation, so stepping back
        // to the lowest one stays inside it.
        let low = NonNull::new(ptr.wrapping_sub(below)).unwrap_or(NonNull::dangling());
        Lent {
            low,
            first: below,
            span,
            shape: shape.to_vec(),
            strides: strides.to_vec(),
            size,
            // An array is lent in place only as a type whose every bit
            // pattern is valid (the engine may store any bits into it).
            fits: if T::IN_PLACE { T::fits } else { |_| false },
            type_name: std::any::type_name::<T>(),
            read_only,
            _borrow: PhantomData,
        }
    }
}

/// An argument of [`Engine::invoke_lending_then`].
pub enum Arg<'a> {
    /// A value as [`Engine::invoke`] takes it.
    Value(Value),
    /// An array lent as a memref argument.
    Array(Lent<'a>),
}

impl Engine<'_> {
    /// Calls the defined function `name` with `args`, lending arrays as
    /// memref arguments for the duration of the call.
    #[cfg(test)]
    pub(crate) fn invoke_lending(&mut self, name: &str, args: Vec<Arg<'_>>) -> Result<Vec<Value>> {
        self.invoke_lending_then(name, args, |_, vals| vals)
    }

    /// Calls the defined function `name` with `args`, lending arrays as
    /// memref arguments for the duration of the call, and hands the
    /// results to `then` before the arrays are given back (so a returned
    /// memref on one can still be read).
    pub(crate) fn invoke_lending_then<R>(
        &mut self,
        name: &str,
        args: Vec<Arg<'_>>,
        then: impl FnOnce(&Engine<'_>, Vec<Value>) -> R,
    ) -> Result<R> {
        let f = self
            .func_by_name(name)
            .ok_or_else(|| Error::global(ErrorKind::BadInput(format!("function not found: '{name}'"))))?;
        let (op, inputs) = (self.funcs[f.0 as usize].op, self.funcs[f.0 as usize].inputs.clone());
        let mut lent = Vec::new();
        let mut vals = Vec::with_capacity(args.len());
        for (i, a) in args.into_iter().enumerate() {
            match a {
                Arg::Value(v) => vals.push(v),
                Arg::Array(l) => {
                    let no_param = || {
                        Error::at(
                            op,
                            ErrorKind::BadArgument(format!("argument #{i} of '{name}': there is no such parameter")),
                        )
                    };
                    let ty = *inputs.get(i).ok_or_else(no_param)?;
                    let m = self.lend(op, name, i, ty, l)?;
                    lent.push(m.buf.clone());
                    vals.push(Value::Memref(Rc::new(m)));
                }
            }
        }
        let r = self.invoke(name, vals).map(|v| then(self, v));
        for b in lent {
            let mut b = b.borrow_mut();
            b.freed = Some(Freed::Returned);
            b.data = Storage::empty();
        }
        r
    }

    /// The memref of parameter `i` of `name` (of type `ty`) on the lent
    /// array `l`.
    fn lend(&mut self, op: OpId, name: &str, i: usize, ty: mlir_ir::types::TypeId, l: Lent<'_>) -> Result<MemRef> {
        let ctx = &self.m.ctx;
        let tname = mlir_ir::printer::type_to_string(ctx, ty);
        // Named as the library's checks of other arguments name them.
        let lend_error =
            |msg: String| Error::at(op, ErrorKind::BadArgument(format!("argument #{i} of '{name}' ({tname}): {msg}")));
        let TypeKind::MemRef { shape, elem, .. } = ctx.type_kind(ty) else {
            return Err(lend_error("an array is lent only as a memref".into()));
        };
        let elem = elem_of(self, op, *elem)?;
        if !elem.vshape.is_empty() || !(l.fits)(elem.lane) || elem.lane.bytes() != l.size {
            return Err(lend_error(format!("an array of {} does not fit", l.type_name)));
        }
        let (strides, offset) =
            strides_and_offset(ctx, ty).ok_or_else(|| lend_error("the type has no strided layout".into()))?;
        let first = (l.first / l.size) as i64;
        let fits_shape = shape.len() == l.shape.len()
            && shape.iter().zip(&l.shape).all(|(d, n)| *d == DYNAMIC || *d == *n as i64)
            && strides
                .iter()
                .zip(&l.strides)
                .zip(&l.shape)
                .all(|((s, t), n)| *s == DYNAMIC || *n <= 1 || *s == *t as i64)
            && (offset == DYNAMIC || offset == first);
        if !fits_shape {
            return Err(lend_error(format!(
                "an array of shape {:?} and strides {:?} does not fit",
                l.shape, l.strides
            )));
        }
        // SAFETY: `l` borrows the caller's array for the lifetime `'a`,
        // which outlasts this call; its elements lie in `low..low + span`
        // (the view's own bounds); the storage is replaced by an empty one
        // when the call returns, before the borrow ends.
        let storage = unsafe { Storage::lent(l.low, l.span) };
        let read_only = l.read_only.then_some("an array lent read-only by the caller");
        let buf = self.mem.lent_buffer(op, storage, read_only);
        Ok(MemRef {
            buf,
            elem: Rc::new(elem),
            base: 0,
            offset: first,
            sizes: l.shape.iter().map(|n| *n as i64).collect(),
            strides: l.strides.iter().map(|s| *s as i64).collect(),
            map: None,
            view: true,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::ViewError;
    use mlir_ir::diag::Source;

    /// A memref the program returns on a lent array is given back with the
    /// call: using it afterwards is use after free.
    #[test]
    fn a_kept_lent_memref_is_given_back() {
        let text = "func.func @id(%m: memref<2xf32>) -> memref<2xf32> {\n  return %m : memref<2xf32>\n}";
        let src = Source::new("t.mlir", text);
        let m = mlir_ir::parse_and_verify(&src).expect("valid");
        let mut e = Engine::load(&m, crate::exec::Config::default(), Box::new(std::io::sink())).expect("load");
        let mut a = ndarray::Array1::<f32>::zeros(2);
        let out = e.invoke_lending("id", vec![Arg::Array(Lent::from_view_mut(a.view_mut().into_dyn()))]).expect("call");
        let Value::Memref(kept) = &out[0] else { panic!("{out:?}") };
        assert!(matches!(kept.with_view::<f32, _>(|_| ()), Err(ViewError::Freed(_))));
        let err = kept.load(OpId(0), &[0], "test").unwrap_err();
        assert!(err.kind.to_string().contains("lent by the caller"), "{err:?}");
    }
}
