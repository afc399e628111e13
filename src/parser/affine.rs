//! Custom forms of the affine dialect. Loops and conditionals take affine
//! maps (or integer sets) applied to `(dims)[symbols]` operand lists; memory
//! ops write their subscripts as affine expressions directly over SSA ids
//! (`%A[%i + 1, symbol(%n) * 2]`). Both become a map attribute plus index
//! operands, dims first then symbols, built exactly as mlir-opt builds them
//! (an SSA id used twice is one dim).

use super::custom::CUSTOM_MARK;
use super::{OpState, PResult, Parser, UseName};
use crate::affine::{AffineExpr, AffineMap};
use crate::attrs::{AttrId, Attribute, DenseValues, IntVal};
use crate::diag::Span;
use crate::ident::Ident;
use crate::ir::ValueId;
use crate::lexer::Tok;
use crate::ops::{Fmt, OpKind};
use crate::types::{TypeId, TypeKind};

/// Dims and symbols met while parsing affine expressions over SSA ids.
#[derive(Default)]
struct SsaIds {
    /// Each SSA id seen so far and the dim or symbol standing for it.
    seen: Vec<((Ident, u32), AffineExpr)>,
    /// Dim operands in order.
    dims: Vec<UseName>,
    /// Symbol operands in order.
    syms: Vec<UseName>,
}

