//! `mlir-interp runner ...` (or the binary called through a link named
//! `mlir-runner`): mlir-runner's command line, so a lit RUN line
//! `mlir-opt %s ... | mlir-runner -e main -entry-point-result=void
//! -shared-libs=%mlir_c_runner_utils | FileCheck %s` runs with the
//! interpreter in mlir-runner's place. Options are read as LLVM's
//! command-line library reads them (one or two dashes, `=value` or the
//! next argument); the messages and exit codes of the failures mlir-runner
//! reports are its own. The runtime libraries are built in: the known ones
//! are accepted silently, any other is a warning.

use crate::driver::{self, EntryResult, EXIT_INTERNAL, EXIT_RUNTIME};
use crate::exec::{Config, Engine};
use mlir_ir::diag::Source;
use std::io::{Read, Write};

/// What mlir-runner's options asked for.
#[derive(Debug, Default)]
struct Opts {
    input: Option<String>,
    entry: Option<String>,
    result: Option<EntryResult>,
    libs: Vec<String>,
    host_supports_jit: bool,
    help: bool,
    /// `-matrix-default-layout=row-major`.
    matrix_row_major: bool,
    /// `-matrix-allow-contract`.
    matrix_contract: bool,
}

/// Options taking a value that are accepted and ignored (code generation
/// and object-file settings have no meaning for an interpreter).
const IGNORED_WITH_VALUE: &[&str] = &[
    "march",
    "mattr",
    "mcpu",
    "object-filename",
    "debug-only",
    "color",
    "mlir-print-ir-after",
    "mlir-print-ir-before",
];

/// Flags accepted and ignored.
const IGNORED_FLAGS: &[&str] = &[
    "O0",
    "O1",
    "O2",
    "O3",
    "dump-object-file",
    "link-nested-modules",
    "no-implicit-module",
    "debug",
    "color",
    "mlir-disable-threading",
    "mlir-print-debuginfo",
    "mlir-print-op-generic",
    "mlir-print-ir-after-all",
    "mlir-print-ir-before-all",
    "mlir-timing",
    "verify-diagnostics",
    "enable-matrix",
];

/// The runtime libraries whose functions are built in.
const BUILT_IN: &[&str] = &["mlir_c_runner_utils", "mlir_runner_utils", "mlir_float16_utils", "mlir_apfloat_wrappers"];

/// Reads mlir-runner's command line.
fn parse(args: &[String], prog: &str) -> Result<Opts, String> {
    let mut o = Opts::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "-" || !a.starts_with('-') {
            if o.input.replace(a.clone()).is_some() {
                return Err(format!(
                    "Too many positional arguments specified!\nCan specify at most 1 positional arguments: See: {prog} --help"
                ));
            }
            continue;
        }
        let body = a.trim_start_matches('-');
        let (name, inline) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (body, None),
        };
        let value = |it: &mut std::slice::Iter<'_, String>| -> Result<String, String> {
            match inline.clone().or_else(|| it.next().cloned()) {
                Some(v) => Ok(v),
                None => Err(format!("for the {a} option: requires a value!")),
            }
        };
        match name {
            "e" | "entry-point" => o.entry = Some(value(&mut it)?),
            "entry-point-result" => {
                let v = value(&mut it)?;
                o.result = Some(match v.as_str() {
                    "void" => EntryResult::Void,
                    "i32" => EntryResult::I32,
                    "i64" => EntryResult::I64,
                    "f32" => EntryResult::F32,
                    _ => return Err(format!("for the --entry-point-result option: Cannot find option named '{v}'!")),
                });
            }
            "shared-libs" => o.libs.extend(value(&mut it)?.split(',').filter(|s| !s.is_empty()).map(String::from)),
            "host-supports-jit" => o.host_supports_jit = true,
            // LLVM's lowering of the matrix intrinsics: how they read their
            // flat vectors, and whether multiply-adds fuse.
            "matrix-default-layout" => {
                o.matrix_row_major = match value(&mut it)?.as_str() {
                    "column-major" => false,
                    "row-major" => true,
                    v => {
                        return Err(format!("for the --matrix-default-layout option: Cannot find option named '{v}'!"))
                    }
                }
            }
            "matrix-allow-contract" if inline.is_none() => o.matrix_contract = true,
            "help" | "h" | "help-hidden" => o.help = true,
            n if IGNORED_FLAGS.contains(&n) && inline.is_none() => {}
            n if IGNORED_WITH_VALUE.contains(&n) => {
                value(&mut it)?;
            }
            _ => return Err(format!("Unknown command line argument '{a}'.  Try: '{prog} --help'")),
        }
    }
    Ok(o)
}

/// The usage text (`--help`).
fn usage(prog: &str) -> String {
    format!(
        "OVERVIEW: MLIR CPU execution driver (mlir-interp's interpreter in mlir-runner's place)\n\n\
         USAGE: {prog} [options] <input file>\n\n\
         OPTIONS:\n\
         \x20 -e <function name>                       - The function to be called (default: main)\n\
         \x20 --entry-point-result=<f32|i32|i64|void>  - Textual description of the function type to be called (default: f32)\n\
         \x20 --shared-libs=<string>                   - Libraries to link dynamically (the runtime is built in)\n\
         \x20 --host-supports-jit                      - Report host JIT support\n\
         \x20 --O0 .. --O3, --march, --mattr, --mcpu   - Accepted and ignored\n"
    )
}

