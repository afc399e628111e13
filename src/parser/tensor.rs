//! Custom forms of the tensor dialect ops that the memref families do not
//! already cover (`tensor.extract` reads like `memref.load`, `extract_slice`
//! like `memref.subview`, and so on; those share the memref routines).

use super::custom::CUSTOM_MARK;
use super::{OpState, PResult, Parser, UseName};
use crate::attrs::{Attribute, IntVal};
use crate::diag::Span;
use crate::lexer::Tok;
use crate::ops::{Fmt, OpKind};

impl<'a> Parser<'a> {
    /// Parses the custom form of a tensor-family op.
    pub(crate) fn parse_tensor_family(
        &mut self,
        fmt: Fmt,
        kind: OpKind,
        st: &mut OpState,
        name_span: Span,
    ) -> PResult<()> {
        let idx = self.m.ctx.index_type();
        match fmt {
            Fmt::TensorEmpty => {
                let dyns = self.parse_paren_operands()?;
                self.parse_optional_attrs(st)?;
                let (t, _) = self.colon_ranked_type("tensor")?;
                self.resolve_uniform(st, &dyns, idx)?;
                st.result_types = vec![t];
            }
            Fmt::TensorInsert => {
                let v = self.parse_use_name()?;
                self.expect_kw_custom("into")?;
                let d = self.parse_use_name()?;
                let ids = self.bracket_operands()?;
                self.parse_optional_attrs(st)?;
                let (t, e) = self.colon_ranked_type("tensor")?;
                let vv = self.resolve(v, e)?;
                let dv = self.resolve(d, t)?;
                st.operands.extend([vv, dv]);
                self.resolve_uniform(st, &ids, idx)?;
                st.result_types = vec![t];
            }
            Fmt::FromElements => {
                let uses = self.parse_optional_operand_list()?;
                self.parse_optional_attrs(st)?;
                let (t, e) = self.colon_shaped_type("shaped")?;
                self.resolve_uniform(st, &uses, e)?;
                st.result_types = vec![t];
            }
            Fmt::Generate => {
                let dyns = self.parse_optional_operand_list()?;
                let r = self.parse_region(&[], false)?;
                st.regions.push(r);
                self.parse_optional_attrs(st)?;
                let t = self.colon_type()?;
                self.resolve_uniform(st, &dyns, idx)?;
                st.result_types = vec![t];
            }
            Fmt::Splat => {
                let v = self.parse_use_name()?;
                let mut dyns = Vec::new();
                if self.eat(Tok::LSquare)? {
                    dyns = self.operand_list_until(Tok::RSquare)?;
                }
                self.parse_optional_attrs(st)?;
                let (t, e) = self.colon_shaped_type("shaped")?;
                let vv = self.resolve(v, e)?;
                st.operands.push(vv);
                self.resolve_uniform(st, &dyns, idx)?;
                st.result_types = vec![t];
            }
            Fmt::InsertSlice => {
                let src = self.parse_use_name()?;
                self.expect_kw_custom("into")?;
                let dst = self.parse_use_name()?;
                let mut tmp = OpState::default();
                let (offs, no) = self.mixed_list(&mut tmp, Tok::LSquare, Tok::RSquare)?;
                let (sizes, ns) = self.mixed_list(&mut tmp, Tok::LSquare, Tok::RSquare)?;
                let (strides, nt) = self.mixed_list(&mut tmp, Tok::LSquare, Tok::RSquare)?;
                self.parse_optional_attrs(st)?;
                let t = self.colon_type()?;
                self.expect_kw_custom("into")?;
                let dt = self.parse_type()?;
                let a = self.resolve(src, t)?;
                let b = self.resolve(dst, dt)?;
                st.operands.extend([a, b]);
                st.operands.extend(tmp.operands);
                self.put_static_lists(
                    st,
                    &[("static_offsets", &offs), ("static_sizes", &sizes), ("static_strides", &strides)],
                );
                let seg = self.segments(&[1, 1, no, ns, nt]);
                self.set_attr(st, "operandSegmentSizes", seg);
                if kind != OpKind::TensorParallelInsertSlice {
                    st.result_types = vec![dt];
                }
            }
            Fmt::Pad => {
                let src = self.parse_use_name()?;
                if self.eat_kw("nofold")? {
                    let u = self.m.ctx.attr(Attribute::Unit);
                    self.set_prop(st, "nofold", u);
                }
                let mut tmp = OpState::default();
                self.expect_kw_custom("low")?;
                let (low, nl) = self.mixed_list(&mut tmp, Tok::LSquare, Tok::RSquare)?;
                self.expect_kw_custom("high")?;
                let (high, nh) = self.mixed_list(&mut tmp, Tok::LSquare, Tok::RSquare)?;
                let r = self.parse_region(&[], false)?;
                st.regions.push(r);
                let (t, rt) = self.attrs_colon_types(st, "to")?;
                let v = self.resolve(src, t)?;
                st.operands.push(v);
                st.operands.extend(tmp.operands);
                self.put_static_lists(st, &[("static_low", &low), ("static_high", &high)]);
                let seg = self.segments(&[1, nl, nh]);
                self.set_attr(st, "operandSegmentSizes", seg);
                st.result_types = vec![rt];
            }
            Fmt::Concat => {
                self.expect_kw_custom("dim")?;
                self.expect(Tok::LParen, "'('")?;
                let d = self.parse_i64()?;
                self.expect(Tok::RParen, "')'")?;
                let i64t = self.m.ctx.int_type(64);
                let da = self.m.ctx.attr(Attribute::Integer { value: IntVal::Small(d as i128), ty: i64t });
                self.set_attr(st, "dim", da);
                let uses = self.parse_optional_operand_list()?;
                self.functional_tail(st, &uses, name_span)?;
            }
            Fmt::Gather => {
                let scatter = kind == OpKind::TensorScatter;
                let mut uses = vec![self.parse_use_name()?];
                if scatter {
                    self.expect_kw_custom("into")?;
                    uses.push(self.parse_use_name()?);
                }
                self.expect(Tok::LSquare, "'['")?;
                uses.push(self.parse_use_name()?);
                self.expect(Tok::RSquare, "']'")?;
                let kw = if scatter { "scatter_dims" } else { "gather_dims" };
                self.expect_kw_custom(kw)?;
                self.expect(Tok::LParen, "'('")?;
                let dims = self.parse_attribute(None)?;
                let dims = self.i64_array_from_list(dims)?;
                self.expect(Tok::RParen, "')'")?;
                self.set_attr(st, kw, dims);
                if self.eat_kw("unique")? {
                    let u = self.m.ctx.attr(Attribute::Unit);
                    self.set_prop(st, "unique", u);
                }
                self.functional_tail(st, &uses, name_span)?;
            }
            _ => return self.err_at(name_span, format!("internal error: '{}' is not a tensor op", kind.name())),
        }
        Ok(())
    }

