//! Sizes, alignments and field offsets of types as LLVM lays them out in
//! memory when mlir-runner runs a module without an `llvm.data_layout`
//! attribute: LLVM's *default* data layout (the module keeps an empty layout
//! string; 64-bit pointers on x86-64). This is what `llvm.getelementptr`
//! offsets and `llvm.mlir.global` initializers are computed from.
//!
//! Rules (LLVM's `DataLayout` defaults `i1:8 i8:8 i16:16 i32:32 i64:32:64
//! f16:16 f32:32 f64:64 f128:128 v64:64 v128:128`): an integer takes the
//! alignment of the smallest listed integer at least as wide, and of the
//! widest listed one (i64, 4 bytes) beyond, so `i64` and `i128` fields are
//! 4-byte aligned in structs (measured with mlir-runner 22: the field of
//! `struct<(i8, i64)>` is at offset 4, the struct 12 bytes). A type's
//! allocation size is its store size (whole bytes) rounded up to its
//! alignment. Pointers are 8 bytes, f80 takes 16 bytes aligned to 16.
//! Arrays are their element's allocation size times the length. A struct
//! places each field at the next multiple of its alignment (1 when
//! `packed`) and is padded to its own alignment, the largest of its
//! fields'. Vectors are aligned to their size rounded up to a power of two.

use crate::attrs::Attribute;
use crate::ir::{Context, Module};
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
        // i32, and i64 (ABI alignment 32 bits) for everything wider.
        _ => 4,
    }
}

fn round_up(x: u64, a: u64) -> Option<u64> {
    x.checked_add(a - 1).map(|v| v / a * a)
}

fn scalar(store: u64, align: u64) -> Result<Layout, LayoutError> {
    let alloc = round_up(store, align).ok_or("type size overflows")?;
    Ok(Layout { store, alloc, align })
}

/// The attribute by which `m` sets a data layout of its own, if it does:
/// only LLVM's default layout is modelled (mlir-runner would follow it).
pub fn custom_layout(m: &Module) -> Option<&'static str> {
    let top = m.top?;
    ["llvm.data_layout", "dlti.dl_spec"].into_iter().find(|name| match m.attr(top, name).map(|a| m.ctx.attr_kind(a)) {
        None => false,
        Some(Attribute::String { value, .. }) => !value.is_empty(),
        Some(_) => true,
    })
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

/// The preferred alignment of `ty` (`DataLayout::getPrefTypeAlign`): what
/// LLVM gives an `alloca` that names no alignment, since MLIR's translation
/// leaves it to `IRBuilder::CreateAlloca`. It is the ABI alignment except
/// for integers wider than 32 bits (i64's preferred 64 bits, which wider
/// ones take too), structs (at least the default `a:0:64` preference, 8
/// bytes, packed ones too) and arrays (their element's). Checked against
/// `mlir-translate --mlir-to-llvmir` of LLVM 22: `alloca i64` is `align 8`,
/// `alloca { i8, i8 }` is `align 8`, `alloca i8` is `align 1`.
pub fn pref_align(ctx: &Context, ty: TypeId, index_bits: u32) -> Result<u64, LayoutError> {
    match ctx.type_kind(ty) {
        TypeKind::Integer { width, .. } if *width > 32 => Ok(8),
        TypeKind::Index if index_bits > 32 => Ok(8),
        TypeKind::LlvmArray { elem, .. } => pref_align(ctx, *elem, index_bits),
        TypeKind::LlvmStruct { .. } => Ok(layout(ctx, ty, index_bits)?.align.max(8)),
        _ => Ok(layout(ctx, ty, index_bits)?.align),
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
    fn default_layout_sizes() {
        let mut ctx = Context::default();
        let i = |ctx: &mut Context, w| ctx.ty(TypeKind::Integer { width: w, signedness: Signedness::Signless });
        let i8t = i(&mut ctx, 8);
        let i17 = i(&mut ctx, 17);
        let i32t = i(&mut ctx, 32);
        let i200 = i(&mut ctx, 200);
        let f80 = ctx.ty(TypeKind::Float(FloatKind::F80));
        let ptr = ctx.ty(TypeKind::LlvmPtr(0));
        assert_eq!(layout(&ctx, i17, 64).unwrap(), Layout { store: 3, alloc: 4, align: 4 });
        assert_eq!(layout(&ctx, i200, 64).unwrap(), Layout { store: 25, alloc: 28, align: 4 });
        assert_eq!(layout(&ctx, f80, 64).unwrap(), Layout { store: 10, alloc: 16, align: 16 });
        let s = ctx.ty(TypeKind::LlvmStruct {
            name: None,
            packed: false,
            body: LlvmStructBody::Fields(vec![i8t, i32t, ptr, i8t]),
        });
        assert_eq!(layout(&ctx, s, 64).unwrap(), Layout { store: 24, alloc: 24, align: 8 });
        let i64t = i(&mut ctx, 64);
        let s64 =
            ctx.ty(TypeKind::LlvmStruct { name: None, packed: false, body: LlvmStructBody::Fields(vec![i8t, i64t]) });
        assert_eq!(struct_layout(&ctx, &[i8t, i64t], false, 64).unwrap(), (vec![0, 4], 12, 4));
        assert_eq!(layout(&ctx, s64, 64).unwrap().alloc, 12);
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
