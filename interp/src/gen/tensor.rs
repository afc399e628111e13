//! `mlir-interp gen --kind tensor`: random programs of the tensor dialect
//! (extract/insert, static, dynamic and strided slices, pad, concat,
//! reshape, expand/collapse_shape, splat, generate, from_elements, casts
//! between static and dynamic shapes, `tensor.empty` + `linalg.fill`, and
//! arith/math elementwise on tensors). The shaped-value machinery here
//! (values with shapes, dynamic dimensions and float bounds, `@f`'s
//! parameters, `@main` printing the results) is shared with the linalg
//! kind (`gen/linalg.rs`), which adds its ops to the same [`Gen`].
//!
//! `@f` takes tensors and indices; `@main` passes constants (cast to the
//! dynamic types `@f` declares, so no pass of `@f` sees the shapes or
//! offsets) and prints every result with the runner's `printMemref*`
//! (declared on unranked tensors, which bufferization turns into the
//! memrefs the runtime reads), so `passcheck` on `@main` compares them and
//! mlir-runner runs the program once lowered.
//!
//! Free of undefined behaviour by construction: every index, offset, size
//! and stride is chosen inside its tensor, every `tensor.empty` is filled
//! before it is read, integers wrap (no overflow flags, no division) and
//! floats are multiples of a power of two small enough that every sum and
//! product is exact, so no evaluation order (reductions, fusion) can change
//! a bit. The program is then run here; a run with undefined behaviour
//! draws the program again from a derived seed ([`super::retried`]).

use super::Options;
use crate::args::SplitMix;
use std::collections::HashSet;
use std::fmt::Write as _;

/// An element type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Et {
    I32,
    F32,
}

impl Et {
    pub(super) fn name(self) -> &'static str {
        match self {
            Et::I32 => "i32",
            Et::F32 => "f32",
        }
    }

    pub(super) fn float(self) -> bool {
        self == Et::F32
    }

    /// The suffix of the runner's `printMemref` function for it.
    fn print_suffix(self) -> &'static str {
        match self {
            Et::I32 => "I32",
            Et::F32 => "F32",
        }
    }
}

/// The largest `|x| * 2^frac` a float may reach: below 2^24, sums and
/// products of such values are exact in f32 whatever their order.
const EXACT: f64 = (1u64 << 22) as f64;

/// What is known of a float value: a multiple of `2^-frac` no larger than
/// `mag` in magnitude (integers carry it too, unused: they wrap freely).
#[derive(Clone, Copy, Debug)]
pub(super) struct Bound {
    pub(super) mag: f64,
    pub(super) frac: u32,
}

impl Bound {
    pub(super) const INT: Bound = Bound { mag: 0.0, frac: 0 };

    /// Whether arithmetic on values within the bound is still exact.
    pub(super) fn exact(self) -> bool {
        self.frac < 24 && self.mag * f64::from(1u32 << self.frac) <= EXACT
    }

    pub(super) fn add(self, o: Bound) -> Bound {
        Bound { mag: self.mag + o.mag, frac: self.frac.max(o.frac) }
    }

    pub(super) fn mul(self, o: Bound) -> Bound {
        Bound { mag: self.mag * o.mag, frac: self.frac + o.frac }
    }

    pub(super) fn join(self, o: Bound) -> Bound {
        Bound { mag: self.mag.max(o.mag), frac: self.frac.max(o.frac) }
    }

    /// `n` values within the bound added up.
    pub(super) fn times(self, n: i64) -> Bound {
        Bound { mag: self.mag * n as f64, frac: self.frac }
    }
}

/// A shaped value: a tensor, or (in the linalg kind's memref mode) a memref.
#[derive(Clone, Debug)]
pub(super) struct V {
    pub(super) name: String,
    pub(super) shape: Vec<i64>,
    /// Which dimensions the type leaves dynamic (`?`).
    pub(super) dynamic: Vec<bool>,
    pub(super) et: Et,
    pub(super) b: Bound,
    pub(super) mem: bool,
}

impl V {
    pub(super) fn ty(&self) -> String {
        shaped(self.mem, &self.shape, &self.dynamic, self.et)
    }

    pub(super) fn elems(&self) -> i64 {
        self.shape.iter().product()
    }

    pub(super) fn rank(&self) -> usize {
        self.shape.len()
    }
}

/// `tensor<2x?xi32>` (or a memref).
pub(super) fn shaped(mem: bool, shape: &[i64], dynamic: &[bool], et: Et) -> String {
    let mut s = String::from(if mem { "memref<" } else { "tensor<" });
    for (d, dy) in shape.iter().zip(dynamic) {
        if *dy {
            s.push_str("?x");
        } else {
            let _ = write!(s, "{d}x");
        }
    }
    s.push_str(et.name());
    s.push('>');
    s
}

/// A scalar of `@f`.
#[derive(Clone, Debug)]
pub(super) struct S {
    pub(super) name: String,
    pub(super) et: Et,
    pub(super) b: Bound,
}

/// A parameter of `@f` and how `@main` makes its argument.
struct Param {
    name: String,
    ty: String,
    /// Lines of `@main` that compute the argument into `arg`.
    lines: String,
    arg: String,
}

/// Largest number of elements a generated value gets.
pub(super) const MAX_ELEMS: i64 = 48;

/// Results `@f` returns at most.
const MAX_RESULTS: usize = 5;

