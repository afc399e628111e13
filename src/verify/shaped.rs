//! Verifier rules of tensor and memref views, slices, reshapes, casts,
//! concatenation, generate/pad and gather/scatter, with mlir-opt's
//! messages (the shape rules the two dialects share live together).

use super::*;

impl<'m> Verifier<'m> {
    /// `tensor<..xT>` as text, for derived types.
    fn tensor_text(&self, shape: &[i64], elem: TypeId) -> String {
        let mut s = String::from("tensor<");
        for d in shape {
            if *d == crate::types::DYNAMIC {
                s.push_str("?x");
            } else {
                s.push_str(&format!("{d}x"));
            }
        }
        s.push_str(&self.ty(elem));
        s.push('>');
        s
    }

    /// `result #0 must be index, but got 'T'`.
    pub(super) fn index_result(&self, op: OpId) -> VResult {
        match self.res(op, 0) {
            Some(t) if !matches!(self.m.ctx.type_kind(t), TypeKind::Index) => {
                self.op_err(op, format!("result #0 must be index, but got '{}'", self.ty(t)))
            }
            _ => Ok(()),
        }
    }

    /// The static offset, size and stride lists; their lengths must be `ranks`.
    fn slice_lists(&self, op: OpId, ranks: [usize; 3]) -> Result<Option<[Vec<i64>; 3]>, Diagnostic> {
        let (Some(o), Some(s), Some(t)) =
            (self.ints(op, "static_offsets"), self.ints(op, "static_sizes"), self.ints(op, "static_strides"))
        else {
            return Ok(None);
        };
        let span = self.m.op(op).span;
        for (v, r, what) in [(&o, ranks[0], "offset"), (&s, ranks[1], "size"), (&t, ranks[2], "stride")] {
            if v.len() != r {
                self.err(span, format!("expected {r} {what} values, got {}", v.len()))?;
            }
        }
        for (v, what) in [(&o, "offsets"), (&s, "sizes")] {
            if let Some(x) = v.iter().find(|x| **x < 0 && **x != crate::types::DYNAMIC) {
                self.err(span, format!("expected {what} to be non-negative, but got {x}"))?;
            }
        }
        Ok(Some([o, s, t]))
    }

    /// mlir-opt's `verifyInBoundsSlice` on static entries.
    fn slice_in_bounds(&self, op: OpId, shape: &[i64], l: &[Vec<i64>; 3]) -> VResult {
        let dynamic = |x: i64| x == crate::types::DYNAMIC;
        for (i, d) in shape.iter().enumerate() {
            let (Some(&o), Some(&s), Some(&t)) = (l[0].get(i), l[1].get(i), l[2].get(i)) else { continue };
            if dynamic(*d) || dynamic(o) {
                continue;
            }
            let span = self.m.op(op).span;
            if o >= *d {
                return self.err(span, format!("offset {i} is out-of-bounds: {o} >= {d}"));
            }
            if dynamic(s) || dynamic(t) {
                continue;
            }
            let last = s.checked_sub(1).and_then(|x| x.checked_mul(t)).and_then(|x| x.checked_add(o));
            if let Some(last) = last.filter(|x| x >= d) {
                return self.err(span, format!("slice along dimension {i} runs out-of-bounds: {last} >= {d}"));
            }
        }
        Ok(())
    }

    /// `candidate` is `shape x elem` or a rank-reduced version of it.
    fn rank_reduced(&self, op: OpId, shape: &[i64], elem: TypeId, candidate: TypeId) -> VResult {
        let Some((cshape, celem)) = self.ranked(candidate) else { return Ok(()) };
        let span = self.m.op(op).span;
        if cshape.len() > shape.len() {
            return self.err(span, "expected rank to be smaller or equal to the other rank. ");
        }
        let mut ci = 0;
        for d in shape {
            if cshape.get(ci) == Some(d) {
                ci += 1;
            } else if *d != 1 {
                ci = usize::MAX;
                break;
            }
        }
        if ci != cshape.len() {
            let want = self.tensor_text(shape, elem);
            return self.err(span, format!("expected type to be '{want}' or a rank-reduced version. (size mismatch) "));
        }
        if celem != elem {
            return self.err(span, format!("expected element type to be '{}'", self.ty(elem)));
        }
        Ok(())
    }

