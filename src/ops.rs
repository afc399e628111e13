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
    /// `linalg.generic {traits} ins(..) outs(..) attrs = {..} { .. } -> T`.
    LinalgGeneric,
    /// `linalg.matmul ins(%a, %b : A, B) outs(%c : C) -> C` (also `fill`,
    /// `copy`): the region is built, not written.
    LinalgNamed,
    /// `linalg.transpose ins(..) outs(..) permutation = [1, 0]` (also
    /// `broadcast`, `map`, `reduce`): results are the tensor outputs.
    LinalgDst,
    /// `linalg.index 0 : index`.
    LinalgIndex,
    /// An OpDSL named op (`linalg.conv_2d_nhwc_hwcf {strides = ..} ins(..)
    /// outs(..)`): its region is built from `crate::linalg::opdsl`.
    LinalgOpDsl,
    /// `linalg.softmax dimension(1) ins(%a : T) outs(%b : T) -> T`.
    LinalgSoftmax,
    /// `linalg.pack %s [padding_value(%p : T)] [outer_dims_perm = [..]]
    /// inner_dims_pos = [..] inner_tiles = [8, %t] into %d : S -> D` (and
    /// `unpack`, without padding).
    LinalgRelayout,
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
    /// `%m : M` (`tensor_load`), `%t : M` (`buffer_cast`), `%t, %m : M`
    /// (`tensor_store`): the seed's older ops; the tensor type follows
    /// from the memref type M.
    TensorMemref,
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
    /// `%v[%i : index] : vector<..>` (`vector.extractelement`, removed in LLVM 22).
    VecExtractElement,
    /// `%s, %v[%i : index] : vector<..>` (`vector.insertelement`, removed in LLVM 22).
    VecInsertElement,
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
    /// `%a, %b {attrs} : (A, B) -> R`: tosa's declarative form, the
    /// operands, the attribute dictionary and a function type.
    TosaFunctional,
    /// An op mlir-opt declares with no custom form at all (`tosa.const`):
    /// the custom spelling is an error, as there.
    TosaNoCustom,
    /// `tosa.cond_if %c (%a = %x) : tensor<i1> (T) -> R { .. } else { .. }`.
    TosaCondIf,
    /// `tosa.while_loop (%a = %x) : (T) -> R { .. } do { .. }`.
    TosaWhileLoop,
    /// `tosa.variable @v [= dense<..>] : tensor<..>`.
    TosaVariable,
    /// `tosa.variable_read @v : tensor<..>`.
    TosaVariableRead,
    /// `tosa.variable_write @v, %a : tensor<..>`.
    TosaVariableWrite,
    /// `llvm.mlir.global internal constant @s("x\00") {..} : T { .. }`.
    LlvmGlobal,
    /// `llvm.func internal @f(%a: T) -> R attributes {..} { .. }`.
    LlvmFunc,
    /// `llvm.call @f(%a) : (T) -> R` (or an indirect `%p(%a) : !llvm.ptr, (T) -> R`).
    LlvmCall,
    /// `@g : !llvm.ptr`.
    LlvmAddressof,
    /// `(42 : i32) : i32`.
    LlvmConstant,
    /// `inbounds %p[%i, 1] : (!llvm.ptr, i64) -> !llvm.ptr, T`.
    LlvmGep,
    /// `volatile %p {..} : !llvm.ptr -> T`.
    LlvmLoad,
    /// `volatile %v, %p {..} : T, !llvm.ptr`.
    LlvmStore,
    /// `"slt" %a, %b : T` (`llvm.icmp`, `llvm.fcmp`).
    LlvmCmp,
    /// `%v[%i : i64] : V` (`llvm.extractelement`).
    LlvmExtractElement,
    /// `%x, %v[%i : i32] : V` (`llvm.insertelement`).
    LlvmInsertElement,
    /// `%a, %b [0, 3, -1] : V` (`llvm.shufflevector`).
    LlvmShuffle,
    /// `%x, %agg[1, 0] : !llvm.struct<..>` (`llvm.insertvalue`).
    LlvmInsertValue,
    /// `%agg[1, 0] : !llvm.struct<..>` (`llvm.extractvalue`).
    LlvmExtractValue,
    /// `inalloca %n x T {alignment = 8} : (i64) -> !llvm.ptr`.
    LlvmAlloca,
    /// `%flag : i32, ^default(..) [1: ^bb1(..), ..]` (`llvm.switch`).
    LlvmSwitch,
    /// `volatile add %p, %v syncscope("s") acq_rel {..} : !llvm.ptr, T`.
    LlvmAtomicRmw,
    /// `weak volatile %p, %cmp, %new syncscope("s") acq_rel monotonic {..} : !llvm.ptr, T`.
    LlvmCmpxchg,
    /// `(%a, %b) {..} : (A, B) -> R`: the call-like form of most intrinsics.
    LlvmIntr,
    /// `%a, %b, %c {..} : (A, B, C) -> R` (`llvm.intr.masked.load`, `.gather`).
    LlvmIntrOperands,
    /// `%p {..} : T` with no result (`llvm.intr.stackrestore`, `vastart`).
    LlvmIntrOperand,
    /// `%src to %dst {..} : D, S` (`llvm.intr.vacopy`: operands in the
    /// order dest, src; the types in operand order).
    LlvmVaCopy,
    /// `%list {..} : (!llvm.ptr) -> T` (`llvm.va_arg`).
    LlvmVaArg,
    /// `%v, %p, %mask {..} : V, M into P` (`llvm.intr.masked.store`, `.scatter`).
    LlvmMaskedStore,
    /// `%c ["align"(%p, %n : !llvm.ptr, i64)] : i1` (`llvm.intr.assume`).
    LlvmAssume,
    /// The sparse_tensor dialect's declarative and region forms, one
    /// routine dispatching on the op (`src/parser/sparse.rs`).
    Sparse,
    /// `ctors = [@f], priorities = [0 : i32], data = [#llvm.zero]`
    /// (`llvm.mlir.global_ctors`, `global_dtors`; the older
    /// attribute-dictionary form is accepted too).
    LlvmXtors,
}

