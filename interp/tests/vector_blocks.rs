//! The vector ops' block path (`vector.load`, `vector.store` and
//! minor-identity `transfer_read` / `transfer_write` moving whole rows of
//! bytes, `interp/src/block.rs`) computes what the per-element path
//! computes: random sources (tensors, and memref views that are plain,
//! every other element, reversed, broadcast by a zero stride, or partly
//! never written), random vector shapes over their trailing dims and
//! random start indices (past either end included), run both ways: the
//! same returned bits or the same error, and the same op count. An
//! observer, even one that does nothing, sends every access down the
//! per-element path.

#[path = "common/paths.rs"]
mod paths;
use paths::run;
use proptest::prelude::*;

/// How the accessed memref views its buffer.
#[derive(Clone, Copy, Debug)]
enum Layout {
    /// A tensor (transfers only).
    Tensor,
    /// The whole buffer, row-major.
    Plain,
    /// Every other element of a buffer twice as large in each dim.
    Strided,
    /// The last dim backwards (a negative stride).
    Reversed,
    /// The first dim at stride 0: every row is the same memory.
    Broadcast,
    /// A fresh allocation where only every third element was written.
    Partial,
}

/// The access under test.
#[derive(Clone, Copy, Debug)]
enum Access {
    Load,
    Store,
    Read,
    Write,
}

fn list<T: ToString>(v: &[T]) -> String {
    v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ")
}

fn dims(s: &[usize]) -> String {
    s.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("x")
}

fn shaped(kind: &str, s: &[usize], e: &str, layout: &str) -> String {
    if s.is_empty() {
        format!("{kind}<{e}{layout}>")
    } else {
        format!("{kind}<{}x{e}{layout}>", dims(s))
    }
}

/// `n` distinct-looking elements of type `e` as a dense literal.
fn literal(e: &str, n: usize, seed: u32) -> String {
    let items: Vec<String> = (0..n as u32)
        .map(|k| {
            let x = k.wrapping_mul(2_654_435_761).wrapping_add(seed);
            match e {
                "f64" => format!("{:.1}", f64::from(x % 2000) - 1000.0),
                "i8" => ((x % 256) as i64 - 128).to_string(),
                _ => (x as i32).to_string(),
            }
        })
        .collect();
    format!("dense<[{}]>", items.join(", "))
}

