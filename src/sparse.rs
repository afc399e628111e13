//! The sparse_tensor dialect's encoding attribute
//! (`#sparse_tensor.encoding<{map = ..}>`) as structured data: level types,
//! the dim-to-level map and its inverse, widths and the explicit and
//! implicit values, so the verifier and the engine read them without
//! re-parsing text. Printing and the structural checks follow LLVM 22's
//! `SparseTensorEncodingAttr::print` and `::verify`.

use crate::affine::{AffineExpr, AffineMap};
use crate::attrs::AttrId;
use crate::types::DYNAMIC;
use std::fmt::Write;

/// A level's storage format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LevelFormat {
    /// Every coordinate stored.
    Dense,
    /// A leading batch level.
    Batch,
    /// Positions and coordinates.
    Compressed,
    /// Compressed with a start and an end position per parent.
    LooseCompressed,
    /// Coordinates only (the trailing levels of a COO region).
    Singleton,
    /// `structured[n, m]`: n of every m entries stored.
    Structured {
        /// Entries stored per block.
        n: u32,
        /// Block size.
        m: u32,
    },
}

/// A level type: format and the non-default properties.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LevelType {
    /// The format.
    pub format: LevelFormat,
    /// Coordinates may repeat.
    pub nonunique: bool,
    /// Coordinates may be out of order.
    pub nonordered: bool,
    /// Singleton coordinates stored as a structure of arrays.
    pub soa: bool,
}

impl LevelType {
    /// True when the format admits the properties set (dense, batch and
    /// structured levels admit none), as `isValidLvlBits` decides.
    pub fn valid(&self) -> bool {
        let props = self.nonunique || self.nonordered || self.soa;
        match self.format {
            LevelFormat::Dense | LevelFormat::Batch | LevelFormat::Structured { .. } => !props,
            _ => true,
        }
    }

    /// The level type as mlir-opt prints it (`compressed(nonunique)`).
    pub fn to_mlir_string(&self) -> String {
        let mut s = match self.format {
            LevelFormat::Dense => "dense".to_string(),
            LevelFormat::Batch => "batch".to_string(),
            LevelFormat::Compressed => "compressed".to_string(),
            LevelFormat::LooseCompressed => "loose_compressed".to_string(),
            LevelFormat::Singleton => "singleton".to_string(),
            LevelFormat::Structured { n, m } => format!("structured[{n}, {m}]"),
        };
        let props: Vec<&str> = [(self.nonunique, "nonunique"), (self.nonordered, "nonordered"), (self.soa, "soa")]
            .iter()
            .filter(|(on, _)| *on)
            .map(|(_, n)| *n)
            .collect();
        if !props.is_empty() {
            let _ = write!(s, "({})", props.join(", "));
        }
        s
    }
}

/// `#sparse_tensor<slice(offset, size, stride)>`; [`DYNAMIC`] is `?`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DimSlice {
    /// Offset.
    pub offset: i64,
    /// Size.
    pub size: i64,
    /// Stride.
    pub stride: i64,
}

impl DimSlice {
    /// The slice a dimension without one gets when another has one.
    pub const DEFAULT: DimSlice = DimSlice { offset: 0, size: DYNAMIC, stride: 1 };

    /// The slice as mlir-opt prints it.
    pub fn to_mlir_string(&self) -> String {
        let f = |v: i64| if v == DYNAMIC { "?".to_string() } else { v.to_string() };
        format!("#sparse_tensor<slice({}, {}, {})>", f(self.offset), f(self.size), f(self.stride))
    }
}

/// A `#sparse_tensor.encoding<{..}>`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SparseEncoding {
    /// One per level.
    pub lvl_types: Vec<LevelType>,
    /// Dimensions (and symbols) to levels.
    pub dim_to_lvl: AffineMap,
    /// Levels to dimensions: written (`{l0, ..} (d0 = l0, ..)`) or inferred
    /// from `dim_to_lvl` (permutations and block maps); `None` when neither.
    pub lvl_to_dim: Option<AffineMap>,
    /// Position width in bits, 0 for `index`.
    pub pos_width: u32,
    /// Coordinate width in bits, 0 for `index`.
    pub crd_width: u32,
    /// The value every stored entry has, if fixed.
    pub explicit_val: Option<AttrId>,
    /// The value of the entries not stored (zero), if given.
    pub implicit_val: Option<AttrId>,
    /// One per dimension, or empty when no dimension is a slice.
    pub dim_slices: Vec<DimSlice>,
}

