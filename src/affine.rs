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

    fn prec(&self) -> u8 {
        match self {
            AffineExpr::Add(..) => 1,
            AffineExpr::Mul(..) | AffineExpr::Mod(..) | AffineExpr::FloorDiv(..) | AffineExpr::CeilDiv(..) => 2,
            _ => 3,
        }
    }

    fn fmt_prec(&self, f: &mut fmt::Formatter<'_>, min: u8) -> fmt::Result {
        let paren = self.prec() < min;
        if paren {
            f.write_str("(")?;
        }
        match self {
            AffineExpr::Dim(i) => write!(f, "d{i}")?,
            AffineExpr::Sym(i) => write!(f, "s{i}")?,
            AffineExpr::Const(c) => write!(f, "{c}")?,
            AffineExpr::Add(a, b) => {
                a.fmt_prec(f, 1)?;
                f.write_str(" + ")?;
                b.fmt_prec(f, 2)?;
            }
            AffineExpr::Mul(a, b) | AffineExpr::Mod(a, b) | AffineExpr::FloorDiv(a, b) | AffineExpr::CeilDiv(a, b) => {
                let op = match self {
                    AffineExpr::Mul(..) => " * ",
                    AffineExpr::Mod(..) => " mod ",
                    AffineExpr::FloorDiv(..) => " floordiv ",
                    _ => " ceildiv ",
                };
                a.fmt_prec(f, 2)?;
                f.write_str(op)?;
                b.fmt_prec(f, 3)?;
            }
        }
        if paren {
            f.write_str(")")?;
        }
        Ok(())
    }
}

impl fmt::Display for AffineExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.fmt_prec(f, 0)
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

    #[test]
    fn prints_with_minimal_parens() {
        let e = Mul(b(Add(b(Dim(0)), b(Sym(0)))), b(Const(2)));
        assert_eq!(e.to_string(), "(d0 + s0) * 2");
        let m = AffineMap { num_dims: 2, num_syms: 1, results: vec![Dim(1), FloorDiv(b(Dim(0)), b(Sym(0)))] };
        assert_eq!(m.to_string(), "(d0, d1)[s0] -> (d1, d0 floordiv s0)");
    }
}
