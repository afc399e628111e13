//! Property tests of the parser and the generic printer.
//!
//! 1. A generator of random, valid modules (types, attributes, generic ops
//!    with operands, results, regions, blocks with arguments, successors,
//!    properties, locations, aliases, plus some custom-form `func.func`)
//!    prints them to text itself; then `parse → print_generic → parse →
//!    print_generic` must reach a fixpoint after the first print.
//! 2. Random byte mutations of the fixture files never make
//!    `parse_and_verify` panic or hang: it returns `Ok` or `Err`.
//!
//! The generator draws every decision from a vector of numbers that proptest
//! produces and shrinks ("choice sequence"): a failing module shrinks towards
//! fewer and simpler choices, since choice 0 is always the simplest option
//! and running out of choices means "stop". `PROPTEST_CASES` overrides the
//! number of cases.

mod common;

use mlir_ir::diag::Source;
use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence, TestCaseError};
use std::fmt::Write;
use std::sync::mpsc;
use std::time::Duration;

// ---------------------------------------------------------------------------
// The module generator.

/// Whether the generator emits `affine_set` attributes. Off until integer
/// sets print in a canonical form: today the parser stores `e >= 0` as
/// `e + 0 >= 0` (and `a - b` as `a + b * -1`) without folding, so every
/// print → parse adds another `+ 0` and printing never reaches a fixpoint.
/// mlir-opt simplifies affine expressions on construction. Turn this on
/// once the IR folds (or the printer strips) the `+ 0`.
const GENERATE_AFFINE_SETS: bool = true;

/// Draws decisions from a choice sequence; 0 once it is exhausted.
struct Gen {
    choices: Vec<u32>,
    pos: usize,
    next_value: usize,
    next_sym: usize,
    attr_aliases: Vec<String>,
    type_aliases: Vec<String>,
}

/// A value in scope: its use name (`%v3` or `%v3#1`) and its type.
#[derive(Clone)]
struct Val {
    name: String,
    ty: String,
}

const FLOATS: &[&str] = &[
    "f32",
    "f16",
    "bf16",
    "f64",
    "tf32",
    "f80",
    "f128",
    "f8E5M2",
    "f8E4M3",
    "f8E4M3FN",
    "f8E5M2FNUZ",
    "f8E4M3FNUZ",
    "f8E4M3B11FNUZ",
    "f8E3M4",
    "f8E8M0FNU",
    "f6E2M3FN",
    "f6E3M2FN",
    "f4E2M1FN",
];

/// Storage width of each float type, for hex bit patterns.
fn float_width(t: &str) -> u32 {
    match t {
        "f16" | "bf16" => 16,
        "f32" => 32,
        "f64" => 64,
        "tf32" => 19,
        "f80" => 80,
        "f128" => 128,
        t if t.starts_with("f8") => 8,
        t if t.starts_with("f6") => 6,
        _ => 4,
    }
}

impl Gen {
    fn new(choices: Vec<u32>) -> Gen {
        Gen { choices, pos: 0, next_value: 0, next_sym: 0, attr_aliases: Vec::new(), type_aliases: Vec::new() }
    }

    /// A number in `0..n`.
    fn pick(&mut self, n: usize) -> usize {
        let c = self.choices.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        c as usize % n.max(1)
    }

    /// True with roughly probability 1/n (never once choices run out).
    fn one_in(&mut self, n: usize) -> bool {
        self.pick(n) == n - 1
    }

    fn exhausted(&self) -> bool {
        self.pos >= self.choices.len()
    }

    fn fresh_value(&mut self) -> String {
        self.next_value += 1;
        format!("%v{}", self.next_value)
    }

    // --- types -----------------------------------------------------------

    fn int_type(&mut self) -> String {
        const WIDTHS: &[u32] = &[32, 1, 8, 64, 16, 2, 128, 1000, 7, 33];
        let w = WIDTHS[self.pick(WIDTHS.len())];
        let sign = ["i", "si", "ui"][self.pick(3)];
        format!("{sign}{w}")
    }

    fn scalar_type(&mut self) -> String {
        match self.pick(4) {
            0 => self.int_type(),
            1 => FLOATS[self.pick(FLOATS.len())].to_owned(),
            2 => "index".to_owned(),
            _ => format!("i{}", 1 + self.pick(64)),
        }
    }

    fn dims(&mut self, allow_dynamic: bool, max_rank: usize) -> Vec<String> {
        let rank = self.pick(max_rank + 1);
        (0..rank)
            .map(|_| if allow_dynamic && self.one_in(4) { "?".to_owned() } else { self.pick(5).to_string() })
            .collect()
    }

    fn shape_prefix(dims: &[String]) -> String {
        dims.iter().map(|d| format!("{d}x")).collect()
    }

