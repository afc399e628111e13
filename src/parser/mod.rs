//! The MLIR text parser: top level (aliases, resources, implicit module),
//! operations in generic form, regions and blocks with forward references,
//! and SSA name scoping. Types and attributes are in `types.rs`, custom op
//! forms in `custom.rs`.

mod affine;
mod attrs;
mod bufferization;
mod comb;
mod custom;
mod lang2019;
mod linalg;
pub use lang2019::detect_2019;
mod llvm;
pub use llvm::{ATOMIC_BIN_OPS, GEP_DYNAMIC, GEP_INBOUNDS_FLAG, GEP_NUSW, GEP_NUW, LINKAGES};
mod memref;
mod sparse;
mod tensor;
mod tosa;
mod types;
mod vector;

use crate::attrs::{AttrId, Attribute};
use crate::diag::{Diagnostic, Span};
use crate::ident::Ident;
use crate::ir::*;
use crate::lexer::{Lexer, Tok, Token};
use crate::ops::{traits, OpKind, CLOSED_DIALECTS};
use crate::types::TypeId;
use rustc_hash::FxHashMap;

/// The result of a parse step.
pub type PResult<T> = Result<T, Diagnostic>;

/// Parses a whole file into a [`Module`].
pub fn parse(text: &str) -> PResult<Module> {
    parse_with(text, crate::Limits::default().max_nesting)
}

/// Parses `text`, allowing ops, regions, types and attributes to nest
/// `max_nesting` levels deep (each level costs the caller's stack about
/// 2 KiB in a release build, more in a debug one).
pub fn parse_with(text: &str, max_nesting: u32) -> PResult<Module> {
    parse_lang(text, max_nesting, crate::Lang::Modern)
}

/// Parses `text` written in `lang` (today's syntax, or the 2019 language
/// of the first MLIR specification, which builds the same IR).
pub fn parse_lang(text: &str, max_nesting: u32, lang: crate::Lang) -> PResult<Module> {
    let mut p = Parser::new(text)?;
    p.max_depth = max_nesting;
    p.lang2019 = lang == crate::Lang::Y2019;
    p.parse_top_level()?;
    Ok(p.m)
}

/// Everything an op needs before it is created.
#[derive(Default)]
pub(crate) struct OpState {
    pub name: Option<OpName>,
    pub operands: Vec<ValueId>,
    pub result_types: Vec<TypeId>,
    pub successors: Vec<BlockId>,
    pub regions: Vec<RegionId>,
    pub properties: Option<AttrId>,
    pub attrs: Vec<(Ident, AttrId)>,
    pub span: Span,
    /// Where a custom form's attribute dictionary starts, if it has one.
    pub dict_at: Option<Span>,
}

/// A value name as written: `%x` or `%x#2`.
#[derive(Clone, Copy)]
pub(crate) struct UseName {
    pub name: Ident,
    pub number: u32,
    pub span: Span,
}

/// A value definition placeholder used before its definition.
struct ForwardRef {
    placeholder: ValueId,
    span: Span,
}

/// Names visible inside one isolated-from-above region tree.
#[derive(Default)]
struct IsolatedScope {
    /// name -> values by result number.
    values: FxHashMap<Ident, Vec<Option<ValueId>>>,
    /// Names defined per nested region, to forget them when it closes.
    region_defs: Vec<Vec<Ident>>,
    /// name#number -> placeholder not yet defined.
    forward: FxHashMap<(Ident, u32), ForwardRef>,
}

/// Block names of one region.
#[derive(Default)]
struct BlockScope {
    blocks: FxHashMap<Ident, (BlockId, bool, Span)>,
}

