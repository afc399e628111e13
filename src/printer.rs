//! Printing: types, attributes and whole modules in generic op form, which
//! mlir-opt reads back to the same module.

use crate::attrs::*;
use crate::ir::*;
use crate::types::*;
use rustc_hash::FxHashMap;
use std::fmt::Write;

/// A type as text.
pub fn type_to_string(ctx: &Context, t: TypeId) -> String {
    let mut s = String::new();
    write_type(&mut s, ctx, t);
    s
}

/// An attribute as text.
pub fn attr_to_string(ctx: &Context, a: AttrId) -> String {
    let mut s = String::new();
    write_attr(&mut s, ctx, a);
    s
}

/// An attribute as text where its type may be elided (a memory space).
pub fn elided_attr_to_string(ctx: &Context, a: AttrId) -> String {
    let mut s = String::new();
    write_attr_elided(&mut s, ctx, a);
    s
}

fn write_dims(out: &mut String, shape: &[i64], scalable: Option<&[bool]>) {
    for (i, d) in shape.iter().enumerate() {
        let sc = scalable.map(|s| s[i]).unwrap_or(false);
        if sc {
            let _ = write!(out, "[{d}]x");
        } else if *d == DYNAMIC {
            out.push_str("?x");
        } else {
            let _ = write!(out, "{d}x");
        }
    }
}

fn write_type_list(out: &mut String, ctx: &Context, ts: &[TypeId]) {
    for (i, t) in ts.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_type(out, ctx, *t);
    }
}

/// Writes `(ins) -> outs` with MLIR's parenthesisation of results.
pub fn write_function_type(out: &mut String, ctx: &Context, ins: &[TypeId], outs: &[TypeId]) {
    out.push('(');
    write_type_list(out, ctx, ins);
    out.push_str(") -> ");
    let single_plain = outs.len() == 1 && !matches!(ctx.type_kind(outs[0]), TypeKind::Function { .. });
    if single_plain {
        write_type(out, ctx, outs[0]);
    } else {
        out.push('(');
        write_type_list(out, ctx, outs);
        out.push(')');
    }
}

/// Writes type `t`.
pub fn write_type(out: &mut String, ctx: &Context, t: TypeId) {
    match ctx.type_kind(t) {
        TypeKind::Integer { width, signedness } => {
            let p = match signedness {
                Signedness::Signless => "i",
                Signedness::Signed => "si",
                Signedness::Unsigned => "ui",
            };
            let _ = write!(out, "{p}{width}");
        }
        TypeKind::Index => out.push_str("index"),
        TypeKind::Float(k) => out.push_str(k.name()),
        TypeKind::None => out.push_str("none"),
        TypeKind::Complex(e) => {
            out.push_str("complex<");
            write_type(out, ctx, *e);
            out.push('>');
        }
        TypeKind::Vector { shape, scalable, elem } => {
            out.push_str("vector<");
            write_dims(out, shape, Some(scalable));
            write_type(out, ctx, *elem);
            out.push('>');
        }
        TypeKind::RankedTensor { shape, elem, encoding } => {
            out.push_str("tensor<");
            write_dims(out, shape, None);
            write_type(out, ctx, *elem);
            if let Some(e) = encoding {
                out.push_str(", ");
                write_attr(out, ctx, *e);
            }
            out.push('>');
        }
        TypeKind::UnrankedTensor { elem } => {
            out.push_str("tensor<*x");
            write_type(out, ctx, *elem);
            out.push('>');
        }
        TypeKind::MemRef { shape, elem, layout, space } => {
            out.push_str("memref<");
            write_dims(out, shape, None);
            write_type(out, ctx, *elem);
            if let Some(l) = layout {
                out.push_str(", ");
                write_attr(out, ctx, *l);
            }
            if let Some(s) = space {
                out.push_str(", ");
                write_attr_elided(out, ctx, *s);
            }
            out.push('>');
        }
        TypeKind::UnrankedMemRef { elem, space } => {
            out.push_str("memref<*x");
            write_type(out, ctx, *elem);
            if let Some(s) = space {
                out.push_str(", ");
                write_attr_elided(out, ctx, *s);
            }
            out.push('>');
        }
        TypeKind::Tuple(ts) => {
            out.push_str("tuple<");
            write_type_list(out, ctx, ts);
            out.push('>');
        }
        TypeKind::Function { inputs, results } => write_function_type(out, ctx, inputs, results),
        TypeKind::Dialect { dialect, body } => {
            let _ = write!(out, "!{}{}", ctx.str(*dialect), body);
        }
        TypeKind::LlvmPtr(_)
        | TypeKind::LlvmArray { .. }
        | TypeKind::LlvmStruct { .. }
        | TypeKind::LlvmVoid
        | TypeKind::LlvmFunc { .. } => {
            out.push_str("!llvm.");
            write_llvm_body(out, ctx, t);
        }
    }
}

