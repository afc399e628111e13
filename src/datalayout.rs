//! Sizes, alignments and field offsets of types as LLVM lays them out in
//! memory on x86-64 (`e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128`),
//! the target mlir-runner executes on: what `llvm.getelementptr` offsets and
//! `llvm.mlir.global` initializers are computed from.
//!
//! Rules (LLVM's `DataLayout`): an integer's alignment is that of the
//! smallest of i8/i16/i32/i64/i128 at least as wide (the widest, i128 at 16
//! bytes, beyond); its allocation size is its store size (whole bytes)
//! rounded up to that alignment. Pointers are 8 bytes. Arrays are their
//! element's allocation size times the length. A struct places each field at
//! the next multiple of its alignment (1 when `packed`) and is padded to its
//! own alignment, the largest of its fields'. Vectors are aligned to their
//! size rounded up to a power of two.

use crate::ir::Context;
use crate::types::{FloatKind, LlvmStructBody, TypeId, TypeKind};

/// Size and alignment of a type in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Bytes a load or store of the type touches (`getTypeStoreSize`).
    pub store: u64,
    /// Bytes between consecutive array elements (`getTypeAllocSize`).
    pub alloc: u64,
    /// ABI alignment.
    pub align: u64,
}

/// Why a type has no layout: a message naming it.
pub type LayoutError = String;

fn int_align(bits: u64) -> u64 {
    match bits {
        0..=8 => 1,
        9..=16 => 2,
        17..=32 => 4,
        33..=64 => 8,
        _ => 16,
    }
}

fn round_up(x: u64, a: u64) -> Option<u64> {
    x.checked_add(a - 1).map(|v| v / a * a)
}

fn scalar(store: u64, align: u64) -> Result<Layout, LayoutError> {
    let alloc = round_up(store, align).ok_or("type size overflows")?;
    Ok(Layout { store, alloc, align })
}

/// The layout of `ty` with `index` of `index_bits` bits.
pub fn layout(ctx: &Context, ty: TypeId, index_bits: u32) -> Result<Layout, LayoutError> {
    let name = || crate::printer::type_to_string(ctx, ty);
    match ctx.type_kind(ty) {
        TypeKind::Integer { width, .. } => {
            let w = u64::from(*width);
            scalar(w.div_ceil(8), int_align(w))
        }
        TypeKind::Index => {
            let w = u64::from(index_bits);
            scalar(w.div_ceil(8), int_align(w))
        }
        TypeKind::Float(k) => match k {
            FloatKind::F80 => scalar(10, 16),
            FloatKind::F128 => scalar(16, 16),
            // tf32 is stored as f32 by the LLVM lowering.
            FloatKind::TF32 => scalar(4, 4),
            k => {
                let b = u64::from(k.bit_width()).div_ceil(8);
                scalar(b, b)
            }
        },
        TypeKind::LlvmPtr(_) => scalar(8, 8),
        TypeKind::LlvmArray { len, elem } => {
            let e = layout(ctx, *elem, index_bits)?;
            let size = e.alloc.checked_mul(*len).ok_or_else(|| format!("the size of {} overflows", name()))?;
            Ok(Layout { store: size, alloc: size, align: e.align })
        }
        TypeKind::LlvmStruct { packed, body: LlvmStructBody::Fields(fs), .. } => {
            let (offsets, size, align) = struct_layout(ctx, fs, *packed, index_bits)?;
            let _ = offsets;
            Ok(Layout { store: size, alloc: size, align })
        }
        TypeKind::Vector { shape, elem, scalable } if !scalable.iter().any(|s| *s) => {
            let e = layout(ctx, *elem, index_bits)?;
            let n = shape.iter().try_fold(1u64, |acc, d| acc.checked_mul(u64::try_from(*d).ok()?));
            // Vector lanes are packed bits: <4 x i1> is one byte.
            let bits = match ctx.type_kind(*elem) {
                TypeKind::Integer { width, .. } => u64::from(*width),
                TypeKind::Index => u64::from(index_bits),
                TypeKind::Float(FloatKind::F80) => 80,
                TypeKind::Float(k) => u64::from(k.bit_width()),
                _ => e.store.saturating_mul(8),
            };
            let total =
                n.and_then(|n| n.checked_mul(bits)).ok_or_else(|| format!("the size of {} overflows", name()))?;
            let store = total.div_ceil(8);
            let align = store.max(1).checked_next_power_of_two().ok_or_else(|| format!("{} is too large", name()))?;
            scalar(store, align)
        }
        _ => Err(format!("no memory layout for {}", name())),
    }
}

/// Field offsets, size and alignment of a struct with `fields`.
pub fn struct_layout(
    ctx: &Context,
    fields: &[TypeId],
    packed: bool,
    index_bits: u32,
) -> Result<(Vec<u64>, u64, u64), LayoutError> {
    let mut offsets = Vec::with_capacity(fields.len());
    let mut at = 0u64;
    let mut align = 1u64;
    for f in fields {
        let l = layout(ctx, *f, index_bits)?;
        let a = if packed { 1 } else { l.align };
        at = round_up(at, a).ok_or("struct size overflows")?;
        offsets.push(at);
        at = at.checked_add(l.alloc).ok_or("struct size overflows")?;
        align = align.max(a);
    }
    let size = round_up(at, align).ok_or("struct size overflows")?;
    Ok((offsets, size, align))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Signedness;

    #[test]
    fn x86_64_sizes() {
        let mut ctx = Context::default();
        let i = |ctx: &mut Context, w| ctx.ty(TypeKind::Integer { width: w, signedness: Signedness::Signless });
        let i8t = i(&mut ctx, 8);
        let i17 = i(&mut ctx, 17);
        let i32t = i(&mut ctx, 32);
        let i200 = i(&mut ctx, 200);
        let f80 = ctx.ty(TypeKind::Float(FloatKind::F80));
        let ptr = ctx.ty(TypeKind::LlvmPtr(0));
        assert_eq!(layout(&ctx, i17, 64).unwrap(), Layout { store: 3, alloc: 4, align: 4 });
        assert_eq!(layout(&ctx, i200, 64).unwrap(), Layout { store: 25, alloc: 32, align: 16 });
        assert_eq!(layout(&ctx, f80, 64).unwrap(), Layout { store: 10, alloc: 16, align: 16 });
        let s = ctx.ty(TypeKind::LlvmStruct {
            name: None,
            packed: false,
            body: LlvmStructBody::Fields(vec![i8t, i32t, ptr, i8t]),
        });
        assert_eq!(layout(&ctx, s, 64).unwrap(), Layout { store: 24, alloc: 24, align: 8 });
        let p = ctx.ty(TypeKind::LlvmStruct {
            name: None,
            packed: true,
            body: LlvmStructBody::Fields(vec![i8t, i32t, ptr, i8t]),
        });
        assert_eq!(layout(&ctx, p, 64).unwrap(), Layout { store: 14, alloc: 14, align: 1 });
        let a = ctx.ty(TypeKind::LlvmArray { len: 3, elem: i17 });
        assert_eq!(layout(&ctx, a, 64).unwrap().alloc, 12);
    }
}
