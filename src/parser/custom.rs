//! Custom op forms. Each op's family is declared once in [`crate::ops`];
//! here is one routine per family, built from small shared pieces (operand
//! lists, modifier keywords, type lists) so every op of a family reads and
//! builds attributes the same way mlir-opt does.

use super::{OpState, PResult, Parser, UseName};
use crate::attrs::{AttrId, Attribute, IntVal};
use crate::diag::Span;
use crate::ir::{BlockId, OpId, OpName, RegionId, ValueId};
use crate::lexer::unescape;
use crate::lexer::Tok;
use crate::ops::DialectOp;
use crate::ops::{traits, Fmt, OpKind};
use crate::types::{TypeId, TypeKind};

pub use crate::ops::{CMPF_PREDICATES, CMPI_PREDICATES, ROUNDING_MODES};

/// Marks messages that mlir-opt prefixes with `custom op 'NAME'` (those an
/// op's own parser emits, as opposed to the shared type/attribute parsers).
pub(super) const CUSTOM_MARK: &str = "\u{1}custom:";

/// A parsed function signature (`func.func`, `llvm.func`).
#[derive(Default)]
pub(super) struct Signature {
    /// Named arguments of a definition, for the entry block.
    pub args: Vec<(UseName, TypeId)>,
    /// Argument types.
    pub inputs: Vec<TypeId>,
    /// Per-argument attribute dictionaries.
    pub arg_attrs: Vec<Option<AttrId>>,
    /// Result types.
    pub results: Vec<TypeId>,
    /// Per-result attribute dictionaries.
    pub res_attrs: Vec<Option<AttrId>>,
    /// Whether the arguments were named (`None`: there were none).
    pub named: Option<bool>,
    /// A trailing `...` (`llvm.func` only).
    pub vararg: bool,
}

impl<'a> Parser<'a> {
    /// An error from an op's own custom parser, at the current token.
    pub(super) fn custom_err<T>(&self, msg: &str) -> PResult<T> {
        self.err_here(format!("{CUSTOM_MARK}{msg}"))
    }

    /// An enum attribute written as a keyword or string (`slt`, `"slt"`);
    /// returns its index in `values`. mlir-opt reports anything else at the
    /// current token with the `custom op` prefix.
    pub(super) fn parse_enum_keyword(&mut self, attr: &str, values: &[&str]) -> PResult<usize> {
        let text = match self.tok.kind {
            Tok::BareId => self.spelling().to_string(),
            Tok::String => String::from_utf8_lossy(&crate::lexer::unescape(self.spelling())).into_owned(),
            _ => String::new(),
        };
        let Some(n) = values.iter().position(|v| *v == text) else {
            return self.custom_err(&format!(
                "expected string or keyword containing one of the following enum values for attribute '{attr}' [{}]",
                values.join(", ")
            ));
        };
        self.bump()?;
        Ok(n)
    }

    /// Requires keyword `kw` in an op's custom form; mlir-opt reports a
    /// missing one at the current token with the `custom op` prefix.
    pub(super) fn expect_kw_custom(&mut self, kw: &str) -> PResult<()> {
        if self.eat_kw(kw)? {
            return Ok(());
        }
        self.custom_err(&format!("expected '{kw}'"))
    }

    /// Parses a custom-form op whose name is the current bare identifier.
    pub(crate) fn parse_custom_op(
        &mut self,
        span: Span,
        nresults: u32,
        _res: &[(crate::ident::Ident, u32, Span)],
    ) -> PResult<OpId> {
        let name_span = self.tok.span;
        let written = self.spelling();
        let kind = self.resolve_custom_name(written, name_span)?;
        self.bump()?;
        self.parse_custom_as(kind, span, nresults, name_span, kind.name())
    }

    /// Parses the rest of `kind`'s custom form (its name already read at
    /// `name_span`); messages of the op's own parser name it `shown` (the
    /// 2019 front end reads `addi` as `arith.addi` but reports `addi`).
    pub(crate) fn parse_custom_as(
        &mut self,
        kind: OpKind,
        span: Span,
        nresults: u32,
        name_span: Span,
        shown: &str,
    ) -> PResult<OpId> {
        let ident = self.m.ctx.ident(kind.name());
        let mut st = OpState { name: Some(OpName { kind, ident }), span, ..Default::default() };
        let fmt = kind.fmt();
        let parsed = self.parse_family(fmt, kind, &mut st, nresults, name_span);
        parsed.and_then(|()| self.check_dict_attrs(kind, &st)).map_err(|mut d| {
            if let Some(m) = d.message.strip_prefix(CUSTOM_MARK) {
                d.message = format!("custom op '{shown}' {m}");
            }
            d
        })?;
        let loc = self.parse_trailing_loc()?;
        Ok(self.create_op(st, loc))
    }

    /// The constraints a declarative custom form checks on its attribute
    /// dictionary as soon as it is parsed, reported at the `{`.
    fn check_dict_attrs(&self, kind: OpKind, st: &OpState) -> PResult<()> {
        let (Some(at), (_, true)) = (st.dict_at, crate::verify::inherent::inherent_attrs(kind)) else { return Ok(()) };
        let ctx = &self.m.ctx;
        let attr = |name: &str| st.attrs.iter().find(|(n, _)| ctx.str(*n) == name).map(|(_, a)| *a);
        match crate::verify::inherent::violation(ctx, kind, false, attr) {
            Some(msg) => self.err_at(at, format!("{CUSTOM_MARK}'{}' op {msg}", kind.name())),
            None => Ok(()),
        }
    }

    fn resolve_custom_name(&self, written: &str, span: Span) -> PResult<OpKind> {
        if let Some(k) = OpKind::from_name(written) {
            return Ok(k);
        }
        let mut tried = Vec::new();
        if let Some(d) = self.default_dialect.last() {
            let full = format!("{d}.{written}");
            if let Some(k) = OpKind::from_name(&full) {
                return Ok(k);
            }
            tried.push(full);
        }
        if let Some(k) = OpKind::from_name(&format!("builtin.{written}")) {
            return Ok(k);
        }
        if let Some((dialect, _)) = written.split_once('.') {
            if !crate::KNOWN_DIALECTS.contains(&dialect) {
                return self.err_at(span, format!("Dialect `{dialect}' not found for custom op '{written}' "));
            }
            if !crate::ops::CLOSED_DIALECTS.contains(&dialect) {
                return self.err_at(
                    span,
                    format!("custom syntax of '{written}' is not supported yet; write the op in generic form"),
                );
            }
        }
        if written.contains('.') {
            return self.err_at(span, format!("custom op '{written}' is unknown"));
        }
        // Unprefixed names are tried in the default dialect, else builtin.
        let t = tried.first().cloned().unwrap_or_else(|| format!("builtin.{written}"));
        self.err_at(span, format!("custom op '{written}' is unknown (tried '{t}' as well)"))
    }

