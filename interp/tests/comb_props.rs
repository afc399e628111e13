//! Property test: random comb expressions (every op of the dialect, widths
//! 1 to 1000) evaluate to what a plain big-integer model computes. The model
//! here is written from the dialect's documentation, independently of
//! `dialects/comb.rs`.

use mlir_interp::exec::{Config, Engine};
use mlir_interp::value::{Int, Scalar, Value};
use mlir_ir::diag::Source;
use num_bigint::BigUint;
use proptest::prelude::*;

const WIDTHS: [u32; 8] = [1, 3, 8, 64, 65, 128, 200, 1000];

/// An expression of the common width `w`; leaves are the function arguments.
#[derive(Clone, Debug)]
enum E {
    Arg(usize),
    Var(&'static str, Vec<E>),
    Inv(Box<E>),
    /// `mux(icmp pred a b, a, b)`.
    Select(u8, Box<E>, Box<E>),
    /// `mux(parity a, a, b)`.
    ParitySelect(Box<E>, Box<E>),
    /// `concat(extract(a from k) : w - k bits, extract(b from 0) : k bits)`.
    Splice(u32, Box<E>, Box<E>),
    /// `extract(replicate(a) : 3w bits, from lo) : w bits`.
    Rotate(u32, Box<E>),
}

const VARIADIC: [&str; 8] = ["add", "mul", "and", "or", "xor", "nand", "nor", "xnor"];
const PREDS: [&str; 14] =
    ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge", "ceq", "cne", "weq", "wne"];

fn expr(nargs: usize) -> impl Strategy<Value = E> {
    let leaf = (0..nargs).prop_map(E::Arg);
    leaf.prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            (0..8usize, prop::collection::vec(inner.clone(), 1..4)).prop_map(|(k, xs)| E::Var(VARIADIC[k], xs)),
            inner.clone().prop_map(|a| E::Inv(Box::new(a))),
            (0..14u8, inner.clone(), inner.clone()).prop_map(|(p, a, b)| E::Select(p, Box::new(a), Box::new(b))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| E::ParitySelect(Box::new(a), Box::new(b))),
            (any::<u32>(), inner.clone(), inner.clone()).prop_map(|(k, a, b)| E::Splice(k, Box::new(a), Box::new(b))),
            (any::<u32>(), inner).prop_map(|(lo, a)| E::Rotate(lo, Box::new(a))),
        ]
    })
}

struct Gen {
    w: u32,
    lines: Vec<String>,
    n: usize,
}

impl Gen {
    fn fresh(&mut self) -> String {
        self.n += 1;
        format!("%v{}", self.n)
    }

    /// Emits `e`, returning its SSA name.
    fn emit(&mut self, e: &E) -> String {
        let w = self.w;
        match e {
            E::Arg(i) => format!("%a{i}"),
            E::Var(op, xs) => {
                let names: Vec<String> = xs.iter().map(|x| self.emit(x)).collect();
                let r = self.fresh();
                self.lines.push(format!("{r} = comb.{op} {} : i{w}", names.join(", ")));
                r
            }
            E::Inv(a) => {
                let a = self.emit(a);
                let r = self.fresh();
                self.lines.push(format!("{r} = comb.inv {a} : i{w}"));
                r
            }
            E::Select(p, a, b) => {
                let (a, b) = (self.emit(a), self.emit(b));
                let (c, r) = (self.fresh(), self.fresh());
                self.lines.push(format!("{c} = comb.icmp {} {a}, {b} : i{w}", PREDS[*p as usize]));
                self.lines.push(format!("{r} = comb.mux {c}, {a}, {b} : i{w}"));
                r
            }
            E::ParitySelect(a, b) => {
                let (a, b) = (self.emit(a), self.emit(b));
                let (c, r) = (self.fresh(), self.fresh());
                self.lines.push(format!("{c} = comb.parity {a} : i{w}"));
                self.lines.push(format!("{r} = comb.mux {c}, {a}, {b} : i{w}"));
                r
            }
            E::Splice(k, a, b) => {
                let (a, b) = (self.emit(a), self.emit(b));
                if w == 1 {
                    return a;
                }
                let k = 1 + k % (w - 1);
                let (hi, lo, r) = (self.fresh(), self.fresh(), self.fresh());
                self.lines.push(format!("{hi} = comb.extract {a} from {k} : (i{w}) -> i{}", w - k));
                self.lines.push(format!("{lo} = comb.extract {b} from 0 : (i{w}) -> i{k}"));
                self.lines.push(format!("{r} = comb.concat {hi}, {lo} : i{}, i{k}", w - k));
                r
            }
            E::Rotate(lo, a) => {
                let a = self.emit(a);
                let lo = lo % (2 * w + 1);
                let (rep, r) = (self.fresh(), self.fresh());
                self.lines.push(format!("{rep} = comb.replicate {a} : (i{w}) -> i{}", 3 * w));
                self.lines.push(format!("{r} = comb.extract {rep} from {lo} : (i{}) -> i{w}", 3 * w));
                r
            }
        }
    }
}

