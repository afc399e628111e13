//! Attribute parsing: literals, containers, elements attributes, affine maps
//! and sets, strided layouts, locations and dialect attributes.

use super::{PResult, Parser};
use crate::affine::{AffineExpr, AffineMap, IntegerSet};
use crate::attrs::*;
use crate::diag::Span;
use crate::ident::Ident;
use crate::lexer::{unescape, Tok};
use crate::types::*;
use num_bigint::BigInt;
use num_traits::{Num, Signed, Zero};

/// A literal in a dense or array attribute before it is typed.
#[derive(Clone, Debug)]
enum Lit {
    Int { neg: bool, spelling: String, span: Span },
    Float { text: String, span: Span },
    Bool(bool, Span),
    Str(Vec<u8>, Span),
    Complex(Box<Lit>, Box<Lit>),
}

impl Lit {
    fn span(&self) -> Span {
        match self {
            Lit::Int { span, .. } | Lit::Float { span, .. } | Lit::Bool(_, span) | Lit::Str(_, span) => *span,
            Lit::Complex(a, _) => a.span(),
        }
    }
}

/// Parses a decimal or `0x` hexadecimal integer spelling.
fn parse_int_spelling(s: &str) -> Option<BigInt> {
    if let Some(h) = s.strip_prefix("0x") {
        BigInt::from_str_radix(h, 16).ok()
    } else {
        BigInt::from_str_radix(s, 10).ok()
    }
}

impl<'a> Parser<'a> {
    /// Parses any attribute; `hint` is a type the context implies.
    pub fn parse_attribute(&mut self, hint: Option<TypeId>) -> PResult<AttrId> {
        self.nested(|p| p.parse_attribute_inner(hint))
    }

    fn parse_attribute_inner(&mut self, hint: Option<TypeId>) -> PResult<AttrId> {
        match self.tok.kind {
            Tok::Integer | Tok::Float | Tok::Minus => return self.parse_number_attr(hint),
            Tok::String => {
                let value = unescape(self.spelling()).into_boxed_slice();
                self.bump()?;
                let mut ty = None;
                if self.eat(Tok::Colon)? {
                    ty = Some(self.parse_type()?);
                }
                return Ok(self.m.ctx.attr(Attribute::String { value, ty }));
            }
            Tok::LSquare => {
                let mut v = Vec::new();
                self.comma_list(Tok::LSquare, Tok::RSquare, "in array", |p| {
                    v.push(p.parse_attribute(None)?);
                    Ok(())
                })
                .map_err(|d| {
                    if d.message.starts_with("expected ']'") {
                        crate::diag::Diagnostic::error(d.span, "expected ',' or ']'")
                    } else {
                        d
                    }
                })?;
                return Ok(self.m.ctx.attr(Attribute::Array(v)));
            }
            Tok::LBrace => return self.parse_dictionary_attr(),
            Tok::AtId => return self.parse_symbol_ref(),
            Tok::HashId => return self.parse_dialect_or_alias_attr(),
            Tok::BareId => {}
            // 2019: affine maps and integer sets are written bare.
            Tok::LParen if self.lang2019 => return self.parse_map_or_set(None),
            Tok::LParen | Tok::ExclId => {
                let t = self.parse_type()?;
                return Ok(self.m.ctx.attr(Attribute::Type(t)));
            }
            _ => return self.err("expected attribute value"),
        }
        match self.spelling() {
            "unit" => {
                self.bump()?;
                Ok(self.m.ctx.attr(Attribute::Unit))
            }
            "true" | "false" => {
                let b = self.spelling() == "true";
                self.bump()?;
                if self.eat(Tok::Colon)? {
                    let sp = self.tok.span;
                    let t = self.parse_type()?;
                    if !self.m.ctx.type_kind(t).is_signless_int(1) {
                        return self.err_at(sp, "expected i1 type for 'true' or 'false' values");
                    }
                }
                Ok(self.m.ctx.attr(Attribute::Bool(b)))
            }
            "dense" => self.parse_dense_attr(hint),
            "dense_resource" => self.parse_dense_resource(hint),
            "array" => self.parse_dense_array(),
            "sparse" => self.parse_sparse(hint),
            "strided" => self.parse_strided(),
            "affine_map" => {
                self.bump()?;
                self.expect(Tok::Less, "'<'")?;
                let m = self.parse_affine_map_or_set(true)?;
                self.expect(Tok::Greater, "'>'")?;
                Ok(m)
            }
            "affine_set" => {
                self.bump()?;
                self.expect(Tok::Less, "'<'")?;
                let m = self.parse_affine_map_or_set(false)?;
                self.expect(Tok::Greater, "'>'")?;
                Ok(m)
            }
            "loc" => self.parse_location(),
            "distinct" => {
                self.bump()?;
                self.expect(Tok::LSquare, "'[' after 'distinct'")?;
                let id = self.parse_distinct_id()?;
                self.expect(Tok::RSquare, "']' to close distinct ID")?;
                self.expect(Tok::Less, "'<' after distinct ID")?;
                let inner = self.parse_attribute(None)?;
                self.expect(Tok::Greater, "'>' to close distinct attribute")?;
                Ok(self.m.ctx.attr(Attribute::Distinct { id, inner }))
            }
            s if !is_type_keyword(s) => self.err("expected attribute value"),
            _ => {
                let t = self.parse_type()?;
                Ok(self.m.ctx.attr(Attribute::Type(t)))
            }
        }
    }

    fn parse_number_attr(&mut self, hint: Option<TypeId>) -> PResult<AttrId> {
        let start = self.tok.span;
        let neg = self.eat(Tok::Minus)?;
        let kind = self.tok.kind;
        if kind != Tok::Integer && kind != Tok::Float {
            return self.err("expected integer or floating point literal");
        }
        let spelling = self.spelling().to_string();
        let lit_span = self.tok.span;
        self.bump()?;
        let ty = if self.eat(Tok::Colon)? {
            self.parse_type()?
        } else if let Some(h) = hint {
            h
        } else if kind == Tok::Float {
            self.m.ctx.float_type(FloatKind::F64)
        } else {
            self.m.ctx.int_type(64)
        };
        let lit = if kind == Tok::Float {
            Lit::Float { text: if neg { format!("-{spelling}") } else { spelling }, span: lit_span }
        } else {
            Lit::Int { neg, spelling, span: lit_span }
        };
        match self.m.ctx.type_kind(ty).clone() {
            TypeKind::Float(fk) => {
                let value = self.float_value(&lit, fk).map_err(|mut d| {
                    d.span = start;
                    d
                })?;
                Ok(self.m.ctx.attr(Attribute::Float { value, ty }))
            }
            TypeKind::Integer { .. } | TypeKind::Index => {
                if kind == Tok::Float {
                    // mlir-opt reports this after the type, at the next token.
                    return self.err_here("floating point value not valid for specified type");
                }
                let _ = start;
                let value = self.int_value(&lit, ty)?;
                Ok(self.m.ctx.attr(Attribute::Integer { value, ty }))
            }
            _ => self.err_at(lit_span, "integer literal not valid for specified type"),
        }
    }

