//! Custom forms of HEIR's `comb` dialect (spec document 003), whose formats
//! are the ODS declarations quoted there. The optional `bin` keyword sets
//! the `twoState` unit attribute.

use super::{OpState, PResult, Parser};
use crate::attrs::{Attribute, IntVal};
use crate::diag::Span;
use crate::lexer::Tok;
use crate::ops::{Fmt, OpKind};
use crate::types::TypeKind;

/// `comb.icmp` predicates in enum order.
pub const ICMP_PREDICATES: &[&str] =
    &["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge", "ceq", "cne", "weq", "wne"];

impl<'a> Parser<'a> {
    /// Parses the custom form of a comb op.
    pub(super) fn parse_comb_family(
        &mut self,
        fmt: Fmt,
        kind: OpKind,
        st: &mut OpState,
        name_span: Span,
    ) -> PResult<()> {
        let two_state = matches!(fmt, Fmt::CombVariadic | Fmt::CombUnary | Fmt::CombIcmp | Fmt::CombMux);
        if two_state && self.eat_kw("bin")? {
            let u = self.m.ctx.attr(Attribute::Unit);
            self.set_attr(st, "twoState", u);
        }
        match fmt {
            Fmt::CombVariadic | Fmt::CombMux => {
                let uses = self.parse_operand_list_nonempty()?;
                self.parse_optional_attrs(st)?;
                self.expect(Tok::Colon, "':'")?;
                let t = self.parse_type()?;
                let mut tys = vec![t; uses.len()];
                if fmt == Fmt::CombMux {
                    if uses.len() != 3 {
                        return self.err_at(name_span, format!("{} operands present, but expected 3", uses.len()));
                    }
                    tys[0] = self.m.ctx.int_type(1);
                }
                self.resolve_all(st, &uses, &tys, name_span)?;
                st.result_types = vec![t];
            }
            Fmt::CombUnary => {
                let u = self.parse_use_name()?;
                self.parse_optional_attrs(st)?;
                self.expect(Tok::Colon, "':'")?;
                let t = self.parse_type()?;
                let v = self.resolve(u, t)?;
                st.operands.push(v);
                st.result_types = vec![if kind == OpKind::CombParity { self.m.ctx.int_type(1) } else { t }];
            }
            Fmt::CombConcat => {
                let uses = self.parse_operand_list_nonempty()?;
                self.parse_optional_attrs(st)?;
                self.expect(Tok::Colon, "':'")?;
                let tys = self.parse_type_list_no_parens()?;
                self.resolve_all(st, &uses, &tys, name_span)?;
                let mut width: u64 = 0;
                for t in &tys {
                    match self.m.ctx.type_kind(*t) {
                        TypeKind::Integer { width: w, .. } => width += *w as u64,
                        _ => return self.err_at(name_span, "comb.concat operands must be integers"),
                    }
                }
                if width == 0 || width > 16_777_215 {
                    return self
                        .err_at(name_span, format!("comb.concat result width {width} is not a valid integer width"));
                }
                st.result_types = vec![self.m.ctx.int_type(width as u32)];
            }
            Fmt::CombExtract => {
                let u = self.parse_use_name()?;
                self.expect_kw_custom("from")?;
                let low = self.parse_i64()?;
                let i32t = self.m.ctx.int_type(32);
                let a = self.m.ctx.attr(Attribute::Integer { value: IntVal::Small(low as i128), ty: i32t });
                self.set_attr(st, "lowBit", a);
                self.parse_functional_tail(st, &[u], name_span)?;
            }
            Fmt::CombIcmp => {
                let n = self.parse_enum_keyword("predicate", ICMP_PREDICATES)?;
                let i64t = self.m.ctx.int_type(64);
                let a = self.m.ctx.attr(Attribute::Integer { value: IntVal::Small(n as i128), ty: i64t });
                self.set_attr(st, "predicate", a);
                let uses = self.parse_n_operands(2)?;
                self.parse_optional_attrs(st)?;
                self.expect(Tok::Colon, "':'")?;
                let t = self.parse_type()?;
                self.resolve_all(st, &uses, &[t, t], name_span)?;
                st.result_types = vec![self.m.ctx.int_type(1)];
            }
            Fmt::CombLut => {
                let uses = self.parse_optional_operand_list()?;
                self.parse_functional_tail(st, &uses, name_span)?;
            }
            Fmt::CombReplicate => {
                let u = self.parse_use_name()?;
                self.parse_functional_tail(st, &[u], name_span)?;
            }
            Fmt::CombTruthTable => {
                let uses = self.parse_operand_list_nonempty()?;
                self.expect(Tok::Arrow, "'->'")?;
                let table = self.parse_attribute(None)?;
                if !matches!(self.m.ctx.attr_kind(table), Attribute::Integer { .. }) {
                    return self.err_at(name_span, "comb.truth_table expects an integer lookup table");
                }
                self.set_attr(st, "lookupTable", table);
                self.parse_optional_attrs(st)?;
                let i1 = self.m.ctx.int_type(1);
                let tys = vec![i1; uses.len()];
                self.resolve_all(st, &uses, &tys, name_span)?;
                st.result_types = vec![i1];
            }
            _ => return self.err_at(name_span, format!("internal error: '{}' is not a comb op", kind.name())),
        }
        Ok(())
    }

