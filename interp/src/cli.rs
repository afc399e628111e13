//! The command line: `print`, `run`, `debug`, `dap`, `runner` and `diff`, their options and exit
//! codes: 0 success, 1 runtime failure (undefined behaviour, a failed
//! assertion, a resource limit), 2 bad input or usage, 3 an internal error
//! of mlir-interp itself.

pub use crate::driver::{
    engine_stack_size, limits, on_engine_thread, print_result, read_source, with_big_stack, EntryResult, ThreadError,
    CLI_STACK, EXIT_INPUT, EXIT_INTERNAL, EXIT_RUNTIME,
};
use crate::exec::{Config, Engine};
use clap::{Parser, Subcommand, ValueEnum};
use mlir_ir::diag::Source;
use std::io::Write;

/// Makes every panic a one-line internal-error report and exit status
/// [`EXIT_INTERNAL`], so an interpreter bug is never mistaken for a
/// program failure (exit 1) or a crash of the program.
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        let at = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
        let msg = msg.replace('\n', " ");
        eprintln!("mlir-interp: internal error, please report it with the input: {msg}{at}");
        std::process::exit(EXIT_INTERNAL);
    }));
}

/// The mlir-runner command line in `argv`, if the binary runs as
/// mlir-runner: called through a link named `mlir-runner`, or as
/// `mlir-interp runner ...`. Returns the program name for messages and the
/// arguments.
pub fn runner_args(argv: &[String]) -> Option<(String, Vec<String>)> {
    let prog = argv.first()?;
    let base = prog.rsplit('/').next().unwrap_or(prog);
    if base == "mlir-runner" {
        return Some((prog.clone(), argv[1..].to_vec()));
    }
    if argv.get(1).map(String::as_str) == Some("runner") {
        return Some(("mlir-interp runner".to_string(), argv[2..].to_vec()));
    }
    None
}

/// The FileCheck command line in `argv`, if the binary runs as FileCheck:
/// through a link named `FileCheck`, or as `mlir-interp filecheck ...`.
pub fn filecheck_args(argv: &[String]) -> Option<Vec<String>> {
    let prog = argv.first()?;
    if prog.rsplit('/').next() == Some("FileCheck") {
        return Some(argv[1..].to_vec());
    }
    (argv.get(1).map(String::as_str) == Some("filecheck")).then(|| argv[2..].to_vec())
}

/// Runs mlir-runner's command line (see [`runner_args`]) on a thread with
/// a [`CLI_STACK`] stack.
pub fn runner_on_big_stack(prog: String, args: Vec<String>) -> i32 {
    exit_on_big_stack(move || crate::runner::main(&args, &prog))
}

/// Runs `main_with(cli)` on a thread with a [`CLI_STACK`] stack.
pub fn main_on_big_stack(cli: Cli) -> i32 {
    exit_on_big_stack(move || main_with(cli))
}

/// The exit status `f` returns on a thread [`with_big_stack`] starts.
fn exit_on_big_stack(f: impl FnOnce() -> i32 + Send + 'static) -> i32 {
    match with_big_stack(f) {
        Ok(r) => r.unwrap_or(EXIT_INTERNAL),
        Err(e) => {
            eprintln!("error: cannot start a thread with a {CLI_STACK}-byte stack: {e}");
            EXIT_INPUT
        }
    }
}

/// Reads a byte count: a number with an optional K, M, G or T suffix
/// (powers of 1024).
fn parse_bytes(s: &str) -> Result<usize, String> {
    let t = s.trim();
    let (num, mul) = match t.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => {
            let shift = match c.to_ascii_uppercase() {
                'K' => 10,
                'M' => 20,
                'G' => 30,
                'T' => 40,
                _ => return Err(format!("unknown size suffix '{c}' (use K, M, G or T)")),
            };
            (&t[..i], 1usize << shift)
        }
        _ => (t, 1),
    };
    let n: usize = num.trim().parse().map_err(|_| format!("'{s}' is not a size in bytes (e.g. 4G, 512M)"))?;
    match n.checked_mul(mul) {
        Some(0) => Err("the memory limit must be positive".into()),
        Some(b) => Ok(b),
        None => Err(format!("'{s}' is too large")),
    }
}

/// Reads a duration in seconds (fractions allowed).
fn parse_seconds(s: &str) -> Result<std::time::Duration, String> {
    let x: f64 = s.trim().parse().map_err(|_| format!("'{s}' is not a number of seconds"))?;
    std::time::Duration::try_from_secs_f64(x)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| format!("'{s}' is not a positive number of seconds"))
}

/// Command-line arguments.
#[derive(Parser, Debug)]
#[command(name = "mlir-interp", version, about = "A reference interpreter for MLIR")]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub cmd: Cmd,
}

/// `--float-policy` values (see `float::Policy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FloatPolicy {
    /// Report conversions with no defined result (exit 1).
    Strict,
    /// Map them as ml_dtypes does.
    Saturate,
}

/// `--lang` values: the syntax a file is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LangArg {
    /// Today's MLIR (what mlir-opt 22 reads).
    Modern,
    /// The 2019 MLIR specification (`func @f`, `for`, `if`, bare affine
    /// maps, unprefixed standard ops), mapped onto today's ops.
    #[value(name = "2019")]
    Y2019,
}

