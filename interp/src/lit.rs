//! `mlir-interp lit FILE...`: runs LLVM lit tests (MLIR's integration
//! tests, unchanged) with the interpreter standing in for `mlir-runner`
//! and the built-in FileCheck for `FileCheck`. A test's `RUN:` lines (with
//! `DEFINE:`/`REDEFINE:` substitutions, `%s`, `%t`, the runner-library
//! substitutions) run in `bash` with `pipefail`, as lit's shell runs them;
//! `mlir-opt` is the real one (`$MLIR_OPT`, else LLVM 22's, else `PATH`).
//! The tools are found through `PATH` (wrappers in a directory of their
//! own), so `env VAR=1 mlir-runner` and `not FileCheck` reach them too.
//! `REQUIRES:`, `UNSUPPORTED:`, `XFAIL:` and `%if COND %{ .. %} %else
//! %{ .. %}` are evaluated as lit does against the features MLIR's lit
//! configuration gives this host (`lit_expr.rs`). A RUN line that needs a
//! tool that is not installed is skipped and named; a test with all lines
//! skipped is unsupported. Exit 1 if a test failed.
//!
//! `--direct` needs no LLVM at all: a RUN line `mlir-opt %s PASSES |
//! mlir-runner ...` runs the test file itself (the interpreter executes the
//! dialects the passes would lower), unless a pass changes what the program
//! means (a transform schedule, sparsification) or its output is what the
//! line checks; a transform schedule that the line erases is erased here.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// A test's verdict, as lit names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    Pass,
    Fail,
    Unsupported,
    Xfail,
    Xpass,
    /// The test's directives could not be read (a malformed `%if` or
    /// feature expression); a failure, as in lit.
    Unresolved,
}

impl Verdict {
    fn name(self) -> &'static str {
        match self {
            Verdict::Pass => "PASS",
            Verdict::Fail => "FAIL",
            Verdict::Unsupported => "UNSUPPORTED",
            Verdict::Xfail => "XFAIL",
            Verdict::Xpass => "XPASS",
            Verdict::Unresolved => "UNRESOLVED",
        }
    }
}

/// The directives of one test file.
#[derive(Default, Debug)]
struct Script {
    /// RUN commands with their line numbers, continuations joined.
    runs: Vec<(usize, String)>,
    /// `REQUIRES:` expressions: all must hold.
    requires: Vec<String>,
    /// `UNSUPPORTED:` expressions: none may hold.
    unsupported: Vec<String>,
    /// `XFAIL:` expressions (`*` for all): the test fails if one holds.
    xfail: Vec<String>,
}

/// Where the tools the RUN lines name come from.
struct Tools {
    mlir_opt: Option<PathBuf>,
    /// `--direct`: the interpreter runs the test file instead of what
    /// mlir-opt makes of it.
    direct: bool,
    /// The features lit's expressions are evaluated against.
    features: Vec<String>,
    /// The directory of tool wrappers put first on `PATH`.
    bin: PathBuf,
}