/// Writes a type nested in an llvm type: llvm types (structured, or kept as
/// text) drop their `!llvm.` prefix there, as mlir-opt prints them.
fn write_llvm_nested(out: &mut String, ctx: &Context, t: TypeId) {
    match ctx.type_kind(t) {
        k if k.is_llvm() => write_llvm_body(out, ctx, t),
        TypeKind::Dialect { dialect, body } if ctx.str(*dialect) == "llvm" && body.starts_with('.') => {
            out.push_str(&body[1..])
        }
        _ => write_type(out, ctx, t),
    }
}

fn write_llvm_list(out: &mut String, ctx: &Context, ts: &[TypeId]) {
    for (i, t) in ts.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_llvm_nested(out, ctx, *t);
    }
}

/// The body of a structured llvm type: `ptr<1>`, `array<4 x i8>`, ...
fn write_llvm_body(out: &mut String, ctx: &Context, t: TypeId) {
    match ctx.type_kind(t) {
        TypeKind::LlvmPtr(0) => out.push_str("ptr"),
        TypeKind::LlvmPtr(n) => {
            let _ = write!(out, "ptr<{n}>");
        }
        TypeKind::LlvmArray { len, elem } => {
            let _ = write!(out, "array<{len} x ");
            write_llvm_nested(out, ctx, *elem);
            out.push('>');
        }
        TypeKind::LlvmStruct { name, packed, body } => {
            out.push_str("struct<");
            if let Some(n) = name {
                write_string(out, n.as_bytes());
                if *body == LlvmStructBody::Recursive {
                    out.push('>');
                    return;
                }
                out.push_str(", ");
            }
            if *packed {
                out.push_str("packed ");
            }
            match body {
                LlvmStructBody::Fields(fs) => {
                    out.push('(');
                    write_llvm_list(out, ctx, fs);
                    out.push(')');
                }
                LlvmStructBody::Opaque | LlvmStructBody::Recursive => out.push_str("opaque"),
            }
            out.push('>');
        }
        TypeKind::LlvmVoid => out.push_str("void"),
        TypeKind::LlvmFunc { ret, params, vararg } => {
            out.push_str("func<");
            write_llvm_nested(out, ctx, *ret);
            out.push_str(" (");
            write_llvm_list(out, ctx, params);
            if *vararg {
                out.push_str(if params.is_empty() { "..." } else { ", ..." });
            }
            out.push_str(")>");
        }
        _ => write_type(out, ctx, t),
    }
}

/// Writes bytes as an MLIR string literal with escapes.
pub fn write_string(out: &mut String, s: &[u8]) {
    out.push('"');
    for &b in s {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            0x20..=0x7e => out.push(b as char),
            _ => {
                let _ = write!(out, "\\{b:02X}");
            }
        }
    }
    out.push('"');
}

