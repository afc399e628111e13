//! Custom forms of the memref dialect (and the shape ops tensor shares).
//! Static/dynamic mixed lists (`[%i, 4]`) become a `static_*` i64 array with
//! `ShapedType::kDynamic` where an operand stands, as mlir-opt stores them.

use super::custom::CUSTOM_MARK;
use super::{OpState, PResult, Parser, UseName};
use crate::attrs::{Attribute, IntVal};
use crate::diag::Span;
use crate::lexer::Tok;
use crate::ops::ATOMIC_KINDS;
use crate::ops::{Fmt, OpKind};
use crate::types::{TypeId, TypeKind, DYNAMIC};

impl<'a> Parser<'a> {
    /// Parses the custom form of a memref-family op.
    pub(crate) fn parse_memref_family(
        &mut self,
        fmt: Fmt,
        kind: OpKind,
        st: &mut OpState,
        name_span: Span,
    ) -> PResult<()> {
        let idx = self.m.ctx.index_type();
        match fmt {
            Fmt::MemAlloc => {
                let dyns = self.parse_paren_operands()?;
                let mut syms = Vec::new();
                if self.eat(Tok::LSquare)? {
                    syms = self.operand_list_until(Tok::RSquare)?;
                }
                self.parse_optional_attrs(st)?;
                let t = self.colon_type()?;
                let n = (dyns.len(), syms.len());
                let all: Vec<UseName> = dyns.into_iter().chain(syms).collect();
                self.resolve_uniform(st, &all, idx)?;
                let seg = self.segments(&[n.0, n.1]);
                self.set_attr(st, "operandSegmentSizes", seg);
                st.result_types = vec![t];
            }
            Fmt::MemLoad => {
                let m = self.parse_use_name()?;
                let ids = self.bracket_operands()?;
                self.parse_optional_attrs(st)?;
                let what = if kind == OpKind::TensorExtract { "tensor" } else { "memref" };
                let (t, e) = self.colon_ranked_type(what)?;
                let v = self.resolve(m, t)?;
                st.operands.push(v);
                self.resolve_uniform(st, &ids, idx)?;
                st.result_types = vec![e];
            }
            Fmt::MemStore => {
                let val = self.parse_use_name()?;
                self.expect(Tok::Comma, "','")?;
                let m = self.parse_use_name()?;
                let ids = self.bracket_operands()?;
                self.parse_optional_attrs(st)?;
                let (t, e) = self.colon_ranked_type("memref")?;
                let v = self.resolve(val, e)?;
                st.operands.push(v);
                let mv = self.resolve(m, t)?;
                st.operands.push(mv);
                self.resolve_uniform(st, &ids, idx)?;
            }
            Fmt::MemDealloc => {
                let m = self.parse_use_name()?;
                self.parse_optional_attrs(st)?;
                self.expect(Tok::Colon, "':'")?;
                let at = self.tok.span;
                let t = self.parse_type()?;
                // The format reads the type as the operand's type class.
                let fits = match self.m.ctx.type_kind(t) {
                    TypeKind::MemRef { .. } | TypeKind::UnrankedMemRef { .. } => kind == OpKind::MemrefDealloc,
                    TypeKind::RankedTensor { .. } | TypeKind::UnrankedTensor { .. } => kind != OpKind::MemrefDealloc,
                    _ => false,
                };
                if !fits {
                    return self.err_at(at, format!("{CUSTOM_MARK}invalid kind of type specified"));
                }
                let v = self.resolve(m, t)?;
                st.operands.push(v);
            }
            Fmt::MemCopy => {
                let a = self.parse_use_name()?;
                self.expect(Tok::Comma, "','")?;
                let b = self.parse_use_name()?;
                self.parse_optional_attrs(st)?;
                let ta = self.colon_type()?;
                self.expect_kw_custom("to")?;
                let tb = self.parse_type()?;
                let va = self.resolve(a, ta)?;
                let vb = self.resolve(b, tb)?;
                st.operands.extend([va, vb]);
            }
            Fmt::MemDim => {
                // mlir-opt's format puts the attribute dictionary first.
                self.parse_optional_attrs(st)?;
                let m = self.parse_use_name()?;
                self.expect(Tok::Comma, "','")?;
                let i = self.parse_use_name()?;
                self.parse_optional_attrs(st)?;
                let t = self.colon_type()?;
                let v = self.resolve(m, t)?;
                let iv = self.resolve(i, idx)?;
                st.operands.extend([v, iv]);
                st.result_types = vec![idx];
            }
            Fmt::TensorMemref => {
                let first = self.parse_use_name()?;
                let second = if kind == OpKind::MemrefTensorStore {
                    self.expect(Tok::Comma, "','")?;
                    Some(self.parse_use_name()?)
                } else {
                    None
                };
                self.parse_optional_attrs(st)?;
                let mt = self.colon_type()?;
                let tt = match self.m.ctx.type_kind(mt).clone() {
                    TypeKind::MemRef { shape, elem, .. } => {
                        self.m.ctx.ty(TypeKind::RankedTensor { shape, elem, encoding: None })
                    }
                    TypeKind::UnrankedMemRef { elem, .. } => self.m.ctx.ty(TypeKind::UnrankedTensor { elem }),
                    _ => return self.err_at(name_span, "expected a memref type"),
                };
                match (kind, second) {
                    (OpKind::MemrefTensorStore, Some(m)) => {
                        let t = self.resolve(first, tt)?;
                        let v = self.resolve(m, mt)?;
                        st.operands.extend([t, v]);
                    }
                    (OpKind::MemrefTensorLoad, _) => {
                        let v = self.resolve(first, mt)?;
                        st.operands.push(v);
                        st.result_types = vec![tt];
                    }
                    _ => {
                        let t = self.resolve(first, tt)?;
                        st.operands.push(t);
                        st.result_types = vec![mt];
                    }
                }
            }
            Fmt::MemRank => {
                let m = self.parse_use_name()?;
                self.parse_optional_attrs(st)?;
                let t = self.colon_type()?;
                let v = self.resolve(m, t)?;
                st.operands.push(v);
                st.result_types = vec![idx];
            }
            Fmt::MemSubview => {
                let m = self.parse_use_name()?;
                let mut tmp = OpState::default();
                let (offs, no) = self.mixed_list(&mut tmp, Tok::LSquare, Tok::RSquare)?;
                let (sizes, ns) = self.mixed_list(&mut tmp, Tok::LSquare, Tok::RSquare)?;
                let (strides, nt) = self.mixed_list(&mut tmp, Tok::LSquare, Tok::RSquare)?;
                let (t, rt) = self.attrs_colon_types(st, "to")?;
                let v = self.resolve(m, t)?;
                st.operands.push(v);
                st.operands.extend(tmp.operands);
                self.put_static_lists(
                    st,
                    &[("static_offsets", &offs), ("static_sizes", &sizes), ("static_strides", &strides)],
                );
                let seg = self.segments(&[1, no, ns, nt]);
                self.set_attr(st, "operandSegmentSizes", seg);
                st.result_types = vec![rt];
            }
            Fmt::MemView => {
                let m = self.parse_use_name()?;
                let off = self.bracket_operands()?;
                let sizes = self.bracket_operands()?;
                let (t, rt) = self.attrs_colon_types(st, "to")?;
                let v = self.resolve(m, t)?;
                st.operands.push(v);
                let all: Vec<UseName> = off.into_iter().chain(sizes).collect();
                self.resolve_uniform(st, &all, idx)?;
                st.result_types = vec![rt];
            }
            Fmt::MemReinterpretCast => {
                let m = self.parse_use_name()?;
                self.expect_kw_custom("to")?;
                let mut tmp = OpState::default();
                let mut lists = Vec::new();
                for (i, kw) in ["offset", "sizes", "strides"].into_iter().enumerate() {
                    if i > 0 {
                        self.expect(Tok::Comma, "','")?;
                    }
                    self.expect_kw_custom(kw)?;
                    self.expect(Tok::Colon, "':'")?;
                    lists.push(self.mixed_list(&mut tmp, Tok::LSquare, Tok::RSquare)?);
                }
                let (t, rt) = self.attrs_colon_types(st, "to")?;
                let v = self.resolve(m, t)?;
                st.operands.push(v);
                st.operands.extend(tmp.operands);
                self.put_static_lists(
                    st,
                    &[("static_offsets", &lists[0].0), ("static_sizes", &lists[1].0), ("static_strides", &lists[2].0)],
                );
                let seg = self.segments(&[1, lists[0].1, lists[1].1, lists[2].1]);
                self.set_attr(st, "operandSegmentSizes", seg);
                st.result_types = vec![rt];
            }
            Fmt::ExpandShape | Fmt::CollapseShape => {
                let m = self.parse_use_name()?;
                let re = self.parse_attribute(None)?;
                self.set_attr(st, "reassociation", re);
                let mut tmp = OpState::default();
                if fmt == Fmt::ExpandShape {
                    self.expect_kw_custom("output_shape")?;
                    let (shape, _) = self.mixed_list(&mut tmp, Tok::LSquare, Tok::RSquare)?;
                    self.put_static_lists(st, &[("static_output_shape", &shape)]);
                }
                let (t, rt) = self.attrs_colon_types(st, "into")?;
                let v = self.resolve(m, t)?;
                st.operands.push(v);
                st.operands.extend(tmp.operands);
                st.result_types = vec![rt];
            }
            Fmt::MemTranspose => {
                let m = self.parse_use_name()?;
                let perm = self.parse_affine_map_or_set(true)?;
                self.set_attr(st, "permutation", perm);
                let (t, rt) = self.attrs_colon_types(st, "to")?;
                let v = self.resolve(m, t)?;
                st.operands.push(v);
                st.result_types = vec![rt];
            }
            Fmt::MemGlobal => {
                if self.is(Tok::String) {
                    let vis = self.parse_attribute(None)?;
                    self.set_attr(st, "sym_visibility", vis);
                }
                if self.eat_kw("constant")? {
                    let u = self.m.ctx.attr(Attribute::Unit);
                    self.set_attr(st, "constant", u);
                }
                let name = self.symbol_name()?;
                let na = self.m.ctx.attr(Attribute::String { value: name, ty: None });
                self.set_attr(st, "sym_name", na);
                let t = self.colon_type()?;
                let ta = self.m.ctx.attr(Attribute::Type(t));
                self.set_attr(st, "type", ta);
                if self.eat(Tok::Equal)? {
                    let init = if self.eat_kw("uninitialized")? {
                        self.m.ctx.attr(Attribute::Unit)
                    } else {
                        let tensor = self.memref_to_tensor(t);
                        self.parse_attribute(Some(tensor))?
                    };
                    self.set_attr(st, "initial_value", init);
                }
                self.parse_optional_attrs(st)?;
            }
            Fmt::MemGetGlobal => {
                let sym = self.parse_attribute(None)?;
                self.set_attr(st, "name", sym);
                self.parse_optional_attrs(st)?;
                st.result_types = vec![self.colon_type()?];
            }
            Fmt::MemAtomicRmw => {
                let k = self.parse_enum_keyword("kind", ATOMIC_KINDS)?;
                let i64t = self.m.ctx.int_type(64);
                let ka = self.m.ctx.attr(Attribute::Integer { value: IntVal::Small(k as i128), ty: i64t });
                self.set_attr(st, "kind", ka);
                let val = self.parse_use_name()?;
                self.expect(Tok::Comma, "','")?;
                let m = self.parse_use_name()?;
                let ids = self.bracket_operands()?;
                self.parse_optional_attrs(st)?;
                self.expect(Tok::Colon, "':'")?;
                let (ins, outs) = self.parse_function_signature_types()?;
                if ins.len() != 2 {
                    return self.err_at(name_span, "expected two operand types");
                }
                let v = self.resolve(val, ins[0])?;
                let mv = self.resolve(m, ins[1])?;
                st.operands.extend([v, mv]);
                self.resolve_uniform(st, &ids, idx)?;
                st.result_types = outs;
            }
            Fmt::MemGenericAtomicRmw => {
                let m = self.parse_use_name()?;
                let ids = self.bracket_operands()?;
                let (t, e) = self.colon_shaped_type("memref")?;
                let v = self.resolve(m, t)?;
                st.operands.push(v);
                self.resolve_uniform(st, &ids, idx)?;
                let r = self.parse_region(&[], false)?;
                st.regions.push(r);
                self.parse_optional_attrs(st)?;
                st.result_types = vec![e];
            }
            Fmt::AllocaScope => {
                if self.eat(Tok::Arrow)? {
                    st.result_types = self.parse_function_result_types()?;
                }
                let r = self.parse_region(&[], false)?;
                if st.result_types.is_empty() {
                    self.add_implicit_terminator_pub(r, OpKind::MemrefAllocaScopeReturn);
                }
                st.regions.push(r);
                self.parse_optional_attrs(st)?;
            }
            Fmt::ExtractMetadata => {
                let m = self.parse_use_name()?;
                self.parse_optional_attrs(st)?;
                let t = self.colon_type()?;
                self.expect(Tok::Arrow, "'->'")?;
                st.result_types = self.parse_type_list_no_parens()?;
                let v = self.resolve(m, t)?;
                st.operands.push(v);
            }
            Fmt::AssumeAlignment => {
                let m = self.parse_use_name()?;
                self.expect(Tok::Comma, "','")?;
                let n = self.parse_i64()?;
                let i32t = self.m.ctx.int_type(32);
                let a = self.m.ctx.attr(Attribute::Integer { value: IntVal::Small(n as i128), ty: i32t });
                self.set_attr(st, "alignment", a);
                self.parse_optional_attrs(st)?;
                let t = self.colon_type()?;
                let v = self.resolve(m, t)?;
                st.operands.push(v);
                st.result_types = vec![t];
            }
            Fmt::Prefetch => {
                let m = self.parse_use_name()?;
                let ids = self.bracket_operands()?;
                self.expect(Tok::Comma, "','")?;
                let write = match () {
                    _ if self.eat_kw("read")? => false,
                    _ if self.eat_kw("write")? => true,
                    _ => return self.err("expected 'read' or 'write'"),
                };
                self.expect(Tok::Comma, "','")?;
                self.expect_kw_custom("locality")?;
                self.expect(Tok::Less, "'<'")?;
                let loc = self.parse_i64()?;
                self.expect(Tok::Greater, "'>'")?;
                self.expect(Tok::Comma, "','")?;
                let data = match () {
                    _ if self.eat_kw("data")? => true,
                    _ if self.eat_kw("instr")? => false,
                    _ => return self.err("expected 'data' or 'instr'"),
                };
                self.parse_optional_attrs(st)?;
                let t = self.colon_type()?;
                let v = self.resolve(m, t)?;
                st.operands.push(v);
                self.resolve_uniform(st, &ids, idx)?;
                let i32t = self.m.ctx.int_type(32);
                let la = self.m.ctx.attr(Attribute::Integer { value: IntVal::Small(loc as i128), ty: i32t });
                let wa = self.m.ctx.attr(Attribute::Bool(write));
                let da = self.m.ctx.attr(Attribute::Bool(data));
                self.set_attr(st, "isWrite", wa);
                self.set_attr(st, "localityHint", la);
                self.set_attr(st, "isDataCache", da);
            }
            Fmt::Realloc => {
                let m = self.parse_use_name()?;
                let size = if self.is(Tok::LParen) { self.parse_paren_operands()? } else { Vec::new() };
                let (t, rt) = self.attrs_colon_types(st, "to")?;
                let v = self.resolve(m, t)?;
                st.operands.push(v);
                self.resolve_uniform(st, &size, idx)?;
                st.result_types = vec![rt];
            }
            Fmt::Reshape => {
                let m = self.parse_use_name()?;
                self.expect(Tok::LParen, "'('")?;
                let shape = self.parse_use_name()?;
                self.expect(Tok::RParen, "')'")?;
                self.parse_optional_attrs(st)?;
                self.expect(Tok::Colon, "':'")?;
                let (ins, outs) = self.parse_function_signature_types()?;
                if ins.len() != 2 {
                    return self.err_at(name_span, "expected two operand types");
                }
                let v = self.resolve(m, ins[0])?;
                let s = self.resolve(shape, ins[1])?;
                st.operands.extend([v, s]);
                st.result_types = outs;
            }
            Fmt::DmaStart => {
                let src = self.parse_use_name()?;
                let si = self.bracket_operands()?;
                self.expect(Tok::Comma, "','")?;
                let dst = self.parse_use_name()?;
                let di = self.bracket_operands()?;
                self.expect(Tok::Comma, "','")?;
                let n = self.parse_use_name()?;
                self.expect(Tok::Comma, "','")?;
                let tag = self.parse_use_name()?;
                let ti = self.bracket_operands()?;
                let mut stride = Vec::new();
                if self.eat(Tok::Comma)? {
                    stride.push(self.parse_use_name()?);
                    self.expect(Tok::Comma, "','")?;
                    stride.push(self.parse_use_name()?);
                }
                self.parse_optional_attrs(st)?;
                self.expect(Tok::Colon, "':'")?;
                let tys = self.parse_type_list_no_parens()?;
                if tys.len() != 3 {
                    return self.err_at(name_span, "expected three memref types");
                }
                let v = self.resolve(src, tys[0])?;
                st.operands.push(v);
                self.resolve_uniform(st, &si, idx)?;
                let v = self.resolve(dst, tys[1])?;
                st.operands.push(v);
                self.resolve_uniform(st, &di, idx)?;
                let v = self.resolve(n, idx)?;
                st.operands.push(v);
                let v = self.resolve(tag, tys[2])?;
                st.operands.push(v);
                self.resolve_uniform(st, &ti, idx)?;
                self.resolve_uniform(st, &stride, idx)?;
            }
            Fmt::DmaWait => {
                let tag = self.parse_use_name()?;
                let ti = self.bracket_operands()?;
                self.expect(Tok::Comma, "','")?;
                let n = self.parse_use_name()?;
                self.parse_optional_attrs(st)?;
                let t = self.colon_type()?;
                let v = self.resolve(tag, t)?;
                st.operands.push(v);
                self.resolve_uniform(st, &ti, idx)?;
                let v = self.resolve(n, idx)?;
                st.operands.push(v);
            }
            _ => return self.err_at(name_span, format!("internal error: '{}' is not a memref-family op", kind.name())),
        }
        Ok(())
    }

