//! Custom forms of the linalg dialect. Named ops (`linalg.fill`, `copy`,
//! `matmul`, `transpose`, `broadcast`) carry no region in their text: the
//! parser builds the one mlir-opt's region builders build (block arguments
//! from the operands' element types, the payload ops, `linalg.yield`), so
//! the engine and the verifier see exactly the op mlir-opt would.

use super::custom::CUSTOM_MARK;
use super::{OpState, PResult, Parser, UseName};
use crate::attrs::{AttrId, Attribute, IntVal};
use crate::diag::Span;
use crate::ir::{BlockId, OpName, RegionId, ValueId};
use crate::lexer::Tok;
use crate::linalg::{Binary, OpDsl, Ref, Step, To, Unary};
use crate::ops::{Fmt, OpKind};
use crate::types::{TypeId, TypeKind};

/// A body value's type class, as `RegionBuilderHelper` tells them apart.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Float,
    Bool,
    Int,
    Complex,
    Other,
}

/// The parts `ins(..) outs(..)` leave behind: resolved operands and types.
struct InsOuts {
    ins: Vec<TypeId>,
    outs: Vec<TypeId>,
}

impl<'a> Parser<'a> {
    /// Parses the custom form of a linalg op.
    pub(crate) fn parse_linalg_family(
        &mut self,
        fmt: Fmt,
        kind: OpKind,
        st: &mut OpState,
        name_span: Span,
    ) -> PResult<()> {
        match fmt {
            Fmt::LinalgIndex => {
                let d = self.parse_i64()?;
                let i64t = self.m.ctx.int_type(64);
                let a = self.m.ctx.attr(Attribute::Integer { value: IntVal::Small(d as i128), ty: i64t });
                self.set_attr(st, "dim", a);
                self.parse_optional_attrs(st)?;
                st.result_types = vec![self.colon_type()?];
            }
            Fmt::LinalgGeneric => self.parse_linalg_generic(st)?,
            Fmt::LinalgNamed | Fmt::LinalgOpDsl => self.parse_linalg_named(kind, st, name_span)?,
            Fmt::LinalgDst => self.parse_linalg_dst(kind, st, name_span)?,
            Fmt::LinalgRelayout => self.parse_linalg_relayout(kind, st)?,
            Fmt::LinalgSoftmax => {
                self.parse_optional_attrs(st)?;
                self.expect_kw_custom("dimension")?;
                self.expect(Tok::LParen, "'('")?;
                let d = self.parse_i64()?;
                self.expect(Tok::RParen, "')'")?;
                let i64t = self.m.ctx.int_type(64);
                let a = self.m.ctx.attr(Attribute::Integer { value: IntVal::Small(i128::from(d)), ty: i64t });
                self.set_attr(st, "dimension", a);
                let io = self.parse_ins_outs(st, false)?;
                if io.ins.len() != 1 || io.outs.len() != 1 {
                    return self.err_at(name_span, format!("{CUSTOM_MARK}expected one input and one output"));
                }
                if self.eat(Tok::Arrow)? {
                    st.result_types = self.parse_function_result_types()?;
                }
            }
            _ => return self.err_at(name_span, format!("internal error: '{}' is not a linalg op", kind.name())),
        }
        Ok(())
    }

    /// `{traits} ins(..) outs(..) [attrs = {..}] { region } [-> types]`.
    fn parse_linalg_generic(&mut self, st: &mut OpState) -> PResult<()> {
        let loc = self.tok.span;
        // mlir-opt parses any attribute here and requires a dictionary, so an
        // alias of one (`#trait`, the form most sparse tests use) is the
        // op's attribute dictionary too.
        let traits = self.parse_attribute(None)?;
        let Attribute::Dict(entries) = self.m.ctx.attr_kind(traits).clone() else {
            return self.err_at(loc, format!("{CUSTOM_MARK}invalid kind of attribute specified"));
        };
        st.attrs = entries;
        // The textual form spells iterator types as strings; the op holds
        // `#linalg.iterator_type<..>` (what its generic form prints).
        let it_id = self.m.ctx.ident("iterator_types");
        let Some(Attribute::Array(its)) =
            st.attrs.iter().find(|(n, _)| *n == it_id).map(|(_, a)| self.m.ctx.attr_kind(*a).clone())
        else {
            return self.err_at(loc, format!("{CUSTOM_MARK}expected \"iterator_types\" array attribute"));
        };
        let mut conv = Vec::with_capacity(its.len());
        for a in its {
            let Attribute::String { value, .. } = self.m.ctx.attr_kind(a).clone() else {
                conv.push(a);
                continue;
            };
            let s = String::from_utf8_lossy(&value).into_owned();
            if s != "parallel" && s != "reduction" {
                return self.custom_err(&format!("unexpected iterator_type ({s})"));
            }
            conv.push(self.linalg_attr(&format!(".iterator_type<{s}>")));
        }
        let arr = self.m.ctx.attr(Attribute::Array(conv));
        self.set_attr(st, "iterator_types", arr);
        self.parse_ins_outs(st, true)?;
        if self.eat_kw("attrs")? {
            self.expect(Tok::Equal, "'='")?;
            self.parse_optional_attrs(st)?;
        }
        let r = self.parse_region(&[], false)?;
        st.regions.push(r);
        if self.eat(Tok::Arrow)? {
            st.result_types = self.parse_function_result_types()?;
        }
        Ok(())
    }

