//! `mlir-interp gen --seed N`: random programs free of undefined behaviour,
//! for testing compilers (`passcheck`, `fuzz`). Each program has a function
//! `@f` taking arguments and a `@main` that calls it with edge values and
//! prints its results with `vector.print`, so it runs under `run`, under
//! `passcheck` (on `main`, or on `f` with random inputs) and under
//! mlir-runner after lowering.
//!
//! Freedom from UB is by construction where a guard can ensure it: divisors
//! are forced positive and odd (`(d & (2^(w-2) - 1)) | 1`, never 0 or -1),
//! shift amounts are reduced modulo the width, float-to-integer conversions
//! are clamped to the target's range with NaN replaced, memref indices are
//! reduced modulo the length, loops have small constant trip counts, and
//! memory is written before it is read. Overflow and `exact` flags are put
//! on freely, then checked by running `@main` here: a flag that does not hold
//! makes poison, which the run reports at the op that made it, and that op
//! loses its flags until the run is clean (so flags stay only where they
//! hold for `@main`'s inputs).
//!
//! Deterministic: the same seed, kind and size give the same program on
//! every host.

use crate::args::SplitMix;
use std::fmt::Write as _;

mod linalg;
mod schedule;
mod sparse;
mod tensor;
mod tosa;
mod vector_ops;

/// What a generated program exercises.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Kind {
    /// Integer arithmetic of odd widths and index.
    Int,
    /// Floats (f16, bf16, f32, f64, round trips through f8E5M2 and
    /// f8E4M3FN) and conversions, with integers.
    Float,
    /// Integers in a CFG of blocks with arguments (diamonds, counted loops).
    Cf,
    /// Integers in scf.if and scf.for with iteration arguments.
    Scf,
    /// Integers in affine.for loops.
    Affine,
    /// Integers in affine.for loops, with `affine.apply`, `min` and `max`
    /// and loop bounds that are maps (a kind of its own, so that the
    /// affine and mixed kinds keep the programs their seeds made before).
    AffineMaps,
    /// Integers with a memref, a strided subview and a column-major 2-D
    /// view of it.
    Memref,
    /// Vectors of integers and floats.
    Vector,
    /// The comb ops of HEIR's comb dialect on integers, with arith and scf
    /// (this engine runs them; mlir-opt does not know comb, so passcheck
    /// needs `--opt heir-opt`, or `circt-opt` for the ops CIRCT shares).
    Comb,
    /// All of the above but comb and math.
    Mixed,
    /// Math ops whose results are exact (absf, ceil, floor, round,
    /// roundeven, trunc, sqrt, copysign; absi, ctlz, cttz, ctpop) on floats
    /// and integers: what math-expand-ops rewrites.
    Math,
    /// Graphs of TOSA 1.0 operators on tensors, free of the spec's REQUIRE
    /// failures, for checking tosa lowerings (`gen/tosa.rs`).
    Tosa,
    /// Tensor-dialect programs: slices, pad, concat, reshapes, splat,
    /// generate, elementwise arith/math on tensors (`gen/tensor.rs`).
    Tensor,
    /// Structured ops: `linalg.generic` with random maps and bodies and the
    /// named families, on tensors or memrefs (`gen/linalg.rs`).
    Linalg,
    /// The linalg kind's program with a random transform-dialect schedule
    /// for its ops appended (tiling, fusion, padding, packing,
    /// vectorization), which `transform-interpreter` applies and
    /// `symbol-dce` then drops (`gen/schedule.rs`).
    LinalgTransform,
    /// Sparse kernels under random encodings, for checking the sparsifier
    /// (`gen/sparse.rs`).
    Sparse,
    /// The vector dialect's structured ops: contractions with random maps
    /// and kinds, multi-reductions, transfers with permutation maps,
    /// padding and masks, `vector.mask`, gather/scatter, shape casts
    /// (`gen/vector_ops.rs`).
    VectorOps,
}

impl Kind {
    /// The kind as `--kind` spells it (`affine-maps`, `vector-ops`).
    pub fn name(self) -> String {
        clap::ValueEnum::to_possible_value(&self).map_or_else(String::new, |v| v.get_name().to_string())
    }
}

/// The generator's options.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// The seed.
    pub seed: u64,
    /// What to exercise.
    pub kind: Kind,
    /// About how many ops `@f` gets.
    pub size: usize,
}

/// Which constructs a kind enables.
#[derive(Clone, Copy, Debug, Default)]
struct Features {
    float: bool,
    cf: bool,
    scf: bool,
    affine: bool,
    maps: bool,
    memref: bool,
    vector: bool,
    comb: bool,
    math: bool,
}

impl Features {
    fn of(k: Kind) -> Features {
        let none = Features::default();
        match k {
            Kind::Int => none,
            Kind::Float => Features { float: true, ..none },
            Kind::Cf => Features { cf: true, ..none },
            Kind::Scf => Features { scf: true, ..none },
            Kind::Affine => Features { affine: true, ..none },
            Kind::AffineMaps => Features { affine: true, maps: true, ..none },
            Kind::Memref => Features { memref: true, scf: true, ..none },
            Kind::Vector => Features { vector: true, float: true, ..none },
            Kind::Comb => Features { comb: true, scf: true, ..none },
            Kind::Mixed => {
                Features { float: true, cf: true, scf: true, affine: true, memref: true, vector: true, ..none }
            }
            Kind::Math => Features { float: true, math: true, ..none },
            // These kinds have generators of their own; `generate` hands them over first.
            Kind::Tosa | Kind::Tensor | Kind::Linalg | Kind::LinalgTransform | Kind::Sparse | Kind::VectorOps => none,
        }
    }
}

/// A float format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ft {
    F16,
    BF16,
    F32,
    F64,
}

impl Ft {
    fn name(self) -> &'static str {
        match self {
            Ft::F16 => "f16",
            Ft::BF16 => "bf16",
            Ft::F32 => "f32",
            Ft::F64 => "f64",
        }
    }

    /// Whether every value of `self` is one of `to` (extf) or the reverse (truncf).
    fn narrower_than(self, to: Ft) -> bool {
        matches!((self, to), (Ft::F16 | Ft::BF16, Ft::F32 | Ft::F64) | (Ft::F32, Ft::F64))
    }
}

