//! The sparse_tensor dialect's syntax: the encoding attribute
//! (`#sparse_tensor.encoding<{map = (i, j) -> (i : dense, j : compressed)}>`)
//! parsed into [`crate::sparse::SparseEncoding`] with the messages of LLVM
//! 22's `SparseTensorEncodingAttr::parse` and `DimLvlMapParser`, and the
//! dialect's types, whose encoding is parsed the same way so aliases
//! resolve and the text is canonical.

use super::custom::CUSTOM_MARK;
use super::{OpState, PResult, Parser, UseName};
use crate::affine::{AffineExpr, AffineMap};
use crate::attrs::{AttrId, Attribute, IntVal};
use crate::diag::Span;
use crate::lexer::Tok;
use crate::ops::{DialectOp, OpKind, SparseTensorOp};
use crate::sparse::{infer_lvl_to_dim, DimSlice, LevelFormat, LevelType, SparseEncoding};
use crate::types::{TypeId, DYNAMIC};

/// The parsed `map = ...` value.
struct DimLvlMap {
    dim_to_lvl: AffineMap,
    lvl_to_dim: Option<AffineMap>,
    lvl_types: Vec<LevelType>,
    slices: Vec<Option<DimSlice>>,
}

impl<'a> Parser<'a> {
    /// Parses `<{ map = .., posWidth = .., .. }>` after
    /// `#sparse_tensor.encoding` (`name_at` is the mnemonic, where mlir-opt
    /// reports what is wrong with the attribute as a whole).
    pub(super) fn parse_sparse_encoding_body(&mut self, name_at: Span) -> PResult<AttrId> {
        self.expect(Tok::Less, "'<'")?;
        self.expect(Tok::LBrace, "'{'")?;
        let mut map: Option<DimLvlMap> = None;
        let (mut pos_width, mut crd_width) = (0u32, 0u32);
        let (mut explicit_val, mut implicit_val) = (None, None);
        while self.is(Tok::BareId) {
            let key = self.spelling().to_string();
            if !["map", "posWidth", "crdWidth", "explicitVal", "implicitVal"].contains(&key.as_str()) {
                return self.err_at(name_at, format!("unexpected key: {key}"));
            }
            self.bump()?;
            self.expect(Tok::Equal, "'='")?;
            match key.as_str() {
                "map" => map = Some(self.parse_dim_lvl_map()?),
                "posWidth" | "crdWidth" => {
                    let a = self.parse_attribute(None)?;
                    let Attribute::Integer { value, .. } = self.m.ctx.attr_kind(a) else {
                        let what = if key == "posWidth" { "position" } else { "index" };
                        return self.err_at(name_at, format!("expected an integral {what} bitwidth"));
                    };
                    // mlir-opt keeps the width as `unsigned`: the low 32 bits.
                    let w = value.to_i64().unwrap_or(-1) as u32;
                    if key == "posWidth" {
                        pos_width = w;
                    } else {
                        crd_width = w;
                    }
                }
                _ => {
                    let a = self.parse_attribute(None)?;
                    let numeric = match self.m.ctx.attr_kind(a) {
                        Attribute::Integer { .. } | Attribute::Float { .. } => true,
                        Attribute::Dialect { dialect, body } => {
                            self.m.ctx.str(*dialect) == "complex" && body.starts_with(".number<")
                        }
                        _ => false,
                    };
                    if !numeric {
                        return self.err_at(name_at, format!("expected a numeric value for {key}"));
                    }
                    if key == "explicitVal" {
                        explicit_val = Some(a);
                    } else {
                        implicit_val = Some(a);
                    }
                }
            }
            if !self.eat(Tok::Comma)? {
                break;
            }
        }
        self.expect(Tok::RBrace, "'}'")?;
        self.expect(Tok::Greater, "'>'")?;
        let m = map.unwrap_or(DimLvlMap {
            dim_to_lvl: AffineMap { num_dims: 0, num_syms: 0, results: Vec::new() },
            lvl_to_dim: None,
            lvl_types: Vec::new(),
            slices: Vec::new(),
        });
        let dim_slices = if m.slices.iter().any(Option::is_some) {
            m.slices.iter().map(|s| s.unwrap_or(DimSlice::DEFAULT)).collect()
        } else {
            Vec::new()
        };
        let lvl_to_dim = match m.lvl_to_dim {
            Some(l) if !l.results.is_empty() => Some(l),
            _ => infer_lvl_to_dim(&m.dim_to_lvl),
        };
        let enc = SparseEncoding {
            lvl_types: m.lvl_types,
            dim_to_lvl: m.dim_to_lvl,
            lvl_to_dim,
            pos_width,
            crd_width,
            explicit_val,
            implicit_val,
            dim_slices,
        };
        if let Some(msg) = enc.verify() {
            return self.err_at(name_at, msg);
        }
        Ok(self.m.ctx.attr(Attribute::SparseEncoding(Box::new(enc))))
    }

