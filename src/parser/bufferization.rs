//! Custom forms of the bufferization dialect: conversions between tensors
//! and buffers (with their `restrict`/`writable`/`read_only` unit flags,
//! which mlir-opt keeps as properties), `alloc_tensor` and `dealloc`.

use super::{OpState, PResult, Parser};
use crate::attrs::Attribute;
use crate::diag::Span;
use crate::lexer::Tok;
use crate::ops::{Fmt, OpKind};

/// Unit flags that may follow the operand of a bufferization cast.
const FLAGS: &[&str] = &["restrict", "writable", "read_only"];

impl<'a> Parser<'a> {
    /// Parses the custom form of a bufferization op.
    pub(crate) fn parse_bufferization_family(
        &mut self,
        fmt: Fmt,
        kind: OpKind,
        st: &mut OpState,
        name_span: Span,
    ) -> PResult<()> {
        let idx = self.m.ctx.index_type();
        match fmt {
            Fmt::FlaggedCast => {
                let u = self.parse_use_name()?;
                self.unit_flags(st)?;
                let (t, rt) = self.attrs_colon_types(st, "to")?;
                let v = self.resolve(u, t)?;
                st.operands.push(v);
                st.result_types = vec![rt];
            }
            Fmt::AllocTensor => {
                let dyns = self.parse_paren_operands()?;
                let copy = if self.eat_kw("copy")? { self.parse_paren_operands()? } else { Vec::new() };
                let mut hint = Vec::new();
                if self.eat_kw("size_hint")? {
                    self.expect(Tok::Equal, "'='")?;
                    hint.push(self.parse_use_name()?);
                }
                self.parse_optional_attrs(st)?;
                let t = self.colon_type()?;
                self.resolve_uniform(st, &dyns, idx)?;
                self.resolve_uniform(st, &copy, t)?;
                self.resolve_uniform(st, &hint, idx)?;
                let seg = self.segments(&[dyns.len(), copy.len(), hint.len()]);
                self.set_attr(st, "operandSegmentSizes", seg);
                st.result_types = vec![t];
            }
            Fmt::BufDealloc => {
                let (mut nm, mut nc, mut nr) = (0, 0, 0);
                if self.is(Tok::LParen) {
                    let (uses, tys) = self.typed_operand_group()?;
                    self.resolve_all(st, &uses, &tys, name_span)?;
                    nm = uses.len();
                    self.expect_kw_custom("if")?;
                    let conds = self.parse_paren_operands()?;
                    let i1 = self.m.ctx.int_type(1);
                    self.resolve_uniform(st, &conds, i1)?;
                    nc = conds.len();
                }
                if self.eat_kw("retain")? {
                    let (uses, tys) = self.typed_operand_group()?;
                    self.resolve_all(st, &uses, &tys, name_span)?;
                    nr = uses.len();
                }
                self.parse_optional_attrs(st)?;
                let seg = self.segments(&[nm, nc, nr]);
                self.set_attr(st, "operandSegmentSizes", seg);
                st.result_types = vec![self.m.ctx.int_type(1); nr];
            }
            Fmt::Materialize => {
                let src = self.parse_use_name()?;
                self.expect_kw_custom("in")?;
                self.unit_flags(st)?;
                let dst = self.parse_use_name()?;
                self.functional_tail(st, &[src, dst], name_span)?;
            }
            _ => return self.err_at(name_span, format!("internal error: '{}' is not a bufferization op", kind.name())),
        }
        Ok(())
    }

    /// Any of the unit keywords in [`FLAGS`], stored as properties.
    fn unit_flags(&mut self, st: &mut OpState) -> PResult<()> {
        while let Some(f) = FLAGS.iter().find(|f| self.is_kw(f)) {
            self.bump()?;
            let u = self.m.ctx.attr(Attribute::Unit);
            self.set_prop(st, f, u);
        }
        Ok(())
    }

    /// `(%a, %b : T, U)`.
    fn typed_operand_group(&mut self) -> PResult<(Vec<super::UseName>, Vec<crate::types::TypeId>)> {
        self.expect(Tok::LParen, "'('")?;
        let uses = self.parse_optional_operand_list()?;
        self.expect(Tok::Colon, "':'")?;
        let tys = self.parse_type_list_no_parens()?;
        self.expect(Tok::RParen, "')'")?;
        Ok((uses, tys))
    }
}
