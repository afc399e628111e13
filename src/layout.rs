//! Strided memref layouts: the strides and offset a memref type implies
//! (identity, `strided<..>`, or an affine map that is a linear form), as
//! `StridedLayoutAttr` and MLIR's `getStridesAndOffset` describe them.

use crate::affine::AffineExpr;
use crate::attrs::Attribute;
use crate::ir::Context;
use crate::types::{TypeId, TypeKind, DYNAMIC};

/// Row-major strides of `shape`: the last dimension has stride 1; a stride
/// is [`DYNAMIC`] once a later size is dynamic (or the product overflows).
pub fn canonical_strides(shape: &[i64]) -> Vec<i64> {
    let mut strides = vec![0; shape.len()];
    let mut running = 1i64;
    for i in (0..shape.len()).rev() {
        strides[i] = running;
        running = if running == DYNAMIC || shape[i] == DYNAMIC {
            DYNAMIC
        } else {
            running.checked_mul(shape[i]).unwrap_or(DYNAMIC)
        };
    }
    strides
}

/// The strides and offset of a ranked memref type, or `None` when its
/// layout is an affine map that is not a linear form of the dims.
pub fn strides_and_offset(ctx: &Context, t: TypeId) -> Option<(Vec<i64>, i64)> {
    let TypeKind::MemRef { shape, layout, .. } = ctx.type_kind(t) else { return None };
    let Some(l) = layout else { return Some((canonical_strides(shape), 0)) };
    match ctx.attr_kind(*l) {
        Attribute::Strided { strides, offset } => Some((strides.clone(), *offset)),
        Attribute::AffineMap(m) if m.num_syms == 0 && m.results.len() == 1 => {
            let mut strides = vec![0i64; m.num_dims as usize];
            let mut offset = 0i64;
            linear_terms(&m.results[0], &mut strides, &mut offset)?;
            Some((strides, offset))
        }
        Attribute::AffineMap(m) if m.is_identity() => Some((canonical_strides(shape), 0)),
        _ => None,
    }
}

/// Accumulates `e` as `sum(strides[i] * d_i) + offset`; `None` if it is not
/// such a form (mod, floordiv, products of dims, overflow).
fn linear_terms(e: &AffineExpr, strides: &mut [i64], offset: &mut i64) -> Option<()> {
    match e {
        AffineExpr::Const(c) => *offset = offset.checked_add(*c)?,
        AffineExpr::Dim(i) => {
            let s = strides.get_mut(*i as usize)?;
            *s = s.checked_add(1)?;
        }
        AffineExpr::Add(a, b) => {
            linear_terms(a, strides, offset)?;
            linear_terms(b, strides, offset)?;
        }
        AffineExpr::Mul(a, b) => {
            let (d, c) = match (&**a, &**b) {
                (AffineExpr::Dim(d), AffineExpr::Const(c)) | (AffineExpr::Const(c), AffineExpr::Dim(d)) => (*d, *c),
                (AffineExpr::Const(x), AffineExpr::Const(y)) => {
                    *offset = offset.checked_add(x.checked_mul(*y)?)?;
                    return Some(());
                }
                _ => return None,
            };
            let s = strides.get_mut(d as usize)?;
            *s = s.checked_add(c)?;
        }
        _ => return None,
    }
    Some(())
}

/// `a * b` and `a + b` on static-or-[`DYNAMIC`] values. As MLIR's
/// `SaturatedInteger`, zero times anything is zero, even a dynamic value
/// (`subview %m[0, 0]` of `memref<?x?xf32>` has a static offset 0).
pub fn dyn_mul(a: i64, b: i64) -> i64 {
    if a == 0 || b == 0 {
        return 0;
    }
    if a == DYNAMIC || b == DYNAMIC {
        return DYNAMIC;
    }
    a.checked_mul(b).unwrap_or(DYNAMIC)
}

/// See [`dyn_mul`].
pub fn dyn_add(a: i64, b: i64) -> i64 {
    if a == DYNAMIC || b == DYNAMIC {
        return DYNAMIC;
    }
    a.checked_add(b).unwrap_or(DYNAMIC)
}

/// Which dims of `sizes` a rank-reduced `reduced` shape keeps, matching
/// greedily from the left and dropping unit dims, as MLIR's
/// `computeRankReductionMask` does; `None` when it cannot be reduced.
pub fn rank_reduction(sizes: &[i64], reduced: &[i64]) -> Option<Vec<usize>> {
    let mut kept = Vec::new();
    let mut j = 0;
    for (i, s) in sizes.iter().enumerate() {
        if j < reduced.len() && reduced[j] == *s {
            kept.push(i);
            j += 1;
        } else if *s != 1 {
            return None;
        }
    }
    (j == reduced.len()).then_some(kept)
}

