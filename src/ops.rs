//! The registry of known operations, declared once as data: each op's name,
//! its structural traits, and the syntax family its custom form belongs to.
//! The parser, printer, verifier and engine all read this one table.

/// Structural traits of an op (a bit set).
pub mod traits {
    /// Must be the last op of its block.
    pub const TERMINATOR: u32 = 1;
    /// Its regions cannot see values defined outside.
    pub const ISOLATED: u32 = 2;
    /// Its single-block regions need no terminator.
    pub const NO_TERMINATOR: u32 = 4;
    /// Its regions are graph regions (no dominance).
    pub const GRAPH: u32 = 8;
    /// Its regions hold a symbol table.
    pub const SYMBOL_TABLE: u32 = 16;
    /// Its region's terminator (`scf.yield` etc.) may be omitted when it
    /// yields nothing; the parser inserts it.
    pub const IMPLICIT_TERMINATOR: u32 = 32;
}

use traits::*;

/// The syntax family of an op's custom form; the parser has one routine per
/// family, so adding an op of an existing family is one table row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fmt {
    /// No custom form is implemented: the op must be written generically.
    GenericOnly,
    /// `builtin.module @name attributes {..} { .. }`.
    Module,
    /// `func.func @f(%a: T) -> T attributes {..} { .. }` (or a declaration).
    Func,
    /// `return %a, %b : T, T` (also `scf.yield`, `affine.yield`, ...).
    Return,
    /// `func.call @f(%a) : (T) -> T`.
    Call,
    /// `func.call_indirect %f(%a) : (T) -> T`.
    CallIndirect,
    /// `func.constant @f : (T) -> T`.
    FuncConstant,
    /// `cf.br ^bb(%a : T)`.
    Br,
    /// `cf.cond_br %c, ^a(..), ^b(..)`.
    CondBr,
    /// `cf.switch %flag : i32, [default: ^bb, 42: ^bb1(..)]`.
    Switch,
    /// `cf.assert %c, "msg"`.
    Assert,
    /// `arith.constant 42 : i32` (value attribute, type from it).
    Constant,
    /// `%a, %b [flags] : T` with every operand and result of type T.
    Binary,
    /// `%a [flags] : T` with operand and result of type T.
    Unary,
    /// `%a, %b, %c [flags] : T` (fma-like ternary, same types).
    Ternary,
    /// `%a [flags] : T to U`.
    Cast,
    /// `pred, %a, %b : T` producing i1 (or a shaped i1).
    Cmp,
    /// `%c, %a, %b : [C,] T`.
    Select,
    /// `%a, %b : T` with two results of type T (`addui_extended` has `, i1`).
    BinaryTwoResults,
    /// `index.constant 42`.
    IndexConstant,
    /// `index.bool.constant true`.
    BoolConstant,
    /// `index.sizeof`.
    NoOperands,
    /// `ub.poison : T` (attribute optional: `<#ub.poison>`).
    Poison,
    /// `scf.for %i = %lb to %ub step %s iter_args(..) -> (..) { }`.
    ScfFor,
    /// `scf.if %c -> (T) { } else { }`.
    ScfIf,
    /// `scf.while (%a = %init) : (T) -> T { } do { }`.
    ScfWhile,
    /// `scf.condition(%c) %args : T`.
    ScfCondition,
    /// `scf.execute_region -> T { }`.
    ScfExecuteRegion,
    /// `scf.index_switch %i -> T case 1 { } default { }`.
    ScfIndexSwitch,
    /// `scf.parallel (%i) = (%lb) to (%ub) step (%s) init (%x) -> T { }`.
    ScfParallel,
    /// `scf.reduce(%a : T) { }`.
    ScfReduce,
    /// `scf.forall (%i) in (%n) shared_outs(..) -> T { }`.
    ScfForall,
    /// `scf.forall.in_parallel { }`.
    InParallel,
    /// `builtin.unrealized_conversion_cast %a : T to U`.
    ConversionCast,
    /// `%a, %b [fastmath] : T, U` with the result of type T (`math.fpowi`).
    BinaryTwoTypes,
    /// `%a [fastmath] : T` producing an i1-shaped result (`math.isnan`).
    Predicate,
    /// `%a [fastmath] : T` producing two results of type T (`math.sincos`).
    UnaryTwoResults,
    /// `%v to [%lo, %hi] [fastmath] : T` (`math.clampf`).
    Clamp,
    /// `%c [fastmath] : complex<T>` producing a T (`complex.abs`, `re`).
    ComplexToReal,
    /// `%re, %im : complex<T>` (`complex.create`).
    ComplexCreate,
    /// `[re, im] : complex<T>` (`complex.constant`).
    ComplexConstant,
    /// `%a, %b : T` producing i1 (`complex.eq`).
    Equality,
    /// `(%dyn)[%sym] : memref<..>` (`memref.alloc`, `alloca`).
    MemAlloc,
    /// `%m[%i, ..] : memref<..>` producing an element.
    MemLoad,
    /// `%v, %m[%i, ..] : memref<..>`.
    MemStore,
    /// `%m : memref<..>` with no result (`memref.dealloc`).
    MemDealloc,
    /// `%a, %b : T to U` with no result (`memref.copy`).
    MemCopy,
    /// `%m, %i : T` producing index (`memref.dim`).
    MemDim,
    /// `%m : T` producing index (`memref.rank`).
    MemRank,
    /// `%m[offsets] [sizes] [strides] : T to U`.
    MemSubview,
    /// `%m[%offset][%sizes] : T to U`.
    MemView,
    /// `%m to offset: [..], sizes: [..], strides: [..] : T to U`.
    MemReinterpretCast,
    /// `%m [[0, 1], ..] output_shape [..] : T into U`.
    ExpandShape,
    /// `%m [[0, 1], ..] : T into U`.
    CollapseShape,
    /// `%m (d0, d1) -> (d1, d0) : T to U`.
    MemTranspose,
    /// `"private" constant @g : T = dense<..>`.
    MemGlobal,
    /// `@g : T`.
    MemGetGlobal,
    /// `addf %v, %m[%i] : (T, M) -> T`.
    MemAtomicRmw,
    /// `%m[%i] : M { ^bb0(%cur: T): .. }`.
    MemGenericAtomicRmw,
    /// `-> (T) { .. }` (`memref.alloca_scope`).
    AllocaScope,
    /// `%m : T -> memref<E>, index, ..`.
    ExtractMetadata,
    /// `%m, N : T` (`memref.assume_alignment`).
    AssumeAlignment,
    /// `%m[%i], read, locality<3>, data : T`.
    Prefetch,
    /// `%m(%size) : T to U` (`memref.realloc`).
    Realloc,
    /// `%m(%shape) : (T, S) -> U` (`memref.reshape`).
    Reshape,
    /// `%src[..], %dst[..], %n, %tag[..] : S, D, T`.
    DmaStart,
    /// `%tag[..], %n : T`.
    DmaWait,
    /// `affine.for %i = max #m(%a)[%s] to 10 step 2 iter_args(..) -> (T) { }`.
    AffineFor,
    /// `affine.if #set(%d)[%s] -> (T) { } else { }`.
    AffineIf,
    /// `affine.apply #map(%d)[%s]`.
    AffineApply,
    /// `affine.min #map(%d)[%s]` (also `affine.max`).
    AffineMinMax,
    /// `%m[%i + 1, symbol(%n)] : memref<..>` (`, vector<..>` for vector_load).
    AffineLoad,
    /// `%v, %m[%i + 1] : memref<..>` (`, vector<..>` for vector_store).
    AffineStore,
    /// `affine.parallel (%i) = (0) to (max(..)) step (2) reduce ("addf") -> T { }`.
    AffineParallel,
    /// `%m[%i], read, locality<3>, data : memref<..>`.
    AffinePrefetch,
    /// `%src[..], %dst[..], %tag[..], %n[, %stride, %per] : S, D, T`.
    AffineDmaStart,
    /// `%tag[..], %n : T`.
    AffineDmaWait,
    /// `%lin into (%b, 4) : index, index`.
    AffineDelinearize,
    /// `[disjoint] [%a, %b] by (%b, 4) : index`.
    AffineLinearize,
    /// A bare op name with no operands or results (`ub.unreachable`).
    Bare,
    /// `(%d, ..) : tensor<..>` (`tensor.empty`).
    TensorEmpty,
    /// `%v into %t[%i, ..] : tensor<..>`.
    TensorInsert,
    /// `%a, %b : tensor<2xT>`.
    FromElements,
    /// `%d, .. { ^bb0(%i: index): .. } : tensor<..>` (`tensor.generate`).
    Generate,
    /// `%v[%d, ..] : tensor<..>` (`tensor.splat`).
    Splat,
    /// `%s into %d[offsets] [sizes] [strides] : T into U`.
    InsertSlice,
    /// `%t nofold low[..] high[..] { .. } : T to U`.
    Pad,
    /// `dim(0) %a, %b : (T, T) -> U`.
    Concat,
    /// `%s[%i] gather_dims([0]) unique : (S, I) -> R` (also scatter with `into %d`).
    Gather,
    /// `%v restrict writable : T to U` (bufferization casts with unit flags).
    FlaggedCast,
    /// `(%d) copy(%t) size_hint=%n : tensor<..>`.
    AllocTensor,
    /// `(%m : M) if (%c) retain (%r : R)`.
    BufDealloc,
    /// `%src in restrict writable %dst : (S, D) -> R`.
    Materialize,
    /// `%v : vector<4xT>` producing four `T`s (`vector.to_elements`).
    ToElements,
    /// `%v[%i, 2] : R from V` (also `scalable.extract` with `[4]`).
    VecExtract,
    /// `%x, %v[%i, 2] : X into V` (also `scalable.insert`).
    VecInsert,
    /// `%a, %b {attrs} : A into B` (`vector.insert_strided_slice`).
    InsertStrided,
    /// `%a, %b [0, 4, 1] : A, B`.
    Shuffle,
    /// `%a, %b : T -> R`.
    Interleave,
    /// `%a : T -> R` producing two results of type R.
    Deinterleave,
    /// `%v, [1, 0] : T to U`.
    VecTranspose,
    /// `: T` with no operands (`vector.step`).
    TypeOnly,
    /// `%a, %b : vector<..xi1>`.
    CreateMask,
    /// `[3, 2] : vector<..xi1>`.
    ConstantMask,
    /// `vector.load`/`store`/`maskedload`/`gather`/...: `%base[%i..], .. : types`.
    VecMemory,
    /// `%src[%i..], %pad[, %mask] {..} : S, V`.
    TransferRead,
    /// `%v, %dst[%i..][, %mask] {..} : V, S`.
    TransferWrite,
    /// `<add>, %v[, %acc] [fastmath<..>] : V into T`.
    Reduction,
    /// `<add>, %src, %acc [1] : S to D`.
    MultiReduction,
    /// `<add>, %src, %init {..} : S, I`.
    Scan,
    /// `{trait} %a, %b, %c : A, B into C`.
    Contract,
    /// `%a, %b[, %acc] {kind} : A, B`.
    OuterProduct,
    /// `[%v : T] [str "s"] [punctuation <p>]`.
    VecPrint,
    /// `%mask[, %passthru] { op } : M [-> R]`.
    VecMask,
    /// `[bin] %a, %b, .. : T` (comb's variadic ops, all of type T).
    CombVariadic,
    /// `[bin] %a : T` (`comb.inv` gives T, `comb.parity` gives i1).
    CombUnary,
    /// `%a, %b : T, U` producing the concatenated width.
    CombConcat,
    /// `%a from 3 : (T) -> U`.
    CombExtract,
    /// `[bin] eq %a, %b : T` producing i1.
    CombIcmp,
    /// `%a, %b {coefficients = .., lookupTable = ..} : (T, U) -> i8`.
    CombLut,
    /// `[bin] %c, %a, %b : T`.
    CombMux,
    /// `%a : (T) -> U`.
    CombReplicate,
    /// `%a, %b -> 6 : ui4`.
    CombTruthTable,
}

