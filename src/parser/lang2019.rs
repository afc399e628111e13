//! The 2019 language: the syntax of the first MLIR specification (LangRef
//! of early 2019), read into the same IR today's syntax builds. Functions
//! are `func @f(..)` at top level (a declaration when bodiless), loops and
//! conditionals are the `for` and `if` instructions, affine maps and
//! integer sets are written bare (`(d0)[s0] -> (d0 + s0)`), and standard
//! ops have no dialect prefix (`addi`, `load`, `br`). Each 2019 op becomes
//! the op of today that has its meaning (`for` is `affine.for`, `divis` is
//! `arith.divsi`, `dim %A, 1` is `memref.dim` of an index constant); names
//! with a dialect prefix and generic ops are read as today. Source spans
//! stay on the 2019 text, so diagnostics and UB reports point at it.
//!
//! The shared parser calls in here through `lang2019` hooks: top-level
//! `func`, unprefixed op names, bare maps in attribute position, `:` in
//! attribute dictionaries, `floordiv(e, c)`, `size (..)` clauses, integer
//! sets without parentheses and bare memory space names.

use super::{OpState, PResult, Parser, UseName};
use crate::affine::{AffineExpr, AffineMap};
use crate::attrs::{AttrId, Attribute, IntVal};
use crate::diag::Span;
use crate::ir::{OpId, OpName, ValueId};
use crate::lexer::Tok;
use crate::ops::OpKind;
use crate::types::{TypeId, TypeKind};

/// Where `text` first uses a construct that only the 2019 language has (a
/// top-level `func @name`, an affine map or integer set alias written
/// bare), as a byte offset and a description; `None` for today's syntax.
pub fn detect_2019(text: &str) -> Option<(usize, &'static str)> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let body = line.trim_start();
        let at = start + (line.len() - body.len());
        if let Some(rest) = body.strip_prefix("func") {
            if rest.starts_with([' ', '\t']) && rest.trim_start().starts_with('@') {
                return Some((at, "a top-level `func @name` (today `func.func`)"));
            }
        }
        if let Some(rest) = body.strip_prefix('#') {
            let name_len =
                rest.find(|c: char| !(c.is_ascii_alphanumeric() || "_$.-".contains(c))).unwrap_or(rest.len());
            if name_len > 0 && bare_map_or_set(&text[at + 1 + name_len..]) {
                return Some((
                    at,
                    "an affine map or integer set written bare (today `affine_map<..>`/`affine_set<..>`)",
                ));
            }
        }
    }
    None
}

/// Whether `= (..)..` (after an alias name) starts a bare map or set, not
/// a function type (`#f = (i32) -> i32` is an attribute alias of today).
fn bare_map_or_set(s: &str) -> bool {
    let Some(s) = s.trim_start().strip_prefix('=') else { return false };
    let Some(inner) = s.trim_start().strip_prefix('(') else { return false };
    let first = inner.trim_start();
    if !first.starts_with(')') {
        return !starts_with_type(first);
    }
    // `()`: a map if symbols or a constraint follow, or results that are
    // not types (`() -> (0)`; `() -> ()` stays a function type).
    let next = first[1..].trim_start();
    if next.starts_with('[') || next.starts_with(':') {
        return true;
    }
    match next.strip_prefix("->").map(str::trim_start) {
        Some(r) => match r.strip_prefix('(') {
            Some(res) => {
                let res = res.trim_start();
                !res.starts_with(')') && !starts_with_type(res)
            }
            None => !starts_with_type(r),
        },
        None => false,
    }
}

/// Whether `s` starts with a type (a builtin type keyword or `!dialect`).
fn starts_with_type(s: &str) -> bool {
    if s.starts_with('!') || s.starts_with('(') {
        return true;
    }
    let word: String = s.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
    let int = |p: &str| word.strip_prefix(p).is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()));
    int("i")
        || int("si")
        || int("ui")
        || crate::types::FloatKind::from_name(&word).is_some()
        || ["index", "none", "memref", "tensor", "vector", "complex", "tuple"].contains(&word.as_str())
}

/// The unprefixed 2019 ops whose custom form is today's custom form of
/// the op they map to, word for word.
///
/// Beside the ops of the 2019 document, the standard dialect of mid-2019
/// as tensorflow/mlir defined it (`include/mlir/StandardOps/Ops.td` at
/// a8d42cce, 2019-07-29: its `Std_Op`, `IntArithmeticOp`,
/// `FloatArithmeticOp` and `CastOp` definitions; the custom forms and
/// `cmpf`'s predicate names from `lib/StandardOps/Ops.cpp`, in today's
/// order): `and`, `or`, `xor`, `shlis`, `divf`, `remf`, `cmpf`,
/// `index_cast`, `sitofp` and `rank`. Where that dialect left a case open
/// (`shlis` by the width or more, which it never lowered), today's op
/// decides, as for `divis`.
fn same_form(name: &str) -> Option<OpKind> {
    use OpKind::*;
    Some(match name {
        "addi" => ArithAddi,
        "addf" => ArithAddf,
        "subi" => ArithSubi,
        "subf" => ArithSubf,
        "muli" => ArithMuli,
        "mulf" => ArithMulf,
        "divis" => ArithDivsi,
        "diviu" => ArithDivui,
        "remis" => ArithRemsi,
        "remiu" => ArithRemui,
        "divf" => ArithDivf,
        "remf" => ArithRemf,
        "and" => ArithAndi,
        "or" => ArithOri,
        "xor" => ArithXori,
        // "signed integer shift left": a left shift is one for both signs.
        "shlis" => ArithShli,
        "cmpi" => ArithCmpi,
        "cmpf" => ArithCmpf,
        "index_cast" => ArithIndexCast,
        "sitofp" => ArithSitofp,
        "rank" => TensorRank,
        "select" => ArithSelect,
        "call" => FuncCall,
        "call_indirect" => FuncCallIndirect,
        "return" => FuncReturn,
        "br" => CfBr,
        // The document spells the conditional branch both ways.
        "cond_br" | "br_cond" => CfCondBr,
        "load" => MemrefLoad,
        "store" => MemrefStore,
        "dealloc" => MemrefDealloc,
        "memref_cast" => MemrefCast,
        "tensor_cast" => TensorCast,
        "dma_start" => MemrefDmaStart,
        "dma_wait" => MemrefDmaWait,
        "for" => AffineFor,
        _ => return None,
    })
}

