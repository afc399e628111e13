//! `mlir-interp gen --kind vector-ops`: programs of the vector dialect's
//! structured ops, for checking the vector lowerings
//! (`convert-vector-to-scf`, `lower-vector-multi-reduction`, `lower-vector-mask`,
//! `convert-vector-to-llvm`'s contraction and transpose strategies):
//! `vector.contract` with random maps (matmul, transposed operands,
//! matvec, dot, batch, outer products, two reductions) and kinds, masked
//! or not (`vector.mask`); `multi_reduction` over random dimensions,
//! `reduction` with and without accumulator, masked or not;
//! `transfer_read`/`transfer_write` on a memref with permutation and
//! broadcast maps, padding, `in_bounds` and masks; `gather` and `scatter`;
//! `shape_cast`, `transpose`, `broadcast`, `extract_strided_slice`,
//! `insert_strided_slice`, `outerproduct`, `create_mask`/`constant_mask`.
//!
//! `@f` takes `vector<16xi32>`, `vector<16xf32>` and two indices; every
//! operand is a slice of those (reshaped by `shape_cast`) or an earlier
//! result, so no pass sees a constant. `@main` passes constants and prints
//! every result (flattened to one dimension) with `vector.print`.
//!
//! Free of undefined behaviour by construction: integers wrap; float
//! operands of arithmetic are slices of the float argument (integers in
//! [-8, 8], never -0.0) or results that only moved them (transpose,
//! broadcast, slices), so every sum and product is exact in any order and
//! the sign of a zero sum does not depend on it; transfer
//! indices are taken modulo the memref's sizes, so a transfer starts
//! inside it and reads padding past its end; gather and scatter indices are
//! masked into the buffer and a scatter's are a permutation (no two lanes
//! write one element). The program is then run here ([`super::retried`]).

use super::Options;
use crate::args::SplitMix;
use std::fmt::Write as _;

/// Lanes of each argument vector.
const LANES: i64 = 16;

#[derive(Clone, Debug)]
struct Val {
    name: String,
    shape: Vec<i64>,
    float: bool,
    /// A float whose lanes are still arguments' lanes (safe to compute on).
    small: bool,
}

impl Val {
    fn ty(&self) -> String {
        vty(&self.shape, self.float)
    }
}

/// `vector<2x3xf32>` (`f32` for a scalar, shape `[]`).
fn vty(shape: &[i64], float: bool) -> String {
    let et = if float { "f32" } else { "i32" };
    if shape.is_empty() {
        return et.to_string();
    }
    format!("vector<{}x{et}>", shape.iter().map(i64::to_string).collect::<Vec<_>>().join("x"))
}

fn mask_ty(shape: &[i64]) -> String {
    format!("vector<{}xi1>", shape.iter().map(i64::to_string).collect::<Vec<_>>().join("x"))
}

struct G {
    rng: SplitMix,
    body: String,
    n: usize,
    pool: Vec<Val>,
    outs: Vec<Val>,
}

impl G {
    fn below(&mut self, n: u64) -> u64 {
        self.rng.below(n)
    }

    fn chance(&mut self, one_in: u64) -> bool {
        self.below(one_in) == 0
    }

    fn fresh(&mut self) -> String {
        self.n += 1;
        format!("%v{}", self.n)
    }

    fn line(&mut self, s: &str) {
        self.body.push_str("  ");
        self.body.push_str(s);
        self.body.push('\n');
    }

    fn konst(&mut self, v: i64, ty: &str) -> String {
        let x = self.fresh();
        self.line(&format!("{x} = arith.constant {v} : {ty}"));
        x
    }

    /// A shape of rank 1..=3 with at most 16 lanes.
    fn shape(&mut self, max_rank: u64) -> Vec<i64> {
        let rank = 1 + self.below(max_rank) as usize;
        let mut s: Vec<i64> = (0..rank).map(|_| 1 + self.below(4) as i64).collect();
        while s.iter().product::<i64>() > LANES {
            s[0] = 1;
        }
        s
    }