    fn ty(&mut self, depth: usize) -> String {
        if depth == 0 {
            return self.scalar_type();
        }
        match self.pick(14) {
            0..=3 => self.scalar_type(),
            4 => {
                let e = ["f32", "f64", "i32", "f16", "i8"][self.pick(5)];
                format!("complex<{e}>")
            }
            5 => {
                // vector: 0-D, fixed or scalable dims (sizes must be positive).
                let rank = self.pick(3);
                let dims: String = (0..rank)
                    .map(|_| {
                        let n = 1 + self.pick(8);
                        if self.one_in(3) {
                            format!("[{n}]x")
                        } else {
                            format!("{n}x")
                        }
                    })
                    .collect();
                format!("vector<{dims}{}>", self.scalar_type())
            }
            6 => {
                let d = self.dims(true, 3);
                let elem = match self.pick(4) {
                    0 | 1 => self.scalar_type(),
                    2 => format!("complex<{}>", ["f32", "i16"][self.pick(2)]),
                    _ => format!("vector<{}x{}>", 1 + self.pick(4), self.scalar_type()),
                };
                let enc = if self.one_in(3) { format!(", {}", self.simple_attr()) } else { String::new() };
                format!("tensor<{}{elem}{enc}>", Self::shape_prefix(&d))
            }
            7 => format!("tensor<*x{}>", self.scalar_type()),
            8 => self.memref_type(),
            9 => format!("memref<*x{}{}>", self.scalar_type(), if self.one_in(2) { ", 1" } else { "" }),
            10 => {
                let n = self.pick(3);
                let parts: Vec<String> = (0..n).map(|_| self.ty(depth - 1)).collect();
                format!("tuple<{}>", parts.join(", "))
            }
            11 => {
                let ins: Vec<String> = (0..self.pick(3)).map(|_| self.ty(depth - 1)).collect();
                let outs: Vec<String> = (0..self.pick(3)).map(|_| self.ty(depth - 1)).collect();
                format!("({}) -> ({})", ins.join(", "), outs.join(", "))
            }
            12 => "none".to_owned(),
            _ => match self.pick(3) {
                0 => "!rt.opaque".to_owned(),
                1 => format!("!rt.param<{}>", self.pick(100)),
                _ => format!("!rt.wrap<{}>", self.scalar_type()),
            },
        }
    }

    fn memref_type(&mut self) -> String {
        let d = self.dims(true, 3);
        let elem = self.scalar_type();
        let layout = match self.pick(3) {
            0 => String::new(),
            1 => {
                let strides: Vec<String> = d
                    .iter()
                    .map(|_| if self.one_in(3) { "?".to_owned() } else { (1 + self.pick(9)).to_string() })
                    .collect();
                let off = match self.pick(3) {
                    0 => String::new(),
                    1 => ", offset: ?".to_owned(),
                    _ => format!(", offset: {}", self.pick(20)),
                };
                format!(", strided<[{}]{off}>", strides.join(", "))
            }
            _ => {
                let dims: Vec<String> = (0..d.len()).map(|i| format!("d{i}")).collect();
                let mut res = dims.clone();
                res.reverse();
                format!(", affine_map<({}) -> ({})>", dims.join(", "), res.join(", "))
            }
        };
        let space = match self.pick(3) {
            0 => String::new(),
            1 => format!(", {}", self.pick(4)),
            _ => ", \"space\"".to_owned(),
        };
        format!("memref<{}{elem}{layout}{space}>", Self::shape_prefix(&d))
    }

    /// A type that may be written through a type alias.
    fn ty_maybe_alias(&mut self, depth: usize) -> String {
        if !self.type_aliases.is_empty() && self.one_in(4) {
            let i = self.pick(self.type_aliases.len());
            return self.type_aliases[i].clone();
        }
        self.ty(depth)
    }

    // --- attributes ------------------------------------------------------

    fn int_literal(&mut self, ty: &str) -> String {
        let unsigned = ty.starts_with("ui");
        let w: u32 = ty.trim_start_matches(|c: char| c.is_ascii_alphabetic()).parse().unwrap_or(64);
        if ty == "index" {
            return ["0", "1", "-1", "4096", "0x7f"][self.pick(5)].to_owned();
        }
        if ty == "i1" {
            return ["0", "1"][self.pick(2)].to_owned();
        }
        let max_pos: u128 = if w >= 128 {
            u128::MAX >> 1
        } else if unsigned {
            (1u128 << w) - 1
        } else {
            (1u128 << (w - 1)) - 1
        };
        let v = match self.pick(5) {
            0 => 0,
            1 => 1,
            2 => max_pos,
            3 => self.pick(1000) as u128 % (max_pos + 1),
            _ => max_pos / 3,
        }
        .min(max_pos);
        let neg = !unsigned && self.one_in(3) && v != 0;
        if self.one_in(4) {
            format!("{}0x{v:X}", if neg { "-" } else { "" })
        } else {
            format!("{}{v}", if neg { "-" } else { "" })
        }
    }