fn is_bare_id(s: &[u8]) -> bool {
    !s.is_empty()
        && (s[0].is_ascii_alphabetic() || s[0] == b'_')
        && s.iter().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.'))
}

fn write_symbol(out: &mut String, s: &[u8]) {
    out.push('@');
    if is_bare_id(s) {
        out.push_str(&String::from_utf8_lossy(s));
    } else {
        write_string(out, s);
    }
}

/// Writes a dictionary key: bare when it lexes as one, else quoted.
fn write_key(out: &mut String, s: &str) {
    if is_bare_id(s.as_bytes()) {
        out.push_str(s);
    } else {
        write_string(out, s.as_bytes());
    }
}

fn write_int(out: &mut String, ctx: &Context, v: &IntVal, ty: TypeId) {
    if let TypeKind::Integer { width: 1, signedness: Signedness::Signless } = ctx.type_kind(ty) {
        out.push_str(if *v == IntVal::Small(0) { "false" } else { "true" });
        return;
    }
    let _ = write!(out, "{v}");
}

fn write_float(out: &mut String, v: &FloatLit) {
    match v {
        FloatLit::Decimal(s) => out.push_str(s),
        FloatLit::Bits(b) => {
            let _ = write!(out, "0x{b:X}");
        }
    }
}

/// Writes the elements of a dense attribute nested by `shape`.
fn write_elements(out: &mut String, ctx: &Context, shape: &[i64], values: &DenseValues, elem: TypeId, splat: bool) {
    let complex = matches!(ctx.type_kind(elem), TypeKind::Complex(_));
    let base = match ctx.type_kind(elem) {
        TypeKind::Complex(e) => *e,
        _ => elem,
    };
    let per = if complex { 2 } else { 1 };
    let write_one = |out: &mut String, i: usize| {
        let one = |out: &mut String, j: usize| match values {
            DenseValues::Ints(v) => write_int(out, ctx, &v[j], base),
            DenseValues::Floats(v) => write_float(out, &v[j]),
            DenseValues::Strings(v) => write_string(out, &v[j]),
            DenseValues::Hex(_) => {}
        };
        if complex {
            out.push('(');
            one(out, i * 2);
            out.push_str(", ");
            one(out, i * 2 + 1);
            out.push(')');
        } else {
            one(out, i);
        }
    };
    let count = match values {
        DenseValues::Ints(v) => v.len(),
        DenseValues::Floats(v) => v.len(),
        DenseValues::Strings(v) => v.len(),
        DenseValues::Hex(_) => 0,
    } / per;
    if count == 0 && !splat {
        // mlir-opt spells an elements attribute without elements `dense<>`.
        return;
    }
    // Equal elements make a splat, as mlir-opt stores (and prints) them.
    let same = |a: usize, b: usize| match values {
        DenseValues::Ints(v) => v[a] == v[b],
        DenseValues::Floats(v) => v[a] == v[b],
        DenseValues::Strings(v) => v[a] == v[b],
        DenseValues::Hex(_) => false,
    };
    let uniform = count > 0 && (0..count).all(|i| (0..per).all(|k| same(i * per + k, k)));
    if splat || shape.is_empty() || uniform {
        if count > 0 {
            write_one(out, 0);
        }
        return;
    }
    fn rec(out: &mut String, shape: &[i64], base: &mut usize, f: &dyn Fn(&mut String, usize)) {
        out.push('[');
        let n = shape[0].max(0) as usize;
        for i in 0..n {
            if i > 0 {
                out.push_str(", ");
            }
            if shape.len() == 1 {
                f(out, *base);
                *base += 1;
            } else {
                rec(out, &shape[1..], base, f);
            }
        }
        out.push(']');
    }
    let mut base_i = 0;
    rec(out, shape, &mut base_i, &write_one);
}

fn write_dyn(out: &mut String, v: i64) {
    if v == DYNAMIC {
        out.push('?');
    } else {
        let _ = write!(out, "{v}");
    }
}