/// The generator's state, shared by the tensor and linalg kinds.
pub(super) struct Gen {
    pub(super) rng: SplitMix,
    pub(super) body: String,
    pub(super) pool: Vec<V>,
    pub(super) scalars: Vec<S>,
    params: Vec<Param>,
    /// Module-level lines `@main` needs (memref globals).
    globals: String,
    /// Names some op reads: the others are results.
    pub(super) used: HashSet<String>,
    next: usize,
    /// Whether shaped values are memrefs (the linalg kind's memref mode).
    pub(super) mem: bool,
    /// Values made by `tensor.cast`/`memref.cast`, which `@f` never
    /// returns: LLVM 22's one-shot-bufferize with function boundaries folds
    /// a returned cast into `@f`'s signature but not into its callers
    /// (mlir-opt then rejects the module), which would hide everything else.
    casts: HashSet<String>,
    /// The structured ops written so far, for a transform schedule.
    pub(super) structured_ops: Vec<Structured>,
}

impl Gen {
    pub(super) fn new(seed: u64, mem: bool) -> Gen {
        Gen {
            rng: SplitMix(seed),
            body: String::new(),
            pool: Vec::new(),
            scalars: Vec::new(),
            params: Vec::new(),
            globals: String::new(),
            used: HashSet::new(),
            next: 0,
            mem,
            casts: HashSet::new(),
            structured_ops: Vec::new(),
        }
    }

    pub(super) fn chance(&mut self, percent: u64) -> bool {
        self.rng.below(100) < percent
    }

    /// A number in `lo..=hi`.
    pub(super) fn between(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.rng.below((hi - lo + 1).max(1) as u64) as i64
    }

    pub(super) fn pick_of<X: Clone>(&mut self, xs: &[X]) -> X {
        xs[self.rng.below(xs.len() as u64) as usize].clone()
    }

    pub(super) fn fresh(&mut self) -> String {
        self.next += 1;
        format!("%v{}", self.next - 1)
    }

    pub(super) fn line(&mut self, s: &str) {
        let _ = writeln!(self.body, "  {s}");
    }

    /// Records the names `text` reads as used.
    pub(super) fn reads(&mut self, text: &str) {
        for w in text.split(|c: char| !(c.is_alphanumeric() || c == '%' || c == '_')) {
            if w.starts_with('%') {
                self.used.insert(w.to_string());
            }
        }
    }

    /// Emits `name = text`, its reads recorded, and returns the name.
    pub(super) fn def(&mut self, text: &str) -> String {
        self.reads(text);
        let name = self.fresh();
        self.line(&format!("{name} = {text}"));
        name
    }

    /// Emits `text` as a new shaped value of `shape` and adds it to the pool.
    pub(super) fn emit(&mut self, text: &str, shape: Vec<i64>, dynamic: Vec<bool>, et: Et, b: Bound) -> V {
        let name = self.def(text);
        let v = V { name, shape, dynamic, et, b, mem: self.mem };
        self.pool.push(v.clone());
        v
    }

    /// A pool value satisfying `ok`, most often a recent one.
    pub(super) fn pick(&mut self, ok: impl Fn(&V) -> bool) -> Option<V> {
        let c: Vec<usize> = (0..self.pool.len()).filter(|i| ok(&self.pool[*i])).collect();
        if c.is_empty() {
            return None;
        }
        let n = c.len() as u64;
        let i = if self.chance(75) { n - 1 - self.rng.below(n.min(6)) } else { self.rng.below(n) };
        Some(self.pool[c[i as usize]].clone())
    }

    /// A random shape of `rank` dimensions of 1 to 4.
    pub(super) fn shape(&mut self, rank: usize) -> Vec<i64> {
        loop {
            let s: Vec<i64> = (0..rank).map(|_| 1 + self.rng.below(4) as i64).collect();
            if s.iter().product::<i64>() <= MAX_ELEMS / 2 {
                return s;
            }
        }
    }

    /// Which dimensions of a new value's type are dynamic: none most often.
    pub(super) fn dyn_dims(&mut self, rank: usize) -> Vec<bool> {
        let any = self.chance(30);
        (0..rank).map(|_| any && self.chance(50)).collect()
    }

    pub(super) fn et(&mut self) -> Et {
        if self.chance(50) {
            Et::I32
        } else {
            Et::F32
        }
    }

    /// A scalar literal of `et` and its bound: small most of the time,
    /// and for floats halves as well as integers.
    fn literal(&mut self, et: Et, range: i64) -> (String, Bound) {
        match et {
            Et::I32 => {
                let v = match self.rng.below(4) {
                    0 => self.rng.next() as u32 as i32 as i64,
                    _ => self.between(-range, range),
                };
                (v.to_string(), Bound::INT)
            }
            Et::F32 => {
                let k = self.between(-2 * range, 2 * range);
                (format!("{:.1}", k as f64 / 2.0), Bound { mag: range as f64, frac: 1 })
            }
        }
    }

