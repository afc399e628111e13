//! Entry-function arguments from the command line (`run --arg V`), typed
//! by the function's signature. Each argument becomes a one-constant
//! function (`arith.constant`, `complex.constant`) that is parsed, verified
//! and run like any program, so literals mean exactly what they mean in
//! MLIR and a bad one gets the verifier's diagnosis. `@FILE.npy` reads a
//! vector, tensor or memref from a NumPy file (`crate::npy`). Memref
//! arguments are copied into a buffer the caller owns (freeing it is
//! undefined behaviour; it is never a leak). `--random-args` makes the
//! texts from a seed.

use crate::error::{Error, ErrorKind};
use crate::exec::{Config, Engine};
use crate::float::{self, Float, FloatKind, Round};
use crate::memory::{AllocKind, AllocLayout};
use crate::value::Value;
use mlir_ir::diag::Source;
use mlir_ir::ir::{OpId, ValueId};
use mlir_ir::printer::type_to_string;
use mlir_ir::types::{TypeId, TypeKind, DYNAMIC};
use std::rc::Rc;

/// The values of `texts` for the parameters of entry function `entry`, in
/// order; an error names the parameter, its type and what is wrong (bad
/// input, exit 2).
pub fn entry_args(e: &mut Engine, src: &Source, entry: &str, texts: &[String]) -> Result<Vec<Value>, Error> {
    // A missing entry function is `run_entry_with`'s to report.
    let Some(f) = e.func_by_name(entry) else { return Ok(Vec::new()) };
    let (op, inputs) = (e.funcs[f.0 as usize].op, e.funcs[f.0 as usize].inputs.clone());
    let names: Vec<String> = inputs.iter().map(|t| type_to_string(&e.m.ctx, *t)).collect();
    // Parameters by their names in the source (`%c: f32`), as the user
    // reads the signature; a declaration's have none.
    let params: Vec<ValueId> = match e.m.regions(op).first().and_then(|r| e.m.region(*r).blocks.first()) {
        Some(b) => e.m.args(*b).collect(),
        None => Vec::new(),
    };
    if inputs.len() != texts.len() {
        let msg = format!(
            "entry point '{entry}' takes {} argument(s) ({}), {} given with --arg",
            inputs.len(),
            names.join(", "),
            texts.len()
        );
        return Err(Error::at(op, ErrorKind::BadArgument(msg)));
    }
    let mut out = Vec::with_capacity(texts.len());
    for (i, (text, ty)) in texts.iter().zip(&inputs).enumerate() {
        let what = match params.get(i) {
            Some(v) => format!("argument #{i} of '{entry}' ({}: {})", crate::names::value_name(src, e.m, *v), names[i]),
            None => format!("argument #{i} of '{entry}' ({})", names[i]),
        };
        let v =
            value_of(e, op, *ty, text).map_err(|m| Error::at(op, ErrorKind::BadArgument(format!("{what}: {m}"))))?;
        out.push(v);
    }
    Ok(out)
}

/// The value `text` denotes as a `ty`.
fn value_of(e: &mut Engine, op: OpId, ty: TypeId, text: &str) -> Result<Value, String> {
    let ctx = &e.m.ctx;
    let name = type_to_string(ctx, ty);
    match ctx.type_kind(ty).clone() {
        TypeKind::MemRef { shape, elem, .. } => {
            // A memref of vectors is written as an array with the vector's
            // dims inside (as --print-results prints it).
            let (full, scalar) = with_vector_dims(e, shape, elem)?;
            memref_value(e, op, ty, &*array(e, &full, scalar, text)?)
        }
        TypeKind::UnrankedMemRef { elem, .. } => memref_value(e, op, ty, &*unranked(e, elem, text)?),
        TypeKind::UnrankedTensor { elem } => Ok(Value::Array(unranked(e, elem, text)?)),
        TypeKind::RankedTensor { shape, elem, .. } | TypeKind::Vector { shape, elem, .. } if text.starts_with('@') => {
            Ok(Value::Array(from_npy(e, elem, Some(&shape), &text[1..])?))
        }
        TypeKind::RankedTensor { shape, elem, .. } => static_tensor(e, &shape, elem, text),
        TypeKind::Vector { elem, .. } => constant(e, &name, &literal(e, elem, text, true)?),
        _ => constant(e, &name, &literal(e, ty, text, false)?),
    }
}