/// The model: unsigned big integers reduced modulo 2^w.
fn eval(e: &E, w: u32, args: &[BigUint]) -> BigUint {
    let m = (BigUint::from(1u8) << w) - 1u8;
    let signed = |x: &BigUint| -> num_bigint::BigInt {
        let x = num_bigint::BigInt::from(x.clone());
        if x.bit(u64::from(w - 1)) {
            x - (num_bigint::BigInt::from(1u8) << w)
        } else {
            x
        }
    };
    match e {
        E::Arg(i) => args[*i].clone(),
        E::Var(op, xs) => {
            let vs: Vec<BigUint> = xs.iter().map(|x| eval(x, w, args)).collect();
            let fold = |f: &dyn Fn(BigUint, &BigUint) -> BigUint| vs[1..].iter().fold(vs[0].clone(), f);
            let r = match *op {
                "add" => fold(&|a, b| a + b),
                "mul" => fold(&|a, b| a * b),
                "and" | "nand" => fold(&|a, b| a & b),
                "or" | "nor" => fold(&|a, b| a | b),
                _ => fold(&|a, b| a ^ b),
            } & &m;
            if op.starts_with('n') || *op == "xnor" {
                r ^ &m
            } else {
                r
            }
        }
        E::Inv(a) => eval(a, w, args) ^ &m,
        E::Select(p, a, b) => {
            let (x, y) = (eval(a, w, args), eval(b, w, args));
            let (sx, sy) = (signed(&x), signed(&y));
            let c = match PREDS[*p as usize] {
                "eq" | "ceq" | "weq" => x == y,
                "ne" | "cne" | "wne" => x != y,
                "slt" => sx < sy,
                "sle" => sx <= sy,
                "sgt" => sx > sy,
                "sge" => sx >= sy,
                "ult" => x < y,
                "ule" => x <= y,
                "ugt" => x > y,
                _ => x >= y,
            };
            if c {
                x
            } else {
                y
            }
        }
        E::ParitySelect(a, b) => {
            let (x, y) = (eval(a, w, args), eval(b, w, args));
            if x.count_ones() % 2 == 1 {
                x
            } else {
                y
            }
        }
        E::Splice(k, a, b) => {
            let (x, y) = (eval(a, w, args), eval(b, w, args));
            if w == 1 {
                return x;
            }
            let k = 1 + k % (w - 1);
            ((x >> k) << k) | (y & ((BigUint::from(1u8) << k) - 1u8))
        }
        E::Rotate(lo, a) => {
            let x = eval(a, w, args);
            let rep = (x.clone() << (2 * w)) | (x.clone() << w) | x;
            (rep >> (lo % (2 * w + 1))) & &m
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn random_comb_expressions_match_a_big_integer_model(
        wi in 0..WIDTHS.len(),
        e in expr(3),
        seeds in prop::collection::vec(any::<u64>(), 48),
    ) {
        let w = WIDTHS[wi];
        let m = (BigUint::from(1u8) << w) - 1u8;
        let args: Vec<BigUint> = seeds
            .chunks(16)
            .map(|c| c.iter().fold(BigUint::from(0u8), |acc, d| (acc << 64u32) | BigUint::from(*d)) & &m)
            .collect();
        let mut g = Gen { w, lines: Vec::new(), n: 0 };
        let r = g.emit(&e);
        let body: String = g.lines.iter().map(|l| format!("  {l}\n")).collect();
        let text = format!("func.func @f(%a0: i{w}, %a1: i{w}, %a2: i{w}) -> i{w} {{\n{body}  return {r} : i{w}\n}}\n");
        let src = Source::new("prop.mlir", &text);
        let module = mlir_ir::parse_and_verify(&src).map_err(|d| TestCaseError::fail(d.render(&src)))?;
        let mut eng = Engine::load(&module, Config::default(), Box::new(std::io::sink())).unwrap();
        let vals = args.iter().map(|a| Value::int(Int::from_big(w, &a.clone().into()))).collect();
        let got = eng.invoke("f", vals).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let want = eval(&e, w, &args);
        match got.first().and_then(Value::scalar) {
            Some(Scalar::Int(i)) => prop_assert_eq!(i.to_ubig(), want.into(), "{}", text),
            other => prop_assert!(false, "no integer result: {:?}", other),
        }
    }
}