    /// `[s0] {l0, ..} (d0 [= expr] [: slice], ..) -> ([l0 =] expr : type, ..)`.
    fn parse_dim_lvl_map(&mut self) -> PResult<DimLvlMap> {
        let syms = self.sparse_vars(Tok::LSquare, Tok::RSquare, "in symbol list", AffineExpr::Sym)?;
        // Declared level variables: dimension specs may use them.
        let lvars = self.sparse_vars(Tok::LBrace, Tok::RBrace, "in level-variable list", AffineExpr::Dim)?;
        if !self.is(Tok::LParen) {
            return self.err("expected '(' in dimension-specifier list");
        }
        let mut dims: Vec<(String, AffineExpr)> = Vec::new();
        let mut dim_exprs: Vec<Option<AffineExpr>> = Vec::new();
        let mut slices = Vec::new();
        let lsyms: Vec<(String, AffineExpr)> = lvars.iter().chain(syms.iter()).cloned().collect();
        self.sparse_list(Tok::LParen, Tok::RParen, "in dimension-specifier list", |p| {
            let n = p.sparse_var_name()?;
            let i = dims.len() as u32;
            dims.push((n, AffineExpr::Dim(i)));
            dim_exprs.push(if p.eat(Tok::Equal)? { Some(p.parse_affine_expr(&lsyms)?) } else { None });
            slices.push(if p.eat(Tok::Colon)? { Some(p.parse_dim_slice()?) } else { None });
            Ok(())
        })?;
        self.expect(Tok::Arrow, "'->'")?;
        let dsyms: Vec<(String, AffineExpr)> = dims.iter().chain(syms.iter()).cloned().collect();
        let mut results = Vec::new();
        let mut lvl_types = Vec::new();
        let lvl_open = self.tok.span;
        let declared = !lvars.is_empty();
        self.sparse_list(Tok::LParen, Tok::RParen, "in level-specifier list", |p| {
            // With declared level variables each level binds one, in order:
            // `l0 = expr : type`.
            if declared {
                let at = p.tok.span;
                let name = if p.is(Tok::BareId) { p.spelling().to_string() } else { String::new() };
                let Some(pos) = lvars.iter().position(|(n, _)| *n == name) else {
                    return p.err_at(at, format!("use of undeclared identifier '{name}'"));
                };
                let i = results.len();
                if pos != i {
                    return p.err_at(
                        at,
                        format!(
                            "Level-variable ordering mismatch. The variable '{name}' was forward-declared as the {} level; but is bound by the {} specification.",
                            ordinal(pos),
                            ordinal(i)
                        ),
                    );
                }
                p.bump()?;
                p.expect(Tok::Equal, "'='")?;
            }
            results.push(p.parse_affine_expr(&dsyms)?);
            p.expect(Tok::Colon, "':'")?;
            lvl_types.push(p.parse_level_type()?);
            Ok(())
        })?;
        if declared && lvars.len() != results.len() {
            return self.err_at(
                lvl_open,
                format!(
                    "Level-rank mismatch between forward-declarations and specifiers. Declared {} level-variables; but got {} level-specifiers.",
                    lvars.len(),
                    results.len()
                ),
            );
        }
        let nd = dims.len() as u32;
        let ns = syms.len() as u32;
        let nl = results.len() as u32;
        let lvl_to_dim = if dim_exprs.iter().all(Option::is_some) && !dim_exprs.is_empty() {
            Some(AffineMap { num_dims: nl, num_syms: 0, results: dim_exprs.into_iter().flatten().collect() })
        } else {
            None
        };
        Ok(DimLvlMap { dim_to_lvl: AffineMap { num_dims: nd, num_syms: ns, results }, lvl_to_dim, lvl_types, slices })
    }

    /// An optional `[s0, ..]` / `{l0, ..}` list of variable names, each
    /// bound to `var(position)`; empty when `open` does not follow.
    fn sparse_vars(
        &mut self,
        open: Tok,
        close: Tok,
        ctx: &str,
        var: fn(u32) -> AffineExpr,
    ) -> PResult<Vec<(String, AffineExpr)>> {
        let mut vars: Vec<(String, AffineExpr)> = Vec::new();
        if self.is(open) {
            self.comma_list(open, close, ctx, |p| {
                let n = p.sparse_var_name()?;
                let i = vars.len() as u32;
                vars.push((n, var(i)));
                Ok(())
            })?;
        }
        Ok(vars)
    }

    /// `comma_list` with mlir-opt's wording of a missing bracket:
    /// "expected ')' in dimension-specifier list".
    fn sparse_list(
        &mut self,
        open: Tok,
        close: Tok,
        ctx: &str,
        f: impl FnMut(&mut Self) -> PResult<()>,
    ) -> PResult<()> {
        let (o, c) = (format!("{} {ctx}", open.describe()), format!("{} {ctx}", close.describe()));
        self.worded_list(open, close, &o, &c, f)
    }

    /// `n` or `m` of `structured[n, m]`: a non-negative integer.
    fn parse_structured_size(&mut self) -> PResult<u32> {
        let at = self.tok.span;
        let v = self.parse_i64()?;
        u32::try_from(v).or_else(|_| self.err_at(at, "expected structured size to be >= 0"))
    }

    fn sparse_var_name(&mut self) -> PResult<String> {
        if !self.is(Tok::BareId) {
            return self.err("expected bare identifier");
        }
        let s = self.spelling().to_string();
        self.bump()?;
        Ok(s)
    }

    /// `#sparse_tensor<slice(offset, size, stride)>`, `?` for dynamic.
    fn parse_dim_slice(&mut self) -> PResult<DimSlice> {
        if !(self.is(Tok::HashId) && self.spelling() == "#sparse_tensor") {
            // mlir-opt parses any attribute here, then wants a slice.
            let at = self.tok.span;
            self.parse_attribute(None)?;
            return self.err_at(at, "expected a '#sparse_tensor<slice(..)>' dimension slice");
        }
        self.bump()?;
        self.expect(Tok::Less, "'<'")?;
        self.expect_kw("slice")?;
        let mut v = Vec::new();
        self.comma_list(Tok::LParen, Tok::RParen, "in slice", |p| {
            if p.eat(Tok::Question)? {
                v.push(DYNAMIC);
            } else {
                let x = p.parse_i64()?;
                // Reported where the value ends, as mlir-opt does.
                if x <= 0 && !(x == 0 && v.is_empty()) {
                    return p.err_here("expect positive value or ? for slice offset/size/stride");
                }
                v.push(x);
            }
            Ok(())
        })?;
        self.expect(Tok::Greater, "'>'")?;
        let [offset, size, stride] = <[i64; 3]>::try_from(v)
            .map_err(|_| crate::diag::Diagnostic::error(self.tok.span, "expected three values in a dimension slice"))?;
        Ok(DimSlice { offset, size, stride })
    }

