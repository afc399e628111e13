//! Type parsing: every builtin type, aliases and opaque dialect types.

use super::{PResult, Parser};
use crate::attrs::Attribute;
use crate::lexer::Tok;
use crate::types::*;

/// MLIR's limit on integer widths.
const MAX_INT_WIDTH: u64 = 16_777_215;

impl<'a> Parser<'a> {
    /// Parses any type, including function types.
    pub fn parse_type(&mut self) -> PResult<TypeId> {
        if self.is(Tok::LParen) {
            return self.parse_function_type();
        }
        self.parse_non_function_type()
    }

    /// `(T, ..) -> T` or `(T, ..) -> (T, ..)`.
    pub fn parse_function_type(&mut self) -> PResult<TypeId> {
        self.nested(|p| {
            let inputs = p.parse_type_list_parens()?;
            p.expect(Tok::Arrow, "'->' in function type")?;
            let results = p.parse_function_result_types()?;
            Ok(p.m.ctx.ty(TypeKind::Function { inputs, results }))
        })
    }

    /// `(T, ..)` possibly empty.
    pub fn parse_type_list_parens(&mut self) -> PResult<Vec<TypeId>> {
        let mut v = Vec::new();
        self.comma_list(Tok::LParen, Tok::RParen, "in type list", |p| {
            v.push(p.parse_type()?);
            Ok(())
        })?;
        Ok(v)
    }

    /// Function results: one non-function type or a parenthesised list.
    pub fn parse_function_result_types(&mut self) -> PResult<Vec<TypeId>> {
        if self.is(Tok::LParen) {
            return self.parse_type_list_parens();
        }
        Ok(vec![self.parse_non_function_type()?])
    }

    /// A comma-separated list of types with no delimiters.
    pub fn parse_type_list_no_parens(&mut self) -> PResult<Vec<TypeId>> {
        let mut v = vec![self.parse_type()?];
        while self.eat(Tok::Comma)? {
            v.push(self.parse_type()?);
        }
        Ok(v)
    }

    /// Any type but a function type.
    pub fn parse_non_function_type(&mut self) -> PResult<TypeId> {
        self.nested(|p| p.parse_non_function_type_inner())
    }

    fn parse_non_function_type_inner(&mut self) -> PResult<TypeId> {
        match self.tok.kind {
            Tok::ExclId => return self.parse_dialect_or_alias_type(),
            Tok::BareId => {}
            _ => return self.err("expected non-function type"),
        }
        let s = self.spelling();
        let simple = match s {
            "index" => Some(TypeKind::Index),
            "none" => Some(TypeKind::None),
            _ => FloatKind::from_name(s).map(TypeKind::Float),
        };
        if let Some(k) = simple {
            self.bump()?;
            return Ok(self.m.ctx.ty(k));
        }
        if let Some(t) = self.try_integer_type()? {
            return Ok(t);
        }
        match s {
            "complex" => {
                self.bump()?;
                self.expect(Tok::Less, "'<' in complex type")?;
                let sp = self.tok.span;
                let e = self.parse_type()?;
                if !matches!(self.m.ctx.type_kind(e), TypeKind::Integer { .. } | TypeKind::Float(_)) {
                    return self.err_at(sp, "invalid element type for complex");
                }
                self.expect(Tok::Greater, "'>' in complex type")?;
                Ok(self.m.ctx.ty(TypeKind::Complex(e)))
            }
            "tuple" => {
                self.bump()?;
                self.expect(Tok::Less, "'<' in tuple type")?;
                let mut v = Vec::new();
                if !self.eat(Tok::Greater)? {
                    v = self.parse_type_list_no_parens()?;
                    self.expect(Tok::Greater, "'>' in tuple type")?;
                }
                Ok(self.m.ctx.ty(TypeKind::Tuple(v)))
            }
            "vector" => self.parse_vector_type(),
            "tensor" => self.parse_tensor_type(),
            "memref" => self.parse_memref_type(),
            _ => self.err("expected non-function type"),
        }
    }

