//! Affine expressions, maps and integer sets: their structure, printing, and
//! evaluation with mathematical `floordiv`, `ceildiv` and `mod`.

use std::fmt;

/// An affine (or semi-affine) expression over dims `d_i` and symbols `s_i`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AffineExpr {
    /// `d<i>`.
    Dim(u32),
    /// `s<i>`.
    Sym(u32),
    /// An integer constant.
    Const(i64),
    /// `a + b`; subtraction is `a + b * -1`, as MLIR stores it.
    Add(Box<AffineExpr>, Box<AffineExpr>),
    /// `a * b`.
    Mul(Box<AffineExpr>, Box<AffineExpr>),
    /// `a mod b`.
    Mod(Box<AffineExpr>, Box<AffineExpr>),
    /// `a floordiv b`.
    FloorDiv(Box<AffineExpr>, Box<AffineExpr>),
    /// `a ceildiv b`.
    CeilDiv(Box<AffineExpr>, Box<AffineExpr>),
}

/// Why an affine expression has no value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AffineEvalError {
    /// `floordiv`, `ceildiv` or `mod` by zero or a negative number.
    #[error("non-positive divisor {0} in affine expression")]
    NonPositiveDivisor(i64),
    /// The result does not fit in 64 bits.
    #[error("overflow in affine expression")]
    Overflow,
    /// A dim or symbol index past the operands given.
    #[error("affine expression uses an unbound identifier")]
    Unbound,
}

/// The deepest an affine expression may nest. Printing, evaluating,
/// comparing, cloning and dropping one all recurse, so the parser rejects
/// deeper input instead of letting a later walk overflow the stack.
pub const MAX_DEPTH: usize = 1000;

impl AffineExpr {
    /// Levels of nesting (a leaf is 1), counted without recursion, so it is
    /// safe on a tree of any depth.
    pub fn depth(&self) -> usize {
        let (mut max, mut stack) = (0, vec![(self, 1)]);
        while let Some((e, d)) = stack.pop() {
            max = max.max(d);
            if let AffineExpr::Add(a, b)
            | AffineExpr::Mul(a, b)
            | AffineExpr::Mod(a, b)
            | AffineExpr::FloorDiv(a, b)
            | AffineExpr::CeilDiv(a, b) = e
            {
                stack.push((a, d + 1));
                stack.push((b, d + 1));
            }
        }
        max
    }

    /// True when the expression mentions no dims (so it may multiply or divide).
    pub fn is_symbolic(&self) -> bool {
        match self {
            AffineExpr::Dim(_) => false,
            AffineExpr::Sym(_) | AffineExpr::Const(_) => true,
            AffineExpr::Add(a, b)
            | AffineExpr::Mul(a, b)
            | AffineExpr::Mod(a, b)
            | AffineExpr::FloorDiv(a, b)
            | AffineExpr::CeilDiv(a, b) => a.is_symbolic() && b.is_symbolic(),
        }
    }

    /// True when the expression is a plain affine one (no symbol products).
    pub fn is_pure_affine(&self) -> bool {
        match self {
            AffineExpr::Dim(_) | AffineExpr::Sym(_) | AffineExpr::Const(_) => true,
            AffineExpr::Add(a, b) => a.is_pure_affine() && b.is_pure_affine(),
            AffineExpr::Mul(a, b) => {
                a.is_pure_affine()
                    && b.is_pure_affine()
                    && (matches!(**a, AffineExpr::Const(_)) || matches!(**b, AffineExpr::Const(_)))
            }
            AffineExpr::Mod(a, b) | AffineExpr::FloorDiv(a, b) | AffineExpr::CeilDiv(a, b) => {
                a.is_pure_affine() && matches!(**b, AffineExpr::Const(_))
            }
        }
    }

    /// The largest dim index used plus one, and likewise for symbols.
    pub fn max_ids(&self) -> (u32, u32) {
        match self {
            AffineExpr::Dim(i) => (i + 1, 0),
            AffineExpr::Sym(i) => (0, i + 1),
            AffineExpr::Const(_) => (0, 0),
            AffineExpr::Add(a, b)
            | AffineExpr::Mul(a, b)
            | AffineExpr::Mod(a, b)
            | AffineExpr::FloorDiv(a, b)
            | AffineExpr::CeilDiv(a, b) => {
                let (x, y) = a.max_ids();
                let (u, v) = b.max_ids();
                (x.max(u), y.max(v))
            }
        }
    }