/// A generated value's type.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Ty {
    I(u32),
    Index,
    F(Ft),
    /// A vector of four integers or floats.
    V(Box<Ty>),
}

/// Vector lanes.
const LANES: usize = 4;

impl Ty {
    fn text(&self) -> String {
        match self {
            Ty::I(w) => format!("i{w}"),
            Ty::Index => "index".to_string(),
            Ty::F(f) => f.name().to_string(),
            Ty::V(e) => format!("vector<{LANES}x{}>", e.text()),
        }
    }

    /// The integer width (index counts as 64 bits).
    fn int_width(&self) -> Option<u32> {
        match self {
            Ty::I(w) => Some(*w),
            Ty::Index => Some(64),
            _ => None,
        }
    }

    fn elem(&self) -> &Ty {
        match self {
            Ty::V(e) => e,
            t => t,
        }
    }

    /// The same shape with element type `e`.
    fn with_elem(&self, e: Ty) -> Ty {
        match self {
            Ty::V(_) => Ty::V(Box::new(e)),
            _ => e,
        }
    }
}

/// Integer widths programs use: odd ones on purpose.
const WIDTHS: [u32; 8] = [1, 3, 8, 13, 16, 32, 33, 64];

/// A value the program can use.
#[derive(Clone, Debug)]
struct Val {
    name: String,
    ty: Ty,
}

/// The memref `@f` allocates (its views follow).
const MEM_LEN: u64 = 8;
/// The view: `[1][3][2]`, elements 1, 3, 5.
const VIEW_LEN: u64 = 3;
/// Its type.
const VIEW_TYPE: &str = "memref<3xi32, strided<[2], offset: 1>>";
/// A 2x3 column-major view at offset 1 (elements 1 + i + 2j, all inside).
const GRID_DIMS: [u64; 2] = [2, 3];
/// Its type.
const GRID_TYPE: &str = "memref<2x3xi32, strided<[1, 2], offset: 1>>";

struct Gen {
    rng: SplitMix,
    feat: Features,
    body: String,
    indent: usize,
    pool: Vec<Val>,
    next: u32,
    blocks: u32,
    /// Ops left to generate.
    budget: usize,
    /// Round trips through 8-bit float formats (which the lowering to LLVM
    /// does not convert, so only the `float` kind has them).
    small_floats: bool,
    depth: u32,
}

impl Gen {
    fn chance(&mut self, percent: u64) -> bool {
        self.rng.below(100) < percent
    }

    fn pick_of<T: Clone>(&mut self, xs: &[T]) -> T {
        xs[self.rng.below(xs.len() as u64) as usize].clone()
    }

    fn fresh(&mut self) -> String {
        self.next += 1;
        format!("%v{}", self.next)
    }

    fn line(&mut self, text: &str) {
        let _ = writeln!(self.body, "{:width$}{text}", "", width = self.indent * 2);
    }

    /// `%vN = rhs`, with its type added to the pool when `keep`.
    fn def(&mut self, rhs: &str, ty: &Ty, keep: bool) -> String {
        let name = self.fresh();
        self.line(&format!("{name} = {rhs}"));
        if keep {
            self.pool.push(Val { name: name.clone(), ty: ty.clone() });
        }
        name
    }

    /// A constant of an integer or index type: an edge value or random bits.
    fn int_literal(&mut self, w: u32) -> String {
        if w == 1 {
            return if self.chance(50) { "true" } else { "false" }.to_string();
        }
        let (min, max) = (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1);
        if self.chance(50) {
            return self.pick_of(&[0, 1, -1, min, max, 2, min + 1, max - 1]).to_string();
        }
        let bits = u128::from(self.rng.next()) & ((1u128 << w) - 1);
        let v = if bits >> (w - 1) == 1 { bits as i128 - (1i128 << w) } else { bits as i128 };
        // Small magnitudes too: they make loops, divisions and shifts interesting.
        if self.chance(50) {
            return (v % 17).to_string();
        }
        v.to_string()
    }

    fn float_literal(&mut self, f: Ft) -> String {
        let nice = ["0.0", "-0.0", "1.0", "-1.0", "0.5", "2.5", "-3.75", "100.0", "1.0e-3", "65504.0"];
        let special = match f {
            Ft::F16 => ["0x7C00", "0xFC00", "0x7E00", "0x0001"],
            Ft::BF16 => ["0x7F80", "0xFF80", "0x7FC0", "0x0001"],
            Ft::F32 => ["0x7F800000", "0xFF800000", "0x7FC00000", "0x00000001"],
            Ft::F64 => ["0x7FF0000000000000", "0xFFF0000000000000", "0x7FF8000000000000", "0x0000000000000001"],
        };
        if self.chance(25) {
            return self.pick_of(&special).to_string();
        }
        let v = self.pick_of(&nice);
        // 65504 is f16's largest; other formats get a larger value.
        if v == "65504.0" && f != Ft::F16 {
            return "3.0e38".to_string();
        }
        v.to_string()
    }

    fn literal(&mut self, t: &Ty) -> String {
        match t {
            Ty::I(w) => self.int_literal(*w),
            Ty::Index => self.int_literal(64),
            Ty::F(f) => self.float_literal(*f),
            Ty::V(_) => unreachable!("vector literals are built by `constant`"),
        }
    }

    /// A new constant of type `t` (a splat for vectors).
    fn constant(&mut self, t: &Ty, keep: bool) -> String {
        let rhs = match t {
            Ty::V(e) => {
                let lits: Vec<String> = (0..LANES).map(|_| self.literal(e)).collect();
                format!("arith.constant dense<[{}]> : {}", lits.join(", "), t.text())
            }
            // `true` and `false` are typed already: `true : i1` does not parse.
            Ty::I(1) => format!("arith.constant {}", self.literal(t)),
            _ => format!("arith.constant {} : {}", self.literal(t), t.text()),
        };
        self.def(&rhs, t, keep)
    }

    /// The constant `v` of type `t` (a splat for vectors), not in the pool.
    fn exact_const(&mut self, v: &str, t: &Ty) -> String {
        let rhs = match t {
            Ty::V(_) => format!("arith.constant dense<{v}> : {}", t.text()),
            _ => format!("arith.constant {v} : {}", t.text()),
        };
        self.def(&rhs, t, false)
    }

