//! The llvm dialect: its structured types (`!llvm.ptr`, `!llvm.array`,
//! `!llvm.struct`, `!llvm.void`, `!llvm.func`) and the custom forms of the
//! ops mlir-interp knows (globals, addresses, constants, GEP, load/store,
//! functions, calls, return), following LLVM 22's `LLVMOps.td` formats and
//! `LLVMDialect.cpp` parsers. Inside an llvm type, nested llvm types drop
//! their `!llvm.` prefix (`!llvm.array<2 x ptr>`), as in mlir-opt.

use super::{OpState, PResult, Parser};
use crate::attrs::{Attribute, IntVal};
use crate::diag::Span;
use crate::ir::RegionId;
use crate::lexer::Tok;
use crate::ops::{Fmt, OpKind};
use crate::types::{LlvmStructBody, TypeId, TypeKind};

/// The llvm type keywords with a structure here.
const STRUCTURED: &[&str] = &["ptr", "array", "struct", "void", "func"];

/// The other llvm type keywords, kept as text (`!llvm.token`).
const TEXTUAL: &[&str] = &["token", "label", "metadata", "ppc_fp128", "x86_amx", "target"];

/// Linkage keywords in `LLVM::Linkage` order.
pub const LINKAGES: &[&str] = &[
    "private",
    "internal",
    "available_externally",
    "linkonce",
    "weak",
    "common",
    "appending",
    "extern_weak",
    "linkonce_odr",
    "weak_odr",
    "external",
];

/// Calling conventions accepted by `llvm.func` and `llvm.call` (the
/// spellings of `LLVM::CConv` most programs use).
const CCONVS: &[&str] = &[
    "ccc",
    "fastcc",
    "coldcc",
    "cc_10",
    "cc_11",
    "webkit_jscc",
    "anyregcc",
    "preserve_mostcc",
    "preserve_allcc",
    "swiftcc",
    "cxx_fast_tlscc",
    "tailcc",
    "cfguard_checkcc",
    "swifttailcc",
    "x86_stdcallcc",
    "x86_fastcallcc",
    "arm_apcscc",
    "arm_aapcscc",
    "arm_aapcs_vfpcc",
    "msp430_intrcc",
    "x86_thiscallcc",
    "ptx_kernelcc",
    "ptx_devicecc",
    "spir_funccc",
    "spir_kernelcc",
    "intel_ocl_bicc",
    "x86_64_sysvcc",
    "win64cc",
    "x86_vectorcallcc",
    "hhvm_ccc",
    "x86_intrcc",
    "amdgpu_kernelcc",
];

/// Visibility keywords by their `visibility_` value.
const VISIBILITIES: &[&str] = &["default", "hidden", "protected"];

/// `unnamed_addr` keywords by their `unnamed_addr` value (0 is none).
const UNNAMED_ADDR: &[&str] = &["", "local_unnamed_addr", "unnamed_addr"];

/// `noWrapFlags` bits of `llvm.getelementptr`.
pub const GEP_INBOUNDS_FLAG: i64 = 1;
/// `nusw`.
pub const GEP_NUSW: i64 = 2;
/// `nuw`.
pub const GEP_NUW: i64 = 4;

/// The `rawConstantIndices` marker of a dynamic GEP index.
pub const GEP_DYNAMIC: i64 = i32::MIN as i64;

/// True for the llvm type keywords kept as text.
pub(super) fn is_textual(kw: &str) -> bool {
    TEXTUAL.contains(&kw)
}

/// True for the llvm type keywords parsed into a structure.
pub(super) fn is_structured(kw: &str) -> bool {
    STRUCTURED.contains(&kw)
}

impl<'a> Parser<'a> {
    /// Parses the rest of `!llvm.<kw>` (the `!llvm.kw` token at `span` is
    /// consumed), `kw` being one of [`STRUCTURED`].
    pub(super) fn parse_llvm_type_body(&mut self, kw: &str, span: Span) -> PResult<TypeId> {
        let t = self.parse_llvm_keyword_type(kw)?;
        if let TypeKind::LlvmStruct { body: LlvmStructBody::Recursive, .. } = self.m.ctx.type_kind(t) {
            // `struct<"a">` only refers back to an enclosing struct `a`.
            return self.err_at(span, "expected ',' after the name of an identified struct");
        }
        Ok(t)
    }

    /// A type nested in an llvm type: an llvm keyword type without prefix,
    /// or any other type.
    fn parse_llvm_nested(&mut self) -> PResult<TypeId> {
        self.nested(|p| {
            if p.is(Tok::BareId) {
                let kw = p.spelling();
                if STRUCTURED.contains(&kw) {
                    let kw = kw.to_string();
                    p.bump()?;
                    return p.parse_llvm_keyword_type(&kw);
                }
                if TEXTUAL.contains(&kw) {
                    return p.parse_llvm_textual();
                }
            }
            p.parse_type()
        })
    }

