//! The `tosa` dialect, run as the TOSA specification's pseudocode defines
//! each operator (`arm/tosa-specification`, `pseudocode/operators/*.tosac`;
//! where it is silent, ARM's reference model decides). Tensors are
//! `Value::Array`s; a `!tosa.shape<N>` value is a rank-1 array of `index`.
//!
//! A `REQUIRE` of the pseudocode that fails at run time (an integer
//! overflow in `apply_add_s`, a shift out of range, a division by zero, an
//! index out of range) is undefined behaviour, reported at the op with the
//! condition and the values; the reference model calls such a graph
//! UNPREDICTABLE. `ERROR_IF` conditions are the verifier's.
//!
//! Float arithmetic is IEEE in the element type, rounded to nearest even
//! (the spec's ULP-0.5 operators: add, sub, mul, reciprocal's division...).
//! The spec gives transcendental operators (exp, log, tanh, sigmoid, erf,
//! sin, cos, pow) an error bound, not a result: here they are computed as
//! LLVM 22's lowering computes them (the host libm on the element type, as
//! `math` is; `sigmoid(x)` is `1 / (1 + exp(-x))`), which the reference
//! model's compliance check accepts.

mod conv;
mod data;
mod elementwise;
mod image;
mod mx;
mod quant;
mod reduce;
mod shape;

use crate::error::{Error, ErrorKind, Result};
use crate::exec::{Engine, Flow, Frame};
use crate::float::FloatKind;
use crate::operands::dense;
use crate::value::{Dense, Int, Scalar, Value};
use mlir_ir::attrs::Attribute;
use mlir_ir::ir::OpId;
use mlir_ir::ops::TosaOp;
use mlir_ir::types::{TypeId, TypeKind};
use std::rc::Rc;

/// Executes one tosa op; a result whose runtime shape breaks its static
/// type is an `ERROR_IF` (`shape != ...`) the verifier could not see.
pub fn exec(e: &mut Engine, fr: &mut Frame, op: OpId, kind: TosaOp) -> Result<Flow> {
    let flow = run(e, fr, op, kind)?;
    for (i, r) in e.m.results(op).enumerate() {
        let (TypeKind::RankedTensor { shape, .. }, Value::Array(d)) = (e.m.ctx.type_kind(e.m.type_of(r)), e.get(fr, r))
        else {
            continue;
        };
        let fits = shape.len() == d.shape().len()
            && shape.iter().zip(d.shape()).all(|(s, n)| *s == mlir_ir::types::DYNAMIC || *s == *n as i64);
        if !fits {
            return Err(invalid(op, format!("result #{i} has shape {:?}, its type says {shape:?}", d.shape())));
        }
        let lane = crate::operands::lane_of(e, e.elem_type(e.m.type_of(r)));
        if lane.is_some_and(|l| l != d.lane()) {
            return Err(invalid(op, format!("result #{i} holds {:?} elements, its type says {lane:?}", d.lane())));
        }
    }
    Ok(flow)
}