    /// The value of a literal as an element of integer type `ty`.
    fn int_value(&self, lit: &Lit, ty: TypeId) -> PResult<IntVal> {
        let (width, sign) = match self.m.ctx.type_kind(ty) {
            TypeKind::Integer { width, signedness } => (*width, *signedness),
            // MLIR reads index literals as signed 64-bit (buildAttributeAPInt):
            // 0xFFFFFFFFFFFFFFFF is out of range, unlike for i64.
            TypeKind::Index => (64, Signedness::Signed),
            _ => return self.err_at(lit.span(), "expected integer type"),
        };
        let (neg, v, span) = match lit {
            Lit::Int { neg, spelling, span } => {
                let Some(v) = parse_int_spelling(spelling) else {
                    return self.err_at(*span, "integer constant out of range for attribute");
                };
                (*neg, v, *span)
            }
            Lit::Bool(b, span) => (false, BigInt::from(*b as u8), *span),
            Lit::Float { span, .. } => return self.err_at(*span, "floating point value not valid for specified type"),
            _ => return self.err_at(lit.span(), "expected integer elements"),
        };
        canonical_int(neg, v, width, sign).map_err(|m| crate::diag::Diagnostic::error(span, m))
    }

    /// The value of a literal as an element of float format `fk`.
    fn float_value(&self, lit: &Lit, fk: FloatKind) -> PResult<FloatLit> {
        match lit {
            Lit::Float { text, .. } => Ok(FloatLit::Decimal(text.as_str().into())),
            Lit::Int { neg, spelling, span } => {
                if let Some(h) = spelling.strip_prefix("0x") {
                    if *neg {
                        return self.err_at(*span, "hexadecimal float literal should not have a leading minus");
                    }
                    let v = BigInt::from_str_radix(h, 16).unwrap_or_default();
                    if v.bits() > fk.bit_width() as u64 {
                        return self.err_at(*span, "hexadecimal float constant out of range for type");
                    }
                    let bits = u128::try_from(v).unwrap_or(0);
                    return Ok(FloatLit::Bits(bits));
                }
                // mlir-opt 22 takes no decimal integer for a float, in
                // scalars and dense elements alike.
                Err(crate::diag::Diagnostic::error(
                    *span,
                    "unexpected decimal integer literal for a floating point value",
                )
                .with_note(*span, "add a trailing dot to make the literal a float"))
            }
            Lit::Bool(_, span) | Lit::Str(_, span) => self.err_at(*span, "expected floating point literal"),
            Lit::Complex(..) => self.err_at(lit.span(), "expected floating point literal"),
        }
    }

    /// `{a = 1, b}` as an attribute.
    pub fn parse_dictionary_attr(&mut self) -> PResult<AttrId> {
        let entries = self.parse_attr_dict_entries()?;
        Ok(self.m.ctx.attr(Attribute::Dict(entries)))
    }

    /// `{a = 1, b}` as a list of entries.
    pub fn parse_attr_dict_entries(&mut self) -> PResult<Vec<(Ident, AttrId)>> {
        let mut entries: Vec<(Ident, AttrId)> = Vec::new();
        self.comma_list(Tok::LBrace, Tok::RBrace, "in attribute dictionary", |p| {
            let span = p.tok.span;
            let name = match p.tok.kind {
                Tok::BareId => p.spelling().to_string(),
                Tok::String => String::from_utf8_lossy(&unescape(p.spelling())).into_owned(),
                _ => return p.err("expected attribute name"),
            };
            if name.is_empty() {
                return p.err("expected valid attribute name");
            }
            p.bump()?;
            let id = p.m.ctx.ident(&name);
            if entries.iter().any(|(n, _)| *n == id) {
                return p.err_at(span, format!("duplicate key '{name}' in dictionary attribute"));
            }
            // 2019 dictionaries write `{fruit: "banana"}`.
            let sep = p.eat(Tok::Equal)? || (p.lang2019 && p.eat(Tok::Colon)?);
            let bare = p.bare_enums.iter().find(|(n, _)| *n == name).filter(|_| sep && p.is(Tok::BareId));
            let v = if let Some((_, mnemonic)) = bare {
                let value = p.spelling().to_string();
                let body = format!(".{mnemonic}<{value}>").into_boxed_str();
                p.bump()?;
                if tosa_enum_values(mnemonic).is_some_and(|(_, ok)| !ok.contains(&value.as_str())) {
                    // mlir-opt reports it where the value's keyword ends.
                    return p.err(format!("{}invalid {name} value: {value}", super::custom::CUSTOM_MARK));
                }
                let d = p.m.ctx.ident("tosa");
                p.m.ctx.attr(Attribute::Dialect { dialect: d, body })
            } else if sep {
                p.parse_attribute(None)?
            } else {
                p.m.ctx.attr(Attribute::Unit)
            };
            entries.push((id, v));
            Ok(())
        })?;
        Ok(entries)
    }

    fn parse_symbol_ref(&mut self) -> PResult<AttrId> {
        let root = self.symbol_name()?;
        let mut nested = Vec::new();
        while self.is(Tok::Colon) {
            let first = self.tok.span;
            let next = self.text.as_bytes().get(first.end as usize);
            if next != Some(&b':') {
                break;
            }
            self.reset_to(first.end as usize + 1)?;
            if !self.is(Tok::AtId) {
                return self.err("expected nested symbol reference identifier");
            }
            nested.push(self.symbol_name()?);
        }
        Ok(self.m.ctx.attr(Attribute::SymbolRef { root, nested }))
    }

    /// Consumes `@name` or `@"name"` and returns the name.
    pub fn symbol_name(&mut self) -> PResult<Box<[u8]>> {
        if !self.is(Tok::AtId) {
            return self.err("expected valid '@'-identifier for symbol name");
        }
        let s = &self.spelling()[1..];
        let name: Box<[u8]> = if s.starts_with('"') { unescape(s).into() } else { s.as_bytes().into() };
        self.bump()?;
        Ok(name)
    }