    /// `token`, `target<"x", 1>` nested in an llvm type: kept as text.
    fn parse_llvm_textual(&mut self) -> PResult<TypeId> {
        let mut body = format!(".{}", self.spelling());
        let end = self.tok_end();
        if self.text.as_bytes().get(end) == Some(&b'<') {
            self.lexer().reset(end + 1);
            let close = self.lexer().skip_dialect_body(end)?;
            body.push_str(&self.text[end..close]);
            self.reset_to(close)?;
        } else {
            self.bump()?;
        }
        let d = self.m.ctx.ident("llvm");
        Ok(self.m.ctx.ty(TypeKind::Dialect { dialect: d, body: body.into() }))
    }

    fn parse_llvm_keyword_type(&mut self, kw: &str) -> PResult<TypeId> {
        let kind = match kw {
            "void" => TypeKind::LlvmVoid,
            "ptr" => {
                let mut space = 0;
                if self.eat(Tok::Less)? {
                    space = self.llvm_u32("address space")?;
                    self.expect(Tok::Greater, "'>'")?;
                }
                TypeKind::LlvmPtr(space)
            }
            "array" => {
                self.expect(Tok::Less, "'<'")?;
                if !self.is(Tok::Integer) {
                    return self.err("expected integer");
                }
                let len = match self.spelling().parse::<u64>() {
                    Ok(n) => n,
                    Err(_) => return self.err("expected integer"),
                };
                self.bump()?;
                // `4 x i8`, or `4xi8` where `xi8` lexes as one identifier.
                if self.is_kw("x") {
                    self.bump()?;
                } else if self.is(Tok::BareId) && self.spelling().starts_with('x') {
                    let pos = self.tok.span.start as usize + 1;
                    self.reset_to(pos)?;
                } else {
                    return self.err("expected 'x' in dimension list");
                }
                let esp = self.tok.span;
                let elem = self.parse_llvm_nested()?;
                if matches!(self.m.ctx.type_kind(elem), TypeKind::LlvmVoid | TypeKind::LlvmFunc { .. })
                    || matches!(self.m.ctx.type_kind(elem), TypeKind::Function { .. })
                {
                    let t = self.type_str(elem);
                    return self.err_at(esp, format!("invalid array element type: {t}"));
                }
                self.expect(Tok::Greater, "'>'")?;
                TypeKind::LlvmArray { len, elem }
            }
            "struct" => self.parse_llvm_struct()?,
            "func" => {
                self.expect(Tok::Less, "'<'")?;
                let ret = self.parse_llvm_nested()?;
                self.expect(Tok::LParen, "'('")?;
                let mut params = Vec::new();
                let mut vararg = false;
                if !self.is(Tok::RParen) {
                    loop {
                        if self.eat(Tok::Ellipsis)? {
                            vararg = true;
                            break;
                        }
                        params.push(self.parse_llvm_nested()?);
                        if !self.eat(Tok::Comma)? {
                            break;
                        }
                    }
                }
                self.expect(Tok::RParen, "')'")?;
                self.expect(Tok::Greater, "'>'")?;
                TypeKind::LlvmFunc { ret, params, vararg }
            }
            _ => return self.err(format!("unknown llvm type keyword '{kw}'")),
        };
        Ok(self.m.ctx.ty(kind))
    }

    /// `struct<(T..)>`, `struct<packed (T..)>`, `struct<"n", (T..)>`,
    /// `struct<"n", opaque>` and, nested in struct `n`, `struct<"n">`.
    fn parse_llvm_struct(&mut self) -> PResult<TypeKind> {
        self.expect(Tok::Less, "'<'")?;
        let mut name = None;
        if self.is(Tok::String) {
            let n = crate::lexer::unescape(self.spelling());
            self.bump()?;
            name = Some(String::from_utf8_lossy(&n).into_owned().into_boxed_str());
            if self.eat(Tok::Greater)? {
                return Ok(TypeKind::LlvmStruct { name, packed: false, body: LlvmStructBody::Recursive });
            }
            self.expect(Tok::Comma, "','")?;
            if self.eat_kw("opaque")? {
                self.expect(Tok::Greater, "'>'")?;
                return Ok(TypeKind::LlvmStruct { name, packed: false, body: LlvmStructBody::Opaque });
            }
        }
        let packed = self.eat_kw("packed")?;
        let mut fields = Vec::new();
        self.expect(Tok::LParen, "'('")?;
        if !self.is(Tok::RParen) {
            loop {
                fields.push(self.parse_llvm_nested()?);
                if !self.eat(Tok::Comma)? {
                    break;
                }
            }
        }
        self.expect(Tok::RParen, "')'")?;
        self.expect(Tok::Greater, "'>'")?;
        Ok(TypeKind::LlvmStruct { name, packed, body: LlvmStructBody::Fields(fields) })
    }