    /// `[indexing_maps = [..]] [{..}] ins(..) outs(..) [{..}] [-> types]`
    /// with the region built as the op's region builder builds it.
    fn parse_linalg_named(&mut self, kind: OpKind, st: &mut OpState, name_span: Span) -> PResult<()> {
        // mlir-opt reports a region it cannot build here, after the name.
        let start = Span::new(self.tok.span.start as usize, self.tok.span.start as usize);
        let contraction = matches!(
            kind,
            OpKind::LinalgMatmul | OpKind::LinalgBatchMatmul | OpKind::LinalgBatchReduceMatmul | OpKind::LinalgContract
        );
        let elementwise = if kind == OpKind::LinalgElementwise { Some(self.parse_elementwise_kind(st)?) } else { None };
        let mut written_maps = false;
        if contraction || elementwise.is_some() {
            let mut maps = Vec::new();
            if self.eat_kw("indexing_maps")? {
                self.expect(Tok::Equal, "'='")?;
                self.expect(Tok::LSquare, "'['")?;
                loop {
                    let a = self.parse_attribute(None)?;
                    if !matches!(self.m.ctx.attr_kind(a), Attribute::AffineMap(_)) {
                        return self.custom_err("expected affine map attribute");
                    }
                    maps.push(a);
                    if !self.eat(Tok::Comma)? {
                        break;
                    }
                }
                self.expect(Tok::RSquare, "']'")?;
            } else if kind == OpKind::LinalgContract {
                return self.custom_err("expected 'indexing_maps' attribute");
            }
            let defaults = match kind.dialect_op() {
                crate::ops::DialectOp::Linalg(o) => crate::linalg::contraction_maps(o),
                _ => None,
            };
            if let (true, Some((n, dims))) = (maps.is_empty(), defaults) {
                maps = dims.iter().map(|d| self.projection_attr(n as u32, d)).collect();
            }
            written_maps = !maps.is_empty();
            // `contract` has no default: the verifier reports the missing maps.
            if !maps.is_empty() {
                let a = self.m.ctx.attr(Attribute::Array(maps));
                self.set_attr(st, "indexing_maps", a);
            }
        }
        let io = self.parse_ins_outs(st, true)?;
        self.parse_optional_attrs(st)?;
        if self.eat(Tok::Arrow)? {
            st.result_types = self.parse_function_result_types()?;
        }
        let dsl = crate::linalg::opdsl(kind);
        let want = match (dsl, elementwise) {
            (Some(d), _) => d.args,
            (_, Some((_, arity))) => arity + 1,
            _ if contraction => 3,
            _ => 2,
        };
        let got = io.ins.len() + io.outs.len();
        if got != want {
            return self.err_here(format!(
                "{CUSTOM_MARK}[parseNamedStructuredOpRegion] ods-gen generated region expects {want} args, got {got}"
            ));
        }
        let unsigned = self.cast_is_unsigned(st);
        let (r, b, args) = self.linalg_block(&io.ins, &io.outs, name_span);
        if let Some((step, _)) = elementwise {
            if !written_maps {
                // Identity maps over the output's rank, as mlir-opt's
                // parser records them.
                let n = io.outs.first().and_then(|t| self.m.ctx.type_kind(*t).shape()).map_or(0, <[i64]>::len);
                let dims: Vec<u32> = (0..n as u32).collect();
                let maps = vec![self.projection_attr(n as u32, &dims); io.ins.len() + io.outs.len()];
                let a = self.m.ctx.attr(Attribute::Array(maps));
                self.set_attr(st, "indexing_maps", a);
            }
            let ys = self.linalg_steps(&[step], &[Ref::Val(0)], b, &args, name_span, start)?;
            self.linalg_yield(b, &ys, name_span);
            st.regions.push(r);
            return Ok(());
        }
        if let Some(d) = dsl {
            let ys = self.linalg_opdsl_body(d, b, &args, name_span, start)?;
            self.linalg_yield(b, &ys, name_span);
            st.regions.push(r);
            return Ok(());
        }
        let yielded = match kind {
            _ if contraction => {
                let acc = self.m.type_of(args[2]);
                let x = self.linalg_cast(b, acc, args[0], unsigned, name_span);
                let y = self.linalg_cast(b, acc, args[1], unsigned, name_span);
                let p = self.linalg_binary(b, false, x, y, name_span, start)?;
                self.linalg_binary(b, true, args[2], p, name_span, start)?
            }
            // `linalg.copy` casts its input to the output's element type
            // (a no-op when they agree); `linalg.fill` yields its value as is.
            OpKind::LinalgCopy => {
                let to = self.m.type_of(args[1]);
                self.linalg_cast(b, to, args[0], unsigned, name_span)
            }
            _ => args[0],
        };
        self.linalg_yield(b, &[yielded], name_span);
        st.regions.push(r);
        Ok(())
    }