    fn parse_family(
        &mut self,
        fmt: Fmt,
        kind: OpKind,
        st: &mut OpState,
        nresults: u32,
        name_span: Span,
    ) -> PResult<()> {
        let index_dialect = kind.name().starts_with("index.");
        match fmt {
            Fmt::GenericOnly => {
                return self.err_at(
                    name_span,
                    format!("custom syntax of '{}' is not supported yet; write the op in generic form", kind.name()),
                )
            }
            Fmt::Sparse => self.parse_sparse_op(kind, st, name_span)?,
            Fmt::Module => self.parse_module_op(st)?,
            Fmt::Func => self.parse_func_op(st)?,
            Fmt::Return => self.parse_return_like(st, name_span)?,
            Fmt::Call => {
                let callee = self.parse_symbol_ref_attr()?;
                self.set_attr(st, "callee", callee);
                let uses = self.parse_paren_operands()?;
                self.parse_functional_tail(st, &uses, name_span)?;
            }
            Fmt::CallIndirect => {
                let callee = self.parse_use_name()?;
                let uses = self.parse_paren_operands()?;
                self.parse_optional_attrs(st)?;
                self.expect(Tok::Colon, "':'")?;
                let ft_span = self.tok.span;
                let ft = self.parse_function_type()?;
                let TypeKind::Function { inputs, results } = self.m.ctx.type_kind(ft).clone() else {
                    return self.err_at(ft_span, "expected function type");
                };
                let c = self.resolve(callee, ft)?;
                st.operands.push(c);
                self.resolve_all(st, &uses, &inputs, name_span)?;
                st.result_types = results;
            }
            Fmt::FuncConstant => {
                let callee = self.parse_symbol_ref_attr()?;
                self.set_attr(st, "value", callee);
                self.parse_optional_attrs(st)?;
                self.expect(Tok::Colon, "':'")?;
                st.result_types = vec![self.parse_type()?];
            }
            Fmt::Br => {
                let (b, ops) = self.parse_successor_and_operands()?;
                st.successors.push(b);
                st.operands.extend(ops);
                self.parse_optional_attrs(st)?;
            }
            Fmt::CondBr => {
                let c = self.parse_use_name()?;
                let i1 = self.m.ctx.int_type(1);
                let c = self.resolve(c, i1)?;
                st.operands.push(c);
                self.expect(Tok::Comma, "','")?;
                let (t, tops) = self.parse_successor_and_operands()?;
                self.expect(Tok::Comma, "','")?;
                let (f, fops) = self.parse_successor_and_operands()?;
                let seg = self.segments(&[1, tops.len(), fops.len()]);
                st.successors = vec![t, f];
                st.operands.extend(tops);
                st.operands.extend(fops);
                self.set_attr(st, "operandSegmentSizes", seg);
                self.parse_optional_attrs(st)?;
            }
            Fmt::Switch => self.parse_switch(st)?,
            Fmt::Assert => {
                let c = self.parse_use_name()?;
                let i1 = self.m.ctx.int_type(1);
                let c = self.resolve(c, i1)?;
                st.operands.push(c);
                self.expect(Tok::Comma, "','")?;
                if !self.is(Tok::String) {
                    return self.err("expected string");
                }
                let msg = self.parse_attribute(None)?;
                self.set_attr(st, "msg", msg);
                self.parse_optional_attrs(st)?;
            }
            Fmt::Constant => {
                self.parse_optional_attrs(st)?;
                let sp = self.tok.span;
                let v = self.parse_attribute(None)?;
                let ty = match self.m.ctx.attr_kind(v) {
                    Attribute::Integer { ty, .. } | Attribute::Float { ty, .. } => *ty,
                    Attribute::Dense { ty, .. }
                    | Attribute::DenseResource { ty, .. }
                    | Attribute::Sparse { ty, .. } => *ty,
                    Attribute::Bool(_) => self.m.ctx.int_type(1),
                    _ => return self.err_at(sp, "expected a typed constant value"),
                };
                self.set_attr(st, "value", v);
                st.result_types = vec![ty];
            }
            Fmt::Binary | Fmt::Unary | Fmt::Ternary => {
                let n = match fmt {
                    Fmt::Unary => 1,
                    Fmt::Binary => 2,
                    _ => 3,
                };
                self.parse_llvm_prefix(kind, st)?;
                let uses = self.parse_n_operands(n)?;
                self.parse_modifiers(st)?;
                self.parse_optional_attrs(st)?;
                let ty = if index_dialect {
                    self.m.ctx.index_type()
                } else {
                    self.expect(Tok::Colon, "':'")?;
                    self.parse_type()?
                };
                for u in uses {
                    let v = self.resolve(u, ty)?;
                    st.operands.push(v);
                }
                st.result_types = vec![ty];
            }
            Fmt::BinaryTwoResults => {
                let uses = self.parse_n_operands(2)?;
                self.parse_optional_attrs(st)?;
                self.expect(Tok::Colon, "':'")?;
                let ty = self.parse_type()?;
                let second = if self.eat(Tok::Comma)? { self.parse_type()? } else { ty };
                for u in uses {
                    let v = self.resolve(u, ty)?;
                    st.operands.push(v);
                }
                st.result_types = vec![ty, second];
            }
            Fmt::Cast => {
                self.parse_llvm_prefix(kind, st)?;
                let u = self.parse_use_name()?;
                self.parse_modifiers(st)?;
                self.parse_optional_attrs(st)?;
                self.expect(Tok::Colon, "':'")?;
                let from = self.parse_type()?;
                self.expect_kw_custom(if kind == OpKind::LlvmMatrixTranspose { "into" } else { "to" })?;
                let to = self.parse_type()?;
                let v = self.resolve(u, from)?;
                st.operands.push(v);
                st.result_types = vec![to];
            }
            Fmt::Cmp => self.parse_cmp(kind, st)?,
            Fmt::LlvmCmp => self.parse_llvm_cmp(kind, st)?,
            Fmt::Select => {
                let uses = self.parse_n_operands(3)?;
                self.parse_optional_attrs(st)?;
                self.expect(Tok::Colon, "':'")?;
                let t1 = self.parse_type()?;
                let (ct, ty) =
                    if self.eat(Tok::Comma)? { (t1, self.parse_type()?) } else { (self.m.ctx.int_type(1), t1) };
                let tys = [ct, ty, ty];
                for (u, t) in uses.into_iter().zip(tys) {
                    let v = self.resolve(u, t)?;
                    st.operands.push(v);
                }
                st.result_types = vec![ty];
            }
            Fmt::IndexConstant => {
                let idx = self.m.ctx.index_type();
                let v = self.parse_attribute(Some(idx))?;
                self.set_attr(st, "value", v);
                self.parse_optional_attrs(st)?;
                st.result_types = vec![idx];
            }
            Fmt::BoolConstant => {
                let at = self.tok.span;
                let i1 = self.m.ctx.int_type(1);
                let v = self.parse_attribute(Some(i1))?;
                if !crate::verify::inherent::Constraint::Bool.holds(&self.m.ctx, v) {
                    return self.err_at(at, format!("{CUSTOM_MARK}invalid kind of attribute specified"));
                }
                self.set_attr(st, "value", v);
                self.parse_optional_attrs(st)?;
                st.result_types = vec![self.m.ctx.int_type(1)];
            }
            Fmt::NoOperands => {
                self.parse_optional_attrs(st)?;
                st.result_types = vec![self.m.ctx.index_type()];
            }
            Fmt::Poison => {
                self.parse_optional_attrs(st)?;
                if self.eat(Tok::Less)? {
                    let a = self.parse_attribute(None)?;
                    self.set_attr(st, "value", a);
                    self.expect(Tok::Greater, "'>'")?;
                }
                self.expect(Tok::Colon, "':'")?;
                st.result_types = vec![self.parse_type()?];
            }
            Fmt::ConversionCast => {
                let uses = self.parse_optional_operand_list()?;
                let mut from = Vec::new();
                if !uses.is_empty() {
                    self.expect(Tok::Colon, "':'")?;
                    from = self.parse_type_list_no_parens()?;
                }
                self.expect_kw_custom("to")?;
                let to = self.parse_type_list_no_parens()?;
                self.resolve_all(st, &uses, &from, name_span)?;
                st.result_types = to;
                self.parse_optional_attrs(st)?;
            }
            Fmt::BinaryTwoTypes => {
                let uses = self.parse_n_operands(2)?;
                self.parse_modifiers(st)?;
                self.parse_optional_attrs(st)?;
                self.expect(Tok::Colon, "':'")?;
                let a = self.parse_type()?;
                self.expect(Tok::Comma, "','")?;
                let b = self.parse_type()?;
                self.resolve_all(st, &uses, &[a, b], name_span)?;
                st.result_types = vec![a];
            }
            Fmt::Predicate | Fmt::UnaryTwoResults | Fmt::ComplexToReal => {
                let u = self.parse_use_name()?;
                self.parse_modifiers(st)?;
                self.parse_optional_attrs(st)?;
                self.expect(Tok::Colon, "':'")?;
                let sp = self.tok.span;
                let t = self.parse_type()?;
                let v = self.resolve(u, t)?;
                st.operands.push(v);
                st.result_types = match fmt {
                    Fmt::Predicate => vec![self.i1_like(t)],
                    Fmt::UnaryTwoResults => vec![t, t],
                    _ => match self.m.ctx.type_kind(t) {
                        TypeKind::Complex(e) => vec![*e],
                        _ => return self.err_at(sp, "expected complex type"),
                    },
                };
            }
            Fmt::Clamp => {
                let u = self.parse_use_name()?;
                self.expect_kw_custom("to")?;
                self.expect(Tok::LSquare, "'['")?;
                let lo = self.parse_use_name()?;
                self.expect(Tok::Comma, "','")?;
                let hi = self.parse_use_name()?;
                self.expect(Tok::RSquare, "']'")?;
                self.parse_modifiers(st)?;
                self.parse_optional_attrs(st)?;
                self.expect(Tok::Colon, "':'")?;
                let t = self.parse_type()?;
                self.resolve_all(st, &[u, lo, hi], &[t, t, t], name_span)?;
                st.result_types = vec![t];
            }
            Fmt::ComplexCreate => {
                let uses = self.parse_n_operands(2)?;
                self.parse_optional_attrs(st)?;
                self.expect(Tok::Colon, "':'")?;
                let sp = self.tok.span;
                let t = self.parse_type()?;
                let TypeKind::Complex(e) = *self.m.ctx.type_kind(t) else {
                    return self.err_at(sp, "expected complex type");
                };
                self.resolve_all(st, &uses, &[e, e], name_span)?;
                st.result_types = vec![t];
            }
            Fmt::ComplexConstant => {
                let v = self.parse_attribute(None)?;
                self.set_attr(st, "value", v);
                self.parse_optional_attrs(st)?;
                self.expect(Tok::Colon, "':'")?;
                st.result_types = vec![self.parse_type()?];
            }
            Fmt::Equality => {
                let uses = self.parse_n_operands(2)?;
                self.parse_optional_attrs(st)?;
                self.expect(Tok::Colon, "':'")?;
                let t = self.parse_type()?;
                self.resolve_all(st, &uses, &[t, t], name_span)?;
                st.result_types = vec![self.m.ctx.int_type(1)];
            }
            Fmt::MemAlloc
            | Fmt::MemLoad
            | Fmt::MemStore
            | Fmt::MemDealloc
            | Fmt::MemCopy
            | Fmt::MemDim
            | Fmt::MemRank
            | Fmt::MemSubview
            | Fmt::MemView
            | Fmt::MemReinterpretCast
            | Fmt::ExpandShape
            | Fmt::CollapseShape
            | Fmt::MemTranspose
            | Fmt::MemGlobal
            | Fmt::TensorMemref
            | Fmt::MemGetGlobal
            | Fmt::MemAtomicRmw
            | Fmt::MemGenericAtomicRmw
            | Fmt::AllocaScope
            | Fmt::ExtractMetadata
            | Fmt::AssumeAlignment
            | Fmt::Prefetch
            | Fmt::Realloc
            | Fmt::Reshape
            | Fmt::DmaStart
            | Fmt::DmaWait => self.parse_memref_family(fmt, kind, st, name_span)?,
            Fmt::AffineFor
            | Fmt::AffineIf
            | Fmt::AffineApply
            | Fmt::AffineMinMax
            | Fmt::AffineLoad
            | Fmt::AffineStore
            | Fmt::AffineParallel
            | Fmt::AffinePrefetch
            | Fmt::AffineDmaStart
            | Fmt::AffineDmaWait
            | Fmt::AffineDelinearize
            | Fmt::AffineLinearize => self.parse_affine_family(fmt, kind, st, name_span)?,
            Fmt::Bare => self.parse_optional_attrs(st)?,
            Fmt::TensorEmpty
            | Fmt::TensorInsert
            | Fmt::FromElements
            | Fmt::Generate
            | Fmt::Splat
            | Fmt::InsertSlice
            | Fmt::Pad
            | Fmt::Concat
            | Fmt::Gather => self.parse_tensor_family(fmt, kind, st, name_span)?,
            Fmt::ToElements
            | Fmt::VecExtract
            | Fmt::VecExtractElement
            | Fmt::VecInsertElement
            | Fmt::VecInsert
            | Fmt::InsertStrided
            | Fmt::Shuffle
            | Fmt::Interleave
            | Fmt::Deinterleave
            | Fmt::VecTranspose
            | Fmt::TypeOnly
            | Fmt::CreateMask
            | Fmt::ConstantMask
            | Fmt::VecMemory
            | Fmt::TransferRead
            | Fmt::TransferWrite
            | Fmt::Reduction
            | Fmt::MultiReduction
            | Fmt::Scan
            | Fmt::Contract
            | Fmt::OuterProduct
            | Fmt::VecPrint
            | Fmt::VecMask => self.parse_vector_family(fmt, kind, st, name_span)?,
            Fmt::FlaggedCast | Fmt::AllocTensor | Fmt::BufDealloc | Fmt::Materialize => {
                self.parse_bufferization_family(fmt, kind, st, name_span)?
            }
            Fmt::CombVariadic
            | Fmt::CombUnary
            | Fmt::CombConcat
            | Fmt::CombExtract
            | Fmt::CombIcmp
            | Fmt::CombLut
            | Fmt::CombMux
            | Fmt::CombReplicate
            | Fmt::CombTruthTable => self.parse_comb_family(fmt, kind, st, name_span)?,
            Fmt::LlvmGlobal
            | Fmt::LlvmFunc
            | Fmt::LlvmCall
            | Fmt::LlvmAddressof
            | Fmt::LlvmConstant
            | Fmt::LlvmGep
            | Fmt::LlvmLoad
            | Fmt::LlvmStore
            | Fmt::LlvmExtractElement
            | Fmt::LlvmInsertElement
            | Fmt::LlvmShuffle
            | Fmt::LlvmInsertValue
            | Fmt::LlvmExtractValue
            | Fmt::LlvmAlloca
            | Fmt::LlvmSwitch
            | Fmt::LlvmAtomicRmw
            | Fmt::LlvmCmpxchg
            | Fmt::LlvmIntr
            | Fmt::LlvmIntrOperands
            | Fmt::LlvmIntrOperand
            | Fmt::LlvmVaCopy
            | Fmt::LlvmVaArg
            | Fmt::LlvmMaskedStore
            | Fmt::LlvmAssume
            | Fmt::LlvmXtors => self.parse_llvm_family(fmt, kind, st, name_span)?,
            Fmt::TosaFunctional
            | Fmt::TosaNoCustom
            | Fmt::TosaCondIf
            | Fmt::TosaWhileLoop
            | Fmt::TosaVariable
            | Fmt::TosaVariableRead
            | Fmt::TosaVariableWrite => self.parse_tosa_family(fmt, kind, st, name_span)?,
            Fmt::ScfFor => self.parse_scf_for(st)?,
            Fmt::ScfIf => self.parse_scf_if(st)?,
            Fmt::ScfWhile => self.parse_scf_while(st)?,
            Fmt::ScfCondition => {
                self.expect(Tok::LParen, "'('")?;
                let c = self.parse_use_name()?;
                self.expect(Tok::RParen, "')'")?;
                let i1 = self.m.ctx.int_type(1);
                let c = self.resolve(c, i1)?;
                st.operands.push(c);
                self.parse_optional_attrs(st)?;
                let uses = self.parse_optional_operand_list()?;
                if !uses.is_empty() {
                    self.expect(Tok::Colon, "':'")?;
                    let tys = self.parse_type_list_no_parens()?;
                    self.resolve_all(st, &uses, &tys, name_span)?;
                }
            }
            Fmt::ScfExecuteRegion => {
                if self.eat(Tok::Arrow)? {
                    st.result_types = self.parse_function_result_types()?;
                }
                if self.eat_kw("no_inline")? {
                    let u = self.m.ctx.attr(Attribute::Unit);
                    self.set_attr(st, "no_inline", u);
                }
                let r = self.parse_region(&[], false)?;
                st.regions.push(r);
                self.parse_optional_attrs(st)?;
            }
            Fmt::ScfIndexSwitch => self.parse_index_switch(st)?,
            Fmt::ScfParallel => self.parse_scf_parallel(st)?,
            Fmt::ScfReduce => {
                let mut uses = Vec::new();
                let mut tys = Vec::new();
                if self.eat(Tok::LParen)? {
                    uses = self.parse_optional_operand_list()?;
                    if !uses.is_empty() {
                        self.expect(Tok::Colon, "':'")?;
                        tys = self.parse_type_list_no_parens()?;
                    }
                    self.expect(Tok::RParen, "')'")?;
                }
                self.resolve_all(st, &uses, &tys, name_span)?;
                for i in 0..uses.len() {
                    if i > 0 {
                        self.expect(Tok::Comma, "','")?;
                    }
                    let r = self.parse_region(&[], false)?;
                    st.regions.push(r);
                }
                self.parse_optional_attrs(st)?;
            }
            Fmt::ScfForall => self.parse_scf_forall(st)?,
            Fmt::LinalgGeneric
            | Fmt::LinalgNamed
            | Fmt::LinalgOpDsl
            | Fmt::LinalgDst
            | Fmt::LinalgIndex
            | Fmt::LinalgSoftmax
            | Fmt::LinalgRelayout => self.parse_linalg_family(fmt, kind, st, name_span)?,
            Fmt::InParallel => {
                let r = self.parse_region(&[], false)?;
                self.ensure_block(r);
                st.regions.push(r);
                self.parse_optional_attrs(st)?;
            }
        }
        let _ = nresults;
        Ok(())
    }