/// Dispatches one tosa op.
fn run(e: &mut Engine, fr: &mut Frame, op: OpId, kind: TosaOp) -> Result<Flow> {
    use elementwise::{Bin, Un};
    use TosaOp::*;
    match kind {
        Const | ConstShape => {
            let v =
                e.aux[op.0 as usize].constant.clone().ok_or_else(|| Error::unverified(op, "constant not decoded"))?;
            e.assign(fr, op, v)
        }
        Add => elementwise::binary(e, fr, op, Bin::Add),
        Sub => elementwise::binary(e, fr, op, Bin::Sub),
        Mul => elementwise::binary(e, fr, op, Bin::Mul),
        Intdiv => elementwise::binary(e, fr, op, Bin::IntDiv),
        Maximum => elementwise::binary(e, fr, op, Bin::Max),
        Minimum => elementwise::binary(e, fr, op, Bin::Min),
        Pow => elementwise::binary(e, fr, op, Bin::Pow),
        BitwiseAnd => elementwise::binary(e, fr, op, Bin::And),
        BitwiseOr => elementwise::binary(e, fr, op, Bin::Or),
        BitwiseXor => elementwise::binary(e, fr, op, Bin::Xor),
        LogicalAnd => elementwise::binary(e, fr, op, Bin::And),
        LogicalOr => elementwise::binary(e, fr, op, Bin::Or),
        LogicalXor => elementwise::binary(e, fr, op, Bin::Xor),
        LogicalLeftShift => elementwise::binary(e, fr, op, Bin::Shl),
        LogicalRightShift => elementwise::binary(e, fr, op, Bin::Shru),
        ArithmeticRightShift => elementwise::binary(e, fr, op, Bin::Shrs),
        Equal => elementwise::binary(e, fr, op, Bin::Equal),
        Greater => elementwise::binary(e, fr, op, Bin::Greater),
        GreaterEqual => elementwise::binary(e, fr, op, Bin::GreaterEqual),
        Abs => elementwise::unary(e, fr, op, Un::Abs),
        BitwiseNot => elementwise::unary(e, fr, op, Un::Not),
        LogicalNot => elementwise::unary(e, fr, op, Un::Not),
        Ceil => elementwise::unary(e, fr, op, Un::Ceil),
        Floor => elementwise::unary(e, fr, op, Un::Floor),
        Clz => elementwise::unary(e, fr, op, Un::Clz),
        Exp => elementwise::unary(e, fr, op, Un::Exp),
        Log => elementwise::unary(e, fr, op, Un::Log),
        Sin => elementwise::unary(e, fr, op, Un::Sin),
        Cos => elementwise::unary(e, fr, op, Un::Cos),
        Tanh => elementwise::unary(e, fr, op, Un::Tanh),
        Erf => elementwise::unary(e, fr, op, Un::Erf),
        Sigmoid => elementwise::unary(e, fr, op, Un::Sigmoid),
        Reciprocal => elementwise::unary(e, fr, op, Un::Reciprocal),
        Rsqrt => elementwise::unary(e, fr, op, Un::Rsqrt),
        Negate => elementwise::negate(e, fr, op),
        Clamp => elementwise::clamp(e, fr, op),
        Select => elementwise::select(e, fr, op),
        Cast => elementwise::cast(e, fr, op),
        Identity => {
            let v = e.arg(fr, op, 0)?.clone();
            e.assign(fr, op, v)
        }
        Reshape => data::reshape(e, fr, op),
        Transpose => data::transpose(e, fr, op),
        Slice => data::slice(e, fr, op),
        Concat => data::concat(e, fr, op),
        Pad => data::pad(e, fr, op),
        Tile => data::tile(e, fr, op),
        Reverse => data::reverse(e, fr, op),
        ReduceAll | ReduceAny | ReduceMax | ReduceMin | ReduceProduct | ReduceSum => reduce::reduce(e, fr, op, kind),
        Argmax => reduce::argmax(e, fr, op),
        Matmul => reduce::matmul(e, fr, op),
        Rescale => quant::rescale(e, fr, op),
        ApplyScale => quant::apply_scale(e, fr, op),
        Table => quant::table(e, fr, op),
        Gather => data::gather(e, fr, op),
        Resize => image::resize(e, fr, op),
        AddShape | SubShape | MulShape | DivCeilShape | DivFloorShape | ModShape | MaxShape | MinShape | Exp2Shape
        | Log2CeilShape | Log2FloorShape => shape::arith(e, fr, op, kind),
        ConcatShape => shape::concat(e, fr, op),
        SliceShape => shape::slice(e, fr, op),
        Dim => shape::dim(e, fr, op),
        VariableRead => shape::read(e, fr, op),
        VariableWrite => shape::write(e, fr, op),
        // A declaration; its value is made when first read.
        Variable => Ok(Flow::Next),
        Fft2d => image::fft(e, fr, op, false),
        Rfft2d => image::fft(e, fr, op, true),
        Scatter => data::scatter(e, fr, op),
        Yield => Ok(Flow::Exit(e.args(fr, op))),
        CondIf => cond_if(e, fr, op),
        WhileLoop => while_loop(e, fr, op),
        Conv2d => conv::conv(e, fr, op, 2),
        Conv3d => conv::conv(e, fr, op, 3),
        DepthwiseConv2d => conv::depthwise(e, fr, op),
        TransposeConv2d => conv::transpose(e, fr, op),
        AvgPool2d => conv::avg_pool(e, fr, op),
        MaxPool2d => conv::max_pool(e, fr, op),
        CastFromBlockScaled => mx::cast_from(e, fr, op),
        CastToBlockScaled => mx::cast_to(e, fr, op),
        MatmulTBlockScaled => mx::matmul(e, fr, op),
        Custom => custom(e, op),
    }
}