    fn float_literal(&mut self, ty: &str) -> String {
        if self.one_in(3) {
            let w = float_width(ty);
            let bits: u128 = match self.pick(3) {
                0 => 0,
                1 => 1,
                _ => (1u128 << (w - 1)) - 1,
            };
            let digits = (w as usize).div_ceil(4);
            return format!("0x{bits:0digits$X}");
        }
        // Values exactly representable in every format (f8E8M0FNU holds
        // only powers of two and no zero or negatives).
        if ty == "f8E8M0FNU" {
            return ["1.0", "2.0", "0.5", "4.0"][self.pick(4)].to_owned();
        }
        ["1.0", "0.0", "-1.5", "0.5", "2.0", "-4.0", "1.0e0", "3.0"][self.pick(8)].to_owned()
    }

    fn string_literal(&mut self) -> String {
        const PIECES: &[&str] =
            &["a", "hello", " ", "\\\"", "\\\\", "\\n", "\\t", "\\00", "\\FF", "é", "x_y.z", "\\22"];
        let n = self.pick(5);
        let s: String = (0..n).map(|_| PIECES[self.pick(PIECES.len())]).collect();
        format!("\"{s}\"")
    }

    /// An attribute that is valid anywhere (used e.g. as a tensor encoding).
    fn simple_attr(&mut self) -> String {
        match self.pick(3) {
            0 => self.string_literal(),
            1 => format!("{} : i64", self.pick(100)),
            _ => "#rt.enc".to_owned(),
        }
    }

    fn affine_expr(&mut self, dims: usize, syms: usize, depth: usize) -> String {
        let leaf = |g: &mut Gen| -> String {
            match g.pick(3) {
                0 if dims > 0 => format!("d{}", g.pick(dims)),
                1 if syms > 0 => format!("s{}", g.pick(syms)),
                _ => g.pick(10).to_string(),
            }
        };
        if depth == 0 || self.one_in(2) {
            return leaf(self);
        }
        let a = self.affine_expr(dims, syms, depth - 1);
        let c = 1 + self.pick(8);
        match self.pick(6) {
            0 => format!("({a}) + ({})", self.affine_expr(dims, syms, depth - 1)),
            1 => format!("({a}) - ({})", self.affine_expr(dims, syms, depth - 1)),
            2 => format!("({a}) * {c}"),
            3 => format!("({a}) floordiv {c}"),
            4 => format!("({a}) ceildiv {c}"),
            _ if syms > 0 => format!("({a}) mod s{}", self.pick(syms)),
            _ => format!("({a}) mod {c}"),
        }
    }

    fn affine_map(&mut self) -> String {
        let (d, s) = (self.pick(4), self.pick(3));
        let n = self.pick(4);
        let res: Vec<String> = (0..n).map(|_| self.affine_expr(d, s, 3)).collect();
        format!("affine_map<{}{} -> ({})>", dim_list(d), sym_list(s), res.join(", "))
    }

    fn affine_set(&mut self) -> String {
        let (d, s) = (1 + self.pick(3), self.pick(3));
        let n = 1 + self.pick(3);
        let cons: Vec<String> = (0..n)
            .map(|_| {
                let e = self.affine_expr(d, s, 2);
                format!("{e} {} 0", if self.one_in(3) { "==" } else { ">=" })
            })
            .collect();
        format!("affine_set<{}{} : ({})>", dim_list(d), sym_list(s), cons.join(", "))
    }

    fn dense(&mut self) -> String {
        let elem = ["i32", "f32", "i1", "i8", "f64", "index", "bf16", "si16", "ui8"][self.pick(9)];
        let n = 1 + self.pick(4);
        let shaped = if self.one_in(3) { format!("vector<{n}x{elem}>") } else { format!("tensor<{n}x{elem}>") };
        let lit = |g: &mut Gen| -> String {
            if elem.starts_with('f') || elem == "bf16" {
                ["1.0", "-2.5", "0.0", "4.0"][g.pick(4)].to_owned()
            } else if elem == "i1" {
                ["true", "false"][g.pick(2)].to_owned()
            } else if elem.starts_with("ui") {
                g.pick(200).to_string()
            } else {
                (g.pick(200) as i64 - 100).to_string()
            }
        };
        if self.one_in(2) {
            format!("dense<{}> : {shaped}", lit(self))
        } else {
            let elems: Vec<String> = (0..n).map(|_| lit(self)).collect();
            format!("dense<[{}]> : {shaped}", elems.join(", "))
        }
    }