    fn try_integer_type(&mut self) -> PResult<Option<TypeId>> {
        let s = self.spelling();
        let (sign, digits) = if let Some(d) = s.strip_prefix("si") {
            (Signedness::Signed, d)
        } else if let Some(d) = s.strip_prefix("ui") {
            (Signedness::Unsigned, d)
        } else if let Some(d) = s.strip_prefix('i') {
            (Signedness::Signless, d)
        } else {
            return Ok(None);
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Ok(None);
        }
        let width = match digits.parse::<u64>() {
            Ok(w) if w <= MAX_INT_WIDTH => w as u32,
            _ => return self.err(format!("integer bitwidth is limited to {MAX_INT_WIDTH} bits")),
        };
        if width == 0 {
            return self.err("invalid integer width");
        }
        self.bump()?;
        Ok(Some(self.m.ctx.ty(TypeKind::Integer { width, signedness: sign })))
    }

    fn parse_dialect_or_alias_type(&mut self) -> PResult<TypeId> {
        let span = self.tok.span;
        let full = &self.spelling()[1..];
        let (ns, _) = full.split_once('.').unwrap_or((full, ""));
        // `!alias` (no dot, no `<` body) refers to an alias.
        let body_follows = self.text.as_bytes().get(self.tok_end()) == Some(&b'<');
        // 2019 aliases may have a dot (`!avx.m128 = type vector<4 x f32>`).
        if self.lang2019 && !body_follows {
            if let Some(t) = self.type_aliases.get(full).copied() {
                self.bump()?;
                return Ok(t);
            }
        }
        if self.lang2019 && full == "llvm" && body_follows {
            return self.err_here(
                "the 2019 `!llvm<\"..\">` type wraps LLVM IR type text, which today's llvm dialect does not read (it writes `!llvm.ptr`, `i32`, ..); not supported",
            );
        }
        if !full.contains('.') && !body_follows {
            let t = match self.type_aliases.get(full) {
                Some(t) => *t,
                None => {
                    let e = self.tok.span.end as usize;
                    return self.err_at(crate::diag::Span::new(e, e), format!("undefined symbol alias id '{full}'"));
                }
            };
            self.bump()?;
            return Ok(t);
        }
        if ns == "llvm" {
            if let Some(kw) = full.strip_prefix("llvm.") {
                let kw = kw.to_string();
                if crate::parser::llvm::is_structured(&kw) {
                    self.bump()?;
                    return self.parse_llvm_type_body(&kw, span);
                }
                if !crate::parser::llvm::is_textual(&kw) {
                    let at = crate::diag::Span::new(span.start as usize + 6, span.end as usize);
                    return self.err_at(at, format!("unknown LLVM type: {kw}"));
                }
            }
        }
        if crate::TYPELESS_DIALECTS.contains(&ns) {
            // Reported where the dialect's (missing) parser would start.
            let at = span.start as usize + 1 + ns.len() + 1;
            let msg = format!("dialect '{ns}' provides no type parsing hook");
            return self.err_at(crate::diag::Span::new(at, at), msg);
        }
        if let Some(name) = full.strip_prefix("sparse_tensor.").filter(|_| body_follows) {
            if ["storage_specifier", "iter_space", "iterator"].contains(&name) {
                let name = name.to_string();
                let end = self.tok_end();
                self.lexer().reset(end + 1);
                self.lexer().skip_dialect_body(end)?;
                self.reset_to(end)?;
                let (body, enc) = self.parse_sparse_type_body(&name, span)?;
                let dialect = self.m.ctx.ident("sparse_tensor");
                let t = self.m.ctx.ty(TypeKind::Dialect { dialect, body: body.into() });
                self.m.ctx.set_sparse_type_encoding(t, enc);
                return Ok(t);
            }
        }
        let dialect = self.m.ctx.ident(ns);
        let mut body = full[ns.len()..].to_string();
        let end = self.tok_end();
        if body_follows {
            self.lexer().reset(end + 1);
            let close = self.lexer().skip_dialect_body(end)?;
            body.push_str(&self.text[end..close]);
            self.reset_to(close)?;
        } else {
            self.bump()?;
        }
        if body.is_empty() {
            return self.err_at(span, "expected dialect type body");
        }
        Ok(self.m.ctx.ty(TypeKind::Dialect { dialect, body: body.into() }))
    }