    /// Evaluates with mathematical division: `-7 mod 3 = 2`, `-7 floordiv 2 = -4`.
    pub fn eval(&self, dims: &[i64], syms: &[i64]) -> Result<i64, AffineEvalError> {
        use AffineEvalError::*;
        Ok(match self {
            AffineExpr::Dim(i) => *dims.get(*i as usize).ok_or(Unbound)?,
            AffineExpr::Sym(i) => *syms.get(*i as usize).ok_or(Unbound)?,
            AffineExpr::Const(c) => *c,
            AffineExpr::Add(a, b) => a.eval(dims, syms)?.checked_add(b.eval(dims, syms)?).ok_or(Overflow)?,
            AffineExpr::Mul(a, b) => a.eval(dims, syms)?.checked_mul(b.eval(dims, syms)?).ok_or(Overflow)?,
            AffineExpr::Mod(a, b) | AffineExpr::FloorDiv(a, b) | AffineExpr::CeilDiv(a, b) => {
                let x = a.eval(dims, syms)?;
                let y = b.eval(dims, syms)?;
                if y <= 0 {
                    return Err(NonPositiveDivisor(y));
                }
                match self {
                    AffineExpr::Mod(..) => x.rem_euclid(y),
                    AffineExpr::FloorDiv(..) => x.div_euclid(y),
                    _ => {
                        let q = x.div_euclid(y);
                        if x.rem_euclid(y) != 0 {
                            q + 1
                        } else {
                            q
                        }
                    }
                }
            }
        })
    }

    /// Prints as MLIR's `printAffineExprInternal` does: a tight binary op
    /// in a `strong` position is parenthesized, `e * -1` is `-e`, and an
    /// addition of a negative constant or of a product by a negative
    /// constant is a subtraction.
    fn fmt_mlir(&self, f: &mut fmt::Formatter<'_>, strong: bool) -> fmt::Result {
        use AffineExpr::*;
        let (a, b, op) = match self {
            Dim(i) => return write!(f, "d{i}"),
            Sym(i) => return write!(f, "s{i}"),
            Const(c) => return write!(f, "{c}"),
            Add(a, b) => (a, b, " + "),
            Mul(a, b) => (a, b, " * "),
            Mod(a, b) => (a, b, " mod "),
            FloorDiv(a, b) => (a, b, " floordiv "),
            CeilDiv(a, b) => (a, b, " ceildiv "),
        };
        if strong {
            f.write_str("(")?;
        }
        if !matches!(self, Add(..)) {
            if matches!(self, Mul(..)) && **b == Const(-1) {
                f.write_str("-")?;
                a.fmt_mlir(f, true)?;
            } else {
                a.fmt_mlir(f, true)?;
                f.write_str(op)?;
                b.fmt_mlir(f, true)?;
            }
        } else {
            a.fmt_mlir(f, false)?;
            match &**b {
                Mul(x, c) if **c == Const(-1) => {
                    f.write_str(" - ")?;
                    x.fmt_mlir(f, matches!(**x, Add(..)))?;
                }
                Mul(x, c) if matches!(**c, Const(k) if k < -1) => {
                    f.write_str(" - ")?;
                    x.fmt_mlir(f, true)?;
                    if let Const(k) = **c {
                        write!(f, " * {}", -i128::from(k))?;
                    }
                }
                Const(k) if *k < 0 => write!(f, " - {}", -i128::from(*k))?,
                _ => {
                    f.write_str(" + ")?;
                    b.fmt_mlir(f, false)?;
                }
            }
        }
        if strong {
            f.write_str(")")?;
        }
        Ok(())
    }
}

impl fmt::Display for AffineExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.fmt_mlir(f, false)
    }
}

/// `(d0, ..)[s0, ..] -> (exprs)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AffineMap {
    /// Number of dims.
    pub num_dims: u32,
    /// Number of symbols.
    pub num_syms: u32,
    /// Result expressions.
    pub results: Vec<AffineExpr>,
}