    // ---- shared pieces ---------------------------------------------------

    /// Sets an inherent attribute (kept with the discardable ones; mlir-opt
    /// turns them into properties when it reads our generic output).
    pub(super) fn set_attr(&mut self, st: &mut OpState, name: &str, a: AttrId) {
        let id = self.m.ctx.ident(name);
        st.attrs.retain(|(n, _)| *n != id);
        st.attrs.push((id, a));
    }

    /// Sets a property that mlir-opt only accepts inside `<{..}>` (a
    /// `UnitProp`, which it does not take from the attribute dictionary).
    pub(super) fn set_prop(&mut self, st: &mut OpState, name: &str, a: AttrId) {
        let id = self.m.ctx.ident(name);
        let mut entries = match st.properties.map(|p| self.m.ctx.attr_kind(p).clone()) {
            Some(Attribute::Dict(e)) => e,
            _ => Vec::new(),
        };
        entries.retain(|(n, _)| *n != id);
        entries.push((id, a));
        st.properties = Some(self.m.ctx.attr(Attribute::Dict(entries)));
    }

    pub(super) fn segments(&mut self, sizes: &[usize]) -> AttrId {
        let i32t = self.m.ctx.int_type(32);
        let values = crate::attrs::DenseValues::Ints(sizes.iter().map(|s| IntVal::Small(*s as i128)).collect());
        self.m.ctx.attr(Attribute::DenseArray { elem: i32t, values })
    }