/// `tosa.custom`: the specification leaves its meaning to the
/// implementation that `domain_name` and `operator_name` name, so there
/// is nothing to run; it says which operator was asked for.
fn custom(e: &Engine, op: OpId) -> Result<Flow> {
    let name = |a: &str| match e.m.attr(op, a).map(|x| e.m.ctx.attr_kind(x)) {
        Some(Attribute::String { value, .. }) => String::from_utf8_lossy(value).into_owned(),
        _ => "?".into(),
    };
    Err(Error::at(
        op,
        ErrorKind::Unsupported(format!(
            "operation 'tosa.custom' (domain '{}', operator '{}'): its meaning is the implementation's, not the \
             specification's",
            name("domain_name"),
            name("operator_name")
        )),
    ))
}

/// `tosa.cond_if`: the condition is a one-element `i1` tensor; the chosen
/// region receives the operands after it.
fn cond_if(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let c = dense(e, fr, op, 0)?;
    let taken = truthy(op, &c)?;
    let args = e.args(fr, op).split_off(1);
    let r = e.region(op, if taken { 0 } else { 1 })?;
    let (_, vals) = e.run_region(fr, r, args)?;
    e.assign_all(fr, op, vals)
}

/// `tosa.while_loop`: the first region yields a one-element `i1` tensor;
/// while it is true the second region maps the loop values.
fn while_loop(e: &mut Engine, fr: &mut Frame, op: OpId) -> Result<Flow> {
    let (cond, body) = (e.region(op, 0)?, e.region(op, 1)?);
    let mut args = e.args(fr, op);
    loop {
        let (term, vals) = e.run_region(fr, cond, args.clone())?;
        let c = match vals.first() {
            Some(Value::Array(c)) => c.clone(),
            _ => return Err(invalid(term, "tosa.while_loop condition is not a tensor")),
        };
        if !truthy(term, &c)? {
            return e.assign_all(fr, op, args);
        }
        args = e.run_region(fr, body, args)?.1;
    }
}

/// The value of a one-element boolean tensor.
fn truthy(op: OpId, c: &Dense) -> Result<bool> {
    if c.len() != 1 {
        return Err(invalid(op, "condition tensor does not hold one element"));
    }
    match c.get(0) {
        Scalar::Int(i) => Ok(i.is_nonzero()),
        Scalar::Poison(p) => {
            Err(Error::at(op, ErrorKind::Poison { what: "used as a tosa condition".into(), origin: p.0 }))
        }
        _ => Err(invalid(op, "condition is not boolean")),
    }
}

// ---- shared helpers ----------------------------------------------------------

/// What a tosa element is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Elem {
    /// `i1`.
    Bool,
    /// A signless integer of this width (i4, i8, i16, i32, i48, i64).
    Int(u32),
    /// A float format.
    Float(FloatKind),
}