/// Runs mlir-runner's command line `args`; `prog` names the program in
/// messages. Returns the exit status.
pub fn main(args: &[String], prog: &str) -> i32 {
    let o = match parse(args, prog) {
        Ok(o) => o,
        Err(msg) => {
            // LLVM prefixes its option errors with the program's base name.
            let base = prog.rsplit('/').next().unwrap_or(prog);
            for line in msg.lines() {
                if line.starts_with("Can specify") {
                    eprintln!("{line}");
                } else {
                    eprintln!("{base}: {line}");
                }
            }
            return EXIT_RUNTIME;
        }
    };
    if o.help {
        print!("{}", usage(prog));
        return 0;
    }
    if o.host_supports_jit {
        println!("true");
        return 0;
    }
    for lib in &o.libs {
        let file = lib.rsplit('/').next().unwrap_or(lib);
        if !BUILT_IN.iter().any(|b| file.contains(b)) {
            eprintln!("mlir-interp: warning: --shared-libs: '{lib}' is not built in; calls into it are unsupported");
        }
    }
    let src = match read_input(o.input.as_deref()) {
        Ok(s) => s,
        Err(msg) => {
            eprintln!("{msg}");
            eprintln!("could not parse the input IR");
            return EXIT_RUNTIME;
        }
    };
    let m = match mlir_ir::parse_and_verify_with(&src, &driver::limits()) {
        Ok(m) => m,
        Err(d) => {
            eprint!("{}", d.render(&src));
            eprintln!("could not parse the input IR");
            return EXIT_RUNTIME;
        }
    };
    let cfg = Config { matrix_row_major: o.matrix_row_major, matrix_contract: o.matrix_contract, ..Config::default() };
    let entry = o.entry.unwrap_or_else(|| "main".to_string());
    let res = o.result.unwrap_or(EntryResult::F32);
    match driver::on_engine_thread(&cfg, || run(&m, &src, cfg.clone(), &entry, res)) {
        Ok(code) => code,
        Err(e) => {
            let (code, msg) = e.report();
            eprintln!("error: {msg}");
            if code == EXIT_INTERNAL {
                code
            } else {
                EXIT_RUNTIME
            }
        }
    }
}

/// The input file, or standard input for `-` or none.
fn read_input(input: Option<&str>) -> Result<Source, String> {
    match input {
        None | Some("-") => {
            let mut text = String::new();
            std::io::stdin().read_to_string(&mut text).map_err(|e| format!("cannot read standard input: {e}"))?;
            Ok(Source::new("<stdin>", text))
        }
        Some(f) => std::fs::read_to_string(f)
            .map(|t| Source::new(f, t))
            .map_err(|e| format!("cannot open input file '{f}': {}", io_reason(&e))),
    }
}

/// An I/O error as the C library words it (what mlir-runner prints).
fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "No such file or directory".into(),
        std::io::ErrorKind::PermissionDenied => "Permission denied".into(),
        _ => e.to_string(),
    }
}

/// Checks the entry as mlir-runner does before running it, runs it and
/// prints its result.
fn run(m: &mlir_ir::Module, src: &Source, cfg: Config, entry: &str, res: EntryResult) -> i32 {
    let stdout = std::io::stdout();
    let out = Box::new(std::io::BufWriter::new(stdout.lock()));
    let mut e = match Engine::load(m, cfg, out) {
        Ok(e) => e,
        Err(err) => {
            eprint!("{}", err.render(m, src));
            return EXIT_RUNTIME;
        }
    };
    let func = e.func_by_name(entry).map(|f| e.funcs[f.0 as usize].clone()).filter(|f| f.body.is_some());
    let Some(func) = func else {
        eprintln!("Error: entry point not found");
        return EXIT_RUNTIME;
    };
    if !func.inputs.is_empty() {
        eprintln!("Error: JIT can't invoke a main function expecting arguments");
        return EXIT_RUNTIME;
    }
    if let Err(msg) = driver::check_result_type(&e, &func.results, res) {
        eprintln!("Error: {msg}");
        return EXIT_RUNTIME;
    }
    let r = e.run_entry_then(entry, Vec::new(), |e, vals| driver::print_result(e, entry, vals, res)).map(|_| ());
    let _ = e.out.flush();
    match r {
        Ok(()) => 0,
        Err(err) => {
            eprint!("{}", err.render(m, src));
            // mlir-runner dies of SIGABRT: the status a shell reports for it.
            if err.kind == crate::error::ErrorKind::Abort {
                128 + 6
            } else {
                EXIT_RUNTIME
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    /// LLVM's option syntax: one or two dashes, `=value` or the next word.
    #[test]
    fn reads_llvm_style_options() {
        let o = parse(&args("t.mlir -e entry -entry-point-result=void -shared-libs=a.so,b.so --O3"), "p").unwrap();
        assert_eq!((o.input.as_deref(), o.entry.as_deref()), (Some("t.mlir"), Some("entry")));
        assert_eq!((o.result, o.libs.len()), (Some(EntryResult::Void), 2));
        let o = parse(&args("--e=main --entry-point-result i64 --shared-libs x.so --shared-libs y.so"), "p").unwrap();
        assert_eq!((o.entry.as_deref(), o.result, o.libs), (Some("main"), Some(EntryResult::I64), args("x.so y.so")));
        assert_eq!(
            parse(&args("-emain"), "p").unwrap_err(),
            "Unknown command line argument '-emain'.  Try: 'p --help'"
        );
        assert!(parse(&args("a.mlir b.mlir"), "p").unwrap_err().starts_with("Too many positional arguments"));
        assert_eq!(parse(&args("-e"), "p").unwrap_err(), "for the -e option: requires a value!");
    }
}
