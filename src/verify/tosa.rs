//! Verifier rules of the tosa dialect: the ODS operand and result
//! constraints and op verifiers of LLVM 22's `TosaOps.td`, with mlir-opt's
//! messages (read off mlir-opt 22). What mlir-opt lets through but the
//! specification's `ERROR_IF`s forbid (a shape that only a run reveals, an
//! element type the operator does not take) is the engine's to report.

use super::*;
use crate::ops::TosaOp;

/// What an operand or result of a tosa op must be.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Slot {
    /// A ranked or unranked tensor.
    Tensor,
    /// A `!tosa.shape<N>`.
    Shape,
}

/// The kinds of `o`'s operands (the last entry repeats for variadic ones).
fn operand_slots(o: TosaOp) -> &'static [Slot] {
    use Slot::*;
    use TosaOp::*;
    match o {
        Reshape | Tile => &[Tensor, Shape],
        Slice => &[Tensor, Shape, Shape],
        Pad => &[Tensor, Shape, Tensor],
        Resize => &[Tensor, Shape, Shape, Shape],
        AddShape | SubShape | MulShape | DivCeilShape | DivFloorShape | ModShape | MaxShape | MinShape
        | ConcatShape | Exp2Shape | Log2CeilShape | Log2FloorShape => &[Shape],
        SliceShape => &[Shape, Tensor, Tensor],
        _ => &[Tensor],
    }
}

/// In `tosa_ranks`, an operand or result whose rank ODS leaves open.
const ANY_RANK: usize = usize::MAX;

impl<'m> Verifier<'m> {
    /// The rules of one tosa op.
    pub(super) fn check_tosa(&self, op: OpId, o: TosaOp) -> VResult {
        use TosaOp::*;
        if !matches!(
            o,
            CondIf
                | WhileLoop
                | Yield
                | Variable
                | VariableRead
                | VariableWrite
                | Custom
                | Const
                | ConstShape
                | CastFromBlockScaled
                | CastToBlockScaled
                | MatmulTBlockScaled
                | ApplyScale
        ) {
            self.tosa_slots(op, o)?;
        }
        match o {
            Const | ConstShape => self.tosa_const(op),
            Add | Sub | Intdiv | Maximum | Minimum | Pow | BitwiseAnd | BitwiseOr | BitwiseXor | LogicalAnd
            | LogicalOr | LogicalXor | LogicalLeftShift | LogicalRightShift | ArithmeticRightShift => {
                self.tosa_same_elements(op, true)?;
                self.tosa_broadcast(op, 2)
            }
            Mul => {
                self.tosa_same_operand_elements(op, 2)?;
                self.tosa_broadcast(op, 2)
            }
            Equal | Greater | GreaterEqual => {
                self.tosa_bool_result(op)?;
                self.tosa_same_operand_elements(op, 2)?;
                self.tosa_broadcast(op, 2)
            }
            Abs | BitwiseNot | LogicalNot | Ceil | Floor | Clz | Exp | Log | Sin | Cos | Tanh | Erf | Sigmoid
            | Reciprocal | Rsqrt | Identity => {
                self.tosa_same_elements(op, true)?;
                self.tosa_same_shape(op)
            }
            Clamp => {
                self.tosa_same_elements(op, true)?;
                self.tosa_same_shape(op)
            }
            Negate => {
                self.tosa_same_elements_of(op, &[0], true)?;
                self.tosa_same_shape_of(op, &[0])
            }
            Cast => self.tosa_same_shape(op),
            Select => self.tosa_select(op),
            Transpose => self.tosa_transpose(op),
            ReduceAll | ReduceAny | ReduceMax | ReduceMin | ReduceProduct | ReduceSum => self.tosa_reduce(op, "reduce"),
            Reverse => self.tosa_axis(op, "reverse").map(|_| ()),
            Argmax => self.tosa_argmax(op),
            Concat => self.tosa_concat(op),
            Conv2d | DepthwiseConv2d => self.tosa_conv(op, 2, o == DepthwiseConv2d),
            Conv3d => self.tosa_conv(op, 3, false),
            TransposeConv2d => self.tosa_transpose_conv(op),
            AvgPool2d => self.tosa_avg_pool(op),
            MaxPool2d => self.tosa_max_pool(op),
            Resize => self.tosa_resize(op),
            Rescale => self.tosa_rescale(op),
            VariableRead | VariableWrite => self.tosa_variable_use(op, o == VariableRead),
            CastFromBlockScaled | CastToBlockScaled | MatmulTBlockScaled => self.check_tosa_mx(op, o),
            ApplyScale => self.tosa_apply_scale(op),
            _ => Ok(()),
        }
    }

    /// The printed dims of a shape (`2x3`, `?` for dynamic).
    fn tosa_dims(shape: &[i64]) -> String {
        shape
            .iter()
            .map(|d| if *d == crate::types::DYNAMIC { "?".to_owned() } else { d.to_string() })
            .collect::<Vec<_>>()
            .join("x")
    }