    /// Parses `4x?x[8]x` style dimensions up to the element type. Returns
    /// sizes and scalable flags; `allow_dynamic` admits `?`.
    fn parse_dims(&mut self, allow_dynamic: bool, allow_scalable: bool) -> PResult<(Vec<i64>, Vec<bool>)> {
        let mut shape = Vec::new();
        let mut scalable = Vec::new();
        loop {
            let (dim, sc) = match self.tok.kind {
                Tok::Question if allow_dynamic => {
                    self.bump()?;
                    (DYNAMIC, false)
                }
                Tok::LSquare if allow_scalable => {
                    self.bump()?;
                    let d = self.parse_dim_int()?;
                    if !self.is(Tok::RSquare) {
                        return self.err("missing ']' closing scalable dimension");
                    }
                    self.bump()?;
                    (d, true)
                }
                Tok::Integer => (self.parse_dim_int()?, false),
                _ => break,
            };
            shape.push(dim);
            scalable.push(sc);
            // Now expect an `x` glued to the next token: `x8xf32` is one identifier.
            if self.is(Tok::BareId) && self.spelling().starts_with('x') {
                let pos = self.tok.span.start as usize + 1;
                self.reset_to(pos)?;
            } else {
                return self.err("expected 'x' in dimension list");
            }
        }
        Ok((shape, scalable))
    }

    fn parse_dim_int(&mut self) -> PResult<i64> {
        if !self.is(Tok::Integer) {
            return self.err("expected dimension size");
        }
        let s = self.spelling();
        // `0x4` lexes as hex: it is the dimension 0 followed by `x4`.
        if s.starts_with("0x") {
            let pos = self.tok.span.start as usize + 1;
            self.reset_to(pos)?;
            return Ok(0);
        }
        let v = match s.parse::<i64>() {
            Ok(v) => v,
            Err(_) => return self.err("invalid dimension"),
        };
        self.bump()?;
        Ok(v)
    }

    fn parse_vector_type(&mut self) -> PResult<TypeId> {
        let kw = self.tok.span;
        self.bump()?;
        self.expect(Tok::Less, "'<' in vector type")?;
        if self.is(Tok::Question) {
            return self.err("expected non-function type");
        }
        let dims_span = self.tok.span;
        let (shape, scalable) = self.parse_dims(false, true)?;
        if let Some(d) = shape.iter().find(|d| **d <= 0) {
            let _ = dims_span;
            return self.err_at(kw, format!("vector types must have positive constant sizes but got {d}"));
        }
        let esp = self.tok.span;
        let elem = self.parse_type()?;
        if !self.is_vector_elem(elem) {
            return self.err_at(esp, "vector elements must be int/index/float type");
        }
        self.expect(Tok::Greater, "'>' in vector type")?;
        Ok(self.m.ctx.ty(TypeKind::Vector { shape, scalable, elem }))
    }

    fn is_vector_elem(&self, t: TypeId) -> bool {
        matches!(
            self.m.ctx.type_kind(t),
            TypeKind::Integer { .. }
                | TypeKind::Index
                | TypeKind::Float(_)
                | TypeKind::Dialect { .. }
                | TypeKind::LlvmPtr(_)
        )
    }

    fn parse_tensor_type(&mut self) -> PResult<TypeId> {
        self.bump()?;
        self.expect(Tok::Less, "'<' in tensor type")?;
        if self.is(Tok::Star) {
            self.bump()?;
            if !(self.is(Tok::BareId) && self.spelling().starts_with('x')) {
                return self.err("expected 'x' in unranked tensor type");
            }
            let pos = self.tok.span.start as usize + 1;
            self.reset_to(pos)?;
            let esp = self.tok.span;
            let elem = self.parse_type()?;
            if !self.is_tensor_elem(elem) {
                return self.err_at(esp, "invalid tensor element type");
            }
            self.expect(Tok::Greater, "'>' in tensor type")?;
            return Ok(self.m.ctx.ty(TypeKind::UnrankedTensor { elem }));
        }
        let (shape, _) = self.parse_dims(true, false)?;
        let esp = self.tok.span;
        let elem = self.parse_type()?;
        if !self.is_tensor_elem(elem) {
            return self.err_at(esp, "invalid tensor element type");
        }
        let mut encoding = None;
        if self.eat(Tok::Comma)? {
            let e = self.parse_attribute(None)?;
            // mlir-opt reports it where the encoding ends.
            let at = self.tok.span;
            if let Some(msg) = self.sparse_encoding_error(e, &shape, elem) {
                return self.err_at(at, msg);
            }
            encoding = Some(e);
        }
        self.expect(Tok::Greater, "'>' in tensor type")?;
        Ok(self.m.ctx.ty(TypeKind::RankedTensor { shape, elem, encoding }))
    }