macro_rules! ops {
    ($($v:ident = $name:literal, $traits:expr, $fmt:ident;)*) => {
        /// Every op the IR knows by name; anything else is [`OpKind::Unknown`].
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum OpKind {
            /// An op of a dialect this tool does not know.
            Unknown,
            $(#[doc = $name] $v,)*
        }

        impl OpKind {
            /// Every known op.
            pub const ALL: &'static [OpKind] = &[$(OpKind::$v,)*];

            /// The full op name.
            pub fn name(self) -> &'static str {
                match self { OpKind::Unknown => "<unknown>", $(OpKind::$v => $name,)* }
            }

            /// The op's trait bits (see [`traits`]).
            pub fn traits(self) -> u32 {
                match self { OpKind::Unknown => 0, $(OpKind::$v => $traits,)* }
            }

            /// The syntax family of the custom form.
            pub fn fmt(self) -> Fmt {
                match self { OpKind::Unknown => Fmt::GenericOnly, $(OpKind::$v => Fmt::$fmt,)* }
            }

            /// The op called `name`, if known.
            pub fn from_name(name: &str) -> Option<OpKind> {
                match name { $($name => Some(OpKind::$v),)* _ => None }
            }
        }
    };
}

/// `arith.cmpi` predicates in enum order.
pub const CMPI_PREDICATES: &[&str] = &["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"];
/// `arith.cmpf` predicates in enum order.
pub const CMPF_PREDICATES: &[&str] = &[
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true",
];
/// `arith.truncf` rounding modes in enum order.
pub const ROUNDING_MODES: &[&str] = &["to_nearest_even", "downward", "upward", "toward_zero", "to_nearest_away"];