    /// `: type` of a shaped type, and its element type; `what` names the
    /// expected kind in the error (`memref`, `shaped`).
    /// `: T` where the op's format reads T as a ranked `memref` or
    /// `tensor` (`what`), with mlir-opt's message for any other type; returns
    /// T and its element type.
    pub(super) fn colon_ranked_type(&mut self, what: &str) -> PResult<(TypeId, TypeId)> {
        self.expect(Tok::Colon, "':'")?;
        let sp = self.tok.span;
        let t = self.parse_type()?;
        match self.m.ctx.type_kind(t) {
            TypeKind::MemRef { elem, .. } if what == "memref" => Ok((t, *elem)),
            TypeKind::RankedTensor { elem, .. } if what == "tensor" => Ok((t, *elem)),
            _ => {
                let found = self.type_str(t);
                self.err_at(
                    sp,
                    format!(
                        "{CUSTOM_MARK}invalid kind of type specified: expected builtin.{what}, but found '{found}'"
                    ),
                )
            }
        }
    }

    pub(super) fn colon_shaped_type(&mut self, what: &str) -> PResult<(TypeId, TypeId)> {
        let sp = self.tok.span;
        let t = self.colon_type()?;
        match self.m.ctx.type_kind(t).elem() {
            Some(e) => Ok((t, e)),
            None => self.err_at(sp, format!("expected {what} type")),
        }
    }