impl SparseEncoding {
    /// The dimension rank.
    pub fn dim_rank(&self) -> usize {
        self.dim_to_lvl.num_dims as usize
    }

    /// The level rank.
    pub fn lvl_rank(&self) -> usize {
        self.lvl_types.len()
    }

    /// True when every level is dense and the map is the identity: the
    /// encoding stores the tensor as a dense one does.
    pub fn all_dense_identity(&self) -> bool {
        self.lvl_types.iter().all(|l| l.format == LevelFormat::Dense)
            && self.dim_to_lvl == AffineMap::identity(self.dim_to_lvl.num_dims)
    }

    /// `isCOOType(0, true)`: a compressed or loose level, then singletons
    /// only, the last level unique.
    pub fn is_coo(&self) -> bool {
        let lts = &self.lvl_types;
        let Some(first) = lts.first() else { return false };
        matches!(first.format, LevelFormat::Compressed | LevelFormat::LooseCompressed)
            && lts[1..].iter().all(|l| l.format == LevelFormat::Singleton)
            && lts.last().is_some_and(|l| !l.nonunique)
    }

    /// `getCOOSegments`: each compressed or loose level followed by at
    /// least one singleton, as (first level, end level, SoA).
    pub fn coo_segments(&self) -> Vec<(usize, usize, bool)> {
        let lts = &self.lvl_types;
        let mut out = Vec::new();
        if lts.len() <= 1 {
            return out;
        }
        let mut l = 0;
        while l < lts.len() {
            if matches!(lts[l].format, LevelFormat::Compressed | LevelFormat::LooseCompressed) {
                let len = 1 + lts[l + 1..].iter().take_while(|t| t.format == LevelFormat::Singleton).count();
                if len > 1 {
                    out.push((l, l + len, lts[l + 1].soa));
                }
                l += len;
            } else {
                l += 1;
            }
        }
        out
    }

    /// `getAoSCOOStart`: the first level of the (first) array-of-structures
    /// COO segment, or the level rank when there is none.
    pub fn aos_coo_start(&self) -> usize {
        match self.coo_segments().first() {
            Some(&(start, _, false)) => start,
            _ => self.lvl_rank(),
        }
    }