    /// A new parameter of `@f` holding random data of `shape`.
    pub(super) fn data(&mut self, shape: &[i64], dynamic: &[bool], et: Et) -> V {
        let range = self.pick_of(&[3, 8, 100]);
        let mut b = Bound { mag: range as f64, frac: u32::from(et.float()) };
        let lit = if self.chance(10) {
            let (l, lb) = self.literal(et, range);
            b = lb;
            format!("dense<{l}>")
        } else {
            let n = shape.iter().product::<i64>();
            let flat: Vec<String> = (0..n).map(|_| self.literal(et, range).0).collect();
            format!("dense<{}>", nest(&flat, shape))
        };
        if et == Et::I32 {
            b = Bound::INT;
        }
        let k = self.params.len();
        let name = format!("%a{k}");
        let fixed = vec![false; shape.len()];
        let (static_ty, ty) = (shaped(self.mem, shape, &fixed, et), shaped(self.mem, shape, dynamic, et));
        let mut lines = String::new();
        let made = if self.mem {
            let _ = writeln!(self.globals, "memref.global \"private\" constant @g{k} : {static_ty} = {lit}");
            let _ = writeln!(lines, "  %g{k} = memref.get_global @g{k} : {static_ty}");
            let _ = writeln!(lines, "  %m{k} = memref.alloc() : {static_ty}");
            let _ = writeln!(lines, "  memref.copy %g{k}, %m{k} : {static_ty} to {static_ty}");
            format!("%m{k}")
        } else {
            let _ = writeln!(lines, "  %c{k} = arith.constant {lit} : {static_ty}");
            format!("%c{k}")
        };
        let arg = if dynamic.iter().any(|d| *d) {
            let op = if self.mem { "memref.cast" } else { "tensor.cast" };
            let _ = writeln!(lines, "  %p{k} = {op} {made} : {static_ty} to {ty}");
            format!("%p{k}")
        } else {
            made
        };
        self.params.push(Param { name: name.clone(), ty, lines, arg });
        let v = V { name, shape: shape.to_vec(), dynamic: dynamic.to_vec(), et, b, mem: self.mem };
        self.pool.push(v.clone());
        v
    }

    /// An index equal to `v`: a constant, an argument of `@f` (which no
    /// pass of `@f` sees through), or the size of a dynamic dimension.
    pub(super) fn index(&mut self, v: i64) -> String {
        let dims: Vec<(String, usize)> = self
            .pool
            .iter()
            .flat_map(|t| {
                (0..t.rank())
                    .filter(|&d| t.dynamic[d] && t.shape[d] == v)
                    .map(|d| (t.name.clone(), d))
                    .collect::<Vec<_>>()
            })
            .collect();
        if !dims.is_empty() && self.chance(30) {
            let (t, d) = self.pick_of(&dims);
            let ty = self.pool.iter().find(|x| x.name == t).map(V::ty).unwrap_or_default();
            let c = self.def(&format!("arith.constant {d} : index"));
            let op = if self.mem { "memref.dim" } else { "tensor.dim" };
            return self.def(&format!("{op} {t}, {c} : {ty}"));
        }
        if self.chance(50) {
            return self.def(&format!("arith.constant {v} : index"));
        }
        let name = format!("%a{}", self.params.len());
        let arg = format!("%i{}", self.params.len());
        let lines = format!("  {arg} = arith.constant {v} : index\n");
        self.params.push(Param { name: name.clone(), ty: "index".into(), lines, arg });
        name
    }

    /// `v` as a literal in a mixed static/dynamic list, or as an index value.
    pub(super) fn mixed(&mut self, v: i64, dynamic: bool) -> String {
        if dynamic {
            self.index(v)
        } else {
            v.to_string()
        }
    }

    /// A scalar of `et`: from the pool, or a new constant.
    pub(super) fn scalar(&mut self, et: Et) -> S {
        let c: Vec<S> = self.scalars.iter().filter(|s| s.et == et && s.b.exact()).cloned().collect();
        if !c.is_empty() && self.chance(50) {
            let s = self.pick_of(&c);
            self.used.insert(s.name.clone());
            return s;
        }
        let (lit, b) = self.literal(et, 8);
        let name = self.def(&format!("arith.constant {lit} : {}", et.name()));
        S { name, et, b }
    }

    /// A value of exactly this shape and element type: from the pool
    /// (cast to `dynamic` when its type differs) or new data.
    pub(super) fn operand(&mut self, shape: &[i64], dynamic: &[bool], et: Et) -> V {
        let mem = self.mem;
        if self.chance(70) {
            if let Some(v) = self.pick(|v| v.shape == shape && v.et == et && v.mem == mem && v.b.exact()) {
                return self.cast(&v, dynamic);
            }
        }
        self.data(shape, dynamic, et)
    }

    /// Any value of `et` (any when `None`) with a rank in `ranks`.
    pub(super) fn any(&mut self, et: Option<Et>, ranks: std::ops::RangeInclusive<usize>) -> V {
        let mem = self.mem;
        if self.chance(80) {
            if let Some(v) =
                self.pick(|v| et.is_none_or(|e| v.et == e) && ranks.contains(&v.rank()) && v.mem == mem && v.b.exact())
            {
                return v;
            }
        }
        let et = et.unwrap_or_else(|| self.et());
        let rank = self.between(*ranks.start() as i64, *ranks.end() as i64) as usize;
        let s = self.shape(rank);
        let d = self.dyn_dims(rank);
        self.data(&s, &d, et)
    }

    /// `v` with the dimensions `dynamic` says left dynamic (`v` itself when
    /// its type already has them).
    pub(super) fn cast(&mut self, v: &V, dynamic: &[bool]) -> V {
        if v.dynamic == dynamic {
            return v.clone();
        }
        let to = shaped(v.mem, &v.shape, dynamic, v.et);
        let op = if v.mem { "memref.cast" } else { "tensor.cast" };
        let c =
            self.emit(&format!("{op} {} : {} to {to}", v.name, v.ty()), v.shape.clone(), dynamic.to_vec(), v.et, v.b);
        self.casts.insert(c.name.clone());
        c
    }