    fn attr(&mut self, depth: usize) -> String {
        if !self.attr_aliases.is_empty() && self.one_in(6) {
            let i = self.pick(self.attr_aliases.len());
            return self.attr_aliases[i].clone();
        }
        let k = if depth == 0 { self.pick(8) } else { self.pick(20) };
        match k {
            0 => "unit".to_owned(),
            1 => {
                let t = self.int_type();
                format!("{} : {t}", self.int_literal(&t))
            }
            2 => ["true", "false"][self.pick(2)].to_owned(),
            3 => {
                let t = FLOATS[self.pick(FLOATS.len())];
                format!("{} : {t}", self.float_literal(t))
            }
            4 => self.string_literal(),
            5 => {
                let s = self.next_sym;
                self.next_sym += 1;
                match self.pick(3) {
                    0 => format!("@s{s}"),
                    1 => format!("@s{s}::@inner"),
                    _ => format!("@\"quoted sym {s}\"::@a::@b"),
                }
            }
            6 => self.int_literal("i64"),
            7 => format!("{} : index", self.int_literal("index")),
            8 => {
                let n = self.pick(4);
                let xs: Vec<String> = (0..n).map(|_| self.attr(depth - 1)).collect();
                format!("[{}]", xs.join(", "))
            }
            9 => self.dict(depth - 1),
            10 => self.dense(),
            11 => {
                let t = ["i32", "i64", "i8", "i1", "f32", "f64", "i16"][self.pick(7)];
                let n = self.pick(4);
                if n == 0 {
                    return format!("array<{t}>");
                }
                let xs: Vec<String> = (0..n)
                    .map(|_| match t {
                        "i1" => ["true", "false"][self.pick(2)].to_owned(),
                        t if t.starts_with('f') => self.float_literal(t),
                        t => self.int_literal(t),
                    })
                    .map(|x| if x.starts_with("0x") && t.starts_with('f') { "1.0".to_owned() } else { x })
                    .collect();
                format!("array<{t}: {}>", xs.join(", "))
            }
            12 => self.affine_map(),
            13 if GENERATE_AFFINE_SETS => self.affine_set(),
            13 => self.affine_map(),
            14 => self.ty(2),
            15 => {
                let n = 1 + self.pick(3);
                let strides: Vec<String> =
                    (0..n).map(|_| if self.one_in(3) { "?".to_owned() } else { self.pick(9).to_string() }).collect();
                format!(
                    "strided<[{}], offset: {}>",
                    strides.join(", "),
                    if self.one_in(2) { "?".to_owned() } else { self.pick(9).to_string() }
                )
            }
            16 => match self.pick(3) {
                0 => "#rt.flag".to_owned(),
                1 => format!("#rt.param<{}, \"s\">", self.pick(9)),
                _ => "#rt<\"opaque body\">".to_owned(),
            },
            17 => {
                let e = ["f32", "f64"][self.pick(2)];
                format!("dense<({}, -2.0)> : tensor<2xcomplex<{e}>>", ["1.0", "0.5", "-3.0"][self.pick(3)])
            }
            18 => "sparse<[[0], [2]], [1, 2]> : tensor<4xi32>".to_owned(),
            _ => self.ty(1),
        }
    }

    fn dict(&mut self, depth: usize) -> String {
        let n = self.pick(4);
        let entries: Vec<String> = (0..n)
            .map(|i| {
                let key = if self.one_in(5) { format!("\"key {i}\"") } else { format!("k{i}") };
                if self.one_in(4) {
                    key
                } else {
                    format!("{key} = {}", self.attr(depth))
                }
            })
            .collect();
        format!("{{{}}}", entries.join(", "))
    }

    fn loc(&mut self) -> String {
        match self.pick(8) {
            0..=3 => String::new(),
            4 => " loc(unknown)".to_owned(),
            5 => format!(" loc(\"gen.mlir\":{}:{})", 1 + self.pick(50), 1 + self.pick(80)),
            6 => " loc(\"name\"(\"gen.mlir\":1:2))".to_owned(),
            _ => " loc(fused[\"a.mlir\":1:1, callsite(\"f\" at \"b.mlir\":2:2)])".to_owned(),
        }
    }

    // --- operations ------------------------------------------------------

