//! Custom forms of the `tosa` dialect as LLVM 22 declares them: most ops
//! are `operands attr-dict : functional-type`; `cond_if`, `while_loop` and
//! the variable ops have hand-written parsers, read here as mlir-opt reads
//! them.

use super::{OpState, PResult, Parser};
use crate::attrs::{Attribute, DenseValues, IntVal};
use crate::diag::Span;
use crate::lexer::Tok;
use crate::ops::{Fmt, OpKind};
use crate::types::TypeKind;

/// The enum properties tosa's declarative forms print as bare keywords.
const TOSA_ENUMS: &[(&str, &str)] = &[
    ("rounding_mode", "rounding_mode"),
    ("mode", "resize_mode"),
    ("nan_mode", "nan_mode"),
    ("block_size", "block_size"),
];

impl<'a> Parser<'a> {
    /// Parses the custom form of a tosa op.
    pub(super) fn parse_tosa_family(
        &mut self,
        fmt: Fmt,
        kind: OpKind,
        st: &mut OpState,
        name_span: Span,
    ) -> PResult<()> {
        match fmt {
            Fmt::TosaFunctional => {
                let uses = self.parse_optional_operand_list()?;
                self.bare_enums = TOSA_ENUMS;
                let tail = self.parse_functional_tail(st, &uses, name_span);
                self.bare_enums = &[];
                tail?;
            }
            Fmt::TosaNoCustom => {
                return self.err_at(name_span, format!("custom op '{}' has no custom assembly form", kind.name()))
            }
            Fmt::TosaCondIf => self.parse_tosa_cond_if(st)?,
            // The same hand-written form as `scf.while`.
            Fmt::TosaWhileLoop => self.parse_scf_while(st)?,
            Fmt::TosaVariable => {
                let name = self.symbol_name()?;
                let na = self.m.ctx.attr(Attribute::String { value: name, ty: None });
                self.set_attr(st, "sym_name", na);
                let ty_span = self.tok.span;
                let ty = if self.eat(Tok::Equal)? {
                    let init = self.parse_attribute(None)?;
                    self.set_attr(st, "initial_value", init);
                    match self.m.ctx.attr_kind(init) {
                        Attribute::Dense { ty, .. } | Attribute::DenseResource { ty, .. } => *ty,
                        _ => return self.err_at(ty_span, "expected attribute"),
                    }
                } else {
                    self.colon_type()?
                };
                let TypeKind::RankedTensor { shape, elem, .. } = self.m.ctx.type_kind(ty).clone() else {
                    return self.err_at(ty_span, "expected ranked type");
                };
                let index = self.m.ctx.index_type();
                let shape_ty = self.m.ctx.ty(TypeKind::RankedTensor {
                    shape: vec![shape.len() as i64],
                    elem: index,
                    encoding: None,
                });
                let values = DenseValues::Ints(shape.iter().map(|d| IntVal::Small(i128::from(*d))).collect());
                let splat = shape.len() == 1;
                let vs = self.m.ctx.attr(Attribute::Dense { ty: shape_ty, splat, values });
                self.set_attr(st, "var_shape", vs);
                let ta = self.m.ctx.attr(Attribute::Type(elem));
                self.set_attr(st, "type", ta);
                self.parse_optional_attrs(st)?;
            }
            Fmt::TosaVariableRead | Fmt::TosaVariableWrite => {
                let name = self.symbol_name()?;
                let na = self.m.ctx.attr(Attribute::String { value: name, ty: None });
                self.set_attr(st, "name", na);
                let value = if fmt == Fmt::TosaVariableWrite {
                    self.expect(Tok::Comma, "','")?;
                    Some(self.parse_use_name()?)
                } else {
                    None
                };
                self.parse_optional_attrs(st)?;
                let t = self.colon_type()?;
                match value {
                    Some(u) => {
                        let v = self.resolve(u, t)?;
                        st.operands.push(v);
                    }
                    None => st.result_types = vec![t],
                }
            }
            _ => unreachable!("not a tosa syntax family: {fmt:?}"),
        }
        Ok(())
    }

    /// `%c [(%a = %x, ..)] : tensor<i1> [(T..) -> (R..) | -> R..] { .. } [else { .. }]`:
    /// the regions take no arguments from the header; their blocks declare them.
    fn parse_tosa_cond_if(&mut self, st: &mut OpState) -> PResult<()> {
        let cond = self.parse_use_name()?;
        let mut inits = Vec::new();
        let assigned = self.is(Tok::LParen);
        if assigned {
            self.comma_list(Tok::LParen, Tok::RParen, "in assignment list", |p| {
                p.parse_use_name()?;
                p.expect(Tok::Equal, "'='")?;
                inits.push(p.parse_use_name()?);
                Ok(())
            })?;
        }
        if !self.is(Tok::Colon) {
            return self.custom_err("expected type for condition operand");
        }
        self.bump()?;
        let ct = self.parse_type()?;
        let c = self.resolve(cond, ct)?;
        st.operands.push(c);
        if assigned {
            let sp = self.tok.span;
            let (ins, outs) = self.parse_function_signature_types()?;
            if ins.len() != inits.len() {
                return self.err_at(
                    sp,
                    format!("expected as many input types as operands (expected {} got {})", inits.len(), ins.len()),
                );
            }
            for (u, t) in inits.into_iter().zip(ins) {
                let v = self.resolve(u, t)?;
                st.operands.push(v);
            }
            st.result_types = outs;
        } else if self.eat(Tok::Arrow)? {
            st.result_types = self.parse_function_result_types()?;
        }
        let then = self.parse_region(&[], false)?;
        let otherwise = if self.eat_kw("else")? { self.parse_region(&[], false)? } else { self.new_region() };
        st.regions = vec![then, otherwise];
        self.parse_optional_attrs(st)?;
        Ok(())
    }
}