impl<'a> Parser<'a> {
    /// Parses the custom form of an affine op.
    pub(crate) fn parse_affine_family(
        &mut self,
        fmt: Fmt,
        kind: OpKind,
        st: &mut OpState,
        name_span: Span,
    ) -> PResult<()> {
        let idx = self.m.ctx.index_type();
        match fmt {
            Fmt::AffineFor => self.parse_affine_for(st, name_span)?,
            Fmt::AffineIf => self.parse_affine_if(st, name_span)?,
            Fmt::AffineParallel => self.parse_affine_parallel(st, name_span)?,
            Fmt::AffineApply => {
                let map = self.affine_map_attr()?;
                self.set_attr(st, "map", map.0);
                let (uses, nd) = self.dim_and_symbol_list()?;
                self.parse_optional_attrs(st)?;
                if map.1.num_dims as usize != nd || (map.1.num_dims + map.1.num_syms) as usize != uses.len() {
                    return self.err_at(name_span, format!("{CUSTOM_MARK}dimension or symbol index mismatch"));
                }
                self.resolve_uniform(st, &uses, idx)?;
                st.result_types = vec![idx; map.1.results.len()];
            }
            Fmt::AffineMinMax => {
                let map = self.affine_map_attr()?;
                self.set_attr(st, "map", map.0);
                let (uses, _) = self.dim_and_symbol_list()?;
                self.parse_optional_attrs(st)?;
                self.resolve_uniform(st, &uses, idx)?;
                st.result_types = vec![idx];
            }
            Fmt::AffineLoad => {
                let m = self.parse_use_name()?;
                let (map, uses) = self.ssa_affine_map(Tok::LSquare, Tok::RSquare)?;
                self.set_attr(st, "map", map);
                self.parse_optional_attrs(st)?;
                let (t, e) = self.colon_shaped_type("memref")?;
                let rt = if kind == OpKind::AffineVectorLoad {
                    self.expect(Tok::Comma, "','")?;
                    self.parse_type()?
                } else {
                    e
                };
                let v = self.resolve(m, t)?;
                st.operands.push(v);
                self.resolve_uniform(st, &uses, idx)?;
                st.result_types = vec![rt];
            }
            Fmt::AffineStore => {
                let val = self.parse_use_name()?;
                self.expect(Tok::Comma, "','")?;
                let m = self.parse_use_name()?;
                let (map, uses) = self.ssa_affine_map(Tok::LSquare, Tok::RSquare)?;
                self.set_attr(st, "map", map);
                self.parse_optional_attrs(st)?;
                let (t, e) = self.colon_shaped_type("memref")?;
                let vt = if kind == OpKind::AffineVectorStore {
                    self.expect(Tok::Comma, "','")?;
                    self.parse_type()?
                } else {
                    e
                };
                let v = self.resolve(val, vt)?;
                let mv = self.resolve(m, t)?;
                st.operands.extend([v, mv]);
                self.resolve_uniform(st, &uses, idx)?;
            }
            Fmt::AffinePrefetch => {
                let m = self.parse_use_name()?;
                let (map, uses) = self.ssa_affine_map(Tok::LSquare, Tok::RSquare)?;
                self.set_attr(st, "map", map);
                self.expect(Tok::Comma, "','")?;
                let rw = self.keyword()?;
                self.expect(Tok::Comma, "','")?;
                self.expect_kw_custom("locality")?;
                self.expect(Tok::Less, "'<'")?;
                let i32t = self.m.ctx.int_type(32);
                let hint = self.parse_attribute(Some(i32t))?;
                self.expect(Tok::Greater, "'>'")?;
                self.expect(Tok::Comma, "','")?;
                let cache = self.keyword()?;
                self.parse_optional_attrs(st)?;
                let t = self.colon_type()?;
                let v = self.resolve(m, t)?;
                st.operands.push(v);
                self.resolve_uniform(st, &uses, idx)?;
                if rw != "read" && rw != "write" {
                    return self.err_at(name_span, format!("{CUSTOM_MARK}rw specifier has to be 'read' or 'write'"));
                }
                let w = self.m.ctx.attr(Attribute::Bool(rw == "write"));
                self.set_attr(st, "isWrite", w);
                if cache != "data" && cache != "instr" {
                    return self.err_at(name_span, format!("{CUSTOM_MARK}cache type has to be 'data' or 'instr'"));
                }
                self.set_attr(st, "localityHint", hint);
                let d = self.m.ctx.attr(Attribute::Bool(cache == "data"));
                self.set_attr(st, "isDataCache", d);
            }
            Fmt::AffineDmaStart => {
                let mut parts = Vec::new();
                for (i, name) in ["src_map", "dst_map", "tag_map"].into_iter().enumerate() {
                    if i > 0 {
                        self.expect(Tok::Comma, "','")?;
                    }
                    let m = self.parse_use_name()?;
                    let (map, uses) = self.ssa_affine_map(Tok::LSquare, Tok::RSquare)?;
                    self.set_attr(st, name, map);
                    parts.push((m, uses));
                }
                self.expect(Tok::Comma, "','")?;
                let n = self.parse_use_name()?;
                let mut stride = Vec::new();
                while self.eat(Tok::Comma)? {
                    stride.push(self.parse_use_name()?);
                }
                if !stride.is_empty() && stride.len() != 2 {
                    return self.err_at(name_span, format!("{CUSTOM_MARK}expected two stride related operands"));
                }
                self.expect(Tok::Colon, "':'")?;
                let tys = self.parse_type_list_no_parens()?;
                if tys.len() != 3 {
                    return self.err_at(name_span, format!("{CUSTOM_MARK}expected three types"));
                }
                for ((m, uses), t) in parts.into_iter().zip(tys) {
                    let v = self.resolve(m, t)?;
                    st.operands.push(v);
                    self.resolve_uniform(st, &uses, idx)?;
                }
                let v = self.resolve(n, idx)?;
                st.operands.push(v);
                self.resolve_uniform(st, &stride, idx)?;
            }
            Fmt::AffineDmaWait => {
                let tag = self.parse_use_name()?;
                let (map, uses) = self.ssa_affine_map(Tok::LSquare, Tok::RSquare)?;
                self.set_attr(st, "tag_map", map);
                self.expect(Tok::Comma, "','")?;
                let n = self.parse_use_name()?;
                let t = self.colon_type()?;
                let v = self.resolve(tag, t)?;
                st.operands.push(v);
                self.resolve_uniform(st, &uses, idx)?;
                let v = self.resolve(n, idx)?;
                st.operands.push(v);
            }
            Fmt::AffineDelinearize => {
                let lin = self.parse_use_name()?;
                let v = self.resolve(lin, idx)?;
                st.operands.push(v);
                self.expect_kw_custom("into")?;
                let (basis, _) = self.mixed_list(st, Tok::LParen, Tok::RParen)?;
                self.put_static_lists(st, &[("static_basis", &basis)]);
                self.parse_optional_attrs(st)?;
                self.expect(Tok::Colon, "':'")?;
                st.result_types = self.parse_type_list_no_parens()?;
            }
            Fmt::AffineLinearize => {
                if self.eat_kw("disjoint")? {
                    let u = self.m.ctx.attr(Attribute::Unit);
                    self.set_prop(st, "disjoint", u);
                }
                let ids = self.bracket_operands()?;
                self.resolve_uniform(st, &ids, idx)?;
                self.expect_kw_custom("by")?;
                let (basis, ndyn) = self.mixed_list(st, Tok::LParen, Tok::RParen)?;
                self.put_static_lists(st, &[("static_basis", &basis)]);
                let seg = self.segments(&[ids.len(), ndyn]);
                self.set_attr(st, "operandSegmentSizes", seg);
                self.parse_optional_attrs(st)?;
                self.expect(Tok::Colon, "':'")?;
                st.result_types = vec![self.parse_type()?];
            }
            _ => return self.err_at(name_span, format!("internal error: '{}' is not an affine op", kind.name())),
        }
        Ok(())
    }