/// The program: the access at `base` of a `vshape` vector on a source of
/// `shape`, returning the vector read, or the whole written buffer.
fn program(acc: Access, lay: Layout, e: &str, shape: &[usize], vshape: &[usize], base: &[i64], seed: u32) -> String {
    let rank = shape.len();
    // `vector.load` and `vector.store` need a unit-stride innermost dim
    // (the verifier's rule): their strided view spaces out the outer dims
    // only, and a reversed or broadcast innermost dim is a plain one.
    let memory_op = matches!(acc, Access::Load | Access::Store);
    let lay = match lay {
        Layout::Tensor | Layout::Reversed if memory_op => Layout::Plain,
        Layout::Broadcast if memory_op && rank == 1 => Layout::Plain,
        _ => lay,
    };
    let spread = |d: usize| if memory_op && d == rank - 1 { 1 } else { 2 };
    let big: Vec<usize> = match lay {
        Layout::Strided => shape.iter().enumerate().map(|(d, n)| spread(d) * n).collect(),
        Layout::Broadcast => shape[1..].to_vec(),
        _ => shape.to_vec(),
    };
    let n: usize = big.iter().product();
    let (flat, ft) = (shaped("tensor", &[n], e, ""), shaped("memref", &[n], e, ""));
    let (bt, ct) = (shaped("memref", &big, e, ""), shaped("tensor", &big, e, ""));
    let vt = shaped("vector", vshape, e, "");
    let mut s = String::from("func.func @main() -> ");
    let ret = if matches!(acc, Access::Load | Access::Read) { vt.clone() } else { ct.clone() };
    s.push_str(&format!("{ret} {{\n"));
    for (d, b) in base.iter().enumerate() {
        s.push_str(&format!("  %i{d} = arith.constant {b} : index\n"));
    }
    let idx = (0..rank).map(|d| format!("%i{d}")).collect::<Vec<_>>().join(", ");
    s.push_str(&format!("  %c = arith.constant {} : {flat}\n", literal(e, n, seed)));
    // The stored vector: a flat constant, shaped.
    let lanes: usize = vshape.iter().product();
    let flat_vt = shaped("vector", &[lanes], e, "");
    s.push_str(&format!("  %v0 = arith.constant {} : {flat_vt}\n", literal(e, lanes, seed ^ 77)));
    s.push_str(&format!("  %v = vector.shape_cast %v0 : {flat_vt} to {vt}\n"));
    let pad = if e == "f64" { "-7.5" } else { "-7" };
    s.push_str(&format!("  %pad = arith.constant {pad} : {e}\n"));
    if let Layout::Tensor = lay {
        let tt = shaped("tensor", shape, e, "");
        s.push_str(&format!("  %t = tensor.reshape %c(%shape) : ({flat}, tensor<{rank}xindex>) -> {tt}\n"));
        let shape_lit = format!("dense<[{}]>", list(shape));
        s = s.replacen("  %c = ", &format!("  %shape = arith.constant {shape_lit} : tensor<{rank}xindex>\n  %c = "), 1);
        let perm = format!("affine_map<({}) -> ({})>", dim_names(rank, 0), dim_names(rank, rank - vshape.len()));
        match acc {
            Access::Read => s.push_str(&format!(
                "  %r = vector.transfer_read %t[{idx}], %pad {{permutation_map = {perm}}} : {tt}, {vt}\n  return %r : {vt}\n}}\n"
            )),
            _ => s.push_str(&format!(
                "  %w = vector.transfer_write %v, %t[{idx}] {{permutation_map = {perm}}} : {vt}, {tt}\n  return %w : {tt}\n}}\n"
            )),
        }
        return s;
    }
    // The buffer, as a flat memref cast to its shape.
    if let Layout::Partial = lay {
        s.push_str(&format!("  %f = memref.alloc() : {ft}\n"));
        for k in (0..n).step_by(3) {
            s.push_str(&format!("  %k{k} = arith.constant {k} : index\n  %e{k} = tensor.extract %c[%k{k}] : {flat}\n  memref.store %e{k}, %f[%k{k}] : {ft}\n"));
        }
    } else {
        s.push_str(&format!("  %f = bufferization.to_buffer %c : {flat} to {ft}\n"));
    }
    let row_major: Vec<usize> = (0..big.len()).map(|d| big[d + 1..].iter().product()).collect();
    s.push_str(&format!(
        "  %b = memref.reinterpret_cast %f to offset: [0], sizes: [{}], strides: [{}] : {ft} to {bt}\n",
        list(&big),
        list(&row_major)
    ));
    let (offset, strides): (i64, Vec<i64>) = match lay {
        Layout::Strided => (0, row_major.iter().enumerate().map(|(d, s)| (spread(d) * s) as i64).collect()),
        Layout::Reversed => {
            let mut st: Vec<i64> = row_major.iter().map(|s| *s as i64).collect();
            st[rank - 1] = -1;
            (shape[rank - 1] as i64 - 1, st)
        }
        Layout::Broadcast => (0, std::iter::once(0).chain(row_major.iter().map(|s| *s as i64)).collect()),
        _ => (0, row_major.iter().map(|s| *s as i64).collect()),
    };
    let at = shaped("memref", shape, e, &format!(", strided<[{}], offset: {offset}>", list(&strides)));
    s.push_str(&format!(
        "  %m = memref.reinterpret_cast %f to offset: [{offset}], sizes: [{}], strides: [{}] : {ft} to {at}\n",
        list(shape),
        list(&strides)
    ));
    let perm = format!("affine_map<({}) -> ({})>", dim_names(rank, 0), dim_names(rank, rank - vshape.len()));
    let tail = format!("  %r = bufferization.to_tensor %b restrict : {bt} to {ct}\n  return %r : {ct}\n}}\n");
    match acc {
        Access::Load => s.push_str(&format!("  %r = vector.load %m[{idx}] : {at}, {vt}\n  return %r : {vt}\n}}\n")),
        Access::Read => s.push_str(&format!(
            "  %r = vector.transfer_read %m[{idx}], %pad {{permutation_map = {perm}}} : {at}, {vt}\n  return %r : {vt}\n}}\n"
        )),
        Access::Store => s.push_str(&format!("  vector.store %v, %m[{idx}] : {at}, {vt}\n{tail}")),
        Access::Write => s.push_str(&format!(
            "  vector.transfer_write %v, %m[{idx}] {{permutation_map = {perm}}} : {vt}, {at}\n{tail}"
        )),
    }
    s
}