    /// The SSA values of `v`'s dynamic dimensions, for `tensor.empty`,
    /// `memref.alloc`, `tensor.splat` and `tensor.generate`.
    pub(super) fn dyn_sizes(&mut self, shape: &[i64], dynamic: &[bool]) -> String {
        let mut out = Vec::new();
        for (d, dy) in shape.iter().zip(dynamic) {
            if *dy {
                out.push(self.index(*d));
            }
        }
        out.join(", ")
    }

    /// A new value of this type filled with one scalar (`tensor.empty` or
    /// `memref.alloc`, then `linalg.fill`); `None` picks the scalar.
    pub(super) fn filled(&mut self, shape: &[i64], dynamic: &[bool], et: Et, with: Option<S>) -> V {
        let s = with.unwrap_or_else(|| self.scalar(et));
        let sizes = self.dyn_sizes(shape, dynamic);
        let ty = shaped(self.mem, shape, dynamic, et);
        if self.mem {
            let m = self.def(&format!("memref.alloc({sizes}) : {ty}"));
            self.reads(&s.name);
            self.line(&format!("linalg.fill ins({} : {}) outs({m} : {ty})", s.name, et.name()));
            let v = V { name: m, shape: shape.to_vec(), dynamic: dynamic.to_vec(), et, b: s.b, mem: true };
            self.pool.push(v.clone());
            return v;
        }
        let e = self.def(&format!("tensor.empty({sizes}) : {ty}"));
        self.emit(
            &format!("linalg.fill ins({} : {}) outs({e} : {ty}) -> {ty}", s.name, et.name()),
            shape.to_vec(),
            dynamic.to_vec(),
            et,
            s.b,
        )
    }

    /// A tensor-kind step: one op (or a few that belong together).
    pub(super) fn step(&mut self) -> bool {
        match self.rng.below(17) {
            0 | 1 => self.binary(),
            2 => self.unary(),
            3 => self.select(),
            4 => self.extract(),
            5 => self.insert(),
            6 | 7 => self.extract_slice(),
            8 => self.insert_slice(),
            9 => self.pad(),
            10 => self.concat(),
            11 => self.reshape(),
            12 => self.expand_or_collapse(),
            13 => self.splat_or_fill(),
            14 => self.generate(),
            15 => self.elements(),
            _ => self.convert(),
        }
    }

    /// An arith op on two tensors of one type.
    fn binary(&mut self) -> bool {
        let a = self.any(None, 0..=3);
        let b = self.operand(&a.shape, &a.dynamic, a.et);
        let ty = a.ty();
        let statik = !a.dynamic.iter().any(|d| *d);
        let (op, bound) = if a.et.float() {
            let op = self.pick_of(&["addf", "subf", "mulf", "maximumf", "minimumf"]);
            let bound = match op {
                "addf" | "subf" => a.b.add(b.b),
                "mulf" => a.b.mul(b.b),
                _ => a.b.join(b.b),
            };
            (op, bound)
        } else {
            let ops: &[&str] = if statik {
                &[
                    "addi", "subi", "muli", "andi", "ori", "xori", "maxsi", "minsi", "maxui", "minui", "shli", "shrsi",
                    "shrui",
                ]
            } else {
                &["addi", "subi", "muli", "andi", "ori", "xori", "maxsi", "minsi", "maxui", "minui"]
            };
            (self.pick_of(ops), Bound::INT)
        };
        if !bound.exact() {
            return false;
        }
        let rhs = if op.starts_with("sh") {
            // A shift amount at or past the width is poison: mask it.
            let m = self.def(&format!("arith.constant dense<31> : {ty}"));
            self.def(&format!("arith.andi {}, {m} : {ty}", b.name))
        } else {
            b.name.clone()
        };
        self.emit(&format!("arith.{op} {}, {rhs} : {ty}", a.name), a.shape, a.dynamic, a.et, bound);
        true
    }

    /// A math op on a tensor (exact ones only: no approximated functions).
    fn unary(&mut self) -> bool {
        let a = self.any(None, 0..=3);
        let ty = a.ty();
        let (op, b) = if a.et.float() {
            let op = self.pick_of(&["math.absf", "arith.negf", "math.floor", "math.ceil"]);
            let b =
                if op.ends_with("floor") || op.ends_with("ceil") { Bound { mag: a.b.mag + 1.0, frac: 0 } } else { a.b };
            (op, b)
        } else {
            (self.pick_of(&["math.absi", "math.ctpop"]), Bound::INT)
        };
        self.emit(&format!("{op} {} : {ty}", a.name), a.shape, a.dynamic, a.et, b);
        true
    }

    /// A comparison of two tensors selecting between them.
    fn select(&mut self) -> bool {
        let a = self.any(None, 1..=3);
        let mut b = self.operand(&a.shape, &a.dynamic, a.et);
        if b.name == a.name && a.dynamic.iter().any(|d| *d) {
            // LLVM 22 folds `cmpi sge, %x, %x` on a dynamically shaped
            // tensor into a constant of that type, which cannot exist (and
            // bufferization then fails): a known OPT-FAIL, kept out.
            b = self.data(&a.shape, &a.dynamic, a.et);
        }
        let (ty, bty) = (a.ty(), shaped(false, &a.shape, &a.dynamic, Et::I32).replace("i32", "i1"));
        let cmp = if a.et.float() {
            let p = self.pick_of(&["olt", "oge", "oeq", "une"]);
            format!("arith.cmpf {p}, {}, {} : {ty}", a.name, b.name)
        } else {
            let p = self.pick_of(&["slt", "sge", "ult", "eq", "ne"]);
            format!("arith.cmpi {p}, {}, {} : {ty}", a.name, b.name)
        };
        let c = self.def(&cmp);
        let (x, y) = if self.chance(50) { (&a, &b) } else { (&b, &a) };
        let text = format!("arith.select {c}, {}, {} : {bty}, {ty}", x.name, y.name);
        self.emit(&text, a.shape.clone(), a.dynamic.clone(), a.et, a.b.join(b.b));
        true
    }

