//! The command line: `print` and `run`, their options and exit codes
//! (0 success, 1 runtime failure, 2 bad input or usage).

use crate::exec::{Config, Engine};
use crate::value::{Scalar, Value};
use clap::{Parser, Subcommand, ValueEnum};
use mlir_ir::diag::Source;
use std::io::{Read, Write};

/// Exit status for a program that failed at run time.
pub const EXIT_RUNTIME: i32 = 1;
/// Exit status for bad input or usage.
pub const EXIT_INPUT: i32 = 2;

/// Command-line arguments.
#[derive(Parser, Debug)]
#[command(name = "mlir-interp", version, about = "A reference interpreter for MLIR")]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub cmd: Cmd,
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

/// `--float-policy` values (see `float::Policy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FloatPolicy {
    /// Report conversions with no defined result (exit 1).
    Strict,
    /// Map them as ml_dtypes does.
    Saturate,
}

/// Subcommands.
#[derive(Subcommand, Debug)]
pub enum Cmd {
    /// Parse and verify FILE, then print it.
    Print {
        /// Print every op in generic form (what `mlir-opt --mlir-print-op-generic` reads).
        #[arg(long)]
        generic: bool,
        /// Print trailing locations.
        #[arg(long)]
        debuginfo: bool,
        /// Input file, or `-` for standard input.
        file: String,
    },
    /// Execute FILE's entry function.
    Run {
        /// Input file, or `-` for standard input.
        file: String,
        /// The function to run.
        #[arg(short = 'e', long = "entry", default_value = "main")]
        entry: String,
        /// How to print the entry function's result.
        #[arg(long = "entry-point-result", value_enum, default_value = "void")]
        entry_point_result: EntryResult,
        /// Stop after executing this many ops (fuel).
        #[arg(long = "max-steps")]
        max_steps: Option<u64>,
        /// Maximum depth of nested calls.
        #[arg(long = "max-call-depth", default_value_t = 10_000)]
        max_call_depth: u32,
        /// Bit width of `index` (64 or 32).
        #[arg(long = "index-bitwidth", default_value_t = 64, value_parser = clap::builder::ValueParser::new(parse_index_bits))]
        index_bitwidth: u32,
        /// The runtime value of `vector.vscale` (lanes per scalable unit).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
        vscale: u32,
        /// Treat memory still allocated at exit as an error (exit 1), not a warning.
        #[arg(long = "check-leaks")]
        check_leaks: bool,
        /// Float conversions with no defined result (NaN/inf into f4/f6, zero
        /// or negatives into f8E8M0FNU): `strict` reports them, `saturate`
        /// maps them as ml_dtypes does (inf to the largest value, NaN to the
        /// zero of the opposite sign, f8E8M0FNU to NaN).
        #[arg(long = "float-policy", value_enum, default_value = "strict")]
        float_policy: FloatPolicy,
        /// Report executed ops and ops per second on stderr (for benchmarks).
        #[arg(long)]
        stats: bool,
    },
    /// Run FILE here and through mlir-opt + mlir-runner (LLVM 22); report
    /// the first difference (exit 0 same, 1 different, 2 unusable input).
    Diff(DiffArgs),
}

/// Options of `diff` (its own struct keeps `Cmd` small).
#[derive(clap::Args, Debug)]
pub struct DiffArgs {
    /// Input file (mlir-opt reads it too, so not `-`).
    pub file: String,
    /// The function to run.
    #[arg(short = 'e', long = "entry", default_value = "main")]
    pub entry: String,
    /// How both sides print the entry function's result.
    #[arg(long = "entry-point-result", value_enum, default_value = "void")]
    pub entry_point_result: EntryResult,
    /// The mlir-opt lowering (default: the file's `// PIPELINE:` line, else
    /// the standard lowering of every dialect to LLVM).
    #[arg(long)]
    pub pipeline: Option<String>,
    /// Treat `nan` and `-nan` as different.
    #[arg(long = "nan-exact")]
    pub nan_exact: bool,
    /// Stop our side after this many ops (fuel).
    #[arg(long = "max-steps")]
    pub max_steps: Option<u64>,
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

/// Runs the CLI and returns the process exit status.
pub fn main_with(cli: Cli) -> i32 {
    match cli.cmd {
        Cmd::Print { generic, debuginfo, file } => {
            let src = match read_source(&file) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("error: {e}");
                    return EXIT_INPUT;
                }
            };
            let m = match mlir_ir::parse_and_verify(&src) {
                Ok(m) => m,
                Err(d) => {
                    eprint!("{}", d.render(&src));
                    return EXIT_INPUT;
                }
            };
            let _ = generic;
            let mut p = mlir_ir::printer::GenericPrinter::new(&m);
            p.debug_info = debuginfo;
            print!("{}", p.print());
            0
        }
        Cmd::Run {
            file,
            entry,
            entry_point_result,
            max_steps,
            max_call_depth,
            index_bitwidth,
            vscale,
            check_leaks,
            float_policy,
            stats,
        } => {
            let src = match read_source(&file) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("error: {e}");
                    return EXIT_INPUT;
                }
            };
            let m = match mlir_ir::parse_and_verify(&src) {
                Ok(m) => m,
                Err(d) => {
                    eprint!("{}", d.render(&src));
                    return EXIT_INPUT;
                }
            };
            let float_policy = match float_policy {
                FloatPolicy::Strict => crate::float::Policy::Strict,
                FloatPolicy::Saturate => crate::float::Policy::Saturate,
            };
            let cfg =
                Config { max_steps, max_call_depth, index_bits: index_bitwidth, vscale, check_leaks, float_policy };
            run_on_big_stack(&m, &src, cfg, &entry, entry_point_result, stats)
        }
        Cmd::Diff(a) => {
            let cfg = Config { max_steps: a.max_steps, ..Config::default() };
            crate::differential::main(&a.file, a.pipeline, &a.entry, a.entry_point_result, a.nan_exact, cfg)
        }
    }
}

