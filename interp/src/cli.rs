//! The command line: `print` and `run`, their options and exit codes
//! (0 success, 1 runtime failure, 2 bad input or usage).

use clap::{Parser, Subcommand, ValueEnum};
use mlir_ir::diag::Source;
use std::io::Read;

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
    },
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
        Cmd::Run { file, entry, entry_point_result } => {
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
            let _ = (m, entry, entry_point_result);
            eprintln!("{}: error: the execution engine is not part of this build yet", src.name);
            EXIT_RUNTIME
        }
    }
}