    /// One generic op using values in `scope`; appends its results to
    /// `scope`. `successors` are labels with their argument types, used only
    /// when `terminator` is set.
    fn op(
        &mut self,
        out: &mut String,
        indent: usize,
        scope: &mut Vec<Val>,
        depth: usize,
        succ: Option<&[(String, Vec<String>)]>,
    ) {
        let pad = "  ".repeat(indent);
        let name = format!("rt.{}", ["op", "compute", "x_y", "a.b", "yield"][self.pick(5)]);
        let n_operands = if scope.is_empty() { 0 } else { self.pick(4) };
        let operands: Vec<Val> = (0..n_operands).map(|_| scope[self.pick(scope.len())].clone()).collect();
        let n_results = if succ.is_some() { 0 } else { self.pick(4) };
        let result_types: Vec<String> = (0..n_results).map(|_| self.ty_maybe_alias(2)).collect();
        // Successors (terminator only), each with operands matching its block's arguments.
        let mut succ_text = String::new();
        if let Some(targets) = succ.filter(|t| !t.is_empty()) {
            let n = self.pick(3).min(targets.len());
            let mut parts = Vec::new();
            let mut extra_operands = Vec::new();
            for _ in 0..n {
                let (label, args) = &targets[self.pick(targets.len())];
                parts.push(label.clone());
                for t in args {
                    // Pass a matching value if one is in scope, else need one: define it first.
                    let v = match scope.iter().rev().find(|v| &v.ty == t) {
                        Some(v) => v.clone(),
                        None => {
                            let v = Val { name: self.fresh_value(), ty: t.clone() };
                            let _ = writeln!(out, "{pad}{} = \"rt.make\"() : () -> ({})", v.name, v.ty);
                            scope.push(v.clone());
                            v
                        }
                    };
                    extra_operands.push(v);
                }
            }
            if !parts.is_empty() {
                succ_text = format!("[{}]", parts.join(", "));
                // Successor operands are the op's operands in the generic form.
                let mut all = operands.clone();
                all.extend(extra_operands);
                return self.finish_op(out, &pad, &name, &all, &succ_text, &[], indent, scope, depth);
            }
        }
        self.finish_op(out, &pad, &name, &operands, &succ_text, &result_types, indent, scope, depth)
    }

    #[allow(clippy::too_many_arguments)]
    fn finish_op(
        &mut self,
        out: &mut String,
        pad: &str,
        name: &str,
        operands: &[Val],
        succ_text: &str,
        result_types: &[String],
        indent: usize,
        scope: &mut Vec<Val>,
        depth: usize,
    ) {
        let base = self.fresh_value();
        let results = match result_types.len() {
            0 => String::new(),
            1 => format!("{base} = "),
            n if self.one_in(3) => {
                // Separate names: %a, %b = ...
                let names: Vec<String> = (0..n).map(|i| format!("{base}_{i}")).collect();
                format!("{} = ", names.join(", "))
            }
            n => format!("{base}:{n} = "),
        };
        let props = if self.one_in(4) { format!(" <{}>", self.dict(1)) } else { String::new() };
        let _ = write!(out, "{pad}{results}\"{name}\"(");
        let names: Vec<&str> = operands.iter().map(|v| v.name.as_str()).collect();
        let _ = write!(out, "{}){succ_text}{props}", names.join(", "));
        // Regions: see only values defined before this op (and enclosing ones).
        let n_regions = if depth == 0 { 0 } else { self.pick(3) };
        if n_regions > 0 {
            out.push_str(" (");
            for r in 0..n_regions {
                if r > 0 {
                    out.push_str(", ");
                }
                self.region(out, indent, scope.clone(), depth - 1);
            }
            out.push(')');
        }
        if self.one_in(2) {
            let _ = write!(out, " {}", self.dict(1));
        }
        let tys: Vec<&str> = operands.iter().map(|v| v.ty.as_str()).collect();
        let _ = write!(out, " : ({}) -> ({})", tys.join(", "), result_types.join(", "));
        let loc = self.loc();
        out.push_str(&loc);
        out.push('\n');
        // Record results under the names used above.
        if result_types.len() == 1 {
            scope.push(Val { name: base, ty: result_types[0].clone() });
        } else if results.contains(':') {
            for (i, t) in result_types.iter().enumerate() {
                scope.push(Val { name: format!("{base}#{i}"), ty: t.clone() });
            }
        } else {
            for (i, t) in result_types.iter().enumerate() {
                scope.push(Val { name: format!("{base}_{i}"), ty: t.clone() });
            }
        }
    }