/// Which dims a rank-reducing `memref.subview` keeps, decided as MLIR's
/// `computeMemRefRankReductionMask` decides it from the types: `sizes` and
/// `strides` are the static sizes and inferred strides of the unreduced
/// result ([`crate::types::DYNAMIC`] where not static), `reduced_strides`
/// the result type's. Unit dims are the candidates; when there are more of
/// them than dims dropped, a unit dim is dropped only while its stride
/// occurs more often in `strides` than in `reduced_strides` (so the result's
/// strides say which of several unit dims remain). `None` when no choice
/// fits.
pub fn memref_rank_reduction(sizes: &[i64], strides: &[i64], reduced_strides: &[i64]) -> Option<Vec<usize>> {
    let rank = sizes.len();
    let reduced = reduced_strides.len();
    let mut unused: Vec<bool> = sizes.iter().map(|s| *s == 1 && rank != reduced).collect();
    let count = |u: &[bool]| u.iter().filter(|x| **x).count();
    if count(&unused) + reduced != rank {
        let occurrences = |v: &[i64]| {
            let mut m = std::collections::BTreeMap::<i64, usize>::new();
            for s in v {
                *m.entry(*s).or_default() += 1;
            }
            m
        };
        let mut unaccounted = occurrences(strides);
        let candidate = occurrences(reduced_strides);
        for d in 0..rank {
            if !unused[d] {
                continue;
            }
            let s = strides[d];
            let (have, want) = (unaccounted.get(&s).copied().unwrap_or(0), candidate.get(&s).copied().unwrap_or(0));
            match have.cmp(&want) {
                std::cmp::Ordering::Greater => *unaccounted.entry(s).or_default() -= 1,
                std::cmp::Ordering::Equal => unused[d] = false,
                std::cmp::Ordering::Less => return None,
            }
        }
    }
    (count(&unused) + reduced == rank).then(|| (0..rank).filter(|d| !unused[*d]).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The subviews of the differential-fuzzing report: `[1, 2] [1, 1] [1, 1]`
    /// of `memref<2x3xi64>` (inferred strides [3, 1]) to `memref<1xi64,
    /// strided<[1], offset: 5>>` drops dim 0, not dim 1; with result stride
    /// 3 it drops dim 1.
    #[test]
    fn memref_rank_reduction_follows_the_strides() {
        assert_eq!(memref_rank_reduction(&[1, 1], &[3, 1], &[1]), Some(vec![1]));
        assert_eq!(memref_rank_reduction(&[1, 1], &[3, 1], &[3]), Some(vec![0]));
        assert_eq!(memref_rank_reduction(&[1, 4], &[4, 1], &[1]), Some(vec![1]));
        assert_eq!(memref_rank_reduction(&[1, 1, 1], &[1, 1, 1], &[1]), Some(vec![2]));
        assert_eq!(memref_rank_reduction(&[1, 1], &[3, 1], &[7]), None);
        assert_eq!(memref_rank_reduction(&[2, 4], &[4, 1], &[4, 1]), Some(vec![0, 1]));
    }

    #[test]
    fn row_major_strides() {
        assert_eq!(canonical_strides(&[4, 8, 2]), vec![16, 2, 1]);
        assert_eq!(canonical_strides(&[DYNAMIC, 8]), vec![8, 1]);
        assert_eq!(canonical_strides(&[4, DYNAMIC, 2]), vec![DYNAMIC, 2, 1]);
    }

    #[test]
    fn rank_reduction_drops_unit_dims() {
        assert_eq!(rank_reduction(&[1, 4], &[4]), Some(vec![1]));
        assert_eq!(rank_reduction(&[4, 1, 4], &[4, 4]), Some(vec![0, 2]));
        assert_eq!(rank_reduction(&[1, 1], &[]), Some(vec![]));
        assert_eq!(rank_reduction(&[2, 4], &[4]), None);
    }
}

/// A coefficient of a strided layout's affine form: a constant or a symbol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coef {
    /// A static stride or offset.
    Const(i64),
    /// Symbol `s<k>`: a dynamic stride or offset.
    Sym(u32),
}

/// What MLIR's `canonicalizeStridedLayout` makes of a strided layout of a
/// memref of `shape`, kept so that two such types compare as MLIR compares
/// the canonicalized types (layout attributes compared as attributes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Canonical {
    /// No layout: the layout was the row-major one of the shape.
    Identity,
    /// The strided layout itself, left as it is (a 1-D unit stride, or a
    /// rank-0 layout with an offset): MLIR returns such types unchanged.
    Strided(Vec<i64>, i64),
    /// An affine-map layout `offset + sum(d_i * strides[i])` with `syms`
    /// symbols, simplified.
    Map {
        /// Symbols the map declares.
        syms: u32,
        /// Each dim's coefficient.
        strides: Vec<Coef>,
        /// The constant or symbolic offset.
        offset: Coef,
    },
}