/// Writes attribute `a` where its type may be elided (mlir-opt's
/// `AttrTypeElision::May`: array elements, memory spaces): an i64 integer
/// prints bare, as the parser reads a bare integer as i64.
fn write_attr_elided(out: &mut String, ctx: &Context, a: AttrId) {
    match ctx.attr_kind(a) {
        Attribute::Integer { value, ty } if ctx.type_kind(*ty).is_signless_int(64) => write_int(out, ctx, value, *ty),
        _ => write_attr(out, ctx, a),
    }
}

/// Writes attribute `a`.
pub fn write_attr(out: &mut String, ctx: &Context, a: AttrId) {
    match ctx.attr_kind(a) {
        Attribute::Unit => out.push_str("unit"),
        Attribute::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Attribute::Integer { value, ty } => {
            write_int(out, ctx, value, *ty);
            if !ctx.type_kind(*ty).is_signless_int(1) {
                out.push_str(" : ");
                write_type(out, ctx, *ty);
            }
        }
        Attribute::Float { value, ty } => {
            write_float(out, value);
            out.push_str(" : ");
            write_type(out, ctx, *ty);
        }
        Attribute::String { value, ty } => {
            write_string(out, value);
            if let Some(t) = ty {
                out.push_str(" : ");
                write_type(out, ctx, *t);
            }
        }
        Attribute::Type(t) => write_type(out, ctx, *t),
        Attribute::Array(v) => {
            out.push('[');
            for (i, x) in v.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_attr_elided(out, ctx, *x);
            }
            out.push(']');
        }
        Attribute::Dict(entries) => write_dict(out, ctx, entries),
        Attribute::SymbolRef { root, nested } => {
            write_symbol(out, root);
            for n in nested {
                out.push_str("::");
                write_symbol(out, n);
            }
        }
        Attribute::AffineMap(m) => {
            let _ = write!(out, "affine_map<{m}>");
        }
        Attribute::IntegerSet(s) => {
            let _ = write!(out, "affine_set<{s}>");
        }
        Attribute::Dense { ty, splat, values } => {
            out.push_str("dense<");
            let tk = ctx.type_kind(*ty);
            if let DenseValues::Hex(data) = values {
                // i1 elements are stored a byte each and printed packed,
                // eight a byte, as MLIR reads them (a splat: 0x00 or 0xFF).
                let bools = tk.elem().is_some_and(|e| matches!(ctx.type_kind(e), TypeKind::Integer { width: 1, .. }));
                let bytes: Vec<u8> = match (bools, *splat) {
                    (true, true) => data.iter().take(1).map(|b| if b & 1 == 1 { 0xff } else { 0 }).collect(),
                    (true, false) => data
                        .chunks(8)
                        .map(|c| c.iter().enumerate().fold(0u8, |acc, (i, b)| acc | ((b & 1) << i)))
                        .collect(),
                    _ => data.to_vec(),
                };
                out.push_str("\"0x");
                for b in &bytes {
                    let _ = write!(out, "{b:02X}");
                }
                out.push('"');
            } else {
                let shape = tk.shape().unwrap_or(&[]);
                write_elements(out, ctx, shape, values, tk.elem().unwrap_or(*ty), *splat);
            }
            out.push_str("> : ");
            write_type(out, ctx, *ty);
        }
        Attribute::DenseResource { handle, ty } => {
            out.push_str("dense_resource<");
            if is_bare_id(handle) {
                out.push_str(&String::from_utf8_lossy(handle));
            } else {
                write_string(out, handle);
            }
            out.push_str("> : ");
            write_type(out, ctx, *ty);
        }
        Attribute::DenseArray { elem, values } => {
            out.push_str("array<");
            write_type(out, ctx, *elem);
            let n = match values {
                DenseValues::Ints(v) => v.len(),
                DenseValues::Floats(v) => v.len(),
                _ => 0,
            };
            if n > 0 {
                out.push_str(": ");
                for i in 0..n {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    match values {
                        DenseValues::Ints(v) => write_int(out, ctx, &v[i], *elem),
                        DenseValues::Floats(v) => write_float(out, &v[i]),
                        _ => {}
                    }
                }
            }
            out.push('>');
        }
        Attribute::Sparse { ty, indices, values } => {
            out.push_str("sparse<");
            let empty = |a: &AttrId| match ctx.attr_kind(*a) {
                Attribute::Dense { values: DenseValues::Ints(v), .. } => v.is_empty(),
                Attribute::Dense { values: DenseValues::Floats(v), .. } => v.is_empty(),
                _ => false,
            };
            if empty(indices) && empty(values) {
                out.push_str("> : ");
                write_type(out, ctx, *ty);
                return;
            }
            for (i, part) in [indices, values].into_iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                if let Attribute::Dense { ty: pt, splat, values: pv } = ctx.attr_kind(*part) {
                    let pk = ctx.type_kind(*pt);
                    write_elements(out, ctx, pk.shape().unwrap_or(&[]), pv, pk.elem().unwrap_or(*pt), *splat);
                }
            }
            out.push_str("> : ");
            write_type(out, ctx, *ty);
        }
        Attribute::Strided { strides, offset } => {
            out.push_str("strided<[");
            for (i, s) in strides.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_dyn(out, *s);
            }
            out.push(']');
            if *offset != 0 {
                out.push_str(", offset: ");
                write_dyn(out, *offset);
            }
            out.push('>');
        }
        Attribute::Location(l) => {
            out.push_str("loc(");
            write_loc(out, ctx, l);
            out.push(')');
        }
        Attribute::Distinct { id, inner } => {
            let _ = write!(out, "distinct[{id}]<");
            write_attr(out, ctx, *inner);
            out.push('>');
        }
        Attribute::SparseEncoding(e) => {
            crate::sparse::write_encoding(out, e, &|o, a| write_attr(o, ctx, a));
        }
        Attribute::Dialect { dialect, body } => {
            let _ = write!(out, "#{}{}", ctx.str(*dialect), body);
        }
    }
}