    /// A region of an unregistered op: blocks with arguments, ops using
    /// values of the same block or of enclosing regions, terminators with
    /// successors inside the region (never to the entry block).
    fn region(&mut self, out: &mut String, indent: usize, outer: Vec<Val>, depth: usize) {
        let pad = "  ".repeat(indent + 1);
        let n_blocks = if self.one_in(5) { 0 } else { 1 + self.pick(3) };
        out.push_str("{\n");
        let labels: Vec<(String, Vec<String>)> = (0..n_blocks)
            .map(|b| {
                self.next_sym += 1;
                let args: Vec<String> = (0..self.pick(3)).map(|_| self.ty(1)).collect();
                (format!("^b{}_{b}", self.next_sym), args)
            })
            .collect();
        for (b, (label, args)) in labels.iter().enumerate() {
            let mut scope = outer.clone();
            let arg_vals: Vec<Val> = args.iter().map(|t| Val { name: self.fresh_value(), ty: t.clone() }).collect();
            if b > 0 || !args.is_empty() || self.one_in(3) {
                let list: Vec<String> = arg_vals
                    .iter()
                    .map(|v| {
                        let loc = if self.one_in(5) { " loc(\"arg.mlir\":3:4)" } else { "" };
                        format!("{}: {}{loc}", v.name, v.ty)
                    })
                    .collect();
                if list.is_empty() {
                    let _ = writeln!(out, "{}{label}:", "  ".repeat(indent));
                } else {
                    let _ = writeln!(out, "{}{label}({}):", "  ".repeat(indent), list.join(", "));
                }
            }
            scope.extend(arg_vals);
            // Every block but a lone entry block gets an op, so that an unlabeled
            // entry block cannot vanish into the next label.
            let n_ops = if b > 0 || n_blocks > 1 { 1 + self.pick(3) } else { self.pick(4) };
            for i in 0..n_ops {
                let last = i + 1 == n_ops;
                // Successors may target any non-entry block.
                let targets = if last && n_blocks > 1 && self.one_in(2) { Some(&labels[1..]) } else { None };
                if self.exhausted() && !last {
                    continue;
                }
                self.op(out, indent + 1, &mut scope, depth, targets);
            }
        }
        let _ = write!(out, "{}}}", "  ".repeat(indent));
        let _ = pad;
    }

    /// A custom-form function: func.func with a body that returns an argument.
    fn func(&mut self, out: &mut String) {
        self.next_sym += 1;
        let t = self.ty(1);
        let vis = ["", "private ", "nested "][self.pick(3)];
        let _ = writeln!(out, "func.func {vis}@fn{}(%arg0: {t}) -> ({t}) {{", self.next_sym);
        let _ = writeln!(out, "  \"rt.use\"(%arg0) : ({t}) -> ()");
        let _ = writeln!(out, "  return %arg0 : {t}");
        let _ = writeln!(out, "}}");
    }

    /// A whole module: aliases, then top-level ops and functions.
    fn module(&mut self) -> String {
        let mut out = String::new();
        for i in 0..self.pick(3) {
            let a = self.attr(1);
            let _ = writeln!(out, "#alias{i} = {a}");
            self.attr_aliases.push(format!("#alias{i}"));
        }
        for i in 0..self.pick(3) {
            let t = self.ty(2);
            let _ = writeln!(out, "!talias{i} = {t}");
            self.type_aliases.push(format!("!talias{i}"));
        }
        let explicit = self.one_in(4);
        let indent = explicit as usize;
        if explicit {
            let a = self.attr(1);
            let _ = writeln!(out, "module @m attributes {{rt.a = {a}, rt.b}} {{");
        }
        let mut scope = Vec::new();
        let n = 1 + self.pick(6);
        for _ in 0..n {
            if self.one_in(5) {
                self.func(&mut out);
            } else {
                self.op(&mut out, indent, &mut scope, 3, None);
            }
        }
        if explicit {
            out.push_str("}\n");
        }
        out
    }
}

fn dim_list(d: usize) -> String {
    format!("({})", (0..d).map(|i| format!("d{i}")).collect::<Vec<_>>().join(", "))
}

fn sym_list(s: usize) -> String {
    if s == 0 {
        String::new()
    } else {
        format!("[{}]", (0..s).map(|i| format!("s{i}")).collect::<Vec<_>>().join(", "))
    }
}

fn generate(choices: Vec<u32>) -> String {
    Gen::new(choices).module()
}

// ---------------------------------------------------------------------------
// Properties.

fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn print(text: &str) -> Result<String, String> {
    let src = Source::new("gen.mlir", text);
    mlir_ir::parse_and_verify(&src).map(|m| mlir_ir::printer::print_generic(&m)).map_err(|d| d.render(&src))
}

/// The first line where the two prints differ, both versions.
fn first_difference(a: &str, b: &str) -> String {
    let (la, lb): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    let i = (0..la.len().max(lb.len())).find(|&i| la.get(i) != lb.get(i)).unwrap_or(0);
    format!(
        "line {}\n  first print:  {}\n  second print: {}",
        i + 1,
        la.get(i).unwrap_or(&"<end>"),
        lb.get(i).unwrap_or(&"<end>")
    )
}