    fn llvm_u32(&mut self, what: &str) -> PResult<u32> {
        if !self.is(Tok::Integer) {
            return self.err("expected integer value");
        }
        match self.spelling().parse::<u32>() {
            Ok(v) => {
                self.bump()?;
                Ok(v)
            }
            Err(_) => self.err(format!("invalid {what}")),
        }
    }
}

/// Load/store atomic orderings in `LLVM::AtomicOrdering` order (3 unused).
const ORDERINGS: &[&str] = &["not_atomic", "unordered", "monotonic", "", "acquire", "release", "acq_rel", "seq_cst"];

/// `llvm.atomicrmw` operations in `LLVM::AtomicBinOp` order (checked
/// against mlir-opt 22's generic form).
pub const ATOMIC_BIN_OPS: &[&str] = &[
    "xchg",
    "add",
    "sub",
    "_and",
    "nand",
    "_or",
    "_xor",
    "max",
    "min",
    "umax",
    "umin",
    "fadd",
    "fsub",
    "fmax",
    "fmin",
    "uinc_wrap",
    "udec_wrap",
    "usub_cond",
    "usub_sat",
    "fmaximum",
    "fminimum",
];

impl<'a> Parser<'a> {
    /// Parses the custom form of an llvm op.
    pub(crate) fn parse_llvm_family(
        &mut self,
        fmt: Fmt,
        kind: OpKind,
        st: &mut OpState,
        name_span: Span,
    ) -> PResult<()> {
        match fmt {
            Fmt::LlvmGlobal => self.parse_llvm_global(st, name_span),
            Fmt::LlvmFunc => self.parse_llvm_func(st),
            Fmt::LlvmCall => self.parse_llvm_call(st, name_span),
            Fmt::LlvmAddressof => {
                let g = self.parse_attribute(None)?;
                if !matches!(self.m.ctx.attr_kind(g), Attribute::SymbolRef { .. }) {
                    return self.custom_err("expected symbol reference");
                }
                self.set_attr(st, "global_name", g);
                self.parse_optional_attrs(st)?;
                st.result_types = vec![self.colon_type()?];
                Ok(())
            }
            Fmt::LlvmConstant => {
                self.expect(Tok::LParen, "'('")?;
                let v = self.parse_attribute(None)?;
                self.expect(Tok::RParen, "')'")?;
                self.set_attr(st, "value", v);
                self.parse_optional_attrs(st)?;
                st.result_types = vec![self.colon_type()?];
                Ok(())
            }
            Fmt::LlvmGep => self.parse_llvm_gep(st, name_span),
            Fmt::LlvmExtractElement | Fmt::LlvmInsertElement => {
                // Operands in the op's order: the vector, (the value,) the position.
                let value = if fmt == Fmt::LlvmInsertElement {
                    let u = self.parse_use_name()?;
                    self.expect(Tok::Comma, "','")?;
                    Some(u)
                } else {
                    None
                };
                let vector = self.parse_use_name()?;
                self.expect(Tok::LSquare, "'['")?;
                let pos = self.parse_use_name()?;
                let pos_ty = self.colon_type()?;
                self.expect(Tok::RSquare, "']'")?;
                self.parse_optional_attrs(st)?;
                let sp = self.tok.span;
                let vty = self.colon_type()?;
                let TypeKind::Vector { elem, .. } = *self.m.ctx.type_kind(vty) else {
                    return self.err_at(sp, "expected LLVM dialect-compatible vector type");
                };
                let v = self.resolve(vector, vty)?;
                st.operands.push(v);
                if let Some(u) = value {
                    let x = self.resolve(u, elem)?;
                    st.operands.push(x);
                }
                let p = self.resolve(pos, pos_ty)?;
                st.operands.push(p);
                st.result_types = vec![if value.is_some() { vty } else { elem }];
                Ok(())
            }
            Fmt::LlvmShuffle => {
                let uses = self.parse_n_operands(2)?;
                let mask = self.parse_attribute(None)?;
                let mask = self.i32_array_from_list(mask)?;
                let n = match self.m.ctx.attr_kind(mask) {
                    Attribute::DenseArray { values: crate::attrs::DenseValues::Ints(v), .. } => v.len() as i64,
                    _ => 0,
                };
                self.set_attr(st, "mask", mask);
                self.parse_optional_attrs(st)?;
                let sp = self.tok.span;
                let vty = self.colon_type()?;
                let TypeKind::Vector { elem, scalable, .. } = self.m.ctx.type_kind(vty).clone() else {
                    return self.err_at(sp, "expected LLVM dialect-compatible vector type");
                };
                self.resolve_all(st, &uses, &[vty, vty], name_span)?;
                let sc = vec![scalable.first().copied().unwrap_or(false)];
                st.result_types = vec![self.m.ctx.ty(TypeKind::Vector { shape: vec![n], scalable: sc, elem })];
                Ok(())
            }
            Fmt::LlvmLoad | Fmt::LlvmStore => {
                let volatile = self.eat_kw("volatile")?;
                let value = self.parse_leading_use(fmt == Fmt::LlvmStore)?;
                let addr = self.parse_use_name()?;
                let unit = self.m.ctx.attr(Attribute::Unit);
                if volatile {
                    self.set_attr(st, "volatile_", unit);
                }
                let mut ordering = 0;
                if self.eat_kw("atomic")? {
                    if self.eat_kw("syncscope")? {
                        self.expect(Tok::LParen, "'('")?;
                        let s = self.parse_attribute(None)?;
                        self.expect(Tok::RParen, "')'")?;
                        self.set_attr(st, "syncscope", s);
                    }
                    ordering = self.parse_enum_keyword("ordering", ORDERINGS)?;
                }
                let i64t = self.m.ctx.int_type(64);
                let o = self.m.ctx.attr(Attribute::Integer { value: IntVal::Small(ordering as i128), ty: i64t });
                self.set_attr(st, "ordering", o);
                if fmt == Fmt::LlvmLoad {
                    for (kw, attr) in [("invariant", "invariant"), ("invariant_group", "invariantGroup")] {
                        if self.eat_kw(kw)? {
                            self.set_attr(st, attr, unit);
                        }
                    }
                }
                self.parse_optional_attrs(st)?;
                self.expect(Tok::Colon, "':'")?;
                if let Some(v) = value {
                    let vt = self.parse_type()?;
                    self.expect(Tok::Comma, "','")?;
                    let pt = self.parse_type()?;
                    let v = self.resolve(v, vt)?;
                    let a = self.resolve(addr, pt)?;
                    st.operands = vec![v, a];
                } else {
                    let pt = self.parse_type()?;
                    self.expect(Tok::Arrow, "'->'")?;
                    let rt = self.parse_type()?;
                    let a = self.resolve(addr, pt)?;
                    st.operands = vec![a];
                    st.result_types = vec![rt];
                }
                Ok(())
            }
            Fmt::LlvmInsertValue | Fmt::LlvmExtractValue => {
                let value = self.parse_leading_use(fmt == Fmt::LlvmInsertValue)?;
                let container = self.parse_use_name()?;
                let pos = self.parse_llvm_position()?;
                self.parse_optional_attrs(st)?;
                let cty = self.colon_type()?;
                // mlir-opt reports these at the token after the type.
                let ety = match crate::verify::aggregate_element(&self.m.ctx, cty, &pos) {
                    Ok(t) => t,
                    Err(msg) => return self.custom_err(&msg),
                };
                let pa = self.i64_array(&pos);
                self.set_attr(st, "position", pa);
                let c = self.resolve(container, cty)?;
                st.operands.push(c);
                match value {
                    Some(v) => {
                        let v = self.resolve(v, ety)?;
                        st.operands.push(v);
                        st.result_types = vec![cty];
                    }
                    None => st.result_types = vec![ety],
                }
                Ok(())
            }
            Fmt::LlvmAlloca => {
                if self.eat_kw("inalloca")? {
                    let unit = self.m.ctx.attr(Attribute::Unit);
                    self.set_attr(st, "inalloca", unit);
                }
                let n = self.parse_use_name()?;
                self.expect_kw_custom("x")?;
                let et = self.parse_type()?;
                let ea = self.m.ctx.attr(Attribute::Type(et));
                self.set_attr(st, "elem_type", ea);
                self.parse_functional_tail(st, &[n], name_span)?;
                Ok(())
            }
            Fmt::LlvmSwitch => self.parse_llvm_switch(st),
            Fmt::LlvmAtomicRmw => {
                self.llvm_unit_keyword(st, "volatile", "volatile_")?;
                let sp = self.tok.span;
                let op = self.parse_enum_keyword("bin_op", ATOMIC_BIN_OPS)?;
                if ATOMIC_BIN_OPS[op].is_empty() {
                    return self.err_at(sp, "expected an atomic operation");
                }
                self.set_llvm_enum(st, "bin_op", op);
                let uses = self.parse_n_operands(2)?;
                self.llvm_syncscope(st)?;
                let o = self.parse_enum_keyword("ordering", ORDERINGS)?;
                self.set_llvm_enum(st, "ordering", o);
                self.parse_optional_attrs(st)?;
                self.expect(Tok::Colon, "':'")?;
                let pt = self.parse_type()?;
                self.expect(Tok::Comma, "','")?;
                let vt = self.parse_type()?;
                self.resolve_all(st, &uses, &[pt, vt], name_span)?;
                st.result_types = vec![vt];
                Ok(())
            }
            Fmt::LlvmCmpxchg => {
                self.llvm_unit_keyword(st, "weak", "weak")?;
                self.llvm_unit_keyword(st, "volatile", "volatile_")?;
                let uses = self.parse_n_operands(3)?;
                self.llvm_syncscope(st)?;
                let s = self.parse_enum_keyword("success_ordering", ORDERINGS)?;
                self.set_llvm_enum(st, "success_ordering", s);
                let f = self.parse_enum_keyword("failure_ordering", ORDERINGS)?;
                self.set_llvm_enum(st, "failure_ordering", f);
                self.parse_optional_attrs(st)?;
                self.expect(Tok::Colon, "':'")?;
                let pt = self.parse_type()?;
                self.expect(Tok::Comma, "','")?;
                let vt = self.parse_type()?;
                self.resolve_all(st, &uses, &[pt, vt, vt], name_span)?;
                let i1 = self.m.ctx.int_type(1);
                let body = crate::types::LlvmStructBody::Fields(vec![vt, i1]);
                st.result_types = vec![self.m.ctx.ty(TypeKind::LlvmStruct { name: None, packed: false, body })];
                Ok(())
            }
            Fmt::LlvmIntr | Fmt::LlvmIntrOperands => {
                let uses = if fmt == Fmt::LlvmIntr {
                    self.parse_paren_operands()?
                } else {
                    self.parse_optional_operand_list()?
                };
                self.parse_functional_tail(st, &uses, name_span)?;
                Ok(())
            }
            Fmt::LlvmIntrOperand => {
                let u = self.parse_use_name()?;
                self.parse_optional_attrs(st)?;
                let t = self.colon_type()?;
                let v = self.resolve(u, t)?;
                st.operands.push(v);
                Ok(())
            }
            Fmt::LlvmVaCopy => {
                let src = self.parse_use_name()?;
                self.expect_kw_custom("to")?;
                let dst = self.parse_use_name()?;
                self.parse_optional_attrs(st)?;
                self.expect(Tok::Colon, "':'")?;
                let dt = self.parse_type()?;
                self.expect(Tok::Comma, "','")?;
                let srct = self.parse_type()?;
                // Operands in the op's order: destination, then source.
                self.resolve_all(st, &[dst, src], &[dt, srct], name_span)?;
                Ok(())
            }
            Fmt::LlvmVaArg => {
                let u = self.parse_use_name()?;
                self.parse_functional_tail(st, &[u], name_span)?;
                Ok(())
            }
            Fmt::LlvmMaskedStore => {
                let uses = self.parse_n_operands(3)?;
                self.parse_optional_attrs(st)?;
                self.expect(Tok::Colon, "':'")?;
                let vt = self.parse_type()?;
                self.expect(Tok::Comma, "','")?;
                let mt = self.parse_type()?;
                self.expect_kw_custom("into")?;
                let pt = self.parse_type()?;
                // Operands in the op's order: value, address, mask.
                self.resolve_all(st, &uses, &[vt, pt, mt], name_span)?;
                Ok(())
            }
            Fmt::LlvmAssume => self.parse_llvm_assume(st, name_span),
            Fmt::LlvmXtors => {
                // LLVM 22: `ctors = [..], priorities = [..], data = [..]`;
                // before it, the same as an attribute dictionary.
                if !self.is(Tok::LBrace) {
                    let list = if kind == OpKind::LlvmGlobalCtors { "ctors" } else { "dtors" };
                    for (i, key) in [list, "priorities", "data"].into_iter().enumerate() {
                        if i > 0 {
                            self.expect(Tok::Comma, "','")?;
                        }
                        self.expect_kw_custom(key)?;
                        self.expect(Tok::Equal, "'='")?;
                        let a = self.parse_attribute(None)?;
                        self.set_attr(st, key, a);
                    }
                }
                self.parse_optional_attrs(st)
            }
            _ => self.err_at(name_span, format!("internal error: '{}' is not an llvm op", kind.name())),
        }
    }