fn write_loc(out: &mut String, ctx: &Context, l: &Location) {
    match l {
        Location::Unknown => out.push_str("unknown"),
        Location::File { file, line, col, end } => {
            write_string(out, file);
            let _ = write!(out, ":{line}:{col}");
            match end {
                Some((Some(l2), c2)) => {
                    let _ = write!(out, " to {l2}:{c2}");
                }
                Some((None, c2)) => {
                    let _ = write!(out, " to :{c2}");
                }
                None => {}
            }
        }
        Location::Name { name, child } => {
            write_string(out, name);
            if let Some(c) = child {
                out.push('(');
                write_loc_attr(out, ctx, *c);
                out.push(')');
            }
        }
        Location::CallSite { callee, caller } => {
            out.push_str("callsite(");
            write_loc_attr(out, ctx, *callee);
            out.push_str(" at ");
            write_loc_attr(out, ctx, *caller);
            out.push(')');
        }
        Location::Fused { metadata, locs } => {
            out.push_str("fused");
            if let Some(m) = metadata {
                out.push('<');
                write_attr(out, ctx, *m);
                out.push('>');
            }
            out.push('[');
            for (i, x) in locs.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_loc_attr(out, ctx, *x);
            }
            out.push(']');
        }
    }
}

fn write_loc_attr(out: &mut String, ctx: &Context, a: AttrId) {
    match ctx.attr_kind(a) {
        Attribute::Location(l) => write_loc(out, ctx, l),
        _ => out.push_str("unknown"),
    }
}

/// `{a, b = 1 : i64}` for a dictionary's entries, in their order.
pub fn dict_to_string(ctx: &Context, entries: &[(crate::ident::Ident, AttrId)]) -> String {
    let mut out = String::new();
    write_dict(&mut out, ctx, entries);
    out
}

