//! The library's front door: parse a program, make an interpreter, call
//! functions with Rust values and `ndarray` arrays, get results back the
//! same way, with typed errors.
//!
//! ```
//! use mlir_interp::{Data, Interpreter, Program};
//!
//! let p = Program::parse("add.mlir", "
//!   func.func @add(%a: i32, %b: i32) -> i32 {
//!     %s = arith.addi %a, %b : i32
//!     return %s : i32
//!   }")?;
//! let mut i = Interpreter::new(&p)?;
//! assert_eq!(i.call("add", vec![Data::Int(40).into(), Data::Int(2).into()])?, vec![Data::Int(42)]);
//! # Ok::<(), mlir_interp::Error>(())
//! ```
//!
//! Arguments are checked against the function's signature: [`Data::Int`]
//! fits any integer or `index` parameter its value fits, [`Data::F32`] an
//! `f32`, a [`Tensor`] a tensor, vector or memref of its element type and
//! shape. Memrefs are copied in (a buffer the caller owns: the program may
//! not free it) and results copied out; [`Arg::Lent`] lends an `ndarray`
//! view as a memref in place instead.

use crate::exec::{Config, Engine, Observer};
use crate::float::{self, FloatKind};
use crate::lane::Lane;
use crate::scalar::{Int, Scalar};
use crate::value::Value;
pub use crate::view::Element;
use mlir_ir::diag::Source;
use mlir_ir::ir::{Module, OpId};
use mlir_ir::printer::type_to_string;
use mlir_ir::types::{TypeId, TypeKind, DYNAMIC};
use ndarray::{ArrayBase, ArrayD, Dimension, IxDyn};
use num_bigint::BigInt;
use num_complex::Complex;
use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;

pub use crate::lend::Lent;

/// What kind of failure an [`Error`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorClass {
    /// The program does not parse or verify, cannot be read, or declares a
    /// runtime function with the wrong signature (bad input).
    BadProgram,
    /// An argument does not fit its parameter, or there is no such function (bad input).
    BadArgument,
    /// Undefined behaviour (division by zero, out of bounds, use after
    /// free, poison where it is observed, a failed `cf.assert`, ...).
    UndefinedBehavior,
    /// An op, type or runtime function the interpreter does not execute.
    Unsupported,
    /// A limit: fuel, call depth, memory, time.
    Limit,
    /// An interpreter bug: the engine met IR that verified IR never has.
    Internal,
    /// A result has no library form (a function reference, a pointer, ...).
    NoLibraryForm,
}

/// Where in the program an error happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// The source's name.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
}

/// A failure of the library: its class, message, location and the
/// diagnostic as `mlir-interp run` prints it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Error {
    /// What kind of failure.
    pub class: ErrorClass,
    /// The message (`undefined behavior: signed division by zero: ...`).
    pub message: String,
    /// The op where it happened, if any.
    pub location: Option<Location>,
    /// The rendered diagnostic (`file:line:col: error: ...`, the line, a caret).
    pub diagnostic: String,
    /// The op and the notes (boxed: the error stays small enough to
    /// return by value).
    pub detail: Box<Detail>,
}

/// What an [`Error`] says beyond its message and location.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Detail {
    /// The name of the op where it happened (`memref.load`), if any.
    pub op: Option<String>,
    /// The places that explain it, as the diagnostic's notes show them:
    /// where the memory concerned was allocated, where a poison was made.
    pub notes: Vec<(Location, String)>,
}

impl Error {
    fn new(class: ErrorClass, message: String) -> Error {
        Error { class, diagnostic: format!("error: {message}\n"), message, location: None, detail: Box::default() }
    }