fn config(default_cases: u32) -> Config {
    Config {
        cases: cases(default_cases),
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("proptest-regressions"))),
        ..Config::default()
    }
}

fn choices() -> impl Strategy<Value = Vec<u32>> {
    proptest::collection::vec(0u32..64, 0..400)
}

proptest! {
    #![proptest_config(config(512))]

    /// parse → print_generic → parse → print_generic is a fixpoint.
    #[test]
    fn generated_modules_round_trip(choice in choices()) {
        let text = generate(choice);
        let first = print(&text).map_err(|e| TestCaseError::fail(format!("generated module rejected:\n{e}\n--- module ---\n{text}")))?;
        let second = print(&first).map_err(|e| TestCaseError::fail(format!("our own output rejected:\n{e}\n--- printed ---\n{first}\n--- from ---\n{text}")))?;
        if first != second {
            return Err(TestCaseError::fail(format!("printing is not a fixpoint: {}\n--- module ---\n{text}", first_difference(&first, &second))));
        }
    }
}

/// The generator stays inside MLIR: mlir-opt accepts a sample of its modules.
#[test]
fn generator_output_is_accepted_by_mlir_opt() {
    let Some(opt) = common::mlir_opt() else { return };
    // A fixed xorshift stream, so the sample is the same on every run.
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % 64) as u32
    };
    let mut failures = Vec::new();
    for i in 0..40 {
        let len = 50 + 10 * i;
        let choices: Vec<u32> = (0..len).map(|_| next()).collect();
        let text = generate(choices);
        let out = common::run_mlir_opt(&opt, &["--allow-unregistered-dialect", "-o", "/dev/null"], Some(&text));
        if !out.ok {
            failures.push(format!("{}\n--- module ---\n{text}", out.stderr));
        }
    }
    assert!(failures.is_empty(), "mlir-opt rejects {} generated module(s); first:\n{}", failures.len(), failures[0]);
}

// ---------------------------------------------------------------------------
// Robustness: mutated fixtures.

/// Tokens that steer mutations towards the parser's interesting paths.
const TOKENS: &[&str] = &[
    "{",
    "}",
    "(",
    ")",
    "<",
    ">",
    "[",
    "]",
    "%",
    "^",
    "#",
    "!",
    "@",
    "\"",
    ":",
    ",",
    "=",
    "->",
    "0x",
    "-",
    "?",
    "x",
    "loc(",
    "dense<",
    "affine_map<",
    "{-#",
    "#-}",
    "\\",
    "\n",
    "%0#",
    "i1000000000",
    "f8E4M3FN",
    "tensor<",
    "memref<",
    "99999999999999999999999",
    "1.0e999",
    "^bb0:",
    "\"rt.op\"() : () -> ()",
    "func.func @f() {",
    "ub.poison",
];

#[derive(Clone, Debug)]
enum Mutation {
    /// Overwrite one byte.
    Set(usize, u8),
    /// Insert a byte.
    Insert(usize, u8),
    /// Insert a token.
    Token(usize, usize),
    /// Delete a range.
    Delete(usize, usize),
    /// Duplicate a range.
    Duplicate(usize, usize),
    /// Cut the text at a position.
    Truncate(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(p, b)| Mutation::Set(p, b)),
        (any::<usize>(), any::<u8>()).prop_map(|(p, b)| Mutation::Insert(p, b)),
        (any::<usize>(), 0..TOKENS.len()).prop_map(|(p, t)| Mutation::Token(p, t)),
        (any::<usize>(), 1usize..40).prop_map(|(p, n)| Mutation::Delete(p, n)),
        (any::<usize>(), 1usize..60).prop_map(|(p, n)| Mutation::Duplicate(p, n)),
        any::<usize>().prop_map(Mutation::Truncate),
    ]
}

fn apply(text: &mut Vec<u8>, m: &Mutation) {
    let at = |p: usize, len: usize| if len == 0 { 0 } else { p % (len + 1) };
    match *m {
        Mutation::Set(p, b) if !text.is_empty() => {
            let i = p % text.len();
            text[i] = b;
        }
        Mutation::Set(..) => {}
        Mutation::Insert(p, b) => text.insert(at(p, text.len()), b),
        Mutation::Token(p, t) => {
            let i = at(p, text.len());
            text.splice(i..i, TOKENS[t].bytes());
        }
        Mutation::Delete(p, n) => {
            let i = at(p, text.len());
            let j = (i + n).min(text.len());
            text.drain(i..j);
        }
        Mutation::Duplicate(p, n) => {
            let i = at(p, text.len());
            let j = (i + n).min(text.len());
            let piece: Vec<u8> = text[i..j].to_vec();
            text.splice(j..j, piece);
        }
        Mutation::Truncate(p) => {
            let i = at(p, text.len());
            text.truncate(i);
        }
    }
}

