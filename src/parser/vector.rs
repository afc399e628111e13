//! Custom forms of the vector dialect. Positions (`[%i, 2]`) become a
//! `static_position` array plus operands as in memref's mixed lists;
//! combining kinds (`<add>`) become `#vector.kind<..>`; transfer ops get
//! mlir-opt's default `permutation_map` (the minor identity), `in_bounds`
//! (all false) and a mask type inferred from the vector type and the map.

use super::custom::CUSTOM_MARK;
use super::{OpState, PResult, Parser};
use crate::affine::{AffineExpr, AffineMap};
use crate::attrs::{AttrId, Attribute, IntVal};
use crate::diag::Span;
use crate::ir::{OpName, ValueId};
use crate::lexer::Tok;
use crate::ops::{traits, Fmt, OpKind};
use crate::types::TypeKind;

impl<'a> Parser<'a> {
    /// Parses the custom form of a vector-family op.
    pub(crate) fn parse_vector_family(
        &mut self,
        fmt: Fmt,
        kind: OpKind,
        st: &mut OpState,
        name_span: Span,
    ) -> PResult<()> {
        let idx = self.m.ctx.index_type();
        match fmt {
            Fmt::ToElements => {
                let u = self.parse_use_name()?;
                self.parse_optional_attrs(st)?;
                let sp = self.tok.span;
                let t = self.colon_type()?;
                let (Some(e), Some(shape)) = (self.m.ctx.type_kind(t).elem(), self.m.ctx.type_kind(t).shape()) else {
                    return self.err_at(sp, "expected vector type");
                };
                // One result per element: refuse absurd counts rather than allocate them.
                let n = match crate::types::num_elements(shape) {
                    Some(n) if n <= 1 << 20 => n,
                    _ => return self.err_at(sp, "vector.to_elements on a vector with too many elements"),
                };
                let v = self.resolve(u, t)?;
                st.operands.push(v);
                st.result_types = vec![e; n.max(0) as usize];
            }
            Fmt::VecExtract => {
                let src = self.parse_use_name()?;
                let mut tmp = OpState::default();
                let pos = self.position(kind, st, &mut tmp)?;
                self.parse_optional_attrs(st)?;
                let rt = self.colon_type()?;
                self.expect_kw_custom("from")?;
                let t = self.parse_type()?;
                let v = self.resolve(src, t)?;
                st.operands.push(v);
                st.operands.extend(tmp.operands);
                self.set_attr(st, pos.0, pos.1);
                st.result_types = vec![rt];
            }
            Fmt::VecInsert => {
                let val = self.parse_use_name()?;
                self.expect(Tok::Comma, "','")?;
                let dst = self.parse_use_name()?;
                let mut tmp = OpState::default();
                let pos = self.position(kind, st, &mut tmp)?;
                self.parse_optional_attrs(st)?;
                let vt = self.colon_type()?;
                self.expect_kw_custom("into")?;
                let dt = self.parse_type()?;
                let a = self.resolve(val, vt)?;
                let b = self.resolve(dst, dt)?;
                // llvm.intr.vector.insert takes the destination first.
                if kind == OpKind::LlvmVectorInsert {
                    st.operands.extend([b, a]);
                } else {
                    st.operands.extend([a, b]);
                }
                st.operands.extend(tmp.operands);
                self.set_attr(st, pos.0, pos.1);
                st.result_types = vec![dt];
            }
            Fmt::VecExtractElement | Fmt::VecInsertElement => {
                let val = self.parse_leading_use(fmt == Fmt::VecInsertElement)?;
                let vec = self.parse_use_name()?;
                self.expect(Tok::LSquare, "'['")?;
                let mut pos = None;
                if !self.eat(Tok::RSquare)? {
                    let u = self.parse_use_name()?;
                    self.expect(Tok::Colon, "':'")?;
                    let pt = self.parse_type()?;
                    self.expect(Tok::RSquare, "']'")?;
                    pos = Some((u, pt));
                }
                self.parse_optional_attrs(st)?;
                let sp = self.tok.span;
                let t = self.colon_type()?;
                let Some(elem) = self
                    .m
                    .ctx
                    .type_kind(t)
                    .elem()
                    .filter(|_| matches!(self.m.ctx.type_kind(t), TypeKind::Vector { .. }))
                else {
                    return self.err_at(sp, format!("{CUSTOM_MARK}expected a vector type"));
                };
                if let Some(u) = val {
                    let v = self.resolve(u, elem)?;
                    st.operands.push(v);
                }
                let v = self.resolve(vec, t)?;
                st.operands.push(v);
                if let Some((u, pt)) = pos {
                    let v = self.resolve(u, pt)?;
                    st.operands.push(v);
                }
                st.result_types = vec![if fmt == Fmt::VecInsertElement { t } else { elem }];
            }
            Fmt::InsertStrided => {
                let uses = self.parse_n_operands(2)?;
                self.parse_optional_attrs(st)?;
                let a = self.colon_type()?;
                self.expect_kw_custom("into")?;
                let b = self.parse_type()?;
                self.resolve_all(st, &uses, &[a, b], name_span)?;
                st.result_types = vec![b];
            }
            Fmt::Shuffle => {
                let uses = self.parse_n_operands(2)?;
                let mask = self.parse_attribute(None)?;
                let mask = self.i64_array_from_list(mask)?;
                self.set_attr(st, "mask", mask);
                self.parse_optional_attrs(st)?;
                let sp = self.tok.span;
                let a = self.colon_type()?;
                self.expect(Tok::Comma, "','")?;
                let b = self.parse_type()?;
                self.resolve_all(st, &uses, &[a, b], name_span)?;
                let n = match self.m.ctx.attr_kind(mask) {
                    Attribute::DenseArray { values: crate::attrs::DenseValues::Ints(v), .. } => v.len() as i64,
                    _ => 0,
                };
                let TypeKind::Vector { shape, scalable, elem } = self.m.ctx.type_kind(a).clone() else {
                    // A scalar shuffle yields a 1-D vector.
                    st.result_types =
                        vec![self.m.ctx.ty(TypeKind::Vector { shape: vec![n], scalable: vec![false], elem: a })];
                    let _ = sp;
                    return Ok(());
                };
                let mut rs = vec![n];
                rs.extend(shape.iter().skip(1));
                let mut sc = vec![false];
                sc.extend(scalable.iter().skip(1));
                st.result_types = vec![self.m.ctx.ty(TypeKind::Vector { shape: rs, scalable: sc, elem })];
            }
            Fmt::Interleave | Fmt::Deinterleave => {
                let n = if fmt == Fmt::Interleave { 2 } else { 1 };
                let uses = self.parse_n_operands(n)?;
                self.parse_optional_attrs(st)?;
                let t = self.colon_type()?;
                self.expect(Tok::Arrow, "'->'")?;
                let rt = self.parse_type()?;
                self.resolve_all(st, &uses, &vec![t; n], name_span)?;
                st.result_types = vec![rt; 3 - n];
            }
            Fmt::VecTranspose => {
                let u = self.parse_use_name()?;
                self.expect(Tok::Comma, "','")?;
                let p = self.parse_attribute(None)?;
                let p = self.i64_array_from_list(p)?;
                self.set_attr(st, "permutation", p);
                let (t, rt) = self.attrs_colon_types(st, "to")?;
                let v = self.resolve(u, t)?;
                st.operands.push(v);
                st.result_types = vec![rt];
            }
            Fmt::TypeOnly => {
                self.parse_optional_attrs(st)?;
                st.result_types = vec![self.colon_type()?];
            }
            Fmt::CreateMask => {
                let uses = self.parse_optional_operand_list()?;
                self.parse_optional_attrs(st)?;
                let t = self.colon_type()?;
                self.resolve_uniform(st, &uses, idx)?;
                st.result_types = vec![t];
            }
            Fmt::ConstantMask => {
                let a = self.parse_attribute(None)?;
                let a = self.i64_array_from_list(a)?;
                self.set_attr(st, "mask_dim_sizes", a);
                self.parse_optional_attrs(st)?;
                st.result_types = vec![self.colon_type()?];
            }
            Fmt::VecMemory => self.parse_vector_memory(kind, st)?,
            Fmt::TransferRead | Fmt::TransferWrite => self.parse_transfer(fmt == Fmt::TransferRead, st)?,
            Fmt::Reduction => {
                let k = self.combining_kind()?;
                self.set_attr(st, "kind", k);
                self.expect(Tok::Comma, "','")?;
                let v = self.parse_use_name()?;
                let acc = if self.eat(Tok::Comma)? { Some(self.parse_use_name()?) } else { None };
                self.parse_modifiers(st)?;
                let (t, rt) = self.attrs_colon_types(st, "into")?;
                let vv = self.resolve(v, t)?;
                st.operands.push(vv);
                if let Some(a) = acc {
                    let av = self.resolve(a, rt)?;
                    st.operands.push(av);
                }
                st.result_types = vec![rt];
            }
            Fmt::MultiReduction => {
                let k = self.combining_kind()?;
                self.set_attr(st, "kind", k);
                self.expect(Tok::Comma, "','")?;
                let uses = self.parse_n_operands(2)?;
                self.parse_optional_attrs(st)?;
                let dims = self.parse_attribute(None)?;
                let dims = self.i64_array_from_list(dims)?;
                self.set_attr(st, "reduction_dims", dims);
                let t = self.colon_type()?;
                self.expect_kw_custom("to")?;
                let rt = self.parse_type()?;
                self.resolve_all(st, &uses, &[t, rt], name_span)?;
                st.result_types = vec![rt];
            }
            Fmt::Scan => {
                let k = self.combining_kind()?;
                self.set_attr(st, "kind", k);
                self.expect(Tok::Comma, "','")?;
                let uses = self.parse_n_operands(2)?;
                self.parse_optional_attrs(st)?;
                let a = self.colon_type()?;
                self.expect(Tok::Comma, "','")?;
                let b = self.parse_type()?;
                self.resolve_all(st, &uses, &[a, b], name_span)?;
                st.result_types = vec![a, b];
            }
            Fmt::Contract => self.parse_contract(st, name_span)?,
            Fmt::OuterProduct => {
                let uses = self.parse_optional_operand_list()?;
                self.parse_optional_attrs(st)?;
                let a = self.colon_type()?;
                self.expect(Tok::Comma, "','")?;
                let b = self.parse_type()?;
                if uses.len() < 2 {
                    return self.err_at(name_span, format!("{CUSTOM_MARK}expected at least 2 operands"));
                }
                let TypeKind::Vector { shape, scalable, elem } = self.m.ctx.type_kind(a).clone() else {
                    return self.err_at(name_span, format!("{CUSTOM_MARK}expected vector type for operand #1"));
                };
                let (mut rs, mut sc) =
                    (vec![shape.first().copied().unwrap_or(1)], vec![scalable.first().copied().unwrap_or(false)]);
                if let TypeKind::Vector { shape: s2, scalable: c2, .. } = self.m.ctx.type_kind(b) {
                    rs.push(s2.first().copied().unwrap_or(1));
                    sc.push(c2.first().copied().unwrap_or(false));
                }
                let rt = self.m.ctx.ty(TypeKind::Vector { shape: rs, scalable: sc, elem });
                if !st.attrs.iter().any(|(n, _)| self.m.ctx.str(*n) == "kind") {
                    let k = self.kind_attr("add");
                    self.set_attr(st, "kind", k);
                }
                let mut tys = vec![a, b];
                if uses.len() > 2 {
                    tys.push(rt);
                }
                self.resolve_all(st, &uses, &tys, name_span)?;
                st.result_types = vec![rt];
            }
            Fmt::VecPrint => {
                if self.is(Tok::PercentId) {
                    let u = self.parse_use_name()?;
                    let t = self.colon_type()?;
                    let v = self.resolve(u, t)?;
                    st.operands.push(v);
                }
                loop {
                    if self.eat_kw("str")? {
                        if !self.is(Tok::String) {
                            return self.err("expected string");
                        }
                        let s = self.parse_attribute(None)?;
                        self.set_attr(st, "stringLiteral", s);
                    } else if self.eat_kw("punctuation")? {
                        self.expect(Tok::Less, "'<'")?;
                        let p = self.vector_enum_value("punctuation")?;
                        self.expect(Tok::Greater, "'>'")?;
                        let a = self.vector_attr(&format!(".punctuation<{p}>"));
                        self.set_attr(st, "punctuation", a);
                    } else {
                        break;
                    }
                }
                self.parse_optional_attrs(st)?;
            }
            Fmt::VecMask => self.parse_vector_mask(st, name_span)?,
            _ => return self.err_at(name_span, format!("internal error: '{}' is not a vector op", kind.name())),
        }
        Ok(())
    }