/// The element kind of tensor type `ty`.
pub(crate) fn elem_of(e: &Engine, op: OpId, ty: TypeId) -> Result<Elem> {
    let et = e.elem_type(ty);
    match e.m.ctx.type_kind(et) {
        TypeKind::Integer { width: 1, .. } => Ok(Elem::Bool),
        TypeKind::Integer { width, .. } if *width <= 64 => Ok(Elem::Int(*width)),
        TypeKind::Index => Ok(Elem::Int(64)),
        TypeKind::Float(k) => Ok(Elem::Float(*k)),
        _ => Err(Error::at(
            op,
            ErrorKind::Unsupported(format!(
                "tosa tensors of element type {}",
                mlir_ir::printer::type_to_string(&e.m.ctx, et)
            )),
        )),
    }
}

/// The element kind of operand `i`.
pub(crate) fn operand_elem(e: &Engine, op: OpId, i: usize) -> Result<Elem> {
    let ty = e.operand_type(op, i).ok_or_else(|| Error::unverified(op, format!("no operand #{i}")))?;
    elem_of(e, op, ty)
}

/// The element kind of result `i`.
pub(crate) fn result_elem(e: &Engine, op: OpId, i: usize) -> Result<Elem> {
    elem_of(e, op, e.result_type(op, i))
}

/// Reads element `i` of `d` as a signed integer (poison is reported).
#[inline]
pub(crate) fn int_at(op: OpId, d: &Dense, i: usize) -> Result<i64> {
    if let Some(v) = d.i64_at(i) {
        return Ok(v);
    }
    match d.get(i) {
        Scalar::Int(v) => v.to_i64().ok_or_else(|| invalid(op, "integer wider than 64 bits")),
        s => Err(not_int(op, &s)),
    }
}

/// Every element of `d` as a signed integer: the bulk read where the
/// elements are plain integers, else element by element (which reports
/// poison at `op`).
pub(crate) fn ints(op: OpId, d: &Dense) -> Result<Vec<i64>> {
    match d.to_i64s() {
        Some(v) => Ok(v),
        None => (0..d.len()).map(|i| int_at(op, d, i)).collect(),
    }
}

/// Result `res` of `op` of `shape` from integers (wrapped to the result's
/// width), written in bulk.
pub(crate) fn build_ints(e: &Engine, op: OpId, res: usize, shape: &[usize], vals: &[i64]) -> Result<Value> {
    match crate::operands::lane_of(e, e.elem_type(e.result_type(op, res))) {
        Some(crate::lane::Lane::Int(w)) if w <= 64 => {
            e.mem.reserve(op, vals.len().saturating_mul(w.div_ceil(8) as usize), "a tensor")?;
            Dense::from_i64s(shape, w, vals)
                .map(|d| Value::Array(Rc::new(d)))
                .map_err(|x| crate::operands::dense_error(op, x))
        }
        _ => Err(invalid(op, "an integer result of at most 64 bits was expected")),
    }
}

/// The error for a non-integer element where an integer is due.
fn not_int(op: OpId, s: &Scalar) -> Error {
    match s {
        Scalar::Poison(p) => Error::at(op, ErrorKind::Poison { what: "read by a tosa operator".into(), origin: p.0 }),
        _ => invalid(op, "expected an integer element"),
    }
}

/// Reads element `i` of `d` as a float (poison is reported).
pub(crate) fn float_at(op: OpId, d: &Dense, i: usize) -> Result<crate::float::Float> {
    match d.get(i) {
        Scalar::Float(f) => Ok(f),
        Scalar::Poison(p) => {
            Err(Error::at(op, ErrorKind::Poison { what: "read by a tosa operator".into(), origin: p.0 }))
        }
        _ => Err(invalid(op, "expected a float element")),
    }
}

/// The integer scalar of `w` bits holding `v` (wrapped).
pub(crate) fn int_scalar(w: u32, v: i64) -> Scalar {
    Scalar::Int(Int::from_i128(w, i128::from(v)))
}

/// The largest and smallest signed values of `w` bits.
pub(crate) fn signed_range(w: u32) -> (i64, i64) {
    if w >= 64 {
        (i64::MIN, i64::MAX)
    } else {
        (-(1i64 << (w - 1)), (1i64 << (w - 1)) - 1)
    }
}