    /// `linalg.transpose`, `broadcast`, `map`, `reduce`: destination-style
    /// ops whose result types are their tensor outputs'.
    fn parse_linalg_dst(&mut self, kind: OpKind, st: &mut OpState, name_span: Span) -> PResult<()> {
        // `{ arith.addf {attrs} }`: the short form's payload op.
        let mut payload = None;
        if matches!(kind, OpKind::LinalgMap | OpKind::LinalgReduce) && self.is(Tok::LBrace) {
            self.bump()?;
            if !self.is(Tok::BareId) {
                return self.err("expected bare identifier");
            }
            let span = self.tok.span;
            let pk = self.resolve_linalg_payload(span)?;
            self.bump()?;
            let mut pst = OpState::default();
            self.parse_optional_attrs(&mut pst)?;
            self.expect(Tok::RBrace, "'}'")?;
            payload = Some((pk, pst.attrs));
        }
        let io = self.parse_ins_outs(st, false)?;
        st.result_types = io
            .outs
            .iter()
            .copied()
            .filter(|t| matches!(self.m.ctx.type_kind(*t), TypeKind::RankedTensor { .. }))
            .collect();
        let required = match kind {
            OpKind::LinalgTranspose => Some("permutation"),
            OpKind::LinalgBroadcast | OpKind::LinalgReduce => Some("dimensions"),
            _ => None,
        };
        if let Some(kw) = required {
            self.expect_kw_custom(kw)?;
            self.expect(Tok::Equal, "'='")?;
            let a = self.parse_attribute(None)?;
            let a = self.i64_array_from_list(a)?;
            self.set_attr(st, kw, a);
        }
        self.parse_optional_attrs(st)?;
        match kind {
            OpKind::LinalgTranspose | OpKind::LinalgBroadcast => {
                let (r, b, args) = self.linalg_block(&io.ins, &io.outs, name_span);
                let n = io.ins.len();
                self.linalg_yield(b, &args[..n], name_span);
                st.regions.push(r);
            }
            _ => match payload {
                Some((pk, attrs)) => {
                    let r = self.new_region();
                    if !io.ins.is_empty() || !io.outs.is_empty() {
                        let (_, b, args) = self.linalg_block_in(r, &io.ins, &io.outs, name_span);
                        if let Some((&last, rest)) = args.split_last() {
                            let mut operands = rest.to_vec();
                            // reduce's combiner takes the accumulator first.
                            if kind == OpKind::LinalgReduce {
                                operands.insert(0, last);
                            }
                            let rt = self.m.type_of(last);
                            let v = self.linalg_op(b, pk, operands, vec![rt], attrs, name_span);
                            self.linalg_yield(b, &[v], name_span);
                        }
                    }
                    st.regions.push(r);
                }
                None => {
                    let mut args: Vec<(UseName, TypeId)> = Vec::new();
                    self.comma_list(Tok::LParen, Tok::RParen, "in argument list", |p| {
                        let u = p.parse_use_name()?;
                        p.expect(Tok::Colon, "':'")?;
                        let t = p.parse_type()?;
                        if p.is(Tok::LBrace) {
                            p.parse_attr_dict_entries()?;
                        }
                        p.parse_trailing_loc()?;
                        args.push((u, t));
                        Ok(())
                    })?;
                    let r = self.parse_region(&args, false)?;
                    st.regions.push(r);
                }
            },
        }
        Ok(())
    }