    /// Indices inside `shape`, as index values.
    fn indices(&mut self, shape: &[i64]) -> String {
        let is: Vec<String> = shape
            .iter()
            .map(|d| {
                let i = self.between(0, d - 1);
                self.index(i)
            })
            .collect();
        is.join(", ")
    }

    fn extract(&mut self) -> bool {
        let t = self.any(None, 0..=3);
        let is = self.indices(&t.shape);
        let name = self.def(&format!("tensor.extract {}[{is}] : {}", t.name, t.ty()));
        self.scalars.push(S { name, et: t.et, b: t.b });
        true
    }

    fn insert(&mut self) -> bool {
        let t = self.any(None, 0..=3);
        let s = self.scalar(t.et);
        let is = self.indices(&t.shape);
        let text = format!("tensor.insert {} into {}[{is}] : {}", s.name, t.name, t.ty());
        self.emit(&text, t.shape.clone(), t.dynamic.clone(), t.et, t.b.join(s.b));
        true
    }

    /// Offsets, sizes and strides of a slice of `shape` (strided half the
    /// time), each literal or an index value, and the slice's shape and
    /// dynamic dimensions (those whose size is a value).
    fn slice_of(&mut self, shape: &[i64]) -> (String, Vec<i64>, Vec<bool>) {
        let dynamic = self.chance(40);
        let strided = self.chance(50);
        let (mut os, mut ss, mut ts, mut sizes, mut dyns) = (vec![], vec![], vec![], vec![], vec![]);
        for &d in shape {
            let size = self.between(1, d);
            let max_stride = if strided && size > 1 { ((d - 1) / (size - 1)).min(3) } else { 1 };
            let stride = self.between(1, max_stride);
            let off = self.between(0, d - 1 - (size - 1) * stride);
            let (od, sd, td) = (dynamic && self.chance(50), dynamic && self.chance(40), dynamic && self.chance(30));
            os.push(self.mixed(off, od));
            ss.push(self.mixed(size, sd));
            ts.push(self.mixed(stride, td));
            sizes.push(size);
            dyns.push(sd);
        }
        (format!("[{}] [{}] [{}]", os.join(", "), ss.join(", "), ts.join(", ")), sizes, dyns)
    }

    /// The dimensions a rank-reducing slice drops: some static unit ones.
    fn dropped(&mut self, sizes: &[i64], dyns: &[bool]) -> Vec<bool> {
        let reduce = self.chance(30);
        sizes.iter().zip(dyns).map(|(s, d)| reduce && *s == 1 && !*d && self.chance(60)).collect()
    }

    fn extract_slice(&mut self) -> bool {
        let t = self.any(None, 1..=3);
        let (params, sizes, dyns) = self.slice_of(&t.shape);
        let drop = self.dropped(&sizes, &dyns);
        let keep = |xs: &[i64]| xs.iter().zip(&drop).filter(|(_, d)| !**d).map(|(x, _)| *x).collect::<Vec<_>>();
        let shape = keep(&sizes);
        let dynamic: Vec<bool> = dyns.iter().zip(&drop).filter(|(_, d)| !**d).map(|(x, _)| *x).collect();
        let rty = shaped(false, &shape, &dynamic, t.et);
        let text = format!("tensor.extract_slice {}{params} : {} to {rty}", t.name, t.ty());
        self.emit(&text, shape, dynamic, t.et, t.b);
        true
    }

    fn insert_slice(&mut self) -> bool {
        let dest = self.any(None, 1..=3);
        let (params, sizes, dyns) = self.slice_of(&dest.shape);
        let drop = self.dropped(&sizes, &dyns);
        let shape: Vec<i64> = sizes.iter().zip(&drop).filter(|(_, d)| !**d).map(|(x, _)| *x).collect();
        let dynamic: Vec<bool> = dyns.iter().zip(&drop).filter(|(_, d)| !**d).map(|(x, _)| *x).collect();
        // The source's type must be exactly the slice's (its static sizes static).
        let src = self.operand(&shape, &dynamic, dest.et);
        let text =
            format!("tensor.insert_slice {} into {}{params} : {} into {}", src.name, dest.name, src.ty(), dest.ty());
        self.emit(&text, dest.shape.clone(), dest.dynamic.clone(), dest.et, dest.b.join(src.b));
        true
    }

