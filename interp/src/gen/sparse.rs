//! `mlir-interp gen --kind sparse`: random sparse kernels for checking the
//! sparsifier: random encodings (dense, compressed, singleton COO levels,
//! row- and column-major, position and coordinate widths) on random data,
//! and kernels the sparsifier accepts: elementwise sums, differences and
//! products (sparse or dense outputs), scaling in place, SpMV, SpMM,
//! row and full reductions (sums, and maxima the sparsifier rewrites to
//! semirings), zero-preserving unary ops, `sparse_tensor.binary` with
//! identities, and conversions between encodings. Every result is printed
//! (`sparse_tensor.print` for a sparse one, so its storage is compared).
//!
//! Free of undefined behaviour and of rounding: elements are small
//! integers (floats hold them exactly), so a reduction's order, which the
//! sparsifier's loop order and vectorization choose, cannot change a bit.

use super::Options;
use crate::args::SplitMix;
use std::fmt::Write as _;

/// A level format of a generated encoding, by rank.
const FORMATS_1D: &[&str] = &["d0 : compressed", "d0 : dense"];

/// Matrix encodings: the map and whether it stores rows first.
const FORMATS_2D: &[(&str, bool)] = &[
    ("d0 : dense, d1 : compressed", true),
    ("d0 : compressed, d1 : compressed", true),
    ("d0 : compressed(nonunique), d1 : singleton", true),
    ("d0 : dense, d1 : dense", true),
    ("d1 : dense, d0 : compressed", false),
    ("d1 : compressed, d0 : compressed", false),
];

/// Widths for `posWidth`/`crdWidth` (0: index).
const WIDTHS: &[u32] = &[0, 8, 16, 32, 64];

/// A generator's state: the encodings it declared and the body of `@main`.
struct Gen {
    rng: SplitMix,
    encodings: Vec<String>,
    body: String,
    n: usize,
    /// `f64` or `i64` elements.
    float: bool,
}

impl Gen {
    fn below(&mut self, n: u64) -> u64 {
        self.rng.below(n)
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    fn fresh(&mut self) -> String {
        self.n += 1;
        format!("%v{}", self.n)
    }

    fn et(&self) -> &'static str {
        if self.float {
            "f64"
        } else {
            "i64"
        }
    }

    /// A new encoding alias of rank 1 or 2; `rows`: a matrix stored row
    /// by row (`None`: any); `widths`: maybe narrower overheads (only for
    /// tensors converted from dense ones: LLVM 22 fails to lower a
    /// sparse-to-sparse conversion or an insertion into narrower storage
    /// with the runtime library, and COO outputs, see `fixtures/found`).
    fn encoding(&mut self, rank: usize, rows: Option<bool>, widths: bool) -> String {
        let map = if rank == 1 {
            format!("(d0) -> ({})", FORMATS_1D[self.below(FORMATS_1D.len() as u64) as usize])
        } else {
            let ok: Vec<&(&str, bool)> =
                FORMATS_2D.iter().filter(|(_, r)| rows.is_none_or(|want| *r == want)).collect();
            format!("(d0, d1) -> ({})", ok[self.below(ok.len() as u64) as usize].0)
        };
        let mut text = format!("map = {map}");
        // Widths only where storage has overheads (LLVM 22 cannot convert
        // between all-dense encodings of different widths), and equal ones
        // for integer elements (the runtime library has no others).
        let overheads = map.contains("compressed") || map.contains("singleton");
        if widths && overheads && self.chance(40) {
            let p = WIDTHS[self.below(WIDTHS.len() as u64) as usize];
            let c = if self.float { WIDTHS[self.below(WIDTHS.len() as u64) as usize] } else { p };
            let _ = write!(text, ", posWidth = {p}, crdWidth = {c}");
        }
        let name = format!("#E{}", self.encodings.len());
        self.encodings.push(format!("{name} = #sparse_tensor.encoding<{{ {text} }}>"));
        name
    }