    /// `#vector<body>` written as `#vector.<body>`.
    fn vector_attr(&mut self, body: &str) -> AttrId {
        let d = self.m.ctx.ident("vector");
        self.m.ctx.attr(Attribute::Dialect { dialect: d, body: body.into() })
    }

    fn kind_attr(&mut self, k: &str) -> AttrId {
        self.vector_attr(&format!(".kind<{k}>"))
    }

    /// `<add>` (or `<"add">`) as `#vector.kind<add>`.
    fn combining_kind(&mut self) -> PResult<AttrId> {
        self.expect(Tok::Less, "'<'")?;
        let k = self.vector_enum_value("kind")?;
        self.expect(Tok::Greater, "'>'")?;
        Ok(self.kind_attr(&k))
    }

    /// A keyword or string naming a value of vector enum `mnemonic`; other
    /// values are rejected with mlir-opt's message at the token.
    fn vector_enum_value(&mut self, mnemonic: &str) -> PResult<String> {
        let text = match self.tok.kind {
            Tok::BareId => self.spelling().to_string(),
            Tok::String => String::from_utf8_lossy(&crate::lexer::unescape(self.spelling())).into_owned(),
            _ => return self.custom_err("expected valid keyword or string"),
        };
        let at = self.tok.span;
        // mlir-opt takes the token (lexing the next one) before judging it.
        self.bump()?;
        let known = crate::ops::VECTOR_ENUMS.iter().any(|(m, _, vs)| *m == mnemonic && vs.contains(&text.as_str()));
        if !known {
            let msg = crate::ops::vector_enum_error(mnemonic).unwrap_or_default();
            return self.err_at(at, format!("{CUSTOM_MARK}{msg}"));
        }
        Ok(text)
    }