/// The op of today a 2019 generic op name stands for, when the generic
/// forms agree (same operands, results and attributes: `"addi"(%a, %b)`,
/// `"cmpi"(..){predicate: 2}` with today's predicate numbering). The
/// others (`"dim"` with an `index` attribute, `"constant"` typed by its
/// result alone, branches with successor operands) stay unregistered ops.
pub(super) fn generic_name(name: &str) -> Option<&'static str> {
    match name {
        "cond_br" | "br_cond" | "br" | "for" | "dma_start" | "dma_wait" => None,
        _ => same_form(name).map(OpKind::name),
    }
}

impl<'a> Parser<'a> {
    /// `func @name(args) (-> results)? (attributes {..})? ({ blocks })?`:
    /// a `func.func`, private when it has no body. The arguments are named
    /// (`%a: T`) or, with a body, bare types that the entry block's label
    /// names (`func @f(i64) { ^bb0(%a: i64): .. }`).
    pub(super) fn parse_func_2019(&mut self) -> PResult<OpId> {
        let span = self.tok.span;
        self.bump()?;
        let ident = self.m.ctx.ident("func.func");
        let mut st = OpState { name: Some(OpName { kind: OpKind::FuncFunc, ident }), span, ..Default::default() };
        if !self.is(Tok::AtId) {
            return self.err("expected '@name' after 'func'");
        }
        let name = self.symbol_name()?;
        let na = self.m.ctx.attr(Attribute::String { value: name, ty: None });
        self.set_attr(&mut st, "sym_name", na);
        let sig = self.parse_function_signature(false).map_err(|mut d| {
            if d.message == "expected ':'" {
                d.message = "expected ':' and a type after the argument's name: 2019 functions write `%a: i32` \
                             (the document's `@f(%A, %X) : (..)` form is not in its grammar)"
                    .into();
            }
            d
        })?;
        let ft = self.m.ctx.ty(TypeKind::Function { inputs: sig.inputs.clone(), results: sig.results.clone() });
        let fa = self.m.ctx.attr(Attribute::Type(ft));
        self.set_attr(&mut st, "function_type", fa);
        if self.eat_kw("attributes")? {
            if !self.is(Tok::LBrace) {
                return self.err("expected '{' after 'attributes'");
            }
            self.parse_optional_attrs(&mut st)?;
        }
        if !self.is(Tok::LBrace) {
            // An external function: today's declarations are private.
            let r = self.new_region();
            st.regions.push(r);
            let vis = self.m.ctx.attr(Attribute::String { value: b"private".as_slice().into(), ty: None });
            self.set_attr(&mut st, "sym_visibility", vis);
            return Ok(self.create_op(st, None));
        }
        let body_span = self.tok.span;
        let r = self.parse_region(&sig.args, true)?;
        let Some(&entry) = self.m.region(r).blocks.first() else {
            return self.err_at(body_span, "expected a non-empty function body");
        };
        if sig.named != Some(true) {
            let got: Vec<TypeId> =
                self.m.block(entry).args.indices().map(|i| self.m.value(ValueId(i as u32)).ty).collect();
            if got != sig.inputs {
                let list = |p: &Self, ts: &[TypeId]| ts.iter().map(|t| p.type_str(*t)).collect::<Vec<_>>().join(", ");
                let msg = format!(
                    "the entry block's arguments ({}) must be the function's arguments ({})",
                    list(self, &got),
                    list(self, &sig.inputs)
                );
                return self.err_at(self.m.block(entry).span, msg);
            }
        }
        st.regions.push(r);
        Ok(self.create_op(st, None))
    }

    /// One 2019 op with an unprefixed name (the current token): the op it
    /// became and the values its result names bind.
    pub(super) fn parse_op_2019(&mut self, span: Span, nresults: u32) -> PResult<(OpId, Vec<ValueId>)> {
        let name_span = self.tok.span;
        let written = self.spelling();
        self.bump()?;
        if written == "store" && !self.is(Tok::PercentId) {
            return self.err_here(
                "2019 'store' stores an SSA value (`store %v, %A[%i] : memref<..>`); define a literal with `constant` first",
            );
        }
        let kind = match written {
            "constant" if self.is(Tok::AtId) => Some(OpKind::FuncConstant),
            "constant" => Some(OpKind::ArithConstant),
            _ => same_form(written),
        };
        if let Some(kind) = kind {
            let op = self.parse_custom_as(kind, span, nresults, name_span, written)?;
            return Ok(self.with_results(op));
        }
        let op = match written {
            "if" => self.parse_if_2019(span)?,
            "affine_apply" => return self.parse_affine_apply_2019(span),
            "dim" => self.parse_dim_2019(span)?,
            "alloc" => self.parse_alloc_2019(span)?,
            "alloc_static" => self.parse_alloc_static_2019(span)?,
            "extract_element" => self.parse_extract_element_2019(span)?,
            "tensor_load" => self.parse_tensor_load_2019(span)?,
            "tensor_store" => self.parse_tensor_store_2019(span)?,
            "reshape" => self.parse_reshape_2019(span)?,
            "view" => self.parse_view_2019(span)?,
            _ => {
                return self.err_at(
                    name_span,
                    format!("unknown operation '{written}' in the 2019 language (write ops of other dialects with their prefix)"),
                )
            }
        };
        Ok(self.with_results(op))
    }