    /// An encoding for a result: default widths, and no COO (LLVM 22's
    /// runtime library builds a corrupt COO by expanded insertion).
    fn output_encoding(&mut self, rank: usize, rows: Option<bool>) -> String {
        loop {
            let e = self.encoding(rank, rows, false);
            if !self.encodings.last().is_some_and(|t| t.contains("singleton")) {
                return e;
            }
            self.encodings.pop();
        }
    }

    fn line(&mut self, s: &str) {
        self.body.push_str("    ");
        self.body.push_str(s);
        self.body.push('\n');
    }

    /// A dense constant of `shape`: mostly zeros, small integers elsewhere.
    fn data(&mut self, shape: &[i64]) -> String {
        let density = [20, 40, 70][self.below(3) as usize];
        let n: i64 = shape.iter().product();
        let mut elems = Vec::with_capacity(n as usize);
        for _ in 0..n {
            let v = if self.chance(density) { self.below(9) as i64 - 4 } else { 0 };
            elems.push(if self.float { format!("{v}.0") } else { v.to_string() });
        }
        let text = if shape.len() == 1 {
            format!("[{}]", elems.join(", "))
        } else {
            let rows: Vec<String> = elems.chunks(shape[1] as usize).map(|r| format!("[{}]", r.join(", "))).collect();
            format!("[{}]", rows.join(", "))
        };
        let v = self.fresh();
        let t = self.ty(shape, None);
        self.line(&format!("{v} = arith.constant dense<{text}> : {t}"));
        v
    }

    fn ty(&self, shape: &[i64], enc: Option<&str>) -> String {
        let dims: Vec<String> = shape.iter().map(i64::to_string).collect();
        match enc {
            Some(e) => format!("tensor<{}x{}, {e}>", dims.join("x"), self.et()),
            None => format!("tensor<{}x{}>", dims.join("x"), self.et()),
        }
    }

    /// A sparse tensor of `shape` converted from random data.
    fn sparse(&mut self, shape: &[i64], rows: Option<bool>) -> (String, String) {
        let d = self.data(shape);
        let enc = self.encoding(shape.len(), rows, true);
        let v = self.fresh();
        let (from, to) = (self.ty(shape, None), self.ty(shape, Some(&enc)));
        self.line(&format!("{v} = sparse_tensor.convert {d} : {from} to {to}"));
        (v, to)
    }

    /// Prints `v` of type `t`: its storage if sparse, else its elements.
    fn print(&mut self, v: &str, t: &str, shape: &[i64]) {
        if t.contains('#') {
            self.line(&format!("sparse_tensor.print {v} : {t}"));
            return;
        }
        if shape.is_empty() {
            let x = self.fresh();
            self.line(&format!("{x} = tensor.extract {v}[] : {t}"));
            self.line(&format!("vector.print {x} : {}", self.et()));
            return;
        }
        let zero = if self.float { "0.0" } else { "0" };
        let (p, c) = (self.fresh(), self.fresh());
        self.line(&format!("{p} = arith.constant {zero} : {}", self.et()));
        self.line(&format!("{c} = arith.constant 0 : index"));
        let idx = vec![c.as_str(); shape.len()].join(", ");
        let dims: Vec<String> = shape.iter().map(i64::to_string).collect();
        let vt = format!("vector<{}x{}>", dims.join("x"), self.et());
        let x = self.fresh();
        self.line(&format!("{x} = vector.transfer_read {v}[{idx}], {p} : {t}, {vt}"));
        self.line(&format!("vector.print {x} : {vt}"));
    }