    /// A value of type `t`: mostly one already computed, else a constant.
    fn pick(&mut self, t: &Ty) -> String {
        let have: Vec<usize> = (0..self.pool.len()).filter(|&i| self.pool[i].ty == *t).collect();
        if have.is_empty() || self.chance(10) {
            return self.constant(t, true);
        }
        // Recent values more often, so results depend on long chains.
        let k = if self.chance(60) {
            have.len() - 1 - self.rng.below(have.len().min(4) as u64) as usize
        } else {
            self.rng.below(have.len() as u64) as usize
        };
        self.pool[have[k]].name.clone()
    }

    /// A type to compute in: one the pool has, or a new one.
    fn pick_type(&mut self) -> Ty {
        if !self.pool.is_empty() && self.chance(70) {
            let k = self.rng.below(self.pool.len() as u64) as usize;
            return self.pool[k].ty.clone();
        }
        self.new_type()
    }

    fn new_type(&mut self) -> Ty {
        let scalar = if self.feat.float && self.chance(35) {
            Ty::F(self.pick_of(&[Ft::F16, Ft::BF16, Ft::F32, Ft::F64]))
        } else if self.chance(15) && !self.feat.comb {
            Ty::Index
        } else {
            Ty::I(self.pick_of(&WIDTHS))
        };
        if self.feat.vector && scalar != Ty::Index && self.chance(30) {
            return Ty::V(Box::new(scalar));
        }
        scalar
    }

    /// One op (or construct) producing a value, or a statement.
    fn step(&mut self) {
        self.budget = self.budget.saturating_sub(1);
        let nested = self.depth < 2 && self.budget > 4;
        let roll = self.rng.below(100);
        if nested && self.feat.scf && roll < 8 {
            return self.scf_if();
        }
        if nested && self.feat.scf && roll < 16 {
            return self.scf_for();
        }
        if nested && self.feat.affine && roll < 24 {
            return self.affine_for();
        }
        // Affine maps take values of the function's top level (valid
        // symbols), so they are made only there.
        if self.feat.maps && self.depth == 0 && (24..30).contains(&roll) {
            return self.affine_map_op();
        }
        if self.feat.memref && roll < 34 {
            return self.memory();
        }
        if self.feat.vector && roll < 44 {
            return self.vector_op();
        }
        let t = self.pick_type();
        self.value_of(&t);
    }

    /// Computes a new value of type `t` (added to the pool).
    fn value_of(&mut self, t: &Ty) {
        match t.elem() {
            Ty::I(_) | Ty::Index => self.int_op(t),
            Ty::F(_) => self.float_op(t),
            Ty::V(_) => unreachable!("vectors hold scalars"),
        }
    }