    fn parse_dialect_or_alias_attr(&mut self) -> PResult<AttrId> {
        let span = self.tok.span;
        let full = &self.spelling()[1..];
        let body_follows = self.text.as_bytes().get(self.tok_end()) == Some(&b'<');
        if !full.contains('.') && !body_follows {
            let a = match self.attr_aliases.get(full) {
                Some(a) => *a,
                None => {
                    let e = self.tok.span.end as usize;
                    return self.err_at(Span::new(e, e), format!("undefined symbol alias id '{full}'"));
                }
            };
            self.bump()?;
            return Ok(a);
        }
        let (ns, _) = full.split_once('.').unwrap_or((full, ""));
        if full == "sparse_tensor.encoding" && body_follows {
            // The body must balance before it is parsed, as mlir-opt lexes
            // it whole first.
            let end = self.tok_end();
            self.lexer().reset(end + 1);
            self.lexer().skip_dialect_body(end)?;
            let name_at = Span::new(span.start as usize + 15, span.end as usize);
            self.reset_to(end)?;
            return self.parse_sparse_encoding_body(name_at);
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
            return self.err_at(span, "expected dialect attribute body");
        }
        if ns == "vector" {
            self.check_vector_enum(&mut body, end)?;
        }
        if ns == "tosa" {
            self.check_tosa_enum(&body, end)?;
        }
        // A typed dialect attribute (`#d.a : i32`) keeps its type in the text:
        // it is part of the attribute's identity and prints back the same.
        if self.is(Tok::Colon) {
            self.bump()?;
            let t = self.parse_type()?;
            body.push_str(" : ");
            body.push_str(&self.type_str(t));
        }
        Ok(self.m.ctx.attr(Attribute::Dialect { dialect, body: body.into() }))
    }

    /// Checks the value of a vector enum attribute (`#vector.kind<add>`,
    /// also spelled `#vector<kind<add>>` or with a quoted value) as
    /// mlir-opt's attribute parser does, and rewrites `body` to the one
    /// spelling the verifier and the engine read (`.kind<add>`). `open` is
    /// where the body's text starts (`.kind` is already in `body` when the
    /// mnemonic was part of the token).
    /// `#tosa.rounding_mode<V>` (and `nan_mode`, `resize_mode`, `block_size`): V must be
    /// one of the enum's cases, reported at V as mlir-opt does.
    fn check_tosa_enum(&self, body: &str, open: usize) -> PResult<()> {
        let Some((mnemonic, rest)) = body.strip_prefix('.').and_then(|b| b.split_once('<')) else { return Ok(()) };
        let Some((cpp, ok)) = tosa_enum_values(mnemonic) else { return Ok(()) };
        let value = rest.strip_suffix('>').unwrap_or(rest).trim();
        if ok.contains(&value) {
            return Ok(());
        }
        let bytes = self.text.as_bytes();
        let mut at = open + 1;
        while bytes.get(at).is_some_and(|c| c.is_ascii_whitespace()) {
            at += 1;
        }
        self.err_at(Span::new(at, at), format!("expected ::mlir::tosa::{cpp} to be one of: {}", ok.join(", ")))
    }

