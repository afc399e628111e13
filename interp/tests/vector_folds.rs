//! `vector.multi_reduction` and `vector.contract` on host lanes
//! (`interp/src/fold.rs`) compute what the general per-lane path computes:
//! random shapes, reduction dims, combining kinds and contraction maps, on
//! f32/f64 edge values (NaN payloads, ±0, ±inf, subnormals, the largest
//! finite values) and wrapping i8/i32 values, run both ways: the same
//! returned bits or error, and the same op count. An observer, even one
//! that does nothing, sends every op down the general path.

#[path = "common/paths.rs"]
mod paths;
use paths::{run, F32};
use proptest::prelude::*;

/// An element type.
#[derive(Clone, Copy, Debug)]
enum Elem {
    F32,
    F64,
    I32,
    I8,
}

impl Elem {
    fn name(self) -> &'static str {
        match self {
            Elem::F32 => "f32",
            Elem::F64 => "f64",
            Elem::I32 => "i32",
            Elem::I8 => "i8",
        }
    }

    /// `n` elements from `seed` as a hex dense literal (little-endian).
    /// Mostly ordinary numbers, edge values where `edges` picks them.
    fn hex(self, n: usize, seed: u32, edges: bool) -> String {
        let mut s = String::from("\"0x");
        for k in 0..n as u32 {
            let x = k.wrapping_mul(2_654_435_761).wrapping_add(seed);
            let edge = edges && x % 5 == 0;
            let bytes: Vec<u8> = match self {
                Elem::F32 if edge => F32[(x / 5) as usize % F32.len()].to_le_bytes().to_vec(),
                Elem::F32 => (f32::from((x % 64) as u8) / 8.0 - 3.0).to_le_bytes().to_vec(),
                Elem::F64 if edge => {
                    let f = f32::from_bits(F32[(x / 5) as usize % F32.len()]);
                    // NaN payloads of f64 too: widen the f32 edge by bits.
                    if f.is_nan() {
                        (0x7FF8_0000_0000_0000u64 | u64::from(x)).to_le_bytes().to_vec()
                    } else {
                        f64::from(f).to_le_bytes().to_vec()
                    }
                }
                Elem::F64 => (f64::from(x % 64) / 8.0 - 3.0).to_le_bytes().to_vec(),
                Elem::I32 => (x as i32).to_le_bytes().to_vec(),
                Elem::I8 => vec![x as u8],
            };
            for b in bytes {
                s.push_str(&format!("{b:02X}"));
            }
        }
        s.push('"');
        s
    }
}

fn vty(shape: &[usize], e: Elem) -> String {
    if shape.is_empty() {
        return format!("vector<{}>", e.name());
    }
    format!("vector<{}x{}>", shape.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("x"), e.name())
}

/// A constant of `shape` (a scalar when `scalar`) named `%name`.
fn constant(name: &str, shape: &[usize], e: Elem, seed: u32, edges: bool, scalar: bool) -> String {
    let n: usize = shape.iter().product();
    if scalar {
        let t = format!("tensor<{}>", e.name());
        return format!(
            "  %{name}_t = arith.constant dense<{}> : {t}\n  %{name} = tensor.extract %{name}_t[] : {t}\n",
            e.hex(1, seed, edges)
        );
    }
    let flat = vty(&[n], e);
    format!(
        "  %{name}_f = arith.constant dense<{}> : {flat}\n  %{name} = vector.shape_cast %{name}_f : {flat} to {}\n",
        e.hex(n, seed, edges),
        vty(shape, e)
    )
}

const FLOAT_KINDS: [&str; 4] = ["add", "mul", "maximumf", "minimumf"];
const INT_KINDS: [&str; 9] = ["add", "mul", "and", "or", "xor", "minsi", "maxsi", "minui", "maxui"];

/// `vector.multi_reduction` of a `shape` source over the dims `red` picks.
fn reduction(e: Elem, shape: &[usize], red: &[bool], kind: usize, seed: u32, edges: bool) -> String {
    let kinds: &[&str] = if matches!(e, Elem::F32 | Elem::F64) { &FLOAT_KINDS } else { &INT_KINDS };
    let kind = kinds[kind % kinds.len()];
    let dims: Vec<usize> = (0..shape.len()).filter(|d| red[*d]).collect();
    let dims = if dims.is_empty() { vec![0] } else { dims };
    let par: Vec<usize> = (0..shape.len()).filter(|d| !dims.contains(d)).map(|d| shape[d]).collect();
    let scalar = par.is_empty();
    let rt = if scalar { e.name().to_string() } else { vty(&par, e) };
    let list = dims.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ");
    format!(
        "func.func @main() -> {rt} {{\n{}{}  %r = vector.multi_reduction <{kind}>, %src, %acc [{list}] : {} to {rt}\n  return %r : {rt}\n}}\n",
        constant("src", shape, e, seed, edges, false),
        constant("acc", &par, e, seed ^ 0x55, edges, scalar),
        vty(shape, e),
    )
}