    /// `dense`, `compressed(nonunique, ..)`, `structured[n, m]`, ...
    fn parse_level_type(&mut self) -> PResult<LevelType> {
        let at = self.tok.span;
        if !self.is(Tok::BareId) {
            return self.err_here("expected valid level format (e.g. dense, compressed or singleton)");
        }
        let name = self.spelling().to_string();
        self.bump()?;
        let format = match name.as_str() {
            "dense" => LevelFormat::Dense,
            "batch" => LevelFormat::Batch,
            "compressed" => LevelFormat::Compressed,
            "loose_compressed" => LevelFormat::LooseCompressed,
            "singleton" => LevelFormat::Singleton,
            "structured" => {
                self.expect(Tok::LSquare, "'['")?;
                let n = self.parse_structured_size()?;
                self.expect(Tok::Comma, "','")?;
                let m = self.parse_structured_size()?;
                self.expect(Tok::RSquare, "']'")?;
                if n > m {
                    return self.err_at(at, "expected n <= m in n_out_of_m");
                }
                LevelFormat::Structured { n, m }
            }
            _ => return self.err_at(at, format!("unknown level format: {name}")),
        };
        let mut lt = LevelType { format, nonunique: false, nonordered: false, soa: false };
        if self.is(Tok::LParen) {
            self.comma_list(Tok::LParen, Tok::RParen, "in level properties", |p| {
                let pat = p.tok.span;
                if !p.is(Tok::BareId) {
                    return p.err_here("expected valid level property (e.g. nonordered, nonunique or high)");
                }
                let prop = p.spelling().to_string();
                match prop.as_str() {
                    "nonunique" => lt.nonunique = true,
                    "nonordered" => lt.nonordered = true,
                    "soa" => lt.soa = true,
                    _ => return p.err_at(pat, format!("unknown level property: {prop}")),
                }
                p.bump()
            })?;
        }
        if !lt.valid() {
            return self.err_at(at, "invalid level type: level format doesn't support the properties");
        }
        Ok(lt)
    }

    /// The body of a sparse_tensor dialect type after `!sparse_tensor.NAME`
    /// (`storage_specifier<#enc>`, `iter_space<#enc, lvls = 0 to 2>`,
    /// `iterator<#enc, lvls = 1>`), as canonical text.
    pub(super) fn parse_sparse_type_body(&mut self, name: &str, at: Span) -> PResult<(String, AttrId)> {
        self.expect(Tok::Less, "'<'")?;
        let enc_at = self.tok.span;
        if !self.is(Tok::HashId) {
            // mlir-opt hands anything but an attribute to the encoding's
            // own parser, which wants its `<`.
            return self.err_here("expected '<'");
        }
        let enc = self.parse_attribute(None)?;
        if !matches!(self.m.ctx.attr_kind(enc), Attribute::SparseEncoding(_)) {
            return self.err_at(enc_at, "expected a sparse tensor encoding");
        }
        let mut body = format!(".{name}<{}", crate::printer::attr_to_string(&self.m.ctx, enc));
        if name == "iter_space" || name == "iterator" {
            self.expect(Tok::Comma, "','")?;
            self.expect_kw("lvls")?;
            self.expect(Tok::Equal, "'='")?;
            let lo_at = self.tok.span;
            let lo = i128::from(self.parse_i64()?);
            if lo < 0 {
                return self.err_at(lo_at, "expected a non-negative level");
            }
            // A single level `l` is the range `l to l+1` (no overflow in
            // i128, as none in mlir-opt's unsigned levels).
            let hi = if self.eat_kw("to")? { i128::from(self.parse_i64()?) } else { lo + 1 };
            if hi <= lo {
                // At the type's mnemonic, as mlir-opt reports it.
                let name_at = Span::new(at.start as usize + 15, at.end as usize);
                return self.err_at(name_at, "expect larger level upper bound than lower bound");
            }
            if hi - lo == 1 {
                body.push_str(&format!(", lvls = {lo}>"));
            } else {
                body.push_str(&format!(", lvls = {lo} to {hi}>"));
            }
        } else {
            body.push('>');
        }
        self.expect(Tok::Greater, "'>'")?;
        Ok((body, enc))
    }
}

impl Parser<'_> {
    /// `SparseTensorEncodingAttr::verifyEncoding`: what is wrong with `enc`
    /// on a tensor of `shape` and `elem`, if it is a sparse encoding.
    pub(super) fn sparse_encoding_error(&self, enc: AttrId, shape: &[i64], elem: TypeId) -> Option<String> {
        let ctx = &self.m.ctx;
        let Attribute::SparseEncoding(e) = ctx.attr_kind(enc) else { return None };
        if shape.is_empty() {
            return Some("expected non-scalar sparse tensor".into());
        }
        if e.dim_rank() != shape.len() {
            return Some(format!(
                "dimension-rank mismatch between encoding and tensor shape: {} != {}",
                e.dim_rank(),
                shape.len()
            ));
        }
        let ty_of = |a: AttrId| match ctx.attr_kind(a) {
            Attribute::Integer { ty, .. } | Attribute::Float { ty, .. } => Some(*ty),
            _ => None,
        };
        let show = |t: TypeId| crate::printer::type_to_string(ctx, t);
        if let Some(t) = e.explicit_val.and_then(ty_of).filter(|t| *t != elem) {
            return Some(format!(
                "explicit value type mismatch between encoding and tensor element type: '{}' != '{}'",
                show(t),
                show(elem)
            ));
        }
        if let Some(v) = e.implicit_val {
            if let Some(t) = ty_of(v).filter(|t| *t != elem) {
                return Some(format!(
                    "implicit value type mismatch between encoding and tensor element type: '{}' != '{}'",
                    show(t),
                    show(elem)
                ));
            }
            let nonzero = match ctx.attr_kind(v) {
                Attribute::Integer { value, .. } => value.to_big() != num_bigint::BigInt::from(0),
                Attribute::Float { value: crate::attrs::FloatLit::Bits(b), .. } => *b != 0 && !is_neg_zero_bits(*b),
                Attribute::Float { value: crate::attrs::FloatLit::Decimal(d), .. } => decimal_nonzero(d),
                _ => false,
            };
            if nonzero {
                return Some("implicit value must be zero".into());
            }
        }
        None
    }
}