    /// The checks of `SparseTensorEncodingAttr::verify`, in its order: the
    /// first failing one's message.
    pub fn verify(&self) -> Option<String> {
        let width_ok = |w: u32| matches!(w, 0 | 8 | 16 | 32 | 64);
        if !width_ok(self.pos_width) {
            return Some(format!("unexpected position bitwidth: {}", self.pos_width));
        }
        if !width_ok(self.crd_width) {
            return Some(format!("unexpected coordinate bitwidth: {}", self.crd_width));
        }
        let lts = &self.lvl_types;
        let singleton = |l: &LevelType| l.format == LevelFormat::Singleton;
        let mut i = 0;
        while let Some(off) = lts[i..].iter().position(singleton) {
            let at = i + off;
            let before = at.checked_sub(1).map(|p| lts[p].format);
            if !matches!(before, Some(LevelFormat::Compressed | LevelFormat::LooseCompressed)) {
                return Some("expected compressed or loose_compressed level before singleton level".into());
            }
            let end = lts[at..].iter().position(|l| !singleton(l)).map_or(lts.len(), |e| at + e);
            if lts[at..end].iter().any(|l| l.soa != lts[at].soa) {
                return Some("expected all singleton lvlTypes stored in the same memory layout (SoA vs AoS).".into());
            }
            i = end;
        }
        let batch = |l: &LevelType| l.format == LevelFormat::Batch;
        if let Some(last) = lts.iter().rposition(batch) {
            if !lts[..=last].iter().all(batch) {
                return Some("Batch lvlType can only be leading levels.".into());
            }
        }
        if lts.iter().any(|l| l.soa && !singleton(l)) {
            return Some("SoA is only applicable to singleton lvlTypes.".into());
        }
        let structured = lts.iter().enumerate().find_map(|(i, l)| match l.format {
            LevelFormat::Structured { m, .. } => Some((i, m)),
            _ => None,
        });
        if let Some((nm, m)) = structured {
            if nm + 1 != lts.len() {
                return Some("expected n_out_of_m to be the last level type".into());
            }
            if !lts[..nm].iter().all(|l| l.format == LevelFormat::Dense) {
                return Some("expected all dense lvlTypes before a n_out_of_m level".into());
            }
            let map = &self.dim_to_lvl;
            if map.num_dims as usize != map.results.len() {
                if !is_block_sparsity(map) {
                    return Some("expected 1xm block structure for n_out_of_m level".into());
                }
                let mut coefficient = 0;
                for size in block_sizes(map) {
                    if size != 0 {
                        if size != coefficient && coefficient != 0 {
                            return Some("expected only one blocked level with the same coefficients".into());
                        }
                        coefficient = size;
                    }
                }
                if coefficient != i64::from(m) {
                    return Some(
                        "expected coeffiencts of Affine expressions to be equal to m of n_out_of_m level".into(),
                    );
                }
            }
        }
        let lvl_rank = lts.len();
        if lvl_rank == 0 {
            return Some("expected a non-empty array for lvlTypes".into());
        }
        let map = &self.dim_to_lvl;
        let dim_rank = map.num_dims as usize;
        if map.results.len() != lvl_rank {
            return Some(format!(
                "level-rank mismatch between dimToLvl and lvlTypes: {} != {lvl_rank}",
                map.results.len()
            ));
        }
        let inferred = infer_lvl_to_dim(map);
        if inferred.is_none() && map.num_syms == 0 {
            return Some("failed to infer lvlToDim from dimToLvl".into());
        }
        if self.lvl_to_dim.is_some() && inferred != self.lvl_to_dim {
            return Some("expected lvlToDim to be an inverse of dimToLvl".into());
        }
        if dim_rank > lvl_rank {
            return Some(format!("unexpected dimToLvl mapping from {dim_rank} to {lvl_rank}"));
        }
        if !self.dim_slices.is_empty() {
            if self.dim_slices.len() != dim_rank {
                return Some(format!(
                    "dimension-rank mismatch between dimSlices and dimToLvl: {} != {dim_rank}",
                    self.dim_slices.len()
                ));
            }
            if dim_rank != lvl_rank {
                return Some(format!(
                    "dimSlices expected dimension-rank to match level-rank: {dim_rank} != {lvl_rank}"
                ));
            }
        }
        None
    }
}

/// Writes the encoding as mlir-opt prints it.
pub fn write_encoding(out: &mut String, enc: &SparseEncoding, write_attr: &dyn Fn(&mut String, AttrId)) {
    let map = &enc.dim_to_lvl;
    out.push_str("#sparse_tensor.encoding<{ map = ");
    if map.num_syms > 0 {
        let syms: Vec<String> = (0..map.num_syms).map(|i| format!("s{i}")).collect();
        let _ = write!(out, "[{}]", syms.join(", "));
    }
    out.push('(');
    for d in 0..map.num_dims as usize {
        if d > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "d{d}");
        if let Some(s) = enc.dim_slices.get(d) {
            let _ = write!(out, " : {}", s.to_mlir_string());
        }
    }
    out.push_str(") -> (");
    for (l, e) in map.results.iter().enumerate() {
        if l > 0 {
            out.push_str(", ");
        }
        let lt = enc.lvl_types.get(l).map(|t| t.to_mlir_string()).unwrap_or_default();
        let _ = write!(out, "{e} : {lt}");
    }
    out.push(')');
    if enc.pos_width != 0 {
        let _ = write!(out, ", posWidth = {}", enc.pos_width);
    }
    if enc.crd_width != 0 {
        let _ = write!(out, ", crdWidth = {}", enc.crd_width);
    }
    if let Some(v) = enc.explicit_val {
        out.push_str(", explicitVal = ");
        write_attr(out, v);
    }
    if let Some(v) = enc.implicit_val {
        out.push_str(", implicitVal = ");
        write_attr(out, v);
    }
    out.push_str(" }>");
}