    /// `[<{props}>] [{attrs}] [ins(%a : T, ..)] [outs(%b : U, ..)]`,
    /// resolving the operands and adding `operandSegmentSizes` when asked.
    fn parse_ins_outs(&mut self, st: &mut OpState, segments: bool) -> PResult<InsOuts> {
        if self.eat(Tok::Less)? {
            if !self.is(Tok::LBrace) {
                return self.err("expected '{' to start properties");
            }
            st.properties = Some(self.parse_dictionary_attr()?);
            self.expect(Tok::Greater, "'>'")?;
        }
        self.parse_optional_attrs(st)?;
        let mut io = InsOuts { ins: Vec::new(), outs: Vec::new() };
        let mut groups: [(Vec<UseName>, Span); 2] = Default::default();
        for (i, kw) in ["ins", "outs"].into_iter().enumerate() {
            if !self.eat_kw(kw)? {
                continue;
            }
            self.expect(Tok::LParen, "'('")?;
            groups[i].1 = self.tok.span;
            groups[i].0 = self.parse_optional_operand_list()?;
            self.expect(Tok::Colon, "':'")?;
            let tys = self.parse_type_list_no_parens()?;
            self.expect(Tok::RParen, "')'")?;
            if i == 0 {
                io.ins = tys;
            } else {
                io.outs = tys;
            }
        }
        for (i, tys) in [&io.ins, &io.outs].into_iter().enumerate() {
            let (uses, span) = &groups[i];
            if uses.len() != tys.len() {
                return self.err_at(
                    Span::new(span.start as usize, span.start as usize),
                    format!("{CUSTOM_MARK}{} operands present, but expected {}", uses.len(), tys.len()),
                );
            }
            for (u, t) in uses.iter().zip(tys.iter()) {
                let v = self.resolve(*u, *t)?;
                st.operands.push(v);
            }
        }
        if segments {
            let seg = self.segments(&[io.ins.len(), io.outs.len()]);
            // Written properties keep their segments among them, as mlir-opt does.
            if st.properties.is_some() {
                self.set_prop(st, "operandSegmentSizes", seg);
            } else {
                self.set_attr(st, "operandSegmentSizes", seg);
            }
        }
        Ok(io)
    }

    /// A short-form payload op name (`arith.addf`).
    fn resolve_linalg_payload(&self, span: Span) -> PResult<OpKind> {
        let written = self.spelling();
        match OpKind::from_name(written) {
            Some(k) => Ok(k),
            None => self.err_at(span, format!("custom op '{written}' is unknown")),
        }
    }

    /// `#linalg<body>` kept as text, like every dialect attribute.
    fn linalg_attr(&mut self, body: &str) -> AttrId {
        let d = self.m.ctx.ident("linalg");
        self.m.ctx.attr(Attribute::Dialect { dialect: d, body: body.into() })
    }

    /// `(d0, .., d<n-1>) -> (d<dims[0]>, ..)` (matmul's default maps).
    fn projection_attr(&mut self, n: u32, dims: &[u32]) -> AttrId {
        let results = dims.iter().map(|d| crate::affine::AffineExpr::Dim(*d)).collect();
        self.m.ctx.attr(Attribute::AffineMap(crate::affine::AffineMap { num_dims: n, num_syms: 0, results }))
    }

    /// True when `cast = #linalg.type_fn<cast_unsigned>` is among the attributes.
    fn cast_is_unsigned(&self, st: &OpState) -> bool {
        let ctx = &self.m.ctx;
        st.attrs
            .iter()
            .chain(st.properties.iter().flat_map(|p| match ctx.attr_kind(*p) {
                Attribute::Dict(e) => e.iter(),
                _ => [].iter(),
            }))
            .any(|(n, a)| {
                ctx.str(*n) == "cast"
                    && matches!(ctx.attr_kind(*a), Attribute::Dialect { body, .. } if body.contains("cast_unsigned"))
            })
    }

    /// A new region with one block whose arguments are the element types
    /// of `ins` then `outs` (a non-shaped operand contributes its own type).
    fn linalg_block(&mut self, ins: &[TypeId], outs: &[TypeId], span: Span) -> (RegionId, BlockId, Vec<ValueId>) {
        let r = self.new_region();
        self.linalg_block_in(r, ins, outs, span)
    }