fn write_dict(out: &mut String, ctx: &Context, entries: &[(crate::ident::Ident, AttrId)]) {
    out.push('{');
    for (i, (k, v)) in entries.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_key(out, ctx.str(*k));
        if !matches!(ctx.attr_kind(*v), Attribute::Unit) {
            out.push_str(" = ");
            write_attr(out, ctx, *v);
        }
    }
    out.push('}');
}

/// Prints a module in generic form.
pub struct GenericPrinter<'m> {
    m: &'m Module,
    value_names: FxHashMap<ValueId, (u32, u32)>,
    block_names: FxHashMap<BlockId, u32>,
    out: String,
    /// Print trailing `loc(...)` of ops that have one.
    pub debug_info: bool,
}

impl<'m> GenericPrinter<'m> {
    /// A printer for `m`.
    pub fn new(m: &'m Module) -> Self {
        GenericPrinter {
            m,
            value_names: FxHashMap::default(),
            block_names: FxHashMap::default(),
            out: String::new(),
            debug_info: false,
        }
    }

    /// The whole module as generic text.
    pub fn print(mut self) -> String {
        let Some(top) = self.m.top else { return String::new() };
        self.number(top);
        self.op(top, 0);
        self.resources();
        self.out
    }

    /// Names values and blocks in print order so the text reads naturally.
    fn number(&mut self, top: OpId) {
        let mut stack = vec![top];
        let mut nv = 0;
        let mut nb = 0;
        // Depth-first in print order.
        let mut order = Vec::new();
        while let Some(op) = stack.pop() {
            order.push(op);
            for r in self.m.regions(op).iter().rev() {
                for b in self.m.region(*r).blocks.iter().rev() {
                    for o in self.m.block(*b).ops.iter().rev() {
                        stack.push(*o);
                    }
                }
            }
        }
        // Blocks and args are named when their region is reached; simpler to
        // walk again recursively for exact print order.
        fn walk(p: &mut GenericPrinter, op: OpId, nv: &mut u32, nb: &mut u32) {
            let n = p.m.op(op).results.len;
            for (i, v) in p.m.results(op).enumerate() {
                p.value_names.insert(v, (*nv, if n > 1 { i as u32 + 1 } else { 0 }));
            }
            if n > 0 {
                *nv += 1;
            }
            for r in p.m.regions(op) {
                for b in &p.m.region(*r).blocks {
                    p.block_names.insert(*b, *nb);
                    *nb += 1;
                    for a in p.m.args(*b) {
                        p.value_names.insert(a, (*nv, 0));
                        *nv += 1;
                    }
                }
                for b in &p.m.region(*r).blocks {
                    for o in &p.m.block(*b).ops {
                        walk(p, *o, nv, nb);
                    }
                }
            }
        }
        let _ = order;
        walk(self, top, &mut nv, &mut nb);
    }

    fn value(&mut self, v: ValueId) {
        match self.value_names.get(&v) {
            Some((n, 0)) => {
                let _ = write!(self.out, "%{n}");
            }
            Some((n, i)) => {
                let _ = write!(self.out, "%{n}#{}", i - 1);
            }
            None => {
                let _ = write!(self.out, "%v{}", v.0);
            }
        }
    }

    fn indent(&mut self, n: usize) {
        for _ in 0..n {
            self.out.push_str("  ");
        }
    }