    fn is_tensor_elem(&self, t: TypeId) -> bool {
        !matches!(
            self.m.ctx.type_kind(t),
            TypeKind::Function { .. }
                | TypeKind::None
                | TypeKind::RankedTensor { .. }
                | TypeKind::UnrankedTensor { .. }
                | TypeKind::MemRef { .. }
                | TypeKind::UnrankedMemRef { .. }
                | TypeKind::Tuple(_)
        )
    }

    fn is_memref_elem(&self, t: TypeId) -> bool {
        matches!(
            self.m.ctx.type_kind(t),
            TypeKind::Integer { .. }
                | TypeKind::Index
                | TypeKind::Float(_)
                | TypeKind::Complex(_)
                | TypeKind::Vector { .. }
                | TypeKind::MemRef { .. }
                | TypeKind::UnrankedMemRef { .. }
                | TypeKind::Dialect { .. }
                | TypeKind::LlvmPtr(_)
                | TypeKind::LlvmArray { .. }
                | TypeKind::LlvmStruct { .. }
        )
    }

    fn parse_memref_type(&mut self) -> PResult<TypeId> {
        let kw = self.tok.span;
        self.bump()?;
        self.expect(Tok::Less, "'<' in memref type")?;
        if self.is(Tok::Star) {
            self.bump()?;
            if !(self.is(Tok::BareId) && self.spelling().starts_with('x')) {
                return self.err("expected 'x' in unranked memref type");
            }
            let pos = self.tok.span.start as usize + 1;
            self.reset_to(pos)?;
            let esp = self.tok.span;
            let elem = self.parse_type()?;
            if !self.is_memref_elem(elem) {
                return self.err_at(esp, "invalid memref element type");
            }
            let mut space = None;
            if self.eat(Tok::Comma)? {
                space = Some(self.parse_memory_space()?);
            }
            self.expect(Tok::Greater, "'>' in memref type")?;
            return Ok(self.m.ctx.ty(TypeKind::UnrankedMemRef { elem, space }));
        }
        let (shape, _) = self.parse_dims(true, false)?;
        let esp = self.tok.span;
        let elem = self.parse_type()?;
        if !self.is_memref_elem(elem) {
            return self.err_at(esp, "invalid memref element type");
        }
        let mut layout = None;
        let mut space = None;
        while self.eat(Tok::Comma)? {
            let sp = self.tok.span;
            let a = match self.memory_space_id_2019()? {
                Some(a) => a,
                None => self.parse_attribute(None)?,
            };
            let is_layout = matches!(self.m.ctx.attr_kind(a), Attribute::AffineMap(_) | Attribute::Strided { .. });
            if is_layout && layout.is_none() && space.is_none() {
                match self.m.ctx.attr_kind(a) {
                    Attribute::AffineMap(m) if m.num_dims as usize != shape.len() => {
                        let n = m.num_dims;
                        return self.err_at(
                            kw,
                            format!("memref layout mismatch between rank and affine map: {} != {n}", shape.len()),
                        );
                    }
                    Attribute::Strided { strides, .. } if strides.len() != shape.len() => {
                        return self.err_at(kw, "expected the number of strides to match the rank");
                    }
                    _ => {}
                }
                layout = Some(a);
            } else if space.is_none() {
                space = Some(a);
            } else {
                return self.err_at(sp, "multiple memory spaces specified in memref type");
            }
        }
        self.expect(Tok::Greater, "'>' in memref type")?;
        Ok(self.m.ctx.ty(TypeKind::MemRef { shape, elem, layout, space }))
    }

    fn parse_memory_space(&mut self) -> PResult<crate::attrs::AttrId> {
        self.parse_attribute(None)
    }
}