impl AffineMap {
    /// The identity map on `n` dims.
    pub fn identity(n: u32) -> AffineMap {
        AffineMap { num_dims: n, num_syms: 0, results: (0..n).map(AffineExpr::Dim).collect() }
    }

    /// Evaluates every result.
    pub fn eval(&self, dims: &[i64], syms: &[i64]) -> Result<Vec<i64>, AffineEvalError> {
        self.results.iter().map(|e| e.eval(dims, syms)).collect()
    }

    /// True for `(d0, .., dn) -> (d0, .., dn)`.
    pub fn is_identity(&self) -> bool {
        self.num_syms == 0
            && self.results.len() == self.num_dims as usize
            && self.results.iter().enumerate().all(|(i, e)| *e == AffineExpr::Dim(i as u32))
    }
}

fn write_ids(f: &mut fmt::Formatter<'_>, dims: u32, syms: u32) -> fmt::Result {
    f.write_str("(")?;
    for i in 0..dims {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "d{i}")?;
    }
    f.write_str(")")?;
    if syms > 0 {
        f.write_str("[")?;
        for i in 0..syms {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "s{i}")?;
        }
        f.write_str("]")?;
    }
    Ok(())
}

impl fmt::Display for AffineMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_ids(f, self.num_dims, self.num_syms)?;
        f.write_str(" -> (")?;
        for (i, e) in self.results.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{e}")?;
        }
        f.write_str(")")
    }
}

/// `(d..)[s..] : (e >= 0, e == 0, ..)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct IntegerSet {
    /// Number of dims.
    pub num_dims: u32,
    /// Number of symbols.
    pub num_syms: u32,
    /// Each constraint: the expression and whether it is `== 0` (else `>= 0`).
    pub constraints: Vec<(AffineExpr, bool)>,
}

impl IntegerSet {
    /// True when every constraint holds at the point.
    pub fn contains(&self, dims: &[i64], syms: &[i64]) -> Result<bool, AffineEvalError> {
        for (e, eq) in &self.constraints {
            let v = e.eval(dims, syms)?;
            if (*eq && v != 0) || (!*eq && v < 0) {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

impl fmt::Display for IntegerSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_ids(f, self.num_dims, self.num_syms)?;
        f.write_str(" : (")?;
        if self.constraints.is_empty() {
            // MLIR spells the empty (universal) set with one trivial constraint.
            f.write_str("0 == 0")?;
        }
        for (i, (e, eq)) in self.constraints.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{e} {} 0", if *eq { "==" } else { ">=" })?;
        }
        f.write_str(")")
    }
}

/// A binary operation of a compiled affine expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BinOp {
    Add,
    Mul,
    Mod,
    FloorDiv,
    CeilDiv,
}

impl BinOp {
    /// `x op y` as [`AffineExpr::eval`] computes it.
    #[inline(always)]
    fn apply(self, x: i64, y: i64) -> Result<i64, AffineEvalError> {
        use AffineEvalError::*;
        match self {
            BinOp::Add => x.checked_add(y).ok_or(Overflow),
            BinOp::Mul => x.checked_mul(y).ok_or(Overflow),
            _ if y <= 0 => Err(NonPositiveDivisor(y)),
            BinOp::Mod => Ok(x.rem_euclid(y)),
            BinOp::FloorDiv => Ok(x.div_euclid(y)),
            BinOp::CeilDiv => Ok(x.div_euclid(y) + i64::from(x.rem_euclid(y) != 0)),
        }
    }
}

/// One step of a compiled expression, run on a stack of numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// Push operand `i` (dims, then symbols).
    Operand(u32),
    /// Push a constant.
    Const(i64),
    /// Pop `y` and `x`, push `x op y`.
    Bin(BinOp),
    /// Replace the top `x` with `x op k` (the right operand a constant,
    /// as in most expressions: `d0 + 1`, `d0 floordiv 4`).
    BinK(BinOp, i64),
    /// Pop the next result.
    Out,
}

/// A result `operand f k`; a constant `c` is `0 + c` ([`Simple::CONST`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Simple {
    operand: u32,
    f: BinOp,
    k: i64,
}

impl Simple {
    /// The operand of a constant result: it reads 0.
    const CONST: u32 = u32::MAX;