macro_rules! ops {
    ($($dialect:ident $enum:ident { $($v:ident / $short:ident = $name:literal, $traits:expr, $fmt:ident;)* })*) => {
        /// Every op the IR knows by name; anything else is [`OpKind::Unknown`].
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum OpKind {
            /// An op of a dialect this tool does not know.
            Unknown,
            $($(#[doc = $name] $v,)*)*
        }

        $(
            /// The ops of one dialect, so its executor can match them
            /// exhaustively.
            #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
            pub enum $enum {
                $(#[doc = $name] $short,)*
            }

            impl $enum {
                /// The flat kind of this op.
                pub fn kind(self) -> OpKind {
                    match self { $($enum::$short => OpKind::$v,)* }
                }
            }
        )*

        /// An op split by dialect: what executors dispatch on.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum DialectOp {
            /// An op of a dialect this tool does not know.
            Unknown,
            $(#[doc = stringify!($dialect)] $dialect($enum),)*
        }

        impl OpKind {
            /// Every known op.
            pub const ALL: &'static [OpKind] = &[$($(OpKind::$v,)*)*];

            /// The full op name.
            pub fn name(self) -> &'static str {
                match self { OpKind::Unknown => "<unknown>", $($(OpKind::$v => $name,)*)* }
            }

            /// The op's trait bits (see [`traits`]).
            pub fn traits(self) -> u32 {
                match self { OpKind::Unknown => 0, $($(OpKind::$v => $traits,)*)* }
            }

            /// The syntax family of the custom form.
            pub fn fmt(self) -> Fmt {
                match self { OpKind::Unknown => Fmt::GenericOnly, $($(OpKind::$v => Fmt::$fmt,)*)* }
            }

            /// The op called `name`, if known.
            pub fn from_name(name: &str) -> Option<OpKind> {
                match name { $($($name => Some(OpKind::$v),)*)* _ => None }
            }

            /// The op as its dialect's enum.
            pub fn dialect_op(self) -> DialectOp {
                match self { OpKind::Unknown => DialectOp::Unknown, $($(OpKind::$v => DialectOp::$dialect($enum::$short),)*)* }
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
/// `arith.AtomicRMWKind` spellings in enum order (`memref.atomic_rmw`,
/// `affine.parallel` reductions).
pub const ATOMIC_KINDS: &[&str] = &[
    "addf", "addi", "andi", "assign", "maximumf", "maxnumf", "maxs", "maxu", "minimumf", "minnumf", "mins", "minu",
    "mulf", "muli", "ori", "xori",
];

/// `arith.truncf` rounding modes in enum order.
pub const ROUNDING_MODES: &[&str] = &["to_nearest_even", "downward", "upward", "toward_zero", "to_nearest_away"];

/// The enum attributes of the vector dialect: mnemonic (`#vector.kind<..>`),
/// the C++ enum name mlir-opt's diagnostics use, and the values in the order
/// those diagnostics list them.
pub const VECTOR_ENUMS: &[(&str, &str, &[&str])] = &[
    ("kind", "CombiningKind", COMBINING_KINDS),
    ("punctuation", "PrintPunctuation", &["no_punctuation", "newline", "comma", "open", "close"]),
    ("iterator_type", "IteratorType", &["parallel", "reduction"]),
];

/// `vector.kind` combining kinds, in mlir-opt's order.
pub const COMBINING_KINDS: &[&str] = &[
    "add", "mul", "minui", "minsi", "minnumf", "maxui", "maxsi", "maxnumf", "and", "or", "xor", "maximumf", "minimumf",
];

/// mlir-opt's message for a vector enum value outside `values`.
pub fn vector_enum_error(mnemonic: &str) -> Option<String> {
    let (_, cpp, values) = VECTOR_ENUMS.iter().find(|(m, _, _)| *m == mnemonic)?;
    Some(format!("expected ::mlir::vector::{cpp} to be one of: {}", values.join(", ")))
}

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
    "tosa",
    "sparse_tensor",
];

impl OpKind {
    /// True when the op has trait bit `t`.
    pub fn has(self, t: u32) -> bool {
        self.traits() & t != 0
    }
}

ops! {
    Builtin BuiltinOp {
        BuiltinModule / Module = "builtin.module", ISOLATED | NO_TERMINATOR | GRAPH | SYMBOL_TABLE, Module;
        UnrealizedConversionCast / UnrealizedConversionCast = "builtin.unrealized_conversion_cast", 0, ConversionCast;
    }
    Func FuncOp {
        FuncFunc / Func = "func.func", ISOLATED, Func;
        FuncReturn / Return = "func.return", TERMINATOR, Return;
        FuncCall / Call = "func.call", 0, Call;
        FuncCallIndirect / CallIndirect = "func.call_indirect", 0, CallIndirect;
        FuncConstant / Constant = "func.constant", 0, FuncConstant;
    }
    Cf CfOp {
        CfBr / Br = "cf.br", TERMINATOR, Br;
        CfCondBr / CondBr = "cf.cond_br", TERMINATOR, CondBr;
        CfSwitch / Switch = "cf.switch", TERMINATOR, Switch;
        CfAssert / Assert = "cf.assert", 0, Assert;
    }
    Arith ArithOp {
        ArithConstant / Constant = "arith.constant", 0, Constant;
        ArithAddi / Addi = "arith.addi", 0, Binary;
        ArithSubi / Subi = "arith.subi", 0, Binary;
        ArithMuli / Muli = "arith.muli", 0, Binary;
        ArithDivsi / Divsi = "arith.divsi", 0, Binary;
        ArithDivui / Divui = "arith.divui", 0, Binary;
        ArithCeildivsi / Ceildivsi = "arith.ceildivsi", 0, Binary;
        ArithCeildivui / Ceildivui = "arith.ceildivui", 0, Binary;
        ArithFloordivsi / Floordivsi = "arith.floordivsi", 0, Binary;
        ArithRemsi / Remsi = "arith.remsi", 0, Binary;
        ArithRemui / Remui = "arith.remui", 0, Binary;
        ArithAndi / Andi = "arith.andi", 0, Binary;
        ArithOri / Ori = "arith.ori", 0, Binary;
        ArithXori / Xori = "arith.xori", 0, Binary;
        ArithShli / Shli = "arith.shli", 0, Binary;
        ArithShrsi / Shrsi = "arith.shrsi", 0, Binary;
        ArithShrui / Shrui = "arith.shrui", 0, Binary;
        ArithMaxsi / Maxsi = "arith.maxsi", 0, Binary;
        ArithMaxui / Maxui = "arith.maxui", 0, Binary;
        ArithMinsi / Minsi = "arith.minsi", 0, Binary;
        ArithMinui / Minui = "arith.minui", 0, Binary;
        ArithAdduiExtended / AdduiExtended = "arith.addui_extended", 0, BinaryTwoResults;
        ArithMulsiExtended / MulsiExtended = "arith.mulsi_extended", 0, BinaryTwoResults;
        ArithMuluiExtended / MuluiExtended = "arith.mului_extended", 0, BinaryTwoResults;
        ArithCmpi / Cmpi = "arith.cmpi", 0, Cmp;
        ArithCmpf / Cmpf = "arith.cmpf", 0, Cmp;
        ArithSelect / Select = "arith.select", 0, Select;
        ArithExtsi / Extsi = "arith.extsi", 0, Cast;
        ArithExtui / Extui = "arith.extui", 0, Cast;
        ArithTrunci / Trunci = "arith.trunci", 0, Cast;
        ArithIndexCast / IndexCast = "arith.index_cast", 0, Cast;
        ArithIndexCastui / IndexCastui = "arith.index_castui", 0, Cast;
        ArithBitcast / Bitcast = "arith.bitcast", 0, Cast;
        ArithSitofp / Sitofp = "arith.sitofp", 0, Cast;
        ArithUitofp / Uitofp = "arith.uitofp", 0, Cast;
        ArithFptosi / Fptosi = "arith.fptosi", 0, Cast;
        ArithFptoui / Fptoui = "arith.fptoui", 0, Cast;
        ArithExtf / Extf = "arith.extf", 0, Cast;
        ArithTruncf / Truncf = "arith.truncf", 0, Cast;
        ArithScalingExtf / ScalingExtf = "arith.scaling_extf", 0, GenericOnly;
        ArithScalingTruncf / ScalingTruncf = "arith.scaling_truncf", 0, GenericOnly;
        ArithAddf / Addf = "arith.addf", 0, Binary;
        ArithSubf / Subf = "arith.subf", 0, Binary;
        ArithMulf / Mulf = "arith.mulf", 0, Binary;
        ArithDivf / Divf = "arith.divf", 0, Binary;
        ArithRemf / Remf = "arith.remf", 0, Binary;
        ArithNegf / Negf = "arith.negf", 0, Unary;
        ArithMaximumf / Maximumf = "arith.maximumf", 0, Binary;
        ArithMinimumf / Minimumf = "arith.minimumf", 0, Binary;
        ArithMaxnumf / Maxnumf = "arith.maxnumf", 0, Binary;
        ArithMinnumf / Minnumf = "arith.minnumf", 0, Binary;
    }
    Index IndexOp {
        IndexConstant / Constant = "index.constant", 0, IndexConstant;
        IndexBoolConstant / BoolConstant = "index.bool.constant", 0, BoolConstant;
        IndexAdd / Add = "index.add", 0, Binary;
        IndexSub / Sub = "index.sub", 0, Binary;
        IndexMul / Mul = "index.mul", 0, Binary;
        IndexDivs / Divs = "index.divs", 0, Binary;
        IndexDivu / Divu = "index.divu", 0, Binary;
        IndexCeildivs / Ceildivs = "index.ceildivs", 0, Binary;
        IndexCeildivu / Ceildivu = "index.ceildivu", 0, Binary;
        IndexFloordivs / Floordivs = "index.floordivs", 0, Binary;
        IndexRems / Rems = "index.rems", 0, Binary;
        IndexRemu / Remu = "index.remu", 0, Binary;
        IndexMaxs / Maxs = "index.maxs", 0, Binary;
        IndexMaxu / Maxu = "index.maxu", 0, Binary;
        IndexMins / Mins = "index.mins", 0, Binary;
        IndexMinu / Minu = "index.minu", 0, Binary;
        IndexShl / Shl = "index.shl", 0, Binary;
        IndexShrs / Shrs = "index.shrs", 0, Binary;
        IndexShru / Shru = "index.shru", 0, Binary;
        IndexAnd / And = "index.and", 0, Binary;
        IndexOr / Or = "index.or", 0, Binary;
        IndexXor / Xor = "index.xor", 0, Binary;
        IndexCmp / Cmp = "index.cmp", 0, Cmp;
        IndexCasts / Casts = "index.casts", 0, Cast;
        IndexCastu / Castu = "index.castu", 0, Cast;
        IndexSizeof / Sizeof = "index.sizeof", 0, NoOperands;
    }
    Ub UbOp {
        UbPoison / Poison = "ub.poison", 0, Poison;
        UbUnreachable / Unreachable = "ub.unreachable", TERMINATOR, Bare;
    }
    Scf ScfOp {
        ScfFor / For = "scf.for", IMPLICIT_TERMINATOR, ScfFor;
        ScfIf / If = "scf.if", IMPLICIT_TERMINATOR, ScfIf;
        ScfWhile / While = "scf.while", 0, ScfWhile;
        ScfCondition / Condition = "scf.condition", TERMINATOR, ScfCondition;
        ScfYield / Yield = "scf.yield", TERMINATOR, Return;
        ScfExecuteRegion / ExecuteRegion = "scf.execute_region", 0, ScfExecuteRegion;
        ScfIndexSwitch / IndexSwitch = "scf.index_switch", 0, ScfIndexSwitch;
        ScfParallel / Parallel = "scf.parallel", IMPLICIT_TERMINATOR, ScfParallel;
        ScfReduce / Reduce = "scf.reduce", TERMINATOR, ScfReduce;
        ScfReduceReturn / ReduceReturn = "scf.reduce.return", TERMINATOR, Return;
        ScfForall / Forall = "scf.forall", IMPLICIT_TERMINATOR, ScfForall;
        ScfInParallel / InParallel = "scf.forall.in_parallel", TERMINATOR | NO_TERMINATOR, InParallel;
    }
    Math MathOp {
        MathAbsf / Absf = "math.absf", 0, Unary;
        MathAbsi / Absi = "math.absi", 0, Unary;
        MathAcos / Acos = "math.acos", 0, Unary;
        MathAcosh / Acosh = "math.acosh", 0, Unary;
        MathAsin / Asin = "math.asin", 0, Unary;
        MathAsinh / Asinh = "math.asinh", 0, Unary;
        MathAtan / Atan = "math.atan", 0, Unary;
        MathAtanh / Atanh = "math.atanh", 0, Unary;
        MathCbrt / Cbrt = "math.cbrt", 0, Unary;
        MathCeil / Ceil = "math.ceil", 0, Unary;
        MathCos / Cos = "math.cos", 0, Unary;
        MathCosh / Cosh = "math.cosh", 0, Unary;
        MathCtlz / Ctlz = "math.ctlz", 0, Unary;
        MathCtpop / Ctpop = "math.ctpop", 0, Unary;
        MathCttz / Cttz = "math.cttz", 0, Unary;
        MathErf / Erf = "math.erf", 0, Unary;
        MathErfc / Erfc = "math.erfc", 0, Unary;
        MathExp / Exp = "math.exp", 0, Unary;
        MathExp2 / Exp2 = "math.exp2", 0, Unary;
        MathExpm1 / Expm1 = "math.expm1", 0, Unary;
        MathFloor / Floor = "math.floor", 0, Unary;
        MathLog / Log = "math.log", 0, Unary;
        MathLog10 / Log10 = "math.log10", 0, Unary;
        MathLog1p / Log1p = "math.log1p", 0, Unary;
        MathLog2 / Log2 = "math.log2", 0, Unary;
        MathRound / Round = "math.round", 0, Unary;
        MathRoundeven / Roundeven = "math.roundeven", 0, Unary;
        MathRsqrt / Rsqrt = "math.rsqrt", 0, Unary;
        MathSin / Sin = "math.sin", 0, Unary;
        MathSinh / Sinh = "math.sinh", 0, Unary;
        MathSqrt / Sqrt = "math.sqrt", 0, Unary;
        MathTan / Tan = "math.tan", 0, Unary;
        MathTanh / Tanh = "math.tanh", 0, Unary;
        MathTrunc / Trunc = "math.trunc", 0, Unary;
        MathAtan2 / Atan2 = "math.atan2", 0, Binary;
        MathCopysign / Copysign = "math.copysign", 0, Binary;
        MathPowf / Powf = "math.powf", 0, Binary;
        MathIpowi / Ipowi = "math.ipowi", 0, Binary;
        MathFpowi / Fpowi = "math.fpowi", 0, BinaryTwoTypes;
        MathFma / Fma = "math.fma", 0, Ternary;
        MathClampf / Clampf = "math.clampf", 0, Clamp;
        MathIsnan / Isnan = "math.isnan", 0, Predicate;
        MathIsinf / Isinf = "math.isinf", 0, Predicate;
        MathIsfinite / Isfinite = "math.isfinite", 0, Predicate;
        MathIsnormal / Isnormal = "math.isnormal", 0, Predicate;
        MathSincos / Sincos = "math.sincos", 0, UnaryTwoResults;
    }
    Complex ComplexOp {
        ComplexAbs / Abs = "complex.abs", 0, ComplexToReal;
        ComplexAdd / Add = "complex.add", 0, Binary;
        ComplexAngle / Angle = "complex.angle", 0, ComplexToReal;
        ComplexAtan2 / Atan2 = "complex.atan2", 0, Binary;
        ComplexBitcast / Bitcast = "complex.bitcast", 0, Cast;
        ComplexConj / Conj = "complex.conj", 0, Unary;
        ComplexConstant / Constant = "complex.constant", 0, ComplexConstant;
        ComplexCos / Cos = "complex.cos", 0, Unary;
        ComplexCreate / Create = "complex.create", 0, ComplexCreate;
        ComplexDiv / Div = "complex.div", 0, Binary;
        ComplexEq / Eq = "complex.eq", 0, Equality;
        ComplexExp / Exp = "complex.exp", 0, Unary;
        ComplexExpm1 / Expm1 = "complex.expm1", 0, Unary;
        ComplexIm / Im = "complex.im", 0, ComplexToReal;
        ComplexLog / Log = "complex.log", 0, Unary;
        ComplexLog1p / Log1p = "complex.log1p", 0, Unary;
        ComplexMul / Mul = "complex.mul", 0, Binary;
        ComplexNeg / Neg = "complex.neg", 0, Unary;
        ComplexNeq / Neq = "complex.neq", 0, Equality;
        ComplexPow / Pow = "complex.pow", 0, Binary;
        ComplexPowi / Powi = "complex.powi", 0, BinaryTwoTypes;
        ComplexRe / Re = "complex.re", 0, ComplexToReal;
        ComplexRsqrt / Rsqrt = "complex.rsqrt", 0, Unary;
        ComplexSign / Sign = "complex.sign", 0, Unary;
        ComplexSin / Sin = "complex.sin", 0, Unary;
        ComplexSqrt / Sqrt = "complex.sqrt", 0, Unary;
        ComplexSub / Sub = "complex.sub", 0, Binary;
        ComplexTan / Tan = "complex.tan", 0, Unary;
        ComplexTanh / Tanh = "complex.tanh", 0, Unary;
    }
    Memref MemrefOp {
        MemrefAlloc / Alloc = "memref.alloc", 0, MemAlloc;
        MemrefAlloca / Alloca = "memref.alloca", 0, MemAlloc;
        MemrefAllocaScope / AllocaScope = "memref.alloca_scope", IMPLICIT_TERMINATOR, AllocaScope;
        MemrefAllocaScopeReturn / AllocaScopeReturn = "memref.alloca_scope.return", TERMINATOR, Return;
        MemrefAssumeAlignment / AssumeAlignment = "memref.assume_alignment", 0, AssumeAlignment;
        MemrefAtomicRmw / AtomicRmw = "memref.atomic_rmw", 0, MemAtomicRmw;
        MemrefAtomicYield / AtomicYield = "memref.atomic_yield", TERMINATOR, Return;
        MemrefBufferCast / BufferCast = "memref.buffer_cast", 0, TensorMemref;
        MemrefCast / Cast = "memref.cast", 0, Cast;
        MemrefCollapseShape / CollapseShape = "memref.collapse_shape", 0, CollapseShape;
        MemrefCopy / Copy = "memref.copy", 0, MemCopy;
        MemrefDealloc / Dealloc = "memref.dealloc", 0, MemDealloc;
        MemrefDim / Dim = "memref.dim", 0, MemDim;
        MemrefDmaStart / DmaStart = "memref.dma_start", 0, DmaStart;
        MemrefDmaWait / DmaWait = "memref.dma_wait", 0, DmaWait;
        MemrefExpandShape / ExpandShape = "memref.expand_shape", 0, ExpandShape;
        MemrefExtractAlignedPointerAsIndex / ExtractAlignedPointerAsIndex = "memref.extract_aligned_pointer_as_index", 0, ExtractMetadata;
        MemrefExtractStridedMetadata / ExtractStridedMetadata = "memref.extract_strided_metadata", 0, ExtractMetadata;
        MemrefGenericAtomicRmw / GenericAtomicRmw = "memref.generic_atomic_rmw", 0, MemGenericAtomicRmw;
        MemrefGetGlobal / GetGlobal = "memref.get_global", 0, MemGetGlobal;
        MemrefGlobal / Global = "memref.global", 0, MemGlobal;
        MemrefLoad / Load = "memref.load", 0, MemLoad;
        MemrefMemorySpaceCast / MemorySpaceCast = "memref.memory_space_cast", 0, Cast;
        MemrefPrefetch / Prefetch = "memref.prefetch", 0, Prefetch;
        MemrefRank / Rank = "memref.rank", 0, MemRank;
        MemrefRealloc / Realloc = "memref.realloc", 0, Realloc;
        MemrefReinterpretCast / ReinterpretCast = "memref.reinterpret_cast", 0, MemReinterpretCast;
        MemrefReshape / Reshape = "memref.reshape", 0, Reshape;
        MemrefStore / Store = "memref.store", 0, MemStore;
        MemrefSubview / Subview = "memref.subview", 0, MemSubview;
        MemrefTensorLoad / TensorLoad = "memref.tensor_load", 0, TensorMemref;
        MemrefTensorStore / TensorStore = "memref.tensor_store", 0, TensorMemref;
        MemrefTranspose / Transpose = "memref.transpose", 0, MemTranspose;
        MemrefView / View = "memref.view", 0, MemView;
    }
    Affine AffineOp {
        AffineApply / Apply = "affine.apply", 0, AffineApply;
        AffineDelinearizeIndex / DelinearizeIndex = "affine.delinearize_index", 0, AffineDelinearize;
        AffineDmaStart / DmaStart = "affine.dma_start", 0, AffineDmaStart;
        AffineDmaWait / DmaWait = "affine.dma_wait", 0, AffineDmaWait;
        AffineFor / For = "affine.for", IMPLICIT_TERMINATOR, AffineFor;
        AffineIf / If = "affine.if", IMPLICIT_TERMINATOR, AffineIf;
        AffineLinearizeIndex / LinearizeIndex = "affine.linearize_index", 0, AffineLinearize;
        AffineLoad / Load = "affine.load", 0, AffineLoad;
        AffineMax / Max = "affine.max", 0, AffineMinMax;
        AffineMin / Min = "affine.min", 0, AffineMinMax;
        AffineParallel / Parallel = "affine.parallel", IMPLICIT_TERMINATOR, AffineParallel;
        AffinePrefetch / Prefetch = "affine.prefetch", 0, AffinePrefetch;
        AffineStore / Store = "affine.store", 0, AffineStore;
        AffineVectorLoad / VectorLoad = "affine.vector_load", 0, AffineLoad;
        AffineVectorStore / VectorStore = "affine.vector_store", 0, AffineStore;
        AffineYield / Yield = "affine.yield", TERMINATOR, Return;
    }
    Tensor TensorOp {
        TensorBitcast / Bitcast = "tensor.bitcast", 0, Cast;
        TensorCast / Cast = "tensor.cast", 0, Cast;
        TensorCollapseShape / CollapseShape = "tensor.collapse_shape", 0, CollapseShape;
        TensorConcat / Concat = "tensor.concat", 0, Concat;
        TensorDim / Dim = "tensor.dim", 0, MemDim;
        TensorEmpty / Empty = "tensor.empty", 0, TensorEmpty;
        TensorExpandShape / ExpandShape = "tensor.expand_shape", 0, ExpandShape;
        TensorExtract / Extract = "tensor.extract", 0, MemLoad;
        TensorExtractSlice / ExtractSlice = "tensor.extract_slice", 0, MemSubview;
        TensorFromElements / FromElements = "tensor.from_elements", 0, FromElements;
        TensorGather / Gather = "tensor.gather", 0, Gather;
        TensorGenerate / Generate = "tensor.generate", 0, Generate;
        TensorInsert / Insert = "tensor.insert", 0, TensorInsert;
        TensorInsertSlice / InsertSlice = "tensor.insert_slice", 0, InsertSlice;
        TensorPad / Pad = "tensor.pad", 0, Pad;
        TensorParallelInsertSlice / ParallelInsertSlice = "tensor.parallel_insert_slice", 0, InsertSlice;
        TensorRank / Rank = "tensor.rank", 0, MemRank;
        TensorReshape / Reshape = "tensor.reshape", 0, Reshape;
        TensorScatter / Scatter = "tensor.scatter", 0, Gather;
        TensorSplat / Splat = "tensor.splat", 0, Splat;
        TensorYield / Yield = "tensor.yield", TERMINATOR, Return;
    }
    Linalg LinalgOp {
        LinalgGeneric / Generic = "linalg.generic", 0, LinalgGeneric;
        LinalgYield / Yield = "linalg.yield", TERMINATOR, Return;
        LinalgIndex / Index = "linalg.index", 0, LinalgIndex;
        LinalgFill / Fill = "linalg.fill", 0, LinalgNamed;
        LinalgCopy / Copy = "linalg.copy", 0, LinalgNamed;
        LinalgMatmul / Matmul = "linalg.matmul", 0, LinalgNamed;
        LinalgBatchMatmul / BatchMatmul = "linalg.batch_matmul", 0, LinalgNamed;
        LinalgBatchReduceMatmul / BatchReduceMatmul = "linalg.batch_reduce_matmul", 0, LinalgNamed;
        LinalgContract / Contract = "linalg.contract", 0, LinalgNamed;
        LinalgElementwise / Elementwise = "linalg.elementwise", 0, LinalgNamed;
        LinalgSoftmax / Softmax = "linalg.softmax", 0, LinalgSoftmax;
        LinalgPack / Pack = "linalg.pack", 0, LinalgRelayout;
        LinalgUnpack / Unpack = "linalg.unpack", 0, LinalgRelayout;
        LinalgTranspose / Transpose = "linalg.transpose", 0, LinalgDst;
        LinalgBroadcast / Broadcast = "linalg.broadcast", 0, LinalgDst;
        LinalgMap / Map = "linalg.map", 0, LinalgDst;
        LinalgReduce / Reduce = "linalg.reduce", 0, LinalgDst;
        LinalgExp / Exp = "linalg.exp", 0, LinalgOpDsl;
        LinalgLog / Log = "linalg.log", 0, LinalgOpDsl;
        LinalgAbs / Abs = "linalg.abs", 0, LinalgOpDsl;
        LinalgCeil / Ceil = "linalg.ceil", 0, LinalgOpDsl;
        LinalgFloor / Floor = "linalg.floor", 0, LinalgOpDsl;
        LinalgNegf / Negf = "linalg.negf", 0, LinalgOpDsl;
        LinalgReciprocal / Reciprocal = "linalg.reciprocal", 0, LinalgOpDsl;
        LinalgRound / Round = "linalg.round", 0, LinalgOpDsl;
        LinalgSqrt / Sqrt = "linalg.sqrt", 0, LinalgOpDsl;
        LinalgRsqrt / Rsqrt = "linalg.rsqrt", 0, LinalgOpDsl;
        LinalgSquare / Square = "linalg.square", 0, LinalgOpDsl;
        LinalgTanh / Tanh = "linalg.tanh", 0, LinalgOpDsl;
        LinalgErf / Erf = "linalg.erf", 0, LinalgOpDsl;
        LinalgAdd / Add = "linalg.add", 0, LinalgOpDsl;
        LinalgSub / Sub = "linalg.sub", 0, LinalgOpDsl;
        LinalgMul / Mul = "linalg.mul", 0, LinalgOpDsl;
        LinalgDiv / Div = "linalg.div", 0, LinalgOpDsl;
        LinalgDivUnsigned / DivUnsigned = "linalg.div_unsigned", 0, LinalgOpDsl;
        LinalgMax / Max = "linalg.max", 0, LinalgOpDsl;
        LinalgMin / Min = "linalg.min", 0, LinalgOpDsl;
        LinalgPowf / Powf = "linalg.powf", 0, LinalgOpDsl;
        LinalgSelect / Select = "linalg.select", 0, LinalgOpDsl;
        LinalgQuantizedMatmul / QuantizedMatmul = "linalg.quantized_matmul", 0, LinalgOpDsl;
        LinalgMmt4d / Mmt4d = "linalg.mmt4d", 0, LinalgOpDsl;
        LinalgBatchMmt4d / BatchMmt4d = "linalg.batch_mmt4d", 0, LinalgOpDsl;
        LinalgQuantizedBatchMatmul / QuantizedBatchMatmul = "linalg.quantized_batch_matmul", 0, LinalgOpDsl;
        LinalgMatvec / Matvec = "linalg.matvec", 0, LinalgOpDsl;
        LinalgVecmat / Vecmat = "linalg.vecmat", 0, LinalgOpDsl;
        LinalgBatchMatvec / BatchMatvec = "linalg.batch_matvec", 0, LinalgOpDsl;
        LinalgBatchVecmat / BatchVecmat = "linalg.batch_vecmat", 0, LinalgOpDsl;
        LinalgDot / Dot = "linalg.dot", 0, LinalgOpDsl;
        LinalgConv1d / Conv1d = "linalg.conv_1d", 0, LinalgOpDsl;
        LinalgConv2d / Conv2d = "linalg.conv_2d", 0, LinalgOpDsl;
        LinalgConv3d / Conv3d = "linalg.conv_3d", 0, LinalgOpDsl;
        LinalgConv1dNwcWcf / Conv1dNwcWcf = "linalg.conv_1d_nwc_wcf", 0, LinalgOpDsl;
        LinalgConv1dNcwFcw / Conv1dNcwFcw = "linalg.conv_1d_ncw_fcw", 0, LinalgOpDsl;
        LinalgConv2dNhwcHwcf / Conv2dNhwcHwcf = "linalg.conv_2d_nhwc_hwcf", 0, LinalgOpDsl;
        LinalgConv2dNhwcFhwc / Conv2dNhwcFhwc = "linalg.conv_2d_nhwc_fhwc", 0, LinalgOpDsl;
        LinalgConv2dNhwcHwcfQ / Conv2dNhwcHwcfQ = "linalg.conv_2d_nhwc_hwcf_q", 0, LinalgOpDsl;
        LinalgConv2dNhwcFhwcQ / Conv2dNhwcFhwcQ = "linalg.conv_2d_nhwc_fhwc_q", 0, LinalgOpDsl;
        LinalgConv2dNchwFchwQ / Conv2dNchwFchwQ = "linalg.conv_2d_nchw_fchw_q", 0, LinalgOpDsl;
        LinalgConv2dNchwFchw / Conv2dNchwFchw = "linalg.conv_2d_nchw_fchw", 0, LinalgOpDsl;
        LinalgConv2dNgchwFgchw / Conv2dNgchwFgchw = "linalg.conv_2d_ngchw_fgchw", 0, LinalgOpDsl;
        LinalgConv2dNgchwGfchw / Conv2dNgchwGfchw = "linalg.conv_2d_ngchw_gfchw", 0, LinalgOpDsl;
        LinalgConv2dNhwgcGfhwc / Conv2dNhwgcGfhwc = "linalg.conv_2d_nhwgc_gfhwc", 0, LinalgOpDsl;
        LinalgConv2dNhwgcGfhwcQ / Conv2dNhwgcGfhwcQ = "linalg.conv_2d_nhwgc_gfhwc_q", 0, LinalgOpDsl;
        LinalgConv2dNgchwGfchwQ / Conv2dNgchwGfchwQ = "linalg.conv_2d_ngchw_gfchw_q", 0, LinalgOpDsl;
        LinalgConv3dNdhwcDhwcf / Conv3dNdhwcDhwcf = "linalg.conv_3d_ndhwc_dhwcf", 0, LinalgOpDsl;
        LinalgConv3dNdhwcDhwcfQ / Conv3dNdhwcDhwcfQ = "linalg.conv_3d_ndhwc_dhwcf_q", 0, LinalgOpDsl;
        LinalgConv3dNcdhwFcdhw / Conv3dNcdhwFcdhw = "linalg.conv_3d_ncdhw_fcdhw", 0, LinalgOpDsl;
        LinalgDepthwiseConv1dNwcWc / DepthwiseConv1dNwcWc = "linalg.depthwise_conv_1d_nwc_wc", 0, LinalgOpDsl;
        LinalgDepthwiseConv1dNcwCw / DepthwiseConv1dNcwCw = "linalg.depthwise_conv_1d_ncw_cw", 0, LinalgOpDsl;
        LinalgDepthwiseConv1dNwcWcm / DepthwiseConv1dNwcWcm = "linalg.depthwise_conv_1d_nwc_wcm", 0, LinalgOpDsl;
        LinalgDepthwiseConv2dNhwcHwc / DepthwiseConv2dNhwcHwc = "linalg.depthwise_conv_2d_nhwc_hwc", 0, LinalgOpDsl;
        LinalgDepthwiseConv2dNchwChw / DepthwiseConv2dNchwChw = "linalg.depthwise_conv_2d_nchw_chw", 0, LinalgOpDsl;
        LinalgDepthwiseConv2dNhwcHwcQ / DepthwiseConv2dNhwcHwcQ = "linalg.depthwise_conv_2d_nhwc_hwc_q", 0, LinalgOpDsl;
        LinalgDepthwiseConv2dNhwcHwcm / DepthwiseConv2dNhwcHwcm = "linalg.depthwise_conv_2d_nhwc_hwcm", 0, LinalgOpDsl;
        LinalgDepthwiseConv2dNhwcHwcmQ / DepthwiseConv2dNhwcHwcmQ = "linalg.depthwise_conv_2d_nhwc_hwcm_q", 0, LinalgOpDsl;
        LinalgDepthwiseConv3dNdhwcDhwc / DepthwiseConv3dNdhwcDhwc = "linalg.depthwise_conv_3d_ndhwc_dhwc", 0, LinalgOpDsl;
        LinalgDepthwiseConv3dNcdhwCdhw / DepthwiseConv3dNcdhwCdhw = "linalg.depthwise_conv_3d_ncdhw_cdhw", 0, LinalgOpDsl;
        LinalgDepthwiseConv3dNdhwcDhwcm / DepthwiseConv3dNdhwcDhwcm = "linalg.depthwise_conv_3d_ndhwc_dhwcm", 0, LinalgOpDsl;
        LinalgPoolingNhwcSum / PoolingNhwcSum = "linalg.pooling_nhwc_sum", 0, LinalgOpDsl;
        LinalgPoolingNchwSum / PoolingNchwSum = "linalg.pooling_nchw_sum", 0, LinalgOpDsl;
        LinalgPoolingNhwcMax / PoolingNhwcMax = "linalg.pooling_nhwc_max", 0, LinalgOpDsl;
        LinalgPoolingNhwcMaxUnsigned / PoolingNhwcMaxUnsigned = "linalg.pooling_nhwc_max_unsigned", 0, LinalgOpDsl;
        LinalgPoolingNchwMax / PoolingNchwMax = "linalg.pooling_nchw_max", 0, LinalgOpDsl;
        LinalgPoolingNhwcMin / PoolingNhwcMin = "linalg.pooling_nhwc_min", 0, LinalgOpDsl;
        LinalgPoolingNhwcMinUnsigned / PoolingNhwcMinUnsigned = "linalg.pooling_nhwc_min_unsigned", 0, LinalgOpDsl;
        LinalgPoolingNwcSum / PoolingNwcSum = "linalg.pooling_nwc_sum", 0, LinalgOpDsl;
        LinalgPoolingNcwSum / PoolingNcwSum = "linalg.pooling_ncw_sum", 0, LinalgOpDsl;
        LinalgPoolingNwcMax / PoolingNwcMax = "linalg.pooling_nwc_max", 0, LinalgOpDsl;
        LinalgPoolingNwcMaxUnsigned / PoolingNwcMaxUnsigned = "linalg.pooling_nwc_max_unsigned", 0, LinalgOpDsl;
        LinalgPoolingNcwMax / PoolingNcwMax = "linalg.pooling_ncw_max", 0, LinalgOpDsl;
        LinalgPoolingNwcMin / PoolingNwcMin = "linalg.pooling_nwc_min", 0, LinalgOpDsl;
        LinalgPoolingNwcMinUnsigned / PoolingNwcMinUnsigned = "linalg.pooling_nwc_min_unsigned", 0, LinalgOpDsl;
        LinalgPoolingNdhwcSum / PoolingNdhwcSum = "linalg.pooling_ndhwc_sum", 0, LinalgOpDsl;
        LinalgPoolingNdhwcMax / PoolingNdhwcMax = "linalg.pooling_ndhwc_max", 0, LinalgOpDsl;
        LinalgPoolingNdhwcMin / PoolingNdhwcMin = "linalg.pooling_ndhwc_min", 0, LinalgOpDsl;
        LinalgFillRng2d / FillRng2d = "linalg.fill_rng_2d", 0, LinalgOpDsl;
    }
    Bufferization BufferizationOp {
        BufferizationAllocTensor / AllocTensor = "bufferization.alloc_tensor", 0, AllocTensor;
        BufferizationClone / Clone = "bufferization.clone", 0, Cast;
        BufferizationDealloc / Dealloc = "bufferization.dealloc", 0, BufDealloc;
        BufferizationDeallocTensor / DeallocTensor = "bufferization.dealloc_tensor", 0, MemDealloc;
        BufferizationMaterializeInDestination / MaterializeInDestination = "bufferization.materialize_in_destination", 0, Materialize;
        BufferizationToBuffer / ToBuffer = "bufferization.to_buffer", 0, FlaggedCast;
        BufferizationToMemref / ToMemref = "bufferization.to_memref", 0, FlaggedCast;
        BufferizationToTensor / ToTensor = "bufferization.to_tensor", 0, FlaggedCast;
    }
    Vector VectorOp {
        VectorBitcast / Bitcast = "vector.bitcast", 0, Cast;
        VectorBroadcast / Broadcast = "vector.broadcast", 0, Cast;
        VectorCompressstore / Compressstore = "vector.compressstore", 0, VecMemory;
        VectorConstantMask / ConstantMask = "vector.constant_mask", 0, ConstantMask;
        VectorContract / Contract = "vector.contract", 0, Contract;
        VectorCreateMask / CreateMask = "vector.create_mask", 0, CreateMask;
        VectorDeinterleave / Deinterleave = "vector.deinterleave", 0, Deinterleave;
        VectorExpandload / Expandload = "vector.expandload", 0, VecMemory;
        VectorExtract / Extract = "vector.extract", 0, VecExtract;
        VectorExtractelement / Extractelement = "vector.extractelement", 0, VecExtractElement;
        VectorExtractStridedSlice / ExtractStridedSlice = "vector.extract_strided_slice", 0, Cast;
        VectorFma / Fma = "vector.fma", 0, Ternary;
        VectorFromElements / FromElements = "vector.from_elements", 0, FromElements;
        VectorGather / Gather = "vector.gather", 0, VecMemory;
        VectorInsert / Insert = "vector.insert", 0, VecInsert;
        VectorInsertelement / Insertelement = "vector.insertelement", 0, VecInsertElement;
        VectorInsertStridedSlice / InsertStridedSlice = "vector.insert_strided_slice", 0, InsertStrided;
        VectorInterleave / Interleave = "vector.interleave", 0, Interleave;
        VectorLoad / Load = "vector.load", 0, VecMemory;
        VectorMask / Mask = "vector.mask", IMPLICIT_TERMINATOR, VecMask;
        VectorMaskedload / Maskedload = "vector.maskedload", 0, VecMemory;
        VectorMaskedstore / Maskedstore = "vector.maskedstore", 0, VecMemory;
        VectorMultiReduction / MultiReduction = "vector.multi_reduction", 0, MultiReduction;
        VectorOuterproduct / Outerproduct = "vector.outerproduct", 0, OuterProduct;
        VectorPrint / Print = "vector.print", 0, VecPrint;
        VectorReduction / Reduction = "vector.reduction", 0, Reduction;
        VectorScalableExtract / ScalableExtract = "vector.scalable.extract", 0, VecExtract;
        VectorScalableInsert / ScalableInsert = "vector.scalable.insert", 0, VecInsert;
        VectorScan / Scan = "vector.scan", 0, Scan;
        VectorScatter / Scatter = "vector.scatter", 0, VecMemory;
        VectorShapeCast / ShapeCast = "vector.shape_cast", 0, Cast;
        VectorShuffle / Shuffle = "vector.shuffle", 0, Shuffle;
        VectorSplat / Splat = "vector.splat", 0, Splat;
        VectorStep / Step = "vector.step", 0, TypeOnly;
        VectorStore / Store = "vector.store", 0, VecMemory;
        VectorToElements / ToElements = "vector.to_elements", 0, ToElements;
        VectorTransferRead / TransferRead = "vector.transfer_read", 0, TransferRead;
        VectorTransferWrite / TransferWrite = "vector.transfer_write", 0, TransferWrite;
        VectorTranspose / Transpose = "vector.transpose", 0, VecTranspose;
        VectorTypeCast / TypeCast = "vector.type_cast", 0, Cast;
        VectorVscale / Vscale = "vector.vscale", 0, NoOperands;
        VectorYield / Yield = "vector.yield", TERMINATOR, Return;
    }
    Tosa TosaOp {
        TosaAbs / Abs = "tosa.abs", 0, TosaFunctional;
        TosaAdd / Add = "tosa.add", 0, TosaFunctional;
        TosaAddShape / AddShape = "tosa.add_shape", 0, TosaFunctional;
        TosaApplyScale / ApplyScale = "tosa.apply_scale", 0, TosaFunctional;
        TosaArgmax / Argmax = "tosa.argmax", 0, TosaFunctional;
        TosaArithmeticRightShift / ArithmeticRightShift = "tosa.arithmetic_right_shift", 0, TosaFunctional;
        TosaAvgPool2d / AvgPool2d = "tosa.avg_pool2d", 0, TosaFunctional;
        TosaBitwiseAnd / BitwiseAnd = "tosa.bitwise_and", 0, TosaFunctional;
        TosaBitwiseNot / BitwiseNot = "tosa.bitwise_not", 0, TosaFunctional;
        TosaBitwiseOr / BitwiseOr = "tosa.bitwise_or", 0, TosaFunctional;
        TosaBitwiseXor / BitwiseXor = "tosa.bitwise_xor", 0, TosaFunctional;
        TosaCast / Cast = "tosa.cast", 0, TosaFunctional;
        TosaCastFromBlockScaled / CastFromBlockScaled = "tosa.cast_from_block_scaled", 0, TosaFunctional;
        TosaCastToBlockScaled / CastToBlockScaled = "tosa.cast_to_block_scaled", 0, TosaFunctional;
        TosaCeil / Ceil = "tosa.ceil", 0, TosaFunctional;
        TosaClamp / Clamp = "tosa.clamp", 0, TosaFunctional;
        TosaClz / Clz = "tosa.clz", 0, TosaFunctional;
        TosaConcat / Concat = "tosa.concat", 0, TosaFunctional;
        TosaConcatShape / ConcatShape = "tosa.concat_shape", 0, TosaFunctional;
        TosaCondIf / CondIf = "tosa.cond_if", 0, TosaCondIf;
        TosaConst / Const = "tosa.const", 0, TosaNoCustom;
        TosaConstShape / ConstShape = "tosa.const_shape", 0, TosaFunctional;
        TosaConv2d / Conv2d = "tosa.conv2d", 0, TosaFunctional;
        TosaConv3d / Conv3d = "tosa.conv3d", 0, TosaFunctional;
        TosaCos / Cos = "tosa.cos", 0, TosaFunctional;
        TosaCustom / Custom = "tosa.custom", 0, TosaFunctional;
        TosaDepthwiseConv2d / DepthwiseConv2d = "tosa.depthwise_conv2d", 0, TosaFunctional;
        TosaDim / Dim = "tosa.dim", 0, TosaFunctional;
        TosaDivCeilShape / DivCeilShape = "tosa.div_ceil_shape", 0, TosaFunctional;
        TosaDivFloorShape / DivFloorShape = "tosa.div_floor_shape", 0, TosaFunctional;
        TosaEqual / Equal = "tosa.equal", 0, TosaFunctional;
        TosaErf / Erf = "tosa.erf", 0, TosaFunctional;
        TosaExp / Exp = "tosa.exp", 0, TosaFunctional;
        TosaExp2Shape / Exp2Shape = "tosa.exp2_shape", 0, TosaFunctional;
        TosaFft2d / Fft2d = "tosa.fft2d", 0, TosaFunctional;
        TosaFloor / Floor = "tosa.floor", 0, TosaFunctional;
        TosaGather / Gather = "tosa.gather", 0, TosaFunctional;
        TosaGreater / Greater = "tosa.greater", 0, TosaFunctional;
        TosaGreaterEqual / GreaterEqual = "tosa.greater_equal", 0, TosaFunctional;
        TosaIdentity / Identity = "tosa.identity", 0, TosaFunctional;
        TosaIntdiv / Intdiv = "tosa.intdiv", 0, TosaFunctional;
        TosaLog / Log = "tosa.log", 0, TosaFunctional;
        TosaLog2CeilShape / Log2CeilShape = "tosa.log2_ceil_shape", 0, TosaFunctional;
        TosaLog2FloorShape / Log2FloorShape = "tosa.log2_floor_shape", 0, TosaFunctional;
        TosaLogicalAnd / LogicalAnd = "tosa.logical_and", 0, TosaFunctional;
        TosaLogicalLeftShift / LogicalLeftShift = "tosa.logical_left_shift", 0, TosaFunctional;
        TosaLogicalNot / LogicalNot = "tosa.logical_not", 0, TosaFunctional;
        TosaLogicalOr / LogicalOr = "tosa.logical_or", 0, TosaFunctional;
        TosaLogicalRightShift / LogicalRightShift = "tosa.logical_right_shift", 0, TosaFunctional;
        TosaLogicalXor / LogicalXor = "tosa.logical_xor", 0, TosaFunctional;
        TosaMatmul / Matmul = "tosa.matmul", 0, TosaFunctional;
        TosaMatmulTBlockScaled / MatmulTBlockScaled = "tosa.matmul_t_block_scaled", 0, TosaFunctional;
        TosaMaxPool2d / MaxPool2d = "tosa.max_pool2d", 0, TosaFunctional;
        TosaMaxShape / MaxShape = "tosa.max_shape", 0, TosaFunctional;
        TosaMaximum / Maximum = "tosa.maximum", 0, TosaFunctional;
        TosaMinShape / MinShape = "tosa.min_shape", 0, TosaFunctional;
        TosaMinimum / Minimum = "tosa.minimum", 0, TosaFunctional;
        TosaModShape / ModShape = "tosa.mod_shape", 0, TosaFunctional;
        TosaMul / Mul = "tosa.mul", 0, TosaFunctional;
        TosaMulShape / MulShape = "tosa.mul_shape", 0, TosaFunctional;
        TosaNegate / Negate = "tosa.negate", 0, TosaFunctional;
        TosaPad / Pad = "tosa.pad", 0, TosaFunctional;
        TosaPow / Pow = "tosa.pow", 0, TosaFunctional;
        TosaReciprocal / Reciprocal = "tosa.reciprocal", 0, TosaFunctional;
        TosaReduceAll / ReduceAll = "tosa.reduce_all", 0, TosaFunctional;
        TosaReduceAny / ReduceAny = "tosa.reduce_any", 0, TosaFunctional;
        TosaReduceMax / ReduceMax = "tosa.reduce_max", 0, TosaFunctional;
        TosaReduceMin / ReduceMin = "tosa.reduce_min", 0, TosaFunctional;
        TosaReduceProduct / ReduceProduct = "tosa.reduce_product", 0, TosaFunctional;
        TosaReduceSum / ReduceSum = "tosa.reduce_sum", 0, TosaFunctional;
        TosaRescale / Rescale = "tosa.rescale", 0, TosaFunctional;
        TosaReshape / Reshape = "tosa.reshape", 0, TosaFunctional;
        TosaResize / Resize = "tosa.resize", 0, TosaFunctional;
        TosaReverse / Reverse = "tosa.reverse", 0, TosaFunctional;
        TosaRfft2d / Rfft2d = "tosa.rfft2d", 0, TosaFunctional;
        TosaRsqrt / Rsqrt = "tosa.rsqrt", 0, TosaFunctional;
        TosaScatter / Scatter = "tosa.scatter", 0, TosaFunctional;
        TosaSelect / Select = "tosa.select", 0, TosaFunctional;
        TosaSigmoid / Sigmoid = "tosa.sigmoid", 0, TosaFunctional;
        TosaSin / Sin = "tosa.sin", 0, TosaFunctional;
        TosaSlice / Slice = "tosa.slice", 0, TosaFunctional;
        TosaSliceShape / SliceShape = "tosa.slice_shape", 0, TosaFunctional;
        TosaSub / Sub = "tosa.sub", 0, TosaFunctional;
        TosaSubShape / SubShape = "tosa.sub_shape", 0, TosaFunctional;
        TosaTable / Table = "tosa.table", 0, TosaFunctional;
        TosaTanh / Tanh = "tosa.tanh", 0, TosaFunctional;
        TosaTile / Tile = "tosa.tile", 0, TosaFunctional;
        TosaTranspose / Transpose = "tosa.transpose", 0, TosaFunctional;
        TosaTransposeConv2d / TransposeConv2d = "tosa.transpose_conv2d", 0, TosaFunctional;
        TosaVariable / Variable = "tosa.variable", 0, TosaVariable;
        TosaVariableRead / VariableRead = "tosa.variable_read", 0, TosaVariableRead;
        TosaVariableWrite / VariableWrite = "tosa.variable_write", 0, TosaVariableWrite;
        TosaWhileLoop / WhileLoop = "tosa.while_loop", 0, TosaWhileLoop;
        TosaYield / Yield = "tosa.yield", TERMINATOR, Return;
    }
    Comb CombOp {
        CombAdd / Add = "comb.add", 0, CombVariadic;
        CombAnd / And = "comb.and", 0, CombVariadic;
        CombConcat / Concat = "comb.concat", 0, CombConcat;
        CombExtract / Extract = "comb.extract", 0, CombExtract;
        CombIcmp / Icmp = "comb.icmp", 0, CombIcmp;
        CombInv / Inv = "comb.inv", 0, CombUnary;
        CombLut / Lut = "comb.lut", 0, CombLut;
        CombMul / Mul = "comb.mul", 0, CombVariadic;
        CombMux / Mux = "comb.mux", 0, CombMux;
        CombNand / Nand = "comb.nand", 0, CombVariadic;
        CombNor / Nor = "comb.nor", 0, CombVariadic;
        CombOr / Or = "comb.or", 0, CombVariadic;
        CombParity / Parity = "comb.parity", 0, CombUnary;
        CombReplicate / Replicate = "comb.replicate", 0, CombReplicate;
        CombTruthTable / TruthTable = "comb.truth_table", 0, CombTruthTable;
        CombXnor / Xnor = "comb.xnor", 0, CombVariadic;
        CombXor / Xor = "comb.xor", 0, CombVariadic;
    }
    SparseTensor SparseTensorOp {
        SparseNew / New = "sparse_tensor.new", 0, Sparse;
        SparseAssemble / Assemble = "sparse_tensor.assemble", 0, Sparse;
        SparseDisassemble / Disassemble = "sparse_tensor.disassemble", 0, Sparse;
        SparseConvert / Convert = "sparse_tensor.convert", 0, Sparse;
        SparseReinterpretMap / ReinterpretMap = "sparse_tensor.reinterpret_map", 0, Sparse;
        SparsePositions / Positions = "sparse_tensor.positions", 0, Sparse;
        SparseCoordinates / Coordinates = "sparse_tensor.coordinates", 0, Sparse;
        SparseCoordinatesBuffer / CoordinatesBuffer = "sparse_tensor.coordinates_buffer", 0, Sparse;
        SparseValues / Values = "sparse_tensor.values", 0, Sparse;
        SparseNumberOfEntries / NumberOfEntries = "sparse_tensor.number_of_entries", 0, Sparse;
        SparseConcatenate / Concatenate = "sparse_tensor.concatenate", 0, Sparse;
        SparseOut / Out = "sparse_tensor.out", 0, Sparse;
        SparseLvl / Lvl = "sparse_tensor.lvl", 0, Sparse;
        SparseCrdTranslate / CrdTranslate = "sparse_tensor.crd_translate", 0, Sparse;
        SparseStorageSpecifierInit / StorageSpecifierInit = "sparse_tensor.storage_specifier.init", 0, Sparse;
        SparseStorageSpecifierGet / StorageSpecifierGet = "sparse_tensor.storage_specifier.get", 0, Sparse;
        SparseStorageSpecifierSet / StorageSpecifierSet = "sparse_tensor.storage_specifier.set", 0, Sparse;
        SparseSliceOffset / SliceOffset = "sparse_tensor.slice.offset", 0, Sparse;
        SparseSliceStride / SliceStride = "sparse_tensor.slice.stride", 0, Sparse;
        SparseLoad / Load = "sparse_tensor.load", 0, Sparse;
        SparseExpand / Expand = "sparse_tensor.expand", 0, Sparse;
        SparseCompress / Compress = "sparse_tensor.compress", 0, Sparse;
        SparsePushBack / PushBack = "sparse_tensor.push_back", 0, Sparse;
        SparseSort / Sort = "sparse_tensor.sort", 0, Sparse;
        SparseReorderCoo / ReorderCoo = "sparse_tensor.reorder_coo", 0, Sparse;
        SparseBinary / Binary = "sparse_tensor.binary", 0, Sparse;
        SparseUnary / Unary = "sparse_tensor.unary", 0, Sparse;
        SparseReduce / Reduce = "sparse_tensor.reduce", 0, Sparse;
        SparseSelect / Select = "sparse_tensor.select", 0, Sparse;
        SparseYield / Yield = "sparse_tensor.yield", TERMINATOR, Sparse;
        SparseForeach / Foreach = "sparse_tensor.foreach", 0, Sparse;
        SparsePrint / Print = "sparse_tensor.print", 0, Sparse;
        SparseHasRuntimeLibrary / HasRuntimeLibrary = "sparse_tensor.has_runtime_library", 0, Sparse;
        SparseExtractIterationSpace / ExtractIterationSpace = "sparse_tensor.extract_iteration_space", 0, Sparse;
        SparseExtractValue / ExtractValue = "sparse_tensor.extract_value", 0, Sparse;
        SparseIterate / Iterate = "sparse_tensor.iterate", 0, Sparse;
        SparseCoiterate / Coiterate = "sparse_tensor.coiterate", 0, Sparse;
    }
    Llvm LlvmOp {
        LlvmAdd / Add = "llvm.add", 0, Binary;
        LlvmSub / Sub = "llvm.sub", 0, Binary;
        LlvmMul / Mul = "llvm.mul", 0, Binary;
        LlvmSdiv / Sdiv = "llvm.sdiv", 0, Binary;
        LlvmUdiv / Udiv = "llvm.udiv", 0, Binary;
        LlvmSrem / Srem = "llvm.srem", 0, Binary;
        LlvmUrem / Urem = "llvm.urem", 0, Binary;
        LlvmAnd / And = "llvm.and", 0, Binary;
        LlvmOr / Or = "llvm.or", 0, Binary;
        LlvmXor / Xor = "llvm.xor", 0, Binary;
        LlvmShl / Shl = "llvm.shl", 0, Binary;
        LlvmLshr / Lshr = "llvm.lshr", 0, Binary;
        LlvmAshr / Ashr = "llvm.ashr", 0, Binary;
        LlvmFadd / Fadd = "llvm.fadd", 0, Binary;
        LlvmFsub / Fsub = "llvm.fsub", 0, Binary;
        LlvmFmul / Fmul = "llvm.fmul", 0, Binary;
        LlvmFdiv / Fdiv = "llvm.fdiv", 0, Binary;
        LlvmFrem / Frem = "llvm.frem", 0, Binary;
        LlvmFneg / Fneg = "llvm.fneg", 0, Unary;
        LlvmIcmp / Icmp = "llvm.icmp", 0, LlvmCmp;
        LlvmFcmp / Fcmp = "llvm.fcmp", 0, LlvmCmp;
        LlvmSelect / Select = "llvm.select", 0, Select;
        LlvmBr / Br = "llvm.br", TERMINATOR, Br;
        LlvmCondBr / CondBr = "llvm.cond_br", TERMINATOR, CondBr;
        LlvmSext / Sext = "llvm.sext", 0, Cast;
        LlvmZext / Zext = "llvm.zext", 0, Cast;
        LlvmTrunc / Trunc = "llvm.trunc", 0, Cast;
        LlvmFptosi / Fptosi = "llvm.fptosi", 0, Cast;
        LlvmFptoui / Fptoui = "llvm.fptoui", 0, Cast;
        LlvmSitofp / Sitofp = "llvm.sitofp", 0, Cast;
        LlvmUitofp / Uitofp = "llvm.uitofp", 0, Cast;
        LlvmFpext / Fpext = "llvm.fpext", 0, Cast;
        LlvmFptrunc / Fptrunc = "llvm.fptrunc", 0, Cast;
        LlvmBitcast / Bitcast = "llvm.bitcast", 0, Cast;
        LlvmExtractelement / Extractelement = "llvm.extractelement", 0, LlvmExtractElement;
        LlvmInsertelement / Insertelement = "llvm.insertelement", 0, LlvmInsertElement;
        LlvmShufflevector / Shufflevector = "llvm.shufflevector", 0, LlvmShuffle;
        LlvmUndef / Undef = "llvm.mlir.undef", 0, TypeOnly;
        LlvmPoison / Poison = "llvm.mlir.poison", 0, TypeOnly;
        LlvmAddressof / Addressof = "llvm.mlir.addressof", 0, LlvmAddressof;
        LlvmCall / Call = "llvm.call", 0, LlvmCall;
        LlvmConstant / Constant = "llvm.mlir.constant", 0, LlvmConstant;
        LlvmFunc / Func = "llvm.func", ISOLATED, LlvmFunc;
        LlvmGetelementptr / Getelementptr = "llvm.getelementptr", 0, LlvmGep;
        LlvmGlobal / Global = "llvm.mlir.global", ISOLATED, LlvmGlobal;
        LlvmLoad / Load = "llvm.load", 0, LlvmLoad;
        LlvmReturn / Return = "llvm.return", TERMINATOR, Return;
        LlvmStore / Store = "llvm.store", 0, LlvmStore;
        LlvmZero / Zero = "llvm.mlir.zero", 0, TypeOnly;
        LlvmPtrtoint / Ptrtoint = "llvm.ptrtoint", 0, Cast;
        LlvmInttoptr / Inttoptr = "llvm.inttoptr", 0, Cast;
        LlvmAddrspacecast / Addrspacecast = "llvm.addrspacecast", 0, Cast;
        LlvmInsertvalue / Insertvalue = "llvm.insertvalue", 0, LlvmInsertValue;
        LlvmExtractvalue / Extractvalue = "llvm.extractvalue", 0, LlvmExtractValue;
        LlvmAlloca / Alloca = "llvm.alloca", 0, LlvmAlloca;
        LlvmSwitch / Switch = "llvm.switch", TERMINATOR, LlvmSwitch;
        LlvmUnreachable / Unreachable = "llvm.unreachable", TERMINATOR, Return;
        LlvmAtomicrmw / Atomicrmw = "llvm.atomicrmw", 0, LlvmAtomicRmw;
        LlvmCmpxchg / Cmpxchg = "llvm.cmpxchg", 0, LlvmCmpxchg;
        LlvmFence / Fence = "llvm.fence", 0, GenericOnly;
        LlvmGlobalCtors / GlobalCtors = "llvm.mlir.global_ctors", 0, LlvmXtors;
        LlvmGlobalDtors / GlobalDtors = "llvm.mlir.global_dtors", 0, LlvmXtors;
        // Intrinsics in their LLVM 22 forms: most are call-like; the ones
        // LLVM 22 prints generically have no custom form.
        LlvmFabs / Fabs = "llvm.intr.fabs", 0, LlvmIntr;
        LlvmSqrt / Sqrt = "llvm.intr.sqrt", 0, LlvmIntr;
        LlvmSin / Sin = "llvm.intr.sin", 0, LlvmIntr;
        LlvmCos / Cos = "llvm.intr.cos", 0, LlvmIntr;
        LlvmTan / Tan = "llvm.intr.tan", 0, LlvmIntr;
        LlvmAsin / Asin = "llvm.intr.asin", 0, LlvmIntr;
        LlvmAcos / Acos = "llvm.intr.acos", 0, LlvmIntr;
        LlvmAtan / Atan = "llvm.intr.atan", 0, LlvmIntr;
        LlvmAtan2 / Atan2 = "llvm.intr.atan2", 0, LlvmIntr;
        LlvmSinh / Sinh = "llvm.intr.sinh", 0, LlvmIntr;
        LlvmCosh / Cosh = "llvm.intr.cosh", 0, LlvmIntr;
        LlvmTanh / Tanh = "llvm.intr.tanh", 0, LlvmIntr;
        LlvmExp / Exp = "llvm.intr.exp", 0, LlvmIntr;
        LlvmExp2 / Exp2 = "llvm.intr.exp2", 0, LlvmIntr;
        LlvmExp10 / Exp10 = "llvm.intr.exp10", 0, LlvmIntr;
        LlvmLog / Log = "llvm.intr.log", 0, LlvmIntr;
        LlvmLog2 / Log2 = "llvm.intr.log2", 0, LlvmIntr;
        LlvmLog10 / Log10 = "llvm.intr.log10", 0, LlvmIntr;
        LlvmPow / Pow = "llvm.intr.pow", 0, LlvmIntr;
        LlvmPowi / Powi = "llvm.intr.powi", 0, LlvmIntr;
        LlvmCeil / Ceil = "llvm.intr.ceil", 0, LlvmIntr;
        LlvmFloor / Floor = "llvm.intr.floor", 0, LlvmIntr;
        LlvmRound / Round = "llvm.intr.round", 0, LlvmIntr;
        LlvmRoundeven / Roundeven = "llvm.intr.roundeven", 0, LlvmIntr;
        LlvmTruncf / Truncf = "llvm.intr.trunc", 0, LlvmIntr;
        LlvmRint / Rint = "llvm.intr.rint", 0, LlvmIntr;
        LlvmNearbyint / Nearbyint = "llvm.intr.nearbyint", 0, LlvmIntr;
        LlvmCopysign / Copysign = "llvm.intr.copysign", 0, LlvmIntr;
        LlvmMinnum / Minnum = "llvm.intr.minnum", 0, LlvmIntr;
        LlvmMaxnum / Maxnum = "llvm.intr.maxnum", 0, LlvmIntr;
        LlvmMinimum / Minimum = "llvm.intr.minimum", 0, LlvmIntr;
        LlvmMaximum / Maximum = "llvm.intr.maximum", 0, LlvmIntr;
        LlvmFma / Fma = "llvm.intr.fma", 0, LlvmIntr;
        LlvmFmuladd / Fmuladd = "llvm.intr.fmuladd", 0, LlvmIntr;
        LlvmSincos / Sincos = "llvm.intr.sincos", 0, LlvmIntr;
        LlvmSmax / Smax = "llvm.intr.smax", 0, LlvmIntr;
        LlvmSmin / Smin = "llvm.intr.smin", 0, LlvmIntr;
        LlvmUmax / Umax = "llvm.intr.umax", 0, LlvmIntr;
        LlvmUmin / Umin = "llvm.intr.umin", 0, LlvmIntr;
        LlvmCtpop / Ctpop = "llvm.intr.ctpop", 0, LlvmIntr;
        LlvmBitreverse / Bitreverse = "llvm.intr.bitreverse", 0, LlvmIntr;
        LlvmBswap / Bswap = "llvm.intr.bswap", 0, LlvmIntr;
        LlvmCtlz / Ctlz = "llvm.intr.ctlz", 0, GenericOnly;
        LlvmCttz / Cttz = "llvm.intr.cttz", 0, GenericOnly;
        LlvmAbs / Abs = "llvm.intr.abs", 0, GenericOnly;
        LlvmIsFpclass / IsFpclass = "llvm.intr.is.fpclass", 0, GenericOnly;
        LlvmSaddWithOverflow / SaddWithOverflow = "llvm.intr.sadd.with.overflow", 0, GenericOnly;
        LlvmUaddWithOverflow / UaddWithOverflow = "llvm.intr.uadd.with.overflow", 0, GenericOnly;
        LlvmSsubWithOverflow / SsubWithOverflow = "llvm.intr.ssub.with.overflow", 0, GenericOnly;
        LlvmUsubWithOverflow / UsubWithOverflow = "llvm.intr.usub.with.overflow", 0, GenericOnly;
        LlvmSmulWithOverflow / SmulWithOverflow = "llvm.intr.smul.with.overflow", 0, GenericOnly;
        LlvmUmulWithOverflow / UmulWithOverflow = "llvm.intr.umul.with.overflow", 0, GenericOnly;
        LlvmReduceAdd / ReduceAdd = "llvm.intr.vector.reduce.add", 0, GenericOnly;
        LlvmReduceMul / ReduceMul = "llvm.intr.vector.reduce.mul", 0, GenericOnly;
        LlvmReduceAnd / ReduceAnd = "llvm.intr.vector.reduce.and", 0, GenericOnly;
        LlvmReduceOr / ReduceOr = "llvm.intr.vector.reduce.or", 0, GenericOnly;
        LlvmReduceXor / ReduceXor = "llvm.intr.vector.reduce.xor", 0, GenericOnly;
        LlvmReduceSmax / ReduceSmax = "llvm.intr.vector.reduce.smax", 0, GenericOnly;
        LlvmReduceSmin / ReduceSmin = "llvm.intr.vector.reduce.smin", 0, GenericOnly;
        LlvmReduceUmax / ReduceUmax = "llvm.intr.vector.reduce.umax", 0, GenericOnly;
        LlvmReduceUmin / ReduceUmin = "llvm.intr.vector.reduce.umin", 0, GenericOnly;
        LlvmReduceFadd / ReduceFadd = "llvm.intr.vector.reduce.fadd", 0, GenericOnly;
        LlvmReduceFmul / ReduceFmul = "llvm.intr.vector.reduce.fmul", 0, GenericOnly;
        LlvmReduceFmax / ReduceFmax = "llvm.intr.vector.reduce.fmax", 0, LlvmIntr;
        LlvmReduceFmin / ReduceFmin = "llvm.intr.vector.reduce.fmin", 0, LlvmIntr;
        LlvmReduceFmaximum / ReduceFmaximum = "llvm.intr.vector.reduce.fmaximum", 0, LlvmIntr;
        LlvmReduceFminimum / ReduceFminimum = "llvm.intr.vector.reduce.fminimum", 0, LlvmIntr;
        LlvmVpReduceAdd / VpReduceAdd = "llvm.intr.vp.reduce.add", 0, GenericOnly;
        LlvmVpReduceMul / VpReduceMul = "llvm.intr.vp.reduce.mul", 0, GenericOnly;
        LlvmVpReduceAnd / VpReduceAnd = "llvm.intr.vp.reduce.and", 0, GenericOnly;
        LlvmVpReduceOr / VpReduceOr = "llvm.intr.vp.reduce.or", 0, GenericOnly;
        LlvmVpReduceXor / VpReduceXor = "llvm.intr.vp.reduce.xor", 0, GenericOnly;
        LlvmVpReduceSmax / VpReduceSmax = "llvm.intr.vp.reduce.smax", 0, GenericOnly;
        LlvmVpReduceSmin / VpReduceSmin = "llvm.intr.vp.reduce.smin", 0, GenericOnly;
        LlvmVpReduceUmax / VpReduceUmax = "llvm.intr.vp.reduce.umax", 0, GenericOnly;
        LlvmVpReduceUmin / VpReduceUmin = "llvm.intr.vp.reduce.umin", 0, GenericOnly;
        LlvmVpReduceFadd / VpReduceFadd = "llvm.intr.vp.reduce.fadd", 0, GenericOnly;
        LlvmVpReduceFmul / VpReduceFmul = "llvm.intr.vp.reduce.fmul", 0, GenericOnly;
        LlvmVpReduceFmax / VpReduceFmax = "llvm.intr.vp.reduce.fmax", 0, GenericOnly;
        LlvmVpReduceFmin / VpReduceFmin = "llvm.intr.vp.reduce.fmin", 0, GenericOnly;
        LlvmVpReduceFmaximum / VpReduceFmaximum = "llvm.intr.vp.reduce.fmaximum", 0, GenericOnly;
        LlvmVpReduceFminimum / VpReduceFminimum = "llvm.intr.vp.reduce.fminimum", 0, GenericOnly;
        LlvmMemcpy / Memcpy = "llvm.intr.memcpy", 0, GenericOnly;
        LlvmMemmove / Memmove = "llvm.intr.memmove", 0, GenericOnly;
        LlvmMemset / Memset = "llvm.intr.memset", 0, GenericOnly;
        LlvmMaskedLoad / MaskedLoad = "llvm.intr.masked.load", 0, LlvmIntrOperands;
        LlvmMaskedStore / MaskedStore = "llvm.intr.masked.store", 0, LlvmMaskedStore;
        LlvmMaskedExpandload / MaskedExpandload = "llvm.intr.masked.expandload", 0, GenericOnly;
        LlvmMaskedCompressstore / MaskedCompressstore = "llvm.intr.masked.compressstore", 0, GenericOnly;
        LlvmMaskedGather / MaskedGather = "llvm.intr.masked.gather", 0, LlvmIntrOperands;
        LlvmMaskedScatter / MaskedScatter = "llvm.intr.masked.scatter", 0, LlvmMaskedStore;
        LlvmVectorInsert / VectorInsert = "llvm.intr.vector.insert", 0, VecInsert;
        LlvmVectorExtract / VectorExtract = "llvm.intr.vector.extract", 0, VecExtract;
        LlvmMatrixTranspose / MatrixTranspose = "llvm.intr.matrix.transpose", 0, Cast;
        LlvmMatrixMultiply / MatrixMultiply = "llvm.intr.matrix.multiply", 0, LlvmIntrOperands;
        LlvmStacksave / Stacksave = "llvm.intr.stacksave", 0, TypeOnly;
        LlvmStackrestore / Stackrestore = "llvm.intr.stackrestore", 0, LlvmIntrOperand;
        LlvmAssume / Assume = "llvm.intr.assume", 0, LlvmAssume;
        LlvmPrefetch / Prefetch = "llvm.intr.prefetch", 0, GenericOnly;
        LlvmVscale / Vscale = "llvm.intr.vscale", 0, GenericOnly;
        LlvmStepvector / Stepvector = "llvm.intr.stepvector", 0, TypeOnly;
        LlvmVaStart / VaStart = "llvm.intr.vastart", 0, LlvmIntrOperand;
        LlvmVaEnd / VaEnd = "llvm.intr.vaend", 0, LlvmIntrOperand;
        LlvmVaCopy / VaCopy = "llvm.intr.vacopy", 0, LlvmVaCopy;
        LlvmVaArg / VaArg = "llvm.va_arg", 0, LlvmVaArg;
    }
}