    /// An op of `kind` built from parts, located at `span`.
    fn build(&mut self, kind: OpKind, span: Span, operands: Vec<ValueId>, result_types: Vec<TypeId>) -> OpState {
        let ident = self.m.ctx.ident(kind.name());
        OpState { name: Some(OpName { kind, ident }), span, operands, result_types, ..Default::default() }
    }

    /// An `arith.constant N : index` placed before the op being parsed.
    fn index_constant(&mut self, v: i64, span: Span) -> ValueId {
        let idx = self.m.ctx.index_type();
        let a = self.m.ctx.attr(Attribute::Integer { value: IntVal::Small(v as i128), ty: idx });
        self.emit_value(OpKind::ArithConstant, span, Vec::new(), idx, &[("value", a)])
    }

    /// `if #set(%d..)[%s..] { .. } (else if ... { .. })* (else { .. })?`:
    /// an `affine.if`; each `else if` is an `affine.if` alone in the else
    /// region of the one before.
    fn parse_if_2019(&mut self, span: Span) -> PResult<OpId> {
        self.nested(|p| p.parse_if_2019_inner(span))
    }

    fn parse_if_2019_inner(&mut self, span: Span) -> PResult<OpId> {
        let idx = self.m.ctx.index_type();
        let mut st = self.build(OpKind::AffineIf, span, Vec::new(), Vec::new());
        let sp = self.tok.span;
        let a = self.parse_attribute(None)?;
        let Attribute::IntegerSet(set) = self.m.ctx.attr_kind(a).clone() else {
            return self.err_at(sp, "expected an integer set (`(d0)[s0] : (d0 >= 0)` or a `#set` name) after 'if'");
        };
        self.set_attr(&mut st, "condition", a);
        let (uses, nd) = self.dim_and_symbol_list()?;
        if set.num_dims as usize != nd || (set.num_dims + set.num_syms) as usize != uses.len() {
            return self.err_at(
                sp,
                format!(
                    "the integer set takes {} dimensions and {} symbols but is given {} and {}",
                    set.num_dims,
                    set.num_syms,
                    nd,
                    uses.len() - nd
                ),
            );
        }
        self.resolve_uniform(&mut st, &uses, idx)?;
        let then = self.parse_region(&[], false)?;
        self.add_implicit_terminator(then, OpKind::AffineYield);
        let els = self.new_region();
        if self.eat_kw("else")? {
            if self.is_kw("if") {
                let inner_span = self.tok.span;
                self.bump()?;
                let inner = self.parse_if_2019(inner_span)?;
                let b = self.new_block(els, inner_span);
                self.m.ops[inner.0 as usize].parent = Some(b);
                self.m.blocks[b.0 as usize].ops.push(inner);
            } else {
                let r = self.parse_region(&[], false)?;
                st.regions = vec![then, r];
                self.add_implicit_terminator(r, OpKind::AffineYield);
                return Ok(self.create_op(st, None));
            }
            self.add_implicit_terminator(els, OpKind::AffineYield);
        }
        st.regions = vec![then, els];
        Ok(self.create_op(st, None))
    }

    /// `affine_apply #map(%d..)[%s..]`: one single-result `affine.apply` per
    /// result of the map (today's `affine.apply` has one), all bound to the
    /// one name (`%0#1` is the second).
    fn parse_affine_apply_2019(&mut self, span: Span) -> PResult<(OpId, Vec<ValueId>)> {
        let idx = self.m.ctx.index_type();
        let sp = self.tok.span;
        let (_, map) = self.affine_map_attr()?;
        let (uses, nd) = self.dim_and_symbol_list()?;
        if map.num_dims as usize != nd || (map.num_dims + map.num_syms) as usize != uses.len() {
            return self.err_at(
                sp,
                format!(
                    "the map takes {} dimensions and {} symbols but is given {} and {}",
                    map.num_dims,
                    map.num_syms,
                    nd,
                    uses.len() - nd
                ),
            );
        }
        if map.results.is_empty() {
            return self.err_at(sp, "affine_apply needs a map with at least one result");
        }
        let mut operands = Vec::new();
        for u in &uses {
            operands.push(self.resolve(*u, idx)?);
        }
        let mut ops = Vec::new();
        for e in &map.results {
            let one = AffineMap { num_dims: map.num_dims, num_syms: map.num_syms, results: vec![e.clone()] };
            let a = self.m.ctx.attr(Attribute::AffineMap(one));
            let mut st = self.build(OpKind::AffineApply, span, operands.clone(), vec![idx]);
            self.set_attr(&mut st, "map", a);
            ops.push(self.create_op(st, None));
        }
        let values = ops.iter().map(|o| ValueId(self.m.op(*o).results.start)).collect();
        let last = ops.pop().unwrap_or(OpId(0));
        self.pending.extend(ops);
        Ok((last, values))
    }

    /// `dim %A, N : T`: `memref.dim` or `tensor.dim` of an index constant.
    fn parse_dim_2019(&mut self, span: Span) -> PResult<OpId> {
        let idx = self.m.ctx.index_type();
        let src = self.parse_use_name()?;
        self.expect(Tok::Comma, "','")?;
        let n = self.parse_i64()?;
        let ts = self.tok.span;
        let t = self.colon_type()?;
        let kind = match self.m.ctx.type_kind(t) {
            TypeKind::MemRef { .. } | TypeKind::UnrankedMemRef { .. } => OpKind::MemrefDim,
            TypeKind::RankedTensor { .. } | TypeKind::UnrankedTensor { .. } => OpKind::TensorDim,
            _ => return self.err_at(ts, "'dim' takes a memref or tensor"),
        };
        let v = self.resolve(src, t)?;
        let c = self.index_constant(n, span);
        let st = self.build(kind, span, vec![v, c], vec![idx]);
        Ok(self.create_op(st, None))
    }