/// `d{from}, ..., d{rank-1}` (all dims from `from`), or `d0, ...` for the
/// map's inputs when `from` is 0.
fn dim_names(rank: usize, from: usize) -> String {
    (from..rank).map(|d| format!("d{d}")).collect::<Vec<_>>().join(", ")
}

/// A case: the access, the layout, the element type, the source shape,
/// how many trailing dims the vector covers, per dim a start and a vector
/// extent, and a seed.
type Case = (Access, Layout, &'static str, Vec<usize>, usize, Vec<(i64, usize)>, u32);

fn case() -> impl Strategy<Value = Case> {
    let acc = prop_oneof![Just(Access::Load), Just(Access::Store), Just(Access::Read), Just(Access::Write)];
    let lay = prop_oneof![
        Just(Layout::Tensor),
        Just(Layout::Plain),
        Just(Layout::Strided),
        Just(Layout::Reversed),
        Just(Layout::Broadcast),
        Just(Layout::Partial),
    ];
    let el = prop_oneof![Just("i32"), Just("f64"), Just("i8")];
    (acc, lay, el, prop::collection::vec(1usize..5, 1..4)).prop_flat_map(|(a, l, e, shape)| {
        let rank = shape.len();
        // Per dim: a start from one before the dim to one past it, and a
        // vector extent up to one past what fits.
        let picks: Vec<_> = shape.iter().map(|&d| (-1i64..=d as i64, 1usize..=d + 1)).collect();
        (Just(a), Just(l), Just(e), Just(shape), 0..=rank, picks, any::<u32>())
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn blocks_are_what_the_lanes_give((acc, lay, e, shape, k, picks, seed) in case()) {
        // Mostly in-bounds starts: clamp half of the cases into range.
        let base: Vec<i64> = picks
            .iter()
            .zip(&shape)
            .map(|((b, _), d)| if seed % 2 == 0 { (*b).clamp(0, *d as i64 - 1) } else { *b })
            .collect();
        let rank = shape.len();
        let vshape: Vec<usize> = picks[rank - k..]
            .iter()
            .zip(&shape[rank - k..])
            .zip(&base[rank - k..])
            .map(|(((_, n), d), b)| if seed % 3 == 0 { *n } else { (*n).min((*d as i64 - b.max(&0)).max(1) as usize) })
            .collect();
        let text = program(acc, lay, e, &shape, &vshape, &base, seed);
        let fast = run(&text, false);
        let general = run(&text, true);
        prop_assert_eq!(&fast, &general, "{}", text);
    }
}

/// One case of each access, checked to take the block path's answer from
/// the per-element path's on a plain view: the test above compares
/// something.
#[test]
fn a_plain_row_reads_its_elements() {
    let text = program(Access::Load, Layout::Plain, "i32", &[2, 4], &[3], &[1, 1], 0);
    let (out, _) = run(&text, false);
    // Element k of the literal is k * 2654435761 (wrapping): elements 5,
    // 6 and 7 of the 2x4 buffer, shown as their little-endian bytes.
    let bytes: Vec<u8> = (5u32..8).flat_map(|k| k.wrapping_mul(2_654_435_761).to_le_bytes()).collect();
    assert!(out.contains(&format!("bytes: {bytes:?}")), "{bytes:?} not in {out}\n{text}");
}
