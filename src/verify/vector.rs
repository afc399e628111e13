//! Verifier rules of the vector dialect: shapes, positions, masks,
//! transfers, contraction, with mlir-opt's messages.

use super::*;
use crate::ops::VectorOp;

/// True when combining kind `kind` (`add`, `maxsi`, ...) applies to `elem`.
fn kind_supports(kind: &str, elem: &TypeKind) -> bool {
    let int = matches!(elem, TypeKind::Integer { .. } | TypeKind::Index);
    let float = matches!(elem, TypeKind::Float(_));
    match kind {
        "add" | "mul" => int || float,
        "minui" | "minsi" | "maxui" | "maxsi" | "and" | "or" | "xor" => int,
        "minnumf" | "maxnumf" | "minimumf" | "maximumf" => float,
        _ => false,
    }
}

impl<'m> Verifier<'m> {
    /// The optional `kind` of contract and outerproduct (their verifiers
    /// word the message themselves; absent means `add`).
    fn optional_kind(&self, op: OpId) -> VResult {
        match self.m.attr(op, "kind") {
            Some(a) if !super::inherent::Constraint::CombiningKind.holds(&self.m.ctx, a) => {
                self.op_err(op, "expected 'kind' attribute of type CombiningKind (e.g. 'vector.kind<add>')")
            }
            _ => Ok(()),
        }
    }

    /// `vector.scan`: a source of rank >= 1, an initial value of the source's
    /// shape without the reduction dim, results of the operands' types, and
    /// a kind that applies to the element type (mlir-opt's ScanOp::verify);
    /// also one element type for source and initial value, which mlir-opt's
    /// verifier does not ask but its lowering cannot do without.
    pub(super) fn vector_scan(&self, op: OpId) -> VResult {
        let (Some(s), Some(i), Some(d), Some(acc)) =
            (self.opnd(op, 0), self.opnd(op, 1), self.res(op, 0), self.res(op, 1))
        else {
            return Ok(());
        };
        // The source and the first result are vectors of rank >= 1.
        let nonzero_rank = |t: TypeId| self.vector(t).map(|v| v.0).filter(|sh| !sh.is_empty());
        let Some(shape) = nonzero_rank(s) else {
            return self.op_err(op, format!("operand #0 must be vector of any type values, but got '{}'", self.ty(s)));
        };
        let Some((init_shape, _, _)) = self.vector(i) else {
            return self.op_err(op, format!("operand #1 must be vector of any type values, but got '{}'", self.ty(i)));
        };
        if nonzero_rank(d).is_none() {
            return self.op_err(op, format!("result #0 must be vector of any type values, but got '{}'", self.ty(d)));
        }
        if self.vector(acc).is_none() {
            return self.op_err(op, format!("result #1 must be vector of any type values, but got '{}'", self.ty(acc)));
        }
        if s != d {
            return self.op_err(op, "failed to verify that all of {source, dest} have same type");
        }
        if i != acc {
            return self.op_err(op, "failed to verify that all of {initial_value, accumulated_value} have same type");
        }
        let rank = shape.len() as i64;
        let dim = match self.m.attr(op, "reduction_dim").map(|a| self.m.ctx.attr_kind(a)) {
            Some(Attribute::Integer { value, .. }) => value.to_i64().unwrap_or(i64::MAX),
            _ => return Ok(()),
        };
        if dim >= rank {
            return self.op_err(op, format!("reduction dimension {dim} has to be less than {rank}"));
        }
        if init_shape.len() as i64 != rank - 1 {
            return self.op_err(op, format!("initial value rank {} has to be equal to {}", init_shape.len(), rank - 1));
        }
        let want: Vec<i64> = shape.iter().enumerate().filter(|(k, _)| *k as i64 != dim).map(|(_, x)| *x).collect();
        if want != init_shape {
            return self.op_err(op, "incompatible input/initial value shapes");
        }
        let elem = self.scalar_of(d);
        if self.scalar_of(i) != elem {
            return self.op_err(
                op,
                format!(
                    "initial value element type '{}' differs from the source element type '{}' (mlir-opt's verifier \
                     lets this pass, its lowering of vector.scan does not)",
                    self.ty(self.scalar_of(i)),
                    self.ty(elem)
                ),
            );
        }
        if let Some(k) = self.combining_kind(op) {
            if !kind_supports(k, self.m.ctx.type_kind(elem)) {
                return self.op_err(op, format!("unsupported reduction type '{}' for kind '{k}'", self.ty(elem)));
            }
        }
        Ok(())
    }