    /// `alloc(%d..)[%s..] : memref<..>` (the grammar's form, today's too)
    /// or `alloc memref<..> (%d..)[%s..]` (the form of most of the
    /// document's examples): `memref.alloc`.
    fn parse_alloc_2019(&mut self, span: Span) -> PResult<OpId> {
        let name_span = Span::new(span.start as usize, span.start as usize);
        if self.is(Tok::LParen) {
            return self.parse_custom_as(OpKind::MemrefAlloc, span, 1, name_span, "alloc");
        }
        if !self.is_kw("memref") {
            return self.err_here("expected '(' (`alloc(%d)[%s] : memref<..>`) or a memref type after 'alloc'");
        }
        let idx = self.m.ctx.index_type();
        let t = self.parse_type()?;
        let dyns = if self.is(Tok::LParen) { self.parse_paren_operands()? } else { Vec::new() };
        let mut syms = Vec::new();
        if self.eat(Tok::LSquare)? {
            syms = self.operand_list_until(Tok::RSquare)?;
        }
        let mut st = self.build(OpKind::MemrefAlloc, span, Vec::new(), vec![t]);
        let n = (dyns.len(), syms.len());
        let all: Vec<UseName> = dyns.into_iter().chain(syms).collect();
        self.resolve_uniform(&mut st, &all, idx)?;
        let seg = self.segments(&[n.0, n.1]);
        self.set_attr(&mut st, "operandSegmentSizes", seg);
        Ok(self.create_op(st, None))
    }

    /// `reshape %m : T (%d..)[%s..] : U` (the grammar's form): the data of
    /// `%m` refactored into the shape of `U`, `%d` sizing its dynamic
    /// dimensions. Today's `memref.reshape` takes the shape as a memref,
    /// built here on the stack; both types must have the identity layout
    /// (a layout with symbols `%s` would bind is not supported).
    fn parse_reshape_2019(&mut self, span: Span) -> PResult<OpId> {
        let idx = self.m.ctx.index_type();
        let src = self.parse_use_name()?;
        let st_span = self.tok.span;
        let src_ty = self.colon_type()?;
        let (dyns, nd) = if self.is(Tok::LParen) { self.dim_and_symbol_list()? } else { (Vec::new(), 0) };
        if dyns.len() > nd {
            return self.err_at(dyns[nd].span, "reshape to a memref whose layout binds symbols is not supported");
        }
        if self.is_kw("to") {
            return self.err_here(
                "expected ':' and the result type: 2019 'reshape' is `reshape %m : T (%d)[%s] : U` \
                 (the document's example writes `to (T -> U)`)",
            );
        }
        let dt_span = self.tok.span;
        let dst_ty = self.colon_type()?;
        for (t, at) in [(src_ty, st_span), (dst_ty, dt_span)] {
            match self.m.ctx.type_kind(t) {
                TypeKind::MemRef { layout: None, .. } => {}
                TypeKind::MemRef { .. } => {
                    return self.err_at(at, "reshape of a memref with a layout map is not supported (only row-major)")
                }
                _ => return self.err_at(at, "expected a memref type"),
            }
        }
        let TypeKind::MemRef { shape, .. } = self.m.ctx.type_kind(dst_ty).clone() else {
            return self.err_at(dt_span, "expected a memref type");
        };
        let ndyn = shape.iter().filter(|d| **d == crate::types::DYNAMIC).count();
        if ndyn != dyns.len() {
            return self.err_at(dt_span, format!("{} dynamic sizes given for {ndyn} dynamic dimensions", dyns.len()));
        }
        let source = self.resolve(src, src_ty)?;
        let mut dyn_vals = Vec::new();
        for u in &dyns {
            dyn_vals.push(self.resolve(*u, idx)?);
        }
        let shape_ty =
            self.m.ctx.ty(TypeKind::MemRef { shape: vec![shape.len() as i64], elem: idx, layout: None, space: None });
        let seg = self.segments(&[0, 0]);
        let shape_mem =
            self.emit_value(OpKind::MemrefAlloca, span, Vec::new(), shape_ty, &[("operandSegmentSizes", seg)]);
        let mut dyn_vals = dyn_vals.into_iter();
        for (k, d) in shape.iter().enumerate() {
            let size = match *d {
                crate::types::DYNAMIC => match dyn_vals.next() {
                    Some(v) => v,
                    None => return self.err_at(dt_span, "fewer dynamic sizes than dynamic dimensions"),
                },
                d => self.index_constant(d, span),
            };
            let at = self.index_constant(k as i64, span);
            self.emit(OpKind::MemrefStore, span, vec![size, shape_mem, at], Vec::new(), &[]);
        }
        let st = self.build(OpKind::MemrefReshape, span, vec![source, shape_mem], vec![dst_ty]);
        Ok(self.create_op(st, None))
    }