    fn op(&mut self, op: OpId, ind: usize) {
        let m = self.m;
        let o = m.op(op);
        self.indent(ind);
        let nres = o.results.len;
        if nres > 0 {
            let n = self.value_names.get(&ValueId(o.results.start)).map(|x| x.0).unwrap_or(0);
            let _ = write!(self.out, "%{n}");
            if nres > 1 {
                let _ = write!(self.out, ":{nres}");
            }
            self.out.push_str(" = ");
        }
        write_string(&mut self.out, m.op_name(op).as_bytes());
        self.out.push('(');
        for (i, v) in m.operands(op).iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.value(*v);
        }
        self.out.push(')');
        let succ = m.successors(op);
        if !succ.is_empty() {
            self.out.push('[');
            for (i, b) in succ.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                let n = self.block_names.get(b).copied().unwrap_or(b.0);
                let _ = write!(self.out, "^bb{n}");
            }
            self.out.push(']');
        }
        // Dictionary entries that reading this form back would move into
        // (or drop beside) the properties are printed as it would leave them.
        let settled = o.properties.and_then(|p| crate::verify::properties::settled(&m.ctx, o.name.kind, p, &o.attrs));
        if let Some((entries, _)) = &settled {
            self.out.push_str(" <");
            write_dict(&mut self.out, &m.ctx, entries);
            self.out.push('>');
        } else if let Some(p) = o.properties {
            self.out.push_str(" <");
            write_attr(&mut self.out, &m.ctx, p);
            self.out.push('>');
        }
        let attrs = settled.as_ref().map_or(&o.attrs[..], |(_, rest)| &rest[..]);
        let regions = m.regions(op);
        if !regions.is_empty() {
            self.out.push_str(" (");
            for (i, r) in regions.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.region(*r, ind);
            }
            self.out.push(')');
        }
        if !attrs.is_empty() {
            self.out.push(' ');
            write_dict(&mut self.out, &m.ctx, attrs);
        }
        self.out.push_str(" : ");
        let ins: Vec<TypeId> = m.operands(op).iter().map(|v| m.type_of(*v)).collect();
        let outs: Vec<TypeId> = m.results(op).map(|v| m.type_of(v)).collect();
        self.out.push('(');
        write_type_list(&mut self.out, &m.ctx, &ins);
        self.out.push_str(") -> (");
        write_type_list(&mut self.out, &m.ctx, &outs);
        self.out.push(')');
        if self.debug_info {
            if let Some(l) = o.loc {
                self.out.push(' ');
                write_attr(&mut self.out, &m.ctx, l);
            }
        }
        self.out.push('\n');
    }

    fn region(&mut self, r: RegionId, ind: usize) {
        let m = self.m;
        self.out.push_str("{\n");
        for b in &m.region(r).blocks {
            self.indent(ind);
            let n = self.block_names.get(b).copied().unwrap_or(b.0);
            let _ = write!(self.out, "^bb{n}");
            let args: Vec<ValueId> = m.args(*b).collect();
            if !args.is_empty() {
                self.out.push('(');
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.value(*a);
                    self.out.push_str(": ");
                    write_type(&mut self.out, &m.ctx, m.type_of(*a));
                }
                self.out.push(')');
            }
            self.out.push_str(":\n");
            for o in &m.block(*b).ops {
                self.op(*o, ind + 1);
            }
        }
        self.indent(ind);
        self.out.push('}');
    }

    fn resources(&mut self) {
        if self.m.resources.is_empty() {
            return;
        }
        self.out.push_str("\n{-#\n");
        let sections = [(false, "dialect_resources"), (true, "external_resources")];
        let present: Vec<_> =
            sections.iter().filter(|(ext, _)| self.m.resources.iter().any(|r| r.external == *ext)).collect();
        for (si, (ext, name)) in present.iter().enumerate() {
            let _ = writeln!(self.out, "  {name}: {{");
            let mut groups: Vec<&str> = Vec::new();
            for r in self.m.resources.iter().filter(|r| r.external == *ext) {
                if !groups.contains(&&*r.dialect) {
                    groups.push(&r.dialect);
                }
            }
            for (gi, g) in groups.iter().enumerate() {
                self.out.push_str("    ");
                write_key(&mut self.out, g);
                self.out.push_str(": {\n");
                let entries: Vec<&Resource> =
                    self.m.resources.iter().filter(|r| r.external == *ext && &*r.dialect == *g).collect();
                for (i, r) in entries.iter().enumerate() {
                    self.out.push_str("      ");
                    write_key(&mut self.out, &r.key);
                    self.out.push_str(": ");
                    write_resource_value(&mut self.out, &r.value);
                    self.out.push_str(if i + 1 < entries.len() { ",\n" } else { "\n" });
                }
                self.out.push_str(if gi + 1 < groups.len() { "    },\n" } else { "    }\n" });
            }
            self.out.push_str(if si + 1 < present.len() { "  },\n" } else { "  }\n" });
        }
        self.out.push_str("#-}\n");
    }
}