    fn check_vector_enum(&self, body: &mut String, open: usize) -> PResult<()> {
        // `.kind<v>` (token `#vector.kind`, then `<v>`) or `<kind<v>>`.
        let (mnemonic, inner_at) = if let Some(m) = body.strip_prefix('.') {
            let Some(lt) = m.find('<') else {
                if crate::ops::vector_enum_error(m).is_some() {
                    return self.err_at(Span::new(open, open), "expected '<'");
                }
                return Ok(());
            };
            (m[..lt].to_string(), open + 1)
        } else if let Some(m) = body.strip_prefix('<') {
            let Some(lt) = m.find('<') else { return Ok(()) };
            let mnemonic = m[..lt].trim().to_string();
            let rel = self.text[open + 1..].find('<').map(|i| open + 1 + i + 1);
            (mnemonic, rel.unwrap_or(open + 1))
        } else {
            return Ok(());
        };
        if crate::ops::vector_enum_error(&mnemonic).is_none() {
            return Ok(());
        }
        let bytes = self.text.as_bytes();
        let skip_ws = |mut i: usize| {
            while bytes.get(i).is_some_and(|c| c.is_ascii_whitespace()) {
                i += 1;
            }
            i
        };
        let at = skip_ws(inner_at);
        let (value, after) = match bytes.get(at) {
            Some(b'"') => {
                let mut lx = crate::lexer::Lexer::new(self.text);
                lx.reset(at);
                let tok = lx.next_token()?;
                let text = &self.text[tok.span.start as usize..tok.span.end as usize];
                (String::from_utf8_lossy(&unescape(text)).into_owned(), tok.span.end as usize)
            }
            Some(c) if c.is_ascii_alphabetic() || *c == b'_' => {
                let mut e = at;
                while bytes.get(e).is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.')) {
                    e += 1;
                }
                (self.text[at..e].to_string(), e)
            }
            _ => return self.err_at(Span::new(at, at), "expected valid keyword or string"),
        };
        let close = skip_ws(after);
        if bytes.get(close) != Some(&b'>') {
            return self.err_at(Span::new(close, close), "expected '>'");
        }
        let Some(msg) = crate::ops::vector_enum_error(&mnemonic) else { return Ok(()) };
        let known = crate::ops::VECTOR_ENUMS.iter().any(|(m, _, vs)| *m == mnemonic && vs.contains(&value.as_str()));
        if !known {
            return self.err_at(Span::new(at, at), msg);
        }
        *body = format!(".{mnemonic}<{value}>");
        Ok(())
    }

    // ---- elements attributes -------------------------------------------

    /// Parses a (possibly nested) literal list; returns shape and flat elements.
    fn parse_tensor_literal(&mut self) -> PResult<(Vec<i64>, Vec<Lit>)> {
        self.nested(|p| {
            if p.is(Tok::LSquare) {
                let mut shapes: Vec<Vec<i64>> = Vec::new();
                let mut flat = Vec::new();
                p.bump()?;
                if !p.is(Tok::RSquare) {
                    loop {
                        let (s, mut e) = p.parse_tensor_literal()?;
                        shapes.push(s);
                        flat.append(&mut e);
                        if !p.eat(Tok::Comma)? {
                            break;
                        }
                    }
                }
                if !p.is(Tok::RSquare) {
                    return p.err("expected ',' or ']'");
                }
                if shapes.windows(2).any(|w| w[0] != w[1]) {
                    return p.err_here("tensor literal is invalid; ranks are not consistent between elements");
                }
                p.bump()?;
                let mut shape = vec![shapes.len() as i64];
                if let Some(s) = shapes.first() {
                    shape.extend(s);
                }
                return Ok((shape, flat));
            }
            Ok((Vec::new(), vec![p.parse_element_literal()?]))
        })
    }

    fn parse_element_literal(&mut self) -> PResult<Lit> {
        let span = self.tok.span;
        match self.tok.kind {
            Tok::LParen => {
                self.bump()?;
                let re = self.parse_element_literal()?;
                self.expect(Tok::Comma, "',' between complex parts")?;
                let im = self.parse_element_literal()?;
                self.expect(Tok::RParen, "')' after complex literal")?;
                Ok(Lit::Complex(Box::new(re), Box::new(im)))
            }
            Tok::String => {
                let s = unescape(self.spelling());
                self.bump()?;
                Ok(Lit::Str(s, span))
            }
            Tok::BareId if self.is_kw("true") || self.is_kw("false") => {
                let b = self.is_kw("true");
                self.bump()?;
                Ok(Lit::Bool(b, span))
            }
            Tok::Minus | Tok::Integer | Tok::Float => {
                let neg = self.eat(Tok::Minus)?;
                let sp = self.tok.span;
                let s = self.spelling().to_string();
                match self.tok.kind {
                    Tok::Integer => {
                        self.bump()?;
                        Ok(Lit::Int { neg, spelling: s, span: sp })
                    }
                    Tok::Float => {
                        self.bump()?;
                        Ok(Lit::Float { text: if neg { format!("-{s}") } else { s }, span: sp })
                    }
                    _ => self.err("expected integer or floating point literal"),
                }
            }
            _ => self.err_here("expected element literal of primitive type"),
        }
    }

    fn parse_shaped_type_suffix(&mut self, hint: Option<TypeId>) -> PResult<(TypeId, Span)> {
        // The context's type replaces the suffix (MLIR's
        // parseElementsLiteralType): `memref.global .. = dense<1.0>`.
        if let Some(h) = hint {
            return Ok((h, self.tok.span));
        }
        if !self.eat(Tok::Colon)? {
            return self.err("expected ':'");
        }
        let sp = self.tok.span;
        Ok((self.parse_type()?, sp))
    }

    fn static_shape(&self, ty: TypeId, span: Span) -> PResult<(Vec<i64>, TypeId)> {
        match self.m.ctx.type_kind(ty) {
            TypeKind::RankedTensor { shape, elem, .. } | TypeKind::Vector { shape, elem, .. } => {
                if shape.iter().any(|d| *d < 0) {
                    return self.err_at(span, "elements literal type must have static shape");
                }
                Ok((shape.clone(), *elem))
            }
            TypeKind::MemRef { shape, elem, .. } => Ok((shape.clone(), *elem)),
            _ => self.err_at(span, "elements literal must be a shaped type"),
        }
    }

    fn parse_dense_attr(&mut self, hint: Option<TypeId>) -> PResult<AttrId> {
        let kw = self.tok.span;
        self.bump()?;
        self.expect(Tok::Less, "'<' after 'dense'")?;
        let mut hex: Option<Vec<u8>> = None;
        // `dense<>` fits any type without elements; `dense<[]>` is of
        // shape [0] and `dense<[[]]>` of [1, 0], like any list literal.
        let bare_empty = self.is(Tok::Greater);
        let (lshape, lits) = if bare_empty {
            (vec![0], Vec::new())
        } else if self.is(Tok::String) && self.spelling().starts_with("\"0x") {
            let bytes = unescape(self.spelling());
            match super::decode_hex(&bytes[2..]) {
                Some(b) => hex = Some(b),
                None => return self.err("expected string containing hex digits starting with `0x`"),
            }
            self.bump()?;
            (Vec::new(), Vec::new())
        } else {
            self.parse_tensor_literal()?
        };
        self.expect(Tok::Greater, "'>'")?;
        let (ty, _) = self.parse_shaped_type_suffix(hint)?;
        let (shape, elem) = self.static_shape(ty, kw)?;
        let Some(count) = num_elements(&shape) else {
            return self.err_at(kw, "elements literal type has too many elements");
        };
        let lit_span = kw;
        if let Some(data) = hex {
            let ek = self.m.ctx.type_kind(elem).clone();
            if matches!(ek, TypeKind::Integer { width: 1, .. }) {
                return self.packed_bools(ty, &data, count as usize, lit_span);
            }
            let bits = self.elem_bits(&ek);
            let per = (bits as usize).div_ceil(8).max(1) * if matches!(ek, TypeKind::Complex(_)) { 2 } else { 1 };
            let _ = per;
            let bytes =
                if matches!(ek, TypeKind::Complex(_)) { bits as usize / 4 } else { (bits as usize).div_ceil(8) };
            let splat = data.len() == bytes && count != 1;
            if data.len() != bytes * count as usize && !splat {
                return self.err_at(
                    lit_span,
                    format!(
                        "elements hex data size is invalid for provided type: {} bytes for {} elements",
                        data.len(),
                        count
                    ),
                );
            }
            return Ok(self.m.ctx.attr(Attribute::Dense { ty, splat, values: DenseValues::Hex(data.into()) }));
        }
        let splat = lshape.is_empty();
        if !(splat || bare_empty && count == 0) && lshape != shape {
            return self.err_at(
                lit_span,
                format!(
                    "inferred shape of elements literal ({}) does not match type ({})",
                    shape_str(&lshape),
                    shape_str(&shape)
                ),
            );
        }
        let values = self.typed_values(&lits, elem).map_err(|mut d| {
            if d.message == "integer constant out of range for attribute" {
                d.message = "integer constant out of range for type".into();
            }
            d
        })?;
        Ok(self.m.ctx.attr(Attribute::Dense { ty, splat: splat && count != 1, values }))
    }

    /// An `i1` hex literal, which MLIR packs eight elements a byte (the
    /// first in the lowest bit), a single `0x00` or `0xFF` being a splat;
    /// stored a byte per element, as every other width is.
    fn packed_bools(&mut self, ty: TypeId, data: &[u8], count: usize, span: Span) -> PResult<AttrId> {
        let (splat, bytes) = match data {
            [b @ (0 | 0xff)] => (count != 1, vec![b & 1]),
            _ if data.len() == count.div_ceil(8) => (false, (0..count).map(|i| (data[i / 8] >> (i % 8)) & 1).collect()),
            _ => {
                return self.err_at(
                    span,
                    format!(
                        "elements hex data size is invalid for provided type: {} bytes for {count} elements",
                        data.len()
                    ),
                )
            }
        };
        Ok(self.m.ctx.attr(Attribute::Dense { ty, splat, values: DenseValues::Hex(bytes.into()) }))
    }

    fn elem_bits(&self, k: &TypeKind) -> u32 {
        match k {
            TypeKind::Integer { width, .. } => *width,
            TypeKind::Index => 64,
            TypeKind::Float(f) => f.bit_width(),
            TypeKind::Complex(e) => 2 * self.elem_bits(self.m.ctx.type_kind(*e)),
            _ => 8,
        }
    }

    /// Types flat literals by element type.
    fn typed_values(&self, lits: &[Lit], elem: TypeId) -> PResult<DenseValues> {
        let ek = self.m.ctx.type_kind(elem).clone();
        let (base, complex) = match &ek {
            TypeKind::Complex(e) => (*e, true),
            _ => (elem, false),
        };
        let bk = self.m.ctx.type_kind(base).clone();
        let mut flat: Vec<&Lit> = Vec::new();
        for l in lits {
            match (l, complex) {
                (Lit::Complex(a, b), true) => {
                    flat.push(a);
                    flat.push(b);
                }
                (Lit::Complex(..), false) => {
                    return self.err_at(l.span(), "unexpected complex literal for non-complex type")
                }
                (_, true) => return self.err_at(l.span(), "expected complex literal"),
                _ => flat.push(l),
            }
        }
        match bk {
            TypeKind::Integer { .. } | TypeKind::Index => {
                let mut v = Vec::with_capacity(flat.len());
                for l in flat {
                    if let Lit::Float { span, .. } = l {
                        return self.err_at(*span, "expected integer elements, but parsed floating-point");
                    }
                    if let Lit::Bool(_, span) = l {
                        if !bk.is_signless_int(1) {
                            return self.err_at(*span, "expected i1 type for 'true' or 'false' values");
                        }
                    }
                    v.push(self.int_value(l, base)?);
                }
                Ok(DenseValues::Ints(v))
            }
            TypeKind::Float(fk) => {
                let mut v = Vec::with_capacity(flat.len());
                for l in flat {
                    v.push(self.float_value(l, fk)?);
                }
                Ok(DenseValues::Floats(v))
            }
            _ => {
                let mut v = Vec::with_capacity(flat.len());
                for l in flat {
                    match l {
                        Lit::Str(s, _) => v.push(s.clone().into_boxed_slice()),
                        _ => return self.err_at(l.span(), "expected string elements for a non-numeric element type"),
                    }
                }
                Ok(DenseValues::Strings(v))
            }
        }
    }

    fn parse_dense_resource(&mut self, hint: Option<TypeId>) -> PResult<AttrId> {
        self.bump()?;
        self.expect(Tok::Less, "'<'")?;
        if !self.is(Tok::BareId) && !self.is(Tok::String) {
            return self.err("expected identifier key for 'resource' entry");
        }
        let handle: Box<[u8]> = self.key_spelling().into_bytes().into();
        self.bump()?;
        self.expect(Tok::Greater, "'>'")?;
        let (ty, tspan) = self.parse_shaped_type_suffix(hint)?;
        self.static_shape(ty, tspan)?;
        Ok(self.m.ctx.attr(Attribute::DenseResource { handle, ty }))
    }

    fn parse_dense_array(&mut self) -> PResult<AttrId> {
        self.bump()?;
        self.expect(Tok::Less, "'<' after 'array'")?;
        let sp = self.tok.span;
        let elem = self.parse_type()?;
        let ek = self.m.ctx.type_kind(elem).clone();
        if !matches!(ek, TypeKind::Integer { signedness: Signedness::Signless, .. } | TypeKind::Float(_)) {
            return self.err_at(sp, "expected integer or float type, got: ".to_string() + &self.type_str(elem));
        }
        let mut lits = Vec::new();
        if self.eat(Tok::Colon)? {
            loop {
                lits.push(self.parse_element_literal()?);
                if !self.eat(Tok::Comma)? {
                    break;
                }
            }
        }
        self.expect(Tok::Greater, "'>' to close an array attribute")?;
        let values = self.typed_values(&lits, elem)?;
        Ok(self.m.ctx.attr(Attribute::DenseArray { elem, values }))
    }

    fn parse_sparse(&mut self, hint: Option<TypeId>) -> PResult<AttrId> {
        let kw = self.tok.span;
        self.bump()?;
        self.expect(Tok::Less, "'<' after 'sparse'")?;
        let isp = self.tok.span;
        if self.is(Tok::Greater) {
            // `sparse<>`: no indices and no values.
            self.bump()?;
            let (ty, tspan) = self.parse_shaped_type_suffix(hint)?;
            let (_, elem) = self.static_shape(ty, tspan)?;
            let i64t = self.m.ctx.int_type(64);
            let ity = self.m.ctx.ty(TypeKind::RankedTensor { shape: vec![0, 0], elem: i64t, encoding: None });
            let indices =
                self.m.ctx.attr(Attribute::Dense { ty: ity, splat: false, values: DenseValues::Ints(vec![]) });
            let vals = self.typed_values(&[], elem)?;
            let vty = self.m.ctx.ty(TypeKind::RankedTensor { shape: vec![0], elem, encoding: None });
            let values = self.m.ctx.attr(Attribute::Dense { ty: vty, splat: false, values: vals });
            return Ok(self.m.ctx.attr(Attribute::Sparse { ty, indices, values }));
        }
        let (ishape, ilits) = if self.is(Tok::Comma) { (vec![0], vec![]) } else { self.parse_tensor_literal()? };
        self.expect(Tok::Comma, "','")?;
        let vsp = self.tok.span;
        let (vshape, vlits) = if self.is(Tok::Greater) { (vec![0], vec![]) } else { self.parse_tensor_literal()? };
        self.expect(Tok::Greater, "'>'")?;
        let (ty, tspan) = self.parse_shaped_type_suffix(hint)?;
        let (shape, elem) = self.static_shape(ty, tspan)?;
        let i64t = self.m.ctx.int_type(64);
        let ivals = self.typed_values(&ilits, i64t).map_err(|d| crate::diag::Diagnostic::error(isp, d.message))?;
        // Indices are an NxRank list (a single index may be given flat).
        let rank = shape.len() as i64;
        let n = ilits.len() as i64 / rank.max(1);
        let idx_shape = if ishape.len() == 2 || rank == 0 { ishape.clone() } else { vec![n, rank] };
        if ilits.len() as i64 != n * rank.max(1) && rank != 0 {
            return self.err_at(isp, "expected index list of size (N x rank)");
        }
        // Every index must lie inside the shape, as mlir-opt checks.
        if let DenseValues::Ints(v) = &ivals {
            for (i, row) in v.chunks(rank.max(1) as usize).enumerate() {
                let inside = row.iter().zip(&shape).all(|(x, d)| x.to_i64().is_some_and(|x| x >= 0 && x < *d));
                if !inside && rank != 0 {
                    let idx: Vec<String> = row.iter().map(|x| x.to_string()).collect();
                    let ts = self.type_str(ty);
                    return self.err_at(
                        kw,
                        format!("sparse index #{i} is not contained within the value shape, with index=[{}], and type='{ts}'", idx.join(", ")),
                    );
                }
            }
        }
        let ity = self.m.ctx.ty(TypeKind::RankedTensor { shape: idx_shape, elem: i64t, encoding: None });
        let indices = self.m.ctx.attr(Attribute::Dense { ty: ity, splat: false, values: ivals });
        let vals = self.typed_values(&vlits, elem)?;
        let vsplat = vshape.is_empty();
        let vty = self.m.ctx.ty(TypeKind::RankedTensor {
            shape: if vsplat { vec![n] } else { vshape },
            elem,
            encoding: None,
        });
        let _ = vsp;
        let values = self.m.ctx.attr(Attribute::Dense { ty: vty, splat: vsplat, values: vals });
        Ok(self.m.ctx.attr(Attribute::Sparse { ty, indices, values }))
    }

    fn parse_strided(&mut self) -> PResult<AttrId> {
        self.bump()?;
        self.expect(Tok::Less, "'<' after 'strided'")?;
        let mut strides = Vec::new();
        self.comma_list(Tok::LSquare, Tok::RSquare, "in stride list", |p| {
            strides.push(p.parse_dyn_i64()?);
            Ok(())
        })?;
        let mut offset = 0;
        if self.eat(Tok::Comma)? {
            self.expect_kw("offset")?;
            self.expect(Tok::Colon, "':' after 'offset'")?;
            offset = self.parse_dyn_i64()?;
        }
        self.expect(Tok::Greater, "'>'")?;
        Ok(self.m.ctx.attr(Attribute::Strided { strides, offset }))
    }

    /// An i64 or `?` (dynamic).
    pub fn parse_dyn_i64(&mut self) -> PResult<i64> {
        if self.eat(Tok::Question)? {
            return Ok(DYNAMIC);
        }
        self.parse_i64()
    }

    /// A possibly negative 64-bit integer literal.
    /// The ID of `distinct[ID]`: an unsigned 64-bit integer literal, with
    /// mlir-opt's messages (a sign is "expected distinct ID"; a value past
    /// 2^64 - 1 is reported after the literal, where mlir-opt reports it).
    fn parse_distinct_id(&mut self) -> PResult<u64> {
        if !self.is(Tok::Integer) {
            return self.err("expected distinct ID");
        }
        let v = parse_int_spelling(self.spelling()).and_then(|v| u64::try_from(v).ok());
        self.bump()?;
        v.map_or_else(|| self.err("expected an unsigned 64-bit integer"), Ok)
    }

    pub fn parse_i64(&mut self) -> PResult<i64> {
        let neg = self.eat(Tok::Minus)?;
        if !self.is(Tok::Integer) {
            return self.err("expected integer value");
        }
        let v = parse_int_spelling(self.spelling()).unwrap_or_default();
        let v = if neg { -v } else { v };
        let Ok(v) = i64::try_from(v) else {
            return self.err("integer value too large");
        };
        self.bump()?;
        Ok(v)
    }

    // ---- affine --------------------------------------------------------

    /// Parses `(dims)[syms] -> (exprs)` or `(dims)[syms] : (constraints)`.
    pub fn parse_affine_map_or_set(&mut self, want_map: bool) -> PResult<AttrId> {
        self.parse_map_or_set(Some(want_map))
    }

    /// [`Self::parse_affine_map_or_set`]; `want` `None` takes either (a bare
    /// 2019 map or set says which by its `->` or `:`).
    pub(crate) fn parse_map_or_set(&mut self, want: Option<bool>) -> PResult<AttrId> {
        let mut names: Vec<(String, AffineExpr)> = Vec::new();
        let mut nd = 0u32;
        self.comma_list(Tok::LParen, Tok::RParen, "in dimensional identifier list", |p| {
            let n = p.affine_id_name()?;
            names.push((n, AffineExpr::Dim(nd)));
            nd += 1;
            Ok(())
        })?;
        let mut ns = 0u32;
        if self.is(Tok::LSquare) {
            self.comma_list(Tok::LSquare, Tok::RSquare, "in symbol list", |p| {
                let n = p.affine_id_name()?;
                names.push((n, AffineExpr::Sym(ns)));
                ns += 1;
                Ok(())
            })?;
        }
        if self.lang2019 && self.is(Tok::Comma) {
            return self.err_here(
                "',' between the dimension list and the symbol list: a 2019 map writes `(d0, d1)[s0]` with nothing between",
            );
        }
        if self.eat(Tok::Arrow)? {
            if want == Some(false) {
                return self.err("expected ':' in integer set");
            }
            let mut results = Vec::new();
            self.comma_list(Tok::LParen, Tok::RParen, "in affine map range", |p| {
                results.push(p.parse_affine_expr(&names)?);
                Ok(())
            })?;
            if self.lang2019 && self.is_kw("size") {
                self.parse_size_clause_2019(&names)?;
            }
            return Ok(self.m.ctx.attr(Attribute::AffineMap(AffineMap { num_dims: nd, num_syms: ns, results })));
        }
        if self.is(Tok::Colon) {
            if want == Some(true) {
                return self.err("expected '->' in affine map");
            }
            self.bump()?;
            let mut constraints = Vec::new();
            // 2019 sets may list their constraints without parentheses.
            let (open, close) = if self.lang2019 && !self.is(Tok::LParen) {
                (None, None)
            } else {
                (Some(Tok::LParen), Some(Tok::RParen))
            };
            self.list_2019(open, close, |p| {
                let lhs = p.parse_affine_expr(&names)?;
                let op = p.tok.kind;
                let (eq, swap) = match op {
                    Tok::Equal => {
                        p.bump()?;
                        p.expect(Tok::Equal, "'==' in constraint")?;
                        (true, false)
                    }
                    Tok::Greater => {
                        p.bump()?;
                        p.expect(Tok::Equal, "'>=' in constraint")?;
                        (false, false)
                    }
                    Tok::Less => {
                        p.bump()?;
                        p.expect(Tok::Equal, "'<=' in constraint")?;
                        (false, true)
                    }
                    _ => return p.err("expected '== affine-expr' or '>= affine-expr' at end of affine constraint"),
                };
                let rhs = p.parse_affine_expr(&names)?;
                let e = if swap { sub(rhs, lhs) } else { sub(lhs, rhs) };
                constraints.push((e, eq));
                Ok(())
            })?;
            return Ok(self.m.ctx.attr(Attribute::IntegerSet(IntegerSet { num_dims: nd, num_syms: ns, constraints })));
        }
        self.err(if want != Some(false) { "expected '->' or ':'" } else { "expected ':' in integer set" })
    }

    fn affine_id_name(&mut self) -> PResult<String> {
        if !self.is(Tok::BareId) {
            return self.err("expected bare identifier");
        }
        let s = self.spelling().to_string();
        self.bump()?;
        Ok(s)
    }

    /// Grows the running depth of a left-deep affine chain by one operator
    /// with right operand `rhs` (counted with the `* -1` a subtraction adds),
    /// failing at `at` past [`crate::affine::MAX_DEPTH`].
    pub(crate) fn affine_deeper(&self, depth: &mut usize, rhs: &AffineExpr, at: crate::diag::Span) -> PResult<()> {
        *depth = 1 + (*depth).max(rhs.depth() + 1);
        if *depth > crate::affine::MAX_DEPTH {
            return self
                .err_at(at, format!("affine expression nested deeper than {} levels", crate::affine::MAX_DEPTH));
        }
        Ok(())
    }

    /// Parses an affine expression over the named dims and symbols.
    pub(crate) fn parse_affine_expr(&mut self, names: &[(String, AffineExpr)]) -> PResult<AffineExpr> {
        self.nested(|p| {
            let mut lhs = p.parse_affine_term(names)?;
            let mut depth = lhs.depth();
            loop {
                let at = p.tok.span;
                if p.eat(Tok::Plus)? {
                    let r = p.parse_affine_term(names)?;
                    p.affine_deeper(&mut depth, &r, at)?;
                    lhs = AffineExpr::Add(Box::new(lhs), Box::new(r));
                } else if p.is(Tok::Minus) {
                    p.bump()?;
                    let r = p.parse_affine_term(names)?;
                    p.affine_deeper(&mut depth, &r, at)?;
                    lhs = sub(lhs, r);
                } else {
                    return Ok(lhs);
                }
            }
        })
    }

    fn parse_affine_term(&mut self, names: &[(String, AffineExpr)]) -> PResult<AffineExpr> {
        let mut lhs = self.parse_affine_operand(names)?;
        let mut depth = lhs.depth();
        loop {
            let op_span = self.tok.span;
            let op = if self.is(Tok::Star) {
                0
            } else if self.is_kw("floordiv") {
                1
            } else if self.is_kw("ceildiv") {
                2
            } else if self.is_kw("mod") {
                3
            } else {
                return Ok(lhs);
            };
            self.bump()?;
            let rhs = self.parse_affine_operand(names)?;
            self.affine_deeper(&mut depth, &rhs, op_span)?;
            let (a, b) = (Box::new(lhs), Box::new(rhs));
            lhs = match op {
                0 => {
                    if !a.is_symbolic() && !b.is_symbolic() {
                        return self.err_at(op_span, "non-affine expression: at least one of the multiply operands has to be either a constant or symbolic");
                    }
                    AffineExpr::Mul(a, b)
                }
                _ => {
                    if !b.is_symbolic() {
                        let w = ["", "floordiv", "ceildiv", "mod"][op];
                        return self.err_at(
                            op_span,
                            format!(
                                "non-affine expression: right operand of {w} has to be either a constant or symbolic"
                            ),
                        );
                    }
                    match op {
                        1 => AffineExpr::FloorDiv(a, b),
                        2 => AffineExpr::CeilDiv(a, b),
                        _ => AffineExpr::Mod(a, b),
                    }
                }
            };
        }
    }

    fn parse_affine_operand(&mut self, names: &[(String, AffineExpr)]) -> PResult<AffineExpr> {
        match self.tok.kind {
            Tok::LParen => {
                self.bump()?;
                if self.is(Tok::RParen) {
                    return self.err("no expression inside parentheses");
                }
                let e = self.parse_affine_expr(names)?;
                self.expect(Tok::RParen, "')'")?;
                Ok(e)
            }
            Tok::Minus => {
                self.bump()?;
                let e = self.parse_affine_operand(names)?;
                Ok(match e {
                    AffineExpr::Const(c) => AffineExpr::Const(c.wrapping_neg()),
                    e => AffineExpr::Mul(Box::new(e), Box::new(AffineExpr::Const(-1))),
                })
            }
            Tok::Integer => {
                let Some(v) = parse_int_spelling(self.spelling()).and_then(|v| i64::try_from(v).ok()) else {
                    return self.err("constant too large for index");
                };
                self.bump()?;
                Ok(AffineExpr::Const(v))
            }
            Tok::BareId => {
                let s = self.spelling();
                match names.iter().rev().find(|(n, _)| n == s) {
                    Some((_, e)) => {
                        let e = e.clone();
                        self.bump()?;
                        Ok(e)
                    }
                    None if self.lang2019 && (s == "floordiv" || s == "ceildiv") => self.parse_div_call_2019(names),
                    None => self.err_wrong_token("use of undeclared identifier"),
                }
            }
            _ => self.err_here("expected affine expression"),
        }
    }

    // ---- locations -------------------------------------------------------

    /// Parses `loc(...)`.
    pub fn parse_location(&mut self) -> PResult<AttrId> {
        self.expect_kw("loc")?;
        self.expect(Tok::LParen, "'(' in location")?;
        let l = self.parse_location_instance()?;
        self.expect(Tok::RParen, "')' in location")?;
        Ok(l)
    }

    fn parse_location_instance(&mut self) -> PResult<AttrId> {
        self.nested(|p| p.parse_location_instance_inner())
    }

    fn parse_location_instance_inner(&mut self) -> PResult<AttrId> {
        if self.is(Tok::HashId) {
            let name = self.spelling()[1..].to_string();
            let a = self.attr_aliases.get(name.as_str()).copied();
            let span = self.tok.span;
            self.bump()?;
            return match a {
                Some(a) => Ok(a),
                None => {
                    // Location aliases may be defined after their use.
                    self.pending_loc_aliases.push((name.clone(), span));
                    let d = self.m.ctx.ident("#loc-alias");
                    Ok(self.m.ctx.attr(Attribute::Dialect { dialect: d, body: name.into() }))
                }
            };
        }
        if self.is(Tok::String) {
            let s: Box<[u8]> = unescape(self.spelling()).into();
            self.bump()?;
            if self.eat(Tok::Colon)? {
                let line = self.parse_u32("expected integer line number in FileLineColRange")?;
                let mut col = 0;
                if self.eat(Tok::Colon)? {
                    col = self.parse_u32("expected integer column number in FileLineColRange")?;
                }
                let mut end = None;
                if self.eat_kw("to")? {
                    if self.eat(Tok::Colon)? {
                        end = Some((None, self.parse_u32("expected integer column number in FileLineColRange")?));
                    } else {
                        let l = self.parse_u32("expected integer line number in FileLineColRange")?;
                        self.expect(Tok::Colon, "':' in FileLineColRange")?;
                        end = Some((Some(l), self.parse_u32("expected integer column number in FileLineColRange")?));
                    }
                }
                return Ok(self.m.ctx.attr(Attribute::Location(Location::File { file: s, line, col, end })));
            }
            let mut child = None;
            if self.eat(Tok::LParen)? {
                child = Some(self.parse_location_instance()?);
                self.expect(Tok::RParen, "')' after child location of NameLoc")?;
            }
            return Ok(self.m.ctx.attr(Attribute::Location(Location::Name { name: s, child })));
        }
        if self.eat_kw("unknown")? {
            return Ok(self.m.ctx.attr(Attribute::Location(Location::Unknown)));
        }
        if self.eat_kw("callsite")? {
            self.expect(Tok::LParen, "'(' in callsite location")?;
            let callee = self.parse_location_instance()?;
            self.expect_kw("at")?;
            let caller = self.parse_location_instance()?;
            self.expect(Tok::RParen, "')' in callsite location")?;
            return Ok(self.m.ctx.attr(Attribute::Location(Location::CallSite { callee, caller })));
        }
        if self.eat_kw("fused")? {
            let mut metadata = None;
            if self.eat(Tok::Less)? {
                metadata = Some(self.parse_attribute(None)?);
                self.expect(Tok::Greater, "'>' after fused location metadata")?;
            }
            let mut locs = Vec::new();
            self.comma_list(Tok::LSquare, Tok::RSquare, "in fused location", |p| {
                locs.push(p.parse_location_instance()?);
                Ok(())
            })?;
            return Ok(self.m.ctx.attr(Attribute::Location(Location::Fused { metadata, locs })));
        }
        self.err("expected location instance")
    }

    fn parse_u32(&mut self, msg: &str) -> PResult<u32> {
        if !self.is(Tok::Integer) {
            return self.err(msg);
        }
        let Ok(v) = self.spelling().parse::<u32>() else { return self.err(msg) };
        self.bump()?;
        Ok(v)
    }
}