    /// `view U (%d..)[%s..] %A : T` (the grammar) or `view T -> U (..)[..]
    /// %A : T` (the document's example): `%A`'s buffer seen through the
    /// index map of `U`'s layout, which sends the view's indices to `%A`'s
    /// (the symbols `%s` bound, the dynamic sizes `%d`). Today's memrefs
    /// cannot carry such a map, so the view becomes a
    /// `memref.reinterpret_cast` of `%A` to `U`'s shape with the strides and
    /// offset the map composed with `%A`'s layout gives (all dynamic,
    /// `strided<[?, ..], offset: ?>`); later ops may still name it by `U`.
    /// The map must be linear in the dims with constant coefficients and
    /// `%A`'s layout strided. "A view is only defined when its index map
    /// maps to a range contained in the base memref's index space": a
    /// `cf.assert` checks that before the cast.
    fn parse_view_2019(&mut self, span: Span) -> PResult<OpId> {
        let idx = self.m.ctx.index_type();
        let first_span = self.tok.span;
        let first = self.parse_type()?;
        let (written_src, view_span, view_ty) = if self.eat(Tok::Arrow)? {
            let sp = self.tok.span;
            (Some(first), sp, self.parse_type()?)
        } else {
            (None, first_span, first)
        };
        let (uses, nd) = self.dim_and_symbol_list()?;
        let src = self.parse_use_name()?;
        let src_span = self.tok.span;
        let src_ty = self.colon_type()?;
        if written_src.is_some_and(|w| w != src_ty) {
            return self.err_at(first_span, "the view's source type differs from the operand's type after ':'");
        }
        let TypeKind::MemRef { shape: src_shape, elem, space, .. } = self.m.ctx.type_kind(src_ty).clone() else {
            return self.err_at(src_span, "'view' takes a ranked memref");
        };
        let TypeKind::MemRef { shape, elem: velem, layout, space: vspace } = self.m.ctx.type_kind(view_ty).clone()
        else {
            return self.err_at(view_span, "a view's type is a ranked memref");
        };
        if velem != elem || vspace != space {
            return self.err_at(view_span, "a view has the element type and memory space of its source memref");
        }
        let map = match layout.map(|l| self.m.ctx.attr_kind(l).clone()) {
            None => AffineMap::identity(shape.len() as u32),
            Some(Attribute::AffineMap(m)) => m,
            Some(_) => {
                return self.err_at(view_span, "a view's layout is the affine map from its indices to its source's")
            }
        };
        let dyn_dims = shape.iter().filter(|d| **d == crate::types::DYNAMIC).count();
        if map.num_dims as usize != shape.len() || map.results.len() != src_shape.len() {
            return self.err_at(
                view_span,
                format!(
                    "the view's index map takes {} dimensions to {} indices; the view has rank {} and its source rank {}",
                    map.num_dims,
                    map.results.len(),
                    shape.len(),
                    src_shape.len()
                ),
            );
        }
        if nd != dyn_dims || uses.len() - nd != map.num_syms as usize {
            return self.err_at(
                view_span,
                format!(
                    "the view's type needs {dyn_dims} dynamic sizes and {} symbols, but is given {nd} and {}",
                    map.num_syms,
                    uses.len() - nd
                ),
            );
        }
        // A view of a view names its source by the 2019 type; its value has today's.
        let source = self.resolve(src, src_ty)?;
        if crate::layout::strides_and_offset(&self.m.ctx, self.m.value(source).ty).is_none() {
            return self.err_at(src_span, "a view of a memref whose layout is not strided is not supported");
        }
        let mut terms = Vec::new();
        for e in &map.results {
            match linear_in_dims(e, shape.len()) {
                Some(t) => terms.push(t),
                None => {
                    return self.err_at(
                        view_span,
                        "a view's index map must be linear in its dimensions with constant coefficients \
                         (it becomes strides); this one is not supported",
                    )
                }
            }
        }
        let mut operands = Vec::new();
        for u in &uses {
            operands.push(self.resolve(*u, idx)?);
        }
        let (dyns, syms) = operands.split_at(nd);
        // The source's offset, sizes and strides.
        let rank = src_shape.len();
        let base_ty = self.m.ctx.ty(TypeKind::MemRef { shape: Vec::new(), elem, layout: None, space });
        let mut meta_types = vec![base_ty];
        meta_types.extend(std::iter::repeat_n(idx, 1 + 2 * rank));
        let meta = self.emit(OpKind::MemrefExtractStridedMetadata, span, vec![source], meta_types, &[]);
        let r0 = self.m.op(meta).results.start;
        let base_off = ValueId(r0 + 1);
        let base_size = |r: usize| ValueId(r0 + 2 + r as u32);
        let base_stride = |r: usize| ValueId(r0 + 2 + (rank + r) as u32);
        // The view's sizes, and each index's value at the view's origin.
        let mut dyn_iter = dyns.iter();
        let mut sizes = Vec::new();
        for d in &shape {
            sizes.push(match *d {
                crate::types::DYNAMIC => *dyn_iter.next().expect("counted above"),
                d => self.index_constant(d, span),
            });
        }
        let origin: Vec<ValueId> =
            terms.iter().map(|(_, rest)| self.apply_2019(span, rest.clone(), syms.to_vec())).collect();
        // Defined only if every index the view reaches lies in the source.
        if !shape.contains(&0) {
            let mut ok: Option<ValueId> = None;
            for (r, (coef, _)) in terms.iter().enumerate() {
                let mut ops = vec![origin[r]];
                ops.extend(sizes.iter().copied());
                for low in [true, false] {
                    let mut e = AffineExpr::Sym(0);
                    for (k, a) in coef.iter().enumerate() {
                        let a = if low { (*a).min(0) } else { (*a).max(0) };
                        let last = sum(AffineExpr::Sym(k as u32 + 1), AffineExpr::Const(-1));
                        e = sum(e, scaled(last, a));
                    }
                    let bound = self.apply_2019(span, e, ops.clone());
                    let c = if low {
                        let zero = self.index_constant(0, span);
                        self.cmp_2019(span, "sge", bound, zero)
                    } else {
                        self.cmp_2019(span, "slt", bound, base_size(r))
                    };
                    ok = Some(match ok {
                        None => c,
                        Some(prev) => self.bool_2019(span, OpKind::ArithAndi, prev, c),
                    });
                }
            }
            if let Some(mut cond) = ok {
                let zero = if dyns.is_empty() { None } else { Some(self.index_constant(0, span)) };
                for (d, zero) in dyns.iter().zip(std::iter::repeat(zero).flatten()) {
                    let empty = self.cmp_2019(span, "eq", *d, zero);
                    cond = self.bool_2019(span, OpKind::ArithOri, cond, empty);
                }
                let msg = self.m.ctx.attr(Attribute::String {
                    value: b"2019 'view': its index map reaches outside the source memref's index space (undefined)"
                        .to_vec()
                        .into(),
                    ty: None,
                });
                self.emit(OpKind::CfAssert, span, vec![cond], Vec::new(), &[("msg", msg)]);
            }
        }
        // offset = base offset + sum_r base stride r * origin r.
        let mut offset = base_off;
        for (r, o) in origin.iter().enumerate() {
            let p = self.emit_value(OpKind::ArithMuli, span, vec![base_stride(r), *o], idx, &[]);
            offset = self.emit_value(OpKind::ArithAddi, span, vec![offset, p], idx, &[]);
        }
        // stride k = sum_r coefficient of d_k in index r * base stride r.
        let base_strides: Vec<ValueId> = (0..rank).map(base_stride).collect();
        let mut strides = Vec::new();
        for k in 0..shape.len() {
            let mut e = AffineExpr::Const(0);
            for (r, (coef, _)) in terms.iter().enumerate() {
                e = sum(e, scaled(AffineExpr::Sym(r as u32), coef[k]));
            }
            strides.push(self.apply_2019(span, e, base_strides.clone()));
        }
        let dynamic = crate::types::DYNAMIC;
        let layout = self.m.ctx.attr(Attribute::Strided { strides: vec![dynamic; shape.len()], offset: dynamic });
        let result_ty = self.m.ctx.ty(TypeKind::MemRef { shape: shape.clone(), elem, layout: Some(layout), space });
        let mut cast_operands = vec![source, offset];
        cast_operands.extend(dyns.iter().copied());
        cast_operands.extend(strides.iter().copied());
        let mut st = self.build(OpKind::MemrefReinterpretCast, span, cast_operands, vec![result_ty]);
        self.put_static_lists(
            &mut st,
            &[
                ("static_offsets", &[dynamic]),
                ("static_sizes", &shape),
                ("static_strides", &vec![dynamic; shape.len()]),
            ],
        );
        let seg = self.segments(&[1, 1, nd, shape.len()]);
        self.set_attr(&mut st, "operandSegmentSizes", seg);
        let op = self.create_op(st, None);
        self.views_2019.insert(ValueId(self.m.op(op).results.start), view_ty);
        Ok(op)
    }