    pub(super) fn vector_broadcast(&self, op: OpId) -> VResult {
        let (Some(s), Some(d)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        let Some((dshape, _, delem)) = self.vector(d) else { return Ok(()) };
        if self.scalar_of(s) != delem {
            return self.op_err(op, "failed to verify that source operand and result have same element type");
        }
        let Some((sshape, _, _)) = self.vector(s) else { return Ok(()) };
        let Some(lead) = dshape.len().checked_sub(sshape.len()) else {
            return self.op_err(op, "source rank higher than destination rank");
        };
        for (sd, dd) in sshape.iter().zip(&dshape[lead..]) {
            if *sd != 1 && sd != dd {
                return self.op_err(op, format!("dimension mismatch ({sd} vs. {dd})"));
            }
        }
        Ok(())
    }

    /// Checks constant positions against `shape`; `what` names the vector.
    fn positions_in_range(&self, op: OpId, pos: &[i64], shape: &[i64], what: &str) -> VResult {
        for (i, (p, d)) in pos.iter().zip(shape).enumerate() {
            if *p != crate::types::DYNAMIC && *p != -1 && (*p < 0 || p >= d) {
                let poison = if what == "vector" { " or poison (-1)" } else { "" };
                return self.op_err(
                    op,
                    format!("expected position attribute #{} to be a non-negative integer smaller than the corresponding {what} dimension{poison}", i + 1),
                );
            }
        }
        Ok(())
    }

    pub(super) fn vector_extract(&self, op: OpId) -> VResult {
        let (Some(s), Some(r)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        let (Some((shape, scal, elem)), Some(pos)) = (self.vector(s), self.ints(op, "static_position")) else {
            return Ok(());
        };
        if pos.len() > shape.len() {
            return self.op_err(op, "expected position attribute of rank no greater than vector rank");
        }
        self.positions_in_range(op, &pos, shape, "vector")?;
        let (rs, rc) = (&shape[pos.len()..], scal.get(pos.len()..).unwrap_or(&[]));
        let one_elem = crate::types::num_elements(rs) == Some(1);
        let ok = if rs.is_empty() { r == elem } else { self.is_vec(r, rs, rc, elem) || (one_elem && r == elem) };
        if !ok {
            let want = if rs.is_empty() { self.ty(elem) } else { self.vec_text(rs, rc, elem) };
            return self.op_err(
                op,
                format!("inferred type(s) '{want}' are incompatible with return type(s) of operation '{}'", self.ty(r)),
            );
        }
        Ok(())
    }

    /// `vector.extractelement`/`insertelement` (LLVM 21's rules): a 0-D
    /// vector takes no position, a 1-D vector one.
    pub(super) fn vector_element_access(&self, op: OpId, insert: bool) -> VResult {
        let at = usize::from(insert);
        let (Some(v), Some(r)) = (self.opnd(op, at), self.res(op, 0)) else {
            return self.op_err(op, "expected a vector operand and a result");
        };
        let Some((shape, _, elem)) = self.vector(v) else { return self.op_err(op, "expected a vector operand") };
        let positions = self.m.operands(op).len() - at - 1;
        match (shape.len(), positions) {
            (0, 0) | (1, 1) => {}
            (0, _) => return self.op_err(op, "expected position to be empty with 0-D vector"),
            (1, _) => return self.op_err(op, "expected position for 1-D vector"),
            _ => return self.op_err(op, "unexpected >1 vector rank"),
        }
        if let Some(p) = self.opnd(op, at + 1) {
            if !matches!(self.m.ctx.type_kind(p), TypeKind::Index | TypeKind::Integer { .. }) {
                return self.op_err(op, "position must be of signless integer or index type");
            }
        }
        if insert {
            if self.opnd(op, 0) != Some(elem) || r != v {
                return self.op_err(op, "failed to verify that source operand type matches element type of result");
            }
        } else if r != elem {
            return self.op_err(op, "failed to verify that result type matches element type of vector operand");
        }
        Ok(())
    }

    /// `vector.splat` (removed in LLVM 22): a scalar broadcast to a vector.
    pub(super) fn vector_splat(&self, op: OpId) -> VResult {
        let (Some(x), Some(r)) = (self.opnd(op, 0), self.res(op, 0)) else {
            return self.op_err(op, "expected one operand and one result");
        };
        match self.vector(r) {
            Some((_, _, elem)) if elem == x => Ok(()),
            _ => self.op_err(op, "failed to verify that operand type matches element type of result"),
        }
    }

    pub(super) fn vector_insert(&self, op: OpId) -> VResult {
        let (Some(v), Some(d)) = (self.opnd(op, 0), self.opnd(op, 1)) else { return Ok(()) };
        let (Some((dshape, _, delem)), Some(pos)) = (self.vector(d), self.ints(op, "static_position")) else {
            return Ok(());
        };
        if self.scalar_of(v) != delem {
            return self.op_err(op, "failed to verify that source operand and result have same element type");
        }
        if pos.len() > dshape.len() {
            return self.op_err(op, "expected position attribute of rank no greater than dest vector rank");
        }
        match self.vector(v) {
            Some((vs, _, _)) if vs.len().checked_add(pos.len()) != Some(dshape.len()) => {
                return self.op_err(op, "expected position attribute rank + source rank to match dest vector rank")
            }
            None if pos.len() != dshape.len() => {
                return self.op_err(op, "expected position attribute rank to match the dest vector rank")
            }
            _ => {}
        }
        self.positions_in_range(op, &pos, dshape, "dest vector")
    }

    /// `expected <name> attribute of rank no greater than vector rank`.
    fn attr_rank_le(&self, op: OpId, v: &[i64], shape: &[i64], name: &str) -> VResult {
        if v.len() > shape.len() {
            return self.op_err(op, format!("expected {name} attribute of rank no greater than vector rank"));
        }
        Ok(())
    }

    /// Each `v[i]` in `[min, shape[i] (+1 when closed))`.
    fn confined_to_shape(&self, op: OpId, v: &[i64], shape: &[i64], name: &str, closed: bool, min: i64) -> VResult {
        for (i, (x, d)) in v.iter().zip(shape).enumerate() {
            let max = if closed { d.saturating_add(1) } else { *d };
            if *x < min || *x >= max {
                return self.op_err(op, format!("expected {name} dimension {i} to be confined to [{min}, {max})"));
            }
        }
        Ok(())
    }

    /// Every stride is 1.
    fn unit_strides(&self, op: OpId, strides: &[i64]) -> VResult {
        if strides.iter().any(|s| *s != 1) {
            return self.op_err(op, "expected strides to be confined to [1, 2)");
        }
        Ok(())
    }

    /// `a[i] + b[i]` in `[1, shape[i] + 1)`.
    fn sum_confined(&self, op: OpId, a: &[i64], b: &[i64], shape: &[i64], names: (&str, &str)) -> VResult {
        for (i, ((x, y), d)) in a.iter().zip(b).zip(shape).enumerate() {
            let max = d.saturating_add(1);
            let sum = x.checked_add(*y);
            if !matches!(sum, Some(s) if s >= 1 && s < max) {
                return self.op_err(
                    op,
                    format!("expected sum({}, {}) dimension {i} to be confined to [1, {max})", names.0, names.1),
                );
            }
        }
        Ok(())
    }

    pub(super) fn vector_extract_strided_slice(&self, op: OpId) -> VResult {
        let (Some(s), Some(r)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        let Some((shape, scal, elem)) = self.vector(s) else { return Ok(()) };
        let (Some(offs), Some(sizes), Some(strides)) =
            (self.ints(op, "offsets"), self.ints(op, "sizes"), self.ints(op, "strides"))
        else {
            return Ok(());
        };
        if offs.len() != sizes.len() || offs.len() != strides.len() {
            return self.op_err(op, "expected offsets, sizes and strides attributes of same size");
        }
        self.attr_rank_le(op, &offs, shape, "offsets")?;
        self.attr_rank_le(op, &sizes, shape, "sizes")?;
        self.attr_rank_le(op, &strides, shape, "strides")?;
        self.confined_to_shape(op, &offs, shape, "offsets", false, 0)?;
        self.confined_to_shape(op, &sizes, shape, "sizes", true, 1)?;
        self.unit_strides(op, &strides)?;
        self.sum_confined(op, &offs, &sizes, shape, ("offsets", "sizes"))?;
        let mut want = sizes.clone();
        want.extend_from_slice(&shape[sizes.len()..]);
        if !self.is_vec(r, &want, scal, elem) {
            return self.op_err(op, format!("expected result type to be '{}'", self.vec_text(&want, scal, elem)));
        }
        Ok(())
    }

    pub(super) fn vector_insert_strided_slice(&self, op: OpId) -> VResult {
        let (Some(s), Some(d)) = (self.opnd(op, 0), self.opnd(op, 1)) else { return Ok(()) };
        let (Some((sshape, _, _)), Some((dshape, _, _))) = (self.vector(s), self.vector(d)) else { return Ok(()) };
        let (Some(offs), Some(strides)) = (self.ints(op, "offsets"), self.ints(op, "strides")) else { return Ok(()) };
        if offs.len() != dshape.len() {
            return self.op_err(op, "expected offsets of same size as destination vector rank");
        }
        if strides.len() != sshape.len() {
            return self.op_err(op, "expected strides of same size as source vector rank");
        }
        let Some(lead) = dshape.len().checked_sub(sshape.len()) else {
            return self.op_err(op, "expected source rank to be no greater than destination rank");
        };
        self.confined_to_shape(op, &offs, dshape, "offsets", false, 0)?;
        self.unit_strides(op, &strides)?;
        let mut src_as_dest = vec![1; lead];
        src_as_dest.extend_from_slice(sshape);
        self.sum_confined(op, &offs, &src_as_dest, dshape, ("offsets", "source vector shape"))
    }

    pub(super) fn vector_shuffle(&self, op: OpId) -> VResult {
        let (Some(a), Some(b), Some(r)) = (self.opnd(op, 0), self.opnd(op, 1), self.res(op, 0)) else { return Ok(()) };
        let (Some((ash, _, ae)), Some((bsh, _, be)), Some((rsh, _, re))) =
            (self.vector(a), self.vector(b), self.vector(r))
        else {
            return Ok(());
        };
        if ae != re {
            return self.op_err(op, "failed to verify that first operand v1 and result have same element type");
        }
        if be != re {
            return self.op_err(op, "failed to verify that second operand v2 and result have same element type");
        }
        let zero_d = ash.is_empty() && bsh.is_empty() && rsh.len() == 1;
        if !zero_d && (ash.len() != rsh.len() || bsh.len() != rsh.len()) {
            return self.op_err(op, "rank mismatch");
        }
        if (1..ash.len()).any(|i| rsh[i] != ash[i] || ash[i] != bsh[i]) {
            return self.op_err(op, "dimension mismatch");
        }
        let Some(mask) = self.ints(op, "mask") else { return Ok(()) };
        if mask.is_empty() {
            return self.op_err(op, "invalid mask length");
        }
        if rsh.first() != Some(&(mask.len() as i64)) {
            return self.op_err(op, "mask length mismatch");
        }
        let n = ash.first().copied().unwrap_or(1).saturating_add(bsh.first().copied().unwrap_or(1));
        for (i, p) in mask.iter().enumerate() {
            if *p != -1 && (*p < 0 || *p >= n) {
                return self.op_err(op, format!("mask index #{} out of range", i + 1));
            }
        }
        Ok(())
    }

    pub(super) fn vector_transpose(&self, op: OpId) -> VResult {
        let (Some(s), Some(r)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        let (Some((ssh, _, _)), Some((rsh, _, _)), Some(perm)) =
            (self.vector(s), self.vector(r), self.ints(op, "permutation"))
        else {
            return Ok(());
        };
        let rank = rsh.len();
        if ssh.len() != rank {
            return self.op_err(op, format!("vector result rank mismatch: {rank}"));
        }
        if perm.len() != rank {
            return self.op_err(op, format!("transposition length mismatch: {}", perm.len()));
        }
        let mut seen = vec![false; rank];
        for (i, p) in perm.iter().enumerate() {
            let Some(pu) = usize::try_from(*p).ok().filter(|x| *x < rank) else {
                return self.op_err(op, format!("transposition index out of range: {p}"));
            };
            if std::mem::replace(&mut seen[pu], true) {
                return self.op_err(op, format!("duplicate position index: {p}"));
            }
            if rsh[i] != ssh[pu] {
                return self.op_err(op, format!("dimension size mismatch at: {p}"));
            }
        }
        Ok(())
    }

    pub(super) fn vector_shape_cast(&self, op: OpId) -> VResult {
        let (Some(s), Some(r)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        let (Some((ssh, sc, se)), Some((rsh, rc, re))) = (self.vector(s), self.vector(r)) else { return Ok(()) };
        if se != re {
            return self.op_err(op, "has different source and result element types");
        }
        let (a, b) = (crate::types::num_elements(ssh), crate::types::num_elements(rsh));
        if a != b {
            let show = |n: Option<i64>| n.map(|x| x.to_string()).unwrap_or_else(|| "?".into());
            return self.op_err(
                op,
                format!("has different number of elements at source ({}) and result ({})", show(a), show(b)),
            );
        }
        let (na, nb) = (sc.iter().filter(|x| **x).count(), rc.iter().filter(|x| **x).count());
        if na != nb {
            return self
                .op_err(op, format!("has different number of scalable dims at source ({na}) and result ({nb})"));
        }
        Ok(())
    }

    pub(super) fn vector_bitcast(&self, op: OpId) -> VResult {
        let (Some(s), Some(r)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        let (Some((ssh, _, se)), Some((rsh, _, re))) = (self.vector(s), self.vector(r)) else { return Ok(()) };
        if ssh.len() != rsh.len() {
            return self.op_err(op, "failed to verify that all of {source, result} have same rank");
        }
        for i in 0..ssh.len().saturating_sub(1) {
            if ssh[i] != rsh[i] {
                return self.op_err(op, format!("dimension size mismatch at: {i}"));
            }
        }
        let (Some(sb), Some(rb)) = (self.bits(se), self.bits(re)) else { return Ok(()) };
        let minor = |sh: &[i64], b: u64| sh.last().map(|d| (*d as u64).checked_mul(b)).unwrap_or(Some(b));
        if ssh.is_empty() && sb != rb {
            return self.op_err(op, "source/result bitwidth of the 0-D vector element types must be equal");
        }
        if minor(ssh, sb) != minor(rsh, rb) {
            return self.op_err(op, "source/result bitwidth of the minor 1-D vectors must be equal");
        }
        Ok(())
    }

    pub(super) fn vector_reduction(&self, op: OpId) -> VResult {
        let (Some(s), Some(r)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        let Some((ssh, _, se)) = self.vector(s) else { return Ok(()) };
        if se != r {
            return self.op_err(op, "failed to verify that source operand and result have same element type");
        }
        if ssh.len() > 1 {
            return self.op_err(op, format!("unsupported reduction rank: {}", ssh.len()));
        }
        let Some(k) = self.combining_kind(op) else { return Ok(()) };
        if !kind_supports(k, self.m.ctx.type_kind(r)) {
            return self.op_err(op, format!("unsupported reduction type ''{}'' for kind '{k}'", self.ty(r)));
        }
        Ok(())
    }

    pub(super) fn vector_multi_reduction(&self, op: OpId) -> VResult {
        let (Some(s), Some(r)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        let (Some((ssh, sc, se)), Some(dims)) = (self.vector(s), self.ints(op, "reduction_dims")) else {
            return Ok(());
        };
        if self.opnd(op, 1).is_some_and(|acc| acc != r) {
            return self.op_err(op, "failed to verify that all of {dest, acc} have same type");
        }
        // mlir-opt accepts a dimension the source does not have (and its
        // lowering then indexes past the shape).
        if let Some(d) = dims.iter().find(|d| usize::try_from(**d).is_ok_and(|d| d >= ssh.len()) || **d < 0) {
            return self.op_err(
                op,
                format!(
                    "reduction dimension {d} is out of range for a source of rank {} (mlir-opt accepts it)",
                    ssh.len()
                ),
            );
        }
        let keep: Vec<usize> = (0..ssh.len()).filter(|i| !dims.contains(&(*i as i64))).collect();
        let shape: Vec<i64> = keep.iter().map(|i| ssh[*i]).collect();
        let scal: Vec<bool> = keep.iter().map(|i| sc.get(*i).copied().unwrap_or(false)).collect();
        let ok = if shape.is_empty() { r == se } else { self.is_vec(r, &shape, &scal, se) };
        if !ok {
            return self.op_err(
                op,
                format!("destination type '{}' is incompatible with source type '{}'", self.ty(r), self.ty(s)),
            );
        }
        match self.combining_kind(op) {
            Some(k) if !kind_supports(k, self.m.ctx.type_kind(se)) => self.op_err(
                op,
                format!(
                    "unsupported reduction type '{}' for kind '{k}' (mlir-opt's verifier lets this pass, its \
                     lowering of vector.multi_reduction does not)",
                    self.ty(se)
                ),
            ),
            _ => Ok(()),
        }
    }

    pub(super) fn vector_outerproduct(&self, op: OpId) -> VResult {
        let (Some(a), Some(b), Some(r)) = (self.opnd(op, 0), self.opnd(op, 1), self.res(op, 0)) else { return Ok(()) };
        let (Some((ash, _, _)), Some((rsh, _, re))) = (self.vector(a), self.vector(r)) else { return Ok(()) };
        if ash.len() != 1 {
            return self.op_err(op, "expected 1-d vector for operand #1");
        }
        match self.vector(b) {
            Some((bsh, _, _)) => {
                if bsh.len() != 1 {
                    return self.op_err(op, "expected 1-d vector for operand #2");
                }
                if rsh.len() != 2 {
                    return self.op_err(op, "expected 2-d vector result");
                }
                if ash[0] != rsh[0] {
                    return self.op_err(op, "expected #1 operand dim to match result dim #1");
                }
                if bsh[0] != rsh[1] {
                    return self.op_err(op, "expected #2 operand dim to match result dim #2");
                }
            }
            None => {
                if rsh.len() != 1 {
                    return self.op_err(op, "expected 1-d vector result");
                }
                if ash[0] != rsh[0] {
                    return self.op_err(op, "expected #1 operand dim to match result dim #1");
                }
            }
        }
        if matches!(self.opnd(op, 2), Some(c) if c != r) {
            return self.op_err(op, "expected operand #3 of same type as result type");
        }
        match self.combining_kind(op) {
            Some(k) if !kind_supports(k, self.m.ctx.type_kind(re)) => self.op_err(op, "unsupported outerproduct type"),
            _ => Ok(()),
        }
    }

    pub(super) fn vector_fma(&self, op: OpId) -> VResult {
        let is_fvec = |v: &Self, t: TypeId| matches!(v.vector(t), Some((_, _, e)) if v.float_width(e).is_some());
        self.check_elem(op, is_fvec, "vector of floating-point values")?;
        if self.all_types(op).windows(2).any(|w| w[0] != w[1]) {
            return self.op_err(op, "failed to verify that all of {lhs, rhs, acc, result} have same type");
        }
        Ok(())
    }
}

// ---- vector: memory, transfers, masks, contraction --------------------------

impl<'m> Verifier<'m> {
    /// `requires N indices` unless `n` indices address a `rank`-d base.
    fn index_count(&self, op: OpId, n: usize, rank: usize) -> VResult {
        if n != rank {
            return self.op_err(op, format!("requires {rank} indices"));
        }
        Ok(())
    }

    /// Shape and element type of a memref or ranked tensor.
    pub(super) fn ranked(&self, t: TypeId) -> Option<(&'m [i64], TypeId)> {
        match self.m.ctx.type_kind(t) {
            TypeKind::MemRef { shape, elem, .. } | TypeKind::RankedTensor { shape, elem, .. } => Some((shape, *elem)),
            _ => None,
        }
    }

    /// Whether a memref's innermost dim has a static unit stride (rank 0:
    /// yes; a layout map that is not a strided form: no), as
    /// `MemRefType::isLastDimUnitStride` decides.
    fn last_dim_unit_stride(&self, t: TypeId) -> bool {
        match crate::layout::strides_and_offset(&self.m.ctx, t) {
            Some((strides, _)) => strides.last().is_none_or(|s| *s == 1),
            None => false,
        }
    }

    /// vector.load / vector.store: `what` is `result` or `valueToStore`.
    pub(super) fn vector_load_store(&self, op: OpId, store: bool) -> VResult {
        let n = self.m.operands(op).len();
        let (base, vec, nidx) = if store {
            (self.opnd(op, 1), self.opnd(op, 0), n.saturating_sub(2))
        } else {
            (self.opnd(op, 0), self.res(op, 0), n.saturating_sub(1))
        };
        let (Some(b), Some(v)) = (base, vec) else { return Ok(()) };
        let (Some((shape, mut elem)), Some((vshape, scalable, ve))) = (self.ranked(b), self.vector(v)) else {
            return Ok(());
        };
        // A one-element fixed vector is a scalar access: any layout will do.
        let scalar_like = !scalable.iter().any(|s| *s) && vshape.iter().product::<i64>() == 1;
        if !scalar_like && !self.last_dim_unit_stride(b) {
            return self.op_err(op, "most minor memref dim must have unit stride");
        }
        if shape.len() < vshape.len() {
            return self.op_err(
                op,
                if store {
                    "source memref has lower rank than the vector to store"
                } else {
                    "destination memref has lower rank than the result vector"
                },
            );
        }
        let what = if store { "valueToStore" } else { "result" };
        if let Some((_, _, inner)) = self.vector(elem) {
            if elem != v {
                return self.op_err(op, format!("base memref and {what} vector types should match"));
            }
            elem = inner;
        }
        if ve != elem {
            let verb = if store { "type" } else { "types" };
            return self.op_err(op, format!("base and {what} element {verb} should match"));
        }
        self.index_count(op, nidx, shape.len())
    }

    /// maskedload/maskedstore/expandload/compressstore/gather/scatter.
    /// Operands: base, indices.., [index vector,] mask, pass_thru or value.
    pub(super) fn vector_masked_memory(&self, op: OpId, store: bool, gather: bool) -> VResult {
        let n = self.m.operands(op).len();
        let tail = if gather { 3 } else { 2 };
        let Some(nidx) = n.checked_sub(1 + tail) else { return Ok(()) };
        let (Some(b), Some(mask), Some(last)) = (self.opnd(op, 0), self.opnd(op, n - 2), self.opnd(op, n - 1)) else {
            return Ok(());
        };
        let v = if store { Some(last) } else { self.res(op, 0) };
        let Some(v) = v else { return Ok(()) };
        let (Some((shape, elem)), Some((vsh, _, ve)), Some((msh, _, _))) =
            (self.ranked(b), self.vector(v), self.vector(mask))
        else {
            return Ok(());
        };
        let what = if store { "valueToStore" } else { "result" };
        if ve != elem {
            return self.op_err(op, format!("base and {what} element type should match"));
        }
        self.index_count(op, nidx, shape.len())?;
        let noun =
            if gather || self.kind(op) == OpKind::VectorExpandload || self.kind(op) == OpKind::VectorCompressstore {
                "dim"
            } else {
                "shape"
            };
        if gather {
            let idx = self.opnd(op, n - 3).and_then(|t| self.vector(t)).map(|x| x.0);
            if idx.is_some_and(|s| s != vsh) {
                return self.op_err(op, format!("expected {what} dim to match indices dim"));
            }
        }
        if msh != vsh {
            return self.op_err(op, format!("expected {what} {noun} to match mask {noun}"));
        }
        if !store && last != v {
            return self.op_err(op, "expected pass_thru of same type as result type");
        }
        Ok(())
    }

    /// Operand segment sizes of an op with variadic operand groups.
    pub(super) fn segments(&self, op: OpId) -> Option<Vec<usize>> {
        match self.m.ctx.attr_kind(self.m.attr(op, "operandSegmentSizes")?) {
            Attribute::DenseArray { values: crate::attrs::DenseValues::Ints(v), .. } => {
                v.iter().map(|x| x.to_i64().and_then(|y| usize::try_from(y).ok())).collect()
            }
            _ => None,
        }
    }

    /// vector.transfer_read and vector.transfer_write.
    pub(super) fn vector_transfer(&self, op: OpId, read: bool) -> VResult {
        let Some(seg) = self.segments(op).filter(|s| s.len() == 4) else { return Ok(()) };
        let (shaped, vector) =
            if read { (self.opnd(op, 0), self.res(op, 0)) } else { (self.opnd(op, 1), self.opnd(op, 0)) };
        let nidx = if read { seg[1] } else { seg[2] };
        let (Some(st), Some(vt)) = (shaped, vector) else { return Ok(()) };
        // mlir-opt counts the indices against any shaped type's rank (an
        // unranked tensor's reads as 0) before it asks for a memref or a
        // ranked tensor.
        let rank = match self.m.ctx.type_kind(st) {
            TypeKind::Vector { shape, .. } | TypeKind::MemRef { shape, .. } | TypeKind::RankedTensor { shape, .. } => {
                shape.len()
            }
            _ => 0,
        };
        self.index_count(op, nidx, rank)?;
        let Some((shape, elem)) = self.ranked(st) else {
            return self.op_err(op, "requires source to be a memref or ranked tensor type");
        };
        let Some(map_attr) = self.m.attr(op, "permutation_map") else { return Ok(()) };
        let Attribute::AffineMap(map) = self.m.ctx.attr_kind(map_attr) else { return Ok(()) };
        let Some((vsh, _, ve)) = self.vector(vt) else { return Ok(()) };
        use crate::affine::AffineExpr;
        if !read && map.results.contains(&AffineExpr::Const(0)) {
            return self.op_err(op, "should not have broadcast dimensions");
        }
        if self.vector(elem).is_none() {
            let minor = vsh.last().copied().unwrap_or(1) as u64;
            if let (Some(vb), Some(eb)) = (self.bits(ve), self.bits(elem)) {
                if eb == 0 || vb.saturating_mul(minor) % eb != 0 {
                    return self.op_err(op, "requires the bitwidth of the minor 1-D vector to be an integral multiple of the bitwidth of the source element type");
                }
            }
            if map.results.len() != vsh.len() {
                return self
                    .op_err(op, "requires a permutation_map with result dims of the same rank as the vector type");
            }
        }
        if map.num_syms != 0 {
            return self.op_err(op, "requires permutation_map without symbols");
        }
        if map.num_dims as usize != shape.len() {
            return self.op_err(op, "requires a permutation_map with input dims of the same rank as the source type");
        }
        if let Some(Attribute::Array(ib)) = self.m.attr(op, "in_bounds").map(|a| self.m.ctx.attr_kind(a)) {
            if ib.len() != map.results.len() {
                let text = crate::printer::attr_to_string(&self.m.ctx, map_attr);
                return self.op_err(
                    op,
                    format!(
                        "expects the in_bounds attr of same rank as permutation_map results: {text} vs inBounds of size: {}",
                        ib.len()
                    ),
                );
            }
        }
        if read {
            let pad = seg.get(..2).map(|s| s.iter().sum::<usize>()).and_then(|i| self.opnd(op, i));
            if let Some(p) = pad {
                if self.vector(elem).is_some() && p != elem {
                    return self.op_err(op, "requires source element type and padding type to match.");
                }
                if p != elem {
                    return self.op_err(op, "requires formal padding and source of the same elemental type");
                }
            }
        }
        let mut seen = vec![false; map.num_dims as usize];
        for e in &map.results {
            match e {
                AffineExpr::Const(0) => {}
                AffineExpr::Dim(d) if seen.get(*d as usize) == Some(&true) => {
                    return self.op_err(
                        op,
                        "requires a permutation_map that is a permutation (found one dim used more than once)",
                    )
                }
                AffineExpr::Dim(d) if (*d as usize) < seen.len() => seen[*d as usize] = true,
                _ => {
                    return self.op_err(op, "requires a projected permutation_map (at most one dim or the zero constant can appear in each result)")
                }
            }
        }
        if !read {
            self.dps(op, 1, &self.m.operands(op)[1..2])?;
        }
        Ok(())
    }

    pub(super) fn vector_create_mask(&self, op: OpId) -> VResult {
        let Some((shape, _, _)) = self.res(op, 0).and_then(|t| self.vector(t)) else { return Ok(()) };
        let n = self.m.operands(op).len();
        if shape.is_empty() && n != 1 {
            return self.op_err(op, "must specify exactly one operand for 0-D create_mask");
        }
        if !shape.is_empty() && n != shape.len() {
            return self.op_err(op, "must specify an operand for each result vector dimension");
        }
        Ok(())
    }

    pub(super) fn vector_constant_mask(&self, op: OpId) -> VResult {
        let Some((shape, scal, _)) = self.res(op, 0).and_then(|t| self.vector(t)) else { return Ok(()) };
        let Some(sizes) = self.ints(op, "mask_dim_sizes") else { return Ok(()) };
        if shape.is_empty() {
            return Ok(());
        }
        if sizes.len() != shape.len() {
            return self.op_err(op, "must specify array attr of size equal vector result rank");
        }
        for (i, s) in sizes.iter().enumerate() {
            if *s < 0 || *s > shape[i] {
                return self.op_err(op, "array attr of size out of bounds of vector result dimension size");
            }
            if scal.get(i) == Some(&true) && *s != 0 && *s != shape[i] {
                return self.op_err(op, "only supports 'none set' or 'all set' scalable dimensions");
            }
        }
        if sizes.contains(&0) && sizes.iter().any(|s| *s != 0) {
            return self
                .op_err(op, "expected all mask dim sizes to be zeros, as a result of conjunction with zero mask dim");
        }
        Ok(())
    }

    /// from_elements / to_elements: one scalar per element, of the element type.
    pub(super) fn vector_elements(&self, op: OpId, from: bool) -> VResult {
        let (vec, scalars): (Option<TypeId>, Vec<TypeId>) = if from {
            (self.res(op, 0), self.m.operands(op).iter().map(|v| self.m.type_of(*v)).collect())
        } else {
            (self.opnd(op, 0), self.m.results(op).map(|v| self.m.type_of(v)).collect())
        };
        let Some((shape, _, elem)) = vec.and_then(|t| self.vector(t)) else { return Ok(()) };
        let count = crate::types::num_elements(shape);
        if count != Some(scalars.len() as i64) || scalars.iter().any(|t| *t != elem) {
            let (v, e) = if from { ("dest", "elements") } else { ("source", "elements") };
            return self
                .op_err(op, format!("failed to verify that shaped type '{v}' matches '{e}' element count and types"));
        }
        Ok(())
    }

    pub(super) fn vector_step(&self, op: OpId) -> VResult {
        let Some(r) = self.res(op, 0) else { return Ok(()) };
        let ok = matches!(self.vector(r), Some((s, _, e)) if s.len() == 1 && matches!(self.m.ctx.type_kind(e), TypeKind::Index));
        if !ok {
            return self
                .op_err(op, format!("result #0 must be vector of index values of ranks 1, but got '{}'", self.ty(r)));
        }
        Ok(())
    }

    /// interleave: result = operand with the trailing dim doubled;
    /// deinterleave: results = operand with the trailing dim halved.
    pub(super) fn vector_interleave(&self, op: OpId, inter: bool) -> VResult {
        let (Some(s), Some(r)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        let Some((ssh, sc, se)) = self.vector(s) else { return Ok(()) };
        let mut want = ssh.to_vec();
        let mut scal = sc.to_vec();
        if inter {
            match want.last_mut() {
                Some(d) => *d = d.saturating_mul(2),
                None => {
                    want.push(2);
                    scal.push(false);
                }
            }
            if !self.is_vec(r, &want, &scal, se) {
                return self.op_err(op, "failed to verify that type of 'result' is double the width of the inputs");
            }
            return Ok(());
        }
        if ssh.last().is_some_and(|d| d % 2 != 0) {
            return self.op_err(
                op,
                "failed to verify that the trailing dimension of the source vector has an even number of elements",
            );
        }
        if let Some(d) = want.last_mut() {
            *d /= 2;
        }
        if !self.is_vec(r, &want, &scal, se) {
            return self.op_err(op, "failed to verify that the trailing dimension of the results is half the width of source trailing dimension");
        }
        Ok(())
    }

    pub(super) fn vector_contract(&self, op: OpId) -> VResult {
        use crate::affine::{AffineExpr, AffineMap};
        let (Some(a), Some(b), Some(c), Some(r)) =
            (self.opnd(op, 0), self.opnd(op, 1), self.opnd(op, 2), self.res(op, 0))
        else {
            return Ok(());
        };
        let (Some((ash, _, ae)), Some((bsh, _, _))) = (self.vector(a), self.vector(b)) else { return Ok(()) };
        if matches!(self.m.ctx.type_kind(ae), TypeKind::Integer { signedness, .. } if *signedness != Signedness::Signless)
        {
            return self.op_err(op, "only supports signless integer types");
        }
        let Some(Attribute::Array(ms)) = self.m.attr(op, "indexing_maps").map(|x| self.m.ctx.attr_kind(x)) else {
            return Ok(());
        };
        let maps: Vec<&AffineMap> = ms
            .iter()
            .filter_map(|x| match self.m.ctx.attr_kind(*x) {
                Attribute::AffineMap(mp) => Some(mp),
                _ => None,
            })
            .collect();
        if maps.len() != 3 {
            return self.op_err(op, "expected an indexing map for each vector operand");
        }
        let Some(Attribute::Array(its)) = self.m.attr(op, "iterator_types").map(|x| self.m.ctx.attr_kind(x)) else {
            return Ok(());
        };
        let iters: Vec<Option<&str>> = its.iter().map(|x| self.vector_enum(*x, ".iterator_type")).collect();
        let n = iters.len();
        for (i, mp) in maps.iter().enumerate() {
            if mp.num_syms != 0 {
                return self.op_err(op, format!("expected indexing map {i} to have no symbols"));
            }
            let rank = self.opnd(op, i).and_then(|t| self.vector(t)).map(|v| v.0.len()).unwrap_or(0);
            if mp.num_dims as usize != n {
                return self.op_err(op, format!("expected indexing map {i} to have {n} number of inputs"));
            }
            if mp.results.len() != rank {
                return self.op_err(op, format!("expected indexing map {i} to have {rank} number of outputs"));
            }
            let mut seen = vec![false; n];
            let perm = mp.results.iter().all(|e| match e {
                AffineExpr::Dim(d) => seen.get_mut(*d as usize).is_some_and(|s| !std::mem::replace(s, true)),
                _ => false,
            });
            if !perm {
                return self
                    .op_err(op, format!("expected indexing map {i} to be a projected permutation of its inputs"));
            }
        }
        let pos = |mp: &AffineMap, d: usize| mp.results.iter().position(|e| *e == AffineExpr::Dim(d as u32));
        let pairs = |kind: &str| -> Vec<(usize, usize)> {
            (0..n)
                .filter(|d| iters[*d] == Some(kind))
                .filter_map(|d| Some((pos(maps[0], d)?, pos(maps[1], d)?)))
                .collect()
        };
        let (contracting, batch) = (pairs("reduction"), pairs("parallel"));
        if contracting.is_empty() {
            return self.op_err(op, "expected at least one contracting dimension pair");
        }
        let dims_agree =
            |ps: &[(usize, usize)]| ps.iter().all(|(l, r)| ash.get(*l).is_some() && ash.get(*l) == bsh.get(*r));
        if !dims_agree(&contracting) {
            return self.op_err(op, "invalid contracting dimension map");
        }
        if !dims_agree(&batch) {
            return self.op_err(op, "invalid batch dimension map");
        }
        let free_l = (0..ash.len()).filter(|i| !contracting.iter().any(|p| p.0 == *i)).count();
        let free_r = (0..bsh.len()).filter(|i| !contracting.iter().chain(&batch).any(|p| p.1 == *i)).count();
        let (rv, cv) = (self.vector(r), self.vector(c));
        if free_l + free_r == 0 {
            if rv.is_some() || cv.is_some() {
                return self.op_err(op, "invalid accumulator/result vector shape");
            }
        } else {
            let (Some((_, rsc, re)), Some(_)) = (rv, cv) else {
                return self.op_err(op, "invalid accumulator/result vector shape");
            };
            let mut extents: Vec<Option<i64>> = vec![None; n];
            for (sh, mp) in [(ash, maps[0]), (bsh, maps[1])] {
                for (size, e) in sh.iter().zip(&mp.results) {
                    if let AffineExpr::Dim(d) = e {
                        if let Some(x) = extents.get_mut(*d as usize) {
                            x.get_or_insert(*size);
                        }
                    }
                }
            }
            if extents.iter().any(Option::is_none) {
                return self.op_err(op, "expected all dimensions to be either a LHS or a RHS dimension");
            }
            let shape: Vec<i64> = maps[2]
                .results
                .iter()
                .map(|e| match e {
                    AffineExpr::Dim(d) => extents.get(*d as usize).copied().flatten().unwrap_or(0),
                    _ => 0,
                })
                .collect();
            if !self.is_vec(r, &shape, rsc, re) || !self.is_vec(c, &shape, rsc, re) {
                return self.op_err(
                    op,
                    format!("invalid accumulator/result vector shape, expected: '{}'", self.vec_text(&shape, rsc, re)),
                );
            }
        }
        let re = self.scalar_of(r);
        match self.combining_kind(op) {
            Some(k) if !kind_supports(k, self.m.ctx.type_kind(re)) => self.op_err(op, "unsupported contraction type"),
            _ => Ok(()),
        }
    }
}

impl Verifier<'_> {
    /// Checks one op of the vector dialect.
    pub(super) fn check_vector(&self, op: OpId, o: VectorOp) -> VResult {
        if matches!(o, VectorOp::Contract | VectorOp::Outerproduct) {
            // Converted when the op is built, before it is verified.
            self.optional_kind(op)?;
        }
        self.inherent(op)?;
        match o {
            VectorOp::Bitcast => self.vector_bitcast(op),
            VectorOp::Broadcast => self.vector_broadcast(op),
            VectorOp::Compressstore => self.vector_masked_memory(op, true, false),
            VectorOp::ConstantMask => self.vector_constant_mask(op),
            VectorOp::Contract => self.vector_contract(op),
            VectorOp::CreateMask => self.vector_create_mask(op),
            VectorOp::Deinterleave => self.vector_interleave(op, false),
            VectorOp::Expandload => self.vector_masked_memory(op, false, false),
            VectorOp::Extract => self.vector_extract(op),
            VectorOp::Extractelement => self.vector_element_access(op, false),
            VectorOp::Insertelement => self.vector_element_access(op, true),
            VectorOp::Splat => self.vector_splat(op),
            VectorOp::ExtractStridedSlice => self.vector_extract_strided_slice(op),
            VectorOp::Fma => self.vector_fma(op),
            VectorOp::FromElements => self.vector_elements(op, true),
            VectorOp::Gather => self.vector_masked_memory(op, false, true),
            VectorOp::Insert => self.vector_insert(op),
            VectorOp::InsertStridedSlice => self.vector_insert_strided_slice(op),
            VectorOp::Interleave => self.vector_interleave(op, true),
            VectorOp::Load => self.vector_load_store(op, false),
            VectorOp::Maskedload => self.vector_masked_memory(op, false, false),
            VectorOp::Maskedstore => self.vector_masked_memory(op, true, false),
            VectorOp::MultiReduction => self.vector_multi_reduction(op),
            VectorOp::Outerproduct => self.vector_outerproduct(op),
            VectorOp::Reduction => self.vector_reduction(op),
            VectorOp::Scan => self.vector_scan(op),
            VectorOp::Scatter => self.vector_masked_memory(op, true, true),
            VectorOp::ShapeCast => self.vector_shape_cast(op),
            VectorOp::Shuffle => self.vector_shuffle(op),
            VectorOp::Step => self.vector_step(op),
            VectorOp::Store => self.vector_load_store(op, true),
            VectorOp::ToElements => self.vector_elements(op, false),
            VectorOp::TransferRead => self.vector_transfer(op, true),
            VectorOp::TransferWrite => self.vector_transfer(op, false),
            VectorOp::Transpose => self.vector_transpose(op),
            VectorOp::TypeCast => self.vector_type_cast(op),
            VectorOp::Mask => {
                // mlir-opt's MaskOp::verify: the masked op and the terminator.
                let m = self.m;
                let body = m.regions(op).first().and_then(|r| m.region(*r).blocks.first());
                if body.is_some_and(|b| m.block(*b).ops.len() > 2) {
                    return self.op_err(op, "expects only one operation to mask");
                }
                Ok(())
            }
            VectorOp::Print
            | VectorOp::ScalableExtract
            | VectorOp::ScalableInsert
            | VectorOp::Vscale
            | VectorOp::Yield => Ok(()),
        }
    }
}

impl Verifier<'_> {
    /// `vector.type_cast`: identity layouts in one memory space, and the
    /// result's vector element spelling out the operand's trailing shape
    /// over the same scalar type (mlir-opt's TypeCastOp::verify, in its
    /// order).
    fn vector_type_cast(&self, op: OpId) -> VResult {
        let m = self.m;
        let (Some(s), Some(r)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        let (
            TypeKind::MemRef { shape: ss, elem: se, layout: sl, space: sp },
            TypeKind::MemRef { shape: rs, elem: re, layout: rl, space: rp },
        ) = (m.ctx.type_kind(s), m.ctx.type_kind(r))
        else {
            return Ok(());
        };
        // MLIR canonicalizes the operand's strided layout first: the
        // contiguous strides of a static shape are the identity.
        let contiguous = crate::layout::strides_and_offset(&m.ctx, s)
            .is_some_and(|(st, off)| off == 0 && st == crate::layout::canonical_strides(ss));
        if !self.identity_layout(*sl) && !contiguous {
            return self.op_err(op, "expects operand to be a memref with identity layout");
        }
        if !self.identity_layout(*rl) {
            return self.op_err(op, "expects result to be a memref with identity layout");
        }
        if sp != rp {
            return self.op_err(op, "expects result in same memory space");
        }
        // Element type (or a vector's) and shape with a vector's dims appended.
        let flat = |shape: &[i64], elem: TypeId| -> (Vec<i64>, TypeId) {
            match self.vector(elem) {
                Some((vs, _, ve)) => ([shape, vs].concat(), ve),
                None => (shape.to_vec(), elem),
            }
        };
        let ((sshape, sscalar), (rshape, rscalar)) = (flat(ss, *se), flat(rs, *re));
        let rt = self.ty(r);
        if sscalar != rscalar {
            return self.op_err(op, format!("expects result and operand with same underlying scalar type: '{rt}'"));
        }
        if sshape != rshape {
            return self.op_err(op, format!("expects concatenated result and operand shapes to be equal: '{rt}'"));
        }
        Ok(())
    }
}