    /// One or more comma-separated operands.
    fn parse_operand_list_nonempty(&mut self) -> PResult<Vec<super::UseName>> {
        let mut v = vec![self.parse_use_name()?];
        while self.eat(Tok::Comma)? {
            v.push(self.parse_use_name()?);
        }
        Ok(v)
    }
}

#[cfg(test)]
mod tests {
    use crate::{parse_and_verify, printer::print_generic, Source};

    /// Expected attributes and types come from the ODS formats in spec 003:
    /// `bin` sets `twoState`, `ult` is predicate 6, concat sums widths.
    #[test]
    fn every_comb_form_parses_to_the_documented_attributes() {
        let text = include_str!("../../fixtures/comb/syntax_all_ops.mlir");
        let m = parse_and_verify(&Source::new("comb.mlir", text)).expect("parses");
        let out = print_generic(&m);
        for want in [
            r#""comb.and"(%0, %1) {twoState} : (i8, i8) -> (i8)"#,
            r#""comb.parity"(%0) {twoState} : (i8) -> (i1)"#,
            r#""comb.concat"(%0, %1, %2) : (i8, i8, i1) -> (i17)"#,
            r#""comb.extract"(%10) {lowBit = 3 : i32} : (i17) -> (i4)"#,
            r#"{twoState, predicate = 6 : i64} : (i8, i8) -> (i1)"#,
            r#""comb.mux"(%2, %0, %1) : (i1, i8, i8) -> (i8)"#,
            r#"{lookupTable = 6 : ui4} : (i1, i1) -> (i1)"#,
            r#""comb.xnor"(%5, %5) : (i1000, i1000) -> (i1000)"#,
        ] {
            assert!(out.contains(want), "missing {want} in\n{out}");
        }
    }

    #[test]
    fn verifier_rejects_bad_widths() {
        let cases = [
            ("comb.extract %a from 6 : (i8) -> i4", "from bit too large"),
            ("comb.replicate %a : (i8) -> i12", "must be a multiple"),
            ("comb.truth_table %x, %y -> 6 : ui8", "2^2 = 4 bits"),
            ("\"comb.icmp\"(%a, %a) {predicate = 0 : i64} : (i8, i8) -> i8", "must be 1-bit"),
            ("\"comb.icmp\"(%a, %x) {predicate = 0 : i64} : (i8, i1) -> i1", "same type"),
            ("\"comb.parity\"(%a) : (i8) -> i8", "must be 1-bit"),
            ("\"comb.mux\"(%a, %x, %y) : (i8, i1, i1) -> i1", "operand #0 must be 1-bit"),
            ("\"comb.mux\"(%x, %a, %y) : (i1, i8, i1) -> i1", "have same type"),
            (
                "comb.lut %a {coefficients = array<i8: 1, 2>, lookupTable = array<i8: 0>} : (i8) -> i8",
                "2 coefficients for 1 inputs",
            ),
            ("comb.lut %a {lookupTable = array<i8: 0>} : (i8) -> i8", "'coefficients' and 'lookupTable'"),
            ("comb.lut %x {coefficients = array<i8: 1>, lookupTable = array<i8: 0>} : (i1) -> i8", "8-bit signless"),
        ];
        for (op, msg) in cases {
            let text = format!("func.func @c(%a: i8, %x: i1, %y: i1) {{\n  %0 = {op}\n  return\n}}\n");
            let err = parse_and_verify(&Source::new("t.mlir", text)).expect_err("rejected");
            assert!(err.message.contains(msg), "{op}: {}", err.message);
        }
    }
}