    /// The engine's error `e` in `p`.
    fn engine(p: &Program, e: &crate::error::Error) -> Error {
        use crate::error::ErrorKind as K;
        let class = match &e.kind {
            K::Ub(_)
            | K::MemUb { .. }
            | K::Poison { .. }
            | K::Assert(_)
            | K::Abort
            | K::RuntimeFatal(_)
            | K::NoDefinedResult(_) => ErrorClass::UndefinedBehavior,
            K::Unsupported(_) | K::RuntimeUnsupported(_) => ErrorClass::Unsupported,
            K::Fuel(_)
            | K::CallDepth(_)
            | K::MemoryLimit(_)
            | K::TimeLimit(_)
            | K::Resource(_)
            | K::Halted
            | K::Interrupted => ErrorClass::Limit,
            K::Internal(_) => ErrorClass::Internal,
            K::BadArgument(_) => ErrorClass::BadArgument,
            K::BadInput(_) => ErrorClass::BadProgram,
        };
        let location = e.op.map(|op| p.location(p.module.op(op).span));
        let op = e.op.map(|op| p.module.op_name(op).to_string());
        let notes = match e.op {
            Some(_) => e.to_diagnostic(&p.module).notes.iter().map(|(s, m)| (p.location(*s), m.clone())).collect(),
            None => Vec::new(),
        };
        let detail = Box::new(Detail { op, notes });
        Error { class, message: e.kind.to_string(), location, diagnostic: e.render(&p.module, &p.source), detail }
    }
}

/// A parsed and verified module with its source text.
pub struct Program {
    source: Source,
    module: Module,
}

impl Program {
    /// Parses and verifies `text` (named `name` in diagnostics).
    ///
    /// ```
    /// let err = mlir_interp::Program::parse("bad.mlir", "func.func @f( {").err().unwrap();
    /// assert_eq!(err.class, mlir_interp::ErrorClass::BadProgram);
    /// assert!(err.diagnostic.starts_with("bad.mlir:1:"));
    /// ```
    pub fn parse(name: &str, text: &str) -> Result<Program, Error> {
        Program::parse_lang(name, text, mlir_ir::Lang::Modern)
    }

    /// Parses and verifies `text` written in `lang` (the 2019 language
    /// builds the same IR, its spans on the 2019 text).
    ///
    /// ```
    /// let p = mlir_interp::Program::parse_lang("old.mlir", "func @f() {\n  return\n}\n", mlir_ir::Lang::Y2019);
    /// assert!(p.is_ok());
    /// ```
    pub fn parse_lang(name: &str, text: &str, lang: mlir_ir::Lang) -> Result<Program, Error> {
        let source = Source::new(name, text);
        match mlir_ir::parse_and_verify_lang(&source, &crate::driver::limits(), lang) {
            Ok(module) => Ok(Program { source, module }),
            Err(d) => {
                let at = |span: mlir_ir::diag::Span| {
                    let (line, column) = source.line_col(span.start);
                    Location { file: name.to_string(), line, column }
                };
                Err(Error {
                    class: ErrorClass::BadProgram,
                    message: d.message.clone(),
                    location: Some(at(d.span)),
                    diagnostic: d.render(&source),
                    detail: Box::new(Detail {
                        op: None,
                        notes: d.notes.iter().map(|(s, m)| (at(*s), m.clone())).collect(),
                    }),
                })
            }
        }
    }

    /// Where `span` starts in the source.
    fn location(&self, span: mlir_ir::diag::Span) -> Location {
        let (line, column) = self.source.line_col(span.start);
        Location { file: self.source.name.clone(), line, column }
    }

    /// Reads, parses and verifies the file at `path`.
    pub fn open(path: impl AsRef<std::path::Path>) -> Result<Program, Error> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path)
            .map_err(|e| Error::new(ErrorClass::BadProgram, format!("cannot read {}: {e}", path.display())))?;
        Program::parse(&path.display().to_string(), &text)
    }

    /// The IR.
    pub fn module(&self) -> &Module {
        &self.module
    }

    /// The source text.
    pub fn source(&self) -> &Source {
        &self.source
    }
}

/// A scalar or array argument or result.
#[derive(Clone, Debug, PartialEq)]
pub enum Data {
    /// An `i1`.
    Bool(bool),
    /// An integer or `index` of at most 128 bits, read as signed (an
    /// argument may also be given in the unsigned range of its width).
    Int(i128),
    /// An integer wider than 128 bits.
    Wide(BigInt),
    /// An `f16`.
    F16(half::f16),
    /// A `bf16`.
    BF16(half::bf16),
    /// An `f32`.
    F32(f32),
    /// An `f64`.
    F64(f64),
    /// Any float type by its encoding (fp8, fp6, fp4, tf32, f80, f128, ...).
    FloatBits(u128),
    /// A `complex<f32>`.
    Complex32(Complex<f32>),
    /// A `complex<f64>`.
    Complex64(Complex<f64>),
    /// A vector, tensor or memref.
    Array(Tensor),
    /// A poison scalar.
    Poison,
}