    /// A value of `shape`: an earlier one, or a slice of an argument.
    fn get(&mut self, shape: &[i64], float: bool) -> Val {
        let fits: Vec<Val> =
            self.pool.iter().filter(|v| v.shape == shape && v.float == float && (!float || v.small)).cloned().collect();
        if !fits.is_empty() && self.chance(2) {
            let k = self.below(fits.len() as u64) as usize;
            return fits[k].clone();
        }
        let lanes: i64 = shape.iter().product::<i64>().max(1);
        if lanes > LANES {
            // More lanes than an argument has: the longest trailing shape
            // that fits, broadcast along the leading dims.
            let k = (0..shape.len()).find(|k| shape[*k..].iter().product::<i64>() <= LANES).unwrap_or(shape.len());
            let inner = self.get(&shape[k..], float);
            let x = self.fresh();
            self.line(&format!("{x} = vector.broadcast {} : {} to {}", inner.name, inner.ty(), vty(shape, float)));
            return Val { name: x, shape: shape.to_vec(), float, small: inner.small };
        }
        let arg = if float { "%b" } else { "%a" };
        let et = if float { "f32" } else { "i32" };
        let name = if shape.is_empty() {
            let x = self.fresh();
            let k = self.below(LANES as u64);
            self.line(&format!("{x} = vector.extract {arg}[{k}] : {et} from vector<16x{et}>"));
            x
        } else if self.chance(6) {
            // A splat of one lane.
            let s = self.fresh();
            let k = self.below(LANES as u64);
            self.line(&format!("{s} = vector.extract {arg}[{k}] : {et} from vector<16x{et}>"));
            let x = self.fresh();
            self.line(&format!("{x} = vector.broadcast {s} : {et} to {}", vty(shape, float)));
            x
        } else {
            let off = self.below((LANES - lanes + 1) as u64);
            let flat = if lanes == LANES && off == 0 {
                arg.to_string()
            } else {
                let x = self.fresh();
                self.line(&format!(
                    "{x} = vector.extract_strided_slice {arg} {{offsets = [{off}], sizes = [{lanes}], strides = [1]}} : vector<16x{et}> to vector<{lanes}x{et}>"
                ));
                x
            };
            if shape.len() == 1 {
                flat
            } else {
                let x = self.fresh();
                self.line(&format!("{x} = vector.shape_cast {flat} : vector<{lanes}x{et}> to {}", vty(shape, float)));
                x
            }
        };
        Val { name, shape: shape.to_vec(), float, small: true }
    }

    /// Keeps `v` as a result of `@f` (and an operand for later ops).
    fn result(&mut self, name: String, shape: Vec<i64>, float: bool, small: bool) {
        let v = Val { name, shape, float, small };
        self.pool.push(v.clone());
        self.outs.push(v);
    }

    /// A mask of `shape`: constant, or made from the index arguments.
    fn mask(&mut self, shape: &[i64]) -> String {
        let x = self.fresh();
        if self.chance(2) {
            let mut sizes: Vec<String> = shape.iter().map(|d| self.below(*d as u64 + 1).to_string()).collect();
            // One zero makes the mask empty, and the verifier wants it said so.
            if sizes.iter().any(|z| z == "0") {
                sizes.iter_mut().for_each(|z| *z = "0".to_string());
            }
            self.line(&format!("{x} = vector.constant_mask [{}] : {}", sizes.join(", "), mask_ty(shape)));
        } else {
            let mut ops = Vec::new();
            for (k, d) in shape.iter().enumerate() {
                ops.push(if k % 2 == 0 && self.chance(2) {
                    "%i".to_string()
                } else if self.chance(2) {
                    "%j".to_string()
                } else {
                    let c = self.below(*d as u64 + 1) as i64;
                    self.konst(c, "index")
                });
            }
            self.line(&format!("{x} = vector.create_mask {} : {}", ops.join(", "), mask_ty(shape)));
        }
        x
    }