    /// `[1, 0]`: an `insertvalue`/`extractvalue` position.
    fn parse_llvm_position(&mut self) -> PResult<Vec<i64>> {
        self.expect(Tok::LSquare, "'['")?;
        let mut pos = Vec::new();
        loop {
            let neg = self.eat(Tok::Minus)?;
            if !self.is(Tok::Integer) {
                return self.err("expected integer value");
            }
            let (_, v) = super::attrs_lit(neg, self.spelling());
            let v = if neg { -v } else { v };
            let Ok(v) = i64::try_from(v) else { return self.custom_err("integer value too large") };
            self.bump()?;
            pos.push(v);
            if !self.eat(Tok::Comma)? {
                break;
            }
        }
        self.expect(Tok::RSquare, "']'")?;
        Ok(pos)
    }

    /// An optional keyword that sets unit attribute `attr`.
    fn llvm_unit_keyword(&mut self, st: &mut OpState, kw: &str, attr: &str) -> PResult<()> {
        if self.eat_kw(kw)? {
            let unit = self.m.ctx.attr(Attribute::Unit);
            self.set_prop(st, attr, unit);
        }
        Ok(())
    }

    /// An optional `syncscope("name")`.
    fn llvm_syncscope(&mut self, st: &mut OpState) -> PResult<()> {
        if self.eat_kw("syncscope")? {
            self.expect(Tok::LParen, "'('")?;
            let s = self.parse_attribute(None)?;
            self.expect(Tok::RParen, "')'")?;
            self.set_attr(st, "syncscope", s);
        }
        Ok(())
    }