/// An argument of [`Interpreter::call`].
pub enum Arg<'a> {
    /// A value, checked against and converted to the parameter's type.
    Data(Data),
    /// An array lent as a memref parameter in place (see [`Lent`]).
    Lent(Lent<'a>),
}

impl From<Data> for Arg<'_> {
    fn from(d: Data) -> Self {
        Arg::Data(d)
    }
}

impl<'a> From<Lent<'a>> for Arg<'a> {
    fn from(l: Lent<'a>) -> Self {
        Arg::Lent(l)
    }
}

impl From<Tensor> for Arg<'_> {
    fn from(t: Tensor) -> Self {
        Arg::Data(Data::Array(t))
    }
}

/// The elements of a vector, tensor or memref: a shape and encoded
/// elements. Made from an `ndarray` array for an argument; a result's
/// converts back with [`Tensor::to_array`].
#[derive(Clone, PartialEq)]
pub struct Tensor {
    shape: Vec<usize>,
    bytes: Vec<u8>,
    elem: Elem,
    /// The first poison element of a result, if any.
    poison: Option<Vec<usize>>,
}

/// What a [`Tensor`]'s elements are.
#[derive(Clone, Copy, Debug)]
enum Elem {
    /// A Rust type, before the parameter type decides the lane.
    Rust { fits: fn(Lane) -> bool, size: usize, name: &'static str, show: fn(&[u8]) -> String },
    /// Elements of an MLIR value.
    Lane(Lane),
}

impl PartialEq for Elem {
    fn eq(&self, o: &Elem) -> bool {
        match (self, o) {
            (Elem::Rust { name: a, .. }, Elem::Rust { name: b, .. }) => a == b,
            (Elem::Lane(a), Elem::Lane(b)) => a == b,
            _ => false,
        }
    }
}

impl Tensor {
    /// The elements of `a`, in its logical (row-major) order.
    ///
    /// ```
    /// let t = mlir_interp::Tensor::from_array(&ndarray::array![[1.0f32, 2.0], [3.0, 4.0]]);
    /// assert_eq!(t.shape(), &[2, 2]);
    /// ```
    pub fn from_array<T: Element, S: ndarray::Data<Elem = T>, D: Dimension>(a: &ArrayBase<S, D>) -> Tensor {
        let mut bytes = Vec::with_capacity(a.len() * T::SIZE);
        for x in a.iter() {
            x.put(&mut bytes);
        }
        let show = |b: &[u8]| format!("{:?}", T::get(b));
        let elem = Elem::Rust { fits: T::fits, size: T::SIZE, name: std::any::type_name::<T>(), show };
        Tensor { shape: a.shape().to_vec(), bytes, elem, poison: None }
    }

    /// The shape.
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// The elements as `T`: an error if the element type does not convert
    /// to `T` (see [`Element`]) or an element is poison.
    pub fn to_array<T: Element>(&self) -> Result<ArrayD<T>, Error> {
        // An all-poison value knows no element type: name the poison first.
        if let Some(at) = &self.poison {
            return Err(Error::new(ErrorClass::NoLibraryForm, format!("the element at {at:?} is poison")));
        }
        let ok = match self.elem {
            Elem::Lane(l) => T::fits(l) && l.bytes() == T::SIZE,
            Elem::Rust { name, .. } => name == std::any::type_name::<T>(),
        };
        if !ok {
            let have = match self.elem {
                Elem::Lane(l) => lane_name(l),
                Elem::Rust { name, .. } => name.to_string(),
            };
            let msg = format!("elements of {have} do not convert to {}", std::any::type_name::<T>());
            return Err(Error::new(ErrorClass::NoLibraryForm, msg));
        }
        let v: Vec<T> = self.bytes.chunks_exact(T::SIZE).map(T::get).collect();
        ArrayD::from_shape_vec(IxDyn(&self.shape), v)
            .map_err(|e| Error::new(ErrorClass::NoLibraryForm, format!("a tensor of shape {:?}: {e}", self.shape)))
    }