/// The array `text` (a literal or `@FILE.npy`) denotes in `shape` of
/// scalar elements `elem`.
fn array(e: &Engine, shape: &[i64], elem: TypeId, text: &str) -> Result<Rc<crate::dense::Dense>, String> {
    match text.strip_prefix('@') {
        Some(file) => from_npy(e, elem, Some(shape), file),
        None => match static_tensor(e, shape, elem, text)? {
            Value::Array(t) => Ok(t),
            _ => Err("the literal is not a tensor".into()),
        },
    }
}

/// A memref's shape and element type as an array's: a vector element adds
/// its dims (`memref<2xvector<3xi8>>` is a 2x3 array of i8).
fn with_vector_dims(e: &Engine, mut shape: Vec<i64>, elem: TypeId) -> Result<(Vec<i64>, TypeId), String> {
    match e.m.ctx.type_kind(elem) {
        TypeKind::Vector { scalable, .. } if scalable.iter().any(|s| *s) => {
            Err("a memref of scalable vectors cannot be given as an argument".into())
        }
        TypeKind::Vector { shape: vshape, elem, .. } => {
            shape.extend_from_slice(vshape);
            Ok((shape, *elem))
        }
        _ => Ok((shape, elem)),
    }
}

/// The value of an unranked parameter: shaped as the .npy file is, or
/// as the literal's nesting (every dim dynamic, sized by the literal).
fn unranked(e: &Engine, elem: TypeId, text: &str) -> Result<Rc<crate::dense::Dense>, String> {
    if let Some(file) = text.strip_prefix('@') {
        return from_npy(e, elem, None, file);
    }
    match nested_shape(text) {
        Some(dims) if !dims.contains(&0) => array(e, &vec![DYNAMIC; dims.len()], elem, text),
        _ => Err("an unranked parameter takes its shape from a non-empty nested list literal \
                  (dense<[[1, 2], [3, 4]]>) or a .npy file"
            .into()),
    }
}

/// The tensor literal `text` of elements `elem` in `shape`, its dynamic
/// dims sized by the literal (the constant needs a static type).
fn static_tensor(e: &Engine, shape: &[i64], elem: TypeId, text: &str) -> Result<Value, String> {
    let dims = dims_of(shape, text)?;
    let elem_name = type_to_string(&e.m.ctx, elem);
    let tensor = format!("tensor<{}{elem_name}>", dims.iter().map(|d| format!("{d}x")).collect::<String>());
    if dims.contains(&0) {
        // MLIR spells an empty value of a shape like 0x3 `dense<>` only.
        return constant(e, &tensor, "dense<>");
    }
    constant(e, &tensor, &literal(e, elem, text, true)?)
}

/// The `.npy` file `file` as elements of `elem` in a value of `shape`
/// (its static dims must match the file's).
fn from_npy(e: &Engine, elem: TypeId, shape: Option<&[i64]>, file: &str) -> Result<Rc<crate::dense::Dense>, String> {
    let lane = crate::operands::lane_of(e, elem).ok_or("this element type has no .npy form")?;
    let bytes = std::fs::read(file).map_err(|x| format!("cannot read '{file}': {x}"))?;
    let d = crate::npy::read(&bytes, lane).map_err(|m| format!("'{file}': {m}"))?;
    let Some(shape) = shape else { return Ok(Rc::new(d)) };
    let fits =
        d.shape().len() == shape.len() && shape.iter().zip(d.shape()).all(|(s, n)| *s == DYNAMIC || *s as usize == *n);
    if !fits {
        return Err(format!("'{file}' has shape {:?}", d.shape()));
    }
    Ok(Rc::new(d))
}

/// The constant op's text for `text` as a `ty` (the element type of a
/// shaped value when `shaped`: a bare scalar there is a splat).
fn literal(e: &Engine, ty: TypeId, text: &str, shaped: bool) -> Result<String, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err("empty value".into());
    }
    match (shaped, t.starts_with("dense<")) {
        (true, true) => Ok(t.to_string()),
        (true, false) => Ok(format!("dense<{}>", scalar_text(e, ty, t)?)),
        (false, _) => scalar_text(e, ty, t),
    }
}