impl LangArg {
    /// The library's name for this language.
    pub fn lang(self) -> mlir_ir::Lang {
        match self {
            LangArg::Modern => mlir_ir::Lang::Modern,
            LangArg::Y2019 => mlir_ir::Lang::Y2019,
        }
    }
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
        /// The input's language (default: today's, or 2019 when the file
        /// uses a construct only the 2019 language has).
        #[arg(long, value_enum)]
        lang: Option<LangArg>,
        /// Input file, or `-` for standard input.
        file: String,
    },
    /// Execute FILE's entry function.
    // The trace's options mean nothing without a trace: clap refuses them
    // (exit 2) unless --trace or --trace-file is there.
    #[command(group = clap::ArgGroup::new("tracing").args(["trace", "trace_file"]).multiple(true))]
    Run {
        /// Input file, or `-` for standard input.
        file: String,
        /// The input's language (default: today's, or 2019 when the file
        /// uses a construct only the 2019 language has).
        #[arg(long, value_enum)]
        lang: Option<LangArg>,
        /// The function to run.
        #[arg(short = 'e', long = "entry", default_value = "main")]
        entry: String,
        /// Print the entry function's result as mlir-runner does (`void`:
        /// nothing, and the function must return nothing). Without it, the
        /// results print as with --print-results.
        #[arg(long = "entry-point-result", value_enum)]
        entry_point_result: Option<EntryResult>,
        /// A value for the entry function's next parameter, typed by its
        /// signature: `-3`, `0xFF`, `true`, `2.5`, `inf`, `nan`, `0x7FC00000`
        /// (bits), `(1.0, -2.0)` (complex), `dense<[[1, 2], [3, 4]]>` or a
        /// bare scalar (splat) for vectors, tensors and memrefs.
        #[arg(long = "arg", value_name = "V", allow_hyphen_values = true)]
        args: Vec<String>,
        /// Random entry arguments from this seed (edge values half the
        /// time), printed on stderr as the --arg options that repeat them.
        #[arg(long = "random-args", value_name = "SEED", conflicts_with = "args")]
        random_args: Option<u64>,
        /// Print every result of the entry function as `%i = <literal> :
        /// <type>` (tensors and memrefs as `dense<...>`), instead of
        /// `--entry-point-result`'s mlir-runner form.
        #[arg(long = "print-results", conflicts_with = "entry_point_result")]
        print_results: bool,
        /// Write every result of the entry function as `DIR/result<i>.npy`.
        #[arg(long = "out", value_name = "DIR")]
        out: Option<String>,
        /// Trace every executed op (its source line, the values it read
        /// and wrote) on stderr, or into `--trace-file`.
        #[arg(long)]
        trace: bool,
        /// Write the trace into this file (implies --trace).
        #[arg(long = "trace-file", value_name = "FILE")]
        trace_file: Option<String>,
        /// Stop tracing after this many events (the run goes on).
        #[arg(long = "trace-limit", value_name = "N", requires = "tracing")]
        trace_limit: Option<u64>,
        /// Trace format: `text` (source lines) or `jsonl` (one JSON object
        /// per event).
        #[arg(long = "trace-format", value_enum, default_value = "text", requires = "tracing")]
        trace_format: TraceFormat,
        /// Trace only ops inside this function.
        #[arg(long = "trace-func", value_name = "NAME", requires = "tracing")]
        trace_func: Option<String>,
        /// Trace only ops whose name starts with this (`arith.`, `memref.load`).
        #[arg(long = "trace-op", value_name = "PREFIX", requires = "tracing")]
        trace_op: Option<String>,
        /// Trace only ops on these source lines (`12-40`, or one line).
        #[arg(long = "trace-lines", value_name = "A-B", value_parser = clap::builder::ValueParser::new(parse_lines), requires = "tracing")]
        trace_lines: Option<(usize, usize)>,
        /// Stop the run after this many seconds (exit 1).
        #[arg(long, value_parser = clap::builder::ValueParser::new(parse_seconds))]
        timeout: Option<std::time::Duration>,
        /// Treat memory still allocated at exit as an error (exit 1), not a warning.
        #[arg(long = "check-leaks")]
        check_leaks: bool,
        #[command(flatten)]
        engine: EngineArgs,
        /// Report executed ops and ops per second on stderr (for benchmarks).
        #[arg(long)]
        stats: bool,
        /// Exit statuses for reducers' interestingness scripts (mlir-reduce,
        /// C-Reduce): 0 the run is defined (it returned, or failed an
        /// assertion), 1 undefined behaviour, 4 a limit ended it (fuel,
        /// time, memory; default --max-steps 100000000 and --timeout 10),
        /// 2 bad input, 3 an internal error.
        #[arg(long = "reduce-mode")]
        reduce_mode: bool,
    },
    /// Debug FILE's entry function: a REPL paused before its first op
    /// (breakpoints, stepping, printing values; `help` lists the commands).
    /// Commands come from the terminal, or line by line from a pipe.
    Debug {
        /// Input file (not `-`: standard input carries the commands).
        file: String,
        /// The input's language (default: today's, or 2019 when the file
        /// uses a construct only the 2019 language has).
        #[arg(long, value_enum)]
        lang: Option<LangArg>,
        /// The function to run.
        #[arg(short = 'e', long = "entry", default_value = "main")]
        entry: String,
        /// A value for the entry function's next parameter (as `run --arg`).
        #[arg(long = "arg", value_name = "V", allow_hyphen_values = true)]
        args: Vec<String>,
        #[command(flatten)]
        engine: EngineArgs,
    },
    /// Serve the Debug Adapter Protocol on stdin/stdout, for editors: the
    /// client's `launch` names the program (`program`, `entry`, `args`,
    /// `stopOnEntry`).
    Dap {
        #[command(flatten)]
        engine: EngineArgs,
    },
    /// Run as mlir-runner: its options (`-e`, `-entry-point-result=...`,
    /// `--shared-libs=...`, `-O3`, ...) with one or two dashes; also what
    /// the binary does when called through a link named `mlir-runner`.
    Runner {
        /// mlir-runner's arguments.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Run FILE here and through mlir-opt + mlir-runner (LLVM 22); report
    /// the first difference (exit 0 same, 1 different, 2 unusable input,
    /// 4 undefined behaviour here: nothing to compare).
    Diff(DiffArgs),
    /// Check that a pass pipeline preserves FILE's meaning: run the entry
    /// function before and after the optimizer on the same inputs and judge
    /// each by refinement (exit 0 no miscompile, 1 a miscompile, 2 the
    /// check cannot be made).
    Passcheck(PasscheckArgs),
    /// Print a random program free of undefined behaviour: `@f` computing
    /// on its arguments, `@main` calling it with edge values and printing
    /// the results (deterministic per seed).
    Gen {
        /// The seed.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// What the program exercises.
        #[arg(long, value_enum, default_value = "mixed")]
        kind: crate::gen::Kind,
        /// About how many ops `@f` gets.
        #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=10_000))]
        size: u64,
    },
    /// Shrink FILE while a miscompile under --passes still shows (or while
    /// --test CMD still exits 0), keeping it valid and free of undefined
    /// behaviour; prints the reduced program.
    Reduce(ReduceArgs),
    /// A fuzzing campaign: generate programs for a seed range, passcheck
    /// the pipeline on each (and --diff against mlir-runner), keep, reduce
    /// and bucket every failure in --out; `--merge DIR...` sums up shards.
    Fuzz(FuzzArgs),
    /// Run as LLVM's FileCheck (built in): `filecheck CHECK-FILE [options]`
    /// with the input on stdin or `--input-file`; also what the binary
    /// does when called through a link named `FileCheck`.
    Filecheck {
        /// FileCheck's arguments.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Run lit tests (LLVM's MLIR tests, unchanged): each file's RUN lines
    /// with mlir-interp as mlir-runner and FileCheck, the real mlir-opt
    /// where a line needs it (`--direct`: none, the test file runs
    /// unlowered; `--llvm`: LLVM 22's tools, for reference); `-v` shows
    /// each test's commands and output.
    Lit {
        /// `[-v] [--llvm | --direct] [--timeout SECONDS] FILE|DIR...`
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
}

/// Engine options `run` and `debug` share.
#[derive(clap::Args, Debug)]
pub struct EngineArgs {
    /// Fuel: stop after this much work (one unit per op plus one per
    /// vector, tensor or printed memref element it touches).
    #[arg(long = "max-steps")]
    pub max_steps: Option<u64>,
    /// Memory budget for memrefs, vectors, tensors and call frames, in
    /// bytes or with a K/M/G/T suffix (default: half of physical memory).
    #[arg(long = "max-memory", value_parser = clap::builder::ValueParser::new(parse_bytes))]
    pub max_memory: Option<usize>,
    /// Maximum depth of nested calls.
    #[arg(long = "max-call-depth", default_value_t = 10_000)]
    pub max_call_depth: u32,
    /// Bit width of `index` (64 or 32).
    #[arg(long = "index-bitwidth", default_value_t = 64, value_parser = clap::builder::ValueParser::new(parse_index_bits))]
    pub index_bitwidth: u32,
    /// The runtime value of `vector.vscale` (lanes per scalable unit).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub vscale: u32,
    /// Float conversions with no defined result (NaN/inf into f4/f6, zero
    /// or negatives into f8E8M0FNU): `strict` reports them, `saturate`
    /// maps them as ml_dtypes does (inf to the largest value, NaN to the
    /// zero of the opposite sign, f8E8M0FNU to NaN).
    #[arg(long = "float-policy", value_enum, default_value = "strict")]
    pub float_policy: FloatPolicy,
}

impl EngineArgs {
    /// The engine configuration these options (and `run`'s own) give.
    pub fn config(&self, timeout: Option<std::time::Duration>, check_leaks: bool) -> Config {
        Config {
            max_steps: self.max_steps,
            max_call_depth: self.max_call_depth,
            index_bits: self.index_bitwidth,
            vscale: self.vscale,
            check_leaks,
            float_policy: match self.float_policy {
                FloatPolicy::Strict => crate::float::Policy::Strict,
                FloatPolicy::Saturate => crate::float::Policy::Saturate,
            },
            max_memory: self.max_memory.unwrap_or(0),
            timeout,
            ..Config::default()
        }
    }
}

/// Options of `diff` (its own struct keeps `Cmd` small).
#[derive(clap::Args, Debug)]
pub struct DiffArgs {
    /// Input file (mlir-opt reads it too, so not `-`).
    pub file: String,
    /// The input's language (default: today's, or 2019 when the file uses
    /// a construct only the 2019 language has; mlir-opt then reads the
    /// modern form `print --lang 2019` makes).
    #[arg(long, value_enum)]
    pub lang: Option<LangArg>,
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
    /// Seconds the reference run may take (a lowered program with undefined
    /// behaviour can hang); past it the comparison is unusable (exit 2).
    #[arg(long, default_value = "60", value_parser = clap::builder::ValueParser::new(parse_seconds))]
    pub timeout: std::time::Duration,
}

/// What `passcheck` and `reduce` share: the pipeline, the optimizer, the
/// entry and its inputs, and how runs are bounded.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// The pass pipeline: `canonicalize,cse` or `builtin.module(...)`.
    #[arg(long)]
    pub passes: Option<String>,
    /// The optimizer, run through the shell as `CMD [--pass-pipeline=...]
    /// --mlir-print-op-generic FILE` with the transformed module on its
    /// stdout (default: LLVM 22's mlir-opt; any MLIR tool or script works),
    /// or, if it has `{file}` or `{passes}` placeholders, as written with
    /// them filled in (`sed s/a/b/ {file}`).
    #[arg(long, value_name = "CMD")]
    pub opt: Option<String>,
    /// The function to run (default: the file's `// ENTRY:` line, else
    /// `main`).
    #[arg(short = 'e', long = "entry")]
    pub entry: Option<String>,
    /// A value for the entry function's next parameter (as `run --arg`):
    /// this one input instead of random ones (default: the file's
    /// `// ARGS:` line, which `reduce` writes, if it has one).
    #[arg(long = "arg", value_name = "V", allow_hyphen_values = true)]
    pub args: Vec<String>,
    /// How many random input sets to try when the entry takes parameters
    /// (edge values half the time).
    #[arg(long, default_value_t = 8)]
    pub inputs: usize,
    /// The seed of the first random input set (the next ones count up).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Treat NaNs with different signs or payloads as different (LLVM lets
    /// passes choose them, so by default they are not).
    #[arg(long = "nan-exact")]
    pub nan_exact: bool,
    /// Seconds each run of the program may take (past it the input is
    /// inconclusive).
    #[arg(long, default_value = "10", value_parser = clap::builder::ValueParser::new(parse_seconds))]
    pub timeout: std::time::Duration,
    /// Seconds each optimizer invocation may take.
    #[arg(long = "opt-timeout", default_value = "120", value_parser = clap::builder::ValueParser::new(parse_seconds))]
    pub opt_timeout: std::time::Duration,
    #[command(flatten)]
    pub engine: EngineArgs,
}

impl CheckArgs {
    /// passcheck's options for `file`, with runs configured by `cfg`; the
    /// entry and input the file's `// ENTRY:` and `// ARGS:` lines give
    /// where the command line gives none.
    fn options(&self, file: &str, cfg: Config) -> Result<crate::passcheck::Options, String> {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        let crate::passcheck::FileInput { entry, args, other } =
            crate::passcheck::file_input(&text).map_err(|e| format!("error: {file}: {e}"))?;
        if !other.is_empty() {
            eprintln!(
                "note: {file}: passcheck takes only --arg values from the // ARGS: line; give '{}' on the command line",
                other.join(" ")
            );
        }
        Ok(crate::passcheck::Options {
            file: file.to_string(),
            passes: self.passes.clone(),
            opt: self.opt.clone(),
            entry: self.entry.clone().or(entry).unwrap_or_else(|| "main".to_string()),
            args: if self.args.is_empty() { args } else { self.args.clone() },
            inputs: self.inputs.max(1),
            seed: self.seed,
            each_pass: false,
            nan_exact: self.nan_exact,
            ir_dir: None,
            opt_timeout: self.opt_timeout,
            cfg,
        })
    }
}

/// `passcheck`'s options.
#[derive(clap::Args, Debug)]
pub struct PasscheckArgs {
    /// The source program (the optimizer reads it too, so not `-`).
    pub file: String,
    #[command(flatten)]
    pub check: CheckArgs,
    /// Run the pipeline one pass at a time and name the first pass after
    /// which the meaning changes, with the IR before and after it.
    #[arg(long = "each-pass")]
    pub each_pass: bool,
    /// With --each-pass: keep the module after every pass in DIR.
    #[arg(long = "ir-dir", value_name = "DIR")]
    pub ir_dir: Option<String>,
}

/// `reduce`'s options.
#[derive(clap::Args, Debug)]
pub struct ReduceArgs {
    /// The program to shrink.
    pub file: String,
    #[command(flatten)]
    pub check: CheckArgs,
    /// Keep this interestingness test exiting 0 instead of a miscompile: run
    /// through the shell as `CMD FILE` (C-Reduce's convention).
    #[arg(long, value_name = "CMD", conflicts_with_all = ["opt", "passes"])]
    pub test: Option<String>,
    /// Write the reduced program here instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<String>,
    /// Stop after trying this many candidates (the result so far is kept).
    #[arg(long = "max-tests", default_value_t = 50_000)]
    pub max_tests: usize,
}

/// `fuzz`'s options.
#[derive(clap::Args, Debug)]
pub struct FuzzArgs {
    /// The pass pipeline under test (as `passcheck --passes`).
    #[arg(long, required_unless_present = "merge")]
    pub passes: Option<String>,
    /// The optimizer (as `passcheck --opt`).
    #[arg(long, value_name = "CMD")]
    pub opt: Option<String>,
    /// The seeds: `A..B` (B excluded). Shards of a campaign take disjoint ranges.
    #[arg(long, value_name = "A..B", required_unless_present = "merge", value_parser = clap::builder::ValueParser::new(crate::fuzz::parse_seeds))]
    pub seeds: Option<std::ops::Range<u64>>,
    /// The kind of programs (default: seeds take every kind in turn).
    #[arg(long, value_enum)]
    pub kind: Option<crate::gen::Kind>,
    /// About how many ops each program's `@f` gets.
    #[arg(long, default_value_t = 30)]
    pub size: usize,
    /// Programs checked at once (default: the machine's cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// The results directory: failing programs, reports, reductions and a
    /// `summary-A-B.tsv`.
    #[arg(long, default_value = "fuzz-results")]
    pub out: String,
    /// Random input sets for `@f` besides `@main`'s own (0: `@main` only).
    #[arg(long, default_value_t = 4)]
    pub inputs: usize,
    /// Also compare this engine with mlir-runner on every program.
    #[arg(long)]
    pub diff: bool,
    /// Keep failures unreduced.
    #[arg(long = "no-reduce")]
    pub no_reduce: bool,
    /// Seconds each run may take.
    #[arg(long, default_value = "10", value_parser = clap::builder::ValueParser::new(parse_seconds))]
    pub timeout: std::time::Duration,
    /// Seconds each optimizer invocation may take.
    #[arg(long = "opt-timeout", default_value = "120", value_parser = clap::builder::ValueParser::new(parse_seconds))]
    pub opt_timeout: std::time::Duration,
    /// Stop starting programs after this many seconds (the summary counts
    /// the programs that ran).
    #[arg(long = "max-time", value_name = "SECONDS", value_parser = clap::builder::ValueParser::new(parse_seconds))]
    pub max_time: Option<std::time::Duration>,
    /// Sum up the summaries of these results directories instead.
    #[arg(long, num_args = 1.., value_name = "DIR", conflicts_with_all = ["passes", "seeds"])]
    pub merge: Vec<String>,
    #[command(flatten)]
    pub engine: EngineArgs,
}

/// Runs the CLI and returns the process exit status.
pub fn main_with(cli: Cli) -> i32 {
    match cli.cmd {
        Cmd::Print { generic, debuginfo, lang, file } => {
            let (_, m) = match load_module(&file, lang) {
                Ok(x) => x,
                Err(code) => return code,
            };
            let _ = generic;
            let mut p = mlir_ir::printer::GenericPrinter::new(&m);
            p.debug_info = debuginfo;
            print!("{}", p.print());
            0
        }
        Cmd::Run {
            file,
            lang,
            entry,
            entry_point_result,
            args,
            random_args,
            print_results,
            out,
            trace,
            trace_file,
            trace_limit,
            trace_format,
            trace_func,
            trace_op,
            trace_lines,
            timeout,
            check_leaks,
            engine,
            stats,
            reduce_mode,
        } => {
            let (src, m) = match load_module(&file, lang) {
                Ok(x) => x,
                Err(code) => return code,
            };
            let mut cfg = engine.config(timeout, check_leaks);
            if reduce_mode {
                // A reducer's edits can make a loop endless: bound every run.
                cfg.max_steps = cfg.max_steps.or(Some(100_000_000));
                cfg.timeout = cfg.timeout.or(Some(std::time::Duration::from_secs(10)));
            }
            let format = match trace_format {
                TraceFormat::Text => crate::trace::Format::Text,
                TraceFormat::Jsonl => crate::trace::Format::Jsonl,
            };
            let filter = crate::trace::Filter { func: trace_func, op: trace_op, lines: trace_lines };
            let trace = (trace || trace_file.is_some()).then_some(TraceArgs {
                file: trace_file,
                limit: trace_limit.unwrap_or(u64::MAX),
                format,
                filter,
            });
            let run = RunArgs {
                entry,
                res: entry_point_result,
                args,
                random_args,
                print_results,
                out,
                trace,
                stats,
                reduce_mode,
            };
            run_on_big_stack(&m, &src, cfg, &run)
        }
        Cmd::Debug { file, lang, entry, args, engine } => debug(&file, lang, entry, args, &engine),
        // main.rs hands mlir-runner command lines over before parsing;
        // this arm serves library callers of main_with.
        Cmd::Runner { args } => crate::runner::main(&args, "mlir-interp runner"),
        Cmd::Lit { args } => crate::lit::main(&args),
        Cmd::Filecheck { args } => crate::filecheck::main(&args, &mut std::io::stdin().lock(), &mut std::io::stderr()),
        Cmd::Dap { engine } => {
            let cfg = engine.config(None, false);
            let r = on_engine_thread(&cfg, || {
                let input = Box::new(std::io::BufReader::new(std::io::stdin()));
                crate::debug::dap::main(input, Box::new(std::io::stdout()), cfg.clone())
            });
            r.unwrap_or_else(|e| {
                let (code, msg) = e.report();
                eprintln!("error: {msg}");
                code
            })
        }
        Cmd::Passcheck(a) => {
            if a.check.passes.is_none() && a.check.opt.is_none() {
                eprintln!("error: passcheck needs --passes (or an --opt command that transforms on its own)");
                return EXIT_INPUT;
            }
            let cfg = a.check.engine.config(Some(a.check.timeout), false);
            let o = match a.check.options(&a.file, cfg) {
                Ok(o) => o,
                Err(e) => {
                    eprintln!("{e}");
                    return EXIT_INPUT;
                }
            };
            crate::passcheck::main(&crate::passcheck::Options { each_pass: a.each_pass, ir_dir: a.ir_dir, ..o })
        }
        Cmd::Gen { seed, kind, size } => {
            match crate::gen::program(&crate::gen::Options { seed, kind, size: size as usize }) {
                Ok(text) => {
                    print!("{text}");
                    0
                }
                Err(crate::gen::GenError(msg)) => {
                    eprintln!("error: internal error: the generator made a bad program (please report it): {msg}");
                    EXIT_INTERNAL
                }
            }
        }
        Cmd::Reduce(a) => reduce(a),
        Cmd::Fuzz(a) => {
            if !a.merge.is_empty() {
                return crate::fuzz::merge(&a.merge);
            }
            let (Some(passes), Some(seeds)) = (a.passes, a.seeds) else {
                eprintln!("error: fuzz needs --passes and --seeds (or --merge)");
                return EXIT_INPUT;
            };
            let mut cfg = a.engine.config(Some(a.timeout), false);
            cfg.max_steps = cfg.max_steps.or(Some(100_000_000));
            let jobs = a.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
            crate::fuzz::main(&crate::fuzz::Options {
                passes,
                opt: a.opt,
                seeds,
                kind: a.kind,
                size: a.size,
                jobs,
                out: a.out.into(),
                inputs: a.inputs,
                diff: a.diff,
                reduce: !a.no_reduce,
                cfg,
                opt_timeout: a.opt_timeout,
                max_time: a.max_time,
            })
        }
        Cmd::Diff(a) => {
            let cfg = Config { max_steps: a.max_steps, ..Config::default() };
            let lang = a.lang.map(LangArg::lang);
            crate::differential::main(
                &a.file,
                lang,
                a.pipeline,
                &a.entry,
                a.entry_point_result,
                a.nan_exact,
                cfg,
                a.timeout,
            )
        }
    }
}

/// `reduce`: shrinks the file while its property holds; exit 0 with the
/// reduced program, 2 when the property does not hold to start with.
fn reduce(a: ReduceArgs) -> i32 {
    use crate::reduce::{Property, Stats};
    let c = &a.check;
    let mut cfg = c.engine.config(Some(c.timeout), false);
    // Edits can turn a loop bound into a huge one: bound every run.
    cfg.max_steps = cfg.max_steps.or(Some(100_000_000));
    let text = match read_source(&a.file) {
        Ok(s) => s.text,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_INPUT;
        }
    };
    let opts = match c.options(&a.file, cfg.clone()) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            return EXIT_INPUT;
        }
    };
    let prop = match &a.test {
        Some(cmd) => Property::Test {
            cmd: cmd.clone(),
            entry: opts.entry.clone(),
            args: opts.args.clone(),
            cfg: cfg.clone(),
            timeout: c.timeout,
        },
        None if c.passes.is_some() || c.opt.is_some() => {
            let inputs = match crate::passcheck::failing_inputs(&opts) {
                Ok(i) if !i.is_empty() => i,
                Ok(_) => {
                    eprintln!("error: passcheck finds no miscompile in {} to start from", a.file);
                    return EXIT_INPUT;
                }
                Err(e) => {
                    eprintln!("{}", e.trim_end());
                    return EXIT_INPUT;
                }
            };
            // One failing input is enough and keeps every check fast.
            let first = inputs[0].clone();
            Property::Miscompile { opts, inputs: vec![first] }
        }
        None => {
            eprintln!("error: reduce needs --passes (keep a miscompile) or --test CMD (keep a test passing)");
            return EXIT_INPUT;
        }
    };
    if let Err(why) = crate::reduce::check_start(&text, &prop) {
        eprintln!("error: {why}");
        return EXIT_INPUT;
    }
    let mut log = |line: &str| eprintln!("reduce: {line}");
    let (out, Stats { tried, kept }) = crate::reduce::reduce(&text, &prop, a.max_tests, &mut log);
    // The input it miscompiles on goes with it, so it re-checks alone.
    let out = match &prop {
        Property::Miscompile { opts, inputs } => crate::reduce::with_input(&out, &opts.entry, &inputs[0]),
        Property::Test { .. } => out,
    };
    eprintln!(
        "reduce: {} to {} lines ({tried} candidates tried, {kept} kept)",
        text.lines().count(),
        out.lines().count()
    );
    match &a.output {
        Some(f) => {
            if let Err(e) = std::fs::write(f, &out) {
                eprintln!("error: cannot write {f}: {e}");
                return EXIT_INPUT;
            }
        }
        None => print!("{out}"),
    }
    0
}