    /// An llvm enum stored as its `i64` index (an `ordering`, a `bin_op`).
    fn set_llvm_enum(&mut self, st: &mut OpState, attr: &str, n: usize) {
        let i64t = self.m.ctx.int_type(64);
        let a = self.m.ctx.attr(Attribute::Integer { value: IntVal::Small(n as i128), ty: i64t });
        self.set_prop(st, attr, a);
    }

    /// `llvm.switch %flag : i32, ^default(%a : T) [1: ^bb1(..), -5: ^bb2]`.
    fn parse_llvm_switch(&mut self, st: &mut OpState) -> PResult<()> {
        let flag = self.parse_use_name()?;
        let fty = self.colon_type()?;
        let f = self.resolve(flag, fty)?;
        st.operands.push(f);
        self.expect(Tok::Comma, "','")?;
        let (d, dops) = self.parse_successor_and_operands()?;
        st.successors.push(d);
        let ndefault = dops.len();
        st.operands.extend(dops);
        self.expect(Tok::LSquare, "'['")?;
        let (mut vals, mut segs) = (Vec::new(), Vec::new());
        if !self.is(Tok::RSquare) {
            loop {
                let neg = self.eat(Tok::Minus)?;
                if !self.is(Tok::Integer) {
                    return self.err("expected integer value");
                }
                let s = self.spelling().to_string();
                self.bump()?;
                vals.push(super::attrs_lit(neg, &s));
                self.expect(Tok::Colon, "':'")?;
                let (b, ops) = self.parse_successor_and_operands()?;
                st.successors.push(b);
                segs.push(ops.len());
                st.operands.extend(ops);
                if !self.eat(Tok::Comma)? {
                    break;
                }
            }
        }
        self.expect(Tok::RSquare, "']'")?;
        if !matches!(self.m.ctx.type_kind(fty), TypeKind::Integer { .. }) && !vals.is_empty() {
            return self.custom_err("switch flag must be an integer");
        }
        self.set_switch_cases(st, fty, vals, &segs, ndefault)?;
        self.parse_optional_attrs(st)
    }