    pub(super) fn tensor_extract_slice(&self, op: OpId) -> VResult {
        let (Some(s), Some(r)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        let Some((shape, elem)) = self.ranked(s) else { return Ok(()) };
        let n = shape.len();
        let Some(l) = self.slice_lists(op, [n, n, n])? else { return Ok(()) };
        self.rank_reduced(op, &l[1], elem, r)?;
        self.slice_in_bounds(op, shape, &l)
    }

    pub(super) fn tensor_insert_slice(&self, op: OpId) -> VResult {
        let (Some(s), Some(d)) = (self.opnd(op, 0), self.opnd(op, 1)) else { return Ok(()) };
        let Some((shape, elem)) = self.ranked(d) else { return Ok(()) };
        let n = shape.len();
        let Some(l) = self.slice_lists(op, [n, n, n])? else { return Ok(()) };
        self.rank_reduced(op, &l[1], elem, s)?;
        self.slice_in_bounds(op, shape, &l)
    }

    pub(super) fn memref_subview(&self, op: OpId) -> VResult {
        let Some((shape, _)) = self.opnd(op, 0).and_then(|t| self.ranked(t)) else { return Ok(()) };
        let n = shape.len();
        let Some(l) = self.slice_lists(op, [n, n, n])? else { return Ok(()) };
        self.slice_in_bounds(op, shape, &l)?;
        self.subview_result_type(op, &l)
    }

    /// The result must be the inferred strided type (source strides times
    /// slice strides; offset moved by the slice offsets) or a rank-reduced
    /// version of it, as mlir-opt's `SubViewOp::verify` requires.
    fn subview_result_type(&self, op: OpId, l: &[Vec<i64>]) -> VResult {
        use crate::layout::{dyn_add, dyn_mul, memref_rank_reduction, rank_reduction, strides_and_offset};
        let (Some(s), Some(r)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        let m = self.m;
        let (TypeKind::MemRef { elem, space, .. }, TypeKind::MemRef { shape: rshape, elem: relem, .. }) =
            (m.ctx.type_kind(s), m.ctx.type_kind(r))
        else {
            return Ok(());
        };
        let span = m.op(op).span;
        if elem != relem {
            return self.err(
                span,
                format!("expected result element type to be '{}', but got '{}'", self.ty(*elem), self.ty(r)),
            );
        }
        let (Some((sstr, soff)), Some((rstr, roff))) = (strides_and_offset(&m.ctx, s), strides_and_offset(&m.ctx, r))
        else {
            return Ok(());
        };
        let (offs, sizes, steps) = (&l[0], &l[1], &l[2]);
        let mut off = soff;
        for (o, st) in offs.iter().zip(&sstr) {
            off = dyn_add(off, dyn_mul(*o, *st));
        }
        let strides: Vec<i64> = sstr.iter().zip(steps).map(|(a, b)| dyn_mul(*a, *b)).collect();
        let show = |v: i64| if v == crate::types::DYNAMIC { "?".to_string() } else { v.to_string() };
        let dims: String = sizes.iter().map(|d| format!("{}x", show(*d))).collect();
        let st: Vec<String> = strides.iter().map(|v| show(*v)).collect();
        let offset = if off == 0 { String::new() } else { format!(", offset: {}", show(off)) };
        let space =
            space.map(|a| format!(", {}", crate::printer::elided_attr_to_string(&m.ctx, a))).unwrap_or_default();
        let want = format!("memref<{dims}{}, strided<[{}]{offset}>{space}>", self.ty(*elem), st.join(", "));
        let mismatch = |what: &str| {
            self.err(
                span,
                format!("expected result type to be '{want}' or a rank-reduced version. (mismatch of result {what}), but got '{}'", self.ty(r)),
            )
        };
        if rank_reduction(sizes, rshape).is_none() {
            return mismatch("sizes");
        }
        let Some(kept) = memref_rank_reduction(sizes, &strides, &rstr) else { return mismatch("layout") };
        let kept_strides: Vec<i64> = kept.iter().map(|i| strides[*i]).collect();
        if kept_strides != rstr || off != roff {
            return mismatch("layout");
        }
        Ok(())
    }

    pub(super) fn memref_reinterpret_cast(&self, op: OpId) -> VResult {
        let (Some(s), Some(r)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        let Some((rshape, relem)) = self.ranked(r) else { return Ok(()) };
        let n = rshape.len();
        let Some(l) = self.slice_lists(op, [1, n, n])? else { return Ok(()) };
        if self.m.ctx.type_kind(s).elem() != Some(relem) {
            return self.err(
                self.m.op(op).span,
                format!(
                    "different element types specified for source type '{}' and result memref type '{}'",
                    self.ty(s),
                    self.ty(r)
                ),
            );
        }
        for (i, (have, want)) in rshape.iter().zip(&l[1]).enumerate() {
            if *have != crate::types::DYNAMIC && have != want {
                let w = if *want == crate::types::DYNAMIC { "dynamic".to_string() } else { want.to_string() };
                return self.err(
                    self.m.op(op).span,
                    format!("expected result type with size = {w} instead of {have} in dim = {i}"),
                );
            }
        }
        Ok(())
    }

    /// The `reassociation` groups (`[[0, 1], [2]]`).
    pub(super) fn reassociation(&self, op: OpId) -> Option<Vec<Vec<i64>>> {
        crate::attrs::int_arrays(&self.m.ctx, self.m.attr(op, "reassociation")?)
    }

    /// tensor.expand_shape / tensor.collapse_shape (mlir-opt's
    /// `verifyReshapeLikeTypes` and `reshapeLikeShapesAreCompatible`).
    pub(super) fn tensor_reshape_like(&self, op: OpId, expand: bool) -> VResult {
        let (Some(s), Some(r)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        // ODS lets an unranked tensor through, and mlir-opt's verifier then
        // reads its rank out of a ranked type it is not, so its message
        // names a meaningless rank; this one says what is wrong.
        for (which, t) in [("operand", s), ("result", r)] {
            if matches!(self.m.ctx.type_kind(t), TypeKind::UnrankedTensor { .. }) {
                return self.op_err(
                    op,
                    format!("{which} #0 must be ranked tensor of any type values, but got '{}'", self.ty(t)),
                );
            }
        }
        let (Some((ss, _)), Some((rs, _)), Some(groups)) = (self.ranked(s), self.ranked(r), self.reassociation(op))
        else {
            return Ok(());
        };
        if expand {
            if let Some(out) = self.ints(op, "static_output_shape") {
                if out.len() != rs.len() {
                    return self.op_err(op, format!("expected number of static shape dims to be equal to the output rank ({}) but found {} inputs instead", rs.len(), out.len()));
                }
            }
        }
        let ((et, ex), (ct, co)) = if expand { ((r, rs), (s, ss)) } else { ((s, ss), (r, rs)) };
        if ex.len() < co.len() {
            return self.op_err(
                op,
                format!(
                    "expected the expanded type, '{}' to have a higher (or same) rank than the collapsed type, '{}'.",
                    self.ty(et),
                    self.ty(ct)
                ),
            );
        }
        if co.len() != groups.len() {
            return self.op_err(
                op,
                format!(
                    "expected collapsed rank ({}) to equal the number of reassociation maps ({}).",
                    co.len(),
                    groups.len()
                ),
            );
        }
        let ndims = groups.iter().flatten().map(|d| d.saturating_add(1)).max().unwrap_or(0);
        if let Some(i) = (0..groups.len()).find(|_| ndims != ex.len() as i64) {
            return self.op_err(
                op,
                format!(
                    "expected reassociation map #{i} to have size equal to the expanded rank ({}), but it is  {ndims}.",
                    ex.len()
                ),
            );
        }
        let mut next = 0i64;
        for (i, g) in groups.iter().enumerate() {
            if g.iter().any(|d| {
                let bad = *d != next;
                next += 1;
                bad
            }) {
                return self.op_err(op, format!("expected reassociation map #{i} to be valid and contiguous."));
            }
        }
        if next != ndims {
            let i = groups.len().saturating_sub(1);
            return self.op_err(op, format!("expected reassociation map #{i} to be valid and contiguous."));
        }
        let mut start = 0usize;
        for (i, g) in groups.iter().enumerate() {
            let part = ex.get(start..start + g.len()).unwrap_or(&[]);
            start += g.len();
            if part.contains(&crate::types::DYNAMIC) {
                if co[i] != crate::types::DYNAMIC {
                    return self.op_err(op, format!("expected dimension {i} of collapsed type to be dynamic since one or more of the corresponding dimensions in the expanded type is dynamic"));
                }
            } else {
                let p = part.iter().try_fold(1i64, |a, d| a.checked_mul(*d));
                if p != Some(co[i]) {
                    let p = p.map(|x| x.to_string()).unwrap_or_default();
                    return self
                        .op_err(op, format!("expected dimension {i} of collapsed type to be static value of {p}"));
                }
            }
        }
        Ok(())
    }

    /// memref.expand_shape / memref.collapse_shape (`verifyCollapsedShape`).
    pub(super) fn memref_reshape_like(&self, op: OpId, expand: bool) -> VResult {
        let (Some(s), Some(r)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        let (Some((ss, _)), Some((rs, _)), Some(groups)) = (self.ranked(s), self.ranked(r), self.reassociation(op))
        else {
            return Ok(());
        };
        let (r0, r1) = (ss.len(), rs.len());
        if expand && r0 > r1 {
            return self.op_err(
                op,
                format!("has source rank {r0} and result rank {r1}. This is not an expansion ({r0} > {r1})."),
            );
        }
        if !expand && r0 < r1 {
            return self.op_err(
                op,
                format!("has source rank {r0} and result rank {r1}. This is not a collapse ({r0} < {r1})."),
            );
        }
        let (co, ex) = if expand { (ss, rs) } else { (rs, ss) };
        if co.len() != groups.len() {
            return self.op_err(
                op,
                format!("invalid number of reassociation groups: found {}, expected {}", groups.len(), co.len()),
            );
        }
        let mut next = 0i64;
        for (ci, g) in groups.iter().enumerate() {
            let mut dynamic = false;
            let mut size = Some(1i64);
            for &d in g {
                if d != next {
                    return self.op_err(op, "reassociation indices must be contiguous");
                }
                next += 1;
                let Some(&e) = usize::try_from(d).ok().and_then(|u| ex.get(u)) else {
                    return self.op_err(op, format!("reassociation index {d} is out of bounds"));
                };
                dynamic |= e == crate::types::DYNAMIC;
                size = size.and_then(|s| s.checked_mul(e));
            }
            if (co[ci] == crate::types::DYNAMIC) != dynamic {
                return self.op_err(
                    op,
                    format!("collapsed dim ({ci}) must be dynamic if and only if reassociation group is dynamic"),
                );
            }
            if !dynamic && size != Some(co[ci]) {
                let s = size.map(|x| x.to_string()).unwrap_or_default();
                return self
                    .op_err(op, format!("collapsed dim size ({}) must equal reassociation group size ({s})", co[ci]));
            }
        }
        if co.is_empty() && ex.iter().any(|d| *d != 1) {
            return self.op_err(op, "rank 0 memrefs can only be extended/collapsed with/from ones");
        }
        if !co.is_empty() && next != ex.len() as i64 {
            return self.op_err(
                op,
                format!("expanded rank ({}) inconsistent with number of reassociation indices ({next})", ex.len()),
            );
        }
        if !expand {
            return self.collapsed_layout(op, s, r, &groups);
        }
        if expand {
            self.expanded_layout(op, s, r, &groups)?;
            let Some(out) = self.ints(op, "static_output_shape") else { return Ok(()) };
            if out.len() != rs.len() {
                return self.op_err(
                    op,
                    format!(
                        "expected number of static shape bounds to be equal to the output rank ({}) but found {} inputs instead",
                        rs.len(),
                        out.len()
                    ),
                );
            }
            let dynamic = out.iter().filter(|d| **d == crate::types::DYNAMIC).count();
            let given = self.m.operands(op).len().saturating_sub(1);
            if dynamic != given {
                return self.op_err(
                    op,
                    format!("mismatch in dynamic dims in output_shape and static_output_shape: static_output_shape has {dynamic} dynamic dims while output_shape has {given} values"),
                );
            }
            if let Some(i) = (0..rs.len()).find(|i| rs[*i] != crate::types::DYNAMIC && out[*i] != rs[*i]) {
                return self.op_err(op, format!("invalid output shape provided at pos {i}"));
            }
        }
        Ok(())
    }

    /// The result type of `memref.collapse_shape` is the one MLIR's
    /// `computeCollapsedLayoutMap` infers: the identity for an identity
    /// source, else strided, each group taking the stride of its innermost
    /// dim that is not a unit one (dynamic when that dim's size is dynamic
    /// and the group has several), the groups' dims contiguous where the
    /// strides are static.
    fn collapsed_layout(&self, op: OpId, s: TypeId, r: TypeId, groups: &[Vec<i64>]) -> VResult {
        use crate::layout::strides_and_offset;
        let m = self.m;
        let (
            TypeKind::MemRef { shape: ss, elem, layout: sl, space },
            TypeKind::MemRef { shape, elem: re, layout: rl, space: rspace },
        ) = (m.ctx.type_kind(s), m.ctx.type_kind(r))
        else {
            return Ok(());
        };
        let dyn_ = crate::types::DYNAMIC;
        let show = |v: i64| if v == dyn_ { "?".to_string() } else { v.to_string() };
        let layout = if self.identity_layout(*sl) {
            None
        } else {
            let bad = || self.op_err(op, "invalid source layout map or collapsing non-contiguous dims");
            let Some((strides, offset)) = strides_and_offset(&m.ctx, s) else { return bad() };
            let at = |d: i64| usize::try_from(d).ok().filter(|d| *d < ss.len());
            let mut out = Vec::with_capacity(groups.len());
            for g in groups {
                let Some(mut ref_) = g.iter().map(|d| at(*d)).collect::<Option<Vec<usize>>>() else { return Ok(()) };
                while ref_.len() > 1 && ref_.last().is_some_and(|d| ss[*d] == 1) {
                    ref_.pop();
                }
                let Some(&last) = ref_.last() else { return Ok(()) };
                out.push(if ss[last] != dyn_ || ref_.len() == 1 { strides[last] } else { dyn_ });
            }
            for (g, rstride) in groups.iter().zip(&out) {
                // Saturating: a dynamic stride or size makes the product unknown.
                let mut stride = (*rstride != dyn_).then_some(*rstride);
                for &idx in g.iter().skip(1).rev() {
                    let idx = idx as usize;
                    stride = stride.and_then(|x| (ss[idx] != dyn_).then(|| x.checked_mul(ss[idx])).flatten());
                    if ss[idx - 1] == 1 {
                        continue;
                    }
                    let src = strides[idx - 1];
                    if let Some(x) = stride {
                        if src != dyn_ && x != src {
                            return bad();
                        }
                    }
                }
            }
            Some((out, offset))
        };
        let same = match &layout {
            // Compared as attributes: `strided<[1]>` is not the identity's.
            None => {
                !matches!(rl.map(|a| m.ctx.attr_kind(a)), Some(Attribute::Strided { .. })) && self.identity_layout(*rl)
            }
            Some((st, off)) => matches!(rl.map(|a| m.ctx.attr_kind(a)),
                Some(Attribute::Strided { strides, offset }) if strides == st && offset == off),
        };
        if same && re == elem && rspace == space {
            return Ok(());
        }
        let dims: String = shape.iter().map(|d| format!("{}x", show(*d))).collect();
        let layout = match layout {
            None => String::new(),
            Some((st, off)) => {
                let st: Vec<String> = st.iter().map(|v| show(*v)).collect();
                let off = if off == 0 { String::new() } else { format!(", offset: {}", show(off)) };
                format!(", strided<[{}]{off}>", st.join(", "))
            }
        };
        let space =
            space.map(|a| format!(", {}", crate::printer::elided_attr_to_string(&m.ctx, a))).unwrap_or_default();
        let want = format!("memref<{dims}{}{layout}{space}>", self.ty(*elem));
        self.op_err(op, format!("expected collapsed type to be '{want}' but found '{}'", self.ty(r)))
    }

    /// The result layout of `memref.expand_shape` is the one MLIR's
    /// `computeExpandedType` infers: the identity for an identity source,
    /// else strided, each group's innermost dim taking the source stride and
    /// the others multiplying it by the sizes inside them; dims outside every
    /// group (a rank-0 source) get stride 1.
    fn expanded_layout(&self, op: OpId, s: TypeId, r: TypeId, groups: &[Vec<i64>]) -> VResult {
        use crate::layout::{dyn_mul, strides_and_offset};
        let m = self.m;
        let (TypeKind::MemRef { layout: sl, .. }, TypeKind::MemRef { shape, elem, layout: rl, space }) =
            (m.ctx.type_kind(s), m.ctx.type_kind(r))
        else {
            return Ok(());
        };
        let identity = |l: &Option<crate::attrs::AttrId>| self.identity_layout(*l);
        let show = |v: i64| if v == crate::types::DYNAMIC { "?".to_string() } else { v.to_string() };
        let space =
            space.map(|a| format!(", {}", crate::printer::elided_attr_to_string(&m.ctx, a))).unwrap_or_default();
        let dims: String = shape.iter().map(|d| format!("{}x", show(*d))).collect();
        let found = self.ty(r);
        if identity(sl) {
            if identity(rl) {
                return Ok(());
            }
            let want = format!("memref<{dims}{}{space}>", self.ty(*elem));
            return self.op_err(op, format!("expected expanded type to be '{want}' but found '{found}'"));
        }
        let Some((sstr, off)) = strides_and_offset(&m.ctx, s) else {
            return self.op_err(op, "invalid source layout map");
        };
        let mut strides = vec![1i64; shape.len()];
        for (g, stride) in groups.iter().zip(&sstr) {
            let mut cur = *stride;
            for &d in g.iter().rev() {
                let d = d as usize;
                strides[d] = cur;
                cur = dyn_mul(cur, shape[d]);
            }
        }
        let ok = matches!(rl.map(|a| m.ctx.attr_kind(a)), Some(Attribute::Strided { strides: rs, offset }) if *rs == strides && *offset == off);
        if ok {
            return Ok(());
        }
        let st: Vec<String> = strides.iter().map(|v| show(*v)).collect();
        let offset = if off == 0 { String::new() } else { format!(", offset: {}", show(off)) };
        let want = format!("memref<{dims}{}, strided<[{}]{offset}>{space}>", self.ty(*elem), st.join(", "));
        self.op_err(op, format!("expected expanded type to be '{want}' but found '{found}'"))
    }

    /// Whether a memref layout is the identity, as MLIR asks the layout's
    /// affine map: `strided<[1]>` (offset 0) is the identity map
    /// (d0) -> (d0); no other strided layout is.
    pub(super) fn identity_layout(&self, l: Option<crate::attrs::AttrId>) -> bool {
        match l.map(|a| self.m.ctx.attr_kind(a)) {
            None => true,
            Some(Attribute::AffineMap(map)) => map.is_identity(),
            Some(Attribute::Strided { strides, offset }) => strides.as_slice() == [1] && *offset == 0,
            Some(_) => false,
        }
    }

    /// tensor.reshape / memref.reshape.
    pub(super) fn reshape(&self, op: OpId, noun: &str) -> VResult {
        let (Some(s), Some(sh), Some(r)) = (self.opnd(op, 0), self.opnd(op, 1), self.res(op, 0)) else { return Ok(()) };
        let (sk, rk) = (self.m.ctx.type_kind(s), self.m.ctx.type_kind(r));
        if sk.elem() != rk.elem() {
            return self.op_err(op, format!("element types of source and destination {noun} types should be the same"));
        }
        if noun == "memref" {
            if let TypeKind::MemRef { layout, .. } = sk {
                if !self.identity_layout(*layout) {
                    return self.op_err(op, "source memref type should have identity affine map");
                }
            }
            if let TypeKind::MemRef { layout, .. } = rk {
                if !self.identity_layout(*layout) {
                    return self.op_err(op, "result memref type should have identity affine map");
                }
            }
        }
        let Some(rshape) = rk.shape() else { return Ok(()) };
        if noun == "tensor" {
            if let Some(sshape) = sk.shape() {
                let (a, b) = (crate::types::num_elements(sshape), crate::types::num_elements(rshape));
                if a.is_some() && b.is_some() && a != b {
                    return self.op_err(op, "source and destination tensor should have the same number of elements");
                }
            }
        }
        let len = self.shape_of(sh).and_then(|x| x.first().copied());
        match len {
            Some(crate::types::DYNAMIC) => self.op_err(
                op,
                format!("cannot use shape operand with dynamic length to reshape to statically-ranked {noun} type"),
            ),
            Some(n) if n != rshape.len() as i64 => {
                self.op_err(op, format!("length of shape operand differs from the result's {noun} rank"))
            }
            _ => Ok(()),
        }
    }

    /// Shapes agree where both are static (or a side is unranked).
    pub(super) fn shapes_compatible(&self, a: TypeId, b: TypeId) -> bool {
        match (self.shape_of(a), self.shape_of(b)) {
            (Some(x), Some(y)) => {
                x.len() == y.len()
                    && x.iter()
                        .zip(y)
                        .all(|(p, q)| p == q || *p == crate::types::DYNAMIC || *q == crate::types::DYNAMIC)
            }
            _ => true,
        }
    }

    /// tensor.cast (same element type) and tensor.bitcast (same element width).
    pub(super) fn tensor_cast(&self, op: OpId, bitcast: bool) -> VResult {
        let (Some(a), Some(b)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        // ODS's type constraints, as mlir-opt words them.
        let what = if bitcast {
            "tensor of signless integer or unsigned integer or signed integer or floating-point values"
        } else {
            "tensor of any type values"
        };
        let tensor = |t: TypeId| match self.m.ctx.type_kind(t) {
            TypeKind::RankedTensor { elem, .. } | TypeKind::UnrankedTensor { elem } => {
                !bitcast || matches!(self.m.ctx.type_kind(*elem), TypeKind::Integer { .. } | TypeKind::Float(_))
            }
            _ => false,
        };
        for (which, t) in [("operand", a), ("result", b)] {
            if !tensor(t) {
                return self.op_err(op, format!("{which} #0 must be {what}, but got '{}'", self.ty(t)));
            }
        }
        let (ea, eb) = (self.m.ctx.type_kind(a).elem(), self.m.ctx.type_kind(b).elem());
        let elems_ok = if bitcast { ea.and_then(|t| self.bits(t)) == eb.and_then(|t| self.bits(t)) } else { ea == eb };
        if !elems_ok || !self.shapes_compatible(a, b) {
            return self.op_err(
                op,
                format!("operand type '{}' and result type '{}' are cast incompatible", self.ty(a), self.ty(b)),
            );
        }
        Ok(())
    }

    pub(super) fn tensor_concat(&self, op: OpId) -> VResult {
        self.inherent(op)?;
        let ranked_tensor = |t: TypeId| matches!(self.m.ctx.type_kind(t), TypeKind::RankedTensor { .. });
        for (i, v) in self.m.operands(op).iter().enumerate() {
            let t = self.m.type_of(*v);
            if !ranked_tensor(t) {
                return self.op_err(
                    op,
                    format!(
                        "operand #{i} must be variadic of ranked tensor of any type values, but got '{}'",
                        self.ty(t)
                    ),
                );
            }
        }
        let Some(r) = self.res(op, 0) else { return Ok(()) };
        if !ranked_tensor(r) {
            return self
                .op_err(op, format!("result #0 must be ranked tensor of any type values, but got '{}'", self.ty(r)));
        }
        let Some((rs, re)) = self.ranked(r) else { return Ok(()) };
        let ins: Vec<(&[i64], TypeId)> =
            self.m.operands(op).iter().filter_map(|v| self.ranked(self.m.type_of(*v))).collect();
        if ins.is_empty() {
            return self.op_err(op, "requires at least one input");
        }
        if ins.iter().any(|(s, _)| s.len() != rs.len()) {
            return self.op_err(op, "rank of concatenated inputs must match result rank");
        }
        if ins.iter().any(|(_, e)| *e != re) {
            return self.op_err(op, "inputs and result element type must match");
        }
        let Some(dim) = self.m.attr(op, "dim").and_then(|a| match self.m.ctx.attr_kind(a) {
            Attribute::Integer { value, .. } => value.to_i64(),
            _ => None,
        }) else {
            return Ok(());
        };
        let Some(dim) = usize::try_from(dim).ok().filter(|d| *d < rs.len()) else {
            return self.op_err(op, "concatenation dim must be less than the tensor rank");
        };
        const DYN: i64 = crate::types::DYNAMIC;
        let mut sizes = vec![DYN; rs.len()];
        for (i, size) in sizes.iter_mut().enumerate() {
            if i == dim {
                *size = ins
                    .iter()
                    .try_fold(0i64, |a, (s, _)| if s[i] == DYN { None } else { a.checked_add(s[i]) })
                    .unwrap_or(DYN);
                continue;
            }
            for (s, _) in &ins {
                if *size == DYN {
                    *size = s[i];
                } else if s[i] != DYN && s[i] != *size {
                    return self.op_err(
                        op,
                        format!("static concatenation size mismatch along non-concatenated dimension {i}"),
                    );
                }
            }
        }
        if sizes.iter().zip(rs).any(|(a, b)| *a != DYN && *b != DYN && a != b) {
            return self.op_err(
                op,
                format!(
                    "result type '{}'does not match inferred shape '{}' static sizes",
                    self.ty(r),
                    self.tensor_text(&sizes, re)
                ),
            );
        }
        Ok(())
    }

    /// `incorrect number of dynamic sizes, has N, expected M`.
    pub(super) fn dynamic_sizes(&self, op: OpId, shaped: TypeId, n: usize) -> VResult {
        let Some(shape) = self.shape_of(shaped) else { return Ok(()) };
        let want = shape.iter().filter(|d| **d == crate::types::DYNAMIC).count();
        if n != want {
            return self.op_err(op, format!("incorrect number of dynamic sizes, has {n}, expected {want}"));
        }
        Ok(())
    }

    /// The entry block of region 0 and the type its terminator yields.
    fn body_and_yield(&self, op: OpId) -> Option<(BlockId, Option<TypeId>)> {
        let r = *self.m.regions(op).first()?;
        let b = *self.m.region(r).blocks.first()?;
        let y = self.m.terminator(b).and_then(|t| self.m.operands(t).first()).map(|v| self.m.type_of(*v));
        Some((b, y))
    }

    pub(super) fn tensor_generate(&self, op: OpId) -> VResult {
        let Some(r) = self.res(op, 0) else { return Ok(()) };
        self.dynamic_sizes(op, r, self.m.operands(op).len())?;
        let (Some((shape, elem)), Some((b, y))) = (self.ranked(r), self.body_and_yield(op)) else { return Ok(()) };
        let span = self.m.op(op).span;
        if self.m.args(b).any(|a| !matches!(self.m.ctx.type_kind(self.m.type_of(a)), TypeKind::Index)) {
            return self.err(span, "all body arguments must be index");
        }
        if self.m.args(b).len() != shape.len() {
            return self.err(span, "must have one body argument per input dimension");
        }
        if y.is_some_and(|t| t != elem) {
            return self.op_err(op, "body must be terminated with a `yield` operation of the tensor element type");
        }
        Ok(())
    }

    pub(super) fn tensor_pad(&self, op: OpId) -> VResult {
        let (Some(s), Some(r)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        let (Some((ss, se)), Some((rs, re))) = (self.ranked(s), self.ranked(r)) else { return Ok(()) };
        let (Some(lo), Some(hi)) = (self.ints(op, "static_low"), self.ints(op, "static_high")) else { return Ok(()) };
        let span = self.m.op(op).span;
        const DYN: i64 = crate::types::DYNAMIC;
        if lo.len() != ss.len() || hi.len() != ss.len() {
            return self.err(
                span,
                format!(
                    "failed to infer expectedType from sourceType '{}', specified resultType is '{}'",
                    self.ty(s),
                    self.ty(r)
                ),
            );
        }
        let want: Vec<i64> = (0..ss.len())
            .map(|i| {
                if ss[i] == DYN || lo[i] == DYN || hi[i] == DYN {
                    DYN
                } else {
                    ss[i].checked_add(lo[i]).and_then(|x| x.checked_add(hi[i])).unwrap_or(DYN)
                }
            })
            .collect();
        if rs.len() != want.len() || rs.iter().zip(&want).any(|(a, b)| a != b && *b != DYN) {
            return self.err(
                span,
                format!(
                    "specified type '{}' does not match the inferred type '{}'",
                    self.ty(r),
                    self.tensor_text(&want, se)
                ),
            );
        }
        let Some((b, y)) = self.body_and_yield(op) else { return Ok(()) };
        if self.m.args(b).len() != rs.len() {
            return self.err(span, format!("expected the block to have {} arguments", rs.len()));
        }
        for (i, a) in self.m.args(b).enumerate() {
            if !matches!(self.m.ctx.type_kind(self.m.type_of(a)), TypeKind::Index) {
                return self.op_err(op, format!("expected block argument {} to be an index", i + 1));
            }
        }
        if y.is_some_and(|t| t != re) {
            return self.op_err(op, "expected yield type to match shape element type");
        }
        Ok(())
    }

    /// tensor.gather / tensor.scatter dims (`verifyGatherOrScatterDims`).
    pub(super) fn tensor_gather_scatter(&self, op: OpId, scatter: bool) -> VResult {
        let (word, noun, base, idx) = if scatter { ("scatter", "dest", 1, 2) } else { ("gather", "source", 0, 1) };
        let (Some(b), Some(i)) = (self.opnd(op, base), self.opnd(op, idx)) else { return Ok(()) };
        let (Some(bs), Some(is)) = (self.shape_of(b), self.shape_of(i)) else { return Ok(()) };
        let Some(dims) = self.ints(op, &format!("{word}_dims")) else { return Ok(()) };
        let rank = bs.len() as i64;
        if dims.is_empty() {
            return self.op_err(op, format!("{word}_dims must be non-empty"));
        }
        if dims.len() as i64 > rank {
            return self.op_err(op, format!("{word}_dims overflow {noun} rank"));
        }
        if is.last() != Some(&(dims.len() as i64)) {
            return self.op_err(op, format!("{word}_dims length must match the size of last dimension of indices"));
        }
        for d in &dims {
            if *d < 0 {
                return self.op_err(op, format!("{word}_dims value must be non-negative"));
            }
            if *d >= rank {
                return self.op_err(op, format!("{word}_dims value must be smaller than {noun} rank"));
            }
        }
        if dims.windows(2).any(|w| w[0] >= w[1]) {
            return self.op_err(op, format!("{word}_dims values must be strictly increasing"));
        }
        if scatter && self.m.attr(op, "unique").is_none() {
            return self.op_err(op, "requires 'unique' attribute to be set");
        }
        let (got, what) = if scatter { (self.opnd(op, 0), "source") } else { (self.res(op, 0), "result") };
        let (Some(got), Some(elem)) = (got, self.m.ctx.type_kind(b).elem()) else { return Ok(()) };
        let lead = &is[..is.len().saturating_sub(1)];
        let infer = |reduced: bool| -> Vec<i64> {
            let mut v = lead.to_vec();
            for (i, d) in bs.iter().enumerate() {
                if !dims.contains(&(i as i64)) {
                    v.push(*d);
                } else if !reduced {
                    v.push(1);
                }
            }
            v
        };
        let (full, reduced) = (infer(false), infer(true));
        if self.shape_of(got).is_some_and(|g| g != full && g != reduced)
            || self.m.ctx.type_kind(got).elem() != Some(elem)
        {
            return self.op_err(
                op,
                format!(
                    "{what} type mismatch: expected '{}' or its rank-reduced variant '{}' (got: '{}')",
                    self.tensor_text(&full, elem),
                    self.tensor_text(&reduced, elem),
                    self.ty(got)
                ),
            );
        }
        Ok(())
    }

    pub(super) fn memref_copy(&self, op: OpId) -> VResult {
        let (Some(a), Some(b)) = (self.opnd(op, 0), self.opnd(op, 1)) else { return Ok(()) };
        let (ka, kb) = (self.m.ctx.type_kind(a), self.m.ctx.type_kind(b));
        if ka.elem() != kb.elem() {
            return self.op_err(op, "requires the same element type for all operands");
        }
        // SameOperandsShape compares shapes as compatible: `?` matches any size.
        if !self.shapes_compatible(a, b) {
            return self.op_err(op, "requires the same shape for all operands");
        }
        Ok(())
    }

    /// `memref.transpose`: a permutation of the input's rank, and a result
    /// type equivalent to the input's sizes and strides permuted, once
    /// both strided layouts are canonicalized (mlir-opt's
    /// TransposeOp::verify).
    pub(super) fn memref_transpose(&self, op: OpId) -> VResult {
        use crate::layout::{canonical_layout, canonical_strided, strides_and_offset};
        let m = self.m;
        let (Some(s), Some(r)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        let Some(shape) = self.shape_of(s) else { return Ok(()) };
        let Some(mp) = self.affine_map(op, "permutation") else { return Ok(()) };
        let perm: Option<Vec<usize>> = mp
            .results
            .iter()
            .map(|e| match e {
                crate::affine::AffineExpr::Dim(d) => Some(*d as usize),
                _ => None,
            })
            .collect();
        let is_perm = perm.as_ref().is_some_and(|p| {
            let mut q = p.clone();
            q.sort_unstable();
            p.len() == mp.num_dims as usize && q.iter().enumerate().all(|(i, d)| i == *d)
        });
        if !is_perm {
            return self.op_err(op, "expected a permutation map");
        }
        if mp.num_dims as usize != shape.len() {
            return self.op_err(op, "expected a permutation map of same rank as the input");
        }
        let (perm, Some((strides, offset))) = (perm.unwrap_or_default(), strides_and_offset(&m.ctx, s)) else {
            return Ok(());
        };
        let (TypeKind::MemRef { elem, space, .. }, TypeKind::MemRef { shape: rs, elem: re, space: rp, .. }) =
            (m.ctx.type_kind(s), m.ctx.type_kind(r))
        else {
            return Ok(());
        };
        let sizes: Vec<i64> = perm.iter().map(|d| shape[*d]).collect();
        let pstrides: Vec<i64> = perm.iter().map(|d| strides[*d]).collect();
        let want = canonical_strided(&sizes, &pstrides, offset);
        let Some(got) = canonical_layout(&m.ctx, r) else { return Ok(()) };
        if *rs == sizes && re == elem && rp == space && got == want {
            return Ok(());
        }
        let text = self.canonical_memref_text(&sizes, *elem, *space, &want);
        self.op_err(
            op,
            format!("result type '{}' is not equivalent to the canonical transposed input type '{text}'", self.ty(r)),
        )
    }

    /// A memref type with a canonical layout (see
    /// [`crate::layout::Canonical`]), as mlir-opt prints it.
    fn canonical_memref_text(
        &self,
        shape: &[i64],
        elem: TypeId,
        space: Option<crate::attrs::AttrId>,
        layout: &crate::layout::Canonical,
    ) -> String {
        use crate::layout::Canonical;
        let show = |v: i64| if v == crate::types::DYNAMIC { "?".to_string() } else { v.to_string() };
        let dims: String = shape.iter().map(|d| format!("{}x", show(*d))).collect();
        let layout = match layout {
            Canonical::Identity => String::new(),
            Canonical::Strided(st, off) => {
                let st: Vec<String> = st.iter().map(|v| show(*v)).collect();
                let off = if *off == 0 { String::new() } else { format!(", offset: {}", show(*off)) };
                format!(", strided<[{}]{off}>", st.join(", "))
            }
            Canonical::Map { syms, strides, offset } => {
                format!(", {}", crate::layout::canonical_map_text(*syms, strides, *offset))
            }
        };
        let space =
            space.map(|a| format!(", {}", crate::printer::elided_attr_to_string(&self.m.ctx, a))).unwrap_or_default();
        format!("memref<{dims}{}{layout}{space}>", self.ty(elem))
    }

    pub(super) fn memref_view(&self, op: OpId) -> VResult {
        let Some(s) = self.opnd(op, 0) else { return Ok(()) };
        let ok = match self.m.ctx.type_kind(s) {
            TypeKind::MemRef { shape, elem, .. } => shape.len() == 1 && self.m.ctx.type_kind(*elem).is_signless_int(8),
            _ => false,
        };
        if !ok {
            return self.op_err(
                op,
                format!("operand #0 must be 1D memref of 8-bit signless integer values, but got '{}'", self.ty(s)),
            );
        }
        let Some(r) = self.res(op, 0) else { return Ok(()) };
        self.dynamic_sizes(op, r, self.m.operands(op).len().saturating_sub(2))
    }
}

impl Verifier<'_> {
    /// `tensor.splat %v[%dyn..]`: a ranked tensor result of `%v`'s type with
    /// one index operand per dynamic dimension.
    pub(super) fn tensor_splat(&self, op: OpId) -> VResult {
        let m = self.m;
        for (i, v) in m.operands(op).iter().enumerate().skip(1) {
            let t = m.type_of(*v);
            if !matches!(m.ctx.type_kind(t), TypeKind::Index) {
                return self.op_err(op, format!("operand #{i} must be variadic of index, but got '{}'", self.ty(t)));
            }
        }
        let (Some(x), Some(r)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        let TypeKind::RankedTensor { shape, elem, .. } = m.ctx.type_kind(r) else {
            return self
                .op_err(op, format!("result #0 must be ranked tensor of any type values, but got '{}'", self.ty(r)));
        };
        if *elem != x {
            return self.op_err(op, "failed to verify that operand type matches element type of result");
        }
        let want = shape.iter().filter(|d| **d == crate::types::DYNAMIC).count();
        let n = m.operands(op).len() - 1;
        if n != want {
            return self.op_err(op, format!("incorrect number of dynamic sizes, has {n}, expected {want}"));
        }
        Ok(())
    }
}
