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

impl<'m> Verifier<'m> {
    /// The rules of one tosa op.
    pub(super) fn check_tosa(&self, op: OpId, o: TosaOp) -> VResult {
        use TosaOp::*;
        if !matches!(
            o,
            CondIf | WhileLoop | Yield | Variable | VariableRead | VariableWrite | Custom | Const | ConstShape
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
        let Some(perms) = self.m.attr(op, "perms").and_then(|a| match self.m.ctx.attr_kind(a) {
            Attribute::DenseArray { values: crate::attrs::DenseValues::Ints(v), .. } => {
                Some(v.iter().map(|x| x.to_i64().unwrap_or(-1)).collect::<Vec<_>>())
            }
            _ => None,
        }) else {
            return self.op_err(op, "requires attribute 'perms'");
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
}
