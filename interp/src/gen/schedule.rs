//! `mlir-interp gen --kind linalg-transform`: a linalg-kind program with a
//! random transform-dialect schedule appended, for checking the structured
//! transformations `transform-interpreter` applies (tiling with `scf.for`
//! and `scf.forall`, tile-and-fuse, producer fusion into a loop, padding,
//! packing, generalization and interchange, reduction tiling, masked and
//! whole-function vectorization).
//!
//! The schedule is a `module attributes {transform.with_named_sequence}`
//! holding a private `@__transform_main`, so the program goes through
//! `passcheck`/`fuzz` unchanged: `transform-interpreter` applies it to the
//! module and `symbol-dce` then drops it (being private and unreferenced),
//! before the lowering. It is written in MLIR's generic form, which this
//! engine parses without knowing the transform dialect, and never runs: a
//! nested module's ops are not executed.
//!
//! Each structured op `@f` holds gets a handle of its own
//! (`structured.match` by name, then `split_handle`: the ops are matched in
//! the order the generator wrote them) and one recipe, applied in program
//! order so that fusing a producer never meets a handle an earlier step
//! consumed. Every recipe preserves the program's meaning, so any
//! difference is the compiler's: padding and packing only pad parallel
//! loops (whose padded results are dropped), `pack_greedily`, which also
//! pads the reduction with zeros, only on integer contractions (a float
//! accumulator of -0.0 plus a padded +0.0 product would be +0.0), and
//! `scf.forall` tiles only parallel loops.

use super::tensor::{Et, Structured};
use crate::args::SplitMix;
use std::fmt::Write as _;

/// The type of every handle but the typed ones of pack lowering.
const ANY: &str = "!transform.any_op";

/// The schedule being written.
struct Sched {
    rng: SplitMix,
    body: String,
    next: usize,
    /// Whether some recipe made `linalg.pack`/`linalg.unpack`, which only
    /// the schedule can lower.
    packed: bool,
}

impl Sched {
    fn chance(&mut self, percent: u64) -> bool {
        self.rng.below(100) < percent
    }

    /// A number in `lo..=hi`.
    fn between(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.rng.below((hi - lo + 1) as u64) as i64
    }