/// Reads and verifies `file` (`-`: standard input) written in `lang`
/// (`None`: today's syntax unless the file uses a construct only the 2019
/// language has, which a note on stderr says); on failure prints why and
/// gives the exit status.
fn load_module(file: &str, lang: Option<LangArg>) -> Result<(Source, mlir_ir::Module), i32> {
    let src = read_source(file).map_err(|e| {
        eprintln!("error: {e}");
        EXIT_INPUT
    })?;
    let (lang, note) = crate::driver::language(&src, lang.map(LangArg::lang));
    if let Some(note) = note {
        eprintln!("{note}");
    }
    match mlir_ir::parse_and_verify_lang(&src, &limits(), lang) {
        Ok(m) => Ok((src, m)),
        Err(d) => {
            eprint!("{}", d.render(&src));
            Err(EXIT_INPUT)
        }
    }
}

/// `debug FILE`: the REPL on the engine thread, reading commands from the
/// terminal (with line editing) or from a pipe.
fn debug(file: &str, lang: Option<LangArg>, entry: String, args: Vec<String>, engine: &EngineArgs) -> i32 {
    use std::io::IsTerminal;
    if file == "-" {
        eprintln!("error: debug reads its commands from standard input; give the program as a file");
        return EXIT_INPUT;
    }
    let (src, m) = match load_module(file, lang) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let cfg = engine.config(None, false);
    let sess = crate::debug::Session { m: &m, src: &src, cfg: cfg.clone(), entry, args };
    let tty = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    crate::debug::repl::catch_interrupts();
    let r = on_engine_thread(&cfg, || {
        let input: Box<dyn crate::debug::repl::Lines> = match rustyline::DefaultEditor::new() {
            Ok(ed) if tty => Box::new(crate::debug::repl::Editor(ed)),
            _ => Box::new(crate::debug::repl::Plain(std::io::stdin().lock())),
        };
        let repl = crate::debug::repl::Repl::new(&m, &src, input);
        crate::debug::run_session(&sess, repl, true)
    });
    match r {
        Ok(Ok(())) => 0,
        Ok(Err(diagnostic)) => {
            eprint!("{diagnostic}");
            EXIT_INPUT
        }
        Err(e) => {
            let (code, msg) = e.report();
            eprintln!("error: {msg}");
            code
        }
    }
}