    pub(super) fn i64_array(&mut self, v: &[i64]) -> AttrId {
        let i64t = self.m.ctx.int_type(64);
        let values = crate::attrs::DenseValues::Ints(v.iter().map(|s| IntVal::Small(*s as i128)).collect());
        self.m.ctx.attr(Attribute::DenseArray { elem: i64t, values })
    }

    /// `{...}` if present, merged into the op's attributes.
    pub(crate) fn parse_optional_attrs(&mut self, st: &mut OpState) -> PResult<()> {
        if self.is(Tok::LBrace) {
            st.dict_at = Some(self.tok.span);
            let entries = self.parse_attr_dict_entries()?;
            for (n, a) in entries {
                st.attrs.retain(|(m, _)| *m != n);
                st.attrs.push((n, a));
            }
        }
        Ok(())
    }

    pub(super) fn parse_optional_operand_list(&mut self) -> PResult<Vec<UseName>> {
        let mut v = Vec::new();
        if !self.is(Tok::PercentId) {
            return Ok(v);
        }
        loop {
            v.push(self.parse_use_name()?);
            if !self.eat(Tok::Comma)? {
                return Ok(v);
            }
        }
    }

    pub(super) fn parse_n_operands(&mut self, n: usize) -> PResult<Vec<UseName>> {
        let mut v = Vec::with_capacity(n);
        for i in 0..n {
            if i > 0 {
                self.expect(Tok::Comma, "','")?;
            }
            v.push(self.parse_use_name()?);
        }
        Ok(v)
    }

    pub(super) fn parse_paren_operands(&mut self) -> PResult<Vec<UseName>> {
        self.expect(Tok::LParen, "'('")?;
        let v = self.parse_optional_operand_list()?;
        self.expect(Tok::RParen, "')'")?;
        Ok(v)
    }

    /// A return-like terminator's body: `%a, %b {attrs} : t1, t2`, or
    /// nothing (`func.return`, `sparse_tensor.yield`).
    pub(super) fn parse_return_like(&mut self, st: &mut OpState, name_span: Span) -> PResult<()> {
        let uses = self.parse_optional_operand_list()?;
        self.parse_optional_attrs(st)?;
        if !uses.is_empty() {
            self.expect(Tok::Colon, "':'")?;
            let tys = self.parse_type_list_no_parens()?;
            self.resolve_all(st, &uses, &tys, name_span)?;
        }
        Ok(())
    }

    pub(super) fn resolve_all(
        &mut self,
        st: &mut OpState,
        uses: &[UseName],
        tys: &[TypeId],
        span: Span,
    ) -> PResult<()> {
        if uses.len() != tys.len() {
            return self.err_at(span, format!("{} operands present, but expected {}", uses.len(), tys.len()));
        }
        for (u, t) in uses.iter().zip(tys) {
            let v = self.resolve(*u, *t)?;
            st.operands.push(v);
        }
        Ok(())
    }