    /// A bare keyword, returned as text.
    fn keyword(&mut self) -> PResult<&'a str> {
        if !self.is(Tok::BareId) {
            return self.err("expected valid keyword");
        }
        let s = self.spelling();
        self.bump()?;
        Ok(s)
    }

    /// An affine map attribute (literal or alias) and its value.
    pub(super) fn affine_map_attr(&mut self) -> PResult<(AttrId, AffineMap)> {
        let sp = self.tok.span;
        let a = self.parse_attribute(None)?;
        match self.m.ctx.attr_kind(a) {
            Attribute::AffineMap(m) => Ok((a, m.clone())),
            _ => self.err_at(sp, "invalid kind of attribute specified"),
        }
    }

    /// `(%d, ..)` then an optional `[%s, ..]`: the operands and the dim count.
    pub(super) fn dim_and_symbol_list(&mut self) -> PResult<(Vec<UseName>, usize)> {
        let mut uses = self.parse_paren_operands()?;
        let nd = uses.len();
        if self.eat(Tok::LSquare)? {
            uses.extend(self.operand_list_until(Tok::RSquare)?);
        }
        Ok((uses, nd))
    }

    fn map_attr(&mut self, m: AffineMap) -> AttrId {
        self.m.ctx.attr(Attribute::AffineMap(m))
    }

    fn index_attr(&mut self, v: i64) -> AttrId {
        let idx = self.m.ctx.index_type();
        self.m.ctx.attr(Attribute::Integer { value: IntVal::Small(v as i128), ty: idx })
    }

    // ---- affine.for --------------------------------------------------------

    fn parse_affine_for(&mut self, st: &mut OpState, name_span: Span) -> PResult<()> {
        let idx = self.m.ctx.index_type();
        let iv = self.parse_use_name()?;
        self.expect(Tok::Equal, "'='")?;
        let n0 = st.operands.len();
        let lb = self.affine_bound(true, st, name_span)?;
        self.set_attr(st, "lowerBoundMap", lb);
        let nlb = st.operands.len() - n0;
        if !self.eat_kw("to")? {
            return self.err("expected 'to' between bounds");
        }
        let ub = self.affine_bound(false, st, name_span)?;
        self.set_attr(st, "upperBoundMap", ub);
        let nub = st.operands.len() - n0 - nlb;
        let step = if self.eat_kw("step")? {
            let sp = self.tok.span;
            let a = self.parse_attribute(Some(idx))?;
            let negative = match self.m.ctx.attr_kind(a) {
                Attribute::Integer { value, .. } => value.to_big() < 0.into(),
                _ => return self.err_at(sp, "invalid kind of attribute specified"),
            };
            if negative {
                return self.err_at(
                    sp,
                    format!("{CUSTOM_MARK}expected step to be representable as a positive signed integer"),
                );
            }
            a
        } else {
            self.index_attr(1)
        };
        self.set_attr(st, "step", step);
        let mut entry = vec![(iv, idx)];
        let mut inits = 0;
        if self.eat_kw("iter_args")? {
            let mut pairs = Vec::new();
            self.comma_list(Tok::LParen, Tok::RParen, "in argument list", |p| {
                let a = p.parse_use_name()?;
                p.expect(Tok::Equal, "'='")?;
                pairs.push((a, p.parse_use_name()?));
                Ok(())
            })?;
            self.expect(Tok::Arrow, "'->'")?;
            st.result_types = self.parse_function_result_types()?;
            if pairs.len() != st.result_types.len() {
                return self.err_at(
                    name_span,
                    format!("{CUSTOM_MARK}mismatch between the number of loop-carried values and results"),
                );
            }
            for ((a, i), t) in pairs.iter().zip(st.result_types.clone()) {
                let v = self.resolve(*i, t)?;
                st.operands.push(v);
                entry.push((*a, t));
            }
            inits = pairs.len();
        }
        let seg = self.segments(&[nlb, nub, inits]);
        self.set_attr(st, "operandSegmentSizes", seg);
        let r = self.parse_region(&entry, false)?;
        self.add_implicit_terminator(r, OpKind::AffineYield);
        st.regions.push(r);
        self.parse_optional_attrs(st)
    }

    /// One loop bound: `%ssa`, an integer, or `[max|min] #map(%d..)[%s..]`.
    /// Operands go to `st`; returns the bound map attribute.
    fn affine_bound(&mut self, lower: bool, st: &mut OpState, name_span: Span) -> PResult<AttrId> {
        let idx = self.m.ctx.index_type();
        let minmax = self.eat_kw(if lower { "max" } else { "min" })?;
        if self.is(Tok::PercentId) {
            let u = self.parse_use_name()?;
            if self.is(Tok::Comma) {
                return self.err_at(name_span, format!("{CUSTOM_MARK}expected only one loop bound operand"));
            }
            let v = self.resolve(u, idx)?;
            st.operands.push(v);
            let m = AffineMap { num_dims: 0, num_syms: 1, results: vec![AffineExpr::Sym(0)] };
            return Ok(self.map_attr(m));
        }
        let sp = self.tok.span;
        let a = self.parse_attribute(Some(idx))?;
        match self.m.ctx.attr_kind(a).clone() {
            Attribute::AffineMap(m) => {
                let (uses, nd) = self.dim_and_symbol_list()?;
                if m.num_dims as usize != nd {
                    return self.err_at(
                        name_span,
                        format!("{CUSTOM_MARK}dim operand count and affine map dim count must match"),
                    );
                }
                if (m.num_dims + m.num_syms) as usize != uses.len() {
                    return self.err_at(
                        name_span,
                        format!("{CUSTOM_MARK}symbol operand count and affine map symbol count must match"),
                    );
                }
                if m.results.len() > 1 && !minmax {
                    let msg = if lower {
                        "lower loop bound affine map with multiple results requires 'max' prefix"
                    } else {
                        "upper loop bound affine map with multiple results requires 'min' prefix"
                    };
                    return self.err_at(sp, format!("{CUSTOM_MARK}{msg}"));
                }
                self.resolve_uniform(st, &uses, idx)?;
                Ok(a)
            }
            Attribute::Integer { value, .. } => match value.to_i64() {
                Some(c) => {
                    Ok(self.map_attr(AffineMap { num_dims: 0, num_syms: 0, results: vec![AffineExpr::Const(c)] }))
                }
                None => self.err_at(sp, "integer constant out of range"),
            },
            _ => {
                self.err_at(name_span, format!("{CUSTOM_MARK}expected valid affine map representation for loop bounds"))
            }
        }
    }

    // ---- affine.if ---------------------------------------------------------

    fn parse_affine_if(&mut self, st: &mut OpState, name_span: Span) -> PResult<()> {
        let idx = self.m.ctx.index_type();
        let sp = self.tok.span;
        let a = self.parse_attribute(None)?;
        let Attribute::IntegerSet(set) = self.m.ctx.attr_kind(a).clone() else {
            return self.err_at(sp, "invalid kind of attribute specified");
        };
        self.set_attr(st, "condition", a);
        let (uses, nd) = self.dim_and_symbol_list()?;
        if set.num_dims as usize != nd {
            return self
                .err_at(name_span, format!("{CUSTOM_MARK}dim operand count and integer set dim count must match"));
        }
        if (set.num_dims + set.num_syms) as usize != uses.len() {
            return self.err_at(
                name_span,
                format!("{CUSTOM_MARK}symbol operand count and integer set symbol count must match"),
            );
        }
        self.resolve_uniform(st, &uses, idx)?;
        if self.eat(Tok::Arrow)? {
            st.result_types = self.parse_function_result_types()?;
        }
        let then = self.parse_region(&[], false)?;
        self.add_implicit_terminator(then, OpKind::AffineYield);
        let els = self.new_region();
        if self.eat_kw("else")? {
            let e = self.parse_region(&[], false)?;
            self.add_implicit_terminator(e, OpKind::AffineYield);
            st.regions = vec![then, e];
        } else {
            st.regions = vec![then, els];
        }
        self.parse_optional_attrs(st)
    }

    // ---- affine.parallel ---------------------------------------------------

    fn parse_affine_parallel(&mut self, st: &mut OpState, name_span: Span) -> PResult<()> {
        let idx = self.m.ctx.index_type();
        let mut ivs = Vec::new();
        self.comma_list(Tok::LParen, Tok::RParen, "in argument list", |p| {
            ivs.push(p.parse_use_name()?);
            Ok(())
        })?;
        self.expect(Tok::Equal, "'='")?;
        let (lb, lg) = self.parallel_bounds(st, "max")?;
        self.expect_kw_custom("to")?;
        let (ub, ug) = self.parallel_bounds(st, "min")?;
        for (n, a) in
            [("lowerBoundsMap", lb), ("lowerBoundsGroups", lg), ("upperBoundsMap", ub), ("upperBoundsGroups", ug)]
        {
            self.set_attr(st, n, a);
        }
        let mut steps = vec![1; ivs.len()];
        if self.eat_kw("step")? {
            let (map, _) = self.ssa_affine_map(Tok::LParen, Tok::RParen)?;
            let Attribute::AffineMap(m) = self.m.ctx.attr_kind(map).clone() else { return Ok(()) };
            steps.clear();
            for e in &m.results {
                match e.eval(&[], &[]) {
                    Ok(c) if e.max_ids() == (0, 0) => steps.push(c),
                    _ => return self.err_at(name_span, format!("{CUSTOM_MARK}steps must be constant integers")),
                }
            }
        }
        let i64t = self.m.ctx.int_type(64);
        let items: Vec<AttrId> = steps
            .iter()
            .map(|s| self.m.ctx.attr(Attribute::Integer { value: IntVal::Small(*s as i128), ty: i64t }))
            .collect();
        let sa = self.m.ctx.attr(Attribute::Array(items));
        self.set_attr(st, "steps", sa);
        let mut reductions = Vec::new();
        if self.eat_kw("reduce")? {
            self.comma_list(Tok::LParen, Tok::RParen, "in reduction list", |p| {
                let sp = p.tok.span;
                if !p.is(Tok::String) {
                    return p.err("expected attribute value");
                }
                let text = p.key_spelling();
                p.bump()?;
                let Some(k) = crate::ops::ATOMIC_KINDS.iter().position(|k| *k == text) else {
                    return p.err_at(sp, format!("{CUSTOM_MARK}invalid reduction value: \"{text}\""));
                };
                reductions.push(p.m.ctx.attr(Attribute::Integer { value: IntVal::Small(k as i128), ty: i64t }));
                Ok(())
            })?;
        }
        let ra = self.m.ctx.attr(Attribute::Array(reductions));
        self.set_attr(st, "reductions", ra);
        if self.eat(Tok::Arrow)? {
            st.result_types = self.parse_function_result_types()?;
        }
        let entry: Vec<(UseName, TypeId)> = ivs.iter().map(|u| (*u, idx)).collect();
        let r = self.parse_region(&entry, false)?;
        self.parse_optional_attrs(st)?;
        self.add_implicit_terminator(r, OpKind::AffineYield);
        st.regions.push(r);
        Ok(())
    }

    /// `(e, max(e, e), ..)`: every bound expression flattened into one map
    /// whose operands are deduplicated by value; returns the map and the
    /// `dense<..> : tensor<Nxi32>` count of expressions per group.
    fn parallel_bounds(&mut self, st: &mut OpState, kw: &str) -> PResult<(AttrId, AttrId)> {
        let idx = self.m.ctx.index_type();
        let mut exprs: Vec<(AffineExpr, Vec<UseName>, Vec<UseName>)> = Vec::new();
        let mut groups: Vec<usize> = Vec::new();
        self.comma_list(Tok::LParen, Tok::RParen, "in bound list", |p| {
            if p.eat_kw(kw)? {
                let mut ids = SsaIds::default();
                let mut results = Vec::new();
                p.comma_list(Tok::LParen, Tok::RParen, "in affine map", |p| {
                    results.push(p.ssa_affine_expr(&mut ids)?);
                    Ok(())
                })?;
                groups.push(results.len());
                for e in results {
                    exprs.push((e, ids.dims.clone(), ids.syms.clone()));
                }
            } else {
                let mut ids = SsaIds::default();
                let e = p.ssa_affine_expr(&mut ids)?;
                exprs.push((e, ids.dims, ids.syms));
                groups.push(1);
            }
            Ok(())
        })?;
        let mut dims: Vec<ValueId> = Vec::new();
        let mut syms: Vec<ValueId> = Vec::new();
        let mut out = Vec::new();
        for (e, ds, ss) in &exprs {
            let mut dmap = Vec::new();
            for u in ds {
                let v = self.resolve(*u, idx)?;
                dmap.push(position_or_push(&mut dims, v));
            }
            let mut smap = Vec::new();
            for u in ss {
                let v = self.resolve(*u, idx)?;
                smap.push(position_or_push(&mut syms, v));
            }
            out.push(remap(e, &dmap, &smap));
        }
        st.operands.extend(dims.iter().chain(&syms));
        let m = AffineMap { num_dims: dims.len() as u32, num_syms: syms.len() as u32, results: out };
        let ma = self.map_attr(m);
        let i32t = self.m.ctx.int_type(32);
        let tt = self.m.ctx.ty(TypeKind::RankedTensor { shape: vec![groups.len() as i64], elem: i32t, encoding: None });
        let values = DenseValues::Ints(groups.iter().map(|g| IntVal::Small(*g as i128)).collect());
        let ga = self.m.ctx.attr(Attribute::Dense { ty: tt, splat: false, values });
        Ok((ma, ga))
    }

    // ---- affine expressions over SSA ids -------------------------------------

    /// `[e, ..]` (or parenthesised) over SSA ids: the map attribute and its
    /// operands, dims first then symbols.
    fn ssa_affine_map(&mut self, open: Tok, close: Tok) -> PResult<(AttrId, Vec<UseName>)> {
        let mut ids = SsaIds::default();
        let mut results = Vec::new();
        self.comma_list(open, close, "in affine map", |p| {
            results.push(p.ssa_affine_expr(&mut ids)?);
            Ok(())
        })?;
        let m = AffineMap { num_dims: ids.dims.len() as u32, num_syms: ids.syms.len() as u32, results };
        let a = self.map_attr(m);
        let mut uses = ids.dims;
        uses.extend(ids.syms);
        Ok((a, uses))
    }

    fn ssa_affine_expr(&mut self, ids: &mut SsaIds) -> PResult<AffineExpr> {
        self.nested(|p| {
            let mut lhs = p.ssa_affine_term(ids)?;
            let mut depth = lhs.depth();
            loop {
                let at = p.tok.span;
                if p.eat(Tok::Plus)? {
                    let r = p.ssa_affine_term(ids)?;
                    p.affine_deeper(&mut depth, &r, at)?;
                    lhs = AffineExpr::Add(Box::new(lhs), Box::new(r));
                } else if p.eat(Tok::Minus)? {
                    let r = p.ssa_affine_term(ids)?;
                    p.affine_deeper(&mut depth, &r, at)?;
                    lhs = AffineExpr::Add(Box::new(lhs), Box::new(negate(r)));
                } else {
                    return Ok(lhs);
                }
            }
        })
    }

    fn ssa_affine_term(&mut self, ids: &mut SsaIds) -> PResult<AffineExpr> {
        let mut lhs = self.ssa_affine_operand(ids)?;
        let mut depth = lhs.depth();
        loop {
            let op_span = self.tok.span;
            let op = match () {
                _ if self.is(Tok::Star) => "*",
                _ if self.is_kw("floordiv") => "floordiv",
                _ if self.is_kw("ceildiv") => "ceildiv",
                _ if self.is_kw("mod") => "mod",
                _ => return Ok(lhs),
            };
            self.bump()?;
            let rhs = self.ssa_affine_operand(ids)?;
            self.affine_deeper(&mut depth, &rhs, op_span)?;
            let (a, b) = (Box::new(lhs), Box::new(rhs));
            lhs = if op == "*" {
                if !a.is_symbolic() && !b.is_symbolic() {
                    return self.err_at(op_span, "non-affine expression: at least one of the multiply operands has to be either a constant or symbolic");
                }
                AffineExpr::Mul(a, b)
            } else {
                if !b.is_symbolic() {
                    return self.err_at(
                        op_span,
                        format!("non-affine expression: right operand of {op} has to be either a constant or symbolic"),
                    );
                }
                match op {
                    "floordiv" => AffineExpr::FloorDiv(a, b),
                    "ceildiv" => AffineExpr::CeilDiv(a, b),
                    _ => AffineExpr::Mod(a, b),
                }
            };
        }
    }

    fn ssa_affine_operand(&mut self, ids: &mut SsaIds) -> PResult<AffineExpr> {
        match self.tok.kind {
            Tok::LParen => {
                self.bump()?;
                if self.is(Tok::RParen) {
                    return self.err("no expression inside parentheses");
                }
                let e = self.ssa_affine_expr(ids)?;
                self.expect(Tok::RParen, "')'")?;
                Ok(e)
            }
            Tok::Minus => {
                self.bump()?;
                let e = self.ssa_affine_operand(ids)?;
                Ok(negate(e))
            }
            Tok::Integer => {
                let s = self.spelling();
                let v = match s.strip_prefix("0x") {
                    Some(h) => i64::from_str_radix(h, 16).ok(),
                    None => s.parse::<i64>().ok(),
                };
                let Some(v) = v else { return self.err("constant too large for index") };
                self.bump()?;
                Ok(AffineExpr::Const(v))
            }
            Tok::PercentId => self.ssa_id_expr(ids, false),
            Tok::BareId if self.is_kw("symbol") => {
                self.bump()?;
                self.expect(Tok::LParen, "'('")?;
                let e = self.ssa_id_expr(ids, true)?;
                self.expect(Tok::RParen, "')'")?;
                Ok(e)
            }
            Tok::BareId => self.err_here("use of undeclared identifier"),
            Tok::Plus | Tok::Star => self.err_here("missing left operand of binary operator"),
            _ => self.err_here("expected affine expression"),
        }
    }

    /// `%x`: the dim (or symbol) already standing for it, or a new one.
    fn ssa_id_expr(&mut self, ids: &mut SsaIds, symbol: bool) -> PResult<AffineExpr> {
        let u = self.parse_use_name()?;
        if let Some((_, e)) = ids.seen.iter().find(|(k, _)| *k == (u.name, u.number)) {
            return Ok(e.clone());
        }
        let e = if symbol {
            ids.syms.push(u);
            AffineExpr::Sym(ids.syms.len() as u32 - 1)
        } else {
            ids.dims.push(u);
            AffineExpr::Dim(ids.dims.len() as u32 - 1)
        };
        ids.seen.push(((u.name, u.number), e.clone()));
        Ok(e)
    }
}