    fn linalg_block_in(
        &mut self,
        r: RegionId,
        ins: &[TypeId],
        outs: &[TypeId],
        span: Span,
    ) -> (RegionId, BlockId, Vec<ValueId>) {
        let b = self.new_block(r, span);
        let args = ins
            .iter()
            .chain(outs)
            .map(|t| {
                let e = match self.m.ctx.type_kind(*t) {
                    TypeKind::RankedTensor { elem, .. } | TypeKind::MemRef { elem, .. } => *elem,
                    _ => *t,
                };
                self.add_block_arg(b, e, span)
            })
            .collect();
        (r, b, args)
    }

    /// Appends a `kind` op to block `b`; returns its first result (or an
    /// arbitrary value if it has none, which the caller never uses).
    fn linalg_op(
        &mut self,
        b: BlockId,
        kind: OpKind,
        operands: Vec<ValueId>,
        result_types: Vec<TypeId>,
        attrs: Vec<(crate::ident::Ident, AttrId)>,
        span: Span,
    ) -> ValueId {
        let ident = self.m.ctx.ident(kind.name());
        let st =
            OpState { name: Some(OpName { kind, ident }), operands, result_types, attrs, span, ..Default::default() };
        let op = self.create_op(st, None);
        self.m.ops[op.0 as usize].parent = Some(b);
        self.m.blocks[b.0 as usize].ops.push(op);
        let o = self.m.op(op);
        ValueId(o.results.start)
    }

    fn linalg_yield(&mut self, b: BlockId, vals: &[ValueId], span: Span) {
        self.linalg_op(b, OpKind::LinalgYield, vals.to_vec(), Vec::new(), Vec::new(), span);
    }

    /// `convertScalarToDtype`: the cast mlir-opt's region builders insert
    /// to bring `v` to type `to` (none when the types agree).
    fn linalg_cast(&mut self, b: BlockId, to: TypeId, v: ValueId, unsigned: bool, span: Span) -> ValueId {
        let from = self.m.type_of(v);
        if from == to {
            return v;
        }
        let kind = match (self.m.ctx.type_kind(from).clone(), self.m.ctx.type_kind(to).clone()) {
            (TypeKind::Float(_), TypeKind::Integer { .. }) if unsigned => OpKind::ArithFptoui,
            (TypeKind::Float(_), TypeKind::Integer { .. }) => OpKind::ArithFptosi,
            (TypeKind::Index, TypeKind::Integer { .. }) => OpKind::ArithIndexCast,
            (TypeKind::Integer { width: w1, .. }, TypeKind::Integer { width: w2, .. }) => match w2.cmp(&w1) {
                std::cmp::Ordering::Greater if unsigned => OpKind::ArithExtui,
                std::cmp::Ordering::Greater => OpKind::ArithExtsi,
                std::cmp::Ordering::Less => OpKind::ArithTrunci,
                std::cmp::Ordering::Equal => return v,
            },
            (TypeKind::Integer { .. }, TypeKind::Float(_)) if unsigned => OpKind::ArithUitofp,
            (TypeKind::Integer { .. }, TypeKind::Float(_)) => OpKind::ArithSitofp,
            (TypeKind::Float(a), TypeKind::Float(c)) => match c.bit_width().cmp(&a.bit_width()) {
                std::cmp::Ordering::Greater => OpKind::ArithExtf,
                std::cmp::Ordering::Less => OpKind::ArithTruncf,
                std::cmp::Ordering::Equal => return v,
            },
            // mlir-opt warns and leaves the value; the verifier then
            // rejects the body's types.
            _ => return v,
        };
        self.linalg_op(b, kind, vec![v], vec![to], Vec::new(), span)
    }

    /// `BinaryFn::add` (`add`) or `BinaryFn::mul` on two values.
    fn linalg_binary(
        &mut self,
        b: BlockId,
        add: bool,
        x: ValueId,
        y: ValueId,
        span: Span,
        err_at: Span,
    ) -> PResult<ValueId> {
        let f = if add { Binary::Add } else { Binary::Mul };
        self.linalg_binary_fn(b, f, x, y, span, err_at)
    }

