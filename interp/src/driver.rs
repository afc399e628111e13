//! Running a file as the tools do, shared by the `run` and `diff`
//! commands: exit codes, input limits, reading sources, the engine thread
//! sized for the call depth, and printing the entry function's result.

use crate::exec::{Config, Engine, STACK_PER_CALL};
use crate::value::{Scalar, Value};
use clap::ValueEnum;
use mlir_ir::diag::Source;
use std::io::{Read, Write};

pub use crate::error::{EXIT_INPUT, EXIT_INTERNAL, EXIT_RUNTIME};

/// The stack of the thread the CLI runs on: room for [`limits`]'s nesting
/// (virtual memory; only what deep input touches is ever committed).
pub const CLI_STACK: usize = 512 << 20;

/// The input bounds of the CLI: nesting up to 50,000 levels (25,000 nested
/// regions), which parse, verify and print within [`CLI_STACK`].
pub fn limits() -> mlir_ir::Limits {
    mlir_ir::Limits { max_nesting: 50_000 }
}

/// The language `src` is read in: `lang` when given, else the 2019
/// language when the text uses a construct only it has (with the note that
/// says so, `file:line:col: note: ...`), else today's.
pub fn language(src: &Source, lang: Option<mlir_ir::Lang>) -> (mlir_ir::Lang, Option<String>) {
    if let Some(l) = lang {
        return (l, None);
    }
    match mlir_ir::parser::detect_2019(&src.text) {
        Some((at, what)) => {
            let (l, c) = src.line_col(at as u32);
            let note = format!(
                "{}:{l}:{c}: note: reading the file as the 2019 language (--lang 2019): it uses {what}",
                src.name
            );
            (mlir_ir::Lang::Y2019, Some(note))
        }
        None => (mlir_ir::Lang::Modern, None),
    }
}

/// The result type the entry function's value is printed as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EntryResult {
    /// Print nothing.
    Void,
    /// Print an i32 result.
    I32,
    /// Print an i64 result.
    I64,
    /// Print an f32 result.
    F32,
}

/// Reads a file or standard input; the name is what diagnostics show.
pub fn read_source(file: &str) -> Result<Source, String> {
    if file == "-" {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s).map_err(|e| format!("cannot read standard input: {e}"))?;
        return Ok(Source::new("<stdin>", s));
    }
    let bytes = std::fs::read(file).map_err(|e| format!("cannot open input file '{file}': {e}"))?;
    let text = String::from_utf8(bytes).map_err(|_| format!("input file '{file}' is not valid UTF-8"))?;
    Ok(Source::new(file, text))
}

/// The host stack for an engine thread that may nest `max_call_depth` calls.
pub fn engine_stack_size(cfg: &Config) -> usize {
    (cfg.max_call_depth as usize).saturating_mul(STACK_PER_CALL).saturating_add(64 << 20)
}

/// Runs `f` on a thread whose stack fits `cfg.max_call_depth` calls, so deep
/// recursion ends with the depth error rather than a host overflow. The
/// stack is only reserved (each call's share counts against `--max-memory`
/// when the call happens); a stack the host cannot reserve is a usage error
/// that says what to change. On a thread [`with_big_stack`] started whose
/// stack is large enough, `f` runs in place: starting a thread costs a
/// short run more than a millisecond of wall time on a VM.
pub fn on_engine_thread<T: Send>(cfg: &Config, f: impl FnOnce() -> T + Send) -> Result<T, ThreadError> {
    let stack = engine_stack_size(cfg);
    let room = BIG_STACK.with(|b| b.get());
    if stack.saturating_add(IN_USE) <= room {
        // Nested engines (a run inside `f`) start their own threads.
        BIG_STACK.with(|b| b.set(0));
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
        BIG_STACK.with(|b| b.set(room));
        return r.map_err(|_| ThreadError::Panicked);
    }
    let hint = "lower --max-call-depth or raise the memory available";
    std::thread::scope(|s| {
        let h = std::thread::Builder::new().stack_size(stack).spawn_scoped(s, f);
        match h {
            // In the binary a panic exits through the panic hook first; a
            // library caller without the hook gets `Panicked`.
            Ok(h) => h.join().map_err(|_| ThreadError::Panicked),
            Err(e) => Err(ThreadError::Spawn(format!(
                "cannot start the engine thread with a {stack}-byte stack for --max-call-depth {}: {e}; {hint}",
                cfg.max_call_depth
            ))),
        }
    })
}

/// Generous bound on the stack a thread [`with_big_stack`] started has
/// used when it asks for an engine (the command line's frames, not the
/// parser's, which have returned).
const IN_USE: usize = 16 << 20;