    /// The result of `steps`, one result's program, if it is this simple.
    fn of(steps: &[Step]) -> Option<Simple> {
        // `u32::MAX` as an operand is an unbound identifier, not a constant.
        match *steps {
            [Step::Operand(Simple::CONST), ..] => None,
            [Step::Operand(operand), Step::Out] => Some(Simple { operand, f: BinOp::Add, k: 0 }),
            [Step::Operand(operand), Step::BinK(f, k), Step::Out] => Some(Simple { operand, f, k }),
            [Step::Const(k), Step::Out] => Some(Simple { operand: Simple::CONST, f: BinOp::Add, k }),
            _ => None,
        }
    }
}

/// A linear form over a map's dims: the coefficient of each dim, then the
/// constant (see [`Compiled::linear`]).
pub type Linear = (Vec<i64>, i64);

/// Stack entries evaluation keeps in place; deeper expressions (rare:
/// the parser allows [`MAX_DEPTH`]) get a stack on the heap.
const STACK: usize = 16;

/// Affine expressions compiled once into a flat postfix program, so that
/// evaluating them walks an array instead of a tree of boxes and allocates
/// nothing. The operations, their order and their errors are those of
/// [`AffineExpr::eval`]: the first failure in a left-to-right, depth-first
/// walk is the one reported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Compiled {
    steps: Box<[Step]>,
    /// The same results when each is one operand or constant and at most
    /// one operation with a constant (`d0`, `d0 + 1`, `s0 floordiv 4`, `7`):
    /// most maps, run without a stack.
    simple: Option<Box<[Simple]>>,
    /// Results (`Step::Out`s).
    results: u32,
    /// Operands the program reads: dims plus symbols.
    operands: u32,
    /// Of those, the dims.
    dims: u32,
    /// The deepest the stack gets.
    depth: u32,
}