    fn pad(&mut self) -> bool {
        let t = self.any(None, 1..=3);
        let s = self.scalar(t.et);
        let (mut lows, mut highs, mut shape, mut dynamic) = (vec![], vec![], vec![], vec![]);
        for (d, dy) in t.shape.iter().zip(&t.dynamic) {
            let (l, h) = (self.between(0, 2), self.between(0, 2));
            let (ld, hd) = (self.chance(20), self.chance(20));
            lows.push(self.mixed(l, ld));
            highs.push(self.mixed(h, hd));
            shape.push(d + l + h);
            dynamic.push(*dy || ld || hd);
        }
        if shape.iter().product::<i64>() > MAX_ELEMS * 2 {
            return false;
        }
        let args: Vec<String> = t.shape.iter().map(|_| format!("{}: index", self.fresh())).collect();
        let rty = shaped(false, &shape, &dynamic, t.et);
        self.reads(&s.name);
        let text = format!(
            "tensor.pad {} low[{}] high[{}] {{\n  ^bb0({}):\n    tensor.yield {} : {}\n  }} : {} to {rty}",
            t.name,
            lows.join(", "),
            highs.join(", "),
            args.join(", "),
            s.name,
            t.et.name(),
            t.ty()
        );
        self.emit(&text, shape, dynamic, t.et, t.b.join(s.b));
        true
    }

    fn concat(&mut self) -> bool {
        let a = self.any(None, 1..=3);
        let dim = self.rng.below(a.rank() as u64) as usize;
        let mut shape = a.shape.clone();
        shape[dim] = self.between(1, 3);
        let dynamic = self.dyn_dims(a.rank());
        let b = self.operand(&shape, &dynamic, a.et);
        // The result type the verifier infers: a dimension is static where
        // any operand's is, the concatenated one where all are.
        let mut rshape = a.shape.clone();
        rshape[dim] += b.shape[dim];
        let rdyn: Vec<bool> = (0..a.rank())
            .map(|d| if d == dim { a.dynamic[d] || b.dynamic[d] } else { a.dynamic[d] && b.dynamic[d] })
            .collect();
        let rty = shaped(false, &rshape, &rdyn, a.et);
        let text = format!("tensor.concat dim({dim}) {}, {} : ({}, {}) -> {rty}", a.name, b.name, a.ty(), b.ty());
        self.emit(&text, rshape, rdyn, a.et, a.b.join(b.b));
        true
    }

    /// A random shape of `n` elements and rank 1 to 3.
    fn factor(&mut self, n: i64) -> Vec<i64> {
        let mut out = Vec::new();
        let mut rest = n;
        let rank = self.between(1, 3);
        for _ in 1..rank {
            let ds: Vec<i64> = (1..=rest).filter(|d| rest % d == 0).collect();
            let d = self.pick_of(&ds);
            out.push(d);
            rest /= d;
        }
        out.push(rest);
        out
    }

    fn reshape(&mut self) -> bool {
        let t = self.any(None, 1..=3);
        let shape = self.factor(t.elems());
        let n = shape.len();
        let lits: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
        let s = self.def(&format!("arith.constant dense<[{}]> : tensor<{n}xindex>", lits.join(", ")));
        let fixed = vec![false; n];
        let rty = shaped(false, &shape, &fixed, t.et);
        let text = format!("tensor.reshape {}({s}) : ({}, tensor<{n}xindex>) -> {rty}", t.name, t.ty());
        self.emit(&text, shape, fixed, t.et, t.b);
        true
    }

    fn expand_or_collapse(&mut self) -> bool {
        if self.chance(50) {
            return self.collapse();
        }
        let t = self.any(None, 1..=3);
        let fixed = vec![false; t.rank()];
        let t = self.cast(&t, &fixed);
        let (mut groups, mut shape, mut next) = (vec![], vec![], 0);
        for &d in &t.shape {
            let parts = if self.chance(50) { self.factor(d) } else { vec![d] };
            let ids: Vec<String> = (next..next + parts.len()).map(|i| i.to_string()).collect();
            next += parts.len();
            groups.push(format!("[{}]", ids.join(", ")));
            shape.extend(parts);
        }
        if shape.len() > 5 {
            return false;
        }
        let lits: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
        let fixed = vec![false; shape.len()];
        let rty = shaped(false, &shape, &fixed, t.et);
        let text = format!(
            "tensor.expand_shape {} [{}] output_shape [{}] : {} into {rty}",
            t.name,
            groups.join(", "),
            lits.join(", "),
            t.ty()
        );
        self.emit(&text, shape, fixed, t.et, t.b);
        true
    }

    fn collapse(&mut self) -> bool {
        let t = self.any(None, 2..=4);
        let (mut groups, mut shape, mut dynamic, mut i) = (vec![], vec![], vec![], 0);
        while i < t.rank() {
            let len = self.between(1, (t.rank() - i) as i64) as usize;
            let ids: Vec<String> = (i..i + len).map(|k| k.to_string()).collect();
            groups.push(format!("[{}]", ids.join(", ")));
            shape.push(t.shape[i..i + len].iter().product());
            dynamic.push(t.dynamic[i..i + len].iter().any(|d| *d));
            i += len;
        }
        let rty = shaped(false, &shape, &dynamic, t.et);
        let text = format!("tensor.collapse_shape {} [{}] : {} into {rty}", t.name, groups.join(", "), t.ty());
        self.emit(&text, shape, dynamic, t.et, t.b);
        true
    }

    fn splat_or_fill(&mut self) -> bool {
        let et = self.et();
        let rank = self.between(0, 3) as usize;
        let shape = self.shape(rank);
        let dynamic = self.dyn_dims(rank);
        if self.chance(50) {
            self.filled(&shape, &dynamic, et, None);
            return true;
        }
        let s = self.scalar(et);
        let sizes = self.dyn_sizes(&shape, &dynamic);
        let sizes = if sizes.is_empty() { sizes } else { format!("[{sizes}]") };
        let ty = shaped(false, &shape, &dynamic, et);
        self.emit(&format!("tensor.splat {}{sizes} : {ty}", s.name), shape, dynamic, et, s.b);
        true
    }