    /// A combining kind; a float product of more than 8 factors (each an
    /// integer of magnitude 8 at most) could round, so `mul` then is not one.
    fn kind(&mut self, float: bool, factors: i64) -> &'static str {
        const I: [&str; 9] = ["add", "mul", "minsi", "maxsi", "minui", "maxui", "and", "or", "xor"];
        const F: [&str; 4] = ["add", "mul", "maximumf", "minimumf"];
        if float {
            let k = F[self.below(F.len() as u64) as usize];
            if k == "mul" && factors > 8 {
                "add"
            } else {
                k
            }
        } else {
            I[self.below(I.len() as u64) as usize]
        }
    }

    fn contract(&mut self) {
        let float = self.chance(2);
        // Iteration dims: parallel ones on lhs, rhs or both (batch), reductions on both.
        // (At least one reduction: without, it is an outer product, which the verifier rejects as a contract.)
        let np = self.below(3) as usize + usize::from(self.chance(4));
        let nr = 1 + self.below(2) as usize;
        let n = np + nr;
        let size: Vec<i64> = (0..n).map(|_| 1 + self.below(3) as i64).collect();
        let (mut l, mut r, mut acc) = (Vec::new(), Vec::new(), Vec::new());
        for d in 0..np {
            match self.below(3) {
                0 => l.push(d),
                1 => r.push(d),
                _ => {
                    l.push(d);
                    r.push(d);
                }
            }
            acc.push(d);
        }
        for d in np..n {
            l.push(d);
            r.push(d);
        }
        if l.is_empty() || r.is_empty() {
            return;
        }
        for v in [&mut l, &mut r, &mut acc] {
            shuffle(&mut self.rng, v);
        }
        let map = |dims: &[usize]| {
            let ds: Vec<String> = (0..n).map(|d| format!("d{d}")).collect();
            let rs: Vec<String> = dims.iter().map(|d| format!("d{d}")).collect();
            format!("affine_map<({}) -> ({})>", ds.join(", "), rs.join(", "))
        };
        let its: Vec<&str> = (0..n).map(|d| if d < np { "\"parallel\"" } else { "\"reduction\"" }).collect();
        let shp = |dims: &[usize]| dims.iter().map(|d| size[*d]).collect::<Vec<_>>();
        let (ls, rs, accs) = (shp(&l), shp(&r), shp(&acc));
        let lv = self.get(&ls, float);
        let rv = self.get(&rs, float);
        let av = self.get(&accs, float);
        let red: i64 = (np..n).map(|d| size[d]).product();
        let kind = self.kind(float, 1 + 2 * red);
        let x = self.fresh();
        let op = format!(
            "vector.contract {{indexing_maps = [{}, {}, {}], iterator_types = [{}], kind = #vector.kind<{kind}>}} {}, {}, {} : {}, {} into {}",
            map(&l),
            map(&r),
            map(&acc),
            its.join(", "),
            lv.name,
            rv.name,
            av.name,
            lv.ty(),
            rv.ty(),
            av.ty()
        );
        self.maybe_masked(4, &x, &op, &size, &av.ty());
        self.result(x, accs, float, false);
    }

    /// `{x} = {op}`, wrapped one time in `odds` in a `vector.mask` over
    /// `shape` (the op's iteration space), `ty` being its result type.
    fn maybe_masked(&mut self, odds: u64, x: &str, op: &str, shape: &[i64], ty: &str) {
        if self.chance(odds) {
            let m = self.mask(shape);
            self.line(&format!("{x} = vector.mask {m} {{ {op} }} : {} -> {ty}", mask_ty(shape)));
        } else {
            self.line(&format!("{x} = {op}"));
        }
    }

    fn multi_reduction(&mut self) {
        let float = self.chance(2);
        let s = self.shape(3);
        let mut red: Vec<usize> = (0..s.len()).filter(|_| self.chance(2)).collect();
        if red.is_empty() {
            red.push(self.below(s.len() as u64) as usize);
        }
        let rest: Vec<i64> = (0..s.len()).filter(|d| !red.contains(d)).map(|d| s[d]).collect();
        let v = self.get(&s, float);
        let acc = self.get(&rest, float);
        let reduced: i64 = red.iter().map(|d| s[*d]).product();
        let kind = self.kind(float, reduced + 1);
        let x = self.fresh();
        let dims: Vec<String> = red.iter().map(usize::to_string).collect();
        let op = format!(
            "vector.multi_reduction <{kind}>, {}, {} [{}] : {} to {}",
            v.name,
            acc.name,
            dims.join(", "),
            v.ty(),
            acc.ty()
        );
        self.maybe_masked(3, &x, &op, &s, &acc.ty());
        self.result(x, rest, float, false);
    }

    fn reduction(&mut self) {
        let float = self.chance(2);
        let len = 1 + self.below(8) as i64;
        let v = self.get(&[len], float);
        let kind = self.kind(float, len + 1);
        let acc = if self.chance(2) { Some(self.get(&[], float)) } else { None };
        let x = self.fresh();
        let et = if float { "f32" } else { "i32" };
        let op = match &acc {
            Some(a) => format!("vector.reduction <{kind}>, {}, {} : {} into {et}", v.name, a.name, v.ty()),
            None => format!("vector.reduction <{kind}>, {} : {} into {et}", v.name, v.ty()),
        };
        self.maybe_masked(3, &x, &op, &[len], et);
        self.result(x, vec![], float, false);
    }

    fn transpose(&mut self) {
        let float = self.chance(2);
        let s = self.shape(3);
        if s.len() < 2 {
            return;
        }
        let mut p: Vec<usize> = (0..s.len()).collect();
        shuffle(&mut self.rng, &mut p);
        let v = self.get(&s, float);
        let t: Vec<i64> = p.iter().map(|d| s[*d]).collect();
        let x = self.fresh();
        let ps: Vec<String> = p.iter().map(usize::to_string).collect();
        self.line(&format!(
            "{x} = vector.transpose {}, [{}] : {} to {}",
            v.name,
            ps.join(", "),
            v.ty(),
            vty(&t, float)
        ));
        self.result(x, t, float, v.small);
    }

    fn broadcast(&mut self) {
        let float = self.chance(2);
        let s = self.shape(2);
        let extra = 1 + self.below(3) as i64;
        if extra * s.iter().product::<i64>() > LANES {
            return;
        }
        // A trailing unit dim of the source may stretch.
        let mut src = s.clone();
        if let (true, Some(last)) = (self.chance(2), src.last_mut()) {
            *last = 1;
        }
        let v = self.get(&src, float);
        let mut t = vec![extra];
        t.extend(&s);
        let x = self.fresh();
        self.line(&format!("{x} = vector.broadcast {} : {} to {}", v.name, v.ty(), vty(&t, float)));
        self.result(x, t, float, v.small);
    }

    fn strided(&mut self) {
        let float = self.chance(2);
        let s = self.shape(2);
        if s.len() < 2 {
            return;
        }
        let v = self.get(&s, float);
        let sizes: Vec<i64> = s.iter().map(|d| 1 + self.below(*d as u64) as i64).collect();
        let offs: Vec<i64> = s.iter().zip(&sizes).map(|(d, z)| self.below((d - z + 1) as u64) as i64).collect();
        let j = |xs: &[i64]| xs.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
        if self.chance(2) {
            let x = self.fresh();
            self.line(&format!(
                "{x} = vector.extract_strided_slice {} {{offsets = [{}], sizes = [{}], strides = [1, 1]}} : {} to {}",
                v.name,
                j(&offs),
                j(&sizes),
                v.ty(),
                vty(&sizes, float)
            ));
            self.result(x, sizes, float, v.small);
        } else {
            let part = self.get(&sizes, float);
            let x = self.fresh();
            self.line(&format!(
                "{x} = vector.insert_strided_slice {}, {} {{offsets = [{}], strides = [1, 1]}} : {} into {}",
                part.name,
                v.name,
                j(&offs),
                part.ty(),
                v.ty()
            ));
            self.result(x, s, float, v.small && part.small);
        }
    }

    fn outerproduct(&mut self) {
        let float = self.chance(2);
        let (m, n) = (1 + self.below(4) as i64, 1 + self.below(4) as i64);
        let l = self.get(&[m], float);
        let r = self.get(&[n], float);
        let acc = self.get(&[m, n], float);
        let kind = self.kind(float, 3);
        let x = self.fresh();
        self.line(&format!(
            "{x} = vector.outerproduct {}, {}, {} {{kind = #vector.kind<{kind}>}} : {}, {}",
            l.name,
            r.name,
            acc.name,
            l.ty(),
            r.ty()
        ));
        self.result(x, vec![m, n], float, false);
    }

    fn elementwise(&mut self) {
        let s = self.shape(3);
        let a = self.get(&s, false);
        let b = self.get(&s, false);
        let op = ["addi", "muli", "xori", "subi", "maxsi"][self.below(5) as usize];
        let x = self.fresh();
        self.line(&format!("{x} = arith.{op} {}, {} : {}", a.name, b.name, a.ty()));
        self.result(x, s, false, false);
    }

    /// A memref written whole from a vector, then read and written through
    /// permutation and broadcast maps, padding, masks, gather and scatter;
    /// its final contents are a result.
    fn memory(&mut self) {
        let float = self.chance(3);
        let et = if float { "f32" } else { "i32" };
        let (r, c) = (2 + self.below(3) as i64, 2 + self.below(3) as i64);
        let mty = format!("memref<{r}x{c}x{et}>");
        let m = self.fresh();
        self.line(&format!("{m} = memref.alloc() : {mty}"));
        let init = self.get(&[r, c], float);
        let c0 = self.konst(0, "index");
        self.line(&format!("vector.transfer_write {}, {m}[{c0}, {c0}] : {}, {mty}", init.name, init.ty()));
        let pad = self.get(&[], float);
        for _ in 0..1 + self.below(3) {
            let i0 = self.index_in(r);
            let i1 = self.index_in(c);
            let a = 1 + self.below(4) as i64;
            let b = 1 + self.below(4) as i64;
            // (map, vector shape, the memref dims each vector dim reads)
            let (map, shape, dims): (&str, Vec<i64>, Vec<usize>) = match self.below(5) {
                0 => ("affine_map<(d0, d1) -> (d0, d1)>", vec![a, b], vec![0, 1]),
                1 => ("affine_map<(d0, d1) -> (d1, d0)>", vec![a, b], vec![1, 0]),
                2 => ("affine_map<(d0, d1) -> (d1)>", vec![b], vec![1]),
                3 => ("affine_map<(d0, d1) -> (d0)>", vec![a], vec![0]),
                _ => ("affine_map<(d0, d1) -> (0, d1)>", vec![a, b], vec![9, 1]),
            };
            let inb: Vec<&str> = dims.iter().map(|_| "false").collect();
            let x = self.fresh();
            // (A mask is in the memref's dim order; only where that is the vector's.)
            let masked = self.chance(3) && dims.windows(2).all(|w| w[0] < w[1]);
            let mask = if masked { format!(", {}", self.mask(&shape)) } else { String::new() };
            let read = self.chance(3);
            if read || dims.contains(&9) {
                self.line(&format!(
                    "{x} = vector.transfer_read {m}[{i0}, {i1}], {}{mask} {{in_bounds = [{}], permutation_map = {map}}} : {mty}, {}",
                    pad.name,
                    inb.join(", "),
                    vty(&shape, float)
                ));
                self.result(x, shape, float, true);
            } else {
                let v = self.get(&shape, float);
                self.line(&format!(
                    "vector.transfer_write {}, {m}[{i0}, {i1}]{mask} {{in_bounds = [{}], permutation_map = {map}}} : {}, {mty}",
                    v.name,
                    inb.join(", "),
                    v.ty()
                ));
            }
        }
        if self.chance(2) {
            self.gather_scatter(&m, &mty, r * c, float, &c0);
        }
        let x = self.fresh();
        self.line(&format!(
            "{x} = vector.transfer_read {m}[{c0}, {c0}], {} {{in_bounds = [true, true]}} : {mty}, {}",
            pad.name,
            vty(&[r, c], float)
        ));
        self.result(x, vec![r, c], float, true);
    }

    /// An index in `0..d` from the index arguments (or a constant).
    fn index_in(&mut self, d: i64) -> String {
        if self.chance(3) {
            let k = self.below(d as u64) as i64;
            return self.konst(k, "index");
        }
        let arg = if self.chance(2) { "%i" } else { "%j" };
        let dc = self.konst(d, "index");
        let x = self.fresh();
        self.line(&format!("{x} = arith.remui {arg}, {dc} : index"));
        x
    }

    fn gather_scatter(&mut self, m: &str, mty: &str, elems: i64, float: bool, c0: &str) {
        let et = if float { "f32" } else { "i32" };
        let n = 1 + self.below(elems.min(8) as u64) as i64;
        // Lanes k * odd + c modulo a power of two >= n are distinct, and
        // inside the buffer when that power is no more than its size.
        let pow = (1..=elems).rev().find(|p| p & (p - 1) == 0 && *p >= n).unwrap_or(1);
        if pow < n {
            return;
        }
        let odd = 2 * self.below(4) as i64 + 1;
        let add = self.below(pow as u64) as i64;
        let lanes: Vec<String> = (0..n).map(|k| ((k * odd + add) % pow).to_string()).collect();
        let idx = self.fresh();
        self.line(&format!("{idx} = arith.constant dense<[{}]> : vector<{n}xindex>", lanes.join(", ")));
        let mask = self.mask(&[n]);
        let vt = vty(&[n], float);
        if self.chance(2) {
            let pass = self.get(&[n], float);
            let x = self.fresh();
            self.line(&format!(
                "{x} = vector.gather {m}[{c0}, {c0}][{idx}], {mask}, {} : {mty}, vector<{n}xindex>, vector<{n}xi1>, {vt} into {vt}",
                pass.name
            ));
            self.result(x, vec![n], float, true);
        } else {
            let v = self.get(&[n], float);
            self.line(&format!(
                "vector.scatter {m}[{c0}, {c0}][{idx}], {mask}, {} : {mty}, vector<{n}xindex>, vector<{n}xi1>, {vt}",
                v.name
            ));
        }
        let _ = et;
    }
}