    /// A random permutation of `0..n`.
    fn shuffled(&mut self, n: usize) -> Vec<usize> {
        let mut p: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            let j = self.rng.below(i as u64 + 1) as usize;
            p.swap(i, j);
        }
        p
    }

    /// Emits `name(operands) <{props}> : (types) -> (results)` with
    /// `results` result types; returns the result names.
    fn op(&mut self, name: &str, operands: &[(&str, &str)], props: &str, results: &[&str]) -> Vec<String> {
        let id = self.next;
        self.next += 1;
        let lhs = match results.len() {
            0 => String::new(),
            1 => format!("%t{id} = "),
            n => format!("%t{id}:{n} = "),
        };
        let names: Vec<&str> = operands.iter().map(|o| o.0).collect();
        let tys: Vec<&str> = operands.iter().map(|o| o.1).collect();
        let props = if props.is_empty() { String::new() } else { format!(" <{{{props}}}>") };
        let rt = match results.len() {
            1 => results[0].to_string(),
            _ => format!("({})", results.join(", ")),
        };
        let _ = writeln!(self.body, "    {lhs}\"{name}\"({}){props} : ({}) -> {rt}", names.join(", "), tys.join(", "));
        match results.len() {
            0 => Vec::new(),
            1 => vec![format!("%t{id}")],
            n => (0..n).map(|k| format!("%t{id}#{k}")).collect(),
        }
    }

    /// Tile sizes for `loops`: a prefix of random length, sizes 0 to 4,
    /// nonzero only where `allowed` says; `None` when none is nonzero.
    fn tile_sizes(&mut self, loops: &[(i64, bool)], allowed: impl Fn(bool) -> bool) -> Option<Vec<i64>> {
        let n = self.between(1, loops.len() as i64) as usize;
        let sizes: Vec<i64> =
            loops[..n].iter().map(|&(_, red)| if allowed(red) { self.between(0, 4) } else { 0 }).collect();
        sizes.iter().any(|&s| s != 0).then_some(sizes)
    }

    /// One op's recipe; `producer` is an untouched handle of the op
    /// making one of its inputs, which a tiling recipe may fuse.
    fn recipe(&mut self, h: &str, op: &Structured, producer: Option<&str>) -> bool {
        let n = op.loops.len();
        let par = op.loops.iter().any(|l| !l.1);
        let red = op.loops.iter().any(|l| l.1);
        let mut used_producer = false;
        match self.rng.below(10) {
            _ if n == 0 => {}
            0 | 1 => {
                let Some(sizes) = self.tile_sizes(&op.loops, |_| true) else { return false };
                let nz = sizes.iter().filter(|&&s| s != 0).count();
                let scal = vec!["false"; sizes.len()].join(", ");
                let inter = if sizes.len() == n && self.chance(40) {
                    format!("interchange = array<i64: {}>, ", list(&self.shuffled(n)))
                } else {
                    String::new()
                };
                let props =
                    format!("{inter}scalable_sizes = array<i1: {scal}>, static_sizes = array<i64: {}>", list(&sizes));
                let r = self.op("transform.structured.tile_using_for", &[(h, ANY)], &props, &vec![ANY; 1 + nz]);
                if let (Some(p), Some(outer)) = (producer, r.get(1)) {
                    if self.chance(50) {
                        self.op(
                            "transform.structured.fuse_into_containing_op",
                            &[(p, ANY), (outer, ANY)],
                            "",
                            &[ANY; 2],
                        );
                        used_producer = true;
                    }
                }
                // Padding a window's output loop leaves its input too
                // small: LLVM 22 makes an op that fails to verify.
                if !op.mem && par && !op.window && self.chance(40) {
                    self.pad(&r[0], op, &sizes);
                }
            }
            2 | 3 if par => {
                let Some(sizes) = self.tile_sizes(&op.loops, |red| !red) else { return false };
                let props = format!(
                    "operandSegmentSizes = array<i32: 1, 0, 0, 0, 0>, static_tile_sizes = array<i64: {}>",
                    list(&sizes)
                );
                let r = self.op("transform.structured.tile_using_forall", &[(h, ANY)], &props, &[ANY; 2]);
                if let Some(p) = producer {
                    if self.chance(60) {
                        self.op(
                            "transform.structured.fuse_into_containing_op",
                            &[(p, ANY), (&r[1], ANY)],
                            "",
                            &[ANY; 2],
                        );
                        used_producer = true;
                    }
                }
            }
            // Tile-and-fuse needs tensors (on memrefs LLVM 22 fails
            // without a diagnostic), and parallel loops: LLVM 22 fuses the
            // accumulator's producer into a reduction loop, resetting it
            // every iteration (fixtures/found/linalg_fuse_fill_into_reduction_loop.mlir).
            4 if !op.mem && par => {
                let Some(sizes) = self.tile_sizes(&op.loops, |red| !red) else { return false };
                let nz = sizes.iter().filter(|&&s| s != 0).count();
                let mut props = String::new();
                if self.chance(50) {
                    props.push_str("apply_cleanup, ");
                }
                props.push_str("operandSegmentSizes = array<i32: 1, 0, 0>, ");
                // With a zero size among them, LLVM 22 fails without a
                // diagnostic.
                if sizes.iter().all(|&s| s != 0) && self.chance(40) {
                    let _ =
                        write!(props, "static_tile_interchange = array<i64: {}>, ", list(&self.shuffled(sizes.len())));
                }
                let _ = write!(props, "static_tile_sizes = array<i64: {}>", list(&sizes));
                self.op("transform.structured.fuse", &[(h, ANY)], &props, &vec![ANY; 1 + nz]);
            }
            5 => {
                let g = self.op("transform.structured.generalize", &[(h, ANY)], "", &[ANY]);
                if n > 1 && self.chance(70) {
                    let props = format!("iterator_interchange = array<i64: {}>", list(&self.shuffled(n)));
                    self.op("transform.structured.interchange", &[(&g[0], ANY)], &props, &[ANY]);
                }
            }
            // LLVM 22 cannot pack a window ("data tiling failed").
            // Nor a body reading linalg.index, which LLVM 22 leaves
            // unchanged (fixtures/found/linalg_pack_index_not_remapped.mlir).
            6 if !op.mem && par && op.static_shapes && !op.window && !op.index => {
                let sizes: Vec<i64> =
                    op.loops.iter().map(|&(_, red)| if red { 0 } else { self.between(0, 3) }).collect();
                if sizes.iter().all(|&s| s == 0) {
                    return false;
                }
                let props = format!("static_packed_sizes = array<i64: {}>", list(&sizes));
                self.op("transform.structured.pack", &[(h, ANY)], &props, &[ANY]);
                self.packed = true;
            }
            7 if !op.mem && op.static_shapes && op.et == Et::I32 && !op.index && contraction(&op.name) => {
                let sizes: Vec<i64> = (0..3).map(|_| self.between(1, 3)).collect();
                let props = format!(
                    "matmul_inner_dims_order = array<i64: {}>, matmul_padded_sizes_next_multiple_of = array<i64>, \
                     static_matmul_packed_sizes = array<i64: {}>",
                    list(&self.shuffled(3)),
                    list(&sizes)
                );
                self.op(
                    "transform.structured.pack_greedily",
                    &[(h, ANY)],
                    &props,
                    &["!transform.op<\"linalg.generic\">"],
                );
                self.packed = true;
            }
            // On tensors, only without masks: a masked transfer_write
            // must bufferize in place, which a read-only or still-read
            // destination prevents (a limitation, not a miscompile).
            8 if !op.window && (op.mem || op.static_shapes) => {
                let extra = i64::from(op.mem);
                let sizes: Vec<i64> = op.loops.iter().map(|l| l.0 + self.between(0, extra)).collect();
                let scal = vec!["false"; n].join(", ");
                let nd = if self.chance(30) { "vectorize_nd_extract, " } else { "" };
                let props = format!(
                    "{nd}scalable_sizes = array<i1: {scal}>, static_vector_sizes = array<i64: {}>",
                    list(&sizes)
                );
                self.op("transform.structured.vectorize", &[(h, ANY)], &props, &[]);
            }
            // A window's reduction loops cannot be tiled this way, nor
            // can an op on memrefs; with dynamic shapes LLVM 22 makes a
            // linalg.reduce that fails to verify (an OPT-FAIL that would
            // hide the rest of the program).
            9 if red && !op.window && !op.mem && op.static_shapes => {
                // One reduction loop tiled, the partial results combined.
                let reds: Vec<usize> = (0..n).filter(|&d| op.loops[d].1).collect();
                let d = reds[self.rng.below(reds.len() as u64) as usize];
                let mut sizes = vec![0; d + 1];
                sizes[d] = self.between(1, 3);
                let props = format!("reduction_dims = [], tile_sizes = [{}]", list(&sizes));
                self.op("transform.structured.tile_reduction_using_for", &[(h, ANY)], &props, &[ANY; 4]);
            }
            _ => {}
        }
        used_producer
    }

    /// Pads a tiled op's parallel loops to a multiple of 2 to 4 (dropped
    /// again when the result is sliced out); `sizes` are its tile sizes:
    /// a dynamic loop needs one, or it has no bound to pad to.
    fn pad(&mut self, h: &str, op: &Structured, sizes: &[i64]) {
        let dims: Vec<usize> = (0..op.loops.len())
            .filter(|&d| !op.loops[d].1 && (op.static_shapes || sizes.get(d).is_some_and(|&s| s != 0)))
            .filter(|_| self.chance(70))
            .collect();
        if dims.is_empty() {
            return;
        }
        let multiples: Vec<i64> = dims.iter().map(|_| self.between(2, 4)).collect();
        let zero = match op.et {
            Et::I32 => "0 : i32",
            Et::F32 => "0.000000e+00 : f32",
        };
        let values = vec![zero; op.operands].join(", ");
        let copy = ["bufferization.materialize_in_destination", "linalg.copy", "none"][self.rng.below(3) as usize];
        let props = format!(
            "copy_back_op = \"{copy}\", nofold_flags = [], padding_dimensions = [{}], padding_values = [{values}], \
             static_pad_to_multiple_of = array<i64: {}>, transpose_paddings = []",
            list(&dims),
            list(&multiples)
        );
        self.op("transform.structured.pad", &[(h, ANY)], &props, &[ANY; 3]);
    }
}