    /// `attr-dict : functional-type(uses, results)`, the tail of many
    /// custom forms: the attributes, then the operands resolved to the
    /// signature's inputs and the results given its outputs.
    pub(super) fn parse_functional_tail(&mut self, st: &mut OpState, uses: &[UseName], span: Span) -> PResult<()> {
        self.parse_optional_attrs(st)?;
        self.expect(Tok::Colon, "':'")?;
        let (ins, outs) = self.parse_function_signature_types()?;
        self.resolve_all(st, uses, &ins, span)?;
        st.result_types = outs;
        Ok(())
    }

    fn parse_symbol_ref_attr(&mut self) -> PResult<AttrId> {
        if !self.is(Tok::AtId) {
            return self.err("expected attribute value");
        }
        self.parse_attribute(None)
    }

    /// `(T..) -> R` or `(T..) -> (R..)` split into lists.
    pub(super) fn parse_function_signature_types(&mut self) -> PResult<(Vec<TypeId>, Vec<TypeId>)> {
        let ins = self.parse_type_list_parens()?;
        self.expect(Tok::Arrow, "'->' in function type")?;
        let outs = self.parse_function_result_types()?;
        Ok((ins, outs))
    }

    /// `^bb` or `^bb(%a, %b : T, U)`.
    pub(super) fn parse_successor_and_operands(&mut self) -> PResult<(BlockId, Vec<ValueId>)> {
        let b = self.parse_successor_ref()?;
        let mut vals = Vec::new();
        if self.eat(Tok::LParen)? {
            let uses = self.parse_optional_operand_list()?;
            if !uses.is_empty() {
                self.expect(Tok::Colon, "':'")?;
                let tys = self.parse_type_list_no_parens()?;
                if tys.len() != uses.len() {
                    return self.err(format!("{} operands present, but expected {}", uses.len(), tys.len()));
                }
                for (u, t) in uses.into_iter().zip(tys) {
                    vals.push(self.resolve(u, t)?);
                }
            }
            self.expect(Tok::RParen, "')'")?;
        }
        Ok((b, vals))
    }

    /// Modifier keywords of arith ops: `overflow<..>`, `fastmath<..>`,
    /// `exact`, `nneg`, and rounding modes.
    pub(super) fn parse_modifiers(&mut self, st: &mut OpState) -> PResult<()> {
        loop {
            if self.is_kw("overflow") || self.is_kw("fastmath") {
                let which = self.spelling().to_string();
                let end = self.tok_end();
                if self.text.as_bytes().get(end) != Some(&b'<') {
                    return self.err(format!("expected '<' after '{which}'"));
                }
                self.lexer().reset(end + 1);
                let close = self.lexer().skip_dialect_body(end)?;
                let body = format!(".{which}{}", &self.text[end..close]);
                self.reset_to(close)?;
                // The llvm dialect's ops spell the same flags as its own
                // attributes (`#llvm.overflow<nsw>`, `fastmathFlags`).
                let llvm = st.name.is_some_and(|n| matches!(n.kind.dialect_op(), DialectOp::Llvm(_)));
                let a = if llvm && which == "overflow" {
                    // An i32 of bits (nsw 1, nuw 2), as mlir-opt's generic form holds it.
                    let bits = body.contains("nsw") as i128 | (body.contains("nuw") as i128) << 1;
                    let i32t = self.m.ctx.int_type(32);
                    self.m.ctx.attr(Attribute::Integer { value: IntVal::Small(bits), ty: i32t })
                } else {
                    let d = self.m.ctx.ident(if llvm { "llvm" } else { "arith" });
                    self.m.ctx.attr(Attribute::Dialect { dialect: d, body: body.into() })
                };
                match (which.as_str(), llvm) {
                    // An enum property, never taken from the attribute
                    // dictionary (there it is a discardable attribute).
                    ("overflow", true) => self.set_prop(st, "overflowFlags", a),
                    ("overflow", false) => self.set_attr(st, "overflowFlags", a),
                    (_, true) => self.set_attr(st, "fastmathFlags", a),
                    _ => self.set_attr(st, "fastmath", a),
                }
            } else if self.is_kw("exact") {
                self.bump()?;
                let u = self.m.ctx.attr(Attribute::Unit);
                self.set_attr(st, "isExact", u);
            } else if self.is_kw("nneg") {
                // A property, as in MLIR after 22 (where the keyword comes
                // from): 22's `{nonNeg}` in the dictionary is discardable.
                self.bump()?;
                let u = self.m.ctx.attr(Attribute::Unit);
                self.set_prop(st, "nonNeg", u);
            } else if let Some(n) = ROUNDING_MODES.iter().position(|r| self.is_kw(r)) {
                self.bump()?;
                let i32t = self.m.ctx.int_type(32);
                let a = self.m.ctx.attr(Attribute::Integer { value: IntVal::Small(n as i128), ty: i32t });
                self.set_attr(st, "roundingmode", a);
            } else {
                return Ok(());
            }
        }
    }

    /// The keywords the llvm dialect writes before an op's operands:
    /// `disjoint` (`llvm.or`), `exact` (divisions and right shifts), `nneg`
    /// (`llvm.zext`, `llvm.uitofp`).
    fn parse_llvm_prefix(&mut self, kind: OpKind, st: &mut OpState) -> PResult<()> {
        if !matches!(kind.dialect_op(), DialectOp::Llvm(_)) {
            return Ok(());
        }
        for (kw, attr) in [("disjoint", "isDisjoint"), ("exact", "isExact"), ("nneg", "nonNeg")] {
            if self.is_kw(kw) {
                self.bump()?;
                let u = self.m.ctx.attr(Attribute::Unit);
                self.set_attr(st, attr, u);
            }
        }
        Ok(())
    }

    /// `llvm.icmp "slt" %a, %b : T` and `llvm.fcmp "olt" %a, %b : T`: the
    /// predicate as its enum value (the same order as arith's).
    fn parse_llvm_cmp(&mut self, kind: OpKind, st: &mut OpState) -> PResult<()> {
        let sp = self.tok.span;
        if !self.is(Tok::String) {
            return self.err("expected string predicate");
        }
        let word = String::from_utf8_lossy(&unescape(self.spelling())).into_owned();
        self.bump()?;
        let preds = if kind == OpKind::LlvmFcmp { CMPF_PREDICATES } else { CMPI_PREDICATES };
        let name = word.strip_prefix('_').unwrap_or(&word);
        let Some(n) = preds.iter().position(|p| *p == name) else {
            return self.err_at(sp, format!("invalid predicate '{word}'"));
        };
        let i64t = self.m.ctx.int_type(64);
        let attr = self.m.ctx.attr(Attribute::Integer { value: IntVal::Small(n as i128), ty: i64t });
        self.set_attr(st, "predicate", attr);
        let uses = self.parse_n_operands(2)?;
        self.parse_optional_attrs(st)?;
        self.expect(Tok::Colon, "':'")?;
        let ty = self.parse_type()?;
        for u in uses {
            let v = self.resolve(u, ty)?;
            st.operands.push(v);
        }
        st.result_types = vec![self.i1_like(ty)];
        Ok(())
    }