    /// The position of `extract`/`insert` (a mixed list; dynamic entries go
    /// to `tmp`) or the constant `pos` of the scalable variants.
    fn position(&mut self, kind: OpKind, _st: &mut OpState, tmp: &mut OpState) -> PResult<(&'static str, AttrId)> {
        use OpKind::*;
        if matches!(kind, VectorScalableExtract | VectorScalableInsert | LlvmVectorExtract | LlvmVectorInsert) {
            self.expect(Tok::LSquare, "'['")?;
            let p = self.parse_i64()?;
            self.expect(Tok::RSquare, "']'")?;
            let i64t = self.m.ctx.int_type(64);
            return Ok(("pos", self.m.ctx.attr(Attribute::Integer { value: IntVal::Small(p as i128), ty: i64t })));
        }
        let (pos, _) = self.mixed_list(tmp, Tok::LSquare, Tok::RSquare)?;
        Ok(("static_position", self.i64_array(&pos)))
    }

    /// load/store, maskedload/maskedstore, expandload/compressstore,
    /// gather/scatter: `[%v,] %base[%i..][..], .. : types`.
    fn parse_vector_memory(&mut self, kind: OpKind, st: &mut OpState) -> PResult<()> {
        use OpKind::*;
        let idx = self.m.ctx.index_type();
        let plain_store = kind == VectorStore;
        let val = if plain_store {
            let v = self.parse_use_name()?;
            self.expect(Tok::Comma, "','")?;
            Some(v)
        } else {
            None
        };
        let base = self.parse_use_name()?;
        let ids = self.bracket_operands()?;
        let gather = matches!(kind, VectorGather | VectorScatter);
        let mut vidx = Vec::new();
        if gather {
            self.expect(Tok::LSquare, "'['")?;
            vidx.push(self.parse_use_name()?);
            self.expect(Tok::RSquare, "']'")?;
        }
        let mut rest = Vec::new();
        if !matches!(kind, VectorLoad | VectorStore) {
            self.expect(Tok::Comma, "','")?;
            rest = self.parse_n_operands(2)?;
        }
        self.parse_optional_attrs(st)?;
        self.expect(Tok::Colon, "':'")?;
        let tys = self.parse_type_list_no_parens()?;
        let loads = matches!(kind, VectorLoad | VectorMaskedload | VectorExpandload | VectorGather);
        let rt = if loads && kind != VectorLoad {
            self.expect_kw_custom("into")?;
            Some(self.parse_type()?)
        } else {
            None
        };
        let want = 1 + vidx.len() + rest.len() + usize::from(matches!(kind, VectorLoad | VectorStore));
        if tys.len() != want {
            return self.err(format!("expected {want} types"));
        }
        if let Some(v) = val {
            let vv = self.resolve(v, tys[1])?;
            st.operands.push(vv);
        }
        let bv = self.resolve(base, tys[0])?;
        st.operands.push(bv);
        self.resolve_uniform(st, &ids, idx)?;
        for (u, ty) in vidx.iter().chain(&rest).zip(&tys[1..]) {
            let v = self.resolve(*u, *ty)?;
            st.operands.push(v);
        }
        st.result_types = match kind {
            VectorLoad => vec![tys[1]],
            _ => rt.into_iter().collect(),
        };
        Ok(())
    }