thread_local! {
    /// The stack of this thread, when [`with_big_stack`] started it (0
    /// otherwise, or while an engine runs in place on it).
    static BIG_STACK: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Runs `f` on a new thread named `mlir-interp` with a [`CLI_STACK`]
/// stack, which an engine [`on_engine_thread`] asks for may share.
pub fn with_big_stack<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> std::io::Result<std::thread::Result<T>> {
    let h = std::thread::Builder::new().name("mlir-interp".into()).stack_size(CLI_STACK).spawn(move || {
        BIG_STACK.with(|b| b.set(CLI_STACK));
        f()
    })?;
    Ok(h.join())
}

/// Why [`on_engine_thread`] returned no result.
#[derive(Debug)]
pub enum ThreadError {
    /// The host refused the thread (its stack): a usage problem, exit 2.
    Spawn(String),
    /// The engine panicked: an internal error, exit 3.
    Panicked,
}

impl ThreadError {
    /// The exit status and message for this failure.
    pub fn report(&self) -> (i32, String) {
        match self {
            ThreadError::Spawn(m) => (EXIT_INPUT, m.clone()),
            ThreadError::Panicked => (EXIT_INTERNAL, "internal error: the engine thread panicked".into()),
        }
    }
}

/// `--entry-point-result`: void prints nothing; i32/i64 print the integer,
/// f32 prints `%e`; each followed by a newline. A mismatch is an error, as
/// in mlir-runner.
pub fn print_result(e: &mut Engine, entry: &str, vals: &[Value], res: EntryResult) -> crate::error::Result<()> {
    use crate::error::{Error, ErrorKind};
    let f = e.func_by_name(entry).map(|f| e.funcs[f.0 as usize].results.clone()).unwrap_or_default();
    let bad = |msg: &str| Error::global(ErrorKind::BadInput(msg.to_string()));
    check_result_type(e, &f, res).map_err(|m| bad(&m))?;
    let text = match res {
        EntryResult::Void => return Ok(()),
        EntryResult::I32 | EntryResult::I64 => match vals.first().and_then(Value::scalar) {
            Some(Scalar::Int(i)) => i.to_i64().unwrap_or(0).to_string(),
            _ => return Err(bad("bad entry result")),
        },
        EntryResult::F32 => match vals.first().and_then(Value::scalar) {
            Some(Scalar::Float(f)) => crate::runtime::format_e(f),
            _ => return Err(bad("bad entry result")),
        },
    };
    writeln!(e.out, "{text}").map_err(|err| bad(&format!("cannot write output: {err}")))
}

/// Whether result types `results` fit `res`, with mlir-runner's message
/// when they do not.
pub fn check_result_type(e: &Engine, results: &[mlir_ir::types::TypeId], res: EntryResult) -> Result<(), String> {
    let kinds: Vec<_> = results.iter().map(|t| e.m.ctx.type_kind(*t)).collect();
    let ok = match res {
        EntryResult::Void => kinds.is_empty(),
        EntryResult::I32 => kinds.len() == 1 && kinds[0].is_signless_int(32),
        EntryResult::I64 => kinds.len() == 1 && kinds[0].is_signless_int(64),
        EntryResult::F32 => {
            kinds.len() == 1 && *kinds[0] == mlir_ir::types::TypeKind::Float(crate::float::FloatKind::F32)
        }
    };
    if ok {
        return Ok(());
    }
    Err(match res {
        EntryResult::Void => "expected void function".to_string(),
        EntryResult::I32 => "only single i32 function result supported".to_string(),
        EntryResult::I64 => "only single i64 function result supported".to_string(),
        EntryResult::F32 => "only single f32 function result supported".to_string(),
    })
}

/// `--print-results`: each result of the entry function as
/// `%i = <literal> : <type>` (see `crate::show`), whatever its type.
pub fn print_results_mlir(e: &mut Engine, entry: &str, vals: &[Value]) -> crate::error::Result<()> {
    use crate::error::{Error, ErrorKind};
    let text = results_text(e, entry, vals);
    e.out
        .write_all(text.as_bytes())
        .map_err(|err| Error::global(ErrorKind::Resource(format!("cannot write output: {err}"))))
}

/// The lines [`print_results_mlir`] prints.
pub fn results_text(e: &Engine, entry: &str, vals: &[Value]) -> String {
    let Some(f) = e.func_by_name(entry) else { return String::new() };
    let func = &e.funcs[f.0 as usize];
    let mut text = String::new();
    for (i, (v, t)) in vals.iter().zip(&func.results).enumerate() {
        let ty = mlir_ir::printer::type_to_string(&e.m.ctx, *t);
        text.push_str(&format!(
            "%{i} = {} : {ty}\n",
            crate::show::value_as(v, func.op, crate::show::unsigned(&e.m.ctx, *t))
        ));
    }
    text
}

/// `--out DIR`: each result of the entry function as `DIR/result<i>.npy`
/// (scalars as 0-d arrays, memrefs as their contents); a result with no
/// `.npy` form (poison, an element type NumPy cannot hold) is an error
/// naming it; a directory or file that cannot be written is bad input.
pub fn write_results_npy(e: &Engine, entry: &str, vals: &[Value], dir: &str) -> crate::error::Result<()> {
    use crate::error::{Error, ErrorKind};
    let op = e.func_by_name(entry).map(|f| e.funcs[f.0 as usize].op);
    let fail = |msg: String| match op {
        Some(op) => Error::at(op, ErrorKind::Resource(msg)),
        None => Error::global(ErrorKind::Resource(msg)),
    };
    // A directory or file that cannot be written is a usage problem (exit
    // 2), not a limit the run reached.
    let io = |msg: String| Error::global(ErrorKind::BadInput(msg));
    std::fs::create_dir_all(dir).map_err(|x| io(format!("cannot create the --out directory '{dir}': {x}")))?;
    let types = e.func_by_name(entry).map(|f| e.funcs[f.0 as usize].results.clone());
    for (i, v) in vals.iter().enumerate() {
        let uns = types.as_ref().and_then(|t| t.get(i)).is_some_and(|t| crate::show::unsigned(&e.m.ctx, *t));
        let d = match v {
            Value::Array(d) => (**d).clone(),
            Value::Memref(m) => {
                m.read_all(op.unwrap_or(mlir_ir::ir::OpId(0)), "--out").map_err(|x| fail(x.kind.to_string()))?
            }
            v => match v.scalar() {
                Some(s) => crate::dense::Dense::new(&[], std::slice::from_ref(&s), None)
                    .map_err(|x| fail(format!("result #{i}: {x:?}")))?,
                None => return Err(fail(format!("result #{i} has no .npy form"))),
            },
            #[allow(unreachable_patterns)]
            _ => return Err(fail(format!("result #{i} has no .npy form"))),
        };
        // An empty array has no element to tell its lane; its type does.
        let lane = types.as_ref().and_then(|t| t.get(i)).and_then(|t| result_lane(e, *t));
        let d = match lane {
            Some(l) if d.is_empty() && d.lane() != l => {
                crate::dense::Dense::new(d.shape(), &[], Some(l)).map_err(|x| fail(format!("result #{i}: {x:?}")))?
            }
            _ => d,
        };
        // Poison has no .npy form: that is a request the run cannot serve
        // (exit 2), shown at the op that made the poison.
        if let Some(p) = d.first_poison() {
            let at = (0..d.len()).find(|k| d.poison_at(*k).is_some()).unwrap_or(0);
            let mut idx = vec![0; d.shape().len()];
            let mut rest = at;
            for (k, n) in d.shape().iter().enumerate().rev() {
                idx[k] = rest % (*n).max(1);
                rest /= (*n).max(1);
            }
            let made = if crate::error::is_allocation(e.m, p.0) {
                "memory this op allocated and nothing wrote"
            } else {
                "made by this op"
            };
            let msg = format!("--out cannot write result #{i} as .npy: its element {idx:?} is poison ({made})");
            return Err(Error::at(p.0, ErrorKind::BadInput(msg)));
        }
        let bytes =
            crate::npy::write(&d, uns).map_err(|m| fail(format!("result #{i} cannot be written as .npy: {m}")))?;
        let path = std::path::Path::new(dir).join(format!("result{i}.npy"));
        std::fs::write(&path, bytes).map_err(|x| io(format!("cannot write '{}': {x}", path.display())))?;
    }
    Ok(())
}

/// The element lane of a result of type `t`: a shaped type's element, or
/// `index` for tosa's `!tosa.shape<N>` (a rank-1 array of sizes).
fn result_lane(e: &Engine, t: mlir_ir::types::TypeId) -> Option<crate::lane::Lane> {
    match e.m.ctx.type_kind(t) {
        mlir_ir::types::TypeKind::Dialect { dialect, body }
            if e.m.ctx.str(*dialect) == "tosa" && body.starts_with(".shape") =>
        {
            Some(crate::lane::Lane::Int(e.cfg.index_bits))
        }
        _ => crate::operands::lane_of(e, e.elem_type(t)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::thread::{current, ThreadId};

    /// The thread an engine started from this one runs on.
    fn engine_thread(cfg: &Config) -> ThreadId {
        on_engine_thread(cfg, || current().id()).unwrap()
    }

    #[test]
    fn an_engine_runs_in_place_on_a_big_stack_and_a_nested_one_gets_a_thread() {
        let cfg = Config::default();
        // Any other thread (this test's) starts one.
        assert_ne!(engine_thread(&cfg), current().id());
        let (here, first, nested, again, deep) = with_big_stack(move || {
            let here = current().id();
            let first = engine_thread(&cfg);
            // An engine started while one runs in place needs its own stack.
            let nested = on_engine_thread(&cfg, || engine_thread(&cfg)).unwrap();
            // The stack is shared again once the first is done.
            let again = engine_thread(&cfg);
            // A depth limit whose stack does not fit gets a thread.
            let deep = engine_thread(&Config { max_call_depth: 40_000, ..cfg.clone() });
            (here, first, nested, again, deep)
        })
        .unwrap()
        .unwrap();
        assert_eq!((first, again), (here, here));
        assert_ne!(nested, here);
        assert_ne!(deep, here);
    }

    #[test]
    fn a_panic_in_place_is_reported_and_the_stack_shared_again() {
        let cfg = Config::default();
        let (panicked, after) = with_big_stack(move || {
            let r = on_engine_thread(&cfg, || panic!("deliberate panic in an engine run in place"));
            (matches!(r, Err(ThreadError::Panicked)), engine_thread(&cfg) == current().id())
        })
        .unwrap()
        .unwrap();
        assert!(panicked && after);
    }
}