    fn parse_cmp(&mut self, kind: OpKind, st: &mut OpState) -> PResult<()> {
        let index = kind == OpKind::IndexCmp;
        let preds = if kind == OpKind::ArithCmpf { CMPF_PREDICATES } else { CMPI_PREDICATES };
        let n = self.parse_enum_keyword("predicate", preds)?;
        let pred = preds[n];
        let attr = if index {
            let d = self.m.ctx.ident("index");
            self.m.ctx.attr(Attribute::Dialect { dialect: d, body: format!("<cmp_predicate {pred}>").into() })
        } else {
            let i64t = self.m.ctx.int_type(64);
            self.m.ctx.attr(Attribute::Integer { value: IntVal::Small(n as i128), ty: i64t })
        };
        self.set_attr(st, if index { "pred" } else { "predicate" }, attr);
        let uses = if index {
            self.expect(Tok::LParen, "'('")?;
            let u = self.parse_n_operands(2)?;
            self.expect(Tok::RParen, "')'")?;
            u
        } else {
            self.expect(Tok::Comma, "','")?;
            self.parse_n_operands(2)?
        };
        self.parse_modifiers(st)?;
        self.parse_optional_attrs(st)?;
        let ty = if index {
            self.m.ctx.index_type()
        } else {
            self.expect(Tok::Colon, "':'")?;
            self.parse_type()?
        };
        for u in uses {
            let v = self.resolve(u, ty)?;
            st.operands.push(v);
        }
        st.result_types = vec![self.i1_like(ty)];
        Ok(())
    }

    /// `i1`, or a vector/tensor of `i1` shaped like `ty`.
    pub(super) fn i1_like(&mut self, ty: TypeId) -> TypeId {
        let i1 = self.m.ctx.int_type(1);
        let rt = match self.m.ctx.type_kind(ty).clone() {
            TypeKind::Vector { shape, scalable, .. } => TypeKind::Vector { shape, scalable, elem: i1 },
            TypeKind::RankedTensor { shape, encoding, .. } => TypeKind::RankedTensor { shape, elem: i1, encoding },
            TypeKind::UnrankedTensor { .. } => TypeKind::UnrankedTensor { elem: i1 },
            _ => return i1,
        };
        self.m.ctx.ty(rt)
    }

    fn parse_switch(&mut self, st: &mut OpState) -> PResult<()> {
        let flag = self.parse_use_name()?;
        self.expect(Tok::Colon, "':'")?;
        let fty = self.parse_type()?;
        let f = self.resolve(flag, fty)?;
        st.operands.push(f);
        self.expect(Tok::Comma, "','")?;
        self.expect(Tok::LSquare, "'['")?;
        self.expect_kw_custom("default")?;
        self.expect(Tok::Colon, "':'")?;
        let (d, dops) = self.parse_successor_and_operands()?;
        st.successors.push(d);
        let ndefault = dops.len();
        st.operands.extend(dops);
        let mut case_values = Vec::new();
        let mut case_segs = Vec::new();
        while self.eat(Tok::Comma)? {
            let neg = self.eat(Tok::Minus)?;
            if !self.is(Tok::Integer) {
                return self.err("expected integer value");
            }
            let s = self.spelling().to_string();
            self.bump()?;
            case_values.push(crate::parser::attrs_lit(neg, &s));
            self.expect(Tok::Colon, "':'")?;
            let (b, ops) = self.parse_successor_and_operands()?;
            st.successors.push(b);
            case_segs.push(ops.len());
            st.operands.extend(ops);
        }
        self.expect(Tok::RSquare, "']'")?;
        self.set_switch_cases(st, fty, case_values, &case_segs, ndefault)?;
        self.parse_optional_attrs(st)
    }

    /// The case attributes of `cf.switch`/`llvm.switch`: `case_values` (a
    /// vector of the flag's type), `case_operand_segments` and
    /// `operandSegmentSizes` (flag, default operands, case operands).
    pub(super) fn set_switch_cases(
        &mut self,
        st: &mut OpState,
        fty: TypeId,
        case_values: Vec<(bool, num_bigint::BigInt)>,
        case_segs: &[usize],
        ndefault: usize,
    ) -> PResult<()> {
        if !case_values.is_empty() {
            let (width, sign) = match self.m.ctx.type_kind(fty) {
                TypeKind::Integer { width, signedness } => (*width, *signedness),
                _ => (64, crate::types::Signedness::Signless),
            };
            let mut vals = Vec::new();
            for (neg, v) in case_values {
                match super::attrs::canonical_int(neg, v, width, sign) {
                    Ok(x) => vals.push(x),
                    Err(m) => return self.err(m),
                }
            }
            let vt =
                self.m.ctx.ty(TypeKind::Vector { shape: vec![vals.len() as i64], scalable: vec![false], elem: fty });
            let cv = self.m.ctx.attr(Attribute::Dense {
                ty: vt,
                splat: false,
                values: crate::attrs::DenseValues::Ints(vals),
            });
            self.set_attr(st, "case_values", cv);
        }
        let cs = self.segments(case_segs);
        self.set_attr(st, "case_operand_segments", cs);
        let ncase: usize = case_segs.iter().sum();
        let seg = self.segments(&[1, ndefault, ncase]);
        self.set_attr(st, "operandSegmentSizes", seg);
        Ok(())
    }

    // ---- module and func -------------------------------------------------

    fn parse_module_op(&mut self, st: &mut OpState) -> PResult<()> {
        if self.is(Tok::AtId) {
            let n = self.symbol_name()?;
            let a = self.m.ctx.attr(Attribute::String { value: n, ty: None });
            self.set_attr(st, "sym_name", a);
        }
        if self.eat_kw("attributes")? {
            self.parse_optional_attrs(st)?;
        }
        let saved = std::mem::take(&mut self.default_dialect);
        let r = self.parse_region(&[], true);
        self.default_dialect = saved;
        let r = r?;
        self.ensure_block(r);
        st.regions.push(r);
        Ok(())
    }

    /// Gives an empty region its (single, empty) block, as MLIR does for
    /// ops whose regions may not be empty.
    pub(super) fn ensure_block(&mut self, r: RegionId) {
        if self.m.region(r).blocks.is_empty() {
            self.new_block(r, Span::default());
        }
    }

    pub(super) fn parse_func_op(&mut self, st: &mut OpState) -> PResult<()> {
        if self.is_kw("private") || self.is_kw("public") || self.is_kw("nested") {
            let v = self.spelling().as_bytes().into();
            self.bump()?;
            let a = self.m.ctx.attr(Attribute::String { value: v, ty: None });
            self.set_attr(st, "sym_visibility", a);
        }
        let name_span = self.tok.span;
        if !self.is(Tok::AtId) {
            return self.custom_err("expected valid '@'-identifier for symbol name");
        }
        let name = self.symbol_name()?;
        let _ = name_span;
        let na = self.m.ctx.attr(Attribute::String { value: name, ty: None });
        self.set_attr(st, "sym_name", na);
        let sig = self.parse_function_signature(false)?;
        let ft = self.m.ctx.ty(TypeKind::Function { inputs: sig.inputs.clone(), results: sig.results.clone() });
        let fa = self.m.ctx.attr(Attribute::Type(ft));
        self.set_attr(st, "function_type", fa);
        self.parse_function_rest(st, sig, Some("func"))
    }