/// One element's literal: `inf`, `-inf` and `nan` become the format's bit
/// patterns (MLIR spells them in hex); a complex is `(re, im)`.
fn scalar_text(e: &Engine, ty: TypeId, t: &str) -> Result<String, String> {
    match e.m.ctx.type_kind(ty) {
        TypeKind::Float(k) => float_text(*k, t),
        TypeKind::Complex(part) => {
            let inner = t.strip_prefix('(').and_then(|r| r.strip_suffix(')')).unwrap_or(t);
            let (re, im) = inner.split_once(',').ok_or("a complex value is written (re, im)")?;
            let TypeKind::Float(k) = e.m.ctx.type_kind(*part) else {
                let name = type_to_string(&e.m.ctx, ty);
                return Err(format!(
                    "{name} values are not supported (the interpreter's complex numbers are of floats)"
                ));
            };
            Ok(format!("({}, {})", float_text(*k, re.trim())?, float_text(*k, im.trim())?))
        }
        TypeKind::Integer { width: 1, .. } => int_text(t),
        // `true`/`false` are i1's; MLIR reads them as nothing else.
        TypeKind::Integer { .. } | TypeKind::Index if t == "true" || t == "false" => {
            Err(format!("'{t}' is an i1 value; {} takes an integer", type_to_string(&e.m.ctx, ty)))
        }
        TypeKind::Integer { .. } | TypeKind::Index => int_text(t),
        _ => Ok(t.to_string()),
    }
}

/// An integer literal as MLIR reads one (decimal or `0x` hex, signed;
/// `true`/`false` for i1), checked here so a bad one is named as such
/// rather than as whatever the IR parser makes of it.
fn int_text(t: &str) -> Result<String, String> {
    if t == "true" || t == "false" {
        return Ok(t.to_string());
    }
    let (sign, digits) = match t.strip_prefix('-') {
        Some(d) => ("-", d),
        None => ("", t.strip_prefix('+').unwrap_or(t)),
    };
    let ok = match digits.strip_prefix("0x") {
        Some(h) => !h.is_empty() && h.chars().all(|c| c.is_ascii_hexdigit()),
        None => !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()),
    };
    if !ok {
        return Err(format!("'{t}' is not an integer: write it in decimal or hex (-7, 0xFF)"));
    }
    Ok(format!("{sign}{digits}"))
}

/// A float literal of format `k` as MLIR spells it: `inf`, `-inf`, `nan`
/// and `-nan` as hex bits; decimals completed with the point MLIR wants
/// (`2` is `2.0`, `1e5` is `1.0e5`, `.5` is `0.5`); anything else is not
/// a float, said so here rather than by the IR parser.
fn float_text(k: FloatKind, t: &str) -> Result<String, String> {
    let special = match t.to_ascii_lowercase().as_str() {
        "nan" | "+nan" if float::has_nan(k) => Some(float::nan(k)),
        "-nan" if float::has_nan(k) => Some(float::neg(float::nan(k))),
        "inf" | "+inf" | "-inf" if float::has_inf(k) => {
            let inf = Float { kind: FloatKind::F64, bits: u128::from(f64::INFINITY.to_bits()) };
            let p = float::convert(inf, k, Round::NearestEven).map_err(|_| "no infinity".to_string())?;
            Some(if t.starts_with('-') { float::neg(p) } else { p })
        }
        "nan" | "+nan" | "-nan" | "inf" | "+inf" | "-inf" => {
            return Err(format!("{} has no {}", k.name(), t.trim_start_matches(['+', '-']).to_ascii_lowercase()))
        }
        _ => None,
    };
    if let Some(f) = special {
        return Ok(format!("0x{:X}", { f.bits }));
    }
    if let Some(h) = t.strip_prefix("0x") {
        if !h.is_empty() && h.chars().all(|c| c.is_ascii_hexdigit()) {
            return Ok(t.to_string());
        }
    }
    decimal_float(t).ok_or_else(|| {
        format!("'{t}' is not a float: write it as 2.5, -1e5, .5, inf, nan or its bits in hex (0x7FC00000)")
    })
}