/// Dialects whose op list here is complete: an unknown op name in one of them
/// is an error, as in mlir-opt, rather than an unregistered op.
pub const CLOSED_DIALECTS: &[&str] = &[
    "comb",
    "builtin",
    "func",
    "cf",
    "arith",
    "index",
    "ub",
    "scf",
    "math",
    "complex",
    "memref",
    "affine",
    "tensor",
    "bufferization",
    "vector",
];

impl OpKind {
    /// True when the op has trait bit `t`.
    pub fn has(self, t: u32) -> bool {
        self.traits() & t != 0
    }
}

ops! {
    BuiltinModule = "builtin.module", ISOLATED | NO_TERMINATOR | GRAPH | SYMBOL_TABLE, Module;
    UnrealizedConversionCast = "builtin.unrealized_conversion_cast", 0, ConversionCast;

    FuncFunc = "func.func", ISOLATED, Func;
    FuncReturn = "func.return", TERMINATOR, Return;
    FuncCall = "func.call", 0, Call;
    FuncCallIndirect = "func.call_indirect", 0, CallIndirect;
    FuncConstant = "func.constant", 0, FuncConstant;

    CfBr = "cf.br", TERMINATOR, Br;
    CfCondBr = "cf.cond_br", TERMINATOR, CondBr;
    CfSwitch = "cf.switch", TERMINATOR, Switch;
    CfAssert = "cf.assert", 0, Assert;

    ArithConstant = "arith.constant", 0, Constant;
    ArithAddi = "arith.addi", 0, Binary;
    ArithSubi = "arith.subi", 0, Binary;
    ArithMuli = "arith.muli", 0, Binary;
    ArithDivsi = "arith.divsi", 0, Binary;
    ArithDivui = "arith.divui", 0, Binary;
    ArithCeildivsi = "arith.ceildivsi", 0, Binary;
    ArithCeildivui = "arith.ceildivui", 0, Binary;
    ArithFloordivsi = "arith.floordivsi", 0, Binary;
    ArithRemsi = "arith.remsi", 0, Binary;
    ArithRemui = "arith.remui", 0, Binary;
    ArithAndi = "arith.andi", 0, Binary;
    ArithOri = "arith.ori", 0, Binary;
    ArithXori = "arith.xori", 0, Binary;
    ArithShli = "arith.shli", 0, Binary;
    ArithShrsi = "arith.shrsi", 0, Binary;
    ArithShrui = "arith.shrui", 0, Binary;
    ArithMaxsi = "arith.maxsi", 0, Binary;
    ArithMaxui = "arith.maxui", 0, Binary;
    ArithMinsi = "arith.minsi", 0, Binary;
    ArithMinui = "arith.minui", 0, Binary;
    ArithAdduiExtended = "arith.addui_extended", 0, BinaryTwoResults;
    ArithMulsiExtended = "arith.mulsi_extended", 0, BinaryTwoResults;
    ArithMuluiExtended = "arith.mului_extended", 0, BinaryTwoResults;
    ArithCmpi = "arith.cmpi", 0, Cmp;
    ArithCmpf = "arith.cmpf", 0, Cmp;
    ArithSelect = "arith.select", 0, Select;
    ArithExtsi = "arith.extsi", 0, Cast;
    ArithExtui = "arith.extui", 0, Cast;
    ArithTrunci = "arith.trunci", 0, Cast;
    ArithIndexCast = "arith.index_cast", 0, Cast;
    ArithIndexCastui = "arith.index_castui", 0, Cast;
    ArithBitcast = "arith.bitcast", 0, Cast;
    ArithSitofp = "arith.sitofp", 0, Cast;
    ArithUitofp = "arith.uitofp", 0, Cast;
    ArithFptosi = "arith.fptosi", 0, Cast;
    ArithFptoui = "arith.fptoui", 0, Cast;
    ArithExtf = "arith.extf", 0, Cast;
    ArithTruncf = "arith.truncf", 0, Cast;
    ArithScalingExtf = "arith.scaling_extf", 0, GenericOnly;
    ArithScalingTruncf = "arith.scaling_truncf", 0, GenericOnly;
    ArithAddf = "arith.addf", 0, Binary;
    ArithSubf = "arith.subf", 0, Binary;
    ArithMulf = "arith.mulf", 0, Binary;
    ArithDivf = "arith.divf", 0, Binary;
    ArithRemf = "arith.remf", 0, Binary;
    ArithNegf = "arith.negf", 0, Unary;
    ArithMaximumf = "arith.maximumf", 0, Binary;
    ArithMinimumf = "arith.minimumf", 0, Binary;
    ArithMaxnumf = "arith.maxnumf", 0, Binary;
    ArithMinnumf = "arith.minnumf", 0, Binary;

    IndexConstant = "index.constant", 0, IndexConstant;
    IndexBoolConstant = "index.bool.constant", 0, BoolConstant;
    IndexAdd = "index.add", 0, Binary;
    IndexSub = "index.sub", 0, Binary;
    IndexMul = "index.mul", 0, Binary;
    IndexDivs = "index.divs", 0, Binary;
    IndexDivu = "index.divu", 0, Binary;
    IndexCeildivs = "index.ceildivs", 0, Binary;
    IndexCeildivu = "index.ceildivu", 0, Binary;
    IndexFloordivs = "index.floordivs", 0, Binary;
    IndexRems = "index.rems", 0, Binary;
    IndexRemu = "index.remu", 0, Binary;
    IndexMaxs = "index.maxs", 0, Binary;
    IndexMaxu = "index.maxu", 0, Binary;
    IndexMins = "index.mins", 0, Binary;
    IndexMinu = "index.minu", 0, Binary;
    IndexShl = "index.shl", 0, Binary;
    IndexShrs = "index.shrs", 0, Binary;
    IndexShru = "index.shru", 0, Binary;
    IndexAnd = "index.and", 0, Binary;
    IndexOr = "index.or", 0, Binary;
    IndexXor = "index.xor", 0, Binary;
    IndexCmp = "index.cmp", 0, Cmp;
    IndexCasts = "index.casts", 0, Cast;
    IndexCastu = "index.castu", 0, Cast;
    IndexSizeof = "index.sizeof", 0, NoOperands;

    UbPoison = "ub.poison", 0, Poison;
    UbUnreachable = "ub.unreachable", TERMINATOR, Bare;

    ScfFor = "scf.for", IMPLICIT_TERMINATOR, ScfFor;
    ScfIf = "scf.if", IMPLICIT_TERMINATOR, ScfIf;
    ScfWhile = "scf.while", 0, ScfWhile;
    ScfCondition = "scf.condition", TERMINATOR, ScfCondition;
    ScfYield = "scf.yield", TERMINATOR, Return;
    ScfExecuteRegion = "scf.execute_region", 0, ScfExecuteRegion;
    ScfIndexSwitch = "scf.index_switch", 0, ScfIndexSwitch;
    ScfParallel = "scf.parallel", IMPLICIT_TERMINATOR, ScfParallel;
    ScfReduce = "scf.reduce", TERMINATOR, ScfReduce;
    ScfReduceReturn = "scf.reduce.return", TERMINATOR, Return;
    ScfForall = "scf.forall", IMPLICIT_TERMINATOR, ScfForall;
    ScfInParallel = "scf.forall.in_parallel", TERMINATOR | NO_TERMINATOR, InParallel;

    MathAbsf = "math.absf", 0, Unary;
    MathAbsi = "math.absi", 0, Unary;
    MathAcos = "math.acos", 0, Unary;
    MathAcosh = "math.acosh", 0, Unary;
    MathAsin = "math.asin", 0, Unary;
    MathAsinh = "math.asinh", 0, Unary;
    MathAtan = "math.atan", 0, Unary;
    MathAtanh = "math.atanh", 0, Unary;
    MathCbrt = "math.cbrt", 0, Unary;
    MathCeil = "math.ceil", 0, Unary;
    MathCos = "math.cos", 0, Unary;
    MathCosh = "math.cosh", 0, Unary;
    MathCtlz = "math.ctlz", 0, Unary;
    MathCtpop = "math.ctpop", 0, Unary;
    MathCttz = "math.cttz", 0, Unary;
    MathErf = "math.erf", 0, Unary;
    MathErfc = "math.erfc", 0, Unary;
    MathExp = "math.exp", 0, Unary;
    MathExp2 = "math.exp2", 0, Unary;
    MathExpm1 = "math.expm1", 0, Unary;
    MathFloor = "math.floor", 0, Unary;
    MathLog = "math.log", 0, Unary;
    MathLog10 = "math.log10", 0, Unary;
    MathLog1p = "math.log1p", 0, Unary;
    MathLog2 = "math.log2", 0, Unary;
    MathRound = "math.round", 0, Unary;
    MathRoundeven = "math.roundeven", 0, Unary;
    MathRsqrt = "math.rsqrt", 0, Unary;
    MathSin = "math.sin", 0, Unary;
    MathSinh = "math.sinh", 0, Unary;
    MathSqrt = "math.sqrt", 0, Unary;
    MathTan = "math.tan", 0, Unary;
    MathTanh = "math.tanh", 0, Unary;
    MathTrunc = "math.trunc", 0, Unary;
    MathAtan2 = "math.atan2", 0, Binary;
    MathCopysign = "math.copysign", 0, Binary;
    MathPowf = "math.powf", 0, Binary;
    MathIpowi = "math.ipowi", 0, Binary;
    MathFpowi = "math.fpowi", 0, BinaryTwoTypes;
    MathFma = "math.fma", 0, Ternary;
    MathClampf = "math.clampf", 0, Clamp;
    MathIsnan = "math.isnan", 0, Predicate;
    MathIsinf = "math.isinf", 0, Predicate;
    MathIsfinite = "math.isfinite", 0, Predicate;
    MathIsnormal = "math.isnormal", 0, Predicate;
    MathSincos = "math.sincos", 0, UnaryTwoResults;

    ComplexAbs = "complex.abs", 0, ComplexToReal;
    ComplexAdd = "complex.add", 0, Binary;
    ComplexAngle = "complex.angle", 0, ComplexToReal;
    ComplexAtan2 = "complex.atan2", 0, Binary;
    ComplexBitcast = "complex.bitcast", 0, Cast;
    ComplexConj = "complex.conj", 0, Unary;
    ComplexConstant = "complex.constant", 0, ComplexConstant;
    ComplexCos = "complex.cos", 0, Unary;
    ComplexCreate = "complex.create", 0, ComplexCreate;
    ComplexDiv = "complex.div", 0, Binary;
    ComplexEq = "complex.eq", 0, Equality;
    ComplexExp = "complex.exp", 0, Unary;
    ComplexExpm1 = "complex.expm1", 0, Unary;
    ComplexIm = "complex.im", 0, ComplexToReal;
    ComplexLog = "complex.log", 0, Unary;
    ComplexLog1p = "complex.log1p", 0, Unary;
    ComplexMul = "complex.mul", 0, Binary;
    ComplexNeg = "complex.neg", 0, Unary;
    ComplexNeq = "complex.neq", 0, Equality;
    ComplexPow = "complex.pow", 0, Binary;
    ComplexPowi = "complex.powi", 0, BinaryTwoTypes;
    ComplexRe = "complex.re", 0, ComplexToReal;
    ComplexRsqrt = "complex.rsqrt", 0, Unary;
    ComplexSign = "complex.sign", 0, Unary;
    ComplexSin = "complex.sin", 0, Unary;
    ComplexSqrt = "complex.sqrt", 0, Unary;
    ComplexSub = "complex.sub", 0, Binary;
    ComplexTan = "complex.tan", 0, Unary;
    ComplexTanh = "complex.tanh", 0, Unary;

    MemrefAlloc = "memref.alloc", 0, MemAlloc;
    MemrefAlloca = "memref.alloca", 0, MemAlloc;
    MemrefAllocaScope = "memref.alloca_scope", IMPLICIT_TERMINATOR, AllocaScope;
    MemrefAllocaScopeReturn = "memref.alloca_scope.return", TERMINATOR, Return;
    MemrefAssumeAlignment = "memref.assume_alignment", 0, AssumeAlignment;
    MemrefAtomicRmw = "memref.atomic_rmw", 0, MemAtomicRmw;
    MemrefAtomicYield = "memref.atomic_yield", TERMINATOR, Return;
    MemrefCast = "memref.cast", 0, Cast;
    MemrefCollapseShape = "memref.collapse_shape", 0, CollapseShape;
    MemrefCopy = "memref.copy", 0, MemCopy;
    MemrefDealloc = "memref.dealloc", 0, MemDealloc;
    MemrefDim = "memref.dim", 0, MemDim;
    MemrefDmaStart = "memref.dma_start", 0, DmaStart;
    MemrefDmaWait = "memref.dma_wait", 0, DmaWait;
    MemrefExpandShape = "memref.expand_shape", 0, ExpandShape;
    MemrefExtractAlignedPointerAsIndex = "memref.extract_aligned_pointer_as_index", 0, ExtractMetadata;
    MemrefExtractStridedMetadata = "memref.extract_strided_metadata", 0, ExtractMetadata;
    MemrefGenericAtomicRmw = "memref.generic_atomic_rmw", 0, MemGenericAtomicRmw;
    MemrefGetGlobal = "memref.get_global", 0, MemGetGlobal;
    MemrefGlobal = "memref.global", 0, MemGlobal;
    MemrefLoad = "memref.load", 0, MemLoad;
    MemrefMemorySpaceCast = "memref.memory_space_cast", 0, Cast;
    MemrefPrefetch = "memref.prefetch", 0, Prefetch;
    MemrefRank = "memref.rank", 0, MemRank;
    MemrefRealloc = "memref.realloc", 0, Realloc;
    MemrefReinterpretCast = "memref.reinterpret_cast", 0, MemReinterpretCast;
    MemrefReshape = "memref.reshape", 0, Reshape;
    MemrefStore = "memref.store", 0, MemStore;
    MemrefSubview = "memref.subview", 0, MemSubview;
    MemrefTranspose = "memref.transpose", 0, MemTranspose;
    MemrefView = "memref.view", 0, MemView;

    AffineApply = "affine.apply", 0, AffineApply;
    AffineDelinearizeIndex = "affine.delinearize_index", 0, AffineDelinearize;
    AffineDmaStart = "affine.dma_start", 0, AffineDmaStart;
    AffineDmaWait = "affine.dma_wait", 0, AffineDmaWait;
    AffineFor = "affine.for", IMPLICIT_TERMINATOR, AffineFor;
    AffineIf = "affine.if", IMPLICIT_TERMINATOR, AffineIf;
    AffineLinearizeIndex = "affine.linearize_index", 0, AffineLinearize;
    AffineLoad = "affine.load", 0, AffineLoad;
    AffineMax = "affine.max", 0, AffineMinMax;
    AffineMin = "affine.min", 0, AffineMinMax;
    AffineParallel = "affine.parallel", IMPLICIT_TERMINATOR, AffineParallel;
    AffinePrefetch = "affine.prefetch", 0, AffinePrefetch;
    AffineStore = "affine.store", 0, AffineStore;
    AffineVectorLoad = "affine.vector_load", 0, AffineLoad;
    AffineVectorStore = "affine.vector_store", 0, AffineStore;
    AffineYield = "affine.yield", TERMINATOR, Return;

    TensorBitcast = "tensor.bitcast", 0, Cast;
    TensorCast = "tensor.cast", 0, Cast;
    TensorCollapseShape = "tensor.collapse_shape", 0, CollapseShape;
    TensorConcat = "tensor.concat", 0, Concat;
    TensorDim = "tensor.dim", 0, MemDim;
    TensorEmpty = "tensor.empty", 0, TensorEmpty;
    TensorExpandShape = "tensor.expand_shape", 0, ExpandShape;
    TensorExtract = "tensor.extract", 0, MemLoad;
    TensorExtractSlice = "tensor.extract_slice", 0, MemSubview;
    TensorFromElements = "tensor.from_elements", 0, FromElements;
    TensorGather = "tensor.gather", 0, Gather;
    TensorGenerate = "tensor.generate", 0, Generate;
    TensorInsert = "tensor.insert", 0, TensorInsert;
    TensorInsertSlice = "tensor.insert_slice", 0, InsertSlice;
    TensorPad = "tensor.pad", 0, Pad;
    TensorParallelInsertSlice = "tensor.parallel_insert_slice", 0, InsertSlice;
    TensorRank = "tensor.rank", 0, MemRank;
    TensorReshape = "tensor.reshape", 0, Reshape;
    TensorScatter = "tensor.scatter", 0, Gather;
    TensorSplat = "tensor.splat", 0, Splat;
    TensorYield = "tensor.yield", TERMINATOR, Return;

    BufferizationAllocTensor = "bufferization.alloc_tensor", 0, AllocTensor;
    BufferizationClone = "bufferization.clone", 0, Cast;
    BufferizationDealloc = "bufferization.dealloc", 0, BufDealloc;
    BufferizationDeallocTensor = "bufferization.dealloc_tensor", 0, MemDealloc;
    BufferizationMaterializeInDestination = "bufferization.materialize_in_destination", 0, Materialize;
    BufferizationToBuffer = "bufferization.to_buffer", 0, FlaggedCast;
    BufferizationToTensor = "bufferization.to_tensor", 0, FlaggedCast;

    VectorBitcast = "vector.bitcast", 0, Cast;
    VectorBroadcast = "vector.broadcast", 0, Cast;
    VectorCompressstore = "vector.compressstore", 0, VecMemory;
    VectorConstantMask = "vector.constant_mask", 0, ConstantMask;
    VectorContract = "vector.contract", 0, Contract;
    VectorCreateMask = "vector.create_mask", 0, CreateMask;
    VectorDeinterleave = "vector.deinterleave", 0, Deinterleave;
    VectorExpandload = "vector.expandload", 0, VecMemory;
    VectorExtract = "vector.extract", 0, VecExtract;
    VectorExtractStridedSlice = "vector.extract_strided_slice", 0, Cast;
    VectorFma = "vector.fma", 0, Ternary;
    VectorFromElements = "vector.from_elements", 0, FromElements;
    VectorGather = "vector.gather", 0, VecMemory;
    VectorInsert = "vector.insert", 0, VecInsert;
    VectorInsertStridedSlice = "vector.insert_strided_slice", 0, InsertStrided;
    VectorInterleave = "vector.interleave", 0, Interleave;
    VectorLoad = "vector.load", 0, VecMemory;
    VectorMask = "vector.mask", IMPLICIT_TERMINATOR, VecMask;
    VectorMaskedload = "vector.maskedload", 0, VecMemory;
    VectorMaskedstore = "vector.maskedstore", 0, VecMemory;
    VectorMultiReduction = "vector.multi_reduction", 0, MultiReduction;
    VectorOuterproduct = "vector.outerproduct", 0, OuterProduct;
    VectorPrint = "vector.print", 0, VecPrint;
    VectorReduction = "vector.reduction", 0, Reduction;
    VectorScalableExtract = "vector.scalable.extract", 0, VecExtract;
    VectorScalableInsert = "vector.scalable.insert", 0, VecInsert;
    VectorScan = "vector.scan", 0, Scan;
    VectorScatter = "vector.scatter", 0, VecMemory;
    VectorShapeCast = "vector.shape_cast", 0, Cast;
    VectorShuffle = "vector.shuffle", 0, Shuffle;
    VectorStep = "vector.step", 0, TypeOnly;
    VectorStore = "vector.store", 0, VecMemory;
    VectorToElements = "vector.to_elements", 0, ToElements;
    VectorTransferRead = "vector.transfer_read", 0, TransferRead;
    VectorTransferWrite = "vector.transfer_write", 0, TransferWrite;
    VectorTranspose = "vector.transpose", 0, VecTranspose;
    VectorTypeCast = "vector.type_cast", 0, Cast;
    VectorVscale = "vector.vscale", 0, NoOperands;
    VectorYield = "vector.yield", TERMINATOR, Return;

    CombAdd = "comb.add", 0, CombVariadic;
    CombAnd = "comb.and", 0, CombVariadic;
    CombConcat = "comb.concat", 0, CombConcat;
    CombExtract = "comb.extract", 0, CombExtract;
    CombIcmp = "comb.icmp", 0, CombIcmp;
    CombInv = "comb.inv", 0, CombUnary;
    CombLut = "comb.lut", 0, CombLut;
    CombMul = "comb.mul", 0, CombVariadic;
    CombMux = "comb.mux", 0, CombMux;
    CombNand = "comb.nand", 0, CombVariadic;
    CombNor = "comb.nor", 0, CombVariadic;
    CombOr = "comb.or", 0, CombVariadic;
    CombParity = "comb.parity", 0, CombUnary;
    CombReplicate = "comb.replicate", 0, CombReplicate;
    CombTruthTable = "comb.truth_table", 0, CombTruthTable;
    CombXnor = "comb.xnor", 0, CombVariadic;
    CombXor = "comb.xor", 0, CombVariadic;
}