    /// Parses `(%a: T {attrs}, ...) -> (R {attrs}, ...)` of `func.func` and
    /// `llvm.func`: named arguments in a definition, bare types in a
    /// declaration, and a trailing `...` where `vararg` is allowed.
    pub(super) fn parse_function_signature(&mut self, vararg_allowed: bool) -> PResult<Signature> {
        let mut sig = Signature::default();
        self.comma_list(Tok::LParen, Tok::RParen, "in argument list", |p| {
            if sig.vararg {
                return p.err("expected ')'");
            }
            if vararg_allowed && p.eat(Tok::Ellipsis)? {
                sig.vararg = true;
                return Ok(());
            }
            let is_named = p.is(Tok::PercentId);
            if *sig.named.get_or_insert(is_named) != is_named {
                return p.err("expected SSA identifier");
            }
            let u = if is_named {
                let u = p.parse_use_name()?;
                p.expect(Tok::Colon, "':'")?;
                Some(u)
            } else {
                None
            };
            let t = p.parse_type()?;
            sig.inputs.push(t);
            sig.arg_attrs.push(if p.is(Tok::LBrace) { Some(p.parse_dictionary_attr()?) } else { None });
            p.parse_trailing_loc()?;
            if let Some(u) = u {
                sig.args.push((u, t));
            }
            Ok(())
        })?;
        if self.eat(Tok::Arrow)? {
            if self.is(Tok::LParen) {
                self.comma_list(Tok::LParen, Tok::RParen, "in result list", |p| {
                    sig.results.push(p.parse_type()?);
                    sig.res_attrs.push(if p.is(Tok::LBrace) { Some(p.parse_dictionary_attr()?) } else { None });
                    Ok(())
                })?;
            } else {
                sig.results.push(self.parse_non_function_type()?);
                sig.res_attrs.push(None);
            }
        }
        Ok(sig)
    }

    /// After a function's type: the argument/result attributes, the
    /// `attributes {..}` dictionary and the optional body (parsed with
    /// `dialect` as the default dialect, none for `None`).
    pub(super) fn parse_function_rest(
        &mut self,
        st: &mut OpState,
        sig: Signature,
        dialect: Option<&'static str>,
    ) -> PResult<()> {
        for (name, list) in [("arg_attrs", sig.arg_attrs), ("res_attrs", sig.res_attrs)] {
            if list.iter().any(|a| a.is_some()) {
                let arr = self.dict_array(list);
                self.set_attr(st, name, arr);
            }
        }
        if self.eat_kw("attributes")? {
            self.parse_optional_attrs(st)?;
        }
        if self.is(Tok::LBrace) {
            if sig.named == Some(false) {
                return self.err("expected SSA identifier");
            }
            let body_span = self.tok.span;
            let saved = std::mem::take(&mut self.default_dialect);
            if let Some(d) = dialect {
                self.default_dialect = saved.clone();
                self.default_dialect.push(d);
            }
            let r = self.parse_region(&sig.args, true);
            self.default_dialect = saved;
            let r = r?;
            if self.m.region(r).blocks.is_empty() {
                return self.err_at(body_span, format!("{CUSTOM_MARK}expected non-empty function body"));
            }
            st.regions.push(r);
        } else {
            let r = self.new_region();
            st.regions.push(r);
        }
        Ok(())
    }

    fn dict_array(&mut self, v: Vec<Option<AttrId>>) -> AttrId {
        let items: Vec<AttrId> =
            v.into_iter().map(|a| a.unwrap_or_else(|| self.m.ctx.attr(Attribute::Dict(Vec::new())))).collect();
        self.m.ctx.attr(Attribute::Array(items))
    }

    // ---- scf -------------------------------------------------------------

    /// [`Self::add_implicit_terminator`] for the other dialect files.
    pub(crate) fn add_implicit_terminator_pub(&mut self, r: RegionId, yield_kind: OpKind) {
        self.add_implicit_terminator(r, yield_kind)
    }

    /// Appends `yield_kind` with no operands to the last block of `r` when the
    /// block does not end in a terminator (implicit terminators).
    pub(super) fn add_implicit_terminator(&mut self, r: RegionId, yield_kind: OpKind) {
        self.ensure_block(r);
        let Some(&b) = self.m.region(r).blocks.last() else { return };
        let needs = match self.m.block(b).ops.last() {
            None => true,
            // As MLIR's ensureTerminator: an unregistered last op is not a
            // terminator, so the implicit one is still added after it.
            Some(&op) => !self.m.op(op).name.kind.has(traits::TERMINATOR),
        };
        if needs {
            let ident = self.m.ctx.ident(yield_kind.name());
            // At the region's `}`: the op is nowhere in the text, and the
            // block's span is its first op's, which a trace or debugger
            // would show as if that op ran again.
            let close = self.m.region(r).close;
            let span = if close.end > close.start { close } else { self.m.block(b).span };
            let mut st = OpState { name: Some(OpName { kind: yield_kind, ident }), span, ..Default::default() };
            if yield_kind == OpKind::ScfInParallel {
                // `scf.forall.in_parallel` always holds one (empty) block.
                let r = self.new_region();
                self.ensure_block(r);
                st.regions.push(r);
            }
            let op = self.create_op(st, None);
            self.m.ops[op.0 as usize].parent = Some(b);
            self.m.blocks[b.0 as usize].ops.push(op);
        }
    }

    fn parse_scf_for(&mut self, st: &mut OpState) -> PResult<()> {
        if self.eat_kw("unsigned")? {
            let u = self.m.ctx.attr(Attribute::Unit);
            self.set_attr(st, "unsignedCmp", u);
        }
        let iv = self.parse_use_name()?;
        self.expect(Tok::Equal, "'='")?;
        let lb = self.parse_use_name()?;
        self.expect_kw_custom("to")?;
        let ub = self.parse_use_name()?;
        self.expect_kw_custom("step")?;
        let step = self.parse_use_name()?;
        let mut ty = self.m.ctx.index_type();
        // Loop-carried values: `iter_args(%a = %init, ..) -> (T, ..)`.
        let mut iter: Vec<(UseName, UseName)> = Vec::new();
        let mut iter_tys = Vec::new();
        if self.eat_kw("iter_args")? {
            self.comma_list(Tok::LParen, Tok::RParen, "in iter_args", |p| {
                let a = p.parse_use_name()?;
                p.expect(Tok::Equal, "'='")?;
                let i = p.parse_use_name()?;
                iter.push((a, i));
                Ok(())
            })?;
            self.expect(Tok::Arrow, "'->'")?;
            iter_tys = self.parse_function_result_types()?;
            if iter_tys.len() != iter.len() {
                return self.err("mismatch in number of loop-carried values and defined values");
            }
        }
        if self.eat(Tok::Colon)? {
            ty = self.parse_type()?;
        }
        for u in [lb, ub, step] {
            let v = self.resolve(u, ty)?;
            st.operands.push(v);
        }
        let mut entry = vec![(iv, ty)];
        for ((a, i), t) in iter.iter().zip(&iter_tys) {
            let v = self.resolve(*i, *t)?;
            st.operands.push(v);
            entry.push((*a, *t));
        }
        let r = self.parse_region(&entry, false)?;
        if iter_tys.is_empty() {
            self.add_implicit_terminator(r, OpKind::ScfYield);
        }
        st.regions.push(r);
        st.result_types = iter_tys;
        self.parse_optional_attrs(st)
    }