    /// `attr-dict : T to U` (or `into`), the tail of most conversion-like
    /// forms; returns the source and result types.
    pub(super) fn attrs_colon_types(&mut self, st: &mut OpState, kw: &str) -> PResult<(TypeId, TypeId)> {
        self.parse_optional_attrs(st)?;
        let t = self.colon_type()?;
        self.expect_kw_custom(kw)?;
        Ok((t, self.parse_type()?))
    }

    /// `: type`.
    pub(super) fn colon_type(&mut self) -> PResult<TypeId> {
        self.expect(Tok::Colon, "':'")?;
        self.parse_type()
    }

    /// `[%a, %b]` (possibly empty).
    pub(super) fn bracket_operands(&mut self) -> PResult<Vec<UseName>> {
        self.expect(Tok::LSquare, "'['")?;
        self.operand_list_until(Tok::RSquare)
    }

    /// Operands up to and including `close`.
    pub(super) fn operand_list_until(&mut self, close: Tok) -> PResult<Vec<UseName>> {
        let mut v = Vec::new();
        if !self.is(close) {
            loop {
                v.push(self.parse_use_name()?);
                if !self.eat(Tok::Comma)? {
                    break;
                }
            }
        }
        self.expect(close, close.describe())?;
        Ok(v)
    }