impl Compiled {
    /// Compiles `exprs` over `num_dims` dims and `num_syms` symbols.
    pub fn new<'a>(num_dims: u32, num_syms: u32, exprs: impl IntoIterator<Item = &'a AffineExpr>) -> Compiled {
        let (mut steps, mut depth, mut results) = (Vec::new(), 0, 0);
        for e in exprs {
            depth = depth.max(compile(e, (num_dims, num_syms), &mut steps, 0));
            steps.push(Step::Out);
            results += 1;
        }
        let operands = num_dims.saturating_add(num_syms);
        let simple = steps.split_inclusive(|s| *s == Step::Out).map(Simple::of).collect::<Option<Box<[_]>>>();
        Compiled { steps: steps.into(), simple, results, operands, dims: num_dims, depth: depth as u32 }
    }

    /// Number of results.
    pub fn results(&self) -> usize {
        self.results as usize
    }

    /// Number of operands (dims, then symbols) evaluation reads.
    pub fn operands(&self) -> usize {
        self.operands as usize
    }

    /// Number of dims (the first operands).
    pub fn dims(&self) -> usize {
        self.dims as usize
    }

    /// The dim that result `r` is on its own (`d2`), if it is one: what
    /// linalg reads its loop ranges from.
    pub fn result_dim(&self, r: usize) -> Option<usize> {
        match *self.steps.split_inclusive(|s| *s == Step::Out).nth(r)? {
            [Step::Operand(i), Step::Out] if i < self.dims => Some(i as usize),
            _ => None,
        }
    }

    /// Evaluates every result on `vals` (dims, then symbols) into `out`,
    /// which holds [`Compiled::results`] numbers at least.
    #[inline]
    pub fn eval_into(&self, vals: &[i64], out: &mut [i64]) -> Result<(), AffineEvalError> {
        if vals.len() < self.operands() || out.len() < self.results() {
            return Err(AffineEvalError::Unbound);
        }
        if let Some(simple) = &self.simple {
            for (o, s) in out.iter_mut().zip(simple.iter()) {
                let x = if s.operand == Simple::CONST {
                    0
                } else {
                    *vals.get(s.operand as usize).ok_or(AffineEvalError::Unbound)?
                };
                *o = s.f.apply(x, s.k)?;
            }
            return Ok(());
        }
        if self.depth as usize > STACK {
            return self.run(vals, &mut vec![0; self.depth as usize], out);
        }
        self.run(vals, &mut [0; STACK], out)
    }

    /// The program on `stack`, deep enough for it.
    #[inline(always)]
    fn run(&self, vals: &[i64], stack: &mut [i64], out: &mut [i64]) -> Result<(), AffineEvalError> {
        let (mut sp, mut r) = (0usize, 0usize);
        for s in self.steps.iter() {
            match *s {
                Step::Operand(i) => {
                    stack[sp] = *vals.get(i as usize).ok_or(AffineEvalError::Unbound)?;
                    sp += 1;
                }
                Step::Const(c) => {
                    stack[sp] = c;
                    sp += 1;
                }
                Step::Bin(f) => {
                    sp -= 1;
                    stack[sp - 1] = f.apply(stack[sp - 1], stack[sp])?;
                }
                Step::BinK(f, k) => stack[sp - 1] = f.apply(stack[sp - 1], k)?,
                Step::Out => {
                    sp -= 1;
                    out[r] = stack[sp];
                    r += 1;
                }
            }
        }
        Ok(())
    }

    /// Each result as `k + Σ c[d] · d_d` (coefficients over the dims, then
    /// the constant), when every result is a sum of dims scaled by
    /// constants (`d0`, `d1 * 2 + d4`, `3`): the maps structured ops read
    /// their operands with, which a point loop turns into strides. `None`
    /// for `mod`, `floordiv`, `ceildiv`, a product of two dims, a symbol,
    /// or coefficients that overflow.
    pub fn linear(&self) -> Option<Vec<Linear>> {
        let n = self.dims as usize;
        let (mut stack, mut out): (Vec<Linear>, Vec<Linear>) = (Vec::new(), Vec::new());
        let constant = |c: &(Vec<i64>, i64)| c.0.iter().all(|x| *x == 0).then_some(c.1);
        let scale = |(c, k): Linear, by: i64| -> Option<Linear> {
            Some((c.iter().map(|x| x.checked_mul(by)).collect::<Option<_>>()?, k.checked_mul(by)?))
        };
        let bin = |f: BinOp, x: Linear, y: Linear| -> Option<Linear> {
            match f {
                BinOp::Add => Some((
                    x.0.iter().zip(&y.0).map(|(a, b)| a.checked_add(*b)).collect::<Option<_>>()?,
                    x.1.checked_add(y.1)?,
                )),
                BinOp::Mul => match (constant(&x), constant(&y)) {
                    (_, Some(k)) => scale(x, k),
                    (Some(k), None) => scale(y, k),
                    (None, None) => None,
                },
                BinOp::Mod | BinOp::FloorDiv | BinOp::CeilDiv => None,
            }
        };
        for s in self.steps.iter() {
            match *s {
                Step::Operand(i) if (i as usize) < n => {
                    let mut c = vec![0; n];
                    c[i as usize] = 1;
                    stack.push((c, 0));
                }
                Step::Operand(_) => return None,
                Step::Const(k) => stack.push((vec![0; n], k)),
                Step::Bin(f) => {
                    let (y, x) = (stack.pop()?, stack.pop()?);
                    stack.push(bin(f, x, y)?);
                }
                Step::BinK(f, k) => {
                    let x = stack.pop()?;
                    stack.push(bin(f, x, (vec![0; n], k))?);
                }
                Step::Out => out.push(stack.pop()?),
            }
        }
        Some(out)
    }

    /// Evaluates every result into a new vector.
    pub fn eval(&self, vals: &[i64]) -> Result<Vec<i64>, AffineEvalError> {
        let mut v = vec![0; self.results()];
        self.eval_into(vals, &mut v)?;
        Ok(v)
    }
}