    /// One of OpDSL's binary functions on two values, as mlir-opt's
    /// `RegionBuilderHelper::buildBinaryFn` builds it: arith's float,
    /// integer or `i1` op, or complex's.
    fn linalg_binary_fn(
        &mut self,
        b: BlockId,
        f: Binary,
        x: ValueId,
        y: ValueId,
        span: Span,
        err_at: Span,
    ) -> PResult<ValueId> {
        let (tx, ty) = (self.m.type_of(x), self.m.type_of(y));
        let class = |p: &Self, t: TypeId| match p.m.ctx.type_kind(t) {
            TypeKind::Float(_) => Class::Float,
            TypeKind::Integer { width: 1, .. } => Class::Bool,
            TypeKind::Integer { .. } => Class::Int,
            TypeKind::Complex(_) => Class::Complex,
            _ => Class::Other,
        };
        let (cx, cy) = (class(self, tx), class(self, ty));
        let int = |c: Class| matches!(c, Class::Int | Class::Bool);
        let all = if cx == cy && cx != Class::Other {
            cx
        } else if int(cx) && int(cy) {
            Class::Int
        } else {
            let (a, c) = (self.type_str(tx), self.type_str(ty));
            return self.err_at(
                err_at,
                format!("{CUSTOM_MARK}Cannot build binary Linalg operation: expects allComplex, allFloatingPoint, or allInteger, got '{a}' and '{c}'"),
            );
        };
        use Class::{Bool, Complex, Float, Int};
        let kind = match (f, all) {
            (Binary::Add, Complex) => OpKind::ComplexAdd,
            (Binary::Add, Float) => OpKind::ArithAddf,
            (Binary::Add, Bool) => OpKind::ArithOri,
            (Binary::Add, _) => OpKind::ArithAddi,
            (Binary::Sub, Complex) => OpKind::ComplexSub,
            (Binary::Sub, Float) => OpKind::ArithSubf,
            (Binary::Sub, Int) => OpKind::ArithSubi,
            (Binary::Mul, Complex) => OpKind::ComplexMul,
            (Binary::Mul, Float) => OpKind::ArithMulf,
            (Binary::Mul, Bool) => OpKind::ArithAndi,
            (Binary::Mul, _) => OpKind::ArithMuli,
            (Binary::Div, Complex) => OpKind::ComplexDiv,
            (Binary::Div, Float) => OpKind::ArithDivf,
            (Binary::Div, Int) => OpKind::ArithDivsi,
            (Binary::DivUnsigned, Int) => OpKind::ArithDivui,
            (Binary::MaxSigned | Binary::MaxUnsigned, Float) => OpKind::ArithMaximumf,
            (Binary::MinSigned | Binary::MinUnsigned, Float) => OpKind::ArithMinimumf,
            (Binary::MaxSigned, Int | Bool) => OpKind::ArithMaxsi,
            (Binary::MinSigned, Int | Bool) => OpKind::ArithMinsi,
            (Binary::MaxUnsigned, Int | Bool) => OpKind::ArithMaxui,
            (Binary::MinUnsigned, Int | Bool) => OpKind::ArithMinui,
            (Binary::Powf, Float) => OpKind::MathPowf,
            (Binary::Sub, _) => {
                return self.err_at(err_at, format!("{CUSTOM_MARK}unsupported operation: sub with bools"))
            }
            (Binary::Div, _) => {
                return self.err_at(err_at, format!("{CUSTOM_MARK}unsupported operation: div with bools"))
            }
            (Binary::DivUnsigned, _) => {
                return self.err_at(err_at, format!("{CUSTOM_MARK}unsupported operation: unsigned div not on uint"))
            }
            // mlir-opt asserts here (a crash in a release build's UB); say
            // what is wrong instead.
            _ => {
                let t = self.type_str(tx);
                return self.err_at(err_at, format!("{CUSTOM_MARK}unsupported operation: {f:?} on '{t}'"));
            }
        };
        Ok(self.linalg_op(b, kind, vec![x, y], vec![tx], Vec::new(), span))
    }

    /// An OpDSL op's body: its region builder's steps on the block
    /// arguments `args`; returns the values to yield.
    fn linalg_opdsl_body(
        &mut self,
        d: &OpDsl,
        b: BlockId,
        args: &[ValueId],
        span: Span,
        err_at: Span,
    ) -> PResult<Vec<ValueId>> {
        self.linalg_steps(d.body, d.yields, b, args, span, err_at)
    }