    /// `attr-dict : (T, ..) -> (R, ..)` resolving `uses` against the inputs.
    pub(super) fn functional_tail(&mut self, st: &mut OpState, uses: &[UseName], name_span: Span) -> PResult<()> {
        self.parse_optional_attrs(st)?;
        self.expect(Tok::Colon, "':'")?;
        let (ins, outs) = self.parse_function_signature_types()?;
        if ins.len() != uses.len() {
            return self.err_at(
                name_span,
                format!("{CUSTOM_MARK}{} operands present, but expected {}", uses.len(), ins.len()),
            );
        }
        for (u, t) in uses.iter().zip(ins) {
            let v = self.resolve(*u, t)?;
            st.operands.push(v);
        }
        st.result_types = outs;
        Ok(())
    }

    /// `[1, 2]` (an array of integers) as `array<i64: 1, 2>`.
    /// [`Parser::i64_array_from_list`] as an `array<i32: ...>` (`llvm.shufflevector`'s mask).
    pub(super) fn i32_array_from_list(&mut self, a: crate::attrs::AttrId) -> PResult<crate::attrs::AttrId> {
        let a = self.i64_array_from_list(a)?;
        let Attribute::DenseArray { values, .. } = self.m.ctx.attr_kind(a).clone() else { return Ok(a) };
        let i32t = self.m.ctx.int_type(32);
        Ok(self.m.ctx.attr(Attribute::DenseArray { elem: i32t, values }))
    }

    pub(super) fn i64_array_from_list(&mut self, a: crate::attrs::AttrId) -> PResult<crate::attrs::AttrId> {
        let items = match self.m.ctx.attr_kind(a) {
            Attribute::Array(items) => items.clone(),
            Attribute::DenseArray { .. } => return Ok(a),
            _ => return self.err("expected '['"),
        };
        let mut v = Vec::new();
        for i in items {
            match self.m.ctx.attr_kind(i) {
                Attribute::Integer { value, .. } => v.push(value.to_i64().unwrap_or(0)),
                _ => return self.err("expected integer value"),
            }
        }
        Ok(self.i64_array(&v))
    }
}