    /// Overflow flags, sometimes (kept only where they hold; see the module doc).
    fn overflow_flags(&mut self) -> &'static str {
        match self.rng.below(8) {
            0 => " overflow<nsw>",
            1 => " overflow<nuw>",
            2 => " overflow<nsw, nuw>",
            _ => "",
        }
    }

    fn int_op(&mut self, t: &Ty) {
        if let (true, Ty::I(w)) = (self.feat.comb, t) {
            if self.chance(60) {
                return self.comb_op(*w);
            }
        }
        // Only the math kind draws here, so other kinds keep their programs.
        if self.feat.math && matches!(t.elem(), Ty::I(_)) && self.chance(25) {
            let op = self.pick_of(&["absi", "ctlz", "cttz", "ctpop"]);
            let a = self.pick(t);
            self.def(&format!("math.{op} {a} : {}", t.text()), t, true);
            return;
        }
        let w = t.elem().int_width().unwrap_or(64);
        let ty = t.text();
        let roll = self.rng.below(100);
        let (a, b) = (self.pick(t), self.pick(t));
        let rhs = if roll < 25 {
            let op = self.pick_of(&["addi", "subi", "muli"]);
            let flags = self.overflow_flags();
            format!("arith.{op} {a}, {b}{flags} : {ty}")
        } else if roll < 40 {
            let op = self.pick_of(&["andi", "ori", "xori", "maxsi", "minsi", "maxui", "minui"]);
            format!("arith.{op} {a}, {b} : {ty}")
        } else if roll < 52 && w > 1 {
            let d = self.divisor(&b, t, w);
            let op = self.pick_of(&["divsi", "divui", "remsi", "remui", "ceildivsi", "floordivsi"]);
            let exact = if matches!(op, "divsi" | "divui") && self.chance(20) { " exact" } else { "" };
            format!("arith.{op} {a}, {d}{exact} : {ty}")
        } else if roll < 62 && w > 1 {
            let width = self.exact_const(&w.to_string(), t);
            let amount = self.def(&format!("arith.remui {b}, {width} : {ty}"), t, false);
            match self.rng.below(3) {
                0 => {
                    let flags = self.overflow_flags();
                    format!("arith.shli {a}, {amount}{flags} : {ty}")
                }
                k => {
                    let exact = if self.chance(20) { " exact" } else { "" };
                    format!("arith.{} {a}, {amount}{exact} : {ty}", if k == 1 { "shrsi" } else { "shrui" })
                }
            }
        } else if roll < 72 {
            let c = self.condition(t);
            format!(
                "arith.select {c}, {a}, {b} : {}",
                if matches!(t, Ty::V(_)) { format!("{}, {ty}", t.with_elem(Ty::I(1)).text()) } else { ty.clone() }
            )
        } else if roll < 88 {
            return self.int_cast(t);
        } else {
            return self.compare(t);
        };
        self.def(&rhs, t, true);
    }

    /// A comb op (the ops of the comb document this engine implements)
    /// computing an `i{w}`, or an i1 comparison or parity.
    fn comb_op(&mut self, w: u32) {
        let t = Ty::I(w);
        let ty = t.text();
        let (a, b) = (self.pick(&t), self.pick(&t));
        let rhs = match self.rng.below(7) {
            0 | 1 => {
                let op = self.pick_of(&["add", "mul", "and", "or", "xor", "nand", "nor", "xnor"]);
                let mut xs = vec![a, b];
                if self.chance(30) {
                    xs.push(self.pick(&t));
                }
                format!("comb.{op} {} : {ty}", xs.join(", "))
            }
            2 => format!("comb.inv {a} : {ty}"),
            3 => {
                let p = self.pick_of(&["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]);
                return self.def_i1(&format!("comb.icmp {p} {a}, {b} : {ty}"));
            }
            4 => {
                let c = self.condition(&Ty::I(1));
                format!("comb.mux {c}, {a}, {b} : {ty}")
            }
            5 if w > 1 => {
                // The high bits of one value over the low bits of another.
                let k = 1 + self.rng.below(u64::from(w - 1)) as u32;
                let hi = self.def(&format!("comb.extract {a} from {k} : ({ty}) -> i{}", w - k), &Ty::I(w - k), false);
                let lo = self.def(&format!("comb.extract {b} from 0 : ({ty}) -> i{k}"), &Ty::I(k), false);
                format!("comb.concat {hi}, {lo} : i{}, i{k}", w - k)
            }
            6 if w <= 32 => {
                // A rotation: a window of three copies.
                let lo = self.rng.below(u64::from(2 * w + 1));
                let rep = self.def(&format!("comb.replicate {a} : ({ty}) -> i{}", 3 * w), &Ty::I(3 * w), false);
                format!("comb.extract {rep} from {lo} : (i{}) -> {ty}", 3 * w)
            }
            _ => return self.def_i1(&format!("comb.parity {a} : {ty}")),
        };
        self.def(&rhs, &t, true);
    }

    fn def_i1(&mut self, rhs: &str) {
        self.def(rhs, &Ty::I(1), true);
    }

    /// `(d & (2^(w-2) - 1)) | 1`: positive and odd, so never 0 and never -1.
    fn divisor(&mut self, d: &str, t: &Ty, w: u32) -> String {
        if w == 2 {
            return self.exact_const("1", t);
        }
        let mask = self.exact_const(&((1u128 << (w - 2)) - 1).to_string(), t);
        let one = self.exact_const("1", t);
        let ty = t.text();
        let m = self.def(&format!("arith.andi {d}, {mask} : {ty}"), t, false);
        self.def(&format!("arith.ori {m}, {one} : {ty}"), t, false)
    }

    /// An i1 (or vector of i1) condition matching `t`'s shape.
    fn condition(&mut self, t: &Ty) -> String {
        let ct = t.with_elem(Ty::I(1));
        let have = self.pool.iter().any(|v| v.ty == ct);
        if have && self.chance(50) {
            return self.pick(&ct);
        }
        let ot = t.with_elem(self.pick_of(&[Ty::I(8), Ty::I(32), Ty::Index]));
        if matches!(t, Ty::V(_)) && *ot.elem() == Ty::Index {
            return self.pick(&ct);
        }
        self.compare(&ot);
        self.pool.last().map(|v| v.name.clone()).unwrap_or_default()
    }

    /// A comparison of two values of `t` (integer or float), an i1 result.
    fn compare(&mut self, t: &Ty) {
        let (a, b) = (self.pick(t), self.pick(t));
        let rt = t.with_elem(Ty::I(1));
        let rhs = if let Ty::F(_) = t.elem() {
            let p = self.pick_of(&[
                "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une", "uno",
            ]);
            format!("arith.cmpf {p}, {a}, {b} : {}", t.text())
        } else {
            let p = self.pick_of(&["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]);
            format!("arith.cmpi {p}, {a}, {b} : {}", t.text())
        };
        self.def(&rhs, &rt, true);
    }

    /// A value of integer type `t` from another integer (or index) value.
    fn int_cast(&mut self, t: &Ty) {
        let to = t.elem().clone();
        let from = if matches!(t, Ty::V(_)) {
            Ty::I(self.pick_of(&WIDTHS))
        } else {
            let w = self.pick_of(&WIDTHS);
            self.pick_of(&[Ty::I(w), Ty::Index])
        };
        let src = self.pick(&t.with_elem(from.clone()));
        let (fw, tw) = (from.int_width().unwrap_or(64), to.int_width().unwrap_or(64));
        let op = match (&from, &to) {
            (Ty::Index, Ty::Index) => return self.int_op_plain(t),
            (Ty::Index, _) | (_, Ty::Index) => {
                if self.chance(50) {
                    "index_cast"
                } else {
                    "index_castui"
                }
            }
            _ if fw < tw => {
                if self.chance(50) {
                    "extsi"
                } else {
                    "extui"
                }
            }
            _ if fw > tw => "trunci",
            _ => return self.int_op_plain(t),
        };
        let rhs = format!("arith.{op} {src} : {} to {}", t.with_elem(from).text(), t.text());
        self.def(&rhs, t, true);
    }

    /// A flag-free bitwise op (for when a cast would be a no-op).
    fn int_op_plain(&mut self, t: &Ty) {
        let (a, b) = (self.pick(t), self.pick(t));
        self.def(&format!("arith.xori {a}, {b} : {}", t.text()), t, true);
    }

    fn float_op(&mut self, t: &Ty) {
        let Ty::F(f) = *t.elem() else { return };
        let ty = t.text();
        if self.feat.math && self.chance(40) {
            // Exact ops only: libm's and the expansions' approximations
            // (tanh, powf, rsqrt, fma as mul + add) may differ legitimately.
            let a = self.pick(t);
            let rhs = match self.pick_of(&["absf", "ceil", "floor", "round", "roundeven", "trunc", "sqrt", "copysign"])
            {
                "copysign" => format!("math.copysign {a}, {} : {ty}", self.pick(t)),
                op => format!("math.{op} {a} : {ty}"),
            };
            self.def(&rhs, t, true);
            return;
        }
        let roll = self.rng.below(100);
        let rhs = if roll < 40 {
            let (a, b) = (self.pick(t), self.pick(t));
            let op = self.pick_of(&["addf", "subf", "mulf", "divf", "maximumf", "minimumf", "maxnumf", "minnumf"]);
            format!("arith.{op} {a}, {b} : {ty}")
        } else if roll < 50 {
            let a = self.pick(t);
            if self.chance(50) {
                format!("arith.negf {a} : {ty}")
            } else {
                format!("math.absf {a} : {ty}")
            }
        } else if roll < 60 {
            let (a, b) = (self.pick(t), self.pick(t));
            let c = self.condition(t);
            let ct = t.with_elem(Ty::I(1));
            let sel_ty = if matches!(t, Ty::V(_)) { format!("{}, {ty}", ct.text()) } else { ty.clone() };
            format!("arith.select {c}, {a}, {b} : {sel_ty}")
        } else if roll < 75 {
            let from = t.with_elem(Ty::I(self.pick_of(&WIDTHS)));
            let src = self.pick(&from);
            let op = if self.chance(50) { "sitofp" } else { "uitofp" };
            format!("arith.{op} {src} : {} to {ty}", from.text())
        } else if roll < 87 {
            let other = self.pick_of(&[Ft::F16, Ft::BF16, Ft::F32, Ft::F64]);
            let from = t.with_elem(Ty::F(other));
            if other.narrower_than(f) {
                let src = self.pick(&from);
                format!("arith.extf {src} : {} to {ty}", from.text())
            } else if f.narrower_than(other) {
                let src = self.pick(&from);
                format!("arith.truncf {src} : {} to {ty}", from.text())
            } else {
                let a = self.pick(t);
                format!("arith.negf {a} : {ty}")
            }
        } else if roll < 91 {
            return self.float_to_int(t);
        } else if roll < 94 && self.small_floats {
            // Through an 8-bit format and back: every value converts (NaN
            // to NaN, overflow to NaN or infinity), so nothing is undefined.
            let x = self.pick(t);
            let name = self.pick_of(&["f8E5M2", "f8E4M3FN"]);
            let small = if matches!(t, Ty::V(_)) { format!("vector<{LANES}x{name}>") } else { name.to_string() };
            let s = self.def(&format!("arith.truncf {x} : {ty} to {small}"), t, false);
            format!("arith.extf {s} : {small} to {ty}")
        } else {
            return self.compare(t);
        };
        self.def(&rhs, t, true);
    }

    /// `fptosi`/`fptoui` to i8 of a value clamped into i8's range, NaN
    /// replaced by zero: never out of range, so never poison.
    fn float_to_int(&mut self, t: &Ty) {
        let x = self.pick(t);
        let ty = t.text();
        let ct = t.with_elem(Ty::I(1));
        let signed = self.chance(50);
        let (lo, hi) = if signed { ("-128.0", "127.0") } else { ("0.0", "255.0") };
        let nan = self.def(&format!("arith.cmpf uno, {x}, {x} : {ty}"), &ct, false);
        let zero = self.exact_const("0.0", t);
        let sel_ty = if matches!(t, Ty::V(_)) { format!("{}, {ty}", ct.text()) } else { ty.clone() };
        let y = self.def(&format!("arith.select {nan}, {zero}, {x} : {sel_ty}"), t, false);
        let lo = self.exact_const(lo, t);
        let hi = self.exact_const(hi, t);
        let y = self.def(&format!("arith.maximumf {y}, {lo} : {ty}"), t, false);
        let y = self.def(&format!("arith.minimumf {y}, {hi} : {ty}"), t, false);
        let rt = t.with_elem(Ty::I(8));
        let op = if signed { "fptosi" } else { "fptoui" };
        self.def(&format!("arith.{op} {y} : {ty} to {}", rt.text()), &rt, true);
    }

    fn vector_op(&mut self) {
        let scalar = loop {
            let t = self.pick_type();
            match t {
                Ty::V(e) => break *e,
                Ty::Index => continue,
                t => break t,
            }
        };
        let vt = Ty::V(Box::new(scalar.clone()));
        let (st, vts) = (scalar.text(), vt.text());
        match self.rng.below(6) {
            0 => {
                let s = self.pick(&scalar);
                self.def(&format!("vector.broadcast {s} : {st} to {vts}"), &vt, true);
            }
            1 => {
                let xs: Vec<String> = (0..LANES).map(|_| self.pick(&scalar)).collect();
                self.def(&format!("vector.from_elements {} : {vts}", xs.join(", ")), &vt, true);
            }
            2 => {
                let v = self.pick(&vt);
                let kinds: &[&str] = if let Ty::F(_) = scalar {
                    &["add", "mul", "minimumf", "maximumf", "minnumf", "maxnumf"]
                } else {
                    &["add", "mul", "and", "or", "xor", "minsi", "maxsi", "minui", "maxui"]
                };
                let k = self.pick_of(kinds);
                self.def(&format!("vector.reduction <{k}>, {v} : {vts} into {st}"), &scalar, true);
            }
            3 => {
                let v = self.pick(&vt);
                let k = self.rng.below(LANES as u64);
                self.def(&format!("vector.extract {v}[{k}] : {st} from {vts}"), &scalar, true);
            }
            4 => {
                let (s, v) = (self.pick(&scalar), self.pick(&vt));
                let k = self.rng.below(LANES as u64);
                self.def(&format!("vector.insert {s}, {v} [{k}] : {st} into {vts}"), &vt, true);
            }
            _ => self.value_of(&vt),
        }
    }

    /// A load from or a store to the memref or its view, at an index
    /// reduced modulo the length.
    fn memory(&mut self) {
        let (mem, dims, ty): (&str, &[u64], &str) = match self.rng.below(5) {
            0 | 1 => ("%mem", &[MEM_LEN], "memref<8xi32>"),
            2 | 3 => ("%view", &[VIEW_LEN], VIEW_TYPE),
            _ => ("%grid", &GRID_DIMS, GRID_TYPE),
        };
        let mut idx = Vec::new();
        for d in dims {
            let i = self.pick(&Ty::Index);
            let n = self.exact_const(&d.to_string(), &Ty::Index);
            idx.push(self.def(&format!("arith.remui {i}, {n} : index"), &Ty::Index, false));
        }
        let k = idx.join(", ");
        if self.chance(50) {
            let v = self.pick(&Ty::I(32));
            self.line(&format!("memref.store {v}, {mem}[{k}] : {ty}"));
        } else {
            self.def(&format!("memref.load {mem}[{k}] : {ty}"), &Ty::I(32), true);
        }
    }

    /// Result types for a region construct: one to three the pool has.
    fn carried_types(&mut self) -> Vec<Ty> {
        let n = 1 + self.rng.below(3) as usize;
        (0..n).map(|_| self.pick_type()).collect()
    }

    /// Ops of a nested region, then the values it yields (of `tys`).
    fn region(&mut self, tys: &[Ty]) -> Vec<String> {
        self.indent += 1;
        self.depth += 1;
        let n = 1 + self.rng.below(4.min(self.budget as u64).max(1)) as usize;
        for _ in 0..n {
            self.step();
        }
        let ys: Vec<String> = tys.iter().map(|t| self.pick(t)).collect();
        self.depth -= 1;
        ys
    }

    /// `%r:n` results as pool values `%r#i` (or `%r` for one).
    fn results(&mut self, tys: &[Ty]) -> String {
        let r = self.fresh();
        for (i, t) in tys.iter().enumerate() {
            let name = if tys.len() == 1 { r.clone() } else { format!("{r}#{i}") };
            self.pool.push(Val { name, ty: t.clone() });
        }
        if tys.len() == 1 {
            r
        } else {
            format!("{r}:{}", tys.len())
        }
    }

    fn types_text(tys: &[Ty]) -> String {
        tys.iter().map(Ty::text).collect::<Vec<_>>().join(", ")
    }

    fn scf_if(&mut self) {
        let c = self.condition(&Ty::I(1));
        let tys = self.carried_types();
        let tt = Self::types_text(&tys);
        let mark = self.pool.len();
        let head = self.body.len();
        let then = self.region(&tys);
        self.line(&format!("scf.yield {} : {tt}", then.join(", ")));
        self.indent -= 1;
        self.pool.truncate(mark);
        self.line("} else {");
        let other = self.region(&tys);
        self.line(&format!("scf.yield {} : {tt}", other.join(", ")));
        self.indent -= 1;
        self.pool.truncate(mark);
        self.line("}");
        let r = self.results(&tys);
        let open = format!("{:w$}{r} = scf.if {c} -> ({tt}) {{\n", "", w = self.indent * 2);
        self.body.insert_str(head, &open);
    }

    /// Loop bounds: small constant trip counts.
    fn bounds(&mut self) -> (u64, u64, u64) {
        let lb = self.rng.below(3);
        (lb, lb + self.rng.below(6), 1 + self.rng.below(3))
    }

    fn scf_for(&mut self) {
        let (lb, ub, step) = self.bounds();
        let (l, u, s) = (
            self.exact_const(&lb.to_string(), &Ty::Index),
            self.exact_const(&ub.to_string(), &Ty::Index),
            self.exact_const(&step.to_string(), &Ty::Index),
        );
        self.counted_loop(&format!("scf.for %IV = {l} to {u} step {s}"), "scf.yield");
    }

    fn affine_for(&mut self) {
        let (lb, ub, step) = self.bounds();
        if self.feat.maps && self.depth == 0 && self.chance(40) {
            // Bounds that are maps of a value: `x mod k` up to at most
            // `x mod k + n`, a small trip count whatever `x` is.
            let x = self.small_index();
            let (k, n) = (1 + self.rng.below(4), self.rng.below(6));
            let head = format!(
                "affine.for %IV = max affine_map<(d0) -> (d0 mod {k}, {lb})>({x}) \
                 to min affine_map<(d0) -> (d0 mod {k} + {n}, 9)>({x}) step {step}"
            );
            return self.counted_loop(&head, "affine.yield");
        }
        self.counted_loop(&format!("affine.for %IV = {lb} to {ub} step {step}"), "affine.yield");
    }

    /// An index of magnitude below 1000 (`x rem 1000`), so that the maps
    /// below, with their small coefficients, cannot overflow.
    fn small_index(&mut self) -> String {
        let x = self.pick(&Ty::Index);
        let c = self.exact_const("1000", &Ty::Index);
        self.def(&format!("arith.remsi {x}, {c} : index"), &Ty::Index, false)
    }

    /// `affine.apply`, `min` or `max` of a map of one dim and one symbol,
    /// with multiplication, `floordiv`, `ceildiv` and `mod` by positive
    /// constants (a divisor that is not positive is undefined behaviour).
    fn affine_map_op(&mut self) {
        let (x, y) = (self.small_index(), self.small_index());
        let n = 1 + self.rng.below(3);
        let exprs: Vec<String> = (0..n)
            .map(|_| {
                let k = 1 + self.rng.below(9);
                match self.rng.below(6) {
                    0 => format!("d0 * {k} + s0"),
                    1 => format!("d0 floordiv {k}"),
                    2 => format!("(d0 + s0) mod {k}"),
                    3 => format!("d0 ceildiv {k} - s0"),
                    4 => format!("s0 * -{k} + d0 mod {k}"),
                    _ => format!("{k}"),
                }
            })
            .collect();
        let op = if n == 1 { self.pick_of(&["apply", "min", "max"]) } else { self.pick_of(&["min", "max"]) };
        let map = exprs.join(", ");
        self.def(&format!("affine.{op} affine_map<(d0)[s0] -> ({map})>({x})[{y}]"), &Ty::Index, true);
    }

    /// A loop with iteration arguments; `head` has `%IV` for the induction
    /// variable's name.
    fn counted_loop(&mut self, head: &str, yield_op: &str) {
        let tys = self.carried_types();
        let tt = Self::types_text(&tys);
        let inits: Vec<String> = tys.iter().map(|t| self.pick(t)).collect();
        let iv = self.fresh();
        let args: Vec<String> = tys.iter().map(|_| self.fresh()).collect();
        let mark = self.pool.len();
        self.pool.push(Val { name: iv.clone(), ty: Ty::Index });
        for (a, t) in args.iter().zip(&tys) {
            self.pool.push(Val { name: a.clone(), ty: t.clone() });
        }
        let iter: Vec<String> = args.iter().zip(&inits).map(|(a, i)| format!("{a} = {i}")).collect();
        let at = self.body.len();
        let ys = self.region(&tys);
        self.line(&format!("{yield_op} {} : {tt}", ys.join(", ")));
        self.indent -= 1;
        self.pool.truncate(mark);
        self.line("}");
        let r = self.results(&tys);
        let open = format!(
            "{:w$}{r} = {} iter_args({}) -> ({tt}) {{\n",
            "",
            head.replace("%IV", &iv),
            iter.join(", "),
            w = self.indent * 2
        );
        self.body.insert_str(at, &open);
    }

    fn label(&mut self) -> String {
        self.blocks += 1;
        format!("^bb{}", self.blocks)
    }

    /// A block header (labels are not indented like ops).
    fn block(&mut self, header: &str) {
        let _ = writeln!(self.body, "{header}");
    }

    /// `cf.cond_br` to two blocks that join with a block argument.
    fn cf_diamond(&mut self) {
        let c = self.condition(&Ty::I(1));
        let t = self.pick_type();
        let (yes, no, join) = (self.label(), self.label(), self.label());
        self.line(&format!("cf.cond_br {c}, {yes}, {no}"));
        let mark = self.pool.len();
        let arm = |g: &mut Gen, label: &str| {
            g.block(&format!("{label}:"));
            let n = 1 + g.rng.below(4) as usize;
            for _ in 0..n {
                g.step();
            }
            let x = g.pick(&t);
            g.line(&format!("cf.br {join}({x} : {})", t.text()));
            g.pool.truncate(mark);
        };
        arm(self, &yes);
        arm(self, &no);
        let j = self.fresh();
        self.block(&format!("{join}({j}: {}):", t.text()));
        self.pool.push(Val { name: j, ty: t });
    }

    /// A counted loop of blocks: header with the counter and an
    /// accumulator, body, exit.
    fn cf_loop(&mut self) {
        let t = self.pick_type();
        let tt = t.text();
        let init = self.pick(&t);
        let n = self.rng.below(5);
        let (zero, one, limit) = (
            self.exact_const("0", &Ty::Index),
            self.exact_const("1", &Ty::Index),
            self.exact_const(&n.to_string(), &Ty::Index),
        );
        let (head, body, exit) = (self.label(), self.label(), self.label());
        let (i, acc) = (self.fresh(), self.fresh());
        self.line(&format!("cf.br {head}({zero}, {init} : index, {tt})"));
        self.block(&format!("{head}({i}: index, {acc}: {tt}):"));
        let more = self.def(&format!("arith.cmpi slt, {i}, {limit} : index"), &Ty::I(1), false);
        self.line(&format!("cf.cond_br {more}, {body}, {exit}"));
        self.block(&format!("{body}:"));
        let mark = self.pool.len();
        self.pool.push(Val { name: i.clone(), ty: Ty::Index });
        self.pool.push(Val { name: acc.clone(), ty: t.clone() });
        let k = 1 + self.rng.below(4) as usize;
        for _ in 0..k {
            self.step();
        }
        let next = self.pick(&t);
        let i2 = self.def(&format!("arith.addi {i}, {one} : index"), &Ty::Index, false);
        self.line(&format!("cf.br {head}({i2}, {next} : index, {tt})"));
        self.pool.truncate(mark);
        self.block(&format!("{exit}:"));
        self.pool.push(Val { name: acc, ty: t });
    }
}

/// A program for `o` as generated, before its flags are checked.
pub fn generate(o: &Options) -> String {
    if let Some(own) = own_generator(o.kind) {
        return own(o, 0);
    }
    let feat = Features::of(o.kind);
    let mut g = Gen {
        rng: SplitMix(o.seed ^ 0x6D6C_6972_2D67_656E),
        feat,
        body: String::new(),
        indent: 1,
        pool: Vec::new(),
        next: 0,
        blocks: 0,
        budget: o.size.max(1),
        small_floats: o.kind == Kind::Float,
        depth: 0,
    };
    let nparams = 1 + g.rng.below(4) as usize;
    let params: Vec<Ty> = (0..nparams).map(|_| g.new_type()).collect();
    for (i, t) in params.iter().enumerate() {
        g.pool.push(Val { name: format!("%a{i}"), ty: t.clone() });
    }
    if feat.memref {
        g.line("%mem = memref.alloc() : memref<8xi32>");
        for k in 0..MEM_LEN {
            let c = g.constant(&Ty::I(32), true);
            let i = g.exact_const(&k.to_string(), &Ty::Index);
            g.line(&format!("memref.store {c}, %mem[{i}] : memref<8xi32>"));
        }
        g.line(&format!("%view = memref.subview %mem[1] [3] [2] : memref<8xi32> to {VIEW_TYPE}"));
        g.line(&format!(
            "%grid = memref.reinterpret_cast %mem to offset: [1], sizes: [2, 3], strides: [1, 2] : memref<8xi32> to {GRID_TYPE}"
        ));
    }
    while g.budget > 0 {
        if feat.cf && g.budget > 4 && g.chance(8) {
            if g.chance(50) {
                g.cf_diamond();
            } else {
                g.cf_loop();
            }
            g.budget = g.budget.saturating_sub(3);
            continue;
        }
        g.step();
    }
    // Results: recent values, so most of the computation shows.
    let nres = 1 + g.rng.below(3) as usize;
    let results: Vec<Val> = (0..nres)
        .map(|_| {
            let k = g.pool.len() - 1 - g.rng.below(g.pool.len().min(6) as u64) as usize;
            g.pool[k].clone()
        })
        .collect();
    if feat.memref {
        g.line("memref.dealloc %mem : memref<8xi32>");
    }
    let rnames: Vec<&str> = results.iter().map(|v| v.name.as_str()).collect();
    let rtys: Vec<Ty> = results.iter().map(|v| v.ty.clone()).collect();
    g.line(&format!("return {} : {}", rnames.join(", "), Gen::types_text(&rtys)));
    let ps: Vec<String> = params.iter().enumerate().map(|(i, t)| format!("%a{i}: {}", t.text())).collect();
    let mut out = format!("// mlir-interp gen --seed {} --kind {} --size {}\n", o.seed, o.kind.name(), o.size);
    let _ = writeln!(out, "func.func @f({}) -> ({}) {{", ps.join(", "), Gen::types_text(&rtys));
    out.push_str(&g.body);
    out.push_str("}\n\n");
    out.push_str(&main_fn(&mut g, &params, &rtys));
    out
}

/// `@main`: calls `@f` on edge values and prints every result.
fn main_fn(g: &mut Gen, params: &[Ty], results: &[Ty]) -> String {
    g.body.clear();
    g.pool.clear();
    let args: Vec<String> = params.iter().map(|t| g.constant(t, false)).collect();
    let r = if results.len() == 1 { "%r".to_string() } else { format!("%r:{}", results.len()) };
    let pt = Gen::types_text(params);
    g.line(&format!("{r} = call @f({}) : ({pt}) -> ({})", args.join(", "), Gen::types_text(results)));
    for (i, t) in results.iter().enumerate() {
        let name = if results.len() == 1 { "%r".to_string() } else { format!("%r#{i}") };
        g.line(&format!("vector.print {name} : {}", t.text()));
    }
    g.line("return");
    format!("func.func @main() {{\n{}}}\n", g.body)
}

/// Why [`program`] could not give a program: a generator bug.
#[derive(Debug)]
pub struct GenError(pub String);

/// The program for `o`, its flags checked by running `@main`: each flag
/// that makes poison the run observes is removed, until the run is clean.
pub fn program(o: &Options) -> Result<String, GenError> {
    if let Some(own) = own_generator(o.kind) {
        return retried(o, own);
    }
    let mut text = generate(o);
    for _ in 0..256 {
        match first_poison(&text)? {
            None => return Ok(text),
            Some(line) => {
                let lines: Vec<&str> = text.lines().collect();
                let fixed = strip_flags(lines[line]);
                if fixed == lines[line] {
                    return Err(GenError(format!("poison not made by a flag at line {}:\n{text}", line + 1)));
                }
                let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
                out[line] = fixed;
                text = out.join("\n") + "\n";
            }
        }
    }
    Err(GenError(format!("flags still make poison after 256 repairs:\n{text}")))
}

/// The generator of a kind that has one of its own (shaped values, UB-free
/// by construction, checked by [`retried`]), given an attempt number.
fn own_generator(k: Kind) -> Option<fn(&Options, u64) -> String> {
    match k {
        Kind::Tosa => Some(tosa::generate),
        Kind::Tensor => Some(tensor::generate),
        Kind::Linalg => Some(linalg::generate),
        Kind::LinalgTransform => Some(linalg::generate_transform),
        Kind::Sparse => Some(sparse::generate),
        Kind::VectorOps => Some(vector_ops::generate),
        _ => None,
    }
}

/// Attempts [`retried`] makes before it gives up.
const ATTEMPTS: u64 = 16;

/// The program `generate` makes for `o`, run here and generated again
/// from a derived seed (the attempt number) while the run has undefined
/// behaviour: a construction rule that is wrong costs a retry, never a
/// bad program.
fn retried(o: &Options, generate: fn(&Options, u64) -> String) -> Result<String, GenError> {
    let mut last = String::new();
    for attempt in 0..ATTEMPTS {
        let text = generate(o, attempt);
        match undefined(&text)? {
            None => return Ok(text),
            Some(why) => last = format!("{why}\n{text}"),
        }
    }
    Err(GenError(format!("every one of {ATTEMPTS} attempts had undefined behaviour; the last:\n{last}")))
}

/// Runs `@main`: `None` when it is defined, the diagnostic when it has
/// undefined behaviour or observes poison, an error for anything else (the
/// generator made a program that does not verify or run: a bug of ours).
fn undefined(text: &str) -> Result<Option<String>, GenError> {
    use crate::error::ErrorKind;
    run_main(text, |err, m, src| match err.kind {
        ErrorKind::Ub(_) | ErrorKind::MemUb { .. } | ErrorKind::Poison { .. } => Some(err.render(m, src)),
        _ => None,
    })
}

/// Runs `@main` of `text`: `None` when it returns, what `seen` makes of its
/// error when it makes something, else a [`GenError`] with the diagnostic
/// (a program that does not verify or run is a bug of ours).
fn run_main<T: Send>(
    text: &str,
    seen: impl Fn(&crate::error::Error, &mlir_ir::Module, &mlir_ir::diag::Source) -> Option<T> + Sync,
) -> Result<Option<T>, GenError> {
    use crate::exec::{Config, Engine};
    let src = mlir_ir::diag::Source::new("<gen>", text);
    let m = mlir_ir::parse_and_verify_with(&src, &crate::driver::limits())
        .map_err(|d| GenError(format!("{}\n{text}", d.render(&src))))?;
    let cfg = Config { max_steps: Some(50_000_000), ..Config::default() };
    let go = || {
        let mut e = Engine::load(&m, cfg.clone(), Box::new(std::io::sink())).map_err(|err| err.render(&m, &src))?;
        match e.run_entry("main") {
            Ok(_) => Ok(None),
            Err(err) => seen(&err, &m, &src).map(Some).ok_or_else(|| err.render(&m, &src)),
        }
    };
    match crate::driver::on_engine_thread(&cfg, go) {
        Ok(Ok(found)) => Ok(found),
        Ok(Err(diag)) => Err(GenError(format!("the program does not run:\n{diag}\n{text}"))),
        Err(e) => Err(GenError(e.report().1)),
    }
}

/// `line` without overflow flags and `exact`.
fn strip_flags(line: &str) -> String {
    let mut s = line.replace(" exact", "");
    if let Some(i) = s.find(" overflow<") {
        if let Some(j) = s[i..].find('>') {
            s.replace_range(i..i + j + 1, "");
        }
    }
    s
}

/// Runs `@main`; the 0-based line of the op whose poison the run observed,
/// `None` when it is clean; an error for anything else (a generator bug).
fn first_poison(text: &str) -> Result<Option<usize>, GenError> {
    use crate::error::ErrorKind;
    run_main(text, |err, m, src| match err.kind {
        ErrorKind::Poison { origin, .. } => Some(src.line_col(m.op(origin).span.start).0 - 1),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_are_stripped() {
        assert_eq!(strip_flags("  %v = arith.addi %a, %b overflow<nsw, nuw> : i8"), "  %v = arith.addi %a, %b : i8");
        assert_eq!(strip_flags("  %v = arith.divsi %a, %b exact : i8"), "  %v = arith.divsi %a, %b : i8");
    }

    #[test]
    fn the_own_generators_are_deterministic_and_retries_differ() {
        for kind in [Kind::Tosa, Kind::Tensor, Kind::Linalg, Kind::LinalgTransform, Kind::Sparse, Kind::VectorOps] {
            let own = own_generator(kind).expect("a generator of its own");
            let o = Options { seed: 11, kind, size: 20 };
            assert_eq!(own(&o, 0), own(&o, 0), "{kind:?}");
            assert_ne!(own(&o, 0), own(&Options { seed: 12, ..o }, 0), "{kind:?}");
            assert_ne!(own(&o, 0), own(&o, 1), "{kind:?}");
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_program() {
        let o = Options { seed: 7, kind: Kind::Mixed, size: 30 };
        assert_eq!(generate(&o), generate(&o));
        assert_ne!(generate(&o), generate(&Options { seed: 8, ..o }));
    }
}