/// `-e` as MLIR stores it.
fn negate(e: AffineExpr) -> AffineExpr {
    match e {
        AffineExpr::Const(c) => AffineExpr::Const(c.wrapping_neg()),
        e => AffineExpr::Mul(Box::new(e), Box::new(AffineExpr::Const(-1))),
    }
}

/// The index of `v` in `list`, appending it when absent.
fn position_or_push(list: &mut Vec<ValueId>, v: ValueId) -> u32 {
    match list.iter().position(|x| *x == v) {
        Some(i) => i as u32,
        None => {
            list.push(v);
            list.len() as u32 - 1
        }
    }
}

/// `e` with dim `i` renamed to `dims[i]` and symbol `j` to `syms[j]`.
fn remap(e: &AffineExpr, dims: &[u32], syms: &[u32]) -> AffineExpr {
    let r = |x: &AffineExpr| Box::new(remap(x, dims, syms));
    match e {
        AffineExpr::Dim(i) => AffineExpr::Dim(dims.get(*i as usize).copied().unwrap_or(*i)),
        AffineExpr::Sym(i) => AffineExpr::Sym(syms.get(*i as usize).copied().unwrap_or(*i)),
        AffineExpr::Const(c) => AffineExpr::Const(*c),
        AffineExpr::Add(a, b) => AffineExpr::Add(r(a), r(b)),
        AffineExpr::Mul(a, b) => AffineExpr::Mul(r(a), r(b)),
        AffineExpr::Mod(a, b) => AffineExpr::Mod(r(a), r(b)),
        AffineExpr::FloorDiv(a, b) => AffineExpr::FloorDiv(r(a), r(b)),
        AffineExpr::CeilDiv(a, b) => AffineExpr::CeilDiv(r(a), r(b)),
    }
}
