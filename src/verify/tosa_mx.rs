//! Verifier rules of tosa's block-scaled (MX) operators,
//! `cast_from_block_scaled`, `cast_to_block_scaled` and
//! `matmul_t_block_scaled`: their ODS constraints and op verifiers as
//! LLVM 22 has them, with mlir-opt 22's messages and in its order (read
//! off mlir-opt by experiment; the TOSA specification's `ERROR_IF`s that
//! mlir-opt does not check are the engine's).

use super::*;
use crate::ops::TosaOp;
use crate::types::{FloatKind, DYNAMIC};

/// The one block size LLVM 22's `#tosa.block_size` enum has.
const BLOCK: i64 = 32;

/// Which elements an operand or result of an MX op may hold.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Elems {
    /// A micro-scaling value format (fp4, fp6, fp8 e4m3/e5m2).
    Mx,
    /// The scale format, `f8E8M0FNU`.
    Scale,
    /// Any tosa element (integer or float).
    Any,
}

/// True when `k` is a value format of the MX operators.
pub(crate) fn is_mx_value(k: FloatKind) -> bool {
    matches!(
        k,
        FloatKind::F4E2M1FN | FloatKind::F6E2M3FN | FloatKind::F6E3M2FN | FloatKind::F8E4M3FN | FloatKind::F8E5M2
    )
}

impl<'m> Verifier<'m> {
    /// The rules of one block-scaled op.
    pub(super) fn check_tosa_mx(&self, op: OpId, o: TosaOp) -> VResult {
        use Elems::*;
        match o {
            TosaOp::CastFromBlockScaled => {
                self.mx_slots(op, &[Mx, Scale], &[Any], false)?;
                self.mx_cast(op, (true, 0), (true, 1), ["input_data", "input_scale"])
            }
            TosaOp::CastToBlockScaled => {
                self.mx_slots(op, &[Any], &[Mx, Scale], false)?;
                self.mx_cast(op, (false, 0), (false, 1), ["output_data", "output_scale"])
            }
            TosaOp::MatmulTBlockScaled => {
                self.mx_slots(op, &[Mx, Scale, Mx, Scale], &[Any], true)?;
                self.mx_matmul(op)
            }
            _ => Ok(()),
        }
    }

    /// The ODS constraints: tensors of the right elements, of rank at
    /// least 1 (or exactly 3 for `matmul`), operands then results.
    fn mx_slots(&self, op: OpId, ins: &[Elems], outs: &[Elems], rank3: bool) -> VResult {
        use Elems::*;
        let types: Vec<(&str, usize, TypeId, Elems)> = self
            .m
            .operands(op)
            .iter()
            .enumerate()
            .map(|(i, v)| ("operand", i, self.m.type_of(*v), ins.get(i).copied().unwrap_or(Any)))
            .chain(
                self.m
                    .results(op)
                    .enumerate()
                    .map(|(i, r)| ("result", i, self.m.type_of(r), outs.get(i).copied().unwrap_or(Any))),
            )
            .collect();
        for (what, i, t, want) in types {
            let (rank, elem) = match self.m.ctx.type_kind(t) {
                TypeKind::RankedTensor { shape, elem, .. } => (Some(shape.len()), *elem),
                TypeKind::UnrankedTensor { elem } => (None, *elem),
                _ => (Some(0), t),
            };
            let is_tensor =
                matches!(self.m.ctx.type_kind(t), TypeKind::RankedTensor { .. } | TypeKind::UnrankedTensor { .. });
            let elem_ok = match (want, self.m.ctx.type_kind(elem)) {
                (Mx, TypeKind::Float(k)) => is_mx_value(*k),
                (Scale, TypeKind::Float(k)) => *k == FloatKind::F8E8M0FNU,
                (Any, TypeKind::Float(_) | TypeKind::Integer { .. }) => true,
                _ => false,
            };
            let rank_ok = if rank3 { rank.is_none_or(|r| r == 3) } else { rank.is_none_or(|r| r >= 1) };
            if is_tensor && elem_ok && rank_ok {
                continue;
            }
            let must = if !rank3 {
                "tosa-conformant tensor of at least rank 1".to_owned()
            } else if want == Any {
                "3-d tosa-conformant tensor".to_owned()
            } else {
                let of =
                    if want == Scale { "micro-scaling format scale number" } else { "micro-scaling format number" };
                format!("tosa-conformant unranked tensor of {of} values or 3D tensor of {of} values")
            };
            return self.op_err(op, format!("{what} #{i} must be {must}, but got '{}'", self.ty(t)));
        }
        Ok(())
    }