/// The canonical form (see [`Canonical`]) of the layout `strided<strides,
/// offset>` ([`DYNAMIC`] entries are symbols, the offset's first) on a
/// memref of `shape`.
pub fn canonical_strided(shape: &[i64], strides: &[i64], offset: i64) -> Canonical {
    if shape.is_empty() {
        return if offset == 0 { Canonical::Identity } else { Canonical::Strided(vec![], offset) };
    }
    // The map (d0) -> (d0) is MLIR's identity map: the type stays as it is.
    if strides == [1] && offset == 0 {
        return Canonical::Strided(strides.to_vec(), offset);
    }
    let mut syms = 0u32;
    let mut next = || {
        syms += 1;
        Coef::Sym(syms - 1)
    };
    let offset = if offset == DYNAMIC { next() } else { Coef::Const(offset) };
    let strides: Vec<Coef> = strides.iter().map(|s| if *s == DYNAMIC { next() } else { Coef::Const(*s) }).collect();
    // MLIR's canonical expression: row-major constants from the innermost
    // dim until a dynamic size, then symbols numbered outwards.
    let mut canonical = vec![Coef::Const(0); shape.len()];
    let (mut running, mut sym) = (Some(1i64), 0u32);
    for i in (0..shape.len()).rev() {
        canonical[i] = match running {
            Some(r) => Coef::Const(r),
            None => {
                sym += 1;
                Coef::Sym(sym - 1)
            }
        };
        running = running.and_then(|r| if shape[i] == DYNAMIC { None } else { r.checked_mul(shape[i]) });
    }
    if offset == Coef::Const(0) && strides == canonical {
        return Canonical::Identity;
    }
    Canonical::Map { syms, strides, offset }
}

/// The canonical form of memref type `t`'s layout, or `None` for a layout
/// this module cannot put in that form (an affine map with symbols, or
/// one that is not a linear form).
pub fn canonical_layout(ctx: &Context, t: TypeId) -> Option<Canonical> {
    let TypeKind::MemRef { shape, layout, .. } = ctx.type_kind(t) else { return None };
    let Some(l) = layout else { return Some(Canonical::Identity) };
    match ctx.attr_kind(*l) {
        Attribute::Strided { strides, offset } => Some(canonical_strided(shape, strides, *offset)),
        Attribute::AffineMap(m) if m.is_identity() => Some(Canonical::Identity),
        Attribute::AffineMap(m) if m.num_syms == 0 && m.results.len() == 1 && !shape.is_empty() => {
            let (strides, offset) = strides_and_offset(ctx, t)?;
            Some(match canonical_strided(shape, &strides, offset) {
                Canonical::Strided(..) => return None,
                c => c,
            })
        }
        _ => None,
    }
}

/// How MLIR prints the layout of a [`Canonical::Map`]:
/// `affine_map<(d0, d1)[s0] -> (d0 * s0 + d1)>`. A symbolic stride makes
/// the form semi-affine, which keeps the order of construction (a symbolic
/// offset after the first term); otherwise dims come first, then the
/// offset.
pub fn canonical_map_text(syms: u32, strides: &[Coef], offset: Coef) -> String {
    let term = |i: usize, c: Coef| match c {
        Coef::Const(1) => format!("d{i}"),
        Coef::Const(-1) => format!("-d{i}"),
        Coef::Const(c) => format!("d{i} * {c}"),
        Coef::Sym(k) => format!("d{i} * s{k}"),
    };
    let mut items: Vec<String> =
        strides.iter().enumerate().filter(|(_, c)| **c != Coef::Const(0)).map(|(i, c)| term(i, *c)).collect();
    let semi = strides.iter().any(|c| matches!(c, Coef::Sym(_)));
    match offset {
        Coef::Sym(k) if semi && !items.is_empty() => items.insert(1, format!("s{k}")),
        Coef::Sym(k) => items.push(format!("s{k}")),
        Coef::Const(0) => {}
        Coef::Const(c) => items.push(c.to_string()),
    }
    let mut expr = String::new();
    for (n, it) in items.iter().enumerate() {
        if n == 0 {
            expr.push_str(it);
        } else if let Some(neg) = it.strip_prefix('-') {
            expr.push_str(" - ");
            expr.push_str(neg);
        } else if let Some((d, c)) = it.split_once(" * -") {
            expr.push_str(&format!(" - {d} * {c}"));
        } else {
            expr.push_str(" + ");
            expr.push_str(it);
        }
    }
    if expr.is_empty() {
        expr.push('0');
    }
    let dims: Vec<String> = (0..strides.len()).map(|i| format!("d{i}")).collect();
    let syms: Vec<String> = (0..syms).map(|k| format!("s{k}")).collect();
    let syms = if syms.is_empty() { String::new() } else { format!("[{}]", syms.join(", ")) };
    format!("affine_map<({}){syms} -> ({expr})>", dims.join(", "))
}