    /// An output of `shape`: a new sparse tensor (`tensor.empty`), or a
    /// dense one filled with a constant (read by the body when `read`).
    fn output(&mut self, shape: &[i64], sparse_ok: bool, rows: Option<bool>) -> (String, String) {
        let v = self.fresh();
        if sparse_ok && !shape.is_empty() && self.chance(60) {
            let enc = self.output_encoding(shape.len(), rows);
            let t = self.ty(shape, Some(&enc));
            self.line(&format!("{v} = tensor.empty() : {t}"));
            return (v, t);
        }
        let t = if shape.is_empty() { format!("tensor<{}>", self.et()) } else { self.ty(shape, None) };
        let fill = self.below(5) as i64 - 2;
        let fill = if self.float { format!("{fill}.0") } else { fill.to_string() };
        self.line(&format!("{v} = arith.constant dense<{fill}> : {t}"));
        (v, t)
    }

    fn add_op(&self) -> &'static str {
        if self.float {
            "arith.addf"
        } else {
            "arith.addi"
        }
    }

    fn mul_op(&self) -> &'static str {
        if self.float {
            "arith.mulf"
        } else {
            "arith.muli"
        }
    }

    /// `a op b` elementwise on two sparse (or one dense) operands.
    fn elementwise(&mut self) {
        let shape = self.shape();
        let (a, ta) = self.sparse(&shape, None);
        let (b, tb) = if self.chance(25) {
            let d = self.data(&shape);
            (d, self.ty(&shape, None))
        } else {
            self.sparse(&shape, None)
        };
        // A difference only of two sparse operands: with a dense right
        // operand, an absent left one gives `-y`, which for y = +0 is -0
        // as the sparsifier computes it, but +0 once canonicalization
        // folded a splat operand's `x - 0.0` to `x` (both are right).
        let sparse_rhs = tb.contains('#');
        let op = match self.below(3) {
            0 => self.add_op(),
            1 if self.float && sparse_rhs => "arith.subf",
            1 if sparse_rhs => "arith.subi",
            _ => self.mul_op(),
        };
        let (o, to) = self.output(&shape, true, None);
        let map = identity(shape.len());
        let r = self.fresh();
        self.line(&format!(
            "{r} = linalg.generic {{ indexing_maps = [{map}, {map}, {map}], iterator_types = [{}] }} \
             ins({a}, {b} : {ta}, {tb}) outs({o} : {to}) {{\n      ^bb0(%x: {et}, %y: {et}, %z: {et}):\n        \
             %s = {op} %x, %y : {et}\n        linalg.yield %s : {et}\n    }} -> {to}",
            parallel(shape.len()),
            et = self.et()
        ));
        self.print(&r, &to, &shape);
    }

    /// `x = x * c` on a sparse tensor, in place (its structure unchanged).
    fn scale(&mut self) {
        let shape = self.shape();
        let (a, ta) = self.sparse(&shape, None);
        let c = self.below(7) as i64 - 3;
        let c = if self.float { format!("{c}.0") } else { c.to_string() };
        let map = identity(shape.len());
        let (k, r) = (self.fresh(), self.fresh());
        let (mul, et) = (self.mul_op(), self.et());
        self.line(&format!("{k} = arith.constant {c} : {et}"));
        self.line(&format!(
            "{r} = linalg.generic {{ indexing_maps = [{map}], iterator_types = [{}] }} outs({a} : {ta}) {{\n      \
             ^bb0(%x: {et}):\n        %s = {mul} %x, {k} : {et}\n        linalg.yield %s : {et}\n    }} -> {ta}",
            parallel(shape.len())
        ));
        self.print(&r, &ta, &shape);
    }

    /// `y(i) += A(i, j) * x(j)` into a dense vector that the body reads.
    fn spmv(&mut self) {
        let (m, n) = (self.dim(), self.dim());
        let (a, ta) = self.sparse(&[m, n], None);
        let x = self.data(&[n]);
        let tx = self.ty(&[n], None);
        let (y, ty) = self.output(&[m], false, None);
        let (add, mul, et) = (self.add_op(), self.mul_op(), self.et());
        let r = self.fresh();
        self.line(&format!(
            "{r} = linalg.generic {{ indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, \
             affine_map<(i, j) -> (i)>], iterator_types = [\"parallel\", \"reduction\"] }} ins({a}, {x} : {ta}, {tx}) \
             outs({y} : {ty}) {{\n      ^bb0(%p: {et}, %q: {et}, %acc: {et}):\n        %m = {mul} %p, %q : {et}\n        \
             %s = {add} %acc, %m : {et}\n        linalg.yield %s : {et}\n    }} -> {ty}"
        ));
        self.print(&r, &ty, &[m]);
    }

    /// `C(i, j) += A(i, k) * B(k, j)` with `linalg.matmul`; a sparse `C`
    /// when `A` is stored row by row (the sparsifier's insertion order).
    fn spmm(&mut self) {
        let (m, k, n) = (self.dim(), self.dim(), self.dim());
        let rows = self.chance(70);
        let (a, ta) = self.sparse(&[m, k], Some(rows));
        let (b, tb) = if self.chance(30) {
            let d = self.data(&[k, n]);
            (d, self.ty(&[k, n], None))
        } else {
            self.sparse(&[k, n], Some(true))
        };
        let (c, tc) = self.output(&[m, n], rows, Some(true));
        let r = self.fresh();
        self.line(&format!("{r} = linalg.matmul ins({a}, {b} : {ta}, {tb}) outs({c} : {tc}) -> {tc}"));
        self.print(&r, &tc, &[m, n]);
    }

    /// Row sums into a vector, or a total into a rank-0 tensor (a sum, or
    /// a maximum over every element, implicit zeros included).
    fn reduction(&mut self) {
        let (m, n) = (self.dim(), self.dim());
        let (a, ta) = self.sparse(&[m, n], Some(true));
        let et = self.et();
        let r = self.fresh();
        if self.chance(50) {
            let (o, to) = self.output(&[m], true, None);
            let add = self.add_op();
            self.line(&format!(
                "{r} = linalg.generic {{ indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], \
                 iterator_types = [\"parallel\", \"reduction\"] }} ins({a} : {ta}) outs({o} : {to}) {{\n      \
                 ^bb0(%p: {et}, %acc: {et}):\n        %s = {add} %p, %acc : {et}\n        linalg.yield %s : {et}\n    }} -> {to}"
            ));
            self.print(&r, &to, &[m]);
        } else {
            let (o, to) = self.output(&[], false, None);
            let op = match (self.below(2), self.float) {
                (0, _) => self.add_op(),
                (_, true) => "arith.maximumf",
                (_, false) => "arith.maxsi",
            };
            self.line(&format!(
                "{r} = linalg.generic {{ indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], \
                 iterator_types = [\"reduction\", \"reduction\"] }} ins({a} : {ta}) outs({o} : {to}) {{\n      \
                 ^bb0(%p: {et}, %acc: {et}):\n        %s = {op} %p, %acc : {et}\n        linalg.yield %s : {et}\n    }} -> {to}"
            ));
            self.print(&r, &to, &[]);
        }
    }

    /// A zero-preserving unary op, or `sparse_tensor.binary` with a left
    /// region and a right identity.
    fn semiring(&mut self) {
        let shape = self.shape();
        let (a, ta) = self.sparse(&shape, None);
        let map = identity(shape.len());
        let et = self.et();
        let r = self.fresh();
        if self.chance(50) {
            let (b, tb) = self.sparse(&shape, None);
            let (o, to) = self.output(&shape, true, None);
            let (add, mul) = (self.add_op(), self.mul_op());
            let one = if self.float { "1.0" } else { "1" };
            self.line(&format!(
                "{r} = linalg.generic {{ indexing_maps = [{map}, {map}, {map}], iterator_types = [{}] }} \
                 ins({a}, {b} : {ta}, {tb}) outs({o} : {to}) {{\n      ^bb0(%x: {et}, %y: {et}, %z: {et}):\n        \
                 %s = sparse_tensor.binary %x, %y : {et}, {et} to {et}\n          overlap={{\n            \
                 ^bb0(%p: {et}, %q: {et}):\n              %m = {mul} %p, %q : {et}\n              \
                 sparse_tensor.yield %m : {et}\n          }}\n          left={{\n            ^bb0(%p: {et}):\n              \
                 %c = arith.constant {one} : {et}\n              %m = {add} %p, %c : {et}\n              \
                 sparse_tensor.yield %m : {et}\n          }}\n          right=identity\n        linalg.yield %s : {et}\n    }} -> {to}",
                parallel(shape.len())
            ));
            self.print(&r, &to, &shape);
        } else {
            let (o, to) = self.output(&shape, true, None);
            let op = if self.float { ["arith.negf", "math.absf"][self.below(2) as usize] } else { "math.absi" };
            self.line(&format!(
                "{r} = linalg.generic {{ indexing_maps = [{map}, {map}], iterator_types = [{}] }} \
                 ins({a} : {ta}) outs({o} : {to}) {{\n      ^bb0(%x: {et}, %z: {et}):\n        \
                 %s = {op} %x : {et}\n        linalg.yield %s : {et}\n    }} -> {to}",
                parallel(shape.len())
            ));
            self.print(&r, &to, &shape);
        }
    }

    /// A conversion between two encodings (or to dense).
    fn convert(&mut self) {
        let shape = self.shape();
        let (a, ta) = self.sparse(&shape, None);
        let to = if self.chance(25) {
            self.ty(&shape, None)
        } else {
            let enc = self.output_encoding(shape.len(), None);
            self.ty(&shape, Some(&enc))
        };
        let r = self.fresh();
        self.line(&format!("{r} = sparse_tensor.convert {a} : {ta} to {to}"));
        self.print(&r, &to, &shape);
    }

    fn dim(&mut self) -> i64 {
        1 + self.below(6) as i64
    }

    fn shape(&mut self) -> Vec<i64> {
        if self.chance(40) {
            vec![self.dim()]
        } else {
            vec![self.dim(), self.dim()]
        }
    }
}

