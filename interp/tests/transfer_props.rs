//! Property tests: `vector.transfer_read` / `vector.transfer_write` agree
//! with a direct ndarray model on random source shapes, start indices
//! (including starts past the end), permutation maps (permuted, projected
//! and broadcast dims), `in_bounds` flags, masks and padding. Each case
//! builds a small MLIR function on tensors, runs it on the engine and
//! compares the returned array; a memref variant checks that reads through
//! memory agree with reads from the tensor.

use ndarray::{ArrayD, Dimension, IxDyn};
use proptest::prelude::*;

mod common;
use common::run_int_array as run;

const PAD: i64 = -1;

fn iota(shape: &[usize]) -> ArrayD<i64> {
    let n: usize = shape.iter().product();
    ArrayD::from_shape_vec(IxDyn(shape), (0..n as i64).map(|x| x + 100).collect()).unwrap()
}

fn ty(kind: &str, shape: &[usize], elem: &str) -> String {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    if shape.is_empty() {
        return format!("{kind}<{elem}>");
    }
    format!("{kind}<{}x{elem}>", dims.join("x"))
}

fn literal<T: ToString + Clone>(a: &ArrayD<T>) -> String {
    fn go<T: ToString + Clone>(a: ndarray::ArrayViewD<T>) -> String {
        if a.ndim() == 0 {
            return a.iter().next().unwrap().to_string();
        }
        let parts: Vec<String> = a.outer_iter().map(go).collect();
        format!("[{}]", parts.join(", "))
    }
    go(a.view())
}

/// One random transfer: source shape, per-vector-dim source dim (`None`:
/// broadcast) and size, start indices, in_bounds, and an optional mask.
#[derive(Clone, Debug)]
struct Case {
    shape: Vec<usize>,
    dims: Vec<Option<usize>>,
    vshape: Vec<usize>,
    start: Vec<usize>,
    in_bounds: Vec<bool>,
    mask: Option<Vec<bool>>,
}

impl Case {
    fn map(&self) -> String {
        let ds: Vec<String> = (0..self.shape.len()).map(|d| format!("d{d}")).collect();
        let rs: Vec<String> = self.dims.iter().map(|d| d.map_or("0".into(), |d| format!("d{d}"))).collect();
        format!("affine_map<({}) -> ({})>", ds.join(", "), rs.join(", "))
    }

    fn in_bounds_attr(&self) -> String {
        let v: Vec<&str> = self.in_bounds.iter().map(|b| if *b { "true" } else { "false" }).collect();
        format!("[{}]", v.join(", "))
    }

    /// The mask's shape: walked vector dims in source-dim order.
    fn mask_order(&self) -> Vec<usize> {
        let mut w: Vec<(usize, usize)> = self.dims.iter().enumerate().filter_map(|(j, d)| d.map(|d| (d, j))).collect();
        w.sort();
        w.into_iter().map(|(_, j)| j).collect()
    }

    fn mask_shape(&self) -> Vec<usize> {
        self.mask_order().iter().map(|j| self.vshape[*j]).collect()
    }

    fn mask_on(&self, pos: &[usize]) -> bool {
        let Some(m) = &self.mask else { return true };
        let lin = self.mask_order().iter().fold(0, |acc, j| acc * self.vshape[*j] + pos[*j]);
        m[lin]
    }

    /// The source index of `pos`, or `None` when a walked dim runs off the end.
    fn source(&self, pos: &[usize]) -> Option<Vec<usize>> {
        let mut at = self.start.clone();
        for (j, d) in self.dims.iter().enumerate() {
            if let Some(d) = d {
                at[*d] += pos[j];
                if at[*d] >= self.shape[*d] {
                    return None;
                }
            }
        }
        Some(at)
    }

    fn mask_decl(&self) -> (String, String) {
        match &self.mask {
            None => (String::new(), String::new()),
            Some(m) => {
                let ms = self.mask_shape();
                let a = ArrayD::from_shape_vec(IxDyn(&ms), m.clone()).unwrap();
                (format!("  %m = arith.constant dense<{}> : {}\n", literal(&a), ty("vector", &ms, "i1")), ", %m".into())
            }
        }
    }

    fn indices_decl(&self) -> (String, String) {
        let decl: String =
            self.start.iter().enumerate().map(|(d, i)| format!("  %i{d} = arith.constant {i} : index\n")).collect();
        let uses: Vec<String> = (0..self.start.len()).map(|d| format!("%i{d}")).collect();
        (decl, uses.join(", "))
    }
}