    /// Region builder `steps` on the block arguments `args`; returns the
    /// values `yields` names.
    fn linalg_steps(
        &mut self,
        steps: &[Step],
        yields: &[Ref],
        b: BlockId,
        args: &[ValueId],
        span: Span,
        err_at: Span,
    ) -> PResult<Vec<ValueId>> {
        let mut vals: Vec<ValueId> = Vec::with_capacity(steps.len());
        let get = |vals: &[ValueId], r: Ref| match r {
            Ref::Arg(i) => args[i],
            Ref::Val(i) => vals[i],
        };
        for step in steps {
            let v = match *step {
                Step::Cast { unsigned, to, x } => {
                    let to = match to {
                        To::ArgType(i) => self.m.type_of(args[i]),
                        To::Int(w) => self.m.ctx.int_type(w),
                        To::F32 => self.m.ctx.float_type(crate::types::FloatKind::F32),
                        To::F64 => self.m.ctx.float_type(crate::types::FloatKind::F64),
                    };
                    self.linalg_cast(b, to, get(&vals, x), unsigned, span)
                }
                Step::Unary(f, x) => self.linalg_unary_fn(b, f, get(&vals, x), span, err_at)?,
                Step::Binary(f, x, y) => self.linalg_binary_fn(b, f, get(&vals, x), get(&vals, y), span, err_at)?,
                Step::Select(c, x, y) => {
                    let (c, x, y) = (get(&vals, c), get(&vals, x), get(&vals, y));
                    let t = self.m.type_of(x);
                    self.linalg_op(b, OpKind::ArithSelect, vec![c, x, y], vec![t], Vec::new(), span)
                }
                Step::ConstI64(n) => {
                    let t = self.m.ctx.int_type(64);
                    let a = self.m.ctx.attr(Attribute::Integer { value: IntVal::Small(i128::from(n)), ty: t });
                    self.linalg_constant(b, a, t, span)
                }
                Step::ConstF64(x) => {
                    let t = self.m.ctx.float_type(crate::types::FloatKind::F64);
                    let a = self.m.ctx.attr(Attribute::Float {
                        value: crate::attrs::FloatLit::Decimal(format!("{x:?}").into()),
                        ty: t,
                    });
                    self.linalg_constant(b, a, t, span)
                }
                Step::Index(dim) => {
                    let t = self.m.ctx.index_type();
                    let i64t = self.m.ctx.int_type(64);
                    let a = self.m.ctx.attr(Attribute::Integer { value: IntVal::Small(i128::from(dim)), ty: i64t });
                    let dim_id = self.m.ctx.ident("dim");
                    self.linalg_op(b, OpKind::LinalgIndex, Vec::new(), vec![t], vec![(dim_id, a)], span)
                }
            };
            vals.push(v);
        }
        Ok(yields.iter().map(|r| get(&vals, *r)).collect())
    }

    /// `linalg.pack`/`unpack`'s declarative form. Operands are source,
    /// dest, the padding value, then the dynamic tiles (pack numbers them
    /// with `operandSegmentSizes`).
    fn parse_linalg_relayout(&mut self, kind: OpKind, st: &mut OpState) -> PResult<()> {
        let src = self.parse_use_name()?;
        let mut pad = None;
        if kind == OpKind::LinalgPack && self.eat_kw("padding_value")? {
            self.expect(Tok::LParen, "'('")?;
            let u = self.parse_use_name()?;
            self.expect(Tok::Colon, "':'")?;
            let t = self.parse_type()?;
            self.expect(Tok::RParen, "')'")?;
            pad = Some(self.resolve(u, t)?);
        }
        for (kw, required) in [("outer_dims_perm", false), ("inner_dims_pos", true)] {
            if required {
                self.expect_kw_custom(kw)?;
            } else if !self.eat_kw(kw)? {
                continue;
            }
            self.expect(Tok::Equal, "'='")?;
            let a = self.parse_attribute(None)?;
            let a = self.i64_array_from_list(a)?;
            self.set_attr(st, kw, a);
        }
        self.expect_kw_custom("inner_tiles")?;
        self.expect(Tok::Equal, "'='")?;
        let mut tiles = OpState::default();
        let (statics, ndyn) = self.mixed_list(&mut tiles, Tok::LSquare, Tok::RSquare)?;
        let a = self.i64_array(&statics);
        self.set_attr(st, "static_inner_tiles", a);
        self.expect_kw_custom("into")?;
        let dest = self.parse_use_name()?;
        self.parse_optional_attrs(st)?;
        self.expect(Tok::Colon, "':'")?;
        let ts = self.parse_type()?;
        self.expect(Tok::Arrow, "'->'")?;
        let td = self.parse_type()?;
        let s = self.resolve(src, ts)?;
        let d = self.resolve(dest, td)?;
        st.operands.extend([s, d]);
        st.operands.extend(pad);
        st.operands.extend(tiles.operands);
        if kind == OpKind::LinalgPack {
            let seg = self.segments(&[1, 1, usize::from(pad.is_some()), ndyn]);
            self.set_attr(st, "operandSegmentSizes", seg);
        }
        st.result_types = vec![td];
        Ok(())
    }