/// Whether `pack_greedily` finds a matmul in the op (a contraction with
/// an m, an n and a k loop).
fn contraction(name: &str) -> bool {
    matches!(name, "linalg.matmul" | "linalg.batch_matmul")
}

/// `1, 2, 3`.
fn list<T: ToString>(v: &[T]) -> String {
    v.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
}

/// The schedule for `ops` (in the order they appear in `@f`), from `seed`:
/// a nested module in generic form.
pub(super) fn schedule(ops: &[Structured], seed: u64) -> String {
    let mut s = Sched { rng: SplitMix(seed ^ 0x7472_616E_7366_6F72), body: String::new(), next: 0, packed: false };
    let f = s.op(
        "transform.structured.match",
        &[("%root", ANY)],
        "op_attrs = {sym_name = \"f\"}, ops = [\"func.func\"]",
        &[ANY],
    );
    let f = f[0].clone();
    // A handle per op: matched by name, split in program order.
    let mut names: Vec<&str> = ops.iter().map(|o| o.name.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    let mut handles: Vec<String> = vec![String::new(); ops.len()];
    for name in names {
        let which: Vec<usize> = (0..ops.len()).filter(|&i| ops[i].name == name).collect();
        let all = s.op("transform.structured.match", &[(&f, ANY)], &format!("ops = [\"{name}\"]"), &[ANY]);
        let hs = if which.len() == 1 {
            all
        } else {
            let props = "fail_on_payload_too_small = true, pass_through_empty_handle = true";
            s.op("transform.split_handle", &[(&all[0], ANY)], props, &vec![ANY; which.len()])
        };
        for (i, h) in which.into_iter().zip(hs) {
            handles[i] = h;
        }
    }
    let mut untouched = vec![true; ops.len()];
    for i in 0..ops.len() {
        if !untouched[i] || s.chance(15) {
            continue;
        }
        untouched[i] = false;
        // An untouched earlier op whose result this one reads directly.
        let producer = (0..i).rev().find(|&j| untouched[j] && !ops[j].mem && ops[i].inputs.contains(&ops[j].result));
        let h = handles[i].clone();
        let ph = producer.map(|j| handles[j].clone());
        if s.recipe(&h, &ops[i], ph.as_deref()) {
            if let Some(j) = producer {
                untouched[j] = false;
            }
        }
    }
    if s.packed {
        let pack = "!transform.op<\"linalg.pack\">";
        let unpack = "!transform.op<\"linalg.unpack\">";
        let p = s.op("transform.structured.match", &[(&f, ANY)], "ops = [\"linalg.pack\"]", &[pack]);
        let results = [
            "!transform.op<\"tensor.pad\">",
            "!transform.op<\"tensor.expand_shape\">",
            "!transform.op<\"linalg.transpose\">",
        ];
        s.op("transform.structured.lower_pack", &[(&p[0], pack)], "lowerPadLikeWithInsertSlice = true", &results);
        let u = s.op("transform.structured.match", &[(&f, ANY)], "ops = [\"linalg.unpack\"]", &[unpack]);
        let results = [
            "!transform.op<\"tensor.empty\">",
            "!transform.op<\"linalg.transpose\">",
            "!transform.op<\"tensor.collapse_shape\">",
            "!transform.op<\"tensor.extract_slice\">",
        ];
        s.op(
            "transform.structured.lower_unpack",
            &[(&u[0], unpack)],
            "lowerUnpadLikeWithExtractSlice = true",
            &results,
        );
    }
    if s.chance(35) {
        let mut pats = vec!["canonicalization"];
        for p in [
            "linalg.tiling_canonicalization",
            "tensor.fold_tensor_subset_ops",
            "tensor.merge_consecutive_insert_extract_slice",
        ] {
            if s.chance(40) {
                pats.push(p);
            }
        }
        let _ = writeln!(
            s.body,
            "    \"transform.apply_patterns\"({f}) <{{max_iterations = -1 : i64, max_num_rewrites = -1 : i64}}> ({{"
        );
        for p in pats {
            let _ = writeln!(s.body, "      \"transform.apply_patterns.{p}\"() : () -> ()");
        }
        let _ = writeln!(s.body, "    }}) : ({ANY}) -> ()");
        if s.chance(50) {
            s.op("transform.apply_cse", &[(&f, ANY)], "", &[]);
        }
    }
    if s.chance(30) {
        let flags: Vec<&str> = [
            "disable_multi_reduction_to_contract_patterns",
            "disable_transfer_permutation_map_lowering_patterns",
            "flatten_1d_depthwise_conv",
            "vectorize_nd_extract",
            "vectorize_padding",
        ]
        .into_iter()
        .filter(|_| s.chance(30))
        .collect();
        s.op("transform.structured.vectorize_children_and_apply_patterns", &[(&f, ANY)], &flags.join(", "), &[ANY]);
    }
    let mut out = String::from("\n\"builtin.module\"() ({\n");
    out.push_str(
        "  \"transform.named_sequence\"() <{arg_attrs = [{transform.readonly}], function_type = (!transform.any_op) -> (), \
         sym_name = \"__transform_main\", sym_visibility = \"private\"}> ({\n  ^bb0(%root: !transform.any_op):\n",
    );
    out.push_str(&s.body);
    out.push_str(
        "    \"transform.yield\"() : () -> ()\n  }) : () -> ()\n}) {transform.with_named_sequence} : () -> ()\n",
    );
    out
}