    /// The dense value of this tensor's elements as `lane`, shaped `dims`
    /// of a parameter (`None` if the element type does not fit).
    fn dense(&self, lane: Lane) -> Option<crate::dense::Dense> {
        let fits = match self.elem {
            Elem::Rust { fits, size, .. } => fits(lane) && size == lane.bytes(),
            Elem::Lane(l) => l == lane,
        };
        if !fits {
            return None;
        }
        crate::dense::Dense::from_le_bytes(&self.shape, lane, self.bytes.clone()).ok()
    }

    /// A result's elements.
    fn of_dense(d: &crate::dense::Dense) -> Tensor {
        let poison = d.iter().position(|s| matches!(s, Scalar::Poison(_))).map(|i| {
            let mut idx = vec![0; d.shape().len()];
            let mut rest = i;
            for (k, n) in d.shape().iter().enumerate().rev() {
                idx[k] = rest % n.max(&1);
                rest /= n.max(&1);
            }
            idx
        });
        let lane = d.lane();
        let mut bytes = vec![0u8; d.len() * lane.bytes()];
        for (i, s) in d.iter().enumerate() {
            let at = i * lane.bytes();
            // A poison element has no encoding; its bytes stay zero.
            let _ = lane.encode(&s, &mut bytes[at..at + lane.bytes()]);
        }
        Tensor { shape: d.shape().to_vec(), bytes, elem: Elem::Lane(lane), poison }
    }
}

/// Elements [`Tensor`]'s `Debug` shows before it cuts the list short.
const DEBUG_ELEMENTS: usize = 16;

impl std::fmt::Debug for Tensor {
    /// The shape, the element type and the elements (the first few), as
    /// `Tensor { shape: [2, 2], elem: f32, elements: [1.0, 2.0, 3.0, 4.0] }`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (elem, texts): (String, Vec<String>) = match self.elem {
            Elem::Rust { name, size, show, .. } => {
                (name.to_string(), self.bytes.chunks_exact(size.max(1)).take(DEBUG_ELEMENTS).map(show).collect())
            }
            Elem::Lane(l) => {
                let d = crate::dense::Dense::from_le_bytes(&self.shape, l, self.bytes.clone()).ok();
                let texts = d.map(|d| d.iter().take(DEBUG_ELEMENTS).map(|s| crate::show::scalar(&s)).collect());
                (lane_name(l), texts.unwrap_or_default())
            }
        };
        let count: usize = self.shape.iter().product();
        let more = if count > texts.len() { format!(", ... ({count} in all)") } else { String::new() };
        write!(f, "Tensor {{ shape: {:?}, elem: {elem}, elements: [{}{more}]", self.shape, texts.join(", "))?;
        if let Some(at) = &self.poison {
            write!(f, ", poison at: {at:?}")?;
        }
        write!(f, " }}")
    }
}

/// An element type's MLIR name.
fn lane_name(l: Lane) -> String {
    match l {
        Lane::Int(w) => format!("i{w}"),
        Lane::Float(k) => k.name().to_string(),
        Lane::Complex(k) => format!("complex<{}>", k.name()),
    }
}

/// A program loaded to run: call its functions, read what it printed.
pub struct Interpreter<'p> {
    program: &'p Program,
    engine: Engine<'p>,
    printed: Option<Rc<RefCell<Vec<u8>>>>,
}

/// A writer into a shared buffer (what the program prints, kept).
struct Capture(Rc<RefCell<Vec<u8>>>);

impl Write for Capture {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'p> Interpreter<'p> {
    /// The configuration a library interpreter starts from: the engine's
    /// defaults with a call depth of 256, which the default 2 MiB stack of
    /// a spawned thread holds (raise both together: each level of
    /// interpreted call reserves up to [`crate::exec::STACK_PER_CALL`]
    /// bytes of host stack).
    pub fn default_config() -> Config {
        Config { max_call_depth: 256, ..Config::default() }
    }