/// Parser state.
pub(crate) struct Parser<'a> {
    pub text: &'a str,
    lex: Lexer<'a>,
    pub tok: Token,
    pub m: Module,
    pub attr_aliases: FxHashMap<Box<str>, AttrId>,
    pub type_aliases: FxHashMap<Box<str>, TypeId>,
    scopes: Vec<IsolatedScope>,
    block_scopes: Vec<BlockScope>,
    /// Replacement of forward-reference placeholders, applied at the end.
    replaced: FxHashMap<ValueId, ValueId>,
    /// Placeholders currently unresolved (their ids).
    placeholders: rustc_hash::FxHashSet<ValueId>,
    /// Default dialect for unprefixed custom op names (from enclosing ops).
    pub default_dialect: Vec<&'static str>,
    /// Recursion depth, bounded so hostile input cannot overflow the stack.
    depth: u32,
    max_depth: u32,
    /// `loc(#alias)` uses whose alias was not yet defined.
    pub pending_loc_aliases: Vec<(String, Span)>,
    /// Reading the 2019 language (`lang2019.rs`): unprefixed op names,
    /// bare affine maps, `:` in attribute dictionaries.
    pub lang2019: bool,
    /// Attribute names whose values an op's declarative form may write as a
    /// bare enum keyword, with the dialect attribute they stand for
    /// (`rounding_mode = SINGLE_ROUND` is `#tosa.rounding_mode<SINGLE_ROUND>`).
    pub(crate) bare_enums: &'static [(&'static str, &'static str)],
    /// Ops a 2019 instruction expands to besides its last one (the index
    /// constant of `dim`, all but the last `affine.apply` of a multi-result
    /// `affine_apply`); the block being parsed takes them before that op.
    pending: Vec<OpId>,
    /// The 2019 type each 2019 `view` result was declared with (its value
    /// has today's strided type); uses may name it by either.
    views_2019: FxHashMap<ValueId, TypeId>,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> PResult<Parser<'a>> {
        let mut lex = Lexer::new(text);
        let tok = lex.next_token()?;
        Ok(Parser {
            text,
            lex,
            tok,
            m: Module::default(),
            attr_aliases: FxHashMap::default(),
            type_aliases: FxHashMap::default(),
            scopes: vec![IsolatedScope::default()],
            block_scopes: Vec::new(),
            replaced: FxHashMap::default(),
            placeholders: Default::default(),
            default_dialect: Vec::new(),
            depth: 0,
            max_depth: crate::Limits::default().max_nesting,
            pending_loc_aliases: Vec::new(),
            lang2019: false,
            bare_enums: &[],
            pending: Vec::new(),
            views_2019: FxHashMap::default(),
        })
    }

    // ---- token helpers -------------------------------------------------

    /// The text of the current token.
    pub fn spelling(&self) -> &'a str {
        &self.text[self.tok.span.start as usize..self.tok.span.end as usize]
    }

    /// Moves to the next token.
    pub fn bump(&mut self) -> PResult<()> {
        self.tok = self.lex.next_token()?;
        Ok(())
    }

    /// True when the current token is `k`.
    pub fn is(&self, k: Tok) -> bool {
        self.tok.kind == k
    }

    /// True when the current token is the bare keyword `kw`.
    pub fn is_kw(&self, kw: &str) -> bool {
        self.tok.kind == Tok::BareId && self.spelling() == kw
    }

    /// Consumes `k` if present.
    pub fn eat(&mut self, k: Tok) -> PResult<bool> {
        if self.is(k) {
            self.bump()?;
            return Ok(true);
        }
        Ok(false)
    }

    /// Consumes keyword `kw` if present.
    pub fn eat_kw(&mut self, kw: &str) -> PResult<bool> {
        if self.is_kw(kw) {
            self.bump()?;
            return Ok(true);
        }
        Ok(false)
    }

    /// An error at the current token. "expected ..." errors point just past
    /// the previous token, skipping blank lines and comments, as mlir-opt's
    /// `emitWrongTokenError` does, so the caret sits where text is missing.
    pub fn err<T>(&self, msg: impl Into<String>) -> PResult<T> {
        let msg = msg.into();
        if msg.starts_with("expected") {
            let at = self.wrong_token_offset();
            return Err(Diagnostic::error(Span::new(at, at), msg));
        }
        Err(Diagnostic::error(self.tok.span, msg))
    }

    /// An error placed as mlir-opt's `emitWrongTokenError` places it, just
    /// past the previous token, whatever the message.
    pub fn err_wrong_token<T>(&self, msg: impl Into<String>) -> PResult<T> {
        let at = self.wrong_token_offset();
        Err(Diagnostic::error(Span::new(at, at), msg))
    }

    /// An error at the current token, never moved.
    pub fn err_here<T>(&self, msg: impl Into<String>) -> PResult<T> {
        Err(Diagnostic::error(self.tok.span, msg))
    }

    fn wrong_token_offset(&self) -> usize {
        let mut loc = self.tok.span.start as usize;
        if self.tok.kind == Tok::Eof && loc > 0 {
            loc -= 1;
        }
        let bytes = self.text.as_bytes();
        let mut end = loc;
        loop {
            while end > 0 && matches!(bytes[end - 1], b' ' | b'\t') {
                end -= 1;
            }
            if end == 0 {
                return loc;
            }
            if !matches!(bytes[end - 1], b'\n' | b'\r') {
                return end;
            }
            end -= 1;
            // A `//` comment on the preceding line: report before it.
            let line_start = bytes[..end].iter().rposition(|b| *b == b'\n' || *b == b'\r').map(|i| i + 1).unwrap_or(0);
            if let Some(c) = self.text[line_start..end].find("//") {
                end = line_start + c;
            }
        }
    }

    /// An error at `span`.
    pub fn err_at<T>(&self, span: Span, msg: impl Into<String>) -> PResult<T> {
        Err(Diagnostic::error(span, msg))
    }

    /// Requires token `k`; `what` completes "expected ...".
    pub fn expect(&mut self, k: Tok, what: &str) -> PResult<()> {
        if self.is(k) {
            return self.bump();
        }
        self.err(format!("expected {what}"))
    }

    /// Requires keyword `kw`.
    pub fn expect_kw(&mut self, kw: &str) -> PResult<()> {
        if self.eat_kw(kw)? {
            return Ok(());
        }
        self.err(format!("expected '{kw}'"))
    }

    /// Re-lexes from byte `pos` (for `4x8xf32` splitting).
    pub fn reset_to(&mut self, pos: usize) -> PResult<()> {
        self.lex.reset(pos);
        self.bump()
    }

    /// The offset just past the current token.
    pub fn tok_end(&self) -> usize {
        self.tok.span.end as usize
    }

    /// Raw access to the lexer for dialect bodies.
    pub fn lexer(&mut self) -> &mut Lexer<'a> {
        &mut self.lex
    }

    /// Parses `( elem (, elem)* )?` delimited by `open`/`close`.
    pub fn comma_list(
        &mut self,
        open: Tok,
        close: Tok,
        ctx: &str,
        f: impl FnMut(&mut Self) -> PResult<()>,
    ) -> PResult<()> {
        // mlir-opt words these as plain "expected '('" / "expected ')'".
        let _ = ctx;
        self.worded_list(open, close, open.describe(), close.describe(), f)
    }

    /// [`Parser::comma_list`] whose missing brackets are reported as
    /// "expected `open_what`" / "expected `close_what`".
    pub fn worded_list(
        &mut self,
        open: Tok,
        close: Tok,
        open_what: &str,
        close_what: &str,
        mut f: impl FnMut(&mut Self) -> PResult<()>,
    ) -> PResult<()> {
        self.expect(open, open_what)?;
        if self.eat(close)? {
            return Ok(());
        }
        loop {
            f(self)?;
            if !self.eat(Tok::Comma)? {
                break;
            }
        }
        self.expect(close, close_what)
    }

    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > self.max_depth {
            return self.err("nesting too deep");
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Runs `f` one nesting level deeper, failing cleanly on hostile depth.
    pub fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        self.enter()?;
        let r = f(self);
        self.leave();
        r
    }

    // ---- top level -----------------------------------------------------

    fn parse_top_level(&mut self) -> PResult<()> {
        // Parse into an implicit module body; unwrap it if it holds exactly
        // one explicit `builtin.module`, as MLIR does.
        let region = self.new_region();
        let block = self.new_block(region, self.tok.span);
        self.push_region_scope();
        self.block_scopes.push(BlockScope::default());
        let mut ops = Vec::new();
        loop {
            match self.tok.kind {
                Tok::Eof => break,
                Tok::HashId => self.parse_attr_alias_def()?,
                Tok::ExclId => self.parse_type_alias_def()?,
                Tok::FileMetadataBegin => self.parse_file_metadata()?,
                Tok::BareId if self.lang2019 && self.is_kw("func") => {
                    let op = self.parse_func_2019()?;
                    self.m.ops[op.0 as usize].parent = Some(block);
                    ops.push(op);
                }
                _ => {
                    let op = self.parse_operation()?;
                    for p in std::mem::take(&mut self.pending) {
                        self.m.ops[p.0 as usize].parent = Some(block);
                        ops.push(p);
                    }
                    self.m.ops[op.0 as usize].parent = Some(block);
                    ops.push(op);
                }
            }
        }
        self.pop_region_scope()?;
        // Top-level ops form no region a label could name (fuzzing found a
        // top-level `cf.br ^bb1` accepted, printed, and then rejected).
        let scope = self.block_scopes.pop().unwrap_or_default();
        self.all_blocks_defined(&scope)?;
        self.finish_scope()?;
        self.resolve_loc_aliases(&ops)?;
        let single_module = ops.len() == 1 && self.m.op(ops[0]).name.kind == OpKind::BuiltinModule;
        if single_module {
            self.m.ops[ops[0].0 as usize].parent = None;
            self.m.top = Some(ops[0]);
        } else {
            self.m.blocks[block.0 as usize].ops = ops;
            let ident = self.m.ctx.ident("builtin.module");
            let st = OpState {
                name: Some(OpName { kind: OpKind::BuiltinModule, ident }),
                regions: vec![region],
                span: Span::new(0, 0),
                ..Default::default()
            };
            let top = self.create_op(st, None);
            self.m.top = Some(top);
        }
        // Values that were forward-referenced now point at their definitions.
        if !self.replaced.is_empty() {
            let r = std::mem::take(&mut self.replaced);
            for v in self.m.operand_pool.iter_mut() {
                let mut cur = *v;
                while let Some(n) = r.get(&cur) {
                    cur = *n;
                }
                *v = cur;
            }
        }
        Ok(())
    }

    fn parse_attr_alias_def(&mut self) -> PResult<()> {
        let span = self.tok.span;
        let name = &self.spelling()[1..];
        if name.contains('.') {
            return self.err("expected attribute alias name without a '.'");
        }
        let name: Box<str> = name.into();
        if self.attr_aliases.contains_key(&name) {
            return self.err(format!("redefinition of attribute alias id '{name}'"));
        }
        self.bump()?;
        if !self.is(Tok::Equal) {
            return self.err_at(span, "expected '=' in attribute alias definition");
        }
        self.bump()?;
        let a = self.parse_attribute(None)?;
        self.attr_aliases.insert(name.clone(), a);
        self.m.attr_aliases.push((name, a));
        Ok(())
    }

    fn parse_type_alias_def(&mut self) -> PResult<()> {
        let name = &self.spelling()[1..];
        // The 2019 document names an alias `!avx.m128`.
        if name.contains('.') && !self.lang2019 {
            return self.err("expected type alias name without a '.'");
        }
        let name: Box<str> = name.into();
        if self.type_aliases.contains_key(&name) {
            return self.err(format!("redefinition of type alias id '{name}'"));
        }
        self.bump()?;
        self.expect(Tok::Equal, "'=' in type alias definition")?;
        // 2019: `!name = type T`.
        if self.lang2019 {
            self.eat_kw("type")?;
        }
        let t = self.parse_type()?;
        self.type_aliases.insert(name.clone(), t);
        self.m.type_aliases.push((name, t));
        Ok(())
    }

    /// `{-# dialect_resources: { dialect: { key: "0x..." } }, external_resources: {..} #-}`
    fn parse_file_metadata(&mut self) -> PResult<()> {
        self.bump()?;
        loop {
            if !self.is(Tok::BareId) {
                return self.err("expected identifier key in file metadata dictionary");
            }
            let section = self.spelling();
            let is_dialect = match section {
                "dialect_resources" => true,
                "external_resources" => false,
                _ => return self.err(format!("unknown key '{section}' in file metadata dictionary")),
            };
            self.bump()?;
            self.expect(Tok::Colon, "':'")?;
            self.comma_list(Tok::LBrace, Tok::RBrace, "in resource section", |p| {
                if !p.is(Tok::BareId) && !p.is(Tok::String) {
                    return p.err("expected identifier key for 'resource' entry");
                }
                let dialect_span = p.tok.span;
                let dialect: Box<str> = p.key_spelling().into();
                if is_dialect && !crate::KNOWN_DIALECTS.contains(&&*dialect) {
                    return p.err_at(dialect_span, format!("dialect '{dialect}' is unknown"));
                }
                p.bump()?;
                p.expect(Tok::Colon, "':'")?;
                p.comma_list(Tok::LBrace, Tok::RBrace, "in resource group", |p| {
                    let span = p.tok.span;
                    if !p.is(Tok::BareId) && !p.is(Tok::String) {
                        return p.err("expected identifier key for 'resource' entry");
                    }
                    let key: Box<str> = p.key_spelling().into();
                    p.bump()?;
                    p.expect(Tok::Colon, "':'")?;
                    let value = p.parse_resource_value(if is_dialect { &dialect } else { "" }, &key)?;
                    p.m.resources.push(Resource { external: !is_dialect, dialect: dialect.clone(), key, value, span });
                    Ok(())
                })
            })?;
            if !self.eat(Tok::Comma)? {
                break;
            }
        }
        self.expect(Tok::FileMetadataEnd, "',' or '#-}'")
    }

    /// The text of a bare-id or string key.
    pub fn key_spelling(&self) -> String {
        if self.is(Tok::String) {
            String::from_utf8_lossy(&crate::lexer::unescape(self.spelling())).into_owned()
        } else {
            self.spelling().to_string()
        }
    }

    fn parse_resource_value(&mut self, dialect: &str, key: &str) -> PResult<ResourceValue> {
        if self.is_kw("true") || self.is_kw("false") {
            let b = self.is_kw("true");
            self.bump()?;
            return Ok(ResourceValue::Bool(b));
        }
        if !self.is(Tok::String) {
            return self.err("expected string, bool or hex blob in resource entry");
        }
        let bytes = crate::lexer::unescape(self.spelling());
        let span = self.tok.span;
        self.bump()?;
        if bytes.starts_with(b"0x") {
            let data = match decode_hex(&bytes[2..]) {
                Some(d) => d,
                None => return self.err_at(span, format!("expected hex string blob for key '{key}'")),
            };
            if data.len() < 4 {
                return self.err_at(
                    span,
                    format!("expected hex string blob for key '{key}' to encode alignment in first 4 bytes"),
                );
            }
            let align = u32::from_le_bytes([data[0], data[1], data[2], data[3]]);
            if !align.is_power_of_two() {
                return self.err_at(
                    span,
                    format!("expected hex string blob for key '{key}' to encode alignment in first 4 bytes, but got non-power-of-2 value: {align}"),
                );
            }
            return Ok(ResourceValue::Blob { align, data: data[4..].to_vec() });
        }
        if dialect == "builtin" {
            // The builtin dialect's resources are blobs for `dense_resource`.
            return self.err_at(span, format!("expected hex string blob for key '{key}'"));
        }
        Ok(ResourceValue::String(bytes))
    }

    // ---- arenas --------------------------------------------------------

    /// A new empty region.
    pub fn new_region(&mut self) -> RegionId {
        self.m.regions.push(Region::default());
        RegionId(self.m.regions.len() as u32 - 1)
    }

    /// A new empty block appended to `region`.
    pub fn new_block(&mut self, region: RegionId, span: Span) -> BlockId {
        let id = BlockId(self.m.blocks.len() as u32);
        self.m.blocks.push(Block { parent: Some(region), span, ..Default::default() });
        self.m.regions[region.0 as usize].blocks.push(id);
        id
    }

    fn new_value(&mut self, ty: TypeId, def: ValueDef, span: Span) -> ValueId {
        self.m.values.push(Value { ty, def, span });
        ValueId(self.m.values.len() as u32 - 1)
    }

    /// Adds an argument of type `ty` to `block`.
    pub fn add_block_arg(&mut self, block: BlockId, ty: TypeId, span: Span) -> ValueId {
        let b = &self.m.blocks[block.0 as usize];
        let n = b.args.len;
        let v = ValueId(self.m.values.len() as u32);
        if n == 0 {
            self.m.blocks[block.0 as usize].args = Range { start: v.0, len: 0 };
        } else if b.args.start + n != v.0 {
            // Arguments stay consecutive: move existing ones to the end.
            let old: Vec<Value> = b.args.indices().map(|i| self.m.values[i]).collect();
            let start = self.m.values.len() as u32;
            for (i, val) in old.into_iter().enumerate() {
                self.m.values.push(val);
                let from = ValueId(b.args.start + i as u32);
                self.replaced.insert(from, ValueId(start + i as u32));
            }
            self.m.blocks[block.0 as usize].args = Range { start, len: n };
            // Scope entries keep the old ids; `replaced` maps them.
        }
        let idx = self.m.blocks[block.0 as usize].args.len;
        let v = self.new_value(ty, ValueDef::Arg(block, idx), span);
        self.m.blocks[block.0 as usize].args.len += 1;
        v
    }

    /// Creates an op from `st`, with results, and links its regions.
    pub fn create_op(&mut self, st: OpState, loc: Option<AttrId>) -> OpId {
        let id = OpId(self.m.ops.len() as u32);
        let operands = pool(&mut self.m.operand_pool, st.operands);
        let successors = pool(&mut self.m.succ_pool, st.successors);
        for r in &st.regions {
            self.m.regions[r.0 as usize].parent = Some(id);
        }
        let regions = pool(&mut self.m.region_pool, st.regions);
        let start = self.m.values.len() as u32;
        for (i, t) in st.result_types.iter().enumerate() {
            self.new_value(*t, ValueDef::Result(id, i as u32), st.span);
        }
        let results = Range { start, len: st.result_types.len() as u32 };
        let name = st.name.unwrap_or(OpName { kind: OpKind::Unknown, ident: Ident(0) });
        self.m.ops.push(Operation {
            name,
            operands,
            results,
            successors,
            regions,
            properties: st.properties,
            attrs: st.attrs,
            span: st.span,
            loc,
            parent: None,
        });
        id
    }

    // ---- SSA names -------------------------------------------------------

    fn push_region_scope(&mut self) {
        innermost(&mut self.scopes).region_defs.push(Vec::new());
    }

    fn pop_region_scope(&mut self) -> PResult<()> {
        let sc = innermost(&mut self.scopes);
        if let Some(defs) = sc.region_defs.pop() {
            for n in defs {
                sc.values.remove(&n);
            }
        }
        Ok(())
    }

    fn push_isolated(&mut self) {
        self.scopes.push(IsolatedScope::default());
    }

    /// Closes an isolated scope: leftover forward references are errors.
    fn finish_scope(&mut self) -> PResult<()> {
        let sc = self.scopes.pop().unwrap_or_default();
        if let Some(fr) = sc.forward.values().min_by_key(|f| f.span.start) {
            return self.err_at(fr.span, "use of undeclared SSA value name");
        }
        Ok(())
    }

    /// Parses `%name ,` when `present` (a stored value before its address
    /// or vector), else nothing.
    pub(crate) fn parse_leading_use(&mut self, present: bool) -> PResult<Option<UseName>> {
        if !present {
            return Ok(None);
        }
        let u = self.parse_use_name()?;
        self.expect(Tok::Comma, "','")?;
        Ok(Some(u))
    }

    /// Parses `%name` or `%name#N`.
    pub fn parse_use_name(&mut self) -> PResult<UseName> {
        if !self.is(Tok::PercentId) {
            return self.err("expected SSA operand");
        }
        let span = self.tok.span;
        let name = self.m.ctx.ident(self.spelling());
        self.bump()?;
        let mut number = 0;
        // `#N` is lexed as a hash id right after the name.
        if self.is(Tok::HashId) && self.tok.span.start == span.end {
            let s = &self.spelling()[1..];
            number = match s.parse::<u32>() {
                Ok(n) => n,
                Err(_) => return self.err("invalid SSA value result number"),
            };
            self.bump()?;
        }
        Ok(UseName { name, number, span })
    }

    /// Resolves a use to a value of type `ty` (a placeholder if not yet defined).
    pub fn resolve(&mut self, u: UseName, ty: TypeId) -> PResult<ValueId> {
        let sc = innermost(&mut self.scopes);
        if let Some(vals) = sc.values.get(&u.name) {
            let v = vals.get(u.number as usize).copied().flatten();
            let Some(v) = v else {
                let n = vals.len();
                let name = self.m.ctx.str(u.name).to_string();
                let _ = (n, name);
                return self.err_at(u.span, "reference to invalid result number");
            };
            let vt = self.m.value(v).ty;
            if vt != ty && self.views_2019.get(&v) != Some(&ty) {
                return self.err_at(
                    u.span,
                    format!(
                        "use of value '{}' expects different type than prior uses: '{}' vs '{}'",
                        self.m.ctx.str(u.name),
                        self.type_str(ty),
                        self.type_str(vt)
                    ),
                );
            }
            return Ok(v);
        }
        if let Some(fr) = sc.forward.get(&(u.name, u.number)) {
            let p = fr.placeholder;
            let pt = self.m.value(p).ty;
            if pt != ty {
                return self.err_at(
                    u.span,
                    format!(
                        "use of value '{}' expects different type than prior uses: '{}' vs '{}'",
                        self.m.ctx.str(u.name),
                        self.type_str(ty),
                        self.type_str(pt)
                    ),
                );
            }
            return Ok(p);
        }
        let p = self.new_value(ty, ValueDef::Result(OpId(u32::MAX), u.number), u.span);
        self.placeholders.insert(p);
        let sc = innermost(&mut self.scopes);
        sc.forward.insert((u.name, u.number), ForwardRef { placeholder: p, span: u.span });
        Ok(p)
    }

    /// Binds name `name` (result group of `count`) to values.
    pub fn define(&mut self, name: Ident, span: Span, values: &[ValueId]) -> PResult<()> {
        let sc = innermost(&mut self.scopes);
        if sc.values.contains_key(&name) {
            let s = self.m.ctx.str(name).to_string();
            return self.err_at(span, format!("redefinition of SSA value '{s}'"));
        }
        for (i, v) in values.iter().enumerate() {
            if let Some(fr) = sc.forward.remove(&(name, i as u32)) {
                let pt = self.m.values[fr.placeholder.0 as usize].ty;
                let vt = self.m.values[v.0 as usize].ty;
                if pt != vt {
                    let s = self.m.ctx.str(name).to_string();
                    let (a, b) = (self.type_str(vt), self.type_str(pt));
                    let suffix = if values.len() > 1 { format!("#{i}") } else { String::new() };
                    return self
                        .err_at(span, format!("definition of SSA value '{s}{suffix}' has type '{a}'"))
                        .map_err(|d| d.with_note(fr.span, format!("previously used here with type '{b}'")));
                }
                self.placeholders.remove(&fr.placeholder);
                self.replaced.insert(fr.placeholder, *v);
            }
        }
        // A use of `%x#5` on a group of two never gets defined.
        let sc = innermost(&mut self.scopes);
        if let Some(((_, n), fr)) = sc.forward.iter().find(|((nm, _), _)| *nm == name) {
            let n = *n;
            let sp = fr.span;
            let s = self.m.ctx.str(name).to_string();
            return self
                .err_at(sp, format!("reference to invalid result number: {s}#{n} (op has {} results)", values.len()));
        }
        let sc = innermost(&mut self.scopes);
        sc.values.insert(name, values.iter().map(|v| Some(*v)).collect());
        if let Some(d) = sc.region_defs.last_mut() {
            d.push(name);
        }
        Ok(())
    }

    /// Defines a region entry argument named in the op's syntax.
    fn define_region_arg(&mut self, u: &UseName, v: ValueId) -> PResult<()> {
        let sc = innermost(&mut self.scopes);
        if sc.values.contains_key(&u.name) {
            let n = self.m.ctx.str(u.name).to_string();
            return self.err_at(u.span, format!("region entry argument '{n}' is already in use"));
        }
        self.define(u.name, u.span, &[v])
    }

    /// The printed form of a type, for messages.
    pub fn type_str(&self, t: TypeId) -> String {
        crate::printer::type_to_string(&self.m.ctx, t)
    }

    // ---- operations ------------------------------------------------------

    /// Parses one operation (with its result list and trailing location).
    pub fn parse_operation(&mut self) -> PResult<OpId> {
        self.nested(|p| p.parse_operation_inner())
    }

    fn parse_operation_inner(&mut self) -> PResult<OpId> {
        let span = self.tok.span;
        // Result list: `%a, %b:2 =`.
        let mut results: Vec<(Ident, u32, Span)> = Vec::new();
        if self.is(Tok::PercentId) {
            loop {
                if !self.is(Tok::PercentId) {
                    return self.err("expected valid ssa identifier");
                }
                let rspan = self.tok.span;
                let name = self.m.ctx.ident(self.spelling());
                self.bump()?;
                let mut count = 1;
                if self.eat(Tok::Colon)? {
                    if !self.is(Tok::Integer) {
                        return self.err("expected integer number of results");
                    }
                    count = match self.spelling().parse::<u32>() {
                        Ok(n) if n >= 1 => n,
                        _ => return self.err("expected named operation to have at least 1 result"),
                    };
                    self.bump()?;
                }
                results.push((name, count, rspan));
                if !self.eat(Tok::Comma)? {
                    break;
                }
            }
            self.expect(Tok::Equal, "'=' after SSA name")?;
        }
        let mut expected: u32 = results.iter().map(|r| r.1).sum();
        let name_span = self.tok.span;
        if self.lang2019 && self.is(Tok::Ellipsis) {
            return self.err_here("`...` is the document's elision of code, not an operation");
        }
        let unprefixed_2019 = self.lang2019 && self.is(Tok::BareId) && !self.spelling().contains('.');
        let (op, vals) = match self.tok.kind {
            Tok::BareId if unprefixed_2019 => self.parse_op_2019(name_span, expected)?,
            Tok::String => {
                let op = self.parse_generic_op(name_span)?;
                self.with_results(op)
            }
            Tok::BareId => {
                let op = self.parse_custom_op(name_span, expected, &results)?;
                self.with_results(op)
            }
            _ => return self.err("expected operation name in quotes"),
        };
        let n = vals.len() as u32;
        // 2019: one name binds all results (`%0 = affine_apply ..`, used as `%0#1`).
        if self.lang2019 && results.len() == 1 && results[0].1 == 1 && n > 1 {
            results[0].1 = n;
            expected = n;
        }
        if !results.is_empty() && n != expected {
            return self.err_at(span, format!("operation defines {n} results but was provided {expected} to bind"));
        }
        let mut next = 0usize;
        for (name, count, rspan) in results {
            let group = &vals[next..next + count as usize];
            next += count as usize;
            self.define(name, rspan, group)?;
        }
        Ok(op)
    }

    /// `op` with its result values.
    fn with_results(&self, op: OpId) -> (OpId, Vec<ValueId>) {
        (op, self.m.op(op).results.indices().map(|i| ValueId(i as u32)).collect())
    }

    /// Parses an optional trailing `loc(...)`.
    pub fn parse_trailing_loc(&mut self) -> PResult<Option<AttrId>> {
        if self.is_kw("loc") {
            return Ok(Some(self.parse_location()?));
        }
        Ok(None)
    }

    /// Resolves an op name written in generic form.
    fn op_name(&mut self, name: &str, span: Span) -> PResult<OpName> {
        let ident = self.m.ctx.ident(name);
        if let Some(kind) = OpKind::from_name(name) {
            return Ok(OpName { kind, ident });
        }
        let dialect = name.split('.').next().unwrap_or("");
        if CLOSED_DIALECTS.contains(&dialect) && name.contains('.') {
            return self.err_at(
                span,
                format!(
                    "unregistered operation '{name}' found in dialect ('{dialect}') that does not allow unknown operations"
                ),
            );
        }
        Ok(OpName { kind: OpKind::Unknown, ident })
    }

    fn parse_generic_op(&mut self, span: Span) -> PResult<OpId> {
        let name_span = self.tok.span;
        let raw = crate::lexer::unescape(self.spelling());
        let name = String::from_utf8_lossy(&raw).into_owned();
        if name.is_empty() {
            return self.err("empty operation name is invalid");
        }
        self.bump()?;
        // 2019 generic forms name standard ops without a prefix (`"addi"`).
        let name = match self.lang2019.then(|| lang2019::generic_name(&name)).flatten() {
            Some(modern) => modern.to_string(),
            None => name,
        };
        let name = self.op_name(&name, name_span)?;
        let mut st = OpState { name: Some(name), span, ..Default::default() };
        let mut uses = Vec::new();
        self.expect(Tok::LParen, "'(' to start operand list")?;
        if !self.is(Tok::RParen) {
            loop {
                uses.push(self.parse_use_name()?);
                if !self.eat(Tok::Comma)? {
                    break;
                }
            }
        }
        self.expect(Tok::RParen, "')' to end operand list")?;
        if self.is(Tok::LSquare) {
            let mut succ = Vec::new();
            self.comma_list(Tok::LSquare, Tok::RSquare, "in successor list", |p| {
                succ.push(p.parse_successor_ref()?);
                if p.lang2019 && p.is(Tok::LParen) {
                    return p.err_here(
                        "successor operands in a generic op's successor list (2019's `^bb(%v : T)`) are not supported; \
                         write the branch in its custom form (`cond_br %c, ^bb1, ^bb2(%v : index)`)",
                    );
                }
                Ok(())
            })?;
            st.successors = succ;
        }
        if self.is(Tok::Less) {
            self.bump()?;
            if !self.is(Tok::LBrace) {
                return self.err("expected '{' to start properties");
            }
            let d = self.parse_dictionary_attr()?;
            st.properties = Some(d);
            self.expect(Tok::Greater, "'>' to close properties")?;
        }
        if self.is(Tok::LParen) {
            let isolated = name.kind.has(traits::ISOLATED);
            self.bump()?;
            loop {
                let r = self.parse_region(&[], isolated)?;
                st.regions.push(r);
                if !self.eat(Tok::Comma)? {
                    break;
                }
            }
            self.expect(Tok::RParen, "')' to end region list")?;
        }
        if self.is(Tok::LBrace) {
            st.attrs = self.parse_attr_dict_entries()?;
        }
        if !self.is(Tok::Colon) {
            return self.err("expected ':' followed by operation type");
        }
        self.bump()?;
        let type_span = self.tok.span;
        let mut ft = self.parse_type()?;
        // 2019 generic ops may write one operand type unparenthesised: `: T -> ()`.
        if self.lang2019 && self.is(Tok::Arrow) {
            self.bump()?;
            let results = self.parse_function_result_types()?;
            ft = self.m.ctx.ty(crate::types::TypeKind::Function { inputs: vec![ft], results });
        }
        let (inputs, results) = match self.m.ctx.type_kind(ft) {
            crate::types::TypeKind::Function { inputs, results } => (inputs.clone(), results.clone()),
            _ => return self.err_at(type_span, "expected function type"),
        };
        if inputs.len() != uses.len() {
            return self.err_at(
                type_span,
                format!(
                    "expected {} operand type{} but had {}",
                    uses.len(),
                    if uses.len() == 1 { "" } else { "s" },
                    inputs.len()
                ),
            );
        }
        for (u, t) in uses.into_iter().zip(inputs) {
            let v = self.resolve(u, t)?;
            st.operands.push(v);
        }
        st.result_types = results;
        let loc = self.parse_trailing_loc()?;
        // mlir-opt converts the properties into the op's storage as it
        // builds the op, after reading all of it.
        if let Some(p) = st.properties {
            if let Some(msg) = crate::verify::properties::conversion_error(&self.m.ctx, name.kind, p) {
                return self.err_at(span, msg);
            }
            st.properties = Some(crate::verify::properties::settle(&mut self.m.ctx, name.kind, p, &mut st.attrs));
        }
        self.default_segments(&mut st);
        Ok(self.create_op(st, loc))
    }

    /// Gives a generic op that leaves out its `operandSegmentSizes` property
    /// the all-zero one mlir-opt's property storage starts from (which the
    /// verifier then holds against the operand count).
    fn default_segments(&mut self, st: &mut OpState) {
        let Some(n) = st.name.and_then(|k| crate::verify::properties::segment_count(k.kind)) else { return };
        let key = self.m.ctx.ident("operandSegmentSizes");
        let mut entries = match st.properties.map(|p| self.m.ctx.attr_kind(p)) {
            Some(Attribute::Dict(e)) => e.clone(),
            _ => Vec::new(),
        };
        if entries.iter().chain(&st.attrs).any(|(k, _)| *k == key) {
            return;
        }
        let elem = self
            .m
            .ctx
            .ty(crate::types::TypeKind::Integer { width: 32, signedness: crate::types::Signedness::Signless });
        let zeros = Attribute::DenseArray {
            elem,
            values: crate::attrs::DenseValues::Ints(vec![crate::attrs::IntVal::Small(0); n]),
        };
        let zeros = self.m.ctx.attr(zeros);
        entries.push((key, zeros));
        st.properties = Some(self.m.ctx.attr(Attribute::Dict(entries)));
    }

    /// Parses `^bb` in a successor position.
    pub fn parse_successor_ref(&mut self) -> PResult<BlockId> {
        if !self.is(Tok::CaretId) {
            return self.err("expected block name");
        }
        let name = self.m.ctx.ident(self.spelling());
        let span = self.tok.span;
        self.bump()?;
        let Some(scope) = self.block_scopes.last_mut() else {
            return self.err_at(span, "successors are only allowed inside a region");
        };
        if let Some((b, _, _)) = scope.blocks.get(&name) {
            return Ok(*b);
        }
        // Forward reference: allocate the block now, place it when defined.
        let id = BlockId(self.m.blocks.len() as u32);
        self.m.blocks.push(Block { span, ..Default::default() });
        innermost(&mut self.block_scopes).blocks.insert(name, (id, false, span));
        Ok(id)
    }

    /// Parses `{ blocks }` with `entry_args` defined in the entry block.
    pub fn parse_region(&mut self, entry_args: &[(UseName, TypeId)], isolated: bool) -> PResult<RegionId> {
        self.nested(|p| p.parse_region_inner(entry_args, isolated))
    }

    fn parse_region_inner(&mut self, entry_args: &[(UseName, TypeId)], isolated: bool) -> PResult<RegionId> {
        let open = self.tok.span;
        self.expect(Tok::LBrace, "'{' to begin a region")?;
        let region = self.new_region();
        if isolated {
            self.push_isolated();
        }
        self.push_region_scope();
        self.block_scopes.push(BlockScope::default());
        let res = self.parse_region_body(region, open, entry_args);
        let res = res.and_then(|_| self.pop_region_scope());
        let scope = self.block_scopes.pop().unwrap_or_default();
        res?;
        self.all_blocks_defined(&scope)?;
        if isolated {
            self.finish_scope()?;
        }
        Ok(region)
    }

    /// Fails at the first reference to a block label the scope never defined.
    fn all_blocks_defined(&self, scope: &BlockScope) -> PResult<()> {
        let undefined = scope.blocks.values().filter(|(_, defined, _)| !defined).min_by_key(|(_, _, s)| s.start);
        match undefined {
            Some((_, _, span)) => self.err_at(*span, "reference to an undefined block"),
            None => Ok(()),
        }
    }

    fn parse_region_body(&mut self, region: RegionId, open: Span, entry_args: &[(UseName, TypeId)]) -> PResult<()> {
        if self.is(Tok::RBrace) {
            let _ = open;
            if !entry_args.is_empty() {
                // `{ }` with named arguments still gets its entry block.
                let block = self.new_block(region, self.tok.span);
                for (u, t) in entry_args {
                    let v = self.add_block_arg(block, *t, u.span);
                    self.define_region_arg(u, v)?;
                }
            }
            self.m.regions[region.0 as usize].close = self.tok.span;
            return self.bump();
        }
        // The entry block may be unlabelled.
        let mut first = true;
        while !self.is(Tok::RBrace) {
            if self.is(Tok::Eof) {
                return self.err("expected '}' to end a region");
            }
            let block;
            if self.is(Tok::CaretId) {
                if first && !entry_args.is_empty() {
                    return self.err("invalid block name in region with named arguments");
                }
                block = self.parse_block_label(region)?;
            } else if first {
                block = self.new_block(region, self.tok.span);
                for (u, t) in entry_args {
                    let v = self.add_block_arg(block, *t, u.span);
                    self.define_region_arg(u, v)?;
                }
            } else {
                return self.err("expected block name");
            }
            first = false;
            self.parse_block_ops(block)?;
        }
        self.m.regions[region.0 as usize].close = self.tok.span;
        self.bump()
    }

    fn parse_block_label(&mut self, region: RegionId) -> PResult<BlockId> {
        let span = self.tok.span;
        let name = self.m.ctx.ident(self.spelling());
        self.bump()?;
        let scope = innermost(&mut self.block_scopes);
        let block = match scope.blocks.get(&name).copied() {
            Some((_, true, _)) => {
                let n = self.m.ctx.str(name).to_string();
                return self.err_at(span, format!("redefinition of block '{n}'"));
            }
            Some((b, false, _)) => {
                scope.blocks.insert(name, (b, true, span));
                self.m.blocks[b.0 as usize].parent = Some(region);
                self.m.blocks[b.0 as usize].span = span;
                self.m.regions[region.0 as usize].blocks.push(b);
                b
            }
            None => {
                let b = self.new_block(region, span);
                innermost(&mut self.block_scopes).blocks.insert(name, (b, true, span));
                b
            }
        };
        if self.is(Tok::LParen) {
            self.comma_list(Tok::LParen, Tok::RParen, "in block argument list", |p| {
                let u = p.parse_use_name()?;
                if u.number != 0 || p.text[u.span.start as usize..u.span.end as usize].contains('#') {
                    return p.err_at(u.span, "expected SSA identifier");
                }
                p.expect(Tok::Colon, "':' and type for SSA operand")?;
                let t = p.parse_type()?;
                let v = p.add_block_arg(block, t, u.span);
                p.parse_trailing_loc()?;
                p.define(u.name, u.span, &[v])
            })?;
        }
        self.expect(Tok::Colon, "':' after block name")?;
        Ok(block)
    }

    fn parse_block_ops(&mut self, block: BlockId) -> PResult<()> {
        while !self.is(Tok::CaretId) && !self.is(Tok::RBrace) {
            if self.is(Tok::Eof) {
                return self.err("expected operation name in quotes");
            }
            let op = self.parse_operation()?;
            for p in std::mem::take(&mut self.pending) {
                self.m.ops[p.0 as usize].parent = Some(block);
                self.m.blocks[block.0 as usize].ops.push(p);
            }
            self.m.ops[op.0 as usize].parent = Some(block);
            self.m.blocks[block.0 as usize].ops.push(op);
        }
        Ok(())
    }
}