/// `isBlockSparsity`: every result is a dim, or `d floordiv c` followed
/// (later) by `d mod c` with the same positive `c`, with at least one block.
pub fn is_block_sparsity(map: &AffineMap) -> bool {
    let mut coeff: Vec<Option<i64>> = vec![None; map.num_dims as usize];
    let mut has_block = false;
    for r in &map.results {
        match r {
            AffineExpr::FloorDiv(a, b) | AffineExpr::Mod(a, b) => {
                let (AffineExpr::Dim(d), AffineExpr::Const(c)) = (&**a, &**b) else { return false };
                if *c <= 0 {
                    return false;
                }
                let Some(slot) = coeff.get_mut(*d as usize) else { return false };
                if matches!(r, AffineExpr::FloorDiv(..)) {
                    if slot.is_some() {
                        return false;
                    }
                    *slot = Some(*c);
                } else {
                    if *slot != Some(*c) {
                        return false;
                    }
                    has_block = true;
                }
            }
            AffineExpr::Dim(d) => {
                let Some(slot) = coeff.get_mut(*d as usize) else { return false };
                if slot.is_some() {
                    return false;
                }
                *slot = Some(0);
            }
            _ => return false,
        }
    }
    has_block
}

/// `getBlockSize`: per dimension, the block size of its floordiv (0 for a
/// plain dimension).
fn block_sizes(map: &AffineMap) -> Vec<i64> {
    let mut sizes = vec![0; map.num_dims as usize];
    for r in &map.results {
        if let AffineExpr::Mod(a, b) = r {
            if let (AffineExpr::Dim(d), AffineExpr::Const(c)) = (&**a, &**b) {
                if let Some(s) = sizes.get_mut(*d as usize) {
                    *s = *c;
                }
            }
        }
    }
    sizes
}

/// `inferLvlToDim`: the inverse of a permutation, or of a block map
/// (`d floordiv c`, `d mod c` becomes `l_div * c + l_mod`, after the plain
/// dimensions, in dimension order, as LLVM builds it).
pub fn infer_lvl_to_dim(map: &AffineMap) -> Option<AffineMap> {
    let nl = map.results.len() as u32;
    let is_perm = map.num_syms == 0 && map.num_dims == nl && {
        let mut seen = vec![false; nl as usize];
        map.results.iter().all(|r| match r {
            AffineExpr::Dim(d) if (*d as usize) < seen.len() && !seen[*d as usize] => {
                seen[*d as usize] = true;
                true
            }
            _ => false,
        })
    };
    if is_perm {
        let mut results = vec![AffineExpr::Const(0); nl as usize];
        for (l, r) in map.results.iter().enumerate() {
            if let AffineExpr::Dim(d) = r {
                results[*d as usize] = AffineExpr::Dim(l as u32);
            }
        }
        return Some(AffineMap { num_dims: nl, num_syms: 0, results });
    }
    if !is_block_sparsity(map) {
        return None;
    }
    let mut plain = Vec::new();
    let mut parts: std::collections::BTreeMap<u32, Vec<AffineExpr>> = Default::default();
    for (l, r) in map.results.iter().enumerate() {
        let lv = AffineExpr::Dim(l as u32);
        match r {
            AffineExpr::FloorDiv(a, b) => {
                let AffineExpr::Dim(d) = **a else { return None };
                parts.insert(d, vec![lv, (**b).clone()]);
            }
            AffineExpr::Mod(a, _) => {
                let AffineExpr::Dim(d) = **a else { return None };
                parts.get_mut(&d)?.push(lv);
            }
            _ => plain.push(lv),
        }
    }
    for (_, p) in parts {
        let [l, c, m] = <[AffineExpr; 3]>::try_from(p).ok()?;
        plain.push(AffineExpr::Add(Box::new(AffineExpr::Mul(Box::new(l), Box::new(c))), Box::new(m)));
    }
    Some(AffineMap { num_dims: nl, num_syms: 0, results: plain })
}