/// Runs the engine on a stack that fits its depth limit (see
/// [`on_engine_thread`]); with `--timeout`, a watchdog ends the process if
/// one op outlasts the limit by a second (the engine itself stops between
/// ops).
fn run_on_big_stack(m: &mlir_ir::Module, src: &Source, cfg: Config, run_args: &RunArgs) -> i32 {
    if let Some(t) = cfg.timeout {
        let grace = t + std::time::Duration::from_secs(1);
        let code = if run_args.reduce_mode { REDUCE_MODE_LIMIT } else { EXIT_RUNTIME };
        std::thread::spawn(move || {
            std::thread::sleep(grace);
            eprintln!(
                "error: resource limit: time limit of {} s reached (--timeout), inside one operation",
                t.as_secs_f64()
            );
            std::process::exit(code);
        });
    }
    let c = cfg.clone();
    match on_engine_thread(&c, || run(m, src, cfg, run_args)) {
        Ok(code) => code,
        Err(e) => {
            let (code, msg) = e.report();
            eprintln!("error: {msg}");
            code
        }
    }
}

/// What `run` runs and prints.
struct RunArgs {
    entry: String,
    /// `--entry-point-result`, if given.
    res: Option<EntryResult>,
    /// `--arg` texts, one per entry parameter.
    args: Vec<String>,
    /// `--random-args`: the seed.
    random_args: Option<u64>,
    /// `--print-results` rather than `--entry-point-result`.
    print_results: bool,
    /// `--out DIR`: results as .npy files there.
    out: Option<String>,
    /// `--trace` and its options.
    trace: Option<TraceArgs>,
    stats: bool,
    /// `--reduce-mode`: exit statuses for interestingness scripts.
    reduce_mode: bool,
}