/// Bad input: an operation outside what the specification defines (an
/// `ERROR_IF` that holds, or an element type the operator does not take)
/// that mlir-opt's verifier lets through, met when it runs.
pub(crate) fn invalid(op: OpId, msg: impl std::fmt::Display) -> Error {
    Error::at(op, ErrorKind::BadInput(format!("not a valid TOSA operation: {msg}")))
}

/// Undefined behaviour: a `REQUIRE` of the specification failed.
pub(crate) fn require(op: OpId, msg: String) -> Error {
    Error::at(op, ErrorKind::Ub(format!("tosa REQUIRE failed: {msg}")))
}

/// An array value of `shape` and the result's element lane from `elems`.
pub(crate) fn build(e: &Engine, op: OpId, res: usize, shape: &[usize], elems: Vec<Scalar>) -> Result<Value> {
    let lane = crate::operands::lane_of(e, e.elem_type(e.result_type(op, res)));
    let bytes = elems.len().saturating_mul(lane.map_or(8, |l| l.bytes()));
    e.mem.reserve(op, bytes, "a tensor")?;
    Dense::new(shape, &elems, lane).map(|d| Value::Array(Rc::new(d))).map_err(|x| crate::operands::dense_error(op, x))
}

/// The integers of dense-array attribute `name` (`array<i64: ..>` or
/// `array<i32: ..>`); any other kind, or none, is an invalid operator
/// (the verifier checks the ones ODS constrains).
pub(crate) fn array_attr(e: &Engine, op: OpId, name: &str) -> Result<Vec<i64>> {
    match e.m.attr(op, name).map(|a| e.m.ctx.attr_kind(a)) {
        Some(Attribute::DenseArray { values: mlir_ir::attrs::DenseValues::Ints(v), .. }) => {
            v.iter().map(|x| x.to_i64().ok_or_else(|| invalid(op, format!("'{name}' does not fit i64")))).collect()
        }
        _ => Err(invalid(op, format!("'{name}' must be a dense integer array"))),
    }
}

/// An integer attribute (`axis = 1 : i32`).
pub(crate) fn int_attr(e: &Engine, op: OpId, name: &str) -> Result<i64> {
    match e.m.attr(op, name).map(|a| e.m.ctx.attr_kind(a)) {
        Some(Attribute::Integer { value, .. }) => {
            value.to_i64().ok_or_else(|| invalid(op, format!("'{name}' does not fit i64")))
        }
        _ => Err(invalid(op, format!("missing integer attribute '{name}'"))),
    }
}

/// The body of a tosa enum attribute (`#tosa.nan_mode<IGNORE>` gives
/// `IGNORE`), or `default` when absent.
pub(crate) fn enum_attr<'a>(e: &'a Engine, op: OpId, name: &str, default: &'a str) -> &'a str {
    match e.m.attr(op, name).map(|a| e.m.ctx.attr_kind(a)) {
        Some(Attribute::Dialect { body, .. }) => {
            body.split_once('<').map_or(default, |(_, b)| b.trim_end_matches('>').trim())
        }
        _ => default,
    }
}

/// True when the `nan_mode` attribute says IGNORE (the default is PROPAGATE).
pub(crate) fn ignore_nan(e: &Engine, op: OpId) -> bool {
    enum_attr(e, op, "nan_mode", "PROPAGATE") == "IGNORE"
}

/// The sizes a `!tosa.shape` operand holds.
pub(crate) fn shape_operand(e: &Engine, fr: &Frame, op: OpId, i: usize) -> Result<Vec<i64>> {
    let d = dense(e, fr, op, i)?;
    (0..d.len()).map(|k| int_at(op, &d, k)).collect()
}

/// The one value a zero-point (or shift) operand holds: a one-element tensor.
pub(crate) fn scalar_operand(e: &Engine, fr: &Frame, op: OpId, i: usize) -> Result<Scalar> {
    let d = dense(e, fr, op, i)?;
    if d.len() != 1 {
        return Err(invalid(op, format!("operand #{i} must hold one element, it holds {}", d.len())));
    }
    Ok(d.get(0))
}