fn all_fixtures() -> Vec<Vec<u8>> {
    ["spec", "invalid", "roundtrip", "exec"]
        .iter()
        .flat_map(|d| common::fixtures_recursive(d))
        .map(|p| std::fs::read(p).unwrap())
        .collect()
}

/// Parses in a worker thread; `Err` if it panicked or took longer than 10 s.
fn parse_guarded(text: String) -> Result<(), String> {
    let (tx, rx) = mpsc::channel();
    let worker = std::thread::Builder::new()
        .stack_size(16 << 20)
        .spawn(move || {
            let src = Source::new("mutated.mlir", text);
            let ok = std::panic::catch_unwind(|| {
                if let Ok(m) = mlir_ir::parse_and_verify(&src) {
                    let _ = mlir_ir::printer::print_generic(&m);
                }
            });
            let _ = tx.send(ok.is_ok());
        })
        .expect("spawn parser thread");
    match rx.recv_timeout(Duration::from_secs(10)) {
        Ok(true) => {
            let _ = worker.join();
            Ok(())
        }
        Ok(false) => Err("parse_and_verify panicked".to_owned()),
        Err(_) => Err("parse_and_verify hung (no answer in 10 s)".to_owned()),
    }
}

proptest! {
    #![proptest_config(config(2000))]

    /// Mutated fixtures never panic and never hang.
    #[test]
    fn mutated_fixtures_never_panic_or_hang(
        which in any::<prop::sample::Index>(),
        muts in proptest::collection::vec(mutation(), 1..8),
    ) {
        let fixtures = all_fixtures();
        let mut text = which.get(&fixtures).clone();
        for m in &muts {
            apply(&mut text, m);
        }
        let text = String::from_utf8_lossy(&text).into_owned();
        if let Err(e) = parse_guarded(text.clone()) {
            return Err(TestCaseError::fail(format!("{e}\n--- input ---\n{text}")));
        }
    }
}

#[test]
fn hostile_inputs_never_panic_or_hang() {
    let deep = |open: &str, close: &str, n: usize| {
        format!("\"rt.op\"() {{a = {}{}}} : () -> ()", open.repeat(n), close.repeat(n))
    };
    let inputs = [
        String::new(),
        "\0".to_owned(),
        "\"".to_owned(),
        "{-#".to_owned(),
        "%".to_owned(),
        "\u{feff}func.func @f() { return }".to_owned(),
        deep("[", "]", 100_000),
        deep("{a = ", "}", 100_000),
        format!("\"rt.op\"() : () -> ({}i32{})", "tuple<".repeat(100_000), ">".repeat(100_000)),
        format!("#m = affine_map<(d0) -> ({}d0{})>", "(".repeat(100_000), ")".repeat(100_000)),
        format!("\"rt.op\"() ({}) : () -> ()", "{\"rt.op\"() (".repeat(20_000) + &"}) : () -> ()".repeat(20_000)),
        "\"rt.op\"() {a = 1 : i16777216} : () -> ()".to_owned(),
        "\"rt.op\"() {a = dense<1> : tensor<999999999999x999999999999xi8>} : () -> ()".to_owned(),
        "\"rt.op\"() {a = 1 : i4294967296} : () -> ()".to_owned(),
    ];
    for (i, text) in inputs.into_iter().enumerate() {
        if let Err(e) = parse_guarded(text) {
            panic!("hostile input #{i}: {e}");
        }
    }
}

/// Every fixture the parser accepts prints to a fixpoint: its generic form
/// reads back as the same ops (the `roundtrip` fuzz target's property, on
/// its seeds). A custom-form op whose properties and dictionary share a
/// name printed `<{..}> {elem_type = ..}`, which reads back as one
/// property dictionary (fixtures/fuzz/roundtrip_custom_gep_elem_type).
#[test]
fn every_fixture_prints_to_a_fixpoint() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut stack = vec![root];
    let (mut checked, mut failures) = (0, Vec::new());
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            if p.extension().is_none_or(|x| x != "mlir") {
                continue;
            }
            let Ok(first) = print(&std::fs::read_to_string(&p).unwrap()) else { continue };
            checked += 1;
            match print(&first) {
                Ok(second) if second == first => {}
                Ok(_) => failures.push(format!("{}: printing is not a fixpoint", p.display())),
                Err(e) => failures.push(format!("{}: its generic form does not parse: {e}", p.display())),
            }
        }
    }
    assert!(checked > 400, "only {checked} fixtures parsed");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