/// True when a bare identifier can start a builtin type, so an attribute
/// position holding it is a type attribute.
fn is_type_keyword(s: &str) -> bool {
    let int = |d: &str| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit());
    matches!(s, "index" | "none" | "complex" | "tuple" | "vector" | "tensor" | "memref")
        || FloatKind::from_name(s).is_some()
        || s.strip_prefix("si").is_some_and(int)
        || s.strip_prefix("ui").is_some_and(int)
        || s.strip_prefix('i').is_some_and(int)
}

fn sub(a: AffineExpr, b: AffineExpr) -> AffineExpr {
    // `e - 0` (and so `e >= 0`) is `e`: keeps printing a fixpoint.
    if b == AffineExpr::Const(0) {
        return a;
    }
    let nb = match b {
        AffineExpr::Const(c) => AffineExpr::Const(c.wrapping_neg()),
        e => AffineExpr::Mul(Box::new(e), Box::new(AffineExpr::Const(-1))),
    };
    AffineExpr::Add(Box::new(a), Box::new(nb))
}

fn shape_str(s: &[i64]) -> String {
    let v: Vec<String> = s.iter().map(|d| d.to_string()).collect();
    format!("[{}]", v.join(", "))
}

/// Checks that `(neg, v)` fits an integer type and returns its canonical
/// stored value: signed for signless and signed types, unsigned otherwise.
pub fn canonical_int(neg: bool, v: BigInt, width: u32, sign: Signedness) -> Result<IntVal, String> {
    let v = if neg { -v } else { v };
    if sign == Signedness::Unsigned && v.is_negative() && !v.is_zero() {
        return Err("negative integer literal not valid for unsigned integer type".into());
    }
    let one = BigInt::from(1);
    let umax = (&one << width) - 1u32;
    let smin = -(&one << (width - 1));
    let smax = (&one << (width - 1)) - 1u32;
    let ok = match sign {
        Signedness::Signless => v >= smin && v <= umax,
        Signedness::Signed => v >= smin && v <= smax,
        Signedness::Unsigned => v <= umax,
    };
    if !ok {
        return Err("integer constant out of range for attribute".into());
    }
    let canon = if sign != Signedness::Unsigned && v > smax { v - (&one << width) } else { v };
    Ok(IntVal::from_big(canon))
}

/// The C++ name and the cases of tosa's enum attribute `mnemonic`.
fn tosa_enum_values(mnemonic: &str) -> Option<(&'static str, &'static [&'static str])> {
    Some(match mnemonic {
        "rounding_mode" => ("RoundingMode", &["SINGLE_ROUND", "INEXACT_ROUND", "DOUBLE_ROUND"]),
        "nan_mode" => ("NanPropagationMode", &["PROPAGATE", "IGNORE"]),
        "resize_mode" => ("ResizeMode", &["NEAREST_NEIGHBOR", "BILINEAR"]),
        "block_size" => ("BlockSize", &["BLOCK_SIZE_32"]),
        _ => return None,
    })
}