/// `--trace`'s options.
struct TraceArgs {
    /// The file (stderr if none).
    file: Option<String>,
    limit: u64,
    format: crate::trace::Format,
    filter: crate::trace::Filter,
}

/// `--trace-format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TraceFormat {
    /// Source lines with values.
    Text,
    /// One JSON object per event.
    Jsonl,
}

/// `--trace-lines`: `A-B` or `A`.
fn parse_lines(s: &str) -> Result<(usize, usize), String> {
    let num = |t: &str| t.trim().parse::<usize>().map_err(|_| format!("'{t}' is not a line number"));
    let (a, b) = match s.split_once('-') {
        Some((a, b)) => (num(a)?, num(b)?),
        None => num(s).map(|n| (n, n))?,
    };
    if a > b {
        return Err(format!("the range {a}-{b} is empty: its first line comes after its last"));
    }
    Ok((a, b))
}

/// The `--trace` observer, writing to its file or stderr.
fn tracer<'a>(src: &'a Source, t: &TraceArgs) -> Result<crate::trace::Trace<'a>, String> {
    let sink: Box<dyn Write + 'a> = match &t.file {
        Some(f) => {
            let h = std::fs::File::create(f).map_err(|err| format!("cannot create trace file '{f}': {err}"))?;
            Box::new(std::io::BufWriter::new(h))
        }
        // Buffered: the trace is flushed when it ends, before any error.
        None => Box::new(std::io::BufWriter::new(std::io::stderr())),
    };
    Ok(crate::trace::Trace::new(src, sink, t.limit).with(t.format, t.filter.clone()))
}