    /// `llvm.intr.assume %c ["align"(%p, %n : !llvm.ptr, i64)] : i1`.
    fn parse_llvm_assume(&mut self, st: &mut OpState, name_span: Span) -> PResult<()> {
        let c = self.parse_use_name()?;
        let (mut uses, mut sizes, mut tags) = (vec![c], Vec::new(), Vec::new());
        let mut types = Vec::new();
        if self.eat(Tok::LSquare)? {
            loop {
                if !self.is(Tok::String) {
                    return self.err("expected string");
                }
                let tag = self.parse_attribute(None)?;
                tags.push(tag);
                self.expect(Tok::LParen, "'('")?;
                let bundle = self.parse_optional_operand_list()?;
                if !bundle.is_empty() {
                    self.expect(Tok::Colon, "':'")?;
                    let ts = self.parse_type_list_no_parens()?;
                    types.extend(ts);
                }
                self.expect(Tok::RParen, "')'")?;
                sizes.push(bundle.len());
                uses.extend(bundle);
                if !self.eat(Tok::Comma)? {
                    break;
                }
            }
            self.expect(Tok::RSquare, "']'")?;
        }
        self.parse_optional_attrs(st)?;
        let ct = self.colon_type()?;
        let mut all = vec![ct];
        all.extend(types);
        self.resolve_all(st, &uses, &all, name_span)?;
        let sz = self.segments(&sizes);
        self.set_attr(st, "op_bundle_sizes", sz);
        if !tags.is_empty() {
            let ta = self.m.ctx.attr(Attribute::Array(tags));
            self.set_attr(st, "op_bundle_tags", ta);
        }
        Ok(())
    }

    /// An optional keyword of `values`, stored as `#llvm.<what><kw>` under
    /// `attr`; `default` when absent.
    fn llvm_enum_keyword(
        &mut self,
        st: &mut OpState,
        attr: &str,
        what: &str,
        values: &[&str],
        default: &str,
    ) -> PResult<()> {
        let kw = match values.iter().find(|v| self.is_kw(v)) {
            Some(v) => {
                self.bump()?;
                *v
            }
            None => default,
        };
        let d = self.m.ctx.ident("llvm");
        let a = self.m.ctx.attr(Attribute::Dialect { dialect: d, body: format!(".{what}<{kw}>").into() });
        self.set_attr(st, attr, a);
        Ok(())
    }