    fn parse_scf_if(&mut self, st: &mut OpState) -> PResult<()> {
        let c = self.parse_use_name()?;
        let i1 = self.m.ctx.int_type(1);
        let c = self.resolve(c, i1)?;
        st.operands.push(c);
        if self.eat(Tok::Arrow)? {
            st.result_types = self.parse_function_result_types()?;
        }
        let then = self.parse_region(&[], false)?;
        let els = if self.eat_kw("else")? { self.parse_region(&[], false)? } else { self.new_region() };
        if st.result_types.is_empty() {
            self.add_implicit_terminator(then, OpKind::ScfYield);
            if !self.m.region(els).blocks.is_empty() {
                self.add_implicit_terminator(els, OpKind::ScfYield);
            }
        }
        st.regions = vec![then, els];
        self.parse_optional_attrs(st)
    }

    pub(super) fn parse_scf_while(&mut self, st: &mut OpState) -> PResult<()> {
        let mut args: Vec<(UseName, UseName)> = Vec::new();
        if self.is(Tok::LParen) {
            self.comma_list(Tok::LParen, Tok::RParen, "in while arguments", |p| {
                let a = p.parse_use_name()?;
                p.expect(Tok::Equal, "'='")?;
                let i = p.parse_use_name()?;
                args.push((a, i));
                Ok(())
            })?;
        }
        self.expect(Tok::Colon, "':'")?;
        let sp = self.tok.span;
        let (ins, outs) = self.parse_function_signature_types()?;
        if ins.len() != args.len() {
            return self.err_at(
                sp,
                format!("expected as many input types as operands (expected {} got {})", args.len(), ins.len()),
            );
        }
        let mut entry = Vec::new();
        for ((a, i), t) in args.iter().zip(&ins) {
            let v = self.resolve(*i, *t)?;
            st.operands.push(v);
            entry.push((*a, *t));
        }
        let before = self.parse_region(&entry, false)?;
        self.expect_kw_custom("do")?;
        let after = self.parse_region(&[], false)?;
        st.regions = vec![before, after];
        st.result_types = outs;
        if self.eat_kw("attributes")? {
            self.parse_optional_attrs(st)?;
        }
        Ok(())
    }

    fn parse_index_switch(&mut self, st: &mut OpState) -> PResult<()> {
        let arg = self.parse_use_name()?;
        let idx = self.m.ctx.index_type();
        let v = self.resolve(arg, idx)?;
        st.operands.push(v);
        if self.eat(Tok::Arrow)? {
            st.result_types = self.parse_type_list_no_parens()?;
        }
        self.parse_optional_attrs(st)?;
        let mut cases = Vec::new();
        let mut case_regions = Vec::new();
        while self.eat_kw("case")? {
            let v = self.parse_i64()?;
            cases.push(v);
            let r = self.parse_region(&[], false)?;
            case_regions.push(r);
        }
        self.expect_kw_custom("default")?;
        let d = self.parse_region(&[], false)?;
        if st.result_types.is_empty() {
            for r in case_regions.iter().chain([&d]) {
                self.add_implicit_terminator(*r, OpKind::ScfYield);
            }
        }
        let ca = self.i64_array(&cases);
        self.set_attr(st, "cases", ca);
        st.regions.push(d);
        st.regions.extend(case_regions);
        Ok(())
    }

    fn parse_scf_parallel(&mut self, st: &mut OpState) -> PResult<()> {
        let mut ivs = Vec::new();
        self.comma_list(Tok::LParen, Tok::RParen, "in induction variables", |p| {
            ivs.push(p.parse_use_name()?);
            Ok(())
        })?;
        self.expect(Tok::Equal, "'='")?;
        let idx = self.m.ctx.index_type();
        let mut groups = Vec::new();
        for kw in ["", "to", "step"] {
            if !kw.is_empty() {
                self.expect_kw_custom(kw)?;
            }
            let uses = self.parse_paren_operands()?;
            if uses.len() != ivs.len() {
                return self.err("expected as many bounds as induction variables");
            }
            for u in uses {
                let v = self.resolve(u, idx)?;
                st.operands.push(v);
            }
            groups.push(ivs.len());
        }
        let mut inits = Vec::new();
        if self.eat_kw("init")? {
            inits = self.parse_paren_operands()?;
        }
        // `-> f32` or, for several, `-> (f32, f32)` (MLIR prints the latter).
        if self.eat(Tok::Arrow)? {
            st.result_types = self.parse_function_result_types()?;
        }
        let tys = st.result_types.clone();
        if inits.len() != tys.len() {
            return self.err("expected as many init values as result types");
        }
        for (u, t) in inits.iter().zip(tys) {
            let v = self.resolve(*u, t)?;
            st.operands.push(v);
        }
        groups.push(inits.len());
        let entry: Vec<(UseName, TypeId)> = ivs.iter().map(|u| (*u, idx)).collect();
        let r = self.parse_region(&entry, false)?;
        self.add_implicit_terminator(r, OpKind::ScfReduce);
        st.regions.push(r);
        let seg = self.segments(&groups);
        self.set_attr(st, "operandSegmentSizes", seg);
        self.parse_optional_attrs(st)
    }

    fn parse_scf_forall(&mut self, st: &mut OpState) -> PResult<()> {
        let mut ivs = Vec::new();
        self.comma_list(Tok::LParen, Tok::RParen, "in induction variables", |p| {
            ivs.push(p.parse_use_name()?);
            Ok(())
        })?;
        let idx = self.m.ctx.index_type();
        let (lbs, ubs, steps, nl, nu, ns);
        if self.eat_kw("in")? {
            let (u, n) = self.mixed_list(st, Tok::LParen, Tok::RParen)?;
            lbs = vec![0; u.len()];
            steps = vec![1; u.len()];
            ubs = u;
            (nl, nu, ns) = (0, n, 0);
        } else {
            self.expect(Tok::Equal, "'='")?;
            let (l, a) = self.mixed_list(st, Tok::LParen, Tok::RParen)?;
            self.expect_kw_custom("to")?;
            let (u, b) = self.mixed_list(st, Tok::LParen, Tok::RParen)?;
            self.expect_kw_custom("step")?;
            let (s, c) = self.mixed_list(st, Tok::LParen, Tok::RParen)?;
            (lbs, ubs, steps, nl, nu, ns) = (l, u, s, a, b, c);
        }
        let mut outs = Vec::new();
        if self.eat_kw("shared_outs")? {
            self.comma_list(Tok::LParen, Tok::RParen, "in shared_outs", |p| {
                let a = p.parse_use_name()?;
                p.expect(Tok::Equal, "'='")?;
                let i = p.parse_use_name()?;
                outs.push((a, i));
                Ok(())
            })?;
        }
        if self.eat(Tok::Arrow)? {
            st.result_types = self.parse_function_result_types()?;
        }
        let tys = st.result_types.clone();
        if outs.len() != tys.len() {
            return self.err("expected as many shared_outs as result types");
        }
        let mut entry: Vec<(UseName, TypeId)> = ivs.iter().map(|u| (*u, idx)).collect();
        for ((a, i), t) in outs.iter().zip(&tys) {
            let v = self.resolve(*i, *t)?;
            st.operands.push(v);
            entry.push((*a, *t));
        }
        let r = self.parse_region(&entry, false)?;
        self.add_implicit_terminator(r, OpKind::ScfInParallel);
        st.regions.push(r);
        for (n, v) in [("staticLowerBound", lbs), ("staticUpperBound", ubs), ("staticStep", steps)] {
            let a = self.i64_array(&v);
            self.set_attr(st, n, a);
        }
        let seg = self.segments(&[nl, nu, ns, outs.len()]);
        self.set_attr(st, "operandSegmentSizes", seg);
        self.parse_optional_attrs(st)
    }
}