    /// `transfer_read %src[%i..], %pad[, %mask]` and
    /// `transfer_write %v, %dst[%i..][, %mask]`.
    fn parse_transfer(&mut self, read: bool, st: &mut OpState) -> PResult<()> {
        let idx = self.m.ctx.index_type();
        let first = self.parse_use_name()?;
        let (src, ids, pad);
        if read {
            src = first;
            ids = self.bracket_operands()?;
            self.expect(Tok::Comma, "','")?;
            pad = Some(self.parse_use_name()?);
        } else {
            self.expect(Tok::Comma, "','")?;
            src = self.parse_use_name()?;
            ids = self.bracket_operands()?;
            pad = None;
        }
        let mask = if self.eat(Tok::Comma)? { Some(self.parse_use_name()?) } else { None };
        self.parse_optional_attrs(st)?;
        // mlir-opt reports type errors at the ':' (the parser's `typesLoc`).
        let types_span = self.tok.span;
        self.expect(Tok::Colon, "':'")?;
        let tys = self.parse_type_list_no_parens()?;
        if tys.len() != 2 {
            return self.err_at(types_span, format!("{CUSTOM_MARK}requires two types"));
        }
        let (shaped, vector) = if read { (tys[0], tys[1]) } else { (tys[1], tys[0]) };
        let (sshape, selem) = match self.m.ctx.type_kind(shaped) {
            TypeKind::MemRef { shape, elem, .. } | TypeKind::RankedTensor { shape, elem, .. } => (shape.clone(), *elem),
            _ => return self.err_at(types_span, format!("{CUSTOM_MARK}requires memref or ranked tensor type")),
        };
        let TypeKind::Vector { shape: vshape, scalable: vscal, elem: _ } = self.m.ctx.type_kind(vector).clone() else {
            return self.err_at(types_span, format!("{CUSTOM_MARK}requires vector type"));
        };
        let pm_id = self.m.ctx.ident("permutation_map");
        let map = match st.attrs.iter().find(|(n, _)| *n == pm_id).map(|(_, a)| self.m.ctx.attr_kind(*a).clone()) {
            Some(Attribute::AffineMap(m)) => m,
            _ => {
                let elem_rank = match self.m.ctx.type_kind(selem) {
                    TypeKind::Vector { shape, .. } => shape.len(),
                    _ => 0,
                };
                let vrank = vshape.len().saturating_sub(elem_rank);
                if sshape.len() < vrank {
                    return self.err_at(
                        types_span,
                        format!(
                            "{CUSTOM_MARK}expected a custom permutation_map when rank(source) != rank(destination)"
                        ),
                    );
                }
                let m = if sshape.is_empty() && vshape == [1] {
                    AffineMap { num_dims: 0, num_syms: 0, results: vec![AffineExpr::Const(0)] }
                } else {
                    let n = sshape.len() as u32;
                    AffineMap {
                        num_dims: n,
                        num_syms: 0,
                        results: (n - vrank as u32..n).map(AffineExpr::Dim).collect(),
                    }
                };
                let a = self.m.ctx.attr(Attribute::AffineMap(m.clone()));
                self.set_attr(st, "permutation_map", a);
                m
            }
        };
        let ib_id = self.m.ctx.ident("in_bounds");
        if !st.attrs.iter().any(|(n, _)| *n == ib_id) {
            let f = self.m.ctx.attr(Attribute::Bool(false));
            let a = self.m.ctx.attr(Attribute::Array(vec![f; map.results.len()]));
            self.set_attr(st, "in_bounds", a);
        }
        let sv = self.resolve(src, shaped)?;
        let iv: Vec<ValueId> = ids.iter().map(|u| self.resolve(*u, idx)).collect::<PResult<_>>()?;
        if read {
            st.operands.push(sv);
            st.operands.extend(iv);
            let pv = match pad {
                Some(p) => self.resolve(p, selem)?,
                None => return self.err("expected padding value"),
            };
            st.operands.push(pv);
        } else {
            let vv = self.resolve(first, vector)?;
            st.operands.extend([vv, sv]);
            st.operands.extend(iv);
        }
        if let Some(mu) = mask {
            // The mask is shaped like the vector dims the map reads, in
            // the order of the source dims they come from.
            let mut used: Vec<(u32, usize)> = map
                .results
                .iter()
                .enumerate()
                .filter_map(|(i, e)| if let AffineExpr::Dim(d) = e { Some((*d, i)) } else { None })
                .collect();
            used.sort();
            let mut mshape: Vec<i64> = used.iter().map(|(_, i)| vshape.get(*i).copied().unwrap_or(1)).collect();
            let mut mscal: Vec<bool> = used.iter().map(|(_, i)| vscal.get(*i).copied().unwrap_or(false)).collect();
            if mshape.is_empty() {
                mshape.push(1);
                mscal.push(false);
            }
            let i1 = self.m.ctx.int_type(1);
            let mt = self.m.ctx.ty(TypeKind::Vector { shape: mshape, scalable: mscal, elem: i1 });
            let mv = self.resolve(mu, mt)?;
            st.operands.push(mv);
        }
        let nm = usize::from(mask.is_some());
        let seg = if read { self.segments(&[1, ids.len(), 1, nm]) } else { self.segments(&[1, 1, ids.len(), nm]) };
        self.set_attr(st, "operandSegmentSizes", seg);
        if read {
            st.result_types = vec![vector];
        } else if matches!(self.m.ctx.type_kind(shaped), TypeKind::RankedTensor { .. }) {
            st.result_types = vec![shaped];
        }
        Ok(())
    }