    /// An op placed before the one being parsed, with attributes `attrs`.
    fn emit(
        &mut self,
        kind: OpKind,
        span: Span,
        operands: Vec<ValueId>,
        result_types: Vec<TypeId>,
        attrs: &[(&str, AttrId)],
    ) -> OpId {
        let mut st = self.build(kind, span, operands, result_types);
        for (n, a) in attrs {
            self.set_attr(&mut st, n, *a);
        }
        let op = self.create_op(st, None);
        self.pending.push(op);
        op
    }

    /// The one result of an op placed before the one being parsed.
    fn emit_value(
        &mut self,
        kind: OpKind,
        span: Span,
        operands: Vec<ValueId>,
        ty: TypeId,
        attrs: &[(&str, AttrId)],
    ) -> ValueId {
        let op = self.emit(kind, span, operands, vec![ty], attrs);
        ValueId(self.m.op(op).results.start)
    }

    /// `affine.apply ()[operands] -> (e)` (an index constant if `e` is one).
    fn apply_2019(&mut self, span: Span, e: AffineExpr, operands: Vec<ValueId>) -> ValueId {
        if let AffineExpr::Const(c) = e {
            return self.index_constant(c, span);
        }
        let idx = self.m.ctx.index_type();
        let map = AffineMap { num_dims: 0, num_syms: operands.len() as u32, results: vec![e] };
        let a = self.m.ctx.attr(Attribute::AffineMap(map));
        self.emit_value(OpKind::AffineApply, span, operands, idx, &[("map", a)])
    }

    /// `arith.cmpi PRED, a, b : index`.
    fn cmp_2019(&mut self, span: Span, pred: &str, a: ValueId, b: ValueId) -> ValueId {
        let n = crate::ops::CMPI_PREDICATES.iter().position(|p| *p == pred).expect("a cmpi predicate");
        let i64t = self.m.ctx.int_type(64);
        let i1 = self.m.ctx.int_type(1);
        let p = self.m.ctx.attr(Attribute::Integer { value: IntVal::Small(n as i128), ty: i64t });
        self.emit_value(OpKind::ArithCmpi, span, vec![a, b], i1, &[("predicate", p)])
    }

    /// `arith.andi` / `arith.ori` of two i1 values.
    fn bool_2019(&mut self, span: Span, kind: OpKind, a: ValueId, b: ValueId) -> ValueId {
        let i1 = self.m.ctx.int_type(1);
        self.emit_value(kind, span, vec![a, b], i1, &[])
    }