/// Runs `mlir-interp lit [-v] [--timeout S] FILE|DIR...`.
pub fn main(args: &[String]) -> i32 {
    let mut verbose = false;
    let mut llvm = false;
    let mut direct = false;
    let mut timeout = Duration::from_secs(60);
    let mut paths = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-v" | "--verbose" => verbose = true,
            "--llvm" => llvm = true,
            "--direct" => direct = true,
            "--timeout" => match it.next().and_then(|s| s.parse::<f64>().ok()).filter(|s| *s > 0.0) {
                Some(s) => timeout = Duration::from_secs_f64(s),
                None => {
                    eprintln!("lit: --timeout needs a number of seconds");
                    return 2;
                }
            },
            "-h" | "--help" => {
                println!("usage: mlir-interp lit [-v] [--llvm | --direct] [--timeout SECONDS] FILE|DIR...\n\nRuns lit tests' RUN lines with mlir-interp as mlir-runner and FileCheck\n(--llvm: with LLVM 22's own, for reference; --direct: the test file runs\nunlowered, without mlir-opt).");
                return 0;
            }
            s if s.starts_with('-') => {
                eprintln!("lit: unknown option '{s}'");
                return 2;
            }
            _ => paths.push(PathBuf::from(a)),
        }
    }
    if paths.is_empty() {
        eprintln!("lit: no test files given");
        return 2;
    }
    if llvm && direct {
        eprintln!("lit: --llvm and --direct exclude each other (LLVM's mlir-runner needs the lowered program)");
        return 2;
    }
    let mut files = Vec::new();
    for p in &paths {
        if let Err(e) = collect(p, &mut files) {
            eprintln!("lit: {}: {e}", p.display());
            return 2;
        }
    }
    let me = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("mlir-interp"));
    let mlir_opt = find_mlir_opt();
    let bin = std::env::temp_dir().join(format!("mlir-interp-lit-bin-{}", std::process::id()));
    if let Err(e) = write_tools(&bin, &me, mlir_opt.as_deref(), llvm, direct) {
        eprintln!("lit: cannot write the tool wrappers in {}: {e}", bin.display());
        return 2;
    }
    let tools = Tools { mlir_opt, direct, features: crate::lit_expr::host_features(), bin };
    if tools.mlir_opt.is_none() && !direct {
        eprintln!(
            "lit: note: mlir-opt not found ($MLIR_OPT, /usr/lib/llvm-22/bin, PATH): RUN lines using it are skipped"
        );
    }
    let mut counts = std::collections::BTreeMap::<&str, usize>::new();
    let n = files.len();
    for (k, f) in files.iter().enumerate() {
        let (v, detail) = run_test(f, &tools, timeout);
        *counts.entry(v.name()).or_default() += 1;
        println!("{}: {} ({} of {n})", v.name(), f.display(), k + 1);
        if !detail.is_empty()
            && (verbose || matches!(v, Verdict::Fail | Verdict::Xpass | Verdict::Unsupported | Verdict::Unresolved))
        {
            let show = if verbose || v != Verdict::Unsupported {
                detail.clone()
            } else {
                detail.lines().next().unwrap_or("").to_string()
            };
            for l in show.lines() {
                println!("  {l}");
            }
        }
    }
    let _ = std::fs::remove_dir_all(&tools.bin);
    println!("\nTotal Discovered Tests: {n}");
    for (name, c) in &counts {
        println!("  {name}: {c}");
    }
    i32::from(["FAIL", "XPASS", "UNRESOLVED"].iter().any(|k| counts.contains_key(k)))
}

/// `p`, or the `.mlir` files under it, sorted.
fn collect(p: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if p.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(p)?.filter_map(|e| e.ok().map(|e| e.path())).collect();
        entries.sort();
        for e in entries {
            if e.is_dir() || e.extension().is_some_and(|x| x == "mlir") {
                collect(&e, out)?;
            }
        }
        Ok(())
    } else {
        std::fs::metadata(p)?;
        out.push(p.to_path_buf());
        Ok(())
    }
}

fn find_mlir_opt() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("MLIR_OPT") {
        return Some(PathBuf::from(p)).filter(|p| p.exists());
    }
    let llvm = PathBuf::from("/usr/lib/llvm-22/bin/mlir-opt");
    if llvm.exists() {
        return Some(llvm);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join("mlir-opt")).find(|p| p.exists())
}

/// Reads the lit directives of `text`.
fn parse(text: &str) -> Script {
    let mut s = Script::default();
    let mut pending: Option<(usize, String)> = None;
    for (i, line) in text.lines().enumerate() {
        let Some(at) = ["RUN:", "REQUIRES:", "UNSUPPORTED:", "XFAIL:"].iter().find_map(|k| line.find(k)) else {
            continue;
        };
        let (kw, rest) = line[at..].split_once(':').unwrap_or(("", ""));
        // A keyword glued to a word (`XRUN:`, `CHECK-RUN:`) is not lit's.
        if at > 0 && line.as_bytes()[at - 1].is_ascii_alphanumeric() {
            continue;
        }
        let rest = rest.trim();
        match kw {
            "RUN" => {
                let (text, more) = match rest.strip_suffix('\\') {
                    Some(t) => (t.trim_end(), true),
                    None => (rest, false),
                };
                let cur = pending.get_or_insert((i + 1, String::new()));
                if !cur.1.is_empty() {
                    cur.1.push(' ');
                }
                cur.1.push_str(text);
                if !more {
                    s.runs.extend(pending.take());
                }
            }
            "REQUIRES" => s.requires.extend(items(rest)),
            "UNSUPPORTED" => s.unsupported.extend(items(rest)),
            "XFAIL" => s.xfail.extend(items(rest)),
            _ => {}
        }
    }
    s.runs.extend(pending);
    s
}

