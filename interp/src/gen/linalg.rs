//! `mlir-interp gen --kind linalg`: random programs of structured ops:
//! `linalg.generic` with random indexing maps (permutations, broadcasts,
//! reductions, strided and dilated windows) and random bodies, and the
//! named families (matmul variants, convolutions and pooling with strides
//! and dilations, transpose, broadcast, reduce, map, elementwise, the
//! named elementwise ops, copy, fill), on tensors or, one program in
//! three, on memrefs, with static and dynamic shapes. It extends the
//! tensor kind's [`Gen`] (`gen/tensor.rs`), whose values, parameters and
//! printing it shares.
//!
//! Free of undefined behaviour for the same reasons as the tensor kind:
//! shapes are chosen so every window stays inside its input, every output
//! starts filled, integers wrap, and float bounds keep every sum and
//! product exact, so a reduction's order (which tiling, fusion or
//! vectorization may change) cannot change a bit. A reduction's body
//! always combines the accumulator with an associative and commutative op
//! for the same reason. On memrefs, every op writes a buffer of its own
//! that nothing else writes. `linalg.softmax`, `linalg.pack` and
//! `linalg.unpack` are left out: LLVM 22 neither bufferizes them nor
//! lowers them to loops without a transform schedule, so no pipeline here
//! could run them.

use super::tensor::Structured;
use super::tensor::{Bound, Et, Gen, V};
use super::Options;
use std::fmt::Write as _;

/// The value an op on memrefs writes, or the one it returns on tensors.
struct Out {
    v: V,
    /// Text after `outs(...)`: attributes or the body region.
    tail: String,
    /// Whether the tensor form spells its result type (`-> T`).
    arrow: bool,
}

/// A structured op's iteration domain: each loop's size and whether it
/// is a reduction, and whether an input is read through a window
/// (`d0 * s + d1 * dil`), which vectorization with vector sizes rejects.
struct Domain {
    loops: Vec<(i64, bool)>,
    window: bool,
    /// Whether the body reads `linalg.index`.
    index: bool,
}

impl Domain {
    /// Parallel loops of these sizes.
    fn parallel(sizes: &[i64]) -> Domain {
        Domain { loops: sizes.iter().map(|&s| (s, false)).collect(), window: false, index: false }
    }
}

/// Sizes per spatial dimension of a convolution or pooling window: each
/// input size is exactly what the output, kernel, stride and dilation read.
struct Windows {
    out: Vec<i64>,
    kernel: Vec<i64>,
    stride: Vec<i64>,
    dilation: Vec<i64>,
    input: Vec<i64>,
}

impl Gen {
    /// A linalg-kind step.
    fn linalg_step(&mut self) -> bool {
        if !self.mem && self.chance(15) {
            return self.step();
        }
        match self.rng.below(12) {
            0..=2 => self.generic(),
            3 => self.matmul(),
            4 => self.conv(),
            5 => self.pooling(),
            6 => self.transpose(),
            7 => self.broadcast(),
            8 => self.reduce(),
            9 => self.map(),
            _ => self.elementwise(),
        }
    }

    /// An output to write: filled with a scalar, or (on tensors) any value
    /// of the shape. On memrefs always a new buffer, which only this op writes.
    fn init(&mut self, shape: &[i64], et: Et) -> V {
        let dynamic = self.dyn_dims(shape.len());
        self.init_typed(shape, &dynamic, et)
    }

    /// [`Gen::init`] of a given type: map, transpose and broadcast verify
    /// that static and dynamic dimensions match their input's exactly.
    fn init_typed(&mut self, shape: &[i64], dynamic: &[bool], et: Et) -> V {
        if !self.mem && self.chance(40) {
            return self.operand(shape, dynamic, et);
        }
        self.filled(shape, dynamic, et, None)
    }