    /// `tensor.generate` whose elements are a function of their indices and
    /// of a scalar from outside.
    fn generate(&mut self) -> bool {
        let et = self.et();
        let rank = self.between(1, 3) as usize;
        let shape = self.shape(rank);
        let dynamic = self.dyn_dims(rank);
        let s = self.scalar(et);
        let sizes = self.dyn_sizes(&shape, &dynamic);
        let args: Vec<String> = (0..rank).map(|_| self.fresh()).collect();
        let mut body = String::new();
        let mut acc = s.name.clone();
        let mut b = s.b;
        for a in &args {
            let k = self.between(-3, 3);
            let (c, i, m, sum) = (self.fresh(), self.fresh(), self.fresh(), self.fresh());
            let _ = writeln!(body, "    {i} = arith.index_cast {a} : index to i32");
            if et.float() {
                let f = self.fresh();
                let _ = writeln!(body, "    {f} = arith.sitofp {i} : i32 to f32");
                let _ = writeln!(body, "    {c} = arith.constant {k}.0 : f32");
                let _ = writeln!(body, "    {m} = arith.mulf {f}, {c} : f32");
                let _ = writeln!(body, "    {sum} = arith.addf {acc}, {m} : f32");
            } else {
                let _ = writeln!(body, "    {c} = arith.constant {k} : i32");
                let _ = writeln!(body, "    {m} = arith.muli {i}, {c} : i32");
                let _ = writeln!(body, "    {sum} = arith.addi {acc}, {m} : i32");
            }
            b = b.add(Bound { mag: 12.0, frac: 0 });
            acc = sum;
        }
        if !b.exact() {
            return false;
        }
        self.reads(&s.name);
        let ty = shaped(false, &shape, &dynamic, et);
        let arglist: Vec<String> = args.iter().map(|a| format!("{a}: index")).collect();
        let text = format!(
            "tensor.generate {sizes} {{\n  ^bb0({}):\n{body}    tensor.yield {acc} : {}\n  }} : {ty}",
            arglist.join(", "),
            et.name()
        );
        self.emit(&text, shape, dynamic, et, b);
        true
    }

    /// `tensor.from_elements` of scalars.
    fn elements(&mut self) -> bool {
        let et = self.et();
        let rank = self.between(1, 2) as usize;
        let shape = self.shape(rank);
        let n = shape.iter().product::<i64>();
        let mut b = Bound { mag: 0.0, frac: 0 };
        let names: Vec<String> = (0..n)
            .map(|_| {
                let s = self.scalar(et);
                b = b.join(s.b);
                s.name
            })
            .collect();
        let fixed = vec![false; rank];
        let ty = shaped(false, &shape, &fixed, et);
        self.emit(&format!("tensor.from_elements {} : {ty}", names.join(", ")), shape, fixed, et, b);
        true
    }

    /// A conversion between i32 and f32 tensors (sitofp rounds the large
    /// integers, fptosi only ever meets exact floats well inside i32), or
    /// a cast between static and dynamic shapes.
    fn convert(&mut self) -> bool {
        let t = self.any(None, 0..=3);
        if self.chance(40) {
            let d = self.dyn_dims(t.rank());
            self.cast(&t, &d);
            return true;
        }
        let to = if t.et.float() { Et::I32 } else { Et::F32 };
        let rty = shaped(false, &t.shape, &t.dynamic, to);
        let (op, b) =
            if t.et.float() { ("fptosi", Bound::INT) } else { ("sitofp", Bound { mag: 2_147_483_648.0, frac: 0 }) };
        self.emit(&format!("arith.{op} {} : {} to {rty}", t.name, t.ty()), t.shape.clone(), t.dynamic.clone(), to, b);
        true
    }