/// The comma-separated expressions of a `REQUIRES:`-style line.
fn items(rest: &str) -> impl Iterator<Item = String> + '_ {
    rest.split(',').map(|x| x.trim().to_string()).filter(|x| !x.is_empty())
}

/// Writes the tools RUN lines name into `bin` as scripts, so they are
/// found through `PATH` wherever a command names them (after `env VAR=1`,
/// `not`, `xargs`), as lit's tool substitutions reach them.
fn write_tools(bin: &Path, me: &Path, mlir_opt: Option<&Path>, llvm: bool, direct: bool) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(bin)?;
    let me = shell_quote(&me.display().to_string());
    let (runner, filecheck) = if llvm {
        let libs = ["libmlir_c_runner_utils", "libmlir_runner_utils", "libmlir_apfloat_wrappers"]
            .map(|l| format!("{LLVM_LIB}/{l}.so.22.1"))
            .join(",");
        (format!("/usr/lib/llvm-22/bin/mlir-runner -shared-libs={libs}"), "/usr/lib/llvm-22/bin/FileCheck".to_string())
    } else if direct {
        // The source runs unlowered: that is the point of --direct.
        (format!("{me} runner --allow-unlowered"), format!("{me} filecheck"))
    } else {
        // Refusing what mlir-runner refuses, so an incomplete lowering
        // fails here as it fails there.
        (format!("{me} runner"), format!("{me} filecheck"))
    };
    let opt = mlir_opt.map_or_else(|| "mlir-opt-not-found".to_string(), |p| shell_quote(&p.display().to_string()));
    let not = "if [ \"$1\" = --crash ]; then shift; \"$@\"; [ $? -ge 128 ]; else \"$@\"; [ $? -ne 0 ]; fi";
    let scripts = [
        ("mlir-runner", format!("exec {runner} \"$@\"")),
        ("mlir-cpu-runner", format!("exec {runner} \"$@\"")),
        ("FileCheck", format!("exec {filecheck} \"$@\"")),
        ("mlir-opt", format!("exec {opt} \"$@\"")),
        ("not", not.to_string()),
    ];
    for (name, body) in scripts {
        let p = bin.join(name);
        std::fs::write(&p, format!("#!/bin/sh\n{body}\n"))?;
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755))?;
    }
    Ok(())
}

/// `s` quoted for `sh`.
fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// `DEFINE: %{name} = value` lines (a value may continue on the next
/// `DEFINE:` line after a trailing `\`, as in a RUN line), in file
/// order, as (line, name, value).
fn defines(text: &str) -> Vec<(usize, String, String)> {
    let mut out: Vec<(usize, String, String)> = Vec::new();
    let mut more = false;
    for (i, line) in text.lines().enumerate() {
        for kw in ["REDEFINE:", "DEFINE:"] {
            let Some(at) = line.find(kw) else { continue };
            if kw == "DEFINE:" && line[..at].ends_with("RE") {
                continue;
            }
            let body = line[at + kw.len()..].trim();
            let (body, cont) = match body.strip_suffix('\\') {
                Some(b) => (b.trim_end(), true),
                None => (body, false),
            };
            match out.last_mut() {
                Some(last) if more => {
                    last.2.push(' ');
                    last.2.push_str(body);
                }
                _ => {
                    if let Some((name, value)) = body.split_once('=') {
                        out.push((i + 1, name.trim().to_string(), value.trim().to_string()));
                    }
                }
            }
            more = cont;
            break;
        }
    }
    out
}

/// Applies lit's substitutions to one RUN command.
/// Where mlir-22-tools installs LLVM 22's MLIR runtime libraries.
const LLVM_LIB: &str = "/usr/lib/llvm-22/lib";