/// Host stack bytes reserved per level of interpreted call (measured use is
/// well below this; the reservation is virtual memory).
const STACK_PER_CALL: usize = 16 * 1024;

/// The host stack for an engine thread that may nest `max_call_depth` calls.
pub fn engine_stack_size(cfg: &Config) -> usize {
    (cfg.max_call_depth as usize).saturating_mul(STACK_PER_CALL).clamp(64 << 20, 8 << 30)
}

/// Runs the engine on a thread whose stack fits `max_call_depth` calls, so
/// deep recursion ends with the depth error rather than a host overflow.
fn run_on_big_stack(m: &mlir_ir::Module, src: &Source, cfg: Config, entry: &str, res: EntryResult, stats: bool) -> i32 {
    let stack = engine_stack_size(&cfg);
    std::thread::scope(|s| {
        let h = std::thread::Builder::new().stack_size(stack).spawn_scoped(s, || run(m, src, cfg, entry, res, stats));
        match h {
            Ok(h) => h.join().unwrap_or(EXIT_RUNTIME),
            Err(e) => {
                eprintln!("error: cannot start the engine thread: {e}");
                EXIT_RUNTIME
            }
        }
    })
}

/// Loads and runs `entry`, printing its result as `mlir-runner` does.
fn run(m: &mlir_ir::Module, src: &Source, cfg: Config, entry: &str, res: EntryResult, stats: bool) -> i32 {
    let start = std::time::Instant::now();
    let stdout = std::io::stdout();
    let out = Box::new(std::io::BufWriter::new(stdout.lock()));
    let mut e = match Engine::load(m, cfg, out) {
        Ok(e) => e,
        Err(err) => {
            eprint!("{}", err.render(m, src));
            return EXIT_INPUT;
        }
    };
    let r = e.run_entry(entry).and_then(|vals| print_result(&mut e, entry, &vals, res));
    let _ = e.out.flush();
    if r.is_ok() {
        warn_leaks(&e, m, src);
    }
    if stats {
        let secs = start.elapsed().as_secs_f64();
        let n = e.steps();
        eprintln!("mlir-interp: {n} ops in {secs:.3} s ({:.0} ops/s)", n as f64 / secs.max(1e-9));
    }
    match r {
        Ok(()) => 0,
        Err(err) => {
            eprint!("{}", err.render(m, src));
            if err.is_input_error() {
                EXIT_INPUT
            } else {
                EXIT_RUNTIME
            }
        }
    }
}

/// `--entry-point-result`: void prints nothing; i32/i64 print the integer,
/// f32 prints `%e`; each followed by a newline. A mismatch is an error, as
/// in mlir-runner.
pub fn print_result(e: &mut Engine, entry: &str, vals: &[Value], res: EntryResult) -> crate::error::Result<()> {
    use crate::error::{Error, ErrorKind};
    let f = e.func_by_name(entry).map(|f| e.funcs[f.0 as usize].results.clone()).unwrap_or_default();
    let kinds: Vec<_> = f.iter().map(|t| e.m.ctx.type_kind(*t).clone()).collect();
    let bad = |msg: &str| Error::global(ErrorKind::Invalid(msg.to_string()));
    let text = match res {
        EntryResult::Void if kinds.is_empty() => return Ok(()),
        EntryResult::Void => return Err(bad("expected void function")),
        EntryResult::I32 | EntryResult::I64 => {
            let w = if res == EntryResult::I32 { 32 } else { 64 };
            if kinds.len() != 1 || !kinds[0].is_signless_int(w) {
                return Err(bad(&format!("only single i{w} function result supported")));
            }
            match vals.first().and_then(Value::scalar) {
                Some(Scalar::Int(i)) => i.to_i64().unwrap_or(0).to_string(),
                _ => return Err(bad("bad entry result")),
            }
        }
        EntryResult::F32 => {
            if kinds.len() != 1 || kinds[0] != mlir_ir::types::TypeKind::Float(crate::float::FloatKind::F32) {
                return Err(bad("only single f32 function result supported"));
            }
            match vals.first().and_then(Value::scalar) {
                Some(Scalar::Float(f)) => crate::runtime::format_e(*f),
                _ => return Err(bad("bad entry result")),
            }
        }
    };
    writeln!(e.out, "{text}").map_err(|err| bad(&format!("cannot write output: {err}")))
}

/// Heap memory never freed is a warning (without `--check-leaks`, which
/// makes `run_entry` fail instead).
fn warn_leaks(e: &Engine, m: &mlir_ir::Module, src: &Source) {
    use mlir_ir::diag::{Diagnostic, Severity};
    for (alloc, bytes) in e.mem.leaks() {
        let d = Diagnostic {
            severity: Severity::Warning,
            span: m.op(alloc).span,
            message: format!("memory leak: {bytes} bytes allocated here are never freed"),
            notes: Vec::new(),
        };
        eprint!("{}", d.render(src));
    }
}

fn parse_index_bits(s: &str) -> Result<u32, String> {
    match s {
        "32" => Ok(32),
        "64" => Ok(64),
        _ => Err(format!("index bit width must be 32 or 64, not '{s}'")),
    }
}
