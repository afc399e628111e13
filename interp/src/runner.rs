//! `mlir-interp runner ...` (or the binary called through a link named
//! `mlir-runner`): mlir-runner's command line, so a lit RUN line
//! `mlir-opt %s ... | mlir-runner -e main -entry-point-result=void
//! -shared-libs=%mlir_c_runner_utils | FileCheck %s` runs with the
//! interpreter in mlir-runner's place. Options are read as LLVM's
//! command-line library reads them (one or two dashes, `=value` or the
//! next argument); the messages and exit codes of the failures mlir-runner
//! reports are its own. The runtime libraries are built in: the known ones
//! are accepted silently, any other is a warning.
//!
//! As a drop-in it refuses what mlir-runner refuses: an op outside the LLVM
//! dialect (mlir-runner registers only the dialects it can translate, so a
//! left-over `arith` or `vector` op fails its parse) or a
//! `builtin.unrealized_conversion_cast` (which it cannot translate), each
//! with mlir-runner's message, so an incomplete lowering fails here as it
//! fails there. `--allow-unlowered` runs every dialect the interpreter does.

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
    /// `--no-implicit-module`: the file must be one top-level module.
    no_implicit_module: bool,
    /// `--allow-unlowered` (ours): run ops mlir-runner cannot translate.
    allow_unlowered: bool,
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
            "no-implicit-module" if inline.is_none() => o.no_implicit_module = true,
            "allow-unlowered" if inline.is_none() => o.allow_unlowered = true,
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
         \x20 --no-implicit-module                     - Disable implicit addition of a top-level module op during parsing\n\
         \x20 --allow-unlowered                        - Run ops mlir-runner cannot translate (arith, vector, func, ...) too\n\
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
    // In mlir-runner's order: the parse fails at an unregistered dialect
    // before the top level is looked at.
    let refused = (!o.allow_unlowered)
        .then(|| unregistered(&m, &src))
        .flatten()
        .or_else(|| check_top_level(&m, &src, o.no_implicit_module).err());
    if let Some(msg) = refused {
        eprintln!("{msg}");
        eprintln!("could not parse the input IR");
        return EXIT_RUNTIME;
    }
    let cfg = Config { matrix_row_major: o.matrix_row_major, matrix_contract: o.matrix_contract, ..Config::default() };
    let entry = o.entry.unwrap_or_else(|| "main".to_string());
    let res = o.result.unwrap_or(EntryResult::F32);
    let strict = !o.allow_unlowered;
    match driver::on_engine_thread(&cfg, || run(&m, &src, cfg.clone(), &entry, res, strict)) {
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
fn run(m: &mlir_ir::Module, src: &Source, cfg: Config, entry: &str, res: EntryResult, strict: bool) -> i32 {
    let stdout = std::io::stdout();
    let out = Box::new(std::io::BufWriter::new(stdout.lock()));
    let mut e = match Engine::load(m, cfg, out) {
        Ok(e) => e,
        Err(err) => {
            eprint!("{}", err.render_cli(m, src));
            return EXIT_RUNTIME;
        }
    };
    let func = e.func_by_name(entry).map(|f| e.funcs[f.0 as usize].clone()).filter(|f| f.body.is_some());
    // mlir-runner looks the entry up in the top-level module only.
    let func = func.filter(|f| !strict || m.parent_op(f.op) == m.top);
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
    // mlir-runner translates the module to LLVM IR after checking the entry.
    if let Some(msg) = strict.then(|| untranslatable(m, src)).flatten() {
        eprintln!("{msg}");
        eprintln!("Error: could not convert to LLVM IR");
        return EXIT_RUNTIME;
    }
    let r = e.run_entry_then(entry, Vec::new(), |e, vals| driver::print_result(e, entry, vals, res)).map(|_| ());
    let _ = e.out.flush();
    match r {
        Ok(()) => 0,
        Err(err) => {
            eprint!("{}", err.render_cli(m, src));
            // mlir-runner dies of SIGABRT: the status a shell reports for it.
            if err.kind == crate::error::ErrorKind::Abort {
                128 + 6
            } else {
                EXIT_RUNTIME
            }
        }
    }
}

/// mlir-runner's location of offset `at`: `loc("FILE":LINE:COL)`.
fn loc(src: &Source, at: usize) -> String {
    let (line, col) = src.line_col(at as u32);
    format!("loc(\"{}\":{line}:{col})", src.name)
}

/// Where `op`'s name is written, and whether in generic form (quoted);
/// `None` for an op the text does not spell at its span (one the parser
/// added, or whose dialect prefix is elided).
fn name_at(m: &mlir_ir::Module, src: &Source, op: mlir_ir::ir::OpId) -> Option<(usize, bool)> {
    let name = m.op_name(op);
    let start = m.op(op).span.start as usize;
    let text = src.text.get(start..)?;
    // Results come first: `%a, %b:2 = name`.
    let skip = if text.starts_with('%') { text.find('=')? + 1 } else { 0 };
    let rest = &text[skip..];
    let at = start + skip + (rest.len() - rest.trim_start().len());
    let rest = rest.trim_start();
    if rest.starts_with('"') && rest[1..].starts_with(name) && rest[1 + name.len()..].starts_with('"') {
        return Some((at, true));
    }
    let ends = |r: &str| !r.starts_with(|c: char| c.is_alphanumeric() || c == '_' || c == '.' || c == '$');
    (rest.starts_with(name) && ends(&rest[name.len()..])).then_some((at, false))
}

/// Ops in the order their names appear in the text.
fn ops_in_text_order(m: &mlir_ir::Module, src: &Source) -> Vec<(usize, bool, mlir_ir::ir::OpId)> {
    let mut ops: Vec<_> = (0..m.ops.len() as u32)
        .map(mlir_ir::ir::OpId)
        .filter_map(|op| name_at(m, src, op).map(|(at, generic)| (at, generic, op)))
        .collect();
    ops.sort_unstable_by_key(|x| x.0);
    ops
}

/// mlir-runner's parse error for the first op of a dialect it does not
/// register (it registers the dialects it translates to LLVM IR, none of
/// which but `llvm` and `builtin` this engine runs).
fn unregistered(m: &mlir_ir::Module, src: &Source) -> Option<String> {
    ops_in_text_order(m, src).into_iter().find_map(|(at, generic, op)| {
        let name = m.op_name(op);
        let dialect = name.split_once('.').map_or(name, |d| d.0);
        if matches!(dialect, "llvm" | "builtin") {
            return None;
        }
        Some(if generic {
            // MLIR points after the quoted name.
            format!(
                "{}: error: operation being parsed with an unregistered dialect. If this is intended, please use -allow-unregistered-dialect with the MLIR tool used",
                loc(src, at + name.len() + 2)
            )
        } else {
            // (mlir-runner's message ends in a space.)
            format!("{}: error: Dialect `{dialect}' not found for custom op '{name}' ", loc(src, at))
        })
    })
}

/// mlir-runner's translation error for the first op of a registered
/// dialect that has no translation to LLVM IR.
fn untranslatable(m: &mlir_ir::Module, src: &Source) -> Option<String> {
    ops_in_text_order(m, src).into_iter().find_map(|(at, _, op)| {
        let name = m.op_name(op);
        (name == "builtin.unrealized_conversion_cast")
            .then(|| format!("{}: error: LLVM Translation failed for operation: {name}", loc(src, at)))
    })
}

/// `--no-implicit-module`: the text must be one op, a module (mlir-runner
/// wraps anything else in a module unless told not to).
fn check_top_level(m: &mlir_ir::Module, src: &Source, no_implicit_module: bool) -> Result<(), String> {
    let Some(top) = m.top.filter(|_| no_implicit_module) else { return Ok(()) };
    // The parser's implicit module spans nothing; a written one spans its text.
    if m.op(top).span.end > 0 {
        return Ok(());
    }
    let body = m.regions(top).first().and_then(|r| m.region(*r).blocks.first());
    let count = body.map_or(0, |b| m.block(*b).ops.len());
    if count == 1 {
        return Err("Error: top-level op must be a symbol table.".to_string());
    }
    Err(format!("loc(\"{}\":0:0): error: source must contain a single top-level operation, found: {count}", src.name))
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