fn substitute(
    cmd: &str,
    file: &Path,
    tmp: &Path,
    defs: &[(String, String)],
    features: &[String],
) -> Result<String, String> {
    let mut c = cmd.to_string();
    // `%{name}` definitions may use each other: expand to a fixed point.
    for _ in 0..16 {
        let before = c.clone();
        for (n, v) in defs {
            c = c.replace(n.as_str(), v);
        }
        if c == before {
            break;
        }
    }
    // `%if` before the other substitutions, with `%%` kept out of it, as
    // lit orders them.
    let c = crate::lit_expr::substitute_if_else(&c.replace("%%", "\0"), features)?.replace('\0', "%%");
    let dir = file.parent().map_or_else(|| ".".into(), |d| d.display().to_string());
    let dir = if dir.is_empty() { ".".to_string() } else { dir };
    let t = tmp.join("t").display().to_string();
    // LLVM's lit config points this at its `mlir` source directory (the
    // sparse tests read data files under it): the test's own checkout.
    let src = mlir_src_dir(file).map_or_else(|| "%mlir_src_dir".to_string(), |d| d.display().to_string());
    let subs: [(&str, String); 17] = [
        ("%mlir_src_dir", src),
        // What the sparse tests' lit.local.cfg defines without Arm SVE.
        ("%mlir_native_utils_lib_dir", LLVM_LIB.into()),
        ("%ENABLE_VLA", "false".into()),
        ("%VLA_ARCH_ATTR_OPTIONS", String::new()),
        ("%lli", "lli".into()),
        // The libraries where mlir-22-tools installs them (the built-in
        // runner only reads the names; `--llvm`'s mlir-runner loads them).
        ("%mlir_c_runner_utils", format!("{LLVM_LIB}/libmlir_c_runner_utils.so.22.1")),
        ("%mlir_runner_utils", format!("{LLVM_LIB}/libmlir_runner_utils.so.22.1")),
        ("%mlir_apfloat_wrappers", format!("{LLVM_LIB}/libmlir_apfloat_wrappers.so.22.1")),
        ("%mlir_lib_dir", LLVM_LIB.into()),
        ("%{shlibext}", ".so".into()),
        ("%shlibext", ".so".into()),
        ("%{pathsep}", ":".into()),
        ("%s", file.display().to_string()),
        ("%S", dir.clone()),
        ("%p", dir),
        ("%t", t),
        ("%T", tmp.display().to_string()),
    ];
    let mut out = String::new();
    let mut rest = c.as_str();
    'outer: while let Some(i) = rest.find('%') {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        if let Some(r) = rest.strip_prefix("%%") {
            out.push('%');
            rest = r;
            continue;
        }
        for (k, v) in &subs {
            if let Some(r) = rest.strip_prefix(k) {
                out.push_str(v);
                rest = r;
                continue 'outer;
            }
        }
        out.push('%');
        rest = &rest[1..];
    }
    out.push_str(rest);
    Ok(out.trim().to_string())
}

/// The `mlir` directory of the LLVM checkout `file` lies in: its nearest
/// ancestor named `mlir` that holds a `test` directory.
fn mlir_src_dir(file: &Path) -> Option<PathBuf> {
    let abs = std::path::absolute(file).ok()?;
    abs.ancestors()
        .skip(1)
        .find(|d| d.file_name().is_some_and(|n| n == "mlir") && d.join("test").is_dir())
        .map(Path::to_path_buf)
}

/// Whether `word` appears in `cmd` as a command word (not inside a path
/// or another name).
fn names_tool(cmd: &str, word: &str) -> bool {
    cmd.split(|c: char| c.is_whitespace() || c == '|' || c == ';' || c == '(' || c == ')').any(|w| w == word)
}