    /// `alloc_static(ADDR) : memref<..>`: a `memref.alloc`; the fixed base
    /// address has no meaning to an interpreter and is kept as the
    /// discardable attribute `lang2019.alloc_static`.
    fn parse_alloc_static_2019(&mut self, span: Span) -> PResult<OpId> {
        self.expect(Tok::LParen, "'('")?;
        let i64t = self.m.ctx.int_type(64);
        let addr = self.parse_attribute(Some(i64t))?;
        self.expect(Tok::RParen, "')'")?;
        let ts = self.tok.span;
        let t = self.colon_type()?;
        match self.m.ctx.type_kind(t) {
            TypeKind::MemRef { shape, .. } if shape.iter().all(|d| *d >= 0) => {}
            _ => return self.err_at(ts, "'alloc_static' takes a memref type of static shape"),
        }
        let mut st = self.build(OpKind::MemrefAlloc, span, Vec::new(), vec![t]);
        let seg = self.segments(&[0, 0]);
        self.set_attr(&mut st, "operandSegmentSizes", seg);
        self.set_attr(&mut st, "lang2019.alloc_static", addr);
        Ok(self.create_op(st, None))
    }

    /// `extract_element %v[%i..] : T`: `tensor.extract` of a tensor (of a
    /// `tensor.cast` to the indices' rank if unranked), `vector.extract`
    /// (dynamic positions) of a vector.
    fn parse_extract_element_2019(&mut self, span: Span) -> PResult<OpId> {
        let idx = self.m.ctx.index_type();
        let src = self.parse_use_name()?;
        let ids = self.bracket_operands()?;
        let ts = self.tok.span;
        let t = self.colon_type()?;
        let (kind, elem) = match self.m.ctx.type_kind(t) {
            TypeKind::RankedTensor { elem, .. } | TypeKind::UnrankedTensor { elem } => (OpKind::TensorExtract, *elem),
            TypeKind::Vector { elem, .. } => (OpKind::VectorExtract, *elem),
            _ => return self.err_at(ts, "'extract_element' takes a tensor or vector"),
        };
        let mut v = self.resolve(src, t)?;
        if matches!(self.m.ctx.type_kind(t), TypeKind::UnrankedTensor { .. }) {
            // Today's tensor.extract takes a ranked tensor: cast to the rank
            // the indices give (checked when the cast runs).
            let shape = vec![crate::types::DYNAMIC; ids.len()];
            let ranked = self.m.ctx.ty(TypeKind::RankedTensor { shape, elem, encoding: None });
            v = self.emit_value(OpKind::TensorCast, span, vec![v], ranked, &[]);
        }
        let mut st = self.build(kind, span, vec![v], vec![elem]);
        self.resolve_uniform(&mut st, &ids, idx)?;
        if kind == OpKind::VectorExtract {
            let pos = self.i64_array(&vec![crate::types::DYNAMIC; ids.len()]);
            self.set_attr(&mut st, "static_position", pos);
        }
        Ok(self.create_op(st, None))
    }

    /// `tensor_load %m : memref<..>`: `bufferization.to_tensor` (a copy of
    /// the data as a tensor value).
    fn parse_tensor_load_2019(&mut self, span: Span) -> PResult<OpId> {
        let m = self.parse_use_name()?;
        let ts = self.tok.span;
        let mt = self.colon_type()?;
        let tt = self.tensor_of(mt, ts)?;
        let v = self.resolve(m, mt)?;
        let st = self.build(OpKind::BufferizationToTensor, span, vec![v], vec![tt]);
        Ok(self.create_op(st, None))
    }

    /// `tensor_store %t, %m : memref<..>`: `bufferization.materialize_in_destination`
    /// into a writable memref.
    fn parse_tensor_store_2019(&mut self, span: Span) -> PResult<OpId> {
        let t = self.parse_use_name()?;
        if self.is_kw("to") {
            return self.err_here(
                "expected ',': 2019 'tensor_store' is `tensor_store %tensor, %memref : memref<..>` (the document's first example writes `to`)",
            );
        }
        self.expect(Tok::Comma, "','")?;
        let m = self.parse_use_name()?;
        let ts = self.tok.span;
        let mt = self.colon_type()?;
        let tt = self.tensor_of(mt, ts)?;
        let tv = self.resolve(t, tt)?;
        let mv = self.resolve(m, mt)?;
        let mut st = self.build(OpKind::BufferizationMaterializeInDestination, span, vec![tv, mv], Vec::new());
        let unit = self.m.ctx.attr(Attribute::Unit);
        self.set_prop(&mut st, "writable", unit);
        Ok(self.create_op(st, None))
    }

    /// The tensor type of memref type `mt` (reported at `at` if not one).
    fn tensor_of(&mut self, mt: TypeId, at: Span) -> PResult<TypeId> {
        match self.m.ctx.type_kind(mt).clone() {
            TypeKind::MemRef { shape, elem, .. } => {
                Ok(self.m.ctx.ty(TypeKind::RankedTensor { shape, elem, encoding: None }))
            }
            _ => self.err_at(at, "expected a memref type"),
        }
    }

    // ---- hooks of the shared parser ----------------------------------------

    /// A memory space written as a bare name (`hbm`, `vmem`), as the 2019
    /// document allows "until target dialects exist": a string attribute.
    pub(super) fn memory_space_id_2019(&mut self) -> PResult<Option<AttrId>> {
        const ATTR_KEYWORDS: &[&str] =
            &["affine_map", "affine_set", "strided", "dense", "array", "unit", "true", "false", "loc", "distinct"];
        if !self.lang2019 || !self.is(Tok::BareId) || ATTR_KEYWORDS.contains(&self.spelling()) {
            return Ok(None);
        }
        let value: Box<[u8]> = self.spelling().as_bytes().into();
        self.bump()?;
        Ok(Some(self.m.ctx.attr(Attribute::String { value, ty: None })))
    }