    /// The ranked shape of a tensor type.
    fn tosa_shape(&self, t: TypeId) -> Option<&'m [i64]> {
        match self.m.ctx.type_kind(t) {
            TypeKind::RankedTensor { shape, .. } => Some(shape),
            _ => None,
        }
    }

    /// The element type of a tensor type.
    fn tosa_elem(&self, t: TypeId) -> Option<TypeId> {
        match self.m.ctx.type_kind(t) {
            TypeKind::RankedTensor { elem, .. } | TypeKind::UnrankedTensor { elem } => Some(*elem),
            _ => None,
        }
    }

    /// Operands and results are tensors or shapes as the op declares.
    fn tosa_slots(&self, op: OpId, o: TosaOp) -> VResult {
        let slots = operand_slots(o);
        let is_shape = |t: TypeId| matches!(self.m.ctx.type_kind(t), TypeKind::Dialect { dialect, body } if self.m.ctx.str(*dialect) == "tosa" && body.starts_with(".shape<"));
        let is_tensor = |t: TypeId| {
            matches!(self.m.ctx.type_kind(t), TypeKind::RankedTensor { .. } | TypeKind::UnrankedTensor { .. })
        };
        let want = |s: Slot| match s {
            Slot::Tensor => "tosa-conformant tensor of number values",
            Slot::Shape => "Shape with static rank and Index element type",
        };
        for (i, v) in self.m.operands(op).iter().enumerate() {
            let s = slots.get(i).or(slots.last()).copied().unwrap_or(Slot::Tensor);
            let t = self.m.type_of(*v);
            let ok = if s == Slot::Shape { is_shape(t) } else { is_tensor(t) };
            if !ok {
                return self.op_err(op, format!("operand #{i} must be {}, but got '{}'", want(s), self.ty(t)));
            }
        }
        let result_shape = matches!(
            o,
            TosaOp::ConstShape
                | TosaOp::AddShape
                | TosaOp::SubShape
                | TosaOp::MulShape
                | TosaOp::DivCeilShape
                | TosaOp::DivFloorShape
                | TosaOp::ModShape
                | TosaOp::MaxShape
                | TosaOp::MinShape
                | TosaOp::ConcatShape
                | TosaOp::Exp2Shape
                | TosaOp::Log2CeilShape
                | TosaOp::Log2FloorShape
                | TosaOp::SliceShape
                | TosaOp::Dim
        );
        for (i, r) in self.m.results(op).enumerate() {
            let t = self.m.type_of(r);
            let (ok, s) = if result_shape { (is_shape(t), Slot::Shape) } else { (is_tensor(t), Slot::Tensor) };
            if !ok {
                return self.op_err(op, format!("result #{i} must be {}, but got '{}'", want(s), self.ty(t)));
            }
        }
        Ok(())
    }

    /// `tosa.apply_scale`, MLIR's helper (not a TOSA operator): value,
    /// multiplier and result `signless-integer-like` (an integer, or a
    /// vector or tensor of them), the shift `signless-integer-8-bit-like`;
    /// `ElementwiseMappable`, so a shaped operand needs a shaped result.
    fn tosa_apply_scale(&self, op: OpId) -> VResult {
        let elem = |t: TypeId| match self.m.ctx.type_kind(t) {
            TypeKind::Vector { elem, .. } | TypeKind::RankedTensor { elem, .. } | TypeKind::UnrankedTensor { elem } => {
                (*elem, true)
            }
            _ => (t, false),
        };
        let signless = |t: TypeId, width: Option<u32>| matches!(self.m.ctx.type_kind(elem(t).0), TypeKind::Integer { width: w, signedness: crate::types::Signedness::Signless } if width.is_none_or(|x| x == *w));
        let mut shaped = Vec::new();
        let mut shaped_operands = 0;
        for (i, v) in self.m.operands(op).iter().enumerate() {
            let t = self.m.type_of(*v);
            if elem(t).1 {
                shaped.push(t);
                shaped_operands += 1;
            }
            let (width, what) =
                if i == 2 { (Some(8), "signless-integer-8-bit-like") } else { (None, "signless-integer-like") };
            if !signless(t, width) {
                return self.op_err(op, format!("operand #{i} must be {what}, but got '{}'", self.ty(t)));
            }
        }
        for (i, r) in self.m.results(op).enumerate() {
            let t = self.m.type_of(r);
            if !signless(t, None) {
                return self.op_err(op, format!("result #{i} must be signless-integer-like, but got '{}'", self.ty(t)));
            }
        }
        // ElementwiseMappable's verifier (`verifyElementwise`), in its order.
        let shaped_results: Vec<TypeId> =
            self.m.results(op).map(|r| self.m.type_of(r)).filter(|t| elem(*t).1).collect();
        if shaped.is_empty() && shaped_results.is_empty() {
            return Ok(());
        }
        if shaped_operands == 0 {
            return self.op_err(op, "if a result is non-scalar, then at least one operand must be non-scalar");
        }
        if shaped_results.is_empty() {
            return self.op_err(op, "if an operand is non-scalar, then there must be at least one non-scalar result");
        }
        shaped.extend(shaped_results);
        let dims = |t: TypeId| match self.m.ctx.type_kind(t) {
            TypeKind::Vector { shape, .. } => (0, Some(shape.clone())),
            TypeKind::RankedTensor { shape, .. } => (1, Some(shape.clone())),
            // An unranked tensor is a base type of its own (its TypeID).
            _ => (2, None),
        };
        let (kind0, _) = dims(shaped[0]);
        // verifyCompatibleShapes: one rank among the ranked, and in each
        // dimension one static size.
        let ranked: Vec<Vec<i64>> = shaped.iter().filter_map(|t| dims(*t).1).collect();
        let same_rank = ranked.windows(2).all(|w| w[0].len() == w[1].len());
        let same_sizes = same_rank
            && (0..ranked.first().map_or(0, Vec::len)).all(|d| {
                let mut sizes = ranked.iter().map(|s| s[d]).filter(|n| *n != crate::types::DYNAMIC);
                sizes.next().is_none_or(|first| sizes.all(|n| n == first))
            });
        let compatible = shaped.iter().all(|t| dims(*t).0 == kind0) && same_sizes;
        if !compatible {
            return self.op_err(op, "all non-scalar operands/results must have the same shape and base type");
        }
        Ok(())
    }

    /// `values` must be present and, for `tosa.const`, of the result type.
    fn tosa_const(&self, op: OpId) -> VResult {
        let Some(v) = self.m.attr(op, "values") else { return self.op_err(op, "requires attribute 'values'") };
        let vt = match self.m.ctx.attr_kind(v) {
            Attribute::Dense { ty, .. } | Attribute::DenseResource { ty, .. } => Some(*ty),
            _ => None,
        };
        if self.kind(op) == crate::ops::OpKind::TosaConst {
            if let (Some(vt), Some(r)) = (vt, self.res(op, 0)) {
                if vt != r {
                    return self.op_err(op, "expected same attr/result element types");
                }
            }
        }
        Ok(())
    }

    /// `SameOperandsAndResultElementType` (`with_results`) or
    /// `SameOperandsElementType` over every operand.
    fn tosa_same_elements(&self, op: OpId, with_results: bool) -> VResult {
        let all: Vec<usize> = (0..self.m.operands(op).len()).collect();
        self.tosa_same_elements_of(op, &all, with_results)
    }

    /// The element types of operands `which` (and the results) agree.
    fn tosa_same_elements_of(&self, op: OpId, which: &[usize], with_results: bool) -> VResult {
        let mut elems =
            which.iter().filter_map(|i| self.opnd(op, *i)).filter_map(|t| self.tosa_elem(t)).collect::<Vec<_>>();
        if with_results {
            elems.extend(self.m.results(op).filter_map(|r| self.tosa_elem(self.m.type_of(r))));
        }
        if elems.windows(2).any(|w| w[0] != w[1]) {
            let what = if with_results { "all operands and results" } else { "all operands" };
            return self.op_err(op, format!("requires the same element type for {what}"));
        }
        Ok(())
    }

    /// `SameOperandsElementType` over the first `n` operands.
    fn tosa_same_operand_elements(&self, op: OpId, n: usize) -> VResult {
        let which: Vec<usize> = (0..n).collect();
        self.tosa_same_elements_of(op, &which, false)
    }

    /// `SameOperandsAndResultShape`.
    fn tosa_same_shape(&self, op: OpId) -> VResult {
        let all: Vec<usize> = (0..self.m.operands(op).len()).collect();
        self.tosa_same_shape_of(op, &all)
    }

    /// Operands `which` and the results have compatible shapes.
    fn tosa_same_shape_of(&self, op: OpId, which: &[usize]) -> VResult {
        let mut shapes: Vec<&[i64]> =
            which.iter().filter_map(|i| self.opnd(op, *i)).filter_map(|t| self.tosa_shape(t)).collect();
        shapes.extend(self.m.results(op).filter_map(|r| self.tosa_shape(self.m.type_of(r))));
        let compatible = |a: &[i64], b: &[i64]| {
            a.len() == b.len()
                && a.iter().zip(b).all(|(x, y)| x == y || *x == crate::types::DYNAMIC || *y == crate::types::DYNAMIC)
        };
        if shapes.windows(2).any(|w| !compatible(w[0], w[1])) {
            return self.op_err(op, "requires the same shape for all operands and results");
        }
        Ok(())
    }

    /// `ResultsBroadcastableShape` over the first `n` operands: equal ranks,
    /// each dim equal or 1, and the result the broadcast shape.
    fn tosa_broadcast(&self, op: OpId, n: usize) -> VResult {
        let shapes: Vec<&[i64]> = (0..n).filter_map(|i| self.opnd(op, i)).filter_map(|t| self.tosa_shape(t)).collect();
        if shapes.len() < n {
            return Ok(());
        }
        if shapes.windows(2).any(|w| w[0].len() != w[1].len()) {
            return self.op_err(op, "operands don't have matching ranks");
        }
        let dy = crate::types::DYNAMIC;
        let mut out = shapes[0].to_vec();
        for s in &shapes[1..] {
            for (o, d) in out.iter_mut().zip(s.iter()) {
                *o = match (*o, *d) {
                    (a, b) if a == b => a,
                    (1, b) => b,
                    (a, 1) => a,
                    (a, b) if a == dy || b == dy => dy,
                    _ => return self.op_err(op, "operands don't have broadcast-compatible shapes"),
                };
            }
        }
        if let Some(r) = self.res(op, 0).and_then(|t| self.tosa_shape(t)) {
            let ok = r.len() == out.len() && r.iter().zip(&out).all(|(a, b)| a == b || *a == dy || *b == dy);
            if !ok {
                return self.op_err(
                    op,
                    format!(
                        "result type '{}' not broadcast compatible with broadcasted operands's shapes '{}'",
                        Self::tosa_dims(r),
                        Self::tosa_dims(&out)
                    ),
                );
            }
        }
        Ok(())
    }

    /// A comparison's result holds `i1`.
    fn tosa_bool_result(&self, op: OpId) -> VResult {
        if let Some(r) = self.res(op, 0) {
            if !self.tosa_elem(r).is_some_and(|e| self.m.ctx.type_kind(e).is_signless_int(1)) {
                return self.op_err(
                    op,
                    format!(
                        "result #0 must be tosa-conformant tensor of 1-bit signless integer values, but got '{}'",
                        self.ty(r)
                    ),
                );
            }
        }
        Ok(())
    }

    /// `tosa.select`: an `i1` predicate; the values and result agree.
    fn tosa_select(&self, op: OpId) -> VResult {
        let (Some(t), Some(f), Some(r)) = (self.opnd(op, 1), self.opnd(op, 2), self.res(op, 0)) else { return Ok(()) };
        for x in [t, f] {
            if let (Some(a), Some(b)) = (self.tosa_elem(x), self.tosa_elem(r)) {
                if a != b {
                    return self.op_err(
                        op,
                        format!(
                            "expect input and output to have same element type, got '{}' and '{}'",
                            self.ty(a),
                            self.ty(b)
                        ),
                    );
                }
            }
        }
        if let Some(p) = self.opnd(op, 0) {
            if !self.tosa_elem(p).is_some_and(|e| self.m.ctx.type_kind(e).is_signless_int(1)) {
                return self.op_err(
                    op,
                    format!(
                        "operand #0 must be tosa-conformant tensor of 1-bit signless integer values, but got '{}'",
                        self.ty(p)
                    ),
                );
            }
        }
        self.tosa_broadcast(op, 3)
    }

    /// `perms` is a permutation of the input's dims; the result permutes them.
    fn tosa_transpose(&self, op: OpId) -> VResult {
        let m = self.m;
        let Some(a) = m.attr(op, "perms") else { return self.op_err(op, "requires attribute 'perms'") };
        let perms = match m.ctx.attr_kind(a) {
            Attribute::DenseArray { values: crate::attrs::DenseValues::Ints(v), elem }
                if m.ctx.type_kind(*elem).is_signless_int(32) =>
            {
                v.iter().map(|x| x.to_i64().unwrap_or(-1)).collect::<Vec<_>>()
            }
            _ => return self.op_err(op, "attribute 'perms' failed to satisfy constraint: i32 dense array attribute"),
        };
        let Some(input) = self.opnd(op, 0).and_then(|t| self.tosa_shape(t)) else { return Ok(()) };
        if perms.len() != input.len() {
            return self.op_err(
                op,
                format!(
                    "expected perms attribute to have size {} (input rank) but got size {}",
                    input.len(),
                    perms.len()
                ),
            );
        }
        let mut seen = vec![false; input.len()];
        if perms.iter().any(|p| {
            usize::try_from(*p).ok().filter(|p| *p < input.len()).is_none_or(|p| std::mem::replace(&mut seen[p], true))
        }) {
            return self.op_err(op, "expected valid permutation indices");
        }
        if let Some(out) = self.res(op, 0).and_then(|t| self.tosa_shape(t)) {
            if out.len() != input.len() {
                return self.op_err(
                    op,
                    format!("expected rank of output ({}) to be equal to input rank ({})", out.len(), input.len()),
                );
            }
            for (i, p) in perms.iter().enumerate() {
                let d = input[*p as usize];
                if out[i] != d && out[i] != crate::types::DYNAMIC && d != crate::types::DYNAMIC {
                    return self.op_err(
                        op,
                        format!("expected output tensor dim {i} to match input dim {p} with value of {d}"),
                    );
                }
            }
        }
        Ok(())
    }

    /// The `axis` attribute, checked against the input rank (`noun` names
    /// the op family in the message).
    fn tosa_axis(&self, op: OpId, noun: &str) -> Result<Option<usize>, Diagnostic> {
        let Some(a) = self.m.attr(op, "axis") else {
            self.op_err(op, "requires attribute 'axis'")?;
            return Ok(None);
        };
        let Attribute::Integer { value, .. } = self.m.ctx.attr_kind(a) else {
            self.op_err(op, "attribute 'axis' failed to satisfy constraint: 32-bit signless integer attribute")?;
            return Ok(None);
        };
        let axis = value.to_i64().unwrap_or(-1);
        let Some(input) = self.opnd(op, 0).and_then(|t| self.tosa_shape(t)) else { return Ok(None) };
        if axis < 0 || axis as usize >= input.len().max(1) {
            self.op_err(
                op,
                format!("expect input tensor rank ({}) to be larger than {noun} axis ({axis})", input.len()),
            )?;
        }
        Ok(Some(axis as usize))
    }

    /// A reduction keeps the axis with size 1 and the element type.
    fn tosa_reduce(&self, op: OpId, noun: &str) -> VResult {
        let Some(axis) = self.tosa_axis(op, noun)? else { return Ok(()) };
        let (Some(it), Some(rt)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        let Some(out) = self.tosa_shape(rt) else { return Ok(()) };
        if let Some(&d) = out.get(axis) {
            if d != 1 && d != crate::types::DYNAMIC {
                return self.op_err(op, format!("expect reduced dimension size to be 1, got {d}"));
            }
        }
        let mut want = self.tosa_shape(it).map(<[i64]>::to_vec);
        if let Some(w) = want.as_mut() {
            if axis < w.len() {
                w[axis] = 1;
            }
        }
        let same_elem = self.tosa_elem(it) == self.tosa_elem(rt);
        let same_shape = want.as_ref().is_none_or(|w| {
            w.len() == out.len()
                && w.iter().zip(out).all(|(a, b)| a == b || *a == crate::types::DYNAMIC || *b == crate::types::DYNAMIC)
        });
        if !same_elem || !same_shape {
            let inferred = match (want, self.tosa_elem(it)) {
                (Some(w), Some(e)) => format!("tensor<{}x{}>", Self::tosa_dims(&w), self.ty(e)),
                _ => self.ty(it),
            };
            return self.op_err(
                op,
                format!(
                    "inferred type(s) '{inferred}' are incompatible with return type(s) of operation '{}'",
                    self.ty(rt)
                ),
            );
        }
        Ok(())
    }

    /// `argmax` drops the axis and gives integers.
    fn tosa_argmax(&self, op: OpId) -> VResult {
        let Some(axis) = self.tosa_axis(op, "reduce")? else { return Ok(()) };
        let (Some(it), Some(rt)) = (self.opnd(op, 0), self.res(op, 0)) else { return Ok(()) };
        if !self.tosa_elem(rt).is_some_and(|e| matches!(self.m.ctx.type_kind(e), TypeKind::Integer { .. })) {
            return self.op_err(op, "result tensor is not of integer type");
        }
        if let (Some(input), Some(out)) = (self.tosa_shape(it), self.tosa_shape(rt)) {
            let mut want = input.to_vec();
            if axis < want.len() {
                want.remove(axis);
            }
            let ok = want.len() == out.len()
                && want
                    .iter()
                    .zip(out)
                    .all(|(a, b)| a == b || *a == crate::types::DYNAMIC || *b == crate::types::DYNAMIC);
            if !ok {
                return self.op_err(
                    op,
                    format!("expected output shape '{}', got '{}'", Self::tosa_dims(&want), Self::tosa_dims(out)),
                );
            }
        }
        Ok(())
    }

    /// `concat`: one element type, equal off-axis sizes, the axis sums.
    fn tosa_concat(&self, op: OpId) -> VResult {
        self.tosa_same_elements(op, true)?;
        let shapes: Vec<&[i64]> =
            self.m.operands(op).iter().filter_map(|v| self.tosa_shape(self.m.type_of(*v))).collect();
        let Some(first) = shapes.first() else { return Ok(()) };
        let Some(a) = self.m.attr(op, "axis") else { return self.op_err(op, "requires attribute 'axis'") };
        let axis = match self.m.ctx.attr_kind(a) {
            Attribute::Integer { value, .. } => value.to_i64().unwrap_or(-1),
            _ => -1,
        };
        if axis < 0 || axis as usize >= first.len().max(1) {
            return self.op_err(
                op,
                format!("expect axis to be within range 0 < axis < rank(input1[firstRankedTensorIdx]), got {axis}"),
            );
        }
        let axis = axis as usize;
        let dy = crate::types::DYNAMIC;
        for (k, s) in shapes.iter().enumerate().skip(1) {
            if s.len() != first.len() {
                return self.op_err(op, "expect all operands to have the same rank");
            }
            for d in 0..s.len() {
                if d != axis && s[d] != first[d] && s[d] != dy && first[d] != dy {
                    return self.op_err(
                        op,
                        format!("expect all operand shapes to have the same sizes on non-axis dimensions, but got {} vs {} at index {d} on operands 0 and {k}", s[d], first[d]),
                    );
                }
            }
        }
        if shapes.len() == self.m.operands(op).len() && shapes.iter().all(|s| s.get(axis).is_some_and(|d| *d != dy)) {
            let sum: i64 = shapes.iter().map(|s| s[axis]).sum();
            if let Some(out) = self.res(op, 0).and_then(|t| self.tosa_shape(t)) {
                if out.get(axis).is_some_and(|d| *d != dy && *d != sum) {
                    return self.op_err(
                        op,
                        format!("requires sum of axis dimensions of input1 equal to output axis dimension, got {sum} and {}", out[axis]),
                    );
                }
            }
        }
        Ok(())
    }

    /// ODS attribute constraints: each `(name, n)` of `attrs` present is
    /// an `array<i64: ..>` of exactly `n` values (checked in declaration
    /// order; an attribute of another kind fails the same way).
    fn tosa_attr_lens(&self, op: OpId, attrs: &[(&str, usize)]) -> VResult {
        let m = self.m;
        for &(name, n) in attrs {
            let Some(a) = m.attr(op, name) else { continue };
            let fits = matches!(m.ctx.attr_kind(a), Attribute::DenseArray { elem, values: crate::attrs::DenseValues::Ints(v) }
                if m.ctx.type_kind(*elem).is_signless_int(64) && v.len() == n);
            if !fits {
                return self.op_err(
                    op,
                    format!("attribute '{name}' failed to satisfy constraint: i64 dense array attribute with exactly {n} elements"),
                );
            }
        }
        Ok(())
    }

    /// ODS ranks: operand `i` of rank `ranks[i]` (0: a zero point, a
    /// `tensor<1x..>`; `ANY_RANK`: unconstrained) and a result of rank
    /// `result`.
    fn tosa_ranks(&self, op: OpId, ranks: &[usize], result: usize) -> VResult {
        for (i, &r) in ranks.iter().enumerate() {
            let Some(t) = self.opnd(op, i) else { continue };
            if r == ANY_RANK {
                continue;
            }
            if r == 0 && self.tosa_shape(t).is_some_and(|s| s != [1]) {
                let any = "unsigned integer or signless integer or floating-point values";
                return self.op_err(
                    op,
                    format!(
                        "operand #{i} must be tosa-conformant unranked tensor of {any} or tosa-conformant scalar tensor of {any}, but got '{}'",
                        self.ty(t)
                    ),
                );
            }
            if r > 0 && self.tosa_shape(t).is_some_and(|s| s.len() != r) {
                return self.op_err(
                    op,
                    format!("operand #{i} must be {r}-d tosa-conformant tensor, but got '{}'", self.ty(t)),
                );
            }
        }
        if let Some(t) = self.res(op, 0).filter(|_| result != ANY_RANK) {
            if self.tosa_shape(t).is_some_and(|s| s.len() != result) {
                return self.op_err(
                    op,
                    format!("result #0 must be {result}-d tosa-conformant tensor, but got '{}'", self.ty(t)),
                );
            }
        }
        Ok(())
    }

    /// `tosa.variable_read` / `variable_write`: the variable is declared
    /// by a `tosa.variable` of the enclosing symbol table, and the value
    /// read or written has its element type and shape.
    fn tosa_variable_use(&self, op: OpId, read: bool) -> VResult {
        let m = self.m;
        let Some(Attribute::String { value: name, .. }) = m.attr(op, "name").map(|a| m.ctx.attr_kind(a)) else {
            return Ok(());
        };
        let var = self.lookup_symbol(op, name, &[]).filter(|v| self.kind(*v) == crate::ops::OpKind::TosaVariable);
        let Some(var) = var else {
            let name = String::from_utf8_lossy(name);
            return self.op_err(op, format!("'{name}' has not been declared by 'tosa.variable'"));
        };
        let (
            Some(Attribute::Type(elem)),
            Some(Attribute::Dense { values: crate::attrs::DenseValues::Ints(dims), splat, ty }),
        ) = (m.attr(var, "type").map(|a| m.ctx.attr_kind(a)), m.attr(var, "var_shape").map(|a| m.ctx.attr_kind(a)))
        else {
            return Ok(());
        };
        let mut dims: Vec<i64> = dims.iter().filter_map(|d| d.to_i64()).collect();
        // A splat var_shape (`dense<3> : tensor<2xindex>`) repeats its value.
        if let (true, Some(&[n]), Some(&d)) = (*splat, self.tosa_shape(*ty), dims.first()) {
            dims = vec![d; usize::try_from(n).unwrap_or(0)];
        }
        let (label, t) = if read { ("output1", self.res(op, 0)) } else { ("input1", self.opnd(op, 0)) };
        let Some(t) = t else { return Ok(()) };
        let var_ty = format!("tensor<{}x{}>", Self::tosa_dims(&dims), self.ty(*elem));
        if let Some(e) = self.tosa_elem(t).filter(|e| e != elem) {
            return self.op_err(
                op,
                format!(
                    "require same element type for '{label}' ('{}') and the input tensor ('{}')",
                    self.ty(e),
                    self.ty(*elem)
                ),
            );
        }
        if self.tosa_shape(t).is_some_and(|s| s != dims) {
            return self.op_err(
                op,
                format!("require same shapes for '{label}' ('{}') and the input tensor ('{var_ty}')", self.ty(t)),
            );
        }
        Ok(())
    }

    /// The values of operand `i` when a `tosa.const_shape` defines it.
    fn tosa_const_shape(&self, op: OpId, i: usize) -> Option<Vec<i64>> {
        let v = self.m.operands(op).get(i)?;
        let crate::ir::ValueDef::Result(def, _) = self.m.value(*v).def else { return None };
        if self.kind(def) != crate::ops::OpKind::TosaConstShape {
            return None;
        }
        let Some(Attribute::Dense { values: crate::attrs::DenseValues::Ints(xs), ty, splat }) =
            self.m.attr(def, "values").map(|a| self.m.ctx.attr_kind(a))
        else {
            return None;
        };
        let xs: Vec<i64> = xs.iter().map(|x| x.to_i64()).collect::<Option<_>>()?;
        match (splat, self.tosa_shape(*ty)) {
            (true, Some(&[n])) => Some(vec![*xs.first()?; usize::try_from(n).ok()?]),
            _ => Some(xs),
        }
    }

    /// `tosa.rescale`: mlir-opt's ODS constraints on the multiplier, shift
    /// and zero points, then its verifier, in its order: integer input and
    /// output, zero points of their widths, a multiplier of i32 (scale32)
    /// or i16, and one multiplier and shift per channel (the input's last
    /// dimension) or a single one.
    fn tosa_rescale(&self, op: OpId) -> VResult {
        let m = self.m;
        let ctx = &m.ctx;
        let width = |t: TypeId| match self.tosa_elem(t).map(|e| ctx.type_kind(e)) {
            Some(TypeKind::Integer { width, .. }) => Some(*width),
            _ => None,
        };
        let signless = |t: TypeId, ws: &[u32]| {
            self.tosa_elem(t).is_some_and(|e| ws.iter().any(|w| ctx.type_kind(e).is_signless_int(*w)))
        };
        let one_d = |t: TypeId| self.tosa_shape(t).is_some_and(|s| s.len() == 1);
        let (Some(x), Some(mult), Some(shift), Some(izp), Some(ozp), Some(out)) =
            (self.opnd(op, 0), self.opnd(op, 1), self.opnd(op, 2), self.opnd(op, 3), self.opnd(op, 4), self.res(op, 0))
        else {
            return Ok(());
        };
        if !(one_d(mult) && signless(mult, &[16, 32])) {
            return self.op_err(
                op,
                format!(
                    "operand #1 must be 1D tensor of 16-bit signless integer or 32-bit signless integer values, but got '{}'",
                    self.ty(mult)
                ),
            );
        }
        if !(one_d(shift) && signless(shift, &[8])) {
            return self.op_err(
                op,
                format!("operand #2 must be 1D tensor of 8-bit signless integer values, but got '{}'", self.ty(shift)),
            );
        }
        self.tosa_ranks(op, &[ANY_RANK, ANY_RANK, ANY_RANK, 0, 0], ANY_RANK)?;
        for (what, t) in [("input", x), ("output", out)] {
            if width(t).is_none() {
                let e = self.tosa_elem(t).map_or_else(|| self.ty(t), |e| self.ty(e));
                return self.op_err(op, format!("expect {what} to have integer element type, got '{e}'"));
            }
        }
        for (what, t, z) in [("input", x, izp), ("output", out, ozp)] {
            if width(t) != width(z) {
                let (a, b) = (self.tosa_elem(t).map(|e| self.ty(e)), self.tosa_elem(z).map(|e| self.ty(e)));
                return self.op_err(
                    op,
                    format!(
                        "expected {what} and {what}_zp to both be integer of the same bitwidth, but got '{}' vs. '{}'",
                        a.unwrap_or_default(),
                        b.unwrap_or_default()
                    ),
                );
            }
        }
        let scale32 = self.tosa_flag(op, "scale32");
        let want = if scale32 { 32 } else { 16 };
        if width(mult) != Some(want) {
            let e = self.tosa_elem(mult).map(|e| self.ty(e)).unwrap_or_default();
            return self
                .op_err(op, format!("expect i{want} element type for multiplier for scale32={scale32}, got '{e}'"));
        }
        let Some(input) = self.tosa_shape(x) else { return Ok(()) };
        let n = if self.tosa_flag(op, "per_channel") { input.last().copied().unwrap_or(1) } else { 1 };
        if n == crate::types::DYNAMIC {
            return Ok(());
        }
        for (what, t) in [("multiplier", mult), ("shift", shift)] {
            let got = self.tosa_shape(t).and_then(|s| s.first().copied()).unwrap_or(n);
            if got != crate::types::DYNAMIC && got != n {
                return self.op_err(op, format!("expect shape of {{ {n} }} for {what} input, got {{ {got} }}"));
            }
        }
        Ok(())
    }

    /// The boolean attribute `name` of `op` (false when absent).
    fn tosa_flag(&self, op: OpId, name: &str) -> bool {
        matches!(self.m.attr(op, name).map(|a| self.m.ctx.attr_kind(a)), Some(Attribute::Bool(true)))
    }

    /// `tosa.resize` with constant scale, offset and border: mlir-opt's
    /// checks of the scale's sign and of each output size, `(in - 1) *
    /// scale_n - offset + border` divided exactly by `scale_d`, plus one
    /// (a dimension of size 1 is left alone, as linalg broadcasts it).
    fn tosa_resize(&self, op: OpId) -> VResult {
        let (Some(scale), Some(offset), Some(border)) =
            (self.tosa_const_shape(op, 1), self.tosa_const_shape(op, 2), self.tosa_const_shape(op, 3))
        else {
            return Ok(());
        };
        if scale.iter().any(|s| *s <= 0) {
            let got = scale.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(", ");
            return self.op_err(op, format!("expect all scale values to be > 0, got {got}"));
        }
        let m = self.m;
        let (Some(input), Some(output)) = (
            m.operands(op).first().and_then(|v| self.tosa_shape(m.type_of(*v))),
            m.results(op).next().and_then(|r| self.tosa_shape(m.type_of(r))),
        ) else {
            return Ok(());
        };
        if scale.len() < 4 || offset.len() < 2 || border.len() < 2 || input.len() < 3 || output.len() < 3 {
            return Ok(());
        }
        for (axis, name, dim) in [(0, ("height", "y"), 1), (1, ("width", "x"), 2)] {
            let (i, o) = (input[dim], output[dim]);
            if i == crate::types::DYNAMIC || i == 1 {
                continue;
            }
            let (n, d, off, bor) = (scale[2 * axis], scale[2 * axis + 1], offset[axis], border[axis]);
            let Some(num) = (i - 1).checked_mul(n).and_then(|x| x.checked_sub(off)).and_then(|x| x.checked_add(bor))
            else {
                return self.op_err(op, format!("the {} of the output overflows", name.0));
            };
            if num % d != 0 {
                let (w, a) = name;
                return self.op_err(
                    op,
                    format!(
                        "expected (input_{w} - 1) * scale_{a}_n - offset_{a} + border_{a} to be wholly divisible \
                         by scale_{a}_d, got (({i} - 1) * {n} - {off} + {bor}) / {d}"
                    ),
                );
            }
            let calc = num / d + 1;
            if o != crate::types::DYNAMIC && calc != o {
                return self.op_err(
                    op,
                    format!("calculated output {} did not match expected: calculated={calc}, expected={o}", name.0),
                );
            }
        }
        Ok(())
    }

    /// True when operand `i` is a `tosa.const` whose (first) value is not
    /// zero (`-0.0` is zero); `false` when it is zero or not a constant.
    fn tosa_nonzero_const(&self, op: OpId, i: usize) -> bool {
        let Some(v) = self.m.operands(op).get(i) else { return false };
        let crate::ir::ValueDef::Result(def, _) = self.m.value(*v).def else { return false };
        if self.kind(def) != crate::ops::OpKind::TosaConst {
            return false;
        }
        let Some(Attribute::Dense { values, ty, .. }) = self.m.attr(def, "values").map(|a| self.m.ctx.attr_kind(a))
        else {
            return false;
        };
        match values {
            crate::attrs::DenseValues::Ints(v) => v.first().is_some_and(|x| x.to_i64() != Some(0)),
            crate::attrs::DenseValues::Floats(v) => match v.first() {
                Some(crate::attrs::FloatLit::Decimal(t)) => t.parse::<f64>() != Ok(0.0),
                Some(crate::attrs::FloatLit::Bits(b)) => {
                    let w = self.tosa_elem(*ty).and_then(|e| self.float_width(e)).unwrap_or(128);
                    let magnitude = if w >= 128 { *b & !(1u128 << 127) } else { *b & ((1u128 << (w - 1)) - 1) };
                    magnitude != 0
                }
                None => false,
            },
            _ => false,
        }
    }

    /// A zero point (operand `i`, `what` in the message) is zero unless
    /// `data` is i8 (`verifyInputZeroPoint` and its siblings).
    fn tosa_zero_point(&self, op: OpId, i: usize, data: TypeId, what: &str) -> VResult {
        if !self.m.ctx.type_kind(data).is_signless_int(8) && self.tosa_nonzero_const(op, i) {
            return self.op_err(op, format!("{what} zero point must be zero for non-int8 integer types"));
        }
        Ok(())
    }

    /// The element type of operand `i` and of result 0, when tensors.
    fn tosa_elems(&self, op: OpId, i: usize) -> (Option<TypeId>, Option<TypeId>) {
        (self.opnd(op, i).and_then(|t| self.tosa_elem(t)), self.res(op, 0).and_then(|t| self.tosa_elem(t)))
    }

    /// `verifyConvOp`: the element types of input, weight, bias, result and
    /// zero points agree, and the zero points are zero where they must be.
    fn tosa_conv_types(&self, op: OpId) -> VResult {
        let e = |i: usize| self.opnd(op, i).and_then(|t| self.tosa_elem(t));
        let (Some(x), Some(w), Some(b), Some(r)) = (e(0), e(1), e(2), self.tosa_elems(op, 0).1) else { return Ok(()) };
        let float = |t: TypeId| matches!(self.m.ctx.type_kind(t), TypeKind::Float(_));
        if float(b) && float(r) && b != r {
            return self.op_err(
                op,
                format!(
                    "expect both bias and result to have same element type, got '{}' and '{}'",
                    self.ty(b),
                    self.ty(r)
                ),
            );
        }
        let f8 = |t: TypeId| {
            matches!(
                self.m.ctx.type_kind(t),
                TypeKind::Float(crate::types::FloatKind::F8E5M2 | crate::types::FloatKind::F8E4M3FN)
            )
        };
        if (f8(x) || f8(w)) && x != w {
            return self.op_err(
                op,
                format!(
                    "expect both input and weight to have same element type, got '{}' and '{}'",
                    self.ty(x),
                    self.ty(w)
                ),
            );
        }
        if float(x) != float(w) {
            return self.op_err(
                op,
                format!(
                    "expect both input and weight to be float or not together, got '{}' and '{}'",
                    self.ty(x),
                    self.ty(w)
                ),
            );
        }
        self.tosa_zero_points(op, [(3, x, "input"), (4, w, "weight")])
    }

    /// Each `(operand, data element type, name)` zero point has its
    /// data's element type, then the value rules of `tosa_zero_point`.
    fn tosa_zero_points(&self, op: OpId, zps: [(usize, TypeId, &str); 2]) -> VResult {
        let e = |i: usize| self.opnd(op, i).and_then(|t| self.tosa_elem(t));
        for (i, data, what) in zps {
            if let Some(z) = e(i).filter(|z| *z != data) {
                return self.op_err(
                    op,
                    format!(
                        "expect both {what} and its zero point are the same element type, got '{}' and '{}'",
                        self.ty(data),
                        self.ty(z)
                    ),
                );
            }
        }
        zps.iter().try_for_each(|(i, data, what)| self.tosa_zero_point(op, *i, *data, what))
    }

    /// `verifyConvOpModes`: the accumulator type the input type needs.
    fn tosa_conv_acc(&self, op: OpId) -> VResult {
        use crate::types::FloatKind as F;
        let (Some(x), Some(acc)) = (self.opnd(op, 0).and_then(|t| self.tosa_elem(t)), self.tosa_acc(op)) else {
            return Ok(());
        };
        let (xk, ak) = (self.m.ctx.type_kind(x), self.m.ctx.type_kind(acc));
        let is = |k: F| matches!(ak, TypeKind::Float(a) if *a == k);
        let (bad, what) = match xk {
            TypeKind::Integer { width: 8, .. } => (!ak.is_signless_int(32), "i8 tensor is not i32"),
            TypeKind::Integer { width: 16, .. } => (!ak.is_signless_int(48), "i16 tensor is not i48"),
            TypeKind::Float(F::F8E5M2 | F::F8E4M3) => (!is(F::F16), "f8 tensor is not f16"),
            TypeKind::Float(F::F16) => (!is(F::F16) && !is(F::F32), "f16 tensor is not f16/f32"),
            TypeKind::Float(F::BF16) => (!is(F::F32), "bf16 tensor is not f32"),
            TypeKind::Float(F::F32) => (!is(F::F32), "f32 tensor is not f32"),
            _ => (false, ""),
        };
        if bad {
            return self.op_err(op, format!("accumulator type for {what}"));
        }
        Ok(())
    }

    /// The `acc_type` attribute's type.
    fn tosa_acc(&self, op: OpId) -> Option<TypeId> {
        match self.m.ctx.attr_kind(self.m.attr(op, "acc_type")?) {
            Attribute::Type(t) => Some(*t),
            _ => None,
        }
    }

    /// A list attribute as mlir-opt prints it in these messages (`0, -1`).
    fn tosa_list(v: &[i64]) -> String {
        v.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
    }

    /// `conv2d`, `conv3d` (`sp` spatial dims) and `depthwise_conv2d`: ODS
    /// ranks, element types, accumulator, then `verifyConvOpErrorIf`.
    fn tosa_conv(&self, op: OpId, sp: usize, depthwise: bool) -> VResult {
        let (p, d) = (2 * sp, sp);
        self.tosa_attr_lens(op, &[("pad", p), ("stride", d), ("dilation", d)])?;
        self.tosa_ranks(op, &[sp + 2, sp + 2, 1, 0, 0], sp + 2)?;
        self.tosa_conv_types(op)?;
        self.tosa_conv_acc(op)?;
        let (Some(pad), Some(stride), Some(dil)) =
            (self.ints(op, "pad"), self.ints(op, "stride"), self.ints(op, "dilation"))
        else {
            return Ok(());
        };
        self.tosa_at_least(op, "padding", &pad, 0)?;
        self.tosa_at_least(op, "stride", &stride, 1)?;
        self.tosa_at_least(op, "dilation", &dil, 1)?;
        let Some(out) = self.res(op, 0).and_then(|t| self.tosa_shape(t)) else { return Ok(()) };
        if pad.len() != 2 * sp || stride.len() != sp || dil.len() != sp {
            // mlir-opt's attribute constraints reject these; not checked here.
            return self.tosa_bias_channels(op, out);
        }
        let shape = |i: usize| self.opnd(op, i).and_then(|t| self.tosa_shape(t));
        let dy = crate::types::DYNAMIC;
        if let (Some(x), Some(w)) = (shape(0), shape(1)) {
            let axes: &[(&str, &str, &str, &str)] = if sp == 3 {
                &[("depth", "d", "front", "back"), ("height", "y", "top", "bottom"), ("width", "x", "left", "right")]
            } else {
                &[("height", "y", "top", "bottom"), ("width", "x", "left", "right")]
            };
            for (a, (dim, ax, before, after)) in axes.iter().enumerate() {
                let (i, k, o) = (x[1 + a], if depthwise { w[a] } else { w[1 + a] }, out[1 + a]);
                let (pa, pb, s, d) = (pad[2 * a], pad[2 * a + 1], stride[a], dil[a]);
                if i == dy || k == dy {
                    continue;
                }
                // int64 arithmetic as mlir-opt's (which wraps on overflow).
                let num = (i - 1).wrapping_add(pa).wrapping_add(pb).wrapping_sub((k - 1).wrapping_mul(d));
                if num % s != 0 {
                    return self.op_err(
                        op,
                        format!(
                            "expected input_{dim} - 1 + pad_{before} + pad_{after} - (kernel_{dim} - 1) * dilation_{ax} to be wholly divisible by stride_{ax}, got ({i} - 1 + {pa} + {pb} - ({k} - 1) * {d}) / {s}"
                        ),
                    );
                }
                if o != dy && (num / s).wrapping_add(1) != o {
                    return self.op_err(
                        op,
                        format!(
                            "calculated output {dim} did not match expected: calculated={}, expected={o}",
                            num / s + 1
                        ),
                    );
                }
            }
        }
        self.tosa_bias_channels(op, out)
    }

    /// `BC == OC || BC == 1`, OC being the result's last dim.
    fn tosa_bias_channels(&self, op: OpId, out: &[i64]) -> VResult {
        let dy = crate::types::DYNAMIC;
        let Some(&bc) = self.opnd(op, 2).and_then(|t| self.tosa_shape(t)).and_then(|s| s.first()) else {
            return Ok(());
        };
        let Some(&oc) = out.last() else { return Ok(()) };
        if bc != dy && oc != dy && bc != oc && bc != 1 {
            return self
                .op_err(op, format!("bias channels expected to be equal to output channels ({oc}) or 1, got {bc}"));
        }
        Ok(())
    }

    /// `transpose_conv2d`: ODS ranks, element types, accumulator, stride,
    /// `out_pad > -K`, the output size, the bias channels.
    fn tosa_transpose_conv(&self, op: OpId) -> VResult {
        self.tosa_attr_lens(op, &[("out_pad", 4), ("stride", 2)])?;
        self.tosa_ranks(op, &[4, 4, 1, 0, 0], 4)?;
        self.tosa_conv_types(op)?;
        self.tosa_conv_acc(op)?;
        let (Some(pad), Some(stride)) = (self.ints(op, "out_pad"), self.ints(op, "stride")) else { return Ok(()) };
        if stride.iter().any(|s| *s < 1) {
            return self.op_err(op, format!("expect all stride values to be >= 1, got [{}]", Self::tosa_list(&stride)));
        }
        let Some(out) = self.res(op, 0).and_then(|t| self.tosa_shape(t)) else { return Ok(()) };
        if pad.len() != 4 || stride.len() != 2 {
            return self.tosa_bias_channels(op, out);
        }
        let shape = |i: usize| self.opnd(op, i).and_then(|t| self.tosa_shape(t));
        let dy = crate::types::DYNAMIC;
        if let (Some(x), Some(w)) = (shape(0), shape(1)) {
            let (kh, kw) = (w[1], w[2]);
            let names = [
                ("out_pad_top", "KH", kh),
                ("out_pad_bottom", "KH", kh),
                ("out_pad_left", "KW", kw),
                ("out_pad_right", "KW", kw),
            ];
            for ((name, kname, k), p) in names.into_iter().zip(&pad) {
                if k != dy && *p <= -k {
                    return self.op_err(op, format!("expected {name} > -{kname}, but got: {name}={p} and {kname}={k}"));
                }
            }
            for (a, (o, i, k, ax, big, small)) in
                [(out[1], x[1], kh, "y", "OH", "IH"), (out[2], x[2], kw, "x", "OW", "IW")].into_iter().enumerate()
            {
                if o == dy || i == dy || k == dy {
                    continue;
                }
                let (before, after) = if a == 0 { ("top", "bottom") } else { ("left", "right") };
                let (kname, pa, pb, s) = (if a == 0 { "KH" } else { "KW" }, pad[2 * a], pad[2 * a + 1], stride[a]);
                if (i - 1).wrapping_mul(s).wrapping_add(pa).wrapping_add(pb).wrapping_add(k) != o {
                    return self.op_err(
                        op,
                        format!(
                            "dimension mismatch: expected {big} == ({small} - 1) * stride_{ax} + out_pad_{before} + out_pad_{after} + {kname}, but got {o} != ({i} - 1) * {s} + {pa} + {pb} + {k}"
                        ),
                    );
                }
            }
        }
        self.tosa_bias_channels(op, out)
    }

    /// Every value of attribute `what` is at least `min`, in mlir-opt's words.
    fn tosa_at_least(&self, op: OpId, what: &str, vals: &[i64], min: i64) -> VResult {
        if vals.iter().any(|v| *v < min) {
            return self.op_err(op, format!("expect all {what} values to be >= {min}, got {}", Self::tosa_list(vals)));
        }
        Ok(())
    }

    /// `verifyPoolingOp`: kernel, stride, padding (below the kernel), and
    /// the output size.
    fn tosa_pool(&self, op: OpId) -> VResult {
        let (Some(k), Some(s), Some(p)) = (self.ints(op, "kernel"), self.ints(op, "stride"), self.ints(op, "pad"))
        else {
            return Ok(());
        };
        self.tosa_at_least(op, "kernel", &k, 1)?;
        self.tosa_at_least(op, "stride", &s, 1)?;
        self.tosa_at_least(op, "padding", &p, 0)?;
        if k.len() != 2 || s.len() != 2 || p.len() != 4 {
            return Ok(());
        }
        if p[2] >= k[1] || p[3] >= k[1] {
            return self.op_err(
                op,
                format!(
                    "expected left/right padding to be less than the width of the kernel, got pad_left={}, pad_right={}, kernel_x={}",
                    p[2], p[3], k[1]
                ),
            );
        }
        if p[0] >= k[0] || p[1] >= k[0] {
            return self.op_err(
                op,
                format!(
                    "expected top/bottom padding to be less than the height of the kernel, got pad_top={}, pad_bottom={}, kernel_y={}",
                    p[0], p[1], k[0]
                ),
            );
        }
        let shape = |t: Option<TypeId>| t.and_then(|t| self.tosa_shape(t));
        let (Some(x), Some(out)) = (shape(self.opnd(op, 0)), shape(self.res(op, 0))) else { return Ok(()) };
        let dy = crate::types::DYNAMIC;
        for (a, (dim, ax, before, after)) in
            [("height", "y", "top", "bottom"), ("width", "x", "left", "right")].into_iter().enumerate()
        {
            let (i, o, (pa, pb)) = (x[1 + a], out[1 + a], (p[2 * a], p[2 * a + 1]));
            if i == dy {
                continue;
            }
            let num = i.wrapping_add(pa).wrapping_add(pb).wrapping_sub(k[a]);
            if num % s[a] != 0 {
                return self.op_err(
                    op,
                    format!(
                        "expected input_{dim} + pad_{before} + pad_{after} - kernel_{ax} to be wholly divisible by stride_{ax}, got ({i} + {pa} + {pb} - {}) / {}",
                        k[a], s[a]
                    ),
                );
            }
            if o != dy && (num / s[a]).wrapping_add(1) != o {
                return self.op_err(
                    op,
                    format!(
                        "calculated output {dim} did not match expected: calculated={}, expected={o}",
                        num / s[a] + 1
                    ),
                );
            }
        }
        Ok(())
    }

    /// `max_pool2d`: ODS rank, one element type, then the pooling rules.
    fn tosa_max_pool(&self, op: OpId) -> VResult {
        self.tosa_attr_lens(op, &[("kernel", 2), ("stride", 2), ("pad", 4)])?;
        self.tosa_ranks(op, &[4], 4)?;
        if let (Some(a), Some(b)) = self.tosa_elems(op, 0) {
            if a != b {
                return self.op_err(
                    op,
                    format!(
                        "expect input and output to have same element type, got '{}' and '{}'",
                        self.ty(a),
                        self.ty(b)
                    ),
                );
            }
        }
        self.tosa_pool(op)
    }

    /// `avg_pool2d`: ODS rank, the pooling rules, the accumulator, the
    /// zero points' types and values.
    fn tosa_avg_pool(&self, op: OpId) -> VResult {
        use crate::types::FloatKind as F;
        self.tosa_attr_lens(op, &[("kernel", 2), ("stride", 2), ("pad", 4)])?;
        self.tosa_ranks(op, &[4, 0, 0], 4)?;
        self.tosa_pool(op)?;
        let (Some(x), Some(r)) = self.tosa_elems(op, 0) else { return Ok(()) };
        if let Some(acc) = self.tosa_acc(op) {
            let ak = self.m.ctx.type_kind(acc);
            let is = |k: F| matches!(ak, TypeKind::Float(a) if *a == k);
            let (bad, what) = match self.m.ctx.type_kind(x) {
                TypeKind::Integer { .. } => (!ak.is_signless_int(32), "integer tensor is not i32"),
                TypeKind::Float(F::F16) => (!is(F::F16) && !is(F::F32), "f16 tensor is not f16/f32"),
                TypeKind::Float(F::BF16) => (!is(F::F32), "bf16 tensor is not f32"),
                TypeKind::Float(F::F32) => (!is(F::F32), "f32 tensor is not f32"),
                _ => (false, ""),
            };
            if bad {
                return self.op_err(op, format!("accumulator type for {what}"));
            }
        }
        self.tosa_zero_points(op, [(1, x, "input"), (2, r, "output")])
    }
}