/// Loads and runs the entry function, printing its result as `mlir-runner` does.
fn run<'a>(m: &'a mlir_ir::Module, src: &'a Source, cfg: Config, a: &RunArgs) -> i32 {
    let (entry, res, stats) = (a.entry.as_str(), a.res, a.stats);
    let start = std::time::Instant::now();
    let stdout = std::io::stdout();
    let out = Box::new(std::io::BufWriter::new(stdout.lock()));
    let mut e = match Engine::load(m, cfg, out) {
        Ok(e) => e,
        Err(err) => {
            eprint!("{}", err.render_cli(m, src));
            return err.exit_code();
        }
    };
    if let Some(t) = &a.trace {
        if let Some(name) = &t.filter.func {
            // A filter matching nothing would trace nothing, silently.
            if e.func_by_name(name).is_none() {
                eprintln!("error: --trace-func: no function @{name} in {}", src.name);
                return EXIT_INPUT;
            }
        }
        match tracer(src, t) {
            Ok(trace) => e.observer = Some(Box::new(trace)),
            Err(msg) => {
                eprintln!("error: {msg}");
                return EXIT_INPUT;
            }
        }
    }
    let texts = match a.random_args {
        Some(seed) => crate::args::random_texts(&e, entry, seed),
        None => a.args.clone(),
    };
    let args = crate::args::entry_args(&mut e, src, entry, &texts);
    if let (Some(seed), Ok(_)) = (a.random_args, &args) {
        // Shown only once they are known good: a printed option always
        // repeats the run (a type no literal can give fails before this).
        let shown: Vec<String> = texts.iter().map(|x| format!("--arg '{x}'")).collect();
        eprintln!("mlir-interp: --random-args {seed}: {}", shown.join(" "));
    }
    let r = args.and_then(|args| e.run_entry_with(entry, args)).and_then(|vals| {
        if let Some(dir) = &a.out {
            crate::driver::write_results_npy(&e, entry, &vals, dir)?;
        }
        match (a.print_results, res) {
            (true, _) => crate::driver::print_results_mlir(&mut e, entry, &vals),
            // Results written as files need printing only when asked.
            (false, None | Some(EntryResult::Void)) if a.out.is_some() => Ok(()),
            // A function's results are what a run is for: shown unless
            // mlir-runner's form is asked for (nothing for a void one).
            (false, None) => crate::driver::print_results_mlir(&mut e, entry, &vals),
            (false, Some(res)) => print_result(&mut e, entry, &vals, res).map_err(|mut err| {
                if res == EntryResult::Void {
                    err.kind = crate::error::ErrorKind::BadInput(format!(
                        "{}: --entry-point-result=void is for functions without results; without it the \
                             results print in MLIR syntax, and --out DIR writes them as .npy files",
                        err.kind
                    ));
                }
                err
            }),
        }
    });
    let _ = e.out.flush();
    // The trace ends (and says which op failed) before any error message.
    drop(e.observer.take());
    if r.is_ok() {
        warn_leaks(&e, m, src);
    }
    if stats {
        let secs = start.elapsed().as_secs_f64();
        let n = e.steps();
        let mib = |b: usize| b as f64 / (1024.0 * 1024.0);
        let rss = peak_rss().map_or(String::new(), |r| format!(", peak RSS {:.1} MiB", mib(r)));
        // Copies of shared tensors an update made: what in-place updates
        // of a tensor with one owner avoid (`crate::last_use`).
        eprintln!(
            "mlir-interp: {n} ops in {secs:.3} s ({:.0} ops/s), peak buffers {:.1} MiB{rss}, values copied {:.1} MiB",
            n as f64 / secs.max(1e-9),
            mib(e.mem.peak_buffer_bytes()),
            mib(usize::try_from(e.copied_bytes()).unwrap_or(usize::MAX))
        );
    }
    match r {
        Ok(()) => 0,
        Err(err) => {
            eprint!("{}", err.render_cli(m, src));
            if a.reduce_mode {
                reduce_mode_status(&err)
            } else {
                err.exit_code()
            }
        }
    }
}