    /// `vector.contract {trait} %a, %b, %c[, %ma, %mb] : A, B into C`.
    fn parse_contract(&mut self, st: &mut OpState, name_span: Span) -> PResult<()> {
        let loc = self.tok.span;
        // The trait may be an alias (`#matmat_trait`), as in LLVM's tests.
        let dict = self.parse_attribute(None)?;
        if !matches!(self.m.ctx.attr_kind(dict), Attribute::Dict(_)) {
            return self.err_at(loc, format!("{CUSTOM_MARK}invalid kind of attribute specified"));
        }
        let lhs = self.parse_use_name()?;
        self.expect(Tok::Comma, "','")?;
        let rhs = self.parse_use_name()?;
        self.expect(Tok::Comma, "','")?;
        let acc = self.parse_use_name()?;
        let mut masks = Vec::new();
        while self.eat(Tok::Comma)? {
            masks.push(self.parse_use_name()?);
        }
        self.parse_optional_attrs(st)?;
        self.expect(Tok::Colon, "':'")?;
        let tys = self.parse_type_list_no_parens()?;
        self.expect_kw_custom("into")?;
        let rt = self.parse_type()?;
        if tys.len() < 2 {
            return self.err_at(name_span, format!("{CUSTOM_MARK}expected two operand types"));
        }
        self.resolve_all(st, &[lhs, rhs, acc], &[tys[0], tys[1], rt], name_span)?;
        st.result_types = vec![rt];
        if let Attribute::Dict(entries) = self.m.ctx.attr_kind(dict).clone() {
            for (n, a) in entries {
                st.attrs.retain(|(m, _)| *m != n);
                st.attrs.push((n, a));
            }
        }
        let it_id = self.m.ctx.ident("iterator_types");
        let Some(Attribute::Array(its)) =
            st.attrs.iter().find(|(n, _)| *n == it_id).map(|(_, a)| self.m.ctx.attr_kind(*a).clone())
        else {
            return self.err_at(loc, format!("{CUSTOM_MARK}expected \"iterator_types\" array attribute"));
        };
        let mut conv = Vec::new();
        for a in its {
            match self.m.ctx.attr_kind(a).clone() {
                Attribute::String { value, .. } => {
                    let s = String::from_utf8_lossy(&value).into_owned();
                    if s != "parallel" && s != "reduction" {
                        return self.err_at(loc, format!("{CUSTOM_MARK}unexpected iterator_type ({s})"));
                    }
                    conv.push(self.vector_attr(&format!(".iterator_type<{s}>")));
                }
                _ => conv.push(a),
            }
        }
        let arr = self.m.ctx.attr(Attribute::Array(conv));
        self.set_attr(st, "iterator_types", arr);
        if !st.attrs.iter().any(|(n, _)| self.m.ctx.str(*n) == "kind") {
            let k = self.kind_attr("add");
            self.set_attr(st, "kind", k);
        }
        if masks.is_empty() {
            return Ok(());
        }
        if masks.len() != 2 {
            return self.err_at(name_span, format!("{CUSTOM_MARK}expected zero or exactly 2 vector mask operands"));
        }
        let i1 = self.m.ctx.int_type(1);
        let mut mts = Vec::new();
        for t in &tys[..2] {
            let TypeKind::Vector { shape, scalable, .. } = self.m.ctx.type_kind(*t).clone() else {
                return self.err_at(name_span, format!("{CUSTOM_MARK}expected vector type for operand #1"));
            };
            mts.push(self.m.ctx.ty(TypeKind::Vector { shape, scalable, elem: i1 }));
        }
        self.resolve_all(st, &masks, &mts, name_span)
    }