/// A decimal float with an optional sign, point and exponent, as MLIR's
/// float literal (`[-]D.D[e[+-]D]`); `None` if it is not one.
fn decimal_float(t: &str) -> Option<String> {
    let (sign, rest) = match t.strip_prefix('-') {
        Some(r) => ("-", r),
        None => ("", t.strip_prefix('+').unwrap_or(t)),
    };
    let (mant, exp) = match rest.find(['e', 'E']) {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
    let digits = |s: &str| s.chars().all(|c| c.is_ascii_digit());
    if int.len() + frac.len() == 0 || !digits(int) || !digits(frac) {
        return None;
    }
    let exp = match exp {
        Some(x) => {
            let d = x.strip_prefix(['+', '-']).unwrap_or(x);
            if d.is_empty() || !digits(d) {
                return None;
            }
            format!("e{x}")
        }
        None => String::new(),
    };
    let int = if int.is_empty() { "0" } else { int };
    let frac = if frac.is_empty() { "0" } else { frac };
    Some(format!("{sign}{int}.{frac}{exp}"))
}

/// A fresh buffer the caller owns holding `d` as a memref of type `ty`,
/// laid out as the type says: static strides and offset as written;
/// dynamic strides row-major over the dims inside them, a dynamic offset
/// just large enough for negative strides; a layout map without symbols
/// through the map.
pub(crate) fn memref_value(e: &mut Engine, op: OpId, ty: TypeId, d: &crate::dense::Dense) -> Result<Value, String> {
    let ctx = &e.m.ctx;
    let (elem, layout) = match ctx.type_kind(ty).clone() {
        TypeKind::MemRef { elem, layout, .. } => (elem, layout),
        // Unranked: a row-major buffer of the value's rank.
        TypeKind::UnrankedMemRef { elem, .. } => (elem, None),
        _ => return Err("not a memref type".into()),
    };
    let elem_layout = crate::operands::elem_of(e, op, elem).map_err(|x| x.kind.to_string())?;
    // A vector element's dims are the value's innermost, not the memref's.
    let rank = d.shape().len().checked_sub(elem_layout.vshape.len()).ok_or("the value's rank is too small")?;
    let sizes: Vec<i64> = d.shape()[..rank].iter().map(|n| *n as i64).collect();
    let layout = match layout.map(|l| ctx.attr_kind(l)) {
        None => AllocLayout::Identity,
        Some(mlir_ir::attrs::Attribute::AffineMap(m)) if m.is_identity() => AllocLayout::Identity,
        Some(a) => match mlir_ir::layout::strides_and_offset(ctx, ty) {
            Some((strides, offset)) => strided(&sizes, &strides, offset)?,
            None => match a {
                mlir_ir::attrs::Attribute::AffineMap(m) if m.num_syms == 0 => {
                    AllocLayout::Map { map: m.clone(), syms: Vec::new() }
                }
                _ => return Err(format!("{} has a layout with symbols; it cannot be built", type_to_string(ctx, ty))),
            },
        },
    };
    let m = e.mem.alloc(op, elem_layout, sizes, layout, AllocKind::Argument, 0).map_err(|x| x.kind.to_string())?;
    m.write_all(op, d, "an argument").map_err(|x| x.kind.to_string())?;
    Ok(Value::Memref(Rc::new(m)))
}

/// The strided layout of an argument of `sizes` whose type has `strides`
/// and `offset` (either may hold [`DYNAMIC`]).
fn strided(sizes: &[i64], strides: &[i64], offset: i64) -> Result<AllocLayout, String> {
    // Inner dims first: a dynamic stride steps over everything inside it
    // (the inner dims' reach together, plus one).
    let mut out = strides.to_vec();
    let mut span = 0i64;
    for k in (0..sizes.len()).rev() {
        if out[k] == DYNAMIC {
            out[k] = span.checked_add(1).ok_or("the layout overflows")?;
        }
        let reach = (sizes[k] - 1).max(0).checked_mul(out[k].checked_abs().ok_or("the layout overflows")?);
        span = reach.and_then(|r| span.checked_add(r)).ok_or("the layout overflows")?;
    }
    let below: i64 = sizes.iter().zip(&out).map(|(n, s)| if *s < 0 { (n - 1).max(0) * -s } else { 0 }).sum();
    let offset = if offset == DYNAMIC { below } else { offset };
    if offset < below {
        return Err(format!("offset {offset} with these negative strides reaches below the buffer's start"));
    }
    Ok(AllocLayout::Strided { strides: out, offset })
}

/// The static dims of a shaped parameter; dynamic ones are read off the
/// literal's nesting (`dense<[[1, 2], [3, 4]]>` is 2x2).
fn dims_of(shape: &[i64], text: &str) -> Result<Vec<usize>, String> {
    if !shape.contains(&DYNAMIC) {
        return Ok(shape.iter().map(|d| *d as usize).collect());
    }
    if text.trim().replace(' ', "") == "dense<>" {
        // No elements: every dynamic dim is empty.
        return Ok(shape.iter().map(|d| if *d == DYNAMIC { 0 } else { *d as usize }).collect());
    }
    let mut lit = nested_shape(text).ok_or("a dynamic shape needs a nested list literal (dense<[...]>) to size it")?;
    // An empty list has no nesting below it: the dims there come from the
    // type, and must be static (`dense<[]>` for memref<?x3xi32> is 0x3).
    if lit.last() == Some(&0) && lit.len() < shape.len() {
        let rest = &shape[lit.len()..];
        if rest.contains(&DYNAMIC) {
            return Err("an empty literal cannot size the dynamic dims below it".into());
        }
        lit.extend(rest.iter().map(|d| *d as usize));
    }
    if lit.len() != shape.len() {
        return Err(format!("the literal has rank {}, the parameter rank {}", lit.len(), shape.len()));
    }
    for (d, (s, l)) in shape.iter().zip(&lit).enumerate() {
        if *s != DYNAMIC && *s as usize != *l {
            return Err(format!("dim {d} of the literal is {l}, the parameter's {s}"));
        }
    }
    Ok(lit)
}

/// The shape of a `dense<[...]>` literal's nested lists; `None` for a
/// splat or unbalanced brackets. Parentheses (complex elements) and
/// strings are skipped.
fn nested_shape(text: &str) -> Option<Vec<usize>> {
    let body = text.trim().strip_prefix("dense<")?.strip_suffix('>')?.trim();
    if !body.starts_with('[') {
        return None;
    }
    // Per depth: elements counted in the current list, and the first
    // list's count (every later list at that depth must match).
    let (mut count, mut want): (Vec<usize>, Vec<Option<usize>>) = (Vec::new(), Vec::new());
    let (mut paren, mut item) = (0usize, false);
    for c in body.chars() {
        match c {
            '(' => {
                // A complex element: one item, its inside skipped.
                paren += 1;
                item = true;
            }
            ')' => paren = paren.checked_sub(1)?,
            _ if paren > 0 => {}
            '[' => {
                if let Some(n) = count.last_mut() {
                    *n += 1;
                }
                count.push(0);
                if want.len() < count.len() {
                    want.push(None);
                }
                item = false;
            }
            ']' => {
                let mut n = count.pop()?;
                if item {
                    n += 1;
                }
                let w = &mut want[count.len()];
                match w {
                    Some(m) if *m != n => return None,
                    _ => *w = Some(n),
                }
                item = false;
            }
            ',' => {
                if item {
                    if let Some(n) = count.last_mut() {
                        *n += 1;
                    }
                }
                item = false;
            }
            c if !c.is_whitespace() => item = true,
            _ => {}
        }
    }
    if !count.is_empty() {
        return None;
    }
    want.into_iter().collect()
}

/// Runs a function returning `lit` as a `ty` (type text) and returns the
/// value; a literal that does not fit the type is the verifier's message.
fn constant(e: &Engine, ty: &str, lit: &str) -> Result<Value, String> {
    // A value is one literal: nothing that could end it and start more IR
    // (quotes only around the hex bytes of `dense<"0x...">`).
    let hex = lit
        .strip_prefix("dense<\"0x")
        .and_then(|r| r.strip_suffix("\">"))
        .is_some_and(|h| h.chars().all(|c| c.is_ascii_hexdigit()));
    if let Some(c) = lit
        .chars()
        .find(|c| matches!(c, '\n' | '\r' | '%' | '{' | '}' | '^' | '@' | '=' | '#' | ';') || (*c == '"' && !hex))
    {
        return Err(format!("unexpected character {c:?} in a value"));
    }
    let op = if let Some(part) = ty.strip_prefix("complex<").and_then(|r| r.strip_suffix('>')) {
        let inner = lit.trim_start_matches('(').trim_end_matches(')');
        let (re, im) = inner.split_once(", ").ok_or("a complex value is written (re, im)")?;
        format!("complex.constant [{re} : {part}, {im} : {part}] : {ty}")
    } else if lit == "true" || lit == "false" {
        format!("arith.constant {lit}")
    } else {
        format!("arith.constant {lit} : {ty}")
    };
    let text = format!("func.func @arg() -> {ty} {{\n  %c = {op}\n  return %c : {ty}\n}}\n");
    let src = Source::new("<arg>", &text);
    let m = mlir_ir::parse_and_verify(&src).map_err(|d| format!("'{lit}' as {ty}: {}", d.message))?;
    let cfg = Config { check_leaks: false, ..e.cfg.clone() };
    let mut sub = Engine::load(&m, cfg, Box::new(std::io::sink())).map_err(|x| x.kind.to_string())?;
    let mut vals = sub.run_entry("arg").map_err(|x| format!("'{lit}' as {ty}: {}", x.kind))?;
    vals.pop().ok_or_else(|| "no value".to_string())
}

/// Deterministic inputs for `run --random-args SEED`: one literal per
/// parameter of `entry`, as `--arg` would take it (so printing them makes
/// the run reproducible). Half the scalars are edge values (0, ±1, the
/// extremes of integers; ±0, ±1, infinities, NaN, the smallest subnormal
/// for floats), the rest uniform bits; dynamic dimensions get 1 to 4 (a
/// nested literal cannot size the dims after an empty one); a value of
/// over a million elements is one random value repeated.
pub fn random_texts(e: &Engine, entry: &str, seed: u64) -> Vec<String> {
    let Some(f) = e.func_by_name(entry) else { return Vec::new() };
    let mut rng = SplitMix(seed);
    e.funcs[f.0 as usize].inputs.iter().map(|t| random_value(e, *t, &mut rng)).collect()
}

/// SplitMix64: small, fast and the same on every host.
pub(crate) struct SplitMix(pub(crate) u64);

impl SplitMix {
    /// The next 64 random bits.
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

fn random_value(e: &Engine, ty: TypeId, rng: &mut SplitMix) -> String {
    let kind = e.m.ctx.type_kind(ty).clone();
    let shaped = |shape: &[i64], elem: TypeId, rng: &mut SplitMix| {
        let dims: Vec<usize> =
            shape.iter().map(|d| if *d == DYNAMIC { 1 + rng.below(4) as usize } else { *d as usize }).collect();
        let n = dims.iter().try_fold(1usize, |a, d| a.checked_mul(*d)).unwrap_or(usize::MAX);
        // Past a million elements the literal would be huge: one random
        // value for all (every such shape is static, so a splat fits it).
        if n > 1 << 20 {
            return format!("dense<{}>", random_scalar(e, elem, rng));
        }
        let elems: Vec<String> = (0..n).map(|_| random_scalar(e, elem, rng)).collect();
        let mut out = String::from("dense<");
        crate::show::nest(&mut out, &dims, &elems);
        out.push('>');
        out
    };
    match kind {
        TypeKind::MemRef { shape, elem, .. } => match with_vector_dims(e, shape.clone(), elem) {
            Ok((full, scalar)) => shaped(&full, scalar, rng),
            // No literal can be made; `--arg` says why when it is given one.
            Err(_) => shaped(&shape, elem, rng),
        },
        TypeKind::RankedTensor { shape, elem, .. } => shaped(&shape, elem, rng),
        // Unranked: rank 1 (a nested literal gives the rank).
        TypeKind::UnrankedTensor { elem } | TypeKind::UnrankedMemRef { elem, .. } => shaped(&[DYNAMIC], elem, rng),
        TypeKind::Vector { shape, elem, .. } => shaped(&shape, elem, rng),
        _ => random_scalar(e, ty, rng),
    }
}

fn random_scalar(e: &Engine, ty: TypeId, rng: &mut SplitMix) -> String {
    let edge = rng.below(2) == 0;
    match e.m.ctx.type_kind(ty) {
        TypeKind::Integer { width: 1, .. } => if rng.below(2) == 0 { "false" } else { "true" }.to_string(),
        TypeKind::Integer { width, .. } => {
            let w = (*width).min(64);
            let (min, max) = (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1);
            if edge {
                [0, 1, -1, min, max][rng.below(5) as usize].to_string()
            } else {
                let bits = u128::from(rng.next()) & ((1u128 << w) - 1);
                let v = if bits >> (w - 1) == 1 { bits as i128 - (1i128 << w) } else { bits as i128 };
                v.to_string()
            }
        }
        // Indices size and address things: mostly small, sometimes extreme.
        TypeKind::Index if edge => ["-1", "9223372036854775807", "0", "1"][rng.below(4) as usize].to_string(),
        TypeKind::Index => rng.below(16).to_string(),
        TypeKind::Float(k) => random_float(*k, edge, rng),
        TypeKind::Complex(part) => match e.m.ctx.type_kind(*part) {
            TypeKind::Float(k) => format!("({}, {})", random_float(*k, edge, rng), random_float(*k, edge, rng)),
            // Well-formed, so `--arg` says what it says of the type itself.
            _ => "(0, 0)".to_string(),
        },
        _ => "0".to_string(),
    }
}

fn random_float(k: FloatKind, edge: bool, rng: &mut SplitMix) -> String {
    let w = k.bit_width();
    let hex = |bits: u128| format!("0x{bits:0width$X}", width = w.div_ceil(4) as usize);
    if !edge {
        let bits = (u128::from(rng.next()) | u128::from(rng.next()) << 64) & (u128::MAX >> (128 - w));
        return hex(bits);
    }
    let mut edges = vec!["0.0".to_string(), "-0.0".to_string(), "1.0".to_string(), "-1.0".to_string(), hex(1)];
    if float::has_inf(k) {
        edges.extend(["inf".to_string(), "-inf".to_string()]);
    }
    if float::has_nan(k) {
        edges.push("nan".to_string());
    }
    // Only what the format has (f8E8M0FNU has no zero and no sign).
    edges.retain(|t| {
        t.starts_with("0x") || !t.contains('.') || float::parse_literal_with(k, t, float::Policy::Strict).is_ok()
    });
    // Infinities and NaN as bits: a dense list has no word for them.
    let pick = &edges[rng.below(edges.len() as u64) as usize];
    float_text(k, pick).unwrap_or_else(|_| pick.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Nested list literals give their shape; ragged or splat ones none.
    #[test]
    fn literal_shapes() {
        assert_eq!(nested_shape("dense<[[1, 2], [3, 4], [5, 6]]>"), Some(vec![3, 2]));
        assert_eq!(nested_shape("dense<[1.0, 2.0, 3.0]>"), Some(vec![3]));
        assert_eq!(nested_shape("dense<[(1.0, 2.0), (3.0, 4.0)]>"), Some(vec![2]));
        assert_eq!(nested_shape("dense<[]>"), Some(vec![0]));
        assert_eq!(nested_shape("dense<[[1, 2], [3]]>"), None);
        assert_eq!(nested_shape("dense<1.0>"), None);
        assert_eq!(nested_shape("dense<[[1, 2]>"), None);
    }

    /// `inf` and `nan` become the format's bit patterns; formats without
    /// them refuse.
    #[test]
    fn special_floats() {
        assert_eq!(float_text(FloatKind::F32, "inf").unwrap(), "0x7F800000");
        assert_eq!(float_text(FloatKind::F32, "-inf").unwrap(), "0xFF800000");
        assert_eq!(float_text(FloatKind::F16, "nan").unwrap(), "0x7E00");
        assert_eq!(float_text(FloatKind::F32, "1.5").unwrap(), "1.5");
        assert_eq!(float_text(FloatKind::F32, "-2").unwrap(), "-2.0");
        assert_eq!(float_text(FloatKind::F32, "0x3F800000").unwrap(), "0x3F800000");
        assert!(float_text(FloatKind::F8E4M3FN, "inf").is_err());
        assert_eq!(float_text(FloatKind::F32, "-nan").unwrap(), "0xFFC00000");
        assert_eq!(float_text(FloatKind::F32, "1e5").unwrap(), "1.0e5");
        assert_eq!(float_text(FloatKind::F32, "-.5E-3").unwrap(), "-0.5E-3".replace('E', "e"));
        assert_eq!(float_text(FloatKind::F32, "+7.").unwrap(), "7.0");
        for bad in ["e5", "1e", "1.2.3", "0x", "1_000", "0b101", "."] {
            assert!(float_text(FloatKind::F32, bad).is_err(), "{bad}");
        }
        assert_eq!(int_text("+0xFF").unwrap(), "0xFF");
        assert!(int_text("1_000").is_err());
        assert!(int_text("0x").is_err());
    }
}