/// `vector.contract` of one of a few map patterns with sizes `s`.
fn contraction(e: Elem, pattern: usize, s: [usize; 4], seed: u32, edges: bool) -> String {
    let [b, i, j, k] = s;
    // (maps, iterator types, lhs, rhs, acc shapes)
    let (maps, iters, lhs, rhs, acc): (&str, &str, Vec<usize>, Vec<usize>, Vec<usize>) = match pattern % 5 {
        0 => (
            "(i, j, k) -> (i, k), (i, j, k) -> (k, j), (i, j, k) -> (i, j)",
            "parallel, parallel, reduction",
            vec![i, k],
            vec![k, j],
            vec![i, j],
        ),
        1 => (
            "(i, j, k) -> (i, k), (i, j, k) -> (j, k), (i, j, k) -> (i, j)",
            "parallel, parallel, reduction",
            vec![i, k],
            vec![j, k],
            vec![i, j],
        ),
        2 => ("(k) -> (k), (k) -> (k), (k) -> ()", "reduction", vec![k], vec![k], vec![]),
        3 => ("(i, k) -> (i, k), (i, k) -> (k), (i, k) -> (i)", "parallel, reduction", vec![i, k], vec![k], vec![i]),
        _ => (
            "(b, i, j, k) -> (b, k, i), (b, i, j, k) -> (k, j), (b, i, j, k) -> (j, b, i)",
            "parallel, parallel, parallel, reduction",
            vec![b, k, i],
            vec![k, j],
            vec![j, b, i],
        ),
    };
    let maps: Vec<String> =
        maps.split("), ").map(|m| format!("affine_map<{}{}>", m, if m.ends_with(')') { "" } else { ")" })).collect();
    let iters: Vec<String> = iters.split(", ").map(|t| format!("#vector.iterator_type<{t}>")).collect();
    let scalar = acc.is_empty();
    let rt = if scalar { e.name().to_string() } else { vty(&acc, e) };
    format!(
        "func.func @main() -> {rt} {{\n{}{}{}  %r = vector.contract {{indexing_maps = [{}], iterator_types = [{}], kind = #vector.kind<add>}} %a, %b, %c : {}, {} into {rt}\n  return %r : {rt}\n}}\n",
        constant("a", &lhs, e, seed, edges, false),
        constant("b", &rhs, e, seed ^ 0x33, edges, false),
        constant("c", &acc, e, seed ^ 0x77, edges, scalar),
        maps.join(", "),
        iters.join(", "),
        vty(&lhs, e),
        vty(&rhs, e),
    )
}

fn elem() -> impl Strategy<Value = Elem> {
    prop_oneof![Just(Elem::F32), Just(Elem::F64), Just(Elem::I32), Just(Elem::I8)]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn reductions_fold_as_the_lanes_do(
        e in elem(),
        shape in prop::collection::vec(1usize..5, 1..4),
        red in prop::collection::vec(any::<bool>(), 3),
        kind in 0usize..9,
        seed in any::<u32>(),
        edges in any::<bool>(),
    ) {
        let text = reduction(e, &shape, &red, kind, seed, edges);
        prop_assert_eq!(run(&text, false), run(&text, true), "{}", text);
    }

    #[test]
    fn contractions_fold_as_the_lanes_do(
        f64s in any::<bool>(),
        pattern in 0usize..5,
        s in [1usize..4, 1usize..5, 1usize..5, 1usize..6],
        seed in any::<u32>(),
        edges in any::<bool>(),
    ) {
        let e = if f64s { Elem::F64 } else { Elem::F32 };
        let text = contraction(e, pattern, s, seed, edges);
        prop_assert_eq!(run(&text, false), run(&text, true), "{}", text);
    }
}

/// The host fold's answer for one matmul, derived by hand: [[1, 2], [3, 4]]
/// times [[5, 6], [7, 8]] plus an accumulator of 0.5 everywhere is
/// [[19.5, 22.5], [43.5, 50.5]]; the test above compares something.
#[test]
fn a_small_matmul_adds_up() {
    let text = r#"
func.func @main() -> vector<2x2xf32> {
  %a = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : vector<2x2xf32>
  %b = arith.constant dense<[[5.0, 6.0], [7.0, 8.0]]> : vector<2x2xf32>
  %c = arith.constant dense<0.5> : vector<2x2xf32>
  %r = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<2x2xf32>, vector<2x2xf32> into vector<2x2xf32>
  return %r : vector<2x2xf32>
}
"#;
    let (out, _) = run(text, false);
    let bytes: Vec<u8> = [19.5f32, 22.5, 43.5, 50.5].iter().flat_map(|x| x.to_le_bytes()).collect();
    assert!(out.contains(&format!("bytes: {bytes:?}")), "{out}");
}

/// Unary float ops on f32 arrays run over the encoded words
/// (`operands::float_lanes1`); each lane must be what the op gives that
/// lane as a scalar, on every edge value.
#[test]
fn unary_float_lanes_are_their_scalars() {
    let n = F32.len();
    let hex: String = F32.iter().flat_map(|x| x.to_le_bytes()).map(|b| format!("{b:02X}")).collect();
    for op in ["math.sqrt", "math.floor", "math.roundeven", "math.absf", "arith.negf", "math.exp"] {
        let mut text = format!(
            "func.func @main() -> (vector<{n}xf32>, vector<{n}xf32>) {{\n  %v = arith.constant dense<\"0x{hex}\"> : vector<{n}xf32>\n  %r = {op} %v : vector<{n}xf32>\n  %s0 = arith.constant dense<0.0> : vector<{n}xf32>\n"
        );
        for i in 0..n {
            text.push_str(&format!(
                "  %x{i} = vector.extract %v[{i}] : f32 from vector<{n}xf32>\n  %y{i} = {op} %x{i} : f32\n  %s{} = vector.insert %y{i}, %s{i} [{i}] : f32 into vector<{n}xf32>\n",
                i + 1
            ));
        }
        text.push_str(&format!("  return %r, %s{n} : vector<{n}xf32>, vector<{n}xf32>\n}}\n"));
        let (out, _) = run(&text, false);
        let halves: Vec<&str> = out.split("Array(").collect();
        assert_eq!(halves.len(), 3, "{out}");
        assert_eq!(
            halves[1].trim_end_matches(", "),
            halves[2].trim_end_matches(')').trim_end_matches(']'),
            "{op}: {out}"
        );
    }
}