    /// `size (e, min(e, e), ..)` after a 2019 map: the bounds of its range.
    /// Today's maps have no sizes, so the clause is checked and dropped.
    pub(super) fn parse_size_clause_2019(&mut self, names: &[(String, AffineExpr)]) -> PResult<()> {
        self.bump()?;
        self.comma_list(Tok::LParen, Tok::RParen, "in size list", |p| {
            let sp = p.tok.span;
            let e = if p.eat_kw("min")? {
                let mut first = None;
                p.comma_list(Tok::LParen, Tok::RParen, "in min list", |p| {
                    let e = p.parse_affine_expr(names)?;
                    first.get_or_insert(e);
                    Ok(())
                })?;
                first.unwrap_or(AffineExpr::Const(0))
            } else {
                p.parse_affine_expr(names)?
            };
            if !e.is_symbolic() {
                return p.err_at(sp, "a `size` bound may use only symbols and constants");
            }
            Ok(())
        })
    }

    /// `floordiv(e, c)` / `ceildiv(e, c)`: the 2019 function spelling of
    /// the infix operators (the current token is the name).
    pub(super) fn parse_div_call_2019(&mut self, names: &[(String, AffineExpr)]) -> PResult<AffineExpr> {
        let floor = self.is_kw("floordiv");
        let at = self.tok.span;
        self.bump()?;
        self.expect(Tok::LParen, "'('")?;
        let a = self.parse_affine_expr(names)?;
        self.expect(Tok::Comma, "','")?;
        let b = self.parse_affine_expr(names)?;
        self.expect(Tok::RParen, "')'")?;
        if !b.is_symbolic() {
            let w = if floor { "floordiv" } else { "ceildiv" };
            return self.err_at(
                at,
                format!("non-affine expression: right operand of {w} has to be either a constant or symbolic"),
            );
        }
        let (a, b) = (Box::new(a), Box::new(b));
        Ok(if floor { AffineExpr::FloorDiv(a, b) } else { AffineExpr::CeilDiv(a, b) })
    }

    /// `open elem (, elem)* close`, or with no delimiters (`None`) as long
    /// as commas follow: 2019 integer sets list constraints either way.
    pub(super) fn list_2019(
        &mut self,
        open: Option<Tok>,
        close: Option<Tok>,
        mut f: impl FnMut(&mut Self) -> PResult<()>,
    ) -> PResult<()> {
        if let (Some(o), Some(c)) = (open, close) {
            return self.comma_list(o, c, "in integer set constraint list", f);
        }
        loop {
            f(self)?;
            if !self.eat(Tok::Comma)? {
                return Ok(());
            }
        }
    }
}

/// `e` as `sum_k coef[k] * d_k + rest` with constant coefficients and a
/// `rest` of symbols and constants; `None` when a dim is multiplied by a
/// symbol or another dim, or sits under `mod`/`floordiv`/`ceildiv`.
fn linear_in_dims(e: &AffineExpr, ndims: usize) -> Option<(Vec<i64>, AffineExpr)> {
    if e.is_symbolic() {
        return Some((vec![0; ndims], e.clone()));
    }
    match e {
        AffineExpr::Dim(d) => {
            let mut coef = vec![0; ndims];
            *coef.get_mut(*d as usize)? = 1;
            Some((coef, AffineExpr::Const(0)))
        }
        AffineExpr::Add(a, b) => {
            let (ca, ra) = linear_in_dims(a, ndims)?;
            let (cb, rb) = linear_in_dims(b, ndims)?;
            let coef = ca.iter().zip(&cb).map(|(x, y)| x.checked_add(*y)).collect::<Option<Vec<i64>>>()?;
            Some((coef, sum(ra, rb)))
        }
        AffineExpr::Mul(a, b) => {
            let (c, other) = match (&**a, &**b) {
                (AffineExpr::Const(c), x) | (x, AffineExpr::Const(c)) => (*c, x),
                _ => return None,
            };
            let (co, ro) = linear_in_dims(other, ndims)?;
            let coef = co.iter().map(|x| x.checked_mul(c)).collect::<Option<Vec<i64>>>()?;
            Some((coef, scaled(ro, c)))
        }
        _ => None,
    }
}

/// `a + b`, without adding a zero.
fn sum(a: AffineExpr, b: AffineExpr) -> AffineExpr {
    match (a, b) {
        (AffineExpr::Const(0), e) | (e, AffineExpr::Const(0)) => e,
        (a, b) => AffineExpr::Add(Box::new(a), Box::new(b)),
    }
}

/// `e * c`, without multiplying by 0 or 1.
fn scaled(e: AffineExpr, c: i64) -> AffineExpr {
    match c {
        0 => AffineExpr::Const(0),
        1 => e,
        c => AffineExpr::Mul(Box::new(e), Box::new(AffineExpr::Const(c))),
    }
}

#[cfg(test)]
mod tests {
    use super::detect_2019;

    #[test]
    fn detects_what_only_2019_has() {
        assert!(detect_2019("func @f() {\n  return\n}\n").is_some());
        assert!(detect_2019("  func\t@f(i32)\n").is_some());
        assert!(detect_2019("#map = (d0)[s0] -> (d0 + s0)\n").is_some());
        assert!(detect_2019("#set = (d0) : (d0 >= 0)\n").is_some());
        assert!(detect_2019("#c = () -> (0)\n").is_some());
        assert!(detect_2019("#m =\n  (d0) -> (d0)\n").is_some());
    }

    #[test]
    fn leaves_todays_syntax_alone() {
        assert!(detect_2019("func.func @f() {\n  return\n}\n").is_none());
        assert!(detect_2019("#map = affine_map<(d0) -> (d0)>\n").is_none());
        assert!(detect_2019("#fn = (i32, f32) -> i32\n").is_none());
        assert!(detect_2019("#fn = () -> ()\n").is_none());
        assert!(detect_2019("#fn = () -> index\n").is_none());
        assert!(detect_2019("#t = (!llvm.ptr) -> ()\n").is_none());
        assert!(detect_2019("// func @f()\n").is_none());
    }
}