/// A hex float literal of negative zero in any width (only its sign bit set).
fn is_neg_zero_bits(b: u128) -> bool {
    b.is_power_of_two() && [15u32, 31, 63, 79, 127].contains(&b.trailing_zeros())
}

/// True when a decimal literal's value is not zero (its mantissa has a
/// non-zero digit).
fn decimal_nonzero(d: &str) -> bool {
    let mantissa = d.split(['e', 'E']).next().unwrap_or("");
    mantissa.chars().any(|c| c.is_ascii_digit() && c != '0')
}

/// The sparse_tensor dialect's enum attributes: `#sparse_tensor<NAME value>`.
fn sparse_enum(p: &mut Parser<'_>, name: &str, value: &str) -> AttrId {
    let d = p.m.ctx.ident("sparse_tensor");
    p.m.ctx.attr(Attribute::Dialect { dialect: d, body: format!("<{name} {value}>").into() })
}

/// A keyword among `values` for a sparse_tensor enum whose C++ name is
/// `cpp`; anything else is mlir-opt's "expected ..::KIND to be one of".
fn sparse_enum_keyword(p: &mut Parser<'_>, cpp: &str, values: &[&str]) -> PResult<usize> {
    let text = if p.is(Tok::BareId) { p.spelling().to_string() } else { String::new() };
    let Some(i) = values.iter().position(|v| *v == text) else {
        return p.custom_err(&format!("expected ::mlir::sparse_tensor::{cpp} to be one of: {}", values.join(", ")));
    };
    p.bump()?;
    Ok(i)
}

/// `StorageSpecifierKind` cases in mlir-opt's order.
const SPECIFIER_KINDS: &[&str] = &["lvl_sz", "pos_mem_sz", "crd_mem_sz", "val_mem_sz", "dim_offset", "dim_stride"];
/// `SparseTensorSortKind` cases in mlir-opt's order.
const SORT_KINDS: &[&str] = &["hybrid_quick_sort", "insertion_sort_stable", "quick_sort", "heap_sort"];