    /// The program: `@f` from the body made so far, and `@main` making its
    /// arguments and printing its results; `header` first, with a note when
    /// this is a retry (`attempt` > 0).
    pub(super) fn finish(mut self, header: &str, attempt: u64) -> String {
        if self.pool.is_empty() {
            let s = self.shape(2);
            self.data(&s, &[false, false], Et::I32);
        }
        // Results: the values nothing reads, the latest first, so that no
        // pass can drop the computation.
        let mut results: Vec<V> = self
            .pool
            .iter()
            .rev()
            .filter(|v| !self.used.contains(&v.name) && !self.casts.contains(&v.name))
            .take(MAX_RESULTS)
            .cloned()
            .collect();
        if results.is_empty() {
            results.extend(self.pool.last().cloned());
        }
        let scalars: Vec<S> =
            self.scalars.iter().rev().filter(|s| !self.used.contains(&s.name)).take(2).cloned().collect();
        let mut rtys: Vec<String> = results.iter().map(V::ty).collect();
        rtys.extend(scalars.iter().map(|s| s.et.name().to_string()));
        let mut rnames: Vec<&str> = results.iter().map(|v| v.name.as_str()).collect();
        rnames.extend(scalars.iter().map(|s| s.name.as_str()));
        let rt = rtys.join(", ");
        let mut out = format!("{header}\n");
        if attempt > 0 {
            let _ = writeln!(out, "// (attempt {attempt}: the earlier ones had undefined behaviour)");
        }
        let unranked = if self.mem { "memref" } else { "tensor" };
        let mut decls: Vec<Et> = results.iter().map(|v| v.et).collect();
        decls.sort_by_key(|e| e.name());
        decls.dedup();
        for e in &decls {
            let _ = writeln!(
                out,
                "func.func private @printMemref{}({unranked}<*x{}>) attributes {{ llvm.emit_c_interface }}",
                e.print_suffix(),
                e.name()
            );
        }
        out.push_str(&self.globals);
        // Tensor parameters are not writable: with in-place writes, a result
        // equivalent to a parameter of another (cast) type makes LLVM 22's
        // one-shot-bufferize replace the call's result by the argument
        // without a cast, and mlir-opt rejects its own output.
        let ps: Vec<String> = self
            .params
            .iter()
            .map(|p| {
                let attr = if p.ty.starts_with("tensor") { " {bufferization.writable = false}" } else { "" };
                format!("{}: {}{attr}", p.name, p.ty)
            })
            .collect();
        let _ = writeln!(out, "\nfunc.func @f({}) -> ({rt}) {{", ps.join(", "));
        out.push_str(&self.body);
        let _ = writeln!(out, "  return {} : {rt}\n}}\n", rnames.join(", "));
        out.push_str("func.func @main() {\n");
        for p in &self.params {
            out.push_str(&p.lines);
        }
        let args: Vec<&str> = self.params.iter().map(|p| p.arg.as_str()).collect();
        let pts: Vec<&str> = self.params.iter().map(|p| p.ty.as_str()).collect();
        let n = rtys.len();
        let r = if n == 1 { "%r".to_string() } else { format!("%r:{n}") };
        let _ = writeln!(out, "  {r} = call @f({}) : ({}) -> ({rt})", args.join(", "), pts.join(", "));
        let at = |i: usize| if n == 1 { "%r".to_string() } else { format!("%r#{i}") };
        for (i, v) in results.iter().enumerate() {
            let u = format!("{unranked}<*x{}>", v.et.name());
            let mut x = at(i);
            if !self.mem {
                // A copy of its own: what `printMemref` shows of a tensor's
                // buffer (offset, strides) is bufferization's choice, not
                // the program's meaning, and a fresh buffer has none to show.
                let _ = writeln!(out, "  %k{i} = bufferization.alloc_tensor() copy({x}) : {}", v.ty());
                x = format!("%k{i}");
            }
            let _ = writeln!(out, "  %u{i} = {unranked}.cast {x} : {} to {u}", v.ty());
            let _ = writeln!(out, "  call @printMemref{}(%u{i}) : ({u}) -> ()", v.et.print_suffix());
        }
        for (i, s) in scalars.iter().enumerate() {
            let _ = writeln!(out, "  vector.print {} : {}", at(results.len() + i), s.et.name());
        }
        out.push_str("  return\n}\n");
        out
    }
}

/// `flat` as a nested dense literal of `shape`.
fn nest(flat: &[String], shape: &[i64]) -> String {
    match shape.split_first() {
        None => flat.first().cloned().unwrap_or_default(),
        Some((&d, rest)) => {
            let n: i64 = rest.iter().product();
            let parts: Vec<String> =
                (0..d).map(|i| nest(&flat[(i * n) as usize..((i + 1) * n) as usize], rest)).collect();
            format!("[{}]", parts.join(", "))
        }
    }
}

/// The tensor-kind program for `o`, attempt `attempt` (each retry after
/// undefined behaviour derives a new stream from the seed).
pub(super) fn generate(o: &Options, attempt: u64) -> String {
    let mut g = Gen::new(o.seed ^ 0x7465_6E73_6F72_2D67 ^ attempt.wrapping_mul(0x9E37_79B9_7F4A_7C15), false);
    let (mut made, mut tries) = (0, 0);
    while made < o.size.max(1) && tries < 20 * o.size.max(1) {
        tries += 1;
        if g.step() {
            made += 1;
        }
    }
    let header = format!("// mlir-interp gen --seed {} --kind tensor --size {}", o.seed, o.size);
    g.finish(&header, attempt)
}

/// A structured op the generator wrote into `@f`, as a schedule sees it.
#[derive(Clone, Debug)]
pub(super) struct Structured {
    /// The op's name (`linalg.matmul`).
    pub(super) name: String,
    /// Its iteration domain: each loop's size and whether it reduces.
    pub(super) loops: Vec<(i64, bool)>,
    /// Whether an input is read through a window (convolutions, pooling,
    /// generics with `d0 * s + d1 * dil`).
    pub(super) window: bool,
    /// Whether its body reads `linalg.index`.
    pub(super) index: bool,
    /// The element type of its output.
    pub(super) et: Et,
    /// Whether it works on memrefs.
    pub(super) mem: bool,
    /// Whether every operand's type is static.
    pub(super) static_shapes: bool,
    /// Its number of operands (inputs and the output).
    pub(super) operands: usize,
    /// The names of its inputs.
    pub(super) inputs: Vec<String>,
    /// Its result on tensors (the output buffer on memrefs).
    pub(super) result: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_nest_by_shape() {
        let flat: Vec<String> = (1..=6).map(|i| i.to_string()).collect();
        assert_eq!(nest(&flat, &[2, 3]), "[[1, 2, 3], [4, 5, 6]]");
        assert_eq!(nest(&flat[..1], &[]), "1");
    }

    #[test]
    fn bounds_say_when_floats_stop_being_exact() {
        let b = Bound { mag: 1024.0, frac: 1 };
        assert!(b.mul(b).exact());
        assert!(!b.mul(b).mul(b).exact());
    }
}