    /// An optional keyword of `values` stored as its index, an `i64` under
    /// `attr` (visibility, unnamed_addr).
    fn llvm_index_keyword(&mut self, st: &mut OpState, attr: &str, values: &[&str]) -> PResult<()> {
        let n = match values.iter().position(|v| !v.is_empty() && self.is_kw(v)) {
            Some(n) => {
                self.bump()?;
                n
            }
            None => 0,
        };
        let i64t = self.m.ctx.int_type(64);
        let a = self.m.ctx.attr(Attribute::Integer { value: IntVal::Small(n as i128), ty: i64t });
        self.set_attr(st, attr, a);
        Ok(())
    }

    fn parse_llvm_global(&mut self, st: &mut OpState, name_span: Span) -> PResult<()> {
        self.llvm_enum_keyword(st, "linkage", "linkage", LINKAGES, "external")?;
        self.llvm_index_keyword(st, "visibility_", VISIBILITIES)?;
        let unit = self.m.ctx.attr(Attribute::Unit);
        if self.eat_kw("thread_local")? {
            self.set_attr(st, "thread_local_", unit);
        }
        self.llvm_index_keyword(st, "unnamed_addr", UNNAMED_ADDR)?;
        if self.eat_kw("constant")? {
            self.set_attr(st, "constant", unit);
        }
        let name = self.symbol_name()?;
        let na = self.m.ctx.attr(Attribute::String { value: name, ty: None });
        self.set_attr(st, "sym_name", na);
        self.expect(Tok::LParen, "'('")?;
        let mut value = None;
        if !self.is(Tok::RParen) {
            let v = self.parse_attribute(None)?;
            self.set_attr(st, "value", v);
            value = Some(v);
        }
        self.expect(Tok::RParen, "')'")?;
        if self.eat_kw("comdat")? {
            self.expect(Tok::LParen, "'('")?;
            let c = self.parse_attribute(None)?;
            self.expect(Tok::RParen, "')'")?;
            self.set_attr(st, "comdat", c);
        }
        self.parse_optional_attrs(st)?;
        let region = self.new_region();
        let ty = if self.eat(Tok::Colon)? {
            let t = self.parse_type()?;
            if self.is(Tok::LBrace) {
                self.fill_region(region)?;
            }
            t
        } else {
            // `@s("abc")`: a string global's type is an array of its bytes.
            let len = match value.map(|v| self.m.ctx.attr_kind(v)) {
                Some(Attribute::String { value, .. }) => value.len() as u64,
                _ => {
                    return self.err_at(
                        name_span,
                        format!("{}type can only be omitted for string globals", super::custom::CUSTOM_MARK),
                    )
                }
            };
            let i8t = self.m.ctx.int_type(8);
            self.m.ctx.ty(TypeKind::LlvmArray { len, elem: i8t })
        };
        let ta = self.m.ctx.attr(Attribute::Type(ty));
        self.set_attr(st, "global_type", ta);
        st.regions.push(region);
        Ok(())
    }

    /// Parses `{ .. }` (isolated, no arguments) into the blocks of `region`.
    fn fill_region(&mut self, region: RegionId) -> PResult<()> {
        let saved = std::mem::take(&mut self.default_dialect);
        let r = self.parse_region(&[], true);
        self.default_dialect = saved;
        let parsed = r?;
        let blocks = std::mem::take(&mut self.m.regions[parsed.0 as usize].blocks);
        for b in &blocks {
            self.m.blocks[b.0 as usize].parent = Some(region);
        }
        self.m.regions[region.0 as usize].blocks = blocks;
        Ok(())
    }

    fn parse_llvm_func(&mut self, st: &mut OpState) -> PResult<()> {
        self.llvm_enum_keyword(st, "linkage", "linkage", LINKAGES, "external")?;
        self.llvm_index_keyword(st, "visibility_", VISIBILITIES)?;
        self.llvm_index_keyword(st, "unnamed_addr", UNNAMED_ADDR)?;
        self.llvm_enum_keyword(st, "CConv", "cconv", CCONVS, "ccc")?;
        if !self.is(Tok::AtId) {
            return self.custom_err("expected valid '@'-identifier for symbol name");
        }
        let name = self.symbol_name()?;
        let na = self.m.ctx.attr(Attribute::String { value: name, ty: None });
        self.set_attr(st, "sym_name", na);
        let sig = self.parse_function_signature(true)?;
        if sig.results.len() > 1 {
            return self.custom_err("failed to construct function type: expected zero or one function result");
        }
        let ret = match sig.results.first() {
            Some(t) => *t,
            None => self.m.ctx.ty(TypeKind::LlvmVoid),
        };
        let ft = self.m.ctx.ty(TypeKind::LlvmFunc { ret, params: sig.inputs.clone(), vararg: sig.vararg });
        let fa = self.m.ctx.attr(Attribute::Type(ft));
        self.set_attr(st, "function_type", fa);
        self.parse_function_rest(st, sig, None)
    }