/// A random case; `broadcast` allows broadcast dims (reads only).
fn case(broadcast: bool) -> impl Strategy<Value = Case> {
    prop::collection::vec(1usize..5, 1..=3)
        .prop_flat_map(move |shape| {
            let r = shape.len();
            let perm = Just((0..r).collect::<Vec<usize>>()).prop_shuffle();
            (
                Just(shape),
                perm,
                1..=r.min(2),
                prop::collection::vec((0usize..6, 1usize..5, any::<bool>(), any::<bool>()), 3),
            )
        })
        .prop_flat_map(move |(shape, perm, k, seeds)| {
            let mut dims = Vec::new();
            let mut vshape = Vec::new();
            let mut start: Vec<usize> = shape.iter().zip(&seeds).map(|(n, s)| s.0 % n).collect();
            let mut in_bounds = Vec::new();
            for j in 0..k {
                let (s0, size, ib, bc) = seeds[j];
                if broadcast && bc && j + 1 < k {
                    dims.push(None);
                    vshape.push(size);
                    in_bounds.push(true);
                    continue;
                }
                let d = perm[j];
                dims.push(Some(d));
                vshape.push(size);
                // A walked dim may start past the end (up to 2 beyond) unless in bounds.
                start[d] = s0 % (shape[d] + 2);
                in_bounds.push(ib && start[d] + size <= shape[d]);
            }
            let walked = dims.iter().filter(|d| d.is_some()).count();
            let mask_len: usize = dims.iter().zip(&vshape).filter(|(d, _)| d.is_some()).map(|(_, n)| *n).product();
            let mask = if walked > 0 {
                prop::option::of(prop::collection::vec(any::<bool>(), mask_len)).boxed()
            } else {
                Just(None).boxed()
            };
            (Just(Case { shape, dims, vshape, start, in_bounds, mask: None }), mask)
        })
        .prop_map(|(mut c, mask)| {
            c.mask = mask;
            c
        })
}

fn model_read(c: &Case, src: &ArrayD<i64>) -> ArrayD<i64> {
    let mut out = ArrayD::from_elem(IxDyn(&c.vshape), PAD);
    for (pos, v) in out.indexed_iter_mut() {
        let pos = pos.slice().to_vec();
        if c.mask_on(&pos) {
            if let Some(at) = c.source(&pos) {
                *v = src[IxDyn(&at)];
            }
        }
    }
    out
}

fn model_write(c: &Case, dst: &ArrayD<i64>, v: &ArrayD<i64>) -> ArrayD<i64> {
    let mut out = dst.clone();
    for (pos, x) in v.indexed_iter() {
        let pos = pos.slice().to_vec();
        if c.mask_on(&pos) {
            if let Some(at) = c.source(&pos) {
                out[IxDyn(&at)] = *x;
            }
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn transfer_read_matches_the_model(c in case(true), through_memory in any::<bool>()) {
        let src = iota(&c.shape);
        let (idecl, iuse) = c.indices_decl();
        let (mdecl, muse) = c.mask_decl();
        let tty = ty("tensor", &c.shape, "i32");
        let vty = ty("vector", &c.vshape, "i32");
        let mut body = format!("  %t = arith.constant dense<{}> : {tty}\n  %p = arith.constant {PAD} : i32\n{idecl}{mdecl}", literal(&src));
        let (operand, sty) = if through_memory {
            let mty = ty("memref", &c.shape, "i32");
            body.push_str(&format!("  %s = bufferization.to_buffer %t : {tty} to {mty}\n"));
            ("%s", mty)
        } else {
            ("%t", tty)
        };
        body.push_str(&format!(
            "  %r = vector.transfer_read {operand}[{iuse}], %p{muse} {{in_bounds = {}, permutation_map = {}}} : {sty}, {vty}\n",
            c.in_bounds_attr(), c.map()
        ));
        prop_assert_eq!(run(&body, &vty), model_read(&c, &src));
    }

    #[test]
    fn transfer_write_matches_the_model(c in case(false)) {
        let dst = iota(&c.shape);
        let n: usize = c.vshape.iter().product();
        let v = ArrayD::from_shape_vec(IxDyn(&c.vshape), (0..n as i64).map(|x| -10 - x).collect()).unwrap();
        let (idecl, iuse) = c.indices_decl();
        let (mdecl, muse) = c.mask_decl();
        let tty = ty("tensor", &c.shape, "i32");
        let vty = ty("vector", &c.vshape, "i32");
        let body = format!(
            "  %t = arith.constant dense<{}> : {tty}\n  %v = arith.constant dense<{}> : {vty}\n{idecl}{mdecl}  %r = vector.transfer_write %v, %t[{iuse}]{muse} {{in_bounds = {}, permutation_map = {}}} : {vty}, {tty}\n",
            literal(&dst), literal(&v), c.in_bounds_attr(), c.map()
        );
        prop_assert_eq!(run(&body, &tty), model_write(&c, &dst, &v));
    }
}