    /// An interpreter of `program` with [`Interpreter::default_config`];
    /// what the program prints is kept (see [`Interpreter::take_printed`]).
    pub fn new(program: &'p Program) -> Result<Interpreter<'p>, Error> {
        Interpreter::with_config(program, Interpreter::default_config())
    }

    /// An interpreter of `program` with limits and target parameters `cfg`.
    pub fn with_config(program: &'p Program, cfg: Config) -> Result<Interpreter<'p>, Error> {
        let printed = Rc::new(RefCell::new(Vec::new()));
        let engine = Engine::load(&program.module, cfg, Box::new(Capture(printed.clone())))
            .map_err(|e| Error::engine(program, &e))?;
        Ok(Interpreter { program, engine, printed: Some(printed) })
    }

    /// Sends what the program prints to `out` instead of keeping it.
    pub fn print_to(&mut self, out: Box<dyn Write + 'p>) {
        self.engine.out = out;
        self.printed = None;
    }

    /// What the program printed since the last call of this (empty once
    /// [`Interpreter::print_to`] redirected it).
    pub fn take_printed(&mut self) -> String {
        match &self.printed {
            Some(p) => String::from_utf8_lossy(&std::mem::take(&mut *p.borrow_mut())).into_owned(),
            None => String::new(),
        }
    }

    /// Attaches `o`, told of every op, region, call and return of later calls.
    pub fn observe(&mut self, o: impl Observer + 'p) {
        self.engine.observer = Some(Box::new(o));
    }

    /// Detaches the observer.
    pub fn stop_observing(&mut self) {
        self.engine.observer = None;
    }

    /// The engine, for what this API does not cover.
    pub fn engine(&mut self) -> &mut Engine<'p> {
        &mut self.engine
    }

    /// Calls the defined function `name` with `args` (one per parameter,
    /// checked against its type) and returns its results.
    ///
    /// ```
    /// use mlir_interp::{Data, ErrorClass, Interpreter, Program, Tensor};
    /// let p = Program::parse("t.mlir", "
    ///   func.func @sum(%t: tensor<3xi64>) -> i64 {
    ///     %c0 = arith.constant 0 : index
    ///     %z = arith.constant 0 : i64
    ///     %s = tensor.extract %t[%c0] : tensor<3xi64>
    ///     return %s : i64
    ///   }
    ///   func.func @div(%a: i32, %b: i32) -> i32 {
    ///     %q = arith.divsi %a, %b : i32
    ///     return %q : i32
    ///   }")?;
    /// let mut i = Interpreter::new(&p)?;
    /// let t = Tensor::from_array(&ndarray::array![7i64, 8, 9]);
    /// assert_eq!(i.call("sum", vec![t.into()])?, vec![Data::Int(7)]);
    /// let err = i.call("div", vec![Data::Int(1).into(), Data::Int(0).into()]).unwrap_err();
    /// assert_eq!(err.class, ErrorClass::UndefinedBehavior);
    /// assert_eq!(err.location.unwrap().line, 9);
    /// let err = i.call("div", vec![Data::F32(1.0).into(), Data::Int(0).into()]).unwrap_err();
    /// assert_eq!(err.message, "argument #0 of 'div' (i32): an f32 does not fit i32");
    /// # Ok::<(), mlir_interp::Error>(())
    /// ```
    pub fn call(&mut self, name: &str, args: Vec<Arg<'_>>) -> Result<Vec<Data>, Error> {
        // Results are read before lent arrays are given back: a returned
        // memref on one is copied out like any other.
        self.invoke(name, args, |e, op, results, types| {
            results.iter().zip(types).map(|(v, t)| from_value(e, op, *t, v)).collect::<Result<Vec<Data>, Error>>()
        })?
    }

    /// Calls `name` as [`Interpreter::call`] does, then hands its results
    /// to `then` before anything is freed or given back: a memref result
    /// in place, to view as an `ndarray` without a copy
    /// ([`MemRef::with_view`](crate::memory::MemRef::with_view)), any
    /// other as [`Data`].
    ///
    /// ```
    /// use mlir_interp::{Interpreter, Program, Returned};
    /// let p = Program::parse("t.mlir", "
    ///   func.func @iota() -> memref<2x2xf32> {
    ///     %m = memref.alloc() : memref<2x2xf32>
    ///     %c0 = arith.constant 0 : index
    ///     %c1 = arith.constant 1 : index
    ///     %one = arith.constant 1.0 : f32
    ///     %two = arith.constant 2.0 : f32
    ///     memref.store %one, %m[%c0, %c0] : memref<2x2xf32>
    ///     memref.store %two, %m[%c0, %c1] : memref<2x2xf32>
    ///     memref.store %one, %m[%c1, %c0] : memref<2x2xf32>
    ///     memref.store %two, %m[%c1, %c1] : memref<2x2xf32>
    ///     return %m : memref<2x2xf32>
    ///   }")?;
    /// let mut i = Interpreter::new(&p)?;
    /// let sum = i.call_then("iota", vec![], |r| match &r[0] {
    ///     Returned::Memref(m) => m.with_view::<f32, _>(|v| v.sum()).ok(),
    ///     Returned::Data(_) => None,
    /// })?;
    /// assert_eq!(sum, Some(6.0));
    /// # Ok::<(), mlir_interp::Error>(())
    /// ```
    pub fn call_then<R>(
        &mut self,
        name: &str,
        args: Vec<Arg<'_>>,
        then: impl FnOnce(&[Returned<'_>]) -> R,
    ) -> Result<R, Error> {
        self.invoke(name, args, |e, op, results, types| {
            let mut out = Vec::with_capacity(results.len());
            for (v, t) in results.iter().zip(types) {
                out.push(match v {
                    Value::Memref(m) => Returned::Memref(m),
                    other => Returned::Data(from_value(e, op, *t, other)?),
                });
            }
            Ok(then(&out))
        })?
    }

    /// Checks `args` against `name`'s parameters, runs it, and gives
    /// `then` the engine, the function's op, its results and their types.
    fn invoke<R>(
        &mut self,
        name: &str,
        args: Vec<Arg<'_>>,
        then: impl FnOnce(&Engine<'_>, OpId, &[Value], &[TypeId]) -> R,
    ) -> Result<R, Error> {
        let p = self.program;
        let f = self
            .engine
            .func_by_name(name)
            .ok_or_else(|| Error::new(ErrorClass::BadArgument, format!("no function named '{name}'")))?;
        let func = self.engine.funcs[f.0 as usize].clone();
        if func.body.is_none() {
            return Err(Error::new(ErrorClass::BadArgument, format!("'{name}' is a declaration without a body")));
        }
        if func.inputs.len() != args.len() {
            let msg = format!("'{name}' takes {} argument(s), {} given", func.inputs.len(), args.len());
            return Err(Error::new(ErrorClass::BadArgument, msg));
        }
        let mut vals = Vec::with_capacity(args.len());
        for (i, (a, ty)) in args.into_iter().zip(&func.inputs).enumerate() {
            vals.push(match a {
                Arg::Lent(l) => crate::lend::Arg::Array(l),
                Arg::Data(d) => {
                    let what = || format!("argument #{i} of '{name}' ({})", type_to_string(&p.module.ctx, *ty));
                    let v = to_value(&mut self.engine, func.op, *ty, d)
                        .map_err(|m| Error::new(ErrorClass::BadArgument, format!("{}: {m}", what())))?;
                    crate::lend::Arg::Value(v)
                }
            });
        }
        let run = |e: &Engine<'_>, results: Vec<Value>| then(e, func.op, &results, &func.results);
        self.engine.invoke_lending_then(name, vals, run).map_err(|e| Error::engine(p, &e))
    }
}

/// A result of [`Interpreter::call_then`], before the call's memory is
/// given back.
pub enum Returned<'r> {
    /// A memref result, in place: view it with
    /// [`MemRef::with_view`](crate::memory::MemRef::with_view) or copy it
    /// with [`MemRef::to_array`](crate::memory::MemRef::to_array).
    Memref(&'r crate::memory::MemRef),
    /// Any other result, as [`Interpreter::call`] gives it.
    Data(Data),
}

/// The engine value of `d` as a parameter of type `ty`, or why it does not fit.
fn to_value(e: &mut Engine, op: OpId, ty: TypeId, d: Data) -> Result<Value, String> {
    let ctx = &e.m.ctx;
    let tname = type_to_string(ctx, ty);
    let kind = ctx.type_kind(ty).clone();
    let scalar = |s: Scalar| Ok(Value::from_scalar(s));
    let float = |k: FloatKind, bits: u128| scalar(Scalar::Float(float::from_bits(k, bits)));
    let int_width = match &kind {
        TypeKind::Integer { width, .. } => Some(*width),
        TypeKind::Index => Some(e.cfg.index_bits),
        _ => None,
    };
    match (d, &kind) {
        (Data::Bool(b), _) if int_width == Some(1) => scalar(Scalar::Int(Int::bool(b))),
        (Data::Int(v), _) if int_width.is_some() => {
            let w = int_width.unwrap_or(64);
            let fits = w >= 128 || (v >= -(1i128 << (w - 1)) && v < (1i128 << w));
            if !fits {
                return Err(format!("{v} does not fit {tname}"));
            }
            scalar(Scalar::Int(Int::from_i128(w, v)))
        }
        (Data::Wide(v), _) if int_width.is_some() => {
            let w = int_width.unwrap_or(64);
            if v.bits() > u64::from(w) {
                return Err(format!("{v} does not fit {tname}"));
            }
            scalar(Scalar::Int(Int::from_big(w, &v)))
        }
        (Data::F16(x), TypeKind::Float(FloatKind::F16)) => float(FloatKind::F16, u128::from(x.to_bits())),
        (Data::BF16(x), TypeKind::Float(FloatKind::BF16)) => float(FloatKind::BF16, u128::from(x.to_bits())),
        (Data::F32(x), TypeKind::Float(FloatKind::F32)) => float(FloatKind::F32, u128::from(x.to_bits())),
        (Data::F64(x), TypeKind::Float(FloatKind::F64)) => float(FloatKind::F64, u128::from(x.to_bits())),
        (Data::FloatBits(b), TypeKind::Float(k)) => {
            if k.bit_width() < 128 && b >> k.bit_width() != 0 {
                return Err(format!("{b:#x} has more bits than {tname}"));
            }
            float(*k, b)
        }
        (Data::Complex32(c), TypeKind::Complex(t)) if ctx.type_kind(*t) == &TypeKind::Float(FloatKind::F32) => {
            let part = |x: f32| float::from_bits(FloatKind::F32, u128::from(x.to_bits()));
            scalar(Scalar::complex(part(c.re), part(c.im)))
        }
        (Data::Complex64(c), TypeKind::Complex(t)) if ctx.type_kind(*t) == &TypeKind::Float(FloatKind::F64) => {
            let part = |x: f64| float::from_bits(FloatKind::F64, u128::from(x.to_bits()));
            scalar(Scalar::complex(part(c.re), part(c.im)))
        }
        (Data::Poison, TypeKind::Integer { .. } | TypeKind::Index | TypeKind::Float(_) | TypeKind::Complex(_)) => {
            Ok(Value::poison(op))
        }
        (Data::Array(t), TypeKind::RankedTensor { shape, elem, .. } | TypeKind::Vector { shape, elem, .. }) => {
            Ok(Value::Array(Rc::new(array_of(e, &t, shape, *elem, &tname)?)))
        }
        (Data::Array(t), TypeKind::MemRef { shape, elem, .. }) => {
            let d = array_of(e, &t, shape, *elem, &tname)?;
            crate::args::memref_value(e, op, ty, &d)
        }
        (d, _) => Err(format!("{} does not fit {tname}", describe(&d))),
    }
}

/// `t` as the elements of a value of `shape` and element type `elem`.
fn array_of(e: &Engine, t: &Tensor, shape: &[i64], elem: TypeId, tname: &str) -> Result<crate::dense::Dense, String> {
    let lane = crate::operands::lane_of(e, elem).ok_or_else(|| format!("{tname} has no array form"))?;
    let fits =
        shape.len() == t.shape.len() && shape.iter().zip(&t.shape).all(|(s, n)| *s == DYNAMIC || *s == *n as i64);
    if !fits {
        return Err(format!("an array of shape {:?} does not fit {tname}", t.shape));
    }
    t.dense(lane).ok_or_else(|| {
        let have = match t.elem {
            Elem::Rust { name, .. } => name.to_string(),
            Elem::Lane(l) => lane_name(l),
        };
        format!("an array of {have} does not fit {tname}")
    })
}

/// A value's kind in messages (`an f32`, `an array of i32`).
fn describe(d: &Data) -> String {
    match d {
        Data::Bool(_) => "a bool".into(),
        Data::Int(v) => format!("the integer {v}"),
        Data::Wide(v) => format!("the integer {v}"),
        Data::F16(_) => "an f16".into(),
        Data::BF16(_) => "a bf16".into(),
        Data::F32(_) => "an f32".into(),
        Data::F64(_) => "an f64".into(),
        Data::FloatBits(_) => "float bits".into(),
        Data::Complex32(_) => "a complex<f32>".into(),
        Data::Complex64(_) => "a complex<f64>".into(),
        Data::Array(t) => format!("an array of shape {:?}", t.shape),
        Data::Poison => "poison".into(),
    }
}

/// The library form of result `v` of type `ty`.
fn from_value(e: &Engine, op: OpId, ty: TypeId, v: &Value) -> Result<Data, Error> {
    let no_form = |what: &str| {
        let t = type_to_string(&e.m.ctx, ty);
        Error::new(ErrorClass::NoLibraryForm, format!("a result of type {t} ({what}) has no library form"))
    };
    match v.scalar() {
        Some(Scalar::Poison(_)) => Ok(Data::Poison),
        Some(Scalar::Int(i)) if i.width() == 1 => Ok(Data::Bool(i.is_nonzero())),
        Some(Scalar::Int(i)) => {
            let s = i.to_sbig();
            Ok(i128::try_from(&s).map_or(Data::Wide(s), Data::Int))
        }
        Some(Scalar::Float(f)) => Ok(match f.kind {
            FloatKind::F16 => Data::F16(half::f16::from_bits(f.bits as u16)),
            FloatKind::BF16 => Data::BF16(half::bf16::from_bits(f.bits as u16)),
            FloatKind::F32 => Data::F32(f32::from_bits(f.bits as u32)),
            FloatKind::F64 => Data::F64(f64::from_bits(f.bits as u64)),
            _ => Data::FloatBits(f.bits),
        }),
        Some(Scalar::Complex(c)) => {
            let (re, im) = c.parts();
            match re.kind {
                FloatKind::F32 => {
                    Ok(Data::Complex32(Complex::new(f32::from_bits(re.bits as u32), f32::from_bits(im.bits as u32))))
                }
                FloatKind::F64 => {
                    Ok(Data::Complex64(Complex::new(f64::from_bits(re.bits as u64), f64::from_bits(im.bits as u64))))
                }
                _ => Err(no_form("a complex number whose parts are neither f32 nor f64")),
            }
        }
        _ => match v {
            Value::Array(d) => Ok(Data::Array(Tensor::of_dense(d))),
            Value::Sparse(s) => {
                let d = s.dense().map_err(|x| no_form(&format!("a sparse tensor whose elements fail: {x:?}")))?;
                Ok(Data::Array(Tensor::of_dense(&d)))
            }
            Value::Memref(m) => {
                let d = m.read_all(op, "return").map_err(|x| no_form(&x.kind.to_string()))?;
                Ok(Data::Array(Tensor::of_dense(&d)))
            }
            Value::Func(_) => Err(no_form("a function")),
            Value::Ptr(_) => Err(no_form("a pointer")),
            Value::Agg(_) => Err(no_form("an LLVM struct or array")),
            Value::Opaque => Err(no_form("opaque")),
            Value::Scalar(_) | Value::Wide(_) => Err(no_form("this scalar")),
        },
    }
}