    /// `vector.mask %m[, %passthru] { op } : M [-> R]`; the implicit (or
    /// explicit) terminator yields the masked op's results, as mlir-opt
    /// rebuilds it.
    fn parse_vector_mask(&mut self, st: &mut OpState, name_span: Span) -> PResult<()> {
        let mask = self.parse_use_name()?;
        let pass = if self.eat(Tok::Comma)? { Some(self.parse_use_name()?) } else { None };
        let r = self.parse_region(&[], false)?;
        self.add_implicit_terminator(r, OpKind::VectorYield);
        self.mask_yield_results(r);
        st.regions.push(r);
        self.parse_optional_attrs(st)?;
        let mt = self.colon_type()?;
        if self.eat(Tok::Arrow)? {
            st.result_types = self.parse_function_result_types()?;
        }
        let v = self.resolve(mask, mt)?;
        st.operands.push(v);
        if let Some(p) = pass {
            let Some(&t) = st.result_types.first() else {
                return self
                    .err_at(name_span, format!("{CUSTOM_MARK}expects a result if passthru operand is provided"));
            };
            let pv = self.resolve(p, t)?;
            st.operands.push(pv);
        }
        Ok(())
    }

    /// Replaces the terminator of a two-op mask body with a `vector.yield`
    /// of the masked op's results.
    fn mask_yield_results(&mut self, r: crate::ir::RegionId) {
        let Some(&b) = self.m.region(r).blocks.first() else { return };
        let ops = self.m.block(b).ops.clone();
        if ops.len() != 2 || !self.m.op(ops[1]).name.kind.has(traits::TERMINATOR) {
            return;
        }
        let results: Vec<ValueId> = self.m.results(ops[0]).collect();
        let old = self.m.op(ops[1]);
        if self.m.operands(ops[1]) == results.as_slice() && old.name.kind == OpKind::VectorYield {
            return;
        }
        let span = old.span;
        let ident = self.m.ctx.ident(OpKind::VectorYield.name());
        let st = OpState {
            name: Some(OpName { kind: OpKind::VectorYield, ident }),
            operands: results,
            span,
            ..Default::default()
        };
        let y = self.create_op(st, None);
        self.m.ops[y.0 as usize].parent = Some(b);
        self.m.blocks[b.0 as usize].ops[1] = y;
    }
}