    pub(super) fn resolve_uniform(&mut self, st: &mut OpState, uses: &[UseName], t: TypeId) -> PResult<()> {
        for u in uses {
            let v = self.resolve(*u, t)?;
            st.operands.push(v);
        }
        Ok(())
    }

    /// A `[%v, 4, ..]` list: static values with [`DYNAMIC`] where an index
    /// operand stands (operands go to `st`); returns the list and the count
    /// of dynamic entries.
    pub(crate) fn mixed_list(&mut self, st: &mut OpState, open: Tok, close: Tok) -> PResult<(Vec<i64>, usize)> {
        let idx = self.m.ctx.index_type();
        let mut statics = Vec::new();
        let mut ndyn = 0;
        self.comma_list(open, close, "in dynamic index list", |p| {
            if p.is(Tok::PercentId) {
                let u = p.parse_use_name()?;
                let v = p.resolve(u, idx)?;
                st.operands.push(v);
                statics.push(DYNAMIC);
                ndyn += 1;
            } else {
                statics.push(p.parse_i64()?);
            }
            Ok(())
        })?;
        Ok((statics, ndyn))
    }

    pub(super) fn put_static_lists(&mut self, st: &mut OpState, lists: &[(&str, &[i64])]) {
        for (name, v) in lists {
            let a = self.i64_array(v);
            self.set_attr(st, name, a);
        }
    }

    /// The tensor type a memref global's initial value has.
    pub(super) fn memref_to_tensor(&mut self, t: TypeId) -> TypeId {
        match self.m.ctx.type_kind(t).clone() {
            TypeKind::MemRef { shape, elem, .. } => {
                self.m.ctx.ty(TypeKind::RankedTensor { shape, elem, encoding: None })
            }
            _ => t,
        }
    }
}