impl Parser<'_> {
    /// Parses the custom form of a sparse_tensor op (its name already read).
    pub(super) fn parse_sparse_op(&mut self, kind: OpKind, st: &mut OpState, name_span: Span) -> PResult<()> {
        use SparseTensorOp as S;
        let DialectOp::SparseTensor(op) = kind.dialect_op() else {
            return self.err_at(name_span, format!("internal error: '{}' is not a sparse_tensor op", kind.name()));
        };
        let index = self.m.ctx.index_type();
        match op {
            // `$x attr-dict : type($x) to type($r)`.
            S::New
            | S::Convert
            | S::ReinterpretMap
            | S::Positions
            | S::Coordinates
            | S::CoordinatesBuffer
            | S::Values => {
                let u = self.parse_use_name()?;
                self.parse_optional_attrs(st)?;
                self.expect(Tok::Colon, "':'")?;
                let ranked = op == S::Convert;
                let t = self.parse_sparse_op_type(ranked)?;
                self.expect_kw_custom("to")?;
                let r = self.parse_sparse_op_type(ranked)?;
                self.resolve_all(st, &[u], &[t], name_span)?;
                st.result_types = vec![r];
            }
            // `$x attr-dict : type($x)`, with an index result or none.
            S::NumberOfEntries | S::Print => {
                let u = self.parse_use_name()?;
                self.parse_optional_attrs(st)?;
                let t = self.colon_type()?;
                self.resolve_all(st, &[u], &[t], name_span)?;
                if op == S::NumberOfEntries {
                    st.result_types = vec![index];
                }
            }
            S::Load => {
                let u = self.parse_use_name()?;
                if self.eat_kw("hasInserts")? {
                    let unit = self.m.ctx.attr(Attribute::Unit);
                    self.set_attr(st, "hasInserts", unit);
                }
                self.parse_optional_attrs(st)?;
                let t = self.colon_type()?;
                self.resolve_all(st, &[u], &[t], name_span)?;
                st.result_types = vec![t];
            }
            S::SliceOffset | S::SliceStride => {
                let u = self.parse_use_name()?;
                self.expect_kw_custom("at")?;
                let d = self.parse_index_attr()?;
                self.set_attr(st, "dim", d);
                self.parse_optional_attrs(st)?;
                let t = self.colon_type()?;
                self.resolve_all(st, &[u], &[t], name_span)?;
                st.result_types = vec![index];
            }
            S::Out => {
                let uses = self.parse_n_operands(2)?;
                self.parse_optional_attrs(st)?;
                self.expect(Tok::Colon, "':'")?;
                let a = self.parse_type()?;
                self.expect(Tok::Comma, "','")?;
                let b = self.parse_type()?;
                self.resolve_all(st, &uses, &[a, b], name_span)?;
            }
            S::HasRuntimeLibrary => {
                self.parse_optional_attrs(st)?;
                st.result_types = vec![self.m.ctx.int_type(1)];
            }
            S::Lvl => {
                let uses = self.parse_n_operands(2)?;
                self.parse_optional_attrs(st)?;
                let t = self.colon_type()?;
                self.resolve_all(st, &uses, &[t, index], name_span)?;
                st.result_types = vec![index];
            }
            S::Concatenate => {
                let uses = self.parse_optional_operand_list()?;
                self.parse_optional_attrs(st)?;
                self.expect(Tok::Colon, "':'")?;
                let tys = self.parse_type_list_no_parens()?;
                self.expect_kw_custom("to")?;
                let r = self.parse_type()?;
                self.resolve_all(st, &uses, &tys, name_span)?;
                st.result_types = vec![r];
            }
            S::StorageSpecifierInit => {
                let src = if self.eat_kw("with")? { Some(self.parse_use_name()?) } else { None };
                self.parse_optional_attrs(st)?;
                self.expect(Tok::Colon, "':'")?;
                let mut tys = Vec::new();
                if self.eat_kw("from")? {
                    tys.push(self.parse_type()?);
                    self.expect_kw_custom("to")?;
                }
                let r = self.parse_type()?;
                let uses: Vec<UseName> = src.into_iter().collect();
                if uses.len() != tys.len() {
                    return self.custom_err(&format!(
                        "number of operands and types do not match: got {} operands and {} types",
                        uses.len(),
                        tys.len()
                    ));
                }
                self.resolve_all(st, &uses, &tys, name_span)?;
                st.result_types = vec![r];
            }
            S::StorageSpecifierGet | S::StorageSpecifierSet => {
                let u = self.parse_use_name()?;
                let k = sparse_enum_keyword(self, "StorageSpecifierKind", SPECIFIER_KINDS)?;
                let a = sparse_enum(self, "kind", SPECIFIER_KINDS[k]);
                self.set_attr(st, "specifierKind", a);
                if self.eat_kw("at")? {
                    let l = self.parse_index_attr()?;
                    self.set_attr(st, "level", l);
                }
                let value = if op == S::StorageSpecifierSet {
                    self.expect_kw_custom("with")?;
                    Some(self.parse_use_name()?)
                } else {
                    None
                };
                self.parse_optional_attrs(st)?;
                let t = self.colon_type()?;
                self.resolve_all(st, &[u], &[t], name_span)?;
                if let Some(v) = value {
                    self.resolve_all(st, &[v], &[index], name_span)?;
                    st.result_types = vec![t];
                } else {
                    st.result_types = vec![index];
                }
            }
            S::CrdTranslate => {
                let dirs = ["dim_to_lvl", "lvl_to_dim"];
                let d = sparse_enum_keyword(self, "CrdTransDirectionKind", &dirs)?;
                let a = sparse_enum(self, "CrdTransDirection", dirs[d]);
                self.set_attr(st, "direction", a);
                let mut uses = Vec::new();
                self.comma_list(Tok::LSquare, Tok::RSquare, "in operand list", |p| {
                    uses.push(p.parse_use_name()?);
                    Ok(())
                })?;
                self.expect_kw_custom("as")?;
                let enc = self.parse_attribute(None)?;
                self.set_attr(st, "encoder", enc);
                self.parse_optional_attrs(st)?;
                self.expect(Tok::Colon, "':'")?;
                let outs = self.parse_type_list_no_parens()?;
                let ins = vec![index; uses.len()];
                self.resolve_all(st, &uses, &ins, name_span)?;
                st.result_types = outs;
            }
            S::Expand => {
                let u = self.parse_use_name()?;
                self.parse_optional_attrs(st)?;
                let t = self.colon_type()?;
                self.expect_kw_custom("to")?;
                let mut outs = Vec::new();
                for i in 0..3 {
                    if i > 0 {
                        self.expect(Tok::Comma, "','")?;
                    }
                    outs.push(self.parse_type()?);
                }
                outs.push(index);
                self.resolve_all(st, &[u], &[t], name_span)?;
                st.result_types = outs;
            }
            S::Compress => {
                let uses = self.parse_n_operands(4)?;
                self.expect_kw_custom("into")?;
                let t = self.parse_use_name()?;
                let mut crds = Vec::new();
                self.comma_list(Tok::LSquare, Tok::RSquare, "in operand list", |p| {
                    crds.push(p.parse_use_name()?);
                    Ok(())
                })?;
                self.parse_optional_attrs(st)?;
                self.expect(Tok::Colon, "':'")?;
                let tys = self.parse_type_list_no_parens()?;
                if tys.len() != 4 {
                    return self.err("expected ','");
                }
                self.resolve_all(st, &uses[..3], &tys[..3], name_span)?;
                self.resolve_all(st, &uses[3..], &[index], name_span)?;
                self.resolve_all(st, &[t], &tys[3..], name_span)?;
                let ci = vec![index; crds.len()];
                self.resolve_all(st, &crds, &ci, name_span)?;
                st.result_types = vec![tys[3]];
            }
            S::PushBack => {
                if self.eat_kw("inbounds")? {
                    let unit = self.m.ctx.attr(Attribute::Unit);
                    self.set_attr(st, "inbounds", unit);
                }
                let uses = self.parse_optional_operand_list()?;
                self.parse_optional_attrs(st)?;
                self.expect(Tok::Colon, "':'")?;
                let tys = self.parse_type_list_no_parens()?;
                self.resolve_all(st, &uses, &tys, name_span)?;
                if tys.len() < 3 {
                    return self.err_at(name_span, format!("{CUSTOM_MARK}expected at least three operands"));
                }
                st.result_types = vec![tys[1], tys[0]];
            }
            S::Sort => {
                let k = sparse_enum_keyword(self, "SparseTensorSortKind", SORT_KINDS)?;
                let a = sparse_enum(self, "SparseTensorSortAlgorithm", SORT_KINDS[k]);
                self.set_attr(st, "algorithm", a);
                let uses = self.parse_n_operands(2)?;
                let mut ys = Vec::new();
                if self.eat_kw("jointly")? {
                    ys = self.parse_optional_operand_list()?;
                }
                self.parse_optional_attrs(st)?;
                self.expect(Tok::Colon, "':'")?;
                let xy = self.parse_type()?;
                let mut yts = Vec::new();
                if self.eat_kw("jointly")? {
                    yts = self.parse_type_list_no_parens()?;
                }
                self.resolve_all(st, &uses, &[index, xy], name_span)?;
                self.resolve_all(st, &ys, &yts, name_span)?;
            }
            S::ReorderCoo => {
                let k = sparse_enum_keyword(self, "SparseTensorSortKind", SORT_KINDS)?;
                let a = sparse_enum(self, "SparseTensorSortAlgorithm", SORT_KINDS[k]);
                self.set_attr(st, "algorithm", a);
                let u = self.parse_use_name()?;
                self.parse_optional_attrs(st)?;
                let t = self.colon_type()?;
                self.expect_kw_custom("to")?;
                let r = self.parse_type()?;
                self.resolve_all(st, &[u], &[t], name_span)?;
                st.result_types = vec![r];
            }
            S::Assemble => {
                let levels = self.parse_paren_operands()?;
                self.expect(Tok::Comma, "','")?;
                let vals = self.parse_use_name()?;
                self.parse_optional_attrs(st)?;
                self.expect(Tok::Colon, "':'")?;
                let lts = self.parse_type_list_parens()?;
                self.expect(Tok::Comma, "','")?;
                let vt = self.parse_type()?;
                self.expect_kw_custom("to")?;
                let r = self.parse_type()?;
                self.resolve_all(st, &levels, &lts, name_span)?;
                self.resolve_all(st, &[vals], &[vt], name_span)?;
                st.result_types = vec![r];
            }
            S::Disassemble => {
                let u = self.parse_use_name()?;
                self.parse_optional_attrs(st)?;
                let t = self.colon_type()?;
                self.expect_kw_custom("out_lvls")?;
                let (lv, lt) = self.sparse_uses_and_types()?;
                self.expect_kw_custom("out_vals")?;
                let (vv, vt) = self.sparse_uses_and_types()?;
                self.expect(Tok::Arrow, "'->'")?;
                let rl = self.parse_type_list_parens()?;
                self.expect(Tok::Comma, "','")?;
                let rv = self.parse_type()?;
                self.expect(Tok::Comma, "','")?;
                let ll = self.parse_type_list_parens()?;
                self.expect(Tok::Comma, "','")?;
                let vl = self.parse_type()?;
                self.resolve_all(st, &[u], &[t], name_span)?;
                self.resolve_all(st, &lv, &lt, name_span)?;
                self.resolve_all(st, &vv, &vt, name_span)?;
                st.result_types = rl.into_iter().chain([rv]).chain(ll).chain([vl]).collect();
            }
            S::Binary => self.parse_sparse_binary(st, name_span)?,
            S::Unary => {
                let u = self.parse_use_name()?;
                self.parse_optional_attrs(st)?;
                let t = self.colon_type()?;
                self.expect_kw_custom("to")?;
                let r = self.parse_type()?;
                self.resolve_all(st, &[u], &[t], name_span)?;
                st.result_types = vec![r];
                for kw in ["present", "absent"] {
                    self.expect_kw_custom(kw)?;
                    self.expect(Tok::Equal, "'='")?;
                    let reg = self.parse_region(&[], false)?;
                    st.regions.push(reg);
                }
            }
            S::Reduce | S::Select => {
                let n = if op == S::Reduce { 3 } else { 1 };
                let uses = self.parse_n_operands(n)?;
                self.parse_optional_attrs(st)?;
                let t = self.colon_type()?;
                let tys = vec![t; n];
                self.resolve_all(st, &uses, &tys, name_span)?;
                st.result_types = vec![t];
                let reg = self.parse_region(&[], false)?;
                st.regions.push(reg);
            }
            S::Yield => self.parse_return_like(st, name_span)?,
            S::Foreach => {
                self.expect_kw_custom("in")?;
                let u = self.parse_use_name()?;
                let inits = if self.eat_kw("init")? { self.parse_paren_operands()? } else { Vec::new() };
                self.parse_optional_attrs(st)?;
                let t = self.colon_type()?;
                let mut its = Vec::new();
                if self.eat(Tok::Comma)? {
                    its = self.parse_type_list_no_parens()?;
                }
                if self.eat(Tok::Arrow)? {
                    st.result_types = self.parse_type_list_no_parens()?;
                }
                self.expect_kw_custom("do")?;
                self.resolve_all(st, &[u], &[t], name_span)?;
                self.resolve_all(st, &inits, &its, name_span)?;
                let reg = self.parse_region(&[], false)?;
                self.add_implicit_terminator(reg, OpKind::SparseYield);
                st.regions.push(reg);
            }
            S::ExtractIterationSpace => {
                let u = self.parse_use_name()?;
                let parent = if self.eat_kw("at")? { Some(self.parse_use_name()?) } else { None };
                self.expect_kw_custom("lvls")?;
                self.expect(Tok::Equal, "'='")?;
                let lo = self.parse_i64()?;
                let hi = if self.eat_kw("to")? { self.parse_i64()? } else { lo.saturating_add(1) };
                let (lo_a, hi_a) = (self.index_attr_of(lo), self.index_attr_of(hi));
                self.set_attr(st, "hiLvl", hi_a);
                self.set_attr(st, "loLvl", lo_a);
                self.parse_optional_attrs(st)?;
                let t = self.colon_type()?;
                let mut tys = vec![t];
                if parent.is_some() {
                    self.expect(Tok::Comma, "','")?;
                    tys.push(self.parse_type()?);
                }
                self.expect(Tok::Arrow, "'->'")?;
                let r = self.parse_type()?;
                let uses: Vec<UseName> = std::iter::once(u).chain(parent).collect();
                self.resolve_all(st, &uses, &tys, name_span)?;
                st.result_types = vec![r];
            }
            S::ExtractValue => {
                let u = self.parse_use_name()?;
                self.expect_kw_custom("at")?;
                let it = self.parse_use_name()?;
                self.parse_optional_attrs(st)?;
                let t = self.colon_type()?;
                self.expect(Tok::Comma, "','")?;
                let itt = self.parse_type()?;
                self.resolve_all(st, &[u, it], &[t, itt], name_span)?;
                let elem = self.m.ctx.type_kind(t).elem().unwrap_or(t);
                st.result_types = vec![elem];
            }
            S::Iterate => self.parse_sparse_iterate(st, name_span)?,
            S::Coiterate => self.parse_sparse_coiterate(st, name_span)?,
        }
        Ok(())
    }

    /// A type; with `ranked`, a ranked tensor, as a declarative form whose
    /// operand is `AnyRankedTensor` requires where it parses the type.
    fn parse_sparse_op_type(&mut self, ranked: bool) -> PResult<TypeId> {
        let at = self.tok.span;
        let t = self.parse_type()?;
        if ranked && !matches!(self.m.ctx.type_kind(t), crate::types::TypeKind::RankedTensor { .. }) {
            let shown = self.type_str(t);
            return self.err_at(
                at,
                format!("{CUSTOM_MARK}invalid kind of type specified: expected builtin.tensor, but found '{shown}'"),
            );
        }
        Ok(t)
    }

    /// `( %a, %b : T, U )`.
    fn sparse_uses_and_types(&mut self) -> PResult<(Vec<UseName>, Vec<TypeId>)> {
        self.expect(Tok::LParen, "'('")?;
        let uses = self.parse_optional_operand_list()?;
        let tys = if uses.is_empty() {
            Vec::new()
        } else {
            self.expect(Tok::Colon, "':'")?;
            self.parse_type_list_no_parens()?
        };
        self.expect(Tok::RParen, "')'")?;
        Ok((uses, tys))
    }

    fn index_attr_of(&mut self, v: i64) -> AttrId {
        let ty = self.m.ctx.index_type();
        self.m.ctx.attr(Attribute::Integer { value: IntVal::Small(i128::from(v)), ty })
    }

    /// An integer written bare, as an `index` attribute.
    fn parse_index_attr(&mut self) -> PResult<AttrId> {
        let v = self.parse_i64()?;
        Ok(self.index_attr_of(v))
    }

    /// `%x, %y : T, U to R overlap = {..} left = identity|{..} right = ..`.
    fn parse_sparse_binary(&mut self, st: &mut OpState, name_span: Span) -> PResult<()> {
        let uses = self.parse_n_operands(2)?;
        self.expect(Tok::Colon, "':'")?;
        self.parse_optional_attrs(st)?;
        let a = self.parse_type()?;
        self.expect(Tok::Comma, "','")?;
        let b = self.parse_type()?;
        self.expect_kw_custom("to")?;
        let r = self.parse_type()?;
        self.resolve_all(st, &uses, &[a, b], name_span)?;
        st.result_types = vec![r];
        for kw in ["overlap", "left", "right"] {
            self.expect_kw_custom(kw)?;
            self.expect(Tok::Equal, "'='")?;
            if kw != "overlap" && self.eat_kw("identity")? {
                let unit = self.m.ctx.attr(Attribute::Unit);
                self.set_attr(st, &format!("{kw}_identity"), unit);
                let reg = self.new_region();
                st.regions.push(reg);
                continue;
            }
            let reg = self.parse_region(&[], false)?;
            st.regions.push(reg);
        }
        Ok(())
    }

    /// `%it in %space [at(%c, _, ..)] [iter_args(%a = %x, ..)] : S [-> T..] { .. }`.
    fn parse_sparse_iterate(&mut self, st: &mut OpState, name_span: Span) -> PResult<()> {
        let it = self.parse_use_name()?;
        self.expect_kw_custom("in")?;
        let space = self.parse_use_name()?;
        let (crds, iter) = self.sparse_loop_header()?;
        self.parse_optional_attrs(st)?;
        let space_t = self.colon_type()?;
        let results = if self.eat(Tok::Arrow)? { self.parse_function_result_types()? } else { Vec::new() };
        if results.len() != iter.len() {
            return self.custom_err("mismatch in number of loop-carried values and defined values");
        }
        self.crd_used_lvls(st, &crds);
        self.resolve_all(st, &[space], &[space_t], name_span)?;
        let inits: Vec<UseName> = iter.iter().map(|(_, x)| *x).collect();
        self.resolve_all(st, &inits, &results, name_span)?;
        st.result_types = results.clone();
        // Block arguments: the loop-carried values, the used coordinates,
        // then the iterator, as mlir-opt builds them.
        let index = self.m.ctx.index_type();
        let iterator_t = self.iterator_type_of(space_t);
        let mut args: Vec<(UseName, TypeId)> = iter.iter().map(|(a, _)| *a).zip(results).collect();
        args.extend(crds.into_iter().flatten().map(|c| (c, index)));
        args.push((it, iterator_t));
        let reg = self.parse_region(&args, false)?;
        self.add_implicit_terminator(reg, OpKind::SparseYield);
        st.regions.push(reg);
        Ok(())
    }

    /// `[at(%c, _)] [iter_args(%a = %x, ..)]`: the coordinates (unused
    /// ones `None`) and the loop-carried values.
    #[allow(clippy::type_complexity)]
    fn sparse_loop_header(&mut self) -> PResult<(Vec<Option<UseName>>, Vec<(UseName, UseName)>)> {
        let mut crds: Vec<Option<UseName>> = Vec::new();
        if self.eat_kw("at")? {
            self.comma_list(Tok::LParen, Tok::RParen, "in coordinate list", |p| {
                crds.push(p.parse_use_or_blank()?);
                Ok(())
            })?;
        }
        let mut iter: Vec<(UseName, UseName)> = Vec::new();
        if self.eat_kw("iter_args")? {
            self.comma_list(Tok::LParen, Tok::RParen, "in iter_args", |p| {
                let a = p.parse_use_name()?;
                p.expect(Tok::Equal, "'='")?;
                let x = p.parse_use_name()?;
                iter.push((a, x));
                Ok(())
            })?;
        }
        Ok((crds, iter))
    }

    /// `%x` or `_` (a place left unnamed).
    fn parse_use_or_blank(&mut self) -> PResult<Option<UseName>> {
        if self.is(Tok::BareId) && self.spelling() == "_" {
            self.bump()?;
            return Ok(None);
        }
        Ok(Some(self.parse_use_name()?))
    }

    /// The bit set of the named places, as an `i64` attribute.
    fn used_bits(&mut self, names: &[Option<UseName>]) -> AttrId {
        let bits = names.iter().take(63).enumerate().filter(|(_, c)| c.is_some()).fold(0i64, |m, (i, _)| m | (1 << i));
        let i64t = self.m.ctx.int_type(64);
        self.m.ctx.attr(Attribute::Integer { value: IntVal::Small(i128::from(bits)), ty: i64t })
    }

    /// `crdUsedLvls`: the coordinates the body names.
    fn crd_used_lvls(&mut self, st: &mut OpState, crds: &[Option<UseName>]) {
        let mask = self.used_bits(crds);
        self.set_attr(st, "crdUsedLvls", mask);
    }

    /// `(%s1, %s2) [at(..)] [iter_args(..)] : (S1, S2) [-> T..]` followed by
    /// `case %i1, _ { .. }` regions, one per combination of spaces.
    fn parse_sparse_coiterate(&mut self, st: &mut OpState, name_span: Span) -> PResult<()> {
        let spaces = self.parse_paren_operands()?;
        let (crds, iter) = self.sparse_loop_header()?;
        self.parse_optional_attrs(st)?;
        self.expect(Tok::Colon, "':'")?;
        let space_ts = self.parse_type_list_parens()?;
        let results = if self.eat(Tok::Arrow)? { self.parse_function_result_types()? } else { Vec::new() };
        if results.len() != iter.len() {
            return self.custom_err("mismatch in number of loop-carried values and defined values");
        }
        self.crd_used_lvls(st, &crds);
        self.resolve_all(st, &spaces, &space_ts, name_span)?;
        let inits: Vec<UseName> = iter.iter().map(|(_, x)| *x).collect();
        self.resolve_all(st, &inits, &results, name_span)?;
        let seg = self.segments(&[spaces.len(), inits.len()]);
        self.set_attr(st, "operandSegmentSizes", seg);
        st.result_types = results.clone();
        let index = self.m.ctx.index_type();
        let mut cases = Vec::new();
        while self.eat_kw("case")? {
            let mut its = vec![self.parse_use_or_blank()?];
            while self.eat(Tok::Comma)? {
                its.push(self.parse_use_or_blank()?);
            }
            cases.push(self.used_bits(&its));
            // Block arguments: the loop-carried values, the used
            // coordinates, then the iterators of the spaces present.
            let mut args: Vec<(UseName, TypeId)> = iter.iter().map(|(a, _)| *a).zip(results.iter().copied()).collect();
            args.extend(crds.iter().flatten().map(|c| (*c, index)));
            for (i, it) in its.iter().enumerate() {
                if let Some(u) = it {
                    let sp = space_ts.get(i).copied().unwrap_or(index);
                    args.push((*u, self.iterator_type_of(sp)));
                }
            }
            let reg = self.parse_region(&args, false)?;
            self.add_implicit_terminator(reg, OpKind::SparseYield);
            st.regions.push(reg);
        }
        let arr = self.m.ctx.attr(Attribute::Array(cases));
        self.set_attr(st, "cases", arr);
        Ok(())
    }

    /// `!sparse_tensor.iterator<E, lvls = ..>` for an `iter_space` of the same.
    fn iterator_type_of(&mut self, space: TypeId) -> TypeId {
        let body = match self.m.ctx.type_kind(space) {
            crate::types::TypeKind::Dialect { body, .. } => {
                body.strip_prefix(".iter_space<").map(|r| format!(".iterator<{r}"))
            }
            _ => None,
        };
        match body {
            Some(body) => {
                let dialect = self.m.ctx.ident("sparse_tensor");
                let t = self.m.ctx.ty(crate::types::TypeKind::Dialect { dialect, body: body.into() });
                if let Some(enc) = self.m.ctx.sparse_types_of(space) {
                    self.m.ctx.set_sparse_type_encoding(t, enc);
                }
                t
            }
            None => space,
        }
    }
}

/// `0th`, `1st`, `2nd`, `3rd`, `4th`, ... as LLVM's `formatv` ordinals in
/// the level-variable messages.
fn ordinal(i: usize) -> String {
    let suffix = match (i % 10, i % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{i}{suffix}")
}