fn write_resource_value(out: &mut String, v: &ResourceValue) {
    match v {
        ResourceValue::Blob { align, data } => {
            out.push_str("\"0x");
            for b in align.to_le_bytes().iter().chain(data.iter()) {
                let _ = write!(out, "{b:02X}");
            }
            out.push('"');
        }
        ResourceValue::String(s) => write_string(out, s),
        ResourceValue::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
    }
}

/// Prints `m` in generic form.
pub fn print_generic(m: &Module) -> String {
    GenericPrinter::new(m).print()
}

/// One op on one line in generic form, as mlir-opt quotes ops in messages
/// (`%0 = "arith.constant"() <{value = 1 : i32}> : () -> i32`). Attributes
/// of known ops are shown as properties, since nearly all of them are
/// inherent.
pub fn op_to_string(m: &Module, op: OpId) -> String {
    let o = m.op(op);
    let mut out = String::new();
    if o.results.len > 0 {
        out.push_str("%0");
        if o.results.len > 1 {
            let _ = write!(out, ":{}", o.results.len);
        }
        out.push_str(" = ");
    }
    write_string(&mut out, m.op_name(op).as_bytes());
    out.push('(');
    for i in 0..m.operands(op).len() {
        if i > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "%arg{i}");
    }
    out.push(')');
    let known = o.name.kind != crate::ops::OpKind::Unknown;
    if let Some(p) = o.properties {
        out.push_str(" <");
        write_attr(&mut out, &m.ctx, p);
        out.push('>');
    } else if known && !o.attrs.is_empty() {
        out.push_str(" <");
        write_dict(&mut out, &m.ctx, &o.attrs);
        out.push('>');
    }
    if !known && !o.attrs.is_empty() {
        out.push(' ');
        write_dict(&mut out, &m.ctx, &o.attrs);
    }
    out.push_str(" : ");
    let ins: Vec<TypeId> = m.operands(op).iter().map(|v| m.type_of(*v)).collect();
    let outs: Vec<TypeId> = m.results(op).map(|v| m.type_of(v)).collect();
    write_function_type(&mut out, &m.ctx, &ins, &outs);
    out
}

#[cfg(test)]
mod tests {
    /// Memory spaces print as mlir-opt 22 prints them (its output for this
    /// input, `--mlir-print-op-generic`): an integer or `false` zero is the
    /// default space and disappears, an i64 space elides its type, other
    /// integer types keep it.
    #[test]
    fn memory_spaces_print_as_mlir_opt() {
        let text = r#""rt.op"() {a = memref<4xf32, 0>, b = memref<*xf32, 0 : i32>, c = memref<4xf32, false>, d = memref<4xf32, 1 : i32>, e = memref<*xf32, 2>, f = memref<4xf32, strided<[2]>, 3>} : () -> ()"#;
        let m = crate::parser::parse(text).unwrap();
        let out = super::print_generic(&m);
        let want = r#"{a = memref<4xf32>, b = memref<*xf32>, c = memref<4xf32>, d = memref<4xf32, 1 : i32>, e = memref<*xf32, 2>, f = memref<4xf32, strided<[2]>, 3>}"#;
        assert!(out.contains(want), "{out}");
    }
}
