//! Verifier rules of the sparse_tensor dialect, with the messages of LLVM
//! 22's `SparseTensorDialect.cpp`. Most are `emitError` there, so they
//! carry no `'op' op` prefix; the ODS type constraints are not all here yet.

use super::*;
use crate::attrs::AttrId;
use crate::ops::SparseTensorOp;
use crate::sparse::{LevelFormat, SparseEncoding};
use crate::types::DYNAMIC;

impl Verifier<'_> {
    /// Checks one op of the sparse_tensor dialect.
    pub(super) fn check_sparse(&self, op: OpId, o: SparseTensorOp) -> VResult {
        use SparseTensorOp as S;
        let m = self.m;
        let at = m.op(op).span;
        let operand = |i: usize| m.operands(op).get(i).map(|v| m.type_of(*v));
        let result = |i: usize| m.results(op).nth(i).map(|v| m.type_of(v));
        self.sparse_operand_types(op, o)?;
        // The buffers' ODS type: `AnyNon0RankedMemRef`.
        if matches!(o, S::Values | S::Positions | S::Coordinates | S::CoordinatesBuffer) {
            if let Some(r) = result(0) {
                if !matches!(m.ctx.type_kind(r), TypeKind::MemRef { shape, .. } if !shape.is_empty()) {
                    return self.op_err(
                        op,
                        format!("result #0 must be non-0-ranked.memref of any type values, but got '{}'", self.ty(r)),
                    );
                }
            }
        }
        match o {
            // `AnyTensor:$result`, then `SameOperandsAndResultType`.
            S::Load => {
                let (Some(t), Some(r)) = (operand(0), result(0)) else { return Ok(()) };
                if !matches!(m.ctx.type_kind(r), TypeKind::RankedTensor { .. } | TypeKind::UnrankedTensor { .. }) {
                    return self
                        .op_err(op, format!("result #0 must be tensor of any type values, but got '{}'", self.ty(r)));
                }
                if t != r {
                    return self.op_err(op, "requires the same type for all operands and results");
                }
                Ok(())
            }
            S::Convert => {
                let (Some(src), Some(dst)) = (operand(0), result(0)) else { return Ok(()) };
                let ranked = |t: TypeId| matches!(m.ctx.type_kind(t), TypeKind::RankedTensor { .. });
                if !ranked(src) || !ranked(dst) {
                    return self.err(at, "unexpected type in convert");
                }
                let (Some(s1), Some(s2)) = (self.shape_of(src), self.shape_of(dst)) else { return Ok(()) };
                if s1.len() != s2.len() {
                    return self.err(at, "unexpected conversion mismatch in rank");
                }
                if self.encoding(dst).is_some_and(|e| !e.dim_slices.is_empty()) {
                    return self.err(at, "cannot convert to a sparse tensor slice");
                }
                if let Some(d) = (0..s1.len()).find(|&d| s1[d] != s2[d] && s2[d] != DYNAMIC) {
                    return self.err(at, format!("unexpected conversion mismatch in dimension {d}"));
                }
                Ok(())
            }
            S::Positions | S::Coordinates => {
                let (Some(t), Some(r)) = (operand(0), result(0)) else { return Ok(()) };
                let Some(enc) = self.encoding(t) else { return Ok(()) };
                let lvl = self.index_attr(op, "level");
                if lvl.is_none_or(|l| l < 0 || l as usize >= enc.lvl_rank()) {
                    return self.err(at, "requested level is out of bounds");
                }
                let (width, what) =
                    if o == S::Positions { (enc.pos_width, "positions") } else { (enc.crd_width, "coordinates") };
                if !self.matches_width(r, width) {
                    return self.err(at, format!("unexpected type for {what}"));
                }
                Ok(())
            }
            S::CoordinatesBuffer => {
                let Some(enc) = operand(0).and_then(|t| self.encoding(t)) else { return Ok(()) };
                if enc.aos_coo_start() >= enc.lvl_rank() {
                    return self.err(at, "expected sparse tensor with a COO region");
                }
                let Some(r) = result(0) else { return Ok(()) };
                if !self.matches_width(r, enc.crd_width) {
                    return self.err(at, "unexpected type for coordinates");
                }
                Ok(())
            }
            S::Values => {
                let (Some(t), Some(r)) = (operand(0), result(0)) else { return Ok(()) };
                if m.ctx.type_kind(t).elem() != m.ctx.type_kind(r).elem() {
                    return self.err(at, "unexpected mismatch in element types");
                }
                self.sparse_values_inferred(op, t, r)
            }
            S::ReinterpretMap => {
                let (Some(s), Some(d)) = (operand(0), result(0)) else { return Ok(()) };
                let (Some(se), Some(de)) = (self.encoding(s), self.encoding(d)) else { return Ok(()) };
                if se.lvl_rank() != de.lvl_rank() {
                    return self.err(at, "Level rank mismatch between source/dest tensors");
                }
                if se.lvl_types != de.lvl_types {
                    return self.err(at, "Level type mismatch between source/dest tensors");
                }
                if se.pos_width != de.pos_width || se.crd_width != de.crd_width {
                    return self.err(at, "Crd/Pos width mismatch between source/dest tensors");
                }
                if m.ctx.type_kind(s).elem() != m.ctx.type_kind(d).elem() {
                    return self.err(at, "Element type mismatch between source/dest tensors");
                }
                let (Some(ss), Some(ds)) = (self.shape_of(s), self.shape_of(d)) else { return Ok(()) };
                if lvl_shape(se, ss) != lvl_shape(de, ds) {
                    return self.err(at, "Level size mismatch between source/dest tensors");
                }
                Ok(())
            }
            S::Concatenate => self.check_sparse_concat(op),
            S::Binary => {
                let (Some(x), Some(y), Some(out)) = (operand(0), operand(1), result(0)) else { return Ok(()) };
                let regions = m.regions(op);
                if let Some(&r) = regions.first() {
                    self.sparse_region(op, r, "overlap", &[x, y], out)?;
                }
                for (i, (name, input)) in [("left", x), ("right", y)].into_iter().enumerate() {
                    let Some(&r) = regions.get(i + 1) else { continue };
                    if !m.region(r).blocks.is_empty() {
                        self.sparse_region(op, r, name, &[input], out)?;
                    } else if self.has_attr(op, &format!("{name}_identity")) && input != out {
                        let which = if i == 0 { "first" } else { "second" };
                        return self.err(
                            at,
                            format!("{name}=identity requires {which} argument to have the same type as the output"),
                        );
                    }
                }
                Ok(())
            }
            S::Unary => {
                let (Some(x), Some(out)) = (operand(0), result(0)) else { return Ok(()) };
                let regions = m.regions(op);
                if let Some(&r) = regions.first() {
                    self.sparse_region(op, r, "present", &[x], out)?;
                }
                if let Some(&r) = regions.get(1) {
                    self.sparse_region(op, r, "absent", &[], out)?;
                }
                Ok(())
            }
            S::Reduce => {
                let Some(x) = operand(0) else { return Ok(()) };
                match m.regions(op).first() {
                    Some(&r) => self.sparse_region(op, r, "reduce", &[x, x], x),
                    None => Ok(()),
                }
            }
            S::Select => {
                let Some(x) = operand(0) else { return Ok(()) };
                match m.regions(op).first() {
                    Some(&r) => {
                        self.sparse_region_with(op, r, "select", &[x], &|t| m.ctx.type_kind(t).is_signless_int(1))
                    }
                    None => Ok(()),
                }
            }
            S::Compress => {
                let Some(t) = operand(4) else { return Ok(()) };
                let rank = self.shape_of(t).map_or(0, |s| s.len());
                if m.operands(op).len() - 5 + 1 != rank {
                    return self.op_err(op, "incorrect number of coordinates");
                }
                Ok(())
            }
            S::PushBack => {
                let (Some(buf), Some(v)) = (operand(1), operand(2)) else { return Ok(()) };
                if m.ctx.type_kind(buf).elem() != Some(v) {
                    return self.op_err(op, "failed to verify that value type matches element type of inBuffer");
                }
                if let Some(&n) = m.operands(op).get(3) {
                    if self.constant_index(n).is_some_and(|c| c < 1) {
                        return self.op_err(op, "n must be not less than 1");
                    }
                }
                Ok(())
            }
            S::SliceOffset | S::SliceStride => {
                let Some(t) = operand(0) else { return Ok(()) };
                let rank = self.shape_of(t).map_or(0, |s| s.len()) as i64;
                if self.index_attr(op, "dim").is_none_or(|d| d < 0 || d >= rank) {
                    return self.err(at, "requested dimension out of bound");
                }
                Ok(())
            }
            S::StorageSpecifierGet | S::StorageSpecifierSet => {
                let Some(enc) = operand(0).and_then(|t| m.ctx.sparse_type_encoding(t)) else { return Ok(()) };
                let kind = match self.attr(op, "specifierKind").map(|a| m.ctx.attr_kind(a)) {
                    Some(Attribute::Dialect { body, .. }) => {
                        body.trim_start_matches("<kind ").trim_end_matches('>').to_string()
                    }
                    _ => return Ok(()),
                };
                let lvl = self.index_attr(op, "level");
                if kind == "val_mem_sz" && lvl.is_some() {
                    return self.err(at, "redundant level argument for querying value memory size");
                }
                if (kind == "dim_offset" || kind == "dim_stride") && enc.dim_slices.is_empty() {
                    return self.err(at, "requested slice data on non-slice tensor");
                }
                if kind != "val_mem_sz" {
                    let Some(l) = lvl else { return self.err(at, "missing level argument") };
                    if l < 0 || l as usize >= enc.lvl_rank() {
                        return self.err(at, "requested level is out of bounds");
                    }
                    if kind == "pos_mem_sz" && enc.lvl_types[l as usize].format == LevelFormat::Singleton {
                        return self.err(at, "requested position memory size on a singleton level");
                    }
                }
                Ok(())
            }
            S::Foreach => self.check_sparse_foreach(op),
            S::Assemble => {
                let ops: Vec<TypeId> = m.operands(op).iter().map(|v| m.type_of(*v)).collect();
                let (Some((&vals, lvls)), Some(r)) = (ops.split_last(), result(0)) else { return Ok(()) };
                self.check_pack(op, true, r, vals, lvls)
            }
            S::Disassemble => {
                let ops: Vec<TypeId> = m.operands(op).iter().map(|v| m.type_of(*v)).collect();
                let res: Vec<TypeId> = m.results(op).map(|v| m.type_of(v)).collect();
                let Some((&t, outs)) = ops.split_first() else { return Ok(()) };
                let Some((&out_vals, out_lvls)) = outs.split_last() else { return Ok(()) };
                let n = out_lvls.len();
                if res.len() < n + 1 {
                    return Ok(());
                }
                if res[n] != out_vals {
                    return self.err(at, "output values and return value type mismatch");
                }
                if res[..n] != *out_lvls {
                    return self.err(at, "output levels and return levels type mismatch");
                }
                self.check_pack(op, false, t, out_vals, out_lvls)
            }
            S::ReorderCoo => {
                let (Some(s), Some(d)) = (operand(0), result(0)) else { return Ok(()) };
                let (Some(se), Some(de)) = (self.encoding(s), self.encoding(d)) else { return Ok(()) };
                if !se.is_coo() || !de.is_coo() {
                    return self.err(at, "Expected COO sparse tensors only");
                }
                if se.dim_to_lvl != de.dim_to_lvl {
                    return self.err(at, "Unmatched dim2lvl map between input and result COO");
                }
                let same_elem = m.ctx.type_kind(s).elem() == m.ctx.type_kind(d).elem();
                if se.pos_width != de.pos_width || se.crd_width != de.crd_width || !same_elem {
                    return self.err(at, "Unmatched storage format between input and result COO");
                }
                Ok(())
            }
            S::Sort => self.check_sparse_sort(op),
            S::Yield => {
                let parent = m.parent_op(op).map(|p| m.op(p).name.kind);
                let ok = matches!(
                    parent,
                    Some(
                        OpKind::SparseBinary
                            | OpKind::SparseUnary
                            | OpKind::SparseReduce
                            | OpKind::SparseSelect
                            | OpKind::SparseForeach
                            | OpKind::SparseIterate
                            | OpKind::SparseCoiterate
                    )
                );
                if !ok {
                    return self.op_err(op, "expects parent op to be one of 'sparse_tensor.binary, sparse_tensor.unary, sparse_tensor.reduce, sparse_tensor.select, sparse_tensor.foreach, sparse_tensor.iterate, sparse_tensor.coiterate'");
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// The ODS constraint `AnySparseTensor` on the operands and results
    /// that carry one: a ranked tensor with a sparse encoding.
    fn sparse_operand_types(&self, op: OpId, o: SparseTensorOp) -> VResult {
        use SparseTensorOp as S;
        let m = self.m;
        let (operands, results): (&[usize], &[usize]) = match o {
            S::New | S::Assemble => (&[], &[0]),
            S::Positions
            | S::Coordinates
            | S::CoordinatesBuffer
            | S::Values
            | S::Load
            | S::Expand
            | S::Out
            | S::NumberOfEntries
            | S::Print
            | S::Lvl
            | S::Disassemble
            | S::ExtractIterationSpace
            | S::ExtractValue
            | S::Foreach => (&[0], &[]),
            S::Compress => (&[4], &[]),
            S::ReorderCoo | S::ReinterpretMap => (&[0], &[0]),
            _ => (&[], &[]),
        };
        for &i in operands {
            let Some(&v) = m.operands(op).get(i) else { continue };
            let t = m.type_of(v);
            if self.encoding(t).is_none() {
                return self.op_err(
                    op,
                    format!("operand #{i} must be sparse tensor of any type values, but got '{}'", self.ty(t)),
                );
            }
        }
        for &i in results {
            let Some(v) = m.results(op).nth(i) else { continue };
            let t = m.type_of(v);
            if self.encoding(t).is_none() {
                return self.op_err(
                    op,
                    format!("result #{i} must be sparse tensor of any type values, but got '{}'", self.ty(t)),
                );
            }
        }
        Ok(())
    }

    /// The value of an `index` operand defined by `arith.constant`.
    fn constant_index(&self, v: ValueId) -> Option<i64> {
        let m = self.m;
        let crate::ir::ValueDef::Result(def, _) = m.value(v).def else { return None };
        if m.op(def).name.kind != OpKind::ArithConstant {
            return None;
        }
        self.index_attr(def, "value")
    }

    /// `verifyPackUnPack`: the level buffers and values of an assemble or
    /// disassemble against the sparse tensor's storage layout.
    fn check_pack(&self, op: OpId, static_shape: bool, t: TypeId, vals: TypeId, lvls: &[TypeId]) -> VResult {
        let m = self.m;
        let at = m.op(op).span;
        if static_shape && self.shape_of(t).is_some_and(|s| s.contains(&DYNAMIC)) {
            return self.err(at, "the sparse-tensor must have static shape");
        }
        let Some(enc) = self.encoding(t) else {
            return self.err(at, "the sparse-tensor must have an encoding attribute");
        };
        let coo = enc.aos_coo_start();
        if coo < enc.lvl_rank() {
            let want = (enc.lvl_rank() - coo) as i64;
            let shape = lvls.last().and_then(|l| self.shape_of(*l));
            if shape.is_none_or(|s| s.len() != 2 || s[1] != want) {
                return self.err(at, "input/output trailing COO level-ranks don't match");
            }
        }
        let fields = storage_fields(enc);
        if fields.len() != lvls.len() + 1 {
            return self.err(at, "inconsistent number of fields between input/output");
        }
        let width = |w: u32| if w == 0 { None } else { Some(w) };
        let mut next = lvls.iter();
        for f in fields {
            let given = match f {
                Field::Values => vals,
                _ => match next.next() {
                    Some(t) => *t,
                    None => break,
                },
            };
            let Some(e) = m.ctx.type_kind(given).elem() else { continue };
            let ok = match f {
                Field::Values => m.ctx.type_kind(t).elem() == Some(e),
                Field::Positions | Field::Coordinates => {
                    let w = if f == Field::Positions { enc.pos_width } else { enc.crd_width };
                    match (width(w), m.ctx.type_kind(e)) {
                        (None, TypeKind::Index) => true,
                        (Some(w), k) => k.is_signless_int(w),
                        _ => false,
                    }
                }
            };
            if !ok {
                return self.err(at, "input/output element-types don't match");
            }
        }
        Ok(())
    }

    /// `SortOp::verify`: a permutation, and buffers long enough for a
    /// constant count.
    fn check_sparse_sort(&self, op: OpId) -> VResult {
        let m = self.m;
        let at = m.op(op).span;
        let Some(Attribute::AffineMap(perm)) = self.attr(op, "perm_map").map(|a| m.ctx.attr_kind(a)) else {
            return Ok(());
        };
        let nx = i64::from(perm.num_dims);
        if nx < 1 {
            return self.err(at, format!("Expected rank(perm_map) > 1, got {nx}"));
        }
        let is_perm = perm.num_syms == 0 && perm.num_dims as usize == perm.results.len() && {
            let mut seen = vec![false; perm.results.len()];
            perm.results.iter().all(|r| match r {
                crate::affine::AffineExpr::Dim(d) if (*d as usize) < seen.len() && !seen[*d as usize] => {
                    seen[*d as usize] = true;
                    true
                }
                _ => false,
            })
        };
        if !is_perm {
            return self.err(at, format!("Expected a permutation map, got {perm}"));
        }
        let ops = m.operands(op);
        let Some(n) = ops.first().and_then(|v| self.constant_index(*v)) else { return Ok(()) };
        let ny = self.index_attr(op, "ny").unwrap_or(0);
        let dim0 = |v: ValueId| self.shape_of(m.type_of(v)).and_then(|s| s.first().copied());
        let check = |v: ValueId, min: i128, what: &str| -> VResult {
            match dim0(v) {
                Some(sh) if sh != DYNAMIC && i128::from(sh) < min => self.err(at, format!("{what} got {sh} < {min}")),
                _ => Ok(()),
            }
        };
        let want = i128::from(n) * (i128::from(nx) + i128::from(ny));
        if let Some(&xy) = ops.get(1) {
            check(xy, want, "Expected dimension(xy) >= n * (rank(perm_map) + ny)")?;
        }
        for &y in ops.iter().skip(2) {
            check(y, i128::from(n), "Expected dimension(y) >= n")?;
        }
        Ok(())
    }

    fn check_sparse_foreach(&self, op: OpId) -> VResult {
        let m = self.m;
        let at = m.op(op).span;
        let Some(&t) = m.operands(op).first() else { return Ok(()) };
        let t = m.type_of(t);
        let (Some(shape), Some(enc)) = (self.shape_of(t), self.encoding(t)) else { return Ok(()) };
        let rank = shape.len();
        let inits: Vec<TypeId> = m.operands(op)[1..].iter().map(|v| m.type_of(*v)).collect();
        let results: Vec<TypeId> = m.results(op).map(|v| m.type_of(v)).collect();
        if let Some(order) = self.attr(op, "order") {
            if let Attribute::AffineMap(map) = m.ctx.attr_kind(order) {
                if map.num_dims as usize != enc.lvl_rank() {
                    return self.err(at, "Level traverse order does not match tensor's level rank");
                }
            }
        }
        let Some(&r) = m.regions(op).first() else { return Ok(()) };
        let Some(&b) = m.region(r).blocks.first() else { return Ok(()) };
        let args: Vec<TypeId> = m.args(b).map(|v| m.type_of(v)).collect();
        if rank + 1 + inits.len() != args.len() {
            return self.err(at, "Unmatched number of arguments in the block");
        }
        if results.len() != inits.len() {
            return self.err(at, "Mismatch in number of init arguments and results");
        }
        if results != inits {
            return self.err(at, "Mismatch in types of init arguments and results");
        }
        if let Some(&term) = m.block(b).ops.last() {
            let ys: Vec<TypeId> = m.operands(term).iter().map(|v| m.type_of(*v)).collect();
            if m.op(term).name.kind == OpKind::SparseYield && ys != results {
                return self.err(at, "Mismatch in types of yield values and results");
            }
        }
        if let Some(d) = (0..rank).find(|&d| !matches!(m.ctx.type_kind(args[d]), TypeKind::Index)) {
            return self.err(at, format!("Expecting Index type for argument at index {d}"));
        }
        let elem = m.ctx.type_kind(t).elem();
        if elem != Some(args[rank]) {
            let e = elem.map(|e| self.ty(e)).unwrap_or_default();
            return self.err(
                at,
                format!(
                    "Unmatched element type between input tensor and block argument, expected:{e}, got: {}",
                    self.ty(args[rank])
                ),
            );
        }
        Ok(())
    }

    /// The sparse encoding of a tensor type, if any.
    fn encoding(&self, t: TypeId) -> Option<&SparseEncoding> {
        self.m.ctx.tensor_encoding(t)
    }

    fn has_attr(&self, op: OpId, name: &str) -> bool {
        self.attr(op, name).is_some()
    }

    fn attr(&self, op: OpId, name: &str) -> Option<AttrId> {
        let o = self.m.op(op);
        let ctx = &self.m.ctx;
        let props = o.properties.and_then(|p| match ctx.attr_kind(p) {
            Attribute::Dict(e) => e.iter().find(|(n, _)| ctx.str(*n) == name).map(|(_, a)| *a),
            _ => None,
        });
        props.or_else(|| o.attrs.iter().find(|(n, _)| ctx.str(*n) == name).map(|(_, a)| *a))
    }

    fn index_attr(&self, op: OpId, name: &str) -> Option<i64> {
        match self.m.ctx.attr_kind(self.attr(op, name)?) {
            Attribute::Integer { value, .. } => value.to_i64(),
            _ => None,
        }
    }

    /// `isMatchingWidth`: a memref of `index` for width 0, else of `iN`.
    fn matches_width(&self, mem: TypeId, width: u32) -> bool {
        let Some(e) = self.m.ctx.type_kind(mem).elem() else { return true };
        match self.m.ctx.type_kind(e) {
            TypeKind::Index => width == 0,
            k => width != 0 && k.is_signless_int(width),
        }
    }

    /// `verifyNumBlockArgs`: the region's arguments are `inputs` and it
    /// yields one `output`.
    fn sparse_region(&self, op: OpId, r: RegionId, name: &str, inputs: &[TypeId], output: TypeId) -> VResult {
        self.sparse_region_with(op, r, name, inputs, &|t| t == output)
    }

    /// [`Self::sparse_region`] with the yielded type checked by `output`.
    fn sparse_region_with(
        &self,
        op: OpId,
        r: RegionId,
        name: &str,
        inputs: &[TypeId],
        output: &dyn Fn(TypeId) -> bool,
    ) -> VResult {
        let Some(b) = self.sparse_region_args(op, r, name, inputs)? else { return Ok(()) };
        let at = self.m.op(op).span;
        let Some(&term) = self.m.block(b).ops.last() else {
            return self.err(at, format!("{name} region must end with sparse_tensor.yield"));
        };
        if self.m.op(term).name.kind != OpKind::SparseYield {
            return self.err(at, format!("{name} region must end with sparse_tensor.yield"));
        }
        let vals = self.m.operands(term);
        if vals.len() != 1 || !output(self.m.type_of(vals[0])) {
            return self.err(at, format!("{name} region yield type mismatch"));
        }
        Ok(())
    }

    fn sparse_region_args(
        &self,
        op: OpId,
        r: RegionId,
        name: &str,
        inputs: &[TypeId],
    ) -> Result<Option<BlockId>, Diagnostic> {
        let at = self.m.op(op).span;
        let Some(&b) = self.m.region(r).blocks.first() else { return Ok(None) };
        let args: Vec<ValueId> = self.m.args(b).collect();
        if args.len() != inputs.len() {
            return Err(Diagnostic::error(at, format!("{name} region must have exactly {} arguments", inputs.len())));
        }
        for (i, (a, t)) in args.iter().zip(inputs).enumerate() {
            if self.m.type_of(*a) != *t {
                return Err(Diagnostic::error(at, format!("{name} region argument {} type mismatch", i + 1)));
            }
        }
        Ok(Some(b))
    }

    fn check_sparse_concat(&self, op: OpId) -> VResult {
        let m = self.m;
        let at = m.op(op).span;
        let Some(dst) = m.results(op).next().map(|v| m.type_of(v)) else { return Ok(()) };
        let Some(dshape) = self.shape_of(dst) else { return Ok(()) };
        let ins: Vec<TypeId> = m.operands(op).iter().map(|v| m.type_of(*v)).collect();
        let dim = self.index_attr(op, "dimension").unwrap_or(0);
        let rank = dshape.len();
        if ins.len() <= 1 {
            return self.err(at, "Need at least two tensors to concatenate.");
        }
        if dim < 0 || dim as usize >= rank {
            return self.err(at, format!("Concat-dimension is out of bounds for dimension-rank ({dim} >= {rank})"));
        }
        let mut shapes = Vec::new();
        for (i, t) in ins.iter().enumerate() {
            let Some(s) = self.shape_of(*t) else { return Ok(()) };
            if s.contains(&DYNAMIC) {
                return self.err(at, format!("Input tensor ${i} has dynamic shape"));
            }
            if s.len() != rank {
                return self.err(
                    at,
                    format!(
                        "Input tensor ${i} has a different rank (rank={}) from the output tensor (rank={rank}).",
                        s.len()
                    ),
                );
            }
            shapes.push(s);
        }
        for (d, &want) in dshape.iter().enumerate() {
            if d == dim as usize {
                let sum = shapes.iter().try_fold(0i64, |acc, s| acc.checked_add(s[d]));
                if want != DYNAMIC && sum != Some(want) {
                    return self.err(at, "The concatenation dimension of the output tensor should be the sum of all the concatenation dimensions of the input tensors.");
                }
            } else {
                let mut prev = want;
                for s in &shapes {
                    if prev != DYNAMIC && s[d] != prev {
                        return self.err(at, "All dimensions (expect for the concatenating one) should be equal.");
                    }
                    prev = s[d];
                }
            }
        }
        Ok(())
    }
}

/// What a storage field holds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Field {
    Positions,
    Coordinates,
    Values,
}

/// `StorageLayout::foreachField`'s data fields in order: per level its
/// positions and coordinates (an AoS COO segment's coordinates once, at
/// its start), then the values.
fn storage_fields(enc: &SparseEncoding) -> Vec<Field> {
    let lts = &enc.lvl_types;
    let segs = enc.coo_segments();
    let mut segs = segs.iter().peekable();
    let mut out = Vec::new();
    let mut l = 0;
    while l < lts.len() {
        let f = lts[l].format;
        if matches!(f, LevelFormat::Compressed | LevelFormat::LooseCompressed) {
            out.push(Field::Positions);
        }
        if !matches!(f, LevelFormat::Dense | LevelFormat::Batch) {
            out.push(Field::Coordinates);
        }
        match segs.peek() {
            Some(&&(start, end, soa)) if start == l => {
                l = if soa { l + 1 } else { end };
                segs.next();
            }
            _ => l += 1,
        }
    }
    out.push(Field::Values);
    out
}

/// The level sizes a dimension shape gives through the encoding's map
/// (`d floordiv c` is the quotient, `d mod c` is `c`; dynamic stays so).
fn lvl_shape(enc: &SparseEncoding, shape: &[i64]) -> Vec<i64> {
    use crate::affine::AffineExpr as E;
    enc.dim_to_lvl
        .results
        .iter()
        .map(|r| match r {
            E::Dim(d) => shape.get(*d as usize).copied().unwrap_or(DYNAMIC),
            E::FloorDiv(a, b) => match (&**a, &**b) {
                (E::Dim(d), E::Const(c)) if *c > 0 => match shape.get(*d as usize) {
                    Some(&s) if s != DYNAMIC => s / c,
                    _ => DYNAMIC,
                },
                _ => DYNAMIC,
            },
            E::Mod(_, b) => match &**b {
                E::Const(c) => *c,
                _ => DYNAMIC,
            },
            _ => DYNAMIC,
        })
        .collect()
}

impl Verifier<'_> {
    /// `sparse_tensor.values` infers `memref<?xT>` (InferTypeOpInterface,
    /// which mlir-opt checks after the op's own rule): the result must be
    /// that type.
    fn sparse_values_inferred(&self, op: OpId, t: TypeId, r: TypeId) -> VResult {
        let m = self.m;
        let Some(e) = m.ctx.type_kind(t).elem() else { return Ok(()) };
        let ok = matches!(m.ctx.type_kind(r), TypeKind::MemRef { shape, elem, layout: None, space: None }
            if shape.as_slice() == [DYNAMIC] && *elem == e);
        if ok {
            return Ok(());
        }
        self.op_err(
            op,
            format!(
                "inferred type(s) 'memref<?x{}>' are incompatible with return type(s) of operation '{}'",
                self.ty(e),
                self.ty(r)
            ),
        )
    }
}