/// Appends the steps of `e` (whose stack starts at `base` entries) and
/// returns the deepest the stack gets.
fn compile(e: &AffineExpr, ids: (u32, u32), steps: &mut Vec<Step>, base: usize) -> usize {
    // An identifier past the map's own reads no operand and fails as
    // `Unbound`, as the tree's evaluation does.
    let (num_dims, num_syms) = ids;
    let operand = |i: u32, n: u32, first: u32| Step::Operand(if i < n { first + i } else { u32::MAX });
    let op = match e {
        AffineExpr::Dim(i) => return push(steps, operand(*i, num_dims, 0), base),
        AffineExpr::Sym(i) => return push(steps, operand(*i, num_syms, num_dims), base),
        AffineExpr::Const(c) => return push(steps, Step::Const(*c), base),
        AffineExpr::Add(..) => BinOp::Add,
        AffineExpr::Mul(..) => BinOp::Mul,
        AffineExpr::Mod(..) => BinOp::Mod,
        AffineExpr::FloorDiv(..) => BinOp::FloorDiv,
        AffineExpr::CeilDiv(..) => BinOp::CeilDiv,
    };
    let (AffineExpr::Add(a, b)
    | AffineExpr::Mul(a, b)
    | AffineExpr::Mod(a, b)
    | AffineExpr::FloorDiv(a, b)
    | AffineExpr::CeilDiv(a, b)) = e
    else {
        unreachable!("leaves returned above")
    };
    let left = compile(a, ids, steps, base);
    if let AffineExpr::Const(k) = **b {
        steps.push(Step::BinK(op, k));
        return left;
    }
    let right = compile(b, ids, steps, base + 1);
    steps.push(Step::Bin(op));
    left.max(right)
}

fn push(steps: &mut Vec<Step>, s: Step, base: usize) -> usize {
    steps.push(s);
    base + 1
}

impl AffineMap {
    /// The map compiled for repeated evaluation.
    pub fn compile(&self) -> Compiled {
        Compiled::new(self.num_dims, self.num_syms, &self.results)
    }
}

impl IntegerSet {
    /// The set compiled for repeated membership tests.
    pub fn compile(&self) -> CompiledSet {
        let one = |e| Compiled::new(self.num_dims, self.num_syms, [e]);
        CompiledSet { constraints: self.constraints.iter().map(|(e, eq)| (one(e), *eq)).collect() }
    }
}

/// An [`IntegerSet`] compiled: each constraint's expression, and whether
/// it is an equality.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompiledSet {
    constraints: Box<[(Compiled, bool)]>,
}