    fn parse_llvm_call(&mut self, st: &mut OpState, name_span: Span) -> PResult<()> {
        self.llvm_enum_keyword(st, "CConv", "cconv", CCONVS, "ccc")?;
        self.llvm_enum_keyword(st, "TailCallKind", "tailcallkind", &["none", "tail", "musttail", "notail"], "none")?;
        let mut callee_use = None;
        if self.is(Tok::AtId) {
            let c = self.parse_attribute(None)?;
            self.set_attr(st, "callee", c);
        } else {
            callee_use = Some(self.parse_use_name()?);
        }
        let uses = self.parse_paren_operands()?;
        if self.eat_kw("vararg")? {
            self.expect(Tok::LParen, "'('")?;
            let t = self.parse_type()?;
            self.expect(Tok::RParen, "')'")?;
            let a = self.m.ctx.attr(Attribute::Type(t));
            self.set_attr(st, "var_callee_type", a);
        }
        if self.is(Tok::LSquare) {
            return self.custom_err("operand bundles are not supported by mlir-interp");
        }
        self.parse_optional_attrs(st)?;
        self.expect(Tok::Colon, "':'")?;
        if let Some(c) = callee_use {
            let pt = self.parse_type()?;
            self.expect(Tok::Comma, "','")?;
            let v = self.resolve(c, pt)?;
            st.operands.push(v);
        }
        let (ins, outs) = self.parse_function_signature_types()?;
        self.resolve_all(st, &uses, &ins, name_span)?;
        if outs.len() > 1 {
            return self.custom_err("expected function with 0 or 1 result");
        }
        st.result_types = outs;
        let n = st.operands.len();
        let seg = self.segments(&[n, 0]);
        self.set_attr(st, "operandSegmentSizes", seg);
        let i32t = self.m.ctx.int_type(32);
        let empty =
            self.m.ctx.attr(Attribute::DenseArray { elem: i32t, values: crate::attrs::DenseValues::Ints(Vec::new()) });
        self.set_attr(st, "op_bundle_sizes", empty);
        Ok(())
    }

    /// The `noWrapFlags` bits of the current keyword, if it is a GEP flag.
    fn gep_flag(&self) -> Option<i64> {
        if !self.is(Tok::BareId) {
            return None;
        }
        match self.spelling() {
            "inbounds" => Some(GEP_INBOUNDS_FLAG | GEP_NUSW),
            "inbounds_flag" => Some(GEP_INBOUNDS_FLAG),
            "nusw" => Some(GEP_NUSW),
            "nuw" => Some(GEP_NUW),
            "none" => Some(0),
            _ => None,
        }
    }

    fn parse_llvm_gep(&mut self, st: &mut OpState, name_span: Span) -> PResult<()> {
        // `inbounds|nuw`: flag keywords joined by `|`.
        let mut flags = 0i64;
        while let Some(bit) = self.gep_flag() {
            self.bump()?;
            flags |= bit;
            if !self.eat(Tok::VerticalBar)? {
                break;
            }
        }
        let i32t = self.m.ctx.int_type(32);
        let fa = self.m.ctx.attr(Attribute::Integer { value: IntVal::Small(flags as i128), ty: i32t });
        // An enum property, not an attribute: mlir-opt takes it only from `<{..}>`.
        self.set_prop(st, "noWrapFlags", fa);
        let base = self.parse_use_name()?;
        self.expect(Tok::LSquare, "'['")?;
        let mut raw = Vec::new();
        let mut dyns = Vec::new();
        loop {
            if self.is(Tok::PercentId) {
                dyns.push(self.parse_use_name()?);
                raw.push(GEP_DYNAMIC);
            } else {
                let neg = self.eat(Tok::Minus)?;
                if !self.is(Tok::Integer) {
                    return self.err("expected SSA operand");
                }
                let (_, v) = super::attrs_lit(neg, self.spelling());
                let v = if neg { -v } else { v };
                let v = match i32::try_from(v) {
                    Ok(v) if v != i32::MIN => v,
                    _ => return self.custom_err("constant GEP index does not fit in 32 bits"),
                };
                self.bump()?;
                raw.push(i64::from(v));
            }
            if !self.eat(Tok::Comma)? {
                break;
            }
        }
        self.expect(Tok::RSquare, "']'")?;
        self.parse_optional_attrs(st)?;
        self.expect(Tok::Colon, "':'")?;
        let (ins, outs) = self.parse_function_signature_types()?;
        let mut all = vec![base];
        all.extend(dyns);
        self.resolve_all(st, &all, &ins, name_span)?;
        st.result_types = outs;
        self.expect(Tok::Comma, "','")?;
        let et = self.parse_type()?;
        let ea = self.m.ctx.attr(Attribute::Type(et));
        self.set_attr(st, "elem_type", ea);
        let values = crate::attrs::DenseValues::Ints(raw.iter().map(|v| IntVal::Small(*v as i128)).collect());
        let ra = self.m.ctx.attr(Attribute::DenseArray { elem: i32t, values });
        self.set_attr(st, "rawConstantIndices", ra);
        Ok(())
    }
}