/// `run --reduce-mode`'s exit status for a run that ended with `err`.
fn reduce_mode_status(err: &crate::error::Error) -> i32 {
    use crate::error::ErrorKind;
    match err.kind {
        ErrorKind::Assert(_) | ErrorKind::Abort => 0,
        ErrorKind::Ub(_) | ErrorKind::MemUb { .. } | ErrorKind::Poison { .. } | ErrorKind::NoDefinedResult(_) => 1,
        ErrorKind::Fuel(_)
        | ErrorKind::CallDepth(_)
        | ErrorKind::MemoryLimit(_)
        | ErrorKind::TimeLimit(_)
        | ErrorKind::Resource(_) => REDUCE_MODE_LIMIT,
        _ => err.exit_code(),
    }
}

/// `run --reduce-mode`: a limit ended the run, so nothing is known.
const REDUCE_MODE_LIMIT: i32 = 4;

/// The process's peak resident set size in bytes (Linux `VmHWM`).
fn peak_rss() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find_map(|l| l.strip_prefix("VmHWM:"))?;
    let kb: usize = line.trim().trim_end_matches("kB").trim().parse().ok()?;
    Some(kb * 1024)
}

/// How many leaking allocation sites are shown in full.
const LEAK_SITES_SHOWN: usize = 5;