/// The identity map of `n` loops.
fn identity(n: usize) -> String {
    let d: Vec<String> = (0..n).map(|i| format!("d{i}")).collect();
    format!("affine_map<({0}) -> ({0})>", d.join(", "))
}

/// `"parallel", ...` for `n` loops.
fn parallel(n: usize) -> String {
    vec!["\"parallel\""; n].join(", ")
}

/// A program of about `o.size / 4` kernels (at least one).
pub(super) fn generate(o: &Options, attempt: u64) -> String {
    let mut g = Gen {
        rng: SplitMix(o.seed ^ 0x7370_6172_7365_2D67 ^ attempt.wrapping_mul(0x9E37_79B9_7F4A_7C15)),
        encodings: Vec::new(),
        body: String::new(),
        n: 0,
        float: false,
    };
    g.float = g.chance(70);
    for _ in 0..(o.size / 4).max(1) {
        match g.below(7) {
            0 => g.elementwise(),
            1 => g.scale(),
            2 => g.spmv(),
            3 => g.spmm(),
            4 => g.reduction(),
            5 => g.semiring(),
            _ => g.convert(),
        }
    }
    let mut out = String::new();
    for e in &g.encodings {
        out.push_str(e);
        out.push('\n');
    }
    let _ = write!(out, "func.func @main() {{\n{}    return\n}}\n", g.body);
    out
}

#[cfg(test)]
mod tests {
    use super::super::{retried, undefined, Kind, Options};
    use super::generate;

    /// Generated kernels verify and run here without undefined behaviour.
    #[test]
    fn generated_programs_are_defined() {
        for seed in 0..20 {
            let o = Options { seed, kind: Kind::Sparse, size: 12 };
            let text = retried(&o, generate).expect("a program");
            assert!(undefined(&text).expect("runs").is_none());
        }
    }
}