    /// The ranked shape of operand (`true`) or result (`false`) `i`.
    fn mx_shape(&self, op: OpId, (operand, i): (bool, usize)) -> Option<&'m [i64]> {
        let t = if operand { self.opnd(op, i) } else { self.res(op, i) }?;
        match self.m.ctx.type_kind(t) {
            TypeKind::RankedTensor { shape, .. } => Some(shape),
            _ => None,
        }
    }

    /// The type of operand (`true`) or result (`false`) `i`, printed.
    fn mx_ty(&self, op: OpId, (operand, i): (bool, usize)) -> String {
        let t = if operand { self.opnd(op, i) } else { self.res(op, i) };
        t.map(|t| self.ty(t)).unwrap_or_default()
    }

    /// `cast_from_block_scaled` / `cast_to_block_scaled`: the input and
    /// the data output have compatible shapes; the data's last dimension
    /// is a multiple of the block size, and the scale has the data's shape
    /// with the last dimension divided by it. The block size divides the
    /// input's last dimension; the scale is checked against `data`, the
    /// input for `cast_from` and the data result for `cast_to` (`names`
    /// as the messages call them), as mlir-opt 22 does.
    fn mx_cast(&self, op: OpId, data: (bool, usize), scale: (bool, usize), names: [&str; 2]) -> VResult {
        let compatible = |a: &[i64], b: &[i64]| {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y || *x == DYNAMIC || *y == DYNAMIC)
        };
        let (input, output) = ((true, 0), (false, 0));
        if let (Some(a), Some(b)) = (self.mx_shape(op, input), self.mx_shape(op, output)) {
            if !compatible(a, b) {
                return self.op_err(
                    op,
                    format!(
                        "require compatible shapes for input_data ('{}') and output_data ('{}')",
                        self.mx_ty(op, input),
                        self.mx_ty(op, output)
                    ),
                );
            }
        }
        if let Some(&last) = self.mx_shape(op, input).and_then(|s| s.last()) {
            if last != DYNAMIC && last % BLOCK != 0 {
                return self.op_err(
                    op,
                    format!("expect last dimension of input_data ({last}) to be divisible by block_size ({BLOCK})"),
                );
            }
        }
        let Some(shape) = self.mx_shape(op, data) else { return Ok(()) };
        let last = shape.last().copied().unwrap_or(DYNAMIC);
        let Some(s) = self.mx_shape(op, scale) else { return Ok(()) };
        let n = shape.len();
        if s.len() != n || !compatible(&s[..n - 1], &shape[..n - 1]) {
            return self.op_err(
                op,
                format!(
                    "require compatible shapes for {} ('{}') and {} ('{}') except for the last dimension",
                    names[0],
                    self.mx_ty(op, data),
                    names[1],
                    self.mx_ty(op, scale)
                ),
            );
        }
        let sl = s.last().copied().unwrap_or(DYNAMIC);
        if sl != DYNAMIC && last != DYNAMIC && sl != last / BLOCK {
            return self.op_err(
                op,
                format!(
                    "expect last dimension of {} ({sl}) to be equal to last dimension of {} / block_size ({})",
                    names[1],
                    names[0],
                    last / BLOCK
                ),
            );
        }
        Ok(())
    }

    /// `matmul_t_block_scaled %a, %a_scale, %b, %b_scale`:
    /// `[N,H,C] x [D,W,C] -> [N,H,W]` with scales `[N,H,C/32]` and
    /// `[D,W,C/32]`, D equal to N or 1. Dims are merged operand by operand
    /// (a dynamic one takes the next static one), as LLVM's verifier does.
    fn mx_matmul(&self, op: OpId) -> VResult {
        let (Some(a), Some(b)) = (self.opnd(op, 0), self.opnd(op, 2)) else { return Ok(()) };
        if let (Some(ea), Some(eb)) = (self.tosa_mx_elem(a), self.tosa_mx_elem(b)) {
            if ea != eb {
                return self.op_err(
                    op,
                    format!(
                        "expect A_data and B_data to have same element type, got '{}' and '{}'",
                        self.ty(ea),
                        self.ty(eb)
                    ),
                );
            }
        }
        let (mut n, mut h, mut c, mut d, mut w, mut cs) = (DYNAMIC, DYNAMIC, DYNAMIC, DYNAMIC, DYNAMIC, DYNAMIC);
        let merge = |cur: &mut i64, new: i64, operand: &str, dim: &str| -> VResult {
            if *cur == DYNAMIC {
                *cur = new;
            } else if new != DYNAMIC && new != *cur {
                return self.op_err(op, format!("expected {dim} of {operand} to match size {}, got {new}", *cur));
            }
            Ok(())
        };
        if let Some(s) = self.mx_shape(op, (true, 0)) {
            (n, h, c) = (s[0], s[1], s[2]);
        }
        if let Some(s) = self.mx_shape(op, (true, 1)) {
            merge(&mut n, s[0], "a_scale", "batch")?;
            merge(&mut h, s[1], "a_scale", "height")?;
            cs = s[2];
        }
        if let Some(s) = self.mx_shape(op, (true, 2)) {
            (d, w) = (s[0], s[1]);
            merge(&mut c, s[2], "b_data", "channels")?;
        }
        if let Some(s) = self.mx_shape(op, (true, 3)) {
            merge(&mut d, s[0], "b_scale", "batch")?;
            merge(&mut w, s[1], "b_scale", "width")?;
            merge(&mut cs, s[2], "b_scale", "C/block_size")?;
        }
        if n != DYNAMIC && d != DYNAMIC && d != n && d != 1 {
            return self.op_err(
                op,
                format!("expect B matrix batch size to be broadcast compatible with A, got D={d} vs N={n}"),
            );
        }
        if c != DYNAMIC && c % BLOCK != 0 {
            return self.op_err(op, format!("expect C to be a multiple of block size, got C={c}, block_size={BLOCK}"));
        }
        if c != DYNAMIC && cs != DYNAMIC && cs != c / BLOCK {
            return self.op_err(
                op,
                format!("expect scale operands dimension 2 to equal C/block_size ({c}/{BLOCK}), got {cs}"),
            );
        }
        // LLVM takes the batch from B when A's is dynamic.
        let expected = [if n == DYNAMIC { d } else { n }, h, w];
        if let Some(r) = self.mx_shape(op, (false, 0)) {
            let ok = r.iter().zip(&expected).all(|(x, y)| x == y || *x == DYNAMIC || *y == DYNAMIC);
            if !ok {
                let list = |s: &[i64]| {
                    s.iter()
                        .map(|d| if *d == DYNAMIC { "?".into() } else { d.to_string() })
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                return self.op_err(
                    op,
                    format!(
                        "expected output shape {} to be compatible with expected output shape {}",
                        list(r),
                        list(&expected)
                    ),
                );
            }
        }
        Ok(())
    }

    /// The element type of a tensor type.
    fn tosa_mx_elem(&self, t: TypeId) -> Option<TypeId> {
        match self.m.ctx.type_kind(t) {
            TypeKind::RankedTensor { elem, .. } | TypeKind::UnrankedTensor { elem } => Some(*elem),
            _ => None,
        }
    }
}