impl<'a> Parser<'a> {
    /// Checks deferred `loc(#alias)` uses and replaces top-level op locations.
    fn resolve_loc_aliases(&mut self, _ops: &[OpId]) -> PResult<()> {
        if let Some((name, span)) =
            self.pending_loc_aliases.iter().find(|(n, _)| !self.attr_aliases.contains_key(n.as_str()))
        {
            let _ = name;
            return self.err_at(*span, "operation location alias was never defined");
        }
        let marker = self.m.ctx.idents.get("#loc-alias");
        for i in 0..self.m.ops.len() {
            let Some(l) = self.m.ops[i].loc else { continue };
            if let Attribute::Dialect { dialect, body } = self.m.ctx.attr_kind(l) {
                if Some(*dialect) == marker {
                    self.m.ops[i].loc = self.attr_aliases.get(body).copied();
                }
            }
        }
        Ok(())
    }
}

/// A sign and magnitude from an integer spelling.
pub(crate) fn attrs_lit(neg: bool, s: &str) -> (bool, num_bigint::BigInt) {
    use num_traits::Num;
    let v = match s.strip_prefix("0x") {
        Some(h) => num_bigint::BigInt::from_str_radix(h, 16),
        None => num_bigint::BigInt::from_str_radix(s, 10),
    };
    (neg, v.unwrap_or_default())
}

/// The innermost of a stack of scopes. The parser creates the outermost
/// isolated scope with itself and every region pushes a block scope before
/// parsing its blocks, so the stack is never empty when this is called; an
/// empty stack gets a fresh scope rather than a panic.
fn innermost<T: Default>(stack: &mut Vec<T>) -> &mut T {
    if stack.is_empty() {
        stack.push(T::default());
    }
    let n = stack.len() - 1;
    &mut stack[n]
}

fn pool<T>(v: &mut Vec<T>, items: Vec<T>) -> Range {
    let start = v.len() as u32;
    let len = items.len() as u32;
    v.extend(items);
    Range { start, len }
}

/// Decodes hex digits (even count) into bytes.
pub fn decode_hex(s: &[u8]) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    s.chunks(2)
        .map(|c| {
            let h = (c[0] as char).to_digit(16)?;
            let l = (c[1] as char).to_digit(16)?;
            Some((h * 16 + l) as u8)
        })
        .collect()
}