/// Heap memory never freed is a warning (without `--check-leaks`, which
/// makes `run_entry` fail instead): one per allocation site, with the count
/// and bytes of its leaked allocations, the first few sites in full and a
/// summary line for the rest, so a leak in a loop is a few lines, not one
/// per iteration.
fn warn_leaks(e: &Engine, m: &mlir_ir::Module, src: &Source) {
    use mlir_ir::diag::{Diagnostic, Severity};
    let leaks = e.mem.leaks();
    let mut sites: Vec<(mlir_ir::ir::OpId, usize, usize)> = Vec::new();
    let mut by_site = rustc_hash::FxHashMap::default();
    for (alloc, bytes) in &leaks {
        let i = *by_site.entry(*alloc).or_insert_with(|| {
            sites.push((*alloc, 0, 0));
            sites.len() - 1
        });
        sites[i].1 += 1;
        sites[i].2 += bytes;
    }
    sites.sort_by_key(|s| m.op(s.0).span.start);
    for &(alloc, n, bytes) in sites.iter().take(LEAK_SITES_SHOWN) {
        let message = if n == 1 {
            format!("memory leak: {bytes} bytes allocated here are never freed")
        } else {
            format!("memory leak: {n} allocations ({bytes} bytes in all) made here are never freed")
        };
        let d = Diagnostic { severity: Severity::Warning, span: m.op(alloc).span, message, notes: Vec::new() };
        eprint!("{}", d.render(src));
    }
    if sites.len() > LEAK_SITES_SHOWN {
        let total: usize = leaks.iter().map(|l| l.1).sum();
        eprintln!(
            "warning: {} leaked allocations ({total} bytes) in all, from {} sites ({} not shown)",
            leaks.len(),
            sites.len(),
            sites.len() - LEAK_SITES_SHOWN
        );
    }
}

fn parse_index_bits(s: &str) -> Result<u32, String> {
    match s {
        "32" => Ok(32),
        "64" => Ok(64),
        _ => Err(format!("index bit width must be 32 or 64, not '{s}'")),
    }
}