impl CompiledSet {
    /// [`IntegerSet::contains`] on `vals` (dims, then symbols): the
    /// constraints in order, up to the first that does not hold.
    pub fn holds(&self, vals: &[i64]) -> Result<bool, AffineEvalError> {
        let mut v = [0];
        for (code, eq) in self.constraints.iter() {
            code.eval_into(vals, &mut v)?;
            if (*eq && v[0] != 0) || (!*eq && v[0] < 0) {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::AffineExpr::*;
    use super::*;

    fn b(e: AffineExpr) -> Box<AffineExpr> {
        Box::new(e)
    }

    #[test]
    fn mathematical_division() {
        assert_eq!(Mod(b(Const(-7)), b(Const(3))).eval(&[], &[]), Ok(2));
        assert_eq!(Mod(b(Const(-7)), b(Const(4))).eval(&[], &[]), Ok(1));
        assert_eq!(FloorDiv(b(Const(-7)), b(Const(2))).eval(&[], &[]), Ok(-4));
        assert_eq!(CeilDiv(b(Const(-7)), b(Const(2))).eval(&[], &[]), Ok(-3));
        assert_eq!(CeilDiv(b(Const(7)), b(Const(2))).eval(&[], &[]), Ok(4));
        assert_eq!(Mod(b(Dim(0)), b(Const(0))).eval(&[5], &[]), Err(AffineEvalError::NonPositiveDivisor(0)));
    }

    /// Sums of scaled dims are linear forms, and evaluate as the map does;
    /// a division, a product of dims or a symbol is not linear.
    #[test]
    fn linear_forms_of_maps() {
        // (d0, d1, d2) -> (d0 * 2 + d2 * -1 + 3, 5, d1)
        let conv = Add(b(Add(b(Mul(b(Dim(0)), b(Const(2)))), b(Mul(b(Dim(2)), b(Const(-1)))))), b(Const(3)));
        let m = AffineMap { num_dims: 3, num_syms: 0, results: vec![conv, Const(5), Dim(1)] };
        let lin = m.compile().linear().expect("linear");
        assert_eq!(lin, vec![(vec![2, 0, -1], 3), (vec![0, 0, 0], 5), (vec![0, 1, 0], 0)]);
        let p = [4, 7, 9];
        let by_form: Vec<i64> = lin.iter().map(|(c, k)| k + c.iter().zip(p).map(|(c, x)| c * x).sum::<i64>()).collect();
        assert_eq!(by_form, m.compile().eval(&p).unwrap());
        let not =
            |e: AffineExpr, syms: u32| AffineMap { num_dims: 2, num_syms: syms, results: vec![e] }.compile().linear();
        assert_eq!(not(FloorDiv(b(Dim(0)), b(Const(2))), 0), None);
        assert_eq!(not(Mul(b(Dim(0)), b(Dim(1))), 0), None);
        assert_eq!(not(Add(b(Dim(0)), b(Sym(0))), 1), None);
        assert_eq!(not(Mul(b(Dim(0)), b(Const(i64::MAX))), 0).map(|v| v.len()), Some(1));
        assert_eq!(not(Mul(b(Mul(b(Dim(0)), b(Const(i64::MAX)))), b(Const(2))), 0), None);
    }

    #[test]
    fn prints_with_minimal_parens() {
        let e = Mul(b(Add(b(Dim(0)), b(Sym(0)))), b(Const(2)));
        assert_eq!(e.to_string(), "(d0 + s0) * 2");
        let m = AffineMap { num_dims: 2, num_syms: 1, results: vec![Dim(1), FloorDiv(b(Dim(0)), b(Sym(0)))] };
        assert_eq!(m.to_string(), "(d0, d1)[s0] -> (d1, d0 floordiv s0)");
    }

    /// Expressions of every kind, nested, over two dims and a symbol (and,
    /// now and then, an identifier the map does not have).
    fn expr() -> impl proptest::strategy::Strategy<Value = AffineExpr> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            (0u32..3).prop_map(|i| if i < 2 { Dim(i) } else { Sym(0) }),
            // Past the map's own identifiers: both fail as unbound.
            (2u32..4).prop_map(|i| if i == 2 { Dim(2) } else { Sym(1) }),
            (-9i64..10).prop_map(Const),
            Just(Const(i64::MAX)),
        ];
        leaf.prop_recursive(6, 40, 2, |inner| {
            (0u8..5, inner.clone(), inner).prop_map(|(k, a, c)| match k {
                0 => Add(b(a), b(c)),
                1 => Mul(b(a), b(c)),
                2 => Mod(b(a), b(c)),
                3 => FloorDiv(b(a), b(c)),
                _ => CeilDiv(b(a), b(c)),
            })
        })
    }

    proptest::proptest! {
        /// The compiled form computes what the tree does, failures included,
        /// and knows which results are a dim alone.
        #[test]
        fn compiled_maps_evaluate_as_trees(
            es in proptest::collection::vec(expr(), 1..4),
            vals in proptest::collection::vec(proptest::prelude::prop_oneof![-20i64..20, proptest::prelude::Just(i64::MIN)], 3),
        ) {
            let map = AffineMap { num_dims: 2, num_syms: 1, results: es };
            let code = map.compile();
            proptest::prop_assert_eq!(code.eval(&vals), map.eval(&vals[..2], &vals[2..]));
            for (r, e) in map.results.iter().enumerate() {
                let dim = match e { Dim(d) if *d < 2 => Some(*d as usize), _ => None };
                proptest::prop_assert_eq!(code.result_dim(r), dim);
            }
            proptest::prop_assert_eq!(code.result_dim(map.results.len()), None);
            let set = IntegerSet {
                num_dims: 2,
                num_syms: 1,
                constraints: map.results.iter().enumerate().map(|(i, e)| (e.clone(), i % 2 == 0)).collect(),
            };
            proptest::prop_assert_eq!(set.compile().holds(&vals), set.contains(&vals[..2], &vals[2..]));
        }
    }

    #[test]
    fn compiled_maps_take_deep_expressions_and_check_operands() {
        let mut e = Dim(0);
        for i in 0..100 {
            e = Add(b(Const(i)), b(e));
        }
        let map = AffineMap { num_dims: 1, num_syms: 1, results: vec![e, Sym(0)] };
        assert_eq!(map.compile().eval(&[1, 7]), Ok(vec![4951, 7]));
        assert_eq!(map.compile().eval(&[1]), Err(AffineEvalError::Unbound));
    }
}