fn shuffle<T>(rng: &mut SplitMix, v: &mut [T]) {
    for k in (1..v.len()).rev() {
        let j = rng.below(k as u64 + 1) as usize;
        v.swap(k, j);
    }
}

/// The program for `o` (attempt `attempt`: [`super::retried`]'s derived seed).
pub(super) fn generate(o: &Options, attempt: u64) -> String {
    let seed = o.seed ^ 0x7665_6374_6F72_2D6F ^ attempt.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut g = G { rng: SplitMix(seed), body: String::new(), n: 0, pool: Vec::new(), outs: Vec::new() };
    let ops = (o.size / 3).max(2);
    while g.outs.len() < ops {
        match g.below(11) {
            0..=2 => g.contract(),
            3..=4 => g.multi_reduction(),
            5 => g.reduction(),
            6 => g.transpose(),
            7 => g.broadcast(),
            8 => g.strided(),
            9 => g.outerproduct(),
            _ => {
                if g.chance(2) {
                    g.memory()
                } else {
                    g.elementwise()
                }
            }
        }
    }
    // Results: flattened to one dimension (so printing needs no n-D lowering).
    let mut rets = Vec::new();
    for v in g.outs.clone() {
        if v.shape.len() > 1 {
            let lanes: i64 = v.shape.iter().product();
            let x = g.fresh();
            let flat = vty(&[lanes], v.float);
            g.line(&format!("{x} = vector.shape_cast {} : {} to {flat}", v.name, v.ty()));
            rets.push((x, flat));
        } else {
            rets.push((v.name.clone(), v.ty()));
        }
    }
    let tys: Vec<&str> = rets.iter().map(|r| r.1.as_str()).collect();
    let names: Vec<&str> = rets.iter().map(|r| r.0.as_str()).collect();
    let mut t = String::new();
    let _ = writeln!(t, "// mlir-interp gen --seed {} --kind vector-ops --size {}", o.seed, o.size);
    let _ = writeln!(
        t,
        "func.func @f(%a: vector<16xi32>, %b: vector<16xf32>, %i: index, %j: index) -> ({}) {{",
        tys.join(", ")
    );
    t.push_str(&g.body);
    let _ = writeln!(t, "  return {} : {}", names.join(", "), tys.join(", "));
    t.push_str("}\n\nfunc.func @main() {\n");
    let ints: Vec<String> = (0..LANES)
        .map(|_| match g.below(4) {
            0 => ["-2147483648", "2147483647", "-1", "0"][g.below(4) as usize].to_string(),
            _ => (g.below(41) as i64 - 20).to_string(),
        })
        .collect();
    let floats: Vec<String> = (0..LANES)
        .map(|_| match g.below(12) {
            // +0.0 but never -0.0: a float contraction's order of adding
            // products and accumulator is not specified (LLVM 22's
            // strategies differ), and with no -0.0 operand the sign of a
            // zero sum does not depend on it.
            0 => "0.0".to_string(),
            _ => format!("{:.1}", g.below(17) as f64 - 8.0),
        })
        .collect();
    let (i, j) = (g.below(5), g.below(7));
    let _ = writeln!(t, "  %a = arith.constant dense<[{}]> : vector<16xi32>", ints.join(", "));
    let _ = writeln!(t, "  %b = arith.constant dense<[{}]> : vector<16xf32>", floats.join(", "));
    let _ = writeln!(t, "  %i = arith.constant {i} : index");
    let _ = writeln!(t, "  %j = arith.constant {j} : index");
    let rs: Vec<String> = (0..rets.len()).map(|k| format!("%r#{k}")).collect();
    if rets.len() == 1 {
        let _ = writeln!(
            t,
            "  %r = call @f(%a, %b, %i, %j) : (vector<16xi32>, vector<16xf32>, index, index) -> {}",
            tys[0]
        );
        let _ = writeln!(t, "  vector.print %r : {}", tys[0]);
    } else {
        let _ = writeln!(
            t,
            "  %r:{} = call @f(%a, %b, %i, %j) : (vector<16xi32>, vector<16xf32>, index, index) -> ({})",
            rets.len(),
            tys.join(", ")
        );
        for (r, ty) in rs.iter().zip(&tys) {
            let _ = writeln!(t, "  vector.print {r} : {ty}");
        }
    }
    t.push_str("  return\n}\n");
    t
}