/// Runs one test file.
fn run_test(file: &Path, tools: &Tools, timeout: Duration) -> (Verdict, String) {
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => return (Verdict::Fail, format!("cannot read: {e}")),
    };
    let script = parse(&text);
    let holds = |e: &String| e == "*" || crate::lit_expr::eval(e, &tools.features).unwrap_or(false);
    let bad = script.requires.iter().chain(&script.unsupported).chain(&script.xfail).filter(|e| *e != "*");
    if let Some(msg) = bad.filter_map(|e| crate::lit_expr::eval(e, &tools.features).err()).next() {
        return (Verdict::Unresolved, msg);
    }
    let missing: Vec<&str> = script.requires.iter().filter(|e| !holds(e)).map(String::as_str).collect();
    let excluded: Vec<&str> = script.unsupported.iter().filter(|e| holds(e)).map(String::as_str).collect();
    let xfail = script.xfail.iter().any(holds);
    if !missing.is_empty() {
        return (
            Verdict::Unsupported,
            format!("Test requires the following unavailable features: {}", missing.join(", ")),
        );
    }
    if !excluded.is_empty() {
        return (
            Verdict::Unsupported,
            format!("Test does not support the following features and/or targets: {}", excluded.join(", ")),
        );
    }
    if script.runs.is_empty() {
        return (Verdict::Unsupported, "no RUN lines".into());
    }
    let tmp = std::env::temp_dir().join(format!("mlir-interp-lit-{}-{}", std::process::id(), unique()));
    if let Err(e) = std::fs::create_dir_all(&tmp) {
        return (Verdict::Fail, format!("cannot make a temporary directory: {e}"));
    }
    // The commands run in the temporary directory: `%s` and `%S` name the
    // test by its absolute path, as lit does.
    let abs = std::path::absolute(file).unwrap_or_else(|_| file.to_path_buf());
    let file = abs.as_path();
    let all_defs = defines(&text);
    let mut detail = String::new();
    let mut ran = 0;
    let mut failed = false;
    for (line, cmd) in &script.runs {
        let defs: Vec<(String, String)> =
            all_defs.iter().filter(|d| d.0 < *line).map(|d| (d.1.clone(), d.2.clone())).rev().collect();
        let mut seen = std::collections::HashSet::new();
        let defs: Vec<_> = defs.into_iter().filter(|d| seen.insert(d.0.clone())).collect();
        let mut cmd = match substitute(cmd, file, &tmp, &defs, &tools.features) {
            Ok(c) => c,
            Err(e) => {
                let _ = std::fs::remove_dir_all(&tmp);
                return (Verdict::Unresolved, format!("line {line}: {e}"));
            }
        };
        if tools.direct {
            match direct_command(&cmd, &text, &tmp) {
                Ok(c) => cmd = c,
                Err(why) => {
                    detail.push_str(&format!("line {line}: skipped ({why}): {cmd}\n"));
                    continue;
                }
            }
        }
        let needs_opt = names_tool(&cmd, "mlir-opt");
        if needs_opt && tools.mlir_opt.is_none() {
            detail.push_str(&format!("line {line}: skipped (needs mlir-opt): {cmd}\n"));
            continue;
        }
        if let Some(t) = ["mlir-translate", "llc", "lli", "clang"].iter().find(|t| names_tool(&cmd, t)) {
            detail.push_str(&format!("line {line}: skipped (needs {t}, which is not built in): {cmd}\n"));
            continue;
        }
        // A line that substitutes to nothing (a false `%if` with no
        // `%else`) runs no command, so it cannot make a test pass.
        if cmd.trim().is_empty() {
            continue;
        }
        ran += 1;
        let path = std::env::var_os("PATH").unwrap_or_default();
        let path = std::env::join_paths(std::iter::once(tools.bin.clone()).chain(std::env::split_paths(&path)))
            .unwrap_or(path);
        let mut bash = Command::new("bash");
        bash.arg("-c").arg(format!("set -o pipefail\n{cmd}")).current_dir(&tmp).env("PATH", path).stdin(Stdio::null());
        let (code, out, err) = match crate::differential::run_bounded(bash, timeout) {
            Ok(x) => x,
            Err(e) => (None, String::new(), e),
        };
        if code != Some(0) {
            failed = true;
            let status = code.map_or_else(|| "killed".to_string(), |c| format!("exit {c}"));
            detail.push_str(&format!("line {line}: {status}: {cmd}\n"));
            for (what, s) in [("stdout", &out), ("stderr", &err)] {
                if !s.is_empty() {
                    detail.push_str(&format!("--- {what}:\n{s}"));
                    if !s.ends_with('\n') {
                        detail.push('\n');
                    }
                }
            }
            break;
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    if ran == 0 {
        return (Verdict::Unsupported, detail);
    }
    let v = match (failed, xfail) {
        (false, false) => Verdict::Pass,
        (true, false) => Verdict::Fail,
        (true, true) => Verdict::Xfail,
        (false, true) => Verdict::Xpass,
    };
    (v, detail)
}

/// Passes after which a program no longer means what its text says: they
/// apply a transform schedule or rewrite it by a strategy of their own.
/// (The sparsifier is a lowering: its source runs directly.)
const CHANGES_MEANING: &[&str] = &[
    "transform-interpreter",
    "test-transform-dialect-interpreter",
    "test-vector-warp-distribute",
    "test-vector-distribute",
    "test-linalg",
    "test-tensor",
];

/// The `--direct` form of RUN command `cmd`: its `mlir-opt FILE PASSES`
/// stages dropped and FILE given to the runner (or copied to the file
/// `-o` names, for a later command to run); `Err` says why the line
/// cannot run that way.
fn direct_command(cmd: &str, text: &str, tmp: &Path) -> Result<String, String> {
    let parts = split_top(cmd, "&&");
    let direct = parts.iter().map(|p| direct_part(p, text, tmp)).collect::<Result<Vec<_>, _>>()?;
    Ok(direct.join(" && "))
}

/// [`direct_command`] of one command of an `&&` chain.
fn direct_part(cmd: &str, text: &str, tmp: &Path) -> Result<String, String> {
    let stages = split_pipe(cmd);
    // The tool of a stage: after `not` (and its flags) and after `env`
    // with its `VAR=VALUE` settings.
    let tool = |st: &str| {
        let first = st
            .split_whitespace()
            .find(|x| !matches!(*x, "not" | "env") && !x.starts_with("--") && !x.contains('='))
            .unwrap_or("");
        first.rsplit('/').next().unwrap_or(first).to_string()
    };
    let run_at = stages.iter().position(|st| matches!(tool(st).as_str(), "mlir-runner" | "mlir-cpu-runner"));
    // A command that runs none of the tools (`rm -f %t`) stays as it is.
    if run_at.is_none() && !stages.iter().any(|st| matches!(tool(st).as_str(), "mlir-opt" | "FileCheck")) {
        return Ok(cmd.to_string());
    }
    if run_at.is_none() && stages.iter().any(|st| tool(st) != "mlir-opt") {
        return Err("checks compiler output, not execution".into());
    }
    let (mut input, mut erase, mut output) = (None, false, None);
    for st in &stages[..run_at.unwrap_or(stages.len())] {
        if tool(st) != "mlir-opt" {
            return Err(format!("feeds the runner from {}", tool(st)));
        }
        let mut words = st.split_whitespace().skip(1);
        while let Some(w) = words.next() {
            let flag = w.trim_start_matches('-');
            if flag == "test-transform-dialect-erase-schedule" {
                erase = true;
            } else if w == "-o" {
                output = words.next().map(str::to_string);
            } else if flag.starts_with("generate-runtime-verification") {
                return Err("checks the messages of -generate-runtime-verification's checks".into());
            } else if let Some(p) = CHANGES_MEANING.iter().find(|p| flag.contains(*p)) {
                return Err(format!("the pipeline changes what the program means: {w} ({p})"));
            } else if !w.starts_with('-') && input.is_none() {
                input = Some(w.to_string());
            }
        }
    }
    // `mlir-opt FILE PASSES -o OUT`: what the runner later reads from OUT
    // is FILE itself.
    let (Some(run_at), None) = (run_at, &output) else {
        let (Some(out), None, Some(file)) = (&output, run_at, &input) else {
            return Err("checks compiler output, not execution".into());
        };
        let file = if erase { erased_copy(text, tmp)? } else { file.clone() };
        return Ok(format!("cp {file} {out}"));
    };
    let runner = &stages[run_at];
    let file = match input {
        Some(f) => f,
        None if run_at == 0 => return Ok(cmd.to_string()),
        None => return Err("mlir-opt reads no file".into()),
    };
    let file = if erase { erased_copy(text, tmp)? } else { file };
    let rest = stages[run_at + 1..].iter().map(|s| format!(" | {s}")).collect::<String>();
    Ok(format!("{runner} {file}{rest}"))
}

/// The test's text without its transform schedule, written to a file in
/// `tmp`; its path.
fn erased_copy(text: &str, tmp: &Path) -> Result<String, String> {
    let erased = erase_schedule(text).ok_or("a schedule to erase that is not a top-level op")?;
    let at = tmp.join("schedule-erased.mlir");
    std::fs::write(&at, erased).map_err(|e| format!("cannot write {}: {e}", at.display()))?;
    Ok(at.display().to_string())
}

/// `cmd` split at `sep` outside quotes, each part trimmed.
fn split_top(cmd: &str, sep: &str) -> Vec<String> {
    let (mut out, mut cur, mut quote) = (Vec::new(), String::new(), None);
    let mut rest = cmd;
    while let Some(c) = rest.chars().next() {
        match (quote, c) {
            (Some(q), _) if c == q => quote = None,
            (None, '"' | '\'') => quote = Some(c),
            (None, _) if rest.starts_with(sep) => {
                out.push(std::mem::take(&mut cur).trim().to_string());
                rest = &rest[sep.len()..];
                continue;
            }
            _ => {}
        }
        cur.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out.push(cur.trim().to_string());
    out
}

/// `cmd`'s stages, split at `|` outside quotes.
fn split_pipe(cmd: &str) -> Vec<String> {
    let mut out = split_top(cmd, "|");
    out.retain(|s| !s.is_empty());
    out
}

/// `text` without its top-level transform schedule (each `module
/// [@name] attributes {transform.with_named_sequence}` block and each
/// top-level `transform.` op such as an old `transform.sequence`), as
/// `-test-transform-dialect-erase-schedule` removes it; `None` when there
/// is none.
fn erase_schedule(text: &str) -> Option<String> {
    let mut lines: Vec<&str> = text.split_inclusive('\n').collect();
    let is_schedule = |l: &&str| {
        (l.trim_start().starts_with("module") && l.contains("transform.with_named_sequence"))
            || l.starts_with("transform.")
    };
    let mut erased = false;
    while let Some(start) = lines.iter().position(is_schedule) {
        let (mut depth, mut body, mut end) = (0i64, false, None);
        for (k, l) in lines.iter().enumerate().skip(start) {
            let code = l.split("//").next().unwrap_or("");
            // The attribute dictionary opens and closes before the body does.
            depth += code.matches('{').count() as i64 - code.matches('}').count() as i64;
            body |= depth > 0;
            if body && depth == 0 {
                end = Some(k);
                break;
            }
        }
        lines.drain(start..=end?);
        erased = true;
    }
    erased.then(|| lines.concat())
}

fn unique() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::Relaxed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_lines_join_continuations_and_skip_glued_keywords() {
        let s = parse("// RUN: a \\\n// RUN:   | b\n// XRUN: no\n// REQUIRES: x, y\n// XFAIL: *\n// UNSUPPORTED: z\n");
        assert_eq!(s.runs, vec![(1, "a | b".to_string())]);
        assert_eq!(s.requires, vec!["x", "y"]);
        assert_eq!((s.xfail, s.unsupported), (vec!["*".to_string()], vec!["z".to_string()]));
    }

    #[test]
    fn substitutions_as_lit_makes_them() {
        let defs = vec![
            ("%{run}".to_string(), "mlir-runner -e main %{libs}".to_string()),
            ("%{libs}".into(), "-shared-libs=%mlir_c_runner_utils".into()),
        ];
        let c = substitute("%{run} %s | FileCheck %s 100%%", Path::new("d/x.mlir"), Path::new("/tmp/q"), &defs, &[])
            .unwrap();
        let want = "mlir-runner -e main -shared-libs=/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so.22.1 d/x.mlir | FileCheck d/x.mlir 100%";
        assert_eq!(c, want);
        assert_eq!(
            substitute("%t.o %S", Path::new("d/x.mlir"), Path::new("/tmp/q"), &[], &[]).unwrap(),
            "/tmp/q/t.o d"
        );
        // `%if` sees the features; `%%if` is no `%if`.
        let f = vec!["system-linux".to_string()];
        let c = substitute(
            "%if system-linux %{a %s%} %else %{b%} %%if x %{",
            Path::new("x.mlir"),
            Path::new("/t"),
            &[],
            &f,
        );
        assert_eq!(c.unwrap(), "a x.mlir %if x %{");
    }

    #[test]
    fn mlir_src_dir_is_the_tests_own_checkout() {
        let root = std::env::temp_dir().join(format!("lit-src-{}", std::process::id()));
        let d = root.join("llvm/mlir/test/Integration/Dialect/SparseTensor/CPU");
        std::fs::create_dir_all(&d).unwrap();
        let f = d.join("x.mlir");
        let c =
            substitute("TENSOR0=%mlir_src_dir/test/Integration/data/w.mtx %ENABLE_VLA", &f, Path::new("/t"), &[], &[]);
        let want = format!("TENSOR0={}/test/Integration/data/w.mtx false", root.join("llvm/mlir").display());
        assert_eq!(c.unwrap(), want);
        // Outside a checkout it stays as written, and the command fails there.
        let c = substitute("%mlir_src_dir/x", Path::new("/nowhere/x.mlir"), Path::new("/t"), &[], &[]);
        assert_eq!(c.unwrap(), "%mlir_src_dir/x");
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn defines_continue_on_the_next_define_line() {
        let d =
            defines("// DEFINE: %{run} = mlir-runner -e main \\\n// DEFINE:   -shared-libs=x\n// REDEFINE: %{e} = f\n");
        assert_eq!(d[0], (1, "%{run}".into(), "mlir-runner -e main -shared-libs=x".into()));
        assert_eq!(d[1], (3, "%{e}".into(), "f".into()));
    }

    /// `--direct`: the file mlir-opt reads goes to the runner; `not` and
    /// what follows the runner stay; meaning-changing passes and
    /// compiler-output checks are refused with the reason.
    #[test]
    fn direct_commands() {
        let tmp = Path::new("/nonexistent");
        let d = |c: &str| direct_command(c, "", tmp);
        assert_eq!(
            d("mlir-opt /t/x.mlir -test-lower-to-llvm | mlir-runner -e main | FileCheck /t/x.mlir").unwrap(),
            "mlir-runner -e main /t/x.mlir | FileCheck /t/x.mlir"
        );
        assert_eq!(
            d("mlir-opt x.mlir -a | not mlir-runner -e f 2>&1 | FileCheck x.mlir").unwrap(),
            "not mlir-runner -e f 2>&1 x.mlir | FileCheck x.mlir"
        );
        assert_eq!(
            d("mlir-runner x.mlir -e f | FileCheck x.mlir").unwrap(),
            "mlir-runner x.mlir -e f | FileCheck x.mlir"
        );
        assert!(d("mlir-opt x.mlir -canonicalize | FileCheck x.mlir").unwrap_err().contains("compiler output"));
        assert_eq!(d("mlir-opt x.mlir --sparsifier | mlir-runner -e f").unwrap(), "mlir-runner -e f x.mlir");
        assert!(d("mlir-opt x.mlir -transform-interpreter | mlir-runner -e f").is_err());
        assert_eq!(
            d("mlir-opt x.mlir --sparsifier | env TENSOR0=a.mtx mlir-runner -e f").unwrap(),
            "env TENSOR0=a.mtx mlir-runner -e f x.mlir"
        );
        assert!(d("mlir-opt x.mlir -generate-runtime-verification | mlir-runner -e f").is_err());
        assert_eq!(split_pipe("a '|' b | c"), vec!["a '|' b", "c"]);
        // `-o` output read by a later command is the (schedule-erased) source.
        assert_eq!(
            d("rm -f t && mlir-opt x.mlir -test-lower-to-llvm -o t && mlir-runner t -e main | FileCheck x.mlir")
                .unwrap(),
            "rm -f t && cp x.mlir t && mlir-runner t -e main | FileCheck x.mlir"
        );
        assert!(d("FileCheck x.mlir --check-prefix=IR < t").unwrap_err().contains("compiler output"));
        assert!(d("mlir-opt x.mlir -convert-linalg-to-loops | mlir-runner -e f").is_ok());
    }

    #[test]
    fn schedule_erased_as_the_erase_pass_does() {
        let text =
            "func.func @f() {\n}\nmodule attributes {transform.with_named_sequence} {\n  x {\n  }\n}\n// CHECK: y\n";
        assert_eq!(erase_schedule(text).unwrap(), "func.func @f() {\n}\n// CHECK: y\n");
        let split = "module attributes {transform.with_named_sequence}\n{\n}\nz\n";
        assert_eq!(erase_schedule(split).unwrap(), "z\n");
        assert_eq!(erase_schedule("func.func @f() {\n}\n"), None);
        let named = "module @t attributes { transform.with_named_sequence } {\n}\ntransform.sequence failures(propagate) {\n}\nz\n";
        assert_eq!(erase_schedule(named).unwrap(), "z\n");
    }

    #[test]
    fn tool_words() {
        assert!(names_tool("a | mlir-opt %s", "mlir-opt"));
        assert!(!names_tool("cat mlir-opt.txt", "mlir-opt"));
    }
}