    /// Emits `head ins(...) outs(...) tail`. On tensors the result is a new
    /// value; on memrefs the op wrote `out`, which then holds the result.
    /// The op is recorded with its iteration domain `dom` for a transform
    /// schedule (`gen/schedule.rs`).
    fn structured(&mut self, head: &str, ins: &[V], out: Out, b: Bound, dom: Domain) -> V {
        let v = self.structured_text(head, ins, &out, b);
        let name = head.split_whitespace().next().unwrap_or(head).to_string();
        let static_shapes = ins.iter().chain([&out.v]).all(|v| v.dynamic.iter().all(|d| !d));
        self.structured_ops.push(Structured {
            name,
            loops: dom.loops,
            window: dom.window,
            index: dom.index,
            et: out.v.et,
            mem: self.mem,
            static_shapes,
            operands: ins.len() + 1,
            inputs: ins.iter().map(|v| v.name.clone()).collect(),
            result: v.name.clone(),
        });
        v
    }

    /// [`Gen::structured`]'s text.
    fn structured_text(&mut self, head: &str, ins: &[V], out: &Out, b: Bound) -> V {
        let names: Vec<&str> = ins.iter().map(|v| v.name.as_str()).collect();
        let tys: Vec<String> = ins.iter().map(V::ty).collect();
        let o = &out.v;
        let text =
            format!("{head} ins({} : {}) outs({} : {}){}", names.join(", "), tys.join(", "), o.name, o.ty(), out.tail);
        if self.mem {
            self.reads(&text);
            self.line(&text);
            // Writing the buffer is not reading it: it may still be a result.
            self.used.remove(&o.name);
            self.pool.retain(|v| v.name != o.name);
            let v = V { b, ..o.clone() };
            self.pool.push(v.clone());
            return v;
        }
        let text = if out.arrow { format!("{text} -> {}", o.ty()) } else { text };
        self.emit(&text, o.shape.clone(), o.dynamic.clone(), o.et, b)
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

    /// A random scalar expression of `et` over `args` (names with bounds),
    /// its lines appended to `body`: about `ops` arith ops, each kept only
    /// where the float bounds stay exact.
    fn expr(&mut self, body: &mut String, args: &[(String, Bound)], et: Et, ops: usize) -> (String, Bound) {
        let mut vals: Vec<(String, Bound)> = args.to_vec();
        let t = et.name();
        for _ in 0..ops {
            let (a, ab) = self.pick_of(&vals);
            let (b, bb) = self.pick_of(&vals);
            let n = self.fresh();
            let made = match self.rng.below(if et.float() { 8 } else { 11 }) {
                0 => {
                    let (lit, lb) = if et.float() {
                        let k = self.between(-6, 6);
                        (format!("{k}.0"), Bound { mag: 6.0, frac: 0 })
                    } else {
                        (self.between(-9, 9).to_string(), Bound::INT)
                    };
                    let _ = writeln!(body, "    {n} = arith.constant {lit} : {t}");
                    Some(lb)
                }
                1 => {
                    let c = self.fresh();
                    let cmp = if et.float() {
                        format!("arith.cmpf olt, {a}, {b} : {t}")
                    } else {
                        format!("arith.cmpi {}, {a}, {b} : {t}", self.pick_of(&["slt", "ugt", "eq"]))
                    };
                    let _ = writeln!(body, "    {c} = {cmp}");
                    let _ = writeln!(body, "    {n} = arith.select {c}, {b}, {a} : {t}");
                    Some(ab.join(bb))
                }
                k if et.float() => {
                    let (op, nb) = match k {
                        2 => ("addf", ab.add(bb)),
                        3 => ("subf", ab.add(bb)),
                        4 => ("mulf", ab.mul(bb)),
                        5 => ("maximumf", ab.join(bb)),
                        6 => ("minimumf", ab.join(bb)),
                        _ => ("negf", ab),
                    };
                    if op == "negf" {
                        let _ = writeln!(body, "    {n} = arith.negf {a} : {t}");
                    } else if nb.exact() {
                        let _ = writeln!(body, "    {n} = arith.{op} {a}, {b} : {t}");
                    }
                    nb.exact().then_some(nb)
                }
                k => {
                    let op = ["addi", "subi", "muli", "andi", "ori", "xori", "maxsi", "minsi", "minui"][k as usize - 2];
                    let _ = writeln!(body, "    {n} = arith.{op} {a}, {b} : {t}");
                    Some(Bound::INT)
                }
            };
            if let Some(nb) = made {
                vals.push((n, nb));
            }
        }
        if vals.len() > args.len() {
            if let Some(last) = vals.pop() {
                return last;
            }
        }
        self.pick_of(&vals)
    }

    /// `acc` and `x` combined by an associative and commutative op (so a
    /// reduction's order does not matter); `None` when a float sum of `n`
    /// values would not stay exact.
    fn combine(&mut self, body: &mut String, acc: (&str, Bound), x: (&str, Bound), n: i64, et: Et) -> Option<String> {
        let r = self.fresh();
        let t = et.name();
        let (op, b) = if et.float() {
            let op = self.pick_of(&["addf", "addf", "maximumf", "minimumf"]);
            let b = if op == "addf" { acc.1.add(x.1.times(n)) } else { acc.1.join(x.1) };
            (op, b)
        } else {
            (self.pick_of(&["addi", "muli", "maxsi", "minui", "xori", "andi", "ori"]), Bound::INT)
        };
        if !b.exact() {
            return None;
        }
        let _ = writeln!(body, "    {r} = arith.{op} {}, {} : {t}", x.0, acc.0);
        Some(r)
    }

    /// `linalg.generic` with random maps, iterators and body.
    fn generic(&mut self) -> bool {
        let n = self.between(1, 4) as usize;
        let sizes = self.shape(n);
        let red: Vec<bool> = (0..n).map(|_| self.chance(30)).collect();
        let et = self.et();
        let dims: Vec<String> = (0..n).map(|i| format!("d{i}")).collect();
        let head = format!("({})", dims.join(", "));
        let par: Vec<usize> = (0..n).filter(|&i| !red[i]).collect();
        let order = self.shuffled(par.len());
        let out_dims: Vec<usize> = order.iter().map(|&k| par[k]).collect();
        let mut plain = vec![false; n];
        for &d in &out_dims {
            plain[d] = true;
        }
        // Inputs: projected permutations (broadcasts when dims are
        // missing) and windows `d_p * s + d_r * dil`.
        let mut ins: Vec<(Vec<String>, Vec<i64>)> = Vec::new();
        let mut windowed = false;
        for _ in 0..self.between(1, 3) {
            let mut exprs = Vec::new();
            let mut shape = Vec::new();
            let perm = self.shuffled(n);
            let window = n >= 2 && self.chance(35);
            windowed |= window;
            let (p, r) = (perm[0], perm[perm.len() - 1]);
            for &d in &perm {
                if window && d == p {
                    let (s, dil) = (self.between(1, 2), self.between(1, 2));
                    exprs.push(format!("d{p} * {s} + d{r} * {dil}"));
                    shape.push((sizes[p] - 1) * s + (sizes[r] - 1) * dil + 1);
                } else if !(window && d == r) && self.chance(70) {
                    exprs.push(format!("d{d}"));
                    shape.push(sizes[d]);
                    plain[d] = true;
                }
            }
            ins.push((exprs, shape));
        }
        // Every loop must show plainly in some map, or its range is unknown.
        let missing: Vec<usize> = (0..n).filter(|&d| !plain[d]).collect();
        if !missing.is_empty() {
            ins.push((missing.iter().map(|d| format!("d{d}")).collect(), missing.iter().map(|&d| sizes[d]).collect()));
        }
        let operands: Vec<V> = ins
            .iter()
            .map(|(_, s)| {
                let d = self.dyn_dims(s.len());
                self.operand(s, &d, et)
            })
            .collect();
        let out_shape: Vec<i64> = out_dims.iter().map(|&d| sizes[d]).collect();
        let init = self.init(&out_shape, et);
        let mut maps: Vec<String> =
            ins.iter().map(|(e, _)| format!("affine_map<{head} -> ({})>", e.join(", "))).collect();
        let od: Vec<String> = out_dims.iter().map(|d| format!("d{d}")).collect();
        maps.push(format!("affine_map<{head} -> ({})>", od.join(", ")));
        let iters: Vec<&str> = red.iter().map(|r| if *r { "\"reduction\"" } else { "\"parallel\"" }).collect();
        // The body: an expression of the inputs and the loop indices.
        let mut body = String::new();
        let mut args: Vec<(String, Bound)> = operands.iter().map(|v| (self.fresh(), v.b)).collect();
        let acc = (self.fresh(), init.b);
        let mut block: Vec<String> = args.iter().map(|(a, _)| format!("{a}: {}", et.name())).collect();
        block.push(format!("{}: {}", acc.0, et.name()));
        if self.chance(50) {
            let d = self.rng.below(n as u64) as usize;
            let (i, c) = (self.fresh(), self.fresh());
            let _ = writeln!(body, "    {i} = linalg.index {d} : index");
            let _ = writeln!(body, "    {c} = arith.index_cast {i} : index to i32");
            let x = if et.float() {
                let f = self.fresh();
                let _ = writeln!(body, "    {f} = arith.sitofp {c} : i32 to f32");
                f
            } else {
                c
            };
            args.push((x, Bound { mag: sizes[d] as f64, frac: 0 }));
        }
        let ops = self.between(0, 4) as usize;
        let (x, xb) = self.expr(&mut body, &args, et, ops);
        let nred: i64 = (0..n).filter(|&d| red[d]).map(|d| sizes[d]).product();
        let (y, yb) = if red.iter().any(|r| *r) || self.chance(30) {
            let Some(y) = self.combine(&mut body, (&acc.0, acc.1), (&x, xb), nred, et) else { return false };
            let b = if et.float() { acc.1.add(xb.times(nred)).join(acc.1.join(xb)) } else { Bound::INT };
            (y, b)
        } else {
            (x, xb)
        };
        let tail = format!(" {{\n  ^bb0({}):\n{body}    linalg.yield {y} : {}\n  }}", block.join(", "), et.name());
        let head = format!(
            "linalg.generic {{indexing_maps = [{}], iterator_types = [{}]}}",
            maps.join(", "),
            iters.join(", ")
        );
        let loops = sizes.iter().copied().zip(red.iter().copied()).collect();
        let dom = Domain { loops, window: windowed, index: body.contains("linalg.index") };
        self.structured(&head, &operands, Out { v: init, tail, arrow: true }, yb, dom);
        true
    }

    /// A contraction: matmul (with transposed operands through its
    /// indexing maps), batch_matmul, matvec, vecmat, dot, batch_reduce_matmul.
    fn matmul(&mut self) -> bool {
        let et = self.et();
        let (bt, m, k, n) = (self.between(1, 3), self.between(1, 4), self.between(1, 4), self.between(1, 4));
        let maps = |a: &str, b: &str| {
            format!(
                "linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> ({a})>, \
                 affine_map<(d0, d1, d2) -> ({b})>, affine_map<(d0, d1, d2) -> (d0, d1)>]"
            )
        };
        let (p, r) = (false, true);
        let mn = vec![(m, p), (n, p), (k, r)];
        let (head, sa, sb, sc, depth, loops) = match self.rng.below(8) {
            0 => ("linalg.matmul".to_string(), vec![m, k], vec![k, n], vec![m, n], k, mn),
            1 => (maps("d2, d0", "d2, d1"), vec![k, m], vec![k, n], vec![m, n], k, mn),
            2 => (maps("d0, d2", "d1, d2"), vec![m, k], vec![n, k], vec![m, n], k, mn),
            3 => {
                let l = vec![(bt, p), (m, p), (n, p), (k, r)];
                ("linalg.batch_matmul".into(), vec![bt, m, k], vec![bt, k, n], vec![bt, m, n], k, l)
            }
            4 => ("linalg.matvec".into(), vec![m, k], vec![k], vec![m], k, vec![(m, p), (k, r)]),
            5 => ("linalg.vecmat".into(), vec![k], vec![k, n], vec![n], k, vec![(n, p), (k, r)]),
            6 => ("linalg.dot".into(), vec![k], vec![k], vec![], k, vec![(k, r)]),
            _ => {
                let l = vec![(bt, r), (m, p), (n, p), (k, r)];
                ("linalg.batch_reduce_matmul".into(), vec![bt, m, k], vec![bt, k, n], vec![m, n], bt * k, l)
            }
        };
        let (da, db) = (self.dyn_dims(sa.len()), self.dyn_dims(sb.len()));
        let (a, b) = (self.operand(&sa, &da, et), self.operand(&sb, &db, et));
        let init = self.init(&sc, et);
        let bound = init.b.add(a.b.mul(b.b).times(depth));
        if et.float() && !bound.exact() {
            return false;
        }
        let dom = Domain { loops, window: false, index: false };
        self.structured(&head, &[a, b], Out { v: init, tail: String::new(), arrow: true }, bound, dom);
        true
    }

    /// A window over `n` spatial dimensions (strides and dilations 1 when
    /// `unit`).
    fn windows(&mut self, n: usize, unit: bool) -> Windows {
        let (mut o, mut k, mut s, mut d, mut i) = (vec![], vec![], vec![], vec![], vec![]);
        for _ in 0..n {
            let (oo, kk) = (self.between(1, 3), self.between(1, 3));
            let (ss, dd) = if unit { (1, 1) } else { (self.between(1, 2), self.between(1, 2)) };
            i.push((oo - 1) * ss + (kk - 1) * dd + 1);
            o.push(oo);
            k.push(kk);
            s.push(ss);
            d.push(dd);
        }
        Windows { out: o, kernel: k, stride: s, dilation: d, input: i }
    }

    /// ` {dilations = ..., strides = ...}` for `n` spatial dimensions.
    fn window_attrs(s: &[i64], d: &[i64]) -> String {
        let list = |v: &[i64]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ");
        let n = s.len();
        format!(
            " {{dilations = dense<[{}]> : tensor<{n}xi64>, strides = dense<[{}]> : tensor<{n}xi64>}}",
            list(d),
            list(s)
        )
    }

    /// A convolution: 1-D and 2-D, channels last or first, depthwise, and
    /// the plain `conv_2d`, with strides and dilations.
    fn conv(&mut self) -> bool {
        let et = self.et();
        let variant = self.rng.below(5);
        let sp = if variant == 0 { 1 } else { 2 };
        let Windows { out: o, kernel: k, stride: s, dilation: d, input: i } = self.windows(sp, variant == 4);
        let (nb, c, f) = (self.between(1, 2), self.between(1, 2), self.between(1, 2));
        let (name, si, sf, so, depth) = match variant {
            0 => ("conv_1d_nwc_wcf", vec![nb, i[0], c], vec![k[0], c, f], vec![nb, o[0], f], k[0] * c),
            1 => (
                "conv_2d_nhwc_hwcf",
                vec![nb, i[0], i[1], c],
                vec![k[0], k[1], c, f],
                vec![nb, o[0], o[1], f],
                k[0] * k[1] * c,
            ),
            2 => (
                "conv_2d_nchw_fchw",
                vec![nb, c, i[0], i[1]],
                vec![f, c, k[0], k[1]],
                vec![nb, f, o[0], o[1]],
                k[0] * k[1] * c,
            ),
            3 => (
                "depthwise_conv_2d_nhwc_hwc",
                vec![nb, i[0], i[1], c],
                vec![k[0], k[1], c],
                vec![nb, o[0], o[1], c],
                k[0] * k[1],
            ),
            _ => ("conv_2d", vec![i[0], i[1]], vec![k[0], k[1]], vec![o[0], o[1]], k[0] * k[1]),
        };
        let (p, r) = (false, true);
        // The iteration domains of LLVM 22's OpDSL definitions.
        let loops = match variant {
            0 => vec![(nb, p), (o[0], p), (f, p), (k[0], r), (c, r)],
            1 => vec![(nb, p), (o[0], p), (o[1], p), (f, p), (k[0], r), (k[1], r), (c, r)],
            2 => vec![(nb, p), (f, p), (o[0], p), (o[1], p), (c, r), (k[0], r), (k[1], r)],
            3 => vec![(nb, p), (o[0], p), (o[1], p), (c, p), (k[0], r), (k[1], r)],
            _ => vec![(o[0], p), (o[1], p), (k[0], r), (k[1], r)],
        };
        let attrs = if variant == 4 { String::new() } else { Self::window_attrs(&s, &d) };
        let (di, df) = (self.dyn_dims(si.len()), self.dyn_dims(sf.len()));
        let (x, w) = (self.operand(&si, &di, et), self.operand(&sf, &df, et));
        let init = self.init(&so, et);
        let bound = init.b.add(x.b.mul(w.b).times(depth));
        if et.float() && !bound.exact() {
            return false;
        }
        self.structured(
            &format!("linalg.{name}{attrs}"),
            &[x, w],
            Out { v: init, tail: String::new(), arrow: true },
            bound,
            Domain { loops, window: true, index: false },
        );
        true
    }

    /// A pooling op (sum, max, min, unsigned max and min on integers); its
    /// kernel operand only gives the window's shape.
    fn pooling(&mut self) -> bool {
        let et = self.et();
        let ints = ["nhwc_max_unsigned", "nhwc_min_unsigned", "nwc_max_unsigned"];
        let all = ["nhwc_sum", "nhwc_max", "nhwc_min", "nchw_sum", "nchw_max", "nwc_sum", "nwc_max", "nwc_min"];
        let kind = if !et.float() && self.chance(25) { self.pick_of(&ints) } else { self.pick_of(&all) };
        let sp = if kind.starts_with("nwc") { 1 } else { 2 };
        let Windows { out: o, kernel: k, stride: s, dilation: d, input: i } = self.windows(sp, false);
        let (nb, c) = (self.between(1, 2), self.between(1, 3));
        let (p, r) = (false, true);
        let (si, so, loops) = match kind.get(..4) {
            Some("nhwc") => (
                vec![nb, i[0], i[1], c],
                vec![nb, o[0], o[1], c],
                vec![(nb, p), (o[0], p), (o[1], p), (c, p), (k[0], r), (k[1], r)],
            ),
            Some("nchw") => (
                vec![nb, c, i[0], i[1]],
                vec![nb, c, o[0], o[1]],
                vec![(nb, p), (c, p), (o[0], p), (o[1], p), (k[0], r), (k[1], r)],
            ),
            _ => (vec![nb, i[0], c], vec![nb, o[0], c], vec![(nb, p), (o[0], p), (c, p), (k[0], r)]),
        };
        let di = self.dyn_dims(si.len());
        let x = self.operand(&si, &di, et);
        let fixed = vec![false; k.len()];
        let kernel = self.filled(&k, &fixed, et, None);
        let init = self.init(&so, et);
        let window: i64 = k.iter().product();
        let bound = if kind.contains("sum") { init.b.add(x.b.times(window)) } else { init.b.join(x.b) };
        if et.float() && !bound.exact() {
            return false;
        }
        let head = format!("linalg.pooling_{kind}{}", Self::window_attrs(&s, &d));
        let dom = Domain { loops, window: true, index: false };
        self.structured(&head, &[x, kernel], Out { v: init, tail: String::new(), arrow: true }, bound, dom);
        true
    }

    fn transpose(&mut self) -> bool {
        let x = self.any(None, 1..=4);
        let perm = self.shuffled(x.rank());
        let shape: Vec<i64> = perm.iter().map(|&p| x.shape[p]).collect();
        let dynamic: Vec<bool> = perm.iter().map(|&p| x.dynamic[p]).collect();
        let init = self.init_typed(&shape, &dynamic, x.et);
        let p: Vec<String> = perm.iter().map(|p| p.to_string()).collect();
        let tail = format!(" permutation = [{}]", p.join(", "));
        let b = x.b;
        let dom = Domain::parallel(&shape);
        self.structured("linalg.transpose", &[x], Out { v: init, tail, arrow: false }, b, dom);
        true
    }

    fn broadcast(&mut self) -> bool {
        let x = self.any(None, 0..=2);
        let added = self.between(1, 2) as usize;
        let rank = x.rank() + added;
        let mut new: Vec<usize> = self.shuffled(rank)[..added].to_vec();
        new.sort_unstable();
        let (mut shape, mut dynamic, mut from) = (Vec::new(), Vec::new(), x.shape.iter().zip(&x.dynamic));
        for d in 0..rank {
            if new.contains(&d) {
                shape.push(self.between(1, 3));
                dynamic.push(self.chance(20));
            } else {
                let (s, dy) = from.next().unwrap_or((&1, &false));
                shape.push(*s);
                dynamic.push(*dy);
            }
        }
        if shape.iter().product::<i64>() > super::tensor::MAX_ELEMS * 2 {
            return false;
        }
        let init = self.init_typed(&shape, &dynamic, x.et);
        let ds: Vec<String> = new.iter().map(|d| d.to_string()).collect();
        let tail = format!(" dimensions = [{}]", ds.join(", "));
        let b = x.b;
        let dom = Domain::parallel(&shape);
        self.structured("linalg.broadcast", &[x], Out { v: init, tail, arrow: false }, b, dom);
        true
    }

    fn reduce(&mut self) -> bool {
        let x = self.any(None, 1..=3);
        let mut dims: Vec<usize> = (0..x.rank()).filter(|_| self.chance(50)).collect();
        if dims.is_empty() {
            dims.push(self.rng.below(x.rank() as u64) as usize);
        }
        let shape: Vec<i64> = (0..x.rank()).filter(|d| !dims.contains(d)).map(|d| x.shape[d]).collect();
        let dynamic: Vec<bool> = (0..x.rank()).filter(|d| !dims.contains(d)).map(|d| x.dynamic[d]).collect();
        let n: i64 = dims.iter().map(|&d| x.shape[d]).product();
        let init = self.init_typed(&shape, &dynamic, x.et);
        let (a, acc) = (self.fresh(), self.fresh());
        let mut body = String::new();
        let Some(r) = self.combine(&mut body, (&acc, init.b), (&a, x.b), n, x.et) else { return false };
        let t = x.et.name();
        let ds: Vec<String> = dims.iter().map(|d| d.to_string()).collect();
        let tail = format!(
            " dimensions = [{}]\n  ({a}: {t}, {acc}: {t}) {{\n{body}    linalg.yield {r} : {t}\n  }}",
            ds.join(", ")
        );
        let b = if x.et.float() { init.b.add(x.b.times(n)).join(init.b.join(x.b)) } else { Bound::INT };
        let loops = x.shape.iter().enumerate().map(|(d, &s)| (s, dims.contains(&d))).collect();
        let dom = Domain { loops, window: false, index: false };
        self.structured("linalg.reduce", &[x], Out { v: init, tail, arrow: false }, b, dom);
        true
    }

    fn map(&mut self) -> bool {
        let x = self.any(None, 0..=3);
        let mut ins = vec![x.clone()];
        if self.chance(60) {
            ins.push(self.operand(&x.shape, &x.dynamic, x.et));
        }
        let init = self.init_typed(&x.shape, &x.dynamic, x.et);
        let args: Vec<(String, Bound)> = ins.iter().map(|v| (self.fresh(), v.b)).collect();
        let acc = self.fresh();
        let mut body = String::new();
        let ops = self.between(1, 4) as usize;
        let (y, b) = self.expr(&mut body, &args, x.et, ops);
        let t = x.et.name();
        let mut block: Vec<String> = args.iter().map(|(a, _)| format!("{a}: {t}")).collect();
        block.push(format!("{acc}: {t}"));
        let tail = format!("\n  ({}) {{\n{body}    linalg.yield {y} : {t}\n  }}", block.join(", "));
        let dom = Domain::parallel(&x.shape);
        self.structured("linalg.map", &ins, Out { v: init, tail, arrow: false }, b, dom);
        true
    }

    /// `linalg.elementwise` of a kind, or a named elementwise op.
    fn elementwise(&mut self) -> bool {
        let x = self.any(None, 0..=3);
        let d = self.dyn_dims(x.rank());
        let y = self.operand(&x.shape, &d, x.et);
        let float = x.et.float();
        let binary: &[(&str, &str)] = &[
            ("linalg.elementwise kind=#linalg.elementwise_kind<add>", "add"),
            ("linalg.elementwise kind=#linalg.elementwise_kind<sub>", "add"),
            ("linalg.elementwise kind=#linalg.elementwise_kind<mul>", "mul"),
            ("linalg.elementwise kind=#linalg.elementwise_kind<max_signed>", "join"),
            ("linalg.elementwise kind=#linalg.elementwise_kind<min_signed>", "join"),
            ("linalg.add", "add"),
            ("linalg.sub", "add"),
            ("linalg.mul", "mul"),
            ("linalg.max", "join"),
            ("linalg.min", "join"),
        ];
        let unary: &[(&str, &str)] = &[
            ("linalg.elementwise kind=#linalg.elementwise_kind<abs>", "same"),
            ("linalg.elementwise kind=#linalg.elementwise_kind<floor>", "round"),
            ("linalg.elementwise kind=#linalg.elementwise_kind<ceil>", "round"),
            ("linalg.elementwise kind=#linalg.elementwise_kind<negf>", "same"),
            ("linalg.elementwise kind=#linalg.elementwise_kind<square>", "square"),
            ("linalg.abs", "same"),
            ("linalg.floor", "round"),
            ("linalg.ceil", "round"),
            ("linalg.negf", "same"),
            ("linalg.square", "square"),
        ];
        let (head, how, ins) = if float && self.chance(40) {
            let (h, w) = self.pick_of(unary);
            (h, w, vec![x.clone()])
        } else if self.chance(15) {
            ("linalg.copy", "same", vec![x.clone()])
        } else {
            let (h, w) = self.pick_of(binary);
            (h, w, vec![x.clone(), y.clone()])
        };
        let b = match how {
            "add" => x.b.add(y.b),
            "mul" => x.b.mul(y.b),
            "join" => x.b.join(y.b),
            "square" => x.b.mul(x.b),
            "round" => Bound { mag: x.b.mag + 1.0, frac: 0 },
            _ => x.b,
        };
        if float && !b.exact() {
            return false;
        }
        let init = self.init(&x.shape, x.et);
        let dom = Domain::parallel(&x.shape);
        self.structured(head, &ins, Out { v: init, tail: String::new(), arrow: true }, b, dom);
        true
    }
}

/// The linalg-kind program for `o`, attempt `attempt`: on memrefs for one
/// seed in three, else on tensors (with some tensor-kind ops between).
pub(super) fn generate(o: &Options, attempt: u64) -> String {
    program(o, attempt, false)
}

/// The linalg-transform-kind program for `o`: the linalg kind's program of
/// the same seed and attempt, and a transform schedule for its ops
/// (`gen/schedule.rs`).
pub(super) fn generate_transform(o: &Options, attempt: u64) -> String {
    program(o, attempt, true)
}

/// The linalg-kind program, with a schedule when `transform`.
fn program(o: &Options, attempt: u64, transform: bool) -> String {
    let seed = o.seed ^ 0x6C69_6E61_6C67_2D67 ^ attempt.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mem = crate::args::SplitMix(seed).below(3) == 0;
    let mut g = Gen::new(seed, mem);
    let (mut made, mut tries) = (0, 0);
    while made < o.size.max(1) && tries < 20 * o.size.max(1) {
        tries += 1;
        if g.linalg_step() {
            made += 1;
        }
    }
    let header = format!(
        "// mlir-interp gen --seed {} --kind {} --size {} ({})",
        o.seed,
        o.kind.name(),
        o.size,
        if mem { "on memrefs" } else { "on tensors" }
    );
    let ops = std::mem::take(&mut g.structured_ops);
    let text = g.finish(&header, attempt);
    if transform {
        return text + &super::schedule::schedule(&ops, seed);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_fit_their_inputs() {
        let mut g = Gen::new(4, false);
        for _ in 0..100 {
            let w = g.windows(2, false);
            for j in 0..2 {
                assert_eq!((w.out[j] - 1) * w.stride[j] + (w.kernel[j] - 1) * w.dilation[j], w.input[j] - 1);
            }
        }
    }
}