    /// `kind=#linalg.elementwise_kind<add>`: sets `kind`, returns the
    /// function it names and its arity.
    fn parse_elementwise_kind(&mut self, st: &mut OpState) -> PResult<(Step, usize)> {
        self.expect_kw_custom("kind")?;
        self.expect(Tok::Equal, "'='")?;
        let at = self.tok.span;
        let a = self.parse_attribute(None)?;
        let name = match self.m.ctx.attr_kind(a) {
            Attribute::Dialect { dialect, body } if self.m.ctx.str(*dialect) == "linalg" => {
                body.strip_prefix(".elementwise_kind<").and_then(|b| b.strip_suffix('>')).map(str::to_string)
            }
            _ => None,
        };
        let Some(found) = name.as_deref().and_then(crate::linalg::elementwise_kind) else {
            // The enum's own parser reports a bad case at the case's keyword.
            if name.is_some() {
                let col = at.start as usize + "#linalg.elementwise_kind<".len();
                return self.err_at(Span::new(col, col), "expected ::mlir::linalg::ElementwiseKind to be one of: exp, log, abs, ceil, floor, negf, reciprocal, round, sqrt, rsqrt, square, tanh, erf, add, sub, mul, div, div_unsigned, max_signed, min_signed, max_unsigned, min_unsigned, powf, select".to_string());
            }
            return self.err_at(at, format!("{CUSTOM_MARK}expected ::mlir::linalg::ElementwiseKind to be one of: exp, log, abs, ceil, floor, negf, reciprocal, round, sqrt, rsqrt, square, tanh, erf, add, sub, mul, div, div_unsigned, max_signed, min_signed, max_unsigned, min_unsigned, powf, select"));
        };
        self.set_attr(st, "kind", a);
        Ok(found)
    }

    /// `arith.constant` of `a` (of type `t`) in block `b`.
    fn linalg_constant(&mut self, b: BlockId, a: AttrId, t: TypeId, span: Span) -> ValueId {
        let value = self.m.ctx.ident("value");
        self.linalg_op(b, OpKind::ArithConstant, Vec::new(), vec![t], vec![(value, a)], span)
    }

    /// One of OpDSL's unary functions, as `buildUnaryFn` builds it (floats only).
    fn linalg_unary_fn(&mut self, b: BlockId, f: Unary, x: ValueId, span: Span, err_at: Span) -> PResult<ValueId> {
        let t = self.m.type_of(x);
        if !matches!(self.m.ctx.type_kind(t), TypeKind::Float(_)) {
            return self.err_at(err_at, format!("{CUSTOM_MARK}unsupported non numeric type"));
        }
        let kind = match f {
            Unary::Exp => OpKind::MathExp,
            Unary::Log => OpKind::MathLog,
            Unary::Abs => OpKind::MathAbsf,
            Unary::Ceil => OpKind::MathCeil,
            Unary::Floor => OpKind::MathFloor,
            Unary::Negf => OpKind::ArithNegf,
            Unary::Round => OpKind::MathRound,
            Unary::Sqrt => OpKind::MathSqrt,
            Unary::Rsqrt => OpKind::MathRsqrt,
            Unary::Tanh => OpKind::MathTanh,
            Unary::Erf => OpKind::MathErf,
            Unary::Square => return Ok(self.linalg_op(b, OpKind::ArithMulf, vec![x, x], vec![t], Vec::new(), span)),
            Unary::Reciprocal => {
                let one =
                    self.m.ctx.attr(Attribute::Float { value: crate::attrs::FloatLit::Decimal("1.0".into()), ty: t });
                let one = self.linalg_constant(b, one, t, span);
                return Ok(self.linalg_op(b, OpKind::ArithDivf, vec![one, x], vec![t], Vec::new(), span));
            }
        };
        Ok(self.linalg_op(b, kind, vec![x], vec![t], Vec::new(), span))
    }
}
